//! Action cards (XT-12) and the texts of cards in play: each records its
//! outcome as an [`Effect`], checked by [`Xterminio::check_outcome`], the
//! plug-in point of card effects (docs/architecture.md, "Rules engines").

use super::super::Xterminio;
use super::super::actions::Effect;
use super::super::rule;
use super::super::state::State;
use super::super::tables::Kind;
use crate::rules::Violation;
use crate::rules::kit::v;

impl Xterminio {
    pub(super) fn check_play(
        &self,
        s: &State,
        card: &str,
        by: &Option<String>,
        effect: &Option<Effect>,
    ) -> Result<(), Violation> {
        let a = self.actor(s, by, rule::ACTIONS)?;
        let me = self.name(s, a);
        let (c, _) = self.known_of(card, Kind::Action, rule::ACTIONS, "an action card", "an action card")?;
        if s.p[a].hand.count(c as usize) == 0 {
            return Err(v(rule::ACTIONS, format!("{me} has no `{card}` in hand"))
                .expected("an action played from hand")
                .found(format!("no `{card}` in {me}'s hand")));
        }
        if s.window == Some(a) {
            let them = self.name(s, 1 - a);
            return Err(v(
                rule::ACTIONS,
                format!("{me} plays a second action before {them} could answer the first"),
            )
            .expected(format!("an answer by {them}, or `pass`, first"))
            .found(format!("another action by {me}")));
        }
        if let Some(e) = effect {
            if e.expire {
                return Err(v(
                    rule::ACTIONS,
                    "`expire` is for abilities of fixed actions already in play",
                )
                .expected("no `expire` when playing a card")
                .found("expire: true"));
            }
            self.check_outcome(s, a, e, rule::ACTIONS)?;
        }
        Ok(())
    }

    pub(super) fn check_ability(
        &self,
        s: &State,
        card: &str,
        by: &Option<String>,
        effect: &Option<Effect>,
    ) -> Result<(), Violation> {
        let a = self.actor(s, by, rule::TURN)?;
        let me = self.name(s, a);
        let c = self.known(card, rule::TURN)?;
        let copies = Self::in_play(&s.p[a], c);
        if copies == 0 {
            return Err(v(rule::TURN, format!("{me} has no `{card}` in play"))
                .expected(
                    "a card of yours in BATTLE, on a character, in the zone or energy slot, or a fixed action in play",
                )
                .found(format!("no `{card}` in play")));
        }
        if !self.t.get(c).text {
            return Err(v(rule::TURN, format!("`{card}` has no card text to apply"))
                .expected("a card in play with a text")
                .found(format!("`{card}`, which only has printed stats")));
        }
        let used = s.p[a].used[c as usize];
        if used >= copies {
            return Err(
                v(rule::TURN, format!("{me}'s `{card}` has already been used this turn"))
                    .expected(format!("each card's text at most once per turn ({copies} in play)"))
                    .found(format!("use {}", used + 1)),
            );
        }
        let Some(e) = effect.as_ref().filter(|e| **e != Effect::default()) else {
            return Err(v(rule::TURN, format!("{me}'s `{card}` ability records no outcome"))
                .expected("an `effect` with damage, heal, energy, ready, stun or expire")
                .found("no effect"));
        };
        {
            if e.expire && !(self.t.get(c).fixed && s.p[a].fixed.contains(&c)) {
                return Err(v(rule::TURN, format!("`{card}` is not a fixed action in play"))
                    .expected("`expire` only for a fixed action")
                    .found("expire: true"));
            }
            self.check_outcome(s, a, e, rule::TURN)?;
        }
        Ok(())
    }

    /// A recorded outcome of a card text by player `who`: damage to the
    /// opponent's characters, healing, ENERGY, readying, stuns.
    pub(super) fn check_outcome(&self, s: &State, who: usize, e: &Effect, rule: &'static str) -> Result<(), Violation> {
        let opp = 1 - who;
        let (me, them) = (self.name(s, who), self.name(s, opp));
        for (&slot, &n) in &e.damage {
            if Self::fighter(s, opp, slot).is_none() {
                return Err(v(
                    rule,
                    format!(
                        "the effect damages {them}'s `{}`, where there is no character",
                        slot.id()
                    ),
                )
                .expected(format!("a slot of {them}'s BATTLE with a character"))
                .found(format!("empty `{}`", slot.id())));
            }
            if n == 0 {
                return Err(v(rule, "an effect deals 0 damage")
                    .expected("1 damage or more")
                    .found("0"));
            }
        }
        for (&slot, &n) in &e.heal {
            let Some(f) = Self::fighter(s, who, slot) else {
                return Err(v(
                    rule,
                    format!("the effect heals {me}'s `{}`, where there is no character", slot.id()),
                )
                .expected(format!("a slot of {me}'s BATTLE with a character"))
                .found(format!("empty `{}`", slot.id())));
            };
            if n == 0 || n > f.damage {
                return Err(v(
                    rule,
                    format!(
                        "`{}` in `{}` cannot heal {n}: it has {} damage",
                        self.t.id(f.card),
                        slot.id(),
                        f.damage
                    ),
                )
                .expected(format!("1 to {} damage healed", f.damage))
                .found(format!("{n} healed")));
            }
        }
        for &slot in &e.ready {
            match Self::fighter(s, who, slot) {
                Some(f) if f.exhausted => {}
                Some(f) => {
                    return Err(v(
                        rule,
                        format!("`{}` in `{}` is not exhausted", self.t.id(f.card), slot.id()),
                    )
                    .expected("an exhausted character to ready")
                    .found("a ready character"));
                }
                None => {
                    return Err(v(rule, format!("{me} has no character in `{}` to ready", slot.id()))
                        .expected(format!("a slot of {me}'s BATTLE with a character"))
                        .found(format!("empty `{}`", slot.id())));
                }
            }
        }
        for &slot in &e.stun {
            if Self::fighter(s, opp, slot).is_none() {
                return Err(v(rule, format!("{them} has no character in `{}` to stun", slot.id()))
                    .expected(format!("a slot of {them}'s BATTLE with a character"))
                    .found(format!("empty `{}`", slot.id())));
            }
        }
        Ok(())
    }
}
