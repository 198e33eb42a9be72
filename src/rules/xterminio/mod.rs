//! The XTerminio rules engine (docs/log-format/xterminio.md).
//!
//! Two players, each with a mat: a CAMP (waiting room, +1 ENERGY per card)
//! and a BATTLE of 5 character slots, a zone slot and an energy slot. The
//! opening (hands, mulligans, first layout) is part of the log's header and
//! checked by [`Engine::start`]; every turn then runs through its phases in
//! order: the charge and upkeep happen when the turn begins, then the draw,
//! main (deploy, equip, zone, move, powered cards), attack, camp and cleanup
//! phases. Doing something of a later phase closes the earlier ones.
//!
//! Card texts are free text: their outcomes (damage, healing, ENERGY,
//! readying, stunning) are recorded in `effect:` fields of `play` (action
//! cards) and `ability` (cards in play) and checked for what can be checked.

mod tables;

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value as Json, json};

use super::{Ending, Engine, Violation};
use crate::model::{FieldValue, Game};
use tables::{Card, Kind, Tables};

/// The pack id.
pub const GAME_ID: &str = "xterminio";

/// A slot of a player's BATTLE (ids as in the mat's `slots`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Slot {
    AdvanceLeft,
    AdvanceCenter,
    AdvanceRight,
    CoverLeft,
    CoverRight,
    CoverZone,
    CoverEnergy,
}

impl Slot {
    pub const ALL: [Slot; 7] = [
        Slot::AdvanceLeft,
        Slot::AdvanceCenter,
        Slot::AdvanceRight,
        Slot::CoverLeft,
        Slot::CoverRight,
        Slot::CoverZone,
        Slot::CoverEnergy,
    ];
    /// The five slots that take characters, in the order of `Side::battle`.
    pub const CHARACTER: [Slot; 5] = [
        Slot::AdvanceLeft,
        Slot::AdvanceCenter,
        Slot::AdvanceRight,
        Slot::CoverLeft,
        Slot::CoverRight,
    ];

    pub fn id(self) -> &'static str {
        match self {
            Slot::AdvanceLeft => "advance-left",
            Slot::AdvanceCenter => "advance-center",
            Slot::AdvanceRight => "advance-right",
            Slot::CoverLeft => "cover-left",
            Slot::CoverRight => "cover-right",
            Slot::CoverZone => "cover-zone",
            Slot::CoverEnergy => "cover-energy",
        }
    }

    pub fn from_id(id: &str) -> Option<Slot> {
        Slot::ALL.into_iter().find(|s| s.id() == id)
    }

    /// Index into `Side::battle` for a character slot.
    fn index(self) -> Option<usize> {
        let i = self as usize;
        (i < 5).then_some(i)
    }
}

/// The game mode (GAMES.md XT-6, XT-7).
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

fn one() -> u8 {
    1
}

fn is_one(n: &u8) -> bool {
    *n == 1
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// An interception declared against an attack (XT-11).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Intercept {
    /// The intercepting character's slot (defender's BATTLE).
    pub by: Slot,
    /// Which of its attacks (1-based), an interception one.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub attack: u8,
}

/// The recorded outcome of a card text.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Effect {
    /// Damage to characters of the acting player's opponent, by slot.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub damage: BTreeMap<Slot, u8>,
    /// Damage removed from the acting player's characters, by slot.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub heal: BTreeMap<Slot, u8>,
    /// ENERGY gained by the acting player.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub energy: u8,
    /// The acting player's exhausted characters that are readied.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ready: Vec<Slot>,
    /// Opponent's characters stunned (until the end of their owner's turn).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stun: Vec<Slot>,
    /// A fixed action's card leaves play (ability only).
    #[serde(default, skip_serializing_if = "is_false")]
    pub expire: bool,
}

/// One step of a turn.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "do", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Action {
    /// Draw step: the cards drawn, from either deck.
    Draw {
        cards: Vec<String>,
    },
    /// Main phase: a character that waited in CAMP goes to a BATTLE slot.
    Deploy {
        card: String,
        to: Slot,
    },
    /// Main phase: equipment from CAMP onto a character (or the energy slot).
    Equip {
        card: String,
        to: Slot,
    },
    /// Main phase: a zone from hand into the zone slot.
    Zone {
        card: String,
    },
    /// Main phase: a character moves to another slot.
    Move {
        from: Slot,
        to: Slot,
    },
    /// Main phase: the powered card in CAMP replaces its classic copy in `slot`.
    PowerUp {
        slot: Slot,
    },
    /// Main phase: all classic copies discarded, the powered card fetched from the deck.
    Fetch {
        card: String,
    },
    /// Own turn: a powered card whose classic copy died is discarded for ENERGY.
    DiscardPowered {
        card: String,
    },
    /// Attack phase: one attack, with the defender's interception if any.
    Attack {
        attacker: Slot,
        #[serde(default = "one", skip_serializing_if = "is_one")]
        attack: u8,
        target: Slot,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        intercept: Option<Intercept>,
    },
    /// Attack phase: an attack for points (XT-2).
    PointAttack {
        attacker: Slot,
    },
    /// Camp phase: a character or equipment from hand into CAMP.
    Camp {
        card: String,
    },
    /// Cleanup (XTerminar): a card discarded from hand.
    Discard {
        card: String,
    },
    /// An action card from hand, by either player, at any time.
    Play {
        card: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        effect: Option<Effect>,
    },
    /// The text of a card in play (character, equipment, zone, fixed action).
    Ability {
        card: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        effect: Option<Effect>,
    },
    /// The player who may answer an action card declines.
    Pass,
    EndTurn,
}

/// The phases that follow the draw, in order (XT-4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Phase {
    Main,
    Attack,
    Camp,
    Cleanup,
}

impl Phase {
    fn name(self) -> &'static str {
        match self {
            Phase::Main => "main",
            Phase::Attack => "attack",
            Phase::Camp => "camp",
            Phase::Cleanup => "cleanup",
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Fighter {
    card: u8,
    damage: u8,
    exhausted: bool,
    /// Attacked (or made a point attack) this turn.
    attacked: bool,
    stunned: bool,
    equipment: Option<u8>,
}

#[derive(Clone, Copy, Debug)]
struct CampCard {
    card: u8,
    /// Laid this turn: not deployable before its owner's next turn.
    fresh: bool,
}

#[derive(Clone, Debug)]
struct Side {
    /// Cards left in the decks, by card index.
    deck: Vec<u8>,
    deck_chars: u16,
    deck_support: u16,
    /// The deck list as built.
    owned: Vec<u8>,
    hand: Vec<u8>,
    hand_n: u16,
    camp: Vec<CampCard>,
    battle: [Option<Fighter>; 5],
    zone: Option<u8>,
    energy_eq: Option<u8>,
    /// Fixed action cards in play.
    fixed: Vec<u8>,
    /// Abilities used this turn, by card index.
    used: Vec<u8>,
    /// A classic copy of this character was eliminated.
    died: Vec<bool>,
    energy: u16,
    score: u16,
}

/// The full game state.
#[derive(Clone, Debug)]
pub struct State {
    names: Arc<Vec<String>>,
    mode: Mode,
    target: u16,
    p: [Side; 2],
    turn: u16,
    to_move: usize,
    drawn: bool,
    phase: Phase,
    /// Energy when the first character was deployed this turn (XT-7 cap).
    deploy_cap: Option<u16>,
    deployed: u16,
    /// The player whose action card awaits an answer (XT-12).
    window: Option<usize>,
    /// The opponent ended their last turn with every character exhausted (XT-2).
    point_ok: bool,
    winner: Option<usize>,
}

/// The engine: card tables and the two standard decks for random games.
pub struct Xterminio {
    t: Tables,
    decks: Vec<BTreeMap<String, u32>>,
}

fn v(rule: &'static str, msg: impl Into<String>) -> Violation {
    Violation::new(rule, msg)
}

const CHAR_DECK: &str = "character-deck";
const SUPPORT_DECK: &str = "support-deck";

impl Xterminio {
    fn is_support(&self, c: u8) -> bool {
        self.t.get(c).kind != Kind::Character
    }

    fn name<'a>(&self, s: &'a State, p: usize) -> &'a str {
        &s.names[p]
    }

    /// The player an action card or ability is used by.
    fn actor(&self, s: &State, by: &Option<String>, rule: &'static str) -> Result<usize, Violation> {
        match by {
            None => Ok(s.to_move),
            Some(n) => s.names.iter().position(|x| x == n).ok_or_else(|| {
                v(rule, format!("`by: {n}` names nobody in this game"))
                    .expected(format!("{} or {}", s.names[0], s.names[1]))
                    .found(n.clone())
            }),
        }
    }

