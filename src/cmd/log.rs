//! `pnpkit log`: replay a recorded game through its rules engine and report
//! the first illegal action with the rule it breaks.

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value as Json;

use super::{Fatal, Outcome, use_color};
use crate::cli::{Format, LogArgs};
use crate::diag::{Code, Diagnostic, JsonDiagnostic, SourceMap, render_human, to_json};
use crate::fsx::read::Scope;
use crate::model::Game;
use crate::pack::format;
use crate::pack::yaml::Limits;
use crate::pack::{self, Input};
use crate::project::Catalog;
use crate::rules::replay::{Failure, FailureKind, flow};
use crate::rules::{Options, Replay, engine_for, log, upgrade};

/// Everything a `log` run found.
pub struct LogReport {
    pub sources: SourceMap,
    /// Problems that stop the replay (unreadable log, unknown game or
    /// action, a broken pack), or the replay's failure as a diagnostic.
    pub diagnostics: Vec<Diagnostic>,
    pub replay: Option<Replay>,
    /// Title of the failing rule, from the pack's rules reference.
    pub rule_title: Option<String>,
    /// The log as replayed (decks resolved to `{card id: copies}`), once read.
    pub log: Option<log::Log>,
}

/// Games already loaded and checked, with their engines: many logs of one
/// game (`stats`) check the pack once.
#[derive(Default)]
pub struct Games {
    loaded: std::collections::HashMap<String, (Game, Box<dyn crate::rules::Replayer>)>,
}

impl Games {
    /// Games already checked (`check --effects`), with their engines: the
    /// replays see the very effects the report counts.
    pub fn with(games: &[Game]) -> Games {
        let mut loaded = std::collections::HashMap::new();
        for g in games {
            if let Some(Ok(engine)) = engine_for(g) {
                loaded.insert(g.id.clone(), (g.clone(), engine));
            }
        }
        Games { loaded }
    }

    /// The game of `id`, once loaded.
    pub fn game(&self, id: &str) -> Option<&Game> {
        self.loaded.get(id).map(|(g, _)| g)
    }
}

impl LogReport {
    pub fn is_legal(&self) -> bool {
        self.diagnostics.is_empty() && self.replay.as_ref().is_some_and(|r| r.failure.is_none())
    }
}

/// Reads the log at `path`, loads its game from `games` and replays it.
pub fn check_log(catalog: &Catalog, path: &Path, options: &Options) -> Result<LogReport, Fatal> {
    check_log_with(&mut Games::default(), catalog, path, &Scope::named(), options)
}

/// [`check_log`], loading each game once into `games`; the log is read
/// inside `scope` (anywhere when the user named it, inside its folder when
/// pnpkit found it there).
pub fn check_log_with(
    games: &mut Games,
    catalog: &Catalog,
    path: &Path,
    scope: &Scope,
    options: &Options,
) -> Result<LogReport, Fatal> {
    let mut report = LogReport {
        sources: SourceMap::default(),
        diagnostics: Vec::new(),
        replay: None,
        rule_title: None,
        log: None,
    };
    let (file, text) = match super::read_source(path, Input::Log, scope, &mut report.sources)? {
        Ok(read) => read,
        Err(d) => {
            report.diagnostics.push(d);
            return Ok(report);
        }
    };
    check_text(games, catalog, path, file, &text, options, report, true)
}

