//! Deck and army lists: reading them as players paste them ([`text`], or
//! YAML in [`yaml`]), checking them against the construction rules of the
//! model ([`validate`]), and reporting every problem in the list's locale
//! ([`report`], [`words`]). An organiser's batch of lists is in [`batch`].

pub mod batch;
pub mod decode;
pub mod forms;
pub mod layout;
pub mod names;
pub mod odds;
pub mod reading;
pub mod report;
pub mod text;
pub mod validate;
pub mod vocab;
pub mod words;
pub mod yaml;

use indexmap::IndexMap;
use serde::Serialize;

pub use report::{DeckReport, check_bytes, check_list, is_yaml_path};
pub use validate::{Composition, Context, SetupProblem, Verdict, Violation, validate};

use crate::diag::Span;
use crate::model::construction::Construction;

/// A deck or army list, resolved to components.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Deck {
    /// Header fields by field id: the value as written and its span.
    #[serde(skip)]
    pub header: IndexMap<String, (String, Span)>,
    pub entries: Vec<Entry>,
    /// Cards under a sideboard heading: read and named, not checked.
    pub side: Vec<Entry>,
    /// The list's own title (`name:`), if any.
    pub title: Option<String>,
    /// The section being read (for entries that follow).
    #[serde(skip)]
    pub section: Option<String>,
    /// Lines and header keys written in each locale: the list's language.
    #[serde(skip)]
    pub votes: IndexMap<String, usize>,
    /// Index of each card in `entries` by (kind, id), so merging is O(1).
    #[serde(skip)]
    index: std::collections::HashMap<(String, String), usize>,
    /// Cards named without a count, each counted as one copy: kept where the
    /// game allows a single copy ([`reading::settle`]).
    #[serde(skip)]
    pub bare: Vec<Bare>,
}

/// A card named without a count.
#[derive(Clone, Debug)]
pub struct Bare {
    pub kind: String,
    pub id: String,
    pub span: Span,
    /// The name as written.
    pub written: String,
}

/// One card of a list: all its lines merged.
#[derive(Clone, Debug, Serialize)]
pub struct Entry {
    pub kind: String,
    pub id: String,
    pub count: u32,
    /// The lines naming it.
    #[serde(skip)]
    pub spans: Vec<Span>,
    pub section: Option<String>,
}

impl Deck {
    /// Adds copies of a card, merging with an earlier line.
    pub fn add(&mut self, kind: &str, id: &str, count: u32, span: Span, section: Option<String>) {
        self.section = section;
        self.add_card(kind, id, count, span, false);
    }

    /// Adds copies of a card to the list or (`side`) the sideboard.
    pub fn add_card(&mut self, kind: &str, id: &str, count: u32, span: Span, side: bool) {
        if side {
            match self.side.iter_mut().find(|e| e.kind == kind && e.id == id) {
                Some(e) => {
                    e.count = e.count.saturating_add(count);
                    e.spans.push(span);
                }
                None => self.side.push(Entry {
                    kind: kind.to_string(),
                    id: id.to_string(),
                    count,
                    spans: vec![span],
                    section: self.section.clone(),
                }),
            }
            return;
        }
        let key = (kind.to_string(), id.to_string());
        match self.index.get(&key) {
            Some(&i) => {
                let e = &mut self.entries[i];
                e.count = e.count.saturating_add(count);
                e.spans.push(span);
            }
            None => {
                self.index.insert(key, self.entries.len());
                self.entries.push(Entry {
                    kind: kind.to_string(),
                    id: id.to_string(),
                    count,
                    spans: vec![span],
                    section: self.section.clone(),
                });
            }
        }
    }

