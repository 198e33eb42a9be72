//! Texts agree with effects (E054): every number a card text gives must be
//! one its structured effect states, and every amount of the effect above 1
//! must appear in the text of every locale (1 may be written as "a", "one").
//! Numbers inside `{{ … }}` templates quote the card's own fields and are
//! left out, as are digits glued to letters (square names such as `C4`, `3D`);
//! digits and the number words two to ten (English, Spanish) count. The
//! actions, moments and targets a text describes are compared with the
//! effect's words through the phrases the vocabulary gives them
//! ([`super::says`]).

use indexmap::IndexMap;

use super::says::disagreement;
use crate::diag::{Code, Diagnostic, Span};
use crate::model::effects::{Effect, Vocabulary};
use crate::model::{Component, FieldSpec, FieldType, FieldValue, Kind, Text};

/// The one constructor of E054.
fn mismatch(c: &Component, field: &str, span: Span, message: String, found: String, expected: String) -> Diagnostic {
    Diagnostic::new(Code::EffectText, format!("{} `{}`: {message}", c.kind, c.id))
        .at(span)
        .label(format!("`{field}` disagrees with its effect"))
        .found(found)
        .expected(expected)
        .help(
            "make the text say what the effect does (its numbers, actions, moments and targets; a text template may quote a number), or fix the effect",
        )
}

/// Checks every effect field that names its text.
pub fn check_texts(
    kinds: &IndexMap<String, Kind>,
    components: &IndexMap<String, Vec<Component>>,
    voc: &Vocabulary,
    diags: &mut Vec<Diagnostic>,
) {
    for (kid, list) in components {
        let Some(kind) = kinds.get(kid) else { continue };
        for c in list {
            walk(c, voc, &kind.fields, &c.fields, None, diags);
        }
    }
}

/// Visits a mapping of fields (the component's, or a record's), `top` being
/// the top-level field the record sits in (for spans).
fn walk(
    c: &Component,
    voc: &Vocabulary,
    specs: &IndexMap<String, FieldSpec>,
    values: &IndexMap<String, FieldValue>,
    top: Option<&str>,
    diags: &mut Vec<Diagnostic>,
) {
    for (name, spec) in specs {
        let Some(v) = values.get(name) else { continue };
        let here = top.unwrap_or(name);
        match (&spec.ty, v) {
            (FieldType::Effect { text: Some(t) }, FieldValue::Effect(e)) => {
                if let Some(FieldValue::Text(text)) = values.get(t) {
                    // Inside a record only the effect knows where it is: point
                    // at it rather than at the record's first line.
                    let span = if top.is_some() { e.span } else { c.span_of(t) };
                    compare(c, voc, t, span, text, e, diags);
                }
            }
            (FieldType::Record { fields }, FieldValue::Record(r)) => walk(c, voc, fields, r, Some(here), diags),
            (FieldType::List { of, .. }, FieldValue::List(items)) => {
                if let FieldType::Record { fields } = &of.ty {
                    for i in items {
                        if let FieldValue::Record(r) = i {
                            walk(c, voc, fields, r, Some(here), diags);
                        }
                    }
                }
            }
            _ => {}
        }
    }
}

fn compare(
    c: &Component,
    voc: &Vocabulary,
    field: &str,
    span: Span,
    text: &Text,
    e: &Effect,
    diags: &mut Vec<Diagnostic>,
) {
    let stated = e.numbers();
    let mut shown: Vec<i64> = stated.clone();
    shown.sort_unstable();
    shown.dedup();
    let list = if shown.is_empty() {
        "no numbers".to_string()
    } else {
        shown.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
    };
    for (locale, t) in &text.0 {
        let found = numbers_in(t, locale);
        // 0 never contradicts an effect (`to a minimum of 0`).
        if let Some(n) = found.iter().find(|n| **n != 0 && !stated.contains(n)) {
            diags.push(mismatch(
                c,
                field,
                span,
                format!("the {locale} text gives {n}, which its effect does not state"),
                format!("{n} in \"{}\"", short(t)),
                format!("only the effect's numbers ({list})"),
            ));
            continue;
        }
        if let Some(n) = shown.iter().find(|n| **n > 1 && !found.contains(n)) {
            diags.push(mismatch(
                c,
                field,
                span,
                format!("the effect states {n}, which the {locale} text never gives"),
                format!("\"{}\"", short(t)),
                format!("the text gives {n}"),
            ));
            continue;
        }
        if let Some(d) = disagreement(voc, e, locale, t) {
            diags.push(mismatch(c, field, span, d.message, d.found, d.expected));
        }
    }
}

fn short(t: &str) -> String {
    if t.chars().count() > 80 {
        format!("{}…", t.chars().take(79).collect::<String>())
    } else {
        t.to_owned()
    }
}

const WORDS_EN: &[(&str, i64)] = &[
    ("two", 2),
    ("three", 3),
    ("four", 4),
    ("five", 5),
    ("six", 6),
    ("seven", 7),
    ("eight", 8),
    ("nine", 9),
    ("ten", 10),
];
const WORDS_ES: &[(&str, i64)] = &[
    ("dos", 2),
    ("tres", 3),
    ("cuatro", 4),
    ("cinco", 5),
    ("seis", 6),
    ("siete", 7),
    ("ocho", 8),
    ("nueve", 9),
    ("diez", 10),
];

/// The numbers a text gives: digits (not percentages) and number words,
/// outside template tags.
pub fn numbers_in(text: &str, locale: &str) -> Vec<i64> {
    let mut plain = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(['{']) {
        let (head, tail) = rest.split_at(i);
        plain.push_str(head);
        let close = if tail.starts_with("{{") {
            tail.find("}}").map(|j| j + 2)
        } else if tail.starts_with("{%") {
            tail.find("%}").map(|j| j + 2)
        } else {
            Some(1)
        };
        match close {
            Some(j) => {
                plain.push(' ');
                rest = &tail[j..];
            }
            None => {
                rest = "";
            }
        }
    }
    plain.push_str(rest);
    let words = match locale {
        "es" => WORDS_ES,
        "en" => WORDS_EN,
        _ => &[],
    };
    let mut out = Vec::new();
    let bytes = plain.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() {
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            let percent = plain[i..].trim_start().starts_with('%');
            // `C4`, `D5`: a square's name; `3D`: a word. Not numbers.
            let id = start > 0 && bytes[start - 1].is_ascii_alphabetic()
                || i < bytes.len() && bytes[i].is_ascii_alphabetic();
            if !percent
                && !id
                && let Ok(n) = plain[start..i].parse::<i64>()
            {
                out.push(n);
            }
            continue;
        }
        i += 1;
    }
    for w in plain.split(|ch: char| !ch.is_alphanumeric()) {
        let lw = w.to_lowercase();
        if let Some((_, n)) = words.iter().find(|(x, _)| *x == lw) {
            out.push(*n);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::numbers_in;

    #[test]
    fn numbers_of_a_text() {
        assert_eq!(
            numbers_in("Remove 3 damage from one of your characters.", "en"),
            vec![3]
        );
        assert_eq!(
            numbers_in("Roba dos cartas; on a 4, 5 or 6 (a 50% chance)", "es"),
            vec![4, 5, 6, 2]
        );
        assert_eq!(numbers_in("Deal {{ damage }} damage, 2 more", "en"), vec![2]);
        assert_eq!(numbers_in("+1 attack", "en"), vec![1]);
        assert_eq!(numbers_in("a wall on D4 or E4", "en"), Vec::<i64>::new());
    }
}
