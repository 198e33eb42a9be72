//! The build pipeline: plan every document of the kits, compile them in
//! parallel with typst, and return the PDFs (or every problem) without
//! writing anything. Commands (`build`, `watch`, `export`, `gallery`) call it.

use std::collections::HashMap;
use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;
use typst::foundations::Bytes;

use super::cache::{Entry, Keys, Store};
use super::world::Shared;
use super::{DocPlan, KitOptions, PiecesPlan, compile, pdf, plan_game, plan_pieces};
use crate::diag::{Diagnostic, SourceMap};
use crate::model::Game;
use crate::progress::Progress;

/// 2026-01-01T00:00:00Z: the creation date written into PDFs unless
/// `SOURCE_DATE_EPOCH` says otherwise.
pub const DEFAULT_EPOCH: i64 = 1_767_225_600;

/// The creation date: `SOURCE_DATE_EPOCH` when set, else a fixed date.
pub fn epoch() -> i64 {
    std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(DEFAULT_EPOCH)
}

/// The layout file of a game: its own `templates/<game>/kit.typ` (the
/// project's, or for a built-in game the built-in one), or the shared generic one.
pub fn template_for(shared: &Shared, game: &Game) -> String {
    let rel = format!("templates/{}/kit.typ", game.id);
    let in_project = shared.root().is_some_and(|r| r.join(&rel).is_file());
    if in_project || (game.built_in && crate::builtin::file(&rel).is_some()) {
        format!("/{rel}")
    } else {
        "/templates/shared/generic.typ".to_string()
    }
}

/// The result of building one document.
pub struct Built {
    pub plan: DocPlan,
    pub pdf: Vec<u8>,
    pub pages: usize,
    /// typst's warnings, with the template texts they point into.
    pub warnings: Vec<(Diagnostic, SourceMap)>,
    /// What preflight found (when the options ask for it), with its template texts.
    pub findings: Vec<(Diagnostic, SourceMap)>,
    /// Pages also drawn as SVG (the gallery's pictures), by 1-based page number.
    pub svgs: Vec<(usize, Vec<u8>)>,
    /// Taken from the build cache rather than compiled.
    pub reused: bool,
    /// Project files typst read from disk (not given in memory), by virtual
    /// path; known only when the build cache is on.
    pub disk_reads: Vec<String>,
    /// The files typst read (kept until the cache has recorded them).
    read: Vec<(String, Option<Bytes>)>,
}

impl Built {
    /// The files typst read, hashed (once: they are not kept).
    pub fn take_deps(&mut self, keys: &Keys) -> Vec<super::cache::Dep> {
        keys.deps(&std::mem::take(&mut self.read))
    }
}

/// How a build runs besides its options.
#[derive(Default)]
pub struct Run<'a> {
    /// The build cache; `None` compiles everything (`--no-cache`).
    pub store: Option<&'a Store>,
    /// Also draw each game's gallery pictures (see [`Output::pictures`]).
    pub gallery: bool,
    /// Only the gallery pictures: no kit is built (`pnpkit gallery`).
    pub pictures_only: bool,
}

/// The gallery's pictures of one game: each printed component's design as SVG.
pub struct Pictures {
    pub game: String,
    pub locale: String,
    /// By (kind, id).
    pub svgs: HashMap<(String, String), Vec<u8>>,
}

/// Where a build's time went.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Stats {
    /// Wall seconds per stage, in order.
    pub stages: Vec<(&'static str, f64)>,
    pub games: Vec<GameStats>,
}

/// One game's documents: how many were reused and compiled, and the time spent on them.
#[derive(Clone, Debug, Default, Serialize)]
pub struct GameStats {
    pub game: String,
    pub reused: usize,
    pub compiled: usize,
    /// Wall seconds spent on this game's designs and the documents placing
    /// them (games are built one after another; its covers are in the
    /// "covers" stage). Per document times are not kept: documents compile
    /// in parallel and a thread waiting inside one document's export lays
    /// out another, so they would overlap.
    pub seconds: f64,
}

