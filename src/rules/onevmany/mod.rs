//! ONE v MANY (`onevmany`): a lone hero against a horde on an 8×8 grid, over
//! up to 7 rounds of up to 10 turns. The log format and how each rule id
//! is enforced are in docs/log-format/onevmany.md.
//!
//! A game turn is two turn blocks: ONE's (the round start when the round is
//! new, then ONE's actions) and MANY's (every unit activated, or the upgrade
//! phase after a cleared round). Card texts the engine cannot read are
//! recorded as [`Effect`]s of `interact`, `equip` and `trigger` actions; the
//! engine checks that the card is in force and pays its cost.

mod action;
mod tables;
#[cfg(test)]
mod tests;

use serde_json::{Map, Value as Json, json};

pub use action::{Action, Effect, PlayerSetup, Setup};
use tables::{MAX_SQUARES, NONE, Tables, User};

use super::{Ending, Engine, Violation};
use crate::model::Game;

/// Terrain on a square.
const EMPTY: u8 = 0;
const OBSTACLE: u8 = 1;
const WALL: u8 = 2;
/// Occupant of a square: nobody, ONE, or MANY token `k` as `k + 2`.
const FREE: u8 = 0;
const ONE: u8 = 1;

/// Where the game is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Round start: the scenario is to be revealed.
    Reveal,
    /// Round start: MANY deploys its starting tokens.
    Deploy,
    /// Round start: ONE places its token.
    Place,
    /// ONE's actions.
    One,
    /// The board was cleared during ONE's actions: the turn can only end.
    Cleared,
    /// MANY's actions.
    Many,
    /// Upgrade phase steps.
    Draw,
    Pair,
    Pick,
    /// Upgrade phase done: MANY's turn can only end.
    Ready,
    Over,
}

impl Phase {
    fn name(self) -> &'static str {
        match self {
            Phase::Reveal => "reveal",
            Phase::Deploy => "deploy",
            Phase::Place => "place",
            Phase::One => "one",
            Phase::Cleared => "cleared",
            Phase::Many => "many",
            Phase::Draw => "draw-upgrades",
            Phase::Pair => "pair",
            Phase::Pick => "pick",
            Phase::Ready => "upgraded",
            Phase::Over => "over",
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub struct Token {
    ty: u8,
    /// `NONE` once removed.
    sq: u8,
    life: i8,
    activated: bool,
    /// Came from the reserve (returns to it when removed).
    reserve: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reason {
    HordeDefeated,
    HeroFallen,
    OutOfTime,
}

#[derive(Clone, Debug)]
pub struct State {
    one_player: u8,
    to_move: u8,
    character: u8,
    boss: u8,
    round: u8,
    turn: u8,
    phase: Phase,
    scenario: u8,
    used_scenarios: u64,
    terrain: [u8; MAX_SQUARES],
    occ: [u8; MAX_SQUARES],
    tokens: Vec<Token>,
    alive: u8,
    /// Starting tokens still to deploy this round, per unit type.
    pool: [u8; 16],
    deploy_left: u8,
    one_sq: u8,
    one_life: i8,
    one_max: i8,
    /// ONE's stats with its upgrades.
    one_ap: i8,
    one_range: i8,
    one_dmg: i8,
    one_obstacle_extra: i8,
    /// MANY's upgrade bonuses.
    many_life: i8,
    many_melee: i8,
    many_ranged: i8,
    /// The acting token's spending and effect bonuses (ONE's phase, or the
    /// active MANY unit's activation).
    spent: i8,
    bonus_ap: i8,
    bonus_range: i8,
    bonus_dmg: i8,
    climb: bool,
    active: u8,
    one_owned: u64,
    many_owned: u64,
    one_seen: u64,
    many_seen: u64,
    drawn_one: [u8; 2],
    drawn_many: [u8; 2],
    paired: (u8, u8),
    over: Option<Reason>,
}

/// The ONE v MANY rules engine.
pub struct OneVMany {
    t: Tables,
}

pub const GAME_ID: &str = "onevmany";

fn v(rule: &'static str, msg: impl Into<String>) -> Violation {
    Violation::new(rule, msg)
}

fn bit(i: u8) -> u64 {
    1u64 << i
}

/// A card a `trigger` or `reinforce` cites.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    Character,
    Unit(u8),
    Scenario,
    Boss,
    OneUpgrade(u8),
    ManyUpgrade(u8),
}

impl Source {
    /// The rule an effect of this source is checked under.
    fn rule(self) -> &'static str {
        match self {
            Source::Boss => "OVM-12",
            Source::OneUpgrade(_) | Source::ManyUpgrade(_) => "OVM-11",
            _ => "OVM-7",
        }
    }
}

impl OneVMany {
    fn sq(&self, id: &str, rule: &'static str, what: &str) -> Result<u8, Violation> {
        self.t.square(id).ok_or_else(|| {
            v(rule, format!("{what} `{id}` is not a square of the board"))
                .expected("a square id from A1 to H8")
                .found(id)
        })
    }

    fn many_max_life(&self, s: &State, ty: u8) -> i8 {
        (self.t.units[ty as usize].life + s.many_life).max(1)
    }

    fn many_damage(&self, s: &State, ty: u8) -> i8 {
        let u = &self.t.units[ty as usize];
        let melee = if u.range == 1 { s.many_melee } else { 0 };
        u.damage.saturating_add(melee).saturating_add(s.bonus_dmg).max(0)
    }

    fn many_range(&self, s: &State, ty: u8) -> i8 {
        let u = &self.t.units[ty as usize];
        let ranged = if u.range >= 2 { s.many_ranged } else { 0 };
        u.range.saturating_add(ranged).saturating_add(s.bonus_range)
    }

    fn many_actions(&self, s: &State, ty: u8) -> i8 {
        self.t.units[ty as usize].actions.saturating_add(s.bonus_ap)
    }

    fn unit_name(&self, ty: u8) -> &str {
        &self.t.units[ty as usize].id
    }

    fn token_at(&self, s: &State, sq: u8) -> Option<usize> {
        let o = s.occ[sq as usize];
        (o >= 2).then(|| (o - 2) as usize)
    }

    fn free_spawn(&self, s: &State) -> u8 {
        let sc = &self.t.scenarios[s.scenario as usize];
        sc.spawn
            .iter()
            .filter(|&&q| s.occ[q as usize] == FREE && s.terrain[q as usize] == EMPTY)
            .count() as u8
    }

    fn reserve_left(&self, s: &State, ty: u8) -> u8 {
        let boss = &self.t.bosses[s.boss as usize];
        if !boss.reserve[ty as usize] {
            return 0;
        }
        let used = s
            .tokens
            .iter()
            .filter(|k| k.reserve && k.sq != NONE && k.ty == ty)
            .count() as u8;
        self.t.units[ty as usize]
            .copies
            .saturating_sub(boss.start[ty as usize])
            .saturating_sub(used)
    }

    fn source(&self, s: &State, id: &str) -> Result<Source, Violation> {
        let ch = &self.t.characters[s.character as usize];
        if ch.id == id {
            return if ch.ability {
                Ok(Source::Character)
            } else {
                Err(v("OVM-1", format!("ONE's character `{id}` has no ability to use"))
                    .expected("a card whose text is in force")
                    .found(format!("{id}, a character without an ability")))
            };
        }
        if self.t.character(id).is_some() {
            return Err(v("OVM-1", format!("`{id}` is not ONE's character"))
                .expected(format!("ONE's character {}", ch.id))
                .found(id));
        }
        if let Some(u) = self.t.unit(id) {
            let on_board = s.tokens.iter().any(|k| k.sq != NONE && k.ty == u);
            return if self.t.units[u as usize].ability && on_board {
                Ok(Source::Unit(u))
            } else {
                Err(v("OVM-8", format!("the `{id}` unit ability is not in play"))
                    .expected("a unit type with an ability and a token on the board")
                    .found(if on_board {
                        format!("{id}, which has no ability")
                    } else {
                        format!("no {id} token on the board")
                    }))
            };
        }
        if let Some(sc) = self.t.scenario(id) {
            return if sc == s.scenario && self.t.scenarios[sc as usize].ability {
                Ok(Source::Scenario)
            } else {
                Err(v("OVM-2", format!("the scenario `{id}` has no ability in force"))
                    .expected(if s.scenario == NONE {
                        "a revealed scenario with an ability".to_string()
                    } else {
                        format!("this round's scenario {}", self.t.scenarios[s.scenario as usize].id)
                    })
                    .found(id))
            };
        }
        if let Some(b) = self.t.boss(id) {
            if b != s.boss {
                return Err(v("OVM-12", format!("`{id}` is not MANY's boss"))
                    .expected(format!("MANY's boss {}", self.t.bosses[s.boss as usize].id))
                    .found(id));
            }
            return if s.round == self.t.boss_round {
                Ok(Source::Boss)
            } else {
                Err(v(
                    "OVM-12",
                    format!("the boss showdown of {id} is only in force in the boss round"),
                )
                .expected(format!("round {}", self.t.boss_round))
                .found(format!("round {}", s.round)))
            };
        }
        if let Some(u) = self.t.one_upgrade(id) {
            return if s.one_owned & bit(u) != 0 {
                Ok(Source::OneUpgrade(u))
            } else {
                Err(v("OVM-11", format!("ONE has not gained the upgrade `{id}`"))
                    .expected(format!("one of ONE's upgrades: {}", self.owned_list(s, true)))
                    .found(id))
            };
        }
        if let Some(u) = self.t.many_upgrade(id) {
            return if s.many_owned & bit(u) != 0 {
                Ok(Source::ManyUpgrade(u))
            } else {
                Err(v("OVM-11", format!("MANY has not gained the upgrade `{id}`"))
                    .expected(format!("one of MANY's upgrades: {}", self.owned_list(s, false)))
                    .found(id))
            };
        }
        Err(v("OVM-7", format!("`{id}` is not a card of the game"))
            .expected("a character, unit, scenario, boss or upgrade id")
            .found(id))
    }

