//! `pnpkit build`: check, then build every kit through the render pipeline
//! and write the PDFs only when every document succeeded.

use std::path::PathBuf;
use std::time::Instant;

use super::check::human;
use super::{Fatal, Outcome, Status, use_color};
use crate::check::check;
use crate::cli::{BuildArgs, Cli, DuplexArg, Format, LayoutArg, PaperArg, PrintArgs};
use crate::diag::{Diagnostic, SourceMap, render_human, to_json};
use crate::fsx::txn::DirSwap;
use crate::pack::yaml::Limits;
use crate::render::impose::{self, Duplex, Settings};
use crate::render::pipeline::{Run, Stats, build_with, epoch};
use crate::render::world::Shared;
use crate::render::{KitOptions, Layout};

pub fn options(args: &BuildArgs) -> KitOptions {
    KitOptions {
        locales: (!args.select.locale.is_empty()).then(|| args.select.locale.clone()),
        proof: args.proof,
        // Every build reports text cut off by its box and characters no font can draw.
        preflight: Some(crate::render::preflight::Limits::build()),
        ..print_options(&args.print)
    }
}

/// Paper, duplex, layout, ink, margin, bleed and version mark as kit options.
pub fn print_options(args: &PrintArgs) -> KitOptions {
    KitOptions {
        papers: args
            .paper
            .iter()
            .map(|p| match p {
                PaperArg::A4 => impose::A4,
                PaperArg::Letter => impose::LETTER,
            })
            .collect(),
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
        stamp: args.stamp.clone(),
        ..KitOptions::default()
    }
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
    let store = super::cache_store(&args.cache, &args.select.out);
    let run = Run {
        store: store.as_ref(),
        gallery: true,
        ..Run::default()
    };
    let check_seconds = start.elapsed().as_secs_f64();
    let output = build_with(&shared, &report.games, &opts, progress, &run);
    let (built, problems, mut stats) = (output.built, output.problems, output.stats);
    stats.stages.insert(0, ("check", check_seconds));
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
    // The gallery belongs to the same step: every game's kit and gallery are
    // staged together and swapped in whole, or nothing changes.
    let gallery_start = Instant::now();
    let (gallery, gallery_problems) =
        crate::gallery::galleries(&shared, &report.games, &output.pictures, &args.select.out);
    if !gallery_problems.is_empty() {
        return Ok(Outcome {
            stdout: super::gallery::render_problems(&gallery_problems, color)
                + "build failed: the gallery does not render; nothing was written\n",
            status: Status::Problems,
        });
    }
    let gallery_seconds = gallery_start.elapsed().as_secs_f64();
    stats.stages.push(("gallery", gallery_seconds));
    let write_start = Instant::now();
    let out = &args.select.out;
    let io = |path: &std::path::Path| {
        let path = path.to_path_buf();
        move |source| Fatal::Write { path, source }
    };
    let swap = DirSwap::begin(out).map_err(io(out))?;
    let mut pages = 0;
    for b in &built {
        swap.write(&b.plan.out, &b.pdf).map_err(io(&out.join(&b.plan.out)))?;
        pages += b.pages;
    }
    let gallery_files = super::gallery::stage(&swap, out, &gallery)?;
    swap.commit().map_err(io(out))?;
    stats.stages.push(("write", write_start.elapsed().as_secs_f64()));
    if let Some(store) = &store {
        let t = Instant::now();
        store.evict();
        stats.stages.push(("cache upkeep", t.elapsed().as_secs_f64()));
    }
    let warnings: Vec<&(Diagnostic, SourceMap)> = built
        .iter()
        .flat_map(|b| b.warnings.iter().chain(&b.findings))
        .collect();
    let seconds = start.elapsed().as_secs_f64();
    let mut rendered_warnings = String::new();
    for (d, sources) in &warnings {
        rendered_warnings.push_str(&render_human(std::slice::from_ref(d), sources, color));
    }
    let stdout = match cli.format {
        Format::Human => {
            rendered_warnings
                + &format!(
                    "built {} files, {} pages for {} game{} into {} in {seconds:.2} s ({} warning{}; {})\n",
                    built.len(),
                    pages,
                    report.games.len(),
                    if report.games.len() == 1 { "" } else { "s" },
                    args.select.out.display(),
                    warnings.len(),
                    if warnings.len() == 1 { "" } else { "s" },
                    reuse_summary(&stats, store.is_some()),
                )
                + &format!(
                    "wrote {} gallery files ({}/<game>/index.html) in {gallery_seconds:.2} s\n",
                    gallery_files,
                    args.select.out.display()
                )
                + &if args.timings {
                    timings(&stats, seconds)
                } else {
                    String::new()
                }
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
                        "reused": b.reused,
                    })
                })
                .collect();
            let mut doc = serde_json::json!({
                "files": files,
                "pages": pages,
                "seconds": seconds,
                "documents": {"reused": stats.reused(), "compiled": stats.compiled()},
            });
            if args.timings {
                doc["timings"] = serde_json::json!({
                    "stages": stats.stages.iter().map(|(n, s)| serde_json::json!({"stage": n, "seconds": s})).collect::<Vec<_>>(),
                    "games": stats.games,
                });
            }
            let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
            s.push('\n');
            s
        }
    };
    Ok(Outcome {
        stdout,
        status: if args.deny_warnings && !warnings.is_empty() {
            Status::Problems
        } else {
            Status::Clean
        },
    })
}

/// "12 documents reused from the cache, 3 compiled" (design chunks included).
fn reuse_summary(stats: &Stats, cache: bool) -> String {
    let (reused, compiled) = (stats.reused(), stats.compiled());
    if cache {
        format!(
            "{reused} document{} reused from the cache, {compiled} compiled",
            if reused == 1 { "" } else { "s" }
        )
    } else {
        format!(
            "{compiled} document{} compiled, cache off",
            if compiled == 1 { "" } else { "s" }
        )
    }
}

/// `--timings`: wall time per stage, then each game's documents and typst's time on them.
fn timings(stats: &Stats, total: f64) -> String {
    let mut s = String::from("timings (wall time):\n");
    for (stage, secs) in &stats.stages {
        s.push_str(&format!("  {stage:<14} {secs:>7.3} s\n"));
    }
    s.push_str(&format!("  {:<14} {total:>7.3} s\n", "total"));
    s.push_str("per game (typst time summed over threads):\n");
    s.push_str(&format!(
        "  {:<14} {:>8} {:>8} {:>10} {:>10}\n",
        "game", "compiled", "reused", "layout s", "pdf s"
    ));
    for g in &stats.games {
        s.push_str(&format!(
            "  {:<14} {:>8} {:>8} {:>10.3} {:>10.3}\n",
            g.game, g.compiled, g.reused, g.compile_seconds, g.pdf_seconds
        ));
    }
    s
}
