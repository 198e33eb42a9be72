//! Moves an effect gives outside the unit's own activation: Odysseus'
//! Cunning shifts him to an adjacent area right after an enemy unit ends
//! its activation (`shift`). The shift closes that activation.

use super::super::Mythic;
use super::super::effects::{Ctx, Out, When};
use super::super::rule;
use super::super::state::{NONE, State};
use crate::rules::Violation;
use crate::rules::kit::effects::{self as fx, Src};
use crate::rules::kit::v;

impl Mythic {
    /// The power of the unit in `slot` that lets it shift: its index and
    /// source.
    pub(crate) fn shift_power(&self, s: &State, slot: usize) -> Option<(usize, Src<u8>)> {
        let d = self.def(s, slot);
        (0..d.powers.len()).find_map(|i| {
            let card = d.power_fx[i]?;
            self.t.fx.defs[usize::from(card)]
                .clauses
                .iter()
                .any(|c| c.amount(Out::Shift).is_some())
                .then_some((
                    i,
                    Src {
                        card,
                        owner: s.units[slot].owner,
                        at: Some(slot as u8),
                    },
                ))
        })
    }

    /// A shift by `unit` to `to`, paid by its player with `pay`: answers
    /// the unit's slot, the power's index and the area.
    pub(crate) fn check_shift(
        &self,
        s: &State,
        unit: &str,
        to: &str,
        pay: &[String],
    ) -> Result<(usize, usize, u8), Violation> {
        let r = rule::MOVE;
        let sl = self.slot_of(s, unit, r)?;
        let Some((i, src)) = self.shift_power(s, sl) else {
            return Err(v(r, format!("`{unit}` has no power that shifts it"))
                .expected("a unit with a `shift` effect (Odysseus' Cunning)")
                .found(format!("`{unit}`")));
        };
        let card = self.t.fx.names[usize::from(src.card)].clone();
        let act = s.t.act.unit;
        if act == NONE || self.team(s, act as usize) == self.team(s, sl) {
            return Err(v(
                r,
                format!("`{card}` works right after an enemy unit ends its activation"),
            )
            .expected("a shift right after an enemy unit's activation")
            .found(if act == NONE {
                "no activation just ended".to_string()
            } else {
                format!("after `{}`, a friendly unit", self.uid(s, act as usize))
            })
            .cited(self.cite(&card)));
        }
        if !s.units[sl].on_board() {
            return Err(v(r, format!("`{unit}` is not on the battlefield"))
                .expected("a unit on the battlefield")
                .found(format!("`{unit}`")));
        }
        if s.units[sl].petrified {
            return Err(v(rule::ACTIONS, format!("`{unit}` is petrified: it cannot move"))
                .expected(format!("`remove-petrification` for `{unit}` first"))
                .found("a shift"));
        }
        if s.t.powers & (1u128 << (sl * 4 + i)) != 0 {
            return Err(v(rule::ART_OF_WAR, format!("`{card}` was already used this turn"))
                .expected("each power at most once per turn (a `use-power` manoeuvre per power)")
                .found("a second use")
                .cited_all(self.cite(&card).into_iter().chain(self.cite("use-power"))));
        }
        let ctx = Ctx::new(self, &[When::EnemyActivationEnd]);
        let ch = fx::Change {
            out: Out::Shift,
            obj: None,
            n: 1,
        };
        fx::allow(&ctx, s, &src, &[ch], r)?;
        let q = s.units[sl].owner as usize;
        let cost = self.def(s, sl).powers[i].cost;
        self.check_pay(s, q, &s.players[q].hand, cost, pay, rule::ART_OF_WAR)?;
        let area = self.area_of(s, to, r)?;
        self.move_ok(s, sl, area, 1, false)?;
        Ok((sl, i, area))
    }
}

impl Mythic {
    /// Leader at the end of `unit`'s activation: a friendly troop in its
    /// area, one of whose activation cards is still in the deck. Answers
    /// the slots of the unit and of the troop.
    pub(crate) fn check_lead(&self, s: &State, unit: &str, troop: &str) -> Result<(usize, usize), Violation> {
        let r = rule::ACTIVATION;
        let sl = self.slot_of(s, unit, r)?;
        let k = self.slot_of(s, troop, r)?;
        if s.t.act.unit as usize != sl || s.t.led {
            return Err(v(r, format!("`{unit}` leads only when its own activation ends"))
                .expected(format!("a `lead` right after `{unit}`'s activation"))
                .found(if s.t.led {
                    "a second `lead`".to_string()
                } else {
                    format!("`{unit}` not the unit activated")
                }));
        }
        let Some(src) = self.own_giving(s, sl, Out::Activate) else {
            return Err(v(r, format!("`{unit}` has no effect that leads a troop"))
                .expected("a unit whose talents work and give `activate` (Leader)")
                .found(format!("`{unit}`")));
        };
        let ctx = Ctx::new(self, &[When::ActivationEnd]);
        let on = |out| fx::Change {
            out,
            obj: Some(k as u8),
            n: 1,
        };
        fx::allow(&ctx, s, &src, &[on(Out::Search), on(Out::Activate)], r)?;
        let c = self.def(s, k).card as usize;
        let p = s.units[sl].owner as usize;
        if s.players[p].deck.count(c) == 0 {
            return Err(
                v(r, format!("the deck holds no `{}` card to search for", self.t.cards[c]))
                    .expected(format!("a `{}` card in the deck", self.t.cards[c]))
                    .found("none left"),
            );
        }
        Ok((sl, k))
    }
}
