//! The validated domain model. Everything downstream (rendering, decks,
//! rules engines) reads these types and may trust them: `check` built them
//! only from data that passed every check.

use std::path::PathBuf;

use indexmap::IndexMap;
use serde::Serialize;

use crate::diag::Span;

pub mod construction;
pub mod cover;
pub mod decks;
pub mod effects;
pub mod reference;

pub use construction::Construction;
pub use cover::Cover;
pub use decks::{Back, BackKey, Deck, DeckDecl};
pub use reference::Reference;

/// A player-facing text: one string per locale, in the pack's locale order.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(transparent)]
pub struct Text(pub IndexMap<String, String>);

impl Text {
    /// The text in `locale`, falling back to the first locale present.
    pub fn get(&self, locale: &str) -> &str {
        self.0
            .get(locale)
            .or_else(|| self.0.values().next())
            .map_or("", String::as_str)
    }
}

/// A physical size in millimetres.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Size {
    pub width: f64,
    pub height: f64,
}

/// How a kind is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Shape {
    Card,
    Token,
    Counter,
    Sheet,
    Board,
    None,
}

impl Shape {
    pub const NAMES: &'static [&'static str] = &["card", "token", "counter", "sheet", "board", "none"];

    pub fn parse(s: &str) -> Option<Shape> {
        Some(match s {
            "card" => Shape::Card,
            "token" => Shape::Token,
            "counter" => Shape::Counter,
            "sheet" => Shape::Sheet,
            "board" => Shape::Board,
            "none" => Shape::None,
            _ => return None,
        })
    }
}

/// The declared type of a field, with its legal values.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum FieldType {
    Int {
        min: Option<i64>,
        max: Option<i64>,
    },
    Number {
        min: Option<f64>,
        max: Option<f64>,
    },
    Bool,
    String,
    Text,
    Enum {
        values: Vec<String>,
    },
    Color,
    Ref {
        to: String,
        also: Vec<String>,
    },
    Member {
        /// The top-level ref field that names the component holding the list;
        /// `None` for the component itself (`of: self.<list>`).
        via: Option<String>,
        list: String,
        also: Vec<String>,
    },
    Cell {
        cols: Option<u32>,
        rows: Option<u32>,
    },
    List {
        of: Box<FieldSpec>,
        min: Option<usize>,
        max: Option<usize>,
        unique: bool,
    },
    Record {
        fields: IndexMap<String, FieldSpec>,
    },
    /// Artwork: a file of the pack (`art/…`, relative to the pack folder),
    /// printed at `size` (mm) when declared, else at the piece's trim size.
    Image {
        size: Option<Size>,
    },
    /// A structured card effect in the pack's effect vocabulary
    /// ([`effects::Effect`]); `text` names the sibling field whose text
    /// describes it, so `check` can hold the two together.
    Effect {
        text: Option<String>,
    },
}

impl FieldType {
    pub fn name(&self) -> &'static str {
        match self {
            FieldType::Int { .. } => "int",
            FieldType::Number { .. } => "number",
            FieldType::Bool => "bool",
            FieldType::String => "string",
            FieldType::Text => "text",
            FieldType::Enum { .. } => "enum",
            FieldType::Color => "color",
            FieldType::Ref { .. } => "ref",
            FieldType::Member { .. } => "member",
            FieldType::Cell { .. } => "cell",
            FieldType::List { .. } => "list",
            FieldType::Record { .. } => "record",
            FieldType::Image { .. } => "image",
            FieldType::Effect { .. } => "effect",
        }
    }

    pub const NAMES: &'static [&'static str] = &[
        "int", "number", "bool", "string", "text", "enum", "color", "ref", "member", "cell", "list", "record", "image",
        "effect",
    ];
}

/// A declared field.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FieldSpec {
    #[serde(flatten)]
    pub ty: FieldType,
    pub required: bool,
    pub default: Option<FieldValue>,
    pub help: Option<String>,
    /// The field's name for players, per locale (`label: {es: Coste, en: Cost}`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<Text>,
    /// Enums: the name of each value per locale (`values: {attack: {es: Ataque, en: Attack}}`).
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub labels: IndexMap<String, Text>,
}

