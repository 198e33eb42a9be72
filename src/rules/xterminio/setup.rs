//! The log header of XTerminio (mode, target score, the first player, each
//! player's deck and opening) and the state it sets up (XT-1, XT-3, XT-7,
//! XT-8).

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::Xterminio;
use super::actions::Slot;
use super::rule;
use super::state::{CampCard, Fighter, Phase, Side, State};
use super::tables::{Kind, MAX_CARDS};
use crate::rules::Violation;
use crate::rules::kit::{Pile, v};

/// The game mode (XT-6, XT-7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// Learning mode: +5 ENERGY a turn, free deployment and moves, no hand limit.
    Masakre,
    /// Full mode: +2 ENERGY a turn, deploy limit, paid moves, 5 cards in hand.
    Xterminar,
}

/// The log header.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    pub mode: Mode,
    /// The agreed target score (XT-1).
    pub target: u32,
    /// The player who takes the first turn (chosen by the winner of the die roll).
    pub first: String,
    pub players: Vec<PlayerSetup>,
}

/// A player's deck and opening (XT-3).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerSetup {
    pub name: String,
    /// `{card id: copies}`: characters form the character deck, the rest the support deck.
    pub deck: BTreeMap<String, u32>,
    /// Opening hands given back (at most one mulligan).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mulligans: Vec<Vec<String>>,
    /// The opening hand kept: 5 characters and 3 support cards.
    pub hand: Vec<String>,
    /// Classic characters laid straight into BATTLE.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub battle: BTreeMap<Slot, String>,
    /// Characters and equipment laid in CAMP.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub camp: Vec<String>,
    /// A zone laid in the zone slot.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zone: Option<String>,
}

/// Counts per card index as a pile.
fn pile(counts: &[u8]) -> Pile<MAX_CARDS> {
    let mut a = [0u8; MAX_CARDS];
    a[..counts.len()].copy_from_slice(counts);
    Pile::of(a)
}

impl Xterminio {
    /// The state after setup, or the rule the header breaks.
    pub(super) fn setup(&self, setup: &Setup) -> Result<State, Violation> {
        let n = &self.t.n;
        if !(n.target_min..=n.target_max).contains(&setup.target) {
            return Err(v(rule::TARGET, format!("the agreed target score is {}", setup.target))
                .expected(format!("{} to {} points", n.target_min, n.target_max))
                .found(format!("{} points", setup.target)));
        }
        if setup.players.len() != 2 {
            return Err(v(rule::OPENING, "XTerminio is played by two players")
                .expected("2 players")
                .found(format!("{} players", setup.players.len())));
        }
        let names: Vec<String> = setup.players.iter().map(|p| p.name.clone()).collect();
        let Some(first) = names.iter().position(|x| *x == setup.first) else {
            return Err(v(
                rule::OPENING,
                format!("`first: {}` names nobody in this game", setup.first),
            )
            .expected(format!("{} or {}", names[0], names[1]))
            .found(setup.first.clone()));
        };
        let a = self.open_side(&setup.players[0], setup.mode)?;
        let b = self.open_side(&setup.players[1], setup.mode)?;
        let mut s = State {
            names: Arc::new(names),
            mode: setup.mode,
            target: setup.target as u16,
            p: [a, b],
            turn: 1,
            to_move: first,
            drawn: true,
            phase: Phase::Main,
            deploy_cap: None,
            deployed: 0,
            window: None,
            point_ok: false,
            winner: None,
            lasting: Vec::new(),
            uses: Default::default(),
            applied: Default::default(),
            last: None,
            upkeep: false,
        };
        self.begin_turn(&mut s);
        // The first player skips the draw of the first turn (XT-3).
        s.drawn = true;
        Ok(s)
    }

