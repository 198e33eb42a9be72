//! `pnpkit deck <game> <file>`: check a deck or army list against the game's
//! construction rules; every violation with its numbers, rule and lines.

use std::path::Path;

use serde::Serialize;

use super::{Fatal, Outcome, use_color};
use crate::check::check;
use crate::cli::{Cli, DeckArgs, Format};
use crate::deck::{Context, Deck, Verdict, Violation, list, validate};
use crate::diag::{Code, Diagnostic, JsonDiagnostic, SourceMap, render_human, to_json};
use crate::model::{FieldValue, Game};
use crate::pack::yaml::Limits;
use crate::fsx::read::Scope;
use crate::pack::{self, Input, LoadError};

/// Everything a `deck` run found.
pub struct DeckReport {
    pub game: String,
    pub noun: String,
    pub sources: SourceMap,
    /// Unreadable lines, unknown cards, and every broken rule.
    pub diagnostics: Vec<Diagnostic>,
    pub deck: Deck,
    pub verdict: Option<Verdict>,
}

impl DeckReport {
    pub fn is_legal(&self) -> bool {
        self.diagnostics.is_empty() && self.verdict.as_ref().is_some_and(Verdict::is_legal)
    }
}

/// Loads the game's pack (it must check clean).
pub fn load_game(data: &Path, id: &str) -> Result<Game, Fatal> {
    let report = check(data, &[id.to_string()], &Limits::default())?;
    if report.has_errors() {
        return Err(Fatal::Load(LoadError::NoPacks {
            path: data.join(id),
            detail: format!(
                "the `{id}` pack has {} problem(s); run `pnpkit check {id}` first",
                report.diagnostics.errors()
            ),
        }));
    }
    report
        .games
        .into_iter()
        .next()
        .ok_or_else(|| Fatal::Setup(format!("no game `{id}`")))
}

/// The mode with `players: n`, for `--players`.
pub fn mode_for_players(game: &Game, n: u32) -> Result<String, Fatal> {
    let kind = game
        .construction
        .as_ref()
        .and_then(|c| c.modes.clone())
        .ok_or_else(|| Fatal::Setup(format!("`{}` has no game modes: drop --players", game.id)))?;
    game.components
        .get(&kind)
        .into_iter()
        .flatten()
        .find(|m| m.field("players").and_then(FieldValue::as_int) == Some(i64::from(n)) && m.field("points").is_some())
        .map(|m| m.id.clone())
        .ok_or_else(|| Fatal::Setup(format!("no `{}` mode for {n} players", game.id)))
}

/// Reads and checks a list file.
pub fn check_deck(game: &Game, path: &Path, ctx: &Context) -> Result<DeckReport, Fatal> {
    let Some(c) = &game.construction else {
        return Err(Fatal::Setup(format!(
            "`{}` declares no construction rules (`construction:` in game.yaml)",
            game.id
        )));
    };
    let limits = Limits::default();
    let mut report = DeckReport {
        game: game.id.clone(),
        noun: c.noun.clone(),
        sources: SourceMap::default(),
        diagnostics: Vec::new(),
        deck: Deck::default(),
        verdict: None,
    };
    let (file, text) = match super::read_source(path, Input::Deck, &Scope::named(), &mut report.sources)? {
        Ok(read) => read,
        Err(d) => {
            report.diagnostics.push(d);
            return Ok(report);
        }
    };
    let yaml = matches!(path.extension().and_then(|e| e.to_str()), Some("yaml" | "yml"));
    let mut diags = Vec::new();
    let deck = if yaml {
        match pack::parse_yaml(&text, file, &limits) {
            Ok(node) => {
                if let Some(g) = node.get("game").and_then(|n| n.as_str().map(|s| (s, n.span)))
                    && g.0 != game.id
                {
                    diags.push(
                        Diagnostic::new(
                            Code::DeckFormat,
                            format!("this {} is for `{}`, not `{}`", c.noun, g.0, game.id),
                        )
                        .at(g.1)
                        .expected(format!("`game: {}`", game.id)),
                    );
                }
                list::parse_node(&node, &text, game, c, true, &mut diags)
            }
            Err(d) => {
                diags.push(*d);
                Deck::default()
            }
        }
    } else {
        list::parse_text(&text, file, game, c, &mut diags)
    };
    let verdict = validate(game, c, &deck, ctx);
    for p in &verdict.problems {
        let mut d = Diagnostic::new(Code::DeckFormat, p.message.clone()).expected(p.expected.clone());
        d = match p.span {
            Some(s) => d.at(s),
            None => d.in_file(path),
        };
        diags.push(d);
    }
    for v in &verdict.violations {
        diags.push(violation_diagnostic(v, game, path));
    }
    report.diagnostics = diags;
    report.deck = deck;
    report.verdict = Some(verdict);
    Ok(report)
}

/// At most this many further lines are pointed at per violation.
const RELATED: usize = 6;

