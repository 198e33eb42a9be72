//! Strikes (MB-7): reach, line of sight, dice and defense with every
//! modifier; and the attack roll against them (MB-8).

use super::super::Mythic;
use super::super::chance::{RollError, max_successes};
use super::super::effects::{self as fx, Out, Per, Res, When};
use super::super::rule;
use super::super::state::{DEAD, State, area_name, stat};
use super::super::tables::terrain;
use crate::rules::Violation;
use crate::rules::kit::effects::{self as kfx, Src};
use crate::rules::kit::{Set, bits, plural, v};

/// An attack's reach and numbers.
#[derive(Clone, Copy, Debug)]
pub struct Strike {
    pub melee: bool,
    pub dice: u8,
    pub defense: u8,
    /// What a blank die of the first roll counts as (0: lost; Achilles'
    /// Prowess: 1).
    pub blanks: u8,
}

impl Strike {
    /// The first roll as it counts: blanks worth what the attacker's
    /// effects say.
    pub fn counted(&self, roll: &[u8]) -> Vec<u8> {
        roll.iter().map(|&v| if v == 0 { self.blanks } else { v }).collect()
    }
}

impl Mythic {
    /// Reach, dice and defense of an attack (MB-7).
    pub(crate) fn strike(&self, s: &State, a: usize, d: usize, power: Option<usize>) -> Result<Strike, Violation> {
        let r = rule::ATTACK;
        let (ua, ud) = (&s.units[a], &s.units[d]);
        let (ida, idd) = (self.uid(s, a), self.uid(s, d));
        if ud.at == DEAD {
            return Err(v(
                rule::WOUNDS,
                format!("`{idd}` was destroyed: wounds never pass on, and it cannot be attacked"),
            )
            .expected("a target still on the battlefield")
            .found(format!("`{idd}` (destroyed)")));
        }
        if a == d || !ud.on_board() || self.team(s, a) == self.team(s, d) {
            return Err(
                v(r, format!("`{ida}` can only attack an enemy unit on the battlefield"))
                    .expected("an enemy unit on the battlefield")
                    .found(format!(
                        "`{idd}` ({})",
                        if a == d || self.team(s, a) == self.team(s, d) {
                            "a friendly unit".to_string()
                        } else {
                            area_name(self.board(s), ud.at)
                        }
                    )),
            );
        }
        let b = self.board(s);
        let (aa, da) = (ua.at as usize, ud.at as usize);
        let terrain_on = self.terrain_on(s);
        let da_ = &self.t.units[ua.def as usize];
        let row = self.row(s, a);
        let flying = da_.flying;
        // High ground: terrain that lifts the unit (its effects give range
        // and attack and clear its sight), or an altitude line below it.
        let altitude = b.high[aa] & (1 << da) != 0;
        let high_terrain = self.unit_mod(s, a, &[When::Continuous], Out::IgnoreSight, None) > 0;
        let high_ground = high_terrain || altitude;
        let pw = power.map(|i| &da_.powers[i]);
        let range = match pw {
            Some(p) => p.range.unwrap_or(row.range),
            None => {
                let bonus =
                    self.unit_mod(s, a, &[When::Continuous], Out::Range, None).max(0) as u8 + u8::from(altitude);
                row.range + bonus.min(2)
            }
        };
        let count = self.occupancy(s);
        let dist = b.dist(aa, da);
        let melee = if aa == da {
            true
        } else if dist == 1 && count[da] >= b.areas[da].capacity {
            // A full area the attacker cannot enter: +1 range, melee.
            true
        } else {
            // A special attack's reach is its power's.
            let by = pw.and_then(|p| self.cite(&p.slug));
            if range == 0 {
                return Err(v(r, format!("`{ida}` has range 0: it attacks only in its own area"))
                    .expected(format!("a target in `{}`", b.areas[aa].id))
                    .found(format!(
                        "`{idd}` in `{}`, {} away",
                        b.areas[da].id,
                        plural(dist as u32, "area", "areas")
                    ))
                    .cited(by));
            }
            if dist > range {
                return Err(v(r, format!("`{idd}` is out of `{ida}`'s range"))
                    .expected(format!(
                        "a target at most {} away",
                        plural(range as u32, "area", "areas")
                    ))
                    .found(plural(dist as u32, "area", "areas"))
                    .cited(by));
            }
            let sight = pw.is_none_or(|p| p.sight);
            if sight && !flying && !high_ground {
                let mut blocking: Set = 0;
                for i in 0..b.areas.len() {
                    if count[i] > 0 || (terrain_on && b.areas[i].terrain & terrain::SIGHT != 0) {
                        blocking |= 1 << i;
                    }
                }
                if let Some(x) = bits(b.between[aa][da] & blocking).next() {
                    return Err(v(
                        r,
                        format!(
                            "the line of sight from `{}` to `{}` is blocked",
                            b.areas[aa].id, b.areas[da].id
                        ),
                    )
                    .expected("a clear line of sight (no units or 3D terrain in between)")
                    .found(format!(
                        "`{}` in between ({})",
                        b.areas[x].id,
                        if count[x] > 0 { "units" } else { "3D terrain" }
                    )));
                }
            }
            false
        };
        // Dice and defense with every effect in force (MB-7).
        let st = fx::Strike {
            a,
            d,
            melee,
            special: pw.is_some(),
        };
        let dice = match pw {
            Some(_) => row.power,
            None => {
                let mut m = i32::from(self.unit_mod(s, a, &[When::Continuous, When::Attack], Out::Attack, Some(st)));
                if altitude && !high_terrain {
                    m += 1;
                }
                stat(row.attack, m)
            }
        };
        let m = self.unit_mod(s, d, &[When::Continuous, When::Defend], Out::Defense, Some(st))
            + self.unit_mod(s, a, &[When::Attack], Out::TargetDefense, Some(st));
        let blanks = self
            .unit_mod(s, a, &[When::Attack], Out::BlanksCount, Some(st))
            .clamp(0, 5) as u8;
        Ok(Strike {
            melee,
            dice,
            defense: stat(self.row(s, d).defense, i32::from(m)),
            blanks,
        })
    }