/// [`check_log_with`] on a log's text already read (as `file` of the
/// report's sources): reads it, loads its game, checks its decks, replays.
#[allow(clippy::too_many_arguments)] // the reading context of one log, passed through once
fn check_text(
    games: &mut Games,
    catalog: &Catalog,
    path: &Path,
    file: crate::diag::FileId,
    text: &str,
    options: &Options,
    mut report: LogReport,
    detect_older: bool,
) -> Result<LogReport, Fatal> {
    let limits = Limits::default();
    let node = match log::parse(text, file, &limits) {
        Ok(n) => n,
        Err(d) => {
            report.diagnostics.push(*d);
            return Ok(report);
        }
    };
    // Every problem of reading it at once: its structure, then (when the
    // game is known) the header and actions as the game reads them.
    let (log, structure) = log::read_owned_all(node);
    let log = match log {
        Some(l) if structure.is_empty() => l,
        Some(l) => {
            report.diagnostics = structure;
            // An unknown game or a broken pack adds nothing here: the
            // structure's problems are reported.
            if !games.loaded.contains_key(&l.game)
                && let Some(game) = load_game(catalog, &l, &mut LogReport::empty())?
                && let Some(Ok(engine)) = engine_for(&game)
            {
                games.loaded.insert(l.game.clone(), (game, engine));
            }
            if let Some((_, engine)) = games.loaded.get(&l.game) {
                report.diagnostics.extend(engine.decode(&l));
            }
            report.diagnostics.sort_by_key(|d| d.span.map(|s| s.start));
            return Ok(report);
        }
        None => {
            report.diagnostics = structure;
            return Ok(report);
        }
    };

    if !games.loaded.contains_key(&log.game) {
        let Some(game) = load_game(catalog, &log, &mut report)? else {
            return Ok(report);
        };
        let engine = match engine_for(&game) {
            Some(Ok(e)) => e,
            // `check` reports these with their spans (engine-data); the pack
            // passed it, so this is only reached through a library caller.
            Some(Err(diags)) => {
                return Err(Fatal::Setup(format!(
                    "the `{}` pack lacks what its rules engine needs: {}",
                    game.id,
                    diags.iter().map(|d| d.message.as_str()).collect::<Vec<_>>().join("; ")
                )));
            }
            None => {
                report.diagnostics.push(
                    Diagnostic::new(Code::LogFormat, format!("pnpkit has no rules engine for `{}`", game.id))
                        .at(log.game_span)
                        .label("no engine")
                        .expected(format!("one of {}", quote(crate::rules::engine_games()))),
                );
                return Ok(report);
            }
        };
        games.loaded.insert(log.game.clone(), (game, engine));
    }
    let (game, engine) = &games.loaded[&log.game];
    if let Err(d) = format::check(&log.format, &log::FORMAT, &path.display().to_string()) {
        report.diagnostics.push(*d);
        report.log = Some(log);
        return Ok(report);
    }
    // A `deck:` path was not named on the command line: it is read only from
    // inside the game's data folder or the log's own folder.
    let log_dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let pack_data = game.dir.parent().unwrap_or(Path::new("."));
    let scope = Scope::within_any(&[pack_data, log_dir]);
    let Some(log) = check_decks(game, log, path, &scope, &mut report)? else {
        return Ok(report);
    };
    match engine.replay(&log, options) {
        Err(ds) => report.diagnostics = ds,
        Ok(replay) => {
            if let Some(f) = &replay.failure {
                report.rule_title = f.rule.and_then(|r| rule_title(game, r));
                report.diagnostics.push(failure_diagnostic(
                    f,
                    report.rule_title.as_deref(),
                    &replay.players,
                    &log,
                ));
            }
            report.replay = Some(replay);
        }
    }
    let older = detect_older && !log.format.written && !report.is_legal();
    report.log = Some(log);
    if older {
        older_format(games, catalog, path, text, &mut report)?;
    }
    Ok(report)
}

impl LogReport {
    fn empty() -> LogReport {
        LogReport {
            sources: SourceMap::default(),
            diagnostics: Vec::new(),
            replay: None,
            rule_title: None,
            log: None,
        }
    }
}

/// A log with no `format:` that fails as today's format: if it reads as a
/// format-1 log (what `--upgrade` would change), the report says so first,
/// with what changed and the command that rewrites it (E087).
fn older_format(
    games: &Games,
    catalog: &Catalog,
    path: &Path,
    text: &str,
    report: &mut LogReport,
) -> Result<(), Fatal> {
    let Some(log) = &report.log else { return Ok(()) };
    let Some((game, engine)) = games.loaded.get(&log.game) else {
        return Ok(());
    };
    let mut scratch = Games::with(std::slice::from_ref(game));
    let mut fatal = None;
    let changes = upgrade::looks_older(text, crate::diag::FileId(0), game, engine.as_ref(), &mut |t: &str| {
        attempt(&mut scratch, catalog, path, t, &mut fatal)
    });
    if let Some(e) = fatal {
        return Err(e);
    }
    if changes.is_empty() {
        return Ok(());
    }
    let v = format::Version {
        number: 1,
        span: log.game_span,
        written: false,
    };
    let mut d = format::older(&v, &log::FORMAT, &path.display().to_string());
    for c in changes.iter().take(MAX_CHANGES_SHOWN) {
        d = d.note(format!("line {}: the upgrade {}", c.line, c.what));
    }
    if changes.len() > MAX_CHANGES_SHOWN {
        d = d.note(format!("… and {} more changes", changes.len() - MAX_CHANGES_SHOWN));
    }
    report.diagnostics.insert(0, d);
    Ok(())
}