    /// Takes back one copy a line added (a bare name that is no count after all).
    pub fn remove_copy(&mut self, kind: &str, id: &str, span: Span) {
        let key = (kind.to_string(), id.to_string());
        let Some(&i) = self.index.get(&key) else { return };
        let e = &mut self.entries[i];
        e.count = e.count.saturating_sub(1);
        if let Some(at) = e.spans.iter().position(|s| *s == span) {
            e.spans.remove(at);
        }
        if e.count == 0 {
            self.entries.remove(i);
            self.index = self
                .entries
                .iter()
                .enumerate()
                .map(|(i, e)| ((e.kind.clone(), e.id.clone()), i))
                .collect();
        }
    }

    /// Replaces the cards (a YAML `cards:` read separately).
    pub fn set_entries(&mut self, entries: Vec<Entry>) {
        self.index = entries
            .iter()
            .enumerate()
            .map(|(i, e)| ((e.kind.clone(), e.id.clone()), i))
            .collect();
        self.entries = entries;
    }

    pub fn total(&self) -> u32 {
        self.entries.iter().fold(0u32, |n, e| n.saturating_add(e.count))
    }

    /// Copies per card id, as logs and engines take them.
    pub fn copies(&self) -> IndexMap<String, u32> {
        self.entries.iter().map(|e| (e.id.clone(), e.count)).collect()
    }

    /// The locale most of the list is written in, if it says.
    pub fn locale(&self) -> Option<&str> {
        let mut best: Option<(&str, usize)> = None;
        let mut tie = false;
        for (l, n) in &self.votes {
            match best {
                Some((_, b)) if *n == b => tie = true,
                Some((_, b)) if *n < b => {}
                _ => {
                    best = Some((l, *n));
                    tie = false;
                }
            }
        }
        if tie { None } else { best.map(|(l, _)| l) }
    }
}

/// A header key resolved: the field id and the locale it is written in.
#[derive(Clone, Debug)]
pub struct HeaderKey {
    pub id: String,
    pub locale: Option<String>,
}

/// The header keys a list of this game may use, in every locale.
#[derive(Clone, Debug, Default)]
pub struct HeaderKeys {
    /// Normalized key → field id, locale written in.
    keys: Vec<(String, String, Option<String>)>,
    /// Keys as shown in messages, with their locale.
    shown: Vec<(String, Option<String>)>,
}

/// Keys every list may have: (field id, [(locale, key)]).
const BUILTIN_KEYS: &[(&str, &[(&str, &str)])] = &[
    (
        "name",
        &[("en", "name"), ("en", "title"), ("es", "nombre"), ("es", "título")],
    ),
    ("player", &[("en", "player"), ("es", "jugador"), ("es", "jugadora")]),
    ("game", &[("en", "game"), ("es", "juego")]),
    ("locale", &[("en", "locale"), ("en", "language"), ("es", "idioma")]),
];
const MODE_KEYS: &[(&str, &str)] = &[("en", "mode"), ("es", "modo")];
const PLAYERS_KEYS: &[(&str, &str)] = &[("en", "players"), ("es", "jugadores")];
const ROLE_KEYS: &[(&str, &str)] = &[("en", "role"), ("es", "rol"), ("es", "papel")];

impl HeaderKeys {
    pub fn new(c: &Construction) -> HeaderKeys {
        let mut k = HeaderKeys::default();
        for (id, forms) in BUILTIN_KEYS {
            for (l, key) in *forms {
                k.push(key, id, Some(l));
            }
        }
        if c.modes.is_some() {
            for (l, key) in MODE_KEYS {
                k.push(key, "mode", Some(l));
            }
            for (l, key) in PLAYERS_KEYS {
                k.push(key, "players", Some(l));
            }
        }
        if !c.roles.is_empty() {
            for (l, key) in ROLE_KEYS {
                k.push(key, "role", Some(l));
            }
        }
        for (id, field) in &c.header {
            if id == "mode" {
                continue;
            }
            for (l, key) in &field.names.0 {
                k.push(key, id, Some(l));
            }
            if !field.names.0.values().any(|n| n == id) {
                k.push(id, id, None);
            }
        }
        // A key that is the same in two locales says nothing about the locale.
        let all = k.keys.clone();
        for e in &mut k.keys {
            if all.iter().any(|(n, i, l)| *n == e.0 && *i == e.1 && *l != e.2) {
                e.2 = None;
            }
        }
        k
    }

