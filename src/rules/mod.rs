//! The log checker: a recorded game (docs/log-format.md) replayed through its
//! game's rules engine.
//!
//! Each game has one engine: a pure state machine. [`Engine::validate`] never
//! mutates, [`Engine::apply`] returns the next state, and nothing in an engine
//! does I/O. Every engine is built from the [`kit`] and laid out the same way
//! (docs/architecture.md, "Rules engines"). [`log`] turns a log file into
//! actions with positions, [`replay`] drives an engine over them and locates
//! the first illegal action, [`random`] plays engine-driven random games for
//! tests and benchmarks, and [`replayer`] puts each engine behind one
//! game-independent interface (imports run one way: `replay` ← `random` ←
//! `replayer`).

pub mod example;
pub mod exercise;
pub mod kit;
pub mod log;
pub mod mythic;
pub mod onevmany;
pub mod openwars;
pub mod random;
pub mod replay;
pub mod replayer;
pub mod selfplay;
#[cfg(test)]
mod toy;
pub mod unmatched;
pub mod upgrade;
pub mod xterminio;

use std::fmt::{Debug, Display};

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::diag::Diagnostic;
use crate::model::Game;

pub use random::MutationProbe;
pub use replay::{Failure, FailureKind, Options, Replay};
pub use replayer::{Replayer, check_engine_data, engine_for, engine_games};

/// A broken rule: which one, and what was expected versus what the log says.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Violation {
    /// The rule id (`UM-3`), declared in the pack's `rule_ids`.
    pub rule: &'static str,
    /// One sentence on what went wrong (`Ana ends the turn with 9 cards`).
    pub message: String,
    /// What the rule allows (`at most 7 cards in hand`).
    pub expected: String,
    /// What the log does (`9 cards`).
    pub found: String,
    /// The card effect the refusal is about, when a card's effect (its
    /// clause, or a card in force that forbids the action) caused it.
    /// (Boxed: a refusal is the `Err` of every check and stays small.)
    #[serde(skip)]
    pub cause: Option<Box<Cause>>,
    /// Other effects the refusal names as shaping the bound it breaks
    /// (the defense bonuses of an attack roll).
    #[serde(skip)]
    pub also: Box<[Cause]>,
}

/// The card effect behind a refusal: the card, and the clause of its
/// effect (none when the refusal is about the effect as a whole).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cause {
    pub card: String,
    pub effect: crate::diag::Span,
    pub clause: Option<u8>,
}

impl Violation {
    pub fn new(rule: &'static str, message: impl Into<String>) -> Self {
        Violation {
            rule,
            message: message.into(),
            expected: String::new(),
            found: String::new(),
            cause: None,
            also: Box::default(),
        }
    }

    /// The card effect that caused the refusal.
    pub fn caused_by(mut self, cause: Cause) -> Self {
        self.cause = Some(Box::new(cause));
        self
    }

    /// [`Violation::caused_by`], when the effect is known (a card without
    /// an effect leaves the refusal uncaused).
    pub fn cited(mut self, cause: Option<Cause>) -> Self {
        if let Some(c) = cause {
            self.cause = Some(Box::new(c));
        }
        self
    }

    /// Effects the refusal names: the first is its cause, the others
    /// shaped the bound it breaks.
    pub fn cited_all(mut self, causes: impl IntoIterator<Item = Cause>) -> Self {
        for c in causes {
            if self.cause.is_none() {
                self.cause = Some(Box::new(c));
            } else if self.cause.as_deref() != Some(&c) && !self.also.contains(&c) {
                let mut also = std::mem::take(&mut self.also).into_vec();
                also.push(c);
                self.also = also.into_boxed_slice();
            }
        }
        self
    }

    /// Every effect the refusal names.
    pub fn causes(&self) -> impl Iterator<Item = &Cause> {
        self.cause.as_deref().into_iter().chain(self.also.iter())
    }

    pub fn expected(mut self, expected: impl Display) -> Self {
        self.expected = expected.to_string();
        self
    }

