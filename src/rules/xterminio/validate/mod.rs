//! Whether an action is legal in a state (never mutates). Attacks are in
//! [`attack`], action cards and abilities (recorded outcomes) in [`cards`].

mod attack;
mod cards;

use super::Xterminio;
use super::actions::{Action, Slot};
use super::effects::{Out, Spot};
use super::rule;
use super::setup::Mode;
use super::state::{Phase, State};
use super::tables::{Card, Kind};
use crate::rules::Violation;
use crate::rules::kit::v;

impl Xterminio {
    /// Whether `a` is legal in `s`.
    pub(super) fn check(&self, s: &State, a: &Action) -> Result<(), Violation> {
        if let Some(w) = s.winner {
            return Err(v(
                rule::TARGET,
                format!("the game is over: {} reached the target score", self.name(s, w)),
            )
            .expected("no more actions")
            .found("an action"));
        }
        let p = s.to_move;
        let who = self.name(s, p);
        let side = &s.p[p];
        let n = &self.t.n;
        if s.upkeep
            && Self::closes_upkeep(a)
            && let Some((card, why)) = self.owed_upkeep(s)
        {
            let mut e = v(
                rule::TURN,
                format!("{who}'s `{card}` must be used in the upkeep, before the main phase"),
            )
            .expected(format!(
                "`{{do: ability, card: {card}, …}}` first (its upkeep effect is not optional): {}",
                why.expected
            ))
            .found("the turn moving on without it");
            e.cause = why.cause;
            return Err(e);
        }
        match a {
            Action::Draw { cards } => {
                if s.turn == 1 {
                    return Err(v(
                        rule::OPENING,
                        format!("{who} starts the game and skips the draw of the first turn"),
                    )
                    .expected("no draw in the first player's first turn")
                    .found(format!("a draw of {} cards", cards.len())));
                }
                if s.drawn {
                    let left = side.deck_chars + side.deck_support;
                    return Err(v(rule::TURN, format!("{who} has already drawn this turn"))
                        .expected(if left == 0 {
                            "no draw: both decks are empty".to_string()
                        } else {
                            format!("one draw of {} cards per turn", n.turn_draw)
                        })
                        .found("another draw"));
                }
                let need = n.turn_draw.min((side.deck_chars + side.deck_support) as usize);
                if cards.len() != need {
                    return Err(v(rule::TURN, format!("{who} draws {} cards", cards.len()))
                        .expected(format!("{need} cards"))
                        .found(format!("{} cards", cards.len())));
                }
                for (i, id) in cards.iter().enumerate() {
                    let c = self.known(id, rule::TURN)?;
                    let taken = cards[..=i].iter().filter(|x| *x == id).count();
                    let left = side.deck.count(c as usize) as usize;
                    if taken > left {
                        return Err(v(rule::TURN, format!("{who}'s deck has no `{id}` left to draw"))
                            .expected("cards still in the deck")
                            .found(format!("`{id}` drawn {taken} times, {left} left")));
                    }
                }
                Ok(())
            }
            Action::Deploy { card, to } => {
                self.gate(s, Phase::Main, "deploying")?;
                let (c, _) = self.known_of(
                    card,
                    Kind::Character,
                    rule::CAMP,
                    "a character",
                    "a character to deploy",
                )?;
                self.waited_in_camp(s, c, "a character")?;
                self.check_deploy_rules(s, c, *to)
            }
            Action::Equip { card, to } => {
                self.gate(s, Phase::Main, "equipping")?;
                let (c, info) =
                    self.known_of(card, Kind::Equipment, rule::EQUIPMENT, "equipment", "an equipment card")?;
                if info.energy && *to != Slot::CoverEnergy {
                    return Err(v(
                        rule::EQUIPMENT,
                        format!("`{card}` is energy equipment: it goes in the energy slot"),
                    )
                    .expected("to: cover-energy")
                    .found(format!("to: {}", to.id())));
                }
                if !info.energy {
                    let Some(f) = Self::fighter(s, p, *to) else {
                        return Err(v(
                            rule::EQUIPMENT,
                            format!("{who} has no character in `{}` to carry `{card}`", to.id()),
                        )
                        .expected("a character of yours in BATTLE")
                        .found(format!("`{}` without a character", to.id())));
                    };
                    if let Some(e) = f.equipment {
                        return Err(v(
                            rule::EQUIPMENT,
                            format!(
                                "`{}` in `{}` already carries `{}`",
                                self.t.id(f.card),
                                to.id(),
                                self.t.id(e)
                            ),
                        )
                        .expected("at most 1 equipment per character")
                        .found("a second equipment"));
                    }
                }
                self.waited_in_camp(s, c, "equipment")
            }
            Action::Zone { card } => {
                self.gate(s, Phase::Main, "playing a zone")?;
                let (c, _) = self.known_of(card, Kind::Zone, rule::TURN, "a zone", "a zone card")?;
                if side.hand.count(c as usize) == 0 {
                    return Err(v(rule::TURN, format!("{who} has no `{card}` in hand"))
                        .expected("a zone from hand")
                        .found(format!("no `{card}` in hand")));
                }
                Ok(())
            }
            Action::Move { from, to } => {
                self.gate(s, Phase::Main, "moving")?;
                let Some(f) = Self::fighter(s, p, *from) else {
                    return Err(v(
                        rule::XTERMINAR,
                        format!("{who} has no character in `{}` to move", from.id()),
                    )
                    .expected("a character of yours in BATTLE")
                    .found(format!("empty `{}`", from.id())));
                };
                let Some(j) = to.index() else {
                    return Err(v(rule::XTERMINAR, format!("`{}` does not take characters", to.id()))
                        .expected("a free character slot")
                        .found(to.id()));
                };
                if side.battle[j].is_some() {
                    return Err(v(rule::XTERMINAR, format!("`{}` is not free", to.id()))
                        .expected("a free character slot")
                        .found(format!("`{}` occupied", to.id())));
                }
                if s.mode == Mode::Xterminar {
                    let info = self.t.get(f.card);
                    if !info.protagonist && !self.t.contiguous(*from, *to) {
                        return Err(v(
                            rule::XTERMINAR,
                            format!("`{}` is not contiguous to `{}`", to.id(), from.id()),
                        )
                        .expected(format!(
                            "a move to a contiguous slot ({}), or a protagonist",
                            Slot::CHARACTER
                                .iter()
                                .filter(|x| self.t.contiguous(*from, **x))
                                .map(|x| x.id())
                                .collect::<Vec<_>>()
                                .join(", ")
                        ))
                        .found(format!("`{}` moving to `{}`", info.id, to.id())));
                    }
                    let cost = self.move_cost(s, Spot::new(p, *from));
                    if side.energy < cost {
                        return Err(v(rule::XTERMINAR, format!("{who} cannot pay for the move"))
                            .expected(format!("{cost} ENERGY per move"))
                            .found(format!("{} ENERGY", side.energy)));
                    }
                }
                if let Some(r) = self.restriction(s, Out::NoMove, Spot::new(p, *from)) {
                    return Err(v(
                        rule::XTERMINAR,
                        format!(
                            "`{}` in `{}` cannot move while `{}` holds it",
                            self.t.id(f.card),
                            from.id(),
                            r.card
                        ),
                    )
                    .expected(format!("no move while `{}` is in force ({})", r.card, r.said))
                    .found(format!("a move to `{}`", to.id()))
                    .caused_by(r.cause));
                }
                Ok(())
            }
            Action::PowerUp { slot } => {
                self.gate(s, Phase::Main, "swapping in a powered card")?;
                let Some(f) = Self::fighter(s, p, *slot) else {
                    return Err(v(rule::POWERED, format!("{who} has no character in `{}`", slot.id()))
                        .expected("a classic character in BATTLE")
                        .found(format!("empty `{}`", slot.id())));
                };
                let info = self.t.get(f.card);
                let Some(pw) = info.powered_version.filter(|_| !info.powered) else {
                    return Err(v(
                        rule::POWERED,
                        format!("`{}` has no powered version to swap in", info.id),
                    )
                    .expected("a classic character with a powered card")
                    .found(format!("`{}`", info.id)));
                };
                if side.died[f.card as usize] {
                    return Err(v(
                        rule::POWERED,
                        format!(
                            "a classic `{}` was eliminated, so `{}` can no longer enter BATTLE",
                            info.id,
                            self.t.id(pw)
                        ),
                    )
                    .expected("no swap")
                    .found("a swap"));
                }
                match Self::in_camp(side, pw) {
                    Some(true) => Ok(()),
                    Some(false) => Err(v(rule::POWERED, format!("`{}` reached CAMP this turn", self.t.id(pw)))
                        .expected("a powered card that has waited a turn in CAMP")
                        .found("a powered card laid this turn")),
                    None => Err(v(rule::POWERED, format!("{who} has no `{}` in CAMP", self.t.id(pw)))
                        .expected("the powered card waiting in CAMP")
                        .found(if side.hand.count(pw as usize) > 0 {
                            "the powered card in hand"
                        } else {
                            "no powered card in CAMP"
                        })),
                }
            }
            Action::Fetch { card } => {
                self.gate(s, Phase::Main, "fetching a powered card")?;
                let c = self.known(card, rule::POWERED)?;
                let info = self.t.get(c);
                if !info.powered {
                    return Err(v(rule::POWERED, format!("`{card}` is not a powered character"))
                        .expected("a powered card")
                        .found(format!("`{card}`")));
                }
                if side.deck.count(c as usize) == 0 {
                    return Err(v(rule::POWERED, format!("`{card}` is not in {who}'s character deck"))
                        .expected("the powered card still in the deck")
                        .found("none left"));
                }
                let b = info.base;
                let held = self.classic_held(side, b);
                let all = side.owned.count(b as usize) as u16;
                if held < all || all == 0 {
                    return Err(v(
                        rule::POWERED,
                        format!("{who} holds {held} of the {all} classic `{}`", self.t.id(b)),
                    )
                    .expected(format!("all {all} classic copies in hand, CAMP or BATTLE"))
                    .found(format!("{held} copies")));
                }
                Ok(())
            }
            Action::DiscardPowered { card } => {
                let c = self.known(card, rule::POWERED)?;
                let info = self.t.get(c);
                if !info.powered {
                    return Err(v(rule::POWERED, format!("`{card}` is not a powered character"))
                        .expected("a powered card")
                        .found(format!("`{card}`")));
                }
                if side.hand.count(c as usize) == 0 && Self::in_camp(side, c).is_none() {
                    return Err(v(rule::POWERED, format!("{who} has no `{card}` in hand or CAMP"))
                        .expected("the powered card in hand or CAMP")
                        .found("none"));
                }
                if !side.died[info.base as usize] {
                    return Err(v(
                        rule::POWERED,
                        format!(
                            "no classic `{}` has been eliminated, so `{card}` cannot be traded for ENERGY",
                            self.t.id(info.base)
                        ),
                    )
                    .expected("a classic copy eliminated earlier")
                    .found("none eliminated"));
                }
                Ok(())
            }
            Action::Attack {
                attacker,
                attack,
                target,
                intercept,
                answer,
                effect,
            } => self.check_attack(s, *attacker, *attack, *target, intercept, answer, effect),
            Action::PointAttack { attacker } => self.check_point_attack(s, *attacker),
            Action::Camp { card } => {
                self.gate(s, Phase::Camp, "laying cards in CAMP")?;
                let c = self.known(card, rule::CAMP)?;
                let info = self.t.get(c);
                if !matches!(info.kind, Kind::Character | Kind::Equipment) {
                    return Err(v(
                        rule::CAMP,
                        format!("`{card}` is {}: CAMP takes characters and equipment", info.kind.name()),
                    )
                    .expected("a character or equipment card")
                    .found(info.kind.name()));
                }
                if side.hand.count(c as usize) == 0 {
                    return Err(v(rule::CAMP, format!("{who} has no `{card}` in hand"))
                        .expected("a card from hand")
                        .found(format!("no `{card}` in hand")));
                }
                if side.camp.len() >= n.camp_slots {
                    return Err(v(rule::CAMP, format!("{who}'s CAMP is full"))
                        .expected(format!("at most {} cards in CAMP", n.camp_slots))
                        .found(format!("a card for a CAMP of {}", side.camp.len())));
                }
                Ok(())
            }
            Action::Discard { card } => {
                if s.mode == Mode::Masakre {
                    return Err(v(rule::ENERGY, "Masakre has no hand limit and no cleanup phase")
                        .expected("no discards in Masakre")
                        .found(format!("`{card}` discarded")));
                }
                if !s.drawn {
                    return Err(v(rule::TURN, format!("{who} must draw before discarding"))
                        .expected("the draw step first")
                        .found("a discard"));
                }
                if side.hand.total() <= n.hand_limit {
                    return Err(v(
                        rule::TURN,
                        format!("{who} holds {} cards: nothing to discard", side.hand.total()),
                    )
                    .expected(format!("discards only down to {} cards", n.hand_limit))
                    .found(format!("a discard from {} cards", side.hand.total())));
                }
                let c = self.known(card, rule::TURN)?;
                if side.hand.count(c as usize) == 0 {
                    return Err(v(rule::TURN, format!("{who} has no `{card}` in hand"))
                        .expected("a card from hand")
                        .found(format!("no `{card}` in hand")));
                }
                Ok(())
            }
            Action::Play { card, by, effect } => self.check_play(s, card, by, effect),
            Action::Ability { card, by, effect } => self.check_ability(s, card, by, effect),
            Action::Pass => {
                if s.window.is_none() {
                    return Err(v(rule::ACTIONS, "no action card awaits an answer")
                        .expected("`pass` only right after an action card")
                        .found("pass"));
                }
                Ok(())
            }
            Action::EndTurn => {
                if !s.drawn {
                    return Err(v(rule::TURN, format!("{who} has not drawn this turn"))
                        .expected(format!("the draw of {} cards", n.turn_draw))
                        .found("no draw"));
                }
                if s.mode == Mode::Xterminar && side.hand.total() > n.hand_limit {
                    return Err(v(
                        rule::TURN,
                        format!("{who} ends the turn with {} cards in hand", side.hand.total()),
                    )
                    .expected(format!("at most {} cards in hand (cleanup)", n.hand_limit))
                    .found(format!("{} cards", side.hand.total())));
                }
                Ok(())
            }
        }
    }

