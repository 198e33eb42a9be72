//! Open Wars (`openwars`): a two-player scenario replayed phase by phase.
//!
//! A game turn is cut into log turn blocks, each played by one player:
//! an optional `order-roll` block (a tie for first place, OW-1), one supply
//! block per player in turn order (collection then recruitment, OW-2..OW-6),
//! one movement block per player (OW-7..OW-9) and one combat block played by
//! the first player (OW-10..OW-15), where both players' stacks act and the
//! defender's casualties are fields of the attack. Spells (OW-16) may be cast
//! by either player inside any block. docs/log-format/openwars.md has it all.
//!
//! The files are those of every engine (docs/architecture.md, "Rules
//! engines"): [`rule`] ids, [`tables`] read from the pack, [`state`],
//! [`actions`], [`setup`], [`validate`], [`apply`], [`legal`], [`chance`],
//! [`observe`].

mod actions;
mod apply;
mod casting;
mod chance;
mod effects;
mod host;
mod legal;
mod observe;
mod outcomes;
pub mod rule;
mod setup;
mod spells;
mod state;
mod tables;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_fx;
mod validate;

use serde_json::Value as Json;

pub use actions::Action;
pub use setup::{PlayerSetup, Setup};
pub use state::State;
use tables::Tables;

use super::{Ending, Engine, Violation};
use crate::diag::Diagnostic;
use crate::model::Game;

/// The pack id.
pub const GAME_ID: &str = "openwars";

/// The Open Wars rules engine.
pub struct OpenWars {
    t: Tables,
}

impl Engine for OpenWars {
    const GAME: &'static str = GAME_ID;
    const TURN_RULE: &'static str = rule::ORDER;
    const ACTION_RULES: &'static [(&'static str, &'static str)] = &[
        ("order-roll", "OW-1"),
        ("collect", "OW-4"),
        ("recruit", "OW-5"),
        ("move", "OW-7"),
        ("fight", "OW-10"),
        ("attack", "OW-12"),
        ("retreat", "OW-14"),
        ("hold", "OW-10"),
        ("cast", "OW-16"),
        ("end-turn", "OW-2"),
    ];
    type State = State;
    type Action = Action;
    type Setup = Setup;

    fn new(game: &Game) -> Result<Self, Vec<Diagnostic>> {
        Ok(OpenWars { t: Tables::read(game)? })
    }

    fn start(&self, setup: &Setup) -> Result<State, Violation> {
        self.setup(setup)
    }

    fn to_move(&self, s: &State) -> usize {
        usize::from(s.to_move)
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
