//! What an activated unit may do at all (its turn, its powers, fresh
//! actions, a move's path and cost) and what a power and its payment are:
//! the checks [`super::units`] builds on (MB-4, MB-5, MB-6).

use super::super::Mythic;
use super::super::effects::{Out, When};
use super::super::rule;
use super::super::state::{ATTACK, MOVE, NONE, OFF, State, area_name};
use super::super::tables::{OMPH, PowerKind};
use crate::rules::Violation;
use crate::rules::kit::{plural, v};

impl Mythic {
    pub(super) fn current(&self, s: &State, slot: usize) -> Result<(), Violation> {
        if s.t.act.unit as usize == slot && s.t.act.over {
            let at = s.units[slot].at;
            let id = self.uid(s, slot);
            // Terrain that ends the activation on entering, or an enemy's
            // effect that answered its end (Cunning).
            let why = match self.on_entering(s, slot, at as usize, Out::EndActivation) {
                Some(by) => format!(
                    "`{id}` ended its activation on entering `{}` (`{by}`)",
                    area_name(self.board(s), at)
                ),
                None => format!("`{id}`'s activation is over: an enemy effect answered its end"),
            };
            return Err(v(rule::ACTIONS, why)
                .expected("a new activation or the end of the turn")
                .found("another action"));
        }
        if s.t.act.unit as usize != slot {
            let now = if s.t.act.unit == NONE {
                "no unit is active".to_string()
            } else {
                format!("`{}` is active", self.uid(s, s.t.act.unit as usize))
            };
            return Err(v(
                rule::ACTIONS,
                format!("`{}` acts without being activated", self.uid(s, slot)),
            )
            .expected(format!("an `activate` of `{}` first", self.uid(s, slot)))
            .found(now));
        }
        Ok(())
    }

    /// Terrain may leave a unit only its passive and permanent powers (water).
    pub(super) fn active_powers_ok(&self, s: &State, slot: usize, power: &str) -> Result<(), Violation> {
        match self.has(s, slot, Out::NoActivePowers) {
            Some(by) => Err(v(
                rule::ACTIONS,
                format!(
                    "`{by}` leaves `{}` only its passive and permanent powers",
                    self.uid(s, slot)
                ),
            )
            .expected("no active power or special attack here")
            .found(format!("`{power}`"))),
            None => Ok(()),
        }
    }

    pub(super) fn simple_ok(&self, s: &State, slot: usize, kind: u8) -> Result<(), Violation> {
        let r = rule::ACTIONS;
        let act = &s.t.act;
        let id = self.uid(s, slot);
        if s.units[slot].at == OFF {
            return Err(v(
                r,
                format!("`{id}` is not on the battlefield: its first activation enters it"),
            )
            .expected("`enter`")
            .found("a simple action of a unit off the battlefield"));
        }
        if act.special {
            return Err(v(
                r,
                format!("`{id}` took a special action: its activation does nothing else"),
            )
            .expected("a new activation or the end of the turn")
            .found("another action"));
        }
        let done = act.simple | if act.attacks > 0 { ATTACK } else { 0 };
        let name = |k: u8| match k {
            MOVE => "move",
            ATTACK => "attack",
            _ => "pick-up",
        };
        if done & kind != 0 {
            return Err(v(r, format!("`{id}` already made a {} in this activation", name(kind)))
                .expected("2 different simple actions")
                .found(format!("a second {}", name(kind))));
        }
        if done.count_ones() >= 2 {
            return Err(v(r, format!("`{id}` already took 2 simple actions"))
                .expected("at most 2 simple actions per activation")
                .found("a third one"));
        }
        if kind == MOVE && act.attacks > 0 && self.has(s, slot, Out::MoveAfterAttack).is_none() {
            return Err(v(
                r,
                format!("`{id}` attacked: it may not move afterwards without Mobility"),
            )
            .expected("no move after an attack")
            .found("a move after the attack"));
        }
        Ok(())
    }

    pub(super) fn fresh(&self, s: &State, slot: usize, what: &str) -> Result<(), Violation> {
        let act = &s.t.act;
        if act.special || act.simple != 0 || act.attacks > 0 {
            return Err(v(
                rule::ACTIONS,
                format!("{what} is a special action: the only action of an activation"),
            )
            .expected("a special action first and alone")
            .found(format!("`{}` has already acted", self.uid(s, slot))));
        }
        Ok(())
    }

