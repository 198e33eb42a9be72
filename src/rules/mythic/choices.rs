//! Legal actions, near misses, chance results and random headers.

use std::collections::BTreeMap;

use super::dice::{max_rerolls, max_successes};
use super::play::pay_cards;
use super::tables::{PowerKind, bits};
use super::*;

/// Draws one card from a multiset: at random, or the first one.
fn pick(cards: &mut [u8; MAXC], rng: &mut Option<&mut fastrand::Rng>) -> Option<usize> {
    let n = total(cards);
    if n == 0 {
        return None;
    }
    let mut k = match rng {
        Some(r) => r.u32(..n),
        None => 0,
    };
    for (c, count) in cards.iter_mut().enumerate() {
        if k < *count as u32 {
            *count -= 1;
            return Some(c);
        }
        k -= *count as u32;
    }
    None
}

impl Mythic {
    /// Ways to pay `cost` Art of War cards from `hand`, canonical (`[]` for
    /// Art of War cards only; substitutes sorted).
    pub(super) fn pay_options(&self, s: &State, p: usize, hand: &[u8; MAXC], cost: u8) -> Vec<Vec<String>> {
        if cost == 0 {
            return vec![Vec::new()];
        }
        let spare = self.spare_cards(s, p);
        // Ways to pay one card: Art of War, an omphalos card, or a pair.
        let mut ones: Vec<(u8, [u8; MAXC])> = vec![(1, [0; MAXC])];
        let mut om = [0; MAXC];
        om[OMPH as usize] = 1;
        ones.push((0, om));
        let spares: Vec<usize> = (2..MAXC).filter(|&c| spare[c] && hand[c] > 0).collect();
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
            if aow > hand[AOW as usize] || !within(&m, hand) {
                continue;
            }
            let mut names: Vec<String> = Vec::new();
            for (c, &k) in m.iter().enumerate() {
                for _ in 0..k {
                    names.push(self.t.cards[c].clone());
                }
            }
            names.sort();
            if !out.contains(&names) {
                out.push(names);
            }
        }
        out
    }

    /// Chance results for an action: random with `rng`, else the first
    /// cards of the deck and blank dice.
    pub(super) fn fill(&self, s: &State, a: &mut Action, mut rng: Option<&mut fastrand::Rng>) {
        let p = self.to_move(s);
        match a {
            Action::Draw { cards, others } | Action::Rest { cards, others } => {
                self.fill_draw(s, &s.players[p], p, 1, cards, others, &mut rng);
            }
            Action::DrawTwo { cards, others, pay } => {
                let mut pl = s.players[p].clone();
                if let Ok(out) = self.check_pay(s, p, &pl.hand, 1, pay, "MB-4") {
                    pay_cards(&mut pl, &out);
                }
                self.fill_draw(s, &pl, p, 2, cards, others, &mut rng);
            }
            Action::Attack {
                unit,
                target,
                power,
                roll,
                reroll,
                hits,
                ..
            } => {
                let a = self.t.unit(unit).map(|u| s.slot[u as usize]).filter(|&x| x != NONE);
                let d = self.t.unit(target).map(|u| s.slot[u as usize]).filter(|&x| x != NONE);
                let st = match (a, d) {
                    (Some(a), Some(d)) if s.units[a as usize].on_board() && s.units[d as usize].on_board() => {
                        let pi = power
                            .as_deref()
                            .and_then(|n| self.def(s, a as usize).powers.iter().position(|p| p.slug == n));
                        self.strike(s, a as usize, d as usize, pi).ok()
                    }
                    _ => None,
                };
                roll_dice(st, roll, reroll, hits, &mut rng);
            }
            Action::Counter { roll, reroll, hits, .. } => {
                let st = s.t.pending.and_then(|(att, def)| {
                    if s.units[def as usize].on_board() && s.units[att as usize].on_board() {
                        self.strike(s, def as usize, att as usize, None).ok()
                    } else {
                        None
                    }
                });
                roll_dice(st, roll, reroll, hits, &mut rng);
            }
            Action::Search { card, .. } => {
                let mut deck = s.players[p].deck;
                *card = pick(&mut deck, &mut rng).map_or_else(String::new, |c| self.t.cards[c].clone());
            }
            _ => {}
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn fill_draw(
        &self,
        s: &State,
        pl: &Player,
        p: usize,
        n: u32,
        cards: &mut Vec<String>,
        others: &mut BTreeMap<String, Vec<String>>,
        rng: &mut Option<&mut fastrand::Rng>,
    ) {
        cards.clear();
        others.clear();
        let mut deck = pl.deck;
        let have = total(&deck);
        if have >= n {
            for _ in 0..n {
                if let Some(c) = pick(&mut deck, rng) {
                    cards.push(self.t.cards[c].clone());
                }
            }
            return;
        }
        for (c, &k) in deck.iter().enumerate() {
            for _ in 0..k {
                cards.push(self.t.cards[c].clone());
            }
        }
        let extra = self.mode(s).reshuffle as u32;
        let mut fresh = pl.discard;
        for _ in 0..(n - have + extra) {
            if let Some(c) = pick(&mut fresh, rng) {
                cards.push(self.t.cards[c].clone());
            }
        }
        for (q, o) in s.players.iter().enumerate() {
            if q == p || o.out {
                continue;
            }
            let mut fresh = o.discard;
            let mut got = Vec::new();
            for _ in 0..extra {
                if let Some(c) = pick(&mut fresh, rng) {
                    got.push(self.t.cards[c].clone());
                }
            }
            if !got.is_empty() {
                others.insert(s.names[q].clone(), got);
            }
        }
    }

    pub(super) fn fill_chance(&self, s: &State, a: &mut Action, rng: &mut fastrand::Rng) {
        self.fill(s, a, Some(rng));
    }

    /// Plausible choices: the legal ones are among them.
    fn plausible(&self, s: &State, p: usize) -> Vec<Action> {
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
                for a in bits(self.reach(s, sl, mv)) {
                    out.push(Action::Move {
                        unit: unit.clone(),
                        to: b.areas[a].id.clone(),
                    });
                }
                for a in bits(self.reach(s, sl, mv + 1)) {
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
                    out.push(attack(&unit, &target, None, vec![]));
                    for (i, pw) in self.def(s, sl).powers.iter().enumerate() {
                        if pw.kind == PowerKind::Special {
                            let cost = if t.act.power == i as u8 { 0 } else { pw.cost };
                            for pay in self.pay_options(s, p, &hand, cost) {
                                out.push(attack(&unit, &target, Some(pw.slug.clone()), pay));
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
                for a in bits(b.adj[u.at as usize]) {
                    if s.ground[a] > 0 && self.talents(s, sl) & tables::talent::GEM_COLLECTOR != 0 {
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
            if s.players[q].hand[self.def(s, def as usize).card as usize] > 0 {
                out.push(Action::Counter {
                    unit: unit.clone(),
                    card: None,
                    roll: vec![],
                    reroll: vec![],
                    hits: 0,
                });
            }
            if s.players[q].hand[OMPH as usize] > 0 {
                out.push(Action::Counter {
                    unit,
                    card: Some(self.t.cards[OMPH as usize].clone()),
                    roll: vec![],
                    reroll: vec![],
                    hits: 0,
                });
            }
        }
        if t.activations == 0 && !t.rested {
            out.push(Action::Rest {
                cards: vec![],
                others: BTreeMap::new(),
            });
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
                    if hand[c] == 0 {
                        continue;
                    }
                    let pays = if t.activations == 1 {
                        let mut h = hand;
                        h[c] -= 1;
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
                roll: vec![],
                reroll: vec![],
                hits: 0,
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

    pub(super) fn random_header(&self, rng: &mut fastrand::Rng) -> Setup {
        const NAMES: [&str; 4] = ["Ana", "Ben", "Cai", "Dua"];
        let playable: Vec<usize> = (0..self.t.modes.len())
            .filter(|&m| {
                let mode = &self.t.modes[m];
                self.t.boards.iter().any(|b| {
                    b.omphalos.iter().any(|(mi, _)| *mi == m)
                        && (0..mode.players as usize).all(|p| b.deploy[(mode.side(p) as usize - 1).min(3)] != 0)
                })
            })
            .collect();
        // Two-player games more often: they are the common case.
        let mut weighted = Vec::new();
        for &m in &playable {
            let w = match self.t.modes[m].shape {
                Shape::Fixed => 10,
                _ if self.t.modes[m].players == 2 => 2,
                _ => 1,
            };
            weighted.extend(std::iter::repeat_n(m, w));
        }
        let m = weighted[rng.usize(..weighted.len())];
        let mode = &self.t.modes[m];
        let board = self
            .t
            .boards
            .iter()
            .position(|b| b.omphalos.iter().any(|(mi, _)| *mi == m))
            .unwrap_or(0);
        let n = mode.players as usize;
        let mut armies: Vec<Vec<u8>> = vec![Vec::new(); n];
        if mode.shape == Shape::Fixed {
            let mut order: Vec<usize> = (0..mode.armies.len()).collect();
            rng.shuffle(&mut order);
            for p in 0..n {
                armies[p] = mode.armies[order[p % order.len()]].clone();
            }
        } else {
            let mut gods: Vec<u8> = (0..self.t.units.len() as u8)
                .filter(|&u| self.t.units[u as usize].cat == Cat::God)
                .collect();
            rng.shuffle(&mut gods);
            for &p in &mode.gods {
                if let Some(g) = gods.pop() {
                    armies[p as usize].push(g);
                }
            }
            let mut pool: Vec<u8> = (0..self.t.units.len() as u8)
                .filter(|&u| self.t.units[u as usize].cat != Cat::God)
                .collect();
            let mut points: Vec<u8> = (0..n)
                .map(|p| {
                    if mode.shape == Shape::Lone && p > 0 {
                        mode.ally_points
                    } else {
                        mode.points
                    }
                })
                .collect();
            loop {
                let mut progress = false;
                for p in (0..n).rev() {
                    let fits: Vec<usize> = (0..pool.len())
                        .filter(|&i| self.t.units[pool[i] as usize].cost <= points[p])
                        .collect();
                    if fits.is_empty() {
                        continue;
                    }
                    let u = pool.remove(fits[rng.usize(..fits.len())]);
                    points[p] -= self.t.units[u as usize].cost;
                    armies[p].push(u);
                    progress = true;
                }
                if !progress {
                    break;
                }
            }
        }
        // Learning scenario: the seed's placement diagram is lost, so units
        // start anywhere there is room (armies meet sooner that way).
        let mut starts: Vec<BTreeMap<String, String>> = vec![BTreeMap::new(); n];
        if mode.shape == Shape::Fixed {
            let b = &self.t.boards[board];
            let mut room: Vec<u8> = b.areas.iter().map(|a| a.capacity).collect();
            let spots: Vec<usize> = b
                .omphalos
                .iter()
                .find(|(mi, _)| *mi == m)
                .map(|(_, l)| l.iter().map(|&a| a as usize).collect())
                .unwrap_or_default();
            for (p, army) in armies.iter().enumerate() {
                for &u in army {
                    // Gods like to start by an omphalos.
                    let god = self.t.units[u as usize].cat == Cat::God;
                    let mut open: Vec<usize> = (0..room.len()).filter(|&a| room[a] > 0).collect();
                    if god && rng.bool() {
                        open.retain(|a| spots.contains(a));
                        if open.is_empty() {
                            open = (0..room.len()).filter(|&a| room[a] > 0).collect();
                        }
                    }
                    if open.is_empty() {
                        break;
                    }
                    let a = open[rng.usize(..open.len())];
                    room[a] -= 1;
                    starts[p].insert(self.t.units[u as usize].id.clone(), b.areas[a].id.clone());
                }
            }
        }
        let players = armies
            .iter()
            .enumerate()
            .map(|(p, army)| {
                let mut deck = [0u8; MAXC];
                for &u in army {
                    let d = &self.t.units[u as usize];
                    deck[d.card as usize] += d.activation;
                    deck[AOW as usize] += d.strategy;
                }
                let mut r = Some(&mut *rng);
                let draw = (0..mode.opening_draw)
                    .filter_map(|_| pick(&mut deck, &mut r).map(|c| self.t.cards[c].clone()))
                    .collect();
                PlayerSetup {
                    name: NAMES[p % 4].to_string(),
                    deck: army.iter().map(|&u| (self.t.units[u as usize].id.clone(), 1)).collect(),
                    draw,
                    role: None,
                    start: starts[p].clone(),
                }
            })
            .collect();
        Setup {
            mode: mode.id.clone(),
            battlefield: Some(self.t.boards[board].id.clone()),
            players,
        }
    }
}

fn attack(unit: &str, target: &str, power: Option<String>, pay: Vec<String>) -> Action {
    Action::Attack {
        unit: unit.to_string(),
        target: target.to_string(),
        power,
        pay,
        roll: vec![],
        reroll: vec![],
        hits: 0,
        effect: None,
    }
}

/// Dice for a strike (or 3 blank dice when the attack cannot happen).
fn roll_dice(
    st: Option<play::Strike>,
    roll: &mut Vec<u8>,
    reroll: &mut Vec<u8>,
    hits: &mut u8,
    rng: &mut Option<&mut fastrand::Rng>,
) {
    roll.clear();
    reroll.clear();
    *hits = 0;
    let dice = st.map_or(3, |s| s.dice);
    match rng {
        None => roll.resize(dice as usize, 0),
        Some(r) => {
            for _ in 0..dice {
                roll.push(r.u8(0..=5));
            }
            let most = max_rerolls(roll);
            if most > 0 && r.bool() {
                for _ in 0..r.usize(1..=most) {
                    reroll.push(r.u8(0..=5));
                }
            }
            if let Some(s) = st {
                *hits = max_successes(roll, reroll, s.defense).unwrap_or(0);
            }
        }
    }
}
