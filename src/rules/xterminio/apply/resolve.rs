//! Attacks and card effects applied: damage after the modifiers in force,
//! interceptions, answers that cancel, kills and what they trigger, action
//! cards and abilities (their recorded outcomes, re-checked by the
//! interpreter for the clause that allows them), the charge and upkeep
//! effects of a new turn and the ends of what lasts.

use super::super::Xterminio;
use super::super::actions::{Action, Effect, Intercept, Slot};
use super::super::effects::{Ch, Ctx, Event, Fixed, Lasting, Out, Spot, Until, When};
use super::super::rule;
use super::super::state::{CampCard, Fighter, State};
use crate::rules::kit::effects::{self as fx, Count, Src};

/// Outcomes that happen once; the rest are modifiers that may last.
fn instant(o: Out) -> bool {
    matches!(
        o,
        Out::Heal
            | Out::Damage
            | Out::Energy
            | Out::Ready
            | Out::Stun
            | Out::Place
            | Out::Deploy
            | Out::Fetch
            | Out::Fly
            | Out::DiscardEquipment
            | Out::DiscardSelf
            | Out::CancelAttack
            | Out::CancelInterception
    )
}

impl Xterminio {
    /// Actions of the main phase or later: they close the upkeep.
    pub(in super::super) fn closes_upkeep(a: &Action) -> bool {
        !matches!(
            a,
            Action::Draw { .. }
                | Action::Play { .. }
                | Action::Ability { .. }
                | Action::Pass
                | Action::DiscardPowered { .. }
        )
    }

    fn damage_of(&self, s: &State, from: Spot, to: Spot, base: u8, intercepting: bool) -> u8 {
        let mut n = i32::from(base) + i32::from(self.modifier(s, Out::DamageBonus, from));
        if intercepting {
            n += i32::from(self.modifier(s, Out::InterceptDamage, from));
        }
        n += i32::from(self.modifier(s, Out::DamageTaken, to));
        n.clamp(0, 255) as u8
    }

    /// An attack (validated): costs, an answer that cancels it, an
    /// interception (or its cancelling answer), damage both ways, the
    /// attack text, kills.
    pub(in super::super) fn resolve_attack(
        &self,
        s: &mut State,
        (attacker, attack, target): (Slot, u8, Slot),
        intercept: Option<&Intercept>,
        answer: Option<&str>,
        effect: Option<&Effect>,
    ) {
        let p = s.to_move;
        let q = 1 - p;
        let (a_at, t_at) = (Spot::new(p, attacker), Spot::new(q, target));
        let Some(f) = Self::fighter(s, p, attacker).copied() else {
            return;
        };
        let Some(&st) = self.t.get(f.card).attacks.get((attack as usize).wrapping_sub(1)) else {
            return;
        };
        let cost = self.attack_cost(s, a_at, st.cost);
        self.count_uses(s, Out::AttackCost, a_at);
        s.p[p].energy = s.p[p].energy.saturating_sub(cost);
        // The attacker has attacked once its damage is worked out: what
        // holds for a first attack (Impact Crater) holds for this one.
        let spend = |s: &mut State| {
            if let Some(x) = attacker.index().and_then(|i| s.p[p].battle[i].as_mut()) {
                x.exhausted = true;
                x.attacked = true;
            }
        };
        if let Some(card) = answer {
            spend(s);
            if let Some(c) = self.t.card(card) {
                s.p[q].hand.take(c as usize, 1);
            }
            s.last = Some(Event::Attack {
                attacker: a_at,
                target: t_at,
            });
            return;
        }
        let ic = intercept.filter(|ic| ic.answer.is_none());
        if let Some(card) = intercept.and_then(|ic| ic.answer.as_deref())
            && let Some(c) = self.t.card(card)
        {
            s.p[p].hand.take(c as usize, 1);
        }
        // Damage, worked out before anything changes.
        let hits: Vec<(Spot, u8, Spot)> = match ic {
            Some(ic) => {
                let g_at = Spot::new(q, ic.by);
                let Some(g) = Self::fighter(s, q, ic.by).copied() else {
                    return;
                };
                let Some(&is) = self.t.get(g.card).attacks.get((ic.attack as usize).wrapping_sub(1)) else {
                    return;
                };
                let icost = self.intercept_cost(s, g_at, is.cost);
                let back = self.damage_of(s, g_at, a_at, is.damage, true);
                let fwd = self.damage_of(s, a_at, g_at, st.damage, false);
                if let Some(x) = ic.by.index().and_then(|i| s.p[q].battle[i].as_mut()) {
                    x.exhausted = true;
                }
                s.p[q].energy = s.p[q].energy.saturating_sub(icost);
                vec![(a_at, back, g_at), (g_at, fwd, a_at)]
            }
            None => vec![(t_at, self.damage_of(s, a_at, t_at, st.damage, false), a_at)],
        };
        spend(s);
        s.lasting
            .retain(|l| !(l.until == Until::NextAttack && l.obj == Some(a_at)));
        // The attack text: automatic parts on the target, chosen ones recorded.
        let victim = hits.iter().find(|h| h.2 == a_at).map(|h| h.0);
        let mut after: Vec<(Src<Spot>, u8, Ch)> = Vec::new();
        if let Some(d) = st.effect {
            let src = Src {
                card: d,
                owner: p as u8,
                at: Some(a_at),
            };
            let mut ctx = Ctx::new(self, &[When::Attack]);
            ctx.attack = Some((a_at, victim.unwrap_or(t_at)));
            let fired = fx::fire(&ctx, s, &[src], When::Attack, None);
            for (src, clause, ch) in &fired {
                s.applied.add(src, *clause, *ch);
            }
            after.extend(fired);
            // The choices recorded with the attack; a part that writes down
            // what the text does by itself is not applied again.
            if let Some(e) = effect {
                let changes = e.changes(p);
                ctx.attack = Some((a_at, t_at));
                if let Ok(ok) = fx::allow(&ctx, s, &src, &changes, rule::TURN) {
                    after.extend(ok.to_apply(&changes).map(|(ch, clause)| (src, clause, ch)));
                }
            }
        }
        for (at, n, by) in hits {
            self.hurt(s, at, n, Some(by));
        }
        for (src, clause, ch) in after {
            self.apply_change(s, &src, clause, ch);
        }
        s.last = Some(Event::Attack {
            attacker: a_at,
            target: t_at,
        });
    }