    pub(super) fn move_ok(&self, s: &State, slot: usize, to: u8, steps: u8, run: bool) -> Result<(), Violation> {
        let r = rule::MOVE;
        let b = self.board(s);
        let id = self.uid(s, slot);
        let at = s.units[slot].at;
        if to == at {
            return Err(v(r, format!("`{id}` is already in `{}`", b.areas[to as usize].id))
                .expected("another area")
                .found(b.areas[to as usize].id.clone()));
        }
        if let Some((by, cap)) = self.hold(s, slot)
            && !(run && cap.is_some())
        {
            return Err(v(r, format!("`{by}` holds `{id}` in `{}`", b.areas[at as usize].id))
                .expected(match cap {
                    Some(k) => format!("no move (a run of at most {})", plural(u32::from(k), "area", "areas")),
                    None => "no move".into(),
                })
                .found(format!("a move to `{}`", b.areas[to as usize].id))
                .cited(self.cite(&by)));
        }
        if self.reach(s, slot, steps, run) & (1 << to) == 0 {
            let count = self.occupancy(s);
            let mut blocked = None;
            let why = if count[to as usize] >= b.areas[to as usize].capacity {
                format!(
                    "`{}` is full ({} units, capacity {})",
                    b.areas[to as usize].id, count[to as usize], b.areas[to as usize].capacity
                )
            } else if let Some(by) = self.kept_out(s, slot, to as usize) {
                blocked = self.cite(&by);
                format!("`{}` cannot be entered (`{by}`)", b.areas[to as usize].id)
            } else if let Some((_, Some(k))) = self
                .hold(s, slot)
                .filter(|_| run && b.dist(at as usize, to as usize) > 1)
            {
                format!("the terrain lets it run only {}", plural(u32::from(k), "area", "areas"))
            } else if b.dist(at as usize, to as usize) > steps {
                format!(
                    "`{}` is {} away",
                    b.areas[to as usize].id,
                    plural(b.dist(at as usize, to as usize) as u32, "area", "areas")
                )
            } else {
                format!(
                    "every way to `{}` within {} passes through an area with an enemy, a full area or a closed border",
                    b.areas[to as usize].id,
                    plural(steps as u32, "step", "steps")
                )
            };
            return Err(v(
                r,
                format!(
                    "`{id}` cannot reach `{}` from `{}`",
                    b.areas[to as usize].id, b.areas[at as usize].id
                ),
            )
            .expected(format!(
                "an area within {} (stopping at enemies, never entering full areas)",
                plural(steps as u32, "step", "steps")
            ))
            .found(why)
            .cited(blocked));
        }
        Ok(())
    }

    /// Notes the use of the special attack `i` of the unit in `slot`: its
    /// effect's clauses that are not continuous (reach, sight, attacks,
    /// power dice, petrification).
    pub(crate) fn note_power(&self, s: &State, slot: usize, i: usize) {
        let d = self.def(s, slot);
        let Some(card) = d.power_fx.get(i).copied().flatten() else {
            return;
        };
        let def = &self.t.fx.defs[usize::from(card)];
        for (k, c) in def.clauses.iter().enumerate() {
            if c.when != When::Continuous {
                def.note(k as u8, true, || d.powers[i].slug.clone());
            }
        }
    }

    pub(crate) fn power_of(
        &self,
        s: &State,
        slot: usize,
        name: Option<&str>,
        rule: &'static str,
    ) -> Result<usize, Violation> {
        let d = self.def(s, slot);
        let list = || d.powers.iter().map(|p| p.slug.as_str()).collect::<Vec<_>>().join(", ");
        match name {
            Some(n) => d.powers.iter().position(|p| p.slug == n).ok_or_else(|| {
                v(rule, format!("`{}` has no power `{n}`", d.id))
                    .expected(if d.powers.is_empty() {
                        "none".into()
                    } else {
                        format!("one of {}", list())
                    })
                    .found(n)
            }),
            None => {
                let usable: Vec<usize> = (0..d.powers.len())
                    .filter(|&i| matches!(d.powers[i].kind, PowerKind::Active | PowerKind::Permanent))
                    .collect();
                if usable.len() == 1 {
                    Ok(usable[0])
                } else {
                    Err(v(rule, format!("which power of `{}`?", d.id))
                        .expected(if d.powers.is_empty() {
                            "a unit with a power".into()
                        } else {
                            format!("`power:` one of {}", list())
                        })
                        .found("no `power`"))
                }
            }
        }
    }
    /// The card paid for activating (or counter-attacking with) the unit in
    /// `slot`: its own activation card unless the log names an omphalos card.
    pub(crate) fn paid_card(
        &self,
        s: &State,
        slot: usize,
        card: Option<&str>,
        unit: &str,
        rule: &'static str,
        refusal: &str,
    ) -> Result<usize, Violation> {
        let own = self.def(s, slot).card as usize;
        match card {
            None => Ok(own),
            Some(id) => match self.t.card(id) {
                Some(c) if c as usize == own || c == OMPH => Ok(c as usize),
                _ => Err(v(rule, format!("`{id}` {refusal} `{unit}`"))
                    .expected(format!("`{}` or `omphalos`", self.t.cards[own]))
                    .found(id)),
            },
        }
    }
}
