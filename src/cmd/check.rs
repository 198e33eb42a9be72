//! `pnpkit check`: load and validate packs, report every problem.

use std::time::Instant;

use serde::Serialize;

use super::{Fatal, Outcome, Status, use_color};
use crate::check::{Report, check};
use crate::cli::{CheckArgs, Cli, Format};
use crate::diag::{JsonDiagnostic, render_human, to_json};
use crate::pack::yaml::Limits;

pub fn run(cli: &Cli, args: &CheckArgs) -> Result<Outcome, Fatal> {
    let start = Instant::now();
    let report = check(&cli.data, &args.games, &Limits::default())?;
    let seconds = start.elapsed().as_secs_f64();
    let problems = report.has_errors() || (args.deny_warnings && report.diagnostics.warnings() > 0);
    let stdout = match cli.format {
        Format::Human => human(&report, use_color(cli.color), Some(seconds)),
        Format::Json => json(&report),
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
    let r = JsonReport {
        diagnostics: report
            .diagnostics
            .items
            .iter()
            .map(|d| to_json(d, &report.sources))
            .collect(),
        summary: Summary {
            packs: report.games.iter().map(|g| g.id.clone()).collect(),
            components: report.component_count(),
            files: report.sources.len(),
            errors: report.diagnostics.errors(),
            warnings: report.diagnostics.warnings(),
        },
    };
    let mut s = serde_json::to_string_pretty(&r).unwrap_or_default();
    s.push('\n');
    s
}
