//! What changed in a game's rules reference: sections (by id, per locale,
//! quoted facts filled in), facts (by value), glossary terms (by their
//! words) and the quick reference.

use indexmap::IndexMap;
use serde::Serialize;
use serde_json::Value;

use super::Status;
use crate::model::Text;
use crate::model::reference::{Cell, Chapter, Reference, SText, Section};

/// A rules section (or a chapter's opening text) that is new, gone or reworded.
#[derive(Clone, Debug, Serialize)]
pub struct RuleChange {
    pub id: String,
    pub title: Text,
    pub status: Status,
    /// The locales whose wording changed (every locale for added and removed sections).
    pub locales: Vec<String>,
}

/// A fact whose value changed (or that is new or gone).
#[derive(Clone, Debug, Serialize)]
pub struct FactChange {
    pub id: String,
    pub label: Text,
    pub old: Option<Value>,
    pub new: Option<Value>,
}

/// A glossary term whose words changed in some locales.
#[derive(Clone, Debug, Serialize)]
pub struct TermChange {
    pub id: String,
    pub old: Option<Text>,
    pub new: Option<Text>,
    pub locales: Vec<String>,
}

/// Renders a reference text in a locale as printed (quoted values filled in).
type Render<'a> = &'a dyn Fn(&Text, &str) -> String;

/// A section's own words in one locale (not its subsections').
fn words(s: &Section, locale: &str, render: Render) -> String {
    let t = |x: &SText| render(&x.text, locale);
    let mut out = vec![t(&s.title)];
    out.extend(s.text.iter().map(t));
    out.extend(s.steps.iter().map(t));
    out.extend(s.columns.iter().map(t));
    for row in &s.rows {
        for c in row {
            out.push(match c {
                Cell::Text(x) => t(x),
                Cell::Plain(p) => p.clone(),
            });
        }
    }
    out.extend(s.see.iter().map(|(id, _)| format!("→{id}")));
    out.join("\u{1f}")
}

fn chapter_words(c: &Chapter, locale: &str, render: Render) -> String {
    let mut s = render(&c.title.text, locale);
    if let Some(t) = &c.text {
        s.push('\u{1f}');
        s.push_str(&render(&t.text, locale));
    }
    s
}

/// Sections and chapter openings by id, with their title and words per locale.
fn entries(r: &Reference, locales: &[String], render: Render) -> IndexMap<String, (Text, Vec<String>)> {
    let mut out = IndexMap::new();
    for ch in &r.chapters {
        let w = locales.iter().map(|l| chapter_words(ch, l, render)).collect();
        out.insert(ch.id.clone(), (ch.title.text.clone(), w));
    }
    for (_, s) in r.sections() {
        let w = locales.iter().map(|l| words(s, l, render)).collect();
        out.insert(s.id.clone(), (s.title.text.clone(), w));
    }
    out
}

/// One side: its reference and how its texts render.
pub struct Side<'a> {
    pub reference: &'a Reference,
    pub render: Render<'a>,
}

/// The rules sections that are new, gone or reworded.
pub fn rules(old: &Side, new: &Side, locales: &[String]) -> Vec<RuleChange> {
    let (o, n) = (
        entries(old.reference, locales, old.render),
        entries(new.reference, locales, new.render),
    );
    let mut out = Vec::new();
    for (id, (title, w)) in &n {
        match o.get(id) {
            None => out.push(RuleChange {
                id: id.clone(),
                title: title.clone(),
                status: Status::Added,
                locales: locales.to_vec(),
            }),
            Some((_, ow)) => {
                let ls: Vec<String> = locales
                    .iter()
                    .zip(w.iter().zip(ow))
                    .filter(|(_, (a, b))| a != b)
                    .map(|(l, _)| l.clone())
                    .collect();
                if !ls.is_empty() {
                    out.push(RuleChange {
                        id: id.clone(),
                        title: title.clone(),
                        status: Status::Changed,
                        locales: ls,
                    });
                }
            }
        }
    }
    for (id, (title, _)) in o.iter().filter(|(id, _)| !n.contains_key(*id)) {
        out.push(RuleChange {
            id: id.clone(),
            title: title.clone(),
            status: Status::Removed,
            locales: locales.to_vec(),
        });
    }
    out
}

/// Facts whose value changed, and new or removed facts.
pub fn facts(old: &Reference, new: &Reference) -> Vec<FactChange> {
    let mut out = Vec::new();
    for f in &new.facts {
        let before = old.facts.iter().find(|x| x.id == f.id);
        if before.is_none_or(|b| b.value != f.value) {
            out.push(FactChange {
                id: f.id.clone(),
                label: f.label.text.clone(),
                old: before.map(|b| b.value.clone()),
                new: Some(f.value.clone()),
            });
        }
    }
    for f in old.facts.iter().filter(|f| !new.facts.iter().any(|x| x.id == f.id)) {
        out.push(FactChange {
            id: f.id.clone(),
            label: f.label.text.clone(),
            old: Some(f.value.clone()),
            new: None,
        });
    }
    out
}

/// Glossary terms whose words changed.
pub fn glossary(old: &Reference, new: &Reference, locales: &[String]) -> Vec<TermChange> {
    let forms = |t: &crate::model::reference::Term, l: &str| {
        format!(
            "{}\u{1f}{}\u{1f}{}",
            t.forms.get(l),
            t.plural.as_ref().map(|p| p.get(l)).unwrap_or_default(),
            t.note.as_ref().map(|n| n.text.get(l)).unwrap_or_default()
        )
    };
    let mut out = Vec::new();
    for t in &new.glossary {
        let before = old.glossary.iter().find(|x| x.id == t.id);
        let ls: Vec<String> = locales
            .iter()
            .filter(|l| before.is_none_or(|b| forms(b, l) != forms(t, l)))
            .cloned()
            .collect();
        if !ls.is_empty() {
            out.push(TermChange {
                id: t.id.clone(),
                old: before.map(|b| b.forms.clone()),
                new: Some(t.forms.clone()),
                locales: ls,
            });
        }
    }
    for t in old
        .glossary
        .iter()
        .filter(|t| !new.glossary.iter().any(|x| x.id == t.id))
    {
        out.push(TermChange {
            id: t.id.clone(),
            old: Some(t.forms.clone()),
            new: None,
            locales: locales.to_vec(),
        });
    }
    out
}

/// The locales whose quick reference changed.
pub fn quickref(old: &Side, new: &Side, locales: &[String]) -> Vec<String> {
    let words = |side: &Side, l: &str| -> Option<String> {
        let q = side.reference.quickref.as_ref()?;
        let t = |x: &SText| (side.render)(&x.text, l);
        let mut out: Vec<String> = q.turn.iter().map(t).collect();
        for a in &q.actions {
            out.push(t(&a.name));
            out.extend(a.cost.iter().map(t));
            out.extend(a.effect.iter().map(t));
            out.extend(a.rule.clone());
        }
        // Key numbers are facts, printed with their values.
        for (id, _) in &q.numbers {
            let f = side.reference.facts.iter().find(|f| f.id == *id);
            out.push(format!("{id}={}", f.map(|f| f.value.to_string()).unwrap_or_default()));
            out.extend(f.map(|f| t(&f.label)));
        }
        out.extend(q.victory.iter().map(t));
        out.extend(q.notes.iter().map(t));
        Some(out.join("\u{1f}"))
    };
    locales
        .iter()
        .filter(|l| words(old, l) != words(new, l))
        .cloned()
        .collect()
}
