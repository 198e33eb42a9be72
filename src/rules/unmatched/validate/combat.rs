//! Attacks (UM-7) and the defender's answer (UM-8), whose resolution —
//! card effects in order (UM-10), damage and winner (UM-9) — runs on a
//! scratch copy through [`Unmatched::resolve`].

use super::super::Unmatched;
use super::super::actions::{Effect, Side};
use super::super::effects::{Ch, Ctx, Out, When};
use super::super::rule;
use super::super::state::{Phase, State};
use super::super::tables::{Ability, CardKind, OFF};
use crate::rules::Violation;
use crate::rules::kit::effects as fx;
use crate::rules::kit::v;

impl Unmatched {
    pub(super) fn check_attack(
        &self,
        s: &State,
        p: u8,
        fighter: &str,
        target: &str,
        card: &str,
        extra: Option<&str>,
    ) -> Result<(), Violation> {
        self.no_combat(s)?;
        self.free_action(s, "attack")?;
        let a = self.figure(s, fighter, rule::ATTACK)?;
        self.check_own(s, p, a, "attack with")?;
        let t = self.figure(s, target, rule::ATTACK)?;
        self.check_target(s, p, t, rule::ATTACK)?;
        let c = self.card(s, p, card, rule::ATTACK)?;
        let hero = self.hero(s, p);
        let def = &hero.cards[c as usize];
        if !matches!(def.kind, CardKind::Attack | CardKind::Versatile) {
            return Err(v(rule::ATTACK, format!("`{card}` cannot attack"))
                .expected("an attack or versatile card")
                .found(format!("`{card}`, {}", def.kind.name())));
        }
        self.in_hand(s, p, c, 1, rule::ATTACK)?;
        let af = s.figs[a];
        if !Self::usable(hero, c, af.fighter) {
            return Err(v(
                rule::ATTACK,
                format!("`{card}` is {}'s card; {fighter} cannot use it", hero.user(def)),
            )
            .expected(format!("a card for {fighter} or for any fighter"))
            .found(format!("`{card}` ({} only)", hero.user(def))));
        }
        self.check_reach(s, a, t, fighter, target)?;
        if let Some(e) = extra {
            if hero.ability != Ability::ExtraCard || !af.is_hero {
                return Err(v(
                    rule::ATTACK,
                    "only King Arthur himself may add a second card to his attack (`king-arthur`)",
                )
                .expected("one attack card")
                .found(format!("an extra card `{e}` for {fighter}"))
                .cited(fx::cause_named(&self.t.defs, &self.t.def_names, "king-arthur")));
            }
            let x = self.card(s, p, e, rule::ATTACK)?;
            self.in_hand(s, p, x, if x == c { 2 } else { 1 }, rule::ATTACK)?;
            if let Some(src) = self.ability_src(s, p) {
                let ctx = Ctx::new(self, &[When::Attack], None);
                let ch = Ch {
                    out: Out::ExtraCard,
                    obj: Some(a as u8),
                    n: 1,
                };
                fx::allow(&ctx, s, &src, &[ch], rule::ATTACK)?;
            }
        }
        Ok(())
    }

    pub(super) fn check_defend(
        &self,
        s: &State,
        card: Option<&str>,
        effects: &[Effect],
        damage: Option<u8>,
        winner: Option<Side>,
    ) -> Result<(), Violation> {
        let Phase::Combat { target, .. } = s.phase else {
            return Err(v(rule::DEFENSE, "there is no attack to defend against")
                .expected("a defence only right after an attack")
                .found("a `defend` step"));
        };
        let tf = s.figs[target as usize];
        let dp = tf.owner;
        let dhero = self.hero(s, dp);
        let tname = self.fig_name(&tf);
        let mut dc = OFF;
        if let Some(id) = card {
            dc = self.card(s, dp, id, rule::DEFENSE)?;
            let def = &dhero.cards[dc as usize];
            if !matches!(def.kind, CardKind::Defense | CardKind::Versatile) {
                return Err(v(rule::DEFENSE, format!("`{id}` cannot defend"))
                    .expected("a defense or versatile card")
                    .found(format!("`{id}`, {}", def.kind.name())));
            }
            self.in_hand(s, dp, dc, 1, rule::DEFENSE)?;
            if !Self::usable(dhero, dc, tf.fighter) {
                return Err(v(
                    rule::DEFENSE,
                    format!("`{id}` is {}'s card; {tname} cannot use it", dhero.user(def)),
                )
                .expected(format!("a card for {tname} or for any fighter"))
                .found(format!("`{id}` ({} only)", dhero.user(def))));
            }
        }
        let mut t = s.clone();
        self.resolve(&mut t, dc, effects, damage, winner)
    }
}