fn violation_diagnostic(v: &Violation, game: &Game, path: &Path) -> Diagnostic {
    let cite = v.cite.as_ref().and_then(|c| crate::cmd::log::rule_title(game, c));
    let head = match cite {
        Some(t) => format!("{} ({t})", v.rules.join(", ")),
        None => v.rules.join(", "),
    };
    let mut d = Diagnostic::new(Code::DeckRule, format!("{head}: {}", v.message))
        .expected(v.expected.clone())
        .found(v.found.clone());
    let mut spans = v.spans.iter();
    d = match (spans.next(), v.header_span) {
        (Some(s), _) => d.at(*s).label("counted here"),
        (None, Some(h)) => d.at(h).label("named here"),
        (None, None) => d.in_file(path),
    };
    let rest: Vec<_> = spans.collect();
    for s in rest.iter().take(RELATED) {
        d = d.related(**s, "and here");
    }
    if rest.len() > RELATED {
        d = d.note(format!("{} more lines are involved", rest.len() - RELATED));
    }
    if let (Some(h), false) = (v.header_span, v.spans.is_empty()) {
        d = d.related(h, "named here");
    }
    if let Some(c) = &v.cite {
        d = d.note(format!("rules reference: section `{c}`"));
    }
    d
}

pub fn run(cli: &Cli, args: &DeckArgs) -> Result<Outcome, Fatal> {
    let game = load_game(&cli.data, &args.game)?;
    let mode = match (&args.mode, args.players) {
        (Some(m), _) => Some(m.clone()),
        (None, Some(n)) => Some(mode_for_players(&game, n)?),
        (None, None) => None,
    };
    let mut params = indexmap::IndexMap::new();
    for p in &args.param {
        let Some((k, v)) = p.split_once('=') else {
            return Err(Fatal::Setup(format!("`--param {p}`: expected NAME=VALUE")));
        };
        params.insert(k.trim().to_string(), v.trim().to_string());
    }
    let ctx = Context {
        mode,
        role: args.role.clone(),
        params,
    };
    let report = check_deck(&game, &args.file, &ctx)?;
    let stdout = match cli.format {
        Format::Human => human(&report, &game, use_color(cli.color)),
        Format::Json => json(&report, &args.file),
    };
    Ok(Outcome::report(stdout, report.is_legal()))
}

/// Diagnostics, then a summary table of the list's composition.
pub fn human(report: &DeckReport, game: &Game, color: bool) -> String {
    let mut out = render_human(&report.diagnostics, &report.sources, color);
    let Some(v) = &report.verdict else {
        return out;
    };
    let problems = report.diagnostics.len();
    let mut head = format!(
        "{} {}: {}",
        report.game,
        report.noun,
        if report.is_legal() {
            "legal".to_string()
        } else {
            format!("illegal — {problems} problem{}", if problems == 1 { "" } else { "s" })
        }
    );
    if let Some(m) = &v.mode {
        head.push_str(&format!(" (mode {m}"));
        if let Some(r) = &v.role {
            head.push_str(&format!(", role {r}"));
        }
        head.push(')');
    }
    out.push_str(&head);
    out.push('\n');
    let kind_name = |k: &str| {
        game.kinds
            .get(k)
            .map_or(k.to_string(), |kd| kd.name.get("en").to_lowercase())
    };
    let mut rows: Vec<(String, String)> = v
        .composition
        .rows
        .iter()
        .map(|(l, n)| (l.replace('_', " "), n.to_string()))
        .collect();
    for (k, n) in rows.iter_mut() {
        if !k.contains(" / ") {
            *k = kind_name(k);
        }
        let _ = n;
    }
    rows.push(("total".into(), v.composition.total.to_string()));
    for (label, n) in &v.composition.sums {
        rows.push((label.clone(), n.to_string()));
    }
    let width = rows.iter().map(|(l, _)| l.chars().count()).max().unwrap_or(0);
    for (l, n) in rows {
        out.push_str(&format!("  {l:<width$}  {n:>4}\n"));
    }
    for s in &v.skipped {
        out.push_str(&format!("  not checked: {s}\n"));
    }
    out
}

#[derive(Serialize)]
struct JsonDeck<'a> {
    file: String,
    game: &'a str,
    legal: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    verdict: Option<&'a Verdict>,
    cards: &'a [crate::deck::Entry],
    diagnostics: Vec<JsonDiagnostic>,
}

pub fn json(report: &DeckReport, file: &Path) -> String {
    let j = JsonDeck {
        file: file.display().to_string(),
        game: &report.game,
        legal: report.is_legal(),
        verdict: report.verdict.as_ref(),
        cards: &report.deck.entries,
        diagnostics: report.diagnostics.iter().map(|d| to_json(d, &report.sources)).collect(),
    };
    let mut s = serde_json::to_string_pretty(&j).unwrap_or_default();
    s.push('\n');
    s
}
