//! Which logs exercise each card effect (`pnpkit check --effects`).
//!
//! An effect is machine-checked only when a legal log uses each of its
//! clauses and an illegal one is refused for breaking it: the logs replayed
//! are the pack's own (`logs/`), any folder given with `--logs`, and games
//! between self-play players, with one action of more games replaced by a
//! near miss. What each replay showed is [`Evidence`]; [`exercise`] turns it
//! into the logs behind every clause, and [`unexercised`] into an error per
//! effect that some clause or its refusal lacks (a clause no log can
//! express, with no field to record it or no legal move that reaches it).

use serde::Serialize;

use crate::diag::{Code, Diagnostic, SourceMap, Span};
use crate::model::Game;
use crate::model::effects::Effect;
use crate::rules::Replayer;
use crate::rules::kit::trace::ClauseRef;
use crate::rules::replay::{FailureKind, Replay};

/// What one replayed log showed about the pack's effects.
#[derive(Clone, Debug)]
pub struct Evidence {
    pub game: String,
    /// The log as the report names it (its path, `self-play 12`, `near miss 3`).
    pub log: String,
    /// The clauses it used, when it replays clean.
    pub used: Vec<ClauseRef>,
    /// The effects (and clauses, when known) it was refused for: a refusal
    /// citing them, or a checkpoint that holds only without one.
    pub refused: Vec<(Span, Option<u8>)>,
}

impl Evidence {
    /// What a replay of `log` showed.
    pub fn of(game: &str, log: String, r: &Replay) -> Evidence {
        let refused = match &r.failure {
            Some(f) if f.kind == FailureKind::Illegal => {
                f.cause.iter().chain(&f.also).map(|c| (c.effect, c.clause)).collect()
            }
            Some(f) if f.kind == FailureKind::Checkpoint => {
                f.forgotten.iter().map(|u| (u.at.effect, Some(u.at.clause))).collect()
            }
            _ => Vec::new(),
        };
        let used = if r.failure.is_none() {
            r.uses.iter().flat_map(|u| u.uses.iter().map(|x| x.at)).collect()
        } else {
            Vec::new()
        };
        Evidence {
            game: game.to_owned(),
            log,
            used,
            refused,
        }
    }
}

/// Self-play games per engine replayed by `check --effects`, at least.
pub const SELF_PLAY_GAMES: u64 = 200;
/// Actions per self-play game (it stops at the next turn's end).
pub const SELF_PLAY_ACTIONS: usize = 400;

/// Random games of `engine` that exercise its effects: the clauses each
/// uses, the near misses refused citing an effect, and the automatic
/// outcomes whose absence a checkpoint would show
/// ([`crate::rules::exercise`]). At least `games` games, more while
/// their actions fall short of `games` times [`SELF_PLAY_ACTIONS`].
pub fn self_play(game: &str, engine: &dyn Replayer, games: u64) -> Vec<Evidence> {
    let mut out = Vec::new();
    let mut seen: Vec<ClauseRef> = Vec::new();
    let budget = games as usize * SELF_PLAY_ACTIONS;
    let mut played = 0;
    for seed in 0..games * 10 {
        if seed >= games && played >= budget {
            break;
        }
        let Ok(x) = engine.exercise(seed, SELF_PLAY_ACTIONS, &seen) else {
            continue;
        };
        played += x.actions;
        for u in &x.used {
            if !seen.contains(&u.at) {
                seen.push(u.at);
            }
        }
        out.push(Evidence {
            game: game.to_owned(),
            log: format!("self-play {seed}"),
            used: x.used.iter().map(|u| u.at).collect(),
            refused: Vec::new(),
        });
        for (c, how) in x.refused {
            out.push(Evidence {
                game: game.to_owned(),
                log: format!("self-play {seed} ({how})"),
                used: Vec::new(),
                refused: vec![(c.effect, c.clause)],
            });
        }
    }
    out
}

/// At most this many logs are named per clause or refusal (the count says
/// how many there are).
const NAMED: usize = 4;

/// Logs behind one part of an effect: the first few by name, and how many.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Logs {
    pub count: usize,
    pub names: Vec<String>,
}