    /// A refused roll, with the effects that shaped its dice, defense and
    /// blanks (`defense 8: 6, +1 `reinforce`, +1 `ruins``).
    pub(crate) fn explain(&self, mut e: Violation, s: &State, a: usize, d: usize, power: Option<usize>) -> Violation {
        let Ok(strike) = self.strike(s, a, d, power) else {
            return e;
        };
        let st = fx::Strike {
            a,
            d,
            melee: strike.melee,
            special: power.is_some(),
        };
        let mut named: Vec<String> = Vec::new();
        // A troop's bonus is part of its row (its dice and defense with
        // enough figures left): named like the effects.
        let mut bonus = |b: Option<(i8, String)>| -> Vec<String> {
            b.map(|(n, card)| {
                let note = format!("{n:+} `{card}`");
                named.push(card);
                note
            })
            .into_iter()
            .collect()
        };
        let [att_bonus, _] = self.row_bonus(s, a);
        let [_, def_bonus] = self.row_bonus(s, d);
        let mut dice = if power.is_none() { bonus(att_bonus) } else { Vec::new() };
        let mut def = bonus(def_bonus);
        let mut notes = |slot: usize, when: &[When], out: Out| -> Vec<String> {
            self.mod_parts(s, slot, when, out, Some(st))
                .into_iter()
                .filter(|(_, n)| *n != 0)
                .map(|(card, n)| {
                    let note = format!("{n:+} `{card}`");
                    named.push(card);
                    note
                })
                .collect()
        };
        let mut why = Vec::new();
        if power.is_none() {
            dice.extend(notes(a, &[When::Continuous, When::Attack], Out::Attack));
            if !dice.is_empty() {
                why.push(format!("{} dice: {}", strike.dice, dice.join(", ")));
            }
        }
        def.extend(notes(d, &[When::Continuous, When::Defend], Out::Defense));
        def.extend(notes(a, &[When::Attack], Out::TargetDefense));
        if !def.is_empty() {
            why.push(format!("defense {}: {}", strike.defense, def.join(", ")));
        }
        if strike.blanks > 0 {
            let by = notes(a, &[When::Attack], Out::BlanksCount);
            why.push(format!("blanks count as {}: {}", strike.blanks, by.join(", ")));
        }
        e = e.cited_all(named.iter().filter_map(|n| self.cite(n)));
        if !why.is_empty() {
            e.expected = format!("{} ({})", e.expected, why.join("; "));
        }
        e
    }

