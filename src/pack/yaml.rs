//! YAML with source positions: a small spanned tree built through
//! serde-saphyr, with bounded budgets so hostile files fail fast.

use std::fmt;

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_saphyr::Spanned;

use crate::diag::{Code, Diagnostic, FileId, Span};

/// Bounds applied to every YAML file pnpkit reads.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Largest file accepted, in bytes.
    pub max_file_bytes: u64,
    /// Largest number of YAML nodes in one file.
    pub max_nodes: usize,
    /// Deepest nesting of collections.
    pub max_depth: usize,
    /// Most events that aliases may replay in one file (alias bombs).
    pub max_alias_events: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_file_bytes: crate::fsx::read::max::PACK_FILE,
            max_nodes: 2_000_000,
            max_depth: 64,
            max_alias_events: 100_000,
        }
    }
}

impl Limits {
    /// Parser events allowed: enough that the node count is always the
    /// limit that trips (a node is one event, a collection two).
    fn max_events(&self) -> usize {
        self.max_nodes.saturating_mul(2).saturating_add(16)
    }
}

/// A YAML node with the place it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub value: Value,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Seq(Vec<Node>),
    Map(Vec<(Node, Node)>),
}

impl Node {
    /// A short human description of the value's type, for "found ..." notes.
    pub fn type_name(&self) -> &'static str {
        match self.value {
            Value::Null => "nothing (null)",
            Value::Bool(_) => "a boolean",
            Value::Int(_) => "an integer",
            Value::Float(_) => "a decimal number",
            Value::Str(_) => "a string",
            Value::Seq(_) => "a list",
            Value::Map(_) => "a mapping",
        }
    }

    /// The value as it would read in the file, shortened, for messages.
    pub fn show(&self) -> String {
        match &self.value {
            Value::Null => "null".into(),
            Value::Bool(b) => b.to_string(),
            Value::Int(i) => i.to_string(),
            Value::Float(f) => f.to_string(),
            Value::Str(s) if s.chars().count() > 40 => {
                format!("\"{}…\"", s.chars().take(40).collect::<String>())
            }
            Value::Str(s) => format!("\"{s}\""),
            Value::Seq(items) => format!("a list of {} items", items.len()),
            Value::Map(entries) => format!("a mapping with {} keys", entries.len()),
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_map(&self) -> Option<&[(Node, Node)]> {
        match &self.value {
            Value::Map(m) => Some(m),
            _ => None,
        }
    }

    pub fn as_seq(&self) -> Option<&[Node]> {
        match &self.value {
            Value::Seq(s) => Some(s),
            _ => None,
        }
    }

    /// Looks a key up in a mapping node.
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.as_map()?
            .iter()
            .find(|(k, _)| k.as_str() == Some(key))
            .map(|(_, v)| v)
    }
}

/// Parses YAML text into a spanned tree, or a diagnostic pointing at the problem.
pub fn parse(text: &str, file: FileId, limits: &Limits) -> Result<Node, Box<Diagnostic>> {
    let options = serde_saphyr::options! {
        budget: serde_saphyr::budget! {
            max_nodes: limits.max_nodes,
            max_events: limits.max_events(),
            max_depth: limits.max_depth,
            flow_nesting_limit: limits.max_depth,
        },
        alias_limits: serde_saphyr::alias_limits! {
            max_total_replayed_events: limits.max_alias_events,
        },
        strict_booleans: true,
        leading_zero_numbers_as_strings: true,
        with_snippet: false,
    };
    match serde_saphyr::from_str_with_options::<Option<Spanned<Raw>>>(text, options) {
        Ok(Some(raw)) => Ok(convert(raw, file, text)),
        Ok(None) => Ok(Node {
            value: Value::Null,
            span: span_of_offset(text, file, 0, 0),
        }),
        Err(err) => Err(Box::new(syntax_diagnostic(&err, file, text, limits))),
    }
}

/// "2,000,000": a limit as messages print it.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Which safety limit a budget breach crossed, in the user's words.
fn budget_words(breach: &serde_saphyr::budget::BudgetBreach, limits: &Limits) -> String {
    use serde_saphyr::budget::BudgetBreach as B;
    match breach {
        B::Nodes { .. } | B::Events { .. } => format!(
            "more than {} YAML nodes (values, lists and mappings) in one file",
            thousands(limits.max_nodes)
        ),
        B::Depth { .. } => format!("lists or mappings nested more than {} deep", limits.max_depth),
        B::Aliases { .. }
        | B::Anchors { .. }
        | B::AliasAnchorRatio { .. }
        | B::RecordedAnchorEvents { .. }
        | B::RecordedAnchorBytes { .. } => "aliases (`*name`) that expand to too much".into(),
        B::Documents { .. } => "too many YAML documents (`---`) in one file".into(),
        B::ScalarBytes { .. } | B::InputBytes { .. } => "more text than a pack file may hold".into(),
        B::MergeKeys { .. } => "too many merge keys (`<<`)".into(),
        _ => "a structure the YAML reader refuses to expand".into(),
    }
}