/// At most this many upgrade changes are listed with an older-format report.
const MAX_CHANGES_SHOWN: usize = 6;

/// Reads and replays a log's text as `pnpkit log` does (for the upgrade).
fn attempt(
    games: &mut Games,
    catalog: &Catalog,
    path: &Path,
    text: &str,
    fatal: &mut Option<Fatal>,
) -> upgrade::Attempt {
    let mut report = LogReport::empty();
    let file = report.sources.add(path.to_path_buf(), std::sync::Arc::from(text));
    match check_text(games, catalog, path, file, text, &Options::default(), report, false) {
        Ok(r) => upgrade::Attempt {
            problems: if r.replay.is_some() { Vec::new() } else { r.diagnostics },
            log: r.log,
            replay: r.replay,
        },
        Err(e) => {
            fatal.get_or_insert(e);
            upgrade::Attempt {
                log: None,
                replay: None,
                problems: Vec::new(),
            }
        }
    }
}

/// `pnpkit log --upgrade FILE`: the log rewritten in today's format (all
/// or nothing), then replayed; what changed is listed.
pub fn upgrade_file(cx: &super::Ctx, args: &LogArgs) -> Result<Outcome, Fatal> {
    let cli = cx.cli;
    let mut games = Games::default();
    let replay =
        |games: &mut Games| check_log_with(games, &cx.catalog, &args.file, &Scope::named(), &Options::default());
    // Loads the game (and shows nothing yet).
    let before = replay(&mut games)?;
    let Some(log) = &before.log else {
        return Ok(Outcome::report(human(&before, use_color(cli.color)), false));
    };
    let text = before.sources.get(crate::diag::FileId(0)).text.to_string();
    let (game, engine) = &games.loaded[&log.game];
    let mut scratch = Games::with(std::slice::from_ref(game));
    let mut fatal = None;
    let done = upgrade::upgrade(&text, crate::diag::FileId(0), game, engine.as_ref(), &mut |t: &str| {
        attempt(&mut scratch, &cx.catalog, &args.file, t, &mut fatal)
    });
    if let Some(e) = fatal {
        return Err(e);
    }
    let up = match done {
        Ok(up) => up,
        Err(diags) => {
            let mut r = LogReport::empty();
            r.sources.add(args.file.clone(), std::sync::Arc::from(text.as_str()));
            r.diagnostics = diags;
            return Ok(Outcome::report(human(&r, use_color(cli.color)), false));
        }
    };
    let mut out = String::new();
    if up.from == log::FORMAT.current {
        out.push_str(&format!(
            "{} is already in format {}: nothing to upgrade\n",
            args.file.display(),
            up.from
        ));
    } else {
        crate::fsx::write_atomic(&args.file, up.text.as_bytes()).map_err(|source| Fatal::Write {
            path: args.file.clone(),
            source,
        })?;
        out.push_str(&format!(
            "upgraded {} from format {} to format {}: {} change{}\n",
            args.file.display(),
            up.from,
            log::FORMAT.current,
            up.changes.len(),
            if up.changes.len() == 1 { "" } else { "s" }
        ));
        for c in &up.changes {
            out.push_str(&format!("  line {}: {}\n", c.line, c.what));
        }
    }
    let after = replay(&mut games)?;
    out.push_str(&human(&after, use_color(cli.color)));
    Ok(Outcome::report(out, after.is_legal()))
}

