//! Helpers to read spanned YAML mappings and scalars while collecting
//! diagnostics instead of stopping at the first problem.

use indexmap::IndexMap;

use super::yaml::{Node, Value};
use crate::diag::{Code, Diagnostic};
use crate::model::Text;

/// A mapping being read: remembers which keys were used so the rest can be
/// reported as unknown fields.
pub struct MapReader<'a> {
    pub node: &'a Node,
    entries: &'a [(Node, Node)],
    used: Vec<bool>,
    what: String,
}

impl<'a> MapReader<'a> {
    /// Starts reading `node` as a mapping; reports a type error otherwise.
    pub fn new(node: &'a Node, what: impl Into<String>, diags: &mut Vec<Diagnostic>) -> Option<Self> {
        let what = what.into();
        match node.as_map() {
            Some(entries) => Some(MapReader {
                node,
                entries,
                used: vec![false; entries.len()],
                what,
            }),
            None => {
                diags.push(wrong_type(node, &what, "a mapping of `key: value` lines"));
                None
            }
        }
    }

    pub fn what(&self) -> &str {
        &self.what
    }

    /// Takes an optional key.
    pub fn take(&mut self, key: &str) -> Option<&'a Node> {
        let entries = self.entries;
        for (i, (k, v)) in entries.iter().enumerate() {
            if k.as_str() == Some(key) {
                self.used[i] = true;
                return Some(v);
            }
        }
        None
    }

    /// Takes a required key, reporting it as missing.
    pub fn require(&mut self, key: &str, expected: &str, diags: &mut Vec<Diagnostic>) -> Option<&'a Node> {
        let v = self.take(key);
        if v.is_none() {
            diags.push(
                Diagnostic::new(Code::MissingField, format!("{} has no `{key}`", self.what))
                    .at(self.node.span)
                    .label(format!("`{key}` is missing here"))
                    .expected(format!("`{key}`: {expected}")),
            );
        }
        v
    }

    /// The entries not taken yet, in file order.
    pub fn rest(&self) -> impl Iterator<Item = (&'a Node, &'a Node)> + '_ {
        let entries = self.entries;
        entries
            .iter()
            .zip(self.used.iter())
            .filter(|(_, used)| !**used)
            .map(|((k, v), _)| (k, v))
    }

    /// Reports every key not taken as unknown, suggesting the closest known key.
    pub fn finish(self, known: &[&str], diags: &mut Vec<Diagnostic>) {
        for (k, _) in self.rest() {
            diags.push(unknown_field(k, &self.what, known));
        }
    }
}

pub fn unknown_field(key: &Node, what: &str, known: &[&str]) -> Diagnostic {
    let name = key.as_str().map_or_else(|| key.show(), str::to_owned);
    let mut d = Diagnostic::new(Code::UnknownField, format!("unknown field `{name}` in {what}"))
        .at(key.span)
        .label("not a field of this kind")
        .expected(if known.is_empty() {
            "no fields here".to_string()
        } else {
            format!("one of {}", quote_list(known))
        });
    d = d.suggest(&name, known.iter().copied());
    d
}

pub fn wrong_type(node: &Node, what: &str, expected: &str) -> Diagnostic {
    Diagnostic::new(Code::WrongType, format!("{what} has the wrong type"))
        .at(node.span)
        .label(format!("this is {}", node.type_name()))
        .found(format!("{} ({})", node.type_name(), node.show()))
        .expected(expected.to_string())
}

/// Formats `a`, `b` and `c` for messages, shortened for long lists.
pub fn quote_list(items: &[impl AsRef<str>]) -> String {
    let shown: Vec<String> = items.iter().take(12).map(|s| format!("`{}`", s.as_ref())).collect();
    let mut out = shown.join(", ");
    if items.len() > 12 {
        out.push_str(&format!(" … ({} in all)", items.len()));
    }
    out
}

pub fn read_str<'a>(node: &'a Node, what: &str, diags: &mut Vec<Diagnostic>) -> Option<&'a str> {
    match &node.value {
        Value::Str(s) => Some(s),
        _ => {
            diags.push(wrong_type(node, what, "a string"));
            None
        }
    }
}

pub fn read_int(node: &Node, what: &str, diags: &mut Vec<Diagnostic>) -> Option<i64> {
    match node.value {
        Value::Int(i) => Some(i),
        _ => {
            diags.push(wrong_type(node, what, "an integer"));
            None
        }
    }
}

pub fn read_number(node: &Node, what: &str, diags: &mut Vec<Diagnostic>) -> Option<f64> {
    match node.value {
        Value::Int(i) => Some(i as f64),
        Value::Float(f) if f.is_finite() => Some(f),
        _ => {
            diags.push(wrong_type(node, what, "a number"));
            None
        }
    }
}

