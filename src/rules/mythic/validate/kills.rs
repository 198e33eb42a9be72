//! Effects a unit's destruction triggers (`on-kill`): Hades' Realm of
//! Shades draws a card for its player when an enemy falls in his area. The
//! cards are recorded on the attack or counter-attack that destroys the
//! unit (`drew`), like a turn's draw (MB-2), and checked against the effect.

use super::super::Mythic;
use super::super::actions::Drawn;
use super::super::effects::{Ctx, Out, When};
use super::super::rule;
use super::super::state::State;
use crate::rules::Violation;
use crate::rules::kit::effects::{self as fx, Src};
use crate::rules::kit::{plural, v};

/// Cards an effect of a destruction draws: the player, how many, and the
/// card (effect) that draws them.
#[derive(Clone, Debug, PartialEq)]
pub struct KillDraw {
    pub player: usize,
    pub n: u32,
    pub card: String,
}

impl Mythic {
    /// What destroying `d` with `hits` successes of `a` draws, if the
    /// attack destroys it.
    pub(crate) fn kill_draw(&self, s: &State, a: usize, d: usize, power: Option<usize>, hits: u8) -> Option<KillDraw> {
        let u = &s.units[d];
        // A petrifying attack (Petrifying Gaze) never wounds.
        if !u.on_board() || power.is_some_and(|i| self.petrifies(s, a, i)) {
            return None;
        }
        let wounds = self.wounds_dealt(s, a, d, power, hits);
        if u.wounds.saturating_add(wounds) < self.def(s, d).life() {
            return None;
        }
        let mut src: Vec<Src<u8>> = Vec::new();
        for (i, o) in s.units.iter().enumerate() {
            if o.on_board() && i != d {
                self.own_sources(s, i, &mut src);
            }
        }
        let ctx = Ctx::new(self, &[When::OnKill]);
        let fired = fx::fire(&ctx, s, &src, When::OnKill, Some(d as u8));
        let (first, _, _) = fired.iter().find(|(_, _, ch)| ch.out == Out::Draw && ch.n > 0)?;
        let n: i16 = fired
            .iter()
            .filter(|(x, _, ch)| ch.out == Out::Draw && x.owner == first.owner)
            .map(|(_, _, ch)| ch.n)
            .sum();
        Some(KillDraw {
            player: usize::from(first.owner),
            n: n.max(0) as u32,
            card: self.t.fx.names[usize::from(first.card)].clone(),
        })
    }

    /// The cards recorded as drawn by effects of the destruction this
    /// attack causes (`drew`), against what the effects draw.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn check_kill_draw(
        &self,
        s: &State,
        a: usize,
        d: usize,
        power: Option<usize>,
        hits: u8,
        drew: Option<&Drawn>,
    ) -> Result<(), Violation> {
        let r = rule::WOUNDS;
        match (self.kill_draw(s, a, d, power, hits), drew) {
            (None, None) => Ok(()),
            (None, Some(x)) => Err(v(r, "no effect draws a card for this attack")
                .expected("no `drew` (an effect such as Realm of Shades draws only when an enemy falls in its area)")
                .found(plural(x.cards.len() as u32, "card", "cards"))),
            (Some(k), None) => Err(v(
                r,
                format!(
                    "`{}` draws {} for {} when `{}` is destroyed",
                    k.card,
                    plural(k.n, "card", "cards"),
                    self.name(s, k.player),
                    self.uid(s, d)
                ),
            )
            .expected(format!(
                "`drew: {{cards: [{}]}}` on the attack: {} from {}'s deck",
                self.deck_sample(s, k.player, k.n),
                plural(k.n, "card", "cards"),
                self.name(s, k.player)
            ))
            .found("nothing drawn")
            .cited(self.cite(&k.card))),
            (Some(k), Some(x)) => {
                let pl = &s.players[k.player];
                self.check_draw(s, pl, k.player, k.n, &x.cards, &x.others, r)
                    .map_err(|mut e| {
                        e.message = format!("{} (`{}`)", e.message, k.card);
                        e.cited(self.cite(&k.card))
                    })
            }
        }
    }

    /// `n` cards player `p`'s deck holds, as a log writes them (for an
    /// example of what to record).
    fn deck_sample(&self, s: &State, p: usize, n: u32) -> String {
        let ids: Vec<&str> = s.players[p]
            .deck
            .cards()
            .take(n as usize)
            .filter_map(|x| self.t.cards.get(x).map(String::as_str))
            .collect();
        if ids.is_empty() {
            "a card of the deck".to_owned()
        } else {
            ids.join(", ")
        }
    }
}