    pub(super) fn open_side(&self, ps: &PlayerSetup, mode: Mode) -> Result<Side, Violation> {
        let n = &self.t.n;
        let count = self.t.cards.len();
        let name = &ps.name;
        let mut owned = vec![0u8; count];
        for (id, &k) in &ps.deck {
            let c = self.known(id, rule::OPENING)?;
            owned[c as usize] = owned[c as usize].saturating_add(k.min(255) as u8);
        }
        let draw = |hand: &[String], what: &str| -> Result<Vec<u8>, Violation> {
            let mut counts = vec![0u16; count];
            let (mut chars, mut support) = (0, 0);
            for id in hand {
                let c = self.known(id, rule::OPENING)?;
                counts[c as usize] += 1;
                if counts[c as usize] > owned[c as usize] as u16 {
                    return Err(v(
                        rule::OPENING,
                        format!("{name}'s {what} holds more `{id}` than the deck"),
                    )
                    .expected(format!("at most {} `{id}`", owned[c as usize]))
                    .found(format!("{} `{id}`", counts[c as usize])));
                }
                if self.is_support(c) {
                    support += 1;
                } else {
                    chars += 1;
                }
            }
            if chars != n.opening_characters || support != n.opening_support {
                return Err(
                    v(rule::OPENING, format!("{name}'s {what} is not a proper opening draw"))
                        .expected(format!(
                            "{} characters and {} support cards",
                            n.opening_characters, n.opening_support
                        ))
                        .found(format!("{chars} characters and {support} support cards")),
                );
            }
            Ok(counts.iter().map(|&k| k as u8).collect::<Vec<u8>>())
        };
        if ps.mulligans.len() > n.mulligans {
            return Err(
                v(rule::OPENING, format!("{name} takes {} mulligans", ps.mulligans.len()))
                    .expected(format!("at most {} mulligan", n.mulligans))
                    .found(format!("{} mulligans", ps.mulligans.len())),
            );
        }
        for (k, m) in ps.mulligans.iter().enumerate() {
            draw(m, &format!("mulligan hand {}", k + 1))?;
        }
        let mut hand = draw(&ps.hand, "opening hand")?;
        let mut deck = owned.clone();
        for (d, h) in deck.iter_mut().zip(&hand) {
            *d -= h;
        }
        let take = |id: &str, hand: &mut Vec<u8>| -> Result<u8, Violation> {
            let c = self.known(id, rule::OPENING)?;
            if hand[c as usize] == 0 {
                return Err(v(
                    rule::OPENING,
                    format!("{name} lays `{id}` without it in the opening hand"),
                )
                .expected("cards of the opening hand")
                .found(format!("an extra `{id}`")));
            }
            hand[c as usize] -= 1;
            Ok(c)
        };
        let mut battle: [Option<Fighter>; 5] = [None; 5];
        let mut life = 0u16;
        for (&slot, id) in &ps.battle {
            let c = take(id, &mut hand)?;
            let info = self.t.get(c);
            let Some(i) = slot.index() else {
                return Err(v(rule::OPENING, format!("`{}` is not a character slot", slot.id()))
                    .expected("advance-left/center/right or cover-left/right")
                    .found(slot.id()));
            };
            if info.kind != Kind::Character || info.powered {
                return Err(v(
                    rule::OPENING,
                    format!("{name} opens with `{id}` in BATTLE: powered characters and equipment start in CAMP"),
                )
                .expected("classic characters only in the opening BATTLE")
                .found(if info.powered {
                    "a powered character".to_string()
                } else {
                    info.kind.name().to_string()
                }));
            }
            if let Some(f) = battle.iter().flatten().find(|f| self.t.get(f.card).base == info.base) {
                return Err(v(
                    rule::COPIES,
                    format!("{name} opens with two `{}` in BATTLE", self.t.id(f.card)),
                )
                .expected("one copy of a character in BATTLE")
                .found("two copies"));
            }
            life += info.life as u16;
            battle[i] = Some(Fighter {
                card: c,
                damage: 0,
                exhausted: false,
                attacked: false,
                stunned: false,
                equipment: None,
            });
        }
        if mode == Mode::Xterminar && life > n.opening_limit {
            return Err(v(rule::XTERMINAR, format!("{name} opens with {life} life in BATTLE"))
                .expected(format!(
                    "at most {} life in the opening BATTLE (XTerminar)",
                    n.opening_limit
                ))
                .found(format!("{life} life")));
        }
        if ps.camp.len() > n.camp_slots {
            return Err(v(rule::OPENING, format!("{name} lays {} cards in CAMP", ps.camp.len()))
                .expected(format!("at most {} cards in CAMP", n.camp_slots))
                .found(format!("{} cards", ps.camp.len())));
        }
        let mut camp = Vec::with_capacity(n.camp_slots);
        for id in &ps.camp {
            let c = take(id, &mut hand)?;
            let kind = self.t.get(c).kind;
            if !matches!(kind, Kind::Character | Kind::Equipment) {
                return Err(v(
                    rule::OPENING,
                    format!("`{id}` is {}: CAMP takes characters and equipment", kind.name()),
                )
                .expected("characters and equipment in CAMP")
                .found(kind.name()));
            }
            camp.push(CampCard { card: c, fresh: false });
        }
        let zone = match &ps.zone {
            Some(id) => {
                let c = take(id, &mut hand)?;
                let kind = self.t.get(c).kind;
                if kind != Kind::Zone {
                    return Err(v(rule::OPENING, format!("`{id}` is {}, not a zone", kind.name()))
                        .expected("a zone card in the zone slot")
                        .found(kind.name()));
                }
                Some(c)
            }
            None => None,
        };
        let deck_chars = deck
            .iter()
            .enumerate()
            .filter(|(c, _)| !self.is_support(*c as u8))
            .map(|(_, &k)| k as u16)
            .sum();
        let deck_support = deck.iter().map(|&k| k as u16).sum::<u16>() - deck_chars;
        Ok(Side {
            deck: pile(&deck),
            deck_chars,
            deck_support,
            owned: pile(&owned),
            hand: pile(&hand),
            camp,
            battle,
            zone,
            energy_eq: None,
            fixed: Vec::with_capacity(8),
            died: vec![false; count],
            energy: 0,
            score: 0,
        })
    }
}