impl Logs {
    fn add(&mut self, name: &str) {
        // Golden and sample logs are named before self-play ones.
        if self.names.len() < NAMED && !self.names.iter().any(|n| n == name) {
            self.names.push(name.to_owned());
        }
        self.count += 1;
    }

    /// `XT-4-legal.yaml, self-play 3 (+5 more)`.
    pub fn show(&self) -> String {
        if self.count == 0 {
            return "none".into();
        }
        let more = self.count.saturating_sub(self.names.len());
        let mut s = self.names.join(", ");
        if more > 0 {
            s.push_str(&format!(" (+{more} more)"));
        }
        s
    }
}

/// One checked effect and the logs that exercise it.
#[derive(Clone, Debug, Serialize)]
pub struct Exercised {
    pub kind: String,
    pub id: String,
    pub field: String,
    /// `file:line:column` of the effect.
    pub at: String,
    /// Per clause, the legal logs that use it.
    pub clauses: Vec<Logs>,
    /// The illegal logs refused for breaking it.
    pub refused: Logs,
    #[serde(skip)]
    pub span: Span,
    #[serde(skip)]
    clause_spans: Vec<Span>,
}

impl Exercised {
    /// Every clause used and a refusal seen.
    pub fn complete(&self) -> bool {
        self.refused.count > 0 && self.clauses.iter().all(|c| c.count > 0)
    }

    /// What is missing, in words.
    pub fn gaps(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .clauses
            .iter()
            .enumerate()
            .filter(|(_, c)| c.count == 0)
            .map(|(i, _)| format!("no legal log uses clause {}", i + 1))
            .collect();
        if self.refused.count == 0 {
            out.push("no illegal log is refused for breaking it".into());
        }
        out
    }
}

/// The checked effects of `game` with the logs of `evidence` behind them.
pub fn exercise(game: &Game, sources: &SourceMap, evidence: &[Evidence]) -> Vec<Exercised> {
    let mut out = Vec::new();
    for (kind, pieces) in &game.components {
        for c in pieces {
            for (name, value) in &c.fields {
                super::coverage::walk(value, name, &mut |field, e: &Effect| {
                    if e.unchecked.is_some() {
                        return;
                    }
                    let mut x = Exercised {
                        kind: kind.clone(),
                        id: c.id.clone(),
                        field,
                        at: super::coverage::place(e.span, sources),
                        clauses: vec![Logs::default(); e.clauses.len()],
                        refused: Logs::default(),
                        span: e.span,
                        clause_spans: e.clauses.iter().map(|c| c.span).collect(),
                    };
                    for ev in evidence.iter().filter(|ev| ev.game == game.id) {
                        let mut seen = vec![false; x.clauses.len()];
                        for u in ev.used.iter().filter(|u| u.effect == e.span) {
                            if let Some(s) = seen.get_mut(usize::from(u.clause))
                                && !*s
                            {
                                *s = true;
                                x.clauses[usize::from(u.clause)].add(&ev.log);
                            }
                        }
                        if ev.refused.iter().any(|(sp, _)| *sp == e.span) {
                            x.refused.add(&ev.log);
                        }
                    }
                    out.push(x);
                });
            }
        }
    }
    out
}

/// The one constructor of E085: a checked effect some clause or refusal of
/// which no log exercises.
pub fn unexercised(game: &str, x: &Exercised) -> Diagnostic {
    let first_gap = x.clauses.iter().position(|c| c.count == 0);
    let span = first_gap
        .and_then(|i| x.clause_spans.get(i).copied())
        .filter(|s| s.line > 0)
        .unwrap_or(x.span);
    Diagnostic::new(
        Code::EffectUnexercised,
        format!(
            "{game} {} `{}` ({}): its effect is not exercised by any log",
            x.kind, x.id, x.field
        ),
    )
    .at(span)
    .label("not exercised")
    .found(x.gaps().join("; "))
    .expected("every clause used by a legal log, and an illegal log refused for breaking the effect")
    .help(
        "add a golden log that uses it and one that breaks it (`--logs DIR`), or give the log a field to record it; an effect no log can express is a defect of the engine or the pack",
    )
}
