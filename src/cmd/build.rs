//! `pnpkit build`: check, then build every kit through the render pipeline
//! and write the PDFs only when every document succeeded.

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Instant;

use super::check::human;
use super::{Fatal, Outcome, Status, use_color};
use crate::check::{Report, check};
use crate::cli::{BuildArgs, Cli, DuplexArg, Format, LayoutArg, PaperArg, PrintArgs};
use crate::diag::{Diagnostic, SourceMap, render_human, to_json};
use crate::fsx::txn::DirSwap;
use crate::pack;
use crate::pack::yaml::Limits;
use crate::render::impose::{self, Duplex, Settings};
use crate::render::manifest::{self, Inputs, Manifest, Record};
use crate::render::pipeline::{Built, GameStats, Run, Stats, build_with, epoch};
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
    let out = &args.select.out;
    let opts = options(args);
    let store = super::cache_store(&args.cache, out);
    let root = PathBuf::from(".");
    // Games the last cached build left as they would be built now are not built again.
    let inputs = store
        .as_ref()
        .and_then(|_| Inputs::new(&root, &cli.data, out, epoch(), &format!("{opts:?}")));
    let mut manifest = match &store {
        Some(s) => Manifest::load(s.dir()),
        None => Manifest::default(),
    };
    let folders = pack::pack_dirs(&cli.data, &args.select.games).ok().map(|dirs| {
        dirs.iter()
            .map(|d| d.file_name().unwrap_or_default().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
    });
    let mut keys = HashMap::new();
    let mut fresh: Vec<(String, Record)> = Vec::new();
    let mut stale = Vec::new();
    for game in folders.iter().flatten() {
        let key = inputs.as_ref().and_then(|i| Some((i, i.game(game)?)));
        match key.and_then(|(i, k)| manifest.up_to_date(game, k, i, out)) {
            Some(r) => fresh.push((game.clone(), r.clone())),
            None => stale.push(game.clone()),
        }
        if let Some((_, k)) = key {
            keys.insert(game.clone(), k);
        }
    }
    let inputs_seconds = start.elapsed().as_secs_f64();
    let report = if folders.is_some() && stale.is_empty() {
        Report::default()
    } else {
        check(
            &cli.data,
            if folders.is_some() { &stale } else { &args.select.games },
            &Limits::default(),
        )?
    };
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
    let check_seconds = start.elapsed().as_secs_f64() - inputs_seconds;
    let mut built = Vec::new();
    let mut stats = Stats::default();
    let mut gallery = Vec::new();
    let mut gallery_seconds = 0.0;
    if !report.games.is_empty() {
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
        let run = Run {
            store: store.as_ref(),
            gallery: true,
            ..Run::default()
        };
        let output = build_with(&shared, &report.games, &opts, progress, &run);
        let problems = output.problems;
        (built, stats) = (output.built, output.stats);
        if !problems.is_empty() {
            return Ok(failed(&problems, cli.format, color));
        }
        // The gallery belongs to the same step: every game's kit and gallery are
        // staged together and swapped in whole, or nothing changes.
        let gallery_start = Instant::now();
        let gallery_problems;
        (gallery, gallery_problems) = crate::gallery::galleries(&shared, &report.games, &output.pictures, out);
        if !gallery_problems.is_empty() {
            return Ok(Outcome {
                stdout: super::gallery::render_problems(&gallery_problems, color)
                    + "build failed: the gallery does not render; nothing was written\n",
                status: Status::Problems,
            });
        }
        gallery_seconds = gallery_start.elapsed().as_secs_f64();
        stats.stages.push(("gallery", gallery_seconds));
    }
    stats.stages.insert(0, ("check", check_seconds));
    stats.stages.insert(0, ("inputs", inputs_seconds));
    let write_start = Instant::now();
    let io = |path: &std::path::Path| {
        let path = path.to_path_buf();
        move |source| Fatal::Write { path, source }
    };
    let mut gallery_files = 0;
    if !report.games.is_empty() {
        let swap = DirSwap::begin(out).map_err(io(out))?;
        for b in &built {
            swap.write(&b.plan.out, &b.pdf).map_err(io(&out.join(&b.plan.out)))?;
        }
        gallery_files = super::gallery::stage(&swap, out, &gallery)?;
        swap.commit().map_err(io(out))?;
    }
    stats.stages.push(("write", write_start.elapsed().as_secs_f64()));
    // Each game's files together, games in folder order.
    let order = |game: &str| folders.iter().flatten().position(|g| g == game).unwrap_or(usize::MAX);
    built.sort_by_key(|b| order(&b.plan.game));
    if let (Some(store), Some(inputs)) = (&store, &inputs) {
        let t = Instant::now();
        for game in &report.games {
            let Some(key) = keys.get(&game.id) else {
                manifest.forget(&game.id);
                continue;
            };
            let mine: Vec<&Built> = built.iter().filter(|b| b.plan.game == game.id).collect();
            let documents = stats
                .games
                .iter()
                .find(|g| g.game == game.id)
                .map_or(0, |g| g.reused + g.compiled);
            manifest.record(
                &game.id,
                *key,
                inputs,
                out,
                documents,
                mine.iter().filter_map(|b| {
                    let path = manifest::relative(out, &out.join(&b.plan.out))?;
                    Some((path, b.pages, b.warnings.iter().chain(&b.findings).collect()))
                }),
                gallery
                    .iter()
                    .filter_map(|(p, _)| manifest::relative(out, p))
                    .filter(|p| p.split('/').next() == Some(game.id.as_str())),
                mine.iter().flat_map(|b| b.disk_reads.iter().cloned()),
            );
        }
        if !report.games.is_empty() {
            manifest.save(store.dir());
        }
        store.evict();
        stats.stages.push(("cache upkeep", t.elapsed().as_secs_f64()));
    }
    // What up-to-date games wrote last time, reported as if built now.
    let kept: Vec<(String, Vec<(PathBuf, usize, Vec<(Diagnostic, SourceMap)>)>)> = fresh
        .iter()
        .map(|(game, r)| {
            let files = r
                .files
                .iter()
                .map(|w| (out.join(&w.path), w.pages, w.diagnostics()))
                .collect();
            (game.clone(), files)
        })
        .collect();
    for (game, r) in &fresh {
        gallery_files += r.gallery.len();
        stats.games.push(GameStats {
            game: game.clone(),
            reused: r.documents,
            ..GameStats::default()
        });
    }
    stats.games.sort_by_key(|g| order(&g.game));
    let mut lines: Vec<(usize, Line)> = built
        .iter()
        .map(|b| {
            let line = Line {
                path: out.join(&b.plan.out),
                pages: b.pages,
                compile_seconds: b.compile_seconds,
                pdf_seconds: b.pdf_seconds,
                reused: b.reused,
                diags: b.warnings.iter().chain(&b.findings).collect(),
            };
            (order(&b.plan.game), line)
        })
        .collect();
    for (game, files) in &kept {
        for (path, pages, diags) in files {
            let line = Line {
                path: path.clone(),
                pages: *pages,
                compile_seconds: 0.0,
                pdf_seconds: 0.0,
                reused: true,
                diags: diags.iter().collect(),
            };
            lines.push((order(game), line));
        }
    }
    lines.sort_by_key(|(g, _)| *g);
    let lines: Vec<Line> = lines.into_iter().map(|(_, l)| l).collect();
    let games = report.games.len() + fresh.len();
    let seconds = start.elapsed().as_secs_f64();
    let summary = Summary {
        lines: &lines,
        games,
        out,
        seconds,
        gallery_files,
        gallery_seconds,
        stats: &stats,
        cache: store.is_some(),
        timings: args.timings,
    };
    let warnings = lines.iter().map(|l| l.diags.len()).sum::<usize>();
    Ok(Outcome {
        stdout: match cli.format {
            Format::Human => summary.human(color),
            Format::Json => summary.json(),
        },
        status: if args.deny_warnings && warnings > 0 {
            Status::Problems
        } else {
            Status::Clean
        },
    })
}

