//! A diff for people: the designer's report (every change, every locale),
//! a Markdown changelog per game and locale for a forum page, and the words
//! of a reprint pack (what to take out of a printed copy, what to put in).

use serde_json::{Value, json};

use super::value::{Change, What};
use super::words::{self, Words};
use super::{Diff, GameDiff, KindDiff, PieceDiff, PieceStatus, Status};
use crate::model::Text;

fn status_word(s: Status) -> &'static str {
    match s {
        Status::Added => "added",
        Status::Removed => "removed",
        Status::Changed => "changed",
        Status::Unchanged => "unchanged",
    }
}

/// A value in one line: newlines as spaces, long values cut.
fn one_line(s: &str) -> String {
    let flat: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut chars = flat.chars();
    let head: String = chars.by_ref().take(160).collect();
    if chars.next().is_some() {
        format!("{head}…")
    } else {
        head
    }
}

fn shown(s: &Option<super::value::Shown>, locale: &str, none: &str) -> String {
    match s {
        Some(s) => one_line(s.text.get(locale)),
        None => none.to_owned(),
    }
}

/// The designer's report: every game, kind and piece that changed, each
/// change with its locale, and what the reprint holds.
pub fn human(diff: &Diff) -> String {
    let mut out = format!("diff {} → {}\n", diff.old, diff.new);
    let mut unchanged = Vec::new();
    for g in &diff.games {
        if g.status == Status::Unchanged {
            unchanged.push(g.id.as_str());
            continue;
        }
        let first = g.locales.first().map(String::as_str).unwrap_or("en");
        out.push_str(&format!(
            "\n{} ({}): {}\n",
            g.id,
            g.name.get(first),
            status_word(g.status)
        ));
        if g.layout_changed == Some(true) {
            out.push_str("  layouts changed: every piece may print differently (the reprint holds only pieces whose data changed)\n");
        }
        for k in &g.kinds {
            out.push_str(&format!("  {} ({})", k.id, k.name.get(first)));
            if !k.printed {
                out.push_str(", not printed");
            }
            out.push('\n');
            if let Some(s) = &k.size {
                let f = |x: Option<crate::model::Size>| {
                    x.map_or("none".to_owned(), |x| format!("{} × {} mm", x.width, x.height))
                };
                out.push_str(&format!("    trim size {} → {}\n", f(s.old), f(s.new)));
            }
            for p in &k.pieces {
                human_piece(p, first, &mut out);
            }
        }
        for r in &g.rules {
            out.push_str(&format!(
                "  rules section `{}` ({}) {}{}\n",
                r.id,
                r.title.get(first),
                status_word(r.status),
                if r.status == Status::Changed {
                    format!(" [{}]", r.locales.join(", "))
                } else {
                    String::new()
                }
            ));
        }
        for f in &g.facts {
            let v = |x: &Option<Value>| x.as_ref().map_or("none".to_owned(), value_text);
            out.push_str(&format!(
                "  fact `{}` ({}): {} → {}\n",
                f.id,
                f.label.get(first),
                v(&f.old),
                v(&f.new)
            ));
        }
        for t in &g.glossary {
            let v = |x: &Option<Text>| x.as_ref().map_or("none".to_owned(), |t| t.get(first).to_owned());
            out.push_str(&format!(
                "  glossary `{}`: {} → {} [{}]\n",
                t.id,
                v(&t.old),
                v(&t.new),
                t.locales.join(", ")
            ));
        }
        if !g.quickref.is_empty() {
            out.push_str(&format!("  quick reference changed [{}]\n", g.quickref.join(", ")));
        }
        for i in &g.icons {
            out.push_str(&format!("  icon :{}: {}\n", i.name, status_word(i.status)));
        }
        for l in &g.locales {
            let (print, take): (u32, u32) = g.pieces().fold((0, 0), |(a, b), (_, p)| {
                (
                    a + p.print.get(l).copied().unwrap_or(0),
                    b + p.take_out.get(l).copied().unwrap_or(0),
                )
            });
            out.push_str(&format!(
                "  reprint [{l}]: {print} piece{} to print, {take} to take out{}\n",
                plural(print),
                if g.rules_changed(l) { ", rules reference" } else { "" }
            ));
        }
    }
    if !unchanged.is_empty() {
        out.push_str(&format!("\nunchanged: {}\n", unchanged.join(", ")));
    }
    if diff.is_empty() {
        out.push_str("\nnothing changed\n");
    }
    out
}

