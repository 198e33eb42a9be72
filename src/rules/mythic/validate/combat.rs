//! Strikes (MB-7): reach, line of sight, dice and defense with every
//! modifier; and the attack roll against them (MB-8).

use super::super::Mythic;
use super::super::chance::{RollError, max_successes};
use super::super::rule;
use super::super::state::{DEAD, State, area_name, stat};
use super::super::tables::{Cat, talent, terrain};
use crate::rules::Violation;
use crate::rules::kit::{Set, bits, plural, v};

/// An attack's reach and numbers.
#[derive(Clone, Copy, Debug)]
pub struct Strike {
    pub melee: bool,
    pub dice: u8,
    pub defense: u8,
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
        let high_ground =
            (terrain_on && !flying && b.areas[aa].terrain & terrain::HIGH != 0) || b.high[aa] & (1 << da) != 0;
        let pw = power.map(|i| &da_.powers[i]);
        let range = match pw {
            Some(p) => p.range.unwrap_or(row.range),
            None => {
                let mut bonus = 0;
                if terrain_on && !flying && b.areas[aa].terrain & terrain::HIGH != 0 {
                    bonus += 1;
                }
                if b.high[aa] & (1 << da) != 0 {
                    bonus += 1;
                }
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
        // Dice.
        let dice = match pw {
            Some(_) => row.power,
            None => {
                let ta = self.talents(s, a);
                let (friend, troop, reinforce) = self.company(s, a);
                let mut m = 0i32;
                if ta & talent::DIRECT_COMBAT != 0 && melee {
                    m += 1;
                }
                if ta & talent::ARCHER != 0 && !melee {
                    m += 1;
                }
                if ta & talent::SURPRISE_ATTACK != 0 && friend {
                    m += 1;
                }
                if ta & talent::PHALANX != 0 && troop {
                    m += 1;
                }
                if da_.cat == Cat::Troop && reinforce {
                    m += 1;
                }
                if high_ground {
                    m += 1;
                }
                stat(row.attack, m)
            }
        };
        // Defense.
        let td = self.talents(s, d);
        let (friend, troop, reinforce) = self.company(s, d);
        let mut m = 0i32;
        if td & talent::ESCORT != 0 && friend {
            m += 1;
        }
        if td & talent::PHALANX != 0 && troop {
            m += 1;
        }
        if self.def(s, d).cat == Cat::Troop && reinforce {
            m += 1;
        }
        let ta = self.talents(s, a);
        if ta & talent::HARASS != 0 && melee && pw.is_none() {
            m -= 1;
        }
        if ta & talent::STORM != 0 && aa == da {
            m -= 1;
        }
        if terrain_on && !self.def(s, d).flying {
            let tt = b.areas[da].terrain;
            if tt & terrain::COVER_RANGED != 0 && (!melee || flying) {
                m += 1;
            }
            if tt & terrain::COVER_SAME != 0 && aa == da {
                m += 1;
            }
            if tt & terrain::EXPOSED != 0 && !melee {
                m -= 1;
            }
        }
        Ok(Strike {
            melee,
            dice,
            defense: stat(self.row(s, d).defense, m),
        })
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
        match max_successes(roll, reroll, st.defense) {
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
