//! `pnpkit watch`: rebuild one game's kit (one locale, one paper) on every
//! change to its data, the templates or the fonts.
//!
//! One [`Session`] lives for the whole run: the fonts and standard library
//! ([`Shared`]) are loaded once and typst's memoization (comemo) keeps the
//! layouts of unchanged designs between rebuilds. A rebuild that fails
//! prints its diagnostics and leaves the last good PDFs in place. The loop
//! reports through [`Report`] so tests can drive it; only `main` prints.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use super::{Fatal, Outcome, Progress, Status, use_color};
use crate::cli::{PaperArg, WatchArgs};
use crate::diag::{Diagnostic, SourceMap, render_human};
use crate::fsx::write_atomic;
use crate::pack::yaml::Limits;
use crate::render::cache::{Dep, Key, Keys};
use crate::render::impose;
use crate::render::world::Shared;
use crate::render::{DocPlan, KitOptions, chunk_path, plan_game, plan_pieces};
use typst::foundations::Bytes;

/// Where the watch loop's lines go.
pub trait Report {
    fn line(&self, text: &str);
}

impl<F: Fn(&str)> Report for F {
    fn line(&self, text: &str) {
        self(text)
    }
}

/// What one rebuild did.
#[derive(Clone, Debug, PartialEq)]
pub enum Rebuilt {
    /// Every document built; `changed` files were rewritten.
    Ok { files: usize, changed: usize, seconds: f64 },
    /// The data or a template has errors; nothing was written.
    Failed { errors: usize },
}

/// A watch session: one game, locale and paper, and the state kept between rebuilds.
pub struct Session {
    pub data: PathBuf,
    pub root: PathBuf,
    pub out: PathBuf,
    pub game: String,
    pub locale: Option<String>,
    pub paper: impose::Paper,
    pub color: bool,
    shared: Shared,
    /// The hash of the bytes last written to each output file.
    written: HashMap<PathBuf, Key>,
    /// Compiled documents by output path: the key of their inputs and the result.
    cache: HashMap<PathBuf, Doc>,
    /// What the last rebuild compiled: (documents, seconds) for the designs and the sheets.
    pub last: [(usize, f64); 2],
    /// The key of every design at the last rebuild.
    pieces: HashMap<String, u64>,
    /// When the current rebuild started.
    started: Instant,
    failing: bool,
}

impl Session {
    pub fn new(
        data: &Path,
        root: &Path,
        out: &Path,
        game: &str,
        locale: Option<String>,
        paper: impose::Paper,
    ) -> Result<Session, Fatal> {
        let shared = load_shared(root)?;
        Ok(Session {
            data: data.to_path_buf(),
            root: root.to_path_buf(),
            out: out.to_path_buf(),
            game: game.to_owned(),
            locale,
            paper,
            color: false,
            shared,
            written: HashMap::new(),
            cache: HashMap::new(),
            last: [(0, 0.0); 2],
            pieces: HashMap::new(),
            started: Instant::now(),
            failing: false,
        })
    }

    /// Reloads the fonts (after a change in `fonts/`); every document is redrawn.
    pub fn reload_fonts(&mut self) -> Result<(), Fatal> {
        self.shared = load_shared(&self.root)?;
        self.cache.clear();
        self.pieces.clear();
        Ok(())
    }

