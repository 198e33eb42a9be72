//! Whether an action is legal in a state (never mutates). This file has the
//! turn-level checks (the draw, manoeuvres, calls, activations); the
//! activated unit's actions, counters and powers are in [`units`], attacks
//! in [`combat`], payments and draws in [`cards`].

mod cards;
mod combat;
mod kills;
mod markers;
mod shift;
mod unit_checks;
mod units;

use super::Mythic;
use super::actions::Action;
use super::rule;
use super::state::{DEAD, DRAW_TWO, GONE, NONE, SEARCH, State, area_name, pay_cards};
use super::tables::Cat;
use crate::rules::Engine;
use crate::rules::Violation;
use crate::rules::kit::{plural, v};

pub(super) use combat::Strike;
pub(super) use kills::KillDraw;

/// What an action is, for `found:`.
pub(super) fn what(a: &Action) -> &'static str {
    match a {
        Action::Draw { .. } => "a `draw`",
        Action::Rest { .. } => "a `rest`",
        Action::DrawTwo { .. } => "a `draw-two`",
        Action::Search { .. } => "a `search`",
        Action::CallTroop { .. } => "a `call-troop`",
        Action::Activate { .. } => "an `activate`",
        Action::Enter { .. } => "an `enter`",
        Action::Move { .. } => "a `move`",
        Action::Run { .. } => "a `run`",
        Action::Attack { .. } => "an `attack`",
        Action::Counter { .. } => "a `counter`",
        Action::PickUp { .. } => "a `pick-up`",
        Action::Drop { .. } => "a `drop`",
        Action::Absorb { .. } => "an `absorb`",
        Action::Power { .. } => "a `power`",
        Action::Leave { .. } => "a `leave`",
        Action::RemovePetrification { .. } => "a `remove-petrification`",
        Action::Shift { .. } => "a `shift`",
        Action::Lead { .. } => "a `lead`",
        Action::EndTurn => "the end of the turn",
    }
}