fn plural(n: u32) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn human_piece(p: &PieceDiff, first: &str, out: &mut String) {
    let name = p.name.get(first);
    match p.status {
        PieceStatus::Added => out.push_str(&format!("    + {} ({name}) ×{}\n", p.id, p.copies.new)),
        PieceStatus::Removed => out.push_str(&format!("    - {} ({name}) ×{}\n", p.id, p.copies.old)),
        PieceStatus::Copies => out.push_str(&format!(
            "    ~ {} ({name}): copies {} → {}\n",
            p.id, p.copies.old, p.copies.new
        )),
        PieceStatus::Changed => {
            out.push_str(&format!("    ~ {} ({name})", p.id));
            if p.copies.old != p.copies.new {
                out.push_str(&format!(": copies {} → {}", p.copies.old, p.copies.new));
            }
            out.push('\n');
            for c in &p.changes {
                let at = c.locale.as_deref().unwrap_or(first);
                let tag = c.locale.as_ref().map(|l| format!(" [{l}]")).unwrap_or_default();
                let line = match c.what {
                    What::Art if shown(&c.old, at, "") == shown(&c.new, at, "") => {
                        format!("{} redrawn", shown(&c.new, at, "none"))
                    }
                    What::Icon => "redrawn".to_owned(),
                    What::Variant => format!("{} printed anew", c.label.get(at)),
                    _ => format!("{} → {}", shown(&c.old, at, "none"), shown(&c.new, at, "none")),
                };
                out.push_str(&format!("        {}{tag}: {line}\n", c.path));
            }
        }
    }
}

fn quote(w: &Words, s: &str) -> String {
    if std::ptr::eq(w, words::of("es")) {
        format!("«{s}»")
    } else {
        format!("“{s}”")
    }
}

/// Escapes what Markdown would read as markup in a piece of our text.
pub fn md(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in one_line(s).chars() {
        if matches!(ch, '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '#' | '|' | '~') {
            out.push('\\');
        }
        out.push(ch);
    }
    out
}

/// A change as a player reads it in `locale`, or `None` when it does not show there.
fn change_line(c: &Change, locale: &str, w: &Words) -> Option<String> {
    if c.locale.as_deref().is_some_and(|l| l != locale) {
        return None;
    }
    let label = md(c.label.get(locale));
    let side = |s: &Option<super::value::Shown>| s.as_ref().map(|s| s.text.get(locale).to_owned());
    let (old, new) = (side(&c.old), side(&c.new));
    let text = |s: &str| quote(w, &md(&plain(s)));
    Some(match c.what {
        What::Icon => format!("{label}: {}", w.icon_redrawn),
        What::Variant => format!("{label}: {}", w.variant_redrawn),
        What::Art => match (&old, &new) {
            (Some(a), Some(b)) if a == b => format!("{label}: {}", w.art_redrawn),
            _ => format!("{label}: {}", w.art_changed),
        },
        What::Text | What::Name => match (old, new) {
            (Some(a), Some(b)) => format!("{label}: {} → {}", text(&a), text(&b)),
            (None, Some(b)) => format!("{label}: {} {}", w.text_added, text(&b)),
            (Some(a), None) => format!("{label}: {} ({})", w.text_removed, text(&a)),
            (None, None) => return None,
        },
        What::Value | What::Size => {
            let v = |s: Option<String>| s.map_or_else(|| w.none.to_owned(), |s| md(&s));
            format!("{label}: {} → {}", v(old), v(new))
        }
    })
}

/// A text without its markup, on one line.
fn plain(s: &str) -> String {
    one_line(&crate::markup::parse(s).0.to_plain())
}

