//! Spells that move, bring back or strike with a unit (OW-16), out of the
//! phase order: the cast records where the target goes (`path`) and the
//! attack it makes (`attack`), and the engine checks them against the
//! spell's effect (move up to N, teleport, raise, extra attack, extra dice
//! per hit) and applies them. Also the lasting outcomes that change a later
//! action: a free spell, bonuses stripped from the next attack.

use std::collections::BTreeMap;

use super::OpenWars;
use super::actions::Strike;
use super::effects::{Cond, Ctx, Out, When, key};
use super::rule;
use super::state::{Stack, State};
use crate::rules::Violation;
use crate::rules::kit::effects::{self as fx, Amount, Host};
use crate::rules::kit::{dice, v};

/// What a spell's effect lets its target do.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Grant {
    /// Move up to this many locations.
    pub moves: u8,
    pub teleport: bool,
    pub raise: bool,
    pub attack: bool,
    /// Extra dice per hit scored, hitting on these faces (bits).
    pub bonus: Option<u8>,
}

impl Grant {
    fn any(&self) -> bool {
        self.moves > 0 || self.teleport || self.raise || self.attack || self.bonus.is_some()
    }
}

impl OpenWars {
    /// The grant of spell effect `d` (nothing for an unchecked effect).
    pub(super) fn grant(&self, d: u16) -> Grant {
        let def = &self.t.fx.defs[usize::from(d)];
        let mut g = Grant::default();
        if !def.checked {
            return g;
        }
        for c in &def.clauses {
            for (o, a) in &c.out {
                match (o, a) {
                    (Out::Move, Amount::Exactly(n)) => g.moves = g.moves.max((*n).clamp(0, 9) as u8),
                    (Out::Teleport, _) => g.teleport = true,
                    (Out::Raise, _) => g.raise = true,
                    (Out::ExtraAttack, _) => g.attack = true,
                    (Out::Hits, Amount::Per { per: Cond::Roll(m), .. }) => g.bonus = Some(*m),
                    _ => {}
                }
            }
        }
        g
    }