fn syntax_diagnostic(err: &serde_saphyr::Error, file: FileId, text: &str, limits: &Limits) -> Diagnostic {
    let inner = err.without_snippet();
    let raw = inner.to_string();
    // serde-saphyr prefixes "line L column C: "; the span already says that.
    let message = match raw.split_once(": ") {
        Some((head, rest)) if head.starts_with("line ") => rest.to_string(),
        _ => raw,
    };
    let limit = match inner {
        serde_saphyr::Error::Budget { breach, .. } => Some(budget_words(breach, limits)),
        serde_saphyr::Error::AliasReplayLimitExceeded { .. }
        | serde_saphyr::Error::AliasReplayStackDepthExceeded { .. }
        | serde_saphyr::Error::AliasReplayCounterOverflow { .. } => Some(format!(
            "aliases (`*name`) that expand to more than {} values",
            thousands(limits.max_alias_events)
        )),
        _ if message.contains("alias") && message.contains("limit") => Some(format!(
            "aliases (`*name`) that expand to more than {} values",
            thousands(limits.max_alias_events)
        )),
        _ if ["recursion", "depth", "nesting"].iter().any(|w| message.contains(w)) => {
            Some(format!("lists or mappings nested more than {} deep", limits.max_depth))
        }
        _ if message.contains("budget") || message.contains("limit") => {
            Some("a structure the YAML reader refuses to expand".into())
        }
        _ => None,
    };
    let code = if limit.is_some() {
        Code::YamlLimit
    } else if message.contains("duplicate mapping key") {
        Code::DuplicateKey
    } else {
        Code::YamlSyntax
    };
    let mut message = match &limit {
        Some(words) => words.clone(),
        None => message.replace(", set DuplicateKeyPolicy in Options if acceptable", ""),
    };
    // The position is shown by the snippet; drop the parser's own copy of it.
    if let Some(i) = message.find(" at line ") {
        message.truncate(i);
    }
    let span = match err.location() {
        Some(loc) => span_from_location(text, file, &loc),
        None => span_of_offset(text, file, 0, 0),
    };
    let title = match code {
        Code::YamlLimit => "the YAML exceeds a safety limit",
        Code::DuplicateKey => "a key appears twice in the same mapping",
        _ => "invalid YAML",
    };
    let mut d = Diagnostic::new(code, title).at(span).label(message);
    if code == Code::YamlLimit {
        d = d
            .expected(format!(
                "at most {} nodes, nesting {} deep and {} values from aliases per file",
                thousands(limits.max_nodes),
                limits.max_depth,
                thousands(limits.max_alias_events)
            ))
            .help(
                "pnpkit bounds every YAML file so that a hostile one cannot exhaust memory; \
                 split large files or remove aliases",
            );
    }
    d
}

fn span_from_location(text: &str, file: FileId, loc: &serde_saphyr::Location) -> Span {
    let s = loc.span();
    match (s.byte_offset(), s.byte_len()) {
        (Some(start), Some(len)) if (start as usize) <= text.len() => {
            let start = start as usize;
            let end = (start + len as usize).min(text.len());
            Span {
                file,
                line: loc.line() as u32,
                column: loc.column() as u32,
                start,
                end,
            }
        }
        _ => {
            // Only character offsets are known: convert.
            let start = text
                .char_indices()
                .nth(s.offset() as usize)
                .map_or(text.len(), |(i, _)| i);
            let end = text[start..]
                .char_indices()
                .nth(s.len() as usize)
                .map_or(text.len(), |(i, _)| start + i);
            Span {
                file,
                line: loc.line() as u32,
                column: loc.column() as u32,
                start,
                end,
            }
        }
    }
}

/// The span for a byte offset, computing line and column.
pub fn span_of_offset(text: &str, file: FileId, start: usize, end: usize) -> Span {
    let before = &text[..start.min(text.len())];
    let line = before.matches('\n').count() as u32 + 1;
    let column = before
        .rfind('\n')
        .map_or(before.chars().count(), |i| before[i + 1..].chars().count()) as u32
        + 1;
    Span {
        file,
        line,
        column,
        start,
        end,
    }
}