    /// A card of the pack that must be of `kind` (`not a character`).
    fn known_of(
        &self,
        id: &str,
        kind: Kind,
        rule: &'static str,
        noun: &str,
        expected: &str,
    ) -> Result<(u8, &Card), Violation> {
        let c = self.known(id, rule)?;
        let info = self.t.get(c);
        if info.kind != kind {
            return Err(v(rule, format!("`{id}` is {}, not {noun}", info.kind.name()))
                .expected(expected)
                .found(info.kind.name()));
        }
        Ok((c, info))
    }

    fn known(&self, id: &str, rule: &'static str) -> Result<u8, Violation> {
        self.t.card(id).ok_or_else(|| {
            v(rule, format!("`{id}` is not a card of XTerminio"))
                .expected("a card id of the pack")
                .found(id.to_string())
        })
    }

    /// Phase order (XT-4): the draw comes first, and a phase once left is over.
    fn gate(&self, s: &State, want: Phase, what: &str) -> Result<(), Violation> {
        let who = self.name(s, s.to_move);
        if !s.drawn {
            return Err(v("XT-4", format!("{who} must draw before {what}"))
                .expected("the draw step first")
                .found(what.to_string()));
        }
        if s.phase > want {
            return Err(v(
                "XT-4",
                format!(
                    "{what} belongs to the {} phase, but {who} is already in the {} phase",
                    want.name(),
                    s.phase.name()
                ),
            )
            .expected(format!(
                "{} phase actions before the {} phase",
                want.name(),
                s.phase.name()
            ))
            .found(format!("{what} after the {} phase began", s.phase.name())));
        }
        Ok(())
    }

    /// A waited (`true`) or fresh (`false`) copy of `c` in CAMP, waited first.
    fn in_camp(side: &Side, c: u8) -> Option<bool> {
        let mut found = None;
        for cc in &side.camp {
            if cc.card == c {
                if !cc.fresh {
                    return Some(true);
                }
                found = Some(false);
            }
        }
        found
    }

    /// Must come from CAMP after waiting a turn (XT-5).
    fn waited_in_camp(&self, s: &State, c: u8, what: &str) -> Result<(), Violation> {
        let side = &s.p[s.to_move];
        let id = self.t.id(c);
        match Self::in_camp(side, c) {
            Some(true) => Ok(()),
            Some(false) => Err(v(
                "XT-5",
                format!("`{id}` reached CAMP this turn and must wait there a turn"),
            )
            .expected(format!("{what} that has waited a turn in CAMP"))
            .found(format!("`{id}` laid in CAMP this turn"))),
            None => Err(
                v("XT-5", format!("`{id}` is not in {}'s CAMP", self.name(s, s.to_move)))
                    .expected(format!("{what} from CAMP"))
                    .found(if side.hand[c as usize] > 0 {
                        format!("`{id}` straight from hand")
                    } else {
                        format!("no `{id}` in CAMP")
                    }),
            ),
        }
    }

    fn fighter(s: &State, side: usize, slot: Slot) -> Option<&Fighter> {
        slot.index().and_then(|i| s.p[side].battle[i].as_ref())
    }

    /// Copies of `c` the player has in play (ability sources).
    fn in_play(side: &Side, c: u8) -> u8 {
        let mut n = 0usize;
        for f in side.battle.iter().flatten() {
            n += (f.card == c) as usize + (f.equipment == Some(c)) as usize;
        }
        n += (side.zone == Some(c)) as usize + (side.energy_eq == Some(c)) as usize;
        n += side.fixed.iter().filter(|&&x| x == c).count();
        n.min(u8::MAX as usize) as u8
    }

    fn check_effect(&self, s: &State, who: usize, e: &Effect, rule: &'static str) -> Result<(), Violation> {
        let opp = 1 - who;
        let (me, them) = (self.name(s, who), self.name(s, opp));
        for (&slot, &n) in &e.damage {
            if Self::fighter(s, opp, slot).is_none() {
                return Err(v(
                    rule,
                    format!(
                        "the effect damages {them}'s `{}`, where there is no character",
                        slot.id()
                    ),
                )
                .expected(format!("a slot of {them}'s BATTLE with a character"))
                .found(format!("empty `{}`", slot.id())));
            }
            if n == 0 {
                return Err(v(rule, "an effect deals 0 damage")
                    .expected("1 damage or more")
                    .found("0"));
            }
        }
        for (&slot, &n) in &e.heal {
            let Some(f) = Self::fighter(s, who, slot) else {
                return Err(v(
                    rule,
                    format!("the effect heals {me}'s `{}`, where there is no character", slot.id()),
                )
                .expected(format!("a slot of {me}'s BATTLE with a character"))
                .found(format!("empty `{}`", slot.id())));
            };
            if n == 0 || n > f.damage {
                return Err(v(
                    rule,
                    format!(
                        "`{}` in `{}` cannot heal {n}: it has {} damage",
                        self.t.id(f.card),
                        slot.id(),
                        f.damage
                    ),
                )
                .expected(format!("1 to {} damage healed", f.damage))
                .found(format!("{n} healed")));
            }
        }
        for &slot in &e.ready {
            match Self::fighter(s, who, slot) {
                Some(f) if f.exhausted => {}
                Some(f) => {
                    return Err(v(
                        rule,
                        format!("`{}` in `{}` is not exhausted", self.t.id(f.card), slot.id()),
                    )
                    .expected("an exhausted character to ready")
                    .found("a ready character"));
                }
                None => {
                    return Err(v(rule, format!("{me} has no character in `{}` to ready", slot.id()))
                        .expected(format!("a slot of {me}'s BATTLE with a character"))
                        .found(format!("empty `{}`", slot.id())));
                }
            }
        }
        for &slot in &e.stun {
            if Self::fighter(s, opp, slot).is_none() {
                return Err(v(rule, format!("{them} has no character in `{}` to stun", slot.id()))
                    .expected(format!("a slot of {them}'s BATTLE with a character"))
                    .found(format!("empty `{}`", slot.id())));
            }
        }
        Ok(())
    }

