//! docs/templates.md documents the template interface value by value (issue
//! 25 item 1); this compares its table with what the renderer passes: the
//! view model of every shipped game and of a new pack (one that declares
//! fonts), and the context `templates/shared/kit.typ` builds for a design.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::common;

/// The paths the table between the interface markers documents.
fn documented() -> BTreeSet<String> {
    let doc = std::fs::read_to_string(common::root().join("docs/templates.md")).unwrap();
    let start = doc.find("<!-- interface:begin -->").expect("interface table");
    let end = doc.find("<!-- interface:end -->").expect("interface table end");
    let mut out = BTreeSet::new();
    for row in doc[start..end].lines().filter(|l| l.starts_with("| `")) {
        let cell = row.split('|').nth(1).unwrap();
        for path in cell.split(',') {
            out.insert(path.trim().trim_matches('`').to_owned());
        }
    }
    out
}

/// The keys of the dictionary `ctx-for` returns in kit.typ, nested ones as `a.b`.
fn context_keys() -> BTreeSet<String> {
    let kit = std::fs::read_to_string(common::root().join("templates/shared/kit.typ")).unwrap();
    let start = kit.find("#let ctx-for(").expect("ctx-for in kit.typ");
    let body = &kit[start..];
    let body = &body[..body.find("\n}\n").expect("end of ctx-for")];
    let mut out = BTreeSet::new();
    for line in body.lines() {
        let line = line.trim();
        // `key: value,` lines of the returned dictionary (four spaces in).
        let Some((key, value)) = line.split_once(": ") else {
            continue;
        };
        if !key.chars().all(|c| c.is_ascii_lowercase() || c == '-') || line.starts_with("//") {
            continue;
        }
        out.insert(format!("ctx.{key}"));
        // An inline dictionary: `bleed: (left: b, top: b, …)`.
        if let Some(inner) = value.strip_prefix('(').and_then(|v| v.strip_suffix("),")) {
            for part in inner.split(", ") {
                if let Some((k, _)) = part.split_once(':') {
                    out.insert(format!("ctx.{key}.{}", k.trim()));
                }
            }
        }
    }
    out
}

/// The name a placeholder stands for under `parent` (maps keyed by the pack's names).
fn placeholder(path: &str) -> Option<&'static str> {
    let last = path.rsplit('.').next().unwrap();
    match last {
        "kinds" | "components" => Some("<kind>"),
        "labels" | "fields" => Some("<field>"),
        "icons" => Some("<icon>"),
        "fonts" => Some("<role>"),
        "<field>" if path.contains(".labels.") => Some("<value>"),
        "<kind>" if path.ends_with("components.<kind>") => Some("<id>"),
        _ => None,
    }
}

/// Every path of `v` under `path`, pack names as placeholders; values named
/// by a placeholder that the table documents as a whole are not entered.
fn walk(v: &Value, path: &str, out: &mut BTreeSet<String>) {
    out.insert(path.to_owned());
    let Value::Object(map) = v else { return };
    // Leaves the table documents by type: a field's value, an icon's or a
    // font's name, an enum value's name, a component (documented as `c`).
    if path.ends_with(".<field>") && !path.contains(".labels.")
        || path.ends_with(".<value>")
        || path.ends_with(".<icon>")
        || path.ends_with(".<role>")
    {
        return;
    }
    if path.ends_with("components.<kind>.<id>") {
        for (k, x) in map {
            walk(x, &format!("c.{k}"), out);
        }
        return;
    }
    for (k, x) in map {
        let name = placeholder(path).unwrap_or(k);
        walk(x, &format!("{path}.{name}"), out);
    }
}

#[test]
fn the_documented_interface_is_what_templates_receive() {
    // A new pack with fonts, so every part of the game is there at least once.
    let tmp = crate::designer::new_pack();
    let dir = tmp.path();
    crate::designer::edit(
        dir,
        "data/duel/game.yaml",
        "icons:",
        "fonts: {title: \"Libertinus Serif\"}\nicons:",
    );
    let report = pnpkit::check::check(&dir.join("data"), &[], &pnpkit::pack::yaml::Limits::default()).unwrap();
    assert!(!report.has_errors());
    let mut passed = context_keys();
    for game in common::shipped().iter().chain(&report.games) {
        for locale in &game.locales {
            walk(&pnpkit::render::game_view(game, locale, true), "ctx.game", &mut passed);
        }
        for list in game.components.values() {
            for c in list {
                let back = serde_json::to_value(game.back_of(c)).unwrap();
                walk(&back, "ctx.back", &mut passed);
            }
        }
    }
    let documented = documented();
    let undocumented: Vec<&String> = passed.difference(&documented).collect();
    let gone: Vec<&String> = documented.difference(&passed).collect();
    assert!(
        undocumented.is_empty() && gone.is_empty(),
        "passed to templates but not in docs/templates.md: {undocumented:#?}\n\
         in docs/templates.md but not passed: {gone:#?}"
    );
}
