//! Effect outcomes a log records on its actions (docs/log-format/openwars.md,
//! "Effects"): the dice a feature or a spell hangs on (`roll`, `rolls`),
//! who held a location before a combat (`holder`), and the automatic
//! outcomes these give, through the shared interpreter.

use std::collections::BTreeMap;

use super::OpenWars;
use super::effects::{Cond, Ctx, Lasting, Out, When, key};
use super::rule;
use super::state::{Stack, State};
use crate::rules::Violation;
use crate::rules::kit::effects::{self as fx, Host, Src};
use crate::rules::kit::{dice, v};

/// The die condition of a list of conditions, if any.
fn roll_of(conds: &[Cond]) -> Option<u8> {
    conds.iter().find_map(|c| match c {
        Cond::Roll(m) => Some(*m),
        _ => None,
    })
}

impl OpenWars {
    /// Notes, per cell, the player who now controls it alone.
    pub(super) fn note_holders(&self, s: &mut State) {
        let n = self.map(s).cells.len();
        if s.holder.len() != n {
            s.holder = vec![255; n];
        }
        let occ = self.occupancy(s);
        for (c, h) in s.holder.iter_mut().enumerate() {
            match (occ[0] >> c & 1, occ[1] >> c & 1) {
                (1, 0) => *h = 0,
                (0, 1) => *h = 1,
                _ => {}
            }
        }
    }

    /// The stacks (keys) that must roll for the clauses of `src` at `when`
    /// with a die condition: every target for which all the other
    /// conditions hold; `single` is set when one die serves the whole
    /// clause (the condition is the clause's, `if:`).
    pub(super) fn rollers(&self, ctx: &Ctx, s: &State, src: &Src<u32>, when: When) -> (Vec<u32>, bool) {
        let def = ctx.def(src);
        let (mut out, mut single) = (Vec::new(), false);
        if !def.checked {
            return (out, single);
        }
        for c in def.clauses.iter().filter(|c| c.when == when) {
            let clause_roll = roll_of(&c.cond).is_some();
            let target_roll = c.target.as_ref().is_some_and(|t| roll_of(&t.cond).is_some());
            if !clause_roll && !target_roll {
                continue;
            }
            let others = |conds: &[Cond], obj| {
                conds
                    .iter()
                    .filter(|x| !matches!(x, Cond::Roll(_)))
                    .all(|x| ctx.holds(s, src, x, obj))
            };
            if !others(&c.cond, None) {
                continue;
            }
            if clause_roll {
                single = true;
                continue;
            }
            let Some(t) = &c.target else { continue };
            for o in ctx.candidates(s, src, t.who) {
                if others(&t.cond, Some(o)) && !out.contains(&o) {
                    out.push(o);
                }
            }
        }
        (out, single)
    }

    /// The recorded dice against what the effects ask: one die per roller
    /// (`rolls`, by unit), or one die (`roll`) for a clause that rolls once;
    /// nothing when no effect rolls. Returns the dice by key.
    pub(super) fn check_dice(
        &self,
        card: &str,
        (rollers, single): (&[u32], bool),
        roll: &[u8],
        rolls: &BTreeMap<String, u8>,
        rule: &'static str,
    ) -> Result<Vec<(u32, u8)>, Violation> {
        let faces: Vec<u8> = roll.iter().chain(rolls.values()).copied().collect();
        if !dice::faces_ok(&faces, dice::D6) {
            return Err(v(rule, format!("the dice of `{card}` are d6"))
                .expected("dice from 1 to 6")
                .found(dice::show(&faces)));
        }
        let names: Vec<String> = rollers
            .iter()
            .map(|&k| self.unit(((k >> 8) & 0xFFFF) as u16).id.clone())
            .collect();
        if single == roll.is_empty() || (single && roll.len() != 1) {
            return Err(v(
                rule,
                if single {
                    format!("`{card}` hangs on one die, which the log does not record")
                } else {
                    format!("`{card}` rolls no single die here")
                },
            )
            .expected(if single { "roll: [one d6]" } else { "no `roll`" })
            .found(if roll.is_empty() {
                "no roll".to_string()
            } else {
                format!("roll: {}", dice::show(roll))
            }));
        }
        let given: Vec<&String> = rolls.keys().collect();
        let want: std::collections::BTreeSet<&str> = names.iter().map(|n| n.as_str()).collect();
        let got: std::collections::BTreeSet<&str> = given.iter().map(|g| g.as_str()).collect();
        if want != got {
            return Err(v(rule, format!("`{card}` makes each stack it reaches roll one die"))
                .expected(if names.is_empty() {
                    "no `rolls`".to_string()
                } else {
                    format!("rolls: one d6 for each of {}", names.join(", "))
                })
                .found(if given.is_empty() {
                    "no rolls".to_string()
                } else {
                    format!(
                        "rolls for {}",
                        given.iter().map(|g| g.as_str()).collect::<Vec<_>>().join(", ")
                    )
                }));
        }
        Ok(rollers
            .iter()
            .zip(&names)
            .map(|(&k, n)| (k, rolls.get(n).copied().unwrap_or(0)))
            .collect())
    }

