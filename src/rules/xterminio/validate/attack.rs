//! Attacks (XT-4, XT-11) and point attacks (XT-2).

use super::super::Xterminio;
use super::super::actions::{Effect, Intercept, Slot};
use super::super::effects::{Ch, Ctx, Out, Spot, When};
use super::super::rule;
use super::super::state::{Phase, State};
use super::super::tables::Kind;
use crate::rules::Violation;
use crate::rules::kit::effects::{self as fx, Src};
use crate::rules::kit::v;

impl Xterminio {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn check_attack(
        &self,
        s: &State,
        attacker: Slot,
        attack: u8,
        target: Slot,
        intercept: &Option<Intercept>,
        answer: &Option<String>,
        effect: &Option<Effect>,
    ) -> Result<(), Violation> {
        let p = s.to_move;
        let who = self.name(s, p);
        let side = &s.p[p];
        self.gate(s, Phase::Attack, "attacking")?;
        let Some(f) = Self::fighter(s, p, attacker) else {
            return Err(v(
                rule::TURN,
                format!("{who} has no character in `{}` to attack with", attacker.id()),
            )
            .expected("an attacker in your BATTLE")
            .found(format!("empty `{}`", attacker.id())));
        };
        let info = self.t.get(f.card);
        if f.attacked || f.exhausted {
            return Err(v(
                rule::TURN,
                format!("`{}` in `{}` has already attacked this turn", info.id, attacker.id()),
            )
            .expected("at most 1 attack per character per turn")
            .found("a second attack"));
        }
        let Some(st) = (attack as usize).checked_sub(1).and_then(|k| info.attacks.get(k)) else {
            return Err(v(rule::TURN, format!("`{}` has no attack {attack}", info.id))
                .expected(format!("attack 1 to {}", info.attacks.len()))
                .found(format!("attack {attack}")));
        };
        let q = 1 - p;
        let them = self.name(s, q);
        if Self::fighter(s, q, target).is_none() {
            return Err(v(rule::TURN, format!("{them} has no character in `{}`", target.id()))
                .expected(format!("a target in {them}'s BATTLE"))
                .found(format!("empty `{}`", target.id())));
        };
        let (a_at, t_at) = (Spot::new(p, attacker), Spot::new(q, target));
        if let Some(r) = self.restriction(s, Out::NoAttack, a_at) {
            return Err(v(
                rule::TURN,
                format!(
                    "`{}` in `{}` cannot attack while `{}` is in force",
                    info.id,
                    attacker.id(),
                    r.card
                ),
            )
            .expected(format!("no attack from there ({}: {})", r.card, r.said))
            .found(format!("an attack on `{}`", target.id()))
            .caused_by(r.cause));
        }
        let cost = self.attack_cost(s, a_at, st.cost);
        if side.energy < cost {
            return Err(v(
                rule::ENERGY,
                format!("{who} cannot pay for `{}`'s attack {attack}", info.id),
            )
            .expected(format!("{cost} ENERGY"))
            .found(format!("{} ENERGY in the source", side.energy)));
        }
        // The defender's answer: an action card that cancels the attack.
        if let Some(card) = answer {
            self.check_answer(s, q, card, When::AttackDeclared, Out::CancelAttack, (a_at, t_at))?;
            if intercept.is_some() || effect.is_some() {
                return Err(v(
                    rule::ACTIONS,
                    format!("`{card}` cancelled the attack: nothing of it happens"),
                )
                .expected("no interception and no attack text after a cancelled attack")
                .found(if intercept.is_some() {
                    "an interception"
                } else {
                    "an outcome of its text"
                }));
            }
            return Ok(());
        }
        // The attack text's choices (a second target …).
        if let Some(d) = st.effect {
            let e = effect.clone().unwrap_or_default();
            if effect.is_some() || self.t.defs[usize::from(d)].clauses.iter().any(|c| !c.auto) {
                let mut ctx = Ctx::new(self, &[When::Attack]);
                ctx.attack = Some((a_at, t_at));
                let src = Src {
                    card: d,
                    owner: p as u8,
                    at: Some(a_at),
                };
                fx::allow(&ctx, s, &src, &e.changes(p), rule::TURN)?;
            }
        } else if let Some(e) = effect {
            return Err(v(rule::TURN, format!("`{}`'s attack {attack} has no text", info.id))
                .expected("no `effect` on an attack without a text")
                .found(format!("effect {}", serde_json::to_string(e).unwrap_or_default())));
        }
        if let Some(ic) = intercept {
            if let Some(d) = st.effect
                && let Some(k) = self.t.defs[usize::from(d)]
                    .clauses
                    .iter()
                    .position(|c| c.auto && c.amount(Out::Unblockable).is_some())
            {
                let src = Src {
                    card: d,
                    owner: p as u8,
                    at: Some(a_at),
                };
                return Err(v(
                    rule::INTERCEPTION,
                    format!(
                        "`{}`'s attack {attack} cannot be intercepted (`{}`)",
                        info.id,
                        self.t.def_names[usize::from(d)]
                    ),
                )
                .expected(format!(
                    "no `intercept:` on this attack: `{}` makes it unblockable",
                    self.t.def_names[usize::from(d)]
                ))
                .found(format!("an interception by `{}`", ic.by.id()))
                .caused_by(self.cause(&src, Some(k as u8))));
            }
            let Some(g) = Self::fighter(s, q, ic.by) else {
                return Err(v(
                    rule::INTERCEPTION,
                    format!("{them} has no character in `{}` to intercept", ic.by.id()),
                )
                .expected(format!("an interceptor in {them}'s BATTLE"))
                .found(format!("empty `{}`", ic.by.id())));
            };
            let gi = self.t.get(g.card);
            let g_at = Spot::new(q, ic.by);
            let stunned = self.stunned(s, g_at);
            if g.exhausted || stunned {
                return Err(v(
                    rule::INTERCEPTION,
                    format!(
                        "`{}` in `{}` is {} and cannot intercept",
                        gi.id,
                        ic.by.id(),
                        if g.exhausted { "exhausted" } else { "stunned" }
                    ),
                )
                .expected("an interceptor neither exhausted nor stunned")
                .found(if g.exhausted {
                    "an exhausted character"
                } else {
                    "a stunned character"
                }));
            }
            if let Some(r) = self.restriction(s, Out::NoIntercept, g_at) {
                return Err(v(
                    rule::INTERCEPTION,
                    format!(
                        "`{}` in `{}` cannot intercept while `{}` holds it",
                        gi.id,
                        ic.by.id(),
                        r.card
                    ),
                )
                .expected(format!("no interception while `{}` is in force ({})", r.card, r.said))
                .found(format!("an interception by `{}`", ic.by.id()))
                .caused_by(r.cause));
            }
            let Some(is) = (ic.attack as usize).checked_sub(1).and_then(|k| gi.attacks.get(k)) else {
                return Err(
                    v(rule::INTERCEPTION, format!("`{}` has no attack {}", gi.id, ic.attack))
                        .expected(format!("attack 1 to {}", gi.attacks.len()))
                        .found(format!("attack {}", ic.attack)),
                );
            };
            if !is.interception {
                return Err(v(
                    rule::INTERCEPTION,
                    format!("`{}`'s attack {} is not an interception", gi.id, ic.attack),
                )
                .expected("an attack marked as interception")
                .found(format!("attack {}", ic.attack)));
            }
            let icost = self.intercept_cost(s, g_at, is.cost);
            if s.p[q].energy < icost {
                return Err(v(rule::INTERCEPTION, format!("{them} cannot pay for the interception"))
                    .expected(format!("{icost} ENERGY"))
                    .found(format!("{} ENERGY in {them}'s source", s.p[q].energy)));
            }
            if let Some(card) = &ic.answer {
                self.check_answer(
                    s,
                    p,
                    card,
                    When::InterceptionDeclared,
                    Out::CancelInterception,
                    (a_at, t_at),
                )?;
            }
        }
        Ok(())
    }

