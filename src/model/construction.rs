//! Deck and army construction rules as the model holds them: what a list may
//! name, the header fields it may give, and the rules it must keep
//! (docs/decks.md). Read from `game.yaml` by [`crate::pack::construction`];
//! checked against lists by [`crate::deck`].

use indexmap::IndexMap;
use serde::Serialize;

use super::{Component, Text};
use crate::diag::Span;

/// The construction rules of a game.
#[derive(Clone, Debug, Serialize)]
pub struct Construction {
    /// What a list is called in messages (`deck`, `army`), per locale.
    pub noun: Text,
    /// The kinds a list may name.
    pub kinds: Vec<String>,
    /// Fields a list's header may give (`hero: medusa`, `gold: 40`).
    pub header: IndexMap<String, HeaderField>,
    /// The kind whose components are the game modes (`--mode`), if any.
    pub modes: Option<String>,
    /// Roles a player may take (`--role`); the first is the default.
    pub roles: Vec<Role>,
    pub rules: Vec<DeckRule>,
    /// How a list becomes draw piles and how players draw (`deck --odds`).
    pub draw: Option<DrawRules>,
    /// `pool: shared`: every player drafts from one box (a component exists
    /// `copies` times in all), so what the other players of a game took
    /// cannot be bought; `own` (the default): each player has a whole box.
    pub shared_pool: bool,
    #[serde(skip)]
    pub span: Span,
}

/// How players draw from the piles their list makes (docs/decks.md#odds).
#[derive(Clone, Debug, Serialize)]
pub struct DrawRules {
    pub piles: Vec<Pile>,
    /// Cards drawn on each turn after the opening hand.
    pub per_turn: u32,
    /// The pile a turn's draws come from: `None` when the player chooses (the
    /// odds of a card then assume every draw from the pile that holds it).
    pub per_turn_from: Option<String>,
    /// The first player draws nothing on their first turn.
    pub first_player_skips: bool,
    /// Full mulligans allowed (the opening hand shuffled back and drawn again).
    pub mulligans: u32,
    /// The rules section the draw rules come from.
    pub cite: Option<String>,
    /// What a turn's draws are, per locale (`one maneuver a turn`).
    pub note: Option<Text>,
    /// Kinds of cards whose odds are shown together (`attack cards`).
    pub groups: Vec<DrawGroup>,
}

/// One draw pile.
#[derive(Clone, Debug, Serialize)]
pub struct Pile {
    pub id: String,
    pub name: Text,
    /// The pile holds the list's cards that match (`cards: {kind: card}`) …
    pub cards: Option<Filter>,
    /// … or the cards each listed piece brings (a unit's activation cards).
    pub brings: Vec<Brings>,
    /// Cards in the hand before the draw.
    pub set_aside: Vec<SetAside>,
    /// Cards drawn into the opening hand.
    pub opening: u32,
}

/// Cards in the hand before the first draw: `count` of the card `kind/id`,
/// taken out of the pile, or (`extra`) added from outside it (Mythic's 3
/// Art of War beside the ones the army brings).
#[derive(Clone, Debug, Serialize)]
pub struct SetAside {
    pub kind: String,
    pub id: String,
    pub count: u32,
    pub extra: bool,
}

/// Cards a listed piece brings to a pile: as many as its `field` says, of
/// the component `kind/id`, or of the component of `kind` whose `by` field
/// names the listed piece.
#[derive(Clone, Debug, Serialize)]
pub struct Brings {
    pub field: String,
    pub kind: String,
    pub id: Option<String>,
    pub by: Vec<String>,
}

/// Cards whose odds are shown together.
#[derive(Clone, Debug, Serialize)]
pub struct DrawGroup {
    pub id: String,
    pub label: Text,
    pub filter: Filter,
}

impl Construction {
    pub fn role(&self, id: &str) -> Option<&Role> {
        self.roles.iter().find(|r| r.id == id)
    }

    pub fn role_ids(&self) -> Vec<&str> {
        self.roles.iter().map(|r| r.id.as_str()).collect()
    }
}

/// A role a player may take, with its name per locale (`ally`, `aliado`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Role {
    pub id: String,
    pub name: Text,
}

/// A header field of a list.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HeaderField {
    #[serde(flatten)]
    pub ty: HeaderType,
    pub required: bool,
    /// The key per locale (`héroe` for `hero`); the field's id is always accepted.
    pub names: Text,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum HeaderType {
    /// Names a component of a kind (by id or name).
    Ref { kind: String },
    /// A whole number (a budget).
    Int,
}

/// One construction rule.
#[derive(Clone, Debug, Serialize)]
pub struct DeckRule {
    pub id: String,
    /// The rules-reference section it comes from.
    pub cite: Option<String>,
    /// What is counted, per locale, for messages (`characters`, `personajes`).
    pub label: Text,
    /// Only in these modes / roles (`when: {mode: [duel], role: ally}`).
    pub when: IndexMap<String, Vec<String>>,
    /// Which cards the rule looks at.
    pub filter: Filter,
    /// Count and distinct rules: apply the bound to each value of this field
    /// separately (`per: faction`: at most 1 legendary per faction).
    pub per: Option<String>,
    pub check: Check,
    /// Finer counts reported together with this one (`basic: 11 of 12`).
    pub parts: Vec<DeckRule>,
    #[serde(skip)]
    pub span: Span,
}

/// Cards of some kinds whose fields have some values.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Filter {
    pub kinds: Vec<String>,
    pub fields: IndexMap<String, Vec<String>>,
}

impl Filter {
    pub fn matches(&self, c: &Component) -> bool {
        (self.kinds.is_empty() || self.kinds.contains(&c.kind))
            && self
                .fields
                .iter()
                .all(|(f, values)| c.key_of(f).is_some_and(|v| values.contains(&v)))
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Bound {
    Exactly(Amount),
    AtLeast(Amount),
    AtMost(Amount),
}

impl Bound {
    pub fn amount(&self) -> &Amount {
        match self {
            Bound::Exactly(a) | Bound::AtLeast(a) | Bound::AtMost(a) => a,
        }
    }
}

/// A number in a rule: literal, from the mode, from the list's header, or
/// per card from the kit (pieces printed).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Amount {
    Number(i64),
    Mode(String),
    Header(String),
    Kit { kind: String, by: String },
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Check {
    /// Copies of the filtered cards.
    Count(Bound),
    /// Distinct values of a field among the filtered cards (at most 2 factions).
    Distinct { field: String, bound: Bound },
    /// Sum of a field over the filtered cards (times copies).
    Sum { field: String, bound: Bound },
    /// A budget spent exactly, unless nothing more can be bought.
    Spend { field: String, budget: Amount },
    /// Copies of each filtered card.
    Copies(Bound),
    /// Each filtered card's `field` names a card that must be in the list.
    Requires { field: String },
    /// Each filtered card's `field` equals the component the header names.
    Belongs { field: String, header: String },
    /// The list equals a list of `{card, count}` records of the header's component.
    Matches {
        header: String,
        list: String,
        card: String,
        count: String,
    },
    /// The list is exactly one of the lists the selected mode gives in its
    /// field `list`: records whose fields name the cards (an id or a list of
    /// ids), one copy each (Mythic's learning scenario: two fixed armies).
    OneOf { list: String },
    /// Every unit in the header component's `list` has a kit piece left
    /// after the list's copies.
    Reserve {
        header: String,
        list: String,
        kit: String,
        by: String,
    },
}
