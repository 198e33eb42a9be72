//! The activated unit's actions (enter, move, run, leave, attack, pick up,
//! drop, absorb; MB-5, MB-6), counter-attacks (MB-10) and powers (MB-4).

use super::super::Mythic;
use super::super::actions::Action;
use super::super::effects::{Ctx, Out, When};
use super::super::rule;
use super::super::state::{ATTACK, MOVE, NONE, OFF, PICK, State, area_name};
use super::super::tables::{Cat, PowerKind, Shape};
use super::what;
use crate::rules::Violation;
use crate::rules::kit::effects::{self as fx, Src};
use crate::rules::kit::{bits, v};

impl Mythic {
    /// Actions of the activated unit, counters, powers and the end of turn.
    pub(super) fn check_unit_action(&self, s: &State, p: usize, a: &Action, chance: bool) -> Result<(), Violation> {
        let t = &s.t;
        match a {
            Action::Enter { unit, to } => {
                let sl = self.slot_of(s, unit, rule::ACTIONS)?;
                self.current(s, sl)?;
                if s.units[sl].at != OFF {
                    return Err(v(rule::ACTIONS, format!("`{unit}` is already on the battlefield"))
                        .expected("`enter` only for a unit off the battlefield")
                        .found(format!("`{unit}` in `{}`", area_name(self.board(s), s.units[sl].at))));
                }
                let to = self.area_of(s, to, rule::ACTIONS)?;
                let b = self.board(s);
                let side = s.players[p].side;
                if b.deploy[(side as usize - 1).min(3)] & (1 << to) == 0 {
                    return Err(v(
                        rule::ACTIONS,
                        format!("`{unit}` enters the battlefield in a deployment area of side {side}"),
                    )
                    .expected(format!(
                        "one of {}",
                        bits(b.deploy[(side as usize - 1).min(3)])
                            .map(|i| b.areas[i].id.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ))
                    .found(b.areas[to as usize].id.clone()));
                }
                let count = self.occupancy(s)[to as usize];
                if count >= b.areas[to as usize].capacity {
                    return Err(v(rule::MOVE, format!("`{}` is full", b.areas[to as usize].id))
                        .expected(format!("at most {} units (capacity)", b.areas[to as usize].capacity))
                        .found(format!("{} units already there", count)));
                }
                if let Some(by) = self.kept_out(s, sl, to as usize) {
                    return Err(v(
                        rule::MOVE,
                        format!("`{unit}` cannot enter `{}` (`{by}`)", b.areas[to as usize].id),
                    )
                    .expected("an area the unit may enter")
                    .found(b.areas[to as usize].id.clone())
                    .cited(self.cite(&by)));
                }
                Ok(())
            }
            Action::Move { unit, to } => {
                let sl = self.slot_of(s, unit, rule::ACTIONS)?;
                self.current(s, sl)?;
                self.simple_ok(s, sl, MOVE)?;
                let to = self.area_of(s, to, rule::MOVE)?;
                self.move_ok(s, sl, to, self.row(s, sl).movement, false)
            }
            Action::Run { unit, to } => {
                let sl = self.slot_of(s, unit, rule::ACTIONS)?;
                self.current(s, sl)?;
                if !s.units[sl].on_board() {
                    return Err(v(
                        rule::ACTIONS,
                        format!("`{unit}` is not on the battlefield: its first activation enters it"),
                    )
                    .expected("`enter`")
                    .found("a run"));
                }
                self.fresh(s, sl, "a run")?;
                let to = self.area_of(s, to, rule::MOVE)?;
                self.move_ok(s, sl, to, self.row(s, sl).movement + 1, true)
            }
            Action::Leave { unit } => {
                let sl = self.slot_of(s, unit, rule::ACTIONS)?;
                self.current(s, sl)?;
                self.simple_ok(s, sl, MOVE)?;
                let b = self.board(s);
                if self.mode(s).shape != Shape::Lone || self.def(s, sl).cat == Cat::God {
                    return Err(v(
                        rule::MOVE,
                        "only units other than Gods leave the battlefield, and only in the 3 vs 1 mode",
                    )
                    .expected("a unit staying on the battlefield")
                    .found(format!("`{unit}` leaving")));
                }
                if let Some((by, _)) = self.hold(s, sl) {
                    return Err(v(rule::MOVE, format!("`{by}` holds `{unit}` in place"))
                        .expected("no move")
                        .found("leaving")
                        .cited(self.cite(&by)));
                }
                if b.edge & (1 << s.units[sl].at) == 0 {
                    return Err(v(rule::MOVE, format!("`{unit}` is not at the edge of the battlefield"))
                        .expected("a deployment area (the board's edge)")
                        .found(area_name(b, s.units[sl].at)));
                }
                Ok(())
            }
            Action::Attack {
                unit,
                target,
                power,
                pay,
                guard,
                displace,
                before,
                roll,
                reroll,
                hits,
                drew,
                ..
            } => {
                let sl = self.slot_of(s, unit, rule::ACTIONS)?;
                self.current(s, sl)?;
                let d = self.slot_of(s, target, rule::ATTACK)?;
                let pi = match power {
                    Some(n) => {
                        let i = self.power_of(s, sl, Some(n), rule::ACTIONS)?;
                        if self.def(s, sl).powers[i].kind != PowerKind::Special {
                            return Err(v(rule::ACTIONS, format!("`{n}` is not a special attack"))
                                .expected("a special-attack power")
                                .found(n.clone()));
                        }
                        self.active_powers_ok(s, sl, n)?;
                        self.note_power(s, sl, i);
                        Some(i)
                    }
                    None => None,
                };
                let by = pi.and_then(|i| self.cite(&self.def(s, sl).powers[i].slug));
                let act = &t.act;
                if act.attacks == 0 {
                    self.simple_ok(s, sl, ATTACK)?;
                } else {
                    let again = match pi {
                        Some(i) => act.power == i as u8 && act.attacks < self.def(s, sl).powers[i].attacks,
                        None => act.power == NONE && act.attacks < act.max_attacks,
                    };
                    if act.special || !again {
                        return Err(
                            v(rule::ACTIONS, format!("`{unit}` already attacked in this activation"))
                                .expected("1 attack per activation (more only with a power)")
                                .found(format!("attack number {}", act.attacks + 1))
                                .cited(by),
                        );
                    }
                    if act.targets & (1 << d) != 0 {
                        return Err(v(
                            rule::ACTIONS,
                            format!("`{unit}` already attacked `{target}` in this activation"),
                        )
                        .expected("a different unit for each attack")
                        .found(format!("`{target}` again"))
                        .cited(by));
                    }
                }
                let cost = match pi {
                    Some(i) if act.power != i as u8 => {
                        let pw = &self.def(s, sl).powers[i];
                        if pw.cost > 0 && t.powers & (1u128 << (sl * 4 + i)) != 0 {
                            return Err(v(rule::ART_OF_WAR, format!("`{}` was already used this turn", pw.slug))
                                .expected("each power at most once per turn (a `use-power` manoeuvre per power)")
                                .found("a second use")
                                .cited_all(self.cite(&pw.slug).into_iter().chain(self.cite("use-power"))));
                        }
                        pw.cost
                    }
                    _ => 0,
                };
                self.check_pay(s, p, &s.players[p].hand, cost, pay, rule::ART_OF_WAR)?;
                let st = self.strike(s, sl, d, pi)?;
                let (d, st) = match guard {
                    Some(g) => self.guarded(s, sl, d, pi, st, g)?,
                    None => (d, st),
                };
                let spent = match displace {
                    Some(to) => {
                        self.displaced(s, sl, d, pi, st, to, chance.then_some(roll.as_slice()))?
                            .1
                    }
                    None => 0,
                };
                if !chance {
                    return Ok(());
                }
                self.check_dice(s, sl, d, pi, st, before, roll, reroll, *hits, spent)?;
                self.check_kill_draw(s, sl, d, pi, *hits, drew.as_ref())
            }
            Action::Counter {
                unit,
                card,
                by,
                before,
                roll,
                reroll,
                hits,
                drew,
            } => {
                let r = rule::COUNTER;
                let Some((att, def)) = t.pending else {
                    return Err(v(r, "a counter-attack answers a melee attack right after it")
                        .expected("a melee attack just before")
                        .found(what(a)));
                };
                let sl = self.slot_of(s, unit, r)?;
                if sl != def as usize {
                    return Err(v(
                        r,
                        format!(
                            "only `{}`, the unit just attacked, may counter-attack",
                            self.uid(s, def as usize)
                        ),
                    )
                    .expected(format!("a counter by `{}`", self.uid(s, def as usize)))
                    .found(format!("a counter by `{unit}`")));
                }
                if t.countered & (1 << sl) != 0 {
                    return Err(v(r, format!("`{unit}` already counter-attacked this turn"))
                        .expected("1 counter-attack per unit per turn")
                        .found("a second one"));
                }
                let (ua, ud) = (&s.units[att as usize], &s.units[sl]);
                if !ua.on_board() || ud.at != ua.at {
                    return Err(v(r, format!("`{unit}` is no longer in its attacker's area"))
                        .expected("both units in the same area")
                        .found(format!(
                            "`{}` {}",
                            self.uid(s, att as usize),
                            area_name(self.board(s), ua.at)
                        )));
                }
                let q = ud.owner as usize;
                if let Some(by) = by {
                    if let Some(c) = card {
                        return Err(v(r, format!("`{by}` counter-attacks without a card"))
                            .expected("no `card` with `by`")
                            .found(format!("`{c}`")));
                    }
                    self.free_counter(s, sl, by, r)?;
                    let st = self.strike(s, sl, att as usize, None)?;
                    if !chance {
                        return Ok(());
                    }
                    self.check_dice(s, sl, att as usize, None, st, before, roll, reroll, *hits, 0)?;
                    return self.check_kill_draw(s, sl, att as usize, None, *hits, drew.as_ref());
                }
                let c = self.paid_card(s, sl, card.as_deref(), unit, r, "is not an activation card of")?;
                if s.players[q].hand.count(c) == 0 {
                    return Err(v(
                        r,
                        format!(
                            "{} must discard an activation card of `{unit}` to counter-attack",
                            self.name(s, q)
                        ),
                    )
                    .expected(format!("a `{}` card in hand", self.t.cards[c]))
                    .found("none in hand"));
                }
                let st = self.strike(s, sl, att as usize, None)?;
                if !chance {
                    return Ok(());
                }
                self.check_dice(s, sl, att as usize, None, st, before, roll, reroll, *hits, 0)?;
                self.check_kill_draw(s, sl, att as usize, None, *hits, drew.as_ref())
            }
            Action::PickUp { unit, from } => {
                let sl = self.slot_of(s, unit, rule::ACTIONS)?;
                self.current(s, sl)?;
                self.simple_ok(s, sl, PICK)?;
                let at = s.units[sl].at;
                if s.units[sl].carry {
                    return Err(v(rule::ACTIONS, format!("`{unit}` already carries an omphalos"))
                        .expected("at most 1 omphalos per unit")
                        .found("a second one"));
                }
                if let Some(by) = self.has(s, sl, Out::NoPickUp) {
                    return Err(v(rule::ACTIONS, format!("`{by}` keeps `{unit}` from picking up"))
                        .expected("no pick-up")
                        .found("a pick-up"));
                }
                let from_area = match from {
                    None => at,
                    Some(id) => {
                        let f = self.area_of(s, id, rule::ACTIONS)?;
                        let b = self.board(s);
                        let gem = self.has(s, sl, Out::PickUpAdjacent).is_some();
                        if f != at && !(gem && b.adj(at as usize) & (1 << f) != 0) {
                            return Err(v(
                                rule::ACTIONS,
                                format!("`{unit}` picks up only in its own area (adjacent ones with Gem Collector)"),
                            )
                            .expected(format!("`{}`", b.areas[at as usize].id))
                            .found(id.clone()));
                        }
                        f
                    }
                };
                if s.ground[from_area as usize] == 0 {
                    return Err(v(
                        rule::ACTIONS,
                        format!(
                            "there is no omphalos on the ground in `{}`",
                            self.board(s).areas[from_area as usize].id
                        ),
                    )
                    .expected("an omphalos to pick up")
                    .found("none"));
                }
                Ok(())
            }
            Action::Drop { unit } => {
                let sl = self.slot_of(s, unit, rule::ACTIONS)?;
                self.current(s, sl)?;
                if !s.units[sl].carry {
                    return Err(v(rule::ACTIONS, format!("`{unit}` carries no omphalos"))
                        .expected("a carried omphalos")
                        .found("none"));
                }
                Ok(())
            }
            Action::Absorb { unit, from } => {
                let sl = self.slot_of(s, unit, rule::ACTIONS)?;
                self.current(s, sl)?;
                if self.def(s, sl).cat != Cat::God {
                    return Err(v(
                        rule::ACTIONS,
                        format!(
                            "only Gods absorb omphalos; `{unit}` is a {}",
                            self.def(s, sl).cat.name()
                        ),
                    )
                    .expected("a God")
                    .found(format!("`{unit}`")));
                }
                if !s.units[sl].on_board() {
                    return Err(v(rule::ACTIONS, format!("`{unit}` is not on the battlefield"))
                        .expected("`enter`")
                        .found("an absorb"));
                }
                self.fresh(s, sl, "absorbing")?;
                let at = s.units[sl].at;
                match from {
                    None => {
                        if s.ground[at as usize] == 0 {
                            return Err(v(
                                rule::ACTIONS,
                                format!(
                                    "there is no omphalos on the ground in `{}`",
                                    self.board(s).areas[at as usize].id
                                ),
                            )
                            .expected("an omphalos in the God's area")
                            .found("none"));
                        }
                    }
                    Some(id) => {
                        let c = self.slot_of(s, id, rule::ACTIONS)?;
                        let u = &s.units[c];
                        if u.at != at || self.team(s, c) != self.team(s, sl) || !u.carry {
                            return Err(v(
                                rule::ACTIONS,
                                format!("`{id}` is not a friendly unit carrying an omphalos in `{unit}`'s area"),
                            )
                            .expected("an omphalos carried by a friendly unit in the God's area")
                            .found(format!("`{id}`")));
                        }
                    }
                }
                Ok(())
            }
            Action::Power { unit, power, pay, .. } => {
                let sl = self.slot_of(s, unit, rule::ART_OF_WAR)?;
                let u = &s.units[sl];
                if u.owner as usize != p || !u.on_board() {
                    return Err(v(
                        rule::ART_OF_WAR,
                        format!("`{unit}` is not a unit of {} on the battlefield", self.name(s, p)),
                    )
                    .expected("an own unit on the battlefield")
                    .found(format!("`{unit}`")));
                }
                let i = self.power_of(s, sl, power.as_deref(), rule::ART_OF_WAR)?;
                let pw = &self.def(s, sl).powers[i];
                match pw.kind {
                    PowerKind::Special => {
                        return Err(v(
                            rule::ACTIONS,
                            format!("`{}` is a special attack: it replaces an attack", pw.slug),
                        )
                        .expected(format!("`attack` with `power: {}`", pw.slug))
                        .found("a `power`"));
                    }
                    PowerKind::Passive => {
                        return Err(v(
                            rule::ART_OF_WAR,
                            format!("`{}` is passive: it works by itself, unpaid", pw.slug),
                        )
                        .expected("no action")
                        .found("a `power`"));
                    }
                    PowerKind::Active => {
                        self.current(s, sl)?;
                        self.active_powers_ok(s, sl, &pw.slug)?;
                    }
                    PowerKind::Permanent => {}
                }
                // The power's effect: its moment and conditions (Strategist:
                // in its player's own turn).
                if let Some(card) = self.def(s, sl).power_fx[i] {
                    let ctx = Ctx::new(self, &[When::Activation, When::AnyTime]);
                    let src = Src {
                        card,
                        owner: u.owner,
                        at: Some(sl as u8),
                    };
                    fx::allow(&ctx, s, &src, &[], rule::ART_OF_WAR)?;
                }
                if t.special & (1 << sl) != 0 {
                    return Err(v(
                        rule::ACTIONS,
                        format!("`{unit}` took a special action: no powers for it this turn"),
                    )
                    .expected("no power")
                    .found(format!("`{}`", pw.slug)));
                }
                if t.powers & (1u128 << (sl * 4 + i)) != 0 {
                    return Err(v(rule::ART_OF_WAR, format!("`{}` was already used this turn", pw.slug))
                        .expected("each power at most once per turn (a `use-power` manoeuvre per power)")
                        .found("a second use")
                        .cited_all(self.cite(&pw.slug).into_iter().chain(self.cite("use-power"))));
                }
                self.check_pay(s, p, &s.players[p].hand, pw.cost, pay, rule::ART_OF_WAR)
                    .map(|_| ())
            }
            Action::EndTurn => Ok(()),
            _ => Ok(()),
        }
    }
}
