//! Reading an engine's tables from the validated pack.
//!
//! The pack's own check (`pnpkit check`) has validated types, ranges and
//! references; an engine needs more (a hero with exactly one hero fighter,
//! a map whose adjacency joins neighbouring cells, the facts its rules
//! quote). [`Reader`] collects every such problem as an `engine-data`
//! diagnostic located at the component field (or fact) it is about, so a
//! broken table is a `check` error with a span, not a failure at `log` time.

use std::fmt::Display;
use std::ops::RangeInclusive;

use crate::diag::{Code, Diagnostic};
use crate::model::{Component, FieldValue, Game};

/// Whole-number types a table field may be read into, with their bounds.
pub trait Small: TryFrom<i64> + Copy {
    const MIN: i64;
    const MAX: i64;
}

macro_rules! small {
    ($($t:ty),*) => {$(
        impl Small for $t {
            const MIN: i64 = <$t>::MIN as i64;
            const MAX: i64 = <$t>::MAX as i64;
        }
    )*};
}

small!(u8, i8, u16, i16, u32);

/// Reads tables from one pack, collecting problems.
pub struct Reader<'g> {
    game: &'g Game,
    diags: Vec<Diagnostic>,
}

impl<'g> Reader<'g> {
    pub fn new(game: &'g Game) -> Self {
        Reader {
            game,
            diags: Vec::new(),
        }
    }