fn convert(raw: Spanned<Raw>, file: FileId, text: &str) -> Node {
    let span = span_from_location(text, file, &raw.referenced);
    let value = match raw.value {
        Raw::Null => Value::Null,
        Raw::Bool(b) => Value::Bool(b),
        Raw::Int(i) => Value::Int(i),
        Raw::Float(f) => Value::Float(f),
        Raw::Str(s) => Value::Str(s),
        Raw::Seq(items) => Value::Seq(items.into_iter().map(|i| convert(i, file, text)).collect()),
        Raw::Map(entries) => Value::Map(
            entries
                .into_iter()
                .map(|(k, v)| (convert(k, file, text), convert(v, file, text)))
                .collect(),
        ),
    };
    Node { value, span }
}

/// The tree as serde-saphyr hands it over, before spans are resolved.
enum Raw {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Seq(Vec<Spanned<Raw>>),
    Map(Vec<(Spanned<Raw>, Spanned<Raw>)>),
}

struct RawVisitor;

impl<'de> Visitor<'de> for RawVisitor {
    type Value = Raw;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any YAML value")
    }
    fn visit_unit<E>(self) -> Result<Raw, E> {
        Ok(Raw::Null)
    }
    fn visit_none<E>(self) -> Result<Raw, E> {
        Ok(Raw::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Raw, D::Error> {
        Raw::deserialize(d)
    }
    fn visit_bool<E>(self, b: bool) -> Result<Raw, E> {
        Ok(Raw::Bool(b))
    }
    fn visit_i64<E>(self, i: i64) -> Result<Raw, E> {
        Ok(Raw::Int(i))
    }
    fn visit_u64<E>(self, u: u64) -> Result<Raw, E> {
        Ok(i64::try_from(u).map_or(Raw::Float(u as f64), Raw::Int))
    }
    fn visit_i128<E>(self, i: i128) -> Result<Raw, E> {
        Ok(i64::try_from(i).map_or(Raw::Float(i as f64), Raw::Int))
    }
    fn visit_u128<E>(self, u: u128) -> Result<Raw, E> {
        Ok(i64::try_from(u).map_or(Raw::Float(u as f64), Raw::Int))
    }
    fn visit_f64<E>(self, f: f64) -> Result<Raw, E> {
        Ok(Raw::Float(f))
    }
    fn visit_str<E>(self, s: &str) -> Result<Raw, E> {
        Ok(Raw::Str(s.to_owned()))
    }
    fn visit_string<E>(self, s: String) -> Result<Raw, E> {
        Ok(Raw::Str(s))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Raw, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1024));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Raw::Seq(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Raw, A::Error> {
        let mut entries = Vec::new();
        while let Some(key) = map.next_key()? {
            let value = map.next_value()?;
            entries.push((key, value));
        }
        Ok(Raw::Map(entries))
    }
}

impl<'de> Deserialize<'de> for Raw {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Raw, D::Error> {
        d.deserialize_any(RawVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(text: &str) -> Result<Node, Box<Diagnostic>> {
        parse(text, FileId(0), &Limits::default())
    }

    #[test]
    fn spans_point_at_values() {
        let n = p("id: x\nname: {es: Hola, en: Hi}\n").unwrap();
        let name = n.get("name").unwrap();
        let es = name.get("es").unwrap();
        assert_eq!((es.span.line, es.span.column), (2, 12));
        assert_eq!(es.as_str(), Some("Hola"));
    }

    #[test]
    fn yes_and_leading_zeros_stay_strings() {
        let n = p("a: yes\nb: 012\nc: true\n").unwrap();
        assert_eq!(n.get("a").unwrap().value, Value::Str("yes".into()));
        assert_eq!(n.get("b").unwrap().value, Value::Str("012".into()));
        assert_eq!(n.get("c").unwrap().value, Value::Bool(true));
    }

    #[test]
    fn hostile_input_is_bounded() {
        let mut bomb = String::from("a: &a [x,x,x,x,x,x,x,x,x]\n");
        for (prev, name) in ["a", "b", "c", "d", "e", "f", "g"]
            .iter()
            .zip(["b", "c", "d", "e", "f", "g", "h"])
        {
            bomb.push_str(&format!(
                "{name}: &{name} [{}]\n",
                vec![format!("*{prev}"); 9].join(",")
            ));
        }
        assert_eq!(p(&bomb).unwrap_err().code, Code::YamlLimit);
        assert_eq!(p(&"[".repeat(100_000)).unwrap_err().code, Code::YamlLimit);
        assert_eq!(p("a: 1\na: 2\n").unwrap_err().code, Code::DuplicateKey);
        assert_eq!(p("a: [1, 2\nb: c").unwrap_err().code, Code::YamlSyntax);
    }
}
