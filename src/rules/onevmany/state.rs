//! The state of a ONE v MANY game, and what the rules ask of it.

use super::OneVMany;
use super::effects::Out;
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
    /// The activated unit has moved (its activation).
    pub(super) moved: bool,
    /// ONE has attacked in this phase.
    pub(super) one_attacked: bool,
    /// A MANY token was just removed (its type), for the effects that
    /// answer it; ONE removed it (`true`).
    pub(super) removed: Option<(u8, bool)>,
    /// Uses of limited clauses.
    pub(super) uses: super::effects::Uses,
    /// ONE's attacks ignore a darkness this phase (a torch).
    pub(super) torch: bool,
}

pub(super) fn bit(i: u8) -> u64 {
    1u64 << i
}

impl OneVMany {
    /// A unit type's life: its card value and the modifiers in force.
    pub(super) fn many_max_life(&self, s: &State, ty: u8) -> i8 {
        let m = self.many_modifier(s, Out::Life);
        (i16::from(self.t.units[ty as usize].life) + m).clamp(1, 100) as i8
    }

    /// The attack range in force for the token on `sq`, capped by a
    /// darkness (`max-range`) unless it ignores it.
    pub(super) fn range_of(&self, s: &State, sq: u8, base: i8, bonus: i8) -> i8 {
        let r = i16::from(base) + self.modifier(s, Out::Range, Some(sq), None) + i16::from(bonus);
        let cap = self.modifier(s, Out::MaxRange, None, None);
        let r = if cap > 0 && !(sq == s.one_sq && s.torch) {
            r.min(cap)
        } else {
            r
        };
        r.clamp(0, 50) as i8
    }

    /// DMG of the token on `sq` attacking `target`: base, modifiers, the
    /// phase's bonus; a reduction never takes it below 1.
    pub(super) fn damage_of(&self, s: &State, sq: u8, target: u8, base: i8) -> i8 {
        let m = self.modifier(s, Out::Damage, Some(sq), Some(target));
        let d = i16::from(base) + m + i16::from(s.bonus_dmg);
        (if m < 0 { d.max(1) } else { d.max(0) }).clamp(0, 50) as i8
    }

    /// The MANY token `k`'s DMG against ONE.
    pub(super) fn many_damage(&self, s: &State, k: usize) -> i8 {
        let t = s.tokens[k];
        self.damage_of(s, t.sq, s.one_sq, self.t.units[t.ty as usize].damage)
    }

    /// The MANY token `k`'s range.
    pub(super) fn many_range(&self, s: &State, k: usize) -> i8 {
        let t = s.tokens[k];
        self.range_of(s, t.sq, self.t.units[t.ty as usize].range, s.bonus_range)
    }

    /// The MANY token `k`'s actions in its activation.
    pub(super) fn many_actions(&self, s: &State, k: usize) -> i8 {
        let t = s.tokens[k];
        let m = self.modifier(s, Out::Actions, Some(t.sq), None);
        (i16::from(self.t.units[t.ty as usize].actions) + m + i16::from(s.bonus_ap)).clamp(0, 50) as i8
    }

    /// ONE's action points this phase.
    pub(super) fn one_ap(&self, s: &State) -> i8 {
        let m = self.modifier(s, Out::Actions, Some(s.one_sq), None);
        (i16::from(s.one_ap) + m + i16::from(s.bonus_ap)).clamp(0, 50) as i8
    }

    /// ONE's attack range.
    pub(super) fn one_range(&self, s: &State) -> i8 {
        self.range_of(s, s.one_sq, s.one_range, s.bonus_range)
    }

    /// ONE's DMG against the token on `target`.
    pub(super) fn one_damage(&self, s: &State, target: u8) -> i8 {
        self.damage_of(s, s.one_sq, target, s.one_dmg)
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
        let m = self.modifier(s, Out::ObstacleExtra, Some(s.one_sq), None);
        if s.climb {
            0
        } else {
            (1 + i16::from(s.one_obstacle_extra) + m).clamp(0, 10) as i8
        }
    }

    pub(super) fn one_left(&self, s: &State) -> i8 {
        self.one_ap(s).saturating_sub(s.spent)
    }

    pub(super) fn unit_left(&self, s: &State) -> i8 {
        if s.active == NONE {
            return 0;
        }
        self.many_actions(s, s.active as usize).saturating_sub(s.spent)
    }
}