    fn owned_list(&self, s: &State, one: bool) -> String {
        let (mask, list) = if one {
            (s.one_owned, &self.t.one_upgrades)
        } else {
            (s.many_owned, &self.t.many_upgrades)
        };
        let v: Vec<&str> = (0..list.len())
            .filter(|&i| mask & bit(i as u8) != 0)
            .map(|i| list[i].id.as_str())
            .collect();
        if v.is_empty() { "none yet".into() } else { v.join(", ") }
    }

    /// Sources whose texts may be triggered now.
    fn sources_in_force(&self, s: &State) -> Vec<String> {
        let mut out = Vec::new();
        let ch = &self.t.characters[s.character as usize];
        if ch.ability {
            out.push(ch.id.clone());
        }
        for (i, u) in self.t.units.iter().enumerate() {
            if u.ability && s.tokens.iter().any(|k| k.sq != NONE && k.ty == i as u8) {
                out.push(u.id.clone());
            }
        }
        if s.scenario != NONE && self.t.scenarios[s.scenario as usize].ability {
            out.push(self.t.scenarios[s.scenario as usize].id.clone());
        }
        if s.round == self.t.boss_round {
            out.push(self.t.bosses[s.boss as usize].id.clone());
        }
        for (i, u) in self.t.one_upgrades.iter().enumerate() {
            if s.one_owned & bit(i as u8) != 0 {
                out.push(u.id.clone());
            }
        }
        for (i, u) in self.t.many_upgrades.iter().enumerate() {
            if s.many_owned & bit(i as u8) != 0 {
                out.push(u.id.clone());
            }
        }
        out
    }

    /// Sources that may bring reserve tokens in: MANY's upgrades and, in the
    /// boss round, the boss showdown.
    fn reinforce_sources(&self, s: &State) -> Vec<String> {
        let mut out = Vec::new();
        if s.round == self.t.boss_round {
            out.push(self.t.bosses[s.boss as usize].id.clone());
        }
        for (i, u) in self.t.many_upgrades.iter().enumerate() {
            if s.many_owned & bit(i as u8) != 0 {
                out.push(u.id.clone());
            }
        }
        out
    }

    /// The square of the acting token: ONE in its phase, the active unit in
    /// MANY's.
    fn actor_square(&self, s: &State) -> u8 {
        match s.phase {
            Phase::One => s.one_sq,
            Phase::Many if s.active != NONE => s.tokens[s.active as usize].sq,
            _ => NONE,
        }
    }

    fn check_effect(&self, s: &State, e: &Effect, rule: &'static str) -> Result<(), Violation> {
        for q in e.life.keys() {
            let sq = self.sq(q, rule, "an effect's life change on")?;
            if s.occ[sq as usize] == FREE {
                return Err(v(
                    rule,
                    format!("the effect changes the life of a token on {q}, but {q} is empty"),
                )
                .expected("a square with ONE or a MANY token")
                .found(format!("{q}, empty")));
            }
        }
        for q in &e.remove {
            let sq = self.sq(q, rule, "an effect removes terrain from")?;
            if s.terrain[sq as usize] == EMPTY {
                return Err(v(rule, format!("the effect removes terrain from {q}, which has none"))
                    .expected("a square with an obstacle or a wall")
                    .found(format!("{q}, no terrain")));
            }
        }
        for q in e.obstacle.iter().chain(&e.wall) {
            let sq = self.sq(q, rule, "an effect puts terrain on")?;
            if s.terrain[sq as usize] != EMPTY || s.occ[sq as usize] != FREE {
                return Err(v(rule, format!("the effect puts terrain on {q}, which is not empty"))
                    .expected("an empty square")
                    .found(format!("{q}, {}", self.describe(s, sq))));
            }
        }
        if e.to.is_some() || e.swap.is_some() {
            let me = self.actor_square(s);
            if me == NONE {
                return Err(v(rule, "the effect moves the acting token, but no token is acting")
                    .expected("ONE in its phase or an activated MANY unit")
                    .found(format!("the {} phase", s.phase.name())));
            }
            if let Some(q) = &e.to {
                let sq = self.sq(q, rule, "an effect moves the token to")?;
                if s.occ[sq as usize] != FREE || s.terrain[sq as usize] == WALL {
                    return Err(v(
                        rule,
                        format!("the effect moves the acting token to {q}, which is taken"),
                    )
                    .expected("a square without tokens or walls")
                    .found(format!("{q}, {}", self.describe(s, sq))));
                }
            }
            if let Some(q) = &e.swap {
                let sq = self.sq(q, rule, "an effect swaps with")?;
                if s.occ[sq as usize] == FREE || sq == me {
                    return Err(v(
                        rule,
                        format!("the effect swaps the acting token with {q}, which has no other token"),
                    )
                    .expected("a square with another token")
                    .found(format!("{q}, {}", self.describe(s, sq))));
                }
            }
        }
        Ok(())
    }

    fn describe(&self, s: &State, sq: u8) -> String {
        let mut what = match s.occ[sq as usize] {
            FREE => String::new(),
            ONE => "ONE".into(),
            o => format!("a {}", self.unit_name(s.tokens[(o - 2) as usize].ty)),
        };
        let terrain = match s.terrain[sq as usize] {
            OBSTACLE => "an obstacle",
            WALL => "a wall",
            _ => "",
        };
        if !terrain.is_empty() {
            if !what.is_empty() {
                what.push_str(" on ");
            }
            what.push_str(terrain);
        }
        if what.is_empty() { "empty".into() } else { what }
    }

    fn apply_effect(&self, s: &mut State, e: &Effect) {
        s.bonus_ap = s.bonus_ap.saturating_add(e.actions);
        s.bonus_range = s.bonus_range.saturating_add(e.range);
        s.bonus_dmg = s.bonus_dmg.saturating_add(e.damage);
        s.climb |= e.climb;
        for q in &e.remove {
            if let Some(sq) = self.t.square(q) {
                s.terrain[sq as usize] = EMPTY;
            }
        }
        for q in &e.obstacle {
            if let Some(sq) = self.t.square(q) {
                s.terrain[sq as usize] = OBSTACLE;
            }
        }
        for q in &e.wall {
            if let Some(sq) = self.t.square(q) {
                s.terrain[sq as usize] = WALL;
            }
        }
        let me = self.actor_square(s);
        if let Some(to) = e.to.as_deref().and_then(|q| self.t.square(q))
            && me != NONE
        {
            self.relocate(s, me, to);
        }
        if let Some(other) = e.swap.as_deref().and_then(|q| self.t.square(q))
            && me != NONE
        {
            let (a, b) = (s.occ[me as usize], s.occ[other as usize]);
            s.occ[me as usize] = b;
            s.occ[other as usize] = a;
            for (sq, o) in [(me, b), (other, a)] {
                match o {
                    FREE => {}
                    ONE => s.one_sq = sq,
                    k => s.tokens[(k - 2) as usize].sq = sq,
                }
            }
        }
        for (q, d) in &e.life {
            if let Some(sq) = self.t.square(q) {
                self.change_life(s, sq, *d);
            }
        }
    }

    fn relocate(&self, s: &mut State, from: u8, to: u8) {
        let o = s.occ[from as usize];
        s.occ[from as usize] = FREE;
        s.occ[to as usize] = o;
        match o {
            ONE => s.one_sq = to,
            FREE => {}
            k => s.tokens[(k - 2) as usize].sq = to,
        }
    }