    /// A character `c` entering `to` of the player to move: the slot, the
    /// powered and copy rules (XT-10, XT-8) and the XTerminar deploy limit.
    pub(super) fn check_deploy_rules(&self, s: &State, c: u8, to: Slot) -> Result<(), Violation> {
        let p = s.to_move;
        let who = self.name(s, p);
        let side = &s.p[p];
        let n = &self.t.n;
        let info = self.t.get(c);
        let card = &info.id;
        let Some(i) = to.index() else {
            return Err(v(rule::TURN, format!("`{}` does not take characters", to.id()))
                .expected("a character slot (advance-… or cover-left/right)")
                .found(to.id()));
        };
        if let Some(f) = &side.battle[i] {
            return Err(
                v(rule::TURN, format!("`{}` is taken by `{}`", to.id(), self.t.id(f.card)))
                    .expected("a free character slot")
                    .found(format!("`{}` occupied", to.id())),
            );
        }
        if info.powered && side.died[info.base as usize] {
            return Err(v(
                rule::POWERED,
                format!(
                    "a classic `{}` was eliminated, so `{card}` can no longer enter BATTLE",
                    self.t.id(info.base)
                ),
            )
            .expected(format!(
                "`{card}` discarded for {} ENERGY instead",
                n.powered_discard_energy
            ))
            .found(format!("`{card}` deployed")));
        }
        if !info.powered
            && let Some((j, f)) = side
                .battle
                .iter()
                .enumerate()
                .find_map(|(j, f)| f.filter(|f| self.t.get(f.card).base == info.base).map(|f| (j, f)))
        {
            return Err(v(
                rule::COPIES,
                format!("{who} already has `{}` in BATTLE", self.t.id(f.card)),
            )
            .expected("one copy of a character in BATTLE")
            .found(format!(
                "a second `{card}` (the first in `{}`)",
                Slot::CHARACTER[j].id()
            )));
        }
        if s.mode == Mode::Xterminar {
            let cap = s.deploy_cap.unwrap_or(side.energy);
            let total = s.deployed + info.life as u16;
            if total > cap {
                return Err(v(
                    rule::XTERMINAR,
                    format!(
                        "deploying `{card}` (life {}) takes {who} over the deploy limit",
                        info.life
                    ),
                )
                .expected(format!(
                    "at most {cap} life deployed this turn (ENERGY before deploying)"
                ))
                .found(format!("{total} life")));
            }
        }
        Ok(())
    }