    /// Damage to a character; an eliminated one scores its life for the
    /// other player (XT-2), loses what lies on it, and fires the kill and
    /// death effects.
    pub(in super::super) fn hurt(&self, s: &mut State, at: Spot, dmg: u8, by: Option<Spot>) {
        let side = usize::from(at.side);
        let Some(i) = at.slot.index() else { return };
        let Some(f) = s.p[side].battle[i].as_mut() else {
            return;
        };
        if dmg == 0 {
            return;
        }
        f.damage = f.damage.saturating_add(dmg);
        let info = self.t.get(f.card);
        if f.damage < info.life {
            return;
        }
        if !info.powered {
            s.p[side].died[info.base as usize] = true;
        }
        s.p[side].battle[i] = None;
        for p in &mut s.p {
            p.fixed
                .retain(|x| x.on != Some(at) || x.on.is_some_and(|o| o.slot.index().is_none()));
        }
        s.lasting.retain(|l| l.obj != Some(at));
        self.award(s, 1 - side, info.life as u16);
        if let Some(k) = by
            && Self::fighter(s, usize::from(k.side), k.slot).is_some()
        {
            let mut srcs = Vec::new();
            self.sources_of(s, usize::from(k.side), &mut srcs);
            srcs.retain(|x| x.at == Some(k));
            self.fire_all(s, &srcs, When::OnKill, Some(k), None);
        }
        let mut srcs = Vec::new();
        self.sources_of(s, side, &mut srcs);
        self.fire_all(s, &srcs, When::OnDeath, None, None);
    }

    /// Fires the automatic clauses of `srcs` at `when` and applies them.
    fn fire_all(&self, s: &mut State, srcs: &[Src<Spot>], when: When, only: Option<Spot>, mover: Option<Spot>) {
        let mut ctx = Ctx::new(self, &[when]);
        ctx.mover = mover;
        let changes = fx::fire(&ctx, s, srcs, when, only);
        for (src, clause, ch) in changes {
            if let Some((per, _)) = self.t.defs[usize::from(src.card)].clauses[usize::from(clause)].limit {
                s.uses.add(src.owner, src.card, clause, per);
            }
            s.applied.add(&src, clause, ch);
            self.apply_change(s, &src, clause, ch);
        }
    }

