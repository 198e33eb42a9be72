//! The build manifest: what the last cached build wrote for each game, and a
//! hash of everything that build read.
//!
//! A game is *up to date* when every input that can change its output
//! hashes as it did (its pack folder, `templates/`, `fonts/`, any other
//! project file its layouts read, the options, the output folder, the date
//! written into PDFs and the pnpkit executable) and the folders of its output
//! that a build replaces hold exactly the files that build wrote, each with
//! the same size, modification time and inode. Such a game is neither
//! checked, compiled nor written again: its files, page counts and warnings
//! are reported from the manifest. Anything else — an edit, a deleted or
//! touched output file, a stray file in those folders, a symlink among its
//! inputs, a manifest that does not read — sends the game through the full
//! build, where the per-document cache still applies.
//!
//! The manifest lives in the cache folder (`<out>/.cache/manifest.json`), is
//! replaced whole by rename, and is neither read nor written with `--no-cache`.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fs;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use serde::{Deserialize, Serialize};

use super::cache::{self, DiagRecord, Hasher, Key};
use super::pipeline::{Built, Stats};
use crate::diag::{Diagnostic, SourceMap};
use crate::fsx::read::{Scope, read_bounded};

/// The manifest's file name inside the cache folder.
pub const FILE: &str = "manifest.json";
/// Layout version: a manifest of another version is ignored.
const FORMAT: u64 = 1;
/// The largest manifest read, and the largest input file hashed.
const MAX_MANIFEST: u64 = 64 * 1024 * 1024;
const MAX_INPUT: u64 = crate::fsx::read::max::TEMPLATE_FILE;
/// Bounds on the folders walked for inputs: past them a game is never up to date.
const MAX_FILES: usize = 100_000;
const MAX_DEPTH: usize = 32;

/// What the last cached build wrote, per game.
#[derive(Serialize, Deserialize)]
pub struct Manifest {
    format: u64,
    games: BTreeMap<String, Record>,
}

impl Default for Manifest {
    fn default() -> Self {
        Manifest {
            format: FORMAT,
            games: BTreeMap::new(),
        }
    }
}

/// One game's last build.
#[derive(Clone, Serialize, Deserialize)]
pub struct Record {
    /// The hash of its inputs ([`Inputs::game`]), hex.
    key: String,
    /// Documents laid out for it (design chunks, sheets, covers).
    pub documents: usize,
    /// The kit files, in the order the build reported them.
    pub files: Vec<Written>,
    /// The gallery files.
    pub gallery: Vec<Written>,
    /// Project files outside `templates/` and the pack that its layouts read,
    /// with the hash of their bytes (`None`: they could not be read).
    reads: Vec<(String, Option<String>)>,
}

/// A file a build wrote, as it was on disk just after.
#[derive(Clone, Serialize, Deserialize)]
pub struct Written {
    /// Relative to the output folder, `/`-separated.
    pub path: String,
    pub pages: usize,
    len: u64,
    modified: u128,
    inode: u64,
    /// Its warnings and preflight findings, in order.
    diags: Vec<DiagRecord>,
}

impl Written {
    /// The file's warnings and findings with the texts they show.
    pub fn diagnostics(&self) -> Vec<(Diagnostic, SourceMap)> {
        self.diags.iter().filter_map(|d| d.clone().diagnostic()).collect()
    }
}

/// A file's identity on disk: size, modification time (ns) and inode.
fn stamp(path: &Path) -> Option<(u64, u128, u64)> {
    let m = fs::symlink_metadata(path).ok()?;
    if !m.is_file() {
        return None;
    }
    let modified = m.modified().ok()?.duration_since(UNIX_EPOCH).ok()?.as_nanos();
    #[cfg(unix)]
    let inode = std::os::unix::fs::MetadataExt::ino(&m);
    #[cfg(not(unix))]
    let inode = 0;
    Some((m.len(), modified, inode))
}

/// Every file under `dir` (relative, `/`-separated, sorted), or `None` when
/// the walk meets a symlink, something unreadable or passes its bounds.
fn files_under(dir: &Path) -> Option<Vec<String>> {
    fn walk(dir: &Path, rel: &str, depth: usize, out: &mut Vec<String>) -> Option<()> {
        if depth > MAX_DEPTH {
            return None;
        }
        for e in fs::read_dir(dir).ok()? {
            let e = e.ok()?;
            let name = e.file_name().into_string().ok()?;
            let path = if rel.is_empty() { name } else { format!("{rel}/{name}") };
            let kind = e.file_type().ok()?;
            if kind.is_dir() {
                walk(&e.path(), &path, depth + 1, out)?;
            } else if kind.is_file() {
                out.push(path);
                if out.len() > MAX_FILES {
                    return None;
                }
            } else {
                return None;
            }
        }
        Some(())
    }
    let mut out = Vec::new();
    // A project without `templates/` or `fonts/` uses the built-in ones: an
    // absent folder is an empty one (the executable's hash covers those).
    match fs::symlink_metadata(dir) {
        Ok(m) if m.is_dir() => walk(dir, "", 0, &mut out)?,
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(_) => return None,
    }
    out.sort();
    Some(out)
}

