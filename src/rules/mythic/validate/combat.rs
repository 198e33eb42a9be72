//! Strikes (MB-7): reach, line of sight, dice and defense with every
//! modifier; and the attack roll against them (MB-8).

use super::super::Mythic;
use super::super::chance::{RollError, max_successes};
use super::super::effects::{self as fx, Out, When};
use super::super::rule;
use super::super::state::{DEAD, State, area_name, stat};
use super::super::tables::terrain;
use crate::rules::Violation;
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
            if range == 0 {
                return Err(v(r, format!("`{ida}` has range 0: it attacks only in its own area"))
                    .expected(format!("a target in `{}`", b.areas[aa].id))
                    .found(format!(
                        "`{idd}` in `{}`, {} away",
                        b.areas[da].id,
                        plural(dist as u32, "area", "areas")
                    )));
            }
            if dist > range {
                return Err(v(r, format!("`{idd}` is out of `{ida}`'s range"))
                    .expected(format!(
                        "a target at most {} away",
                        plural(range as u32, "area", "areas")
                    ))
                    .found(plural(dist as u32, "area", "areas")));
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
        let notes = |slot: usize, when: &[When], out: Out| -> Vec<String> {
            self.mod_parts(s, slot, when, out, Some(st))
                .into_iter()
                .filter(|(_, n)| *n != 0)
                .map(|(card, n)| format!("{n:+} `{card}`"))
                .collect()
        };
        let mut why = Vec::new();
        if power.is_none() {
            let dice = notes(a, &[When::Continuous, When::Attack], Out::Attack);
            if !dice.is_empty() {
                why.push(format!("{} dice: {}", strike.dice, dice.join(", ")));
            }
        }
        let mut def = notes(d, &[When::Continuous, When::Defend], Out::Defense);
        def.extend(notes(a, &[When::Attack], Out::TargetDefense));
        if !def.is_empty() {
            why.push(format!("defense {}: {}", strike.defense, def.join(", ")));
        }
        if strike.blanks > 0 {
            let by = notes(a, &[When::Attack], Out::BlanksCount);
            why.push(format!("blanks count as {}: {}", strike.blanks, by.join(", ")));
        }
        if !why.is_empty() {
            e.expected = format!("{} ({})", e.expected, why.join("; "));
        }
        e
    }

    /// The attack roll against a strike (MB-8).
    pub(crate) fn check_roll(
        &self,
        who: &str,
        st: Strike,
        roll: &[u8],
        reroll: &[u8],
        hits: u8,
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
        match max_successes(&st.counted(roll), reroll, st.defense) {
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
}
