//! `pnpkit check`: load and validate packs, report every problem.

use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::Serialize;

use super::log::{Games, check_log_with};
use super::{Fatal, Outcome, Progress, Status, render_each, use_color};
use crate::check::Report;
use crate::check::coverage::{Coverage, coverage, coverage_with};
use crate::check::exercise::{Evidence, SELF_PLAY_GAMES, self_play};
use crate::cli::{CheckArgs, Format};
use crate::diag::{Diagnostic, JsonDiagnostic, Severity, SourceMap, render_human, to_json};
use crate::fsx::read::Scope;
use crate::render::pipeline::build_all;
use crate::render::{KitOptions, preflight};
use crate::rules::{Options, engine_for};

pub fn run(cx: &super::Ctx, args: &CheckArgs, progress: &dyn Progress) -> Result<Outcome, Fatal> {
    let cli = cx.cli;
    let start = Instant::now();
    let mut report = cx.check(&args.games)?;
    // Effects are exercised by replaying logs only once the packs are sound.
    let effects = if args.effects && !report.has_errors() {
        let evidence = evidence(cx, &report.games, &args.logs)?;
        let cov = coverage_with(&report.games, &report.sources, &evidence);
        report.diagnostics.extend(cov.diagnostics());
        Some(cov)
    } else {
        args.effects.then(|| coverage(&report.games, &report.sources))
    };
    // Laid out only when the data is sound: a layout of broken data says nothing new.
    let laid = if args.layout && !report.has_errors() {
        let shared = cx.shared()?;
        let opts = KitOptions {
            preflight: Some(preflight::Limits::build()),
            ..KitOptions::default()
        };
        let (built, problems) = build_all(&shared, &report.games, &opts, progress);
        let files = built.len();
        let findings: Vec<_> = problems
            .into_iter()
            .chain(built.into_iter().flat_map(|b| b.findings))
            .collect();
        Some((files, findings))
    } else {
        None
    };
    let seconds = start.elapsed().as_secs_f64();
    let layout_items: &[(Diagnostic, SourceMap)] = laid.as_ref().map_or(&[], |(_, f)| f);
    let layout_errors = layout_items
        .iter()
        .filter(|(d, _)| d.severity == Severity::Error)
        .count();
    let layout_warnings = layout_items.len() - layout_errors;
    let problems = report.has_errors()
        || layout_errors > 0
        || (args.deny_warnings && report.diagnostics.warnings() + layout_warnings > 0);
    let stdout = match cli.format {
        Format::Human => {
            let color = use_color(cli.color);
            let mut out = render_each(layout_items, Format::Human, color);
            out.push_str(&human(&report, color, Some(seconds)));
            if let Some(cov) = &effects {
                out.push_str(&cov.human());
            }
            if let Some((files, _)) = &laid {
                out.push_str(&format!(
                    "laid out {files} file{}: {layout_errors} error{}, {layout_warnings} warning{}\n",
                    plural(*files),
                    plural(layout_errors),
                    plural(layout_warnings)
                ));
            }
            out
        }
        Format::Json => json_with(&report, layout_items, effects),
    };
    Ok(Outcome {
        stdout,
        status: if problems { Status::Problems } else { Status::Clean },
    })
}

/// The human report: diagnostics, then a one-line summary.
/// `seconds` is left out of snapshot tests.
pub fn human(report: &Report, color: bool, seconds: Option<f64>) -> String {
    let mut out = render_human(&report.diagnostics.items, &report.sources, color);
    let games: Vec<&str> = report.games.iter().map(|g| g.id.as_str()).collect();
    out.push_str(&format!(
        "checked {} pack{} ({}), {} components in {} files: {} error{}, {} warning{}",
        games.len(),
        plural(games.len()),
        games.join(", "),
        report.component_count(),
        report.sources.len(),
        report.diagnostics.errors(),
        plural(report.diagnostics.errors()),
        report.diagnostics.warnings(),
        plural(report.diagnostics.warnings()),
    ));
    if let Some(s) = seconds {
        out.push_str(&format!(" ({s:.2} s)"));
    }
    out.push('\n');
    out
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

#[derive(Serialize)]
struct JsonReport {
    diagnostics: Vec<JsonDiagnostic>,
    summary: Summary,
    #[serde(skip_serializing_if = "Option::is_none")]
    effects: Option<Coverage>,
}

#[derive(Serialize)]
struct Summary {
    packs: Vec<String>,
    components: usize,
    files: usize,
    errors: usize,
    warnings: usize,
}

pub fn json(report: &Report) -> String {
    json_with(report, &[], None)
}

/// The JSON report with the diagnostics of a layout after the pack's.
fn json_with(report: &Report, layout: &[(Diagnostic, SourceMap)], effects: Option<Coverage>) -> String {
    let extra_errors = layout.iter().filter(|(d, _)| d.severity == Severity::Error).count();
    let r = JsonReport {
        diagnostics: report
            .diagnostics
            .items
            .iter()
            .map(|d| to_json(d, &report.sources))
            .chain(layout.iter().map(|(d, s)| to_json(d, s)))
            .collect(),
        summary: Summary {
            packs: report.games.iter().map(|g| g.id.clone()).collect(),
            components: report.component_count(),
            files: report.sources.len(),
            errors: report.diagnostics.errors() + extra_errors,
            warnings: report.diagnostics.warnings() + layout.len() - extra_errors,
        },
        effects,
    };
    let mut s = serde_json::to_string_pretty(&r).unwrap_or_default();
    s.push('\n');
    s
}

/// What the logs show about the effects of `games`: each pack's own logs
/// (`logs/`), the logs under `dirs`, and self-play games of each engine,
/// replayed with the clauses they use noted.
fn evidence(cx: &super::Ctx, games: &[crate::model::Game], dirs: &[PathBuf]) -> Result<Vec<Evidence>, Fatal> {
    let mut cache = Games::with(games);
    let options = Options {
        record: true,
        ..Options::default()
    };
    let mut out = Vec::new();
    let mut files: Vec<(PathBuf, Scope)> = Vec::new();
    for g in games {
        let dir = g.dir.join("logs");
        let scope = Scope::within_any(&[&g.dir]);
        files.extend(yaml_files(&dir).into_iter().map(|f| (f, scope.clone())));
    }
    for d in dirs {
        if !d.is_dir() {
            return Err(Fatal::Setup(format!("`--logs {}` is not a folder", d.display())));
        }
        files.extend(yaml_files(d).into_iter().map(|f| (f, Scope::named())));
    }
    for (file, scope) in files {
        let report = check_log_with(&mut cache, &cx.catalog, &file, &scope, &options)?;
        let (Some(log), Some(replay)) = (&report.log, &report.replay) else {
            continue;
        };
        if games.iter().any(|g| g.id == log.game) {
            out.push(Evidence::of(&log.game, file.display().to_string(), replay));
        }
    }
    for g in games {
        if let Some(Ok(engine)) = engine_for(g) {
            out.extend(self_play(&g.id, engine.as_ref(), SELF_PLAY_GAMES));
        }
    }
    Ok(out)
}

/// The `.yaml` files under `dir`, recursively, sorted (none when it does not exist).
fn yaml_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(rd) = std::fs::read_dir(dir) else {
        return out;
    };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            out.extend(yaml_files(&p));
        } else if p.extension().is_some_and(|e| e == "yaml" || e == "yml") {
            out.push(p);
        }
    }
    out
}