    pub fn found(mut self, found: impl Display) -> Self {
        self.found = found.to_string();
        self
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Ending {
    /// Indices into the log's `players`: one winner, a team, or none (a draw).
    pub winners: Vec<usize>,
    /// Why, in kebab-case (`hero-defeated`, `target-score`), as a log's
    /// `result: {reason: …}` names it.
    pub reason: String,
    /// The rule that decided it (`UM-11`); actions after the end break it.
    pub rule: &'static str,
}

/// The rules of one game as a pure state machine.
///
/// A log's header (everything but `game`, `turns` and `result`) is
/// deserialised into [`Engine::Setup`]; every action item into
/// [`Engine::Action`]. Players are indices into the header's `players` list.
pub trait Engine: Sized + Send + Sync + 'static {
    /// The pack id of the game this engine plays (`unmatched`).
    const GAME: &'static str;
    /// The rule cited when a turn is played by the wrong player.
    const TURN_RULE: &'static str;
    /// The rule each kind of action (`do:`) is played under, for replays
    /// that cite it beside every action (`log --html`).
    const ACTION_RULES: &'static [(&'static str, &'static str)] = &[];

    /// The full game state. Cheap to move; cloned only for traces and tests.
    type State: Clone + Debug + Send;
    /// One action as a log records it, chance results (dice, cards drawn)
    /// included. Serialised as a map tagged by `do:`.
    type Action: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send;
    /// The log header: mode, players (with `name` and, where the game has
    /// them, decks as `{card id: copies}`), setup choices.
    type Setup: Serialize + DeserializeOwned;

    /// Reads what the engine needs (card stats, boards, adjacency) from the
    /// validated pack; every problem is an `engine-data` diagnostic with the
    /// span of the component field or fact it is about ([`kit::pack`]).
    fn new(game: &Game) -> Result<Self, Vec<Diagnostic>>;

    /// The state after setup, or the setup rule the header breaks.
    fn start(&self, setup: &Self::Setup) -> Result<Self::State, Violation>;

    /// Whose turn it is (index into `players`).
    fn to_move(&self, state: &Self::State) -> usize;

    /// The action that closes a turn block of the log (appended by the
    /// replay after a turn's listed actions; validated like any other).
    fn end_turn(&self) -> Self::Action;

    /// Whether `action` is legal in `state`. Never mutates.
    fn validate(&self, state: &Self::State, action: &Self::Action) -> Result<(), Violation>;

    /// The state after a validated `action`.
    fn apply(&self, state: Self::State, action: &Self::Action) -> Self::State;

    /// Every legal choice in `state`, with chance fields in their canonical
    /// form (see [`Engine::choice`]). Contains [`Engine::end_turn`] when
    /// ending the turn is legal. Empty once the game has ended.
    fn legal_actions(&self, state: &Self::State) -> Vec<Self::Action>;

    /// The game's end, once reached.
    fn ending(&self, state: &Self::State) -> Option<Ending>;

    /// What a log's `expect:` checkpoints can name, and what traces and the
    /// summary show: life totals, positions, scores, energy, turn and phase.
    fn observe(&self, state: &Self::State) -> serde_json::Value;

    /// How well `player` is doing, for the greedy self-play player
    /// (`pnpkit simulate`): higher is better; actions that score points or
    /// deal damage raise it. Only differences between states matter.
    fn progress(&self, _state: &Self::State, _player: usize) -> i64 {
        0
    }

    /// The action's player choice with chance fields (dice, drawn cards) in
    /// canonical form, so that it compares with [`Engine::legal_actions`].
    fn choice(&self, action: &Self::Action) -> Self::Action {
        action.clone()
    }

    /// Fills an action's chance fields with a random outcome consistent with
    /// `state` (dice rolled, cards drawn from what the deck still holds).
    fn randomize(&self, _state: &Self::State, _action: &mut Self::Action, _rng: &mut fastrand::Rng) {}

    /// A random legal header for generated games.
    fn random_setup(&self, rng: &mut fastrand::Rng) -> Self::Setup;

    /// Plausible actions for mutation tests: the legal ones and near misses
    /// (wrong targets, too far, unaffordable, out of turn), in canonical form.
    fn candidates(&self, state: &Self::State, rng: &mut fastrand::Rng) -> Vec<Self::Action>;
}