    /// One part of an outcome.
    fn apply_change(&self, s: &mut State, src: &Src<Spot>, clause: u8, ch: Ch) {
        let owner = usize::from(src.owner);
        fn fighter(s: &mut State, o: Spot) -> Option<&mut Fighter> {
            o.slot.index().and_then(|i| s.p[usize::from(o.side)].battle[i].as_mut())
        }
        match ch.out {
            Out::Heal => {
                if let Some(f) = ch.obj.and_then(|o| fighter(s, o)) {
                    f.damage = f.damage.saturating_sub(ch.n.clamp(0, 255) as u8);
                }
            }
            Out::Damage => {
                if let Some(o) = ch.obj {
                    self.hurt(s, o, ch.n.clamp(0, 255) as u8, None);
                }
            }
            Out::Energy => self.charge(&mut s.p[owner], ch.n.max(0) as u16),
            Out::Ready => {
                if let Some(f) = ch.obj.and_then(|o| fighter(s, o)) {
                    f.exhausted = false;
                }
            }
            Out::Stun => {
                if let Some(o) = ch.obj
                    && !self.stun_immune(s, o)
                    && let Some(f) = fighter(s, o)
                {
                    f.stunned = true;
                }
            }
            Out::DiscardEquipment => {
                if let Some(f) = ch.obj.and_then(|o| fighter(s, o)) {
                    f.equipment = None;
                }
            }
            Out::DiscardSelf => {
                let card = self.t.def_card[usize::from(src.card)];
                if let Some(k) = s.p[owner].fixed.iter().position(|x| x.card == card && x.on == src.at) {
                    s.p[owner].fixed.remove(k);
                }
            }
            Out::Place => {
                let card = self.t.def_card[usize::from(src.card)];
                let until = self.t.defs[usize::from(src.card)].clauses[usize::from(clause)].until;
                s.p[owner].fixed.push(Fixed {
                    card,
                    on: ch.obj,
                    until,
                    turn: s.turn,
                });
            }
            Out::Fly => {
                if let (Some(from), Some(to)) = (src.at, ch.obj) {
                    self.relocate(s, from, to);
                    self.moved(s, to);
                }
            }
            o if !instant(o) => {
                let c = &self.t.defs[usize::from(src.card)].clauses[usize::from(clause)];
                if let Some(until) = c.until {
                    s.lasting.push(Lasting {
                        src: *src,
                        clause,
                        obj: ch.obj,
                        until,
                    });
                }
            }
            _ => {}
        }
    }

    /// The clauses of `src` that allow `e` now (the check accepted it).
    fn clause_for(&self, s: &State, src: &Src<Spot>, a: usize, e: &Effect, open: &[When]) -> Option<fx::Allowed> {
        let mut ctx = self.ctx_for(s, a, open);
        ctx.card = e.fetch.first().and_then(|id| self.t.card(id));
        fx::allow(&ctx, s, src, &e.changes(a), rule::ACTIONS).ok()
    }

    /// Applies an allowed outcome: costs, uses, changes, what lasts.
    fn apply_effect(&self, s: &mut State, src: Src<Spot>, ok: &fx::Allowed, e: &Effect, a: usize) {
        for &clause in &ok.clauses {
            let c = &self.t.defs[usize::from(src.card)].clauses[usize::from(clause)];
            for (_, n) in &c.cost {
                s.p[a].energy = s.p[a].energy.saturating_sub(n.max(&0).unsigned_abs());
            }
            if let Some((per, _)) = c.limit {
                s.uses.add(src.owner, src.card, clause, per);
            }
            let all = c.target.as_ref().is_some_and(|t| t.count == Count::All);
            if all && let Some(until) = c.until {
                s.lasting.push(Lasting {
                    src,
                    clause,
                    obj: None,
                    until,
                });
            }
        }
        for (&to, id) in &e.deploy {
            if let (Some(c), Some(i)) = (self.t.card(id), to.index()) {
                self.enter_battle(s, a, c, i);
            }
        }
        for id in &e.fetch {
            if let Some(c) = self.t.card(id) {
                let side = &mut s.p[a];
                side.deck.take(c as usize, 1);
                if self.is_support(c) {
                    side.deck_support -= 1;
                } else {
                    side.deck_chars -= 1;
                }
                side.camp.push(CampCard { card: c, fresh: true });
            }
        }
        let changes = e.changes(a);
        for (ch, clause) in ok.to_apply(&changes) {
            if ch.out != Out::Deploy && ch.out != Out::Fetch {
                self.apply_change(s, &src, clause, ch);
            }
        }
    }

    /// A character from CAMP (waited or not) into slot `i` of player `a`.
    fn enter_battle(&self, s: &mut State, a: usize, c: u8, i: usize) {
        let info = self.t.get(c);
        if s.deploy_cap.is_none() {
            s.deploy_cap = Some(s.p[a].energy);
        }
        s.deployed += info.life as u16;
        let side = &mut s.p[a];
        if let Some(k) = side
            .camp
            .iter()
            .position(|x| x.card == c && !x.fresh)
            .or_else(|| side.camp.iter().position(|x| x.card == c))
        {
            side.camp.remove(k);
        }
        if info.powered {
            self.discard_classics(side, info.base);
        }
        side.battle[i] = Some(Fighter {
            card: c,
            damage: 0,
            exhausted: false,
            attacked: false,
            stunned: false,
            equipment: None,
        });
        self.entered(s, Spot::new(a, Slot::CHARACTER[i]));
    }

