//! Every engine behind one game-independent interface, for the commands,
//! the tests and the benchmarks: the table of engines by pack id.

use super::log::Log;
use super::random::{self, MutationProbe};
use super::replay::{self, Options, Replay};
use super::{Engine, mythic, onevmany, openwars, selfplay, unmatched, xterminio};
use crate::diag::Diagnostic;
use crate::model::Game;

/// An engine behind a game-independent interface, for the command layer.
pub trait Replayer: Send + Sync {
    fn game(&self) -> &'static str;
    /// Replays a loaded log.
    fn replay(&self, log: &Log, options: &Options) -> Result<Replay, Vec<Diagnostic>>;
    /// Every problem of reading a log's header and actions as this game
    /// does (none: it can be replayed).
    fn decode(&self, log: &Log) -> Vec<Diagnostic>;
    /// A random legal game as log text (YAML), from `seed`.
    fn random_log(&self, seed: u64, max_actions: usize) -> String;
    /// Plays a random game and checks one mutated action against the
    /// engine's own legal list; `Err` describes a disagreement.
    fn mutation_probe(&self, seed: u64, max_actions: usize) -> Result<MutationProbe, String>;
    /// Replay throughput: actions replayed and seconds spent, over generated
    /// games totalling at least `min_actions` actions (parsing excluded).
    fn throughput(&self, seed: u64, min_actions: usize) -> (usize, f64);
    /// The rule each kind of action (`do:`) is played under.
    fn action_rules(&self) -> &'static [(&'static str, &'static str)];
    /// The legal actions right before item `action` of turn `turn` (both
    /// 1-based), as the log writes them; `None` if the log does not
    /// replay that far.
    fn legal_at(&self, log: &Log, turn: usize, action: usize) -> Option<Vec<serde_json::Value>>;
    /// A random game that exercises the pack's effects (`check --effects`).
    fn exercise(
        &self,
        seed: u64,
        max_actions: usize,
        seen: &[super::kit::trace::ClauseRef],
    ) -> Result<super::exercise::Exercise, String>;
    /// A whole game between self-play players, as a log (`pnpkit simulate`).
    fn self_play(
        &self,
        seed: u64,
        policies: &[selfplay::Policy],
        max_actions: usize,
        comment: &str,
    ) -> Result<selfplay::Played, String>;
}

/// An engine ready to replay logs.
pub struct Prepared<E>(pub E);

impl<E: Engine> Replayer for Prepared<E> {
    fn game(&self) -> &'static str {
        E::GAME
    }

    fn replay(&self, log: &Log, options: &Options) -> Result<Replay, Vec<Diagnostic>> {
        let parsed = replay::parse::<E>(log).map_err(|_| self.decode(log))?;
        Ok(replay::run(&self.0, log, &parsed, options))
    }

    fn decode(&self, log: &Log) -> Vec<Diagnostic> {
        let mut read = replay::read::<E>(log);
        super::example::add_examples(&self.0, log, &mut read);
        read.diags
    }

    fn random_log(&self, seed: u64, max_actions: usize) -> String {
        let mut rng = fastrand::Rng::with_seed(seed);
        match random::play(&self.0, &mut rng, max_actions) {
            Ok(g) => random::to_log_text(&self.0, &g),
            Err(e) => panic!("{}: random play failed (seed {seed}): {e}", E::GAME),
        }
    }

    fn mutation_probe(&self, seed: u64, max_actions: usize) -> Result<MutationProbe, String> {
        random::mutation_probe(&self.0, seed, max_actions)
    }

    fn throughput(&self, seed: u64, min_actions: usize) -> (usize, f64) {
        random::throughput(&self.0, seed, min_actions)
    }

    fn self_play(
        &self,
        seed: u64,
        policies: &[selfplay::Policy],
        max_actions: usize,
        comment: &str,
    ) -> Result<selfplay::Played, String> {
        selfplay::play(&self.0, seed, policies, max_actions, comment)
    }

    fn action_rules(&self) -> &'static [(&'static str, &'static str)] {
        E::ACTION_RULES
    }

    fn exercise(
        &self,
        seed: u64,
        max_actions: usize,
        seen: &[super::kit::trace::ClauseRef],
    ) -> Result<super::exercise::Exercise, String> {
        super::exercise::exercise(&self.0, seed, max_actions, seen)
    }

    fn legal_at(&self, log: &Log, turn: usize, action: usize) -> Option<Vec<serde_json::Value>> {
        let parsed = replay::parse::<E>(log).ok()?;
        let state = replay::state_at(&self.0, &parsed, turn, action)?;
        Some(
            self.0
                .legal_actions(&state)
                .iter()
                .filter_map(|a| serde_json::to_value(a).ok())
                .collect(),
        )
    }
}

type Constructor = fn(&Game) -> Result<Box<dyn Replayer>, Vec<Diagnostic>>;

fn boxed<E: Engine>(game: &Game) -> Result<Box<dyn Replayer>, Vec<Diagnostic>> {
    E::new(game).map(|e| Box::new(Prepared(e)) as Box<dyn Replayer>)
}

/// One entry per game with an engine: pack id and constructor.
const ENGINES: &[(&str, Constructor)] = &[
    (mythic::GAME_ID, boxed::<mythic::Mythic>),
    (onevmany::GAME_ID, boxed::<onevmany::OneVMany>),
    (openwars::GAME_ID, boxed::<openwars::OpenWars>),
    (unmatched::GAME_ID, boxed::<unmatched::Unmatched>),
    (xterminio::GAME_ID, boxed::<xterminio::Xterminio>),
];

/// The engine of `game`, if pnpkit has one (`Err`: the pack lacks data the
/// engine needs, as located `engine-data` diagnostics).
pub fn engine_for(game: &Game) -> Option<Result<Box<dyn Replayer>, Vec<Diagnostic>>> {
    ENGINES
        .iter()
        .find(|(id, _)| *id == game.id)
        .map(|(_, make)| make(game))
}

/// The pack ids of the games that have an engine.
pub fn engine_games() -> impl Iterator<Item = &'static str> {
    ENGINES.iter().map(|(id, _)| *id)
}

/// What `check` reports about a pack's engine tables: nothing for a game
/// without an engine or with readable tables.
pub fn check_engine_data(game: &Game) -> Vec<Diagnostic> {
    match engine_for(game) {
        Some(Err(diags)) => diags,
        _ => Vec::new(),
    }
}