    /// The move, return and attack a cast records, against its grant.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn check_grant(
        &self,
        s: &State,
        spell: &str,
        d: u16,
        p: u8,
        at: u8,
        target: Option<u16>,
        path: &[String],
        attack: Option<&Strike>,
        chance: bool,
    ) -> Result<(), Violation> {
        let g = self.grant(d);
        if g.moves == 0 && !g.teleport && !path.is_empty() {
            return Err(v(rule::SPELLS, format!("`{spell}` moves no unit"))
                .expected("no `path`")
                .found(format!("path: [{}]", path.join(", "))));
        }
        if !g.attack && g.bonus.is_none() && attack.is_some() {
            return Err(v(rule::SPELLS, format!("`{spell}` grants no attack"))
                .expected("no `attack`")
                .found("an attack"));
        }
        if !g.any() {
            return Ok(());
        }
        let Some(u) = target else {
            return Err(v(
                rule::SPELLS,
                format!("`{spell}` acts on one unit, which the log does not name"),
            )
            .expected("target: <a unit in the target location>")
            .found("no `target`"));
        };
        let who = self.name(s, p);
        if g.raise {
            let ud = self.unit(u);
            if let Some(why) = self.no_control(s, p, at) {
                return Err(v(
                    rule::SPELLS,
                    format!("`{spell}` brings a unit back where {who} is in control: {why}"),
                )
                .expected("a location the caster's player controls")
                .found(self.cell_name(s, at).to_string()));
            }
            let on = self.on_map(s, u);
            if on >= u32::from(ud.copies) || ud.unique && on > 0 {
                return Err(v(
                    rule::SPELLS,
                    format!("every {} token is on the map: none to bring back", ud.id),
                )
                .expected("a unit with a token out of play")
                .found(format!("{on} of {} on the map", ud.copies)));
            }
            return self.stacking(s, p, u, at, 1);
        }
        let Some(i) = self.find(s, p, u, at) else {
            // `allow` has refused a target that is not there.
            return Ok(());
        };
        let x = &s.stacks[i];
        let mut end = at;
        if g.moves > 0 || g.teleport {
            end = self.check_path(s, spell, x, &g, path)?;
        }
        if g.attack || g.bonus.is_some() {
            let Some(a) = attack else {
                return Err(v(
                    rule::SPELLS,
                    format!(
                        "`{spell}` grants {} an attack, which the log does not record",
                        self.unit(u).id
                    ),
                )
                .expected("attack: {roll: [...], casualties: {...}}")
                .found("no `attack`"));
            };
            if self.tokens_of(s, 1 - p, end) == 0 {
                return Err(v(
                    rule::SPELLS,
                    format!(
                        "there is no enemy in {} for {} to attack",
                        self.cell_name(s, end),
                        self.unit(u).id
                    ),
                )
                .expected("a location with enemy tokens")
                .found(self.cell_name(s, end).to_string()));
            }
            if chance {
                let mut y = x.clone();
                y.cell = end;
                match g.bonus {
                    None => self.check_roll(s, &y, end, &a.roll, &a.casualties)?,
                    Some(m) => {
                        let want = usize::from(x.hits);
                        if a.roll.len() != want || !dice::faces_ok(&a.roll, dice::D6) {
                            return Err(v(
                                rule::SPELLS,
                                format!("`{spell}` rolls one die per hit {} scored", self.unit(u).id),
                            )
                            .expected(format!("{want} d6"))
                            .found(dice::show(&a.roll)));
                        }
                        let hits = a.roll.iter().filter(|&&f| m & 1 << f != 0).count() as u32;
                        let said = format!("`{spell}` rolled {}: {hits} more hit(s)", dice::show(&a.roll));
                        self.check_casualties(s, &y, end, hits, &a.casualties, &said)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// A spell's move: each step to a neighbour (a teleport: one jump to a
    /// location the player controls), the water rule, no enemy on the way
    /// (nor at the end, unless the spell attacks there), stacking at the end.
    fn check_path(&self, s: &State, spell: &str, x: &Stack, g: &Grant, path: &[String]) -> Result<u8, Violation> {
        let id = &self.unit(x.unit).id;
        let most = if g.teleport { 1 } else { g.moves };
        if path.is_empty() || path.len() > usize::from(most) {
            return Err(v(
                rule::SPELLS,
                format!(
                    "`{spell}` moves {id} {}",
                    if g.teleport {
                        "to one location".to_string()
                    } else {
                        format!("up to {most} location(s)")
                    }
                ),
            )
            .expected(format!("path: 1 to {most} location(s)"))
            .found(format!("{} location(s)", path.len())));
        }
        if let Some(by) = self.held_still(s, x) {
            return Err(v(rule::SPELLS, format!("{id} cannot move this turn (`{by}`)"))
                .expected(format!("a unit free to move (`{by}` holds it)"))
                .found(format!("path: [{}]", path.join(", ")))
                .cited(self.cite(&by)));
        }
        let mut cur = x.cell;
        for (k, step) in path.iter().enumerate() {
            let next = self.cell_ix(s, step, rule::SPELLS)?;
            if g.teleport {
                if next == x.cell {
                    return Err(v(rule::SPELLS, format!("`{spell}` takes {id} elsewhere"))
                        .expected("another location")
                        .found(step.as_str()));
                }
                if let Some(why) = self.no_control(s, x.player, next) {
                    return Err(v(
                        rule::SPELLS,
                        format!("`{spell}` takes {id} only to a location its player controls: {why}"),
                    )
                    .expected("a controlled location")
                    .found(step.as_str()));
                }
            } else if !self.map(s).grid.adjacent(cur, next) {
                return Err(v(
                    rule::SPELLS,
                    format!(
                        "{id} moves one orthogonal step at a time, and {step} is not next to {}",
                        self.cell_name(s, cur)
                    ),
                )
                .expected(format!("a neighbour of {}", self.cell_name(s, cur)))
                .found(step.as_str()));
            } else if let Some(why) = self.water_block(s, x.unit, cur, next) {
                return Err(v(rule::WATER, why)
                    .expected("water only for water and flying units")
                    .found(step.as_str()));
            }
            let last = k + 1 == path.len();
            let foes = self.tokens_of(s, 1 - x.player, next);
            if foes > 0 && !(last && (g.attack || g.bonus.is_some())) {
                return Err(v(
                    rule::SPELLS,
                    format!("`{spell}` does not take {id} into {step}, where the enemy is"),
                )
                .expected("a location free of enemies")
                .found(format!("{step}, {foes} enemy token(s)")));
            }
            cur = next;
        }
        if (g.attack || g.bonus.is_some()) && self.tokens_of(s, 1 - x.player, cur) == 0 {
            return Err(v(
                rule::SPELLS,
                format!(
                    "`{spell}` moves {id} to attack, and {} holds no enemy",
                    self.cell_name(s, cur)
                ),
            )
            .expected("a path ending where the enemy is")
            .found(format!("path: [{}]", path.join(", "))));
        }
        if cur != x.cell {
            self.stacking(s, x.player, x.unit, cur, x.n)?;
        }
        Ok(cur)
    }

    /// Applies what a cast's grant records: the return, the move, the attack.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn apply_grant(
        &self,
        s: &mut State,
        d: u16,
        p: u8,
        at: u8,
        target: Option<u16>,
        path: &[String],
        attack: Option<&Strike>,
    ) {
        let g = self.grant(d);
        let Some(u) = target.filter(|_| g.any()) else { return };
        if g.raise {
            self.add_tokens(s, p, u, at, 1, &[0]);
            let f = &mut s.fallen[usize::from(u)];
            *f = f.saturating_sub(1);
            return;
        }
        let Some(mut i) = self.find(s, p, u, at) else { return };
        if let Some(end) = path.last().and_then(|c| self.map(s).cell(c))
            && end != at
        {
            let n = s.stacks[i].n;
            let mp = self.take_tokens(s, i, n);
            i = self.add_tokens(s, p, u, end, n, &mp);
        }
        if let Some(a) = attack {
            let x = &s.stacks[i];
            let t = x.cell;
            let hits = match g.bonus {
                Some(m) => a.roll.iter().filter(|&&f| m & 1 << f != 0).count() as u32,
                None => {
                    let attack = self.attack_of(s, x);
                    a.roll.iter().filter(|&&f| f <= attack).count() as u32
                }
            };
            let before = s.stacks[i].hits;
            s.stacks[i].attacked = true;
            self.strike(s, i, t, hits, &a.casualties);
            if g.bonus.is_some()
                && let Some(j) = self.find(s, p, u, t)
            {
                // Extra dice add to the hits the attack scored.
                s.stacks[j].hits = before.saturating_add(hits.min(255) as u8);
            }
            self.advance_fight(s);
        }
    }

    /// Whether stack `x`'s next attack has its bonuses stripped.
    pub(super) fn stripped(&self, s: &State, x: &Stack) -> bool {
        let ctx = Ctx::new(self, &[When::Continuous]);
        fx::modifier(
            &ctx,
            s,
            &[],
            &s.lasting,
            When::Continuous,
            Out::StripBonuses,
            Some(key(x.player, x.unit, x.cell)),
        ) > 0
    }

    /// Stack `i` has attacked: a strip on it is used up.
    pub(super) fn unstrip(&self, s: &mut State, i: usize) {
        let k = Some(key(s.stacks[i].player, s.stacks[i].unit, s.stacks[i].cell));
        let strip: Vec<bool> = s
            .lasting
            .iter()
            .map(|l| {
                l.obj == k
                    && self.t.fx.defs[usize::from(l.src.card)].clauses[usize::from(l.clause)]
                        .amount(Out::StripBonuses)
                        .is_some()
            })
            .collect();
        let mut it = strip.iter();
        s.lasting.retain(|_| !it.next().copied().unwrap_or(false));
    }

    /// The free spell player `p` has in store, if any (its index in `lasting`).
    pub(super) fn free_spell(&self, s: &State, p: u8) -> Option<usize> {
        s.lasting.iter().position(|l| {
            l.obj.is_some_and(|k| (k >> 24) as u8 == p)
                && self.t.fx.defs[usize::from(l.src.card)].clauses[usize::from(l.clause)]
                    .amount(Out::FreeSpell)
                    .is_some()
        })
    }

    /// The paths and attacks a cast of `d` on `target` in `at` may record
    /// (canonical: an attack with no dice), for the legal actions.
    pub(super) fn grant_options(&self, s: &State, d: u16, at: u8) -> Vec<(Vec<String>, Option<Strike>)> {
        let g = self.grant(d);
        let m = self.map(s);
        let strike = (g.attack || g.bonus.is_some()).then(Strike::default);
        let mut out = Vec::new();
        if g.teleport {
            let ctrl = self.controlled(s, 0) | self.controlled(s, 1);
            for c in (0..m.cells.len() as u8).filter(|&c| ctrl & 1 << c != 0) {
                out.push((vec![m.grid.name(c).to_string()], strike.clone()));
            }
        } else if g.moves > 0 {
            for &a in m.grid.neighbours(at) {
                out.push((vec![m.grid.name(a).to_string()], strike.clone()));
                if g.moves > 1 {
                    for &b in m.grid.neighbours(a) {
                        out.push((
                            vec![m.grid.name(a).to_string(), m.grid.name(b).to_string()],
                            strike.clone(),
                        ));
                    }
                }
            }
        } else {
            out.push((Vec::new(), strike));
        }
        out
    }

    /// Random dice and casualties for the attack a cast grants.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn random_strike(
        &self,
        s: &State,
        d: u16,
        p: u8,
        at: u8,
        target: Option<u16>,
        path: &[String],
        rng: &mut fastrand::Rng,
    ) -> Option<Strike> {
        let g = self.grant(d);
        if !g.attack && g.bonus.is_none() {
            return None;
        }
        let x = &s.stacks[self.find(s, p, target?, at)?];
        let end = path.last().and_then(|c| self.map(s).cell(c)).unwrap_or(at);
        let mut y = x.clone();
        y.cell = end;
        let (roll, hits): (Vec<u8>, u32) = match g.bonus {
            Some(m) => {
                let r: Vec<u8> = (0..x.hits).map(|_| rng.u8(1..=6)).collect();
                let h = r.iter().filter(|&&f| m & 1 << f != 0).count() as u32;
                (r, h)
            }
            None => {
                let r: Vec<u8> = (0..x.n).map(|_| rng.u8(1..=6)).collect();
                let a = self.attack_of(s, &y);
                let h = r.iter().filter(|&&f| f <= a).count() as u32;
                (r, h)
            }
        };
        Some(Strike {
            roll,
            casualties: self.random_casualties(s, &y, end, hits, rng),
        })
    }

    /// Random casualties of `hits` hits by `x` in `t`: cheapest first.
    pub(super) fn random_casualties(
        &self,
        s: &State,
        x: &Stack,
        t: u8,
        hits: u32,
        rng: &mut fastrand::Rng,
    ) -> BTreeMap<String, u8> {
        let (due, _, caps) = self.after_shields(s, 1 - x.player, t, hits);
        let mut pool: Vec<(u8, u32, u16)> = Vec::new();
        for y in s.stacks.iter().filter(|y| y.player != x.player && y.cell == t) {
            let cap = caps.iter().find(|(u, _)| *u == y.unit).map_or(y.n, |c| c.1);
            for _ in 0..cap {
                pool.push((self.unit(y.unit).cost, rng.u32(..), y.unit));
            }
        }
        pool.sort_unstable();
        let mut out = BTreeMap::new();
        for &(_, _, cu) in pool.iter().take(due as usize) {
            *out.entry(self.unit(cu).id.clone()).or_default() += 1;
        }
        out
    }

    /// Player `foe`'s stacks in `t` the casualties destroy that an effect
    /// in force may bring back (`return`), with the die faces it needs.
    pub(super) fn returning(&self, s: &State, foe: u8, t: u8, casualties: &BTreeMap<String, u8>) -> Vec<(String, u8)> {
        let mut out = Vec::new();
        for y in s.stacks.iter().filter(|y| y.player == foe && y.cell == t) {
            let id = &self.unit(y.unit).id;
            if casualties.get(id).copied().unwrap_or(0) < y.n {
                continue;
            }
            let k = Some(key(foe, y.unit, t));
            let faces = s.lasting.iter().filter(|l| l.obj == k).find_map(|l| {
                match self.t.fx.defs[usize::from(l.src.card)].clauses[usize::from(l.clause)].amount(Out::Return) {
                    Some(Amount::Per { per: Cond::Roll(m), .. }) => Some(*m),
                    _ => None,
                }
            });
            if let Some(m) = faces {
                out.push((id.clone(), m));
            }
        }
        out
    }

    /// The dice of an attack for the destroyed stacks that may come back.
    pub(super) fn check_returns(
        &self,
        s: &State,
        unit: &str,
        at: &str,
        casualties: &BTreeMap<String, u8>,
        rolls: &BTreeMap<String, u8>,
    ) -> Result<(), Violation> {
        let (Some(f), Some(u)) = (s.fight, self.t.unit_ix.get(unit)) else {
            return Ok(());
        };
        let Some(x) = s.stacks.iter().find(|x| x.unit == u && x.cell == f.cell) else {
            return Ok(());
        };
        let t = if f.ranged {
            self.map(s).cell(at).unwrap_or(f.cell)
        } else {
            f.cell
        };
        let back = self.returning(s, 1 - x.player, t, casualties);
        let want: Vec<&str> = back.iter().map(|(id, _)| id.as_str()).collect();
        let got: Vec<&str> = rolls.keys().map(|k| k.as_str()).collect();
        let faces: Vec<u8> = rolls.values().copied().collect();
        if want != got || !dice::faces_ok(&faces, dice::D6) {
            let by = s
                .lasting
                .iter()
                .find(|l| {
                    self.t.fx.defs[usize::from(l.src.card)].clauses[usize::from(l.clause)]
                        .amount(Out::Return)
                        .is_some()
                })
                .map(|l| self.t.fx.names[usize::from(l.src.card)].clone());
            let cause = by.as_deref().and_then(|c| self.cite(c));
            let card = by.map(|c| format!(" (`{c}`)")).unwrap_or_default();
            return Err(v(
                rule::CASUALTIES,
                format!("each destroyed stack an effect may bring back rolls one die{card}"),
            )
            .expected(if want.is_empty() {
                "no `rolls`".to_string()
            } else {
                let example: Vec<String> = want.iter().map(|w| format!("{w}: 5")).collect();
                format!(
                    "rolls: one d6 for each of {}, on the attack (`rolls: {{{}}}`)",
                    want.join(", "),
                    example.join(", ")
                )
            })
            .found(if got.is_empty() {
                "no rolls".to_string()
            } else {
                format!(
                    "rolls {}",
                    rolls
                        .iter()
                        .map(|(k, d)| format!("{k}: {d}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })
            .cited(cause));
        }
        Ok(())
    }

    /// The destroyed stacks whose die allows it come back as one token.
    pub(super) fn bring_back(
        &self,
        s: &mut State,
        foe: u8,
        t: u8,
        back: &[(String, u8)],
        rolls: &BTreeMap<String, u8>,
    ) {
        for (id, m) in back {
            let (Some(u), Some(d)) = (self.t.unit_ix.get(id.as_str()), rolls.get(id)) else {
                continue;
            };
            if m & 1 << d != 0 {
                self.add_tokens(s, foe, u, t, 1, &[0]);
                let f = &mut s.fallen[usize::from(u)];
                *f = f.saturating_sub(1);
            }
        }
    }

    /// The lasting `return` of a cast on every target that qualifies.
    pub(super) fn cast_returns(&self, s: &mut State, d: u16, p: u8, from: u8, at: u8) {
        let def = &self.t.fx.defs[usize::from(d)];
        if !def.checked {
            return;
        }
        let mut ctx = Ctx::new(self, &[When::Cast]);
        ctx.caster = Some(from);
        ctx.at = Some(at);
        let src = fx::Src {
            card: d,
            owner: p,
            at: None,
        };
        let mut add = Vec::new();
        for (i, c) in def.clauses.iter().enumerate() {
            let (Some(t), Some(until)) = (&c.target, c.until) else {
                continue;
            };
            if c.amount(Out::Return).is_none() {
                continue;
            }
            for o in ctx.candidates(s, &src, t.who) {
                if t.cond.iter().all(|x| ctx.holds(s, &src, x, Some(o))) {
                    add.push(super::effects::Lasting {
                        src,
                        clause: i as u8,
                        obj: Some(o),
                        until,
                    });
                }
            }
        }
        s.lasting.extend(add);
    }
}
