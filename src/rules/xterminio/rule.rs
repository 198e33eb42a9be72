//! The numbered rules of XTerminio (`rule_ids` XT-1 … XT-12 of the pack),
//! as every violation cites them.

/// The agreed target score; the first to reach it wins.
pub const TARGET: &str = "XT-1";
/// Scoring: kills and point attacks.
pub const SCORING: &str = "XT-2";
/// The opening: draws, mulligans, the first layout.
pub const OPENING: &str = "XT-3";
/// The turn sequence and its phases.
pub const TURN: &str = "XT-4";
/// Cards wait a turn in CAMP before BATTLE.
pub const CAMP: &str = "XT-5";
/// ENERGY at turn start.
pub const ENERGY: &str = "XT-6";
/// XTerminar: deploy limit, opening limit, paid moves.
pub const XTERMINAR: &str = "XT-7";
/// One copy of a character in BATTLE.
pub const COPIES: &str = "XT-8";
/// One equipment per character.
pub const EQUIPMENT: &str = "XT-9";
/// Powered characters.
pub const POWERED: &str = "XT-10";
/// Interception.
pub const INTERCEPTION: &str = "XT-11";
/// Action cards: any time, answered one by one.
pub const ACTIONS: &str = "XT-12";