/// A component kind declared in `game.yaml`.
#[derive(Clone, Debug, Serialize)]
pub struct Kind {
    pub id: String,
    pub name: Text,
    pub size: Option<String>,
    pub shape: Shape,
    pub fields: IndexMap<String, FieldSpec>,
    pub rules: Vec<Rule>,
    /// Boards only: print the board once per component of this kind (a
    /// ONE v MANY grid per scenario); the layout receives it as `ctx.variant`.
    pub variants: Option<String>,
    /// Cards only: the back this kind prints (`back:`); `None`: its own.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub back: Option<Back>,
}

/// A cross-field rule of a kind: when the `when` fields have the given
/// values, the component must satisfy every other clause.
#[derive(Clone, Debug, Serialize)]
pub struct Rule {
    pub id: String,
    /// Field → accepted values; the rule applies when all match.
    pub when: IndexMap<String, Vec<String>>,
    /// Fields that must be present.
    pub require: Vec<String>,
    /// Fields that must be absent.
    pub forbid: Vec<String>,
    /// Field → allowed values.
    pub expect: IndexMap<String, Vec<String>>,
    /// The component named by this ref field must agree on some fields:
    /// (field here, field there).
    pub matches: Option<(String, Vec<(String, String)>)>,
    pub message: Option<String>,
    #[serde(skip)]
    pub span: Option<Span>,
}

/// One declared kit count.
#[derive(Clone, Debug, Serialize)]
pub struct KitEntry {
    pub id: String,
    pub name: Text,
    pub kinds: Vec<String>,
    pub filter: IndexMap<String, Vec<String>>,
    pub sum: Option<String>,
    pub count: i64,
    #[serde(skip)]
    pub span: Option<Span>,
}

/// A validated field value. Refs, enums, cells and colours are strings.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum FieldValue {
    Bool(bool),
    Int(i64),
    Number(f64),
    Str(String),
    Text(Text),
    List(Vec<FieldValue>),
    Record(IndexMap<String, FieldValue>),
    Effect(Box<effects::Effect>),
}

impl FieldValue {
    pub fn as_str(&self) -> Option<&str> {
        match self {
            FieldValue::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_int(&self) -> Option<i64> {
        match self {
            FieldValue::Int(i) => Some(*i),
            _ => None,
        }
    }

    pub fn as_list(&self) -> Option<&[FieldValue]> {
        match self {
            FieldValue::List(l) => Some(l),
            _ => None,
        }
    }

    pub fn as_record(&self) -> Option<&IndexMap<String, FieldValue>> {
        match self {
            FieldValue::Record(r) => Some(r),
            _ => None,
        }
    }

    /// The value as JSON with every text in `locale` (templates left as written).
    pub fn localized(&self, locale: &str) -> serde_json::Value {
        match self {
            FieldValue::Text(t) => serde_json::Value::String(t.get(locale).to_owned()),
            FieldValue::List(items) => serde_json::Value::Array(items.iter().map(|i| i.localized(locale)).collect()),
            FieldValue::Record(r) => {
                serde_json::Value::Object(r.iter().map(|(k, v)| (k.clone(), v.localized(locale))).collect())
            }
            other => serde_json::to_value(other).unwrap_or(serde_json::Value::Null),
        }
    }

    /// The value as a filter key: scalars as their text form.
    pub fn key(&self) -> Option<String> {
        match self {
            FieldValue::Bool(b) => Some(b.to_string()),
            FieldValue::Int(i) => Some(i.to_string()),
            FieldValue::Number(n) => Some(n.to_string()),
            FieldValue::Str(s) => Some(s.clone()),
            _ => None,
        }
    }
}

/// Which values of a component are invented rather than taken from the seed.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Sample {
    #[default]
    None,
    All,
    Fields(Vec<String>),
}

impl Sample {
    pub fn is_none(&self) -> bool {
        *self == Sample::None
    }
}

/// One component (a card, token, sheet, board...).
#[derive(Clone, Debug, Serialize)]
pub struct Component {
    pub id: String,
    pub kind: String,
    pub name: Text,
    pub copies: u32,
    #[serde(skip_serializing_if = "Sample::is_none")]
    pub sample: Sample,
    pub fields: IndexMap<String, FieldValue>,
    #[serde(skip)]
    pub span: Span,
    /// Where each top-level field's value was written.
    #[serde(skip)]
    pub field_spans: IndexMap<String, Span>,
}

impl Component {
    /// A field's value as a filter key; built-in `id` and `copies` included.
    pub fn key_of(&self, field: &str) -> Option<String> {
        match field {
            "id" => Some(self.id.clone()),
            "copies" => Some(self.copies.to_string()),
            _ => self.field(field).and_then(FieldValue::key),
        }
    }

