//! `pnpkit deck <game> <file>…`: check deck or army lists against the
//! game's construction rules. One file: every problem with its numbers,
//! rule and lines. Several files or `--batch DIR`: an organiser's table of
//! verdicts, with `verdicts.csv`, `verdicts.json` and a decklist sheet per
//! list written to `--out`.

use std::path::{Path, PathBuf};

use super::{Fatal, Outcome, Status, use_color};
use crate::cli::{DeckArgs, Format};
use crate::deck::validate::mode_for_players;
use crate::deck::{Context, DeckReport, batch, check_bytes, report};
use crate::diag::{Code, Diagnostic, SourceMap};
use crate::fsx::read::{ReadError, Scope, max, read_bounded};
use crate::fsx::txn::FileTxn;
use crate::model::Game;
use crate::pack::Input;

/// Reads a list file inside `scope` and checks it. A file that cannot be
/// read (missing, refused, not text) is an unreadable list, not a failure of the run.
pub fn check_file(
    game: &Game,
    path: &Path,
    ctx: &Context,
    scope: &Scope,
    sources: &mut SourceMap,
) -> Result<DeckReport, Fatal> {
    let limit = if crate::deck::decode::is_workbook(path) {
        max::SHEET
    } else {
        max::DECK
    };
    // The path as reports show it: a file name with control characters
    // (an escape sequence that would retitle or recolour the terminal) is
    // shown with them escaped, everywhere it is printed.
    let shown = PathBuf::from(crate::deck::words::printable(&path.to_string_lossy()));
    let read = read_bounded(path, limit, scope);
    let path = shown.as_path();
    match read {
        Ok(bytes) => check_bytes(game, path, bytes, ctx, sources).map_err(Fatal::Setup),
        Err(ReadError::Refused(r)) => {
            let file = sources.add(path.to_path_buf(), std::sync::Arc::from(""));
            let d = crate::pack::refused(file, Input::Deck, &r);
            let d = Diagnostic { span: None, ..d }.in_file(path);
            report::unreadable(game, path, ctx, d).map_err(Fatal::Setup)
        }
        Err(ReadError::Io(e)) => {
            sources.add(path.to_path_buf(), std::sync::Arc::from(""));
            let d = Diagnostic::new(Code::DeckUnreadable, format!("the file cannot be read: {e}")).in_file(path);
            report::unreadable(game, path, ctx, d).map_err(Fatal::Setup)
        }
    }
}

fn context(game: &Game, args: &DeckArgs) -> Result<Context, Fatal> {
    let mode = match (&args.mode, args.players) {
        (Some(m), _) => Some(m.clone()),
        (None, Some(n)) => {
            let c = game
                .construction
                .as_ref()
                .ok_or_else(|| Fatal::Setup(format!("`{}` declares no construction rules", game.id)))?;
            if c.modes.is_none() {
                return Err(Fatal::Setup(format!("`{}` has no game modes: drop --players", game.id)));
            }
            let m = mode_for_players(game, c, i64::from(n))
                .ok_or_else(|| Fatal::Setup(format!("no `{}` mode for {n} players", game.id)))?;
            Some(m.id.clone())
        }
        (None, None) => None,
    };
    let mut params = indexmap::IndexMap::new();
    for p in &args.param {
        let Some((k, v)) = p.split_once('=') else {
            return Err(Fatal::Setup(format!("`--param {p}`: expected NAME=VALUE")));
        };
        params.insert(k.trim().to_string(), v.trim().to_string());
    }
    Ok(Context {
        mode,
        role: args.role.clone(),
        params,
        locale: args.locale.clone(),
        taken: Default::default(),
    })
}