    /// The attack roll against a strike (MB-8), `spent` blanks of it
    /// discarded for an effect (Mighty Throw).
    pub(crate) fn check_roll(
        &self,
        who: &str,
        st: Strike,
        roll: &[u8],
        reroll: &[u8],
        hits: u8,
        spent: u8,
    ) -> Result<(), Violation> {
        let r = rule::ROLL;
        if roll.len() != st.dice as usize {
            return Err(v(r, format!("`{who}` rolls {} dice", st.dice))
                .expected(plural(st.dice as u32, "die", "dice"))
                .found(plural(roll.len() as u32, "die", "dice")));
        }
        if roll.iter().any(|&f| f > 5) {
            return Err(v(r, "a die shows a blank (0) or 1 to 5")
                .expected("faces 0 (blank) to 5")
                .found(format!("a {}", roll.iter().find(|&&f| f > 5).copied().unwrap_or(0))));
        }
        let mut kept = roll.to_vec();
        for _ in 0..spent {
            if let Some(i) = kept.iter().position(|&f| f == 0) {
                kept.remove(i);
            }
        }
        match max_successes(&st.counted(&kept), reroll, st.defense) {
            Err(RollError::Face(f)) => Err(v(r, "a die shows a blank (0) or 1 to 5")
                .expected("faces 0 (blank) to 5")
                .found(format!("a {f}"))),
            Err(RollError::Rerolls { asked, possible }) => Err(v(
                r,
                "only dice worth 5 (naturally or with set-aside dice) are rerolled",
            )
            .expected(format!(
                "at most {} from this roll",
                plural(possible as u32, "reroll", "rerolls")
            ))
            .found(plural(asked as u32, "reroll", "rerolls"))),
            Ok(max) if hits > max => Err(v(
                r,
                format!(
                    "these dice cannot give {} against defense {}",
                    plural(hits as u32, "success", "successes"),
                    st.defense
                ),
            )
            .expected(format!("at most {}", plural(max as u32, "success", "successes")))
            .found(plural(hits as u32, "success", "successes"))),
            Ok(_) => Ok(()),
        }
    }

    /// The power of unit `a` used this turn whose effect lets it reroll
    /// any dice of one attack (Bloodlust) and not spent yet: its source
    /// and clause.
    pub(crate) fn reroll_any(&self, s: &State, a: usize) -> Option<(Src<u8>, u8)> {
        let d = self.def(s, a);
        (0..d.powers.len()).find_map(|i| {
            let card = d.power_fx[i]?;
            let clause = self.t.fx.defs[usize::from(card)]
                .clauses
                .iter()
                .position(|c| c.amount(Out::RerollAny).is_some())? as u8;
            let src = Src {
                card,
                owner: s.units[a].owner,
                at: Some(a as u8),
            };
            let paid = s.t.powers & (1u128 << (a * 4 + i)) != 0;
            (paid && s.uses.get(src.owner, card, clause, Per::Turn) == 0).then_some((src, clause))
        })
    }

