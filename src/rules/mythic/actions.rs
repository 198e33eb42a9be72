//! The actions of a Mythic Battles log (docs/log-format/mythic.md). Chance
//! results (`cards`, `others`, `roll`, `reroll`, `hits`) are recorded inline.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

pub(super) fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// Cards an effect draws (Realm of Shades): like a turn's draw, with
/// the other players' cards when a new battle cycle starts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Drawn {
    pub cards: Vec<String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub others: BTreeMap<String, Vec<String>>,
}

/// One action. Chance results (`cards`, `others`, `roll`, `reroll`,
/// `hits`, `drew`) are recorded inline.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "do", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Action {
    /// The draw that opens every turn (MB-2); `others` lists what the other
    /// players draw from their new decks when a battle cycle starts.
    Draw {
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        cards: Vec<String>,
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        others: BTreeMap<String, Vec<String>>,
    },
    /// A turn without activations: the extra card (MB-12).
    Rest {
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        cards: Vec<String>,
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        others: BTreeMap<String, Vec<String>>,
    },
    /// Manoeuvre: draw 2 cards (MB-4).
    DrawTwo {
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        cards: Vec<String>,
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        others: BTreeMap<String, Vec<String>>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pay: Vec<String>,
    },
    /// Manoeuvre: take any card from the deck (MB-4).
    Search {
        /// The card taken (recorded like a drawn card).
        #[serde(default, skip_serializing_if = "String::is_empty")]
        card: String,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pay: Vec<String>,
    },
    /// Manoeuvre: call a troop back to the God's area; closes the turn (MB-11).
    CallTroop {
        troop: String,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pay: Vec<String>,
    },
    /// Play an activation card of a unit (MB-3); the second activation of
    /// the turn also pays an Art of War card (`pay`).
    Activate {
        unit: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        card: Option<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pay: Vec<String>,
    },
    /// Special action: place a unit in a deployment area.
    Enter {
        unit: String,
        to: String,
    },
    /// Simple action (MB-5, MB-6).
    Move {
        unit: String,
        to: String,
    },
    /// Special action: move with movement + 1.
    Run {
        unit: String,
        to: String,
    },
    /// Simple action: attack (MB-7, MB-8, MB-9), with a special attack when
    /// `power` names one.
    Attack {
        unit: String,
        target: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        power: Option<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pay: Vec<String>,
        /// The friendly unit in the target's area that made itself the
        /// target instead (Guard): the dice are rolled against it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        guard: Option<String>,
        /// The area next to the defender's the attacker moves it to,
        /// paid with blank dice of the first roll (Mighty Throw).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        displace: Option<String>,
        /// The dice as first thrown, when effects rerolled some of them
        /// before anything else (Monster Slayer, Bloodlust, Heracles'
        /// Defiance): `roll` then lists the dice after those rerolls, in
        /// the same order.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        before: Vec<u8>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        roll: Vec<u8>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        reroll: Vec<u8>,
        #[serde(default, skip_serializing_if = "is_zero")]
        hits: u8,
        /// Cards drawn because the attack destroys its target where an
        /// effect draws for it (Hades' Realm of Shades).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        drew: Option<Drawn>,
        /// What a power did instead of wounds, in words (not interpreted).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        effect: Option<String>,
    },
    /// The attacked unit strikes back, right after a melee attack (MB-10).
    Counter {
        unit: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        card: Option<String>,
        /// The power that lets the unit counter-attack without a card
        /// (King of Sparta).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<String>,
        /// The dice as first thrown, when effects rerolled some of them
        /// before anything else (Monster Slayer, Bloodlust, Heracles'
        /// Defiance): `roll` then lists the dice after those rerolls, in
        /// the same order.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        before: Vec<u8>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        roll: Vec<u8>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        reroll: Vec<u8>,
        #[serde(default, skip_serializing_if = "is_zero")]
        hits: u8,
        /// Cards drawn because the attack destroys its target where an
        /// effect draws for it (Hades' Realm of Shades).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        drew: Option<Drawn>,
    },
    /// Simple action: pick up an omphalos (from an adjacent area with Gem Collector).
    PickUp {
        unit: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        from: Option<String>,
    },
    /// Free: leave the carried omphalos in the unit's area.
    Drop {
        unit: String,
    },
    /// Special action of a God: absorb an omphalos on the ground or carried
    /// by a friendly unit (`from`).
    Absorb {
        unit: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        from: Option<String>,
    },
    /// Use an active or permanent power (paid with Art of War cards).
    Power {
        unit: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        power: Option<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pay: Vec<String>,
        /// What the power did, in words (not interpreted).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        effect: Option<String>,
    },
    /// 3 vs 1: a unit (not a God) leaves over the board's edge (a move).
    Leave {
        unit: String,
    },
    /// When the activated unit's activation ends, its effect (Leader)
    /// takes one of `troop`'s activation cards from the deck into the hand;
    /// the troop may be activated next without an Art of War card.
    Lead {
        unit: String,
        troop: String,
    },
    /// Right after an enemy unit's activation, a unit whose power allows
    /// it moves to an adjacent area (Odysseus' Cunning), its player paying
    /// the power; the enemy's activation is over.
    Shift {
        unit: String,
        to: String,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pay: Vec<String>,
    },
    /// Its player discards one of the unit's activation cards to take its
    /// petrification marker off (Petrifying Gaze).
    RemovePetrification {
        unit: String,
    },
    EndTurn,
}
