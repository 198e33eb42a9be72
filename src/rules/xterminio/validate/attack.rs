//! Attacks (XT-4, XT-11) and point attacks (XT-2).

use super::super::Xterminio;
use super::super::actions::{Intercept, Slot};
use super::super::rule;
use super::super::state::{Phase, State};
use crate::rules::Violation;
use crate::rules::kit::v;

impl Xterminio {
    pub(super) fn check_attack(
        &self,
        s: &State,
        attacker: Slot,
        attack: u8,
        target: Slot,
        intercept: &Option<Intercept>,
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
        if side.energy < st.cost {
            return Err(v(
                rule::ENERGY,
                format!("{who} cannot pay for `{}`'s attack {attack}", info.id),
            )
            .expected(format!("{} ENERGY", st.cost))
            .found(format!("{} ENERGY in the source", side.energy)));
        }
        if let Some(ic) = intercept {
            let Some(g) = Self::fighter(s, q, ic.by) else {
                return Err(v(
                    rule::INTERCEPTION,
                    format!("{them} has no character in `{}` to intercept", ic.by.id()),
                )
                .expected(format!("an interceptor in {them}'s BATTLE"))
                .found(format!("empty `{}`", ic.by.id())));
            };
            let gi = self.t.get(g.card);
            if g.exhausted || g.stunned {
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
            if s.p[q].energy < is.cost {
                return Err(v(rule::INTERCEPTION, format!("{them} cannot pay for the interception"))
                    .expected(format!("{} ENERGY", is.cost))
                    .found(format!("{} ENERGY in {them}'s source", s.p[q].energy)));
            }
        }
        Ok(())
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
