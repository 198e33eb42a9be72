//! The XTerminio rules engine (docs/log-format/xterminio.md).
//!
//! Two players, each with a mat: a CAMP (waiting room, +1 ENERGY per card)
//! and a BATTLE of 5 character slots, a zone slot and an energy slot. The
//! opening (hands, mulligans, first layout) is part of the log's header and
//! checked by [`Engine::start`]; every turn then runs through its phases in
//! order: the charge and upkeep happen when the turn begins, then the draw,
//! main (deploy, equip, zone, move, powered cards), attack, camp and cleanup
//! phases. Doing something of a later phase closes the earlier ones.
//!
//! Card texts are free text: their outcomes (damage, healing, ENERGY,
//! readying, stunning) are recorded in `effect:` fields of `play` (action
//! cards) and `ability` (cards in play) and checked for what can be checked.
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

pub use actions::{Action, Effect, Intercept, Slot};
pub use setup::{Mode, PlayerSetup, Setup};
pub use state::State;
use tables::Tables;

use super::{Ending, Engine, Violation};
use crate::diag::Diagnostic;
use crate::model::Game;

/// The pack id.
pub const GAME_ID: &str = "xterminio";

/// The engine: card tables and the two standard decks for random games.
pub struct Xterminio {
    t: Tables,
}

impl Engine for Xterminio {
    const GAME: &'static str = GAME_ID;
    const TURN_RULE: &'static str = rule::TURN;
    const ACTION_RULES: &'static [(&'static str, &'static str)] = &[
        ("draw", "XT-4"),
        ("deploy", "XT-7"),
        ("equip", "XT-9"),
        ("zone", "XT-4"),
        ("move", "XT-7"),
        ("power-up", "XT-10"),
        ("fetch", "XT-10"),
        ("discard-powered", "XT-10"),
        ("attack", "XT-4"),
        ("point-attack", "XT-2"),
        ("camp", "XT-5"),
        ("discard", "XT-4"),
        ("play", "XT-12"),
        ("ability", "XT-12"),
        ("pass", "XT-4"),
        ("end-turn", "XT-4"),
    ];
    type State = State;
    type Action = Action;
    type Setup = Setup;

    fn new(game: &Game) -> Result<Self, Vec<Diagnostic>> {
        Ok(Xterminio { t: Tables::new(game)? })
    }

    fn start(&self, setup: &Setup) -> Result<State, Violation> {
        self.setup(setup)
    }

    fn to_move(&self, s: &State) -> usize {
        s.to_move
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
