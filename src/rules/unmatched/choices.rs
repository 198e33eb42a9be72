//! The outcomes a random player records for card effects, in canonical
//! form: cards drawn are written `deck` (chance, filled in by
//! [`Unmatched::fill_draws`]); what the card makes the player choose (a
//! target, a card to recover, a space) is listed, one action per choice;
//! optional parts (moves "up to") are listed too, as a second action with a
//! one-space move, so random players use them.

use super::Unmatched;
use super::actions::{Action, Effect};
use super::effects::{Combat, Ctx, Out, When};
use super::state::{Phase, State};
use super::tables::{CardKind, OFF};
use crate::rules::kit::effects::{self as fx, Count, Host, Src};

/// A card still to be drawn, in canonical form.
pub(super) const DECK: &str = "deck";

impl Unmatched {
    /// The recorded outcomes the usable, non-optional chosen clauses of
    /// `src` need at a moment, one effect per choice of target.
    fn required(&self, ctx: &Ctx, s: &State, src: &Src<u8>, optional: bool) -> Vec<Effect> {
        let mut out = vec![Effect::default()];
        let p = src.owner;
        let opp = ctx.foe(s, p);
        let hero = self.hero(s, p);
        for (i, c) in ctx.def(src).clauses.iter().enumerate() {
            let usable = !c.auto
                && (optional || !c.optional)
                && ctx.open(s, src, c.when)
                && c.limit
                    .is_none_or(|(per, times)| ctx.used(s, src, i as u8, per) < times)
                && c.cond.iter().all(|x| ctx.holds(s, src, x, None));
            if !usable {
                continue;
            }
            for (o, a) in &c.out {
                if let fx::Amount::UpTo(_) = a
                    && optional
                    && matches!(o, Out::Move | Out::MoveThrough)
                    && let Some(t) = &c.target
                {
                    // A one-space move of the target, where it is free.
                    let b = self.board(s);
                    for x in ctx.candidates(s, src, t.who) {
                        let at = s.figs[x as usize].at;
                        if at == OFF || !t.cond.iter().all(|y| ctx.holds(s, src, y, Some(x))) {
                            continue;
                        }
                        if let Some(&to) = b.graph.neighbours(at).iter().find(|q| s.occ & (1u64 << **q) == 0) {
                            let name = self.fig_name(&s.figs[x as usize]).to_string();
                            for e in &mut out {
                                e.moves.insert(name.clone(), b.graph.name(to).to_string());
                            }
                            break;
                        }
                    }
                    continue;
                }
                let fx::Amount::Exactly(n) = a else { continue };
                let n = ctx.cap(s, src, *o, None).map_or(*n, |k| (*n).min(k)).max(0) as usize;
                match o {
                    Out::Draw => out.iter_mut().for_each(|e| e.draw = vec![DECK.to_string(); n]),
                    Out::Discard => {
                        let pick: Vec<String> = s.players[opp as usize]
                            .hand
                            .cards()
                            .take(n)
                            .map(|c| self.hero(s, opp).cards[c].id.clone())
                            .collect();
                        out.iter_mut().for_each(|e| e.discard = pick.clone());
                    }
                    Out::Recover | Out::Search => {
                        let pl = &s.players[p as usize];
                        let pick = hero.cards.iter().enumerate().find(|(k, x)| {
                            if *o == Out::Recover {
                                x.kind != CardKind::Scheme && pl.discard.count(*k) > 0
                            } else {
                                matches!(x.kind, CardKind::Attack | CardKind::Versatile) && pl.deck.count(*k) > 0
                            }
                        });
                        if let Some((_, x)) = pick {
                            for e in &mut out {
                                if *o == Out::Recover {
                                    e.recover = vec![x.id.clone()];
                                } else {
                                    e.search = vec![x.id.clone()];
                                }
                            }
                        }
                    }
                    Out::Damage | Out::Place => {
                        let Some(t) = &c.target else { continue };
                        if t.count == Count::All {
                            continue;
                        }
                        let objs: Vec<u8> = ctx
                            .candidates(s, src, t.who)
                            .into_iter()
                            .filter(|x| t.cond.iter().all(|y| ctx.holds(s, src, y, Some(*x))))
                            .collect();
                        if objs.is_empty() {
                            continue;
                        }
                        let mut next = Vec::new();
                        for e in &out {
                            for &x in &objs {
                                let mut e = e.clone();
                                let name = self.fig_name(&s.figs[x as usize]).to_string();
                                if *o == Out::Damage {
                                    e.damage.insert(name, n.min(255) as u8);
                                } else if let Some(space) = self.free_in_zone(s, x) {
                                    e.moves.insert(name, space);
                                }
                                next.push(e);
                            }
                        }
                        out = next;
                    }
                    _ => {}
                }
            }
        }
        out
    }

    /// An empty space sharing a zone with figure `f`.
    fn free_in_zone(&self, s: &State, f: u8) -> Option<String> {
        let b = self.board(s);
        let at = s.figs[f as usize].at;
        if at == OFF {
            return None;
        }
        let m = b.zone_mask(at) & !s.occ;
        (m != 0).then(|| b.graph.name(m.trailing_zeros() as u8).to_string())
    }

