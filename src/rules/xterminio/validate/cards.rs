//! Action cards (XT-12) and the abilities of cards in play: each recorded
//! outcome is checked by the effect interpreter against the card's effect
//! (owner, timing, limit, cost, target, bound), plus what only this engine
//! knows (a deployed card is in CAMP, a fetched one in the deck).

use super::super::Xterminio;
use super::super::actions::Effect;
use super::super::effects::{Ctx, Event, When};
use super::super::rule;
use super::super::state::{Phase, State};
use super::super::tables::Kind;
use crate::rules::Violation;
use crate::rules::kit::effects::{self as fx, Src};
use crate::rules::kit::v;

impl Xterminio {
    /// The moments a card of player `a` may answer now, besides `also`:
    /// right after an enemy attack on `a`'s character, right after an
    /// enemy move.
    pub(in super::super) fn ctx_for(&self, s: &State, a: usize, also: &[When]) -> Ctx<'_> {
        let mut ctx = Ctx::new(self, also);
        match s.last {
            Some(Event::Attack { attacker, target })
                if usize::from(target.side) == a && usize::from(attacker.side) != a =>
            {
                ctx.open |= super::super::effects::bit(When::AfterAttack);
                ctx.attack = Some((attacker, target));
            }
            Some(Event::Move { to }) if usize::from(to.side) != a => {
                ctx.open |= super::super::effects::bit(When::AfterMove);
                ctx.mover = Some(to);
            }
            _ => {}
        }
        ctx
    }

    /// Whether player `a` is in the main phase of their own turn.
    pub(in super::super) fn main_open(s: &State, a: usize) -> bool {
        a == s.to_move && s.drawn && s.phase == Phase::Main
    }

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
        let Some(d) = self.t.get(c).effect else {
            return Ok(());
        };
        let e = effect.clone().unwrap_or_default();
        let mut ctx = self.ctx_for(s, a, &[When::Play]);
        ctx.card = e.fetch.first().and_then(|id| self.t.card(id));
        let src = Src {
            card: d,
            owner: a as u8,
            at: None,
        };
        fx::allow(&ctx, s, &src, &e.changes(a), rule::ACTIONS)?;
        self.check_extras(s, a, &e, rule::ACTIONS, card)
    }

    pub(super) fn check_ability(
        &self,
        s: &State,
        card: &str,
        by: &Option<String>,
        effect: &Option<Effect>,
    ) -> Result<(), Violation> {
        let a = self.actor(s, by, rule::ACTIONS)?;
        let me = self.name(s, a);
        let c = self.known(card, rule::ACTIONS)?;
        let mut srcs = Vec::new();
        self.sources_of(s, a, &mut srcs);
        let d = self.t.get(c).effect;
        srcs.retain(|x| Some(x.card) == d);
        if srcs.is_empty() {
            let theirs = {
                let mut o = Vec::new();
                self.sources_of(s, 1 - a, &mut o);
                o.into_iter().find(|x| Some(x.card) == d)
            };
            let cause = theirs.map(|x| self.cause(&x, None));
            let theirs = theirs.is_some();
            return Err(v(rule::ACTIONS, format!("{me} has no `{card}` in play"))
                .expected(
                    "a card of yours in BATTLE, on a character, in the zone or energy slot, or a fixed action in play",
                )
                .found(if theirs {
                    format!("`{card}`, which {} controls", self.name(s, 1 - a))
                } else {
                    format!("no `{card}` in play")
                })
                .cited(cause));
        }
        let e = effect.clone().unwrap_or_default();
        let mut open = vec![];
        if Self::main_open(s, a) {
            open.push(When::Main);
        }
        if a == s.to_move && s.upkeep {
            open.push(When::Upkeep);
        }
        let mut ctx = self.ctx_for(s, a, &open);
        ctx.card = e.fetch.first().and_then(|id| self.t.card(id));
        let mut first = None;
        for src in &srcs {
            match fx::allow(&ctx, s, src, &e.changes(a), rule::ACTIONS) {
                Ok(_) => return self.check_extras(s, a, &e, rule::ACTIONS, card),
                Err(x) => {
                    first.get_or_insert(x);
                }
            }
        }
        Err(first.expect("a source"))
    }

    /// What only the engine knows about an outcome: a deployed character
    /// comes from the player's CAMP (and keeps XT-7 and XT-8), a fetched
    /// card from the deck, a flying character lands on a free slot.
    pub(in super::super) fn check_extras(
        &self,
        s: &State,
        a: usize,
        e: &Effect,
        rule: &'static str,
        card: &str,
    ) -> Result<(), Violation> {
        let cause = self.t.card(card).and_then(|c| self.t.get(c).effect).map(|d| {
            self.cause(
                &Src {
                    card: d,
                    owner: a as u8,
                    at: None,
                },
                None,
            )
        });
        self.extras(s, a, e, rule).map_err(|x| Violation {
            message: format!("`{card}`: {}", x.message),
            cause: cause.map(Box::new).or(x.cause.clone()),
            ..x
        })
    }

    fn extras(&self, s: &State, a: usize, e: &Effect, rule: &'static str) -> Result<(), Violation> {
        let me = self.name(s, a);
        for (&to, id) in &e.deploy {
            if a != s.to_move {
                return Err(v(
                    rule,
                    format!("{me} deploys `{id}` in {}'s turn", self.name(s, s.to_move)),
                )
                .expected("a deploy in the player's own turn")
                .found("a deploy in the opponent's turn"));
            }
            let (c, _) = self.known_of(id, Kind::Character, rule, "a character", "a character from CAMP")?;
            if Self::in_camp(&s.p[a], c).is_none() {
                return Err(v(rule, format!("`{id}` is not in {me}'s CAMP"))
                    .expected("a character from CAMP")
                    .found(format!("no `{id}` in CAMP")));
            }
            self.check_deploy_rules(s, c, to)?;
        }
        for id in &e.fetch {
            let c = self.known(id, rule)?;
            if s.p[a].deck.count(c as usize) == 0 {
                return Err(v(rule, format!("{me}'s deck has no `{id}` left"))
                    .expected("a card still in the deck")
                    .found(format!("`{id}`: none left")));
            }
            if s.p[a].camp.len() >= self.t.n.camp_slots {
                return Err(v(rule, format!("{me}'s CAMP is full"))
                    .expected(format!("a free CAMP slot (at most {})", self.t.n.camp_slots))
                    .found(format!("{} cards in CAMP", s.p[a].camp.len())));
            }
        }
        if let Some(to) = e.fly
            && Self::fighter(s, a, to).is_some()
        {
            return Err(v(rule, format!("`{}` is taken", to.id()))
                .expected("a free character slot")
                .found(format!("`{}` occupied", to.id())));
        }
        if let Some(sl) = e.place
            && sl.index().is_none()
        {
            return Err(v(rule, format!("a card cannot be laid on `{}`", sl.id()))
                .expected("a character slot")
                .found(sl.id()));
        }
        Ok(())
    }
}
