//! ONE v MANY (`onevmany`): a lone hero against a horde on an 8×8 grid, over
//! up to 7 rounds of up to 10 turns. The log format and how each rule id
//! is enforced are in docs/log-format/onevmany.md.
//!
//! A game turn is two turn blocks: ONE's (the round start when the round is
//! new, then ONE's actions) and MANY's (every unit activated, or the upgrade
//! phase after a cleared round). Card texts the engine cannot read are
//! recorded as [`Effect`]s of `interact`, `equip` and `trigger` actions; the
//! engine checks that the card is in force and pays its cost.
//!
//! The files are those of every engine (docs/architecture.md, "Rules
//! engines"): [`rule`] ids, [`tables`] read from the pack, [`state`],
//! [`actions`], [`setup`], [`validate`], [`apply`], [`legal`], [`chance`],
//! [`observe`].

mod actions;
mod apply;
mod chance;
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

pub use actions::{Action, Effect};
pub use setup::{PlayerSetup, Setup};
pub use state::State;
use tables::Tables;

use super::{Ending, Engine, Violation};
use crate::diag::Diagnostic;
use crate::model::Game;

pub const GAME_ID: &str = "onevmany";

/// The ONE v MANY rules engine.
pub struct OneVMany {
    t: Tables,
}

impl Engine for OneVMany {
    const GAME: &'static str = GAME_ID;
    const TURN_RULE: &'static str = rule::TURN;
    const ACTION_RULES: &'static [(&'static str, &'static str)] = &[
        ("reveal", "OVM-2"),
        ("deploy", "OVM-2"),
        ("place", "OVM-2"),
        ("move", "OVM-5"),
        ("attack", "OVM-6"),
        ("activate", "OVM-8"),
        ("interact", "OVM-7"),
        ("equip", "OVM-7"),
        ("trigger", "OVM-7"),
        ("reinforce", "OVM-8"),
        ("draw-upgrades", "OVM-11"),
        ("pair", "OVM-11"),
        ("pick", "OVM-11"),
        ("end-turn", "OVM-3"),
    ];
    type State = State;
    type Action = Action;
    type Setup = Setup;

    fn new(game: &Game) -> Result<Self, Vec<Diagnostic>> {
        Ok(OneVMany { t: Tables::new(game)? })
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
