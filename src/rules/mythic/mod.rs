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

// Hands, decks and discard piles are parallel card-count arrays.
#![allow(clippy::needless_range_loop)]

mod action;
mod choices;
mod dice;
mod play;
mod tables;
#[cfg(test)]
mod tests;

use std::sync::Arc;

use serde_json::{Map, Value as Json, json};

pub use action::{Action, PlayerSetup, Setup};
use tables::{AOW, Cat, MAXA, MAXC, MAXU, OMPH, Shape, Tables};

use super::{Ending, Engine, Violation};
use crate::model::Game;

/// The pack id.
pub const GAME_ID: &str = "mythic";

/// No unit / no area.
pub const NONE: u8 = u8::MAX;
/// `Unit::at` of a unit not yet on the battlefield.
pub const OFF: u8 = 255;
/// `Unit::at` of a destroyed unit.
pub const DEAD: u8 = 254;
/// `Unit::at` of a unit out of the game (left the board, or its player
/// was eliminated).
pub const GONE: u8 = 253;

/// Simple actions done in an activation.
const MOVE: u8 = 1;
const ATTACK: u8 = 2;
const PICK: u8 = 4;

/// Manoeuvres done this turn.
const DRAW_TWO: u8 = 1;
const SEARCH: u8 = 2;

#[derive(Clone, Copy, Debug)]
pub struct Unit {
    /// Index into the unit table.
    pub def: u8,
    pub owner: u8,
    /// Area index, or [`OFF`], [`DEAD`], [`GONE`].
    pub at: u8,
    /// Ladder rows lost (characters) or figures lost (troops).
    pub wounds: u8,
    pub carry: bool,
}

impl Unit {
    pub fn on_board(&self) -> bool {
        (self.at as usize) < MAXA
    }

    pub fn alive(&self) -> bool {
        self.at != DEAD && self.at != GONE
    }
}

#[derive(Clone, Debug)]
pub struct Player {
    pub hand: [u8; MAXC],
    pub deck: [u8; MAXC],
    pub discard: [u8; MAXC],
    pub absorbed: u8,
    /// Eliminated (free-for-all: the God died).
    pub out: bool,
    pub team: u8,
    pub side: u8,
    /// Slot of the player's God, or [`NONE`].
    pub god: u8,
}

/// The activation going on.
#[derive(Clone, Copy, Debug)]
pub struct Act {
    /// Slot of the activated unit, or [`NONE`].
    pub unit: u8,
    pub simple: u8,
    pub special: bool,
    pub attacks: u8,
    /// Normal attacks allowed (2 with a power such as War Fury).
    pub max_attacks: u8,
    /// Index of the special-attack power in use, or [`NONE`].
    pub power: u8,
    /// Units attacked in this activation.
    pub targets: u32,
}

impl Act {
    const IDLE: Act = Act {
        unit: NONE,
        simple: 0,
        special: false,
        attacks: 0,
        max_attacks: 1,
        power: NONE,
        targets: 0,
    };
}

/// What the current turn has done.
#[derive(Clone, Copy, Debug)]
pub struct Turn {
    pub drawn: bool,
    pub rested: bool,
    pub called: bool,
    pub activations: u8,
    /// Extra activations granted by powers.
    pub extra: u8,
    pub activated: u32,
    pub act: Act,
    pub manoeuvres: u8,
    /// Paid powers used this turn: bit `slot * 4 + power`.
    pub powers: u128,
    pub countered: u32,
    /// Units that took a special action this turn (no powers for them).
    pub special: u32,
    /// A counter-attack may follow: (attacker slot, attacked slot).
    pub pending: Option<(u8, u8)>,
}

impl Turn {
    const NEW: Turn = Turn {
        drawn: false,
        rested: false,
        called: false,
        activations: 0,
        extra: 0,
        activated: 0,
        act: Act::IDLE,
        manoeuvres: 0,
        powers: 0,
        countered: 0,
        special: 0,
        pending: None,
    };
}

#[derive(Clone, Debug)]
pub struct State {
    pub names: Arc<[String]>,
    pub mode: u8,
    pub board: u8,
    pub players: Vec<Player>,
    pub units: Vec<Unit>,
    /// Unit table index → slot in `units` ([`NONE`] when not in the game).
    pub slot: [u8; MAXU],
    /// Omphalos lying on the ground, per area.
    pub ground: [u8; MAXA],
    /// Omphalos cards left in the reserve.
    pub reserve: u8,
    /// Omphalos taken off the battlefield by units leaving it (3 vs 1).
    pub removed: u8,
    pub cycle_pos: u8,
    pub turn: u32,
    pub cycles: u16,
    pub t: Turn,
    /// The winning team and why.
    pub winner: Option<(u8, &'static str)>,
}

/// The engine: the pack's tables.
pub struct Mythic {
    t: Tables,
}

fn area_name(b: &tables::Board, at: u8) -> String {
    match at {
        OFF => "off the battlefield".into(),
        DEAD => "destroyed".into(),
        GONE => "out of the game".into(),
        a => b.areas.get(a as usize).map_or("?".into(), |a| a.id.clone()),
    }
}

impl Mythic {
    fn mode(&self, s: &State) -> &tables::ModeDef {
        &self.t.modes[s.mode as usize]
    }