    fn check(&self, s: &State, a: &Action) -> Result<(), Violation> {
        if let Some(w) = s.winner {
            return Err(v(
                "XT-1",
                format!("the game is over: {} reached the target score", self.name(s, w)),
            )
            .expected("no more actions")
            .found("an action"));
        }
        let p = s.to_move;
        let who = self.name(s, p);
        let side = &s.p[p];
        let n = &self.t.n;
        match a {
            Action::Draw { cards } => {
                if s.turn == 1 {
                    return Err(v(
                        "XT-3",
                        format!("{who} starts the game and skips the draw of the first turn"),
                    )
                    .expected("no draw in the first player's first turn")
                    .found(format!("a draw of {} cards", cards.len())));
                }
                if s.drawn {
                    let left = side.deck_chars + side.deck_support;
                    return Err(v("XT-4", format!("{who} has already drawn this turn"))
                        .expected(if left == 0 {
                            "no draw: both decks are empty".to_string()
                        } else {
                            format!("one draw of {} cards per turn", n.turn_draw)
                        })
                        .found("another draw"));
                }
                let need = n.turn_draw.min((side.deck_chars + side.deck_support) as usize);
                if cards.len() != need {
                    return Err(v("XT-4", format!("{who} draws {} cards", cards.len()))
                        .expected(format!("{need} cards"))
                        .found(format!("{} cards", cards.len())));
                }
                for (i, id) in cards.iter().enumerate() {
                    let c = self.known(id, "XT-4")?;
                    let taken = cards[..=i].iter().filter(|x| *x == id).count();
                    let left = side.deck[c as usize] as usize;
                    if taken > left {
                        return Err(v("XT-4", format!("{who}'s deck has no `{id}` left to draw"))
                            .expected("cards still in the deck")
                            .found(format!("`{id}` drawn {taken} times, {left} left")));
                    }
                }
                Ok(())
            }
            Action::Deploy { card, to } => {
                self.gate(s, Phase::Main, "deploying")?;
                let (c, info) = self.known_of(card, Kind::Character, "XT-5", "a character", "a character to deploy")?;
                let Some(i) = to.index() else {
                    return Err(v("XT-4", format!("`{}` does not take characters", to.id()))
                        .expected("a character slot (advance-… or cover-left/right)")
                        .found(to.id()));
                };
                if let Some(f) = &side.battle[i] {
                    return Err(v("XT-4", format!("`{}` is taken by `{}`", to.id(), self.t.id(f.card)))
                        .expected("a free character slot")
                        .found(format!("`{}` occupied", to.id())));
                }
                self.waited_in_camp(s, c, "a character")?;
                if info.powered && side.died[info.base as usize] {
                    return Err(v(
                        "XT-10",
                        format!(
                            "a classic `{}` was eliminated, so `{card}` can no longer enter BATTLE",
                            self.t.id(info.base)
                        ),
                    )
                    .expected(format!(
                        "`{card}` discarded for {} ENERGY instead",
                        n.powered_discard_energy
                    ))
                    .found(format!("`{card}` deployed")));
                }
                if !info.powered
                    && let Some((j, f)) = side
                        .battle
                        .iter()
                        .enumerate()
                        .find_map(|(j, f)| f.filter(|f| self.t.get(f.card).base == info.base).map(|f| (j, f)))
                {
                    return Err(
                        v("XT-8", format!("{who} already has `{}` in BATTLE", self.t.id(f.card)))
                            .expected("one copy of a character in BATTLE")
                            .found(format!(
                                "a second `{card}` (the first in `{}`)",
                                Slot::CHARACTER[j].id()
                            )),
                    );
                }
                if s.mode == Mode::Xterminar {
                    let cap = s.deploy_cap.unwrap_or(side.energy);
                    let total = s.deployed + info.life as u16;
                    if total > cap {
                        return Err(v(
                            "XT-7",
                            format!(
                                "deploying `{card}` (life {}) takes {who} over the deploy limit",
                                info.life
                            ),
                        )
                        .expected(format!(
                            "at most {cap} life deployed this turn (ENERGY before deploying)"
                        ))
                        .found(format!("{total} life")));
                    }
                }
                Ok(())
            }
            Action::Equip { card, to } => {
                self.gate(s, Phase::Main, "equipping")?;
                let (c, info) = self.known_of(card, Kind::Equipment, "XT-9", "equipment", "an equipment card")?;
                if info.energy && *to != Slot::CoverEnergy {
                    return Err(v(
                        "XT-9",
                        format!("`{card}` is energy equipment: it goes in the energy slot"),
                    )
                    .expected("to: cover-energy")
                    .found(format!("to: {}", to.id())));
                }
                if !info.energy {
                    let Some(f) = Self::fighter(s, p, *to) else {
                        return Err(v(
                            "XT-9",
                            format!("{who} has no character in `{}` to carry `{card}`", to.id()),
                        )
                        .expected("a character of yours in BATTLE")
                        .found(format!("`{}` without a character", to.id())));
                    };
                    if let Some(e) = f.equipment {
                        return Err(v(
                            "XT-9",
                            format!(
                                "`{}` in `{}` already carries `{}`",
                                self.t.id(f.card),
                                to.id(),
                                self.t.id(e)
                            ),
                        )
                        .expected("at most 1 equipment per character")
                        .found("a second equipment"));
                    }
                }
                self.waited_in_camp(s, c, "equipment")
            }
            Action::Zone { card } => {
                self.gate(s, Phase::Main, "playing a zone")?;
                let (c, _) = self.known_of(card, Kind::Zone, "XT-4", "a zone", "a zone card")?;
                if side.hand[c as usize] == 0 {
                    return Err(v("XT-4", format!("{who} has no `{card}` in hand"))
                        .expected("a zone from hand")
                        .found(format!("no `{card}` in hand")));
                }
                Ok(())
            }
            Action::Move { from, to } => {
                self.gate(s, Phase::Main, "moving")?;
                let Some(f) = Self::fighter(s, p, *from) else {
                    return Err(v("XT-7", format!("{who} has no character in `{}` to move", from.id()))
                        .expected("a character of yours in BATTLE")
                        .found(format!("empty `{}`", from.id())));
                };
                let Some(j) = to.index() else {
                    return Err(v("XT-7", format!("`{}` does not take characters", to.id()))
                        .expected("a free character slot")
                        .found(to.id()));
                };
                if side.battle[j].is_some() {
                    return Err(v("XT-7", format!("`{}` is not free", to.id()))
                        .expected("a free character slot")
                        .found(format!("`{}` occupied", to.id())));
                }
                if s.mode == Mode::Xterminar {
                    let info = self.t.get(f.card);
                    if !info.protagonist && !self.t.adjacent[*from as usize][*to as usize] {
                        return Err(v("XT-7", format!("`{}` is not contiguous to `{}`", to.id(), from.id()))
                            .expected(format!(
                                "a move to a contiguous slot ({}), or a protagonist",
                                Slot::CHARACTER
                                    .iter()
                                    .filter(|x| self.t.adjacent[*from as usize][**x as usize])
                                    .map(|x| x.id())
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            ))
                            .found(format!("`{}` moving to `{}`", info.id, to.id())));
                    }
                    if side.energy < n.move_cost {
                        return Err(v("XT-7", format!("{who} cannot pay for the move"))
                            .expected(format!("{} ENERGY per move", n.move_cost))
                            .found(format!("{} ENERGY", side.energy)));
                    }
                }
                Ok(())
            }
            Action::PowerUp { slot } => {
                self.gate(s, Phase::Main, "swapping in a powered card")?;
                let Some(f) = Self::fighter(s, p, *slot) else {
                    return Err(v("XT-10", format!("{who} has no character in `{}`", slot.id()))
                        .expected("a classic character in BATTLE")
                        .found(format!("empty `{}`", slot.id())));
                };
                let info = self.t.get(f.card);
                let Some(pw) = info.powered_version.filter(|_| !info.powered) else {
                    return Err(v("XT-10", format!("`{}` has no powered version to swap in", info.id))
                        .expected("a classic character with a powered card")
                        .found(format!("`{}`", info.id)));
                };
                if side.died[f.card as usize] {
                    return Err(v(
                        "XT-10",
                        format!(
                            "a classic `{}` was eliminated, so `{}` can no longer enter BATTLE",
                            info.id,
                            self.t.id(pw)
                        ),
                    )
                    .expected("no swap")
                    .found("a swap"));
                }
                match Self::in_camp(side, pw) {
                    Some(true) => Ok(()),
                    Some(false) => Err(v("XT-10", format!("`{}` reached CAMP this turn", self.t.id(pw)))
                        .expected("a powered card that has waited a turn in CAMP")
                        .found("a powered card laid this turn")),
                    None => Err(v("XT-10", format!("{who} has no `{}` in CAMP", self.t.id(pw)))
                        .expected("the powered card waiting in CAMP")
                        .found(if side.hand[pw as usize] > 0 {
                            "the powered card in hand"
                        } else {
                            "no powered card in CAMP"
                        })),
                }
            }
            Action::Fetch { card } => {
                self.gate(s, Phase::Main, "fetching a powered card")?;
                let c = self.known(card, "XT-10")?;
                let info = self.t.get(c);
                if !info.powered {
                    return Err(v("XT-10", format!("`{card}` is not a powered character"))
                        .expected("a powered card")
                        .found(format!("`{card}`")));
                }
                if side.deck[c as usize] == 0 {
                    return Err(v("XT-10", format!("`{card}` is not in {who}'s character deck"))
                        .expected("the powered card still in the deck")
                        .found("none left"));
                }
                let b = info.base;
                let held = self.classic_held(side, b);
                let all = side.owned[b as usize] as u16;
                if held < all || all == 0 {
                    return Err(v(
                        "XT-10",
                        format!("{who} holds {held} of the {all} classic `{}`", self.t.id(b)),
                    )
                    .expected(format!("all {all} classic copies in hand, CAMP or BATTLE"))
                    .found(format!("{held} copies")));
                }
                Ok(())
            }
            Action::DiscardPowered { card } => {
                let c = self.known(card, "XT-10")?;
                let info = self.t.get(c);
                if !info.powered {
                    return Err(v("XT-10", format!("`{card}` is not a powered character"))
                        .expected("a powered card")
                        .found(format!("`{card}`")));
                }
                if side.hand[c as usize] == 0 && Self::in_camp(side, c).is_none() {
                    return Err(v("XT-10", format!("{who} has no `{card}` in hand or CAMP"))
                        .expected("the powered card in hand or CAMP")
                        .found("none"));
                }
                if !side.died[info.base as usize] {
                    return Err(v(
                        "XT-10",
                        format!(
                            "no classic `{}` has been eliminated, so `{card}` cannot be traded for ENERGY",
                            self.t.id(info.base)
                        ),
                    )
                    .expected("a classic copy eliminated earlier")
                    .found("none eliminated"));
                }
                Ok(())
            }
            Action::Attack {
                attacker,
                attack,
                target,
                intercept,
            } => {
                self.gate(s, Phase::Attack, "attacking")?;
                let Some(f) = Self::fighter(s, p, *attacker) else {
                    return Err(v(
                        "XT-4",
                        format!("{who} has no character in `{}` to attack with", attacker.id()),
                    )
                    .expected("an attacker in your BATTLE")
                    .found(format!("empty `{}`", attacker.id())));
                };
                let info = self.t.get(f.card);
                if f.attacked || f.exhausted {
                    return Err(v(
                        "XT-4",
                        format!("`{}` in `{}` has already attacked this turn", info.id, attacker.id()),
                    )
                    .expected("at most 1 attack per character per turn")
                    .found("a second attack"));
                }
                let Some(st) = (*attack as usize).checked_sub(1).and_then(|k| info.attacks.get(k)) else {
                    return Err(v("XT-4", format!("`{}` has no attack {attack}", info.id))
                        .expected(format!("attack 1 to {}", info.attacks.len()))
                        .found(format!("attack {attack}")));
                };
                let q = 1 - p;
                let them = self.name(s, q);
                if Self::fighter(s, q, *target).is_none() {
                    return Err(v("XT-4", format!("{them} has no character in `{}`", target.id()))
                        .expected(format!("a target in {them}'s BATTLE"))
                        .found(format!("empty `{}`", target.id())));
                };
                if side.energy < st.cost {
                    return Err(
                        v("XT-6", format!("{who} cannot pay for `{}`'s attack {attack}", info.id))
                            .expected(format!("{} ENERGY", st.cost))
                            .found(format!("{} ENERGY in the source", side.energy)),
                    );
                }
                if let Some(ic) = intercept {
                    let Some(g) = Self::fighter(s, q, ic.by) else {
                        return Err(v(
                            "XT-11",
                            format!("{them} has no character in `{}` to intercept", ic.by.id()),
                        )
                        .expected(format!("an interceptor in {them}'s BATTLE"))
                        .found(format!("empty `{}`", ic.by.id())));
                    };
                    let gi = self.t.get(g.card);
                    if g.exhausted || g.stunned {
                        return Err(v(
                            "XT-11",
                            format!(
                                "`{}` in `{}` is {} and cannot intercept",
                                gi.id,
                                ic.by.id(),
                                if g.exhausted { "exhausted" } else { "stunned" }
                            ),
                        )
                        .expected("an interceptor neither exhausted nor stunned")
                        .found(if g.exhausted {
                            "an exhausted character"
                        } else {
                            "a stunned character"
                        }));
                    }
                    let Some(is) = (ic.attack as usize).checked_sub(1).and_then(|k| gi.attacks.get(k)) else {
                        return Err(v("XT-11", format!("`{}` has no attack {}", gi.id, ic.attack))
                            .expected(format!("attack 1 to {}", gi.attacks.len()))
                            .found(format!("attack {}", ic.attack)));
                    };
                    if !is.interception {
                        return Err(v(
                            "XT-11",
                            format!("`{}`'s attack {} is not an interception", gi.id, ic.attack),
                        )
                        .expected("an attack marked as interception")
                        .found(format!("attack {}", ic.attack)));
                    }
                    if s.p[q].energy < is.cost {
                        return Err(v("XT-11", format!("{them} cannot pay for the interception"))
                            .expected(format!("{} ENERGY", is.cost))
                            .found(format!("{} ENERGY in {them}'s source", s.p[q].energy)));
                    }
                }
                Ok(())
            }
            Action::PointAttack { attacker } => {
                self.gate(s, Phase::Attack, "a point attack")?;
                let Some(f) = Self::fighter(s, p, *attacker) else {
                    return Err(v(
                        "XT-4",
                        format!("{who} has no character in `{}` to attack with", attacker.id()),
                    )
                    .expected("an attacker in your BATTLE")
                    .found(format!("empty `{}`", attacker.id())));
                };
                if f.attacked || f.exhausted {
                    return Err(v(
                        "XT-4",
                        format!(
                            "`{}` in `{}` has already attacked this turn",
                            self.t.id(f.card),
                            attacker.id()
                        ),
                    )
                    .expected("at most 1 attack per character per turn")
                    .found("a second attack"));
                }
                if !s.point_ok {
                    let them = self.name(s, 1 - p);
                    return Err(v(
                        "XT-2",
                        format!("{them} did not end the last turn with every character exhausted"),
                    )
                    .expected(format!(
                        "{them}'s BATTLE all exhausted or empty at the end of their turn"
                    ))
                    .found(format!("a ready character left by {them}")));
                }
                if side.energy < n.point_cost {
                    return Err(v("XT-2", format!("{who} cannot pay for a point attack"))
                        .expected(format!("{} ENERGY", n.point_cost))
                        .found(format!("{} ENERGY", side.energy)));
                }
                Ok(())
            }
            Action::Camp { card } => {
                self.gate(s, Phase::Camp, "laying cards in CAMP")?;
                let c = self.known(card, "XT-5")?;
                let info = self.t.get(c);
                if !matches!(info.kind, Kind::Character | Kind::Equipment) {
                    return Err(v(
                        "XT-5",
                        format!("`{card}` is {}: CAMP takes characters and equipment", info.kind.name()),
                    )
                    .expected("a character or equipment card")
                    .found(info.kind.name()));
                }
                if side.hand[c as usize] == 0 {
                    return Err(v("XT-5", format!("{who} has no `{card}` in hand"))
                        .expected("a card from hand")
                        .found(format!("no `{card}` in hand")));
                }
                if side.camp.len() >= n.camp_slots {
                    return Err(v("XT-5", format!("{who}'s CAMP is full"))
                        .expected(format!("at most {} cards in CAMP", n.camp_slots))
                        .found(format!("a card for a CAMP of {}", side.camp.len())));
                }
                Ok(())
            }
            Action::Discard { card } => {
                if s.mode == Mode::Masakre {
                    return Err(v("XT-6", "Masakre has no hand limit and no cleanup phase")
                        .expected("no discards in Masakre")
                        .found(format!("`{card}` discarded")));
                }
                if !s.drawn {
                    return Err(v("XT-4", format!("{who} must draw before discarding"))
                        .expected("the draw step first")
                        .found("a discard"));
                }
                if side.hand_n <= n.hand_limit {
                    return Err(
                        v("XT-4", format!("{who} holds {} cards: nothing to discard", side.hand_n))
                            .expected(format!("discards only down to {} cards", n.hand_limit))
                            .found(format!("a discard from {} cards", side.hand_n)),
                    );
                }
                let c = self.known(card, "XT-4")?;
                if side.hand[c as usize] == 0 {
                    return Err(v("XT-4", format!("{who} has no `{card}` in hand"))
                        .expected("a card from hand")
                        .found(format!("no `{card}` in hand")));
                }
                Ok(())
            }
            Action::Play { card, by, effect } => {
                let a = self.actor(s, by, "XT-12")?;
                let me = self.name(s, a);
                let (c, _) = self.known_of(card, Kind::Action, "XT-12", "an action card", "an action card")?;
                if s.p[a].hand[c as usize] == 0 {
                    return Err(v("XT-12", format!("{me} has no `{card}` in hand"))
                        .expected("an action played from hand")
                        .found(format!("no `{card}` in {me}'s hand")));
                }
                if s.window == Some(a) {
                    let them = self.name(s, 1 - a);
                    return Err(v(
                        "XT-12",
                        format!("{me} plays a second action before {them} could answer the first"),
                    )
                    .expected(format!("an answer by {them}, or `pass`, first"))
                    .found(format!("another action by {me}")));
                }
                if let Some(e) = effect {
                    if e.expire {
                        return Err(v("XT-12", "`expire` is for abilities of fixed actions already in play")
                            .expected("no `expire` when playing a card")
                            .found("expire: true"));
                    }
                    self.check_effect(s, a, e, "XT-12")?;
                }
                Ok(())
            }
            Action::Ability { card, by, effect } => {
                let a = self.actor(s, by, "XT-4")?;
                let me = self.name(s, a);
                let c = self.known(card, "XT-4")?;
                let copies = Self::in_play(&s.p[a], c);
                if copies == 0 {
                    return Err(v("XT-4", format!("{me} has no `{card}` in play"))
                        .expected("a card of yours in BATTLE, on a character, in the zone or energy slot, or a fixed action in play")
                        .found(format!("no `{card}` in play")));
                }
                if !self.t.get(c).text {
                    return Err(v("XT-4", format!("`{card}` has no card text to apply"))
                        .expected("a card in play with a text")
                        .found(format!("`{card}`, which only has printed stats")));
                }
                let used = s.p[a].used[c as usize];
                if used >= copies {
                    return Err(v("XT-4", format!("{me}'s `{card}` has already been used this turn"))
                        .expected(format!("each card's text at most once per turn ({copies} in play)"))
                        .found(format!("use {}", used + 1)));
                }
                let Some(e) = effect.as_ref().filter(|e| **e != Effect::default()) else {
                    return Err(v("XT-4", format!("{me}'s `{card}` ability records no outcome"))
                        .expected("an `effect` with damage, heal, energy, ready, stun or expire")
                        .found("no effect"));
                };
                {
                    if e.expire && !(self.t.get(c).fixed && s.p[a].fixed.contains(&c)) {
                        return Err(v("XT-4", format!("`{card}` is not a fixed action in play"))
                            .expected("`expire` only for a fixed action")
                            .found("expire: true"));
                    }
                    self.check_effect(s, a, e, "XT-4")?;
                }
                Ok(())
            }
            Action::Pass => {
                if s.window.is_none() {
                    return Err(v("XT-12", "no action card awaits an answer")
                        .expected("`pass` only right after an action card")
                        .found("pass"));
                }
                Ok(())
            }
            Action::EndTurn => {
                if !s.drawn {
                    return Err(v("XT-4", format!("{who} has not drawn this turn"))
                        .expected(format!("the draw of {} cards", n.turn_draw))
                        .found("no draw"));
                }
                if s.mode == Mode::Xterminar && side.hand_n > n.hand_limit {
                    return Err(v(
                        "XT-4",
                        format!("{who} ends the turn with {} cards in hand", side.hand_n),
                    )
                    .expected(format!("at most {} cards in hand (cleanup)", n.hand_limit))
                    .found(format!("{} cards", side.hand_n)));
                }
                Ok(())
            }
        }
    }