/// The files of the run, each with where it may lie: the named ones
/// anywhere, then a batch folder's lists inside that folder (pnpkit found
/// them, so a link out of the folder is refused).
/// The lists of a run, each with where it may lie, and the entries of a
/// batch folder skipped with the reason.
type Files = (Vec<(PathBuf, Scope)>, Vec<(PathBuf, &'static str)>);

fn list_files(args: &DeckArgs) -> Result<Files, Fatal> {
    let mut files: Vec<(PathBuf, Scope)> = args.files.iter().map(|f| (f.clone(), Scope::named())).collect();
    let mut skipped = Vec::new();
    if let Some(dir) = &args.batch {
        let rd = std::fs::read_dir(dir)
            .map_err(|e| Fatal::Setup(format!("cannot read the batch folder `{}`: {e}", dir.display())))?;
        let mut found: Vec<PathBuf> = Vec::new();
        for path in rd.filter_map(|e| e.ok().map(|e| e.path())) {
            match batch::skip_reason(&path) {
                None => found.push(path),
                Some(why) => skipped.push((path, why)),
            }
        }
        found.sort();
        skipped.sort();
        if found.is_empty() {
            return Err(Fatal::Setup(format!(
                "`{}` holds no list files (.txt, .md, .csv, .tsv, .xlsx, .ods, .yaml)",
                dir.display()
            )));
        }
        let scope = Scope::within(dir)
            .map_err(|e| Fatal::Setup(format!("cannot read the batch folder `{}`: {e}", dir.display())))?;
        files.extend(found.into_iter().map(|f| (f, scope.clone())));
    }
    if files.is_empty() {
        return Err(Fatal::Setup("name a list file, several, or `--batch DIR`".into()));
    }
    Ok((files, skipped))
}

pub fn run(cx: &super::Ctx, args: &DeckArgs) -> Result<Outcome, Fatal> {
    let cli = cx.cli;
    let game = cx.load_game(&args.game)?;
    let ctx = context(&game, args)?;
    let (files, skipped) = list_files(args)?;
    let mut sources = SourceMap::default();
    if files.len() == 1 && args.batch.is_none() {
        let report = check_file(&game, &files[0].0, &ctx, &files[0].1, &mut sources)?;
        let odds = if args.odds {
            Some(odds(&game, &report, args)?)
        } else {
            None
        };
        let locale = report.verdict.locale.clone();
        let stdout = match cli.format {
            Format::Human => {
                let mut s = report.human(&game, &sources, use_color(cli.color));
                if let Some((o, skips)) = &odds {
                    s.push('\n');
                    s.push_str(&o.human(&locale, *skips));
                }
                s
            }
            Format::Json => {
                let mut v = serde_json::to_value(report.json(&sources)).unwrap_or_default();
                if let Some((o, _)) = &odds {
                    v["odds"] = serde_json::to_value(o).unwrap_or_default();
                }
                serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
            }
        };
        let status = if report.unreadable {
            Status::Unreadable
        } else if report.is_legal() {
            Status::Clean
        } else {
            Status::Problems
        };
        return Ok(Outcome { stdout, status });
    }
    if args.odds {
        return Err(Fatal::Setup("--odds reads one list: name a single file".into()));
    }
    let out = match &args.out {
        Some(out) => out.clone(),
        None => cx.out(&None)?.join(&game.id).join("decklists"),
    };
    let shared = cx.shared()?;
    let write_err = |path: &Path| {
        let path = path.to_path_buf();
        move |source| Fatal::Write { path, source }
    };
    // Each list is checked, its sheet rendered and staged, its report
    // appended to the staged verdicts.json, then dropped: memory does not
    // grow with the number of lists (beyond one short row each). Nothing
    // is swapped in unless every list went through.
    std::fs::create_dir_all(&out).map_err(write_err(&out))?;
    let mut txn = FileTxn::begin(&out).map_err(write_err(&out))?;
    let json_path = out.join("verdicts.json");
    let mut json = batch::JsonWriter::new(
        std::io::BufWriter::new(txn.create(&json_path).map_err(write_err(&json_path))?),
        &game.id,
        cli.format == Format::Json,
    )
    .map_err(write_err(&json_path))?;
    let mut rows = Vec::new();
    let mut details = String::new();
    let mut detailed = 0;
    let color = use_color(cli.color);
    let mut written = std::collections::BTreeSet::new();
    for (i, (f, scope)) in files.iter().enumerate() {
        let mut sources = SourceMap::default();
        let report = check_file(&game, f, &ctx, scope, &mut sources)?;
        let pdf = crate::render::decklist::sheet(&shared, &game, &report)
            .map_err(|e| Fatal::Setup(format!("the decklist sheet of `{}` failed: {e}", report.file.display())))?;
        let sheet = out.join(batch::sheet_name(i, &report.player()));
        txn.put(&sheet, &pdf).map_err(write_err(&sheet))?;
        written.insert(sheet.clone());
        json.report(&report.json(&sources)).map_err(write_err(&json_path))?;
        if !report.is_legal() {
            if detailed < batch::MAX_DETAILED {
                details.push_str(&report.human(&game, &sources, color));
                details.push('\n');
            }
            detailed += 1;
        }
        rows.push(batch::row(&report, Some(&sheet)));
    }
    let stdout_json = json.finish(&rows).map_err(write_err(&json_path))?;
    let csv_path = out.join("verdicts.csv");
    txn.put(&csv_path, batch::csv(&rows).as_bytes())
        .map_err(write_err(&csv_path))?;
    // Sheets an earlier run wrote and this one did not (a player gone, renamed) go.
    for stale in batch::stale_sheets(&out, &written) {
        txn.remove(&stale).map_err(write_err(&stale))?;
    }
    txn.commit().map_err(write_err(&out))?;
    let status = if rows.iter().any(|r| r.unreadable) {
        Status::Unreadable
    } else if rows.iter().all(|r| r.legal) {
        Status::Clean
    } else {
        Status::Problems
    };
    let stdout = match cli.format {
        Format::Json => stdout_json,
        Format::Human => {
            let mut s = details;
            if detailed > batch::MAX_DETAILED {
                s.push_str(&batch::more_details(detailed - batch::MAX_DETAILED));
            }
            for skipped in &skipped {
                s.push_str(&format!(
                    "skipped {}: {}\n",
                    crate::deck::words::printable(&skipped.0.display().to_string()),
                    skipped.1
                ));
            }
            s.push_str(&batch::table(&rows));
            s.push_str(&format!(
                "wrote {} decklist sheet{}, verdicts.csv and verdicts.json to {}\n",
                rows.len(),
                if rows.len() == 1 { "" } else { "s" },
                crate::deck::words::printable(&out.display().to_string())
            ));
            s
        }
    };
    Ok(Outcome { stdout, status })
}

/// The odds of a list under the game's draw rules, and whether the first player skips a draw.
fn odds(game: &Game, report: &DeckReport, args: &DeckArgs) -> Result<(crate::deck::odds::Odds, bool), Fatal> {
    let draw = game
        .construction
        .as_ref()
        .and_then(|c| c.draw.as_ref())
        .ok_or_else(|| {
            Fatal::Setup(format!(
                "`{}` declares no draw rules (`construction.draw` in game.yaml): its lists are not drawn from",
                game.id
            ))
        })?;
    let ask = crate::deck::odds::Ask {
        turns: args.turns,
        at_least: args.at_least,
        first: args.first,
    };
    let odds = crate::deck::odds::odds(game, draw, &report.deck, &ask, &report.verdict.locale).map_err(Fatal::Setup)?;
    Ok((odds, draw.first_player_skips))
}