    pub fn game(&self) -> &'g Game {
        self.game
    }

    fn help(&self) -> String {
        format!(
            "the `{}` rules engine reads this to replay game logs (docs/log-format/{}.md)",
            self.game.id, self.game.id
        )
    }

    /// The components of `kind` (none when the pack has no such kind).
    pub fn all(&self, kind: &str) -> &'g [Component] {
        self.game.components.get(kind).map(Vec::as_slice).unwrap_or(&[])
    }

    /// The components of `kind`, reporting a pack that has none.
    pub fn some(&mut self, kind: &str, what: &str) -> &'g [Component] {
        let list = self.all(kind);
        if list.is_empty() {
            let d = Diagnostic::new(
                Code::EngineData,
                format!("the `{}` pack has no {what} (`{kind}` components)", self.game.id),
            )
            .in_file(self.game.dir.join("game.yaml"))
            .expected(format!("at least one `{kind}` component"))
            .found("none")
            .help(self.help());
            self.diags.push(d);
        }
        list
    }

    /// Reports a problem with `field` of component `c` (the component
    /// itself when the field is absent).
    pub fn error(
        &mut self,
        c: &Component,
        field: &str,
        message: impl Into<String>,
        expected: impl Display,
        found: impl Display,
    ) {
        let d = Diagnostic::new(Code::EngineData, message)
            .at(c.span_of(field))
            .label(if c.field_spans.contains_key(field) {
                format!("`{field}` of {} `{}`", c.kind, c.id)
            } else {
                format!("{} `{}`", c.kind, c.id)
            })
            .expected(expected.to_string())
            .found(found.to_string())
            .help(self.help());
        self.diags.push(d);
    }

    /// A required integer field.
    pub fn int(&mut self, c: &Component, field: &str) -> Option<i64> {
        let v = c.field(field).and_then(FieldValue::as_int);
        if v.is_none() {
            self.error(
                c,
                field,
                format!("{} `{}` has no integer `{field}`", c.kind, c.id),
                format!("`{field}`: a whole number"),
                "nothing",
            );
        }
        v
    }

    /// A required integer field within `range`.
    pub fn int_in(&mut self, c: &Component, field: &str, range: RangeInclusive<i64>) -> Option<i64> {
        let v = self.int(c, field)?;
        if range.contains(&v) {
            Some(v)
        } else {
            self.error(
                c,
                field,
                format!("`{field}` of {} `{}` is out of the engine's range", c.kind, c.id),
                format!("{} to {}", range.start(), range.end()),
                v,
            );
            None
        }
    }

    /// A required integer field that fits `T` (`u8`, `i8` …).
    pub fn small<T: Small>(&mut self, c: &Component, field: &str) -> Option<T> {
        self.int_in(c, field, T::MIN..=T::MAX).and_then(|v| T::try_from(v).ok())
    }

    /// An optional integer field.
    pub fn opt_int(&self, c: &Component, field: &str) -> Option<i64> {
        c.field(field).and_then(FieldValue::as_int)
    }

    /// A required string field (refs and enums are strings).
    pub fn str(&mut self, c: &'g Component, field: &str) -> Option<&'g str> {
        let v = c.field(field).and_then(FieldValue::as_str);
        if v.is_none() {
            self.error(
                c,
                field,
                format!("{} `{}` has no `{field}`", c.kind, c.id),
                format!("`{field}`"),
                "nothing",
            );
        }
        v
    }

    /// An optional string field.
    pub fn opt_str(&self, c: &'g Component, field: &str) -> Option<&'g str> {
        c.field(field).and_then(FieldValue::as_str)
    }

    /// A boolean field; absent is false.
    pub fn flag(&self, c: &Component, field: &str) -> bool {
        matches!(c.field(field), Some(FieldValue::Bool(true)))
    }

    /// A list field; absent is empty.
    pub fn list(&self, c: &'g Component, field: &str) -> &'g [FieldValue] {
        c.field(field).and_then(FieldValue::as_list).unwrap_or(&[])
    }

    /// A whole-number fact of `facts.yaml` the rules quote.
    pub fn fact(&mut self, id: &str) -> Option<i64> {
        let found = self.game.reference.facts.iter().find(|f| f.id == id);
        match found.map(|f| (f, f.value.as_i64())) {
            Some((_, Some(v))) => Some(v),
            Some((f, None)) => {
                let d = Diagnostic::new(Code::EngineData, format!("fact `{id}` is not a whole number"))
                    .at(f.span)
                    .label(format!("fact `{id}`"))
                    .expected("a whole number")
                    .found(f.value.to_string())
                    .help(self.help());
                self.diags.push(d);
                None
            }
            None => {
                let d = Diagnostic::new(Code::EngineData, format!("facts.yaml has no fact `{id}`"))
                    .in_file(self.game.dir.join("facts.yaml"))
                    .expected(format!("a fact `{id}` with a whole-number value"))
                    .found("none")
                    .help(self.help());
                self.diags.push(d);
                None
            }
        }
    }

    /// A fact that fits `T`.
    pub fn fact_small<T: Small>(&mut self, id: &str) -> Option<T> {
        let v = self.fact(id)?;
        match T::try_from(v) {
            Ok(t) => Some(t),
            Err(_) => {
                let span = self.game.reference.facts.iter().find(|f| f.id == id).map(|f| f.span);
                let mut d = Diagnostic::new(Code::EngineData, format!("fact `{id}` is out of the engine's range"))
                    .expected(format!("{} to {}", T::MIN, T::MAX))
                    .found(v.to_string())
                    .help(self.help());
                if let Some(span) = span {
                    d = d.at(span);
                }
                self.diags.push(d);
                None
            }
        }
    }

    /// Whether a problem was reported so far.
    pub fn failed(&self) -> bool {
        !self.diags.is_empty()
    }

    /// The tables, or every problem found.
    pub fn finish<T>(self, tables: Option<T>) -> Result<T, Vec<Diagnostic>> {
        match tables {
            Some(t) if self.diags.is_empty() => Ok(t),
            _ if self.diags.is_empty() => Err(vec![
                Diagnostic::new(
                    Code::EngineData,
                    format!("the `{}` rules engine cannot read its tables", self.game.id),
                )
                .in_file(self.game.dir.join("game.yaml")),
            ]),
            _ => Err(self.diags),
        }
    }
}
