//! Combat actions (OW-11 … OW-15) and spells (OW-16): who acts next, the
//! roll and its casualties, retreats, ranged targets.

use std::collections::BTreeMap;

use super::super::OpenWars;
use super::super::actions::{Action, Strike};
use super::super::effects::Out;
use super::super::rule;
use super::super::state::{Fight, Phase, Stack, State};
use super::super::tables::{self, MAGIC};
use crate::rules::Violation;
use crate::rules::kit::{dice, v};

impl OpenWars {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn check_attack(
        &self,
        s: &State,
        unit: &str,
        at: &str,
        tie: &[u8],
        roll: &[u8],
        casualties: &BTreeMap<String, u8>,
        chance: bool,
    ) -> Result<(), Violation> {
        let (i, f) = self.check_actor(s, unit, "attack")?;
        let x = &s.stacks[i];
        let t = if f.ranged {
            let t = self.cell_ix(s, at, rule::RANGED)?;
            let range = self.range_of(s, x);
            let m = self.map(s);
            let Some(d) = m.shot(f.cell, t) else {
                // Along a row or column only (the map's `ranged_targets: lines`).
                return Err(v(
                    rule::RANGED,
                    format!(
                        "{} in {} cannot shoot at {at}: ranged attacks go along a row or column, never diagonally",
                        self.unit(x.unit).id,
                        self.cell_name(s, f.cell),
                    ),
                )
                .expected(format!(
                    "a location in the row or column of {}, 1 to {range} steps away",
                    self.cell_name(s, f.cell)
                ))
                .found(format!(
                    "{at}, {}",
                    if m.grid.line(f.cell, t).is_some() {
                        "in line but cut off by a missing location"
                    } else {
                        "diagonal"
                    }
                )));
            };
            if t == f.cell || d > range {
                return Err(v(
                    rule::RANGED,
                    format!(
                        "{} in {} (range {range}) cannot shoot at {at}: it is {d} orthogonal step{} away",
                        self.unit(x.unit).id,
                        self.cell_name(s, f.cell),
                        if d == 1 { "" } else { "s" }
                    ),
                )
                .expected(format!("a location 1 to {range} steps away"))
                .found(format!("{at}, {d} steps")));
            }
            if let Some(by) = self.no_ranged_target(s, t) {
                return Err(v(rule::RANGED, format!("no ranged attack may target {at} (`{by}`)"))
                    .expected("a location ranged attacks may target")
                    .found(format!("{at}, `{by}`")));
            }
            if self.tokens_of(s, 1 - x.player, t) == 0 {
                return Err(v(rule::RANGED, format!("there is no enemy token in {at} to shoot at"))
                    .expected("a location with enemy tokens")
                    .found(format!("{at}, empty of enemies")));
            }
            t
        } else {
            if x.retreated {
                return Err(v(
                    rule::RETREAT,
                    format!(
                        "part of {} retreated this turn: the tokens left behind may not attack",
                        self.unit(x.unit).id
                    ),
                )
                .expected("hold or retreat")
                .found("an attack"));
            }
            if at != self.cell_name(s, f.cell) {
                return Err(v(
                    rule::RANGED,
                    format!(
                        "in the contested location {} a stack attacks the enemies in front of it",
                        self.cell_name(s, f.cell)
                    ),
                )
                .expected(format!("at: {}", self.cell_name(s, f.cell)))
                .found(format!("at: {at}")));
            }
            f.cell
        };
        if chance {
            self.check_tie(s, &f, x, tie)?;
            self.check_roll(s, x, t, roll, casualties)?;
        }
        Ok(())
    }