/// Validates each player's `deck:` with the game's construction rules and
/// hands it to the engine as `{card id: copies}`; `None` when a deck is illegal.
fn check_decks(
    game: &Game,
    mut log: log::Log,
    path: &Path,
    scope: &Scope,
    report: &mut LogReport,
) -> Result<Option<log::Log>, Fatal> {
    let Some(c) = &game.construction else {
        return Ok(Some(log));
    };
    let mode = log.header.get("mode").and_then(Json::as_str).map(str::to_string);
    let mut ok = true;
    // Every list is read first: with a shared pool, what the others took is
    // gone when one player's spending is judged.
    let mut read = Vec::new();
    for (i, player) in log.players.iter().enumerate() {
        let Some(node) = &player.deck else { continue };
        let mut diags = Vec::new();
        let deck = match node.as_str().filter(|s| is_deck_file(s)) {
            // `deck: ../decks/starter.txt`, relative to the log.
            Some(rel) => {
                let file = path.parent().unwrap_or(Path::new("")).join(rel);
                match read_deck_file(&file, game, c, scope, report, &mut diags)? {
                    Some(d) => d,
                    None => {
                        diags.push(
                            Diagnostic::new(
                                Code::DeckFormat,
                                format!("{}'s deck file `{rel}` cannot be found", player.name),
                            )
                            .at(node.span)
                            .expected(format!("a deck list at `{}`", file.display())),
                        );
                        crate::deck::Deck::default()
                    }
                }
            }
            None => {
                let (deck, d) = crate::deck::report::read_yaml_list(node, game, c, false, path);
                diags.extend(d);
                deck
            }
        };
        read.push((i, node.clone(), deck, diags));
    }
    for (i, node, deck, mut diags) in read.iter().cloned() {
        let player = &log.players[i];
        let taken = if c.shared_pool {
            let mut taken = indexmap::IndexMap::new();
            for (_, _, other, _) in read.iter().filter(|(j, ..)| *j != i) {
                for (id, n) in other.copies() {
                    *taken.entry(id).or_insert(0) += n;
                }
            }
            taken
        } else {
            indexmap::IndexMap::new()
        };
        let fields = log
            .header
            .get("players")
            .and_then(|p| p.get(i))
            .and_then(Json::as_object);
        let params = fields
            .map(|m| {
                m.iter()
                    .filter_map(|(k, v)| match v {
                        Json::String(s) => Some((k.clone(), s.clone())),
                        Json::Number(n) => Some((k.clone(), n.to_string())),
                        _ => None,
                    })
                    .collect()
            })
            .unwrap_or_default();
        let ctx = crate::deck::Context {
            mode: if c.modes.is_some() { mode.clone() } else { None },
            role: fields
                .and_then(|m| m.get("role"))
                .and_then(Json::as_str)
                .map(str::to_string),
            params,
            locale: None,
            taken,
        };
        let verdict = crate::deck::validate(game, c, &deck, &ctx);
        for p in &verdict.problems {
            diags.push(
                Diagnostic::new(
                    Code::DeckFormat,
                    format!(
                        "{}'s {}: {}",
                        player.name,
                        c.noun.get(verdict.locale.as_str()),
                        p.message
                    ),
                )
                .at(p.span.unwrap_or(node.span))
                .expected(p.expected.clone()),
            );
        }
        for v in &verdict.violations {
            let d = Diagnostic::new(
                Code::DeckRule,
                format!(
                    "{}'s {}: {}: {}",
                    player.name,
                    c.noun.get(verdict.locale.as_str()),
                    v.rules.join(", "),
                    v.message
                ),
            )
            .at(v.spans.first().copied().unwrap_or(node.span))
            .expected(v.expected.clone())
            .found(v.found.clone())
            .help("the deck is checked with the game's construction rules before the replay (`pnpkit deck`)");
            diags.push(d);
        }
        ok &= diags.is_empty();
        report.diagnostics.extend(diags);
        let copies: serde_json::Map<String, Json> =
            deck.copies().into_iter().map(|(k, n)| (k, Json::from(n))).collect();
        if let Some(p) = log
            .header
            .get_mut("players")
            .and_then(|p| p.get_mut(i))
            .and_then(Json::as_object_mut)
        {
            p.insert("deck".into(), Json::Object(copies));
        }
    }
    Ok(ok.then_some(log))
}

/// A one-line `deck:` ending in a list file's extension is a path.
fn is_deck_file(s: &str) -> bool {
    !s.contains('\n') && [".txt", ".yaml", ".yml"].iter().any(|e| s.trim_end().ends_with(e))
}

