//! `pnpkit build`: check, then build every kit through the render pipeline
//! and write the PDFs only when every document succeeded.

use std::path::PathBuf;
use std::time::Instant;

use super::check::human;
use super::{Fatal, Outcome, Status, use_color};
use crate::check::Report;
use crate::cli::{BuildArgs, CutsArg, DuplexArg, Format, LayoutArg, PaperArg, PrintArgs};
use crate::diag::{Diagnostic, SourceMap, render_human, to_json};
use crate::fsx::txn::DirSwap;
use crate::render::impose::{self, Cuts, Duplex, Settings};
use crate::render::manifest::{Inputs, KeptFile, Manifest};
use crate::render::pipeline::{Built, GameStats, Run, Stats, build_with, epoch};
use crate::render::{KitOptions, Layout};

pub fn options(args: &BuildArgs) -> KitOptions {
    KitOptions {
        locales: (!args.select.locale.is_empty()).then(|| args.select.locale.clone()),
        proof: args.proof,
        // Every build reports what preflight does (text cut off, too small, outside
        // the safe zone or covered; characters no font can draw), images but art
        // measured by check.
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
            cuts: match args.cuts {
                CutsArg::Separate => Cuts::Separate,
                CutsArg::Shared => Cuts::Shared,
            },
            ..Settings::default()
        },
        stamp: args.stamp.clone(),
        ..KitOptions::default()
    }
}

pub fn run(cx: &super::Ctx, args: &BuildArgs, progress: &dyn super::Progress) -> Result<Outcome, Fatal> {
    let cli = cx.cli;
    let start = Instant::now();
    let color = use_color(cli.color);
    let out = &cx.out(&args.select.out)?;
    let opts = options(args);
    let store = super::cache_store(&args.cache, out);
    // Games the last cached build left as they would be built now are not
    // built again: the project's own games (a built-in game is always laid
    // out, from the per-document cache).
    let folders: Option<Vec<String>> = cx
        .catalog
        .resolve(&args.select.games)
        .ok()
        .filter(|dirs| dirs.iter().all(|d| !d.built_in))
        .map(|dirs| {
            dirs.iter()
                .map(|d| d.dir.file_name().unwrap_or_default().to_string_lossy().into_owned())
                .collect()
        });
    let inputs = match (&store, &folders, cx.root(), cx.catalog.data()) {
        (Some(_), Some(_), Some(root), Some(data)) => Inputs::new(root, data, out, epoch(), &format!("{opts:?}")),
        _ => None,
    };
    let mut manifest = store.as_ref().map(|s| Manifest::load(s.dir())).unwrap_or_default();
    let plan = manifest.plan(inputs.as_ref(), folders.as_deref().unwrap_or_default(), out);
    let inputs_seconds = start.elapsed().as_secs_f64();
    // Every game is checked, up to date or not: its warnings (art printed as
    // a placeholder or below 300 ppi, a text printed in another locale) are
    // part of what the build reports. Only the stale games are built.
    let mut report = match &folders {
        Some(names) => cx.check(names)?,
        // Built-in games, or no pack to list (check says why).
        None => cx.check(&args.select.games)?,
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
    if folders.is_some() {
        report.games.retain(|g| plan.stale.contains(&g.id));
    }
    let check_seconds = start.elapsed().as_secs_f64() - inputs_seconds;
    let made = match make(cx, &report, &opts, store.as_ref(), out, progress)? {
        Ok(made) => made,
        Err(failed) => return Ok(failed.outcome(cli.format, color)),
    };
    let Made {
        mut built,
        mut stats,
        gallery,
        gallery_seconds,
    } = made;
    stats.stages.insert(0, ("check", check_seconds));
    stats.stages.insert(0, ("inputs", inputs_seconds));
    let write_start = Instant::now();
    let mut gallery_files = write(out, &built, &gallery)?;
    stats.stages.push(("write", write_start.elapsed().as_secs_f64()));
    // Each game's files together, games in folder order.
    let order = |game: &str| folders.iter().flatten().position(|g| g == game).unwrap_or(usize::MAX);
    built.sort_by_key(|b| order(&b.plan.game));
    if let (Some(store), Some(inputs)) = (&store, &inputs) {
        let t = Instant::now();
        if !report.games.is_empty() {
            manifest.record_build(&plan, inputs, out, &built, &gallery, &stats);
            manifest.save(store.dir());
        }
        store.evict();
        stats.stages.push(("cache upkeep", t.elapsed().as_secs_f64()));
    }
    // What up-to-date games wrote last time, reported as if built now.
    let kept: Vec<(usize, Vec<KeptFile>)> = plan.fresh.iter().map(|(g, r)| (order(g), r.files_at(out))).collect();
    for (game, r) in &plan.fresh {
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
                reused: b.reused,
                diags: b.warnings.iter().chain(&b.findings).collect(),
            };
            (order(&b.plan.game), line)
        })
        .collect();
    for (at, files) in &kept {
        lines.extend(files.iter().map(|(path, pages, diags)| {
            let line = Line {
                path: path.clone(),
                pages: *pages,
                reused: true,
                diags: diags.iter().collect(),
            };
            (*at, line)
        }));
    }
    lines.sort_by_key(|(g, _)| *g);
    let lines: Vec<Line> = lines.into_iter().map(|(_, l)| l).collect();
    let summary = Summary {
        checked: (&report.diagnostics.items, &report.sources),
        lines: &lines,
        games: report.games.len() + plan.fresh.len(),
        out,
        seconds: start.elapsed().as_secs_f64(),
        gallery_files,
        gallery_seconds: (!report.games.is_empty()).then_some(gallery_seconds),
        stats: &stats,
        cache: store.is_some(),
        timings: args.timings,
    };
    let warnings = summary.warnings();
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