    /// Classic copies of `b` held in hand, CAMP and BATTLE.
    fn classic_held(&self, side: &Side, b: u8) -> u16 {
        side.hand[b as usize] as u16
            + side.camp.iter().filter(|c| c.card == b).count() as u16
            + side.battle.iter().flatten().filter(|f| f.card == b).count() as u16
    }

    /// Discards every classic copy of `b` from hand, CAMP and BATTLE.
    fn discard_classics(&self, side: &mut Side, b: u8) {
        side.hand_n -= side.hand[b as usize] as u16;
        side.hand[b as usize] = 0;
        side.camp.retain(|c| c.card != b);
        for f in side.battle.iter_mut() {
            if f.is_some_and(|f| f.card == b) {
                *f = None;
            }
        }
    }

    fn award(&self, s: &mut State, who: usize, points: u16) {
        s.p[who].score = s.p[who].score.saturating_add(points);
        if s.winner.is_none() && s.p[who].score >= s.target {
            s.winner = Some(who);
        }
    }

    /// Damage to a character; an eliminated one scores its life for the other player (XT-2).
    fn hurt(&self, s: &mut State, side: usize, i: usize, dmg: u8) {
        let Some(f) = s.p[side].battle[i].as_mut() else {
            return;
        };
        f.damage = f.damage.saturating_add(dmg);
        let info = self.t.get(f.card);
        if f.damage >= info.life {
            if !info.powered {
                s.p[side].died[info.base as usize] = true;
            }
            s.p[side].battle[i] = None;
            self.award(s, 1 - side, info.life as u16);
        }
    }