    /// The feature of location `c`, as a source in force.
    pub(super) fn feature_at(&self, s: &State, c: u8) -> Option<Src<u32>> {
        let card = self.map(s).cells.get(usize::from(c))?.effect?;
        let occ = self.occupancy(s);
        let owner = (0..2u8)
            .find(|&p| (occ[usize::from(p)] & !occ[usize::from(1 - p)]) & (1 << c) != 0)
            .unwrap_or(255);
        Some(Src {
            card,
            owner,
            at: Some(super::effects::key(owner, 0xFFFF, c)),
        })
    }

    /// A stack entering `t` (the stack `x` already there): the dice its
    /// features ask for.
    pub(super) fn check_enter_roll(&self, s: &State, x: &Stack, t: u8, roll: &[u8]) -> Result<(), Violation> {
        let (rollers, single, card) = match self.feature_at(s, t) {
            Some(src) => {
                // The stack as it will stand once in.
                let mut s2 = s.clone();
                s2.stacks.push(Stack { cell: t, ..x.clone() });
                let ctx = Ctx::new(self, &[When::OnEnter]);
                let (r, one) = self.rollers(&ctx, &s2, &src, When::OnEnter);
                let k = key(x.player, x.unit, t);
                (r.contains(&k), one, ctx.card_id(&src))
            }
            None => (false, false, self.cell_name(s, t).to_string()),
        };
        let need = rollers || single;
        if need == roll.is_empty() || roll.len() > 1 || !dice::faces_ok(roll, dice::D6) {
            return Err(v(
                rule::MOVEMENT,
                if need {
                    format!(
                        "entering {} makes {} roll one die (`{card}`)",
                        self.cell_name(s, t),
                        self.unit(x.unit).id
                    )
                } else {
                    format!(
                        "nothing in {} makes {} roll",
                        self.cell_name(s, t),
                        self.unit(x.unit).id
                    )
                },
            )
            .expected(if need { "roll: [one d6]" } else { "no `roll`" })
            .found(if roll.is_empty() {
                "no roll".to_string()
            } else {
                format!("roll: {}", dice::show(roll))
            }));
        }
        Ok(())
    }

    /// The automatic outcomes of the features of `c` at `when` with the
    /// recorded dice, for `only` (a stack) or every target.
    pub(super) fn fire_dice(
        &self,
        s: &State,
        when: When,
        c: u8,
        only: Option<u32>,
        roll: &[u8],
        dice: Vec<(u32, u8)>,
    ) -> Vec<(Src<u32>, u8, fx::Change<Out, u32>)> {
        let mut ctx = Ctx::new(self, &[when]);
        ctx.roll = roll.to_vec();
        ctx.dice = dice;
        let srcs: Vec<Src<u32>> = self.feature_at(s, c).into_iter().collect();
        fx::fire(&ctx, s, &srcs, when, only)
    }

