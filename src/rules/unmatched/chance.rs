//! Chance in an Unmatched log (the card a maneuver draws) and the damage a
//! random player records: canonical forms, random outcomes and headers.

use std::collections::BTreeMap;

use super::Unmatched;
use super::actions::{Action, Effect, Size};
use super::setup::{Mode, PlayerSetup, Setup};
use super::state::State;
use super::tables::{Ability, OFF};

impl Unmatched {
    /// The player's choice in `a`, chance fields and outcomes cleared.
    pub(super) fn canonical(&self, a: &Action) -> Action {
        match a {
            Action::Maneuver { .. } => Action::Maneuver { draw: None },
            Action::Scheme { card, .. } => Action::Scheme {
                card: card.clone(),
                effect: Effect::default(),
            },
            Action::Defend { card, .. } => Action::Defend {
                card: card.clone(),
                effects: Vec::new(),
                damage: None,
                winner: None,
            },
            other => other.clone(),
        }
    }

    /// Fills the chance fields of `a` with a random outcome.
    pub(super) fn fill_chance(&self, s: &State, a: &mut Action, rng: &mut fastrand::Rng) {
        match a {
            Action::Maneuver { draw } => {
                let pl = &s.players[s.to_move as usize];
                *draw = None;
                if pl.deck.total() > 0 {
                    let k = rng.u16(..pl.deck.total());
                    if let Some(c) = pl.deck.nth(k) {
                        *draw = Some(self.hero(s, s.to_move).cards[c].id.clone());
                    }
                }
            }
            Action::Scheme { effect, .. } => *effect = Effect::default(),
            Action::Defend {
                effects,
                damage,
                winner,
                ..
            } => {
                effects.clear();
                *winner = None;
                *damage = None;
                // Half the time, record the damage as the players would.
                if rng.bool()
                    && self.check(s, a).is_ok()
                    && let (Some(c), Action::Defend { damage, .. }) = (self.step(s.clone(), a).last, &mut *a)
                {
                    *damage = Some(c.damage);
                }
            }
            _ => {}
        }
    }

    /// A random legal header.
    pub(super) fn random_header(&self, rng: &mut fastrand::Rng) -> Setup {
        let team_boards: Vec<usize> = (0..self.t.boards.len())
            .filter(|&i| self.t.boards[i].start_count >= 4)
            .collect();
        let teams = self.t.heroes.len() >= 4 && !team_boards.is_empty() && rng.u8(..4) == 0;
        let n = if teams { 4 } else { 2 };
        let bi = if teams {
            team_boards[rng.usize(..team_boards.len())]
        } else {
            let duel: Vec<usize> = (0..self.t.boards.len())
                .filter(|&i| self.t.boards[i].start_count >= 2)
                .collect();
            duel[rng.usize(..duel.len())]
        };
        let b = &self.t.boards[bi];
        let mut heroes: Vec<usize> = (0..self.t.heroes.len()).collect();
        rng.shuffle(&mut heroes);
        let starts: u64 = b.start.iter().filter(|&&s| s != OFF).fold(0, |m, &s| m | 1 << s);
        let mut occ = starts;
        let names = ["Ana", "Ben", "Cora", "Dario"];
        let mut players = Vec::new();
        for i in 0..n {
            let hero = &self.t.heroes[heroes[i]];
            let mut pool: Vec<u8> = Vec::new();
            for (c, &k) in hero.deck.iter().enumerate() {
                pool.extend(std::iter::repeat_n(c as u8, k as usize));
            }
            rng.shuffle(&mut pool);
            let hand = pool
                .iter()
                .take(self.t.numbers.opening_hand as usize)
                .map(|&c| hero.cards[c as usize].id.clone())
                .collect();
            let deck = hero
                .cards
                .iter()
                .enumerate()
                .filter(|(c, _)| hero.deck[*c] > 0)
                .map(|(c, card)| (card.id.clone(), u32::from(hero.deck[c])))
                .collect();
            let mut sidekicks = BTreeMap::new();
            let zone = b.zone_mask(b.start[i]);
            for f in hero.fighters.iter().filter(|f| !f.is_hero) {
                for fid in &f.figures {
                    let free: Vec<usize> = (0..b.graph.len())
                        .filter(|&sp| zone & (1 << sp) != 0 && occ & (1 << sp) == 0)
                        .collect();
                    if free.is_empty() {
                        continue;
                    }
                    let sp = free[rng.usize(..free.len())];
                    occ |= 1 << sp;
                    sidekicks.insert(fid.clone(), b.graph.name(sp as u8).to_string());
                }
            }
            players.push(PlayerSetup {
                name: names[i].to_string(),
                hero: hero.id.clone(),
                team: teams.then(|| ["A", "B"][i % 2].to_string()),
                size: (hero.ability == Ability::Size).then(|| if rng.bool() { Size::Big } else { Size::Small }),
                deck: Some(deck),
                hand,
                sidekicks,
            });
        }
        Setup {
            mode: Some(if teams { Mode::Team } else { Mode::Duel }),
            battlefield: b.id.clone(),
            players,
        }
    }
}