pub fn read_bool(node: &Node, what: &str, diags: &mut Vec<Diagnostic>) -> Option<bool> {
    match node.value {
        Value::Bool(b) => Some(b),
        _ => {
            diags.push(wrong_type(node, what, "`true` or `false`"));
            None
        }
    }
}

pub fn read_seq<'a>(node: &'a Node, what: &str, diags: &mut Vec<Diagnostic>) -> Option<&'a [Node]> {
    match &node.value {
        Value::Seq(s) => Some(s),
        _ => {
            diags.push(wrong_type(node, what, "a list"));
            None
        }
    }
}

/// True for ids: lowercase letters, digits and dashes, starting with a letter or digit.
pub fn is_slug(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_lowercase() || c.is_ascii_digit())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// True for field and kind names: snake_case.
pub fn is_ident(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

pub fn read_slug(node: &Node, what: &str, diags: &mut Vec<Diagnostic>) -> Option<String> {
    read_id_where(
        node,
        what,
        is_slug,
        "lowercase letters, digits and dashes, e.g. `amazon-archers`",
        diags,
    )
}

/// Reads a string id that `valid` accepts, reporting `expected` otherwise.
pub fn read_id_where(
    node: &Node,
    what: &str,
    valid: impl Fn(&str) -> bool,
    expected: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<String> {
    let s = read_str(node, what, diags)?;
    if valid(s) {
        Some(s.to_owned())
    } else {
        diags.push(
            Diagnostic::new(Code::InvalidValue, format!("{what} is not a valid id"))
                .at(node.span)
                .label("not an id")
                .found(node.show())
                .expected(expected.to_owned()),
        );
        None
    }
}

/// Reads a player-facing text `{es: ..., en: ...}`. Missing or empty
/// locales are warnings; the text is still returned.
pub fn read_text(node: &Node, what: &str, locales: &[String], diags: &mut Vec<Diagnostic>) -> Option<Text> {
    let Some(entries) = node.as_map() else {
        let example = locales.iter().map(|l| format!("{l}: …")).collect::<Vec<_>>().join(", ");
        diags.push(wrong_type(
            node,
            what,
            &format!("a text with one entry per locale, e.g. {{{example}}}"),
        ));
        return None;
    };
    let mut text = IndexMap::new();
    let known: Vec<&str> = locales.iter().map(String::as_str).collect();
    for (k, v) in entries {
        let Some(locale) = k.as_str() else {
            diags.push(unknown_field(k, what, &known));
            continue;
        };
        if !locales.iter().any(|l| l == locale) {
            diags.push(
                unknown_field(k, what, &known).note("the pack's locales are declared in `locales:` of game.yaml"),
            );
            continue;
        }
        let s = match &v.value {
            Value::Str(s) => s.clone(),
            Value::Int(i) => i.to_string(),
            Value::Float(f) => f.to_string(),
            _ => {
                diags.push(wrong_type(v, &format!("{what} ({locale})"), "a string"));
                continue;
            }
        };
        if s.trim().is_empty() {
            diags.push(
                Diagnostic::new(Code::MissingTranslation, format!("{what} is empty in `{locale}`"))
                    .at(v.span)
                    .label("empty text")
                    .expected(format!("the text in `{locale}`"))
                    .note(format!("the `{locale}` kit prints nothing in its place")),
            );
        }
        text.insert(locale.to_owned(), s);
    }
    let missing: Vec<&String> = locales.iter().filter(|l| !text.contains_key(*l)).collect();
    if !missing.is_empty() {
        let source = text.iter().next().map(|(l, s)| format!("{l}: {s:?}"));
        let mut d = Diagnostic::new(
            Code::MissingTranslation,
            format!(
                "{what} has no {} translation",
                missing.iter().map(|m| format!("`{m}`")).collect::<Vec<_>>().join(", ")
            ),
        )
        .at(node.span)
        .label("translation missing")
        .expected(format!(
            "one entry per locale: {}",
            locales.iter().map(|l| format!("`{l}`")).collect::<Vec<_>>().join(", ")
        ));
        if let Some(s) = source {
            d = d.found(s);
        }
        // What the kit prints instead: the text of the first locale present
        // (`Text::get`), in the pack's order.
        if let Some(instead) = locales.iter().find(|l| text.contains_key(*l)) {
            for m in &missing {
                d = d.note(format!("the `{m}` kit prints the `{instead}` text in its place"));
            }
        }
        diags.push(d);
    }
    // Keep the pack's locale order regardless of the order in the file.
    let mut ordered = IndexMap::new();
    for l in locales {
        if let Some(s) = text.shift_remove(l) {
            ordered.insert(l.clone(), s);
        }
    }
    Some(Text(ordered))
}
