//! Every legal choice in a state (canonical form): a superset of plausible
//! actions filtered through the same checks as `validate`; near misses for
//! mutation tests.

use std::collections::BTreeMap;

use super::OpenWars;
use super::actions::Action;
use super::state::{Phase, State, bit};
use super::tables::{self, CITY, FLYING, MAGIC};

impl OpenWars {
    /// Every legal action in `s`, chance fields in canonical form.
    pub(super) fn legal(&self, s: &State) -> Vec<Action> {
        let mut out: Vec<Action> = self
            .options(s)
            .into_iter()
            .filter(|a| self.check(s, a, false).is_ok())
            .collect();
        out.dedup();
        out
    }

    /// Legal actions and near misses (wrong phase, amounts, far cells).
    pub(super) fn near_misses(&self, s: &State, rng: &mut fastrand::Rng) -> Vec<Action> {
        let mut out = self.options(s);
        if s.phase == Phase::Over {
            return out;
        }
        let m = self.map(s);
        let cell = |rng: &mut fastrand::Rng| m.grid.name(rng.usize(..m.cells.len()) as u8).to_string();
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
            let from = m.grid.name(x.cell).to_string();
            out.push(Action::Move {
                unit: u.clone(),
                from: from.clone(),
                to: cell(rng),
                tokens: rng.u8(1..=x.n + 1),
                roll: Vec::new(),
            });
            out.push(Action::Attack {
                unit: u.clone(),
                at: cell(rng),
                tie: Vec::new(),
                roll: Vec::new(),
                casualties: BTreeMap::new(),
                rolls: BTreeMap::new(),
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
                out.push(cast(
                    &sp.id,
                    &self.unit(x.unit).id,
                    from,
                    cell(rng),
                    rng.bool()
                        .then(|| self.t.units[rng.usize(..self.t.units.len())].id.clone()),
                ));
            }
        }
        out.push(Action::Fight {
            at: cell(rng),
            rolls: BTreeMap::new(),
        });
        out.push(Action::EndTurn);
        out
    }

    /// The collection `to_move` is due now, if collecting is the next step.
    pub(super) fn collect_for(&self, s: &State) -> Option<Action> {
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
                from.push(m.grid.name(i as u8).to_string());
            }
        }
        from.sort();
        let (bg, bn, _) = self.collection_bonus(s, s.to_move);
        Some(Action::Collect {
            from,
            gold: g + bg,
            mana: n + bn,
        })
    }

    /// Every action that could be legal now, in canonical form (a superset
    /// that `legal_actions` filters through the same checks as `validate`).
    pub(super) fn options(&self, s: &State) -> Vec<Action> {
        let mut out = Vec::new();
        let m = self.map(s);
        let p = s.to_move;
        let cid = |c: u8| m.grid.name(c).to_string();
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
                                at: m.grid.name(c as u8).to_string(),
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
                    for &t in m.grid.neighbours(x.cell) {
                        let cost = self.entry(s, x.unit, t);
                        for k in (1..=x.n).take_while(|&k| x.mp[usize::from(k - 1)] >= cost) {
                            out.push(Action::Move {
                                unit: self.unit(x.unit).id.clone(),
                                from: cid(x.cell),
                                to: cid(t),
                                tokens: k,
                                roll: Vec::new(),
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
                            out.push(Action::Fight {
                                at: cid(c),
                                rolls: BTreeMap::new(),
                            });
                        }
                    }
                }
                Some(f) => {
                    for x in s.stacks.iter().filter(|x| self.is_participant(&f, x)) {
                        let u = self.unit(x.unit);
                        if f.ranged {
                            for t in 0..m.cells.len() as u8 {
                                if t != f.cell && m.shot(f.cell, t).is_some_and(|d| d <= u.range) {
                                    out.push(Action::Attack {
                                        unit: u.id.clone(),
                                        at: cid(t),
                                        tie: Vec::new(),
                                        roll: Vec::new(),
                                        casualties: BTreeMap::new(),
                                        rolls: BTreeMap::new(),
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
                                rolls: BTreeMap::new(),
                            });
                            for &t in m.grid.neighbours(f.cell) {
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
            let free = self.free_spell(s, x.player).is_some();
            for (si, sp) in self.t.spells.iter().enumerate() {
                if sp.faction.is_some_and(|f| f != u.faction)
                    || (u32::from(sp.cost) > mana && !free)
                    || (sp.combat && s.phase != Phase::Combat)
                {
                    continue;
                }
                for t in 0..m.cells.len() as u8 {
                    if m.grid.distance(x.cell, t) <= u.range {
                        let mut targets: Vec<Option<String>> = vec![None];
                        targets.extend(
                            s.stacks
                                .iter()
                                .filter(|y| y.cell == t)
                                .map(|y| Some(self.unit(y.unit).id.clone())),
                        );
                        targets.dedup();
                        let fx = self.t.fx.spells[si];
                        if fx.is_some_and(|d| self.grant(d).raise) {
                            // A unit comes back: any of the player's units.
                            targets.extend(
                                self.t
                                    .units
                                    .iter()
                                    .filter(|w| w.faction == s.faction[usize::from(x.player)])
                                    .map(|w| Some(w.id.clone())),
                            );
                        }
                        for target in targets {
                            let base = cast(&sp.id, &u.id, cid(x.cell), cid(t), target.clone());
                            let Some(d) = fx else {
                                out.push(base);
                                continue;
                            };
                            if target.is_none() {
                                // A dispel: each spell in force.
                                let cancel = self.t.fx.defs[usize::from(d)]
                                    .clauses
                                    .iter()
                                    .any(|c| c.amount(super::effects::Out::CancelSpell).is_some());
                                for l in s.lasting.iter().filter(|_| cancel) {
                                    let mut a = base.clone();
                                    if let Action::Cast { cancels, .. } = &mut a {
                                        *cancels = self
                                            .t
                                            .spells
                                            .iter()
                                            .zip(&self.t.fx.spells)
                                            .find(|(_, f)| **f == Some(l.src.card))
                                            .map(|(w, _)| w.id.clone());
                                    }
                                    out.push(a);
                                }
                                out.push(base);
                                continue;
                            }
                            for (path, attack) in self.grant_options(s, d, t) {
                                let mut a = base.clone();
                                if let Action::Cast { path: p, attack: k, .. } = &mut a {
                                    *p = path;
                                    *k = attack;
                                }
                                out.push(a);
                            }
                        }
                    }
                }
            }
        }
        out
    }
}

/// A cast in canonical form (no dice, no move, no attack).
pub(super) fn cast(spell: &str, caster: &str, from: String, at: String, target: Option<String>) -> Action {
    Action::Cast {
        spell: spell.to_string(),
        caster: caster.to_string(),
        from,
        at,
        target,
        effect: None,
        roll: Vec::new(),
        rolls: BTreeMap::new(),
        path: Vec::new(),
        attack: None,
        cancels: None,
    }
}