    /// The dice of a fight against the combat-start features of its location.
    pub(super) fn check_fight_rolls(&self, s: &State, c: u8, rolls: &BTreeMap<String, u8>) -> Result<(), Violation> {
        let Some(src) = self.feature_at(s, c) else {
            return self
                .check_dice(self.cell_name(s, c), (&[], false), &[], rolls, rule::COMBATS)
                .map(|_| ());
        };
        let ctx = Ctx::new(self, &[When::CombatStart]);
        let (r, one) = self.rollers(&ctx, s, &src, When::CombatStart);
        self.check_dice(&ctx.card_id(&src), (&r, one), &[], rolls, rule::COMBATS)
            .map(|_| ())
    }

    /// A fight starts in `c`: its combat-start features apply (tokens lost
    /// to a die, bonuses for the side that held it; a shield of the side
    /// is one shield, not one per stack).
    pub(super) fn start_fight_features(&self, s: &mut State, c: u8, rolls: &BTreeMap<String, u8>) {
        let Some(src) = self.feature_at(s, c) else { return };
        let ctx = Ctx::new(self, &[When::CombatStart]);
        let (r, _) = self.rollers(&ctx, s, &src, When::CombatStart);
        let dice: Vec<(u32, u8)> = r
            .iter()
            .map(|&k| {
                (
                    k,
                    rolls
                        .get(&self.unit(((k >> 8) & 0xFFFF) as u16).id)
                        .copied()
                        .unwrap_or(0),
                )
            })
            .collect();
        let changes = self.fire_dice(s, When::CombatStart, c, None, &[], dice);
        self.apply_changes(s, &changes);
    }

    /// Applies automatic outcomes: tokens lost, lasting bonuses.
    pub(super) fn apply_changes(&self, s: &mut State, changes: &[(Src<u32>, u8, fx::Change<Out, u32>)]) {
        for (src, clause, ch) in changes {
            let Some(obj) = ch.obj else { continue };
            let (p, u, c) = ((obj >> 24) as u8, ((obj >> 8) & 0xFFFF) as u16, obj as u8);
            let until = self.t.fx.defs[usize::from(src.card)].clauses[usize::from(*clause)].until;
            match (ch.out, until) {
                (Out::LoseToken, _) => {
                    if let Some(j) = self.find(s, p, u, c) {
                        let k = (ch.n.max(0) as u8).min(s.stacks[j].n);
                        s.fallen[usize::from(u)] = s.fallen[usize::from(u)].saturating_add(k);
                        s.stacks[j].wounded = true;
                        self.take_tokens(s, j, k);
                    }
                }
                (Out::IgnoreHits, Some(until)) => {
                    let side = Some(key(p, 0xFFFF, c));
                    if !s.lasting.iter().any(|l| l.src == *src && l.obj == side) {
                        s.lasting.push(Lasting {
                            src: *src,
                            clause: *clause,
                            obj: side,
                            until,
                        });
                    }
                }
                (_, Some(until))
                    if !s
                        .lasting
                        .iter()
                        .any(|l| l.src == *src && l.clause == *clause && l.obj == Some(obj)) =>
                {
                    s.lasting.push(Lasting {
                        src: *src,
                        clause: *clause,
                        obj: Some(obj),
                        until,
                    });
                }
                _ => {}
            }
        }
    }

    /// Hits the side of `foe` in `t` ignores as a whole (a feature's shield).
    pub(super) fn side_shields(&self, s: &State, foe: u8, t: u8) -> i16 {
        let side = Some(key(foe, 0xFFFF, t));
        s.lasting
            .iter()
            .filter(|l| l.obj == side)
            .filter_map(|l| {
                match self.t.fx.defs[usize::from(l.src.card)].clauses[usize::from(l.clause)].amount(Out::IgnoreHits) {
                    Some(fx::Amount::Exactly(n)) => Some(*n),
                    _ => None,
                }
            })
            .sum()
    }

