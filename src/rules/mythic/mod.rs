//! Mythic Battles: Pantheon as a pure state machine (rules MB-1 … MB-13;
//! docs/log-format/mythic.md).
//!
//! A turn block starts with the draw (MB-2), then manoeuvres and
//! activations: `activate` plays a unit's card (MB-3) and the unit's
//! actions follow one by one (`move`, `attack`, `pick-up`, or one special
//! action: `run`, `absorb`, `enter`; MB-5). A melee attack may be answered
//! by a `counter` of the attacked unit right after it (MB-10). Calling a
//! troop closes the turn (MB-11). Dice and drawn cards are written in the
//! action that uses them.
//!
//! The files are those of every engine (docs/architecture.md, "Rules
//! engines"): [`rule`] ids, [`tables`] read from the pack, [`state`],
//! [`actions`], [`setup`], [`validate`], [`apply`], [`legal`], [`chance`],
//! [`observe`].

// Hands, decks and discard piles are parallel card-count arrays.
#![allow(clippy::needless_range_loop)]

mod actions;
mod apply;
mod chance;
mod effects;
mod host;
mod invoked;
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

pub use actions::Action;
pub use setup::{PlayerSetup, Setup, StartAreas};
pub use state::State;
use tables::Tables;

use super::{Ending, Engine, Violation};
use crate::diag::Diagnostic;
use crate::model::Game;

/// The pack id.
pub const GAME_ID: &str = "mythic";

/// The engine: the pack's tables.
pub struct Mythic {
    t: Tables,
}

impl Engine for Mythic {
    const GAME: &'static str = GAME_ID;
    const TURN_RULE: &'static str = rule::TURN;
    const ACTION_RULES: &'static [(&'static str, &'static str)] = &[
        ("draw", "MB-2"),
        ("rest", "MB-12"),
        ("draw-two", "MB-4"),
        ("search", "MB-4"),
        ("call-troop", "MB-11"),
        ("activate", "MB-3"),
        ("enter", "MB-5"),
        ("move", "MB-6"),
        ("run", "MB-5"),
        ("attack", "MB-7"),
        ("counter", "MB-10"),
        ("pick-up", "MB-5"),
        ("drop", "MB-5"),
        ("absorb", "MB-5"),
        ("power", "MB-5"),
        ("leave", "MB-5"),
        ("end-turn", "MB-2"),
    ];
    type State = State;
    type Action = Action;
    type Setup = Setup;

    fn new(game: &Game) -> Result<Self, Vec<Diagnostic>> {
        Ok(Mythic { t: Tables::new(game)? })
    }

    fn start(&self, setup: &Setup) -> Result<State, Violation> {
        self.setup(setup)
    }

    fn to_move(&self, s: &State) -> usize {
        self.mode(s).cycle.get(s.cycle_pos as usize).copied().unwrap_or(0) as usize
    }

    fn end_turn(&self) -> Action {
        Action::EndTurn
    }

    fn validate(&self, s: &State, a: &Action) -> Result<(), Violation> {
        self.check(s, a, true)
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
