//! The actions of a ONE v MANY log, and the recorded outcome of a card text
//! ([`Effect`]) that interactions, equipment and triggers carry.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

fn is_zero(n: &i8) -> bool {
    *n == 0
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// The recorded outcome of a card text the engine cannot read (a scenario
/// interaction, an equipment action, an ability, a showdown, an upgrade).
/// Everything is optional; an empty effect changes nothing.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Effect {
    /// Extra (or fewer) action points for the acting token this phase or
    /// activation.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub actions: i8,
    /// Added to the acting token's attack range this phase or activation.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub range: i8,
    /// Added to the acting token's DMG this phase or activation.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub damage: i8,
    /// The acting token may enter obstacle squares (MANY) or enters them
    /// without the extra point (ONE) this phase or activation.
    #[serde(default, skip_serializing_if = "is_false")]
    pub climb: bool,
    /// Life gained (+) or lost (−) by the token on each square.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub life: BTreeMap<String, i8>,
    /// Obstacles or walls taken off these squares.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub remove: Vec<String>,
    /// Obstacles put on these empty squares.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub obstacle: Vec<String>,
    /// Walls put on these empty squares.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub wall: Vec<String>,
    /// The acting token is set on this free square.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    /// The acting token trades squares with the token on this square.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub swap: Option<String>,
}

impl Effect {
    pub fn is_empty(&self) -> bool {
        *self == Effect::default()
    }
}

/// One action of a ONE v MANY log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "do", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Action {
    /// Round start: ONE turns over the top scenario card (chance).
    Reveal {
        #[serde(default, skip_serializing_if = "String::is_empty")]
        scenario: String,
    },
    /// Round start: MANY sets one starting token on a red square.
    Deploy {
        unit: String,
        square: String,
    },
    /// Round start: ONE sets its token on a blue square.
    Place {
        square: String,
    },
    /// ONE, or the activated MANY unit, steps to an adjacent square.
    Move {
        to: String,
    },
    /// ONE attacks the MANY token on `target`; a MANY unit attacks ONE
    /// (`target` is ONE's square).
    Attack {
        target: String,
    },
    /// MANY starts the activation of the unit on `square`.
    Activate {
        square: String,
    },
    /// A scenario interaction (1-based, in card order), paid in actions.
    Interact {
        interaction: u8,
        #[serde(default, skip_serializing_if = "Effect::is_empty")]
        effect: Effect,
    },
    /// The equipment action of an upgrade the acting side holds.
    Equip {
        card: String,
        #[serde(default, skip_serializing_if = "Effect::is_empty")]
        effect: Effect,
    },
    /// A card in force (ability, scenario, upgrade, showdown) takes effect.
    Trigger {
        by: String,
        #[serde(default, skip_serializing_if = "Effect::is_empty")]
        effect: Effect,
    },
    /// A card in force brings a reserve token onto a free red square.
    Reinforce {
        unit: String,
        square: String,
        by: String,
    },
    /// Upgrade phase: MANY draws two cards from each upgrade deck (chance).
    DrawUpgrades {
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        one: Vec<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        many: Vec<String>,
    },
    /// Upgrade phase: MANY pairs this ONE upgrade with this MANY upgrade
    /// (the other two cards make the other pair).
    Pair {
        one: String,
        many: String,
    },
    /// Upgrade phase: ONE takes the pair holding this ONE upgrade.
    Pick {
        one: String,
    },
    EndTurn,
}