    /// Builds the kit's documents, compiling only those whose inputs changed.
    #[allow(clippy::type_complexity)]
    fn build(
        &mut self,
        games: &[crate::model::Game],
        opts: &KitOptions,
        report: &dyn Report,
    ) -> Result<(Vec<Doc>, Vec<(Diagnostic, SourceMap)>), Fatal> {
        use rayon::prelude::*;
        let templates = tree_hash(&self.root.join("templates"));
        // The build cache's keys: a document is redrawn when its key or a file it read changed.
        let doc_keys = Keys::new(&self.shared);
        let mut out = Vec::new();
        let mut problems = Vec::new();
        self.last = [(0, 0.0); 2];
        for game in games {
            let template = crate::render::pipeline::template_for(&self.shared, game);
            let locales = opts.locales.clone().unwrap_or_else(|| game.locales.clone());
            for locale in locales.iter().filter(|l| game.locales.contains(l)) {
                let pieces = plan_pieces(game, locale, opts, &template);
                // Stage 1: the chunks of designs whose inputs changed.
                let piece_keys: Vec<Vec<(String, u64)>> =
                    pieces.chunks.iter().map(|c| piece_keys(c, templates)).collect();
                let keys: Vec<Key> = pieces.chunks.iter().map(|c| doc_keys.doc(c, None, &[])).collect();
                // The designs that changed since the last rebuild go first into
                // `<game>-changed.pdf`, a few pages that compile in a blink.
                let t = Instant::now();
                let changed: Vec<(usize, usize)> = piece_keys
                    .iter()
                    .enumerate()
                    .flat_map(|(c, ks)| ks.iter().enumerate().map(move |(i, k)| (c, i, k)))
                    .filter(|(_, _, (p, k))| self.pieces.get(p) != Some(k))
                    .map(|(c, i, _)| (c, i))
                    .collect();
                if !self.pieces.is_empty() && !changed.is_empty() && changed.len() <= 40 {
                    let mut plan = pieces.chunks[changed[0].0].clone();
                    let list: Vec<serde_json::Value> = changed
                        .iter()
                        .map(|&(c, i)| pieces.chunks[c].data["pieces"][i].clone())
                        .collect();
                    let names: Vec<String> = list
                        .iter()
                        .map(|p| {
                            format!(
                                "{} {} ({})",
                                p["kind"].as_str().unwrap_or(""),
                                p["id"].as_str().unwrap_or(""),
                                p["face"].as_str().unwrap_or("")
                            )
                        })
                        .collect();
                    plan.data["pieces"] = serde_json::Value::Array(list);
                    plan.pages = names.len();
                    plan.out = plan.out.with_file_name(format!("{}-changed.pdf", game.id));
                    if let Ok(b) = crate::render::pipeline::build_one(&self.shared, &plan, &[], None) {
                        let path = self.out.join(&plan.out);
                        write_atomic(&path, &b.pdf).map_err(|source| Fatal::Write {
                            path: path.clone(),
                            source,
                        })?;
                        report.line(&format!(
                            "redrawn in {:.0} ms: {} → {}",
                            self.started.elapsed().as_secs_f64() * 1000.0,
                            names.join(", "),
                            path.display()
                        ));
                        let _ = t;
                    }
                }
                for ks in &piece_keys {
                    for (p, k) in ks {
                        self.pieces.insert(p.clone(), *k);
                    }
                }
                let todo: Vec<usize> = (0..pieces.chunks.len())
                    .filter(|&i| !self.fresh(&doc_keys, &pieces.chunks[i], &[], keys[i]))
                    .collect();
                let shared = &self.shared;
                let t = Instant::now();
                let compiled: Vec<_> = todo
                    .par_iter()
                    .map(|&i| {
                        (
                            i,
                            crate::render::pipeline::build_one(shared, &pieces.chunks[i], &[], None),
                        )
                    })
                    .collect();
                self.last[0].0 += compiled.len();
                self.last[0].1 += t.elapsed().as_secs_f64();
                for (i, r) in compiled {
                    match r {
                        Ok(b) => {
                            self.cache.insert(b.plan.out.clone(), Doc::new(keys[i], b, &doc_keys));
                        }
                        Err(e) => problems.extend(e),
                    }
                }
                if !problems.is_empty() {
                    continue;
                }
                let files: Vec<(String, Bytes)> = pieces
                    .chunks
                    .iter()
                    .enumerate()
                    .filter_map(|(i, c)| self.cache.get(&c.out).map(|d| (chunk_path(i), d.bytes.clone())))
                    .collect();
                // Stage 2: the sheets of the paper (the print-shop pieces file is left to `build`).
                let plans: Vec<DocPlan> = opts
                    .papers
                    .iter()
                    .flat_map(|paper| plan_game(game, locale, *paper, opts, &pieces))
                    .collect();
                let keyed: Vec<(Key, DocPlan)> = plans.into_iter().map(|p| (doc_keys.doc(&p, None, &[]), p)).collect();
                let t = Instant::now();
                let compiled: Vec<_> = keyed
                    .par_iter()
                    .filter(|(k, p)| !self.fresh(&doc_keys, p, &files, *k))
                    .map(|(k, p)| (*k, crate::render::pipeline::build_one(shared, p, &files, None)))
                    .collect();
                self.last[1].0 += compiled.len();
                self.last[1].1 += t.elapsed().as_secs_f64();
                for (k, r) in compiled {
                    match r {
                        Ok(b) => {
                            self.cache.insert(b.plan.out.clone(), Doc::new(k, b, &doc_keys));
                        }
                        Err(e) => problems.extend(e),
                    }
                }
                out.extend(keyed.iter().filter_map(|(_, p)| self.cache.get(&p.out).cloned()));
            }
        }
        Ok((out, problems))
    }

