//! Printing part of a kit: which pieces (and how many copies, and which
//! variants of a board) a build lays out per game and locale, and what its
//! cover says about them. A reprint pack is an ordinary kit built through
//! the same pipeline and imposition with a [`Reprint`] in its options.

use std::collections::{BTreeSet, HashMap};

use serde_json::Value;

/// What one game prints in one locale.
#[derive(Clone, Debug, Default)]
pub struct Pick {
    /// Copies to print per piece, by (kind, id); a piece not listed is left out.
    pub copies: HashMap<(String, String), u32>,
    /// Boards printed once per variant: the variants to print per board (kind, id).
    pub variants: HashMap<(String, String), BTreeSet<String>>,
    /// Whether the rules reference and the quick reference are part of it.
    pub rules: bool,
    pub quickref: bool,
    /// What the cover says, already in the locale: `{title, intro, sections: [{title, lines}]}`.
    pub note: Value,
}

impl Pick {
    /// Whether anything is printed at all.
    pub fn is_empty(&self) -> bool {
        self.copies.values().all(|n| *n == 0) && self.variants.is_empty() && !self.rules && !self.quickref
    }
}

/// Picks by (game, locale); a game and locale without one prints nothing.
#[derive(Clone, Debug, Default)]
pub struct Reprint {
    pub picks: HashMap<(String, String), Pick>,
}

impl Reprint {
    pub fn pick(&self, game: &str, locale: &str) -> Option<&Pick> {
        self.picks.get(&(game.to_owned(), locale.to_owned()))
    }
}
