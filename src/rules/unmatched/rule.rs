//! The numbered rules of Unmatched (`rule_ids` UM-1 … UM-12 of the pack),
//! as every violation cites them.

/// Setup: heroes, decks, opening hands, start spaces.
pub const SETUP: &str = "UM-1";
/// Two actions a turn: maneuver, scheme, attack.
pub const ACTIONS: &str = "UM-2";
/// The hand limit at the end of the turn.
pub const HAND_LIMIT: &str = "UM-3";
/// A maneuver draws a card (exhaustion when the deck is empty).
pub const DRAW: &str = "UM-4";
/// Moves and boosts of a maneuver.
pub const MOVE: &str = "UM-5";
/// Schemes.
pub const SCHEME: &str = "UM-6";
/// Attacks: card, attacker, target in reach.
pub const ATTACK: &str = "UM-7";
/// The defender's answer.
pub const DEFENSE: &str = "UM-8";
/// Combat damage and its winner.
pub const DAMAGE: &str = "UM-9";
/// The order card effects resolve in.
pub const EFFECTS: &str = "UM-10";
/// Defeated fighters and heroes; the end of the game.
pub const DEFEAT: &str = "UM-11";
/// Team play.
pub const TEAMS: &str = "UM-12";
