//! `pnpkit deck <game> <file>…`: check deck or army lists against the
//! game's construction rules. One file: every problem with its numbers,
//! rule and lines. Several files or `--batch DIR`: an organiser's table of
//! verdicts, with `verdicts.csv`, `verdicts.json` and a decklist sheet per
//! list written to `--out`.

use std::path::{Path, PathBuf};

use super::{Fatal, Outcome, use_color};
use crate::cli::{DeckArgs, Format};
use crate::deck::validate::mode_for_players;
use crate::deck::{Context, DeckReport, batch, check_list};
use crate::diag::SourceMap;
use crate::fsx::read::Scope;
use crate::model::Game;
use crate::pack::Input;

/// Reads a list file inside `scope` and checks it.
pub fn check_file(
    game: &Game,
    path: &Path,
    ctx: &Context,
    scope: &Scope,
    sources: &mut SourceMap,
) -> Result<DeckReport, Fatal> {
    let (file, text) = match super::read_source(path, Input::Deck, scope, sources)? {
        Ok(read) => read,
        Err(d) => {
            let file = d.span.map(|s| s.file).unwrap_or_default();
            let mut report = check_list(game, path, file, "", ctx).map_err(Fatal::Setup)?;
            report.diagnostics = vec![d];
            return Ok(report);
        }
    };
    check_list(game, path, file, &text, ctx).map_err(Fatal::Setup)
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
fn list_files(args: &DeckArgs) -> Result<Vec<(PathBuf, Scope)>, Fatal> {
    let mut files: Vec<(PathBuf, Scope)> = args.files.iter().map(|f| (f.clone(), Scope::named())).collect();
    if let Some(dir) = &args.batch {
        let rd = std::fs::read_dir(dir)
            .map_err(|e| Fatal::Setup(format!("cannot read the batch folder `{}`: {e}", dir.display())))?;
        let mut found: Vec<PathBuf> = rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file() && batch::is_list_file(p))
            .collect();
        found.sort();
        if found.is_empty() {
            return Err(Fatal::Setup(format!(
                "`{}` holds no list files (.txt, .md, .csv, .tsv, .yaml)",
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
    Ok(files)
}

pub fn run(cx: &super::Ctx, args: &DeckArgs) -> Result<Outcome, Fatal> {
    let cli = cx.cli;
    let game = cx.load_game(&args.game)?;
    let ctx = context(&game, args)?;
    let files = list_files(args)?;
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
        return Ok(Outcome::report(stdout, report.is_legal()));
    }
    if args.odds {
        return Err(Fatal::Setup("--odds reads one list: name a single file".into()));
    }
    let mut reports = Vec::new();
    for (f, scope) in &files {
        reports.push(check_file(&game, f, &ctx, scope, &mut sources)?);
    }
    let out = match &args.out {
        Some(out) => out.clone(),
        None => cx.out(&None)?.join(&game.id).join("decklists"),
    };
    let shared = cx.shared()?;
    // Every sheet is rendered before anything is written.
    let mut sheets = Vec::new();
    for (i, r) in reports.iter().enumerate() {
        let pdf = crate::render::decklist::sheet(&shared, &game, r)
            .map_err(|e| Fatal::Setup(format!("the decklist sheet of `{}` failed: {e}", r.file.display())))?;
        sheets.push((out.join(batch::sheet_name(i, &r.player())), pdf));
    }
    let rows: Vec<batch::Row> = reports
        .iter()
        .zip(&sheets)
        .map(|(r, (p, _))| batch::row(r, Some(p)))
        .collect();
    let csv = batch::csv(&rows);
    let json = batch::json(&game.id, &rows, &reports, &sources);
    let write = |path: &Path, bytes: &[u8]| {
        crate::fsx::write_atomic(path, bytes).map_err(|source| Fatal::Write {
            path: path.to_path_buf(),
            source,
        })
    };
    std::fs::create_dir_all(&out).map_err(|source| Fatal::Write {
        path: out.clone(),
        source,
    })?;
    for (p, pdf) in &sheets {
        write(p, pdf)?;
    }
    write(&out.join("verdicts.csv"), csv.as_bytes())?;
    write(&out.join("verdicts.json"), json.as_bytes())?;
    let legal = rows.iter().all(|r| r.legal);
    let stdout = match cli.format {
        Format::Json => json,
        Format::Human => {
            let mut s = String::new();
            let color = use_color(cli.color);
            for r in reports.iter().filter(|r| !r.is_legal()) {
                s.push_str(&r.human(&game, &sources, color));
                s.push('\n');
            }
            s.push_str(&batch::table(&rows));
            s.push_str(&format!(
                "wrote {} decklist sheet{}, verdicts.csv and verdicts.json to {}\n",
                sheets.len(),
                if sheets.len() == 1 { "" } else { "s" },
                out.display()
            ));
            s
        }
    };
    Ok(Outcome::report(stdout, legal))
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
