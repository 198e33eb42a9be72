//! The actions of an Open Wars log (docs/log-format/openwars.md).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

pub(super) fn one() -> u8 {
    1
}

pub(super) fn is_one(n: &u8) -> bool {
    *n == 1
}

/// One action of a log (docs/log-format/openwars.md).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "do", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Action {
    /// 2d6 per tied player (seat order), round after round until broken.
    OrderRoll {
        roll: Vec<u8>,
    },
    /// The controlled cells and what they yield.
    Collect {
        from: Vec<String>,
        gold: u32,
        mana: u32,
    },
    Recruit {
        unit: String,
        at: String,
        #[serde(default = "one", skip_serializing_if = "is_one")]
        tokens: u8,
    },
    /// One orthogonal step of `tokens` tokens of a stack.
    Move {
        unit: String,
        from: String,
        to: String,
        #[serde(default = "one", skip_serializing_if = "is_one")]
        tokens: u8,
    },
    /// The next combat to resolve.
    Fight {
        at: String,
    },
    Attack {
        unit: String,
        at: String,
        /// One d6 per tied player when initiative ties across players.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        tie: Vec<u8>,
        roll: Vec<u8>,
        /// The defender's choice: tokens removed per unit.
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        casualties: BTreeMap<String, u8>,
    },
    Retreat {
        unit: String,
        to: String,
        #[serde(default = "one", skip_serializing_if = "is_one")]
        tokens: u8,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        tie: Vec<u8>,
    },
    Hold {
        unit: String,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        tie: Vec<u8>,
    },
    Cast {
        spell: String,
        caster: String,
        from: String,
        at: String,
        /// What the spell did, in words (not interpreted).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        effect: Option<String>,
    },
    EndTurn,
}
