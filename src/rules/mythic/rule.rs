//! The numbered rules of Mythic Battles: Pantheon (`rule_ids` MB-1 … MB-13
//! of the pack), as every violation cites them.

/// Setup: armies, hands, the battlefield, the learning scenario's positions.
pub const SETUP: &str = "MB-1";
/// The turn: the draw first, battle cycles.
pub const TURN: &str = "MB-2";
/// Activations: at most two units, the second paid.
pub const ACTIVATION: &str = "MB-3";
/// Art of War manoeuvres and paid powers, once per turn each.
pub const ART_OF_WAR: &str = "MB-4";
/// An activation's actions: two simple or one special.
pub const ACTIONS: &str = "MB-5";
/// Movement: reach, enemies, full areas.
pub const MOVE: &str = "MB-6";
/// Attacks: melee, range, line of sight.
pub const ATTACK: &str = "MB-7";
/// The attack roll and its successes.
pub const ROLL: &str = "MB-8";
/// Wounds and destroyed units.
pub const WOUNDS: &str = "MB-9";
/// Counter-attacks.
pub const COUNTER: &str = "MB-10";
/// Calling a troop.
pub const CALL: &str = "MB-11";
/// A turn without activations draws an extra card.
pub const REST: &str = "MB-12";
/// Victory.
pub const VICTORY: &str = "MB-13";
