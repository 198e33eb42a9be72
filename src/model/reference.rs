//! The rules reference of a pack: glossary, facts, chapters of rules and the
//! quick reference (docs/rules-format.md), as the model holds them. Read by
//! [`crate::reference`].

use serde::Serialize;

use crate::diag::Span;
use crate::model::Text;

/// A text with where it was written.
#[derive(Clone, Debug, Serialize)]
pub struct SText {
    #[serde(flatten)]
    pub text: Text,
    #[serde(skip)]
    pub span: Span,
}

#[derive(Clone, Debug, Serialize)]
pub struct Term {
    pub id: String,
    /// The singular form per locale.
    pub forms: Text,
    pub plural: Option<Text>,
    pub note: Option<SText>,
    /// Whether translations are checked for this term (`check: false` for
    /// everyday words that also appear in other senses).
    pub check: bool,
    #[serde(skip)]
    pub span: Span,
}

#[derive(Clone, Debug, Serialize)]
pub struct Fact {
    pub id: String,
    pub value: serde_json::Value,
    pub label: SText,
    pub rule: Option<String>,
    #[serde(skip)]
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SectionKind {
    Section,
    Step,
    Example,
    Table,
}

/// A table cell: a text, or a plain value the same in every locale.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum Cell {
    Text(SText),
    Plain(String),
}

#[derive(Clone, Debug, Serialize)]
pub struct Section {
    pub id: String,
    pub kind: SectionKind,
    pub title: SText,
    pub text: Option<SText>,
    pub steps: Vec<SText>,
    pub columns: Vec<SText>,
    pub rows: Vec<Vec<Cell>>,
    pub see: Vec<(String, Span)>,
    pub sections: Vec<Section>,
    #[serde(skip)]
    pub span: Span,
}

#[derive(Clone, Debug, Serialize)]
pub struct Chapter {
    pub id: String,
    pub title: SText,
    pub text: Option<SText>,
    pub sections: Vec<Section>,
    #[serde(skip)]
    pub span: Span,
}

#[derive(Clone, Debug, Serialize)]
pub struct Action {
    pub name: SText,
    pub cost: Option<SText>,
    pub effect: Option<SText>,
    pub rule: Option<String>,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct QuickRef {
    pub turn: Vec<SText>,
    pub actions: Vec<Action>,
    pub numbers: Vec<(String, Span)>,
    pub victory: Vec<SText>,
    pub notes: Vec<SText>,
}

/// Everything a pack says about its rules.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Reference {
    pub glossary: Vec<Term>,
    pub facts: Vec<Fact>,
    pub chapters: Vec<Chapter>,
    pub quickref: Option<QuickRef>,
}

impl Reference {
    pub fn is_empty(&self) -> bool {
        self.glossary.is_empty() && self.facts.is_empty() && self.chapters.is_empty() && self.quickref.is_none()
    }

    /// The title of section `id` in `locale` (else the first locale).
    pub fn section_title(&self, id: &str, locale: &str) -> Option<String> {
        let (_, section) = self.sections().into_iter().find(|(_, s)| s.id == id)?;
        Some(section.title.text.get(locale).to_string()).filter(|t| !t.is_empty())
    }

    /// Every section, depth first, with its chapter.
    pub fn sections(&self) -> Vec<(&Chapter, &Section)> {
        fn walk<'a>(ch: &'a Chapter, s: &'a Section, out: &mut Vec<(&'a Chapter, &'a Section)>) {
            out.push((ch, s));
            for sub in &s.sections {
                walk(ch, sub, out);
            }
        }
        let mut out = Vec::new();
        for ch in &self.chapters {
            for s in &ch.sections {
                walk(ch, s, &mut out);
            }
        }
        out
    }

    /// Every text of the reference with a label saying where it is, for
    /// template checks and translation status.
    pub fn texts(&self) -> Vec<(String, &SText)> {
        let mut out = Vec::new();
        for t in &self.glossary {
            if let Some(n) = &t.note {
                out.push((format!("the note of glossary term `{}`", t.id), n));
            }
        }
        for f in &self.facts {
            out.push((format!("the label of fact `{}`", f.id), &f.label));
        }
        for ch in &self.chapters {
            out.push((format!("the title of chapter `{}`", ch.id), &ch.title));
            if let Some(t) = &ch.text {
                out.push((format!("the text of chapter `{}`", ch.id), t));
            }
        }
        for (_, s) in self.sections() {
            out.push((format!("the title of section `{}`", s.id), &s.title));
            if let Some(t) = &s.text {
                out.push((format!("the text of section `{}`", s.id), t));
            }
            for (i, st) in s.steps.iter().enumerate() {
                out.push((format!("step {} of section `{}`", i + 1, s.id), st));
            }
            for (i, c) in s.columns.iter().enumerate() {
                out.push((format!("column {} of section `{}`", i + 1, s.id), c));
            }
            for (r, row) in s.rows.iter().enumerate() {
                for (c, cell) in row.iter().enumerate() {
                    if let Cell::Text(t) = cell {
                        out.push((format!("row {} cell {} of section `{}`", r + 1, c + 1, s.id), t));
                    }
                }
            }
        }
        if let Some(q) = &self.quickref {
            for (i, t) in q.turn.iter().enumerate() {
                out.push((format!("turn step {} of the quick reference", i + 1), t));
            }
            for (i, a) in q.actions.iter().enumerate() {
                out.push((format!("the name of action {} of the quick reference", i + 1), &a.name));
                if let Some(c) = &a.cost {
                    out.push((format!("the cost of action {} of the quick reference", i + 1), c));
                }
                if let Some(e) = &a.effect {
                    out.push((format!("the effect of action {} of the quick reference", i + 1), e));
                }
            }
            for (i, t) in q.victory.iter().enumerate() {
                out.push((format!("victory condition {} of the quick reference", i + 1), t));
            }
            for (i, t) in q.notes.iter().enumerate() {
                out.push((format!("note {} of the quick reference", i + 1), t));
            }
        }
        out
    }
}