    /// The scheme actions a random player may take with card `c`.
    pub(super) fn scheme_choices(&self, s: &State, p: u8, c: u8) -> Vec<Action> {
        let card = self.hero(s, p).cards[c as usize].id.clone();
        let by = self.player_of_card(s, p, c);
        let effects = match self.card_src(s, p, c, by) {
            Some(src) => {
                let mut t = s.clone();
                self.play_scheme(&mut t, p, c);
                let ctx = Ctx::new(self, &[When::Scheme], None);
                let mut all = self.required(&ctx, &t, &src, false);
                for e in self.required(&ctx, &t, &src, true) {
                    if !all.contains(&e) {
                        all.push(e);
                    }
                }
                all
            }
            None => vec![Effect::default()],
        };
        effects
            .into_iter()
            .map(|effect| Action::Scheme {
                card: card.clone(),
                effect,
            })
            .filter(|a| self.check(s, &self.materialize(s, a)).is_ok())
            .collect()
    }

    /// The defence with card `dc` (or none) and the outcomes its combat
    /// needs recorded, worked out on a scratch copy timing by timing; a
    /// second one that also uses the cards' optional moves.
    pub(super) fn defend_choices(&self, s: &State, dc: Option<u8>) -> Vec<Action> {
        let mut out: Vec<Action> = Vec::new();
        for optional in [false, true] {
            if let Some(a) = self.defend_choice(s, dc, optional)
                && !out.contains(&a)
            {
                out.push(a);
            }
        }
        out
    }

    fn defend_choice(&self, s: &State, dc: Option<u8>, optional: bool) -> Option<Action> {
        let Phase::Combat {
            attacker,
            target,
            card: ac,
            ..
        } = s.phase
        else {
            return None;
        };
        let (ap, dp) = (s.to_move, s.figs[target as usize].owner);
        let mut effects = Vec::new();
        for (p, c, by) in [(dp, dc, target), (ap, Some(ac), attacker)] {
            let Some(c) = c else { continue };
            let Some(src) = self.card_src(s, p, c, by) else {
                continue;
            };
            let combat = Combat {
                attacker,
                defender: target,
                attacker_won: Some(true),
            };
            for w in [When::Immediately, When::DuringCombat, When::AfterCombat] {
                let ctx = Ctx::new(self, &[w], Some(combat));
                if let Some(mut e) = self.required(&ctx, s, &src, optional).into_iter().next()
                    && e != Effect::default()
                {
                    e.card = Some(self.hero(s, p).cards[c as usize].id.clone());
                    effects.push((w, p == dp, e));
                }
            }
        }
        // Timing order, the defender's card first within a timing.
        effects.sort_by_key(|(w, def, _)| (*w as u8, !*def));
        let mut all: Vec<Effect> = effects.into_iter().map(|(_, _, e)| e).collect();
        let card = dc.map(|c| self.hero(s, dp).cards[c as usize].id.clone());
        // Drop what the combat turns out not to need (a cancelled card, a
        // game already over), one at a time.
        for _ in 0..=all.len() {
            let a = Action::Defend {
                card: card.clone(),
                effects: all.clone(),
                damage: None,
                winner: None,
            };
            if self.check(s, &self.materialize(s, &a)).is_ok() {
                return Some(a);
            }
            all.pop();
        }
        None
    }

    /// `a` with every `deck` placeholder replaced by the first cards the
    /// drawing player's deck holds.
    pub(super) fn materialize(&self, s: &State, a: &Action) -> Action {
        let mut a = a.clone();
        self.fill_draws(s, &mut a, &mut |n| n.first().copied());
        a
    }

    /// Replaces `deck` placeholders with cards from the drawing player's
    /// deck, `pick` choosing among those left.
    pub(super) fn fill_draws(&self, s: &State, a: &mut Action, pick: &mut dyn FnMut(&[usize]) -> Option<usize>) {
        let mut fill = |p: u8, draw: &mut Vec<String>| {
            let mut deck = s.players[p as usize].deck;
            for d in draw.iter_mut().filter(|d| *d == DECK) {
                let left: Vec<usize> = deck.cards().collect();
                if let Some(c) = pick(&left) {
                    deck.take(c, 1);
                    *d = self.hero(s, p).cards[c].id.clone();
                }
            }
        };
        match a {
            Action::Scheme { effect, .. } => fill(s.to_move, &mut effect.draw),
            Action::Defend { effects, .. } => {
                if let Phase::Combat { target, .. } = s.phase {
                    let dp = s.figs[target as usize].owner;
                    for e in effects.iter_mut() {
                        let id = e.card.clone().unwrap_or_default();
                        let p = if self.hero(s, dp).card(&id).is_some() && self.hero(s, s.to_move).card(&id).is_none() {
                            dp
                        } else {
                            s.to_move
                        };
                        fill(p, &mut e.draw);
                    }
                }
            }
            _ => {}
        }
    }
}
