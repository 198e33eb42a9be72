//! The build cache: compiled documents kept between runs.
//!
//! A document's [`Key`] hashes everything known before it is laid out: the
//! pnpkit build that lays it out (version and executable), the date written
//! into PDFs, every font of `fonts/`, its output path, main source and data
//! (its pieces with every text, the paper, the locale, the settings and
//! flags such as `--proof`), and the preflight limits. What typst reads while
//! laying it out (templates, the pack's icons and artwork, the compiled
//! design documents a sheet places, any other project file) is recorded
//! with the entry as [`Dep`]s, each with the hash of its bytes, and checked
//! before the entry is reused; an entry whose files changed is compiled
//! again. So an edit to one game's template redraws only that game.
//!
//! Entries live in one folder (`<out>/.cache` for `build`), one file each,
//! written to a temporary name and renamed into place; each ends with a
//! checksum of its bytes, so a torn or edited entry is ignored and its
//! document compiled again. The folder is bounded: after a build the entries
//! used least recently go until it fits. Deleting it is always safe.
//!
//! [`Keys`] are also what `watch` keys its documents by, in memory.

use std::collections::HashMap;
use std::fs;
use std::hash::Hasher as _;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};
use siphasher::sip128::{Hasher128, SipHasher13};
use typst::World as _;
use typst::foundations::Bytes;

use super::DocPlan;
use super::preflight::Limits;
use super::world::{DocWorld, Shared};
use crate::diag::{Code, Diagnostic, FileId, Label, Severity, SourceMap, Span};

/// The cache folder's name inside the output folder.
pub const DIR: &str = ".cache";
/// The cache's default bound, in bytes.
pub const DEFAULT_LIMIT: u64 = 1024 * 1024 * 1024;
/// Entry layout version: a change makes every older entry unreadable (and evicted).
const FORMAT: u64 = 1;
const MAGIC: &[u8; 8] = b"pnpkit\x00C";
const EXT: &str = "doc";
/// Temporary files older than this belong to a run that died.
const STALE: Duration = Duration::from_secs(3600);

/// A 128-bit content hash.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Key(pub u128);

impl Key {
    pub fn hex(self) -> String {
        format!("{:032x}", self.0)
    }

    fn parse(s: &str) -> Option<Key> {
        (s.len() == 32)
            .then(|| u128::from_str_radix(s, 16).ok().map(Key))
            .flatten()
    }
}

/// SipHash-1-3 with 128-bit output over length-framed fields, so that two
/// different sequences of fields never hash the same stream.
pub struct Hasher(SipHasher13);

impl Default for Hasher {
    fn default() -> Self {
        Hasher(SipHasher13::new_with_keys(0x706e_706b_6974, 0x6361_6368_6531))
    }
}

impl Hasher {
    pub fn bytes(&mut self, b: &[u8]) -> &mut Self {
        self.0.write_u64(b.len() as u64);
        self.0.write(b);
        self
    }

    pub fn str(&mut self, s: &str) -> &mut Self {
        self.bytes(s.as_bytes())
    }

    pub fn u64(&mut self, n: u64) -> &mut Self {
        self.0.write_u64(n);
        self
    }

    pub fn key(&mut self, k: Key) -> &mut Self {
        self.0.write_u128(k.0);
        self
    }

    /// A JSON value as its compact text, streamed (no copy of the text).
    pub fn json(&mut self, v: &serde_json::Value) -> &mut Self {
        struct Stream<'a>(&'a mut SipHasher13, u64);
        impl io::Write for Stream<'_> {
            fn write(&mut self, b: &[u8]) -> io::Result<usize> {
                self.0.write(b);
                self.1 += b.len() as u64;
                Ok(b.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let mut s = Stream(&mut self.0, 0);
        let _ = serde_json::to_writer(&mut s, v);
        let n = s.1;
        self.0.write_u64(n);
        self
    }

    pub fn finish(&self) -> Key {
        Key(self.0.finish128().as_u128())
    }
}

/// The hash of a byte string.
pub fn hash(b: &[u8]) -> Key {
    Hasher::default().bytes(b).finish()
}

/// A file a document read while it was laid out, by virtual path, and the
/// hash of its bytes (`None`: it could not be read).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dep {
    pub path: String,
    pub hash: Option<String>,
}

