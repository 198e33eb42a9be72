//! The state after a validated action: cards drawn and paid, units placed,
//! moved, wounded and called, omphalos carried and absorbed, the turn passed
//! on; eliminations and victory (MB-13).

use std::collections::BTreeMap;

use super::Mythic;
use super::actions::{Action, Drawn};
use super::effects::{self as fx, Out, Per, When};
use super::rule;
use super::state::{ATTACK, Act, DEAD, DRAW_TWO, GONE, MOVE, NONE, PICK, SEARCH, State, Turn, pay_cards, tally};
use super::tables::{AOW, MAXC, OMPH, PowerKind, Shape};
use super::validate::KillDraw;
use crate::rules::Engine;

impl Mythic {
    // ------------------------------------------------------------ apply

    pub(super) fn draw_into(
        &self,
        s: &mut State,
        p: usize,
        n: u32,
        cards: &[String],
        others: &BTreeMap<String, Vec<String>>,
    ) {
        let c = tally(&self.t, cards).unwrap_or([0; MAXC]);
        let pl = &mut s.players[p];
        if u32::from(pl.deck.total()) >= n {
            for x in 0..MAXC {
                let k = pl.deck.take(x, c[x]);
                pl.hand.add(x, k);
            }
            return;
        }
        for x in 0..MAXC {
            let fresh = c[x].saturating_sub(pl.deck.count(x)).min(pl.discard.count(x));
            pl.hand.add(x, pl.deck.count(x) + fresh);
            pl.deck.set(x, pl.discard.count(x) - fresh);
            pl.discard.set(x, 0);
        }
        s.cycles += 1;
        for q in 0..s.players.len() {
            if q == p || s.players[q].out {
                continue;
            }
            let got = others
                .get(s.names[q].as_str())
                .and_then(|l| tally(&self.t, l).ok())
                .unwrap_or([0; MAXC]);
            let o = &mut s.players[q];
            for x in 0..MAXC {
                let k = got[x].min(o.discard.count(x));
                o.hand.add(x, o.deck.count(x) + k);
                o.deck.set(x, o.discard.count(x) - k);
                o.discard.set(x, 0);
            }
        }
    }

    pub(super) fn wound(&self, s: &mut State, slot: usize, hits: u8) {
        let life = self.def(s, slot).life();
        let u = &mut s.units[slot];
        if !u.on_board() {
            return;
        }
        u.wounds = u.wounds.saturating_add(hits).min(life);
        if u.wounds >= life {
            if u.carry {
                s.ground[u.at as usize] += 1;
                u.carry = false;
            }
            u.at = DEAD;
            u.petrified = false;
            if s.t.act.unit as usize == slot {
                s.t.act.unit = NONE;
            }
        }
    }

    /// The wounds `hits` successes of `a` deal `d`, with the defender's
    /// effects (Resilience: one fewer).
    pub(super) fn wounds_dealt(&self, s: &State, a: usize, d: usize, power: Option<usize>, hits: u8) -> u8 {
        if hits == 0 {
            return 0;
        }
        let melee = self.strike(s, a, d, power).is_ok_and(|st| st.melee);
        let st = fx::Strike {
            a,
            d,
            melee,
            special: power.is_some(),
        };
        let m = self.unit_mod(s, d, &[When::Defend], Out::Wounds, Some(st));
        (i16::from(hits) + m).clamp(0, 255) as u8
    }

    /// The cards an effect of a destruction draws (Realm of Shades).
    fn draw_for_kill(&self, s: &mut State, kill: Option<KillDraw>, drew: Option<&Drawn>) {
        if let (Some(k), Some(x)) = (kill, drew) {
            self.draw_into(s, k.player, k.n, &x.cards, &x.others);
        }
    }