impl Mythic {
    /// Validation; with `chance` false the recorded chance results (cards
    /// drawn, dice, the card searched) are not looked at.
    pub(super) fn check(&self, s: &State, a: &Action, chance: bool) -> Result<(), Violation> {
        if let Some((_, reason)) = s.winner {
            return Err(v(rule::VICTORY, format!("the game is already over ({reason})"))
                .expected("no more actions")
                .found(what(a)));
        }
        let p = self.to_move(s);
        let t = &s.t;
        if !t.drawn && !matches!(a, Action::Draw { .. }) {
            return Err(
                v(rule::TURN, format!("{}'s turn starts with the draw", self.name(s, p)))
                    .expected("`draw` first")
                    .found(what(a)),
            );
        }
        if t.called && *a != Action::EndTurn {
            return Err(v(
                rule::CALL,
                "the troop is called at the end of the turn: nothing follows the call",
            )
            .expected("the end of the turn")
            .found(what(a)));
        }
        if t.rested && !matches!(a, Action::EndTurn | Action::CallTroop { .. }) {
            return Err(v(
                rule::REST,
                "the extra card of a turn without activations is drawn at the end of the turn",
            )
            .expected("the end of the turn (or calling a troop)")
            .found(what(a)));
        }
        match a {
            Action::Draw { cards, others } => {
                if t.drawn {
                    return Err(v(rule::TURN, format!("{} already drew this turn", self.name(s, p)))
                        .expected("1 draw per turn")
                        .found("a second draw"));
                }
                if !chance {
                    return Ok(());
                }
                self.check_draw(s, &s.players[p], p, 1, cards, others, rule::TURN)
            }
            Action::Rest { cards, others } => {
                if t.activations > 0 {
                    return Err(v(rule::REST, "only a turn without activations earns the extra card")
                        .expected("no activation this turn")
                        .found(plural(t.activations as u32, "activation", "activations")));
                }
                if !chance {
                    return Ok(());
                }
                self.check_draw(s, &s.players[p], p, 1, cards, others, rule::REST)
            }
            Action::DrawTwo { cards, others, pay } => {
                if t.manoeuvres & DRAW_TWO != 0 {
                    return Err(v(rule::ART_OF_WAR, "each manoeuvre is done at most once per turn")
                        .expected("1 draw-two per turn (`draw-two` is a once-per-turn manoeuvre)")
                        .found("a second draw-two")
                        .cited(self.cite("draw-two")));
                }
                let out = self.check_pay(s, p, &s.players[p].hand, 1, pay, rule::ART_OF_WAR)?;
                if !chance {
                    return Ok(());
                }
                let mut pl = s.players[p].clone();
                pay_cards(&mut pl, &out);
                self.check_draw(s, &pl, p, self.t.fx.draw_two(), cards, others, rule::ART_OF_WAR)
            }
            Action::Search { card, pay } => {
                if t.manoeuvres & SEARCH != 0 {
                    return Err(v(rule::ART_OF_WAR, "each manoeuvre is done at most once per turn")
                        .expected("1 search per turn (`search-card` is a once-per-turn manoeuvre)")
                        .found("a second search")
                        .cited(self.cite("search-card")));
                }
                self.check_pay(s, p, &s.players[p].hand, 1, pay, rule::ART_OF_WAR)?;
                if u32::from(s.players[p].deck.total()) == 0 {
                    return Err(v(rule::ART_OF_WAR, "the deck is empty: there is nothing to search for")
                        .expected("a card in the deck")
                        .found("an empty deck"));
                }
                if !chance {
                    return Ok(());
                }
                let c = self.t.card(card).map_or(usize::MAX, |c| c as usize);
                if c == usize::MAX || s.players[p].deck.count(c) == 0 {
                    return Err(v(rule::ART_OF_WAR, format!("the deck holds no `{card}`"))
                        .expected("a card still in the deck")
                        .found(card.clone()));
                }
                Ok(())
            }
            Action::CallTroop { troop, pay } => {
                let r = rule::CALL;
                let pl = &s.players[p];
                if pl.god == NONE || !s.units[pl.god as usize].on_board() {
                    return Err(v(
                        r,
                        format!("{} has no God on the battlefield to call a troop to", self.name(s, p)),
                    )
                    .expected("a God on the battlefield")
                    .found(if pl.god == NONE {
                        "no God".into()
                    } else {
                        area_name(self.board(s), s.units[pl.god as usize].at)
                    }));
                }
                let sl = self.slot_of(s, troop, r)?;
                if s.units[sl].owner as usize != p || self.def(s, sl).cat != Cat::Troop {
                    return Err(v(r, format!("`{troop}` is not a troop of {}", self.name(s, p)))
                        .expected("one of the player's troops (`call-troop` calls a friendly troop)")
                        .found(format!("`{troop}`"))
                        .cited(self.cite("call-troop")));
                }
                if s.units[sl].at == GONE {
                    return Err(v(r, format!("`{troop}` left the game"))
                        .expected("a troop still in the game")
                        .found("gone"));
                }
                // The troop joins its God's area, whose capacity holds unless
                // the mode says `call_capacity: ignored`.
                let god_at = s.units[pl.god as usize].at;
                if !self.mode(s).call_over_capacity && s.units[sl].at != god_at {
                    let b = self.board(s);
                    let area = &b.areas[god_at as usize];
                    let here = self.occupancy(s)[god_at as usize];
                    if here >= area.capacity {
                        return Err(v(
                            r,
                            format!(
                                "`{}`, where {}'s God stands, is full: `{troop}` cannot join it",
                                area.id,
                                self.name(s, p)
                            ),
                        )
                        .expected(format!("room in `{}` (capacity {})", area.id, area.capacity))
                        .found(plural(here, "unit there", "units there")));
                    }
                }
                self.check_pay(s, p, &s.players[p].hand, 1, pay, r).map(|_| ())
            }
            Action::Activate { unit, card, pay } => {
                let r = rule::ACTIVATION;
                let sl = self.slot_of(s, unit, r)?;
                let u = &s.units[sl];
                if u.owner as usize != p {
                    return Err(v(r, format!("`{unit}` belongs to {}", self.name(s, u.owner as usize)))
                        .expected(format!("a unit of {}", self.name(s, p)))
                        .found(format!("`{unit}`")));
                }
                if u.at == DEAD {
                    return Err(
                        v(rule::WOUNDS, format!("`{unit}` was destroyed: it left the battlefield"))
                            .expected("a unit still in the game")
                            .found(format!("`{unit}` (destroyed)")),
                    );
                }
                if !u.alive() {
                    return Err(v(r, format!("`{unit}` is {}", area_name(self.board(s), u.at)))
                        .expected("a unit still in the game")
                        .found(format!("`{unit}`")));
                }
                if t.activated & (1 << sl) != 0 {
                    return Err(v(r, format!("`{unit}` was already activated this turn"))
                        .expected("a different unit each activation")
                        .found(format!("`{unit}` again")));
                }
                let cap = self.mode(s).max_activations + t.extra;
                if t.activations >= cap {
                    return Err(v(
                        r,
                        format!(
                            "{} already activated {}",
                            self.name(s, p),
                            plural(t.activations as u32, "unit", "units")
                        ),
                    )
                    .expected(format!(
                        "at most {} per turn (`second-activation` adds one to a single activation, no more)",
                        plural(cap as u32, "unit", "units")
                    ))
                    .found(format!("activation number {}", t.activations + 1))
                    .cited(self.cite("second-activation")));
                }
                let c = self.paid_card(s, sl, card.as_deref(), unit, r, "does not activate")?;
                if s.players[p].hand.count(c) == 0 {
                    return Err(v(r, format!("activating `{unit}` takes one of its activation cards"))
                        .expected(format!("a `{}` card in hand", self.t.cards[c]))
                        .found("none in hand"));
                }
                let mut hand = s.players[p].hand;
                hand.take(c, 1);
                // Leader: the troop it picked is activated without the fee.
                let second = t.activations == 1 && t.free as usize != sl;
                if second {
                    self.check_pay(s, p, &hand, 1, pay, r).map_err(|e| {
                        if pay.is_empty() {
                            v(r, "the second activation of a turn also costs an Art of War card")
                                .expected(e.expected)
                                .found(e.found)
                                .cited(self.cite("second-activation"))
                        } else {
                            e
                        }
                    })?;
                } else if !pay.is_empty() {
                    return Err(v(
                        r,
                        "only the second activation of a turn is paid with an Art of War card",
                    )
                    .expected("no `pay`")
                    .found(plural(pay.len() as u32, "card", "cards")));
                }
                Ok(())
            }
            Action::RemovePetrification { unit } => self.check_unpetrify(s, p, unit),
            Action::Shift { unit, to, pay } => self.check_shift(s, unit, to, pay).map(|_| ()),
            Action::Lead { unit, troop } => self.check_lead(s, unit, troop).map(|_| ()),
            _ => {
                self.petrified_ok(s, a)?;
                self.check_unit_action(s, p, a, chance)
            }
        }
    }
}