/// Keys for one run: what every document shares is hashed once, and so is
/// each project file and in-memory file checked.
pub struct Keys {
    base: Key,
    /// Hashes of in-memory files (pack files, design documents) by address
    /// and length, each kept alive so that no other file takes its address.
    memory: Mutex<HashMap<(usize, usize), (Key, Held)>>,
    /// Hashes of project files as typst would read them now (`None`: unreadable).
    disk: Mutex<HashMap<String, Option<Key>>>,
}

impl Keys {
    /// Hashes the pnpkit build, the date and the fonts.
    pub fn new(shared: &Shared) -> Keys {
        let mut h = Hasher::default();
        h.u64(FORMAT).str(env!("CARGO_PKG_VERSION")).str(&build_identity());
        h.u64(shared.epoch as u64);
        for f in shared.fonts() {
            h.bytes(f.data().as_slice()).u64(u64::from(f.index()));
        }
        Keys {
            base: h.finish(),
            memory: Mutex::new(HashMap::new()),
            disk: Mutex::new(HashMap::new()),
        }
    }

    /// The key of a document: everything known about it before it is laid out.
    /// `svg` lists pages also drawn as SVG (the gallery's pictures).
    pub fn doc(&self, plan: &DocPlan, limits: Option<&Limits>, svg: &[usize]) -> Key {
        let mut h = Hasher::default();
        h.key(self.base)
            .str(&plan.out.to_string_lossy())
            .str(&format!("{:?} {} {:?}", plan.part, plan.locale, plan.paper))
            .str(&plan.main)
            .json(&plan.data)
            .str(&format!("{limits:?}"));
        h.u64(svg.len() as u64);
        for p in svg {
            h.u64(*p as u64);
        }
        h.finish()
    }

    fn memory_hash(&self, held: Held) -> Key {
        let b = held.bytes();
        let at = (b.as_ptr() as usize, b.len());
        if let Some((k, _)) = self.memory.lock().expect("lock").get(&at) {
            return *k;
        }
        let k = hash(b);
        self.memory.lock().expect("lock").insert(at, (k, held));
        k
    }

    /// The files a document read, hashed.
    pub fn deps(&self, read: &[(String, Option<Bytes>)]) -> Vec<Dep> {
        read.iter()
            .map(|(path, bytes)| Dep {
                path: path.clone(),
                hash: bytes.as_ref().map(|b| self.memory_hash(Held::Bytes(b.clone())).hex()),
            })
            .collect()
    }

    /// Whether every file a document read still has the same bytes: the
    /// in-memory files it is given now (`plan`'s pack files, `files`), else
    /// the project's files as typst would read them.
    pub fn hold(&self, shared: &Shared, deps: &[Dep], plan: &DocPlan, files: &[(String, Bytes)]) -> bool {
        let mut world: Option<DocWorld> = None;
        deps.iter().all(|dep| {
            let given = files
                .iter()
                .find(|(p, _)| *p == dep.path)
                .map(|(_, b)| Held::Bytes(b.clone()))
                .or_else(|| {
                    plan.assets
                        .iter()
                        .find(|(p, _)| *p == dep.path)
                        .map(|(_, b)| Held::Shared(b.clone()))
                });
            let now = match given {
                Some(b) => Some(self.memory_hash(b)),
                None => {
                    let known = self.disk.lock().expect("lock").get(&dep.path).copied();
                    match known {
                        Some(k) => k,
                        None => {
                            let Ok(vpath) = typst::syntax::VirtualPath::new(&dep.path) else {
                                return false;
                            };
                            let id =
                                typst::syntax::RootedPath::new(typst::syntax::VirtualRoot::Project, vpath).intern();
                            let w = world.get_or_insert_with(|| DocWorld::new(shared, String::new(), Vec::new()));
                            let k = w.file(id).ok().map(|b| hash(b.as_slice()));
                            self.disk.lock().expect("lock").insert(dep.path.clone(), k);
                            k
                        }
                    }
                }
            };
            now.map(Key::hex) == dep.hash
        })
    }
}

/// In-memory file bytes, held while their hash is remembered.
enum Held {
    Bytes(Bytes),
    Shared(std::sync::Arc<Vec<u8>>),
}

impl Held {
    fn bytes(&self) -> &[u8] {
        match self {
            Held::Bytes(b) => b.as_slice(),
            Held::Shared(v) => v,
        }
    }
}

