//! The Unmatched rules engine (rules UM-1 … UM-12).
//!
//! A turn is a block of steps: an optional start-of-turn gaze (Medusa), two
//! actions (`maneuver`, `scheme`, `attack`), the steps that belong to them
//! (`boost` and `move` after a maneuver, the defender's `defend` after an
//! attack), then hand-limit `discard`s. Card effects are free text: the log
//! records their outcome (`effect:` on a scheme, `effects:` on a defence) and
//! the engine checks what can be checked (cards drawn are in the deck, order
//! of resolution, fighters in play, free spaces). See docs/log-format/unmatched.md.
//!
//! The files are those of every engine (docs/architecture.md, "Rules
//! engines"): [`rule`] ids, [`tables`] read from the pack, [`state`],
//! [`actions`], [`setup`], [`validate`], [`apply`], [`legal`], [`chance`],
//! [`observe`]; [`combat`] resolves combats and recorded outcomes for both
//! `validate` (on a scratch copy) and `apply`.

mod actions;
mod apply;
mod chance;
mod choices;
mod combat;
mod effects;
mod legal;
mod observe;
pub mod rule;
mod setup;
mod state;
mod tables;
#[cfg(test)]
mod tests;
mod validate;

use serde_json::Value as Json;

pub use actions::{Action, Effect, Side, Size};
pub use setup::{Mode, PlayerSetup, Setup};
pub use state::State;
use tables::Tables;

use super::{Ending, Engine, Violation};
use crate::diag::Diagnostic;
use crate::model::Game;

/// The pack id.
pub const GAME_ID: &str = "unmatched";

/// The Unmatched engine: the pack's heroes, cards and battlefields.
pub struct Unmatched {
    t: Tables,
}

impl Engine for Unmatched {
    const GAME: &'static str = GAME_ID;
    const TURN_RULE: &'static str = rule::TEAMS;
    const ACTION_RULES: &'static [(&'static str, &'static str)] = &[
        ("gaze", "UM-10"),
        ("maneuver", "UM-4"),
        ("boost", "UM-5"),
        ("move", "UM-5"),
        ("scheme", "UM-6"),
        ("attack", "UM-7"),
        ("defend", "UM-8"),
        ("discard", "UM-3"),
        ("end-turn", "UM-2"),
    ];
    type State = State;
    type Action = Action;
    type Setup = Setup;

    fn new(game: &Game) -> Result<Self, Vec<Diagnostic>> {
        Ok(Unmatched { t: Tables::read(game)? })
    }

    fn start(&self, setup: &Setup) -> Result<State, Violation> {
        self.setup(setup)
    }

    fn to_move(&self, s: &State) -> usize {
        s.to_move as usize
    }

    fn end_turn(&self) -> Action {
        Action::EndTurn
    }

    fn validate(&self, s: &State, a: &Action) -> Result<(), Violation> {
        self.check(s, a)
    }

    fn apply(&self, s: State, a: &Action) -> State {
        self.step(s, a)
    }

    fn legal_actions(&self, s: &State) -> Vec<Action> {
        self.legal(s)
    }

    fn ending(&self, s: &State) -> Option<Ending> {
        self.end(s)
    }

    fn observe(&self, s: &State) -> Json {
        self.view(s)
    }

    fn progress(&self, s: &State, player: usize) -> i64 {
        self.progress_of(s, player)
    }

    fn choice(&self, a: &Action) -> Action {
        self.canonical(a)
    }

    fn randomize(&self, s: &State, a: &mut Action, rng: &mut fastrand::Rng) {
        self.fill_chance(s, a, rng)
    }

    fn random_setup(&self, rng: &mut fastrand::Rng) -> Setup {
        self.random_header(rng)
    }

    fn candidates(&self, s: &State, rng: &mut fastrand::Rng) -> Vec<Action> {
        self.near_misses(s, rng)
    }
}
