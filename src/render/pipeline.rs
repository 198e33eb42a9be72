//! The build pipeline: plan every document of the kits, compile them in
//! parallel with typst, and return the PDFs (or every problem) without
//! writing anything. Commands (`build`, `watch`, `export`, `gallery`) call it.

use std::path::Path;
use std::time::Instant;

use rayon::prelude::*;

use super::world::Shared;
use super::{DocPlan, KitOptions, compile, pdf, plan_game, plan_pieces};
use crate::diag::{Diagnostic, SourceMap};
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

/// The layout file of a game: its own `templates/<game>/kit.typ`, or the shared generic one.
pub fn template_for(root: &Path, game: &str) -> String {
    if root.join("templates").join(game).join("kit.typ").is_file() {
        format!("/templates/{game}/kit.typ")
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
    /// Seconds typst spent laying the document out, and writing its PDF.
    pub compile_seconds: f64,
    pub pdf_seconds: f64,
}

/// Plans and compiles every document; returns them, or the diagnostics
/// (rendered with their own sources) when any failed.
pub fn build_all(
    shared: &Shared,
    games: &[crate::model::Game],
    opts: &KitOptions,
    progress: &dyn Progress,
) -> (Vec<Built>, Vec<(Diagnostic, SourceMap)>) {
    // Every game's designs, once per locale.
    let mut piece_plans = Vec::new();
    for game in games {
        let template = template_for(shared.root(), &game.id);
        let locales: Vec<String> = match &opts.locales {
            Some(l) => game.locales.iter().filter(|x| l.contains(x)).cloned().collect(),
            None => game.locales.clone(),
        };
        for locale in locales.into_iter().filter(|l| opts.prints(&game.id, l)) {
            piece_plans.push((game, plan_pieces(game, &locale, opts, &template)));
        }
    }
    type Files = Vec<(String, typst::foundations::Bytes)>;
    // Stage 1: every chunk of designs of every game and locale, in parallel.
    let chunk_jobs: Vec<(usize, usize)> = piece_plans
        .iter()
        .enumerate()
        .flat_map(|(i, (_, p))| (0..p.chunks.len()).map(move |c| (i, c)))
        .collect();
    let sheet_count: usize = piece_plans.len() * (opts.papers.len() * 6 + 1);
    progress.start(chunk_jobs.len() + sheet_count, "building kits");
    let compiled_chunks: Vec<_> = chunk_jobs
        .par_iter()
        .map(|&(i, c)| {
            let r = build_one(shared, &piece_plans[i].1.chunks[c], &[], opts.preflight.as_ref());
            progress.advance();
            (i, c, r)
        })
        .collect();
    let mut results: Vec<Result<Built, Vec<(Diagnostic, SourceMap)>>> = Vec::new();
    let mut files: Vec<Files> = vec![Vec::new(); piece_plans.len()];
    let mut failed = vec![false; piece_plans.len()];
    // What preflight found on the designs, reported with the pieces file they make up.
    let mut design_findings: Vec<Vec<(Diagnostic, SourceMap)>> = (0..piece_plans.len()).map(|_| Vec::new()).collect();
    for (i, c, r) in compiled_chunks {
        match r {
            Ok(b) => {
                design_findings[i].extend(b.findings);
                files[i].push((super::chunk_path(c), typst::foundations::Bytes::new(b.pdf)));
            }
            Err(e) => {
                failed[i] = true;
                results.push(Err(e));
            }
        }
    }
    // Stage 2: the print-shop pieces file and the sheets of every paper place those pages.
    let mut docs: Vec<(DocPlan, usize)> = Vec::new();
    let mut covers: Vec<(DocPlan, usize)> = Vec::new();
    for (i, (game, pieces)) in piece_plans.iter().enumerate() {
        if failed[i] {
            continue;
        }
        files[i].sort_by(|a, b| a.0.cmp(&b.0));
        // A reprint of only the rules has no designs: no pieces file.
        if pieces.merged.pages > 0 {
            docs.push((pieces.merged.clone(), i));
        }
        for paper in &opts.papers {
            for plan in plan_game(game, &pieces.locale, *paper, opts, pieces) {
                if plan.part == super::Part::Cover {
                    covers.push((plan, i));
                } else {
                    docs.push((plan, i));
                }
            }
        }
    }
    let stage2: Vec<_> = docs
        .into_par_iter()
        .map(|(plan, i)| {
            let r = build_one(shared, &plan, &files[i], opts.preflight.as_ref());
            progress.advance();
            r
        })
        .collect();
    // Stage 3: each cover, which lists every file of its kit with its page count.
    let done: Vec<&Built> = stage2.iter().filter_map(|r| r.as_ref().ok()).collect();
    for (cover, _) in &mut covers {
        super::complete_cover(cover, &done);
    }
    let stage3: Vec<_> = covers
        .into_par_iter()
        .map(|(plan, i)| {
            let r = build_one(shared, &plan, &files[i], opts.preflight.as_ref());
            progress.advance();
            r
        })
        .collect();
    results.extend(stage2);
    results.extend(stage3);
    for (i, (_, pieces)) in piece_plans.iter().enumerate() {
        let merged = results
            .iter_mut()
            .filter_map(|r| r.as_mut().ok())
            .find(|b| b.plan.out == pieces.merged.out);
        if let Some(b) = merged {
            let mut found = std::mem::take(&mut design_findings[i]);
            found.append(&mut b.findings);
            b.findings = found;
        }
    }
    progress.finish();
    let mut built = Vec::new();
    let mut problems = Vec::new();
    for r in results {
        match r {
            Ok(b) => built.push(b),
            Err(d) => problems.extend(d),
        }
    }
    (built, problems)
}

/// Compiles one document to PDF, with its warnings and timings (also used by `watch`).
pub fn build_one(
    shared: &Shared,
    plan: &DocPlan,
    files: &[(String, typst::foundations::Bytes)],
    limits: Option<&super::preflight::Limits>,
) -> Result<Built, Vec<(Diagnostic, SourceMap)>> {
    let mut sources = SourceMap::default();
    let t0 = Instant::now();
    match compile(shared, plan, files, &mut sources, limits) {
        Ok(compiled) => {
            let compile_seconds = t0.elapsed().as_secs_f64();
            let t1 = Instant::now();
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
            match pdf(shared, plan, &compiled.document) {
                Ok(bytes) => Ok(Built {
                    plan: plan.clone(),
                    pdf: bytes,
                    pages,
                    warnings,
                    findings,
                    compile_seconds,
                    pdf_seconds: t1.elapsed().as_secs_f64(),
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

fn clone_sources(s: &SourceMap) -> SourceMap {
    let mut out = SourceMap::default();
    for i in 0..s.len() {
        let f = s.get(crate::diag::FileId(i as u32));
        out.add(f.path.clone(), f.text.clone());
    }
    out
}