/// Reads a deck list file named by a log; `None` if it does not exist.
fn read_deck_file(
    file: &Path,
    game: &Game,
    c: &crate::model::Construction,
    scope: &Scope,
    report: &mut LogReport,
    diags: &mut Vec<Diagnostic>,
) -> Result<Option<crate::deck::Deck>, Fatal> {
    if !pack::is_entry(file) {
        return Ok(None);
    }
    let limits = Limits::default();
    let (id, text) = match super::read_source(file, Input::Deck, scope, &mut report.sources)? {
        Ok(read) => read,
        Err(d) => {
            diags.push(d);
            return Ok(Some(crate::deck::Deck::default()));
        }
    };
    if matches!(file.extension().and_then(|e| e.to_str()), Some("yaml" | "yml")) {
        match pack::parse_yaml(&text, id, &limits) {
            Ok(node) => {
                let (deck, d) = crate::deck::report::read_yaml_list(&node, game, c, true, file);
                diags.extend(d);
                Ok(Some(deck))
            }
            Err(d) => {
                diags.push(*d);
                Ok(Some(crate::deck::Deck::default()))
            }
        }
    } else {
        let (deck, d) = crate::deck::report::read_text_list(&text, id, game, c, file);
        diags.extend(d);
        Ok(Some(deck))
    }
}

fn quote<'a>(items: impl Iterator<Item = &'a str>) -> String {
    crate::pack::reader::quote_list(&items.collect::<Vec<_>>())
}

/// Loads and checks the log's game (the project's, else built in); a broken
/// pack stops the replay.
fn load_game(catalog: &Catalog, log: &log::Log, report: &mut LogReport) -> Result<Option<Game>, Fatal> {
    let known: Vec<String> = catalog.games().into_iter().map(|(id, _)| id).collect();
    if !known.contains(&log.game) {
        let place = match catalog.data() {
            Some(d) => format!("in `{}` nor built in", d.display()),
            None => "built in (and not in a project)".to_owned(),
        };
        report.diagnostics.push(
            Diagnostic::new(Code::LogFormat, format!("no game pack `{}` {place}", log.game))
                .at(log.game_span)
                .label("unknown game")
                .expected(format!("one of {}", quote(known.iter().map(String::as_str))))
                .suggest(&log.game, known.iter().map(String::as_str)),
        );
        return Ok(None);
    }
    super::ctx::load_game(catalog, &log.game).map(Some)
}

/// The rule's section title in the reference (English, else the first locale).
pub fn rule_title(game: &Game, rule: &str) -> Option<String> {
    let (_, section) = game.reference.sections().into_iter().find(|(_, s)| s.id == rule)?;
    let text = &section.title.text;
    Some(text.0.get("en").or_else(|| text.0.values().next())?.clone())
}

fn position(f: &Failure, players: &[String], log: &log::Log) -> String {
    match (f.turn, f.action) {
        (Some(t), Some(a)) => format!("turn {t} ({}), action {a}", turn_player(log, t, players)),
        (Some(t), None) => format!("turn {t} ({})", turn_player(log, t, players)),
        (None, _) if f.kind == FailureKind::Result => "the result".into(),
        (None, _) => "the setup".into(),
    }
}

fn turn_player(log: &log::Log, turn: usize, _players: &[String]) -> String {
    log.turns.get(turn - 1).map(|t| t.player.clone()).unwrap_or_default()
}

/// At most this many characters of state are shown with a failure.
const STATE_EXCERPT: usize = 400;

fn excerpt(state: &Json) -> String {
    let s = flow(state);
    if s.chars().count() <= STATE_EXCERPT {
        s
    } else {
        let cut: String = s.chars().take(STATE_EXCERPT).collect();
        format!("{cut} … (--trace shows all)")
    }
}

fn failure_diagnostic(f: &Failure, title: Option<&str>, players: &[String], log: &log::Log) -> Diagnostic {
    let at = position(f, players, log);
    let (code, message) = match f.kind {
        FailureKind::Illegal => {
            let rule = f.rule.unwrap_or("?");
            let head = match title {
                Some(t) => format!("{rule} ({t})"),
                None => rule.to_string(),
            };
            (Code::IllegalAction, format!("{head}: {}", f.message))
        }
        FailureKind::Checkpoint => (Code::CheckpointMismatch, f.message.clone()),
        FailureKind::Result => (Code::ResultMismatch, f.message.clone()),
    };
    let mut d = Diagnostic::new(code, message).at(f.span).label(format!("at {at}"));
    if !f.expected.is_empty() {
        d = d.expected(f.expected.clone());
    }
    if !f.found.is_empty() {
        d = d.found(f.found.clone());
    }
    if let Some(u) = &f.forgotten {
        d = d.note(if u.auto {
            format!(
                "the log's values are those of the game without `{}`, whose effect applies by itself: the engine applies it, the log does not write it",
                u.card
            )
        } else {
            format!(
                "the log's values are those of the game without what `{}` gave earlier, which still lasts: the engine counts it",
                u.card
            )
        });
    }
    if !f.state.is_null() {
        d = d.note(format!("state: {}", excerpt(&f.state)));
    }
    if !f.alternatives.is_empty() {
        d = d.help(format!(
            "legal here: {}",
            f.alternatives.iter().map(flow).collect::<Vec<_>>().join("; ")
        ));
    }
    d
}

