//! The numbered rules of Open Wars (`rule_ids` OW-1 … OW-16 of the pack),
//! and the two reference sections cited where no numbered rule applies.

/// Setup problems no numbered rule covers cite the reference's setup section.
pub const SETUP: &str = "setup-steps";
/// The game's end cites the reference's victory section.
pub const VICTORY: &str = "victory-conditions";
/// Turn order by army value; ties by 2d6.
pub const ORDER: &str = "OW-1";
/// Phases in order: collection, recruitment, movement, combat.
pub const PHASES: &str = "OW-2";
/// Control: own units and no enemy.
pub const CONTROL: &str = "OW-3";
/// Collection of gold and mana from controlled locations.
pub const COLLECTION: &str = "OW-4";
/// Recruitment in controlled cities, paid in gold.
pub const RECRUITMENT: &str = "OW-5";
/// Stacking limits.
pub const STACKING: &str = "OW-6";
/// Orthogonal movement paying entry costs.
pub const MOVEMENT: &str = "OW-7";
/// Water locations and water units.
pub const WATER: &str = "OW-8";
/// Engaged units stay until combat.
pub const ENGAGED: &str = "OW-9";
/// Combats one at a time, in the allowed order.
pub const COMBATS: &str = "OW-10";
/// Stacks act by initiative.
pub const INITIATIVE: &str = "OW-11";
/// The attack roll: one d6 per token.
pub const ROLL: &str = "OW-12";
/// Casualties, cheapest tokens first.
pub const CASUALTIES: &str = "OW-13";
/// Retreat instead of attacking.
pub const RETREAT: &str = "OW-14";
/// Ranged attacks: orthogonal targets within range.
pub const RANGED: &str = "OW-15";
/// Spells: magic units, mana, phase, reach.
pub const SPELLS: &str = "OW-16";