    fn push(&mut self, key: &str, id: &str, locale: Option<&str>) {
        let norm = names::normalize(key).replace(' ', "_");
        self.keys.push((norm, id.to_string(), locale.map(str::to_string)));
        if !self.shown.iter().any(|(s, _)| s == key) {
            self.shown.push((key.to_string(), locale.map(str::to_string)));
        }
    }

    /// The field a written key names.
    pub fn find(&self, written: &str) -> Option<HeaderKey> {
        let norm = names::normalize(written).replace(' ', "_");
        self.keys
            .iter()
            .find(|(n, _, _)| *n == norm)
            .map(|(_, id, l)| HeaderKey {
                id: id.clone(),
                locale: l.clone(),
            })
    }

    /// The closest known key, as written in messages.
    pub fn suggest(&self, written: &str) -> Option<String> {
        if written.chars().count() > 40 {
            return None;
        }
        let norm = names::normalize(written);
        let normed: Vec<(String, &str)> = self
            .shown
            .iter()
            .map(|(s, _)| (names::normalize(s), s.as_str()))
            .collect();
        let best = crate::diag::did_you_mean(&norm, normed.iter().map(|(n, _)| n.as_str()))?;
        normed.iter().find(|(n, _)| n == best).map(|(_, s)| s.to_string())
    }

    /// The keys of one locale (and those the same in every locale), for
    /// "expected one of".
    pub fn shown(&self, locale: &str) -> Vec<&str> {
        self.shown
            .iter()
            .filter(|(_, l)| l.as_deref().is_none_or(|l| l == locale))
            .map(|(s, _)| s.as_str())
            .collect()
    }
}

/// A problem found while reading a list, rendered in the list's locale by
/// [`report`].
#[derive(Clone, Debug)]
pub enum Problem {
    /// A count of 0 or more than [`text::MAX_COUNT`].
    BadCount { span: Span, count: u32 },
    /// A count and a name that is no card.
    Unknown {
        span: Span,
        name: String,
        suggestion: Option<String>,
    },
    /// A name shared by several cards.
    Ambiguous {
        span: Span,
        name: String,
        ids: Vec<(String, String)>,
    },
    /// A line (or a header) that names a card without a count.
    NoCount { span: Span, written: String },
    /// Neither a card, a header line nor a section header.
    Unreadable {
        span: Span,
        text: String,
        suggestion: Option<String>,
    },
    /// `key: value` with a key the game does not know.
    UnknownKey {
        span: Span,
        key: String,
        suggestion: Option<String>,
    },
    /// A header key given twice with different values.
    HeaderTwice { span: Span, key: String, first: Span },
    /// A header value (the player, the deck's name) holding a control character.
    HeaderControl { span: Span, key: String, found: char },
    /// A problem of the YAML form, already worded.
    Yaml(Box<crate::diag::Diagnostic>),
    /// The list names no card.
    Empty,
    /// Problems not reported one by one.
    More { count: usize },
}

impl Problem {
    /// The line a problem is on (problems of the whole list last), for ordering.
    pub fn line(&self) -> u32 {
        match self {
            Problem::BadCount { span, .. }
            | Problem::Unknown { span, .. }
            | Problem::Ambiguous { span, .. }
            | Problem::NoCount { span, .. }
            | Problem::Unreadable { span, .. }
            | Problem::UnknownKey { span, .. }
            | Problem::HeaderTwice { span, .. }
            | Problem::HeaderControl { span, .. } => span.line,
            Problem::Yaml(d) => d.span.map_or(u32::MAX - 1, |s| s.line),
            Problem::Empty | Problem::More { .. } => u32::MAX,
        }
    }
}
