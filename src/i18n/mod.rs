//! Translation bookkeeping: every player-facing text of a pack, whether each
//! locale has it, and whether the translation is stale (its source changed
//! after it was written). Pure functions; `cmd/i18n.rs` does the I/O.
//!
//! A text is any YAML mapping whose keys are locales of the pack and include
//! the source locale (`{es: …, en: …}`), wherever it sits (one without its
//! source text is `Sourceless`: `i18n status` reports it): components, rules,
//! facts, quick reference. Its id is the file and the path to it, using item
//! ids where lists have them: `components/card.yaml#sunstrike.text`.
//! `data/<game>/i18n/<locale>.lock` records, per text id, a hash of the source
//! the translation was made from.

use std::collections::BTreeMap;

use indexmap::IndexMap;

use crate::pack::yaml::{Node, Value};

pub mod edit;
pub mod po;

pub use edit::{Edit, EditError, Style, locate, plan_edit, rewrite};
pub use po::{PoEntry, PoProblem, duplicates, parse_po};

/// One translatable text.
#[derive(Clone, Debug)]
pub struct Entry {
    pub id: String,
    /// The file, relative to the pack.
    pub file: String,
    pub line: u32,
    pub source: String,
    /// Translations by locale (the source locale excluded), as written.
    pub translations: IndexMap<String, String>,
}

/// Where a translation stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum State {
    /// Present, and made from the current source.
    Current,
    /// Present, but no hash of its source was recorded (run `i18n accept`).
    Unrecorded,
    /// Present, but the source changed since it was made.
    Stale,
    /// Absent or empty.
    Missing,
}

/// A stable 64-bit FNV-1a hash of a source text, as 16 hex digits.
pub fn hash(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.as_bytes() {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// A text written in other locales but not in the source one (or empty
/// there): nothing to translate from, and `check` warns of it (W014).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sourceless {
    pub id: String,
    /// The file, relative to the pack.
    pub file: String,
    pub line: u32,
}

/// The texts of a file: those with a source text, and those without one.
#[derive(Clone, Debug, Default)]
pub struct Survey {
    pub entries: Vec<Entry>,
    pub sourceless: Vec<Sourceless>,
}

/// Collects the texts of one parsed file.
pub fn inventory(root: &Node, file: &str, locales: &[String]) -> Vec<Entry> {
    survey(root, file, locales).entries
}

/// Collects the texts of one parsed file, and those that lack their source.
pub fn survey(root: &Node, file: &str, locales: &[String]) -> Survey {
    let mut out = Survey::default();
    walk(root, file, &mut Vec::new(), locales, &mut out);
    out
}

fn text_map(node: &Node, locales: &[String]) -> Option<IndexMap<String, String>> {
    let entries = node.as_map()?;
    if entries.is_empty() {
        return None;
    }
    let mut m = IndexMap::new();
    for (k, v) in entries {
        let key = k.as_str()?;
        if !locales.iter().any(|l| l == key) {
            return None;
        }
        let s = match &v.value {
            Value::Str(s) => s.clone(),
            Value::Int(i) => i.to_string(),
            Value::Float(f) => f.to_string(),
            _ => return None,
        };
        m.insert(key.to_owned(), s);
    }
    Some(m)
}

fn walk(node: &Node, file: &str, path: &mut Vec<String>, locales: &[String], out: &mut Survey) {
    if let Some(mut m) = text_map(node, locales) {
        let id = format!("{file}#{}", path.join("."));
        let source = match m.shift_remove(&locales[0]) {
            Some(s) if !s.trim().is_empty() => s,
            _ => {
                out.sourceless.push(Sourceless {
                    id,
                    file: file.to_owned(),
                    line: node.span.line,
                });
                return;
            }
        };
        out.entries.push(Entry {
            id,
            file: file.to_owned(),
            line: node.span.line,
            source,
            translations: m,
        });
        return;
    }
    match &node.value {
        Value::Map(entries) => {
            for (k, v) in entries {
                let Some(key) = k.as_str() else { continue };
                path.push(key.to_owned());
                walk(v, file, path, locales, out);
                path.pop();
            }
        }
        Value::Seq(items) => {
            for (i, item) in items.iter().enumerate() {
                // Items with an id are named by it, so inserting an item elsewhere keeps ids stable.
                let name = item
                    .get("id")
                    .and_then(Node::as_str)
                    .map_or_else(|| i.to_string(), str::to_owned);
                path.push(name);
                walk(item, file, path, locales, out);
                path.pop();
            }
        }
        _ => {}
    }
}

/// The state of `entry` in `locale`, given the recorded source hashes.
pub fn state(entry: &Entry, locale: &str, lock: &BTreeMap<String, String>) -> State {
    match entry.translations.get(locale) {
        None => State::Missing,
        Some(t) if t.trim().is_empty() => State::Missing,
        Some(_) => match lock.get(&entry.id) {
            None => State::Unrecorded,
            Some(h) if *h == hash(&entry.source) => State::Current,
            Some(_) => State::Stale,
        },
    }
}

/// Reads a lock file: `<hash> <text id>` per line, `#` comments.
pub fn parse_lock(text: &str) -> BTreeMap<String, String> {
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_once(' '))
        .map(|(h, id)| (id.to_owned(), h.to_owned()))
        .collect()
}