pub fn run(cx: &super::Ctx, args: &LogArgs) -> Result<Outcome, Fatal> {
    if args.upgrade {
        return upgrade_file(cx, args);
    }
    let cli = cx.cli;
    let mut games = Games::default();
    let options = Options {
        trace: args.trace || args.html.is_some(),
        ..Options::default()
    };
    let mut report = check_log_with(&mut games, &cx.catalog, &args.file, &Scope::named(), &options)?;
    let page = match (&args.html, &report.log, &report.replay) {
        (Some(path), Some(log), Some(replay)) => {
            let (game, engine) = &games.loaded[&log.game];
            let file = args.file.display().to_string();
            Some((
                path,
                crate::viewer::page(game, &file, log, replay, engine.action_rules()),
            ))
        }
        _ => None,
    };
    if !args.trace
        && let Some(r) = &mut report.replay
    {
        r.trace.clear();
    }
    let mut stdout = match cli.format {
        Format::Human => human(&report, use_color(cli.color)),
        Format::Json => json(&report, &args.file),
    };
    if let Some((path, html)) = page {
        crate::fsx::write_atomic(path, html.as_bytes()).map_err(|source| Fatal::Write {
            path: path.clone(),
            source,
        })?;
        if cli.format == Format::Human {
            stdout.push_str(&format!("wrote {}\n", path.display()));
        }
    }
    Ok(Outcome::report(stdout, report.is_legal()))
}

/// The human report: trace, diagnostics, then the summary.
pub fn human(report: &LogReport, color: bool) -> String {
    let mut out = String::new();
    if let Some(r) = &report.replay {
        for s in &r.trace {
            let at = match s.action {
                Some(a) => format!("turn {} {} #{a}", s.turn, s.player),
                None => format!("turn {} {} end", s.turn, s.player),
            };
            out.push_str(&format!("{at}: {}\n    {}\n", flow(&s.done), flow(&s.state)));
        }
    }
    out.push_str(&render_human(&report.diagnostics, &report.sources, color));
    let Some(r) = &report.replay else {
        out.push_str(&format!("log not replayed: {} problem(s)\n", report.diagnostics.len()));
        return out;
    };
    let verdict = match &r.failure {
        None => "legal".to_string(),
        Some(f) => match f.kind {
            FailureKind::Illegal => format!("illegal ({})", f.rule.unwrap_or("?")),
            FailureKind::Checkpoint => "checkpoint mismatch".into(),
            FailureKind::Result => "result mismatch".into(),
        },
    };
    out.push_str(&format!(
        "{}: {verdict} — {} turn{}, {} action{} replayed ({})\n",
        r.game,
        r.turns,
        if r.turns == 1 { "" } else { "s" },
        r.actions,
        if r.actions == 1 { "" } else { "s" },
        r.players.join(", ")
    ));
    match &r.ending {
        Some(e) if e.winners.is_empty() => out.push_str(&format!("result: draw ({}, {})\n", e.reason, e.rule)),
        Some(e) => out.push_str(&format!(
            "winner: {} ({}, {})\n",
            e.winners.join(" and "),
            e.reason,
            e.rule
        )),
        None => out.push_str("result: the game has not ended\n"),
    }
    if r.failure.is_none() {
        out.push_str(&format!("final state: {}\n", flow(&r.final_state)));
    }
    out
}

#[derive(Serialize)]
struct JsonLog<'a> {
    file: String,
    legal: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    replay: Option<&'a Replay>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rule_title: Option<&'a str>,
    diagnostics: Vec<JsonDiagnostic>,
}

pub fn json(report: &LogReport, file: &Path) -> String {
    let j = JsonLog {
        file: PathBuf::from(file).display().to_string(),
        legal: report.is_legal(),
        replay: report.replay.as_ref(),
        rule_title: report.rule_title.as_deref(),
        diagnostics: report.diagnostics.iter().map(|d| to_json(d, &report.sources)).collect(),
    };
    let mut s = serde_json::to_string_pretty(&j).unwrap_or_default();
    s.push('\n');
    s
}