impl Stats {
    pub fn reused(&self) -> usize {
        self.games.iter().map(|g| g.reused).sum()
    }

    pub fn compiled(&self) -> usize {
        self.games.iter().map(|g| g.compiled).sum()
    }

    fn game(&mut self, game: &str) -> &mut GameStats {
        match self.games.iter().position(|g| g.game == game) {
            Some(i) => &mut self.games[i],
            None => {
                self.games.push(GameStats {
                    game: game.to_owned(),
                    ..GameStats::default()
                });
                self.games.last_mut().expect("just pushed")
            }
        }
    }

    fn count(&mut self, b: &Built) {
        let g = self.game(&b.plan.game);
        if b.reused {
            g.reused += 1;
        } else {
            g.compiled += 1;
        }
    }

    fn stage(&mut self, name: &'static str, seconds: f64) {
        match self.stages.iter_mut().find(|s| s.0 == name) {
            Some(s) => s.1 += seconds,
            None => self.stages.push((name, seconds)),
        }
    }
}

/// What a build made.
pub struct Output {
    /// The documents to write, in order.
    pub built: Vec<Built>,
    /// Every problem, with the sources it shows; nothing is to be written when there is one.
    pub problems: Vec<(Diagnostic, SourceMap)>,
    /// The gallery's pictures, per game (when [`Run::gallery`] asked).
    pub pictures: Vec<Pictures>,
    pub stats: Stats,
}

/// Plans and compiles every document; returns them, or the diagnostics
/// (rendered with their own sources) when any failed. No cache.
pub fn build_all(
    shared: &Shared,
    games: &[crate::model::Game],
    opts: &KitOptions,
    progress: &dyn Progress,
) -> (Vec<Built>, Vec<(Diagnostic, SourceMap)>) {
    let out = build_with(shared, games, opts, progress, &Run::default());
    (out.built, out.problems)
}

/// The documents of one game in one locale, built together.
struct Group<'g> {
    game: &'g crate::model::Game,
    pieces: PiecesPlan,
    /// Its kit is built and written (else only its gallery pictures are drawn).
    kit: bool,
    /// Design pages drawn as SVG, per chunk.
    svg: Vec<Vec<usize>>,
    /// (kind, id, chunk, page) of each gallery picture.
    pictures: Vec<(String, String, usize, usize)>,
}

/// Compiles one document, or takes it from the cache when its key and the
/// files it read match.
struct Builder<'a> {
    shared: &'a Shared,
    keys: Keys,
    store: Option<&'a Store>,
    limits: Option<&'a super::preflight::Limits>,
}

impl Builder<'_> {
    fn build(
        &self,
        plan: &DocPlan,
        files: &[(String, Bytes)],
        svg: &[usize],
    ) -> Result<Built, Vec<(Diagnostic, SourceMap)>> {
        let Some(store) = self.store else {
            return build_one_with(self.shared, plan, files, self.limits, svg);
        };
        let key = self.keys.doc(plan, self.limits, svg);
        if let Some(e) = store.get(key)
            && self.keys.hold(self.shared, &e.deps, plan, files)
        {
            return Ok(Built {
                plan: plan.clone(),
                pdf: e.pdf,
                pages: e.pages,
                warnings: e.warnings,
                findings: e.findings,
                svgs: e.svgs,
                reused: true,
                disk_reads: disk_reads(&e.deps, plan, files),
                read: Vec::new(),
            });
        }
        let mut built = build_one_with(self.shared, plan, files, self.limits, svg)?;
        let entry = Entry {
            deps: built.take_deps(&self.keys),
            pages: built.pages,
            warnings: built
                .warnings
                .iter()
                .map(|(d, s)| (d.clone(), clone_sources(s)))
                .collect(),
            findings: built
                .findings
                .iter()
                .map(|(d, s)| (d.clone(), clone_sources(s)))
                .collect(),
            pdf: std::mem::take(&mut built.pdf),
            svgs: std::mem::take(&mut built.svgs),
        };
        store.put(key, &entry);
        built.disk_reads = disk_reads(&entry.deps, plan, files);
        built.pdf = entry.pdf;
        built.svgs = entry.svgs;
        Ok(built)
    }
}