    /// Life change of the token on `sq`; ONE at 0 loses, a MANY token at 0
    /// leaves the board.
    fn change_life(&self, s: &mut State, sq: u8, d: i8) {
        match s.occ[sq as usize] {
            FREE => {}
            ONE => {
                s.one_life = (s.one_life as i16 + d as i16).clamp(0, s.one_max as i16) as i8;
                if s.one_life == 0 {
                    s.over = Some(Reason::HeroFallen);
                    s.phase = Phase::Over;
                }
            }
            o => {
                let k = (o - 2) as usize;
                let max = self.many_max_life(s, s.tokens[k].ty);
                let life = (s.tokens[k].life as i16 + d as i16).min(max as i16);
                if life <= 0 {
                    s.tokens[k].life = 0;
                    s.tokens[k].sq = NONE;
                    s.occ[sq as usize] = FREE;
                    s.alive -= 1;
                    if s.active as usize == k {
                        s.active = NONE;
                    }
                } else {
                    s.tokens[k].life = life as i8;
                }
            }
        }
    }

    /// After anything that can remove tokens: an empty board ends the phase
    /// (and the game in the boss round).
    fn after_losses(&self, s: &mut State) {
        if s.over.is_some() || s.alive > 0 || !matches!(s.phase, Phase::One | Phase::Many) {
            return;
        }
        if s.round >= self.t.boss_round {
            s.over = Some(Reason::HordeDefeated);
            s.phase = Phase::Over;
        } else if s.phase == Phase::One {
            s.phase = Phase::Cleared;
        } else {
            s.phase = Phase::Draw;
        }
    }

    fn reset_actor(s: &mut State) {
        s.spent = 0;
        s.bonus_ap = 0;
        s.bonus_range = 0;
        s.bonus_dmg = 0;
        s.climb = false;
    }

    fn one_obstacle_cost(&self, s: &State) -> i8 {
        if s.climb { 0 } else { (1 + s.one_obstacle_extra).max(0) }
    }

    fn one_left(&self, s: &State) -> i8 {
        s.one_ap.saturating_add(s.bonus_ap).saturating_sub(s.spent)
    }

    /// The MANY unit being activated, when it has an action left for the
    /// `act` (`a move`) the log records (`to C3`).
    fn acting_unit(&self, s: &State, verb: &str, act: &str, detail: &str) -> Result<Token, Violation> {
        if s.active == NONE {
            return Err(v("OVM-8", "no MANY unit is being activated")
                .expected(format!("`activate` a unit before it {verb}"))
                .found(format!("{act} {detail}")));
        }
        let k = s.tokens[s.active as usize];
        if self.unit_left(s) < 1 {
            return Err(v(
                "OVM-8",
                format!(
                    "the {} on {} has no action left",
                    self.unit_name(k.ty),
                    self.t.name(k.sq)
                ),
            )
            .expected(format!("at most {} actions", self.many_actions(s, k.ty)))
            .found(format!("{act} after {} actions", s.spent)));
        }
        Ok(k)
    }

    fn unit_left(&self, s: &State) -> i8 {
        if s.active == NONE {
            return 0;
        }
        self.many_actions(s, s.tokens[s.active as usize].ty)
            .saturating_sub(s.spent)
    }

    fn wrong_phase(&self, s: &State, what: &str) -> Violation {
        let (rule, msg, expected): (&'static str, String, String) = match s.phase {
            Phase::Reveal => (
                "OVM-2",
                format!("{what} comes before the round's scenario is revealed"),
                "`reveal`: ONE turns over the next scenario".into(),
            ),
            Phase::Deploy => (
                "OVM-2",
                format!("{what} comes before MANY has deployed its starting tokens"),
                format!("`deploy` of the {} token(s) still to set on red squares", s.deploy_left),
            ),
            Phase::Place => (
                "OVM-2",
                format!("{what} comes before ONE has placed its token"),
                "`place`: ONE on a free blue square".into(),
            ),
            Phase::One => (
                "OVM-3",
                format!("{what} is not possible during ONE's actions"),
                "an action of ONE, or the end of ONE's turn".into(),
            ),
            Phase::Cleared => (
                "OVM-10",
                format!(
                    "{what} comes after the board was cleared: the round is over and the rest of the turn is skipped"
                ),
                "the end of the turn, then the upgrade phase".into(),
            ),
            Phase::Many => (
                "OVM-3",
                format!("{what} is not possible during MANY's activations"),
                "a MANY unit's activation or action, or the end of MANY's turn".into(),
            ),
            Phase::Draw | Phase::Pair | Phase::Pick => (
                "OVM-11",
                format!("{what} is not possible during the upgrade phase"),
                format!(
                    "the upgrade phase's next step, `{}`",
                    match s.phase {
                        Phase::Draw => "draw-upgrades",
                        Phase::Pair => "pair",
                        _ => "pick",
                    }
                ),
            ),
            Phase::Ready => (
                "OVM-11",
                format!("{what} comes after the upgrade phase"),
                "the end of MANY's turn (the next round starts with ONE's)".into(),
            ),
            Phase::Over => ("OVM-13", "the game is over".into(), "nothing".into()),
        };
        v(rule, msg).expected(expected).found(what.to_string())
    }

    fn validate_end_turn(&self, s: &State) -> Result<(), Violation> {
        match s.phase {
            Phase::One | Phase::Cleared | Phase::Ready => Ok(()),
            Phase::Many => {
                let waiting: Vec<&str> = s
                    .tokens
                    .iter()
                    .filter(|k| k.sq != NONE && !k.activated)
                    .map(|k| self.t.name(k.sq))
                    .collect();
                if waiting.is_empty() {
                    Ok(())
                } else {
                    Err(v(
                        "OVM-8",
                        format!(
                            "MANY ends its phase without activating the unit(s) on {}",
                            waiting.join(", ")
                        ),
                    )
                    .expected(format!("all {} units on the board activated", s.alive))
                    .found(format!(
                        "{} unit(s) never activated: {}",
                        waiting.len(),
                        waiting.join(", ")
                    )))
                }
            }
            Phase::Reveal | Phase::Deploy | Phase::Place => {
                let left = match s.phase {
                    Phase::Reveal => "no scenario revealed".to_string(),
                    Phase::Deploy => format!("{} MANY token(s) still to deploy", s.deploy_left),
                    _ => "ONE's token not placed".to_string(),
                };
                Err(v("OVM-2", "the round start is not finished")
                    .expected("scenario revealed, MANY deployed, ONE placed")
                    .found(left))
            }
            Phase::Draw | Phase::Pair | Phase::Pick => Err(v("OVM-11", "the upgrade phase is not finished")
                .expected("draw, pair and pick")
                .found(format!("still at the {} step", s.phase.name()))),
            Phase::Over => Err(v("OVM-13", "the game is over")
                .expected("no more turns")
                .found("a turn")),
        }
    }

    fn check_upgrade(&self, id: &str, one: bool) -> Result<u8, Violation> {
        let found = if one {
            self.t.one_upgrade(id)
        } else {
            self.t.many_upgrade(id)
        };
        found.ok_or_else(|| {
            v(
                "OVM-11",
                format!(
                    "`{id}` is not a card of the {} upgrade deck",
                    if one { "ONE" } else { "MANY" }
                ),
            )
            .expected(format!("a {} upgrade id", if one { "ONE" } else { "MANY" }))
            .found(id)
        })
    }

    fn drawn_one(&self, s: &State, id: &str) -> Result<u8, Violation> {
        let u = self.check_upgrade(id, true)?;
        if s.drawn_one.contains(&u) {
            Ok(u)
        } else {
            Err(v("OVM-11", format!("`{id}` is not one of the ONE upgrades drawn"))
                .expected(format!(
                    "{} or {}",
                    self.t.one_upgrades[s.drawn_one[0] as usize].id, self.t.one_upgrades[s.drawn_one[1] as usize].id
                ))
                .found(id))
        }
    }

    fn drawn_many(&self, s: &State, id: &str) -> Result<u8, Violation> {
        let u = self.check_upgrade(id, false)?;
        if s.drawn_many.contains(&u) {
            Ok(u)
        } else {
            Err(v("OVM-11", format!("`{id}` is not one of the MANY upgrades drawn"))
                .expected(format!(
                    "{} or {}",
                    self.t.many_upgrades[s.drawn_many[0] as usize].id,
                    self.t.many_upgrades[s.drawn_many[1] as usize].id
                ))
                .found(id))
        }
    }

