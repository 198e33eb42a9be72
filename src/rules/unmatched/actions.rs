//! The actions of an Unmatched log (docs/log-format/unmatched.md) and the
//! recorded outcome of a card text ([`Effect`]).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

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