    /// The ENERGY a move of the character in `at` costs in XTerminar.
    pub(super) fn move_cost(&self, s: &State, at: Spot) -> u16 {
        if self.modifier(s, Out::FreeMove, at) > 0 {
            0
        } else {
            self.t.n.move_cost
        }
    }

    /// The player an action card or ability is used by.
    pub(super) fn actor(&self, s: &State, by: &Option<String>, rule: &'static str) -> Result<usize, Violation> {
        match by {
            None => Ok(s.to_move),
            Some(n) => s.names.iter().position(|x| x == n).ok_or_else(|| {
                v(rule, format!("`by: {n}` names nobody in this game"))
                    .expected(format!("{} or {}", s.names[0], s.names[1]))
                    .found(n.clone())
            }),
        }
    }

    /// A card of the pack that must be of `kind` (`not a character`).
    pub(super) fn known_of(
        &self,
        id: &str,
        kind: Kind,
        rule: &'static str,
        noun: &str,
        expected: &str,
    ) -> Result<(u8, &Card), Violation> {
        let c = self.known(id, rule)?;
        let info = self.t.get(c);
        if info.kind != kind {
            return Err(v(rule, format!("`{id}` is {}, not {noun}", info.kind.name()))
                .expected(expected)
                .found(info.kind.name()));
        }
        Ok((c, info))
    }