/// Which pnpkit lays the documents out: a rebuilt executable never reuses
/// what an older one compiled, even under the same version number.
pub(crate) fn build_identity() -> String {
    let meta = std::env::current_exe().and_then(fs::metadata);
    match meta {
        Ok(m) => {
            let modified = m
                .modified()
                .ok()
                .and_then(|t| t.duration_since(SystemTime::UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_nanos());
            format!("{} {modified}", m.len())
        }
        // Unknown: nothing is reused.
        Err(_) => format!("unknown {}", fastrand::u64(..)),
    }
}

/// A compiled document as the cache keeps it.
pub struct Entry {
    pub deps: Vec<Dep>,
    pub pages: usize,
    pub warnings: Vec<(Diagnostic, SourceMap)>,
    pub findings: Vec<(Diagnostic, SourceMap)>,
    pub pdf: Vec<u8>,
    /// Pages drawn as SVG, by 1-based page number.
    pub svgs: Vec<(usize, Vec<u8>)>,
}

/// What an entry file holds besides the PDF and SVG bytes that follow it.
#[derive(Serialize, Deserialize)]
struct Header {
    key: String,
    deps: Vec<Dep>,
    pages: usize,
    warnings: Vec<DiagRecord>,
    findings: Vec<DiagRecord>,
    pdf: usize,
    svgs: Vec<(usize, usize)>,
}

#[derive(Clone, Serialize, Deserialize)]
struct SpanRecord(u32, u32, u32, usize, usize);

impl SpanRecord {
    fn of(s: &Span) -> SpanRecord {
        SpanRecord(s.file.0, s.line, s.column, s.start, s.end)
    }

    fn span(&self, files: usize) -> Option<Span> {
        ((self.0 as usize) < files && self.3 <= self.4).then_some(Span {
            file: FileId(self.0),
            line: self.1,
            column: self.2,
            start: self.3,
            end: self.4,
        })
    }
}

/// A diagnostic with the template texts it shows.
#[derive(Clone, Serialize, Deserialize)]
pub(crate) struct DiagRecord {
    code: String,
    warning: bool,
    message: String,
    span: Option<SpanRecord>,
    file: Option<PathBuf>,
    label: Option<String>,
    found: Option<String>,
    expected: Option<String>,
    help: Option<String>,
    notes: Vec<String>,
    related: Vec<(SpanRecord, String)>,
    sources: Vec<(PathBuf, String)>,
}

impl DiagRecord {
    pub(crate) fn of((d, sources): &(Diagnostic, SourceMap)) -> DiagRecord {
        DiagRecord {
            code: d.code.id().to_owned(),
            warning: d.severity == Severity::Warning,
            message: d.message.clone(),
            span: d.span.as_ref().map(SpanRecord::of),
            file: d.file.clone(),
            label: d.label.clone(),
            found: d.found.clone(),
            expected: d.expected.clone(),
            help: d.help.clone(),
            notes: d.notes.clone(),
            related: d
                .related
                .iter()
                .map(|l| (SpanRecord::of(&l.span), l.message.clone()))
                .collect(),
            sources: (0..sources.len())
                .map(|i| {
                    let f = sources.get(FileId(i as u32));
                    (f.path.clone(), f.text.to_string())
                })
                .collect(),
        }
    }

    /// The diagnostic back, or `None` when the record does not make sense.
    pub(crate) fn diagnostic(self) -> Option<(Diagnostic, SourceMap)> {
        let code = *Code::ALL.iter().find(|c| c.id() == self.code)?;
        let mut sources = SourceMap::default();
        for (path, text) in self.sources {
            sources.add(path, text.into());
        }
        let n = sources.len();
        let in_text = |s: &Span| s.end <= sources.get(s.file).text.len();
        let span = match self.span {
            Some(s) => Some(s.span(n).filter(in_text)?),
            None => None,
        };
        let mut related = Vec::new();
        for (s, message) in self.related {
            related.push(Label {
                span: s.span(n).filter(in_text)?,
                message,
            });
        }
        let d = Diagnostic {
            code,
            severity: if self.warning {
                Severity::Warning
            } else {
                Severity::Error
            },
            message: self.message,
            span,
            file: self.file,
            label: self.label,
            found: self.found,
            expected: self.expected,
            help: self.help,
            notes: self.notes,
            related,
        };
        Some((d, sources))
    }
}

/// The cache folder and what this run did with it.
pub struct Store {
    dir: PathBuf,
    limit: u64,
    /// Temporary file names are unique within the run.
    next: AtomicU64,
}

impl Store {
    /// The cache in `dir`, bounded to `limit` bytes. Nothing is created until
    /// the first entry is written.
    pub fn new(dir: &Path, limit: u64) -> Store {
        Store {
            dir: dir.to_path_buf(),
            limit,
            next: AtomicU64::new(0),
        }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn path(&self, key: Key) -> PathBuf {
        self.dir.join(format!("{}.{EXT}", key.hex()))
    }

    /// The entry of `key`, if there is a sound one. Marks it used.
    pub fn get(&self, key: Key) -> Option<Entry> {
        let path = self.path(key);
        let bytes = fs::read(&path).ok()?;
        let entry = decode(&bytes, key)?;
        // The entry's age for eviction is the time it was last used.
        if let Ok(f) = fs::File::options().write(true).open(&path) {
            let _ = f.set_modified(SystemTime::now());
        }
        Some(entry)
    }

    /// Stores an entry: written under a temporary name, then renamed into
    /// place. A cache that cannot be written only costs time: errors are ignored.
    pub fn put(&self, key: Key, entry: &Entry) {
        let _ = self.try_put(key, entry);
    }

    fn try_put(&self, key: Key, entry: &Entry) -> io::Result<()> {
        fs::create_dir_all(&self.dir)?;
        let tag = self.dir.join("CACHEDIR.TAG");
        if !tag.exists() {
            let _ = fs::write(
                &tag,
                "Signature: 8a477f597d28d172789f06886806bc55\n# pnpkit's build cache: safe to delete (see docs/build-cache.md).\n",
            );
        }
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        let tmp = self.dir.join(format!("tmp-{}-{n}.part", std::process::id()));
        let result = (|| {
            let mut f = fs::File::create(&tmp)?;
            f.write_all(&encode(key, entry))?;
            drop(f);
            fs::rename(&tmp, self.path(key))
        })();
        if result.is_err() {
            let _ = fs::remove_file(&tmp);
        }
        result
    }

    /// Removes the entries used least recently until the folder fits its
    /// bound, and temporary files of runs that died. Returns how many files went.
    pub fn evict(&self) -> usize {
        let Ok(rd) = fs::read_dir(&self.dir) else {
            return 0;
        };
        let now = SystemTime::now();
        let mut removed = 0;
        let mut entries = Vec::new();
        for e in rd.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let Ok(meta) = e.metadata() else { continue };
            if !meta.is_file() {
                continue;
            }
            let modified = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
            if name.starts_with("tmp-") && name.ends_with(".part") {
                if now.duration_since(modified).unwrap_or_default() > STALE && fs::remove_file(e.path()).is_ok() {
                    removed += 1;
                }
            } else if name.ends_with(&format!(".{EXT}")) {
                entries.push((modified, meta.len(), e.path()));
            }
        }
        let mut total: u64 = entries.iter().map(|e| e.1).sum();
        entries.sort();
        for (_, len, path) in entries {
            if total <= self.limit {
                break;
            }
            if fs::remove_file(&path).is_ok() {
                total -= len;
                removed += 1;
            }
        }
        removed
    }
}

fn encode(key: Key, e: &Entry) -> Vec<u8> {
    let header = Header {
        key: key.hex(),
        deps: e.deps.clone(),
        pages: e.pages,
        warnings: e.warnings.iter().map(DiagRecord::of).collect(),
        findings: e.findings.iter().map(DiagRecord::of).collect(),
        pdf: e.pdf.len(),
        svgs: e.svgs.iter().map(|(p, s)| (*p, s.len())).collect(),
    };
    let header = serde_json::to_vec(&header).unwrap_or_default();
    let body: usize = e.pdf.len() + e.svgs.iter().map(|s| s.1.len()).sum::<usize>();
    let mut out = Vec::with_capacity(MAGIC.len() + 8 + header.len() + body + 16);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&(header.len() as u64).to_le_bytes());
    out.extend_from_slice(&header);
    out.extend_from_slice(&e.pdf);
    for (_, s) in &e.svgs {
        out.extend_from_slice(s);
    }
    let sum = hash(&out);
    out.extend_from_slice(&sum.0.to_le_bytes());
    out
}

