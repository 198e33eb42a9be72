//! Chance in an Open Wars log (order rolls, initiative roll-offs, attack
//! dice and the casualties they cause): canonical forms, random outcomes and
//! random headers for generated games.

use std::collections::BTreeMap;

use super::OpenWars;
use super::actions::Action;
use super::setup::{PlayerSetup, Setup};
use super::state::{State, bit};
use super::tables::{MAGIC, WATER};

impl OpenWars {
    /// The player's choice in `a`, chance fields cleared.
    pub(super) fn canonical(&self, a: &Action) -> Action {
        let mut c = a.clone();
        match &mut c {
            Action::OrderRoll { roll } => roll.clear(),
            Action::Collect { from, .. } => from.sort(),
            Action::Attack {
                tie,
                roll,
                casualties,
                rolls,
                ..
            } => {
                tie.clear();
                roll.clear();
                casualties.clear();
                rolls.clear();
            }
            Action::Retreat { tie, .. } | Action::Hold { tie, .. } => tie.clear(),
            Action::Cast {
                effect,
                roll,
                rolls,
                attack,
                ..
            } => {
                *effect = None;
                roll.clear();
                rolls.clear();
                if let Some(a) = attack {
                    a.roll.clear();
                    a.casualties.clear();
                }
            }
            Action::Move { roll, .. } => roll.clear(),
            Action::Fight { rolls, .. } => rolls.clear(),
            _ => {}
        }
        c
    }

    /// Fills the chance fields of `a` with a random outcome.
    pub(super) fn fill_chance(&self, s: &State, a: &mut Action, rng: &mut fastrand::Rng) {
        let d6 = |rng: &mut fastrand::Rng| rng.u8(1..=6);
        // A tie roll-off that `winner` wins, for stacks tied across players.
        let tie_for = |s: &State, unit: &str, rng: &mut fastrand::Rng| -> Vec<u8> {
            let Some(f) = s.fight else { return Vec::new() };
            let Some(u) = self.t.unit_ix.get(unit) else {
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
                rolls,
            } => {
                *tie = tie_for(s, unit, rng);
                roll.clear();
                casualties.clear();
                let Some(f) = s.fight else { return };
                let Some(u) = self.t.unit_ix.get(unit.as_str()) else {
                    return;
                };
                let Some(x) = s.stacks.iter().find(|x| x.unit == u && x.cell == f.cell) else {
                    return;
                };
                roll.extend((0..x.n).map(|_| d6(rng)));
                let attack = self.attack_of(s, x);
                let hits = roll.iter().filter(|&&d| d <= attack).count();
                let t = if f.ranged {
                    self.map(s).cell(at).unwrap_or(f.cell)
                } else {
                    f.cell
                };
                *casualties = self.random_casualties(s, x, t, hits as u32, rng);
                *rolls = self
                    .returning(s, 1 - x.player, t, casualties)
                    .into_iter()
                    .map(|(id, _)| (id, rng.u8(1..=6)))
                    .collect();
            }
            Action::Retreat { unit, tie, .. } | Action::Hold { unit, tie } => {
                *tie = tie_for(s, unit, rng);
            }
            Action::Cast { .. } => {
                self.roll_effects(s, a, rng);
                if let Action::Cast {
                    spell,
                    caster,
                    at,
                    target,
                    path,
                    attack: attack @ Some(_),
                    ..
                } = a
                {
                    let m = self.map(s);
                    let sp = self
                        .t
                        .spell_ix
                        .get(spell.as_str())
                        .and_then(|i| self.t.fx.spells[usize::from(i)]);
                    let owner = self.t.unit_ix.get(caster.as_str()).and_then(|u| self.owner(s, u));
                    let tu = target.as_deref().and_then(|id| self.t.unit_ix.get(id));
                    if let (Some(d), Some(p), Some(t)) = (sp, owner, m.cell(at)) {
                        *attack = self.random_strike(s, d, p, t, tu, path, rng).or(attack.take());
                    }
                }
            }
            _ => self.roll_effects(s, a, rng),
        }
    }

    /// A random legal header.
    pub(super) fn random_header(&self, rng: &mut fastrand::Rng) -> Setup {
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
                let cid = m.grid.name(c).to_string();
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
}
