//! Every legal choice in a state (canonical form): a superset of plausible
//! actions filtered through the same checks as `validate`; near misses for
//! mutation tests.

use std::collections::BTreeMap;

use super::Mythic;
use super::actions::Action;
use super::state::{DRAW_TWO, GONE, NONE, OFF, SEARCH, State, within};
use super::tables::{AOW, Cat, MAXC, OMPH, PowerKind, Shape};
use crate::rules::Engine;
use crate::rules::kit::{Pile, bits};

impl Mythic {
    /// Ways to pay `cost` Art of War cards from `hand`, canonical (`[]` for
    /// Art of War cards only; substitutes sorted).
    pub(super) fn pay_options(&self, s: &State, p: usize, hand: &Pile<MAXC>, cost: u8) -> Vec<Vec<String>> {
        if cost == 0 {
            return vec![Vec::new()];
        }
        let spare = self.spare_cards(s, p);
        // Ways to pay one card: Art of War, an omphalos card, or a pair.
        let mut ones: Vec<(u8, [u8; MAXC])> = vec![(1, [0; MAXC])];
        let mut om = [0; MAXC];
        om[OMPH as usize] = 1;
        ones.push((0, om));
        let spares: Vec<usize> = (2..MAXC).filter(|&c| spare[c] && hand.count(c) > 0).collect();
        for (i, &x) in spares.iter().enumerate() {
            for &y in &spares[i..] {
                let mut m = [0; MAXC];
                m[x] += 1;
                m[y] += 1;
                ones.push((0, m));
            }
        }
        let mut out: Vec<Vec<String>> = Vec::new();
        let mut combos: Vec<Vec<usize>> = (0..ones.len()).map(|i| vec![i]).collect();
        for _ in 1..cost {
            combos = combos
                .iter()
                .flat_map(|c| {
                    let last = *c.last().unwrap_or(&0);
                    (last..ones.len()).map(move |j| {
                        let mut n = c.clone();
                        n.push(j);
                        n
                    })
                })
                .collect();
        }
        for combo in combos {
            let mut aow = 0u8;
            let mut m = [0u8; MAXC];
            for &i in &combo {
                aow += ones[i].0;
                for c in 0..MAXC {
                    m[c] += ones[i].1[c];
                }
            }
            if aow > hand.count(AOW as usize) || !within(&m, hand.counts()) {
                continue;
            }
            let mut names: Vec<String> = Vec::new();
            for (c, &k) in m.iter().enumerate() {
                for _ in 0..k {
                    names.push(self.t.cards[c].clone());
                }
            }
            // Art of War cards may also be named (`pay: [art-of-war]`).
            for _ in 0..=aow {
                let mut n = names.clone();
                n.sort();
                if !out.contains(&n) {
                    out.push(n);
                }
                names.push(self.t.cards[AOW as usize].clone());
            }
        }
        out
    }

