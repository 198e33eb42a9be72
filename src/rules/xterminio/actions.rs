//! The actions of an XTerminio log (docs/log-format/xterminio.md): BATTLE
//! slots, interceptions, and the recorded outcome of a card text
//! ([`Effect`]).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

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
    pub fn index(self) -> Option<usize> {
        let i = self as usize;
        (i < 5).then_some(i)
    }
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