    pub(super) fn check_retreat(
        &self,
        s: &State,
        unit: &str,
        to: &str,
        tokens: u8,
        tie: &[u8],
        chance: bool,
    ) -> Result<(), Violation> {
        let (i, f) = self.check_actor(s, unit, "retreat")?;
        let x = &s.stacks[i];
        let u = self.unit(x.unit);
        if f.ranged {
            return Err(v(
                rule::RETREAT,
                "isolated ranged stacks are not engaged: they shoot or hold, they do not retreat",
            )
            .expected("attack or hold")
            .found("a retreat"));
        }
        if x.attacked {
            return Err(v(
                rule::RETREAT,
                format!("{} attacked this turn: it may not also retreat", u.id),
            )
            .expected("attack")
            .found("a retreat"));
        }
        if tokens == 0 || tokens > x.n {
            return Err(v(rule::RETREAT, format!("{} has {} token(s) here", u.id, x.n))
                .expected(format!("1 to {} tokens", x.n))
                .found(format!("{tokens}")));
        }
        let t = self.cell_ix(s, to, rule::RETREAT)?;
        let m = self.map(s);
        if !m.grid.neighbours(f.cell).contains(&t) {
            return Err(v(
                rule::RETREAT,
                format!("a retreat goes to an orthogonally adjacent location, and {to} is not one"),
            )
            .expected(format!(
                "one of {}",
                m.grid
                    .neighbours(f.cell)
                    .iter()
                    .map(|&c| self.cell_name(s, c))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
            .found(to));
        }
        let foes = self.tokens_of(s, 1 - x.player, t);
        if foes > 0 {
            return Err(v(
                rule::RETREAT,
                format!("{to} holds {foes} enemy token(s): no retreat there"),
            )
            .expected("an enemy-free location")
            .found(format!("{foes} enemy token(s) in {to}")));
        }
        if let Some(why) = self.water_block(s, x.unit, f.cell, t) {
            return Err(v(rule::RETREAT, format!("the retreat could not enter {to}: {why}"))
                .expected("a location the unit could enter")
                .found(to));
        }
        let cost = self.entry(s, x.unit, t);
        if cost > u.movement {
            return Err(v(
                rule::RETREAT,
                format!("{} (movement {}) cannot pay the entry cost of {to}", u.id, u.movement),
            )
            .expected(format!("entry cost at most {}", u.movement))
            .found(format!("entry cost {cost}")));
        }
        self.stacking(s, x.player, x.unit, t, tokens)?;
        if chance {
            self.check_tie(s, &f, x, tie)?;
        }
        Ok(())
    }

    pub(super) fn check_hold(&self, s: &State, unit: &str, tie: &[u8], chance: bool) -> Result<(), Violation> {
        let (i, f) = self.check_actor(s, unit, "hold")?;
        let x = &s.stacks[i];
        if !f.ranged && !x.retreated {
            return Err(v(
                rule::RETREAT,
                format!(
                    "when its initiative comes, {} attacks or retreats; only tokens left behind by a retreat hold",
                    self.unit(x.unit).id
                ),
            )
            .expected("attack or retreat")
            .found("hold"));
        }
        if chance {
            self.check_tie(s, &f, x, tie)?;
        }
        Ok(())
    }

    /// The acting stack must take part in the current combat and be next by
    /// initiative (OW-11).
    pub(super) fn check_actor(&self, s: &State, unit: &str, what: &str) -> Result<(usize, Fight), Violation> {
        if s.phase != Phase::Combat {
            return Err(self.wrong_phase(s, &format!("a stack's {what}"), "combat"));
        }
        let Some(f) = s.fight else {
            return Err(v(rule::COMBATS, "no combat is being fought: choose one first")
                .expected(self.fights_left(s))
                .found(format!("a {what}")));
        };
        let at = self.cell_name(s, f.cell);
        let u = self.unit_ix(unit, rule::INITIATIVE)?;
        let Some(i) = s.stacks.iter().position(|x| x.unit == u && x.cell == f.cell) else {
            return Err(v(
                rule::INITIATIVE,
                format!("{unit} has no stack in {at}, where the combat is"),
            )
            .expected(format!("a stack in {at}"))
            .found(unit));
        };
        let x = &s.stacks[i];
        if !self.is_participant(&f, x) {
            return Err(v(
                rule::INITIATIVE,
                if f.ranged {
                    format!("{unit} does not shoot in this combat (no range, or it has already acted)")
                } else {
                    format!("{unit} has already acted in round {} of this combat", f.round)
                },
            )
            .expected("each stack acts once per round, by initiative")
            .found(format!("a second {what} by {unit}")));
        }
        let (best, _) = self.top(s, &f);
        let ud = self.unit(u);
        if self.key_of(s, x) != best {
            let first = s
                .stacks
                .iter()
                .find(|y| self.is_participant(&f, y) && self.key_of(s, y) == best);
            let first_desc = first.map_or(String::new(), |y| {
                let w = self.unit(y.unit);
                format!(
                    "{} ({}, {}, cost {})",
                    w.id,
                    self.initiative_desc(s, y),
                    w.class_name(),
                    w.cost
                )
            });
            let causes: Vec<_> = first
                .iter()
                .flat_map(|y| self.initiative_causes(s, y))
                .chain(self.initiative_causes(s, x))
                .collect();
            let first = first.map(|y| self.unit(y.unit));
            return Err(v(
                rule::INITIATIVE,
                format!(
                    "{first_desc} acts before {unit} ({}, {}, cost {})",
                    self.initiative_desc(s, x),
                    ud.class_name(),
                    ud.cost
                ),
            )
            .expected(format!("{} to act", first.map_or("another stack", |w| w.id.as_str())))
            .found(format!("{unit} acting"))
            .cited_all(causes));
        }
        Ok((i, f))
    }

    pub(super) fn check_tie(&self, s: &State, f: &Fight, x: &Stack, tie: &[u8]) -> Result<(), Violation> {
        let (_, who) = self.top(s, f);
        if who != 3 {
            if !tie.is_empty() {
                return Err(
                    v(rule::INITIATIVE, "no initiative tie between players here: no tie roll")
                        .expected("no `tie` dice")
                        .found(dice::show(tie)),
                );
            }
            return Ok(());
        }
        if !dice::faces_ok(tie, dice::D6) {
            return Err(v(rule::INITIATIVE, "tie dice are d6")
                .expected("dice from 1 to 6")
                .found(dice::show(tie)));
        }
        match dice::roll_off(tie) {
            Ok(w) if w == x.player => Ok(()),
            Ok(w) => Err(v(
                rule::INITIATIVE,
                format!(
                    "initiative ties between both players' stacks and {} won the d6 roll-off",
                    self.name(s, w)
                ),
            )
            .expected(format!("a stack of {} to act", self.name(s, w)))
            .found(format!("{} acting", self.unit(x.unit).id))),
            Err(why) => Err(v(
                rule::INITIATIVE,
                format!("initiative ties between both players' stacks; the d6 roll-off is incomplete: {why}"),
            )
            .expected(format!(
                "tie: one d6 for {} then one for {}, repeated while equal",
                self.name(s, 0),
                self.name(s, 1)
            ))
            .found(dice::show(tie))),
        }
    }

    pub(in crate::rules::openwars) fn check_roll(
        &self,
        s: &State,
        x: &Stack,
        t: u8,
        roll: &[u8],
        casualties: &BTreeMap<String, u8>,
    ) -> Result<(), Violation> {
        let u = self.unit(x.unit);
        if roll.len() != usize::from(x.n) || !dice::faces_ok(roll, dice::D6) {
            return Err(v(
                rule::ROLL,
                format!("{} attacks with {} token(s): one d6 per token", u.id, x.n),
            )
            .expected(format!("{} dice from 1 to 6", x.n))
            .found(dice::show(roll)));
        }
        let attack = self.attack_of(s, x);
        let hits = roll.iter().filter(|&&d| d <= attack).count() as u32;
        // The attack with the effects that changed it (Blood Corruption,
        // the Shifting Dunes): they shaped the hits a wrong count misses.
        let (shown, causes) = self.stat_desc(s, Out::Attack, x, u.attack, attack);
        let said = format!("{} rolled {} against {shown}: {hits} hit(s)", u.id, dice::show(roll));
        self.check_casualties(s, x, t, hits, casualties, &said).map_err(|e| {
            if e.message.starts_with(&said) {
                e.cited_all(causes)
            } else {
                e
            }
        })
    }

    /// The defender's casualties of `hits` hits by stack `x` in `t`
    /// (OW-13): shields, caps, the total due, cheapest first.
    pub(in crate::rules::openwars) fn check_casualties(
        &self,
        s: &State,
        x: &Stack,
        t: u8,
        hits: u32,
        casualties: &BTreeMap<String, u8>,
        said: &str,
    ) -> Result<(), Violation> {
        let foe = 1 - x.player;
        let total = self.tokens_of(s, foe, t);
        let (due, ignored, caps) = self.after_shields(s, foe, t, hits);
        for (id, &k) in casualties {
            if let Some(cu) = self.t.unit_ix.get(id.as_str())
                && let Some(&(_, cap)) = caps.iter().find(|(u, _)| *u == cu)
                && k > cap
            {
                // The effects that cap the stack's losses (Mithril Armour).
                let (by, causes) = self
                    .find(s, foe, cu, t)
                    .map(|i| self.modifier_cards(s, Out::MaxHits, &s.stacks[i]))
                    .unwrap_or_default();
                let by = if by.is_empty() {
                    "an effect caps its losses".to_string()
                } else {
                    format!(
                        "{} caps its losses",
                        by.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(", ")
                    )
                };
                return Err(v(
                    rule::CASUALTIES,
                    format!("{id} loses at most {cap} token(s) to one attack here"),
                )
                .expected(format!("at most {cap} {id} removed ({by})"))
                .found(format!("{k}"))
                .cited_all(causes));
            }
        }
        let mut removed = 0u32;
        let mut max_removed = 0u8;
        for (id, &k) in casualties {
            let cu = self.t.unit_ix.get(id.as_str());
            let have = cu.and_then(|cu| self.find(s, foe, cu, t)).map_or(0, |i| s.stacks[i].n);
            if k > have {
                return Err(v(
                    rule::CASUALTIES,
                    format!("{} has {have} {id} in {}", self.name(s, foe), self.cell_name(s, t)),
                )
                .expected(format!("at most {have} {id} removed"))
                .found(format!("{k}")));
            }
            if k > 0 {
                max_removed = max_removed.max(self.unit(cu.unwrap_or(0)).cost);
            }
            removed += u32::from(k);
        }
        if removed != due {
            let shields: Vec<_> = if ignored > 0 {
                self.shields(s, foe, t)
                    .iter()
                    .filter_map(|n| self.cite(n.trim_matches('`')))
                    .collect()
            } else {
                Vec::new()
            };
            return Err(v(
                rule::CASUALTIES,
                format!(
                    "{said}, and {} has {total} token(s) in {}",
                    self.name(s, foe),
                    self.cell_name(s, t)
                ),
            )
            .expected(format!(
                "{due} casualt{}{}",
                if due == 1 { "y" } else { "ies" },
                if ignored > 0 {
                    let by = self.shields(s, foe, t);
                    let by = if by.is_empty() {
                        "a shield".to_string()
                    } else {
                        by.join(", ")
                    };
                    format!(" ({ignored} hit(s) ignored by {by})")
                } else {
                    String::new()
                }
            ))
            .found(format!("{removed}"))
            .cited_all(shields));
        }
        // Cheapest first: nothing removed may cost more than what stays.
        for y in s.stacks.iter().filter(|y| y.player == foe && y.cell == t) {
            let yu = self.unit(y.unit);
            let gone = casualties.get(&yu.id).copied().unwrap_or(0);
            if gone < y.n && yu.cost < max_removed {
                return Err(v(
                    rule::CASUALTIES,
                    format!(
                        "casualties go to the cheapest tokens first: {} (cost {}) stays while a token of cost {max_removed} is removed",
                        yu.id, yu.cost
                    ),
                )
                .expected(format!("remove {} before dearer tokens", yu.id))
                .found(format!(
                    "casualties {}",
                    casualties.iter().map(|(k, n)| format!("{k}: {n}")).collect::<Vec<_>>().join(", ")
                )));
            }
        }
        Ok(())
    }

    pub(super) fn check_cast(&self, s: &State, a: &Action, chance: bool) -> Result<(), Violation> {
        let Action::Cast {
            spell,
            caster,
            from,
            at,
            target,
            roll,
            rolls,
            cancels,
            path,
            attack,
            ..
        } = a
        else {
            return Ok(());
        };
        let (spell, caster, from, at, target) = (
            spell.as_str(),
            caster.as_str(),
            from.as_str(),
            at.as_str(),
            target.as_deref(),
        );
        if s.phase == Phase::OrderRoll {
            return Err(v(
                rule::SPELLS,
                "spells are cast during the phases of a turn, not during the order roll",
            )
            .expected("a phase of the turn")
            .found("the order roll"));
        }
        let Some(sp) = self.t.spell_ix.get(spell) else {
            return Err(v(rule::SPELLS, format!("`{spell}` is not a spell of Open Wars"))
                .expected("a spell id of the pack")
                .found(spell));
        };
        let sd = &self.t.spells[usize::from(sp)];
        let cu = self.unit_ix(caster, rule::SPELLS)?;
        let ud = self.unit(cu);
        if ud.ty != MAGIC {
            return Err(v(
                rule::SPELLS,
                format!("only magic units cast spells, and {caster} is not one"),
            )
            .expected("a magic unit")
            .found(format!("{caster} ({})", tables::TYPES[usize::from(ud.ty)])));
        }
        let Some(p) = self.owner(s, cu) else {
            return Err(v(rule::SPELLS, format!("nobody plays the faction of {caster}"))
                .expected("a magic unit on the map")
                .found(caster));
        };
        let c = self.cell_ix(s, from, rule::SPELLS)?;
        if self.find(s, p, cu, c).is_none() {
            return Err(
                v(rule::SPELLS, format!("{} has no {caster} in {from}", self.name(s, p)))
                    .expected("the caster's location")
                    .found(from),
            );
        }
        if let Some(f) = sd.faction
            && f != ud.faction
        {
            return Err(v(
                rule::SPELLS,
                format!(
                    "{spell} is a spell of the {}; {caster} casts {} and common spells",
                    self.t.factions[usize::from(f)],
                    self.t.factions[usize::from(ud.faction)]
                ),
            )
            .expected(format!(
                "a {} or common spell",
                self.t.factions[usize::from(ud.faction)]
            ))
            .found(spell));
        }
        if sd.combat && s.phase != Phase::Combat {
            return Err(v(
                rule::SPELLS,
                format!("{spell} is a combat spell: only in the combat phase"),
            )
            .expected("the combat phase")
            .found(format!("the {} phase", s.phase.name())));
        }
        let mana = s.mana[usize::from(p)];
        let price = self.spell_cost(s, p, cu, c, sd.cost);
        if mana < price {
            return Err(v(rule::SPELLS, format!("{} cannot pay for {spell}", self.name(s, p)))
                .expected(format!("{price} mana"))
                .found(format!("{mana} mana in reserve")));
        }
        let t = self.cell_ix(s, at, rule::SPELLS)?;
        let d = self.map(s).grid.distance(c, t);
        if d > ud.range {
            return Err(v(
                rule::SPELLS,
                format!("a spell reaches as far as its caster's range ({caster}: {})", ud.range),
            )
            .expected(format!("a location at most {} step(s) from {from}", ud.range))
            .found(format!("{at}, {d} steps away")));
        }
        // What the spell does, against its effect: the unit it targets. A
        // refusal here is about the spell's effect, and cites it.
        if let Some(dd) = self.t.fx.spells[usize::from(sp)] {
            return self
                .check_cast_effect(
                    s,
                    spell,
                    dd,
                    (p, c, t),
                    target,
                    (roll, rolls),
                    path,
                    attack.as_ref(),
                    cancels,
                    chance,
                )
                .map_err(|e| {
                    let cause = e.cause.as_deref().cloned().or_else(|| self.cite(spell));
                    e.cited(cause)
                });
        }
        if let Some(id) = target {
            return Err(v(rule::SPELLS, format!("{spell} has no target to name"))
                .expected("no `target`")
                .found(id));
        }
        Ok(())
    }

    /// The part of a cast its spell's effect decides: target, dice, what
    /// it cancels, moves and attacks it grants.
    #[allow(clippy::too_many_arguments)]
    fn check_cast_effect(
        &self,
        s: &State,
        spell: &str,
        dd: u16,
        (p, c, t): (u8, u8, u8),
        target: Option<&str>,
        (roll, rolls): (&[u8], &BTreeMap<String, u8>),
        path: &[String],
        attack: Option<&Strike>,
        cancels: &Option<String>,
        chance: bool,
    ) -> Result<(), Violation> {
        let tu = match target {
            Some(id) => Some(self.unit_ix(id, rule::SPELLS)?),
            None => None,
        };
        let dice = if chance {
            self.cast_dice(s, dd, p, c, t, roll, rolls)?
        } else {
            Vec::new()
        };
        let roll: &[u8] = if chance { roll } else { &[6] };
        let (ctx, src, changes) = self.cast_changes(s, dd, p, c, t, tu, roll, dice);
        crate::rules::kit::effects::allow(&ctx, s, &src, &changes, rule::SPELLS)?;
        let gives = self.t.fx.defs[usize::from(dd)]
            .clauses
            .iter()
            .any(|c| c.amount(Out::CancelSpell).is_some());
        self.check_cancel(s, spell, cancels.as_deref(), gives)?;
        self.check_grant(s, spell, dd, p, t, tu, path, attack, chance)?;
        Ok(())
    }

    // ----- application -----
}