    /// Whether the document kept for `plan` is still what compiling it would give.
    fn fresh(&self, keys: &Keys, plan: &DocPlan, files: &[(String, Bytes)], key: Key) -> bool {
        self.cache
            .get(&plan.out)
            .is_some_and(|d| d.key == key && keys.hold(&self.shared, &d.deps, plan, files))
    }

    /// Checks and builds; writes the PDFs whose bytes changed. Reports the
    /// diagnostics of a failure, and "fixed, rebuilt" after one.
    pub fn rebuild(&mut self, report: &dyn Report) -> Result<Rebuilt, Fatal> {
        let start = Instant::now();
        self.started = start;
        let pack = crate::check::PackDir {
            dir: self.data.join(&self.game),
            data: self.data.clone(),
            built_in: false,
        };
        let checked = crate::check::check_packs(&[pack], &self.root.join("fonts"), &Limits::default())?;
        if checked.has_errors() {
            let text = render_human(&checked.diagnostics.items, &checked.sources, self.color);
            report.line(text.trim_end());
            let errors = checked.diagnostics.errors();
            report.line(&format!(
                "{errors} error{} in the data: the last good output stays in place; waiting for changes",
                if errors == 1 { "" } else { "s" }
            ));
            self.failing = true;
            return Ok(Rebuilt::Failed { errors });
        }
        let locale = self
            .locale
            .clone()
            .or_else(|| checked.games.first().and_then(|g| g.locales.first().cloned()));
        let opts = KitOptions {
            papers: vec![self.paper],
            locales: locale.map(|l| vec![l]),
            ..KitOptions::default()
        };
        let (built, problems) = self.build(&checked.games, &opts, report)?;
        // Keep typst's memoized layouts of recent rebuilds, drop older ones.
        comemo::evict(10);
        if !problems.is_empty() {
            for (d, sources) in &problems {
                report.line(render_human(std::slice::from_ref(d), sources, self.color).trim_end());
            }
            report.line(&format!(
                "{} error{} in the templates: the last good output stays in place; waiting for changes",
                problems.len(),
                if problems.len() == 1 { "" } else { "s" }
            ));
            self.failing = true;
            return Ok(Rebuilt::Failed { errors: problems.len() });
        }
        let mut changed = 0;
        for b in &built {
            let path = self.out.join(&b.out);
            if self.written.get(&path) == Some(&b.digest) && path.is_file() {
                continue;
            }
            write_atomic(&path, &b.pdf).map_err(|source| Fatal::Write {
                path: path.clone(),
                source,
            })?;
            self.written.insert(path, b.digest);
            changed += 1;
        }
        let seconds = start.elapsed().as_secs_f64();
        let warnings: usize = built.iter().map(|b| b.warnings).sum();
        let head = if std::mem::take(&mut self.failing) {
            "fixed, rebuilt"
        } else {
            "rebuilt"
        };
        let [(designs, design_s), (sheets, sheet_s)] = self.last;
        report.line(&format!(
            "{head} {} in {:.0} ms: {changed} of {} files changed ({designs} design chunks in {:.0} ms, \
             {sheets} sheet documents in {:.0} ms){}",
            self.game,
            seconds * 1000.0,
            built.len(),
            design_s * 1000.0,
            sheet_s * 1000.0,
            if warnings > 0 {
                format!(" ({warnings} template warnings)")
            } else {
                String::new()
            }
        ));
        Ok(Rebuilt::Ok {
            files: built.len(),
            changed,
            seconds,
        })
    }