/// A file's bytes as the build reads them: bounded, inside `scope`.
fn read(path: &Path, scope: &Scope) -> Option<Vec<u8>> {
    read_bounded(path, MAX_INPUT, scope).ok()
}

/// Hashes every file of a folder, names and bytes.
fn hash_folder(h: &mut Hasher, dir: &Path, scope: &Scope) -> Option<()> {
    let files = files_under(dir)?;
    h.u64(files.len() as u64);
    for f in files {
        h.str(&f).bytes(&read(&dir.join(&f), scope)?);
    }
    Some(())
}

/// The inputs every game of a build shares, hashed once.
pub struct Inputs {
    base: Key,
    root: PathBuf,
    data: PathBuf,
    /// Where the project's files and the packs may be read.
    in_root: Scope,
    in_data: Scope,
}

impl Inputs {
    /// Hashes the executable, the date, the options, the data and output
    /// folders' names, `templates/` and `fonts/`. `None` when they cannot be
    /// read whole (then nothing counts as up to date).
    pub fn new(root: &Path, data: &Path, out: &Path, epoch: i64, options: &str) -> Option<Inputs> {
        let mut h = Hasher::default();
        h.u64(FORMAT)
            .str(env!("CARGO_PKG_VERSION"))
            .str(&cache::build_identity())
            .u64(epoch as u64)
            .str(&data.to_string_lossy())
            .str(&out.to_string_lossy())
            .str(options);
        let in_root = Scope::within(root).ok()?;
        hash_folder(&mut h, &root.join("templates"), &in_root)?;
        hash_folder(&mut h, &root.join("fonts"), &in_root)?;
        Some(Inputs {
            base: h.finish(),
            root: root.to_path_buf(),
            data: data.to_path_buf(),
            in_root,
            in_data: Scope::within(data).ok()?,
        })
    }

    /// The key of one game: the shared inputs and every file of its pack.
    pub fn game(&self, game: &str) -> Option<Key> {
        let mut h = Hasher::default();
        h.key(self.base).str(game);
        hash_folder(&mut h, &self.data.join(game), &self.in_data)?;
        Some(h.finish())
    }

    /// The hash of a project file as a layout reads it (`/path` from the root).
    fn project_file(&self, vpath: &str) -> Option<String> {
        let rel = vpath.trim_start_matches('/');
        if rel.split('/').any(|c| c == ".." || c.is_empty()) {
            return None;
        }
        read(&self.root.join(rel), &self.in_root).map(|b| cache::hash(&b).hex())
    }
}

impl Manifest {
    /// The manifest in the cache folder `dir`; an empty one when there is
    /// none or it does not read.
    pub fn load(dir: &Path) -> Manifest {
        let read = || -> Option<Manifest> {
            let f = fs::File::open(dir.join(FILE)).ok()?;
            let mut bytes = Vec::new();
            f.take(MAX_MANIFEST + 1).read_to_end(&mut bytes).ok()?;
            let m: Manifest = serde_json::from_slice(&bytes).ok()?;
            (m.format == FORMAT).then_some(m)
        };
        read().unwrap_or_default()
    }

    /// Writes the manifest under a temporary name, then renames it into
    /// place. A manifest that cannot be written only costs time.
    pub fn save(&self, dir: &Path) {
        let Ok(bytes) = serde_json::to_vec(self) else { return };
        let tmp = dir.join(format!("tmp-{}-manifest.part", std::process::id()));
        let ok = fs::create_dir_all(dir).is_ok()
            && fs::write(&tmp, bytes).is_ok()
            && fs::rename(&tmp, dir.join(FILE)).is_ok();
        if !ok {
            let _ = fs::remove_file(&tmp);
        }
    }