    /// Counts the use of the power whose `reroll-any` the first throw's
    /// rerolls needed (Bloodlust: once).
    fn spend_rerolls(&self, s: &mut State, a: usize, d: usize, pi: Option<usize>, before: &[u8], roll: &[u8]) {
        if before.is_empty() {
            return;
        }
        if let Ok(st) = self.strike(s, a, d, pi)
            && let Ok(Some((src, clause))) = self.check_before(s, a, d, pi, st, before, roll)
        {
            s.uses.add(src.owner, src.card, clause, Per::Turn);
        }
    }

    pub(super) fn pay(&self, s: &mut State, p: usize, cost: u8, pay: &[String]) {
        let hand = s.players[p].hand;
        if let Ok(out) = self.check_pay(s, p, &hand, cost, pay, rule::ART_OF_WAR) {
            // The cards paid with are used for what their effect gives.
            if out[AOW as usize] > 0 {
                self.noted(self.t.fx.art_of_war, "art-of-war");
            }
            if out[OMPH as usize] > 0 {
                self.noted(self.t.fx.omphalos, "omphalos");
            }
            pay_cards(&mut s.players[p], &out);
        }
    }

    /// Notes the effect `d` (a manoeuvre, a card paid with) as used: the
    /// engine reads what it gives from the pack and applies it here.
    pub(super) fn noted(&self, d: Option<u16>, name: &str) {
        if let Some(d) = d {
            self.t.fx.defs[usize::from(d)].note(0, true, || name.to_owned());
        }
    }

    pub(super) fn discard_one(&self, s: &mut State, p: usize, card: usize) {
        let pl = &mut s.players[p];
        pl.hand.move_to(card, &mut pl.discard);
    }