    fn apply_effect(&self, s: &mut State, who: usize, e: &Effect) {
        let side = &mut s.p[who];
        side.energy = side.energy.saturating_add(e.energy as u16);
        for (&slot, &n) in &e.heal {
            if let Some(f) = slot.index().and_then(|i| side.battle[i].as_mut()) {
                f.damage = f.damage.saturating_sub(n);
            }
        }
        for &slot in &e.ready {
            if let Some(f) = slot.index().and_then(|i| side.battle[i].as_mut()) {
                f.exhausted = false;
            }
        }
        for &slot in &e.stun {
            if let Some(f) = slot.index().and_then(|i| s.p[1 - who].battle[i].as_mut()) {
                f.stunned = true;
            }
        }
        for (&slot, &n) in &e.damage {
            if let Some(i) = slot.index() {
                self.hurt(s, 1 - who, i, n);
            }
        }
    }

    fn take_from_camp(side: &mut Side, c: u8) {
        if let Some(k) = side.camp.iter().position(|x| x.card == c && !x.fresh) {
            side.camp.remove(k);
        }
    }

    fn begin_turn(&self, s: &mut State) {
        let n = &self.t.n;
        let p = s.to_move;
        let base = match s.mode {
            Mode::Masakre => n.energy_masakre,
            Mode::Xterminar => n.energy_xterminar,
        };
        let side = &mut s.p[p];
        side.energy = side
            .energy
            .saturating_add(base + n.energy_per_camp * side.camp.len() as u16);
        for f in side.battle.iter_mut().flatten() {
            f.exhausted = false;
            f.attacked = false;
        }
        s.drawn = side.deck_chars + side.deck_support == 0;
        s.phase = Phase::Main;
        s.deploy_cap = None;
        s.deployed = 0;
        s.window = None;
    }