    /// The record of `game` when its key is `key` and everything it wrote
    /// under `out` is still as written, with nothing else in the folders a
    /// build of it replaces.
    fn up_to_date(&self, game: &str, key: Key, inputs: &Inputs, out: &Path) -> Option<&Record> {
        let r = self.games.get(game)?;
        if r.key != key.hex() {
            return None;
        }
        let written: BTreeSet<&str> = r.files.iter().chain(&r.gallery).map(|w| w.path.as_str()).collect();
        // A record naming anything but plain paths inside the game's folder
        // is not trusted (nor is anything outside the output looked at).
        let inside = |p: &str| {
            let mut parts = p.split('/');
            parts.next() == Some(game) && parts.all(|c| !c.is_empty() && c != "." && c != "..")
        };
        if !written.iter().all(|p| inside(p)) {
            return None;
        }
        // What a build would replace: the entries of the game's folder it
        // writes into (`es/`, `gallery/`, `index.html`); others, such as the
        // logs `simulate` leaves there, a build carries over.
        let tops: BTreeSet<&str> = written.iter().filter_map(|p| p.split('/').nth(1)).collect();
        let mut present = 0;
        for top in tops {
            let at = out.join(game).join(top);
            if written.contains(format!("{game}/{top}").as_str()) {
                present += 1;
                continue;
            }
            for p in files_under(&at)? {
                if !written.contains(format!("{game}/{top}/{p}").as_str()) {
                    return None;
                }
                present += 1;
            }
        }
        if present != written.len() {
            return None;
        }
        for w in r.files.iter().chain(&r.gallery) {
            if stamp(&out.join(&w.path)) != Some((w.len, w.modified, w.inode)) {
                return None;
            }
        }
        for (path, hash) in &r.reads {
            if inputs.project_file(path) != *hash {
                return None;
            }
        }
        Some(r)
    }

    /// Splits `games` into those up to date (with what they wrote) and the
    /// rest, keeping each game's key for [`Manifest::record_build`].
    pub fn plan(&self, inputs: Option<&Inputs>, games: &[String], out: &Path) -> Plan {
        let mut plan = Plan::default();
        for game in games {
            let key = inputs.and_then(|i| Some((i, i.game(game)?)));
            match key.and_then(|(i, k)| self.up_to_date(game, k, i, out)) {
                Some(r) => plan.fresh.push((game.clone(), r.clone())),
                None => plan.stale.push(game.clone()),
            }
            if let Some((_, k)) = key {
                plan.keys.insert(game.clone(), k);
            }
        }
        plan
    }

    /// Records what a build just wrote under `out` for each game it built
    /// (its kit files in `built`, its gallery files among `gallery`, the
    /// project files its layouts read). A game without a key, or whose files
    /// cannot all be seen on disk, is left unrecorded.
    pub fn record_build(
        &mut self,
        plan: &Plan,
        inputs: &Inputs,
        out: &Path,
        built: &[Built],
        gallery: &[(PathBuf, Vec<u8>)],
        stats: &Stats,
    ) {
        for game in &plan.stale {
            self.games.remove(game);
            let Some(key) = plan.keys.get(game) else { continue };
            let mine: Vec<&Built> = built.iter().filter(|b| b.plan.game == *game).collect();
            let documents = stats
                .games
                .iter()
                .find(|g| g.game == *game)
                .map_or(0, |g| g.reused + g.compiled);
            let files = mine.iter().map(|b| {
                let diags = b.warnings.iter().chain(&b.findings).map(DiagRecord::of).collect();
                written(out, relative(out, &out.join(&b.plan.out)), b.pages, diags)
            });
            let galleries = gallery
                .iter()
                .filter_map(|(p, _)| relative(out, p))
                .filter(|p| p.split('/').next() == Some(game.as_str()))
                .map(|p| written(out, Some(p), 0, Vec::new()));
            let (Some(files), Some(gallery)) = (files.collect(), galleries.collect()) else {
                continue;
            };
            // Templates are hashed whole with the inputs.
            let reads: BTreeSet<&String> = mine
                .iter()
                .flat_map(|b| &b.disk_reads)
                .filter(|p| !p.starts_with("/templates/"))
                .collect();
            let reads = reads.into_iter().map(|p| (p.clone(), inputs.project_file(p))).collect();
            self.games.insert(
                game.clone(),
                Record {
                    key: key.hex(),
                    documents,
                    files,
                    gallery,
                    reads,
                },
            );
        }
    }
}

/// A kit file kept from the last build: its path, pages and diagnostics.
pub type KeptFile = (PathBuf, usize, Vec<(Diagnostic, SourceMap)>);

/// The games of a build: up to date, or to build.
#[derive(Default)]
pub struct Plan {
    /// Up to date, with what their last build wrote.
    pub fresh: Vec<(String, Record)>,
    /// To check and build.
    pub stale: Vec<String>,
    keys: HashMap<String, Key>,
}

impl Record {
    /// Its kit files under `out`, with pages and diagnostics.
    pub fn files_at(&self, out: &Path) -> Vec<KeptFile> {
        self.files
            .iter()
            .map(|w| (out.join(&w.path), w.pages, w.diagnostics()))
            .collect()
    }
}

/// A file just written at `path` (relative to `out`), as it is on disk now.
fn written(out: &Path, path: Option<String>, pages: usize, diags: Vec<DiagRecord>) -> Option<Written> {
    let path = path?;
    let (len, modified, inode) = stamp(&out.join(&path))?;
    Some(Written {
        path,
        pages,
        len,
        modified,
        inode,
        diags,
    })
}