/// Writes a lock file, sorted by text id so diffs stay small.
pub fn write_lock(locale: &str, lock: &BTreeMap<String, String>) -> String {
    let mut s = format!(
        "# pnpkit translation lock for `{locale}`: the hash of the source text each translation was made from.\n\
         # Written by `pnpkit i18n accept`; a changed source makes its translation stale.\n"
    );
    for (id, h) in lock {
        s.push_str(&format!("{h} {id}\n"));
    }
    s
}

/// A C-style double-quoted string, valid both in PO files and as a YAML
/// double-quoted scalar.
fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A gettext PO file of one game's texts in `locale`: context = text id,
/// msgid = source, msgstr = translation; stale translations are fuzzy.
pub fn to_po(
    game: &str,
    source_locale: &str,
    locale: &str,
    entries: &[Entry],
    lock: &BTreeMap<String, String>,
) -> String {
    let mut s = String::new();
    s.push_str(&format!(
        "# {game}: texts in `{locale}`, translated from `{source_locale}`.\n"
    ));
    s.push_str("# Exported by `pnpkit i18n export`.\n");
    s.push_str("msgid \"\"\nmsgstr \"\"\n");
    s.push_str(&format!("\"Project-Id-Version: pnpkit {game}\\n\"\n"));
    s.push_str(&format!("\"Language: {locale}\\n\"\n"));
    s.push_str(&format!("\"Language-Team: {game} {locale}\\n\"\n"));
    s.push_str("\"Last-Translator: pnpkit\\n\"\n");
    s.push_str("\"PO-Revision-Date: 2026-01-01 00:00+0000\\n\"\n");
    s.push_str("\"MIME-Version: 1.0\\n\"\n");
    s.push_str("\"Content-Type: text/plain; charset=UTF-8\\n\"\n");
    s.push_str("\"Content-Transfer-Encoding: 8bit\\n\"\n");
    s.push_str("\"Plural-Forms: nplurals=2; plural=(n != 1);\\n\"\n");
    for e in entries {
        s.push('\n');
        s.push_str(&format!("#: {}:{}\n", e.file, e.line));
        let st = state(e, locale, lock);
        if st == State::Stale {
            s.push_str("#, fuzzy\n");
        }
        if e.source.contains("{{") || e.source.contains("{%") {
            s.push_str("#. Keep the {{ … }} parts as they are: they are filled in from the game data.\n");
        }
        s.push_str(&format!("msgctxt {}\n", quote(&e.id)));
        s.push_str(&format!("msgid {}\n", quote(&e.source)));
        let t = if st == State::Missing {
            ""
        } else {
            e.translations.get(locale).map_or("", String::as_str)
        };
        s.push_str(&format!("msgstr {}\n", quote(t)));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::FileId;
    use crate::pack::yaml::{Limits, parse};

    fn entries(yaml: &str) -> Vec<Entry> {
        let node = parse(yaml, FileId(0), &Limits::default()).unwrap();
        inventory(&node, "components/card.yaml", &["es".to_string(), "en".to_string()])
    }

    #[test]
    fn finds_texts_anywhere_and_names_them_by_id() {
        let e = entries(
            "- id: strike\n  name: {es: Golpe, en: Strike}\n  powers:\n    - {name: {es: Furia}, cost: 2}\n- id: guard\n  copies: 2\n",
        );
        let ids: Vec<&str> = e.iter().map(|e| e.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "components/card.yaml#strike.name",
                "components/card.yaml#strike.powers.0.name"
            ]
        );
        assert_eq!(e[0].source, "Golpe");
        assert_eq!(e[1].translations.get("en"), None);
    }

    #[test]
    fn texts_without_their_source_are_named_not_dropped() {
        let node = parse(
            "- id: a\n  name: {en: One}\n- id: b\n  name: {es: '', en: Two}\n- id: c\n  name: {es: Tres}\n",
            FileId(0),
            &Limits::default(),
        )
        .unwrap();
        let s = survey(&node, "components/card.yaml", &["es".to_string(), "en".to_string()]);
        let ids: Vec<&str> = s.entries.iter().map(|e| e.id.as_str()).collect();
        assert_eq!(ids, ["components/card.yaml#c.name"]);
        let lost: Vec<(&str, u32)> = s.sourceless.iter().map(|e| (e.id.as_str(), e.line)).collect();
        assert_eq!(
            lost,
            [("components/card.yaml#a.name", 2), ("components/card.yaml#b.name", 4)]
        );
    }

    #[test]
    fn states_follow_the_recorded_source_hash() {
        let e = &entries("- id: a\n  name: {es: Uno, en: One}\n- id: b\n  name: {es: Dos}\n")[..];
        let mut lock = BTreeMap::new();
        assert_eq!(state(&e[0], "en", &lock), State::Unrecorded);
        assert_eq!(state(&e[1], "en", &lock), State::Missing);
        lock.insert(e[0].id.clone(), hash("Uno"));
        assert_eq!(state(&e[0], "en", &lock), State::Current);
        lock.insert(e[0].id.clone(), hash("Uno (antes)"));
        assert_eq!(state(&e[0], "en", &lock), State::Stale);
        assert_eq!(parse_lock(&write_lock("en", &lock)), lock);
    }

    #[test]
    fn po_files_read_back() {
        let e = entries("- id: a\n  text: {es: \"Di \\\"hola\\\"\\nya\", en: Say hi}\n- id: b\n  name: {es: Dos}\n");
        let po = to_po("demo", "es", "en", &e, &BTreeMap::new());
        let back = parse_po(&po).unwrap();
        assert_eq!(back.len(), 2);
        assert_eq!(back[0].context, "components/card.yaml#a.text");
        assert_eq!(back[0].source, "Di \"hola\"\nya");
        assert_eq!(back[0].translation, "Say hi");
        assert_eq!(back[1].translation, "");
        // Editors wrap long strings over several lines.
        let wrapped = "msgctxt \"x\"\nmsgid \"\"\n\"two \"\n\"lines\"\nmsgstr \"\"\n\"dos \"\n\"líneas\"\n";
        let w = parse_po(wrapped).unwrap();
        assert_eq!(
            (w[0].source.as_str(), w[0].translation.as_str()),
            ("two lines", "dos líneas")
        );
    }

    #[test]
    fn po_marks_stale_entries_fuzzy_and_escapes() {
        let e = entries("- id: a\n  text: {es: \"Di \\\"hola\\\"\\nya\", en: Say hi}\n");
        let mut lock = BTreeMap::new();
        lock.insert(e[0].id.clone(), hash("older source"));
        let po = to_po("demo", "es", "en", &e, &lock);
        assert!(
            po.contains(
                "#, fuzzy\nmsgctxt \"components/card.yaml#a.text\"\nmsgid \"Di \\\"hola\\\"\\nya\"\nmsgstr \"Say hi\""
            ),
            "{po}"
        );
        assert!(po.contains("\"Language: en\\n\""));
    }
}