/// An entry file read back; `None` for anything short, torn, edited or of
/// another key.
fn decode(bytes: &[u8], key: Key) -> Option<Entry> {
    let (body, sum) = bytes.split_at_checked(bytes.len().checked_sub(16)?)?;
    if hash(body).0.to_le_bytes() != sum || !body.starts_with(MAGIC) {
        return None;
    }
    let rest = &body[MAGIC.len()..];
    let (len, rest) = rest.split_at_checked(8)?;
    let len = usize::try_from(u64::from_le_bytes(len.try_into().ok()?)).ok()?;
    let (header, mut rest) = rest.split_at_checked(len)?;
    let header: Header = serde_json::from_slice(header).ok()?;
    if Key::parse(&header.key) != Some(key) {
        return None;
    }
    let mut take = |n: usize| -> Option<Vec<u8>> {
        let (a, b) = rest.split_at_checked(n)?;
        rest = b;
        Some(a.to_vec())
    };
    let pdf = take(header.pdf)?;
    let mut svgs = Vec::new();
    for (page, n) in &header.svgs {
        svgs.push((*page, take(*n)?));
    }
    if !rest.is_empty() {
        return None;
    }
    let diags = |list: Vec<DiagRecord>| list.into_iter().map(DiagRecord::diagnostic).collect::<Option<Vec<_>>>();
    Some(Entry {
        deps: header.deps,
        pages: header.pages,
        warnings: diags(header.warnings)?,
        findings: diags(header.findings)?,
        pdf,
        svgs,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry() -> Entry {
        let mut sources = SourceMap::default();
        let file = sources.add("templates/x.typ".into(), "#let a = 1\n".into());
        let span = crate::pack::yaml::span_of_offset("#let a = 1\n", file, 5, 6);
        Entry {
            deps: vec![Dep {
                path: "/templates/x.typ".into(),
                hash: Some(hash(b"#let a = 1\n").hex()),
            }],
            pages: 3,
            warnings: vec![(
                Diagnostic::new(Code::TemplateWarning, "template warning: x")
                    .at(span)
                    .label("here")
                    .note("while building a"),
                sources,
            )],
            findings: Vec::new(),
            pdf: b"%PDF-1.7 body".to_vec(),
            svgs: vec![(2, b"<svg/>".to_vec())],
        }
    }

    #[test]
    fn an_entry_reads_back_as_written() {
        let key = hash(b"doc");
        let back = decode(&encode(key, &entry()), key).expect("sound entry");
        assert_eq!(back.pdf, b"%PDF-1.7 body");
        assert_eq!(back.svgs, vec![(2, b"<svg/>".to_vec())]);
        assert_eq!(back.pages, 3);
        assert_eq!(back.deps, entry().deps);
        let (d, s) = &back.warnings[0];
        let (d0, s0) = &entry().warnings[0];
        assert_eq!(
            crate::diag::render_human(std::slice::from_ref(d), s, false),
            crate::diag::render_human(std::slice::from_ref(d0), s0, false)
        );
    }

    #[test]
    fn a_damaged_entry_is_not_read() {
        let key = hash(b"doc");
        let bytes = encode(key, &entry());
        // Every single flipped byte, every truncation, and another key are refused.
        for i in 0..bytes.len() {
            let mut b = bytes.clone();
            b[i] ^= 0x20;
            assert!(decode(&b, key).is_none(), "flipped byte {i}");
        }
        for n in 0..bytes.len() {
            assert!(decode(&bytes[..n], key).is_none(), "cut at {n}");
        }
        assert!(decode(&bytes, hash(b"other")).is_none());
    }

    #[test]
    fn eviction_keeps_the_most_recently_used_within_the_bound() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::new(dir.path(), 0);
        let keys: Vec<Key> = (0..4u8).map(|i| hash(&[i])).collect();
        let size = encode(keys[0], &entry()).len() as u64;
        let store = Store {
            limit: 2 * size,
            ..store
        };
        let old = SystemTime::now() - Duration::from_secs(100);
        for (i, k) in keys.iter().enumerate() {
            store.put(*k, &entry());
            let f = fs::File::options().write(true).open(store.path(*k)).unwrap();
            f.set_modified(old + Duration::from_secs(i as u64)).unwrap();
        }
        // The oldest entry is used now: it becomes the newest.
        assert!(store.get(keys[0]).is_some());
        assert_eq!(store.evict(), 2);
        let kept: Vec<bool> = keys.iter().map(|k| store.path(*k).exists()).collect();
        assert_eq!(kept, [true, false, false, true]);
    }
}
