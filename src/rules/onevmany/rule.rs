//! The numbered rules of ONE v MANY (`rule_ids` OVM-1 … OVM-13 of the pack),
//! as every violation cites them.

/// Setup: ONE's character, MANY's boss, its tokens and reserve.
pub const SETUP: &str = "OVM-1";
/// Round start: the scenario revealed, MANY deployed on red squares, ONE on a blue one.
pub const ROUND_START: &str = "OVM-2";
/// Turn order: ONE's actions, then MANY's, at most 10 turns a round.
pub const TURN: &str = "OVM-3";
/// ONE spends at most its action points per turn.
pub const ONE_ACTIONS: &str = "OVM-4";
/// ONE moves one orthogonal square; obstacles cost an extra point.
pub const ONE_MOVE: &str = "OVM-5";
/// ONE attacks a MANY token in a straight line within range.
pub const ONE_ATTACK: &str = "OVM-6";
/// Scenario interactions and equipment cost what their card says.
pub const CARD_ACTIONS: &str = "OVM-7";
/// MANY activates every unit; each spends at most its actions.
pub const MANY_ACTIVATION: &str = "OVM-8";
/// A MANY unit attacks ONE in a straight line within its range.
pub const MANY_ATTACK: &str = "OVM-9";
/// Round end: a cleared board ends the round.
pub const ROUND_END: &str = "OVM-10";
/// The upgrade phase: draw, pair, pick.
pub const UPGRADES: &str = "OVM-11";
/// The boss round and its showdown.
pub const BOSS_ROUND: &str = "OVM-12";
/// Victory and the end of the game.
pub const VICTORY: &str = "OVM-13";