    /// Plausible choices: the legal ones are among them.
    pub(super) fn plausible(&self, s: &State, p: usize) -> Vec<Action> {
        let t = &s.t;
        let mut out = Vec::new();
        let hand = s.players[p].hand;
        let cu = t.act.unit;
        if cu != NONE {
            let sl = cu as usize;
            let unit = self.uid(s, sl).to_string();
            let b = self.board(s);
            let u = s.units[sl];
            if u.at == OFF {
                for a in bits(b.deploy[(s.players[p].side as usize - 1).min(3)]) {
                    out.push(Action::Enter {
                        unit: unit.clone(),
                        to: b.areas[a].id.clone(),
                    });
                }
            } else if u.on_board() {
                let mv = self.row(s, sl).movement;
                for a in bits(self.reach(s, sl, mv, false)) {
                    out.push(Action::Move {
                        unit: unit.clone(),
                        to: b.areas[a].id.clone(),
                    });
                }
                for a in bits(self.reach(s, sl, mv + 1, true)) {
                    out.push(Action::Run {
                        unit: unit.clone(),
                        to: b.areas[a].id.clone(),
                    });
                }
                if self.mode(s).shape == Shape::Lone && b.edge & (1 << u.at) != 0 {
                    out.push(Action::Leave { unit: unit.clone() });
                }
                let team = self.team(s, sl);
                for (d, o) in s.units.iter().enumerate() {
                    if !o.on_board() || self.team(s, d) == team {
                        continue;
                    }
                    let target = self.uid(s, d).to_string();
                    let from = out.len();
                    out.push(attack(&unit, &target, None, vec![]));
                    for (i, pw) in self.def(s, sl).powers.iter().enumerate() {
                        if pw.kind == PowerKind::Special {
                            let cost = if t.act.power == i as u8 { 0 } else { pw.cost };
                            for pay in self.pay_options(s, p, &hand, cost) {
                                out.push(attack(&unit, &target, Some(pw.slug.clone()), pay));
                            }
                        }
                    }
                    // Guard: a friendly unit in the target's area may
                    // make itself the target instead.
                    let guards: Vec<usize> = (0..s.units.len())
                        .filter(|&g| g != d && s.units[g].on_board() && s.units[g].at == o.at)
                        .collect();
                    let to = out.len();
                    // Mighty Throw: the defender moved to a next area.
                    if self.own_giving(s, sl, super::effects::Out::Displace).is_some() {
                        for area in bits(b.adj(o.at as usize)) {
                            for k in from..to {
                                if let Action::Attack { power, pay, .. } = &out[k] {
                                    let mut x = attack(&unit, &target, power.clone(), pay.clone());
                                    if let Action::Attack { displace, .. } = &mut x {
                                        *displace = Some(b.areas[area].id.clone());
                                    }
                                    out.push(x);
                                }
                            }
                        }
                    }
                    for g in guards {
                        for k in from..to {
                            if let Action::Attack { power, pay, .. } = &out[k] {
                                let mut x = attack(&unit, &target, power.clone(), pay.clone());
                                if let Action::Attack { guard, .. } = &mut x {
                                    *guard = Some(self.uid(s, g).to_string());
                                }
                                out.push(x);
                            }
                        }
                    }
                }
                if s.ground[u.at as usize] > 0 {
                    out.push(Action::PickUp {
                        unit: unit.clone(),
                        from: None,
                    });
                }
                for a in bits(b.adj(u.at as usize)) {
                    if s.ground[a] > 0 && self.has(s, sl, super::effects::Out::PickUpAdjacent).is_some() {
                        out.push(Action::PickUp {
                            unit: unit.clone(),
                            from: Some(b.areas[a].id.clone()),
                        });
                    }
                }
                let god = self.def(s, sl).cat == Cat::God;
                if god && s.ground[u.at as usize] > 0 {
                    out.push(Action::Absorb {
                        unit: unit.clone(),
                        from: None,
                    });
                }
                for (c, o) in s.units.iter().enumerate() {
                    if god && o.carry && o.at == u.at {
                        out.push(Action::Absorb {
                            unit: unit.clone(),
                            from: Some(self.uid(s, c).to_string()),
                        });
                    }
                }
                if u.carry {
                    out.push(Action::Drop { unit });
                }
            }
        }
        if let Some((_, def)) = t.pending {
            let unit = self.uid(s, def as usize).to_string();
            let q = s.units[def as usize].owner as usize;
            if s.players[q].hand.count(self.def(s, def as usize).card as usize) > 0 {
                out.push(Action::Counter {
                    unit: unit.clone(),
                    card: None,
                    by: None,
                    before: vec![],
                    roll: vec![],
                    reroll: vec![],
                    hits: 0,
                    drew: None,
                });
            }
            for by in self.free_counters(s, def as usize) {
                out.push(Action::Counter {
                    unit: unit.clone(),
                    card: None,
                    by: Some(by),
                    before: vec![],
                    roll: vec![],
                    reroll: vec![],
                    hits: 0,
                    drew: None,
                });
            }
            if s.players[q].hand.count(OMPH as usize) > 0 {
                out.push(Action::Counter {
                    unit,
                    card: Some(self.t.cards[OMPH as usize].clone()),
                    by: None,
                    before: vec![],
                    roll: vec![],
                    reroll: vec![],
                    hits: 0,
                    drew: None,
                });
            }
        }
        if t.activations == 0 && !t.rested {
            out.push(Action::Rest {
                cards: vec![],
                others: BTreeMap::new(),
            });
        }
        // Leader: at the end of the activation, a friendly troop of its area.
        if t.act.unit != NONE && !t.led && s.units[t.act.unit as usize].on_board() {
            let sl = t.act.unit as usize;
            if self.own_giving(s, sl, super::effects::Out::Activate).is_some() {
                for (k, o) in s.units.iter().enumerate() {
                    if k != sl && o.at == s.units[sl].at && self.team(s, k) == self.team(s, sl) {
                        out.push(Action::Lead {
                            unit: self.uid(s, sl).to_string(),
                            troop: self.uid(s, k).to_string(),
                        });
                    }
                }
            }
        }
        // Cunning: right after an enemy activation, a shift of the other side.
        if t.act.unit != NONE {
            let b = self.board(s);
            for (i, u) in s.units.iter().enumerate() {
                if u.on_board()
                    && self.team(s, i) != self.team(s, t.act.unit as usize)
                    && let Some((k, _)) = self.shift_power(s, i)
                {
                    let q = u.owner as usize;
                    let cost = self.def(s, i).powers[k].cost;
                    for pay in self.pay_options(s, q, &s.players[q].hand, cost) {
                        for a in bits(b.adj(u.at as usize)) {
                            out.push(Action::Shift {
                                unit: self.uid(s, i).to_string(),
                                to: b.areas[a].id.clone(),
                                pay: pay.clone(),
                            });
                        }
                    }
                }
            }
        }
        for (i, u) in s.units.iter().enumerate() {
            if u.petrified && u.owner as usize == p && hand.count(self.def(s, i).card as usize) > 0 {
                out.push(Action::RemovePetrification {
                    unit: self.uid(s, i).to_string(),
                });
            }
        }
        let one = self.pay_options(s, p, &hand, 1);
        if t.manoeuvres & DRAW_TWO == 0 {
            for pay in &one {
                out.push(Action::DrawTwo {
                    cards: vec![],
                    others: BTreeMap::new(),
                    pay: pay.clone(),
                });
            }
        }
        if t.manoeuvres & SEARCH == 0 {
            for pay in &one {
                out.push(Action::Search {
                    card: String::new(),
                    pay: pay.clone(),
                });
            }
        }
        let god = s.players[p].god;
        if god != NONE && s.units[god as usize].on_board() {
            for (i, u) in s.units.iter().enumerate() {
                if u.owner as usize == p && self.def(s, i).cat == Cat::Troop && u.at != GONE {
                    for pay in &one {
                        out.push(Action::CallTroop {
                            troop: self.uid(s, i).to_string(),
                            pay: pay.clone(),
                        });
                    }
                }
            }
        }
        let cap = self.mode(s).max_activations + t.extra;
        if t.activations < cap && !t.rested {
            for (i, u) in s.units.iter().enumerate() {
                if u.owner as usize != p || !u.alive() || t.activated & (1 << i) != 0 {
                    continue;
                }
                let own = self.def(s, i).card as usize;
                for (card, c) in [(None, own), (Some(self.t.cards[OMPH as usize].clone()), OMPH as usize)] {
                    if hand.count(c) == 0 {
                        continue;
                    }
                    let pays = if t.activations == 1 && t.free as usize != i {
                        let mut h = hand;
                        h.take(c, 1);
                        self.pay_options(s, p, &h, 1)
                    } else {
                        vec![Vec::new()]
                    };
                    for pay in pays {
                        out.push(Action::Activate {
                            unit: self.uid(s, i).to_string(),
                            card: card.clone(),
                            pay,
                        });
                    }
                }
            }
        }
        for (i, u) in s.units.iter().enumerate() {
            if u.owner as usize != p || !u.on_board() {
                continue;
            }
            for pw in &self.def(s, i).powers {
                if matches!(pw.kind, PowerKind::Active | PowerKind::Permanent) {
                    for pay in self.pay_options(s, p, &hand, pw.cost) {
                        out.push(Action::Power {
                            unit: self.uid(s, i).to_string(),
                            power: Some(pw.slug.clone()),
                            pay,
                            effect: None,
                        });
                    }
                }
            }
        }
        out
    }

