//! The log header of Unmatched (mode, battlefield, players with their
//! heroes, decks, opening hands and sidekicks) and the state it sets up
//! (UM-1, UM-12).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::Unmatched;
use super::actions::Size;
use super::rule;
use super::state::{Figure, Phase, Player, State};
use super::tables::{Ability, MAX_FIGURES, MAX_PLAYERS, Style};
use crate::rules::Violation;
use crate::rules::kit::{Pile, plural, v};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    Duel,
    Team,
}

/// The log header.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// `duel` (2 players) or `team` (4); optional, checked against `players`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<Mode>,
    /// A battlefield face id.
    pub battlefield: String,
    /// In seating and turn order (team play: A1, B1, A2, B2).
    pub players: Vec<PlayerSetup>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerSetup {
    pub name: String,
    pub hero: String,
    /// Team play: `A` or `B`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub team: Option<String>,
    /// Alice only: her starting size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<Size>,
    /// `{card id: copies}`; the hero's pack deck when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deck: Option<BTreeMap<String, u32>>,
    /// The opening hand drawn at setup.
    pub hand: Vec<String>,
    /// Sidekick figure → space.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub sidekicks: BTreeMap<String, String>,
}

impl Unmatched {
    /// The state after setup, or the rule the header breaks.
    pub(super) fn setup(&self, setup: &Setup) -> Result<State, Violation> {
        let n = setup.players.len();
        let teams = n == 4;
        if n != 2 && n != 4 {
            return Err(v(rule::SETUP, "Unmatched is played as a duel or as two teams of two")
                .expected("2 players (duel) or 4 (team play)")
                .found(plural(n as i64, "player", "players")));
        }
        if let Some(m) = setup.mode
            && (m == Mode::Team) != teams
        {
            return Err(v(
                if teams { rule::TEAMS } else { rule::SETUP },
                "the mode does not match the number of players",
            )
            .expected(if teams {
                "mode: team for 4 players"
            } else {
                "mode: duel for 2 players"
            })
            .found(format!(
                "mode: {} with {n} players",
                if m == Mode::Team { "team" } else { "duel" }
            )));
        }
        let Some(bi) = self.t.boards.iter().position(|b| b.id == setup.battlefield) else {
            let ids: Vec<&str> = self.t.boards.iter().map(|b| b.id.as_str()).collect();
            return Err(
                v(rule::SETUP, format!("there is no battlefield `{}`", setup.battlefield))
                    .expected(format!("one of {}", ids.join(", ")))
                    .found(format!("`{}`", setup.battlefield)),
            );
        };
        let b = &self.t.boards[bi];
        if teams && b.start_count < 4 {
            return Err(
                v(rule::TEAMS, format!("{} has only {} start spaces", b.id, b.start_count))
                    .expected("the board side with 4 start spaces for team play")
                    .found(format!("{} ({} start spaces)", b.id, b.start_count)),
            );
        }
        if (b.start_count as usize) < n {
            return Err(
                v(rule::SETUP, format!("{} has only {} start spaces", b.id, b.start_count))
                    .expected(format!("{n} start spaces"))
                    .found(b.start_count.to_string()),
            );
        }
        let mut s = State {
            names: setup.players.iter().map(|p| p.name.clone()).collect(),
            board: bi as u8,
            n: n as u8,
            teams,
            players: [Player::default(); MAX_PLAYERS],
            figs: [Figure::default(); MAX_FIGURES],
            nfig: 0,
            occ: 0,
            to_move: 0,
            turn: 1,
            actions: 0,
            gazed: false,
            phase: Phase::Actions,
            last: None,
            over: None,
        };
        let order = ["A", "B", "A", "B"];
        for (i, ps) in setup.players.iter().enumerate() {
            let p = i as u8;
            let Some(hi) = self.t.heroes.iter().position(|h| h.id == ps.hero) else {
                let ids: Vec<&str> = self.t.heroes.iter().map(|h| h.id.as_str()).collect();
                return Err(
                    v(rule::SETUP, format!("{} picks an unknown hero `{}`", ps.name, ps.hero))
                        .expected(format!("one of {}", ids.join(", ")))
                        .found(format!("`{}`", ps.hero)),
                );
            };
            if let Some(q) = setup.players[..i].iter().find(|q| q.hero == ps.hero) {
                return Err(
                    v(rule::SETUP, format!("{} and {} both pick {}", q.name, ps.name, ps.hero))
                        .expected("a different hero for each player")
                        .found(format!("{} twice", ps.hero)),
                );
            }
            let hero = &self.t.heroes[hi];
            if teams {
                let want = order[i];
                if ps.team.as_deref() != Some(want) {
                    return Err(v(
                        rule::TEAMS,
                        format!("{} is seat {} of the turn order A1, B1, A2, B2", ps.name, i + 1),
                    )
                    .expected(format!("team {want} in seat {}", i + 1))
                    .found(ps.team.as_deref().map_or("no team".into(), |t| format!("team {t}"))));
                }
            }
            let pl = &mut s.players[i];
            pl.hero = hi as u8;
            pl.team = if teams { (i % 2) as u8 } else { p };
            // The hero's setup choice (Alice's size), read from its effect.
            let chosen = self.t.hero_defs[hi].and_then(|d| {
                let def = &self.t.defs[usize::from(d)];
                let k = def.clauses.iter().position(|c| c.when == super::effects::When::Setup)?;
                Some((def, k as u8))
            });
            match (hero.ability, ps.size) {
                (Ability::Size, Some(sz)) => {
                    pl.big = sz == Size::Big;
                    if let Some((def, k)) = chosen {
                        def.note(k, true, || hero.id.clone());
                    }
                }
                (Ability::Size, None) => {
                    return Err(v(rule::SETUP, format!("{} must choose Alice's starting size", ps.name))
                        .expected("size: big or size: small")
                        .found("no `size`")
                        .cited(chosen.map(|(def, k)| def.cause(&hero.id, Some(k)))));
                }
                (_, Some(_)) => {
                    return Err(v(rule::SETUP, format!("{} is not Alice and has no size", ps.hero))
                        .expected("no `size`")
                        .found("a `size`"));
                }
                (_, None) => {}
            }
            // Deck, then the opening hand drawn from it.
            match &ps.deck {
                None => pl.deck = Pile::of(hero.deck),
                Some(map) => {
                    for (id, &k) in map {
                        let Some(c) = hero.card(id) else {
                            return Err(v(
                                rule::SETUP,
                                format!("`{id}` in {}'s deck is not a card of {}", ps.name, hero.id),
                            )
                            .expected(format!("cards of {}", hero.id))
                            .found(format!("`{id}`")));
                        };
                        let k = u8::try_from(k).map_err(|_| {
                            v(rule::SETUP, format!("{} copies of `{id}`", k))
                                .expected("a real deck")
                                .found(k.to_string())
                        })?;
                        pl.deck.set(c as usize, k);
                    }
                }
            }
            let want = self.t.numbers.opening_hand;
            if ps.hand.len() != want as usize {
                return Err(v(
                    rule::SETUP,
                    format!("{}'s opening hand has {} cards", ps.name, ps.hand.len()),
                )
                .expected(format!("{want} cards drawn at setup"))
                .found(plural(ps.hand.len() as i64, "card", "cards")));
            }
            for id in &ps.hand {
                let Some(c) = hero.card(id) else {
                    return Err(v(
                        rule::SETUP,
                        format!("`{id}` in {}'s hand is not a card of {}", ps.name, hero.id),
                    )
                    .expected(format!("cards of {}", hero.id))
                    .found(format!("`{id}`")));
                };
                if pl.deck.count(c as usize) == 0 {
                    return Err(v(
                        rule::SETUP,
                        format!("{}'s opening hand holds more `{id}` than the deck", ps.name),
                    )
                    .expected("cards drawn from the player's own deck")
                    .found(format!("another `{id}`")));
                }
                pl.deck.take(c as usize, 1);
                pl.hand.add(c as usize, 1);
            }
            // The hero on its start space, sidekicks in that space's zone.
            let start = b.start[i];
            let zone = b.zone_mask(start);
            for (fi, fd) in hero.fighters.iter().enumerate() {
                for (k, fid) in fd.figures.iter().enumerate() {
                    let at = if fd.is_hero {
                        start
                    } else {
                        let Some(sp) = ps.sidekicks.get(fid) else {
                            return Err(v(rule::SETUP, format!("{} does not place {fid}", ps.name))
                                .expected(format!("`sidekicks: {{{fid}: space}}` in zone {}", b.zone_list(start)))
                                .found("no space for it"));
                        };
                        let Some(at) = b.space(sp) else {
                            return Err(v(rule::SETUP, format!("`{sp}` is not a space of {}", b.id))
                                .expected("a space of the battlefield")
                                .found(format!("`{sp}`")));
                        };
                        if zone & (1u64 << at) == 0 {
                            return Err(v(rule::SETUP, format!("{fid} starts outside its hero's zone"))
                                .expected(format!(
                                    "a {} space (start space {} is {})",
                                    b.zone_list(start),
                                    i + 1,
                                    b.name(start)
                                ))
                                .found(format!("{sp} ({})", b.zone_list(at))));
                        }
                        at
                    };
                    if s.occ & (1u64 << at) != 0 {
                        return Err(v(
                            rule::SETUP,
                            format!("{fid} would start on {}, which is taken", b.name(at)),
                        )
                        .expected("one figure per space")
                        .found(format!("{} already occupied", b.name(at))));
                    }
                    s.occ |= 1u64 << at;
                    if s.nfig as usize == MAX_FIGURES {
                        return Err(v(rule::SETUP, "too many figures").expected("at most 16").found("more"));
                    }
                    s.figs[s.nfig as usize] = Figure {
                        owner: p,
                        hero: hi as u8,
                        fighter: fi as u8,
                        copy: k as u8,
                        is_hero: fd.is_hero,
                        style_ranged: fd.style == Style::Ranged,
                        mv: fd.mv,
                        hp: fd.hp,
                        max: fd.hp,
                        at,
                    };
                    s.nfig += 1;
                }
            }
            if let Some(extra) = ps
                .sidekicks
                .keys()
                .find(|k| !hero.fighters.iter().any(|f| !f.is_hero && f.figures.contains(k)))
            {
                let own: Vec<&str> = hero
                    .fighters
                    .iter()
                    .filter(|f| !f.is_hero)
                    .flat_map(|f| f.figures.iter().map(String::as_str))
                    .collect();
                return Err(v(rule::SETUP, format!("`{extra}` is not a sidekick of {}", hero.id))
                    .expected(format!("sidekicks of {}: {}", hero.id, own.join(", ")))
                    .found(format!("`{extra}`")));
            }
        }
        Ok(s)
    }
}
