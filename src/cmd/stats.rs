//! `pnpkit stats LOG…`: replay every log, then aggregate the legal ones.

use std::path::{Path, PathBuf};

use super::{Fatal, Outcome, render_each, use_color};
use crate::cli::{Format, StatsArgs};
use crate::diag::{Diagnostic, SourceMap};
use crate::fsx::read::Scope;
use crate::rules::Options;
use crate::stats::{self, Record};

/// The logs named: files as given (read anywhere), folders as their `.yaml`
/// files in name order (read inside the folder: pnpkit found them).
fn files(args: &StatsArgs) -> Result<Vec<(PathBuf, Scope)>, Fatal> {
    let mut out = Vec::new();
    for p in &args.logs {
        if p.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(p)
                .map_err(|e| Fatal::Setup(format!("cannot read the folder `{}`: {e}", p.display())))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.is_file() && matches!(f.extension().and_then(|e| e.to_str()), Some("yaml" | "yml")))
                .collect();
            found.sort();
            let scope =
                Scope::within(p).map_err(|e| Fatal::Setup(format!("cannot read the folder `{}`: {e}", p.display())))?;
            out.extend(found.into_iter().map(|f| (f, scope.clone())));
        } else {
            out.push((p.clone(), Scope::named()));
        }
    }
    if out.is_empty() {
        return Err(Fatal::Setup("no log to read (the folders hold no .yaml file)".into()));
    }
    Ok(out)
}

pub fn run(cx: &super::Ctx, args: &StatsArgs) -> Result<Outcome, Fatal> {
    let cli = cx.cli;
    let mut games = super::log::Games::default();
    let mut problems: Vec<(Diagnostic, SourceMap)> = Vec::new();
    let mut records: Vec<Record> = Vec::new();
    let mut game_id: Option<String> = None;
    let mut mixed = false;
    for (f, scope) in files(args)? {
        let report = super::log::check_log_with(&mut games, &cx.catalog, &f, &scope, &Options::default())?;
        let legal = report.is_legal();
        let (Some(log), Some(replay)) = (&report.log, &report.replay) else {
            let first = report.diagnostics.first();
            let why = first.map_or_else(|| "it cannot be read".to_owned(), |d| d.message.clone());
            problems.push((stats::skipped(first.and_then(|d| d.span), &f, &why), report.sources));
            continue;
        };
        match &game_id {
            Some(g) if *g != log.game => {
                mixed = true;
                problems.push((stats::mixed_games(log.game_span, &log.game, g), report.sources));
                continue;
            }
            None => game_id = Some(log.game.clone()),
            _ => {}
        }
        if !legal {
            let first = report.diagnostics.first();
            let why = first.map_or_else(|| "it does not replay clean".to_owned(), |d| d.message.clone());
            problems.push((stats::skipped(first.and_then(|d| d.span), &f, &why), report.sources));
            continue;
        }
        let game = games.game(&log.game).expect("loaded by the replay");
        records.push(stats::record(game, &f.display().to_string(), log, replay));
    }
    let color = use_color(cli.color);
    let mut stdout = render_each(&problems, cli.format, color);
    if cli.format == Format::Json && !problems.is_empty() && (mixed || records.is_empty()) {
        return Ok(Outcome::report(stdout, false));
    }
    if cli.format == Format::Json {
        stdout.clear();
    }
    if mixed {
        stdout.push_str("stats refused: the logs are of different games\n");
        return Ok(Outcome::report(stdout, false));
    }
    let Some(id) = game_id.filter(|_| !records.is_empty()) else {
        stdout.push_str("stats: no log replays clean; nothing to count\n");
        return Ok(Outcome::report(stdout, false));
    };
    let game = games.game(&id).expect("loaded");
    let s = stats::stats(game, &records);
    match cli.format {
        Format::Human => stdout.push_str(&stats::report::human(&s)),
        Format::Json => {
            let mut v = serde_json::to_value(&s).unwrap_or_default();
            v["warnings"] = serde_json::json!(
                problems
                    .iter()
                    .map(|(d, src)| crate::diag::to_json(d, src))
                    .collect::<Vec<_>>()
            );
            stdout.push_str(&(serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"));
        }
    }
    if let Some(path) = &args.html {
        let title = format!("{} — playtest statistics", game.name.get("en"));
        write(path, stats::html::page(&s, &title).as_bytes())?;
        if cli.format == Format::Human {
            stdout.push_str(&format!("wrote {}\n", path.display()));
        }
    }
    Ok(Outcome::report(stdout, true))
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), Fatal> {
    crate::fsx::write_atomic(path, bytes).map_err(|source| Fatal::Write {
        path: path.to_path_buf(),
        source,
    })
}
