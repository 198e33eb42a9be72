//! The Unmatched rules engine (rules UM-1 … UM-12 of GAMES.md).
//!
//! A turn is a block of steps: an optional start-of-turn gaze (Medusa), two
//! actions (`maneuver`, `scheme`, `attack`), the steps that belong to them
//! (`boost` and `move` after a maneuver, the defender's `defend` after an
//! attack), then hand-limit `discard`s. Card effects are free text: the log
//! records their outcome (`effect:` on a scheme, `effects:` on a defence) and
//! the engine checks what can be checked (cards drawn are in the deck, order
//! of resolution, fighters in play, free spaces). See docs/log-format/unmatched.md.

mod tables;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value as Json, json};

use super::{Ending, Engine, Violation};
use crate::model::Game;
use tables::{Ability, Board, CardKind, Hero, MAX_CARDS, MAX_FIGURES, MAX_PLAYERS, OFF, Style, Tables, Timing};

const SETUP: &str = "UM-1";
const ACTIONS: &str = "UM-2";
const HAND_LIMIT: &str = "UM-3";
const DRAW: &str = "UM-4";
const MOVE: &str = "UM-5";
const SCHEME: &str = "UM-6";
const ATTACK: &str = "UM-7";
const DEFENSE: &str = "UM-8";
const DAMAGE: &str = "UM-9";
const EFFECTS: &str = "UM-10";
const DEFEAT: &str = "UM-11";
const TEAMS: &str = "UM-12";

/// The Unmatched engine: the pack's heroes, cards and battlefields.
pub struct Unmatched {
    t: Tables,
}

// ---------------------------------------------------------------------------
// Log types

/// Alice's size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Size {
    Big,
    Small,
}

/// Who won a combat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Side {
    Attacker,
    Defender,
}

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

/// The recorded outcome of a card effect (free text the engine cannot
/// read): what changed. Every field is optional.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct Effect {
    /// In a combat: whose card's effect this is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card: Option<String>,
    /// Change to the card's own combat value (immediately / during combat).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<i8>,
    /// Alice's new size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<Size>,
    /// Cards the card's owner draws (from their deck).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub draw: Vec<String>,
    /// Cards the owner takes back from their discard pile.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub recover: Vec<String>,
    /// Cards the opponent discards from hand.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub discard: Vec<String>,
    /// Figure → health regained (never above its start).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub heal: BTreeMap<String, u8>,
    /// Figure → damage taken.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub damage: BTreeMap<String, u8>,
    /// Figure → the space it ends on.
    #[serde(default, rename = "move", skip_serializing_if = "BTreeMap::is_empty")]
    pub moves: BTreeMap<String, String>,
}

impl Effect {
    pub fn is_empty(&self) -> bool {
        *self == Effect::default()
    }
}

/// One step of a turn.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "do", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Action {
    /// Medusa's start-of-turn ability: 1 damage to an enemy in her zone.
    Gaze {
        target: String,
    },
    /// Action: draw the card named (none when the deck is empty: exhaustion).
    Maneuver {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        draw: Option<String>,
    },
    /// During a maneuver, before moving: discard a card for its boost.
    Boost {
        card: String,
    },
    /// During a maneuver: one figure goes to a space within its move.
    Move {
        fighter: String,
        to: String,
    },
    /// Action: play a scheme card; its outcome in `effect`.
    Scheme {
        card: String,
        #[serde(default, skip_serializing_if = "Effect::is_empty")]
        effect: Effect,
    },
    /// Action: `fighter` attacks `target` with `card` (King Arthur may add
    /// an `extra` face-down card for its boost).
    Attack {
        fighter: String,
        target: String,
        card: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        extra: Option<String>,
    },
    /// The defender's answer (`card` absent: no defence), then the combat's
    /// resolution: effect outcomes in order and, optionally, the damage and
    /// winner as the players worked them out.
    Defend {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        card: Option<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        effects: Vec<Effect>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        damage: Option<u8>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        winner: Option<Side>,
    },
    /// End of turn: discard one card to get down to the hand limit.
    Discard {
        card: String,
    },
    EndTurn,
}

// ---------------------------------------------------------------------------
// State

#[derive(Clone, Copy, Debug, Default)]
struct Player {
    hero: u8,
    team: u8,
    big: bool,
    deck: [u8; MAX_CARDS],
    hand: [u8; MAX_CARDS],
    discard: [u8; MAX_CARDS],
    deck_n: u16,
    hand_n: u16,
    discard_n: u16,
}

#[derive(Clone, Copy, Debug, Default)]
struct Figure {
    owner: u8,
    hero: u8,
    fighter: u8,
    copy: u8,
    is_hero: bool,
    style_ranged: bool,
    mv: u8,
    hp: u8,
    max: u8,
    /// Space index, `OFF` once defeated.
    at: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
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
struct CombatResult {
    attack: u8,
    defense: u8,
    damage: u8,
    attacker_won: bool,
}

/// The whole game.
#[derive(Clone, Debug)]
pub struct State {
    names: Arc<[String]>,
    board: u8,
    n: u8,
    teams: bool,
    players: [Player; MAX_PLAYERS],
    figs: [Figure; MAX_FIGURES],
    nfig: u8,
    /// Occupied spaces.
    occ: u64,
    to_move: u8,
    turn: u16,
    actions: u8,
    gazed: bool,
    phase: Phase,
    last: Option<CombatResult>,
    /// Winners as a player bit set, once the game is over.
    over: Option<u8>,
}

impl State {
    fn figs(&self) -> &[Figure] {
        &self.figs[..self.nfig as usize]
    }

    fn team_of(&self, p: u8) -> u8 {
        self.players[p as usize].team
    }

    fn name(&self, p: u8) -> &str {
        self.names.get(p as usize).map_or("?", String::as_str)
    }