    fn board(&self, s: &State) -> &tables::Board {
        &self.t.boards[s.board as usize]
    }

    fn def(&self, s: &State, slot: usize) -> &tables::UnitDef {
        &self.t.units[s.units[slot].def as usize]
    }

    fn uid(&self, s: &State, slot: usize) -> &str {
        &self.def(s, slot).id
    }

    fn terrain_on(&self, s: &State) -> bool {
        self.mode(s).shape != Shape::Fixed
    }

    fn name<'a>(&self, s: &'a State, p: usize) -> &'a str {
        s.names.get(p).map_or("?", String::as_str)
    }
}

impl Engine for Mythic {
    const GAME: &'static str = GAME_ID;
    const TURN_RULE: &'static str = "MB-2";
    type State = State;
    type Action = Action;
    type Setup = Setup;

    fn new(game: &Game) -> Result<Self, Vec<crate::diag::Diagnostic>> {
        Ok(Mythic {
            t: Tables::new(game).map_err(|m| vec![crate::diag::Diagnostic::new(crate::diag::Code::EngineData, m)])?,
        })
    }

    fn start(&self, setup: &Setup) -> Result<State, Violation> {
        self.setup_state(setup)
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
        self.perform(s, a)
    }

    fn legal_actions(&self, s: &State) -> Vec<Action> {
        self.legal(s)
    }

    fn ending(&self, s: &State) -> Option<Ending> {
        let (team, reason) = s.winner?;
        let rule = "MB-13";
        let winners = if team == NONE {
            Vec::new()
        } else {
            (0..s.players.len()).filter(|&p| s.players[p].team == team).collect()
        };
        Some(Ending {
            winners,
            reason: reason.to_string(),
            rule,
        })
    }

    fn observe(&self, s: &State) -> Json {
        let b = self.board(s);
        let mut vitality = Map::new();
        let mut at = Map::new();
        let mut carry = Vec::new();
        for (i, u) in s.units.iter().enumerate() {
            let d = self.def(s, i);
            let left = if u.alive() {
                d.life().saturating_sub(u.wounds)
            } else {
                0
            };
            vitality.insert(d.id.clone(), json!(left));
            at.insert(
                d.id.clone(),
                json!(match u.at {
                    OFF => "off",
                    DEAD => "destroyed",
                    GONE => "gone",
                    a => b.areas.get(a as usize).map_or("?", |a| a.id.as_str()),
                }),
            );
            if u.carry {
                carry.push(json!(d.id));
            }
        }
        let mut ground = Map::new();
        for (i, &n) in s.ground.iter().enumerate().take(b.areas.len()) {
            if n > 0 {
                ground.insert(b.areas[i].id.clone(), json!(n));
            }
        }
        let per_player = |f: &dyn Fn(&Player) -> u32| -> Json {
            Json::Object(
                s.players
                    .iter()
                    .enumerate()
                    .map(|(i, p)| (self.name(s, i).to_string(), json!(f(p))))
                    .collect(),
            )
        };
        let mut o = Map::new();
        o.insert("turn".into(), json!(s.turn + 1));
        o.insert("player".into(), json!(self.name(s, self.to_move(s))));
        o.insert("activations".into(), json!(s.t.activations));
        o.insert("vitality".into(), Json::Object(vitality));
        o.insert("at".into(), Json::Object(at));
        if !carry.is_empty() {
            o.insert("carrying".into(), Json::Array(carry));
        }
        o.insert("omphalos".into(), Json::Object(ground));
        o.insert("absorbed".into(), per_player(&|p| p.absorbed as u32));
        if self.mode(s).shape == Shape::Lone {
            o.insert("removed".into(), json!(s.removed));
        }
        o.insert("hand".into(), per_player(&|p| p.hand.iter().map(|&c| c as u32).sum()));
        o.insert("deck".into(), per_player(&|p| p.deck.iter().map(|&c| c as u32).sum()));
        Json::Object(o)
    }

    fn choice(&self, a: &Action) -> Action {
        a.canonical()
    }

    fn randomize(&self, s: &State, a: &mut Action, rng: &mut fastrand::Rng) {
        self.fill_chance(s, a, rng);
    }

    fn random_setup(&self, rng: &mut fastrand::Rng) -> Setup {
        self.random_header(rng)
    }

    fn candidates(&self, s: &State, rng: &mut fastrand::Rng) -> Vec<Action> {
        self.near_misses(s, rng)
    }
}

/// Card counts of a list of card ids, or the first unknown id.
fn tally<'a>(t: &Tables, ids: &'a [String]) -> Result<[u8; MAXC], &'a str> {
    let mut out = [0u8; MAXC];
    for id in ids {
        let c = t.card(id).ok_or(id.as_str())?;
        out[c as usize] = out[c as usize].saturating_add(1);
    }
    Ok(out)
}

fn total(cards: &[u8; MAXC]) -> u32 {
    cards.iter().map(|&c| c as u32).sum()
}

/// `a ⊆ b` as multisets.
fn within(a: &[u8; MAXC], b: &[u8; MAXC]) -> bool {
    a.iter().zip(b).all(|(x, y)| x <= y)
}

fn plural(n: u32, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}
