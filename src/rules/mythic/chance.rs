//! Chance in a Mythic Battles log: cards drawn (with new battle cycles) and
//! searched, the dice of attacks and counters. Canonical forms, the dice
//! arithmetic the engine checks rolls with, random outcomes and headers.

use std::collections::BTreeMap;

use super::Mythic;
use super::actions::{Action, Drawn};
use super::rule;
use super::setup::{PlayerSetup, Setup, StartAreas};
use super::state::{NONE, Player, State, pay_cards};
use super::tables::{AOW, Cat, MAXC, Shape};
use super::validate::Strike;
use crate::rules::Engine;
use crate::rules::kit::Pile;

impl Mythic {
    /// The action with chance results cleared and payments sorted.
    pub(super) fn canonical(&self, a: &Action) -> Action {
        let mut a = a.clone();
        match &mut a {
            Action::Draw { cards, others } | Action::Rest { cards, others } => {
                cards.clear();
                others.clear();
            }
            Action::DrawTwo { cards, others, pay } => {
                cards.clear();
                others.clear();
                pay.sort();
            }
            Action::Attack {
                before,
                roll,
                reroll,
                hits,
                pay,
                effect,
                drew,
                ..
            } => {
                *drew = None;
                before.clear();
                roll.clear();
                reroll.clear();
                *hits = 0;
                *effect = None;
                pay.sort();
            }
            Action::Counter {
                before,
                roll,
                reroll,
                hits,
                drew,
                ..
            } => {
                *drew = None;
                before.clear();
                roll.clear();
                reroll.clear();
                *hits = 0;
            }
            Action::Power { pay, effect, .. } => {
                pay.sort();
                *effect = None;
            }
            Action::Search { card, pay } => {
                // The card taken is recorded like a drawn card.
                card.clear();
                pay.sort();
            }
            Action::CallTroop { pay, .. } | Action::Activate { pay, .. } => pay.sort(),
            _ => {}
        }
        a
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
                if let Ok(out) = self.check_pay(s, p, &pl.hand, 1, pay, rule::ART_OF_WAR) {
                    pay_cards(&mut pl, &out);
                }
                self.fill_draw(s, &pl, p, self.t.fx.draw_two(), cards, others, &mut rng);
            }
            Action::Attack {
                unit,
                target,
                power,
                guard,
                displace,
                before,
                roll,
                reroll,
                hits,
                drew,
                ..
            } => {
                let target = guard.as_ref().unwrap_or(target);
                let a = self.t.unit(unit).map(|u| s.slot[u as usize]).filter(|&x| x != NONE);
                let d = self.t.unit(target).map(|u| s.slot[u as usize]).filter(|&x| x != NONE);
                let st = match (a, d) {
                    (Some(a), Some(d)) if s.units[a as usize].on_board() && s.units[d as usize].on_board() => {
                        let pi = power
                            .as_deref()
                            .and_then(|n| self.def(s, a as usize).powers.iter().position(|p| p.slug == n));
                        self.strike(s, a as usize, d as usize, pi).ok().map(|st| {
                            let spent = displace.as_deref().map_or(0, |to| {
                                self.displaced(s, a as usize, d as usize, pi, st, to, None)
                                    .map_or(0, |x| x.1)
                            });
                            (st, self.first_rerolls(s, a as usize, d as usize, pi, st), spent)
                        })
                    }
                    _ => None,
                };
                roll_dice(st.map(|x| (x.0, x.1)), before, roll, reroll, hits, &mut rng);
                // Blanks a Mighty Throw discards: the last dice, never rerolled.
                let spent = st.map_or(0, |x| usize::from(x.2)).min(roll.len());
                if spent > 0 && rng.is_some() {
                    let n = roll.len();
                    for i in n - spent..n {
                        roll[i] = 0;
                        if let Some(b) = before.get_mut(i) {
                            *b = 0;
                        }
                    }
                    if let Some((st, _, _)) = st {
                        let mut kept = roll.clone();
                        kept.truncate(n - spent);
                        reroll.clear();
                        *hits = max_successes(&st.counted(&kept), reroll, st.defense).unwrap_or(0);
                    }
                }
                if let (Some(a), Some(d)) = (a, d) {
                    let pi = power
                        .as_deref()
                        .and_then(|n| self.def(s, a as usize).powers.iter().position(|p| p.slug == n));
                    *drew = self.fill_kill_draw(s, a as usize, d as usize, pi, *hits, &mut rng);
                }
            }
            Action::Counter {
                before,
                roll,
                reroll,
                hits,
                drew,
                ..
            } => {
                let st = s.t.pending.and_then(|(att, def)| {
                    let (a, d) = (def as usize, att as usize);
                    if s.units[a].on_board() && s.units[d].on_board() {
                        let st = self.strike(s, a, d, None).ok()?;
                        Some((st, self.first_rerolls(s, a, d, None, st)))
                    } else {
                        None
                    }
                });
                roll_dice(st, before, roll, reroll, hits, &mut rng);
                *drew = match s.t.pending {
                    Some((att, def)) if st.is_some() => {
                        self.fill_kill_draw(s, def as usize, att as usize, None, *hits, &mut rng)
                    }
                    _ => None,
                };
            }
            Action::Search { card, .. } => {
                let mut deck = s.players[p].deck;
                *card = pick(&mut deck, &mut rng).map_or_else(String::new, |c| self.t.cards[c].clone());
            }
            _ => {}
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn fill_draw(
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
        let have = u32::from(deck.total());
        if have >= n {
            for _ in 0..n {
                if let Some(c) = pick(&mut deck, rng) {
                    cards.push(self.t.cards[c].clone());
                }
            }
            return;
        }
        for (c, &k) in deck.counts().iter().enumerate() {
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

    /// The cards an effect of the destruction of `d` draws (Realm of
    /// Shades), drawn at random or from the top.
    fn fill_kill_draw(
        &self,
        s: &State,
        a: usize,
        d: usize,
        pi: Option<usize>,
        hits: u8,
        rng: &mut Option<&mut fastrand::Rng>,
    ) -> Option<Drawn> {
        let k = self.kill_draw(s, a, d, pi, hits)?;
        let mut x = Drawn {
            cards: Vec::new(),
            others: BTreeMap::new(),
        };
        self.fill_draw(s, &s.players[k.player], k.player, k.n, &mut x.cards, &mut x.others, rng);
        Some(x)
    }

    /// How many dice of the first throw effects let `a` reroll against
    /// `d` (every die with a `reroll-any` power paid this turn).
    fn first_rerolls(&self, s: &State, a: usize, d: usize, pi: Option<usize>, st: Strike) -> usize {
        if self.reroll_any(s, a).is_some() {
            return usize::from(st.dice);
        }
        self.reroll_parts(s, a, d, pi, st)
            .iter()
            .map(|(_, n)| *n as usize)
            .sum()
    }

    pub(super) fn fill_chance(&self, s: &State, a: &mut Action, rng: &mut fastrand::Rng) {
        self.fill(s, a, Some(rng));
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
        let n = mode.players as usize;
        // Any battlefield that places the mode's omphalos and deploys its
        // sides, so every board's terrain comes into play.
        let boards: Vec<usize> = (0..self.t.boards.len())
            .filter(|&i| {
                let b = &self.t.boards[i];
                b.omphalos.iter().any(|(mi, _)| *mi == m)
                    && (0..n).all(|p| b.deploy[(mode.side(p) as usize - 1).min(3)] != 0)
            })
            .collect();
        let board = if boards.is_empty() {
            0
        } else {
            boards[rng.usize(..boards.len())]
        };
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
        // Learning scenario: units start in their side's deployment areas
        // (or, with the mode's `start_areas: anywhere`, wherever there is
        // room — Gods then like to start by an omphalos).
        let mut starts: Vec<BTreeMap<String, String>> = vec![BTreeMap::new(); n];
        // Now and then the players agree to set up anywhere (`start_areas`).
        let free = mode.shape == Shape::Fixed && !mode.start_anywhere && rng.u8(..3) == 0;
        let anywhere = mode.start_anywhere || free;
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
                let allowed = |a: usize| anywhere || b.deploy[(mode.side(p) as usize - 1).min(3)] & (1 << a) != 0;
                for &u in army {
                    let god = self.t.units[u as usize].cat == Cat::God;
                    let mut open: Vec<usize> = (0..room.len()).filter(|&a| room[a] > 0 && allowed(a)).collect();
                    if god && anywhere && rng.bool() {
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
                let mut pile = Pile::of(deck);
                let mut r = Some(&mut *rng);
                let draw = (0..mode.opening_draw)
                    .filter_map(|_| pick(&mut pile, &mut r).map(|c| self.t.cards[c].clone()))
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
            start_areas: free.then_some(StartAreas::Anywhere),
            players,
        }
    }
}

/// Draws one card from a multiset: at random, or the first one.
fn pick(cards: &mut Pile<MAXC>, rng: &mut Option<&mut fastrand::Rng>) -> Option<usize> {
    let n = u32::from(cards.total());
    if n == 0 {
        return None;
    }
    let k = match rng {
        Some(r) => r.u32(..n),
        None => 0,
    };
    let c = cards.nth(k as u16)?;
    cards.take(c, 1);
    Some(c)
}

/// Dice for a strike (or 3 blank dice when the attack cannot happen),
/// with `first` dice of the first throw that effects let be rerolled.
fn roll_dice(
    st: Option<(Strike, usize)>,
    before: &mut Vec<u8>,
    roll: &mut Vec<u8>,
    reroll: &mut Vec<u8>,
    hits: &mut u8,
    rng: &mut Option<&mut fastrand::Rng>,
) {
    before.clear();
    roll.clear();
    reroll.clear();
    *hits = 0;
    let first = st.map_or(0, |(_, n)| n);
    let st = st.map(|(s, _)| s);
    let dice = st.map_or(3, |s| s.dice);
    match rng {
        None => roll.resize(dice as usize, 0),
        Some(r) => {
            for _ in 0..dice {
                roll.push(r.u8(0..=5));
            }
            // Effects that reroll dice of the first throw: now and then
            // some of them (a die may well come up the same).
            if first > 0 && r.bool() {
                before.clone_from(roll);
                let k = r.usize(1..=first.min(roll.len()));
                for i in 0..k {
                    roll[i] = r.u8(0..=5);
                }
            }
            let most = max_rerolls(&st.map_or_else(|| roll.clone(), |s| s.counted(roll)));
            if most > 0 && r.bool() {
                for _ in 0..r.usize(1..=most) {
                    reroll.push(r.u8(0..=5));
                }
            }
            if let Some(s) = st {
                *hits = max_successes(&s.counted(roll), reroll, s.defense).unwrap_or(0);
            }
        }
    }
}

// The attack roll (MB-8): which numbers of successes the logged dice allow.
//
// A die shows a blank (written `0`) or 1 to 5. Blanks are lost. Any
// numbered die may be set aside for a +1 token given to another die. Dice
// worth 5 (naturally or with tokens) may be rerolled, the result added to
// the 5 (a rerolled blank makes the die worth 0 and removes it). After the
// reroll more dice may be set aside. A die whose total is at least the
// target's defense is a success. (A die reaching 10 may be rolled once more,
// but since defense never exceeds 10 that can only lose a success: logs
// have no field for it.)

/// Why a roll cannot be what the log says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RollError {
    /// A die face outside blank (0) and 1..=5.
    Face(u8),
    /// More rerolled dice than dice that could be brought to 5.
    Rerolls { asked: usize, possible: usize },
}

/// Most dice that can be rerolled: the highest numbered dice are lifted to
/// 5 with tokens from the other numbered dice.
pub fn max_rerolls(roll: &[u8]) -> usize {
    let mut numbered: Vec<u8> = roll.iter().copied().filter(|v| (1..=5).contains(v)).collect();
    numbered.sort_unstable_by(|a, b| b.cmp(a));
    let mut lift = 0usize;
    let mut best = 0;
    for k in 1..=numbered.len() {
        lift += 5 - numbered[k - 1] as usize;
        if lift <= numbered.len() - k {
            best = k;
        }
    }
    best
}

/// The most successes the logged dice allow against `defense`; every
/// number from 0 to that one is reachable (a success may always be set
/// aside instead).
pub fn max_successes(roll: &[u8], reroll: &[u8], defense: u8) -> Result<u8, RollError> {
    if let Some(&f) = roll.iter().chain(reroll).find(|&&v| v > 5) {
        return Err(RollError::Face(f));
    }
    let mut numbered = [0u8; 16];
    let mut n = 0;
    for &v in roll {
        if v > 0 && n < numbered.len() {
            numbered[n] = v;
            n += 1;
        }
    }
    let numbered = &mut numbered[..n];
    numbered.sort_unstable_by(|a, b| b.cmp(a));
    let k = reroll.len();
    let possible = max_rerolls(roll);
    if k > possible {
        return Err(RollError::Rerolls { asked: k, possible });
    }
    let lift: usize = numbered[..k].iter().map(|&v| 5 - v as usize).sum();
    // The pool after the reroll: rerolled dice still alive (6..=10), then
    // the kept initial dice (1..=5), best first.
    let mut pool = [0u8; 32];
    let mut m = 0;
    for &r in reroll {
        if r > 0 {
            pool[m] = 5 + r;
            m += 1;
        }
    }
    let alive_rerolled = m;
    for &v in &numbered[k..] {
        pool[m] = v;
        m += 1;
    }
    let pool = &mut pool[..m];
    pool.sort_unstable_by(|a, b| b.cmp(a));
    let initial_left = numbered.len() - k;
    for w in (0..=m).rev() {
        let cost: usize = pool[..w].iter().map(|&v| defense.saturating_sub(v) as usize).sum();
        let tokens = m - w;
        // Tokens for the lift come from initial dice outside the successes.
        let initial_in_w = w.saturating_sub(alive_rerolled);
        if lift + cost <= tokens && lift <= initial_left - initial_in_w.min(initial_left) {
            return Ok(w as u8);
        }
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rulebook_example_gives_two_successes() {
        // Odysseus (5 dice) against Leonidas (defense 7): blank, 1, 2, 4, 5;
        // the 5 and the lifted 4 are rerolled for 3 and 1: 8 and 7.
        assert_eq!(max_successes(&[0, 1, 2, 4, 5], &[3, 1], 7), Ok(2));
        // Without rerolls the best die is a 5 (+2 tokens = 7): one success.
        assert_eq!(max_successes(&[0, 1, 2, 4, 5], &[], 7), Ok(1));
    }

    #[test]
    fn the_hydra_against_the_spartans() {
        // blank, 2, 3, 4, 5 against 6; rerolls blank and 2: one success.
        assert_eq!(max_successes(&[0, 2, 3, 4, 5], &[0, 2], 6), Ok(1));
    }

    #[test]
    fn rerolls_need_dice_worth_five() {
        assert_eq!(max_rerolls(&[1, 1, 1]), 0);
        assert_eq!(max_rerolls(&[4, 1]), 1);
        assert_eq!(max_rerolls(&[5, 5, 0]), 2);
        assert_eq!(
            max_successes(&[4, 1], &[3, 3], 5),
            Err(RollError::Rerolls { asked: 2, possible: 1 })
        );
        assert_eq!(max_successes(&[6], &[], 5), Err(RollError::Face(6)));
    }

    #[test]
    fn low_defense_counts_every_numbered_die() {
        assert_eq!(max_successes(&[1, 2, 0, 3], &[], 1), Ok(3));
        assert_eq!(max_successes(&[0, 0], &[], 0), Ok(0));
        // Tokens: 2 and 2 lift the 3 to 5 against defense 5.
        assert_eq!(max_successes(&[3, 2, 2], &[], 5), Ok(1));
    }
}
