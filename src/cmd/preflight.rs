//! `pnpkit preflight`: lay every kit out as `build` would and report, from
//! the laid-out pages, what would print badly. Writes nothing.

use super::check::human;
use super::{Fatal, Outcome, render_each, use_color};
use crate::cli::{Format, PaperArg, PreflightArgs};
use crate::render::impose;
use crate::render::pipeline::build_all;
use crate::render::{KitOptions, preflight};

pub fn run(cx: &super::Ctx, args: &PreflightArgs, progress: &dyn super::Progress) -> Result<Outcome, Fatal> {
    let cli = cx.cli;
    let color = use_color(cli.color);
    let report = cx.check(&args.select.games)?;
    if report.has_errors() {
        let stdout = match cli.format {
            Format::Human => human(&report, color, None) + "preflight refused: the data has errors\n",
            Format::Json => super::check::json(&report),
        };
        return Ok(Outcome::report(stdout, false));
    }
    let shared = cx.shared()?;
    let opts = KitOptions {
        papers: args
            .paper
            .iter()
            .map(|p| match p {
                PaperArg::A4 => impose::A4,
                PaperArg::Letter => impose::LETTER,
            })
            .collect(),
        locales: (!args.select.locale.is_empty()).then(|| args.select.locale.clone()),
        preflight: Some(preflight::Limits {
            min_text_pt: args.min_text,
            min_ppi: args.min_ppi,
            safe_mm: args.safe,
            images: true,
        }),
        ..KitOptions::default()
    };
    let (built, problems) = build_all(&shared, &report.games, &opts, progress);
    if !problems.is_empty() {
        let mut stdout = render_each(&problems, cli.format, color);
        if cli.format == Format::Human {
            stdout.push_str(&format!(
                "preflight failed: {} problem(s) in the templates\n",
                problems.len()
            ));
        }
        return Ok(Outcome::report(stdout, false));
    }
    let findings: Vec<_> = built.iter().flat_map(|b| &b.findings).collect();
    let mut stdout = render_each(findings.iter().copied(), cli.format, color);
    if cli.format == Format::Human {
        stdout.push_str(&format!(
            "preflight: {} file{} of {} game{} inspected, {} finding{}\n",
            built.len(),
            if built.len() == 1 { "" } else { "s" },
            report.games.len(),
            if report.games.len() == 1 { "" } else { "s" },
            findings.len(),
            if findings.len() == 1 { "" } else { "s" },
        ));
    }
    Ok(Outcome::report(stdout, findings.is_empty()))
}
