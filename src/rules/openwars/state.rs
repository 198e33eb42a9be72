//! The state of an Open Wars game, and what the rules ask of it: control,
//! entry costs, stacking, which combats are pending and who acts next.

use std::sync::Arc;

use super::OpenWars;
use super::tables::{self, FLYING, MAGIC, Scenario, WATER};
use crate::rules::kit::Set;

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
    pub(super) fn name(self) -> &'static str {
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
    pub(super) player: u8,
    pub(super) unit: u16,
    pub(super) cell: u8,
    pub(super) n: u8,
    /// Movement points left per token, highest first (movement phase).
    pub(super) mp: [u8; 4],
    /// The effects that changed its movement when the phase began (card,
    /// amount): an Oasis it started from.
    pub(super) mp_by: Vec<(u16, i16)>,
    /// Attacked this turn (may no longer retreat).
    pub(super) attacked: bool,
    /// Part of it retreated this turn (the rest may no longer attack).
    pub(super) retreated: bool,
    /// Took part in a combat this phase (no later isolated shot).
    pub(super) fought: bool,
    /// Acted in the current combat round.
    pub(super) acted: bool,
    /// The hits its last attack this turn scored.
    pub(super) hits: u8,
    /// Was the target of an attack this turn.
    pub(super) struck: bool,
    /// Lost a token in combat this turn.
    pub(super) wounded: bool,
}

impl Stack {
    /// A fresh stack of `n` tokens with no movement points.
    pub(super) fn new(player: u8, unit: u16, cell: u8, n: u8) -> Stack {
        Stack {
            player,
            unit,
            cell,
            n,
            mp: [0; 4],
            mp_by: Vec::new(),
            attacked: false,
            retreated: false,
            fought: false,
            acted: false,
            hits: 0,
            struck: false,
            wounded: false,
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Fight {
    pub(super) cell: u8,
    pub(super) ranged: bool,
    pub(super) round: u8,
    pub(super) attacked: bool,
}

#[derive(Clone, Debug)]
pub struct State {
    pub(super) names: Arc<[String]>,
    pub(super) map: u8,
    pub(super) faction: [u8; 2],
    pub(super) turn: u8,
    pub(super) phase: Phase,
    /// Index into `order` in the per-player phases.
    pub(super) step: u8,
    pub(super) order: [u8; 2],
    pub(super) to_move: u8,
    /// The order roll was made / the collection was taken.
    pub(super) done: bool,
    pub(super) gold: [u32; 2],
    pub(super) mana: [u32; 2],
    pub(super) stacks: Vec<Stack>,
    /// Casualties set aside this turn, per unit.
    pub(super) fallen: Vec<u8>,
    pub(super) fight: Option<Fight>,
    /// Contested combats fought this phase (cell bits).
    pub(super) resolved: Set,
    pub(super) contested_started: bool,
    /// Turn ends in a row each player held every objective.
    pub(super) streak: [u8; 2],
    pub(super) result: Option<(Option<u8>, &'static str)>,
    /// Outcomes that last (spells, combat-start features), on stacks or sides.
    pub(super) lasting: Vec<super::effects::Lasting>,
    /// Uses of limited clauses.
    pub(super) uses: super::effects::Uses,
    /// Locations some player has controlled (a first control's bonus).
    pub(super) held: Set,
    /// Per cell, the last player to control it alone (255: nobody yet):
    /// the side that held a location before the enemy came in.
    pub(super) holder: Vec<u8>,
}

pub(super) fn bit(c: u8) -> Set {
    1 << c
}

impl OpenWars {
    pub(super) fn map(&self, s: &State) -> &Scenario {
        &self.t.maps[usize::from(s.map)]
    }

    pub(super) fn unit(&self, u: u16) -> &tables::Unit {
        &self.t.units[usize::from(u)]
    }

    pub(super) fn owner(&self, s: &State, u: u16) -> Option<u8> {
        let f = self.unit(u).faction;
        s.faction.iter().position(|&x| x == f).map(|p| p as u8)
    }

    pub(super) fn cell_name<'a>(&'a self, s: &State, c: u8) -> &'a str {
        self.map(s).grid.name(c)
    }

    pub(super) fn name<'a>(&self, s: &'a State, p: u8) -> &'a str {
        &s.names[usize::from(p)]
    }

    pub(super) fn find(&self, s: &State, p: u8, u: u16, c: u8) -> Option<usize> {
        s.stacks
            .iter()
            .position(|x| x.player == p && x.unit == u && x.cell == c)
    }