    /// An action card player `a` plays from hand in answer to an attack or
    /// interception, checked against its effect.
    fn check_answer(
        &self,
        s: &State,
        a: usize,
        card: &str,
        when: When,
        out: Out,
        attack: (Spot, Spot),
    ) -> Result<(), Violation> {
        let me = self.name(s, a);
        let (c, _) = self.known_of(card, Kind::Action, rule::ACTIONS, "an action card", "an action card")?;
        if s.p[a].hand.count(c as usize) == 0 {
            return Err(v(rule::ACTIONS, format!("{me} has no `{card}` in hand"))
                .expected("an action played from hand")
                .found(format!("no `{card}` in {me}'s hand")));
        }
        let Some(d) = self.t.get(c).effect else {
            return Err(v(rule::ACTIONS, format!("`{card}` has no effect to answer with"))
                .expected("an action card that answers this")
                .found(card));
        };
        let mut ctx = Ctx::new(self, &[when]);
        ctx.attack = Some(attack);
        let src = Src {
            card: d,
            owner: a as u8,
            at: None,
        };
        fx::allow(&ctx, s, &src, &[Ch { out, obj: None, n: 1 }], rule::ACTIONS).map(|_| ())
    }

    /// An attack's ENERGY cost after the modifiers in force (never below 0).
    pub(in super::super) fn attack_cost(&self, s: &State, at: Spot, base: u16) -> u16 {
        (i32::from(base) + i32::from(self.modifier(s, Out::AttackCost, at))).max(0) as u16
    }

    /// An interception's ENERGY cost after the modifiers in force.
    pub(in super::super) fn intercept_cost(&self, s: &State, at: Spot, base: u16) -> u16 {
        (i32::from(base) + i32::from(self.modifier(s, Out::InterceptCost, at))).max(0) as u16
    }

    pub(super) fn check_point_attack(&self, s: &State, attacker: Slot) -> Result<(), Violation> {
        let p = s.to_move;
        let who = self.name(s, p);
        let side = &s.p[p];
        let n = &self.t.n;
        self.gate(s, Phase::Attack, "a point attack")?;
        let Some(f) = Self::fighter(s, p, attacker) else {
            return Err(v(
                rule::TURN,
                format!("{who} has no character in `{}` to attack with", attacker.id()),
            )
            .expected("an attacker in your BATTLE")
            .found(format!("empty `{}`", attacker.id())));
        };
        if f.attacked || f.exhausted {
            return Err(v(
                rule::TURN,
                format!(
                    "`{}` in `{}` has already attacked this turn",
                    self.t.id(f.card),
                    attacker.id()
                ),
            )
            .expected("at most 1 attack per character per turn")
            .found("a second attack"));
        }
        if !s.point_ok {
            let them = self.name(s, 1 - p);
            return Err(v(
                rule::SCORING,
                format!("{them} did not end the last turn with every character exhausted"),
            )
            .expected(format!(
                "{them}'s BATTLE all exhausted or empty at the end of their turn"
            ))
            .found(format!("a ready character left by {them}")));
        }
        if side.energy < n.point_cost {
            return Err(v(rule::SCORING, format!("{who} cannot pay for a point attack"))
                .expected(format!("{} ENERGY", n.point_cost))
                .found(format!("{} ENERGY", side.energy)));
        }
        Ok(())
    }
}
