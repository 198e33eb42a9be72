//! The state of a ONE v MANY game, and what the rules ask of it.

use super::OneVMany;
use super::tables::{MAX_SQUARES, NONE};

/// Terrain on a square.
pub(super) const EMPTY: u8 = 0;
pub(super) const OBSTACLE: u8 = 1;
pub(super) const WALL: u8 = 2;
/// Occupant of a square: nobody, ONE, or MANY token `k` as `k + 2`.
pub(super) const FREE: u8 = 0;
pub(super) const ONE: u8 = 1;

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
    pub(super) fn name(self) -> &'static str {
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
    pub(super) ty: u8,
    /// `NONE` once removed.
    pub(super) sq: u8,
    pub(super) life: i8,
    pub(super) activated: bool,
    /// Came from the reserve (returns to it when removed).
    pub(super) reserve: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Reason {
    HordeDefeated,
    HeroFallen,
    OutOfTime,
}

#[derive(Clone, Debug)]
pub struct State {
    pub(super) one_player: u8,
    pub(super) to_move: u8,
    pub(super) character: u8,
    pub(super) boss: u8,
    pub(super) round: u8,
    pub(super) turn: u8,
    pub(super) phase: Phase,
    pub(super) scenario: u8,
    pub(super) used_scenarios: u64,
    pub(super) terrain: [u8; MAX_SQUARES],
    pub(super) occ: [u8; MAX_SQUARES],
    pub(super) tokens: Vec<Token>,
    pub(super) alive: u8,
    /// Starting tokens still to deploy this round, per unit type.
    pub(super) pool: [u8; 16],
    pub(super) deploy_left: u8,
    pub(super) one_sq: u8,
    pub(super) one_life: i8,
    pub(super) one_max: i8,
    /// ONE's stats with its upgrades.
    pub(super) one_ap: i8,
    pub(super) one_range: i8,
    pub(super) one_dmg: i8,
    pub(super) one_obstacle_extra: i8,
    /// MANY's upgrade bonuses.
    pub(super) many_life: i8,
    pub(super) many_melee: i8,
    pub(super) many_ranged: i8,
    /// The acting token's spending and effect bonuses (ONE's phase, or the
    /// active MANY unit's activation).
    pub(super) spent: i8,
    pub(super) bonus_ap: i8,
    pub(super) bonus_range: i8,
    pub(super) bonus_dmg: i8,
    pub(super) climb: bool,
    pub(super) active: u8,
    pub(super) one_owned: u64,
    pub(super) many_owned: u64,
    pub(super) one_seen: u64,
    pub(super) many_seen: u64,
    pub(super) drawn_one: [u8; 2],
    pub(super) drawn_many: [u8; 2],
    pub(super) paired: (u8, u8),
    pub(super) over: Option<Reason>,
}

pub(super) fn bit(i: u8) -> u64 {
    1u64 << i
}

impl OneVMany {
    pub(super) fn many_max_life(&self, s: &State, ty: u8) -> i8 {
        (self.t.units[ty as usize].life + s.many_life).max(1)
    }

    pub(super) fn many_damage(&self, s: &State, ty: u8) -> i8 {
        let u = &self.t.units[ty as usize];
        let melee = if u.range == 1 { s.many_melee } else { 0 };
        u.damage.saturating_add(melee).saturating_add(s.bonus_dmg).max(0)
    }

    pub(super) fn many_range(&self, s: &State, ty: u8) -> i8 {
        let u = &self.t.units[ty as usize];
        let ranged = if u.range >= 2 { s.many_ranged } else { 0 };
        u.range.saturating_add(ranged).saturating_add(s.bonus_range)
    }

    pub(super) fn many_actions(&self, s: &State, ty: u8) -> i8 {
        self.t.units[ty as usize].actions.saturating_add(s.bonus_ap)
    }

    pub(super) fn unit_name(&self, ty: u8) -> &str {
        &self.t.units[ty as usize].id
    }

    pub(super) fn token_at(&self, s: &State, sq: u8) -> Option<usize> {
        let o = s.occ[sq as usize];
        (o >= 2).then(|| (o - 2) as usize)
    }

    pub(super) fn free_spawn(&self, s: &State) -> u8 {
        let sc = &self.t.scenarios[s.scenario as usize];
        sc.spawn
            .iter()
            .filter(|&&q| s.occ[q as usize] == FREE && s.terrain[q as usize] == EMPTY)
            .count() as u8
    }

    pub(super) fn reserve_left(&self, s: &State, ty: u8) -> u8 {
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

    pub(super) fn owned_list(&self, s: &State, one: bool) -> String {
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
    pub(super) fn sources_in_force(&self, s: &State) -> Vec<String> {
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
    pub(super) fn reinforce_sources(&self, s: &State) -> Vec<String> {
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
    pub(super) fn actor_square(&self, s: &State) -> u8 {
        match s.phase {
            Phase::One => s.one_sq,
            Phase::Many if s.active != NONE => s.tokens[s.active as usize].sq,
            _ => NONE,
        }
    }

    pub(super) fn describe(&self, s: &State, sq: u8) -> String {
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

    pub(super) fn one_obstacle_cost(&self, s: &State) -> i8 {
        if s.climb { 0 } else { (1 + s.one_obstacle_extra).max(0) }
    }

    pub(super) fn one_left(&self, s: &State) -> i8 {
        s.one_ap.saturating_add(s.bonus_ap).saturating_sub(s.spent)
    }

    pub(super) fn unit_left(&self, s: &State) -> i8 {
        if s.active == NONE {
            return 0;
        }
        self.many_actions(s, s.tokens[s.active as usize].ty)
            .saturating_sub(s.spent)
    }
}