    /// The dice of a cast against what the spell's effect rolls for.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn cast_dice(
        &self,
        s: &State,
        d: u16,
        p: u8,
        from: u8,
        at: u8,
        roll: &[u8],
        rolls: &BTreeMap<String, u8>,
    ) -> Result<Vec<(u32, u8)>, Violation> {
        let mut ctx = Ctx::new(self, &[When::Cast]);
        ctx.caster = Some(from);
        ctx.at = Some(at);
        ctx.roll = roll.to_vec();
        let src = Src {
            card: d,
            owner: p,
            at: None,
        };
        let (r, one) = self.rollers(&ctx, s, &src, When::Cast);
        let per_die = self.t.fx.defs[usize::from(d)].clauses.iter().any(|c| {
            c.out
                .iter()
                .any(|(_, a)| matches!(a, fx::Amount::Per { per: Cond::Roll(_), .. }))
        });
        if per_die {
            // Dice counted by the outcome itself (checked with the attack).
            return Ok(Vec::new());
        }
        self.check_dice(&ctx.card_id(&src), (&r, one), roll, rolls, rule::SPELLS)
    }

    /// Random dice for what `a` rolls for effects (chance players).
    pub(super) fn roll_effects(&self, s: &State, a: &mut super::actions::Action, rng: &mut fastrand::Rng) {
        use super::actions::Action;
        let name = |k: u32| self.unit(((k >> 8) & 0xFFFF) as u16).id.clone();
        match a {
            Action::Move {
                unit, from, to, roll, ..
            } => {
                roll.clear();
                let m = self.map(s);
                if let (Some(u), Some(f), Some(t)) = (self.t.unit_ix.get(unit.as_str()), m.cell(from), m.cell(to))
                    && let Some(i) = self.find(s, s.to_move, u, f)
                {
                    let mut x = s.stacks[i].clone();
                    x.cell = t;
                    if self.check_enter_roll(s, &x, t, &[]).is_err() {
                        roll.push(rng.u8(1..=6));
                    }
                }
            }
            Action::Fight { at, rolls } => {
                rolls.clear();
                if let Some(c) = self.map(s).cell(at)
                    && let Some(src) = self.feature_at(s, c)
                {
                    let ctx = Ctx::new(self, &[When::CombatStart]);
                    for k in self.rollers(&ctx, s, &src, When::CombatStart).0 {
                        rolls.insert(name(k), rng.u8(1..=6));
                    }
                }
            }
            Action::Cast {
                spell,
                caster,
                from,
                at,
                roll,
                rolls,
                ..
            } => {
                roll.clear();
                rolls.clear();
                let m = self.map(s);
                let (Some(sp), Some(cu), Some(f), Some(t)) = (
                    self.t.spell_ix.get(spell.as_str()),
                    self.t.unit_ix.get(caster.as_str()),
                    m.cell(from),
                    m.cell(at),
                ) else {
                    return;
                };
                let (Some(d), Some(p)) = (self.t.fx.spells[usize::from(sp)], self.owner(s, cu)) else {
                    return;
                };
                let mut ctx = Ctx::new(self, &[When::Cast]);
                ctx.caster = Some(f);
                ctx.at = Some(t);
                let src = Src {
                    card: d,
                    owner: p,
                    at: None,
                };
                let (r, one) = self.rollers(&ctx, s, &src, When::Cast);
                if one {
                    roll.push(rng.u8(1..=6));
                }
                for k in r {
                    rolls.insert(name(k), rng.u8(1..=6));
                }
            }
            _ => {}
        }
    }

    /// The spell that keeps stack `x` from moving, if one does.
    pub(super) fn held_still(&self, s: &State, x: &Stack) -> Option<String> {
        let ctx = Ctx::new(self, &[When::Continuous]);
        fx::modifiers(
            &ctx,
            s,
            &[],
            &s.lasting,
            When::Continuous,
            Out::NoMove,
            Some(key(x.player, x.unit, x.cell)),
        )
        .first()
        .map(|(src, _, _)| ctx.card_id(src))
    }

    /// The feature of location `at` that ends the movement of stack `x`
    /// entering it (the Mountain Pass), if one does.
    pub(super) fn stopped_by(&self, s: &State, x: &Stack, at: u8) -> Option<String> {
        self.fire_at(s, When::OnEnter, at, Some(x))
            .iter()
            .find(|(_, _, ch)| ch.out == Out::Stop)
            .map(|(src, _, _)| self.t.fx.names[usize::from(src.card)].clone())
    }

    /// The effects in force that change the initiative of `x`: (source, clause, amount).
    fn initiative_modifiers(&self, ctx: &Ctx, s: &State, x: &Stack) -> Vec<(fx::Src<u32>, u8, i16)> {
        fx::modifiers(
            ctx,
            s,
            &self.sources(s),
            &s.lasting,
            When::Continuous,
            Out::Initiative,
            Some(key(x.player, x.unit, x.cell)),
        )
    }

    /// The effects in force that change `out` for `x`: (card, amount).
    pub(super) fn modifier_parts(&self, s: &State, out: Out, x: &Stack) -> Vec<(u16, i16)> {
        let sources = self.sources_giving(s, out);
        if sources.is_empty() && s.lasting.is_empty() {
            return Vec::new();
        }
        let ctx = Ctx::new(self, &[When::Continuous]);
        fx::modifiers(
            &ctx,
            s,
            &sources,
            &s.lasting,
            When::Continuous,
            out,
            Some(key(x.player, x.unit, x.cell)),
        )
        .iter()
        .filter(|(_, _, n)| *n != 0)
        .map(|(src, _, n)| (src.card, *n))
        .collect()
    }

    /// The names of the effects in [`OpenWars::modifier_parts`], and their
    /// causes for a refusal.
    pub(super) fn modifier_cards(&self, s: &State, out: Out, x: &Stack) -> (Vec<String>, Vec<crate::rules::Cause>) {
        let names: Vec<String> = self
            .modifier_parts(s, out, x)
            .iter()
            .map(|(c, _)| self.t.fx.names[usize::from(*c)].clone())
            .collect();
        let causes = names.iter().filter_map(|c| self.cite(c)).collect();
        (names, causes)
    }

    /// A stack's movement for this phase in words, with the effects that
    /// changed it (`movement 4 (3, +1 by `oasis`)`), and their causes.
    pub(super) fn movement_desc(&self, x: &Stack) -> (String, Vec<crate::rules::Cause>) {
        let base = self.unit(x.unit).movement;
        if x.mp_by.is_empty() {
            return (format!("movement {base}"), Vec::new());
        }
        let total = x.mp_by.iter().fold(i16::from(base), |t, p| t + p.1).clamp(0, 20);
        let names: Vec<&str> = x
            .mp_by
            .iter()
            .map(|(c, _)| self.t.fx.names[usize::from(*c)].as_str())
            .collect();
        let by: Vec<String> = x
            .mp_by
            .iter()
            .zip(&names)
            .map(|((_, n), c)| format!("{n:+} by `{c}`"))
            .collect();
        let causes = names.iter().filter_map(|c| self.cite(c)).collect();
        (format!("movement {total} ({base}, {})", by.join(", ")), causes)
    }

    /// A value of stack `x` in words: `attack 4 (3, +1 by `blood-corruption`)`
    /// when effects changed `base` into `now`, with their causes.
    pub(super) fn stat_desc(
        &self,
        s: &State,
        out: Out,
        x: &Stack,
        base: u8,
        now: u8,
    ) -> (String, Vec<crate::rules::Cause>) {
        let name = fx::Word::name(out);
        if base == now {
            return (format!("{name} {now}"), Vec::new());
        }
        let parts = self.modifier_parts(s, out, x);
        let by: Vec<String> = parts
            .iter()
            .map(|(c, n)| format!("{n:+} by `{}`", self.t.fx.names[usize::from(*c)]))
            .collect();
        let causes = parts
            .iter()
            .filter_map(|(c, _)| self.cite(&self.t.fx.names[usize::from(*c)]))
            .collect();
        (format!("{name} {now} ({base}, {})", by.join(", ")), causes)
    }

    /// A stack's initiative in words, with the effects that change it
    /// (`initiative 6 (5, +1 by `capital`)`).
    pub(super) fn initiative_desc(&self, s: &State, x: &Stack) -> String {
        let base = self.unit(x.unit).initiative;
        let ctx = Ctx::new(self, &[When::Continuous]);
        let parts = self.initiative_modifiers(&ctx, s, x);
        if parts.is_empty() {
            return format!("initiative {base}");
        }
        let total = parts.iter().fold(i16::from(base), |t, p| t + p.2).max(0);
        let by: Vec<String> = parts
            .iter()
            .map(|(src, _, n)| format!("{n:+} by `{}`", ctx.card_id(src)))
            .collect();
        format!("initiative {total} ({base}, {})", by.join(", "))
    }

    /// The effects that change the initiative of `x`, as causes of a
    /// refusal about the order of a combat.
    pub(super) fn initiative_causes(&self, s: &State, x: &Stack) -> Vec<crate::rules::Cause> {
        let ctx = Ctx::new(self, &[When::Continuous]);
        self.initiative_modifiers(&ctx, s, x)
            .iter()
            .filter_map(|(src, _, _)| self.cite(&ctx.card_id(src)))
            .collect()
    }

    /// The effect called `name` (a spell, a location's feature) as the
    /// cause of a refusal about it.
    pub(super) fn cite(&self, name: &str) -> Option<crate::rules::Cause> {
        fx::cause_named(&self.t.fx.defs, &self.t.fx.names, name)
    }

    /// A dispel names a spell whose lasting outcomes are in force.
    pub(super) fn check_cancel(
        &self,
        s: &State,
        spell: &str,
        cancels: Option<&str>,
        gives: bool,
    ) -> Result<(), Violation> {
        match (gives, cancels) {
            (false, None) => Ok(()),
            (false, Some(id)) => Err(v(rule::SPELLS, format!("`{spell}` cancels no spell"))
                .expected("no `cancels`")
                .found(id)),
            (true, None) => Err(v(
                rule::SPELLS,
                format!("`{spell}` cancels a spell, which the log does not name"),
            )
            .expected("cancels: <the spell cancelled>")
            .found("no `cancels`")),
            (true, Some(id)) => {
                let card = self.t.spell_ix.get(id).and_then(|i| self.t.fx.spells[usize::from(i)]);
                if card.is_some_and(|d| s.lasting.iter().any(|l| l.src.card == d && l.src.at.is_none())) {
                    return Ok(());
                }
                let live: Vec<String> = s
                    .lasting
                    .iter()
                    .filter(|l| l.src.at.is_none())
                    .map(|l| format!("`{}`", self.t.fx.names[usize::from(l.src.card)]))
                    .collect::<std::collections::BTreeSet<_>>()
                    .into_iter()
                    .collect();
                Err(v(
                    rule::SPELLS,
                    format!("`{spell}` cancels a spell in force, and `{id}` is not one"),
                )
                .expected(if live.is_empty() {
                    "a spell in force (there is none)".to_string()
                } else {
                    format!("one of {}", live.join(", "))
                })
                .found(format!("cancels: {id}")))
            }
        }
    }

    /// The lasting outcomes of a spell go (a dispel), and the movement
    /// points it gave with them.
    pub(super) fn cancel(&self, s: &mut State, id: &str) {
        let Some(d) = self.t.spell_ix.get(id).and_then(|i| self.t.fx.spells[usize::from(i)]) else {
            return;
        };
        let gone: Vec<Lasting> = s
            .lasting
            .iter()
            .filter(|l| l.src.card == d && l.src.at.is_none())
            .copied()
            .collect();
        s.lasting.retain(|l| !(l.src.card == d && l.src.at.is_none()));
        for l in gone {
            let clause = &self.t.fx.defs[usize::from(d)].clauses[usize::from(l.clause)];
            if let (Some(fx::Amount::Exactly(n)), Some(k)) = (clause.amount(Out::Movement), l.obj)
                && let Some(j) = self.find(s, (k >> 24) as u8, ((k >> 8) & 0xFFFF) as u16, k as u8)
            {
                for m in &mut s.stacks[j].mp {
                    *m = (i16::from(*m) - n).clamp(0, 20) as u8;
                }
            }
        }
    }
}
