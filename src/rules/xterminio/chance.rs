//! Chance in an XTerminio log (the cards drawn) and the outcomes a random
//! player records: canonical forms, random outcomes and headers.

use std::collections::BTreeMap;

use super::Xterminio;
use super::actions::{Action, Slot};
use super::setup::{Mode, PlayerSetup, Setup};
use super::state::{CHAR_DECK, SUPPORT_DECK, State};
use super::tables::Kind;

impl Xterminio {
    /// The player's choice in `a`: drawn cards as the decks they came from
    /// (an effect's outcome is a choice and stays).
    pub(super) fn canonical(&self, a: &Action) -> Action {
        match a {
            Action::Draw { cards } => {
                let mut c: Vec<String> = cards
                    .iter()
                    .map(|id| match self.t.card(id) {
                        Some(c) if self.is_support(c) => SUPPORT_DECK.to_string(),
                        Some(_) => CHAR_DECK.to_string(),
                        None => id.clone(),
                    })
                    .collect();
                c.sort();
                Action::Draw { cards: c }
            }
            other => other.clone(),
        }
    }

    /// Fills the chance fields of `a` (the cards drawn).
    pub(super) fn fill_chance(&self, s: &State, a: &mut Action, rng: &mut fastrand::Rng) {
        let Action::Draw { cards } = a else {
            return;
        };
        let side = &s.p[s.to_move];
        let mut deck = side.deck;
        for slot in cards.iter_mut() {
            let want_support = match slot.as_str() {
                SUPPORT_DECK => true,
                CHAR_DECK => false,
                _ => continue,
            };
            let pool: Vec<(usize, u8)> = deck
                .counts()
                .iter()
                .enumerate()
                .filter(|(c, k)| **k > 0 && self.is_support(*c as u8) == want_support)
                .map(|(c, k)| (c, *k))
                .collect();
            let total: usize = pool.iter().map(|(_, k)| *k as usize).sum();
            if total == 0 {
                continue;
            }
            let mut r = rng.usize(..total);
            for (c, k) in pool {
                if r < k as usize {
                    deck.take(c, 1);
                    *slot = self.t.id(c as u8).to_string();
                    break;
                }
                r -= k as usize;
            }
        }
    }

    /// A random legal header.
    pub(super) fn random_header(&self, rng: &mut fastrand::Rng) -> Setup {
        let n = &self.t.n;
        let mode = if rng.u8(..5) < 3 {
            Mode::Masakre
        } else {
            Mode::Xterminar
        };
        let target = if rng.u8(..5) > 0 {
            n.target_min
        } else {
            rng.u32(n.target_min..=n.target_max)
        };
        let names = ["Ana", "Ben"];
        let swap = rng.bool();
        let mut players = Vec::new();
        for (i, name) in names.iter().enumerate() {
            let pool = &self.t.pools[(i + swap as usize) % self.t.pools.len().max(1)];
            // The standard deck most of the time; now and then other
            // equipment, actions and zones of the faction.
            let deck = if rng.u8(..3) == 0 {
                pool.deck(Some(rng))
            } else {
                pool.deck(None)
            };
            let draw = |rng: &mut fastrand::Rng| -> Vec<String> {
                let mut pool_c: Vec<&String> = Vec::new();
                let mut pool_s: Vec<&String> = Vec::new();
                for (id, &k) in &deck {
                    let support = self.t.card(id).is_some_and(|c| self.is_support(c));
                    for _ in 0..k {
                        if support { pool_s.push(id) } else { pool_c.push(id) }
                    }
                }
                rng.shuffle(&mut pool_c);
                rng.shuffle(&mut pool_s);
                pool_c
                    .into_iter()
                    .take(n.opening_characters)
                    .chain(pool_s.into_iter().take(n.opening_support))
                    .cloned()
                    .collect()
            };
            let mulligans = if rng.u8(..5) == 0 { vec![draw(rng)] } else { Vec::new() };
            let hand = draw(rng);
            let mut battle = BTreeMap::new();
            let mut camp = Vec::new();
            let mut zone = None;
            let mut life = 0u16;
            let mut bases = Vec::new();
            let mut order = hand.clone();
            rng.shuffle(&mut order);
            for id in order {
                let Some(c) = self.t.card(&id) else { continue };
                let info = self.t.get(c);
                match info.kind {
                    Kind::Character
                        if !info.powered
                            && !bases.contains(&info.base)
                            && battle.len() < 5
                            && (mode == Mode::Masakre || life + info.life as u16 <= n.opening_limit)
                            && rng.u8(..5) > 0 =>
                    {
                        life += info.life as u16;
                        bases.push(info.base);
                        battle.insert(Slot::CHARACTER[battle.len()], id);
                    }
                    Kind::Character | Kind::Equipment if camp.len() < n.camp_slots && rng.bool() => camp.push(id),
                    Kind::Zone if zone.is_none() => zone = Some(id),
                    _ => {}
                }
            }
            players.push(PlayerSetup {
                name: name.to_string(),
                deck,
                mulligans,
                hand,
                battle,
                camp,
                zone,
            });
        }
        Setup {
            mode,
            target,
            first: names[rng.usize(..2)].to_string(),
            players,
        }
    }
}