    fn step(&self, mut s: State, a: &Action) -> State {
        let p = s.to_move;
        let mut window = None;
        match a {
            Action::Draw { cards } => {
                let side = &mut s.p[p];
                for id in cards {
                    if let Some(c) = self.t.card(id) {
                        side.deck[c as usize] -= 1;
                        if self.is_support(c) {
                            side.deck_support -= 1;
                        } else {
                            side.deck_chars -= 1;
                        }
                        side.hand[c as usize] += 1;
                        side.hand_n += 1;
                    }
                }
                s.drawn = true;
            }
            Action::Deploy { card, to } => {
                let (Some(c), Some(i)) = (self.t.card(card), to.index()) else {
                    return s;
                };
                let info = self.t.get(c);
                if s.deploy_cap.is_none() {
                    s.deploy_cap = Some(s.p[p].energy);
                }
                s.deployed += info.life as u16;
                let side = &mut s.p[p];
                Self::take_from_camp(side, c);
                if info.powered {
                    self.discard_classics(side, info.base);
                }
                side.battle[i] = Some(Fighter {
                    card: c,
                    damage: 0,
                    exhausted: false,
                    attacked: false,
                    stunned: false,
                    equipment: None,
                });
                s.phase = Phase::Main;
            }
            Action::Equip { card, to } => {
                let Some(c) = self.t.card(card) else {
                    return s;
                };
                let side = &mut s.p[p];
                Self::take_from_camp(side, c);
                if self.t.get(c).energy {
                    side.energy_eq = Some(c);
                } else if let Some(f) = to.index().and_then(|i| side.battle[i].as_mut()) {
                    f.equipment = Some(c);
                }
                s.phase = Phase::Main;
            }
            Action::Zone { card } => {
                if let Some(c) = self.t.card(card) {
                    let side = &mut s.p[p];
                    side.hand[c as usize] -= 1;
                    side.hand_n -= 1;
                    side.zone = Some(c);
                }
                s.phase = Phase::Main;
            }
            Action::Move { from, to } => {
                let side = &mut s.p[p];
                if let (Some(i), Some(j)) = (from.index(), to.index()) {
                    side.battle[j] = side.battle[i].take();
                }
                if s.mode == Mode::Xterminar {
                    side.energy -= self.t.n.move_cost;
                }
                s.phase = Phase::Main;
            }
            Action::PowerUp { slot } => {
                let side = &mut s.p[p];
                if let Some(i) = slot.index()
                    && let Some(mut f) = side.battle[i]
                    && let Some(pw) = self.t.get(f.card).powered_version
                {
                    Self::take_from_camp(side, pw);
                    let b = f.card;
                    side.battle[i] = None;
                    self.discard_classics(side, b);
                    f.card = pw;
                    side.battle[i] = Some(f);
                }
                s.phase = Phase::Main;
            }
            Action::Fetch { card } => {
                if let Some(c) = self.t.card(card) {
                    let side = &mut s.p[p];
                    self.discard_classics(side, self.t.get(c).base);
                    side.deck[c as usize] -= 1;
                    side.deck_chars -= 1;
                    if side.camp.len() < self.t.n.camp_slots {
                        side.camp.push(CampCard { card: c, fresh: true });
                    } else {
                        side.hand[c as usize] += 1;
                        side.hand_n += 1;
                    }
                }
                s.phase = Phase::Main;
            }
            Action::DiscardPowered { card } => {
                if let Some(c) = self.t.card(card) {
                    let side = &mut s.p[p];
                    if side.hand[c as usize] > 0 {
                        side.hand[c as usize] -= 1;
                        side.hand_n -= 1;
                    } else if let Some(k) = side.camp.iter().position(|x| x.card == c) {
                        side.camp.remove(k);
                    }
                    side.energy = side.energy.saturating_add(self.t.n.powered_discard_energy);
                }
            }
            Action::Attack {
                attacker,
                attack,
                target,
                intercept,
            } => {
                s.phase = Phase::Attack;
                let q = 1 - p;
                let (Some(ai), Some(ti)) = (attacker.index(), target.index()) else {
                    return s;
                };
                let Some(f) = s.p[p].battle[ai].as_mut() else {
                    return s;
                };
                let Some(&st) = self.t.get(f.card).attacks.get((*attack as usize).wrapping_sub(1)) else {
                    return s;
                };
                f.exhausted = true;
                f.attacked = true;
                s.p[p].energy -= st.cost;
                match intercept.and_then(|ic| ic.by.index().map(|i| (i, ic.attack))) {
                    Some((gi, k)) => {
                        let Some(g) = s.p[q].battle[gi].as_mut() else {
                            return s;
                        };
                        let Some(&is) = self.t.get(g.card).attacks.get((k as usize).wrapping_sub(1)) else {
                            return s;
                        };
                        g.exhausted = true;
                        s.p[q].energy -= is.cost;
                        self.hurt(&mut s, p, ai, is.damage);
                        self.hurt(&mut s, q, gi, st.damage);
                    }
                    None => self.hurt(&mut s, q, ti, st.damage),
                }
            }
            Action::PointAttack { attacker } => {
                s.phase = Phase::Attack;
                let q = 1 - p;
                let empty = s.p[q].battle.iter().all(Option::is_none);
                if let Some(f) = attacker.index().and_then(|i| s.p[p].battle[i].as_mut()) {
                    f.exhausted = true;
                    f.attacked = true;
                }
                s.p[p].energy -= self.t.n.point_cost;
                let n = &self.t.n;
                self.award(&mut s, p, if empty { n.point_score_empty } else { n.point_score });
            }
            Action::Camp { card } => {
                if let Some(c) = self.t.card(card) {
                    let side = &mut s.p[p];
                    side.hand[c as usize] -= 1;
                    side.hand_n -= 1;
                    side.camp.push(CampCard { card: c, fresh: true });
                }
                s.phase = Phase::Camp;
            }
            Action::Discard { card } => {
                if let Some(c) = self.t.card(card) {
                    let side = &mut s.p[p];
                    side.hand[c as usize] -= 1;
                    side.hand_n -= 1;
                }
                s.phase = Phase::Cleanup;
            }
            Action::Play { card, by, effect } => {
                let Ok(a) = self.actor(&s, by, "XT-12") else {
                    return s;
                };
                if let Some(c) = self.t.card(card) {
                    let side = &mut s.p[a];
                    side.hand[c as usize] -= 1;
                    side.hand_n -= 1;
                    if self.t.get(c).fixed {
                        side.fixed.push(c);
                    }
                }
                if let Some(e) = effect {
                    self.apply_effect(&mut s, a, e);
                }
                window = Some(a);
            }
            Action::Ability { card, by, effect } => {
                let Ok(a) = self.actor(&s, by, "XT-4") else {
                    return s;
                };
                if let Some(c) = self.t.card(card) {
                    s.p[a].used[c as usize] = s.p[a].used[c as usize].saturating_add(1);
                    if let Some(e) = effect {
                        if e.expire
                            && let Some(k) = s.p[a].fixed.iter().position(|&x| x == c)
                        {
                            s.p[a].fixed.remove(k);
                        }
                        self.apply_effect(&mut s, a, e);
                    }
                }
            }
            Action::Pass => {}
            Action::EndTurn => {
                let side = &mut s.p[p];
                for c in side.camp.iter_mut() {
                    c.fresh = false;
                }
                for f in side.battle.iter_mut().flatten() {
                    f.stunned = false;
                }
                s.point_ok = side.battle.iter().flatten().all(|f| f.exhausted);
                s.p[0].used.fill(0);
                s.p[1].used.fill(0);
                s.to_move = 1 - p;
                s.turn += 1;
                self.begin_turn(&mut s);
            }
        }
        s.window = window;
        s
    }
}

