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
        /// The die a feature of `to` makes the stack roll on entering.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        roll: Vec<u8>,
    },
    /// The next combat to resolve.
    Fight {
        at: String,
        /// The die each stack rolls for a combat-start feature, per unit.
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        rolls: BTreeMap<String, u8>,
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
        /// The die each destroyed stack rolls for an effect that may bring
        /// it back, per unit.
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        rolls: BTreeMap<String, u8>,
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
        /// The unit in `at` a spell with one target affects.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<String>,
        /// What a spell whose effect the engine cannot check did, in words.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        effect: Option<String>,
        /// The die (or dice) a spell's outcome hangs on.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        roll: Vec<u8>,
        /// One die per stack of the target location, when each rolls.
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        rolls: BTreeMap<String, u8>,
        /// The locations the target moves through (a spell's move, a
        /// teleport: one location).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        path: Vec<String>,
        /// The attack a spell grants the target, where it ends up.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        attack: Option<Strike>,
        /// The spell a dispel cancels.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cancels: Option<String>,
    },
    EndTurn,
}

/// An attack a spell grants: its dice and the defender's casualties.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Strike {
    pub roll: Vec<u8>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub casualties: BTreeMap<String, u8>,
}