    pub(super) fn step(&self, mut s: State, a: &Action) -> State {
        let p = self.to_move(&s);
        if !matches!(a, Action::Counter { .. }) {
            s.t.pending = None;
        }
        // Leader's free activation is for the very next action only.
        let free = std::mem::replace(&mut s.t.free, NONE);
        match a {
            Action::Draw { cards, others } => {
                self.draw_into(&mut s, p, 1, cards, others);
                s.t.drawn = true;
            }
            Action::Rest { cards, others } => {
                self.draw_into(&mut s, p, 1, cards, others);
                s.t.rested = true;
                s.t.act.unit = NONE;
            }
            Action::DrawTwo { cards, others, pay } => {
                self.pay(&mut s, p, 1, pay);
                self.draw_into(&mut s, p, self.t.fx.draw_two(), cards, others);
                s.t.manoeuvres |= DRAW_TWO;
                self.noted(self.t.fx.maneuver("draw-two"), "draw-two");
            }
            Action::Search { card, pay } => {
                self.pay(&mut s, p, 1, pay);
                if let Some(c) = self.t.card(card) {
                    let pl = &mut s.players[p];
                    pl.deck.move_to(c as usize, &mut pl.hand);
                }
                s.t.manoeuvres |= SEARCH;
                self.noted(self.t.fx.maneuver("search-card"), "search-card");
            }
            Action::CallTroop { troop, pay } => {
                self.pay(&mut s, p, 1, pay);
                self.noted(self.t.fx.maneuver("call-troop"), "call-troop");
                let god_at = s.units[s.players[p].god as usize].at;
                if let Some(sl) = self.t.unit(troop).map(|u| s.slot[u as usize] as usize) {
                    let u = &mut s.units[sl];
                    if u.carry && u.on_board() {
                        s.ground[u.at as usize] += 1;
                    }
                    u.carry = false;
                    u.at = god_at;
                    u.wounds = 0;
                    u.petrified = false;
                }
                s.t.called = true;
                s.t.act.unit = NONE;
            }
            Action::Activate { unit, card, pay } => {
                let sl = self.t.unit(unit).map_or(0, |u| s.slot[u as usize] as usize);
                let c = match card.as_deref() {
                    Some(id) => self.t.card(id).unwrap_or(OMPH) as usize,
                    None => self.def(&s, sl).card as usize,
                };
                self.discard_one(&mut s, p, c);
                if s.t.activations == 1 && free as usize != sl {
                    self.pay(&mut s, p, 1, pay);
                    self.noted(self.t.fx.maneuver("second-activation"), "second-activation");
                }
                s.t.activations += 1;
                s.t.activated |= 1 << sl;
                s.t.act = Act {
                    unit: sl as u8,
                    ..Act::IDLE
                };
                s.t.led = false;
            }
            Action::Enter { to, .. } => {
                let sl = s.t.act.unit as usize;
                if let Some(to) = self.board(&s).area(to) {
                    s.units[sl].at = to;
                }
                s.t.act.special = true;
                s.t.special |= 1 << sl;
            }
            Action::Move { to, .. } => {
                let sl = s.t.act.unit as usize;
                if let Some(to) = self.board(&s).area(to) {
                    s.units[sl].at = to;
                    s.t.act.over |= self.on_entering(&s, sl, to as usize, Out::EndActivation).is_some();
                }
                s.t.act.simple |= MOVE;
            }
            Action::Run { to, .. } => {
                let sl = s.t.act.unit as usize;
                if let Some(to) = self.board(&s).area(to) {
                    s.units[sl].at = to;
                    s.t.act.over |= self.on_entering(&s, sl, to as usize, Out::EndActivation).is_some();
                }
                s.t.act.special = true;
                s.t.special |= 1 << sl;
            }
            Action::Leave { .. } => {
                let sl = s.t.act.unit as usize;
                if s.units[sl].carry {
                    s.removed += 1;
                    s.units[sl].carry = false;
                }
                s.units[sl].at = GONE;
                s.t.act.unit = NONE;
            }
            Action::Attack {
                target,
                power,
                pay,
                hits,
                guard,
                displace,
                before,
                roll,
                drew,
                ..
            } => {
                let sl = s.t.act.unit as usize;
                // Guard: the unit that made itself the target is attacked.
                let target = guard.as_ref().unwrap_or(target);
                let d = self.t.unit(target).map_or(0, |u| s.slot[u as usize] as usize);
                let pi = power
                    .as_deref()
                    .and_then(|n| self.def(&s, sl).powers.iter().position(|p| p.slug == n));
                if let Some(i) = pi
                    && s.t.act.power != i as u8
                {
                    let cost = self.def(&s, sl).powers[i].cost;
                    self.pay(&mut s, p, cost, pay);
                    if cost > 0 {
                        s.t.powers |= 1u128 << (sl * 4 + i);
                        self.noted(self.t.fx.maneuver("use-power"), "use-power");
                    }
                    s.t.act.power = i as u8;
                }
                self.spend_rerolls(&mut s, sl, d, pi, before, roll);
                let st = self.strike(&s, sl, d, pi).ok();
                let melee = st.is_some_and(|st| st.melee);
                // Mighty Throw: where the defender lands, if it survives.
                let thrown = match (displace, st) {
                    (Some(to), Some(st)) => self.displaced(&s, sl, d, pi, st, to, None).ok().map(|x| x.0),
                    _ => None,
                };
                // Petrifying Gaze: a success petrifies instead of wounding.
                let petrify = *hits > 0 && pi.is_some_and(|i| self.petrifies(&s, sl, i));
                let hits = if petrify { 0 } else { *hits };
                let kill = self.kill_draw(&s, sl, d, pi, hits);
                let wounds = self.wounds_dealt(&s, sl, d, pi, hits);
                if petrify {
                    s.units[d].petrified = true;
                }
                s.t.act.attacks += 1;
                s.t.act.simple |= ATTACK;
                s.t.act.targets |= 1 << d;
                self.wound(&mut s, d, wounds);
                if let Some(area) = thrown
                    && s.units[d].on_board()
                {
                    s.units[d].at = area;
                }
                self.draw_for_kill(&mut s, kill, drew.as_ref());
                if melee && s.units[d].on_board() && s.units[d].at == s.units[sl].at {
                    s.t.pending = Some((sl as u8, d as u8));
                }
            }
            Action::Counter {
                card,
                hits,
                by,
                before,
                roll,
                drew,
                ..
            } => {
                if let Some((att, def)) = s.t.pending {
                    self.spend_rerolls(&mut s, def as usize, att as usize, None, before, roll);
                    let q = s.units[def as usize].owner as usize;
                    match by {
                        // A free counter-attack: the effect's use is counted.
                        Some(by) => self.use_free_counter(&mut s, def as usize, by),
                        None => {
                            let c = match card.as_deref() {
                                Some(id) => self.t.card(id).unwrap_or(OMPH) as usize,
                                None => self.def(&s, def as usize).card as usize,
                            };
                            self.discard_one(&mut s, q, c);
                        }
                    }
                    s.t.countered |= 1 << def;
                    let kill = self.kill_draw(&s, def as usize, att as usize, None, *hits);
                    let wounds = self.wounds_dealt(&s, def as usize, att as usize, None, *hits);
                    self.wound(&mut s, att as usize, wounds);
                    self.draw_for_kill(&mut s, kill, drew.as_ref());
                }
                s.t.pending = None;
            }
            Action::PickUp { from, .. } => {
                let sl = s.t.act.unit as usize;
                let at = match from {
                    Some(id) => self.board(&s).area(id).unwrap_or(s.units[sl].at),
                    None => s.units[sl].at,
                };
                if s.ground[at as usize] > 0 {
                    s.ground[at as usize] -= 1;
                    s.units[sl].carry = true;
                }
                s.t.act.simple |= PICK;
            }
            Action::Drop { .. } => {
                let sl = s.t.act.unit as usize;
                s.units[sl].carry = false;
                s.ground[s.units[sl].at as usize] += 1;
            }
            Action::Absorb { from, .. } => {
                let sl = s.t.act.unit as usize;
                match from.as_deref().and_then(|id| self.t.unit(id)) {
                    Some(u) => s.units[s.slot[u as usize] as usize].carry = false,
                    None => {
                        let at = s.units[sl].at as usize;
                        s.ground[at] = s.ground[at].saturating_sub(1);
                    }
                }
                s.players[p].absorbed += 1;
                if s.reserve > 0 {
                    s.reserve -= 1;
                    s.players[p].hand.add(OMPH as usize, 1);
                }
                s.t.act.special = true;
                s.t.special |= 1 << sl;
            }
            Action::Power { unit, power, pay, .. } => {
                let sl = self.t.unit(unit).map_or(0, |u| s.slot[u as usize] as usize);
                if let Ok(i) = self.power_of(&s, sl, power.as_deref(), rule::ART_OF_WAR) {
                    let pw = &self.def(&s, sl).powers[i];
                    let (cost, extra, attacks, kind) = (pw.cost, pw.activations, pw.attacks, pw.kind);
                    self.pay(&mut s, p, cost, pay);
                    if cost > 0 {
                        self.noted(self.t.fx.maneuver("use-power"), "use-power");
                    }
                    s.t.powers |= 1u128 << (sl * 4 + i);
                    s.t.extra += extra;
                    if kind == PowerKind::Active && attacks > 1 && s.t.act.unit as usize == sl {
                        s.t.act.max_attacks = attacks;
                    }
                }
            }
            Action::Lead { unit, troop } => {
                if let Ok((_, k)) = self.check_lead(&s, unit, troop) {
                    let c = self.def(&s, k).card as usize;
                    let pl = &mut s.players[p];
                    pl.deck.move_to(c, &mut pl.hand);
                    s.t.act.over = true;
                    s.t.led = true;
                    s.t.free = k as u8;
                }
            }
            Action::Shift { unit, to, pay } => {
                if let Ok((sl, i, area)) = self.check_shift(&s, unit, to, pay) {
                    let q = s.units[sl].owner as usize;
                    let cost = self.def(&s, sl).powers[i].cost;
                    self.pay(&mut s, q, cost, pay);
                    s.t.powers |= 1u128 << (sl * 4 + i);
                    s.units[sl].at = area;
                    s.t.act.over = true;
                }
            }
            Action::RemovePetrification { unit } => {
                if let Some(sl) = self.t.unit(unit).map(|u| s.slot[u as usize] as usize) {
                    let c = self.def(&s, sl).card as usize;
                    self.discard_one(&mut s, p, c);
                    s.units[sl].petrified = false;
                }
            }
            Action::EndTurn => {
                // Effects at the end of the player's turn (Regeneration).
                for sl in 0..s.units.len() {
                    if s.units[sl].owner as usize == p && s.units[sl].on_board() {
                        let n = self.unit_mod(&s, sl, &[When::TurnEnd], Out::Regain, None);
                        if n > 0 {
                            s.units[sl].wounds = s.units[sl].wounds.saturating_sub(n as u8);
                        }
                    }
                }
                s.uses = Default::default();
                s.t = Turn::NEW;
                s.turn += 1;
                let cycle = &self.mode(&s).cycle;
                for _ in 0..cycle.len() {
                    s.cycle_pos = ((s.cycle_pos as usize + 1) % cycle.len()) as u8;
                    if !s.players[cycle[s.cycle_pos as usize] as usize].out {
                        break;
                    }
                }
            }
        }
        self.settle(&mut s);
        s
    }