/// The opening of one player, checked (XT-3, XT-7, XT-8).
impl Xterminio {
    fn open_side(&self, ps: &PlayerSetup, mode: Mode) -> Result<Side, Violation> {
        let n = &self.t.n;
        let count = self.t.cards.len();
        let name = &ps.name;
        let mut owned = vec![0u8; count];
        for (id, &k) in &ps.deck {
            let c = self.known(id, "XT-3")?;
            owned[c as usize] = owned[c as usize].saturating_add(k.min(255) as u8);
        }
        let draw = |hand: &[String], what: &str| -> Result<Vec<u8>, Violation> {
            let mut counts = vec![0u16; count];
            let (mut chars, mut support) = (0, 0);
            for id in hand {
                let c = self.known(id, "XT-3")?;
                counts[c as usize] += 1;
                if counts[c as usize] > owned[c as usize] as u16 {
                    return Err(v("XT-3", format!("{name}'s {what} holds more `{id}` than the deck"))
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
                return Err(v("XT-3", format!("{name}'s {what} is not a proper opening draw"))
                    .expected(format!(
                        "{} characters and {} support cards",
                        n.opening_characters, n.opening_support
                    ))
                    .found(format!("{chars} characters and {support} support cards")));
            }
            Ok(counts.iter().map(|&k| k as u8).collect::<Vec<u8>>())
        };
        if ps.mulligans.len() > n.mulligans {
            return Err(v("XT-3", format!("{name} takes {} mulligans", ps.mulligans.len()))
                .expected(format!("at most {} mulligan", n.mulligans))
                .found(format!("{} mulligans", ps.mulligans.len())));
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
            let c = self.known(id, "XT-3")?;
            if hand[c as usize] == 0 {
                return Err(v("XT-3", format!("{name} lays `{id}` without it in the opening hand"))
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
                return Err(v("XT-3", format!("`{}` is not a character slot", slot.id()))
                    .expected("advance-left/center/right or cover-left/right")
                    .found(slot.id()));
            };
            if info.kind != Kind::Character || info.powered {
                return Err(v(
                    "XT-3",
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
                    "XT-8",
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
            return Err(v("XT-7", format!("{name} opens with {life} life in BATTLE"))
                .expected(format!(
                    "at most {} life in the opening BATTLE (XTerminar)",
                    n.opening_limit
                ))
                .found(format!("{life} life")));
        }
        if ps.camp.len() > n.camp_slots {
            return Err(v("XT-3", format!("{name} lays {} cards in CAMP", ps.camp.len()))
                .expected(format!("at most {} cards in CAMP", n.camp_slots))
                .found(format!("{} cards", ps.camp.len())));
        }
        let mut camp = Vec::with_capacity(n.camp_slots);
        for id in &ps.camp {
            let c = take(id, &mut hand)?;
            let kind = self.t.get(c).kind;
            if !matches!(kind, Kind::Character | Kind::Equipment) {
                return Err(v(
                    "XT-3",
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
                    return Err(v("XT-3", format!("`{id}` is {}, not a zone", kind.name()))
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
        let hand_n = hand.iter().map(|&k| k as u16).sum();
        Ok(Side {
            deck,
            deck_chars,
            deck_support,
            owned,
            hand,
            hand_n,
            camp,
            battle,
            zone,
            energy_eq: None,
            fixed: Vec::with_capacity(8),
            used: vec![0; count],
            died: vec![false; count],
            energy: 0,
            score: 0,
        })
    }

    /// Every plausible action (`wide`: near misses too), for
    /// [`Engine::legal_actions`] (filtered) and [`Engine::candidates`].
    fn superset(&self, s: &State, wide: bool, rng: &mut Option<&mut fastrand::Rng>, out: &mut Vec<Action>) {
        let p = s.to_move;
        let q = 1 - p;
        let me = &s.p[p];
        let distinct = |counts: &[u8]| -> Vec<u8> {
            counts
                .iter()
                .enumerate()
                .filter(|(_, k)| **k > 0)
                .map(|(c, _)| c as u8)
                .collect()
        };
        let id = |c: u8| self.t.id(c).to_string();
        let hand = distinct(&me.hand);
        let mut camp: Vec<u8> = me.camp.iter().map(|c| c.card).collect();
        camp.sort_unstable();
        camp.dedup();
        // The draw.
        if !s.drawn || wide {
            let left = (me.deck_chars + me.deck_support) as usize;
            let need = self.t.n.turn_draw.min(left);
            let sizes: &[usize] = if wide {
                &[need, need + 1, need.saturating_sub(1)]
            } else {
                &[need]
            };
            for &size in sizes {
                for k in 0..=size {
                    if (k as u16) <= me.deck_chars && ((size - k) as u16) <= me.deck_support || wide {
                        let mut cards = vec![CHAR_DECK.to_string(); k];
                        cards.extend(std::iter::repeat_n(SUPPORT_DECK.to_string(), size - k));
                        out.push(Action::Draw { cards });
                    }
                }
            }
            if !s.drawn && !wide {
                self.anytime(s, wide, out);
                return;
            }
        }
        let mine: Vec<Slot> = Slot::CHARACTER
            .into_iter()
            .filter(|sl| Self::fighter(s, p, *sl).is_some())
            .collect();
        let theirs: Vec<Slot> = Slot::CHARACTER
            .into_iter()
            .filter(|sl| Self::fighter(s, q, *sl).is_some())
            .collect();
        let free: Vec<Slot> = Slot::CHARACTER
            .into_iter()
            .filter(|sl| Self::fighter(s, p, *sl).is_none())
            .collect();
        let slots_to: &[Slot] = if wide { &Slot::ALL } else { &free };
        if s.phase <= Phase::Main || wide {
            for &c in &camp {
                match self.t.get(c).kind {
                    Kind::Character => {
                        for &to in slots_to {
                            out.push(Action::Deploy { card: id(c), to });
                        }
                    }
                    Kind::Equipment => {
                        let targets: &[Slot] = if wide { &Slot::ALL } else { &mine };
                        for &to in targets {
                            out.push(Action::Equip { card: id(c), to });
                        }
                        out.push(Action::Equip {
                            card: id(c),
                            to: Slot::CoverEnergy,
                        });
                    }
                    _ => {}
                }
            }
            for &c in &hand {
                let k = self.t.get(c).kind;
                if k == Kind::Zone || wide {
                    out.push(Action::Zone { card: id(c) });
                }
                if wide && k == Kind::Character {
                    out.push(Action::Deploy {
                        card: id(c),
                        to: free.first().copied().unwrap_or(Slot::CoverZone),
                    });
                }
            }
            for &from in &mine {
                for &to in slots_to {
                    if to != from {
                        out.push(Action::Move { from, to });
                    }
                }
                let f = Self::fighter(s, p, from).map(|f| f.card);
                if wide || f.is_some_and(|c| self.t.get(c).powered_version.is_some() && !self.t.get(c).powered) {
                    out.push(Action::PowerUp { slot: from });
                }
            }
            for (c, &k) in me.owned.iter().enumerate() {
                if k > 0 && self.t.get(c as u8).powered {
                    out.push(Action::Fetch { card: id(c as u8) });
                }
            }
        }
        if s.phase <= Phase::Attack || wide {
            for &from in &mine {
                let Some(f) = Self::fighter(s, p, from) else { continue };
                // Outside `wide`, skip what `check` rejects anyway (cheaper).
                if !wide && (f.attacked || f.exhausted) {
                    continue;
                }
                if wide || s.point_ok {
                    out.push(Action::PointAttack { attacker: from });
                }
                let info = self.t.get(f.card);
                for k in 1..=info.attacks.len() as u8 {
                    if !wide && info.attacks[k as usize - 1].cost > me.energy {
                        continue;
                    }
                    for &target in &theirs {
                        out.push(Action::Attack {
                            attacker: from,
                            attack: k,
                            target,
                            intercept: None,
                        });
                        for &by in &theirs {
                            let Some(g) = Self::fighter(s, q, by) else { continue };
                            if !wide && (g.exhausted || g.stunned) {
                                continue;
                            }
                            for (j, st) in self.t.get(g.card).attacks.iter().enumerate() {
                                if st.interception && (wide || st.cost <= s.p[q].energy) {
                                    out.push(Action::Attack {
                                        attacker: from,
                                        attack: k,
                                        target,
                                        intercept: Some(Intercept {
                                            by,
                                            attack: j as u8 + 1,
                                        }),
                                    });
                                }
                            }
                        }
                    }
                }
            }
            if wide && let Some(rng) = rng.as_deref_mut() {
                for _ in 0..6 {
                    let pick = |rng: &mut fastrand::Rng| Slot::CHARACTER[rng.usize(..5)];
                    let attacker = pick(rng);
                    let target = pick(rng);
                    let intercept = rng.bool().then(|| Intercept {
                        by: pick(rng),
                        attack: rng.u8(1..=3),
                    });
                    out.push(Action::Attack {
                        attacker,
                        attack: rng.u8(1..=3),
                        target,
                        intercept,
                    });
                }
            }
        }
        if s.phase <= Phase::Camp || wide {
            for &c in &hand {
                if wide || matches!(self.t.get(c).kind, Kind::Character | Kind::Equipment) {
                    out.push(Action::Camp { card: id(c) });
                }
            }
        }
        for &c in &hand {
            out.push(Action::Discard { card: id(c) });
        }
        self.anytime(s, wide, out);
    }

    /// Steps allowed at any moment: ending the turn, action cards,
    /// abilities, answering, trading a powered card for ENERGY.
    fn anytime(&self, s: &State, wide: bool, out: &mut Vec<Action>) {
        let p = s.to_move;
        let q = 1 - p;
        let me = &s.p[p];
        let id = |c: u8| self.t.id(c).to_string();
        let distinct = |counts: &[u8]| -> Vec<u8> {
            counts
                .iter()
                .enumerate()
                .filter(|(_, k)| **k > 0)
                .map(|(c, _)| c as u8)
                .collect()
        };
        let hand = distinct(&me.hand);
        let mut camp: Vec<u8> = me.camp.iter().map(|c| c.card).collect();
        camp.sort_unstable();
        camp.dedup();
        for &c in hand.iter().chain(&camp) {
            if self.t.get(c).powered {
                out.push(Action::DiscardPowered { card: id(c) });
            }
        }
        out.push(Action::EndTurn);
        out.push(Action::Pass);
        // Action cards and abilities, by either player.
        for a in [p, q] {
            let by = (a != p).then(|| s.names[a].clone());
            for c in distinct(&s.p[a].hand) {
                if wide || self.t.get(c).kind == Kind::Action && s.window != Some(a) {
                    out.push(Action::Play {
                        card: id(c),
                        by: by.clone(),
                        effect: None,
                    });
                }
            }
            let mut sources: Vec<u8> = s.p[a].battle.iter().flatten().map(|f| f.card).collect();
            sources.extend(s.p[a].battle.iter().flatten().filter_map(|f| f.equipment));
            sources.extend(s.p[a].zone);
            sources.extend(s.p[a].energy_eq);
            sources.extend(s.p[a].fixed.iter().copied());
            sources.retain(|&c| wide || self.t.get(c).text && s.p[a].used[c as usize] < Self::in_play(&s.p[a], c));
            sources.sort_unstable();
            sources.dedup();
            for c in sources {
                out.push(Action::Ability {
                    card: id(c),
                    by: by.clone(),
                    effect: None,
                });
            }
        }
    }
}

impl Engine for Xterminio {
    const GAME: &'static str = GAME_ID;
    const TURN_RULE: &'static str = "XT-4";
    type State = State;
    type Action = Action;
    type Setup = Setup;

    fn new(game: &Game) -> Result<Self, String> {
        let t = Tables::new(game)?;
        // A standard 60-card deck per faction for random games: every
        // character, then equipment and actions up to 23 and zones up to 4.
        let mut decks = Vec::new();
        for faction in ["resistance", "swarm"] {
            let mut deck = BTreeMap::new();
            let (mut support, mut zones) = (0u32, 0u32);
            for kind in ["character", "equipment", "action", "zone"] {
                for c in game.components.get(kind).map(Vec::as_slice).unwrap_or_default() {
                    if c.field("faction").and_then(FieldValue::as_str) != Some(faction) {
                        continue;
                    }
                    let k = match kind {
                        "character" => c.copies,
                        "zone" => c.copies.min(4 - zones),
                        _ => c.copies.min(23 - support),
                    };
                    match kind {
                        "zone" => zones += k,
                        "character" => {}
                        _ => support += k,
                    }
                    if k > 0 {
                        deck.insert(c.id.clone(), k);
                    }
                }
            }
            decks.push(deck);
        }
        Ok(Xterminio { t, decks })
    }

    fn start(&self, setup: &Setup) -> Result<State, Violation> {
        let n = &self.t.n;
        if !(n.target_min..=n.target_max).contains(&setup.target) {
            return Err(v("XT-1", format!("the agreed target score is {}", setup.target))
                .expected(format!("{} to {} points", n.target_min, n.target_max))
                .found(format!("{} points", setup.target)));
        }
        if setup.players.len() != 2 {
            return Err(v("XT-3", "XTerminio is played by two players")
                .expected("2 players")
                .found(format!("{} players", setup.players.len())));
        }
        let names: Vec<String> = setup.players.iter().map(|p| p.name.clone()).collect();
        let Some(first) = names.iter().position(|x| *x == setup.first) else {
            return Err(v("XT-3", format!("`first: {}` names nobody in this game", setup.first))
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
        };
        self.begin_turn(&mut s);
        // The first player skips the draw of the first turn (XT-3).
        s.drawn = true;
        Ok(s)
    }

    fn to_move(&self, s: &State) -> usize {
        s.to_move
    }

    fn end_turn(&self) -> Action {
        Action::EndTurn
    }

    fn validate(&self, s: &State, a: &Action) -> Result<(), Violation> {
        self.check(s, a)
    }

    fn apply(&self, s: State, a: &Action) -> State {
        self.step(s, a)
    }

    fn legal_actions(&self, s: &State) -> Vec<Action> {
        if s.winner.is_some() {
            return Vec::new();
        }
        let mut all = Vec::new();
        self.superset(s, false, &mut None, &mut all);
        all.retain(|a| match a {
            Action::Draw { .. } => self.draw_split_ok(s, a),
            // Listed in canonical form (no effect): legal when the card may
            // act at all, since gaining 1 ENERGY is always a valid outcome.
            Action::Ability { card, by, effect: None } => self
                .check(
                    s,
                    &Action::Ability {
                        card: card.clone(),
                        by: by.clone(),
                        effect: Some(Effect {
                            energy: 1,
                            ..Effect::default()
                        }),
                    },
                )
                .is_ok(),
            _ => self.check(s, a).is_ok(),
        });
        all
    }

    fn ending(&self, s: &State) -> Option<Ending> {
        s.winner.map(|w| Ending {
            winners: vec![w],
            reason: "target-score".into(),
            rule: "XT-1",
        })
    }

    fn observe(&self, s: &State) -> Json {
        let per = |f: &dyn Fn(&Side) -> Json| -> Json {
            let mut m = Map::new();
            for (i, side) in s.p.iter().enumerate() {
                m.insert(s.names[i].clone(), f(side));
            }
            Json::Object(m)
        };
        let battle = |side: &Side| -> Json {
            let mut m = Map::new();
            for (i, f) in side.battle.iter().enumerate() {
                if let Some(f) = f {
                    let mut txt = self.t.id(f.card).to_string();
                    if let Some(e) = f.equipment {
                        txt.push_str(" + ");
                        txt.push_str(self.t.id(e));
                    }
                    m.insert(Slot::CHARACTER[i].id().into(), Json::from(txt));
                }
            }
            Json::Object(m)
        };
        let damage = |side: &Side| -> Json {
            let mut m = Map::new();
            for (i, f) in side.battle.iter().enumerate() {
                if let Some(f) = f.filter(|f| f.damage > 0) {
                    m.insert(Slot::CHARACTER[i].id().into(), Json::from(f.damage));
                }
            }
            Json::Object(m)
        };
        let exhausted = |side: &Side| -> Json {
            Json::from(
                side.battle
                    .iter()
                    .enumerate()
                    .filter(|(_, f)| f.is_some_and(|f| f.exhausted))
                    .map(|(i, _)| Slot::CHARACTER[i].id())
                    .collect::<Vec<_>>(),
            )
        };
        let camp = |side: &Side| -> Json {
            let mut ids: Vec<&str> = side.camp.iter().map(|c| self.t.id(c.card)).collect();
            ids.sort_unstable();
            Json::from(ids)
        };
        json!({
            "turn": s.turn,
            "player": s.names[s.to_move],
            "phase": if s.drawn { s.phase.name() } else { "draw" },
            "score": per(&|x| Json::from(x.score)),
            "energy": per(&|x| Json::from(x.energy)),
            "hand": per(&|x| Json::from(x.hand_n)),
            "battle": per(&battle),
            "damage": per(&damage),
            "exhausted": per(&exhausted),
            "camp": per(&camp),
        })
    }

    fn choice(&self, a: &Action) -> Action {
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
            Action::Play { card, by, .. } => Action::Play {
                card: card.clone(),
                by: by.clone(),
                effect: None,
            },
            Action::Ability { card, by, .. } => Action::Ability {
                card: card.clone(),
                by: by.clone(),
                effect: None,
            },
            other => other.clone(),
        }
    }

    fn randomize(&self, s: &State, a: &mut Action, rng: &mut fastrand::Rng) {
        if let Action::Ability { by, effect, .. } = a {
            if effect.is_none() {
                let who = self.actor(s, by, "XT-4").unwrap_or(s.to_move);
                *effect = Some(self.random_effect(s, who, rng));
            }
            return;
        }
        let Action::Draw { cards } = a else {
            return;
        };
        let side = &s.p[s.to_move];
        let mut deck = side.deck.clone();
        for slot in cards.iter_mut() {
            let want_support = match slot.as_str() {
                SUPPORT_DECK => true,
                CHAR_DECK => false,
                _ => continue,
            };
            let pool: Vec<(usize, u8)> = deck
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
                    deck[c] -= 1;
                    *slot = self.t.id(c as u8).to_string();
                    break;
                }
                r -= k as usize;
            }
        }
    }

    fn random_setup(&self, rng: &mut fastrand::Rng) -> Setup {
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
            let deck = self.decks[(i + swap as usize) % self.decks.len().max(1)].clone();
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

    fn candidates(&self, s: &State, rng: &mut fastrand::Rng) -> Vec<Action> {
        let mut out = Vec::new();
        self.superset(s, true, &mut Some(rng), &mut out);
        out
    }
}

impl Xterminio {
    /// A plausible recorded outcome of a card text: 1 damage to an enemy,
    /// 1 healed on a wounded character of the player's, or 1 ENERGY.
    fn random_effect(&self, s: &State, who: usize, rng: &mut fastrand::Rng) -> Effect {
        let pick = |side: usize, wounded: bool| -> Vec<Slot> {
            Slot::CHARACTER
                .into_iter()
                .filter(|sl| Self::fighter(s, side, *sl).is_some_and(|f| !wounded || f.damage > 0))
                .collect()
        };
        let mut e = Effect::default();
        match rng.u8(..3) {
            0 if !pick(1 - who, false).is_empty() => {
                let t = pick(1 - who, false);
                e.damage.insert(t[rng.usize(..t.len())], 1);
            }
            1 if !pick(who, true).is_empty() => {
                let t = pick(who, true);
                e.heal.insert(t[rng.usize(..t.len())], 1);
            }
            _ => e.energy = 1,
        }
        e
    }

    /// A canonical draw (deck names for the cards) that a real draw could match.
    fn draw_split_ok(&self, s: &State, a: &Action) -> bool {
        let Action::Draw { cards } = a else { return false };
        let side = &s.p[s.to_move];
        let need = self.t.n.turn_draw.min((side.deck_chars + side.deck_support) as usize);
        let chars = cards.iter().filter(|c| *c == CHAR_DECK).count();
        let support = cards.iter().filter(|c| *c == SUPPORT_DECK).count();
        s.turn != 1
            && !s.drawn
            && chars + support == cards.len()
            && cards.len() == need
            && chars as u16 <= side.deck_chars
            && support as u16 <= side.deck_support
    }
}

#[cfg(test)]
mod tests;