    pub(super) fn occupancy(&self, s: &State) -> [Set; 2] {
        let mut occ = [0; 2];
        for x in &s.stacks {
            occ[usize::from(x.player)] |= bit(x.cell);
        }
        occ
    }

    pub(super) fn tokens_of(&self, s: &State, p: u8, c: u8) -> u32 {
        s.stacks
            .iter()
            .filter(|x| x.player == p && x.cell == c)
            .map(|x| u32::from(x.n))
            .sum()
    }

    pub(super) fn on_map(&self, s: &State, u: u16) -> u32 {
        s.stacks.iter().filter(|x| x.unit == u).map(|x| u32::from(x.n)).sum()
    }

    pub(super) fn army_value(&self, s: &State, p: u8) -> u32 {
        s.stacks
            .iter()
            .filter(|x| x.player == p)
            .map(|x| u32::from(x.n) * u32::from(self.unit(x.unit).cost))
            .sum()
    }

    pub(super) fn controlled(&self, s: &State, p: u8) -> Set {
        let occ = self.occupancy(s);
        occ[usize::from(p)] & !occ[usize::from(1 - p)]
    }

    /// Why `p` does not control `c`, if it does not (OW-3).
    pub(super) fn no_control(&self, s: &State, p: u8, c: u8) -> Option<String> {
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
    pub(super) fn entry(&self, s: &State, u: u16, c: u8) -> u8 {
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
    pub(super) fn water_block(&self, s: &State, u: u16, from: u8, to: u8) -> Option<String> {
        let m = self.map(s);
        let unit = self.unit(u);
        let (f, t) = (&m.cells[usize::from(from)], &m.cells[usize::from(to)]);
        if t.ty == WATER && unit.ty != WATER && unit.ty != FLYING {
            return Some(format!(
                "{} is water: only water and flying units may enter it, and {} is a {} unit",
                m.grid.name(to),
                unit.id,
                tables::TYPES[usize::from(unit.ty)]
            ));
        }
        if f.ty == WATER && unit.ty == WATER && t.ty != WATER {
            return Some(format!(
                "{} is a water unit: it may not leave the water for {}",
                unit.id,
                m.grid.name(to)
            ));
        }
        None
    }

    pub(super) fn contested_pending(&self, s: &State) -> Set {
        let occ = self.occupancy(s);
        occ[0] & occ[1] & !s.resolved
    }

    pub(super) fn ranged_pending(&self, s: &State) -> Set {
        let occ = self.occupancy(s);
        let m = self.map(s);
        let mut mask = 0;
        for x in &s.stacks {
            let foes = occ[usize::from(1 - x.player)];
            // The cheap tests first: the range asks every effect in force.
            if x.fought || foes == 0 || foes & bit(x.cell) != 0 || mask & bit(x.cell) != 0 {
                continue;
            }
            let r = self.range_of(s, x);
            if r == 0 {
                continue;
            }
            if (0..m.cells.len() as u8).any(|t| {
                foes & bit(t) != 0 && m.shot(x.cell, t).is_some_and(|d| d <= r) && self.no_ranged_target(s, t).is_none()
            }) {
                mask |= bit(x.cell);
            }
        }
        mask
    }

    /// The combats that may be chosen next (OW-10), and whether the
    /// ranged group is the one being played.
    pub(super) fn allowed_fights(&self, s: &State) -> (Set, bool) {
        let (r, c) = (self.ranged_pending(s), self.contested_pending(s));
        if self.map(s).ranged_first && !s.contested_started && r != 0 {
            (r, true)
        } else if c != 0 {
            (c, false)
        } else {
            (r, true)
        }
    }

    pub(super) fn is_participant(&self, f: &Fight, x: &Stack) -> bool {
        x.cell == f.cell
            && if f.ranged {
                self.unit(x.unit).range > 0 && !x.fought
            } else {
                !x.acted
            }
    }

    /// The best initiative key among stacks still to act, and which players
    /// own a stack with that key (bit 0 / bit 1).
    pub(super) fn top(&self, s: &State, f: &Fight) -> (u32, u8) {
        let mut best = 0;
        let mut who = 0u8;
        for x in s.stacks.iter().filter(|x| self.is_participant(f, x)) {
            let k = self.key_of(s, x);
            if k > best {
                best = k;
                who = 1 << x.player;
            } else if k == best {
                who |= 1 << x.player;
            }
        }
        (best, who)
    }
}