    /// Spaces held by enemies of player `p`.
    fn enemy_mask(&self, p: u8) -> u64 {
        let team = self.team_of(p);
        self.figs()
            .iter()
            .filter(|f| f.at != OFF && self.team_of(f.owner) != team)
            .fold(0, |m, f| m | 1 << f.at)
    }
}

// ---------------------------------------------------------------------------
// Helpers

fn v(rule: &'static str, message: impl Into<String>) -> Violation {
    Violation::new(rule, message)
}

fn plural(n: impl Into<i64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

fn take(arr: &mut [u8; MAX_CARDS], n: &mut u16, c: u8) {
    arr[c as usize] -= 1;
    *n -= 1;
}

fn put(arr: &mut [u8; MAX_CARDS], n: &mut u16, c: u8) {
    arr[c as usize] += 1;
    *n += 1;
}

impl Unmatched {
    fn hero(&self, s: &State, p: u8) -> &Hero {
        &self.t.heroes[s.players[p as usize].hero as usize]
    }

    fn board(&self, s: &State) -> &Board {
        &self.t.boards[s.board as usize]
    }

    fn fig_name(&self, f: &Figure) -> &str {
        &self.t.heroes[f.hero as usize].fighters[f.fighter as usize].figures[f.copy as usize]
    }

    fn fig_style(f: &Figure) -> Style {
        if f.style_ranged { Style::Ranged } else { Style::Melee }
    }

    /// The state index of figure `id`, or the violation of `rule`.
    fn figure(&self, s: &State, id: &str, rule: &'static str) -> Result<usize, Violation> {
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
    fn card(&self, s: &State, p: u8, id: &str, rule: &'static str) -> Result<u8, Violation> {
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

    fn in_hand(&self, s: &State, p: u8, c: u8, need: u8, rule: &'static str) -> Result<(), Violation> {
        let pl = &s.players[p as usize];
        if pl.hand[c as usize] >= need {
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
            plural(pl.hand[c as usize], "copy of", "copies of")
        )))
    }

    fn hand_list(&self, s: &State, p: u8) -> String {
        let pl = &s.players[p as usize];
        let hero = self.hero(s, p);
        let mut parts = Vec::new();
        for (i, &k) in pl.hand.iter().enumerate() {
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

    fn no_combat(&self, s: &State) -> Result<(), Violation> {
        if let Phase::Combat { target, .. } = s.phase {
            let f = &s.figs[target as usize];
            return Err(v(
                DEFENSE,
                format!(
                    "{} must first answer the attack on {} (defend, with a card or without)",
                    s.name(f.owner),
                    self.fig_name(f)
                ),
            )
            .expected("a `defend` step")
            .found("another step"));
        }
        Ok(())
    }

    fn free_action(&self, s: &State, what: &str) -> Result<(), Violation> {
        let max = self.t.numbers.actions_per_turn;
        if s.actions >= max {
            return Err(v(
                ACTIONS,
                format!("{} has already taken {max} actions this turn", s.name(s.to_move)),
            )
            .expected(format!("exactly {max} actions per turn"))
            .found(format!("a {} action ({what})", ordinal(s.actions + 1))));
        }
        Ok(())
    }

    /// Removes a figure whose health reached 0, and ends the game when a
    /// side has lost all its heroes.
    fn hurt(&self, s: &mut State, f: usize, amount: u8) {
        let fig = &mut s.figs[f];
        if fig.at == OFF {
            return;
        }
        fig.hp = fig.hp.saturating_sub(amount);
        if fig.hp == 0 {
            s.occ &= !(1u64 << fig.at);
            fig.at = OFF;
            self.check_over(s);
        }
    }

    fn check_over(&self, s: &mut State) {
        if s.over.is_some() {
            return;
        }
        let mut lost = [false; 2];
        for (t, l) in lost.iter_mut().enumerate() {
            *l = s
                .figs()
                .iter()
                .filter(|f| f.is_hero && s.team_of(f.owner) == t as u8)
                .all(|f| f.at == OFF);
        }
        if lost[0] || lost[1] {
            let mut winners = 0u8;
            for p in 0..s.n {
                if !lost[s.team_of(p) as usize] {
                    winners |= 1 << p;
                }
            }
            s.over = Some(winners);
        }
    }

    fn next_turn(&self, s: &mut State) {
        let mut p = s.to_move;
        for _ in 0..s.n {
            p = (p + 1) % s.n;
            if s.figs().iter().any(|f| f.owner == p && f.at != OFF) {
                break;
            }
        }
        s.to_move = p;
        s.turn = s.turn.saturating_add(1);
        s.actions = 0;
        s.gazed = false;
        s.phase = Phase::Actions;
    }

    /// The first opponent after `p` in turn order (schemes' "opponent").
    fn opponent(&self, s: &State, p: u8) -> u8 {
        (1..s.n)
            .map(|k| (p + k) % s.n)
            .find(|&q| s.team_of(q) != s.team_of(p))
            .unwrap_or((p + 1) % s.n)
    }

    fn sinbad_bonus(&self, s: &State, p: u8) -> u8 {
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
            .map(|(i, _)| u16::from(pl.discard[i]))
            .sum();
        n.min(u16::from(u8::MAX)) as u8
    }

    fn usable(hero: &Hero, c: u8, fighter: u8) -> bool {
        hero.cards[c as usize].fighter.is_none_or(|f| f == fighter)
    }

    fn in_reach(&self, s: &State, a: &Figure, t: &Figure) -> bool {
        let b = self.board(s);
        match Self::fig_style(a) {
            Style::Melee => b.adjacent[a.at as usize] & (1u64 << t.at) != 0,
            Style::Ranged => b.zones[a.at as usize] & b.zones[t.at as usize] != 0,
        }
    }

    // -----------------------------------------------------------------------
    // One step: checks and changes together (validate runs it on a copy).

    fn step(&self, s: &mut State, a: &Action) -> Result<(), Violation> {
        if let Some(w) = s.over {
            return Err(v(DEFEAT, format!("the game is over ({} won)", self.winner_names(s, w)))
                .expected("no more steps")
                .found("a step after the end"));
        }
        let p = s.to_move;
        match a {
            Action::EndTurn => {
                self.no_combat(s)?;
                let max = self.t.numbers.actions_per_turn;
                if s.actions < max {
                    return Err(v(
                        ACTIONS,
                        format!(
                            "{} takes only {} this turn",
                            s.name(p),
                            plural(s.actions, "action", "actions")
                        ),
                    )
                    .expected(format!("exactly {max} actions (maneuver, scheme or attack)"))
                    .found(plural(s.actions, "action", "actions")));
                }
                let limit = self.t.numbers.hand_limit;
                let n = s.players[p as usize].hand_n;
                if n > limit {
                    return Err(v(HAND_LIMIT, format!("{} ends the turn holding {n} cards", s.name(p)))
                        .expected(format!("at most {limit} cards (discard {} first)", n - limit))
                        .found(plural(n, "card", "cards")));
                }
                self.next_turn(s);
            }
            Action::Gaze { target } => self.gaze(s, p, target)?,
            Action::Maneuver { draw } => self.maneuver(s, p, draw.as_deref())?,
            Action::Boost { card } => {
                let Phase::Maneuver { boost, boosted, moved } = s.phase else {
                    return Err(v(MOVE, "a boost card is discarded during a maneuver, before moving")
                        .expected("a maneuver just before")
                        .found(format!("boost with `{card}` outside a maneuver")));
                };
                if boosted || moved != 0 {
                    return Err(v(
                        MOVE,
                        if boosted {
                            "only one card may be discarded as a boost per maneuver"
                        } else {
                            "the boost card is discarded before any fighter moves"
                        },
                    )
                    .expected("at most 1 boost, before the first move")
                    .found(if boosted {
                        "a second boost"
                    } else {
                        "a boost after moving"
                    }));
                }
                let c = self.card(s, p, card, MOVE)?;
                self.in_hand(s, p, c, 1, MOVE)?;
                let value = self.hero(s, p).cards[c as usize].boost;
                let pl = &mut s.players[p as usize];
                take(&mut pl.hand, &mut pl.hand_n, c);
                put(&mut pl.discard, &mut pl.discard_n, c);
                s.phase = Phase::Maneuver {
                    boost: boost.saturating_add(value),
                    boosted: true,
                    moved,
                };
            }
            Action::Move { fighter, to } => self.movement(s, p, fighter, to)?,
            Action::Scheme { card, effect } => self.scheme(s, p, card, effect)?,
            Action::Attack {
                fighter,
                target,
                card,
                extra,
            } => self.attack(s, p, fighter, target, card, extra.as_deref())?,
            Action::Defend {
                card,
                effects,
                damage,
                winner,
            } => self.defend(s, card.as_deref(), effects, *damage, *winner)?,
            Action::Discard { card } => {
                self.no_combat(s)?;
                let max = self.t.numbers.actions_per_turn;
                let limit = self.t.numbers.hand_limit;
                let n = s.players[p as usize].hand_n;
                if s.actions < max {
                    return Err(v(
                        HAND_LIMIT,
                        format!("{} discards for the hand limit before taking both actions", s.name(p)),
                    )
                    .expected(format!(
                        "hand-limit discards after the {max} actions, at the end of the turn"
                    ))
                    .found(format!("a discard after {}", plural(s.actions, "action", "actions"))));
                }
                if n <= limit {
                    return Err(v(
                        HAND_LIMIT,
                        format!("{} discards down to the hand limit with only {n} cards", s.name(p)),
                    )
                    .expected(format!("discards only while holding more than {limit} cards"))
                    .found(format!("a discard with {}", plural(n, "card", "cards"))));
                }
                let c = self.card(s, p, card, HAND_LIMIT)?;
                self.in_hand(s, p, c, 1, HAND_LIMIT)?;
                let pl = &mut s.players[p as usize];
                take(&mut pl.hand, &mut pl.hand_n, c);
                put(&mut pl.discard, &mut pl.discard_n, c);
                s.phase = Phase::Actions;
            }
        }
        Ok(())
    }

    fn gaze(&self, s: &mut State, p: u8, target: &str) -> Result<(), Violation> {
        let hero = self.hero(s, p);
        if hero.ability != Ability::Gaze {
            return Err(v(
                ACTIONS,
                format!("{} plays {}, who has no start-of-turn gaze", s.name(p), hero.id),
            )
            .expected("a maneuver, scheme or attack")
            .found("a gaze"));
        }
        if s.actions > 0 || s.gazed || s.phase != Phase::Actions {
            return Err(v(
                ACTIONS,
                "Medusa's gaze comes once, at the start of the turn, before the first action",
            )
            .expected("the gaze before the first action")
            .found(if s.gazed {
                "a second gaze".to_string()
            } else {
                format!("a gaze after {}", plural(s.actions, "action", "actions"))
            }));
        }
        let Some(m) = s.figs().iter().position(|f| f.owner == p && f.is_hero && f.at != OFF) else {
            return Err(v(ACTIONS, "Medusa is defeated and can no longer use her gaze")
                .expected("Medusa in play")
                .found("Medusa defeated"));
        };
        let t = self.figure(s, target, ACTIONS)?;
        self.check_target(s, p, t, ACTIONS)?;
        let b = self.board(s);
        let (ms, ts) = (s.figs[m].at, s.figs[t].at);
        if b.zones[ms as usize] & b.zones[ts as usize] == 0 {
            return Err(v(ACTIONS, format!("{target} is not in Medusa's zone"))
                .expected(format!(
                    "an enemy on a {} space (Medusa is on {})",
                    b.zone_list(ms),
                    b.name(ms)
                ))
                .found(format!("{target} on {} ({})", b.name(ts), b.zone_list(ts))));
        }
        s.gazed = true;
        self.hurt(s, t, 1);
        Ok(())
    }

    /// `t` must be an enemy figure of `p` still in play.
    fn check_target(&self, s: &State, p: u8, t: usize, rule: &'static str) -> Result<(), Violation> {
        let f = &s.figs[t];
        let name = self.fig_name(f);
        if f.at == OFF {
            return Err(v(DEFEAT, format!("{name} has been defeated and left the battlefield"))
                .expected("a fighter still in play")
                .found(format!("{name} (defeated)")));
        }
        if f.owner == p {
            return Err(v(rule, format!("{name} is one of {}'s own fighters", s.name(p)))
                .expected("an enemy fighter")
                .found(format!("{name}, {}'s own", s.name(p))));
        }
        if s.team_of(f.owner) == s.team_of(p) {
            return Err(v(
                TEAMS,
                format!("{name} belongs to {}, {}'s teammate", s.name(f.owner), s.name(p)),
            )
            .expected("an enemy fighter (allies are never targets)")
            .found(format!("{name}, an ally")));
        }
        Ok(())
    }

    /// `f` must be a figure of `p` still in play.
    fn check_own(&self, s: &State, p: u8, f: usize, what: &str) -> Result<(), Violation> {
        let fig = &s.figs[f];
        let name = self.fig_name(fig);
        if fig.owner != p {
            return Err(v(
                TEAMS,
                format!(
                    "{} cannot {what} {name}: it is {}'s fighter",
                    s.name(p),
                    s.name(fig.owner)
                ),
            )
            .expected(format!("one of {}'s own fighters", s.name(p)))
            .found(format!("{name} ({}'s)", s.name(fig.owner))));
        }
        if fig.at == OFF {
            return Err(v(DEFEAT, format!("{name} has been defeated and left the battlefield"))
                .expected("a fighter still in play")
                .found(format!("{name} (defeated)")));
        }
        Ok(())
    }

    fn maneuver(&self, s: &mut State, p: u8, draw: Option<&str>) -> Result<(), Violation> {
        self.no_combat(s)?;
        self.free_action(s, "maneuver")?;
        let pl = s.players[p as usize];
        if pl.deck_n == 0 {
            if let Some(d) = draw {
                return Err(v(DRAW, format!("{}'s deck is empty: nothing can be drawn", s.name(p)))
                    .expected(format!(
                        "no draw (exhaustion: each of {}'s fighters loses {} health)",
                        s.name(p),
                        self.t.numbers.exhaustion_loss
                    ))
                    .found(format!("a draw of `{d}`")));
            }
            let loss = self.t.numbers.exhaustion_loss;
            for f in 0..s.nfig as usize {
                if s.figs[f].owner == p {
                    self.hurt(s, f, loss);
                }
            }
        } else {
            let Some(d) = draw else {
                return Err(v(DRAW, format!("{} maneuvers without drawing", s.name(p)))
                    .expected(format!(
                        "a draw (the deck holds {})",
                        plural(pl.deck_n, "card", "cards")
                    ))
                    .found("no `draw`"));
            };
            let c = self.card(s, p, d, DRAW)?;
            if pl.deck[c as usize] == 0 {
                return Err(v(DRAW, format!("no copy of `{d}` is left in {}'s deck", s.name(p)))
                    .expected(format!(
                        "one of the {} left in the deck",
                        plural(pl.deck_n, "card", "cards")
                    ))
                    .found(format!("`{d}` (every copy already drawn)")));
            }
            let pl = &mut s.players[p as usize];
            take(&mut pl.deck, &mut pl.deck_n, c);
            put(&mut pl.hand, &mut pl.hand_n, c);
        }
        s.actions += 1;
        s.phase = Phase::Maneuver {
            boost: 0,
            boosted: false,
            moved: 0,
        };
        Ok(())
    }

    fn movement(&self, s: &mut State, p: u8, fighter: &str, to: &str) -> Result<(), Violation> {
        let Phase::Maneuver { boost, boosted, moved } = s.phase else {
            return Err(v(MOVE, format!("{fighter} moves outside a maneuver"))
                .expected("moves right after a maneuver's draw (and boost)")
                .found(format!("a move of {fighter}")));
        };
        let f = self.figure(s, fighter, MOVE)?;
        self.check_own(s, p, f, "move")?;
        if moved & (1 << f) != 0 {
            return Err(v(MOVE, format!("{fighter} has already moved in this maneuver"))
                .expected("each fighter moves once per maneuver, one after another")
                .found(format!("a second move of {fighter}")));
        }
        let b = self.board(s);
        let Some(dest) = b.space(to) else {
            return Err(v(MOVE, format!("`{to}` is not a space of {}", b.id))
                .expected(format!(
                    "a space of {} ({} … {})",
                    b.id,
                    b.spaces[0],
                    b.spaces[b.spaces.len() - 1]
                ))
                .found(format!("`{to}`")));
        };
        let from = s.figs[f].at;
        if dest == from {
            return Err(v(MOVE, format!("{fighter} is already on {to}"))
                .expected("a move to another space (or no move at all)")
                .found(format!("{to} → {to}")));
        }
        if s.occ & (1u64 << dest) != 0 {
            let who = s.figs().iter().find(|x| x.at == dest).map_or("?", |x| self.fig_name(x));
            return Err(v(MOVE, format!("{fighter} would end on {to}, which {who} occupies"))
                .expected("an empty space to stop on")
                .found(format!("{to}, held by {who}")));
        }
        let budget = s.figs[f]
            .mv
            .saturating_add(boost)
            .saturating_add(self.sinbad_bonus(s, p));
        let passable = !s.enemy_mask(p);
        match b.distance(from, dest, passable) {
            None => Err(
                v(MOVE, format!("{fighter} cannot reach {to} without crossing an enemy"))
                    .expected("a path through empty or allied spaces")
                    .found(format!("{} → {to}: every path crosses an enemy", b.name(from))),
            ),
            Some(d) if d > budget => Err(v(
                MOVE,
                format!(
                    "{fighter} needs {} to reach {to} from {}",
                    plural(d, "step", "steps"),
                    b.name(from)
                ),
            )
            .expected(format!(
                "at most {budget} (move {}{}{})",
                s.figs[f].mv,
                if boosted {
                    format!(" + boost {boost}")
                } else {
                    String::new()
                },
                match self.sinbad_bonus(s, p) {
                    0 => String::new(),
                    k => format!(" + {k} voyages"),
                }
            ))
            .found(plural(d, "step", "steps"))),
            Some(_) => {
                s.occ = (s.occ & !(1u64 << from)) | 1u64 << dest;
                s.figs[f].at = dest;
                s.phase = Phase::Maneuver {
                    boost,
                    boosted,
                    moved: moved | 1 << f,
                };
                Ok(())
            }
        }
    }

    fn scheme(&self, s: &mut State, p: u8, card: &str, effect: &Effect) -> Result<(), Violation> {
        self.no_combat(s)?;
        self.free_action(s, "scheme")?;
        let c = self.card(s, p, card, SCHEME)?;
        let hero = self.hero(s, p);
        let def = &hero.cards[c as usize];
        if def.kind != CardKind::Scheme {
            return Err(v(SCHEME, format!("`{card}` is not a scheme card"))
                .expected("a scheme card")
                .found(format!("`{card}`, {}", def.kind.name())));
        }
        self.in_hand(s, p, c, 1, SCHEME)?;
        let able = s
            .figs()
            .iter()
            .any(|f| f.owner == p && f.at != OFF && def.fighter.is_none_or(|x| x == f.fighter));
        if !able {
            return Err(v(
                SCHEME,
                format!("no fighter of {} that may play `{card}` is in play", s.name(p)),
            )
            .expected(format!("{} in play", hero.user(def)))
            .found(format!("{} defeated", hero.user(def))));
        }
        if effect.card.as_deref().is_some_and(|x| x != card) || effect.value.is_some() {
            return Err(v(SCHEME, "a scheme's effect is its own and has no combat value")
                .expected(format!("an outcome of `{card}` without `card` or `value`"))
                .found(format!("{effect:?}")));
        }
        let pl = &mut s.players[p as usize];
        take(&mut pl.hand, &mut pl.hand_n, c);
        s.actions += 1;
        s.phase = Phase::Actions;
        let opp = self.opponent(s, p);
        self.effect(s, effect, p, opp, SCHEME)?;
        let pl = &mut s.players[p as usize];
        put(&mut pl.discard, &mut pl.discard_n, c);
        Ok(())
    }

    fn attack(
        &self,
        s: &mut State,
        p: u8,
        fighter: &str,
        target: &str,
        card: &str,
        extra: Option<&str>,
    ) -> Result<(), Violation> {
        self.no_combat(s)?;
        self.free_action(s, "attack")?;
        let a = self.figure(s, fighter, ATTACK)?;
        self.check_own(s, p, a, "attack with")?;
        let t = self.figure(s, target, ATTACK)?;
        self.check_target(s, p, t, ATTACK)?;
        let c = self.card(s, p, card, ATTACK)?;
        let hero = self.hero(s, p);
        let def = &hero.cards[c as usize];
        if !matches!(def.kind, CardKind::Attack | CardKind::Versatile) {
            return Err(v(ATTACK, format!("`{card}` cannot attack"))
                .expected("an attack or versatile card")
                .found(format!("`{card}`, {}", def.kind.name())));
        }
        self.in_hand(s, p, c, 1, ATTACK)?;
        let (af, tf) = (s.figs[a], s.figs[t]);
        if !Self::usable(hero, c, af.fighter) {
            return Err(v(
                ATTACK,
                format!("`{card}` is {}'s card; {fighter} cannot use it", hero.user(def)),
            )
            .expected(format!("a card for {fighter} or for any fighter"))
            .found(format!("`{card}` ({} only)", hero.user(def))));
        }
        if !self.in_reach(s, &af, &tf) {
            let b = self.board(s);
            return Err(match Self::fig_style(&af) {
                Style::Melee => v(
                    ATTACK,
                    format!("{fighter} fights in melee but {target} is not adjacent"),
                )
                .expected(format!("an enemy on a space adjacent to {}", b.name(af.at)))
                .found(format!("{target} on {}", b.name(tf.at))),
                Style::Ranged => v(
                    ATTACK,
                    format!("{fighter} attacks at range but shares no zone with {target}"),
                )
                .expected(format!(
                    "an enemy on a {} space ({fighter} is on {})",
                    b.zone_list(af.at),
                    b.name(af.at)
                ))
                .found(format!("{target} on {} ({})", b.name(tf.at), b.zone_list(tf.at))),
            });
        }
        let mut x = OFF;
        if let Some(e) = extra {
            if hero.ability != Ability::ExtraCard || !af.is_hero {
                return Err(
                    v(ATTACK, "only King Arthur himself may add a second card to his attack")
                        .expected("one attack card")
                        .found(format!("an extra card `{e}` for {fighter}")),
                );
            }
            x = self.card(s, p, e, ATTACK)?;
            self.in_hand(s, p, x, if x == c { 2 } else { 1 }, ATTACK)?;
        }
        let pl = &mut s.players[p as usize];
        take(&mut pl.hand, &mut pl.hand_n, c);
        if x != OFF {
            take(&mut pl.hand, &mut pl.hand_n, x);
        }
        s.actions += 1;
        s.phase = Phase::Combat {
            attacker: a as u8,
            target: t as u8,
            card: c,
            extra: x,
        };
        Ok(())
    }

    fn defend(
        &self,
        s: &mut State,
        card: Option<&str>,
        effects: &[Effect],
        damage: Option<u8>,
        winner: Option<Side>,
    ) -> Result<(), Violation> {
        let Phase::Combat {
            attacker,
            target,
            card: ac,
            extra,
        } = s.phase
        else {
            return Err(v(DEFENSE, "there is no attack to defend against")
                .expected("a defence only right after an attack")
                .found("a `defend` step"));
        };
        let ap = s.to_move;
        let (af, tf) = (s.figs[attacker as usize], s.figs[target as usize]);
        let dp = tf.owner;
        let ahero = self.hero(s, ap);
        let dhero = self.hero(s, dp);
        let tname = self.fig_name(&tf);
        let mut dc = OFF;
        if let Some(id) = card {
            dc = self.card(s, dp, id, DEFENSE)?;
            let def = &dhero.cards[dc as usize];
            if !matches!(def.kind, CardKind::Defense | CardKind::Versatile) {
                return Err(v(DEFENSE, format!("`{id}` cannot defend"))
                    .expected("a defense or versatile card")
                    .found(format!("`{id}`, {}", def.kind.name())));
            }
            self.in_hand(s, dp, dc, 1, DEFENSE)?;
            if !Self::usable(dhero, dc, tf.fighter) {
                return Err(v(
                    DEFENSE,
                    format!("`{id}` is {}'s card; {tname} cannot use it", dhero.user(def)),
                )
                .expected(format!("a card for {tname} or for any fighter"))
                .found(format!("`{id}` ({} only)", dhero.user(def))));
            }
            let pl = &mut s.players[dp as usize];
            take(&mut pl.hand, &mut pl.hand_n, dc);
        }
        let acard = &ahero.cards[ac as usize];
        let mut change = [0i16; 2]; // [defense, attack]
        let mut done = false;
        let mut prev: Option<(Timing, u8, &str)> = None;
        for e in effects {
            let Some(id) = e.card.as_deref() else {
                return Err(v(EFFECTS, "a combat effect must name the card it comes from")
                    .expected(format!("`card: {}` or the defence card", acard.id))
                    .found("an effect without `card`"));
            };
            let (side, owner, other, hero, c) = if id == acard.id {
                (1u8, ap, dp, ahero, ac)
            } else if dc != OFF && id == dhero.cards[dc as usize].id {
                (0u8, dp, ap, dhero, dc)
            } else {
                let found = if extra != OFF && ahero.cards[extra as usize].id == id {
                    format!("`{id}`, King Arthur's extra card, which only adds its boost")
                } else {
                    format!("`{id}`")
                };
                return Err(v(
                    EFFECTS,
                    format!("`{id}` is not one of the cards revealed in this combat"),
                )
                .expected(match dc {
                    OFF => format!("`{}`", acard.id),
                    _ => format!("`{}` or `{}`", dhero.cards[dc as usize].id, acard.id),
                })
                .found(found));
            };
            let Some(timing) = hero.cards[c as usize].timing.filter(|t| *t != Timing::NotInCombat) else {
                return Err(v(EFFECTS, format!("`{id}` has no combat effect to resolve"))
                    .expected("outcomes only for cards with an effect")
                    .found(format!("an outcome for `{id}`")));
            };
            let key = (timing, side);
            if let Some((pt, ps, pid)) = prev
                && key <= (pt, ps)
            {
                let who = |s: u8| if s == 0 { "defender" } else { "attacker" };
                return Err(v(
                    EFFECTS,
                    if key == (pt, ps) {
                        format!("`{id}` resolves twice")
                    } else {
                        format!(
                            "`{id}` ({}, {}) is listed after `{pid}` ({}, {})",
                            who(side),
                            timing.name(),
                            who(ps),
                            pt.name()
                        )
                    },
                )
                .expected(
                    "immediately, then during combat, then after combat; within each timing the defender's card first",
                )
                .found(if key == (pt, ps) {
                    format!("two outcomes for `{id}`")
                } else {
                    format!("`{pid}` ({}) before `{id}` ({})", pt.name(), timing.name())
                }));
            }
            prev = Some((timing, side, id));
            if timing == Timing::AfterCombat && !done {
                self.deal(s, (af, tf, attacker, target), (ac, dc, extra), change, damage, winner)?;
                done = true;
            }
            if let Some(w) = s.over {
                return Err(v(
                    DEFEAT,
                    format!(
                        "the game ended when a hero fell ({} won); `{id}` no longer resolves",
                        self.winner_names(s, w)
                    ),
                )
                .expected("nothing more after the last hero falls")
                .found(format!("an outcome for `{id}`")));
            }
            if let Some(dv) = e.value {
                if timing == Timing::AfterCombat {
                    return Err(v(
                        EFFECTS,
                        format!("`{id}` resolves after combat, when damage is already dealt"),
                    )
                    .expected("value changes only from immediately or during-combat effects")
                    .found(format!("value {dv:+} from an after-combat effect")));
                }
                change[side as usize] += i16::from(dv);
            }
            self.effect(s, e, owner, other, EFFECTS)?;
        }
        if !done {
            self.deal(s, (af, tf, attacker, target), (ac, dc, extra), change, damage, winner)?;
        }
        let pa = &mut s.players[ap as usize];
        put(&mut pa.discard, &mut pa.discard_n, ac);
        if extra != OFF {
            put(&mut pa.discard, &mut pa.discard_n, extra);
        }
        if dc != OFF {
            let pd = &mut s.players[dp as usize];
            put(&mut pd.discard, &mut pd.discard_n, dc);
        }
        s.phase = Phase::Actions;
        Ok(())
    }

    /// Works out and deals combat damage (UM-9), checking the log's claims.
    fn deal(
        &self,
        s: &mut State,
        (af, tf, _a, t): (Figure, Figure, u8, u8),
        (ac, dc, extra): (u8, u8, u8),
        change: [i16; 2],
        claim: Option<u8>,
        winner: Option<Side>,
    ) -> Result<(), Violation> {
        let ap = af.owner;
        let dp = tf.owner;
        let ahero = self.hero(s, ap);
        let dhero = self.hero(s, dp);
        let mut parts = Vec::new();
        let base = i16::from(ahero.cards[ac as usize].value);
        let mut attack = (base + change[1]).max(0);
        parts.push(format!("{} {}", ahero.cards[ac as usize].id, base));
        if change[1] != 0 {
            parts.push(format!("effect {:+}", change[1]));
        }
        if extra != OFF {
            let b = i16::from(ahero.cards[extra as usize].boost);
            attack += b;
            parts.push(format!("extra {} boost {b}", ahero.cards[extra as usize].id));
        }
        if ahero.ability == Ability::Size && af.is_hero && s.players[ap as usize].big {
            attack += 2;
            parts.push("BIG +2".into());
        }
        let mut dparts = Vec::new();
        let mut defense = 0i16;
        if dc != OFF {
            let base = i16::from(dhero.cards[dc as usize].value);
            defense = (base + change[0]).max(0);
            dparts.push(format!("{} {}", dhero.cards[dc as usize].id, base));
            if change[0] != 0 {
                dparts.push(format!("effect {:+}", change[0]));
            }
            if dhero.ability == Ability::Size && tf.is_hero && !s.players[dp as usize].big {
                defense += 1;
                dparts.push("SMALL +1".into());
            }
        } else {
            dparts.push("no defence 0".into());
        }
        let (attack, defense) = (attack.min(255), defense.min(255));
        let dmg = (attack - defense).max(0) as u8;
        let attacker_won = dmg > 0;
        let sum = format!(
            "attack {attack} ({}) − defense {defense} ({}) = {dmg}",
            parts.join(" + "),
            dparts.join(" + ")
        );
        if let Some(c) = claim
            && c != dmg
        {
            return Err(v(DAMAGE, format!("the log records {c} damage, but {sum}"))
                .expected(format!("{dmg} damage (attack − defense, never below 0)"))
                .found(format!("{c} damage")));
        }
        if let Some(w) = winner {
            let real = if attacker_won { Side::Attacker } else { Side::Defender };
            if w != real {
                return Err(v(
                    DAMAGE,
                    format!(
                        "{sum}: the {} wins the combat",
                        if attacker_won { "attacker" } else { "defender" }
                    ),
                )
                .expected(format!(
                    "winner: {} (the defender wins ties and full blocks)",
                    if attacker_won { "attacker" } else { "defender" }
                ))
                .found(format!(
                    "winner: {}",
                    if w == Side::Attacker { "attacker" } else { "defender" }
                )));
            }
        }
        s.last = Some(CombatResult {
            attack: attack as u8,
            defense: defense as u8,
            damage: dmg,
            attacker_won,
        });
        self.hurt(s, t as usize, dmg);
        Ok(())
    }

    /// Applies a recorded effect outcome of a card owned by `p`.
    fn effect(&self, s: &mut State, e: &Effect, p: u8, opp: u8, rule: &'static str) -> Result<(), Violation> {
        if let Some(size) = e.size {
            if self.hero(s, p).ability != Ability::Size {
                return Err(v(rule, "only Alice changes size")
                    .expected("no `size` outside Alice's cards")
                    .found(format!("size change for {}", self.hero(s, p).id)));
            }
            s.players[p as usize].big = size == Size::Big;
        }
        for d in &e.draw {
            let c = self.card(s, p, d, DRAW)?;
            let pl = s.players[p as usize];
            if pl.deck[c as usize] == 0 {
                return Err(v(DRAW, format!("no copy of `{d}` is left in {}'s deck", s.name(p)))
                    .expected(format!(
                        "one of the {} left in the deck",
                        plural(pl.deck_n, "card", "cards")
                    ))
                    .found(format!("a draw of `{d}`")));
            }
            let pl = &mut s.players[p as usize];
            take(&mut pl.deck, &mut pl.deck_n, c);
            put(&mut pl.hand, &mut pl.hand_n, c);
        }
        for r in &e.recover {
            let c = self.card(s, p, r, rule)?;
            if s.players[p as usize].discard[c as usize] == 0 {
                return Err(v(rule, format!("`{r}` is not in {}'s discard pile", s.name(p)))
                    .expected("a card from the discard pile")
                    .found(format!("`{r}`")));
            }
            let pl = &mut s.players[p as usize];
            take(&mut pl.discard, &mut pl.discard_n, c);
            put(&mut pl.hand, &mut pl.hand_n, c);
        }
        for d in &e.discard {
            let c = self.card(s, opp, d, rule)?;
            self.in_hand(s, opp, c, 1, rule)?;
            let pl = &mut s.players[opp as usize];
            take(&mut pl.hand, &mut pl.hand_n, c);
            put(&mut pl.discard, &mut pl.discard_n, c);
        }
        for (id, &n) in &e.heal {
            let f = self.in_play(s, id, rule)?;
            let fig = &mut s.figs[f];
            fig.hp = fig.hp.saturating_add(n).min(fig.max);
        }
        for (id, &n) in &e.damage {
            let f = self.in_play(s, id, rule)?;
            self.hurt(s, f, n);
        }
        for (id, to) in &e.moves {
            let f = self.in_play(s, id, rule)?;
            let b = self.board(s);
            let Some(dest) = b.space(to) else {
                return Err(v(rule, format!("`{to}` is not a space of {}", b.id))
                    .expected("a space of the battlefield")
                    .found(format!("`{to}`")));
            };
            let from = s.figs[f].at;
            if dest != from && s.occ & (1u64 << dest) != 0 {
                let who = s.figs().iter().find(|x| x.at == dest).map_or("?", |x| self.fig_name(x));
                return Err(v(MOVE, format!("{id} would end on {to}, which {who} occupies"))
                    .expected("an empty space to stop on")
                    .found(format!("{to}, held by {who}")));
            }
            s.occ = (s.occ & !(1u64 << from)) | 1u64 << dest;
            s.figs[f].at = dest;
        }
        Ok(())
    }

    fn in_play(&self, s: &State, id: &str, rule: &'static str) -> Result<usize, Violation> {
        let f = self.figure(s, id, rule)?;
        if s.figs[f].at == OFF {
            return Err(v(DEFEAT, format!("{id} has been defeated and left the battlefield"))
                .expected("a fighter still in play")
                .found(format!("{id} (defeated)")));
        }
        Ok(f)
    }

    fn winner_names(&self, s: &State, w: u8) -> String {
        let names: Vec<&str> = (0..s.n).filter(|p| w & (1 << p) != 0).map(|p| s.name(p)).collect();
        if names.is_empty() {
            "nobody".into()
        } else {
            names.join(" and ")
        }
    }

    // -----------------------------------------------------------------------
    // Setup

    fn setup(&self, setup: &Setup) -> Result<State, Violation> {
        let n = setup.players.len();
        let teams = n == 4;
        if n != 2 && n != 4 {
            return Err(v(SETUP, "Unmatched is played as a duel or as two teams of two")
                .expected("2 players (duel) or 4 (team play)")
                .found(plural(n as i64, "player", "players")));
        }
        if let Some(m) = setup.mode
            && (m == Mode::Team) != teams
        {
            return Err(v(
                if teams { TEAMS } else { SETUP },
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
            return Err(v(SETUP, format!("there is no battlefield `{}`", setup.battlefield))
                .expected(format!("one of {}", ids.join(", ")))
                .found(format!("`{}`", setup.battlefield)));
        };
        let b = &self.t.boards[bi];
        if teams && b.start_count < 4 {
            return Err(v(TEAMS, format!("{} has only {} start spaces", b.id, b.start_count))
                .expected("the board side with 4 start spaces for team play")
                .found(format!("{} ({} start spaces)", b.id, b.start_count)));
        }
        if (b.start_count as usize) < n {
            return Err(v(SETUP, format!("{} has only {} start spaces", b.id, b.start_count))
                .expected(format!("{n} start spaces"))
                .found(b.start_count.to_string()));
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
                return Err(v(SETUP, format!("{} picks an unknown hero `{}`", ps.name, ps.hero))
                    .expected(format!("one of {}", ids.join(", ")))
                    .found(format!("`{}`", ps.hero)));
            };
            if let Some(q) = setup.players[..i].iter().find(|q| q.hero == ps.hero) {
                return Err(v(SETUP, format!("{} and {} both pick {}", q.name, ps.name, ps.hero))
                    .expected("a different hero for each player")
                    .found(format!("{} twice", ps.hero)));
            }
            let hero = &self.t.heroes[hi];
            if teams {
                let want = order[i];
                if ps.team.as_deref() != Some(want) {
                    return Err(v(
                        TEAMS,
                        format!("{} is seat {} of the turn order A1, B1, A2, B2", ps.name, i + 1),
                    )
                    .expected(format!("team {want} in seat {}", i + 1))
                    .found(ps.team.as_deref().map_or("no team".into(), |t| format!("team {t}"))));
                }
            }
            let pl = &mut s.players[i];
            pl.hero = hi as u8;
            pl.team = if teams { (i % 2) as u8 } else { p };
            match (hero.ability, ps.size) {
                (Ability::Size, Some(sz)) => pl.big = sz == Size::Big,
                (Ability::Size, None) => {
                    return Err(v(SETUP, format!("{} must choose Alice's starting size", ps.name))
                        .expected("size: big or size: small")
                        .found("no `size`"));
                }
                (_, Some(_)) => {
                    return Err(v(SETUP, format!("{} is not Alice and has no size", ps.hero))
                        .expected("no `size`")
                        .found("a `size`"));
                }
                (_, None) => {}
            }
            // Deck, then the opening hand drawn from it.
            match &ps.deck {
                None => pl.deck = hero.deck,
                Some(map) => {
                    for (id, &k) in map {
                        let Some(c) = hero.card(id) else {
                            return Err(v(
                                SETUP,
                                format!("`{id}` in {}'s deck is not a card of {}", ps.name, hero.id),
                            )
                            .expected(format!("cards of {}", hero.id))
                            .found(format!("`{id}`")));
                        };
                        pl.deck[c as usize] = u8::try_from(k).map_err(|_| {
                            v(SETUP, format!("{} copies of `{id}`", k))
                                .expected("a real deck")
                                .found(k.to_string())
                        })?;
                    }
                }
            }
            pl.deck_n = pl.deck.iter().map(|&k| u16::from(k)).sum();
            let want = self.t.numbers.opening_hand;
            if ps.hand.len() != want as usize {
                return Err(
                    v(SETUP, format!("{}'s opening hand has {} cards", ps.name, ps.hand.len()))
                        .expected(format!("{want} cards drawn at setup"))
                        .found(plural(ps.hand.len() as i64, "card", "cards")),
                );
            }
            for id in &ps.hand {
                let Some(c) = hero.card(id) else {
                    return Err(v(
                        SETUP,
                        format!("`{id}` in {}'s hand is not a card of {}", ps.name, hero.id),
                    )
                    .expected(format!("cards of {}", hero.id))
                    .found(format!("`{id}`")));
                };
                if pl.deck[c as usize] == 0 {
                    return Err(v(
                        SETUP,
                        format!("{}'s opening hand holds more `{id}` than the deck", ps.name),
                    )
                    .expected("cards drawn from the player's own deck")
                    .found(format!("another `{id}`")));
                }
                take(&mut pl.deck, &mut pl.deck_n, c);
                put(&mut pl.hand, &mut pl.hand_n, c);
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
                            return Err(v(SETUP, format!("{} does not place {fid}", ps.name))
                                .expected(format!("`sidekicks: {{{fid}: space}}` in zone {}", b.zone_list(start)))
                                .found("no space for it"));
                        };
                        let Some(at) = b.space(sp) else {
                            return Err(v(SETUP, format!("`{sp}` is not a space of {}", b.id))
                                .expected("a space of the battlefield")
                                .found(format!("`{sp}`")));
                        };
                        if zone & (1u64 << at) == 0 {
                            return Err(v(SETUP, format!("{fid} starts outside its hero's zone"))
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
                        return Err(v(SETUP, format!("{fid} would start on {}, which is taken", b.name(at)))
                            .expected("one figure per space")
                            .found(format!("{} already occupied", b.name(at))));
                    }
                    s.occ |= 1u64 << at;
                    if s.nfig as usize == MAX_FIGURES {
                        return Err(v(SETUP, "too many figures").expected("at most 16").found("more"));
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
                return Err(v(SETUP, format!("`{extra}` is not a sidekick of {}", hero.id))
                    .expected(format!("sidekicks of {}: {}", hero.id, own.join(", ")))
                    .found(format!("`{extra}`")));
            }
        }
        Ok(s)
    }
}

fn cards_in(pl: &Player) -> impl Iterator<Item = u8> + '_ {
    (0..MAX_CARDS as u8).filter(move |&c| pl.hand[c as usize] > 0)
}

fn ordinal(n: u8) -> &'static str {
    match n {
        1 => "first",
        2 => "second",
        3 => "third",
        4 => "fourth",
        _ => "further",
    }
}

// ---------------------------------------------------------------------------

impl Engine for Unmatched {
    const GAME: &'static str = "unmatched";
    const TURN_RULE: &'static str = TEAMS;
    type State = State;
    type Action = Action;
    type Setup = Setup;

    fn new(game: &Game) -> Result<Self, String> {
        Ok(Unmatched { t: Tables::read(game)? })
    }

    fn start(&self, setup: &Setup) -> Result<State, Violation> {
        self.setup(setup)
    }

    fn to_move(&self, s: &State) -> usize {
        s.to_move as usize
    }

    fn end_turn(&self) -> Action {
        Action::EndTurn
    }

    fn validate(&self, s: &State, a: &Action) -> Result<(), Violation> {
        let mut scratch = s.clone();
        self.step(&mut scratch, a)
    }

    fn apply(&self, mut s: State, a: &Action) -> State {
        let r = self.step(&mut s, a);
        debug_assert!(r.is_ok(), "apply of an invalid action: {r:?}");
        s
    }

    fn legal_actions(&self, s: &State) -> Vec<Action> {
        let mut out = Vec::new();
        if s.over.is_some() {
            return out;
        }
        let p = s.to_move;
        let hero = self.hero(s, p);
        let pl = &s.players[p as usize];
        if let Phase::Combat { target, .. } = s.phase {
            let tf = s.figs[target as usize];
            let dp = tf.owner;
            let dhero = self.hero(s, dp);
            out.push(Action::Defend {
                card: None,
                effects: Vec::new(),
                damage: None,
                winner: None,
            });
            for c in cards_in(&s.players[dp as usize]) {
                let def = &dhero.cards[c as usize];
                if matches!(def.kind, CardKind::Defense | CardKind::Versatile) && Self::usable(dhero, c, tf.fighter) {
                    out.push(Action::Defend {
                        card: Some(def.id.clone()),
                        effects: Vec::new(),
                        damage: None,
                        winner: None,
                    });
                }
            }
            return out;
        }
        let max = self.t.numbers.actions_per_turn;
        let b = self.board(s);
        if s.actions == 0
            && !s.gazed
            && hero.ability == Ability::Gaze
            && let Some(m) = s.figs().iter().find(|f| f.owner == p && f.is_hero && f.at != OFF)
        {
            for t in s.figs() {
                if t.at != OFF
                    && s.team_of(t.owner) != s.team_of(p)
                    && b.zones[m.at as usize] & b.zones[t.at as usize] != 0
                {
                    out.push(Action::Gaze {
                        target: self.fig_name(t).to_string(),
                    });
                }
            }
        }
        if s.actions < max {
            out.push(Action::Maneuver { draw: None });
            for c in cards_in(pl) {
                let def = &hero.cards[c as usize];
                if def.kind == CardKind::Scheme
                    && s.figs()
                        .iter()
                        .any(|f| f.owner == p && f.at != OFF && def.fighter.is_none_or(|x| x == f.fighter))
                {
                    out.push(Action::Scheme {
                        card: def.id.clone(),
                        effect: Effect::default(),
                    });
                }
            }
            for a in s.figs().iter().filter(|f| f.owner == p && f.at != OFF) {
                for t in s.figs() {
                    if t.at == OFF || s.team_of(t.owner) == s.team_of(p) || !self.in_reach(s, a, t) {
                        continue;
                    }
                    for c in cards_in(pl) {
                        let def = &hero.cards[c as usize];
                        if !matches!(def.kind, CardKind::Attack | CardKind::Versatile)
                            || !Self::usable(hero, c, a.fighter)
                        {
                            continue;
                        }
                        let mk = |extra: Option<String>| Action::Attack {
                            fighter: self.fig_name(a).to_string(),
                            target: self.fig_name(t).to_string(),
                            card: def.id.clone(),
                            extra,
                        };
                        out.push(mk(None));
                        if hero.ability == Ability::ExtraCard && a.is_hero {
                            for x in cards_in(pl) {
                                if pl.hand[x as usize] >= if x == c { 2 } else { 1 } {
                                    out.push(mk(Some(hero.cards[x as usize].id.clone())));
                                }
                            }
                        }
                    }
                }
            }
        }
        if let Phase::Maneuver { boost, boosted, moved } = s.phase {
            if !boosted && moved == 0 {
                for c in cards_in(pl) {
                    out.push(Action::Boost {
                        card: hero.cards[c as usize].id.clone(),
                    });
                }
            }
            let passable = !s.enemy_mask(p);
            let bonus = self.sinbad_bonus(s, p);
            for (i, f) in s.figs().iter().enumerate() {
                if f.owner != p || f.at == OFF || moved & (1 << i) != 0 {
                    continue;
                }
                let mut reach = b.reach(f.at, f.mv.saturating_add(boost).saturating_add(bonus), passable) & !s.occ;
                while reach != 0 {
                    let d = reach.trailing_zeros() as usize;
                    reach &= reach - 1;
                    out.push(Action::Move {
                        fighter: self.fig_name(f).to_string(),
                        to: b.spaces[d].clone(),
                    });
                }
            }
        }
        if s.actions >= max {
            if pl.hand_n > self.t.numbers.hand_limit {
                for c in cards_in(pl) {
                    out.push(Action::Discard {
                        card: hero.cards[c as usize].id.clone(),
                    });
                }
            } else {
                out.push(Action::EndTurn);
            }
        }
        out
    }

    fn ending(&self, s: &State) -> Option<Ending> {
        let w = s.over?;
        let winners: Vec<usize> = (0..s.n as usize).filter(|p| w & (1 << p) != 0).collect();
        let reason = if winners.is_empty() {
            "all-heroes-defeated"
        } else if s.teams {
            "team-heroes-defeated"
        } else {
            "hero-defeated"
        };
        Some(Ending {
            winners,
            reason: reason.into(),
            rule: DEFEAT,
        })
    }

    fn observe(&self, s: &State) -> Json {
        let b = self.board(s);
        let mut hp = Map::new();
        let mut at = Map::new();
        for f in s.figs() {
            let name = self.fig_name(f).to_string();
            hp.insert(name.clone(), json!(f.hp));
            if f.at != OFF {
                at.insert(name, json!(b.name(f.at)));
            }
        }
        let per = |g: &dyn Fn(&Player) -> u16| -> Json {
            Json::Object(
                (0..s.n)
                    .map(|p| (s.name(p).to_string(), json!(g(&s.players[p as usize]))))
                    .collect(),
            )
        };
        let phase = match s.phase {
            Phase::Actions if s.actions >= self.t.numbers.actions_per_turn => "end",
            Phase::Actions => "actions",
            Phase::Maneuver { .. } => "maneuver",
            Phase::Combat { .. } => "combat",
        };
        let mut o = Map::new();
        o.insert("turn".into(), json!(s.turn));
        o.insert("player".into(), json!(s.name(s.to_move)));
        o.insert("actions".into(), json!(s.actions));
        o.insert("phase".into(), json!(phase));
        o.insert("hp".into(), Json::Object(hp));
        o.insert("at".into(), Json::Object(at));
        o.insert("hand".into(), per(&|p| p.hand_n));
        o.insert("deck".into(), per(&|p| p.deck_n));
        o.insert("discard".into(), per(&|p| p.discard_n));
        for p in 0..s.n {
            if self.hero(s, p).ability == Ability::Size {
                o.insert(
                    "size".into(),
                    json!(if s.players[p as usize].big { "big" } else { "small" }),
                );
            }
        }
        if let Some(c) = s.last {
            o.insert(
                "combat".into(),
                json!({"attack": c.attack, "defense": c.defense, "damage": c.damage,
                       "winner": if c.attacker_won { "attacker" } else { "defender" }}),
            );
        }
        Json::Object(o)
    }

    fn choice(&self, a: &Action) -> Action {
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

    fn randomize(&self, s: &State, a: &mut Action, rng: &mut fastrand::Rng) {
        match a {
            Action::Maneuver { draw } => {
                let pl = &s.players[s.to_move as usize];
                *draw = None;
                if pl.deck_n > 0 {
                    let mut k = rng.u16(..pl.deck_n);
                    for (c, &n) in pl.deck.iter().enumerate() {
                        if k < u16::from(n) {
                            *draw = Some(self.hero(s, s.to_move).cards[c].id.clone());
                            break;
                        }
                        k -= u16::from(n);
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
                if rng.bool() {
                    let mut t = s.clone();
                    if self.step(&mut t, a).is_ok()
                        && let (Some(c), Action::Defend { damage, .. }) = (t.last, &mut *a)
                    {
                        *damage = Some(c.damage);
                    }
                }
            }
            _ => {}
        }
    }

    fn random_setup(&self, rng: &mut fastrand::Rng) -> Setup {
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
                    let free: Vec<usize> = (0..b.spaces.len())
                        .filter(|&sp| zone & (1 << sp) != 0 && occ & (1 << sp) == 0)
                        .collect();
                    if free.is_empty() {
                        continue;
                    }
                    let sp = free[rng.usize(..free.len())];
                    occ |= 1 << sp;
                    sidekicks.insert(fid.clone(), b.spaces[sp].clone());
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

    fn candidates(&self, s: &State, rng: &mut fastrand::Rng) -> Vec<Action> {
        let mut out = self.legal_actions(s);
        if out.len() > 40 {
            rng.shuffle(&mut out);
            out.truncate(40);
        }
        let b = self.board(s);
        let figs: Vec<&str> = s.figs().iter().map(|f| self.fig_name(f)).collect();
        let fig = |rng: &mut fastrand::Rng| figs[rng.usize(..figs.len())].to_string();
        let space = |rng: &mut fastrand::Rng| b.spaces[rng.usize(..b.spaces.len())].clone();
        // Any card of any hero in the game: other decks, not in hand, wrong kind.
        let cards: Vec<&str> = (0..s.n)
            .flat_map(|p| self.hero(s, p).cards.iter().map(|c| c.id.as_str()))
            .collect();
        let card = |rng: &mut fastrand::Rng| cards[rng.usize(..cards.len())].to_string();
        for _ in 0..4 {
            out.push(Action::Move {
                fighter: fig(rng),
                to: space(rng),
            });
            out.push(Action::Attack {
                fighter: fig(rng),
                target: fig(rng),
                card: card(rng),
                extra: None,
            });
            out.push(Action::Defend {
                card: Some(card(rng)),
                effects: Vec::new(),
                damage: None,
                winner: None,
            });
            out.push(Action::Scheme {
                card: card(rng),
                effect: Effect::default(),
            });
            out.push(Action::Boost { card: card(rng) });
            out.push(Action::Discard { card: card(rng) });
            out.push(Action::Gaze { target: fig(rng) });
        }
        out.push(Action::Attack {
            fighter: fig(rng),
            target: fig(rng),
            card: card(rng),
            extra: Some(card(rng)),
        });
        out.push(Action::Move {
            fighter: "nobody".into(),
            to: "s99".into(),
        });
        out.push(Action::Maneuver { draw: None });
        out.push(Action::Defend {
            card: None,
            effects: Vec::new(),
            damage: None,
            winner: None,
        });
        out.push(Action::EndTurn);
        out
    }
}
