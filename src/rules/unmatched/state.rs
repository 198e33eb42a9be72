//! The state of an Unmatched game, and the lookups and questions the rules
//! ask of it.

use std::sync::Arc;

use super::Unmatched;
use super::rule;
use super::tables::{Ability, Board, CardKind, Hero, MAX_CARDS, MAX_FIGURES, MAX_PLAYERS, OFF, Style};
use crate::rules::Violation;
use crate::rules::kit::{Pile, plural, v};

#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Player {
    pub(super) hero: u8,
    pub(super) team: u8,
    pub(super) big: bool,
    pub(super) deck: Pile<MAX_CARDS>,
    pub(super) hand: Pile<MAX_CARDS>,
    pub(super) discard: Pile<MAX_CARDS>,
}

#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Figure {
    pub(super) owner: u8,
    pub(super) hero: u8,
    pub(super) fighter: u8,
    pub(super) copy: u8,
    pub(super) is_hero: bool,
    pub(super) style_ranged: bool,
    pub(super) mv: u8,
    pub(super) hp: u8,
    pub(super) max: u8,
    /// Space index, `OFF` once defeated.
    pub(super) at: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Phase {
    /// Between actions.
    Actions,
    /// After a maneuver's draw: boost (once, first) and moves.
    Maneuver { boost: u8, boosted: bool, moved: u16 },
    /// An attack waits for the defender.
    Combat {
        attacker: u8,
        target: u8,
        card: u8,
        extra: u8,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct CombatResult {
    pub(super) attack: u8,
    pub(super) defense: u8,
    pub(super) damage: u8,
    pub(super) attacker_won: bool,
}

/// The whole game.
#[derive(Clone, Debug)]
pub struct State {
    pub(super) names: Arc<[String]>,
    pub(super) board: u8,
    pub(super) n: u8,
    pub(super) teams: bool,
    pub(super) players: [Player; MAX_PLAYERS],
    pub(super) figs: [Figure; MAX_FIGURES],
    pub(super) nfig: u8,
    /// Occupied spaces.
    pub(super) occ: u64,
    pub(super) to_move: u8,
    pub(super) turn: u16,
    pub(super) actions: u8,
    pub(super) gazed: bool,
    pub(super) phase: Phase,
    pub(super) last: Option<CombatResult>,
    /// Winners as a player bit set, once the game is over.
    pub(super) over: Option<u8>,
}

impl State {
    pub(super) fn figs(&self) -> &[Figure] {
        &self.figs[..self.nfig as usize]
    }

    pub(super) fn team_of(&self, p: u8) -> u8 {
        self.players[p as usize].team
    }

    pub(super) fn name(&self, p: u8) -> &str {
        self.names.get(p as usize).map_or("?", String::as_str)
    }

    /// Spaces held by enemies of player `p`.
    pub(super) fn enemy_mask(&self, p: u8) -> u64 {
        let team = self.team_of(p);
        self.figs()
            .iter()
            .filter(|f| f.at != OFF && self.team_of(f.owner) != team)
            .fold(0, |m, f| m | 1 << f.at)
    }
}

impl Unmatched {
    pub(super) fn hero(&self, s: &State, p: u8) -> &Hero {
        &self.t.heroes[s.players[p as usize].hero as usize]
    }

    pub(super) fn board(&self, s: &State) -> &Board {
        &self.t.boards[s.board as usize]
    }

    pub(super) fn fig_name(&self, f: &Figure) -> &str {
        &self.t.heroes[f.hero as usize].fighters[f.fighter as usize].figures[f.copy as usize]
    }

    pub(super) fn fig_style(f: &Figure) -> Style {
        if f.style_ranged { Style::Ranged } else { Style::Melee }
    }

    /// The state index of figure `id`, or the violation of `rule`.
    pub(super) fn figure(&self, s: &State, id: &str, rule: &'static str) -> Result<usize, Violation> {
        let key = self.t.figures.get(id).copied();
        key.and_then(|(h, f, c)| {
            s.figs()
                .iter()
                .position(|x| x.hero == h && x.fighter == f && x.copy == c)
        })
        .ok_or_else(|| {
            let known: Vec<&str> = s.figs().iter().map(|f| self.fig_name(f)).collect();
            v(rule, format!("there is no fighter `{id}` in this game"))
                .expected(format!("one of {}", known.join(", ")))
                .found(format!("`{id}`"))
        })
    }

    /// Card `id` of player `p`'s hero deck.
    pub(super) fn card(&self, s: &State, p: u8, id: &str, rule: &'static str) -> Result<u8, Violation> {
        let hero = self.hero(s, p);
        hero.card(id).ok_or_else(|| {
            v(
                rule,
                format!("`{id}` is not a card of {}'s deck ({})", s.name(p), hero.id),
            )
            .expected(format!("a card of {}", hero.id))
            .found(format!("`{id}`"))
        })
    }

    pub(super) fn in_hand(&self, s: &State, p: u8, c: u8, need: u8, rule: &'static str) -> Result<(), Violation> {
        let pl = &s.players[p as usize];
        if pl.hand.count(c as usize) >= need {
            return Ok(());
        }
        let id = &self.hero(s, p).cards[c as usize].id;
        Err(v(
            rule,
            format!(
                "{} has no{} `{id}` in hand",
                s.name(p),
                if need > 1 { " second" } else { "" }
            ),
        )
        .expected(format!("a card from {}'s hand: {}", s.name(p), self.hand_list(s, p)))
        .found(format!(
            "{} `{id}` in hand",
            plural(pl.hand.count(c as usize), "copy of", "copies of")
        )))
    }

    pub(super) fn hand_list(&self, s: &State, p: u8) -> String {
        let pl = &s.players[p as usize];
        let hero = self.hero(s, p);
        let mut parts = Vec::new();
        for (i, &k) in pl.hand.counts().iter().enumerate() {
            if k > 0 {
                parts.push(if k > 1 {
                    format!("{} ×{k}", hero.cards[i].id)
                } else {
                    hero.cards[i].id.clone()
                });
            }
        }
        parts.join(", ")
    }

    /// The first opponent after `p` in turn order (schemes' "opponent").
    pub(super) fn opponent(&self, s: &State, p: u8) -> u8 {
        (1..s.n)
            .map(|k| (p + k) % s.n)
            .find(|&q| s.team_of(q) != s.team_of(p))
            .unwrap_or((p + 1) % s.n)
    }

    pub(super) fn sinbad_bonus(&self, s: &State, p: u8) -> u8 {
        let hero = self.hero(s, p);
        if hero.ability != Ability::Voyages {
            return 0;
        }
        let pl = &s.players[p as usize];
        let n: u16 = hero
            .cards
            .iter()
            .enumerate()
            .filter(|(_, c)| c.kind == CardKind::Scheme)
            .map(|(i, _)| u16::from(pl.discard.count(i)))
            .sum();
        n.min(u16::from(u8::MAX)) as u8
    }

    pub(super) fn usable(hero: &Hero, c: u8, fighter: u8) -> bool {
        hero.cards[c as usize].fighter.is_none_or(|f| f == fighter)
    }

    pub(super) fn in_reach(&self, s: &State, a: &Figure, t: &Figure) -> bool {
        let b = self.board(s);
        match Self::fig_style(a) {
            Style::Melee => b.graph.adjacent(a.at, t.at),
            Style::Ranged => b.zones[a.at as usize] & b.zones[t.at as usize] != 0,
        }
    }

    pub(super) fn in_play(&self, s: &State, id: &str, rule: &'static str) -> Result<usize, Violation> {
        let f = self.figure(s, id, rule)?;
        if s.figs[f].at == OFF {
            return Err(
                v(rule::DEFEAT, format!("{id} has been defeated and left the battlefield"))
                    .expected("a fighter still in play")
                    .found(format!("{id} (defeated)")),
            );
        }
        Ok(f)
    }

    pub(super) fn winner_names(&self, s: &State, w: u8) -> String {
        let names: Vec<&str> = (0..s.n).filter(|p| w & (1 << p) != 0).map(|p| s.name(p)).collect();
        if names.is_empty() {
            "nobody".into()
        } else {
            names.join(" and ")
        }
    }
}