/// Plans and compiles every document, taking unchanged ones from the cache.
///
/// Games are built one locale at a time: its design chunks, then the
/// documents that place them; typst's memo of laid-out pages is emptied
/// after each, so memory holds one game and locale at a time. Covers, which
/// count the pages of every other document of their kit, come last.
pub fn build_with(
    shared: &Shared,
    games: &[crate::model::Game],
    opts: &KitOptions,
    progress: &dyn Progress,
    run: &Run,
) -> Output {
    let mut stats = Stats::default();
    let t = Instant::now();
    let builder = Builder {
        shared,
        keys: Keys::new(shared),
        store: run.store,
        limits: opts.preflight.as_ref(),
    };
    let selected = opts.locales.clone().unwrap_or_default();
    let mut groups: Vec<Group> = Vec::new();
    for game in games {
        let template = template_for(shared, game);
        let mut locales: Vec<(String, bool)> = match &opts.locales {
            _ if run.pictures_only => Vec::new(),
            Some(l) => game
                .locales
                .iter()
                .filter(|x| l.contains(x))
                .map(|x| (x.clone(), true))
                .collect(),
            None => game.locales.iter().map(|x| (x.clone(), true)).collect(),
        };
        locales.retain(|(l, _)| opts.prints(&game.id, l));
        let gallery = (run.gallery || run.pictures_only).then(|| super::gallery_locale(game, &selected));
        if let Some(g) = &gallery
            && !locales.iter().any(|(l, _)| l == g)
        {
            locales.push((g.clone(), false));
        }
        for (locale, kit) in locales {
            let pieces = plan_pieces(game, &locale, opts, &template);
            let mut svg = vec![Vec::new(); pieces.chunks.len()];
            let mut pictures = Vec::new();
            if gallery.as_ref() == Some(&locale) {
                pictures = super::gallery_designs(game, &pieces);
                for (_, _, chunk, page) in &pictures {
                    if let Some(list) = svg.get_mut(*chunk)
                        && !list.contains(page)
                    {
                        list.push(*page);
                    }
                }
                svg.iter_mut().for_each(|l| l.sort_unstable());
            }
            groups.push(Group {
                game,
                pieces,
                kit,
                svg,
                pictures,
            });
        }
    }
    let chunk_count: usize = groups.iter().map(|g| g.pieces.chunks.len()).sum();
    let sheet_count: usize = groups.iter().filter(|g| g.kit).count() * (opts.papers.len() * 6 + 1);
    progress.start(chunk_count + sheet_count, "building kits");
    stats.stage("plan", t.elapsed().as_secs_f64());

    let mut results: Vec<Result<Built, Vec<(Diagnostic, SourceMap)>>> = Vec::new();
    let mut pictures = Vec::new();
    let mut covers: Vec<(DocPlan, Vec<(String, Bytes)>)> = Vec::new();
    for group in &groups {
        let started = Instant::now();
        // Stage 1: the group's chunks of designs, in parallel.
        let t = Instant::now();
        let jobs: Vec<_> = group
            .pieces
            .chunks
            .iter()
            .zip(&group.svg)
            .zip(&group.pieces.art)
            .collect();
        let chunks = one_by_one(&jobs, |&((plan, svg), &art)| {
            let r = builder.build(plan, &[], svg);
            // What the chunk decoded is let go (render::ART_PER_CHUNK).
            if art > 0 {
                comemo::evict(0);
            }
            progress.advance();
            r
        });
        stats.stage("designs", t.elapsed().as_secs_f64());
        let mut files: Vec<(String, Bytes)> = Vec::new();
        let mut failed = false;
        let mut design_findings = Vec::new();
        let mut svgs: HashMap<(usize, usize), Vec<u8>> = HashMap::new();
        for (c, r) in chunks.into_iter().enumerate() {
            match r {
                Ok(mut b) => {
                    stats.count(&b);
                    design_findings.append(&mut b.findings);
                    for (page, svg) in std::mem::take(&mut b.svgs) {
                        svgs.insert((c, page), svg);
                    }
                    files.push((super::chunk_path(c), Bytes::new(b.pdf)));
                }
                Err(e) => {
                    failed = true;
                    results.push(Err(e));
                }
            }
        }
        if !group.pictures.is_empty() && !failed {
            pictures.push(Pictures {
                game: group.game.id.clone(),
                locale: group.pieces.locale.clone(),
                svgs: group
                    .pictures
                    .iter()
                    .filter_map(|(kind, id, c, p)| Some(((kind.clone(), id.clone()), svgs.get(&(*c, *p))?.clone())))
                    .collect(),
            });
        }
        if failed || !group.kit {
            comemo::evict(0);
            stats.game(&group.game.id).seconds += started.elapsed().as_secs_f64();
            continue;
        }
        // Stage 2: the print-shop pieces file and the sheets of every paper place those pages.
        let t = Instant::now();
        // A reprint of only the rules has no designs: no pieces file.
        let mut docs = Vec::new();
        if group.pieces.merged.pages > 0 {
            docs.push(group.pieces.merged.clone());
        }
        for paper in &opts.papers {
            for plan in plan_game(group.game, &group.pieces.locale, *paper, opts, &group.pieces) {
                if plan.part == super::Part::Cover {
                    covers.push((plan, files.clone()));
                } else {
                    docs.push(plan);
                }
            }
        }
        let sheets: Vec<_> = docs
            .par_iter()
            .map(|plan| {
                let r = builder.build(plan, &files, &[]);
                progress.advance();
                r
            })
            .collect();
        let first = results.len();
        let has_merged = group.pieces.merged.pages > 0;
        results.extend(sheets);
        // What preflight found on the designs is reported with the pieces file they make up.
        if has_merged && let Some(Ok(merged)) = results.get_mut(first) {
            design_findings.append(&mut merged.findings);
            merged.findings = design_findings;
        }
        // Laid-out pages are not kept from one game and locale to the next.
        comemo::evict(0);
        stats.stage("sheets", t.elapsed().as_secs_f64());
        stats.game(&group.game.id).seconds += started.elapsed().as_secs_f64();
    }
    // Stage 3: each cover, which lists every file of its kit with its page count.
    let t = Instant::now();
    let done: Vec<&Built> = results.iter().filter_map(|r| r.as_ref().ok()).collect();
    for (cover, _) in &mut covers {
        super::cover::complete(cover, &done);
    }
    let covers: Vec<_> = covers
        .par_iter()
        .map(|(plan, files)| {
            let r = builder.build(plan, files, &[]);
            progress.advance();
            r
        })
        .collect();
    results.extend(covers);
    comemo::evict(0);
    stats.stage("covers", t.elapsed().as_secs_f64());
    progress.finish();
    let mut built = Vec::new();
    let mut problems = Vec::new();
    for r in results {
        match r {
            Ok(b) => {
                stats.count(&b);
                built.push(b);
            }
            Err(d) => problems.extend(d),
        }
    }
    // Games in the order given.
    stats
        .games
        .sort_by_key(|g| games.iter().position(|x| x.id == g.game).unwrap_or(usize::MAX));
    Output {
        built,
        problems,
        pictures,
        stats,
    }
}

