//! How many of a pack's effects the rules engine checks (`pnpkit check --effects`).
//!
//! An effect is machine-checked unless the pack marks it `unchecked:` with a
//! reason: `check` already refuses a checked effect that uses a word its
//! game's engine does not interpret (`engine-data`), so every effect counted
//! here as checked is compiled into the engine's own words and applied or
//! validated when a log is replayed. An unchecked effect is trusted: what a
//! log records for it is accepted as written.

use serde::Serialize;

use crate::diag::{SourceMap, Span};
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

    /// The report as a table, then every unchecked effect with its place.
    pub fn human(&self) -> String {
        let mut out = String::from("effects checked by the rules engines:\n");
        out.push_str(&format!(
            "  {:<12} {:>7} {:>7} {:>9} {:>8}\n",
            "game", "effects", "checked", "unchecked", "coverage"
        ));
        let row = |name: &str, total: usize, checked: usize| {
            format!(
                "  {:<12} {:>7} {:>7} {:>9} {:>7.1}%\n",
                name,
                total,
                checked,
                total - checked,
                percent(checked, total)
            )
        };
        for g in &self.games {
            out.push_str(&row(&g.game, g.effects, g.checked));
        }
        if self.games.len() > 1 {
            out.push_str(&row("all", self.effects(), self.checked()));
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
}

fn percent(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        100.0
    } else {
        part as f64 * 100.0 / whole as f64
    }
}

/// `file:line:column`, or "no location" for an effect read from nowhere.
fn place(span: Span, sources: &SourceMap) -> String {
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

fn game_coverage(game: &Game, sources: &SourceMap) -> GameCoverage {
    let mut g = GameCoverage {
        game: game.id.clone(),
        effects: 0,
        checked: 0,
        unchecked: Vec::new(),
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
fn walk(v: &FieldValue, path: &str, f: &mut dyn FnMut(String, &crate::model::effects::Effect)) {
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
