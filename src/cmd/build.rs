//! `pnpkit build`: check, plan every document, compile them in parallel with
//! typst, and write the PDFs only when every document succeeded.

use std::path::{Path, PathBuf};
use std::time::Instant;

use rayon::prelude::*;

use super::check::human;
use super::{Fatal, Outcome, Status, use_color};
use crate::check::check;
use crate::cli::{BuildArgs, Cli, DuplexArg, Format, LayoutArg, PaperArg};
use crate::diag::{Diagnostic, SourceMap, render_human, to_json};
use crate::fsx::write_atomic;
use crate::pack::yaml::Limits;
use crate::render::impose::{self, Duplex, Settings};
use crate::render::world::Shared;
use crate::render::{DocPlan, KitOptions, Layout, compile, pdf, plan_game, plan_pieces};

/// 2026-01-01T00:00:00Z: the creation date written into PDFs unless
/// `SOURCE_DATE_EPOCH` says otherwise.
pub const DEFAULT_EPOCH: i64 = 1_767_225_600;

pub fn options(args: &BuildArgs) -> KitOptions {
    KitOptions {
        papers: args
            .paper
            .iter()
            .map(|p| match p {
                PaperArg::A4 => impose::A4,
                PaperArg::Letter => impose::LETTER,
            })
            .collect(),
        locales: (!args.select.locale.is_empty()).then(|| args.select.locale.clone()),
        duplex: match args.duplex {
            DuplexArg::Long => Duplex::Long,
            DuplexArg::Short => Duplex::Short,
        },
        layout: match args.layout {
            LayoutArg::Duplex => Layout::Duplex,
            LayoutArg::Gutterfold => Layout::Gutterfold,
        },
        ink_saver: args.ink_saver,
        settings: Settings {
            margin: args.margin,
            bleed: args.bleed,
            ..Settings::default()
        },
    }
}

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
    progress: &dyn super::Progress,
) -> (Vec<Built>, Vec<(Diagnostic, SourceMap)>) {
    // Every game's designs, once per locale.
    let mut piece_plans = Vec::new();
    for game in games {
        let template = template_for(shared.root(), &game.id);
        let locales: Vec<String> = match &opts.locales {
            Some(l) => game.locales.iter().filter(|x| l.contains(x)).cloned().collect(),
            None => game.locales.clone(),
        };
        for locale in locales {
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
            let r = build_one(shared, &piece_plans[i].1.chunks[c], &[]);
            progress.advance();
            (i, c, r)
        })
        .collect();
    let mut results: Vec<Result<Built, Vec<(Diagnostic, SourceMap)>>> = Vec::new();
    let mut files: Vec<Files> = vec![Vec::new(); piece_plans.len()];
    let mut failed = vec![false; piece_plans.len()];
    for (i, c, r) in compiled_chunks {
        match r {
            Ok(b) => files[i].push((crate::render::chunk_path(c), typst::foundations::Bytes::new(b.pdf))),
            Err(e) => {
                failed[i] = true;
                results.push(Err(e));
            }
        }
    }
    // Stage 2: the print-shop pieces file and the sheets of every paper place those pages.
    let mut docs: Vec<(DocPlan, usize)> = Vec::new();
    for (i, (game, pieces)) in piece_plans.iter().enumerate() {
        if failed[i] {
            continue;
        }
        files[i].sort_by(|a, b| a.0.cmp(&b.0));
        docs.push((pieces.merged.clone(), i));
        for paper in &opts.papers {
            for plan in plan_game(game, &pieces.locale, *paper, opts, pieces) {
                docs.push((plan, i));
            }
        }
    }
    results.extend(
        docs.into_par_iter()
            .map(|(plan, i)| {
                let r = build_one(shared, &plan, &files[i]);
                progress.advance();
                r
            })
            .collect::<Vec<_>>(),
    );
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
) -> Result<Built, Vec<(Diagnostic, SourceMap)>> {
    let mut sources = SourceMap::default();
    let t0 = Instant::now();
    match compile(shared, plan, files, &mut sources) {
        Ok(compiled) => {
            let compile_seconds = t0.elapsed().as_secs_f64();
            let t1 = Instant::now();
            let pages = compiled.document.pages().len();
            let warnings = compiled
                .warnings
                .into_iter()
                .map(|w| (w, clone_sources(&sources)))
                .collect();
            match pdf(shared, plan, &compiled.document) {
                Ok(bytes) => Ok(Built {
                    plan: plan.clone(),
                    pdf: bytes,
                    pages,
                    warnings,
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

pub fn run(cli: &Cli, args: &BuildArgs, progress: &dyn super::Progress) -> Result<Outcome, Fatal> {
    let start = Instant::now();
    let color = use_color(cli.color);
    let report = check(&cli.data, &args.select.games, &Limits::default())?;
    if report.has_errors() {
        let mut stdout = match cli.format {
            Format::Human => human(&report, color, None),
            Format::Json => super::check::json(&report),
        };
        if cli.format == Format::Human {
            stdout.push_str("build refused: the data has errors (output left as it was)\n");
        }
        return Ok(Outcome {
            stdout,
            status: Status::Problems,
        });
    }
    let root = PathBuf::from(".");
    let shared = Shared::new(&root, epoch()).map_err(|e| {
        Fatal::Setup(format!(
            "cannot load fonts from `fonts/`: {e} (run pnpkit from the project root)"
        ))
    })?;
    if shared.font_count() == 0 {
        return Err(Fatal::Setup(
            "no font in `fonts/`: pnpkit renders only with the project's fonts".into(),
        ));
    }
    let opts = options(args);
    let (built, problems) = build_all(&shared, &report.games, &opts, progress);
    if !problems.is_empty() {
        let stdout = match cli.format {
            Format::Human => {
                let mut s = String::new();
                for (d, sources) in &problems {
                    s.push_str(&render_human(std::slice::from_ref(d), sources, color));
                }
                s.push_str(&format!(
                    "build failed: {} problem{} in the templates; nothing was written\n",
                    problems.len(),
                    if problems.len() == 1 { "" } else { "s" }
                ));
                s
            }
            Format::Json => {
                let items: Vec<_> = problems.iter().map(|(d, s)| to_json(d, s)).collect();
                let mut s =
                    serde_json::to_string_pretty(&serde_json::json!({"diagnostics": items})).unwrap_or_default();
                s.push('\n');
                s
            }
        };
        return Ok(Outcome {
            stdout,
            status: Status::Problems,
        });
    }
    let mut pages = 0;
    for b in &built {
        let path = args.select.out.join(&b.plan.out);
        write_atomic(&path, &b.pdf).map_err(|source| Fatal::Write { path, source })?;
        pages += b.pages;
    }
    // The HTML gallery of each game (its designs come from typst's memo of the build just done).
    let gallery_start = Instant::now();
    let (gallery, gallery_problems) =
        crate::gallery::galleries(&shared, &report.games, &args.select.locale, &args.select.out);
    if !gallery_problems.is_empty() {
        return Ok(Outcome {
            stdout: super::gallery::render_problems(&gallery_problems, color)
                + "build failed: the kits were written, the gallery was not\n",
            status: Status::Problems,
        });
    }
    let gallery_files = super::gallery::write(&gallery)?;
    let gallery_seconds = gallery_start.elapsed().as_secs_f64();
    let warnings: Vec<&(Diagnostic, SourceMap)> = built.iter().flat_map(|b| &b.warnings).collect();
    let seconds = start.elapsed().as_secs_f64();
    let mut rendered_warnings = String::new();
    for (d, sources) in &warnings {
        rendered_warnings.push_str(&render_human(std::slice::from_ref(d), sources, color));
    }
    let stdout = match cli.format {
        Format::Human => {
            rendered_warnings
                + &format!(
                    "built {} files, {} pages for {} game{} into {} in {seconds:.2} s ({} warning{})\n",
                    built.len(),
                    pages,
                    report.games.len(),
                    if report.games.len() == 1 { "" } else { "s" },
                    args.select.out.display(),
                    warnings.len(),
                    if warnings.len() == 1 { "" } else { "s" },
                )
                + &format!(
                    "wrote {} gallery files ({}/<game>/index.html) in {gallery_seconds:.2} s\n",
                    gallery_files,
                    args.select.out.display()
                )
        }
        Format::Json => {
            let files: Vec<_> = built
                .iter()
                .map(|b| {
                    serde_json::json!({
                        "file": args.select.out.join(&b.plan.out),
                        "pages": b.pages,
                        "compile_seconds": b.compile_seconds,
                        "pdf_seconds": b.pdf_seconds,
                    })
                })
                .collect();
            let mut s =
                serde_json::to_string_pretty(&serde_json::json!({"files": files, "pages": pages, "seconds": seconds}))
                    .unwrap_or_default();
            s.push('\n');
            s
        }
    };
    Ok(Outcome {
        stdout,
        status: Status::Clean,
    })
}