/// Whether a piece shows in the changelog of `locale`.
fn shows_in(p: &PieceDiff, locale: &str) -> bool {
    p.status != PieceStatus::Changed
        || p.copies.old != p.copies.new
        || p.changes
            .iter()
            .any(|c| c.locale.as_deref().is_none_or(|l| l == locale))
}

/// The changelog of one game in one locale, in Markdown. `new` is `None`
/// for the current version (the title says "since `old`").
pub fn changelog(g: &GameDiff, locale: &str, old: &str, new: Option<&str>) -> String {
    let w = words::of(locale);
    let title = match new {
        Some(n) => w.title.replace("{old}", &md(old)).replace("{new}", &md(n)),
        None => w.title_since.replace("{old}", &md(old)),
    };
    let mut out = format!("# {} — {title}\n", md(g.name.get(locale)));
    let mut any = false;
    if g.layout_changed == Some(true) {
        out.push_str(&format!("\n{}\n", w.layout_changed));
        any = true;
    }
    for k in &g.kinds {
        let pieces: Vec<&PieceDiff> = k.pieces.iter().filter(|p| shows_in(p, locale)).collect();
        if pieces.is_empty() && k.size.is_none() {
            continue;
        }
        any = true;
        out.push_str(&format!("\n## {}\n", md(k.name.get(locale))));
        if let Some(s) = &k.size {
            let f = |x: Option<crate::model::Size>| {
                x.map_or(w.none.to_owned(), |x| format!("{} × {} mm", x.width, x.height))
            };
            out.push_str(&format!("\n{}: {} → {}\n", w.size, f(s.old), f(s.new)));
        }
        for (status, title) in [
            (PieceStatus::Added, w.added),
            (PieceStatus::Changed, w.changed),
            (PieceStatus::Removed, w.removed),
        ] {
            let group: Vec<&&PieceDiff> = pieces
                .iter()
                .filter(|p| p.status == status || (status == PieceStatus::Changed && p.status == PieceStatus::Copies))
                .collect();
            if group.is_empty() {
                continue;
            }
            out.push_str(&format!("\n### {title}\n\n"));
            for p in group {
                piece_entry(p, k, locale, w, &mut out);
            }
        }
    }
    let rules: Vec<_> = g
        .rules
        .iter()
        .filter(|r| r.locales.iter().any(|l| l == locale))
        .collect();
    if !rules.is_empty() {
        any = true;
        out.push_str(&format!("\n## {}\n\n", w.rules));
        for r in rules {
            let what = match r.status {
                Status::Added => w.section_added,
                Status::Removed => w.section_removed,
                _ => w.section_changed,
            };
            out.push_str(&format!("- **{}** ({}): {what}\n", md(r.title.get(locale)), md(&r.id)));
        }
    }
    if !g.facts.is_empty() {
        any = true;
        out.push_str(&format!("\n## {}\n\n", w.facts));
        for f in &g.facts {
            let v = |x: &Option<Value>| x.as_ref().map_or(w.none.to_owned(), |v| md(&value_text(v)));
            out.push_str(&format!(
                "- {}: {} → {}\n",
                md(f.label.get(locale)),
                v(&f.old),
                v(&f.new)
            ));
        }
    }
    let terms: Vec<_> = g
        .glossary
        .iter()
        .filter(|t| t.locales.iter().any(|l| l == locale))
        .collect();
    if !terms.is_empty() {
        any = true;
        out.push_str(&format!("\n## {}\n\n", w.glossary));
        for t in terms {
            let v = |x: &Option<Text>| x.as_ref().map_or(w.none.to_owned(), |t| md(t.get(locale)));
            out.push_str(&format!("- {} → {}\n", v(&t.old), v(&t.new)));
        }
    }
    if g.quickref.iter().any(|l| l == locale) {
        any = true;
        out.push_str(&format!("\n{}\n", w.quickref_changed));
    }
    if !any {
        out.push_str(&format!("\n{}\n", w.nothing));
    }
    out
}