    /// The folders a rebuild depends on.
    pub fn watched(&self) -> Vec<PathBuf> {
        [
            self.data.join(&self.game),
            self.root.join("templates"),
            self.root.join("fonts"),
        ]
        .into_iter()
        .map(|p| p.canonicalize().unwrap_or(p))
        .collect()
    }

    /// Rebuilds on every batch of relevant changes until the channel closes.
    pub fn run_loop(
        &mut self,
        events: Receiver<notify_debouncer_full::DebounceEventResult>,
        report: &dyn Report,
    ) -> Result<(), Fatal> {
        // A project without `fonts/` uses the built-in fonts: no path is a font change.
        let fonts = self.root.join("fonts").canonicalize().ok();
        for batch in events {
            let paths: Vec<PathBuf> = match batch {
                Ok(events) => events
                    .into_iter()
                    .filter(|e| !e.kind.is_access() && !e.kind.is_other())
                    .flat_map(|e| e.event.paths)
                    .filter(|p| relevant(p))
                    .collect(),
                Err(errors) => {
                    for e in errors {
                        report.line(&format!("watch error: {e}"));
                    }
                    continue;
                }
            };
            if paths.is_empty() {
                continue;
            }
            if fonts.as_ref().is_some_and(|f| paths.iter().any(|p| p.starts_with(f))) {
                self.reload_fonts()?;
            }
            let root = self.root.canonicalize().unwrap_or_default();
            let first = paths[0].strip_prefix(&root).unwrap_or(&paths[0]).display().to_string();
            let more = if paths.len() > 1 {
                format!(" and {} more", paths.len() - 1)
            } else {
                String::new()
            };
            report.line(&format!("changed: {first}{more}"));
            self.rebuild(report)?;
        }
        Ok(())
    }
}

/// A compiled document kept between rebuilds.
#[derive(Clone)]
pub struct Doc {
    /// Its key ([`Keys::doc`]) and the files it read, as the build cache keeps them.
    pub key: Key,
    deps: Vec<Dep>,
    pub out: PathBuf,
    pub pdf: Vec<u8>,
    /// The hash of `pdf`.
    pub digest: Key,
    bytes: Bytes,
    pub warnings: usize,
}

impl Doc {
    fn new(key: Key, mut b: crate::render::pipeline::Built, keys: &Keys) -> Doc {
        Doc {
            key,
            deps: b.take_deps(keys),
            out: b.plan.out.clone(),
            digest: crate::render::cache::hash(&b.pdf),
            bytes: Bytes::new(b.pdf.clone()),
            pdf: b.pdf,
            warnings: b.warnings.len(),
        }
    }
}

fn hash_of<T: Hash + ?Sized>(x: &T) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    x.hash(&mut h);
    h.finish()
}

/// A hash of every file under `dir` (paths and contents).
fn tree_hash(dir: &Path) -> u64 {
    fn walk(dir: &Path, h: &mut std::collections::hash_map::DefaultHasher, scope: &crate::fsx::read::Scope) {
        let Ok(rd) = std::fs::read_dir(dir) else { return };
        let mut entries: Vec<_> = rd.filter_map(Result::ok).map(|e| e.path()).collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, h, scope);
            } else if let Ok(bytes) = crate::fsx::read::read_bounded(&p, crate::fsx::read::max::TEMPLATE_FILE, scope) {
                // As the build reads them: a FIFO or a link out of the project is not read.
                p.hash(h);
                bytes.hash(h);
            }
        }
    }
    let mut h = std::collections::hash_map::DefaultHasher::new();
    // The build reads these files within the project folder (the parent of `templates/`).
    if let Ok(scope) = crate::fsx::read::Scope::within(dir.parent().unwrap_or(dir)) {
        walk(dir, &mut h, &scope);
    }
    h.finish()
}

