//! Effects a player invokes with a unit's power or talent, outside the
//! automatic modifiers of [`super::effects`]: free counter-attacks (King of
//! Sparta), a unit taking an attack instead (Guard), and the lookup of the
//! unit's source giving an outcome.

use super::Mythic;
use super::effects::{Ctx, Out, Strike, When};
use super::state::State;
use crate::rules::Violation;
use crate::rules::kit::effects::{self as fx, Src};
use crate::rules::kit::v;

impl Mythic {
    /// The power `by` of a unit on `slot`'s side that lets it counter-attack
    /// without an activation card, if its effect allows it now (where, who,
    /// how often).
    pub(super) fn free_counter(
        &self,
        s: &State,
        slot: usize,
        by: &str,
        rule: &'static str,
    ) -> Result<Src<u8>, Violation> {
        let team = self.team(s, slot);
        let mut found = None;
        for (i, u) in s.units.iter().enumerate() {
            if !u.on_board() || self.team(s, i) != team {
                continue;
            }
            let d = self.def(s, i);
            if let Some(k) = d.powers.iter().position(|p| p.slug == by)
                && let Some(card) = d.power_fx[k]
            {
                found = Some(Src {
                    card,
                    owner: u.owner,
                    at: Some(i as u8),
                });
                break;
            }
        }
        let Some(src) = found else {
            return Err(v(rule, format!("no unit on `{}`'s side has `{by}`", self.uid(s, slot)))
                .expected("a power of a friendly unit on the battlefield")
                .found(format!("`{by}`"))
                .cited(self.cite(by)));
        };
        let ctx = Ctx::new(self, &[When::Counter]);
        let ch = fx::Change {
            out: Out::FreeCounter,
            obj: Some(slot as u8),
            n: 1,
        };
        fx::allow(&ctx, s, &src, &[ch], rule)?;
        Ok(src)
    }

    /// Counts the use of a free counter-attack's effect.
    pub(super) fn use_free_counter(&self, s: &mut State, slot: usize, by: &str) {
        let Ok(src) = self.free_counter(s, slot, by, "") else {
            return;
        };
        let def = &self.t.fx.defs[usize::from(src.card)];
        for (i, c) in def.clauses.iter().enumerate() {
            if let Some((per, _)) = c.limit
                && c.amount(Out::FreeCounter).is_some()
            {
                s.uses.add(src.owner, src.card, i as u8, per);
            }
        }
    }

    /// Free counter-attacks open to `slot` now: the powers' names.
    pub(super) fn free_counters(&self, s: &State, slot: usize) -> Vec<String> {
        let team = self.team(s, slot);
        let mut out: Vec<String> = Vec::new();
        for (i, u) in s.units.iter().enumerate() {
            if !u.on_board() || self.team(s, i) != team {
                continue;
            }
            for (k, p) in self.def(s, i).powers.iter().enumerate() {
                let gives = self.def(s, i).power_fx[k].is_some_and(|d| {
                    self.t.fx.defs[usize::from(d)]
                        .clauses
                        .iter()
                        .any(|c| c.amount(Out::FreeCounter).is_some())
                });
                if gives && !out.contains(&p.slug) && self.free_counter(s, slot, &p.slug, "").is_ok() {
                    out.push(p.slug.clone());
                }
            }
        }
        out
    }

    /// The unit's own source (talent or power, while it works) with a
    /// clause giving `out`, if any.
    pub(super) fn own_giving(&self, s: &State, slot: usize, out: Out) -> Option<Src<u8>> {
        let mut own = Vec::new();
        self.own_sources(s, slot, &mut own);
        own.into_iter().find(|x| {
            self.t.fx.defs[usize::from(x.card)]
                .clauses
                .iter()
                .any(|c| c.amount(out).is_some())
        })
    }

    /// The effect of `g` that makes it the target of `a`'s attack on `d`
    /// instead (Guard), if it allows that now (a friendly unit in its area).
    pub(super) fn guard(&self, s: &State, g: usize, st: Strike, rule: &'static str) -> Result<(), Violation> {
        let Some(src) = self.own_giving(s, g, Out::Redirect) else {
            return Err(v(
                rule,
                format!("`{}` has no effect that makes it the target instead", self.uid(s, g)),
            )
            .expected("a unit whose talents work and give `redirect` (Guard)")
            .found(format!("`{}`", self.uid(s, g))));
        };
        let mut ctx = Ctx::new(self, &[When::Defend]);
        ctx.strike = Some(st);
        let ch = fx::Change {
            out: Out::Redirect,
            obj: Some(st.d as u8),
            n: 1,
        };
        fx::allow(&ctx, s, &src, &[ch], rule).map(|_| ())
    }
}
