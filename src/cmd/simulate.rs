//! `pnpkit simulate GAME`: self-play games written as logs, each replayed
//! by `log` before the command reports.

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::{Fatal, Outcome, Progress};
use crate::cli::{Format, SimulateArgs};
use crate::diag::Code;
use crate::rules::Options;
use crate::rules::selfplay::Policy;
use crate::stats::sim::{self, Summary};

pub fn run(cx: &super::Ctx, args: &SimulateArgs, progress: &dyn Progress) -> Result<Outcome, Fatal> {
    let cli = cx.cli;
    let policies: Vec<Policy> = args
        .players
        .iter()
        .map(|p| Policy::parse(p).ok_or_else(|| Fatal::Setup(format!("`{p}` is not a player: `random` or `greedy`"))))
        .collect::<Result<_, _>>()?;
    let game = cx.load_game(&args.game)?;
    let engine = match crate::rules::engine_for(&game) {
        Some(Ok(e)) => e,
        Some(Err(_)) => {
            return Err(Fatal::Setup(format!(
                "the `{}` pack lacks what its engine needs: run `pnpkit check`",
                game.id
            )));
        }
        None => return Err(Fatal::Setup(format!("pnpkit has no rules engine for `{}`", game.id))),
    };
    // Outside a project and without `--out`, the logs are replayed from a
    // private folder and not kept.
    let scratch;
    let (out, kept) = match (&args.out, cx.out(&None)) {
        (Some(out), _) => (out.clone(), true),
        (None, Ok(out)) => (out.join(&game.id).join("simulated"), true),
        (None, Err(_)) => {
            scratch = tempfile::tempdir().map_err(|source| Fatal::Write {
                path: std::env::temp_dir(),
                source,
            })?;
            (scratch.path().to_path_buf(), false)
        }
    };
    let play = |i: u32, attempt: u32| {
        sim::game(
            engine.as_ref(),
            &game.id,
            args.seed,
            i,
            attempt,
            args.games,
            &policies,
            args.max_actions,
        )
    };
    progress.start(args.games as usize, "simulating");
    let played: Vec<_> = (0..args.games)
        .into_par_iter()
        .map(|i| {
            let r = play(i, 0);
            progress.advance();
            r
        })
        .collect();
    progress.finish();
    let mut played: Vec<sim::Game> = played.into_iter().collect::<Result<_, _>>().map_err(Fatal::Setup)?;
    let mut files = write(&out, &played)?;
    // Every log read back as `pnpkit log` reads it. An army the construction
    // rules refuse (the engines draft from one shared pool; a list is checked
    // alone) draws another setup for that game.
    let mut games = super::log::Games::default();
    let mut unclean = Vec::new();
    let mut redrawn = 0;
    for (k, f) in files.iter_mut().enumerate() {
        let mut attempt = 0;
        loop {
            let r = super::log::check_log_with(
                &mut games,
                &cx.catalog,
                f,
                &crate::fsx::read::Scope::named(),
                &Options::default(),
            )?;
            if r.is_legal() {
                break;
            }
            let decks_only = r.replay.is_none()
                && !r.diagnostics.is_empty()
                && r.diagnostics
                    .iter()
                    .all(|d| matches!(d.code, Code::DeckRule | Code::DeckFormat));
            if !decks_only || attempt >= 50 {
                unclean.push(super::log::human(&r, false));
                break;
            }
            attempt += 1;
            redrawn += 1;
            played[k] = play(played[k].index, attempt).map_err(Fatal::Setup)?;
            crate::fsx::write_atomic(f, played[k].played.text.as_bytes()).map_err(|source| Fatal::Write {
                path: f.clone(),
                source,
            })?;
        }
    }
    let summary = Summary::of(
        &game.id,
        args.seed,
        &played,
        kept.then_some(out.as_path()),
        unclean.len(),
        redrawn,
    );
    let mut stdout = match cli.format {
        Format::Human => summary.human(),
        Format::Json => serde_json::to_string_pretty(&summary).unwrap_or_default() + "\n",
    };
    for u in &unclean {
        stdout.push_str(u);
    }
    Ok(Outcome::report(stdout, unclean.is_empty()))
}

/// Writes `game-0001.yaml` … and removes logs an earlier, longer run left.
fn write(out: &Path, played: &[sim::Game]) -> Result<Vec<PathBuf>, Fatal> {
    let mut files = Vec::new();
    for g in played {
        let path = out.join(&g.file);
        crate::fsx::write_atomic(&path, g.played.text.as_bytes()).map_err(|source| Fatal::Write {
            path: path.clone(),
            source,
        })?;
        files.push(path);
    }
    for e in std::fs::read_dir(out).into_iter().flatten().flatten() {
        let p = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with("game-") && name.ends_with(".yaml") && !files.contains(&p) {
            let _ = std::fs::remove_file(&p);
        }
    }
    Ok(files)
}