    fn check_draw(&self, seen: u64, ids: &[String], one: bool) -> Result<(), Violation> {
        let deck = if one { "ONE" } else { "MANY" };
        if ids.len() != 2 {
            return Err(v(
                "OVM-11",
                format!("MANY draws {} card(s) from the {deck} upgrade deck", ids.len()),
            )
            .expected("2 cards")
            .found(format!("{} cards", ids.len())));
        }
        let mut mask = 0u64;
        for id in ids {
            let u = self.check_upgrade(id, one)?;
            if seen & bit(u) != 0 || mask & bit(u) != 0 {
                return Err(v("OVM-11", format!("`{id}` is no longer in the {deck} upgrade deck"))
                    .expected("a card still in the deck")
                    .found(format!("{id}, already drawn")));
            }
            mask |= bit(u);
        }
        Ok(())
    }

    fn validate_inner(&self, s: &State, a: &Action) -> Result<(), Violation> {
        if s.phase == Phase::Over {
            return Err(v("OVM-13", "the game is over")
                .expected("no more actions")
                .found("an action"));
        }
        match a {
            Action::EndTurn => self.validate_end_turn(s),
            Action::Reveal { scenario } => {
                if s.phase != Phase::Reveal {
                    return Err(self.wrong_phase(s, "revealing a scenario"));
                }
                let Some(sc) = self.t.scenario(scenario) else {
                    return Err(v("OVM-2", "the revealed scenario is not a card of the scenario deck")
                        .expected("a scenario id")
                        .found(if scenario.is_empty() { "no scenario" } else { scenario }));
                };
                if s.used_scenarios & bit(sc) != 0 {
                    return Err(v(
                        "OVM-2",
                        format!("the scenario `{scenario}` was already played this game"),
                    )
                    .expected("a scenario still in the deck")
                    .found(format!("{scenario}, already used")));
                }
                Ok(())
            }
            Action::Deploy { unit, square } => {
                if s.phase != Phase::Deploy {
                    return Err(self.wrong_phase(s, "deploying a MANY token"));
                }
                let boss = &self.t.bosses[s.boss as usize];
                let ty = self.t.unit(unit).ok_or_else(|| {
                    v("OVM-2", format!("`{unit}` is not a MANY unit type"))
                        .expected("a unit id")
                        .found(unit)
                })?;
                if s.pool[ty as usize] == 0 {
                    let left: Vec<String> = (0..self.t.units.len())
                        .filter(|&i| s.pool[i] > 0)
                        .map(|i| format!("{} {}", s.pool[i], self.t.units[i].id))
                        .collect();
                    return Err(v(
                        "OVM-2",
                        format!("MANY has no {unit} starting token left to deploy this round"),
                    )
                    .expected(format!(
                        "one of the starting tokens of {} still left: {}",
                        boss.id,
                        left.join(", ")
                    ))
                    .found(format!(
                        "a {unit} ({} of the boss's starting tokens)",
                        boss.start[ty as usize]
                    )));
                }
                let sq = self.sq(square, "OVM-2", "the deployment square")?;
                let sc = &self.t.scenarios[s.scenario as usize];
                if !sc.spawn.contains(&sq) {
                    return Err(
                        v("OVM-2", format!("MANY deploys on {square}, which is not a red square"))
                            .expected(format!(
                                "a red square of {}: {}",
                                sc.id,
                                sc.spawn.iter().map(|&q| self.t.name(q)).collect::<Vec<_>>().join(", ")
                            ))
                            .found(square),
                    );
                }
                if s.occ[sq as usize] != FREE || s.terrain[sq as usize] != EMPTY {
                    return Err(v("OVM-2", format!("the red square {square} is not free"))
                        .expected("a free red square")
                        .found(format!("{square}, {}", self.describe(s, sq))));
                }
                Ok(())
            }
            Action::Place { square } => {
                if s.phase != Phase::Place {
                    return Err(self.wrong_phase(s, "placing ONE"));
                }
                let sq = self.sq(square, "OVM-2", "ONE's start square")?;
                let sc = &self.t.scenarios[s.scenario as usize];
                if !sc.start.contains(&sq) {
                    return Err(
                        v("OVM-2", format!("ONE starts on {square}, which is not a blue square"))
                            .expected(format!(
                                "a blue square of {}: {}",
                                sc.id,
                                sc.start.iter().map(|&q| self.t.name(q)).collect::<Vec<_>>().join(", ")
                            ))
                            .found(square),
                    );
                }
                if s.occ[sq as usize] != FREE || s.terrain[sq as usize] == WALL {
                    return Err(v("OVM-2", format!("the blue square {square} is taken"))
                        .expected("a free blue square")
                        .found(format!("{square}, {}", self.describe(s, sq))));
                }
                Ok(())
            }
            Action::Move { to } => match s.phase {
                Phase::One => {
                    let left = self.one_left(s);
                    if left < 1 {
                        return Err(v("OVM-4", "ONE has no action point left for a move")
                            .expected(format!(
                                "at most {} action points this turn",
                                s.one_ap.saturating_add(s.bonus_ap)
                            ))
                            .found(format!("a move after spending {}", s.spent)));
                    }
                    let dest = self.sq(to, "OVM-5", "the move's destination")?;
                    if !self.t.adjacent(s.one_sq, dest) {
                        return Err(v(
                            "OVM-5",
                            format!(
                                "ONE moves from {} to {to}, which is not an adjacent square",
                                self.t.name(s.one_sq)
                            ),
                        )
                        .expected(format!("one orthogonal step from {}", self.t.name(s.one_sq)))
                        .found(to));
                    }
                    if s.occ[dest as usize] != FREE || s.terrain[dest as usize] == WALL {
                        return Err(v("OVM-5", format!("ONE may not enter {to}"))
                            .expected("a square without MANY tokens or walls")
                            .found(format!("{to}, {}", self.describe(s, dest))));
                    }
                    if s.terrain[dest as usize] == OBSTACLE {
                        let cost = 1 + self.one_obstacle_cost(s);
                        if left < cost {
                            return Err(v(
                                "OVM-5",
                                format!("entering the obstacle on {to} costs {cost} action points"),
                            )
                            .expected(format!("{cost} action points"))
                            .found(format!("{left} left")));
                        }
                    }
                    Ok(())
                }
                Phase::Many => {
                    let k = self.acting_unit(s, "moves", "a move", &format!("to {to}"))?;
                    let dest = self.sq(to, "OVM-8", "the move's destination")?;
                    if !self.t.adjacent(k.sq, dest) {
                        return Err(v(
                            "OVM-8",
                            format!(
                                "the {} moves from {} to {to}, which is not adjacent",
                                self.unit_name(k.ty),
                                self.t.name(k.sq)
                            ),
                        )
                        .expected(format!("one orthogonal step from {}", self.t.name(k.sq)))
                        .found(to));
                    }
                    let blocked = s.occ[dest as usize] != FREE
                        || s.terrain[dest as usize] == WALL
                        || (s.terrain[dest as usize] == OBSTACLE && !s.climb);
                    if blocked {
                        return Err(v("OVM-8", format!("a MANY unit may not enter {to}"))
                            .expected("a square free of tokens, walls and obstacles")
                            .found(format!("{to}, {}", self.describe(s, dest))));
                    }
                    Ok(())
                }
                _ => Err(self.wrong_phase(s, "a move")),
            },
            Action::Attack { target } => match s.phase {
                Phase::One => {
                    if self.one_left(s) < 1 {
                        return Err(v("OVM-4", "ONE has no action point left for an attack")
                            .expected(format!(
                                "at most {} action points this turn",
                                s.one_ap.saturating_add(s.bonus_ap)
                            ))
                            .found(format!("an attack after spending {}", s.spent)));
                    }
                    let t = self.sq(target, "OVM-6", "the attack's target")?;
                    if self.token_at(s, t).is_none() {
                        return Err(
                            v("OVM-6", format!("ONE attacks {target}, where there is no MANY token"))
                                .expected("a square with a MANY token")
                                .found(format!("{target}, {}", self.describe(s, t))),
                        );
                    }
                    let range = s.one_range.saturating_add(s.bonus_range);
                    match self.t.line_distance(s.one_sq, t) {
                        Some(d) if d <= range => Ok(()),
                        Some(d) => Err(v("OVM-6", format!("{target} is out of ONE's range"))
                            .expected(format!("at most {range} squares away"))
                            .found(format!("{d} squares"))),
                        None => Err(v(
                            "OVM-6",
                            format!(
                                "{target} is not in a row or column with ONE on {}",
                                self.t.name(s.one_sq)
                            ),
                        )
                        .expected(format!("a target in ONE's row or column, at most {range} squares away"))
                        .found(format!("{target}, diagonal to ONE"))),
                    }
                }
                Phase::Many => {
                    let k = self.acting_unit(s, "attacks", "an attack", &format!("on {target}"))?;
                    let t = self.sq(target, "OVM-9", "the attack's target")?;
                    if t != s.one_sq {
                        return Err(v(
                            "OVM-9",
                            format!("MANY attacks {target}, but ONE is on {}", self.t.name(s.one_sq)),
                        )
                        .expected(format!("ONE's square {}", self.t.name(s.one_sq)))
                        .found(target));
                    }
                    let range = self.many_range(s, k.ty);
                    match self.t.line_distance(k.sq, t) {
                        Some(d) if d <= range => Ok(()),
                        Some(d) => Err(v(
                            "OVM-9",
                            format!(
                                "ONE is out of range of the {} on {}",
                                self.unit_name(k.ty),
                                self.t.name(k.sq)
                            ),
                        )
                        .expected(format!("at most {range} squares away"))
                        .found(format!("{d} squares"))),
                        None => Err(v(
                            "OVM-9",
                            format!(
                                "ONE on {target} is not in a row or column with the {} on {}",
                                self.unit_name(k.ty),
                                self.t.name(k.sq)
                            ),
                        )
                        .expected(format!("ONE in the unit's row or column, at most {range} squares away"))
                        .found(format!("{target}, diagonal to {}", self.t.name(k.sq)))),
                    }
                }
                _ => Err(self.wrong_phase(s, "an attack")),
            },
            Action::Activate { square } => {
                if s.phase != Phase::Many {
                    return Err(self.wrong_phase(s, "activating a MANY unit"));
                }
                let sq = self.sq(square, "OVM-8", "the activated unit's square")?;
                let Some(k) = self.token_at(s, sq) else {
                    return Err(v("OVM-8", format!("there is no MANY unit on {square} to activate"))
                        .expected("the square of a MANY unit")
                        .found(format!("{square}, {}", self.describe(s, sq))));
                };
                if s.tokens[k].activated {
                    return Err(v(
                        "OVM-8",
                        format!(
                            "the {} on {square} was already activated this turn",
                            self.unit_name(s.tokens[k].ty)
                        ),
                    )
                    .expected("one activation per unit and turn")
                    .found("a second activation"));
                }
                Ok(())
            }
            Action::Interact { interaction, effect } => {
                let user = match s.phase {
                    Phase::One => User::One,
                    Phase::Many if s.active != NONE => User::Many,
                    Phase::Many => {
                        return Err(v("OVM-7", "a MANY interaction is performed by an activated unit")
                            .expected("`activate` a unit first")
                            .found("no unit activated"));
                    }
                    _ => return Err(self.wrong_phase(s, "a scenario interaction")),
                };
                let sc = &self.t.scenarios[s.scenario as usize];
                let Some(&(who, cost)) = sc.interactions.get((*interaction as usize).wrapping_sub(1)) else {
                    return Err(v(
                        "OVM-7",
                        format!("the scenario {} has no interaction {interaction}", sc.id),
                    )
                    .expected(format!("an interaction from 1 to {}", sc.interactions.len()))
                    .found(interaction));
                };
                if who != user {
                    return Err(v(
                        "OVM-7",
                        format!(
                            "interaction {interaction} of {} is not for {}",
                            sc.id,
                            if user == User::One { "ONE" } else { "MANY" }
                        ),
                    )
                    .expected(format!(
                        "an interaction whose user is {}",
                        if user == User::One { "ONE" } else { "MANY" }
                    ))
                    .found(format!(
                        "interaction {interaction}, for {}",
                        if who == User::One { "ONE" } else { "MANY" }
                    )));
                }
                let left = if user == User::One {
                    self.one_left(s)
                } else {
                    self.unit_left(s)
                };
                if left < cost {
                    return Err(
                        v("OVM-7", format!("interaction {interaction} of {} costs {cost}", sc.id))
                            .expected(format!("{cost} action points"))
                            .found(format!("{left} left")),
                    );
                }
                self.check_effect(s, effect, "OVM-7")
            }
            Action::Equip { card, effect } => {
                let one = match s.phase {
                    Phase::One => true,
                    Phase::Many if s.active != NONE => false,
                    Phase::Many => {
                        return Err(v("OVM-7", "MANY equipment is used by an activated unit")
                            .expected("`activate` a unit first")
                            .found("no unit activated"));
                    }
                    _ => return Err(self.wrong_phase(s, "an equipment action")),
                };
                let side = if one { "ONE" } else { "MANY" };
                let (u, owned) = if one {
                    (self.t.one_upgrade(card), s.one_owned)
                } else {
                    (self.t.many_upgrade(card), s.many_owned)
                };
                let Some(u) = u.filter(|&u| owned & bit(u) != 0) else {
                    return Err(v("OVM-11", format!("{side} does not hold the upgrade `{card}`"))
                        .expected(format!("one of {side}'s upgrades: {}", self.owned_list(s, one)))
                        .found(card));
                };
                let up = if one {
                    &self.t.one_upgrades[u as usize]
                } else {
                    &self.t.many_upgrades[u as usize]
                };
                let Some(cost) = up.equipment else {
                    return Err(v("OVM-7", format!("the upgrade `{card}` has no equipment action"))
                        .expected("an upgrade with an equipment action")
                        .found(card));
                };
                let left = if one { self.one_left(s) } else { self.unit_left(s) };
                if left < cost {
                    return Err(v("OVM-7", format!("the equipment of `{card}` costs {cost}"))
                        .expected(format!("{cost} action points"))
                        .found(format!("{left} left")));
                }
                self.check_effect(s, effect, "OVM-7")
            }
            Action::Trigger { by, effect } => {
                if !matches!(s.phase, Phase::One | Phase::Many) {
                    return Err(self.wrong_phase(s, "a card effect"));
                }
                let src = self.source(s, by)?;
                self.check_effect(s, effect, src.rule())
            }
            Action::Reinforce { unit, square, by } => {
                if !matches!(s.phase, Phase::Place | Phase::One | Phase::Many) {
                    return Err(self.wrong_phase(s, "a reinforcement"));
                }
                let src = self.source(s, by)?;
                if !matches!(src, Source::Boss | Source::ManyUpgrade(_)) {
                    return Err(v("OVM-1", format!("`{by}` cannot bring MANY tokens from the reserve"))
                        .expected("a MANY upgrade, or the boss showdown in the boss round")
                        .found(by));
                }
                let ty = self.t.unit(unit).ok_or_else(|| {
                    v("OVM-1", format!("`{unit}` is not a MANY unit type"))
                        .expected("a unit id")
                        .found(unit)
                })?;
                let left = self.reserve_left(s, ty);
                if left == 0 {
                    return Err(v("OVM-1", format!("MANY's reserve holds no {unit} token"))
                        .expected("a unit type of the boss's reserve with tokens left")
                        .found(format!("{unit}: 0 in reserve")));
                }
                let sq = self.sq(square, "OVM-2", "the reinforcement square")?;
                let sc = &self.t.scenarios[s.scenario as usize];
                if !sc.spawn.contains(&sq) || s.occ[sq as usize] != FREE || s.terrain[sq as usize] != EMPTY {
                    return Err(v(
                        "OVM-2",
                        format!("reserve tokens enter on a free red square, not {square}"),
                    )
                    .expected("a free red square")
                    .found(format!(
                        "{square}, {}{}",
                        if sc.spawn.contains(&sq) { "" } else { "not red, " },
                        self.describe(s, sq)
                    )));
                }
                Ok(())
            }
            Action::DrawUpgrades { one, many } => {
                if s.phase != Phase::Draw {
                    return Err(self.wrong_phase(s, "drawing upgrades"));
                }
                self.check_draw(s.one_seen, one, true)?;
                self.check_draw(s.many_seen, many, false)
            }
            Action::Pair { one, many } => {
                if s.phase != Phase::Pair {
                    return Err(self.wrong_phase(s, "pairing upgrades"));
                }
                self.drawn_one(s, one)?;
                self.drawn_many(s, many)?;
                Ok(())
            }
            Action::Pick { one } => {
                if s.phase != Phase::Pick {
                    return Err(self.wrong_phase(s, "picking a pair of upgrades"));
                }
                self.drawn_one(s, one).map(|_| ())
            }
        }
    }