/// `path` relative to `out`, `/`-separated (`None` when it is not under `out`).
pub fn relative(out: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(out).ok()?;
    let parts: Option<Vec<&str>> = rel.components().map(|c| c.as_os_str().to_str()).collect();
    Some(parts?.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn project() -> tempfile::TempDir {
        let d = tempfile::tempdir().expect("tempdir");
        for (p, text) in [
            ("templates/a.typ", "a"),
            ("fonts/f.otf", "font"),
            ("data/g/game.yaml", "id: g"),
            ("data/h/game.yaml", "id: h"),
            ("out/g/en/x.pdf", "pdf"),
            ("extra.txt", "read by a layout"),
        ] {
            let p = d.path().join(p);
            fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
            fs::write(p, text).expect("write");
        }
        d
    }

    fn inputs(d: &Path) -> Inputs {
        Inputs::new(d, &d.join("data"), &d.join("out"), 0, "opts").expect("inputs")
    }

    fn recorded(d: &Path) -> Manifest {
        let i = inputs(d);
        let mut m = Manifest::default();
        let key = i.game("g").expect("key");
        let out = d.join("out");
        m.games.insert(
            "g".into(),
            Record {
                key: key.hex(),
                documents: 3,
                files: vec![written(&out, Some("g/en/x.pdf".into()), 2, Vec::new()).expect("written")],
                gallery: Vec::new(),
                reads: vec![("/extra.txt".into(), i.project_file("/extra.txt"))],
            },
        );
        m
    }

    fn fresh(d: &Path, m: &Manifest) -> bool {
        let i = inputs(d);
        // A pack that cannot be hashed whole is never up to date.
        i.game("g")
            .is_some_and(|key| m.up_to_date("g", key, &i, &d.join("out")).is_some())
    }

    #[test]
    fn a_game_is_up_to_date_until_any_of_its_inputs_or_outputs_changes() {
        type Edit = fn(&Path);
        let edits: [(&str, Edit); 9] = [
            ("pack file", |d| {
                fs::write(d.join("data/g/game.yaml"), "id: g ").expect("w")
            }),
            ("new pack file", |d| {
                fs::write(d.join("data/g/more.yaml"), "").expect("w")
            }),
            ("template", |d| fs::write(d.join("templates/a.typ"), "b").expect("w")),
            ("font", |d| fs::write(d.join("fonts/g.otf"), "x").expect("w")),
            ("file a layout read", |d| {
                fs::write(d.join("extra.txt"), "other").expect("w")
            }),
            ("output rewritten", |d| {
                let p = d.join("out/g/en/x.pdf");
                fs::remove_file(&p).expect("rm");
                fs::write(p, "pdf").expect("w")
            }),
            ("output deleted", |d| {
                fs::remove_file(d.join("out/g/en/x.pdf")).expect("rm")
            }),
            ("stray output file", |d| {
                fs::write(d.join("out/g/en/y.pdf"), "").expect("w")
            }),
            ("symlink in the pack", |d| {
                #[cfg(unix)]
                std::os::unix::fs::symlink(d.join("extra.txt"), d.join("data/g/link.yaml")).expect("ln");
                #[cfg(not(unix))]
                fs::write(d.join("data/g/link.yaml"), "").expect("w");
            }),
        ];
        for (what, edit) in edits {
            let d = project();
            let m = recorded(d.path());
            assert!(fresh(d.path(), &m), "{what}: not up to date right after recording");
            edit(d.path());
            assert!(!fresh(d.path(), &m), "{what}: still up to date after the edit");
        }
        // What a build carries over (another top-level folder of the game's
        // output, as `simulate` writes) does not make it stale.
        let d = project();
        let m = recorded(d.path());
        fs::create_dir_all(d.path().join("out/g/simulated")).expect("mkdir");
        fs::write(d.path().join("out/g/simulated/log.yaml"), "game: g").expect("w");
        assert!(fresh(d.path(), &m));
        // Another game's pack is not this game's input.
        let d = project();
        let m = recorded(d.path());
        fs::write(d.path().join("data/h/game.yaml"), "id: h ").expect("w");
        assert!(fresh(d.path(), &m));
    }

    #[test]
    fn a_saved_manifest_reads_back_and_a_damaged_one_is_empty() {
        let d = project();
        let m = recorded(d.path());
        let dir = d.path().join("out/.cache");
        m.save(&dir);
        assert!(fresh(d.path(), &Manifest::load(&dir)));
        fs::write(dir.join(FILE), "{not json").expect("w");
        assert!(!fresh(d.path(), &Manifest::load(&dir)));
    }
}