    pub(super) fn known(&self, id: &str, rule: &'static str) -> Result<u8, Violation> {
        self.t.card(id).ok_or_else(|| {
            v(rule, format!("`{id}` is not a card of XTerminio"))
                .expected("a card id of the pack")
                .found(id.to_string())
        })
    }

    /// Phase order (XT-4): the draw comes first, and a phase once left is over.
    pub(super) fn gate(&self, s: &State, want: Phase, what: &str) -> Result<(), Violation> {
        let who = self.name(s, s.to_move);
        if !s.drawn {
            return Err(v(rule::TURN, format!("{who} must draw before {what}"))
                .expected("the draw step first")
                .found(what.to_string()));
        }
        if s.phase > want {
            return Err(v(
                rule::TURN,
                format!(
                    "{what} belongs to the {} phase, but {who} is already in the {} phase",
                    want.name(),
                    s.phase.name()
                ),
            )
            .expected(format!(
                "{} phase actions before the {} phase",
                want.name(),
                s.phase.name()
            ))
            .found(format!("{what} after the {} phase began", s.phase.name())));
        }
        Ok(())
    }

    /// Must come from CAMP after waiting a turn (XT-5).
    pub(super) fn waited_in_camp(&self, s: &State, c: u8, what: &str) -> Result<(), Violation> {
        let side = &s.p[s.to_move];
        let id = self.t.id(c);
        match Self::in_camp(side, c) {
            Some(true) => Ok(()),
            Some(false) => Err(v(
                rule::CAMP,
                format!("`{id}` reached CAMP this turn and must wait there a turn"),
            )
            .expected(format!("{what} that has waited a turn in CAMP"))
            .found(format!("`{id}` laid in CAMP this turn"))),
            None => Err(v(
                rule::CAMP,
                format!("`{id}` is not in {}'s CAMP", self.name(s, s.to_move)),
            )
            .expected(format!("{what} from CAMP"))
            .found(if side.hand.count(c as usize) > 0 {
                format!("`{id}` straight from hand")
            } else {
                format!("no `{id}` in CAMP")
            })),
        }
    }
}