/// `f` over `items` on as many threads as rayon has, each item begun only
/// when a thread is free; results in the order of `items`.
///
/// Not `par_iter`: typst runs rayon inside every document, and a rayon
/// thread waiting inside one document takes up the next item of an outer
/// `par_iter`, and the next: every chunk of designs would be laid out at
/// once, each holding its decoded pictures (eight pictures of 250 MB held
/// 1.9 GB where two at a time hold 0.5 GB).
fn one_by_one<I: Sync, T: Send>(items: &[I], f: impl Fn(&I) -> T + Sync) -> Vec<T> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let next = AtomicUsize::new(0);
    let threads = rayon::current_num_threads().clamp(1, items.len().max(1));
    let mut done: Vec<(usize, T)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                std::thread::Builder::new()
                    // Typst recurses deeply: a main thread's stack, and more.
                    .stack_size(64 << 20)
                    .spawn_scoped(scope, || {
                        let mut out = Vec::new();
                        loop {
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            let Some(item) = items.get(i) else { break };
                            out.push((i, f(item)));
                        }
                        out
                    })
                    .expect("start a layout thread")
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    });
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, t)| t).collect()
}

/// Compiles one document to PDF, with its warnings and timings (also used by `watch`).
pub fn build_one(
    shared: &Shared,
    plan: &DocPlan,
    files: &[(String, Bytes)],
    limits: Option<&super::preflight::Limits>,
) -> Result<Built, Vec<(Diagnostic, SourceMap)>> {
    build_one_with(shared, plan, files, limits, &[])
}

