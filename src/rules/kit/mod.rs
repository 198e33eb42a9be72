//! The rules kit: what every engine is built from.
//!
//! - [`graph`]: a board as a graph of at most 64 nodes (spaces, cells,
//!   areas, squares, slots): ids, adjacency, distances, reach, lines.
//! - [`ids`]: id tables (pack ids ↔ small indices).
//! - [`piles`]: card piles as counts per card index (hands, decks, discard
//!   piles).
//! - [`dice`]: dice faces, roll-offs and random rolls.
//! - [`effects`]: the card-effect interpreter (docs/effects.md).
//! - [`pack`]: reading the tables an engine needs from the validated pack,
//!   every problem a located `engine-data` diagnostic.
//!
//! The layout every engine follows (`src/rules/<game>/`) and the place where
//! card effects plug in are described in docs/architecture.md ("Rules
//! engines").

pub mod dice;
pub mod effects;
pub mod graph;
pub mod ids;
pub mod pack;
pub mod piles;
pub mod trace;

pub use graph::{Graph, Set, bits};
pub use ids::IdTable;
pub use pack::Reader;
pub use piles::Pile;

use super::Violation;

/// A violation of `rule` (what the engines build their checks from).
pub fn v(rule: &'static str, message: impl Into<String>) -> Violation {
    Violation::new(rule, message)
}

/// `1 card`, `3 cards`.
pub fn plural(n: impl Into<i64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `first`, `second` … (`further` beyond the fourth).
pub fn ordinal(n: impl Into<i64>) -> &'static str {
    match n.into() {
        1 => "first",
        2 => "second",
        3 => "third",
        4 => "fourth",
        _ => "further",
    }
}