    fn start_round_board(&self, s: &mut State) {
        s.terrain = [EMPTY; MAX_SQUARES];
        s.occ = [FREE; MAX_SQUARES];
        s.tokens.clear();
        s.alive = 0;
        s.one_sq = NONE;
        s.active = NONE;
        s.scenario = NONE;
        let boss = &self.t.bosses[s.boss as usize];
        s.pool = [0; 16];
        for (i, n) in boss.start.iter().enumerate() {
            s.pool[i] = *n;
        }
        Self::reset_actor(s);
    }

    fn new_token(&self, s: &mut State, ty: u8, sq: u8, reserve: bool) {
        let k = s.tokens.len();
        s.tokens.push(Token {
            ty,
            sq,
            life: self.many_max_life(s, ty),
            // A reinforcement arriving in MANY's phase still has to be activated.
            activated: false,
            reserve,
        });
        s.occ[sq as usize] = (k + 2) as u8;
        s.alive += 1;
    }
}

impl Engine for OneVMany {
    const GAME: &'static str = GAME_ID;
    const TURN_RULE: &'static str = "OVM-3";
    type State = State;
    type Action = Action;
    type Setup = Setup;

    fn new(game: &Game) -> Result<Self, String> {
        let t = Tables::new(game)?;
        let phases = (t.boss_round as usize).saturating_sub(1) * 2;
        if t.one_upgrades.len() < phases || t.many_upgrades.len() < phases {
            return Err(format!("each upgrade deck needs {phases} cards for a full game"));
        }
        if t.scenarios.len() < t.boss_round as usize {
            return Err(format!(
                "the scenario deck needs {} cards for a full game",
                t.boss_round
            ));
        }
        Ok(OneVMany { t })
    }