    pub(super) fn legal(&self, s: &State) -> Vec<Action> {
        if s.winner.is_some() {
            return Vec::new();
        }
        let t = &s.t;
        if !t.drawn {
            return vec![Action::Draw {
                cards: vec![],
                others: BTreeMap::new(),
            }];
        }
        if t.called {
            return vec![Action::EndTurn];
        }
        let p = self.to_move(s);
        let mut out: Vec<Action> = self
            .plausible(s, p)
            .into_iter()
            .filter(|a| self.check(s, a, false).is_ok())
            .collect();
        out.push(Action::EndTurn);
        out
    }

    /// Legal choices and near misses for mutation tests.
    pub(super) fn near_misses(&self, s: &State, rng: &mut fastrand::Rng) -> Vec<Action> {
        let mut out = self.legal(s);
        let p = self.to_move(s);
        out.extend(self.plausible(s, p));
        let b = self.board(s);
        // Units the misses are about: the active one, one of the player's,
        // one of anybody's.
        let mut who: Vec<usize> = Vec::new();
        if s.t.act.unit != NONE {
            who.push(s.t.act.unit as usize);
        }
        if !s.units.is_empty() {
            who.push(rng.usize(..s.units.len()));
            let own: Vec<usize> = (0..s.units.len()).filter(|&i| s.units[i].owner as usize == p).collect();
            if !own.is_empty() {
                who.push(own[rng.usize(..own.len())]);
            }
        }
        for &sl in &who {
            let unit = self.uid(s, sl).to_string();
            for a in &b.areas {
                out.push(Action::Move {
                    unit: unit.clone(),
                    to: a.id.clone(),
                });
                out.push(Action::Run {
                    unit: unit.clone(),
                    to: a.id.clone(),
                });
                out.push(Action::Enter {
                    unit: unit.clone(),
                    to: a.id.clone(),
                });
            }
            for d in 0..s.units.len() {
                let target = self.uid(s, d).to_string();
                out.push(attack(&unit, &target, None, vec![]));
                for pw in &self.def(s, sl).powers {
                    out.push(attack(&unit, &target, Some(pw.slug.clone()), vec![]));
                }
            }
            out.push(Action::Activate {
                unit: unit.clone(),
                card: None,
                pay: vec![],
            });
            out.push(Action::Activate {
                unit: unit.clone(),
                card: None,
                pay: vec![self.t.cards[AOW as usize].clone()],
            });
            out.push(Action::Counter {
                unit: unit.clone(),
                card: None,
                by: None,
                before: vec![],
                roll: vec![],
                reroll: vec![],
                hits: 0,
                drew: None,
            });
            out.push(Action::Counter {
                unit: unit.clone(),
                card: None,
                by: Some("king-of-sparta".into()),
                before: vec![],
                roll: vec![],
                reroll: vec![],
                hits: 0,
                drew: None,
            });
            out.push(Action::PickUp {
                unit: unit.clone(),
                from: None,
            });
            out.push(Action::Absorb {
                unit: unit.clone(),
                from: None,
            });
            out.push(Action::Drop { unit: unit.clone() });
            out.push(Action::Leave { unit: unit.clone() });
            for pw in &self.def(s, sl).powers {
                out.push(Action::Power {
                    unit: unit.clone(),
                    power: Some(pw.slug.clone()),
                    pay: vec![],
                    effect: None,
                });
            }
            if self.def(s, sl).cat == Cat::Troop {
                out.push(Action::CallTroop {
                    troop: unit,
                    pay: vec![],
                });
            }
        }
        out.push(Action::Draw {
            cards: vec![],
            others: BTreeMap::new(),
        });
        out.push(Action::Rest {
            cards: vec![],
            others: BTreeMap::new(),
        });
        out.push(Action::DrawTwo {
            cards: vec![],
            others: BTreeMap::new(),
            pay: vec![],
        });
        out.push(Action::Search {
            card: self.t.cards[rng.usize(..self.t.cards.len())].clone(),
            pay: vec![],
        });
        out.push(Action::EndTurn);
        out
    }
}

fn attack(unit: &str, target: &str, power: Option<String>, pay: Vec<String>) -> Action {
    Action::Attack {
        unit: unit.to_string(),
        target: target.to_string(),
        power,
        pay,
        before: vec![],
        guard: None,
        displace: None,
        roll: vec![],
        reroll: vec![],
        hits: 0,
        drew: None,
        effect: None,
    }
}