/// The templates failed: every problem, nothing written.
fn failed(problems: &[(Diagnostic, SourceMap)], format: Format, color: bool) -> Outcome {
    let stdout = match format {
        Format::Human => {
            let mut s = String::new();
            for (d, sources) in problems {
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
            let mut s = serde_json::to_string_pretty(&serde_json::json!({"diagnostics": items})).unwrap_or_default();
            s.push('\n');
            s
        }
    };
    Outcome {
        stdout,
        status: Status::Problems,
    }
}

/// One file of the kits, built now or kept from the last build.
struct Line<'a> {
    path: PathBuf,
    pages: usize,
    compile_seconds: f64,
    pdf_seconds: f64,
    reused: bool,
    /// Its warnings and preflight findings.
    diags: Vec<&'a (Diagnostic, SourceMap)>,
}

/// What `build` reports.
struct Summary<'a> {
    lines: &'a [Line<'a>],
    games: usize,
    out: &'a std::path::Path,
    seconds: f64,
    gallery_files: usize,
    gallery_seconds: f64,
    stats: &'a Stats,
    cache: bool,
    timings: bool,
}

impl Summary<'_> {
    fn human(&self, color: bool) -> String {
        let mut s = String::new();
        let mut warnings = 0;
        for (d, sources) in self.lines.iter().flat_map(|l| &l.diags) {
            s.push_str(&render_human(std::slice::from_ref(d), sources, color));
            warnings += 1;
        }
        let pages: usize = self.lines.iter().map(|l| l.pages).sum();
        s.push_str(&format!(
            "built {} files, {pages} pages for {} game{} into {} in {:.2} s ({warnings} warning{}; {})\n",
            self.lines.len(),
            self.games,
            if self.games == 1 { "" } else { "s" },
            self.out.display(),
            self.seconds,
            if warnings == 1 { "" } else { "s" },
            reuse_summary(self.stats, self.cache),
        ));
        s.push_str(&format!(
            "wrote {} gallery files ({}/<game>/index.html) in {:.2} s\n",
            self.gallery_files,
            self.out.display(),
            self.gallery_seconds
        ));
        if self.timings {
            s.push_str(&timings(self.stats, self.seconds));
        }
        s
    }

    fn json(&self) -> String {
        let files: Vec<_> = self
            .lines
            .iter()
            .map(|l| {
                serde_json::json!({
                    "file": l.path,
                    "pages": l.pages,
                    "compile_seconds": l.compile_seconds,
                    "pdf_seconds": l.pdf_seconds,
                    "reused": l.reused,
                })
            })
            .collect();
        let mut doc = serde_json::json!({
            "files": files,
            "pages": self.lines.iter().map(|l| l.pages).sum::<usize>(),
            "seconds": self.seconds,
            "documents": {"reused": self.stats.reused(), "compiled": self.stats.compiled()},
        });
        if self.timings {
            doc["timings"] = serde_json::json!({
                "stages": self.stats.stages.iter().map(|(n, s)| serde_json::json!({"stage": n, "seconds": s})).collect::<Vec<_>>(),
                "games": self.stats.games,
                "peak_memory_bytes": peak_memory(),
            });
        }
        let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
        s.push('\n');
        s
    }
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

/// The process's peak resident memory so far, in bytes (Linux: `VmHWM`; elsewhere unknown).
fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line
        .trim_start_matches("VmHWM:")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kb * 1024)
}

/// `--timings`: wall time per stage, then each game's documents and typst's time on them.
fn timings(stats: &Stats, total: f64) -> String {
    let mut s = String::from("timings (wall time):\n");
    for (stage, secs) in &stats.stages {
        s.push_str(&format!("  {stage:<14} {secs:>7.3} s\n"));
    }
    s.push_str(&format!("  {:<14} {total:>7.3} s\n", "total"));
    if let Some(bytes) = peak_memory() {
        s.push_str(&format!("peak memory: {} MB\n", bytes / (1024 * 1024)));
    }
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
