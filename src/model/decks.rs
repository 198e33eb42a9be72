//! Decks: the cards shuffled together. A deck's cards must look alike from
//! behind (one back, one size), or every draw is known before it is made.
//! Decks are declared in game.yaml (`decks:`); card kinds no declared deck
//! takes are each a set of their own, kept face up or sorted (character
//! cards, reference cards), whose backs may differ card by card.
//!
//! Shop exports, the Tabletop Simulator export and the kit's cover group
//! cards by these decks.

use indexmap::IndexMap;
use serde::Serialize;

use super::{Component, FieldType, Game, Shape, Text};
use crate::diag::Span;

/// How a kind's card backs are drawn (`back:` of a kind in game.yaml).
/// Kinds naming the same design print the same back; a design that varies
/// `by` a field prints one back per value of it (`id`: a back per card).
/// Without a declaration a kind's back is its own design.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Back {
    pub design: String,
    pub by: Option<String>,
    #[serde(skip)]
    pub span: Option<Span>,
}

/// The back a card prints: its design and, for designs that vary, the value.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct BackKey {
    pub design: String,
    pub value: Option<String>,
}

impl std::fmt::Display for BackKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.value {
            Some(v) => write!(f, "`{}` for `{v}`", self.design),
            None => write!(f, "`{}`", self.design),
        }
    }
}

/// A deck declared in game.yaml: the cards of `kinds` that pass `filter`,
/// one deck per value of `by` when given.
#[derive(Clone, Debug, Serialize)]
pub struct DeckDecl {
    pub id: String,
    /// The deck's name; with `by`, `{value}` in it stands for the value's name.
    pub name: Text,
    pub kinds: Vec<String>,
    pub filter: IndexMap<String, Vec<String>>,
    pub by: Option<String>,
    #[serde(skip)]
    pub span: Option<Span>,
}

/// A deck as the data makes it.
#[derive(Clone, Debug)]
pub struct Deck<'a> {
    /// `<declared id>` or `<value>-<declared id>` (`alice-deck`); a set's kind id.
    pub id: String,
    /// The declaration; `None` for a kind no declared deck takes.
    pub decl: Option<&'a DeckDecl>,
    /// The `by` value this deck holds.
    pub value: Option<String>,
    /// Its cards (each once; `copies` says how many are printed).
    pub cards: Vec<&'a Component>,
}

impl Deck<'_> {
    /// Whether the deck is shuffled (declared), rather than a set of cards.
    pub fn shuffled(&self) -> bool {
        self.decl.is_some()
    }

    /// Cards the deck holds, every copy counted.
    pub fn count(&self) -> u32 {
        self.cards.iter().map(|c| c.copies).sum()
    }
}

impl Game {
    /// The back a card prints.
    pub fn back_of(&self, c: &Component) -> BackKey {
        match self.kinds.get(&c.kind).and_then(|k| k.back.as_ref()) {
            Some(b) => BackKey {
                design: b.design.clone(),
                value: b.by.as_ref().map(|f| c.key_of(f).unwrap_or_default()),
            },
            None => BackKey {
                design: c.kind.clone(),
                value: None,
            },
        }
    }

    /// Every deck and set of cards, declared decks first in their order, a
    /// card in the first deck that takes it.
    pub fn decks(&self) -> Vec<Deck<'_>> {
        let mut taken = std::collections::HashSet::new();
        let mut out: Vec<Deck> = Vec::new();
        for decl in &self.decks {
            let mut split: Vec<Deck> = Vec::new();
            for kind in &decl.kinds {
                for c in self.components.get(kind).into_iter().flatten() {
                    let passes = decl
                        .filter
                        .iter()
                        .all(|(f, values)| c.key_of(f).is_some_and(|v| values.contains(&v)));
                    if !passes || !taken.insert((c.kind.as_str(), c.id.as_str())) {
                        continue;
                    }
                    let value = decl.by.as_ref().map(|f| c.key_of(f).unwrap_or_default());
                    match split.iter_mut().find(|d| d.value == value) {
                        Some(d) => d.cards.push(c),
                        None => split.push(Deck {
                            id: match &value {
                                Some(v) => format!("{v}-{}", decl.id),
                                None => decl.id.clone(),
                            },
                            decl: Some(decl),
                            value,
                            cards: vec![c],
                        }),
                    }
                }
            }
            out.extend(split);
        }
        for kind in self.kinds.values().filter(|k| k.shape == Shape::Card) {
            let rest: Vec<&Component> = self
                .components
                .get(&kind.id)
                .into_iter()
                .flatten()
                .filter(|c| !taken.contains(&(c.kind.as_str(), c.id.as_str())))
                .collect();
            if !rest.is_empty() {
                out.push(Deck {
                    id: kind.id.clone(),
                    decl: None,
                    value: None,
                    cards: rest,
                });
            }
        }
        out
    }

    /// A deck's name for players.
    pub fn deck_name(&self, deck: &Deck, locale: &str) -> String {
        let Some(decl) = deck.decl else {
            return self
                .kinds
                .get(&deck.id)
                .map(|k| k.name.get(locale).to_owned())
                .unwrap_or_default();
        };
        let name = decl.name.get(locale);
        match (&deck.value, &decl.by) {
            (Some(v), Some(f)) => {
                let value = deck
                    .cards
                    .first()
                    .map_or_else(|| v.clone(), |c| self.value_name(c, f, v, locale));
                if name.contains("{value}") {
                    name.replace("{value}", &value)
                } else {
                    format!("{name} — {value}")
                }
            }
            _ => name.to_owned(),
        }
    }

    /// The name players read for a card's value of `field`: a referenced
    /// component's name, an enum value's label, the card's own name for `id`.
    fn value_name(&self, c: &Component, field: &str, value: &str, locale: &str) -> String {
        if field == "id" {
            return c.name.get(locale).to_owned();
        }
        let Some(spec) = self.kinds.get(&c.kind).and_then(|k| k.fields.get(field)) else {
            return value.to_owned();
        };
        match &spec.ty {
            FieldType::Ref { to, .. } => self
                .component(to, value)
                .map_or_else(|| value.to_owned(), |r| r.name.get(locale).to_owned()),
            _ => spec
                .labels
                .get(value)
                .map_or_else(|| value.to_owned(), |t| t.get(locale).to_owned()),
        }
    }
}