    /// The effects that let the first throw of `a`'s attack on `d` be
    /// partly rerolled, by card (attacker's `rerolls`, defender's
    /// `force-rerolls`).
    pub(crate) fn reroll_parts(
        &self,
        s: &State,
        a: usize,
        d: usize,
        power: Option<usize>,
        st: Strike,
    ) -> Vec<(String, i16)> {
        let fs = fx::Strike {
            a,
            d,
            melee: st.melee,
            special: power.is_some(),
        };
        let mut parts = self.mod_parts(s, a, &[When::Attack], Out::Rerolls, Some(fs));
        parts.extend(self.mod_parts(s, d, &[When::Defend], Out::ForceRerolls, Some(fs)));
        parts.retain(|(_, n)| *n > 0);
        parts
    }

    /// Dice rerolled before anything else (MB-8): `before` is the first
    /// throw, `roll` the dice after the rerolls effects in force allow
    /// (attacker's `rerolls`, defender's `force-rerolls`, or any dice with
    /// a `reroll-any` power paid this turn). Answers the `reroll-any`
    /// power the rerolls needed, if any.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn check_before(
        &self,
        s: &State,
        a: usize,
        d: usize,
        power: Option<usize>,
        st: Strike,
        before: &[u8],
        roll: &[u8],
    ) -> Result<Option<(Src<u8>, u8)>, Violation> {
        if before.is_empty() {
            return Ok(None);
        }
        let r = rule::ROLL;
        let who = self.uid(s, a);
        if before.len() != roll.len() {
            return Err(v(r, "`before` lists the first throw: as many dice as `roll`")
                .expected(plural(roll.len() as u32, "die", "dice"))
                .found(plural(before.len() as u32, "die", "dice")));
        }
        if let Some(f) = before.iter().find(|&&f| f > 5) {
            return Err(v(r, "a die shows a blank (0) or 1 to 5")
                .expected("faces 0 (blank) to 5")
                .found(format!("a {f} in `before`")));
        }
        let changed = before.iter().zip(roll).filter(|(x, y)| x != y).count();
        let parts = self.reroll_parts(s, a, d, power, st);
        let bound: usize = parts.iter().map(|(_, n)| *n as usize).sum();
        if changed <= bound {
            return Ok(None);
        }
        if let Some(any) = self.reroll_any(s, a) {
            return Ok(Some(any));
        }
        let why = if parts.is_empty() {
            format!("no effect in force lets `{who}` reroll dice of its first throw (dice worth 5 go in `reroll`)")
        } else {
            format!("the effects in force let `{who}` reroll at most {bound} of its first dice")
        };
        let by: Vec<String> = parts.iter().map(|(c, n)| format!("{n} `{c}`")).collect();
        let cited: Vec<_> = parts.iter().filter_map(|(c, _)| self.cite(c)).collect();
        Err(v(r, why)
            .cited_all(cited)
            .expected(if by.is_empty() {
                "`roll` the same as `before`".to_string()
            } else {
                format!("at most {} ({})", plural(bound as u32, "die", "dice"), by.join(", "))
            })
            .found(format!(
                "{} changed from `before` to `roll`",
                plural(changed as u32, "die", "dice")
            )))
    }

    /// Every die of an attack or counter-attack by `a` on `d`: rerolls
    /// effects allow first, then the roll (MB-8), refusals explained.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn check_dice(
        &self,
        s: &State,
        a: usize,
        d: usize,
        power: Option<usize>,
        st: Strike,
        before: &[u8],
        roll: &[u8],
        reroll: &[u8],
        hits: u8,
        spent: u8,
    ) -> Result<(), Violation> {
        self.check_before(s, a, d, power, st, before, roll)
            .and_then(|_| self.check_roll(self.uid(s, a), st, roll, reroll, hits, spent))
            .map_err(|e| self.explain(e, s, a, d, power))
    }

    /// An attack by `a` on `d` that unit `guard` takes instead (Guard):
    /// the unit attacked and the strike against it.
    pub(crate) fn guarded(
        &self,
        s: &State,
        a: usize,
        d: usize,
        power: Option<usize>,
        st: Strike,
        guard: &str,
    ) -> Result<(usize, Strike), Violation> {
        let g = self.slot_of(s, guard, rule::ATTACK)?;
        let fs = fx::Strike {
            a,
            d,
            melee: st.melee,
            special: power.is_some(),
        };
        self.guard(s, g, fs, rule::ATTACK)?;
        Ok((g, self.strike(s, a, g, power)?))
    }

    /// The defender moved to area `to` by `a`'s effect (Mighty Throw):
    /// the area and the blank dice of the first roll it costs (checked
    /// against `roll` when `roll` is given).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn displaced(
        &self,
        s: &State,
        a: usize,
        d: usize,
        power: Option<usize>,
        st: Strike,
        to: &str,
        roll: Option<&[u8]>,
    ) -> Result<(u8, u8), Violation> {
        let r = rule::ATTACK;
        let who = self.uid(s, a);
        let Some(src) = self.own_giving(s, a, Out::Displace) else {
            return Err(v(r, format!("`{who}` has no effect that moves the defender"))
                .expected("a unit whose talents work and give `displace` (Mighty Throw)")
                .found(format!("`displace: {to}`")));
        };
        let mut ctx = fx::Ctx::new(self, &[When::Attack]);
        ctx.strike = Some(fx::Strike {
            a,
            d,
            melee: st.melee,
            special: power.is_some(),
        });
        let ch = kfx::Change {
            out: Out::Displace,
            obj: Some(d as u8),
            n: 1,
        };
        let ok = kfx::allow(&ctx, s, &src, &[ch], r)?;
        let card = self.t.fx.names[usize::from(src.card)].clone();
        let clauses = &self.t.fx.defs[usize::from(src.card)].clauses;
        let cost = ok
            .of
            .first()
            .and_then(|&i| clauses.get(usize::from(i)))
            .and_then(|c| c.cost.iter().find(|(res, _)| *res == Res::BlankDice))
            .map_or(0, |(_, n)| (*n).clamp(0, 10) as u8);
        if let Some(roll) = roll {
            let blanks = roll.iter().filter(|&&f| f == 0).count();
            if blanks < usize::from(cost) {
                return Err(v(rule::ROLL, format!("`{card}` costs blank dice of the first roll"))
                    .expected(format!(
                        "at least {} in `roll`",
                        plural(u32::from(cost), "blank", "blanks")
                    ))
                    .found(plural(blanks as u32, "blank", "blanks"))
                    .cited(self.cite(&card)));
            }
        }
        let b = self.board(s);
        let from = s.units[d].at;
        let Some(area) = b.area(to) else {
            return Err(v(r, format!("`{to}` is not an area of the battlefield"))
                .expected("an area next to the defender's")
                .found(format!("`{to}`")));
        };
        if b.adj(from as usize) & (1 << area) == 0 {
            return Err(v(r, format!("`{card}` moves the defender to an adjacent area"))
                .expected(format!("an area next to `{}`", b.areas[usize::from(from)].id))
                .found(format!("`{to}`"))
                .cited(self.cite(&card)));
        }
        if let Some(by) = self.kept_out(s, d, usize::from(area)) {
            return Err(v(r, format!("`{by}` keeps `{}` out of `{to}`", self.uid(s, d)))
                .expected("an area the defender may enter")
                .found(format!("`{to}`"))
                .cited_all(self.cite(&by).into_iter().chain(self.cite(&card))));
        }
        if self.occupancy(s)[usize::from(area)] >= b.areas[usize::from(area)].capacity {
            return Err(v(r, format!("`{to}` is full"))
                .expected(format!(
                    "an area with room (capacity {})",
                    b.areas[usize::from(area)].capacity
                ))
                .found("no room"));
        }
        Ok((area, cost))
    }
}
