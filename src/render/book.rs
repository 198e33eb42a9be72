//! View models of the rules reference and the quick reference: every text
//! rendered in one locale (terms, facts and component values filled in),
//! ready for `templates/shared/rules.typ` and `quickref.typ`.

use serde_json::{Value, json};

use crate::markup::TextOut;
use crate::model::Game;
use crate::reference::{Cell, Section, SectionKind};
use crate::text::TextEnv;

fn text(env: &TextEnv, t: &crate::reference::SText) -> String {
    let raw = t.text.get(&env.locale);
    // `check` rendered every text already; fall back to the raw text regardless.
    env.render(raw, None).unwrap_or_else(|_| raw.to_owned())
}

/// A text as typst markup for the `rich` helper: its markup (bold, italic,
/// lists, paragraphs, icons) kept, everything else escaped.
fn rich(env: &TextEnv, t: &crate::reference::SText, out: TextOut) -> String {
    crate::markup::render(&text(env, t), out)
}

fn section_view(env: &TextEnv, s: &Section, titles: &std::collections::HashMap<String, String>, out: TextOut) -> Value {
    json!({
        "id": s.id,
        "rule": crate::reference::is_rule_id(&s.id),
        "kind": match s.kind {
            SectionKind::Section => "section",
            SectionKind::Step => "step",
            SectionKind::Example => "example",
            SectionKind::Table => "table",
        },
        "title": text(env, &s.title),
        "text": s.text.as_ref().map(|t| rich(env, t, out)),
        "steps": s.steps.iter().map(|t| rich(env, t, out)).collect::<Vec<_>>(),
        "columns": s.columns.iter().map(|t| text(env, t)).collect::<Vec<_>>(),
        "rows": s.rows.iter().map(|row| row.iter().map(|c| match c {
            Cell::Text(t) => rich(env, t, out),
            Cell::Plain(p) => crate::markup::render(&env.render(p, None).unwrap_or_else(|_| p.clone()), out),
        }).collect::<Vec<_>>()).collect::<Vec<_>>(),
        "see": s.see.iter().map(|(id, _)| json!({"id": id, "title": titles.get(id), "rule": crate::reference::is_rule_id(id)})).collect::<Vec<_>>(),
        "sections": s.sections.iter().map(|sub| section_view(env, sub, titles, out)).collect::<Vec<_>>(),
    })
}

/// The rules reference of a game in one locale.
pub fn rules_view(game: &Game, locale: &str, out: TextOut) -> Value {
    let r = &game.reference;
    let env = TextEnv::new(&r.glossary, &r.facts, &game.components, locale);
    let mut titles = std::collections::HashMap::new();
    for ch in &r.chapters {
        titles.insert(ch.id.clone(), text(&env, &ch.title));
    }
    for (_, s) in r.sections() {
        titles.insert(s.id.clone(), text(&env, &s.title));
    }
    let chapters: Vec<Value> = r
        .chapters
        .iter()
        .map(|ch| {
            json!({
                "id": ch.id,
                "title": text(&env, &ch.title),
                "text": ch.text.as_ref().map(|t| rich(&env, t, out)),
                "sections": ch.sections.iter().map(|s| section_view(&env, s, &titles, out)).collect::<Vec<_>>(),
            })
        })
        .collect();
    let mut glossary: Vec<Value> = r
        .glossary
        .iter()
        .map(|t| {
            json!({
                "id": t.id,
                "term": t.forms.get(locale),
                "others": t.forms.0.iter().filter(|(l, _)| l.as_str() != locale).map(|(l, f)| json!({"locale": l, "term": f})).collect::<Vec<_>>(),
                "note": t.note.as_ref().map(|n| rich(&env, n, out)),
            })
        })
        .collect();
    glossary.sort_by_key(|g| g["term"].as_str().unwrap_or_default().to_lowercase());
    // The icon legend: every icon the pack declares, by its name in this locale.
    let mut icons: Vec<Value> = game
        .icons
        .iter()
        .map(|(name, label)| json!({"name": name, "label": label.get(locale)}))
        .collect();
    icons.sort_by_key(|i| i["label"].as_str().unwrap_or_default().to_lowercase());
    json!({
        "chapters": chapters,
        "glossary": glossary,
        "icons": icons,
        "rule_ids": game.rule_ids,
    })
}

/// The quick reference of a game in one locale.
pub fn quickref_view(game: &Game, locale: &str, out: TextOut) -> Option<Value> {
    let r = &game.reference;
    let q = r.quickref.as_ref()?;
    let env = TextEnv::new(&r.glossary, &r.facts, &game.components, locale);
    let numbers: Vec<Value> = q
        .numbers
        .iter()
        .filter_map(|(id, _)| r.facts.iter().find(|f| &f.id == id))
        .map(|f| {
            let value = match &f.value {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            json!({"label": rich(&env, &f.label, out), "value": value, "rule": f.rule})
        })
        .collect();
    Some(json!({
        "turn": q.turn.iter().map(|t| rich(&env, t, out)).collect::<Vec<_>>(),
        "actions": q.actions.iter().map(|a| json!({
            // Every text of the quick reference is markup, as `check` reads it
            // (`:oil:` in a cost is an icon).
            "name": rich(&env, &a.name, out),
            "cost": a.cost.as_ref().map(|t| rich(&env, t, out)),
            "effect": a.effect.as_ref().map(|t| rich(&env, t, out)),
            "rule": a.rule,
        })).collect::<Vec<_>>(),
        "numbers": numbers,
        "victory": q.victory.iter().map(|t| rich(&env, t, out)).collect::<Vec<_>>(),
        "notes": q.notes.iter().map(|t| rich(&env, t, out)).collect::<Vec<_>>(),
    }))
}