/// What the build of the checked games made, not yet written.
#[derive(Default)]
struct Made {
    built: Vec<Built>,
    stats: Stats,
    gallery: Vec<(PathBuf, Vec<u8>)>,
    gallery_seconds: f64,
}

/// Why nothing is written.
enum Failed {
    Templates(Vec<(Diagnostic, SourceMap)>),
    Gallery(Vec<(Diagnostic, SourceMap)>),
}

impl Failed {
    fn outcome(self, format: Format, color: bool) -> Outcome {
        match self {
            Failed::Templates(problems) => failed(&problems, format, color),
            Failed::Gallery(problems) => Outcome {
                stdout: super::gallery::render_problems(&problems, color)
                    + "build failed: the gallery does not render; nothing was written\n",
                status: Status::Problems,
            },
        }
    }
}

/// Builds the kits and galleries of the games `report` checked (none: nothing to do).
fn make(
    cx: &super::Ctx,
    report: &Report,
    opts: &crate::render::KitOptions,
    store: Option<&crate::render::cache::Store>,
    out: &std::path::Path,
    progress: &dyn super::Progress,
) -> Result<Result<Made, Failed>, Fatal> {
    if report.games.is_empty() {
        return Ok(Ok(Made::default()));
    }
    let shared = cx.shared()?;
    let run = Run {
        store,
        gallery: true,
        ..Run::default()
    };
    let output = build_with(&shared, &report.games, opts, progress, &run);
    if !output.problems.is_empty() {
        return Ok(Err(Failed::Templates(output.problems)));
    }
    // The gallery belongs to the same step: every game's kit and gallery are
    // staged together and swapped in whole, or nothing changes.
    let t = Instant::now();
    let (gallery, problems) = crate::gallery::galleries(&shared, &report.games, &output.pictures, out);
    if !problems.is_empty() {
        return Ok(Err(Failed::Gallery(problems)));
    }
    let gallery_seconds = t.elapsed().as_secs_f64();
    let mut stats = output.stats;
    stats.stages.push(("gallery", gallery_seconds));
    Ok(Ok(Made {
        built: output.built,
        stats,
        gallery,
        gallery_seconds,
    }))
}

/// Writes the kits and galleries, all or nothing; returns the gallery files staged.
fn write(out: &std::path::Path, built: &[Built], gallery: &[(PathBuf, Vec<u8>)]) -> Result<usize, Fatal> {
    if built.is_empty() && gallery.is_empty() {
        return Ok(0);
    }
    let io = |path: &std::path::Path| {
        let path = path.to_path_buf();
        move |source| Fatal::Write { path, source }
    };
    let swap = DirSwap::begin(out).map_err(io(out))?;
    for b in built {
        swap.write(&b.plan.out, &b.pdf).map_err(io(&out.join(&b.plan.out)))?;
    }
    let files = super::gallery::stage(&swap, out, gallery)?;
    swap.commit().map_err(io(out))?;
    Ok(files)
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
    reused: bool,
    /// Its warnings and preflight findings.
    diags: Vec<&'a (Diagnostic, SourceMap)>,
}

/// What `build` reports.
struct Summary<'a> {
    /// The warnings of `check` on every game built or kept: what a kit prints
    /// in place of what is missing (art, a translation) and art below 300 ppi.
    checked: (&'a [Diagnostic], &'a SourceMap),
    lines: &'a [Line<'a>],
    games: usize,
    out: &'a std::path::Path,
    seconds: f64,
    gallery_files: usize,
    /// Seconds drawing the galleries; `None` when every game was up to date.
    gallery_seconds: Option<f64>,
    stats: &'a Stats,
    cache: bool,
    timings: bool,
}

impl Summary<'_> {
    /// Every warning and finding, the check's first, then each file's.
    fn diagnostics(&self) -> impl Iterator<Item = (&Diagnostic, &SourceMap)> {
        let (items, sources) = self.checked;
        items
            .iter()
            .map(move |d| (d, sources))
            .chain(self.lines.iter().flat_map(|l| l.diags.iter().map(|(d, s)| (d, s))))
    }

    fn warnings(&self) -> usize {
        self.diagnostics().count()
    }

    fn human(&self, color: bool) -> String {
        let mut s = String::new();
        let mut warnings = 0;
        for (d, sources) in self.diagnostics() {
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
        s.push_str(&match self.gallery_seconds {
            Some(secs) => format!(
                "wrote {} gallery files ({}/<game>/index.html) in {secs:.2} s\n",
                self.gallery_files,
                self.out.display(),
            ),
            // Every game was up to date: its gallery too.
            None => format!(
                "{} gallery files ({}/<game>/index.html) up to date\n",
                self.gallery_files,
                self.out.display(),
            ),
        });
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
                    "reused": l.reused,
                })
            })
            .collect();
        let diagnostics: Vec<_> = self.diagnostics().map(|(d, s)| to_json(d, s)).collect();
        let mut doc = serde_json::json!({
            "diagnostics": diagnostics,
            "warnings": diagnostics.len(),
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
    s.push_str("per game (wall time of its designs and sheets; up-to-date games take none):\n");
    s.push_str(&format!(
        "  {:<14} {:>8} {:>8} {:>10}\n",
        "game", "compiled", "reused", "seconds"
    ));
    for g in &stats.games {
        s.push_str(&format!(
            "  {:<14} {:>8} {:>8} {:>10.3}\n",
            g.game, g.compiled, g.reused, g.seconds
        ));
    }
    s
}
