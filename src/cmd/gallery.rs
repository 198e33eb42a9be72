//! `pnpkit gallery`: `<out>/<game>/index.html` with every component as an
//! image and its data, and the rules (`build` writes it too).

use std::path::{Path, PathBuf};
use std::time::Instant;

use super::check::human;
use super::{Fatal, Outcome, Progress, Status, use_color};
use crate::cli::GalleryArgs;
use crate::diag::{Diagnostic, SourceMap, render_human};
use crate::fsx::txn::DirSwap;
use crate::render::KitOptions;
use crate::render::pipeline::{Run, build_with};

/// Stages gallery files (paths under `out`) in `swap`; returns how many.
pub fn stage(swap: &DirSwap, out: &Path, files: &[(PathBuf, Vec<u8>)]) -> Result<usize, Fatal> {
    for (path, bytes) in files {
        let rel = path.strip_prefix(out).unwrap_or(path);
        swap.write(rel, bytes).map_err(|source| Fatal::Write {
            path: path.clone(),
            source,
        })?;
    }
    Ok(files.len())
}

/// Renders gallery problems as build does.
pub fn render_problems(problems: &[(Diagnostic, SourceMap)], color: bool) -> String {
    let mut s = String::new();
    for (d, sources) in problems {
        s.push_str(&render_human(std::slice::from_ref(d), sources, color));
    }
    s
}

pub fn run(cx: &super::Ctx, args: &GalleryArgs, progress: &dyn Progress) -> Result<Outcome, Fatal> {
    let cli = cx.cli;
    let start = Instant::now();
    let color = use_color(cli.color);
    let report = cx.check(&args.select.games)?;
    if report.has_errors() {
        let mut stdout = human(&report, color, None);
        stdout.push_str("gallery refused: the data has errors\n");
        return Ok(Outcome {
            stdout,
            status: Status::Problems,
        });
    }
    let out = &cx.out(&args.select.out)?;
    let shared = cx.shared()?;
    // The designs of each game's gallery locale, laid out as a default build lays them out.
    let opts = KitOptions {
        locales: (!args.select.locale.is_empty()).then(|| args.select.locale.clone()),
        ..KitOptions::default()
    };
    let store = super::cache_store(&args.cache, out);
    let run = Run {
        store: store.as_ref(),
        pictures_only: true,
        ..Run::default()
    };
    let output = build_with(&shared, &report.games, &opts, progress, &run);
    let (files, mut problems) = crate::gallery::galleries(&shared, &report.games, &output.pictures, out);
    problems.splice(0..0, output.problems);
    if let Some(store) = &store {
        store.evict();
    }
    if !problems.is_empty() {
        return Ok(Outcome {
            stdout: render_problems(&problems, color) + "gallery failed: nothing was written\n",
            status: Status::Problems,
        });
    }
    // Each game's gallery is swapped in whole (its kit PDFs carried over).
    let swap = DirSwap::begin(out).map_err(|source| Fatal::Write {
        path: out.clone(),
        source,
    })?;
    let n = stage(&swap, out, &files)?;
    swap.commit().map_err(|source| Fatal::Write {
        path: out.clone(),
        source,
    })?;
    let pages: Vec<String> = report
        .games
        .iter()
        .map(|g| out.join(&g.id).join("index.html").display().to_string())
        .collect();
    Ok(Outcome {
        stdout: format!(
            "wrote {} ({n} files) in {:.2} s\n",
            pages.join(", "),
            start.elapsed().as_secs_f64()
        ),
        status: Status::Clean,
    })
}