    /// An action card played from hand by `a` (already taken from hand).
    pub(in super::super) fn play_card(&self, s: &mut State, a: usize, c: u8, effect: Option<&Effect>) {
        let Some(d) = self.t.get(c).effect else { return };
        let e = effect.cloned().unwrap_or_default();
        let src = Src {
            card: d,
            owner: a as u8,
            at: None,
        };
        if let Some(ok) = self.clause_for(s, &src, a, &e, &[When::Play]) {
            self.apply_effect(s, src, &ok, &e, a);
        }
    }

    /// The ability of a card `c` player `a` has in play.
    pub(in super::super) fn use_ability(&self, s: &mut State, a: usize, c: u8, effect: Option<&Effect>) {
        let e = effect.cloned().unwrap_or_default();
        let mut srcs = Vec::new();
        self.sources_of(s, a, &mut srcs);
        let d = self.t.get(c).effect;
        let mut open = vec![];
        if Self::main_open(s, a) {
            open.push(When::Main);
        }
        if a == s.to_move && s.upkeep {
            open.push(When::Upkeep);
        }
        for src in srcs.into_iter().filter(|x| Some(x.card) == d) {
            if let Some(ok) = self.clause_for(s, &src, a, &e, &open) {
                self.apply_effect(s, src, &ok, &e, a);
                return;
            }
        }
    }

    /// A character moves from one spot to another, with what lies on it.
    pub(in super::super) fn relocate(&self, s: &mut State, from: Spot, to: Spot) {
        let side = usize::from(from.side);
        if let (Some(i), Some(j)) = (from.slot.index(), to.slot.index()) {
            s.p[side].battle[j] = s.p[side].battle[i].take();
        }
        for p in &mut s.p {
            for x in &mut p.fixed {
                if x.on == Some(from) {
                    x.on = Some(to);
                }
            }
        }
        for l in &mut s.lasting {
            if l.obj == Some(from) {
                l.obj = Some(to);
            }
        }
    }

    /// A character arrived in `at` by moving: the move effects, then the
    /// slot's.
    pub(in super::super) fn moved(&self, s: &mut State, at: Spot) {
        let srcs = self.sources(s);
        self.fire_all(s, &srcs, When::OnMove, Some(at), Some(at));
        self.entered(s, at);
    }

    /// A character entered `at`: what lies on that slot (a mine) fires.
    pub(in super::super) fn entered(&self, s: &mut State, at: Spot) {
        if Self::fighter(s, usize::from(at.side), at.slot).is_none() {
            return;
        }
        let mut srcs = self.sources(s);
        srcs.retain(|x| x.at == Some(at) && s.p[usize::from(x.owner)].fixed.iter().any(|f| f.on == Some(at)));
        self.fire_all(s, &srcs, When::OnEnter, Some(at), Some(at));
    }

    /// The ENERGY the charge effects of `p` add (each noted as applied).
    pub(in super::super) fn charge_bonus(&self, s: &mut State, p: usize) -> u16 {
        let mut srcs = Vec::new();
        self.sources_of(s, p, &mut srcs);
        let ctx = Ctx::new(self, &[When::Charge]);
        let fired = fx::fire(&ctx, s, &srcs, When::Charge, None);
        let mut n = 0;
        for (src, clause, ch) in fired {
            if ch.out == Out::Energy {
                n += ch.n.max(0) as u16;
                s.applied.add(&src, clause, ch);
            }
        }
        n
    }

    /// The upkeep of `p`: what lasted until it ends, automatic upkeep
    /// effects apply, and the upkeep's choices open.
    pub(in super::super) fn upkeep(&self, s: &mut State, p: usize) {
        s.p[p].fixed.retain(|x| x.until != Some(Until::NextUpkeep));
        s.lasting
            .retain(|l| !(l.until == Until::NextUpkeep && usize::from(l.src.owner) == p));
        let mut srcs = Vec::new();
        self.sources_of(s, p, &mut srcs);
        self.fire_all(s, &srcs, When::Upkeep, None, None);
        s.upkeep = true;
    }

    /// The end of `p`'s turn: what lasted until it ends, and the turn's
    /// limits.
    pub(in super::super) fn end_of_turn(&self, s: &mut State, p: usize) {
        s.lasting
            .retain(|l| !matches!(l.until, Until::EndOfTurn | Until::NextAttack));
        let turn = s.turn;
        for side in &mut s.p {
            side.fixed.retain(|x| {
                !(x.until == Some(Until::HostTurnEnd)
                    && x.on.is_some_and(|o| usize::from(o.side) == p)
                    && x.turn < turn)
            });
        }
        s.uses = Default::default();
    }
}