/// [`build_one`], also drawing the pages `svg` lists as SVG.
fn build_one_with(
    shared: &Shared,
    plan: &DocPlan,
    files: &[(String, Bytes)],
    limits: Option<&super::preflight::Limits>,
    svg: &[usize],
) -> Result<Built, Vec<(Diagnostic, SourceMap)>> {
    let mut sources = SourceMap::default();
    match compile(shared, plan, files, &mut sources, limits) {
        Ok(compiled) => {
            let pages = compiled.document.pages().len();
            let warnings = compiled
                .warnings
                .into_iter()
                .map(|w| (w, clone_sources(&sources)))
                .collect();
            let findings = compiled
                .findings
                .into_iter()
                .map(|w| (w, clone_sources(&sources)))
                .collect();
            let svgs = svg
                .iter()
                .filter_map(|&p| {
                    let page = compiled.document.pages().get(p.checked_sub(1)?)?;
                    Some((p, typst_svg::svg(page, &typst_svg::SvgOptions::default()).into_bytes()))
                })
                .collect();
            match pdf(shared, plan, &compiled.document) {
                Ok(bytes) => Ok(Built {
                    plan: plan.clone(),
                    pdf: bytes,
                    pages,
                    warnings,
                    findings,
                    svgs,
                    reused: false,
                    disk_reads: Vec::new(),
                    read: compiled.read,
                }),
                Err(msg) => Err(vec![(
                    Diagnostic::new(crate::diag::Code::TemplateError, format!("PDF export failed: {msg}"))
                        .in_file(plan.out.clone()),
                    sources,
                )]),
            }
        }
        Err(diags) => Err(diags.into_iter().map(|d| (d, clone_sources(&sources))).collect()),
    }
}

/// The files of `deps` read from disk: neither given in `files` nor among the plan's pack files.
fn disk_reads(deps: &[super::cache::Dep], plan: &DocPlan, files: &[(String, Bytes)]) -> Vec<String> {
    deps.iter()
        .filter(|d| !files.iter().any(|(p, _)| *p == d.path) && !plan.assets.iter().any(|(p, _)| *p == d.path))
        .map(|d| d.path.clone())
        .collect()
}

fn clone_sources(s: &SourceMap) -> SourceMap {
    let mut out = SourceMap::default();
    for i in 0..s.len() {
        let f = s.get(crate::diag::FileId(i as u32));
        out.add(f.path.clone(), f.text.clone());
    }
    out
}