fn piece_entry(p: &PieceDiff, _k: &KindDiff, locale: &str, w: &Words, out: &mut String) {
    let name = md(p.name.get(locale));
    match p.status {
        PieceStatus::Added => out.push_str(&format!(
            "- **{name}** {}\n",
            w.times.replace("{n}", &p.copies.new.to_string())
        )),
        PieceStatus::Removed => out.push_str(&format!(
            "- **{name}** {}\n",
            w.times.replace("{n}", &p.copies.old.to_string())
        )),
        PieceStatus::Copies | PieceStatus::Changed => {
            out.push_str(&format!("- **{name}**"));
            if p.copies.old != p.copies.new {
                out.push_str(&format!(
                    ": {}",
                    w.copies_now
                        .replace("{old}", &p.copies.old.to_string())
                        .replace("{new}", &p.copies.new.to_string())
                ));
            }
            out.push('\n');
            for c in &p.changes {
                if let Some(line) = change_line(c, locale, w) {
                    out.push_str(&format!("  - {line}\n"));
                }
            }
        }
    }
}

/// What to take out of a printed copy and what to put in from the reprint,
/// in `locale`: `(take out, put in)` lines such as `Card: Fireball ×2`.
pub fn reprint_lines(g: &GameDiff, locale: &str) -> (Vec<String>, Vec<String>) {
    let w = words::of(locale);
    let (mut take, mut put) = (Vec::new(), Vec::new());
    for (k, p) in g.pieces() {
        let n_out = p.take_out.get(locale).copied().unwrap_or(0);
        let n_in = p.print.get(locale).copied().unwrap_or(0);
        // A board printed per variant names the variants it holds.
        let variants: Vec<&str> = p
            .changes
            .iter()
            .filter(|c| c.what == What::Variant && c.locale.as_deref().is_none_or(|l| l == locale))
            .filter_map(|c| c.label.get(locale).rsplit(" › ").next())
            .collect();
        let name = if variants.is_empty() {
            p.name.get(locale).to_owned()
        } else {
            format!("{} ({})", p.name.get(locale), variants.join(", "))
        };
        let line = |n: u32| {
            format!(
                "{}: {name} {}",
                k.name.get(locale),
                w.times.replace("{n}", &n.to_string())
            )
        };
        if n_out > 0 {
            take.push(line(n_out));
        }
        if n_in > 0 {
            let mut l = line(n_in);
            if n_out > 0 && p.status == PieceStatus::Changed {
                l.push_str(&format!(" ({})", w.replace));
            }
            put.push(l);
        }
    }
    (take, put)
}

/// The cover note of a reprint pack in `locale`.
pub fn reprint_note(g: &GameDiff, locale: &str, version: Option<&str>, rules: bool) -> Value {
    let w = words::of(locale);
    let (take, put) = reprint_lines(g, locale);
    let mut intro = match version {
        Some(v) => w.reprint_intro.replace("{version}", &format!("«{v}»")),
        None => w.reprint_intro_plain.to_owned(),
    };
    if rules {
        intro.push(' ');
        intro.push_str(w.reprint_rules);
    }
    let section = |title: &str, lines: Vec<String>, empty: &str| {
        let lines = if lines.is_empty() {
            vec![empty.to_owned()]
        } else {
            lines
        };
        json!({"title": title, "lines": lines})
    };
    json!({
        "title": w.reprint_title,
        "intro": intro,
        "sections": [
            section(w.take_out, take, w.nothing_to_take_out),
            section(w.put_in, put, w.nothing_to_print),
        ],
    })
}

/// The same note as Markdown (written beside the reprint pack).
pub fn reprint_markdown(g: &GameDiff, locale: &str, version: Option<&str>, rules: bool) -> String {
    let note = reprint_note(g, locale, version, rules);
    let mut out = format!(
        "# {} — {}\n\n",
        md(g.name.get(locale)),
        note["title"].as_str().unwrap_or_default()
    );
    out.push_str(note["intro"].as_str().unwrap_or_default());
    out.push('\n');
    for s in note["sections"].as_array().into_iter().flatten() {
        out.push_str(&format!("\n## {}\n\n", s["title"].as_str().unwrap_or_default()));
        for l in s["lines"].as_array().into_iter().flatten() {
            out.push_str(&format!("- {}\n", md(l.as_str().unwrap_or_default())));
        }
    }
    out
}
