//! Open Wars (`openwars`): a two-player scenario replayed phase by phase.
//!
//! A game turn is cut into log turn blocks, each played by one player:
//! an optional `order-roll` block (a tie for first place, OW-1), one supply
//! block per player in turn order (collection then recruitment, OW-2..OW-6),
//! one movement block per player (OW-7..OW-9) and one combat block played by
//! the first player (OW-10..OW-15), where both players' stacks act and the
//! defender's casualties are fields of the attack. Spells (OW-16) may be cast
//! by either player inside any block. docs/log-format/openwars.md has it all.

mod tables;

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value as Json, json};

use super::{Ending, Engine, Violation};
use crate::model::Game;
use tables::{CITY, FLYING, MAGIC, Scenario, Tables, WATER};

/// The pack id.
pub const GAME_ID: &str = "openwars";
/// Setup problems no numbered rule covers cite the reference's setup section.
const SETUP: &str = "setup-steps";
/// The game's end cites the reference's victory section (no OW rule is about victory).
const VICTORY: &str = "victory-conditions";

pub struct OpenWars {
    t: Tables,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    OrderRoll,
    Collection,
    Recruitment,
    Movement,
    Combat,
    Over,
}

impl Phase {
    fn name(self) -> &'static str {
        match self {
            Phase::OrderRoll => "order-roll",
            Phase::Collection => "collection",
            Phase::Recruitment => "recruitment",
            Phase::Movement => "movement",
            Phase::Combat => "combat",
            Phase::Over => "over",
        }
    }
}

/// All tokens of one unit of one player in one cell.
#[derive(Clone, Debug)]
pub struct Stack {
    player: u8,
    unit: u16,
    cell: u8,
    n: u8,
    /// Movement points left per token, highest first (movement phase).
    mp: [u8; 4],
    /// Attacked this turn (may no longer retreat).
    attacked: bool,
    /// Part of it retreated this turn (the rest may no longer attack).
    retreated: bool,
    /// Took part in a combat this phase (no later isolated shot).
    fought: bool,
    /// Acted in the current combat round.
    acted: bool,
}

#[derive(Clone, Copy, Debug)]
struct Fight {
    cell: u8,
    ranged: bool,
    round: u8,
    attacked: bool,
}

#[derive(Clone, Debug)]
pub struct State {
    names: Arc<[String]>,
    map: u8,
    faction: [u8; 2],
    turn: u8,
    phase: Phase,
    /// Index into `order` in the per-player phases.
    step: u8,
    order: [u8; 2],
    to_move: u8,
    /// The order roll was made / the collection was taken.
    done: bool,
    gold: [u32; 2],
    mana: [u32; 2],
    stacks: Vec<Stack>,
    /// Casualties set aside this turn, per unit.
    fallen: Vec<u8>,
    fight: Option<Fight>,
    /// Contested combats fought this phase (cell bits).
    resolved: u32,
    contested_started: bool,
    /// Turn ends in a row each player held every objective.
    streak: [u8; 2],
    result: Option<(Option<u8>, &'static str)>,
}

fn one() -> u8 {
    1
}

fn is_one(n: &u8) -> bool {
    *n == 1
}

/// One action of a log (docs/log-format/openwars.md).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "do", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Action {
    /// 2d6 per tied player (seat order), round after round until broken.
    OrderRoll {
        roll: Vec<u8>,
    },
    /// The controlled cells and what they yield.
    Collect {
        from: Vec<String>,
        gold: u32,
        mana: u32,
    },
    Recruit {
        unit: String,
        at: String,
        #[serde(default = "one", skip_serializing_if = "is_one")]
        tokens: u8,
    },
    /// One orthogonal step of `tokens` tokens of a stack.
    Move {
        unit: String,
        from: String,
        to: String,
        #[serde(default = "one", skip_serializing_if = "is_one")]
        tokens: u8,
    },
    /// The next combat to resolve.
    Fight {
        at: String,
    },
    Attack {
        unit: String,
        at: String,
        /// One d6 per tied player when initiative ties across players.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        tie: Vec<u8>,
        roll: Vec<u8>,
        /// The defender's choice: tokens removed per unit.
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        casualties: BTreeMap<String, u8>,
    },
    Retreat {
        unit: String,
        to: String,
        #[serde(default = "one", skip_serializing_if = "is_one")]
        tokens: u8,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        tie: Vec<u8>,
    },
    Hold {
        unit: String,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        tie: Vec<u8>,
    },
    Cast {
        spell: String,
        caster: String,
        from: String,
        at: String,
        /// What the spell did, in words (not interpreted).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        effect: Option<String>,
    },
    EndTurn,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// The scenario map's id.
    pub scenario: String,
    pub players: Vec<PlayerSetup>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerSetup {
    pub name: String,
    pub faction: String,
    /// The starting army: unit id → tokens.
    pub deck: BTreeMap<String, u32>,
    /// Where it starts: cell → unit id → tokens.
    pub deploy: BTreeMap<String, BTreeMap<String, u32>>,
}

fn v(rule: &'static str, msg: impl Into<String>) -> Violation {
    Violation::new(rule, msg)
}

fn bit(c: u8) -> u32 {
    1 << c
}

fn dice_ok(d: &[u8]) -> bool {
    d.iter().all(|x| (1..=6).contains(x))
}

fn show_dice(d: &[u8]) -> String {
    format!("[{}]", d.iter().map(u8::to_string).collect::<Vec<_>>().join(", "))
}

/// Resolves a tie roll: one die per player per round (seat order), rounds
/// repeated while equal. The winner's seat, or why the roll is malformed.
fn tie_winner(roll: &[u8]) -> Result<u8, String> {
    if roll.is_empty() || !roll.len().is_multiple_of(2) {
        return Err(format!("{} dice", roll.len()));
    }
    for (i, pair) in roll.chunks(2).enumerate() {
        let last = i + 1 == roll.len() / 2;
        if pair[0] != pair[1] {
            return if last {
                Ok(u8::from(pair[1] > pair[0]))
            } else {
                Err(format!(
                    "round {} was already decided ({} vs {})",
                    i + 1,
                    pair[0],
                    pair[1]
                ))
            };
        }
    }
    Err("the last round is still tied".into())
}

impl OpenWars {
    fn map(&self, s: &State) -> &Scenario {
        &self.t.maps[usize::from(s.map)]
    }

    fn unit(&self, u: u16) -> &tables::Unit {
        &self.t.units[usize::from(u)]
    }

    fn owner(&self, s: &State, u: u16) -> Option<u8> {
        let f = self.unit(u).faction;
        s.faction.iter().position(|&x| x == f).map(|p| p as u8)
    }