    /// Eliminations and victory (MB-13).
    pub(super) fn settle(&self, s: &mut State) {
        if s.winner.is_some() {
            return;
        }
        let mode = self.mode(s);
        let shape = mode.shape;
        let n = s.players.len();
        let god_dead = |s: &State, p: usize| {
            let g = s.players[p].god;
            g != NONE && !s.units[g as usize].alive()
        };
        // Free-for-all with 3 or 4 players: a player whose God died is out.
        if shape == Shape::Solo && n > 2 {
            for p in 0..n {
                if !s.players[p].out && god_dead(s, p) {
                    s.players[p].out = true;
                    for u in s.units.iter_mut().filter(|u| u.owner as usize == p) {
                        if u.on_board() {
                            if u.carry {
                                s.ground[u.at as usize] += 1;
                            }
                            u.carry = false;
                            u.at = GONE;
                        }
                    }
                }
            }
        }
        // Omphalos.
        let teams = s.players.iter().map(|p| p.team).max().unwrap_or(0) + 1;
        for team in 0..teams {
            let got = if mode.team_omphalos {
                s.players
                    .iter()
                    .filter(|p| p.team == team)
                    .map(|p| p.absorbed as u32)
                    .sum()
            } else {
                s.players
                    .iter()
                    .filter(|p| p.team == team)
                    .map(|p| p.absorbed as u32)
                    .max()
                    .unwrap_or(0)
            };
            if got >= mode.victory as u32 {
                s.winner = Some((team, "omphalos-absorbed"));
                return;
            }
        }
        if shape == Shape::Lone && mode.ally_victory > 0 && s.removed >= mode.ally_victory {
            s.winner = Some((1, "omphalos-removed"));
            return;
        }
        // Gods and armies.
        let mut standing = Vec::new();
        for team in 0..teams {
            let members = (0..n).filter(|&p| s.players[p].team == team);
            let down = if shape == Shape::Lone && team == 1 {
                !s.units.iter().any(|u| u.owner != 0 && u.alive())
            } else {
                members.clone().any(|p| god_dead(s, p))
            };
            if !down {
                standing.push(team);
            }
        }
        match standing.len() {
            0 => s.winner = Some((NONE, "gods-killed")),
            1 if teams > 1 => {
                let reason = match shape {
                    Shape::Lone if standing[0] == 0 => "allies-wiped-out",
                    Shape::Solo if n > 2 => "gods-eliminated",
                    _ => "god-killed",
                };
                s.winner = Some((standing[0], reason));
            }
            _ => {}
        }
    }
}
