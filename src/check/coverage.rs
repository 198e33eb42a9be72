//! How many of a pack's effects the rules engine checks, and which logs
//! exercise them (`pnpkit check --effects`).
//!
//! An effect the pack marks `unchecked:` (with a reason) is trusted: what a
//! log records for it is accepted as written. Every other effect is compiled
//! into the engine's own words (`check` refuses a word the engine does not
//! interpret, `engine-data`) and counts as machine-checked only when logs
//! exercise it ([`super::exercise`]): a legal log uses each of its clauses
//! and an illegal one is refused for breaking it.

use serde::Serialize;

use super::exercise::{Evidence, Exercised, exercise, unexercised};
use crate::diag::{Diagnostic, SourceMap, Span};
use crate::model::{FieldValue, Game};

/// Coverage of every game checked, in the order given.
#[derive(Debug, Serialize)]
pub struct Coverage {
    pub games: Vec<GameCoverage>,
}

/// One game's effects.
#[derive(Debug, Serialize)]
pub struct GameCoverage {
    pub game: String,
    /// Structured effects in the pack.
    pub effects: usize,
    /// Those the engine checks.
    pub checked: usize,
    /// Those it cannot, each with its reason.
    pub unchecked: Vec<Unchecked>,
    /// With logs replayed: every checked effect and the logs behind it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exercised: Option<Vec<Exercised>>,
}

/// An effect the engine trusts, and why.
#[derive(Debug, Serialize)]
pub struct Unchecked {
    pub kind: String,
    pub id: String,
    /// Where in the piece the effect is (`effect`, `powers[2].effect`).
    pub field: String,
    pub reason: String,
    /// `file:line:column` of the effect, or "no location".
    pub at: String,
}

impl GameCoverage {
    /// Checked effects as a share of all, in percent (100 when there are none).
    pub fn percent(&self) -> f64 {
        percent(self.checked, self.effects)
    }

    /// Checked effects that logs exercise fully (all when no logs were replayed).
    pub fn complete(&self) -> usize {
        self.exercised
            .as_ref()
            .map_or(self.checked, |x| x.iter().filter(|e| e.complete()).count())
    }
}

impl Coverage {
    pub fn effects(&self) -> usize {
        self.games.iter().map(|g| g.effects).sum()
    }

    pub fn checked(&self) -> usize {
        self.games.iter().map(|g| g.checked).sum()
    }

    pub fn percent(&self) -> f64 {
        percent(self.checked(), self.effects())
    }

    /// The report as a table, then, with logs, the logs behind every
    /// checked effect, then every unchecked effect with its place.
    pub fn human(&self) -> String {
        let logs = self.games.iter().any(|g| g.exercised.is_some());
        let mut out = String::from("effects checked by the rules engines:\n");
        out.push_str(&format!(
            "  {:<12} {:>7} {:>7} {:>9} {:>8}{}\n",
            "game",
            "effects",
            "checked",
            "unchecked",
            "coverage",
            if logs { " exercised" } else { "" }
        ));
        let row = |name: &str, total: usize, checked: usize, complete: usize| {
            format!(
                "  {:<12} {:>7} {:>7} {:>9} {:>7.1}%{}\n",
                name,
                total,
                checked,
                total - checked,
                percent(checked, total),
                if logs { format!(" {complete:>9}") } else { String::new() }
            )
        };
        for g in &self.games {
            out.push_str(&row(&g.game, g.effects, g.checked, g.complete()));
        }
        if self.games.len() > 1 {
            let complete = self.games.iter().map(GameCoverage::complete).sum();
            out.push_str(&row("all", self.effects(), self.checked(), complete));
        }
        for g in &self.games {
            let Some(x) = &g.exercised else { continue };
            out.push_str(&format!("logs behind each effect of {}:\n", g.game));
            for e in x {
                out.push_str(&format!("  {} `{}` ({}){}\n", e.kind, e.id, e.field, mark(e)));
                for (i, c) in e.clauses.iter().enumerate() {
                    out.push_str(&format!("    clause {}: {}\n", i + 1, c.show()));
                }
                out.push_str(&format!("    refused: {}\n", e.refused.show()));
            }
        }
        let unchecked: Vec<(&str, &Unchecked)> = self
            .games
            .iter()
            .flat_map(|g| g.unchecked.iter().map(move |u| (g.game.as_str(), u)))
            .collect();
        if !unchecked.is_empty() {
            out.push_str("unchecked (the replay trusts the outcome a log records):\n");
            for (game, u) in unchecked {
                out.push_str(&format!(
                    "  {}: {game} {} `{}` ({}): {}\n",
                    u.at, u.kind, u.id, u.field, u.reason
                ));
            }
        }
        out
    }

    /// E085 for every checked effect that logs do not exercise fully.
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        self.games
            .iter()
            .flat_map(|g| {
                g.exercised
                    .iter()
                    .flatten()
                    .filter(|e| !e.complete())
                    .map(|e| unexercised(&g.game, e))
            })
            .collect()
    }
}

fn mark(e: &Exercised) -> &'static str {
    if e.complete() { "" } else { " — NOT EXERCISED" }
}

fn percent(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        100.0
    } else {
        part as f64 * 100.0 / whole as f64
    }
}

/// `file:line:column`, or "no location" for an effect read from nowhere.
pub(super) fn place(span: Span, sources: &SourceMap) -> String {
    if span.line == 0 || span.file.0 as usize >= sources.len() {
        return "no location".to_owned();
    }
    format!("{}:{}:{}", sources.path(span.file).display(), span.line, span.column)
}

/// Counts the effects of every game.
pub fn coverage(games: &[Game], sources: &SourceMap) -> Coverage {
    Coverage {
        games: games.iter().map(|g| game_coverage(g, sources)).collect(),
    }
}

/// Counts the effects of every game and the logs of `evidence` behind each
/// checked one.
pub fn coverage_with(games: &[Game], sources: &SourceMap, evidence: &[Evidence]) -> Coverage {
    let mut c = coverage(games, sources);
    for (g, game) in c.games.iter_mut().zip(games) {
        g.exercised = Some(exercise(game, sources, evidence));
    }
    c
}

fn game_coverage(game: &Game, sources: &SourceMap) -> GameCoverage {
    let mut g = GameCoverage {
        game: game.id.clone(),
        effects: 0,
        checked: 0,
        unchecked: Vec::new(),
        exercised: None,
    };
    for (kind, pieces) in &game.components {
        for c in pieces {
            for (name, value) in &c.fields {
                walk(value, name, &mut |field, e| {
                    g.effects += 1;
                    match &e.unchecked {
                        None => g.checked += 1,
                        Some(reason) => g.unchecked.push(Unchecked {
                            kind: kind.clone(),
                            id: c.id.clone(),
                            field,
                            reason: reason.clone(),
                            at: place(e.span, sources),
                        }),
                    }
                });
            }
        }
    }
    g
}

/// Calls `f` for every effect inside `v`, with its path in the piece.
pub(super) fn walk(v: &FieldValue, path: &str, f: &mut dyn FnMut(String, &crate::model::effects::Effect)) {
    match v {
        FieldValue::Effect(e) => f(path.to_owned(), e),
        FieldValue::List(items) => {
            for (i, x) in items.iter().enumerate() {
                walk(x, &format!("{path}[{}]", i + 1), f);
            }
        }
        FieldValue::Record(r) => {
            for (k, x) in r {
                walk(x, &format!("{path}.{k}"), f);
            }
        }
        _ => {}
    }
}
