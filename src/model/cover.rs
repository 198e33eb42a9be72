//! What the kit's cover tells the table besides the files to print: what
//! else players need (`needs:`), and which content is the pack's own
//! proposal rather than the source rulebook's (`proposals:`). Both are
//! declared under `cover:` in game.yaml; the cover adds what follows from the
//! kit itself (cutting tools, glue for boards printed over several sheets).

use serde::Serialize;

use super::Text;
use crate::diag::Span;

/// Something players need that the kit does not print.
#[derive(Clone, Debug, Serialize)]
pub struct Need {
    /// What it is, for players: "six-sided dice".
    pub item: Text,
    /// How many, when it matters.
    pub count: Option<u32>,
    /// What it is for, in a few words.
    pub why: Text,
    /// The numbered rule that asks for it (`MB-8`), checked against `rule_ids`.
    pub rule: Option<String>,
    /// The printed kinds that need it (dials that turn on a pin), checked against `kinds`.
    pub kinds: Vec<String>,
    #[serde(skip)]
    pub span: Option<Span>,
}

/// Content the source rulebook does not give, which the pack proposes.
#[derive(Clone, Debug, Serialize)]
pub struct Proposal {
    /// The kinds concerned (their pieces are the proposal).
    pub kinds: Vec<String>,
    /// What the pack proposes and what players may change.
    pub note: Text,
    #[serde(skip)]
    pub span: Option<Span>,
}

/// The `cover:` declaration of a game.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Cover {
    pub needs: Vec<Need>,
    pub proposals: Vec<Proposal>,
}