/// The key of each design of a chunk: what it depends on. That is the layout
/// code, the settings, the kinds, the data-only kinds (shape `none`), its
/// piece, its component, every component that names (a ref in any field) and
/// a board's variant. Another component's edit leaves the key as it was.
fn piece_keys(plan: &DocPlan, templates: u64) -> Vec<(String, u64)> {
    let d = &plan.data;
    let comps = &d["game"]["components"];
    let kinds = &d["game"]["kinds"];
    let mut common: Vec<String> = vec![
        plan.main.clone(),
        d["settings"].to_string(),
        d["locale"].to_string(),
        kinds.to_string(),
        d["game"]["name"].to_string(),
    ];
    if let Some(ks) = kinds.as_object() {
        for (k, v) in ks {
            if v["shape"] == "none" {
                common.push(comps[k].to_string());
            }
        }
    }
    let common = hash_of(&(templates, common));
    d["pieces"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|p| {
            let own = &comps[p["kind"].as_str().unwrap_or("")][p["id"].as_str().unwrap_or("")];
            let mut parts = vec![p.to_string(), own.to_string()];
            let mut named = std::collections::BTreeSet::new();
            strings(own, &mut named);
            if let (Some(k), Some(i)) = (p["variant"]["kind"].as_str(), p["variant"]["id"].as_str()) {
                parts.push(comps[k][i].to_string());
            }
            if let Some(by_kind) = comps.as_object() {
                for s in &named {
                    for list in by_kind.values() {
                        if let Some(c) = list.get(*s) {
                            parts.push(c.to_string());
                        }
                    }
                }
            }
            (p.to_string(), hash_of(&(common, parts)))
        })
        .collect()
}

fn strings<'a>(v: &'a serde_json::Value, out: &mut std::collections::BTreeSet<&'a str>) {
    match v {
        serde_json::Value::String(s) => {
            out.insert(s);
        }
        serde_json::Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        serde_json::Value::Object(m) => m.values().for_each(|x| strings(x, out)),
        _ => {}
    }
}

/// Editor swap files, backups and atomic-write temporaries do not trigger a rebuild.
fn relevant(p: &Path) -> bool {
    let name = p.file_name().unwrap_or_default().to_string_lossy();
    !(name.starts_with('.') || name.ends_with('~') || name.ends_with(".swp") || name.ends_with(".tmp"))
}

fn load_shared(root: &Path) -> Result<Shared, Fatal> {
    Shared::new(root, crate::render::pipeline::epoch())
        .map_err(|e| Fatal::Setup(format!("cannot load the project's fonts from `fonts/`: {e}")))
}

pub fn run(cx: &super::Ctx, args: &WatchArgs, progress: &dyn Progress) -> Result<Outcome, Fatal> {
    let cli = cx.cli;
    let (root, data) = (cx.need_root()?, cx.data()?);
    let out = cx.out(&args.out)?;
    let game = match &args.game {
        Some(g) => g.clone(),
        None => crate::pack::pack_dirs(data, &[])?
            .first()
            .and_then(|d| d.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
    };
    // Fail early (exit 2) on a game that is not there.
    crate::pack::pack_dirs(data, std::slice::from_ref(&game))?;
    let paper = match args.paper {
        PaperArg::A4 => impose::A4,
        PaperArg::Letter => impose::LETTER,
    };
    let mut session = Session::new(data, root, &out, &game, args.locale.clone(), paper)?;
    session.color = use_color(cli.color);
    let report = |s: &str| progress.message(s);
    let first = session.rebuild(&report)?;
    if args.once {
        return Ok(Outcome {
            stdout: String::new(),
            status: match first {
                Rebuilt::Ok { .. } => Status::Clean,
                Rebuilt::Failed { .. } => Status::Problems,
            },
        });
    }
    let (tx, rx) = std::sync::mpsc::channel();
    let mut debouncer = notify_debouncer_full::new_debouncer(Duration::from_millis(30), None, tx)
        .map_err(|e| Fatal::Setup(format!("cannot watch files: {e}")))?;
    for dir in session.watched() {
        if dir.exists() {
            debouncer
                .watch(&dir, notify::RecursiveMode::Recursive)
                .map_err(|e| Fatal::Setup(format!("cannot watch `{}`: {e}", dir.display())))?;
        }
    }
    report(&format!(
        "watching {} (data, templates, fonts); output in {}; Ctrl-C to stop",
        game,
        out.display()
    ));
    session.run_loop(rx, &report)?;
    Ok(Outcome {
        stdout: String::new(),
        status: Status::Clean,
    })
}