    fn start(&self, setup: &Setup) -> Result<State, Violation> {
        if setup.players.len() != 2 {
            return Err(v("OVM-1", "ONE v MANY is played by two players")
                .expected("2 players: ONE and MANY")
                .found(format!("{} players", setup.players.len())));
        }
        let sides: Vec<&str> = setup.players.iter().map(|p| p.side.as_str()).collect();
        let one_player = match sides.as_slice() {
            ["one", "many"] => 0,
            ["many", "one"] => 1,
            _ => {
                return Err(v("OVM-1", "one player is ONE and the other is MANY")
                    .expected("sides one and many")
                    .found(format!("sides {}", sides.join(" and "))));
            }
        };
        let one = &setup.players[one_player];
        let many = &setup.players[1 - one_player];
        let ch = one.character.as_deref().unwrap_or("");
        let character = self.t.character(ch).ok_or_else(|| {
            v("OVM-1", format!("ONE ({}) must pick one character card", one.name))
                .expected(format!(
                    "one of {}",
                    self.t
                        .characters
                        .iter()
                        .map(|c| c.id.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
                .found(if ch.is_empty() { "no character" } else { ch })
        })?;
        let b = many.boss.as_deref().unwrap_or("");
        let boss = self.t.boss(b).ok_or_else(|| {
            v("OVM-1", format!("MANY ({}) must pick one boss card", many.name))
                .expected(format!(
                    "one of {}",
                    self.t
                        .bosses
                        .iter()
                        .map(|c| c.id.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
                .found(if b.is_empty() { "no boss" } else { b })
        })?;
        if one.boss.is_some() || many.character.is_some() {
            return Err(v("OVM-1", "ONE picks a character and MANY picks a boss")
                .expected("`character` for ONE, `boss` for MANY")
                .found("a card on the wrong side"));
        }
        let c = &self.t.characters[character as usize];
        let mut s = State {
            one_player: one_player as u8,
            to_move: one_player as u8,
            character,
            boss,
            round: 1,
            turn: 1,
            phase: Phase::Reveal,
            scenario: NONE,
            used_scenarios: 0,
            terrain: [EMPTY; MAX_SQUARES],
            occ: [FREE; MAX_SQUARES],
            tokens: Vec::with_capacity(16),
            alive: 0,
            pool: [0; 16],
            deploy_left: 0,
            one_sq: NONE,
            one_life: c.life,
            one_max: c.life,
            one_ap: c.actions,
            one_range: c.range,
            one_dmg: c.damage,
            one_obstacle_extra: 0,
            many_life: 0,
            many_melee: 0,
            many_ranged: 0,
            spent: 0,
            bonus_ap: 0,
            bonus_range: 0,
            bonus_dmg: 0,
            climb: false,
            active: NONE,
            one_owned: 0,
            many_owned: 0,
            one_seen: 0,
            many_seen: 0,
            drawn_one: [NONE; 2],
            drawn_many: [NONE; 2],
            paired: (NONE, NONE),
            over: None,
        };
        self.start_round_board(&mut s);
        Ok(s)
    }

    fn to_move(&self, s: &State) -> usize {
        s.to_move as usize
    }

    fn end_turn(&self) -> Action {
        Action::EndTurn
    }

    fn validate(&self, s: &State, a: &Action) -> Result<(), Violation> {
        self.validate_inner(s, a)
    }

    fn apply(&self, mut s: State, a: &Action) -> State {
        match a {
            Action::EndTurn => match s.phase {
                Phase::One => {
                    s.phase = Phase::Many;
                    s.to_move = 1 - s.one_player;
                    s.active = NONE;
                    for k in s.tokens.iter_mut() {
                        k.activated = false;
                    }
                    Self::reset_actor(&mut s);
                }
                Phase::Cleared => {
                    s.phase = Phase::Draw;
                    s.to_move = 1 - s.one_player;
                }
                Phase::Many => {
                    s.to_move = s.one_player;
                    Self::reset_actor(&mut s);
                    s.active = NONE;
                    if s.turn >= self.t.last_turn {
                        s.over = Some(Reason::OutOfTime);
                        s.phase = Phase::Over;
                    } else {
                        s.turn += 1;
                        s.phase = Phase::One;
                    }
                }
                Phase::Ready => {
                    s.to_move = s.one_player;
                    s.round += 1;
                    s.turn = 1;
                    s.phase = Phase::Reveal;
                    self.start_round_board(&mut s);
                }
                _ => {}
            },
            Action::Reveal { scenario } => {
                if let Some(sc) = self.t.scenario(scenario) {
                    s.scenario = sc;
                    s.used_scenarios |= bit(sc);
                    let card = &self.t.scenarios[sc as usize];
                    for &q in &card.obstacles {
                        s.terrain[q as usize] = OBSTACLE;
                    }
                    for &q in &card.walls {
                        s.terrain[q as usize] = WALL;
                    }
                    let pool: u8 = s.pool.iter().sum();
                    s.deploy_left = pool.min(self.free_spawn(&s));
                    s.phase = if s.deploy_left == 0 {
                        Phase::Place
                    } else {
                        Phase::Deploy
                    };
                }
            }
            Action::Deploy { unit, square } => {
                if let (Some(ty), Some(sq)) = (self.t.unit(unit), self.t.square(square)) {
                    s.pool[ty as usize] -= 1;
                    self.new_token(&mut s, ty, sq, false);
                    s.deploy_left -= 1;
                    if s.deploy_left == 0 {
                        s.phase = Phase::Place;
                    }
                }
            }
            Action::Place { square } => {
                if let Some(sq) = self.t.square(square) {
                    s.one_sq = sq;
                    s.occ[sq as usize] = ONE;
                    s.phase = Phase::One;
                    Self::reset_actor(&mut s);
                    self.after_losses(&mut s);
                }
            }
            Action::Move { to } => {
                if let Some(dest) = self.t.square(to) {
                    if s.phase == Phase::One {
                        let cost = if s.terrain[dest as usize] == OBSTACLE {
                            1 + self.one_obstacle_cost(&s)
                        } else {
                            1
                        };
                        s.spent = s.spent.saturating_add(cost);
                        let from = s.one_sq;
                        self.relocate(&mut s, from, dest);
                    } else {
                        s.spent = s.spent.saturating_add(1);
                        let from = s.tokens[s.active as usize].sq;
                        self.relocate(&mut s, from, dest);
                    }
                }
            }
            Action::Attack { target } => {
                if let Some(t) = self.t.square(target) {
                    s.spent = s.spent.saturating_add(1);
                    if s.phase == Phase::One {
                        let dmg = s.one_dmg.saturating_add(s.bonus_dmg).max(0);
                        self.change_life(&mut s, t, -dmg);
                    } else {
                        let dmg = self.many_damage(&s, s.tokens[s.active as usize].ty);
                        self.change_life(&mut s, t, -dmg);
                    }
                    self.after_losses(&mut s);
                }
            }
            Action::Activate { square } => {
                if let Some(k) = self.t.square(square).and_then(|q| self.token_at(&s, q)) {
                    s.tokens[k].activated = true;
                    s.active = k as u8;
                    Self::reset_actor(&mut s);
                }
            }
            Action::Interact { interaction, effect } => {
                let sc = &self.t.scenarios[s.scenario as usize];
                if let Some(&(_, cost)) = sc.interactions.get((*interaction as usize).wrapping_sub(1)) {
                    s.spent = s.spent.saturating_add(cost);
                }
                self.apply_effect(&mut s, effect);
                self.after_losses(&mut s);
            }
            Action::Equip { card, effect } => {
                let cost = if s.phase == Phase::One {
                    self.t
                        .one_upgrade(card)
                        .and_then(|u| self.t.one_upgrades[u as usize].equipment)
                } else {
                    self.t
                        .many_upgrade(card)
                        .and_then(|u| self.t.many_upgrades[u as usize].equipment)
                };
                s.spent = s.spent.saturating_add(cost.unwrap_or(0));
                self.apply_effect(&mut s, effect);
                self.after_losses(&mut s);
            }
            Action::Trigger { effect, .. } => {
                self.apply_effect(&mut s, effect);
                self.after_losses(&mut s);
            }
            Action::Reinforce { unit, square, .. } => {
                if let (Some(ty), Some(sq)) = (self.t.unit(unit), self.t.square(square)) {
                    self.new_token(&mut s, ty, sq, true);
                }
            }
            Action::DrawUpgrades { one, many } => {
                for (i, id) in one.iter().take(2).enumerate() {
                    if let Some(u) = self.t.one_upgrade(id) {
                        s.drawn_one[i] = u;
                        s.one_seen |= bit(u);
                    }
                }
                for (i, id) in many.iter().take(2).enumerate() {
                    if let Some(u) = self.t.many_upgrade(id) {
                        s.drawn_many[i] = u;
                        s.many_seen |= bit(u);
                    }
                }
                s.phase = Phase::Pair;
            }
            Action::Pair { one, many } => {
                if let (Some(o), Some(m)) = (self.t.one_upgrade(one), self.t.many_upgrade(many)) {
                    s.paired = (o, m);
                    s.phase = Phase::Pick;
                }
            }
            Action::Pick { one } => {
                if let Some(o) = self.t.one_upgrade(one) {
                    let m = if o == s.paired.0 {
                        s.paired.1
                    } else if s.drawn_many[0] == s.paired.1 {
                        s.drawn_many[1]
                    } else {
                        s.drawn_many[0]
                    };
                    s.one_owned |= bit(o);
                    s.many_owned |= bit(m);
                    let om = &self.t.one_upgrades[o as usize].mods;
                    s.one_ap += om.actions;
                    s.one_range += om.range;
                    s.one_dmg += om.damage;
                    s.one_max = (s.one_max + om.life).max(1);
                    s.one_life = (s.one_life + om.life).clamp(1, s.one_max);
                    s.one_obstacle_extra += om.obstacle_extra;
                    let mm = &self.t.many_upgrades[m as usize].mods;
                    s.many_life += mm.life;
                    s.many_melee += mm.melee_damage;
                    s.many_ranged += mm.ranged_range;
                    s.phase = Phase::Ready;
                }
            }
        }
        s
    }

    fn legal_actions(&self, s: &State) -> Vec<Action> {
        let mut out = Vec::new();
        let name = |q: u8| self.t.name(q).to_string();
        match s.phase {
            Phase::Over => {}
            Phase::Reveal => out.push(Action::Reveal {
                scenario: String::new(),
            }),
            Phase::Deploy => {
                let sc = &self.t.scenarios[s.scenario as usize];
                for (ty, u) in self.t.units.iter().enumerate() {
                    if s.pool[ty] == 0 {
                        continue;
                    }
                    for &q in &sc.spawn {
                        if s.occ[q as usize] == FREE && s.terrain[q as usize] == EMPTY {
                            out.push(Action::Deploy {
                                unit: u.id.clone(),
                                square: name(q),
                            });
                        }
                    }
                }
            }
            Phase::Place => {
                let sc = &self.t.scenarios[s.scenario as usize];
                for &q in &sc.start {
                    if s.occ[q as usize] == FREE && s.terrain[q as usize] != WALL {
                        out.push(Action::Place { square: name(q) });
                    }
                }
                self.legal_reinforcements(s, &mut out);
            }
            Phase::One => {
                out.push(Action::EndTurn);
                let left = self.one_left(s);
                if left >= 1 {
                    for &q in &self.t.adj[s.one_sq as usize] {
                        if s.occ[q as usize] != FREE || s.terrain[q as usize] == WALL {
                            continue;
                        }
                        if s.terrain[q as usize] == OBSTACLE && left < 1 + self.one_obstacle_cost(s) {
                            continue;
                        }
                        out.push(Action::Move { to: name(q) });
                    }
                    let range = s.one_range.saturating_add(s.bonus_range);
                    for k in &s.tokens {
                        if k.sq != NONE && self.t.line_distance(s.one_sq, k.sq).is_some_and(|d| d <= range) {
                            out.push(Action::Attack { target: name(k.sq) });
                        }
                    }
                }
                self.legal_specials(s, true, left, &mut out);
                self.legal_triggers(s, &mut out);
                self.legal_reinforcements(s, &mut out);
            }
            Phase::Cleared | Phase::Ready => out.push(Action::EndTurn),
            Phase::Many => {
                if s.tokens.iter().all(|k| k.sq == NONE || k.activated) {
                    out.push(Action::EndTurn);
                }
                for k in &s.tokens {
                    if k.sq != NONE && !k.activated {
                        out.push(Action::Activate { square: name(k.sq) });
                    }
                }
                if s.active != NONE {
                    let k = s.tokens[s.active as usize];
                    let left = self.unit_left(s);
                    if left >= 1 {
                        for &q in &self.t.adj[k.sq as usize] {
                            let t = s.terrain[q as usize];
                            if s.occ[q as usize] == FREE && t != WALL && (t != OBSTACLE || s.climb) {
                                out.push(Action::Move { to: name(q) });
                            }
                        }
                        if self
                            .t
                            .line_distance(k.sq, s.one_sq)
                            .is_some_and(|d| d <= self.many_range(s, k.ty))
                        {
                            out.push(Action::Attack { target: name(s.one_sq) });
                        }
                    }
                    self.legal_specials(s, false, left, &mut out);
                }
                self.legal_triggers(s, &mut out);
                self.legal_reinforcements(s, &mut out);
            }
            Phase::Draw => out.push(Action::DrawUpgrades {
                one: Vec::new(),
                many: Vec::new(),
            }),
            Phase::Pair => {
                for &o in &s.drawn_one {
                    for &m in &s.drawn_many {
                        out.push(Action::Pair {
                            one: self.t.one_upgrades[o as usize].id.clone(),
                            many: self.t.many_upgrades[m as usize].id.clone(),
                        });
                    }
                }
            }
            Phase::Pick => {
                for &o in &s.drawn_one {
                    out.push(Action::Pick {
                        one: self.t.one_upgrades[o as usize].id.clone(),
                    });
                }
            }
        }
        out
    }

    fn ending(&self, s: &State) -> Option<Ending> {
        let one = s.one_player as usize;
        s.over.map(|r| match r {
            Reason::HordeDefeated => Ending {
                winners: vec![one],
                reason: "horde-defeated".into(),
                rule: "OVM-13",
            },
            Reason::HeroFallen => Ending {
                winners: vec![1 - one],
                reason: "hero-fallen".into(),
                rule: "OVM-13",
            },
            Reason::OutOfTime => Ending {
                winners: vec![1 - one],
                reason: "out-of-time".into(),
                rule: "OVM-13",
            },
        })
    }

    fn observe(&self, s: &State) -> Json {
        let mut o = Map::new();
        o.insert("round".into(), json!(s.round));
        o.insert("turn".into(), json!(s.turn));
        o.insert("phase".into(), json!(s.phase.name()));
        if s.scenario != NONE {
            o.insert("scenario".into(), json!(self.t.scenarios[s.scenario as usize].id));
        }
        let mut one = Map::new();
        if s.one_sq != NONE {
            one.insert("at".into(), json!(self.t.name(s.one_sq)));
        }
        one.insert("life".into(), json!(s.one_life));
        if s.phase == Phase::One {
            one.insert("ap".into(), json!(self.one_left(s)));
        }
        o.insert("one".into(), Json::Object(one));
        let mut many = Map::new();
        let mut squares: Vec<&Token> = s.tokens.iter().filter(|k| k.sq != NONE).collect();
        squares.sort_by_key(|k| k.sq);
        for k in squares {
            many.insert(
                self.t.name(k.sq).to_string(),
                json!(format!(
                    "{} {}/{}",
                    self.unit_name(k.ty),
                    k.life,
                    self.many_max_life(s, k.ty)
                )),
            );
        }
        o.insert("many".into(), Json::Object(many));
        if s.phase == Phase::Many && s.active != NONE {
            let k = s.tokens[s.active as usize];
            o.insert(
                "active".into(),
                json!({"at": self.t.name(k.sq), "actions": self.unit_left(s)}),
            );
        }
        if s.one_owned | s.many_owned != 0 {
            o.insert(
                "upgrades".into(),
                json!({"one": self.owned_list(s, true), "many": self.owned_list(s, false)}),
            );
        }
        Json::Object(o)
    }

    fn choice(&self, a: &Action) -> Action {
        match a {
            Action::Reveal { .. } => Action::Reveal {
                scenario: String::new(),
            },
            Action::DrawUpgrades { .. } => Action::DrawUpgrades {
                one: Vec::new(),
                many: Vec::new(),
            },
            Action::Interact { interaction, .. } => Action::Interact {
                interaction: *interaction,
                effect: Effect::default(),
            },
            Action::Equip { card, .. } => Action::Equip {
                card: card.clone(),
                effect: Effect::default(),
            },
            Action::Trigger { by, .. } => Action::Trigger {
                by: by.clone(),
                effect: Effect::default(),
            },
            other => other.clone(),
        }
    }

    fn randomize(&self, s: &State, a: &mut Action, rng: &mut fastrand::Rng) {
        match a {
            Action::Reveal { scenario } => {
                let left: Vec<usize> = (0..self.t.scenarios.len())
                    .filter(|&i| s.used_scenarios & bit(i as u8) == 0)
                    .collect();
                if !left.is_empty() {
                    *scenario = self.t.scenarios[left[rng.usize(..left.len())]].id.clone();
                }
            }
            Action::DrawUpgrades { one, many } => {
                let pick = |seen: u64, n: usize, rng: &mut fastrand::Rng| -> Vec<usize> {
                    let mut left: Vec<usize> = (0..n).filter(|&i| seen & bit(i as u8) == 0).collect();
                    rng.shuffle(&mut left);
                    left.truncate(2);
                    left
                };
                *one = pick(s.one_seen, self.t.one_upgrades.len(), rng)
                    .into_iter()
                    .map(|i| self.t.one_upgrades[i].id.clone())
                    .collect();
                *many = pick(s.many_seen, self.t.many_upgrades.len(), rng)
                    .into_iter()
                    .map(|i| self.t.many_upgrades[i].id.clone())
                    .collect();
            }
            _ => {}
        }
    }

    fn random_setup(&self, rng: &mut fastrand::Rng) -> Setup {
        let one = PlayerSetup {
            name: "Ana".into(),
            side: "one".into(),
            character: Some(self.t.characters[rng.usize(..self.t.characters.len())].id.clone()),
            boss: None,
        };
        let many = PlayerSetup {
            name: "Ben".into(),
            side: "many".into(),
            character: None,
            boss: Some(self.t.bosses[rng.usize(..self.t.bosses.len())].id.clone()),
        };
        let players = if rng.bool() { vec![one, many] } else { vec![many, one] };
        Setup { players }
    }

    fn candidates(&self, s: &State, rng: &mut fastrand::Rng) -> Vec<Action> {
        let mut out = self.legal_actions(s);
        let n = self.t.squares.len();
        let rsq = |rng: &mut fastrand::Rng| self.t.squares[rng.usize(..n)].clone();
        let near = |rng: &mut fastrand::Rng, from: u8| -> String {
            if from == NONE {
                return self.t.squares[rng.usize(..n)].clone();
            }
            // A square up to two steps away in any direction (diagonals
            // and two-square jumps included).
            let (x, y) = self.t.xy[from as usize];
            let (dx, dy) = (rng.i8(-2..=2), rng.i8(-2..=2));
            let (nx, ny) = (x + dx, y + dy);
            if (1..=26).contains(&nx) && (1..=99).contains(&ny) {
                let i = self.t.grid[ny as usize][nx as usize];
                if i != NONE {
                    return self.t.squares[i as usize].clone();
                }
            }
            self.t.squares[rng.usize(..n)].clone()
        };
        let actor = if s.phase == Phase::Many && s.active != NONE {
            s.tokens[s.active as usize].sq
        } else {
            s.one_sq
        };
        for _ in 0..4 {
            out.push(Action::Move { to: near(rng, actor) });
            out.push(Action::Attack {
                target: near(rng, actor),
            });
        }
        out.push(Action::Attack { target: rsq(rng) });
        for k in s.tokens.iter().filter(|k| k.sq != NONE) {
            out.push(Action::Attack {
                target: self.t.name(k.sq).to_string(),
            });
            out.push(Action::Activate {
                square: self.t.name(k.sq).to_string(),
            });
        }
        if s.one_sq != NONE {
            out.push(Action::Attack {
                target: self.t.name(s.one_sq).to_string(),
            });
        }
        out.push(Action::Activate { square: rsq(rng) });
        out.push(Action::Place { square: rsq(rng) });
        let unit = self.t.units[rng.usize(..self.t.units.len())].id.clone();
        out.push(Action::Deploy {
            unit: unit.clone(),
            square: rsq(rng),
        });
        out.push(Action::EndTurn);
        out.push(Action::Reveal {
            scenario: String::new(),
        });
        out.push(Action::DrawUpgrades {
            one: Vec::new(),
            many: Vec::new(),
        });
        out.push(Action::Interact {
            interaction: rng.u8(0..4),
            effect: Effect::default(),
        });
        let one_up = self.t.one_upgrades[rng.usize(..self.t.one_upgrades.len())].id.clone();
        let many_up = self.t.many_upgrades[rng.usize(..self.t.many_upgrades.len())].id.clone();
        out.push(Action::Equip {
            card: one_up.clone(),
            effect: Effect::default(),
        });
        out.push(Action::Equip {
            card: many_up.clone(),
            effect: Effect::default(),
        });
        out.push(Action::Pair {
            one: one_up.clone(),
            many: many_up.clone(),
        });
        out.push(Action::Pick { one: one_up.clone() });
        let sources = [
            self.t.characters[rng.usize(..self.t.characters.len())].id.clone(),
            self.t.units[rng.usize(..self.t.units.len())].id.clone(),
            self.t.scenarios[rng.usize(..self.t.scenarios.len())].id.clone(),
            self.t.bosses[s.boss as usize].id.clone(),
            self.t.bosses[rng.usize(..self.t.bosses.len())].id.clone(),
            one_up,
            many_up.clone(),
        ];
        for by in sources {
            out.push(Action::Trigger {
                by,
                effect: Effect::default(),
            });
        }
        let by = if rng.bool() {
            many_up
        } else {
            self.t.bosses[s.boss as usize].id.clone()
        };
        out.push(Action::Reinforce {
            unit,
            square: rsq(rng),
            by,
        });
        out
    }
}

impl OneVMany {
    /// Interactions and equipment the acting side can pay for.
    fn legal_specials(&self, s: &State, one: bool, left: i8, out: &mut Vec<Action>) {
        let user = if one { User::One } else { User::Many };
        if s.scenario != NONE {
            for (i, &(who, cost)) in self.t.scenarios[s.scenario as usize].interactions.iter().enumerate() {
                if who == user && cost <= left {
                    out.push(Action::Interact {
                        interaction: (i + 1) as u8,
                        effect: Effect::default(),
                    });
                }
            }
        }
        let (owned, list) = if one {
            (s.one_owned, &self.t.one_upgrades)
        } else {
            (s.many_owned, &self.t.many_upgrades)
        };
        for (i, u) in list.iter().enumerate() {
            if owned & bit(i as u8) != 0 && u.equipment.is_some_and(|c| c <= left) {
                out.push(Action::Equip {
                    card: u.id.clone(),
                    effect: Effect::default(),
                });
            }
        }
    }

    fn legal_triggers(&self, s: &State, out: &mut Vec<Action>) {
        for by in self.sources_in_force(s) {
            out.push(Action::Trigger {
                by,
                effect: Effect::default(),
            });
        }
    }

    fn legal_reinforcements(&self, s: &State, out: &mut Vec<Action>) {
        let sources = self.reinforce_sources(s);
        if sources.is_empty() || s.scenario == NONE {
            return;
        }
        let sc = &self.t.scenarios[s.scenario as usize];
        for ty in 0..self.t.units.len() as u8 {
            if self.reserve_left(s, ty) == 0 {
                continue;
            }
            for &q in &sc.spawn {
                if s.occ[q as usize] != FREE || s.terrain[q as usize] != EMPTY {
                    continue;
                }
                for by in &sources {
                    out.push(Action::Reinforce {
                        unit: self.t.units[ty as usize].id.clone(),
                        square: self.t.name(q).to_string(),
                        by: by.clone(),
                    });
                }
            }
        }
    }
}
