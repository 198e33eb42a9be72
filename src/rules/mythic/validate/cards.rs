//! Payments in Art of War cards and their stand-ins (MB-4), and draws with
//! new battle cycles (MB-2).

use std::collections::BTreeMap;

use super::super::Mythic;
use super::super::state::{Player, State, tally, within};
use super::super::tables::{AOW, MAXC, OMPH};
use crate::rules::Violation;
use crate::rules::kit::{Pile, plural, v};

impl Mythic {
    /// Cards a payment of `cost` Art of War cards discards (MB-4).
    pub(crate) fn check_pay(
        &self,
        s: &State,
        p: usize,
        hand: &Pile<MAXC>,
        cost: u8,
        pay: &[String],
        rule: &'static str,
    ) -> Result<[u8; MAXC], Violation> {
        let mut out = tally(&self.t, pay).map_err(|id| {
            v(rule, format!("`{id}` is no card of the game"))
                .expected("`art-of-war`, `omphalos` or activation cards")
                .found(id)
        })?;
        if cost == 0 {
            if !pay.is_empty() {
                return Err(v(rule, "nothing is paid here")
                    .expected("no `pay`")
                    .found(format!("{} paid", plural(pay.len() as u32, "card", "cards"))));
            }
            return Ok(out);
        }
        let spare = self.spare_cards(s, p);
        let mut pairs = 0u32;
        for (c, &n) in out.iter().enumerate().skip(2) {
            if n > 0 && !spare[c] {
                return Err(v(
                    rule,
                    format!("`{}` cannot stand in for an Art of War card", self.t.cards[c]),
                )
                .expected("2 activation cards of destroyed heroes or monsters per Art of War card")
                .found(format!("`{}`", self.t.cards[c])));
            }
            pairs += n as u32;
        }
        if pairs % 2 == 1 {
            return Err(
                v(rule, "activation cards stand in for an Art of War card two at a time")
                    .expected("an even number of activation cards")
                    .found(plural(pairs, "activation card", "activation cards")),
            );
        }
        let value = out[AOW as usize] as u32 + out[OMPH as usize] as u32 + pairs / 2;
        if value > cost as u32 {
            return Err(v(rule, "the payment is more than the cost")
                .expected(plural(cost as u32, "Art of War card", "Art of War cards"))
                .found(format!("{value} cards' worth"))
                .cited(self.cite("art-of-war")));
        }
        out[AOW as usize] += (cost as u32 - value) as u8;
        if let Some(c) = (0..MAXC).find(|&c| out[c] > hand.count(c)) {
            let need = if c == AOW as usize {
                plural(out[c] as u32, "Art of War card", "Art of War cards")
            } else {
                format!("{} × `{}`", out[c], self.t.cards[c])
            };
            return Err(v(
                rule,
                format!("{} cannot pay: the hand lacks the cards", self.name(s, p)),
            )
            .expected(format!("{need} in hand"))
            .found(format!("{} in hand", hand.count(c)))
            .cited(self.cite(if c == OMPH as usize { "omphalos" } else { "art-of-war" })));
        }
        Ok(out)
    }

    /// Drawing `n` cards, with a new battle cycle when the deck is short (MB-2).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn check_draw(
        &self,
        s: &State,
        pl: &Player,
        p: usize,
        n: u32,
        cards: &[String],
        others: &BTreeMap<String, Vec<String>>,
        rule: &'static str,
    ) -> Result<(), Violation> {
        let c = tally(&self.t, cards).map_err(|id| {
            v(rule, format!("`{id}` is no card of the game"))
                .expected("card ids of the player's deck")
                .found(id)
        })?;
        let deck_total = u32::from(pl.deck.total());
        if deck_total >= n {
            if cards.len() as u32 != n {
                return Err(v(
                    rule,
                    format!("{} draws {}", self.name(s, p), plural(n, "card", "cards")),
                )
                .expected(plural(n, "card", "cards"))
                .found(plural(cards.len() as u32, "card", "cards")));
            }
            if let Some(x) = (0..MAXC).find(|&x| c[x] > pl.deck.count(x)) {
                return Err(v(rule, format!("the deck has no more `{}`", self.t.cards[x]))
                    .expected(format!("at most {} × `{}`", pl.deck.count(x), self.t.cards[x]))
                    .found(format!("{} drawn", c[x])));
            }
            if let Some(name) = others.keys().next() {
                return Err(v(rule, "the deck has enough cards: no new battle cycle")
                    .expected("no `others`")
                    .found(format!("cards for {name}")));
            }
            return Ok(());
        }
        // A new battle cycle: the rest of the deck, then the reshuffled
        // discard pile for the missing cards and the extra ones.
        let extra = self.mode(s).reshuffle as u32;
        let want = deck_total + (n - deck_total + extra).min(u32::from(pl.discard.total()));
        if cards.len() as u32 != want {
            return Err(v(rule, format!(
                "{}'s deck runs out: a new battle cycle draws the {} left, then {} from the reshuffled discard pile",
                self.name(s, p),
                deck_total,
                want - deck_total
            ))
            .expected(plural(want, "card", "cards"))
            .found(plural(cards.len() as u32, "card", "cards")));
        }
        for x in 0..MAXC {
            if c[x] < pl.deck.count(x) || c[x] - pl.deck.count(x) > pl.discard.count(x) {
                return Err(v(
                    rule,
                    format!(
                        "`{}` cannot be drawn that many times in this battle cycle",
                        self.t.cards[x]
                    ),
                )
                .expected(format!(
                    "{} from the old deck and at most {} from the discard pile",
                    pl.deck.count(x),
                    pl.discard.count(x)
                ))
                .found(format!("{} drawn", c[x])));
            }
        }
        for name in others.keys() {
            let known = s.names.iter().position(|x| x == name);
            if known.is_none_or(|q| q == p || s.players[q].out) {
                return Err(v(rule, format!("`{name}` is not another player in the game"))
                    .expected("the names of the other players")
                    .found(name));
            }
        }
        for (q, o) in s.players.iter().enumerate() {
            if q == p || o.out {
                continue;
            }
            let name = self.name(s, q);
            let got: &[String] = others.get(name).map_or(&[], Vec::as_slice);
            let want = extra.min(u32::from(o.discard.total()));
            if got.len() as u32 != want {
                return Err(v(
                    rule,
                    format!(
                        "in the new battle cycle {name} reshuffles and draws {}",
                        plural(want, "card", "cards")
                    ),
                )
                .expected(format!("{} for {name} in `others`", plural(want, "card", "cards")))
                .found(plural(got.len() as u32, "card", "cards")));
            }
            let oc = tally(&self.t, got).map_err(|id| {
                v(rule, format!("`{id}` is no card of the game"))
                    .expected("card ids")
                    .found(id)
            })?;
            if !within(&oc, o.discard.counts()) {
                return Err(v(
                    rule,
                    format!("{name}'s new deck (the old discard pile) does not hold those cards"),
                )
                .expected("cards from their discard pile")
                .found(got.join(", ")));
            }
        }
        Ok(())
    }
}