    /// The component's values in `locale`: its fields, `id`, `name` and `copies`.
    pub fn values(&self, locale: &str) -> serde_json::Map<String, serde_json::Value> {
        let mut m: serde_json::Map<String, serde_json::Value> = self
            .fields
            .iter()
            .map(|(k, v)| (k.clone(), v.localized(locale)))
            .collect();
        m.insert("id".into(), serde_json::Value::String(self.id.clone()));
        m.insert(
            "name".into(),
            serde_json::Value::String(self.name.get(locale).to_owned()),
        );
        m.insert("copies".into(), serde_json::Value::from(self.copies));
        m
    }

    /// The span of a field's value, or of the component.
    pub fn span_of(&self, field: &str) -> Span {
        self.field_spans.get(field).copied().unwrap_or(self.span)
    }
}

impl Component {
    /// A field's value.
    pub fn field(&self, name: &str) -> Option<&FieldValue> {
        self.fields.get(name)
    }
}

/// A validated game pack.
#[derive(Clone, Debug, Serialize)]
pub struct Game {
    pub id: String,
    pub name: Text,
    pub locales: Vec<String>,
    pub sizes: IndexMap<String, Size>,
    pub kinds: IndexMap<String, Kind>,
    pub kit: Vec<KitEntry>,
    /// The decks players shuffle (`decks:` in game.yaml).
    pub decks: Vec<DeckDecl>,
    /// What the cover says besides the files (`cover:` in game.yaml).
    pub cover: Cover,
    /// Components by kind, in file order.
    pub components: IndexMap<String, Vec<Component>>,
    /// The numbered rules of the game (`OW-1` …), from `rule_ids` in game.yaml.
    pub rule_ids: Vec<String>,
    /// Deck and army construction rules, if the game has lists to check.
    #[serde(skip)]
    pub construction: Option<Construction>,
    /// Glossary, facts, rules chapters and quick reference.
    #[serde(skip)]
    pub reference: Reference,
    #[serde(skip)]
    pub dir: PathBuf,
    /// Icons texts may name (`:gold:`): name → its name in every locale.
    pub icons: IndexMap<String, Text>,
    /// Font families by role (`title`, `body` …), all present in `fonts/`.
    pub fonts: IndexMap<String, String>,
    /// The pack's icon and art files, by the path layouts read them at (`/pack/…`).
    #[serde(skip)]
    pub assets: std::sync::Arc<Vec<(String, std::sync::Arc<Vec<u8>>)>>,
    /// The words card effects use (`effects:` in game.yaml); empty when none.
    #[serde(skip)]
    pub effects: effects::Vocabulary,
    /// A game built into pnpkit (not a folder of the project): read-only, laid
    /// out with its built-in layouts.
    #[serde(skip)]
    pub built_in: bool,
}

impl Game {
    pub fn component(&self, kind: &str, id: &str) -> Option<&Component> {
        self.components.get(kind)?.iter().find(|c| c.id == id)
    }

    pub fn component_count(&self) -> usize {
        self.components.values().map(Vec::len).sum()
    }
}