    fn cell_name<'a>(&'a self, s: &State, c: u8) -> &'a str {
        &self.map(s).cells[usize::from(c)].id
    }

    fn name<'a>(&self, s: &'a State, p: u8) -> &'a str {
        &s.names[usize::from(p)]
    }

    fn find(&self, s: &State, p: u8, u: u16, c: u8) -> Option<usize> {
        s.stacks
            .iter()
            .position(|x| x.player == p && x.unit == u && x.cell == c)
    }

    fn occupancy(&self, s: &State) -> [u32; 2] {
        let mut occ = [0u32; 2];
        for x in &s.stacks {
            occ[usize::from(x.player)] |= bit(x.cell);
        }
        occ
    }

    fn tokens_of(&self, s: &State, p: u8, c: u8) -> u32 {
        s.stacks
            .iter()
            .filter(|x| x.player == p && x.cell == c)
            .map(|x| u32::from(x.n))
            .sum()
    }

    fn on_map(&self, s: &State, u: u16) -> u32 {
        s.stacks.iter().filter(|x| x.unit == u).map(|x| u32::from(x.n)).sum()
    }

    fn army_value(&self, s: &State, p: u8) -> u32 {
        s.stacks
            .iter()
            .filter(|x| x.player == p)
            .map(|x| u32::from(x.n) * u32::from(self.unit(x.unit).cost))
            .sum()
    }

    fn controlled(&self, s: &State, p: u8) -> u32 {
        let occ = self.occupancy(s);
        occ[usize::from(p)] & !occ[usize::from(1 - p)]
    }

    /// Why `p` does not control `c`, if it does not (OW-3).
    fn no_control(&self, s: &State, p: u8, c: u8) -> Option<String> {
        let own = self.tokens_of(s, p, c);
        let foe = self.tokens_of(s, 1 - p, c);
        match (own, foe) {
            (0, _) => Some(format!("{} has no token in {}", self.name(s, p), self.cell_name(s, c))),
            (_, f) if f > 0 => Some(format!(
                "{} is contested: {} has {f} token{} there",
                self.cell_name(s, c),
                self.name(s, 1 - p),
                if f == 1 { "" } else { "s" }
            )),
            _ => None,
        }
    }

    /// Entry cost for `u` into `c` with the terrain bonus (OW-7).
    fn entry(&self, s: &State, u: u16, c: u8) -> u8 {
        let cell = &self.map(s).cells[usize::from(c)];
        let unit = self.unit(u);
        let bonus = unit.ty == cell.ty && unit.ty != MAGIC && unit.ty != FLYING;
        if bonus {
            cell.entry.saturating_sub(1).max(1)
        } else {
            cell.entry
        }
    }

    /// The water rule (OW-8) for a step of `u` from `from` to `to`.
    fn water_block(&self, s: &State, u: u16, from: u8, to: u8) -> Option<String> {
        let m = self.map(s);
        let unit = self.unit(u);
        let (f, t) = (&m.cells[usize::from(from)], &m.cells[usize::from(to)]);
        if t.ty == WATER && unit.ty != WATER && unit.ty != FLYING {
            return Some(format!(
                "{} is water: only water and flying units may enter it, and {} is a {} unit",
                t.id,
                unit.id,
                tables::TYPES[usize::from(unit.ty)]
            ));
        }
        if f.ty == WATER && unit.ty == WATER && t.ty != WATER {
            return Some(format!(
                "{} is a water unit: it may not leave the water for {}",
                unit.id, t.id
            ));
        }
        None
    }

    /// Stacking (OW-6) for `k` more tokens of `u` of player `p` in `c`.
    fn stacking(&self, s: &State, p: u8, u: u16, c: u8, k: u8) -> Result<(), Violation> {
        let unit = self.unit(u);
        let have = self.find(s, p, u, c).map_or(0, |i| s.stacks[i].n);
        let limit = unit.limit();
        if u32::from(have) + u32::from(k) > u32::from(limit) {
            return Err(v(
                "OW-6",
                format!(
                    "a {} stack holds at most {limit} token{}; {} already has {have} {} in {}",
                    if unit.ty == MAGIC {
                        "magic"
                    } else if unit.unique {
                        "unique"
                    } else {
                        "normal"
                    },
                    if limit == 1 { "" } else { "s" },
                    self.name(s, p),
                    unit.id,
                    self.cell_name(s, c)
                ),
            )
            .expected(format!("at most {limit} in the stack"))
            .found(format!("{}", u32::from(have) + u32::from(k))));
        }
        if unit.ty == MAGIC
            && let Some(other) = s
                .stacks
                .iter()
                .find(|x| x.player == p && x.cell == c && x.unit != u && self.unit(x.unit).ty == MAGIC)
        {
            return Err(v(
                "OW-6",
                format!(
                    "{} already has a magic unit ({}) in {}",
                    self.name(s, p),
                    self.unit(other.unit).id,
                    self.cell_name(s, c)
                ),
            )
            .expected("at most 1 magic unit per player per location")
            .found(format!("{} and {}", self.unit(other.unit).id, unit.id)));
        }
        Ok(())
    }

    fn unit_ix(&self, id: &str, rule: &'static str) -> Result<u16, Violation> {
        self.t.unit_ix.get(id).copied().ok_or_else(|| {
            v(rule, format!("`{id}` is not a unit of Open Wars"))
                .expected("a unit id of the pack")
                .found(id)
        })
    }

    fn cell_ix(&self, s: &State, id: &str, rule: &'static str) -> Result<u8, Violation> {
        self.map(s).cell(id).ok_or_else(|| {
            v(rule, format!("`{id}` is not a cell of the map `{}`", self.map(s).id))
                .expected("a cell id such as c3")
                .found(id)
        })
    }

    // ----- combat bookkeeping -----

    fn contested_pending(&self, s: &State) -> u32 {
        let occ = self.occupancy(s);
        occ[0] & occ[1] & !s.resolved
    }

    fn ranged_pending(&self, s: &State) -> u32 {
        let occ = self.occupancy(s);
        let m = self.map(s);
        let mut mask = 0;
        for x in &s.stacks {
            let r = self.unit(x.unit).range;
            if r == 0 || x.fought || occ[usize::from(1 - x.player)] & bit(x.cell) != 0 {
                continue;
            }
            let foes = occ[usize::from(1 - x.player)];
            let row = &m.dist[usize::from(x.cell)];
            if (0..m.cells.len()).any(|t| foes & (1 << t) != 0 && row[t] <= r) {
                mask |= bit(x.cell);
            }
        }
        mask
    }

    /// The combats that may be chosen next (OW-10), and whether the
    /// ranged group is the one being played.
    fn allowed_fights(&self, s: &State) -> (u32, bool) {
        let (r, c) = (self.ranged_pending(s), self.contested_pending(s));
        if self.map(s).ranged_first && !s.contested_started && r != 0 {
            (r, true)
        } else if c != 0 {
            (c, false)
        } else {
            (r, true)
        }
    }

    fn is_participant(&self, f: &Fight, x: &Stack) -> bool {
        x.cell == f.cell
            && if f.ranged {
                self.unit(x.unit).range > 0 && !x.fought
            } else {
                !x.acted
            }
    }

    /// The best initiative key among stacks still to act, and which players
    /// own a stack with that key (bit 0 / bit 1).
    fn top(&self, s: &State, f: &Fight) -> (u32, u8) {
        let mut best = 0;
        let mut who = 0u8;
        for x in s.stacks.iter().filter(|x| self.is_participant(f, x)) {
            let k = self.unit(x.unit).key();
            if k > best {
                best = k;
                who = 1 << x.player;
            } else if k == best {
                who |= 1 << x.player;
            }
        }
        (best, who)
    }

    fn advance_fight(&self, s: &mut State) {
        let Some(mut f) = s.fight else { return };
        if f.ranged {
            if !s.stacks.iter().any(|x| self.is_participant(&f, x)) {
                s.fight = None;
            }
            return;
        }
        let occ = self.occupancy(s);
        if occ[0] & occ[1] & bit(f.cell) == 0 {
            s.fight = None;
            s.resolved |= bit(f.cell);
            return;
        }
        if s.stacks.iter().any(|x| x.cell == f.cell && !x.acted) {
            return;
        }
        if !f.attacked {
            s.fight = None;
            s.resolved |= bit(f.cell);
            return;
        }
        f.round = f.round.saturating_add(1);
        f.attacked = false;
        for x in s.stacks.iter_mut().filter(|x| x.cell == f.cell) {
            x.acted = false;
        }
        s.fight = Some(f);
    }

    // ----- phase flow -----

    fn begin_turn(&self, s: &mut State) {
        let m = self.map(s);
        if m.fixed_order {
            s.order = [0, 1];
        } else {
            let (a, b) = (self.army_value(s, 0), self.army_value(s, 1));
            if a == b {
                s.phase = Phase::OrderRoll;
                s.to_move = 0;
                s.done = false;
                return;
            }
            s.order = if a > b { [0, 1] } else { [1, 0] };
        }
        self.begin_supply(s, 0);
    }

    fn begin_supply(&self, s: &mut State, step: u8) {
        let m = self.map(s);
        let first = s.turn == 1;
        if first && m.skip_collection && m.skip_recruitment {
            return self.begin_movement(s, 0);
        }
        s.phase = if first && m.skip_collection {
            Phase::Recruitment
        } else {
            Phase::Collection
        };
        s.step = step;
        s.to_move = s.order[usize::from(step)];
        s.done = false;
    }

    fn begin_movement(&self, s: &mut State, step: u8) {
        if s.turn == 1 && self.map(s).skip_movement {
            return self.begin_combat(s);
        }
        s.phase = Phase::Movement;
        s.step = step;
        let p = s.order[usize::from(step)];
        s.to_move = p;
        for x in s.stacks.iter_mut().filter(|x| x.player == p) {
            x.mp = [self.t.units[usize::from(x.unit)].movement; 4];
        }
    }

    fn begin_combat(&self, s: &mut State) {
        s.phase = Phase::Combat;
        s.to_move = s.order[0];
        s.fight = None;
        s.resolved = 0;
        s.contested_started = false;
        if self.allowed_fights(s).0 == 0 {
            self.end_of_turn(s);
        }
    }

    fn end_of_turn(&self, s: &mut State) {
        s.fallen.iter_mut().for_each(|f| *f = 0);
        for x in &mut s.stacks {
            x.attacked = false;
            x.retreated = false;
            x.fought = false;
            x.acted = false;
        }
        let m = self.map(s);
        let occ = self.occupancy(s);
        let alive = [occ[0] != 0, occ[1] != 0];
        let mut result = None;
        if !alive[0] || !alive[1] {
            let w = match alive {
                [true, false] => Some(0),
                [false, true] => Some(1),
                _ => None,
            };
            result = Some((w, "conquest"));
        }
        if m.objectives != 0 {
            for p in 0..2u8 {
                let held = self.controlled(s, p) & m.objectives == m.objectives;
                let st = &mut s.streak[usize::from(p)];
                *st = if held { st.saturating_add(1) } else { 0 };
                if *st >= 2 && result.is_none() {
                    result = Some((Some(p), "objective-held"));
                }
            }
        }
        if result.is_none() && m.turn_limit.is_some_and(|l| s.turn >= l) {
            let cities = |p: u8| {
                let c = self.controlled(s, p);
                (0..m.cells.len())
                    .filter(|&i| c & (1 << i) != 0 && m.cells[i].ty == CITY)
                    .count()
            };
            let (c0, c1) = (cities(0), cities(1));
            let (a0, a1) = (self.army_value(s, 0), self.army_value(s, 1));
            let w = if c0 != c1 {
                Some(u8::from(c1 > c0))
            } else if a0 != a1 {
                Some(u8::from(a1 > a0))
            } else {
                None
            };
            result = Some((w, "turn-limit"));
        }
        if result.is_some() {
            s.result = result;
            s.phase = Phase::Over;
            return;
        }
        s.turn = s.turn.saturating_add(1);
        self.begin_turn(s);
    }

    // ----- validation -----

    fn over(&self, s: &State) -> Violation {
        v(VICTORY, "the game is already over")
            .expected("no more actions")
            .found(format!("an action after the end of turn {}", s.turn))
    }

    fn wrong_phase(&self, s: &State, what: &str, phase: &str) -> Violation {
        v(
            "OW-2",
            format!(
                "{what} belongs to the {phase} phase, but {} is in the {} phase of turn {}",
                self.name(s, s.to_move),
                s.phase.name(),
                s.turn
            ),
        )
        .expected(format!("the {phase} phase"))
        .found(format!("the {} phase", s.phase.name()))
    }

    fn check(&self, s: &State, a: &Action, chance: bool) -> Result<(), Violation> {
        if s.phase == Phase::Over {
            return Err(self.over(s));
        }
        match a {
            Action::EndTurn => self.check_end(s),
            Action::OrderRoll { roll } => {
                if s.phase != Phase::OrderRoll || s.done {
                    return Err(v("OW-1", "there is no tie for first place to roll off")
                        .expected("a roll only when army values tie at the start of a turn")
                        .found("an order roll"));
                }
                if chance {
                    if !dice_ok(roll) || !roll.len().is_multiple_of(4) || roll.is_empty() {
                        return Err(v("OW-1", "the tie roll is 2d6 per player, round after round")
                            .expected("groups of 4 dice from 1 to 6 (2 per player, seat order)")
                            .found(show_dice(roll)));
                    }
                    let sums: Vec<u8> = roll.chunks(2).map(|p| p[0] + p[1]).collect();
                    tie_winner(&sums).map_err(|why| {
                        v("OW-1", format!("the tie roll does not settle the order: {why}"))
                            .expected("re-roll while the totals tie, stop when they differ")
                            .found(show_dice(roll))
                    })?;
                }
                Ok(())
            }
            Action::Collect { from, gold, mana } => self.check_collect(s, from, *gold, *mana),
            Action::Recruit { unit, at, tokens } => self.check_recruit(s, unit, at, *tokens),
            Action::Move { unit, from, to, tokens } => self.check_move(s, unit, from, to, *tokens),
            Action::Fight { at } => self.check_fight(s, at),
            Action::Attack {
                unit,
                at,
                tie,
                roll,
                casualties,
            } => {
                let (i, f) = self.check_actor(s, unit, "attack")?;
                let x = &s.stacks[i];
                let t = if f.ranged {
                    let t = self.cell_ix(s, at, "OW-15")?;
                    let range = self.unit(x.unit).range;
                    let d = self.map(s).dist[usize::from(f.cell)][usize::from(t)];
                    if t == f.cell || d > range {
                        return Err(v(
                            "OW-15",
                            format!(
                                "{} in {} (range {range}) cannot shoot at {at}: it is {d} orthogonal step{} away",
                                self.unit(x.unit).id,
                                self.cell_name(s, f.cell),
                                if d == 1 { "" } else { "s" }
                            ),
                        )
                        .expected(format!("a location 1 to {range} steps away"))
                        .found(format!("{at}, {d} steps")));
                    }
                    if self.tokens_of(s, 1 - x.player, t) == 0 {
                        return Err(v("OW-15", format!("there is no enemy token in {at} to shoot at"))
                            .expected("a location with enemy tokens")
                            .found(format!("{at}, empty of enemies")));
                    }
                    t
                } else {
                    if x.retreated {
                        return Err(v(
                            "OW-14",
                            format!(
                                "part of {} retreated this turn: the tokens left behind may not attack",
                                self.unit(x.unit).id
                            ),
                        )
                        .expected("hold or retreat")
                        .found("an attack"));
                    }
                    if at != self.cell_name(s, f.cell) {
                        return Err(v(
                            "OW-15",
                            format!(
                                "in the contested location {} a stack attacks the enemies in front of it",
                                self.cell_name(s, f.cell)
                            ),
                        )
                        .expected(format!("at: {}", self.cell_name(s, f.cell)))
                        .found(format!("at: {at}")));
                    }
                    f.cell
                };
                if chance {
                    self.check_tie(s, &f, x, tie)?;
                    self.check_roll(s, x, t, roll, casualties)?;
                }
                Ok(())
            }
            Action::Retreat { unit, to, tokens, tie } => {
                let (i, f) = self.check_actor(s, unit, "retreat")?;
                let x = &s.stacks[i];
                let u = self.unit(x.unit);
                if f.ranged {
                    return Err(v(
                        "OW-14",
                        "isolated ranged stacks are not engaged: they shoot or hold, they do not retreat",
                    )
                    .expected("attack or hold")
                    .found("a retreat"));
                }
                if x.attacked {
                    return Err(
                        v("OW-14", format!("{} attacked this turn: it may not also retreat", u.id))
                            .expected("attack")
                            .found("a retreat"),
                    );
                }
                if *tokens == 0 || *tokens > x.n {
                    return Err(v("OW-14", format!("{} has {} token(s) here", u.id, x.n))
                        .expected(format!("1 to {} tokens", x.n))
                        .found(format!("{tokens}")));
                }
                let t = self.cell_ix(s, to, "OW-14")?;
                let m = self.map(s);
                if !m.cells[usize::from(f.cell)].adj.contains(&t) {
                    return Err(v(
                        "OW-14",
                        format!("a retreat goes to an orthogonally adjacent location, and {to} is not one"),
                    )
                    .expected(format!(
                        "one of {}",
                        m.cells[usize::from(f.cell)]
                            .adj
                            .iter()
                            .map(|&c| self.cell_name(s, c))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ))
                    .found(to.as_str()));
                }
                let foes = self.tokens_of(s, 1 - x.player, t);
                if foes > 0 {
                    return Err(
                        v("OW-14", format!("{to} holds {foes} enemy token(s): no retreat there"))
                            .expected("an enemy-free location")
                            .found(format!("{foes} enemy token(s) in {to}")),
                    );
                }
                if let Some(why) = self.water_block(s, x.unit, f.cell, t) {
                    return Err(v("OW-14", format!("the retreat could not enter {to}: {why}"))
                        .expected("a location the unit could enter")
                        .found(to.as_str()));
                }
                let cost = self.entry(s, x.unit, t);
                if cost > u.movement {
                    return Err(v(
                        "OW-14",
                        format!("{} (movement {}) cannot pay the entry cost of {to}", u.id, u.movement),
                    )
                    .expected(format!("entry cost at most {}", u.movement))
                    .found(format!("entry cost {cost}")));
                }
                self.stacking(s, x.player, x.unit, t, *tokens)?;
                if chance {
                    self.check_tie(s, &f, x, tie)?;
                }
                Ok(())
            }
            Action::Hold { unit, tie } => {
                let (i, f) = self.check_actor(s, unit, "hold")?;
                let x = &s.stacks[i];
                if !f.ranged && !x.retreated {
                    return Err(v(
                        "OW-14",
                        format!(
                            "when its initiative comes, {} attacks or retreats; only tokens left behind by a retreat hold",
                            self.unit(x.unit).id
                        ),
                    )
                    .expected("attack or retreat")
                    .found("hold"));
                }
                if chance {
                    self.check_tie(s, &f, x, tie)?;
                }
                Ok(())
            }
            Action::Cast {
                spell,
                caster,
                from,
                at,
                effect: _,
            } => self.check_cast(s, spell, caster, from, at),
        }
    }

    fn check_end(&self, s: &State) -> Result<(), Violation> {
        let who = self.name(s, s.to_move);
        match s.phase {
            Phase::OrderRoll if !s.done => Err(v(
                "OW-1",
                "army values tie for first place: the tied players roll 2d6 before the turn starts",
            )
            .expected("an order-roll")
            .found("the end of the block")),
            Phase::Collection => Err(v(
                "OW-4",
                format!("{who} has not collected: collection comes before the rest of the turn"),
            )
            .expected("a collect action")
            .found("no collection")),
            Phase::Combat => {
                if let Some(f) = s.fight {
                    return Err(v(
                        "OW-10",
                        format!("the combat in {} is not over", self.cell_name(s, f.cell)),
                    )
                    .expected("every stack there acts until one side is left")
                    .found(format!("round {}", f.round)));
                }
                let (pending, _) = self.allowed_fights(s);
                if pending != 0 {
                    return Err(v("OW-10", "combats remain to be fought this phase")
                        .expected(format!("fights in {}", self.map(s).ids(pending).join(", ")))
                        .found("the end of the combat phase"));
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    fn check_collect(&self, s: &State, from: &[String], gold: u32, mana: u32) -> Result<(), Violation> {
        match s.phase {
            Phase::Collection => {}
            Phase::Recruitment if s.done => {
                return Err(v("OW-4", "collection is taken once per turn")
                    .expected("one collect per turn")
                    .found("a second collect"));
            }
            Phase::Recruitment if s.turn == 1 && self.map(s).skip_collection => {
                return Err(v("OW-2", "turn 1 skips the collection phase (scenario setting)")
                    .expected("no collection on turn 1")
                    .found("a collect"));
            }
            _ => return Err(self.wrong_phase(s, "collecting", "collection")),
        }
        let p = s.to_move;
        let m = self.map(s);
        let mut listed = 0u32;
        for id in from {
            let c = self.cell_ix(s, id, "OW-3")?;
            if listed & bit(c) != 0 {
                return Err(v("OW-4", format!("{id} is listed twice"))
                    .expected("each controlled location once")
                    .found(format!("{id} twice")));
            }
            if let Some(why) = self.no_control(s, p, c) {
                return Err(v("OW-3", format!("{} does not control {id}: {why}", self.name(s, p)))
                    .expected("only locations with own tokens and no enemy token")
                    .found(id.as_str()));
            }
            listed |= bit(c);
        }
        let ctrl = self.controlled(s, p);
        let missing = ctrl & !listed;
        if missing != 0 {
            return Err(v(
                "OW-4",
                format!(
                    "{} also controls {}: every controlled location yields",
                    self.name(s, p),
                    m.ids(missing).join(", ")
                ),
            )
            .expected(format!("from: [{}]", m.ids(ctrl).join(", ")))
            .found(format!("from: [{}]", from.join(", "))));
        }
        let (mut g, mut n) = (0u32, 0u32);
        for (i, c) in m.cells.iter().enumerate() {
            if ctrl & (1 << i) != 0 {
                g += u32::from(c.gold);
                n += u32::from(c.mana);
            }
        }
        if g != gold || n != mana {
            return Err(v("OW-4", "the collection does not add up to the printed gold and mana")
                .expected(format!("gold {g}, mana {n}"))
                .found(format!("gold {gold}, mana {mana}")));
        }
        Ok(())
    }

    fn check_recruit(&self, s: &State, unit: &str, at: &str, tokens: u8) -> Result<(), Violation> {
        match s.phase {
            Phase::Recruitment => {}
            Phase::Collection => {
                return Err(v("OW-2", "collection comes before recruitment: collect first")
                    .expected("collect")
                    .found("a recruit"));
            }
            _ => return Err(self.wrong_phase(s, "recruiting", "recruitment")),
        }
        if s.turn == 1 && self.map(s).skip_recruitment {
            return Err(v("OW-2", "turn 1 skips the recruitment phase (scenario setting)")
                .expected("no recruitment on turn 1")
                .found("a recruit"));
        }
        let p = s.to_move;
        let who = self.name(s, p);
        let u = self.unit_ix(unit, "OW-5")?;
        let ud = self.unit(u);
        if ud.faction != s.faction[usize::from(p)] {
            return Err(v(
                "OW-5",
                format!(
                    "{unit} belongs to the {}; {who} plays the {}",
                    self.t.factions[usize::from(ud.faction)],
                    self.t.factions[usize::from(s.faction[usize::from(p)])]
                ),
            )
            .expected(format!(
                "a unit of the {}",
                self.t.factions[usize::from(s.faction[usize::from(p)])]
            ))
            .found(unit));
        }
        let c = self.cell_ix(s, at, "OW-5")?;
        let cell = &self.map(s).cells[usize::from(c)];
        if cell.ty != CITY {
            return Err(v(
                "OW-5",
                format!("recruits appear only in cities, and {at} is {}", cell.location),
            )
            .expected("a controlled city")
            .found(format!("{at} ({})", tables::TYPES[usize::from(cell.ty)])));
        }
        if let Some(why) = self.no_control(s, p, c) {
            return Err(v("OW-5", format!("{who} recruits only in cities they control: {why}"))
                .expected("a city with own tokens and no enemy")
                .found(at));
        }
        if ud.ty == WATER && !cell.port {
            return Err(v(
                "OW-5",
                format!("{unit} is a water unit and {at} has no adjacent water (no port)"),
            )
            .expected("a city next to a water location")
            .found(at));
        }
        if tokens == 0 {
            return Err(v("OW-5", "a recruit places at least one token")
                .expected("tokens: 1 or more")
                .found("tokens: 0"));
        }
        let on = self.on_map(s, u);
        if ud.unique && (on > 0 || tokens > 1) {
            return Err(v("OW-5", format!("{unit} is unique: the army holds at most one"))
                .expected("1 token, none on the map")
                .found(format!("{} on the map, {tokens} recruited", on)));
        }
        let avail = u32::from(ud.copies).saturating_sub(on + u32::from(s.fallen[usize::from(u)]));
        if u32::from(tokens) > avail {
            return Err(v(
                "OW-5",
                format!(
                    "the kit has {} {unit} tokens: {on} on the map, {} set aside as casualties this turn",
                    ud.copies,
                    s.fallen[usize::from(u)]
                ),
            )
            .expected(format!("at most {avail} more"))
            .found(format!("{tokens}")));
        }
        let price = u32::from(ud.cost) * u32::from(tokens);
        if price > s.gold[usize::from(p)] {
            return Err(v("OW-5", format!("{who} cannot pay for {tokens} {unit}"))
                .expected(format!("{price} gold"))
                .found(format!("{} gold in reserve", s.gold[usize::from(p)])));
        }
        self.stacking(s, p, u, c, tokens)
    }

    fn check_move(&self, s: &State, unit: &str, from: &str, to: &str, tokens: u8) -> Result<(), Violation> {
        if s.phase != Phase::Movement {
            return Err(self.wrong_phase(s, "moving", "movement"));
        }
        let p = s.to_move;
        let u = self.unit_ix(unit, "OW-7")?;
        if let Some(o) = self.owner(s, u)
            && o != p
        {
            return Err(v(
                "OW-1",
                format!(
                    "{unit} belongs to {}; this is {}'s movement phase",
                    self.name(s, o),
                    self.name(s, p)
                ),
            )
            .expected(format!("a unit of {}", self.name(s, p)))
            .found(format!("a unit of {}", self.name(s, o))));
        }
        let f = self.cell_ix(s, from, "OW-7")?;
        let t = self.cell_ix(s, to, "OW-7")?;
        let have = self.find(s, p, u, f).map_or(0, |i| s.stacks[i].n);
        if tokens == 0 || tokens > have {
            return Err(v("OW-7", format!("{} has {have} {unit} in {from}", self.name(s, p)))
                .expected(format!("1 to {have} tokens"))
                .found(format!("{tokens}")));
        }
        let m = self.map(s);
        let adj = &m.cells[usize::from(f)].adj;
        if !adj.contains(&t) {
            return Err(v(
                "OW-7",
                format!("units move one orthogonal step at a time, and {to} is not next to {from}"),
            )
            .expected(format!(
                "one of {}",
                adj.iter().map(|&c| self.cell_name(s, c)).collect::<Vec<_>>().join(", ")
            ))
            .found(to));
        }
        if let Some(why) = self.water_block(s, u, f, t) {
            return Err(v("OW-8", why)
                .expected("water only for water and flying units")
                .found(to));
        }
        let ud = self.unit(u);
        let foes = self.tokens_of(s, 1 - p, f);
        if foes > 0 && ud.ty != FLYING {
            return Err(v(
                "OW-9",
                format!("{unit} is engaged in {from} ({foes} enemy token(s)): it may not leave in the movement phase"),
            )
            .expected("stay until the combat phase (retreat there)")
            .found(format!("a move to {to}")));
        }
        let cost = self.entry(s, u, t);
        let i = self.find(s, p, u, f).unwrap_or(0);
        let left = s.stacks[i].mp[usize::from(tokens - 1)];
        if left < cost {
            let cell = &m.cells[usize::from(t)];
            let why = if cost < cell.entry {
                format!("entry cost {} minus 1 for matching terrain", cell.entry)
            } else {
                format!("entry cost {}", cell.entry)
            };
            return Err(v(
                "OW-7",
                format!(
                    "{unit} cannot pay to enter {to} ({}, {why}): it stays put",
                    cell.location
                ),
            )
            .expected(format!("{cost} movement point(s)"))
            .found(format!("{left} left")));
        }
        self.stacking(s, p, u, t, tokens)
    }

    fn check_fight(&self, s: &State, at: &str) -> Result<(), Violation> {
        if s.phase != Phase::Combat {
            return Err(self.wrong_phase(s, "a fight", "combat"));
        }
        if let Some(f) = s.fight {
            return Err(v(
                "OW-10",
                format!("the combat in {} is still going on", self.cell_name(s, f.cell)),
            )
            .expected("one combat at a time")
            .found(format!("a fight in {at}")));
        }
        let c = self.cell_ix(s, at, "OW-10")?;
        let (allowed, ranged) = self.allowed_fights(s);
        if allowed & bit(c) != 0 {
            return Ok(());
        }
        let m = self.map(s);
        let any = self.ranged_pending(s) | self.contested_pending(s);
        let msg = if any & bit(c) != 0 {
            if ranged {
                format!(
                    "isolated ranged combats come first (isolated_ranged_combat: {})",
                    if m.ranged_first { "first" } else { "last" }
                )
            } else {
                "combats in contested locations come first here".to_string()
            }
        } else {
            format!("there is no combat to fight in {at}")
        };
        Err(v("OW-10", msg)
            .expected(format!("a fight in {}", m.ids(allowed).join(" or ")))
            .found(format!("a fight in {at}")))
    }

    /// The acting stack must take part in the current combat and be next by
    /// initiative (OW-11).
    fn check_actor(&self, s: &State, unit: &str, what: &str) -> Result<(usize, Fight), Violation> {
        if s.phase != Phase::Combat {
            return Err(self.wrong_phase(s, &format!("a stack's {what}"), "combat"));
        }
        let Some(f) = s.fight else {
            return Err(v("OW-10", "no combat is being fought: choose one first")
                .expected(format!(
                    "a fight in {}",
                    self.map(s).ids(self.allowed_fights(s).0).join(" or ")
                ))
                .found(format!("a {what}")));
        };
        let at = self.cell_name(s, f.cell);
        let u = self.unit_ix(unit, "OW-11")?;
        let Some(i) = s.stacks.iter().position(|x| x.unit == u && x.cell == f.cell) else {
            return Err(v("OW-11", format!("{unit} has no stack in {at}, where the combat is"))
                .expected(format!("a stack in {at}"))
                .found(unit));
        };
        let x = &s.stacks[i];
        if !self.is_participant(&f, x) {
            return Err(v(
                "OW-11",
                if f.ranged {
                    format!("{unit} does not shoot in this combat (no range, or it has already acted)")
                } else {
                    format!("{unit} has already acted in round {} of this combat", f.round)
                },
            )
            .expected("each stack acts once per round, by initiative")
            .found(format!("a second {what} by {unit}")));
        }
        let (best, _) = self.top(s, &f);
        let ud = self.unit(u);
        if ud.key() != best {
            let first = s
                .stacks
                .iter()
                .find(|y| self.is_participant(&f, y) && self.unit(y.unit).key() == best)
                .map(|y| self.unit(y.unit));
            let first_desc = first.map_or(String::new(), |w| {
                format!(
                    "{} (initiative {}, {}, cost {})",
                    w.id,
                    w.initiative,
                    w.class_name(),
                    w.cost
                )
            });
            return Err(v(
                "OW-11",
                format!(
                    "{first_desc} acts before {unit} (initiative {}, {}, cost {})",
                    ud.initiative,
                    ud.class_name(),
                    ud.cost
                ),
            )
            .expected(format!("{} to act", first.map_or("another stack", |w| w.id.as_str())))
            .found(format!("{unit} acting")));
        }
        Ok((i, f))
    }

    fn check_tie(&self, s: &State, f: &Fight, x: &Stack, tie: &[u8]) -> Result<(), Violation> {
        let (_, who) = self.top(s, f);
        if who != 3 {
            if !tie.is_empty() {
                return Err(v("OW-11", "no initiative tie between players here: no tie roll")
                    .expected("no `tie` dice")
                    .found(show_dice(tie)));
            }
            return Ok(());
        }
        if !dice_ok(tie) {
            return Err(v("OW-11", "tie dice are d6")
                .expected("dice from 1 to 6")
                .found(show_dice(tie)));
        }
        match tie_winner(tie) {
            Ok(w) if w == x.player => Ok(()),
            Ok(w) => Err(v(
                "OW-11",
                format!(
                    "initiative ties between both players' stacks and {} won the d6 roll-off",
                    self.name(s, w)
                ),
            )
            .expected(format!("a stack of {} to act", self.name(s, w)))
            .found(format!("{} acting", self.unit(x.unit).id))),
            Err(why) => Err(v(
                "OW-11",
                format!("initiative ties between both players' stacks; the d6 roll-off is incomplete: {why}"),
            )
            .expected(format!(
                "tie: one d6 for {} then one for {}, repeated while equal",
                self.name(s, 0),
                self.name(s, 1)
            ))
            .found(show_dice(tie))),
        }
    }

    fn check_roll(
        &self,
        s: &State,
        x: &Stack,
        t: u8,
        roll: &[u8],
        casualties: &BTreeMap<String, u8>,
    ) -> Result<(), Violation> {
        let u = self.unit(x.unit);
        if roll.len() != usize::from(x.n) || !dice_ok(roll) {
            return Err(v(
                "OW-12",
                format!("{} attacks with {} token(s): one d6 per token", u.id, x.n),
            )
            .expected(format!("{} dice from 1 to 6", x.n))
            .found(show_dice(roll)));
        }
        let hits = roll.iter().filter(|&&d| d <= u.attack).count() as u32;
        let foe = 1 - x.player;
        let total = self.tokens_of(s, foe, t);
        let due = hits.min(total);
        let mut removed = 0u32;
        let mut max_removed = 0u8;
        for (id, &k) in casualties {
            let cu = self.t.unit_ix.get(id.as_str()).copied();
            let have = cu.and_then(|cu| self.find(s, foe, cu, t)).map_or(0, |i| s.stacks[i].n);
            if k > have {
                return Err(v(
                    "OW-13",
                    format!("{} has {have} {id} in {}", self.name(s, foe), self.cell_name(s, t)),
                )
                .expected(format!("at most {have} {id} removed"))
                .found(format!("{k}")));
            }
            if k > 0 {
                max_removed = max_removed.max(self.unit(cu.unwrap_or(0)).cost);
            }
            removed += u32::from(k);
        }
        if removed != due {
            return Err(v(
                "OW-13",
                format!(
                    "{} rolled {} against attack {}: {hits} hit(s), and {} has {total} token(s) in {}",
                    u.id,
                    show_dice(roll),
                    u.attack,
                    self.name(s, foe),
                    self.cell_name(s, t)
                ),
            )
            .expected(format!("{due} casualt{}", if due == 1 { "y" } else { "ies" }))
            .found(format!("{removed}")));
        }
        // Cheapest first: nothing removed may cost more than what stays.
        for y in s.stacks.iter().filter(|y| y.player == foe && y.cell == t) {
            let yu = self.unit(y.unit);
            let gone = casualties.get(&yu.id).copied().unwrap_or(0);
            if gone < y.n && yu.cost < max_removed {
                return Err(v(
                    "OW-13",
                    format!(
                        "casualties go to the cheapest tokens first: {} (cost {}) stays while a token of cost {max_removed} is removed",
                        yu.id, yu.cost
                    ),
                )
                .expected(format!("remove {} before dearer tokens", yu.id))
                .found(format!(
                    "casualties {}",
                    casualties.iter().map(|(k, n)| format!("{k}: {n}")).collect::<Vec<_>>().join(", ")
                )));
            }
        }
        Ok(())
    }

    fn check_cast(&self, s: &State, spell: &str, caster: &str, from: &str, at: &str) -> Result<(), Violation> {
        if s.phase == Phase::OrderRoll {
            return Err(v(
                "OW-16",
                "spells are cast during the phases of a turn, not during the order roll",
            )
            .expected("a phase of the turn")
            .found("the order roll"));
        }
        let Some(&sp) = self.t.spell_ix.get(spell) else {
            return Err(v("OW-16", format!("`{spell}` is not a spell of Open Wars"))
                .expected("a spell id of the pack")
                .found(spell));
        };
        let sd = &self.t.spells[usize::from(sp)];
        let cu = self.unit_ix(caster, "OW-16")?;
        let ud = self.unit(cu);
        if ud.ty != MAGIC {
            return Err(v(
                "OW-16",
                format!("only magic units cast spells, and {caster} is not one"),
            )
            .expected("a magic unit")
            .found(format!("{caster} ({})", tables::TYPES[usize::from(ud.ty)])));
        }
        let Some(p) = self.owner(s, cu) else {
            return Err(v("OW-16", format!("nobody plays the faction of {caster}"))
                .expected("a magic unit on the map")
                .found(caster));
        };
        let c = self.cell_ix(s, from, "OW-16")?;
        if self.find(s, p, cu, c).is_none() {
            return Err(v("OW-16", format!("{} has no {caster} in {from}", self.name(s, p)))
                .expected("the caster's location")
                .found(from));
        }
        if let Some(f) = sd.faction
            && f != ud.faction
        {
            return Err(v(
                "OW-16",
                format!(
                    "{spell} is a spell of the {}; {caster} casts {} and common spells",
                    self.t.factions[usize::from(f)],
                    self.t.factions[usize::from(ud.faction)]
                ),
            )
            .expected(format!(
                "a {} or common spell",
                self.t.factions[usize::from(ud.faction)]
            ))
            .found(spell));
        }
        if sd.combat && s.phase != Phase::Combat {
            return Err(
                v("OW-16", format!("{spell} is a combat spell: only in the combat phase"))
                    .expected("the combat phase")
                    .found(format!("the {} phase", s.phase.name())),
            );
        }
        let mana = s.mana[usize::from(p)];
        if mana < u32::from(sd.cost) {
            return Err(v("OW-16", format!("{} cannot pay for {spell}", self.name(s, p)))
                .expected(format!("{} mana", sd.cost))
                .found(format!("{mana} mana in reserve")));
        }
        let t = self.cell_ix(s, at, "OW-16")?;
        let d = self.map(s).dist[usize::from(c)][usize::from(t)];
        if d > ud.range {
            return Err(v(
                "OW-16",
                format!("a spell reaches as far as its caster's range ({caster}: {})", ud.range),
            )
            .expected(format!("a location at most {} step(s) from {from}", ud.range))
            .found(format!("{at}, {d} steps away")));
        }
        Ok(())
    }

    // ----- application -----

    fn add_tokens(&self, s: &mut State, p: u8, u: u16, c: u8, k: u8, mp: &[u8]) -> usize {
        let i = match self.find(s, p, u, c) {
            Some(i) => i,
            None => {
                s.stacks.push(Stack {
                    player: p,
                    unit: u,
                    cell: c,
                    n: 0,
                    mp: [0; 4],
                    attacked: false,
                    retreated: false,
                    fought: false,
                    acted: false,
                });
                s.stacks.len() - 1
            }
        };
        let x = &mut s.stacks[i];
        for j in 0..usize::from(k) {
            let slot = usize::from(x.n).min(3);
            x.mp[slot] = mp.get(j).copied().unwrap_or(0);
            x.n = x.n.saturating_add(1);
        }
        let n = usize::from(x.n).min(4);
        x.mp[..n].sort_unstable_by(|a, b| b.cmp(a));
        i
    }

    /// Takes `k` tokens (those with most movement left) off stack `i`.
    fn take_tokens(&self, s: &mut State, i: usize, k: u8) -> [u8; 4] {
        let x = &mut s.stacks[i];
        let k = k.min(x.n);
        let mut out = [0u8; 4];
        let ku = usize::from(k);
        out[..ku].copy_from_slice(&x.mp[..ku]);
        x.mp.copy_within(ku.., 0);
        x.n -= k;
        if x.n == 0 {
            s.stacks.swap_remove(i);
        }
        out
    }

    fn do_attack(&self, s: &mut State, unit: &str, at: &str, casualties: &BTreeMap<String, u8>) {
        let Some(f) = s.fight else { return };
        let Some(&u) = self.t.unit_ix.get(unit) else { return };
        let Some(i) = s.stacks.iter().position(|x| x.unit == u && x.cell == f.cell) else {
            return;
        };
        let p = s.stacks[i].player;
        let t = if f.ranged {
            self.map(s).cell(at).unwrap_or(f.cell)
        } else {
            f.cell
        };
        {
            let x = &mut s.stacks[i];
            x.attacked = true;
            if f.ranged {
                x.fought = true;
            } else {
                x.acted = true;
            }
        }
        if let Some(ff) = s.fight.as_mut() {
            ff.attacked = true;
        }
        for (id, &k) in casualties {
            let Some(&cu) = self.t.unit_ix.get(id.as_str()) else {
                continue;
            };
            if let Some(j) = self.find(s, 1 - p, cu, t) {
                let k = k.min(s.stacks[j].n);
                s.fallen[usize::from(cu)] = s.fallen[usize::from(cu)].saturating_add(k);
                self.take_tokens(s, j, k);
            }
        }
        self.advance_fight(s);
    }

    fn do_retreat(&self, s: &mut State, unit: &str, to: &str, tokens: u8) {
        let Some(f) = s.fight else { return };
        let Some(&u) = self.t.unit_ix.get(unit) else { return };
        let Some(i) = s.stacks.iter().position(|x| x.unit == u && x.cell == f.cell) else {
            return;
        };
        let Some(t) = self.map(s).cell(to) else { return };
        let p = s.stacks[i].player;
        {
            let x = &mut s.stacks[i];
            x.retreated = true;
            x.acted = true;
        }
        self.take_tokens(s, i, tokens);
        let j = self.add_tokens(s, p, u, t, tokens, &[]);
        let y = &mut s.stacks[j];
        y.retreated = true;
        y.fought = true;
        y.acted = true;
        self.advance_fight(s);
    }
}

impl Engine for OpenWars {
    const GAME: &'static str = GAME_ID;
    const TURN_RULE: &'static str = "OW-1";
    type State = State;
    type Action = Action;
    type Setup = Setup;

    fn new(game: &Game) -> Result<Self, String> {
        Ok(OpenWars { t: Tables::read(game)? })
    }

    fn start(&self, setup: &Setup) -> Result<State, Violation> {
        let Some(mi) = self.t.maps.iter().position(|m| m.id == setup.scenario) else {
            return Err(v(SETUP, format!("there is no scenario `{}`", setup.scenario))
                .expected(format!(
                    "one of {}",
                    self.t.maps.iter().map(|m| m.id.as_str()).collect::<Vec<_>>().join(", ")
                ))
                .found(setup.scenario.as_str()));
        };
        let m = &self.t.maps[mi];
        if setup.players.len() != 2 || m.players != 2 {
            return Err(v(SETUP, "the engine plays two-player scenarios")
                .expected(format!("{} players (the scenario's count, and 2)", m.players))
                .found(format!("{} players", setup.players.len())));
        }
        let mut faction = [0u8; 2];
        for (p, ps) in setup.players.iter().enumerate() {
            let Some(f) = self.t.factions.iter().position(|f| *f == ps.faction) else {
                return Err(v(SETUP, format!("{} picks an unknown faction", ps.name))
                    .expected(format!("one of {}", self.t.factions.join(", ")))
                    .found(ps.faction.as_str()));
            };
            faction[p] = f as u8;
        }
        if faction[0] == faction[1] {
            return Err(v(SETUP, "each player chooses a different faction")
                .expected("two factions")
                .found(format!("both play the {}", setup.players[0].faction)));
        }
        let mut s = State {
            names: setup.players.iter().map(|p| p.name.clone()).collect(),
            map: mi as u8,
            faction,
            turn: 1,
            phase: Phase::OrderRoll,
            step: 0,
            order: [0, 1],
            to_move: 0,
            done: false,
            gold: [m.gold; 2],
            mana: [m.mana; 2],
            stacks: Vec::new(),
            fallen: vec![0; self.t.units.len()],
            fight: None,
            resolved: 0,
            contested_started: false,
            streak: [0; 2],
            result: None,
        };
        for (p, ps) in setup.players.iter().enumerate() {
            let p8 = p as u8;
            let mut cost = 0u32;
            for (id, &k) in &ps.deck {
                let u = self.unit_ix(id, "OW-5")?;
                let ud = self.unit(u);
                if ud.faction != faction[p] {
                    return Err(v(
                        "OW-5",
                        format!("{}'s army holds {id}, a unit of another faction", ps.name),
                    )
                    .expected(format!("units of the {}", ps.faction))
                    .found(format!("{id} ({})", self.t.factions[usize::from(ud.faction)])));
                }
                let limit = if ud.unique { 1 } else { u32::from(ud.copies) };
                if k > limit {
                    return Err(v(
                        "OW-5",
                        format!(
                            "{}'s army has more {id} than {}",
                            ps.name,
                            if ud.unique {
                                "a unique unit allows"
                            } else {
                                "the kit holds"
                            }
                        ),
                    )
                    .expected(format!("at most {limit}"))
                    .found(format!("{k}")));
                }
                cost = cost.saturating_add(k.saturating_mul(u32::from(ud.cost)));
            }
            if cost > m.budget {
                return Err(v(
                    "OW-5",
                    format!("{}'s starting army costs more than the budget", ps.name),
                )
                .expected(format!("at most {} gold", m.budget))
                .found(format!("{cost} gold")));
            }
            let mut placed: BTreeMap<&str, u32> = BTreeMap::new();
            for (cell, units) in &ps.deploy {
                let Some(c) = m.cell(cell) else {
                    return Err(v(SETUP, format!("`{cell}` is not a cell of {}", m.id))
                        .expected("a start cell")
                        .found(cell.as_str()));
                };
                if m.starts.get(p).is_none_or(|st| st & bit(c) == 0) {
                    return Err(v(SETUP, format!("{} deploys outside their start cells", ps.name))
                        .expected(format!(
                            "one of {}",
                            m.ids(m.starts.get(p).copied().unwrap_or(0)).join(", ")
                        ))
                        .found(cell.as_str()));
                }
                for (id, &k) in units {
                    let u = self.unit_ix(id, SETUP)?;
                    let k8 = u8::try_from(k).unwrap_or(u8::MAX);
                    if k8 == 0 {
                        continue;
                    }
                    let cl = &m.cells[usize::from(c)];
                    if self.unit(u).ty == WATER && cl.ty != WATER && !cl.port {
                        return Err(v(
                            "OW-8",
                            format!("{id} is a water unit: it starts in water or in a port city"),
                        )
                        .expected("water or a city next to water")
                        .found(cell.as_str()));
                    }
                    self.stacking(&s, p8, u, c, k8)?;
                    let mv = self.unit(u).movement;
                    self.add_tokens(&mut s, p8, u, c, k8, &[mv; 4]);
                    *placed.entry(id.as_str()).or_default() += k;
                }
            }
            let deck: BTreeMap<&str, u32> = ps
                .deck
                .iter()
                .filter(|(_, k)| **k > 0)
                .map(|(id, k)| (id.as_str(), *k))
                .collect();
            if placed != deck {
                let show = |m: &BTreeMap<&str, u32>| {
                    m.iter()
                        .map(|(k, n)| format!("{k}: {n}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                return Err(v(SETUP, format!("{} must deploy exactly their army", ps.name))
                    .expected(format!("{{{}}}", show(&deck)))
                    .found(format!("{{{}}}", show(&placed))));
            }
        }
        self.begin_turn(&mut s);
        Ok(s)
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

    fn apply(&self, mut s: State, a: &Action) -> State {
        match a {
            Action::EndTurn => match s.phase {
                Phase::OrderRoll => self.begin_supply(&mut s, 0),
                Phase::Collection | Phase::Recruitment => {
                    if s.step == 0 {
                        self.begin_supply(&mut s, 1)
                    } else {
                        self.begin_movement(&mut s, 0)
                    }
                }
                Phase::Movement => {
                    if s.step == 0 {
                        self.begin_movement(&mut s, 1)
                    } else {
                        self.begin_combat(&mut s)
                    }
                }
                Phase::Combat => self.end_of_turn(&mut s),
                Phase::Over => {}
            },
            Action::OrderRoll { roll } => {
                let sums: Vec<u8> = roll.chunks(2).map(|p| p.iter().sum()).collect();
                let w = tie_winner(&sums).unwrap_or(0);
                s.order = [w, 1 - w];
                s.done = true;
            }
            Action::Collect { gold, mana, .. } => {
                let p = usize::from(s.to_move);
                s.gold[p] += gold;
                s.mana[p] += mana;
                s.done = true;
                s.phase = Phase::Recruitment;
            }
            Action::Recruit { unit, at, tokens } => {
                let (Some(&u), Some(c)) = (self.t.unit_ix.get(unit.as_str()), self.map(&s).cell(at)) else {
                    return s;
                };
                let p = s.to_move;
                s.gold[usize::from(p)] =
                    s.gold[usize::from(p)].saturating_sub(u32::from(self.unit(u).cost) * u32::from(*tokens));
                let mv = self.unit(u).movement;
                self.add_tokens(&mut s, p, u, c, *tokens, &[mv; 4]);
            }
            Action::Move { unit, from, to, tokens } => {
                let m = self.map(&s);
                let (Some(&u), Some(f), Some(t)) = (self.t.unit_ix.get(unit.as_str()), m.cell(from), m.cell(to)) else {
                    return s;
                };
                let p = s.to_move;
                let Some(i) = self.find(&s, p, u, f) else { return s };
                let cost = self.entry(&s, u, t);
                let engaged = self.tokens_of(&s, 1 - p, t) > 0 && self.unit(u).ty != FLYING;
                let mut mp = self.take_tokens(&mut s, i, *tokens);
                for x in &mut mp {
                    *x = if engaged { 0 } else { x.saturating_sub(cost) };
                }
                self.add_tokens(&mut s, p, u, t, *tokens, &mp);
            }
            Action::Fight { at } => {
                let Some(c) = self.map(&s).cell(at) else { return s };
                let ranged = self.ranged_pending(&s) & bit(c) != 0 && self.contested_pending(&s) & bit(c) == 0;
                if !ranged {
                    s.contested_started = true;
                    for x in s.stacks.iter_mut().filter(|x| x.cell == c) {
                        x.fought = true;
                        x.acted = false;
                    }
                }
                s.fight = Some(Fight {
                    cell: c,
                    ranged,
                    round: 1,
                    attacked: false,
                });
            }
            Action::Attack {
                unit, at, casualties, ..
            } => self.do_attack(&mut s, unit, at, casualties),
            Action::Retreat { unit, to, tokens, .. } => self.do_retreat(&mut s, unit, to, *tokens),
            Action::Hold { unit, .. } => {
                if let (Some(f), Some(&u)) = (s.fight, self.t.unit_ix.get(unit.as_str()))
                    && let Some(x) = s.stacks.iter_mut().find(|x| x.unit == u && x.cell == f.cell)
                {
                    if f.ranged {
                        x.fought = true;
                    } else {
                        x.acted = true;
                    }
                }
                self.advance_fight(&mut s);
            }
            Action::Cast { spell, caster, .. } => {
                if let (Some(&sp), Some(&cu)) =
                    (self.t.spell_ix.get(spell.as_str()), self.t.unit_ix.get(caster.as_str()))
                    && let Some(p) = self.owner(&s, cu)
                {
                    let cost = u32::from(self.t.spells[usize::from(sp)].cost);
                    s.mana[usize::from(p)] = s.mana[usize::from(p)].saturating_sub(cost);
                }
            }
        }
        s
    }

    fn legal_actions(&self, s: &State) -> Vec<Action> {
        let mut out: Vec<Action> = self
            .options(s)
            .into_iter()
            .filter(|a| self.check(s, a, false).is_ok())
            .collect();
        out.dedup();
        out
    }

    fn ending(&self, s: &State) -> Option<Ending> {
        s.result.map(|(w, reason)| Ending {
            winners: w.map(|w| vec![usize::from(w)]).unwrap_or_default(),
            reason: reason.to_string(),
            rule: VICTORY,
        })
    }

    fn observe(&self, s: &State) -> Json {
        let m = self.map(s);
        let per = |f: &dyn Fn(usize) -> Json| -> Json {
            let mut o = Map::new();
            for p in 0..2 {
                o.insert(s.names[p].clone(), f(p));
            }
            Json::Object(o)
        };
        let mut o = Map::new();
        o.insert("turn".into(), json!(s.turn));
        o.insert("phase".into(), json!(s.phase.name()));
        if s.phase != Phase::Over {
            o.insert("player".into(), json!(s.names[usize::from(s.to_move)]));
        }
        o.insert(
            "order".into(),
            json!([s.names[usize::from(s.order[0])], s.names[usize::from(s.order[1])]]),
        );
        o.insert("gold".into(), per(&|p| json!(s.gold[p])));
        o.insert("mana".into(), per(&|p| json!(s.mana[p])));
        o.insert("army".into(), per(&|p| json!(self.army_value(s, p as u8))));
        if let Some(f) = s.fight {
            o.insert(
                "fight".into(),
                json!({"at": m.cells[usize::from(f.cell)].id, "kind": if f.ranged {"ranged"} else {"contested"}, "round": f.round}),
            );
        }
        let mut idx: Vec<&Stack> = s.stacks.iter().collect();
        idx.sort_by_key(|x| (x.cell, x.player, x.unit));
        let mut units = Map::new();
        for x in idx {
            let cell = units
                .entry(m.cells[usize::from(x.cell)].id.clone())
                .or_insert_with(|| Json::Object(Map::new()));
            if let Json::Object(c) = cell {
                c.insert(self.unit(x.unit).id.clone(), json!(x.n));
            }
        }
        o.insert("units".into(), Json::Object(units));
        let fallen: Map<String, Json> = s
            .fallen
            .iter()
            .enumerate()
            .filter(|(_, n)| **n > 0)
            .map(|(u, n)| (self.t.units[u].id.clone(), json!(n)))
            .collect();
        if !fallen.is_empty() {
            o.insert("fallen".into(), Json::Object(fallen));
        }
        if let Some((w, reason)) = s.result {
            o.insert(
                "winner".into(),
                json!(w.map_or("none".to_string(), |w| s.names[usize::from(w)].clone())),
            );
            o.insert("reason".into(), json!(reason));
        }
        Json::Object(o)
    }

    fn choice(&self, a: &Action) -> Action {
        let mut c = a.clone();
        match &mut c {
            Action::OrderRoll { roll } => roll.clear(),
            Action::Collect { from, .. } => from.sort(),
            Action::Attack {
                tie, roll, casualties, ..
            } => {
                tie.clear();
                roll.clear();
                casualties.clear();
            }
            Action::Retreat { tie, .. } | Action::Hold { tie, .. } => tie.clear(),
            Action::Cast { effect, .. } => *effect = None,
            _ => {}
        }
        c
    }

    fn randomize(&self, s: &State, a: &mut Action, rng: &mut fastrand::Rng) {
        let d6 = |rng: &mut fastrand::Rng| rng.u8(1..=6);
        // A tie roll-off that `winner` wins, for stacks tied across players.
        let tie_for = |s: &State, unit: &str, rng: &mut fastrand::Rng| -> Vec<u8> {
            let Some(f) = s.fight else { return Vec::new() };
            let Some(&u) = self.t.unit_ix.get(unit) else {
                return Vec::new();
            };
            let Some(x) = s.stacks.iter().find(|x| x.unit == u && x.cell == f.cell) else {
                return Vec::new();
            };
            if self.top(s, &f).1 != 3 {
                return Vec::new();
            }
            let mut out = Vec::new();
            loop {
                let (a, b) = (d6(rng), d6(rng));
                if a == b {
                    out.extend([a, b]);
                    continue;
                }
                let (lo, hi) = (a.min(b), a.max(b));
                out.extend(if x.player == 0 { [hi, lo] } else { [lo, hi] });
                return out;
            }
        };
        match a {
            Action::OrderRoll { roll } => {
                roll.clear();
                loop {
                    let r: [u8; 4] = [d6(rng), d6(rng), d6(rng), d6(rng)];
                    roll.extend(r);
                    if r[0] + r[1] != r[2] + r[3] {
                        break;
                    }
                }
            }
            Action::Attack {
                unit,
                at,
                tie,
                roll,
                casualties,
            } => {
                *tie = tie_for(s, unit, rng);
                roll.clear();
                casualties.clear();
                let Some(f) = s.fight else { return };
                let Some(&u) = self.t.unit_ix.get(unit.as_str()) else {
                    return;
                };
                let Some(x) = s.stacks.iter().find(|x| x.unit == u && x.cell == f.cell) else {
                    return;
                };
                roll.extend((0..x.n).map(|_| d6(rng)));
                let hits = roll.iter().filter(|&&d| d <= self.unit(u).attack).count();
                let t = if f.ranged {
                    self.map(s).cell(at).unwrap_or(f.cell)
                } else {
                    f.cell
                };
                // Defender tokens, cheapest first, equal costs shuffled.
                let mut pool: Vec<(u8, u32, u16)> = Vec::new();
                for y in s.stacks.iter().filter(|y| y.player != x.player && y.cell == t) {
                    for _ in 0..y.n {
                        pool.push((self.unit(y.unit).cost, rng.u32(..), y.unit));
                    }
                }
                pool.sort_unstable();
                for &(_, _, cu) in pool.iter().take(hits) {
                    *casualties.entry(self.unit(cu).id.clone()).or_default() += 1;
                }
            }
            Action::Retreat { unit, tie, .. } | Action::Hold { unit, tie } => {
                *tie = tie_for(s, unit, rng);
            }
            _ => {}
        }
    }

    fn random_setup(&self, rng: &mut fastrand::Rng) -> Setup {
        let mi = rng.usize(..self.t.maps.len());
        let m = &self.t.maps[mi];
        let f0 = rng.usize(..self.t.factions.len());
        let mut f1 = rng.usize(..self.t.factions.len() - 1);
        if f1 >= f0 {
            f1 += 1;
        }
        let mut players = Vec::new();
        for (p, (name, f)) in [("Ana", f0), ("Ben", f1)].into_iter().enumerate() {
            let mine: Vec<u16> = (0..self.t.units.len() as u16)
                .filter(|&u| usize::from(self.unit(u).faction) == f && self.unit(u).ty != WATER)
                .collect();
            let cells: Vec<u8> = (0..m.cells.len() as u8)
                .filter(|&c| m.starts.get(p).is_some_and(|st| st & bit(c) != 0))
                .collect();
            let mut budget = m.budget;
            let mut deck: BTreeMap<String, u32> = BTreeMap::new();
            let mut deploy: BTreeMap<String, BTreeMap<String, u32>> = BTreeMap::new();
            let mut magic_at: Vec<u8> = Vec::new();
            for _ in 0..30 {
                if mine.is_empty() || cells.is_empty() {
                    break;
                }
                let u = mine[rng.usize(..mine.len())];
                let ud = self.unit(u);
                let c = cells[rng.usize(..cells.len())];
                let cid = m.cells[usize::from(c)].id.clone();
                let have_total = deck.get(&ud.id).copied().unwrap_or(0);
                let here = deploy.get(&cid).and_then(|d| d.get(&ud.id)).copied().unwrap_or(0);
                if u32::from(ud.cost) > budget
                    || have_total >= u32::from(ud.copies)
                    || (ud.unique && have_total > 0)
                    || here >= u32::from(ud.limit())
                    || (ud.ty == MAGIC && magic_at.contains(&c) && here == 0)
                {
                    continue;
                }
                if ud.ty == MAGIC {
                    magic_at.push(c);
                }
                budget -= u32::from(ud.cost);
                *deck.entry(ud.id.clone()).or_default() += 1;
                *deploy.entry(cid).or_default().entry(ud.id.clone()).or_default() += 1;
            }
            players.push(PlayerSetup {
                name: name.into(),
                faction: self.t.factions[f].clone(),
                deck,
                deploy,
            });
        }
        Setup {
            scenario: m.id.clone(),
            players,
        }
    }

    fn candidates(&self, s: &State, rng: &mut fastrand::Rng) -> Vec<Action> {
        let mut out = self.options(s);
        if s.phase == Phase::Over {
            return out;
        }
        let m = self.map(s);
        let cell = |rng: &mut fastrand::Rng| m.cells[rng.usize(..m.cells.len())].id.clone();
        let p = s.to_move;
        let mine: Vec<&tables::Unit> = self
            .t
            .units
            .iter()
            .filter(|u| u.faction == s.faction[usize::from(p)])
            .collect();
        let any_unit = |rng: &mut fastrand::Rng| self.t.units[rng.usize(..self.t.units.len())].id.clone();
        // Near misses: wrong phase, wrong amounts, far cells, other units.
        if let Some(Action::Collect { from, gold, mana }) = self.collect_for(s) {
            out.push(Action::Collect {
                from: from.clone(),
                gold: gold + 1,
                mana,
            });
            let mut fewer = from.clone();
            fewer.pop();
            out.push(Action::Collect {
                from: fewer,
                gold,
                mana,
            });
            let mut more = from;
            more.push(cell(rng));
            more.sort();
            out.push(Action::Collect { from: more, gold, mana });
        }
        out.push(Action::OrderRoll { roll: Vec::new() });
        if !mine.is_empty() {
            let u = mine[rng.usize(..mine.len())];
            out.push(Action::Recruit {
                unit: u.id.clone(),
                at: cell(rng),
                tokens: rng.u8(1..=5),
            });
        }
        out.push(Action::Recruit {
            unit: any_unit(rng),
            at: cell(rng),
            tokens: 1,
        });
        if !s.stacks.is_empty() {
            let x = &s.stacks[rng.usize(..s.stacks.len())];
            let u = self.unit(x.unit).id.clone();
            let from = m.cells[usize::from(x.cell)].id.clone();
            out.push(Action::Move {
                unit: u.clone(),
                from: from.clone(),
                to: cell(rng),
                tokens: rng.u8(1..=x.n + 1),
            });
            out.push(Action::Attack {
                unit: u.clone(),
                at: cell(rng),
                tie: Vec::new(),
                roll: Vec::new(),
                casualties: BTreeMap::new(),
            });
            out.push(Action::Retreat {
                unit: u.clone(),
                to: cell(rng),
                tokens: rng.u8(1..=x.n + 1),
                tie: Vec::new(),
            });
            out.push(Action::Hold {
                unit: u,
                tie: Vec::new(),
            });
            if let Some(sp) = self.t.spells.get(rng.usize(..self.t.spells.len().max(1))) {
                out.push(Action::Cast {
                    spell: sp.id.clone(),
                    caster: self.unit(x.unit).id.clone(),
                    from,
                    at: cell(rng),
                    effect: None,
                });
            }
        }
        out.push(Action::Fight { at: cell(rng) });
        out.push(Action::EndTurn);
        out
    }
}

impl OpenWars {
    /// The collection `to_move` is due now, if collecting is the next step.
    fn collect_for(&self, s: &State) -> Option<Action> {
        if s.phase != Phase::Collection {
            return None;
        }
        let m = self.map(s);
        let ctrl = self.controlled(s, s.to_move);
        let (mut g, mut n) = (0, 0);
        let mut from = Vec::new();
        for (i, c) in m.cells.iter().enumerate() {
            if ctrl & (1 << i) != 0 {
                g += u32::from(c.gold);
                n += u32::from(c.mana);
                from.push(c.id.clone());
            }
        }
        from.sort();
        Some(Action::Collect { from, gold: g, mana: n })
    }

    /// Every action that could be legal now, in canonical form (a superset
    /// that `legal_actions` filters through the same checks as `validate`).
    fn options(&self, s: &State) -> Vec<Action> {
        let mut out = Vec::new();
        let m = self.map(s);
        let p = s.to_move;
        let cid = |c: u8| m.cells[usize::from(c)].id.clone();
        match s.phase {
            Phase::Over => return out,
            Phase::OrderRoll => {
                out.push(Action::OrderRoll { roll: Vec::new() });
                out.push(Action::EndTurn);
                return out;
            }
            Phase::Collection => out.extend(self.collect_for(s)),
            Phase::Recruitment => {
                let gold = s.gold[usize::from(p)];
                let ctrl = self.controlled(s, p);
                for (ui, u) in self.t.units.iter().enumerate() {
                    if u.faction != s.faction[usize::from(p)] || u32::from(u.cost) > gold {
                        continue;
                    }
                    for (c, cell) in m.cells.iter().enumerate() {
                        if cell.ty != CITY || ctrl & (1 << c) == 0 {
                            continue;
                        }
                        let here = self.find(s, p, ui as u16, c as u8).map_or(0, |i| s.stacks[i].n);
                        for k in 1..=u.limit().saturating_sub(here) {
                            out.push(Action::Recruit {
                                unit: u.id.clone(),
                                at: cell.id.clone(),
                                tokens: k,
                            });
                        }
                    }
                }
            }
            Phase::Movement => {
                let occ = self.occupancy(s);
                for x in s.stacks.iter().filter(|x| x.player == p && x.mp[0] > 0) {
                    let engaged = occ[usize::from(1 - p)] & bit(x.cell) != 0;
                    if engaged && self.unit(x.unit).ty != FLYING {
                        continue;
                    }
                    for &t in &m.cells[usize::from(x.cell)].adj {
                        let cost = self.entry(s, x.unit, t);
                        for k in (1..=x.n).take_while(|&k| x.mp[usize::from(k - 1)] >= cost) {
                            out.push(Action::Move {
                                unit: self.unit(x.unit).id.clone(),
                                from: cid(x.cell),
                                to: cid(t),
                                tokens: k,
                            });
                        }
                    }
                }
            }
            Phase::Combat => match s.fight {
                None => {
                    let any = self.ranged_pending(s) | self.contested_pending(s);
                    for c in 0..m.cells.len() as u8 {
                        if any & bit(c) != 0 {
                            out.push(Action::Fight { at: cid(c) });
                        }
                    }
                }
                Some(f) => {
                    for x in s.stacks.iter().filter(|x| self.is_participant(&f, x)) {
                        let u = self.unit(x.unit);
                        if f.ranged {
                            let row = &m.dist[usize::from(f.cell)];
                            for t in 0..m.cells.len() as u8 {
                                if t != f.cell && row[usize::from(t)] <= u.range {
                                    out.push(Action::Attack {
                                        unit: u.id.clone(),
                                        at: cid(t),
                                        tie: Vec::new(),
                                        roll: Vec::new(),
                                        casualties: BTreeMap::new(),
                                    });
                                }
                            }
                        } else {
                            out.push(Action::Attack {
                                unit: u.id.clone(),
                                at: cid(f.cell),
                                tie: Vec::new(),
                                roll: Vec::new(),
                                casualties: BTreeMap::new(),
                            });
                            for &t in &m.cells[usize::from(f.cell)].adj {
                                for k in 1..=x.n {
                                    out.push(Action::Retreat {
                                        unit: u.id.clone(),
                                        to: cid(t),
                                        tokens: k,
                                        tie: Vec::new(),
                                    });
                                }
                            }
                        }
                        out.push(Action::Hold {
                            unit: u.id.clone(),
                            tie: Vec::new(),
                        });
                    }
                }
            },
        }
        out.push(Action::EndTurn);
        // Spells: any magic unit of either player with the mana for them,
        // the player to move's first.
        let casters = s
            .stacks
            .iter()
            .filter(|x| x.player == p)
            .chain(s.stacks.iter().filter(|x| x.player != p));
        for x in casters {
            let u = self.unit(x.unit);
            if u.ty != MAGIC {
                continue;
            }
            let mana = s.mana[usize::from(x.player)];
            let row = &m.dist[usize::from(x.cell)];
            for sp in &self.t.spells {
                if sp.faction.is_some_and(|f| f != u.faction)
                    || u32::from(sp.cost) > mana
                    || (sp.combat && s.phase != Phase::Combat)
                {
                    continue;
                }
                for t in 0..m.cells.len() as u8 {
                    if row[usize::from(t)] <= u.range {
                        out.push(Action::Cast {
                            spell: sp.id.clone(),
                            caster: u.id.clone(),
                            from: cid(x.cell),
                            at: cid(t),
                            effect: None,
                        });
                    }
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests;
