//! The kit's cover: what to print and how, what the kit holds (physical
//! pieces only: decks and sets of cards, then every other printed kind), what
//! the table needs besides it, how the boards go together, and which content
//! is the pack's own proposal rather than the rulebook's.

use serde_json::{Value, json};

use super::impose::Paper;
use super::{DocPlan, KitOptions, Layout, Part, doc, pipeline};
use crate::model::{Game, Sample, Shape};

/// The cover of one game's kit in one locale and paper, listing `docs`.
pub fn plan(game: &Game, locale: &str, paper: Paper, opts: &KitOptions, docs: &[DocPlan]) -> DocPlan {
    let summary: Vec<Value> = docs
        .iter()
        .map(|d| {
            // What the file holds: the kinds placed on its pages, with their copies.
            let mut kinds: Vec<(String, u32)> = Vec::new();
            let mut seen_tiles = std::collections::HashSet::new();
            for page in d.data["pages"].as_array().into_iter().flatten() {
                if page["side"] == "back" {
                    continue;
                }
                for item in page["items"].as_array().into_iter().flatten() {
                    if item["face"] == "back" {
                        continue;
                    }
                    // A tiled piece counts once, however many sheets it spans.
                    if page["side"] == "board" {
                        let key = format!("{}/{}/{}", item["kind"], item["id"], page["tile"]["variant"]["id"]);
                        if !seen_tiles.insert(key) {
                            continue;
                        }
                    }
                    let kind = item["kind"].as_str().unwrap_or_default();
                    let name = game
                        .kinds
                        .get(kind)
                        .map(|k| k.name.get(locale).to_owned())
                        .unwrap_or_default();
                    match kinds.iter_mut().find(|(n, _)| *n == name) {
                        Some((_, count)) => *count += 1,
                        None => kinds.push((name, 1)),
                    }
                }
            }
            let two_sided = matches!(d.part, Part::Cards | Part::DuplexTest) && opts.layout == Layout::Duplex;
            json!({
                "part": d.part,
                "file": d.out.file_name().map(|f| f.to_string_lossy().into_owned()),
                "pages": d.pages,
                "duplex": two_sided,
                "copies": 1,
                "contents": kinds.iter().map(|(n, c)| json!({"name": n, "count": c})).collect::<Vec<_>>(),
            })
        })
        .collect();
    let mut cover = doc(game, locale, paper, Part::Cover, opts, Vec::new());
    cover.data["pages"] = json!([{"side": "cover"}]);
    cover.data["documents"] = Value::Array(summary);
    cover.data["boards"] = Value::Array(boards(docs));
    match opts.pick(&game.id, locale) {
        // A reprint's cover says what it replaces instead of listing the whole kit.
        Some(pick) => {
            cover.data["kit"] = json!([]);
            cover.data["note"] = pick.map(|p| p.note.clone()).unwrap_or(Value::Null);
        }
        None => {
            cover.data["kit"] = Value::Array(contents(game, locale));
            cover.data["needs"] = Value::Array(needs(game, locale, docs));
            cover.data["proposals"] = Value::Array(proposals(game, locale));
        }
    }
    cover.pages = 1;
    cover
}

/// Fills in a cover's page counts from the documents of its kit once they
/// are laid out (the rules and quick reference are only counted by typst).
pub fn complete(cover: &mut DocPlan, built: &[&pipeline::Built]) {
    let Some(list) = cover.data["documents"].as_array_mut() else {
        return;
    };
    for entry in list {
        let file = entry["file"].as_str().unwrap_or_default().to_owned();
        let found = built.iter().find(|b| {
            b.plan.game == cover.game
                && b.plan.locale == cover.locale
                && b.plan.paper == cover.paper
                && b.plan.out.file_name().is_some_and(|f| f.to_string_lossy() == file)
        });
        if let Some(b) = found {
            entry["pages"] = json!(b.pages);
        }
    }
}

/// What the kit holds, as a player counts it: each deck and set of cards
/// (its cards by kind), then every other printed kind. Data that prints
/// nothing of its own (talents, game modes) is not a piece.
fn contents(game: &Game, locale: &str) -> Vec<Value> {
    let mut out = Vec::new();
    for deck in game.decks() {
        let mut by_kind: Vec<(String, u32)> = Vec::new();
        for c in &deck.cards {
            let name = game.kinds[&c.kind].name.get(locale).to_owned();
            match by_kind.iter_mut().find(|(n, _)| *n == name) {
                Some((_, n)) => *n += c.copies,
                None => by_kind.push((name, c.copies)),
            }
        }
        out.push(json!({
            "name": game.deck_name(&deck, locale),
            "count": deck.count(),
            "deck": deck.shuffled(),
            "parts": if by_kind.len() > 1 {
                by_kind.iter().map(|(n, c)| json!({"name": n, "count": c})).collect::<Vec<_>>()
            } else {
                Vec::new()
            },
        }));
    }
    for kind in game.kinds.values() {
        if matches!(kind.shape, Shape::None | Shape::Card) || kind.size.is_none() {
            continue;
        }
        let comps = game.components.get(&kind.id).map(Vec::as_slice).unwrap_or_default();
        let prints = match (&kind.variants, kind.shape) {
            // A board printed once per variant is that many boards.
            (Some(v), Shape::Board) => comps.len() * game.components.get(v).map_or(1, Vec::len),
            _ => comps.iter().map(|c| c.copies as usize).sum(),
        };
        if prints > 0 {
            out.push(json!({"name": kind.name.get(locale), "count": prints, "deck": false, "parts": []}));
        }
    }
    out
}

/// What the table needs that the kit does not print: cutting tools always,
/// glue or tape when a board spans several sheets, then what the pack
/// declares (dice, coins, pins …) with the rule or pieces that ask for it.
fn needs(game: &Game, locale: &str, docs: &[DocPlan]) -> Vec<Value> {
    let mut out = vec![json!({"key": "need-cutting"})];
    let tiled = docs.iter().any(|d| {
        d.data["pages"].as_array().into_iter().flatten().any(|p| {
            p["side"] == "board"
                && p["tile"]["cols"].as_u64().unwrap_or(1) * p["tile"]["rows"].as_u64().unwrap_or(1) > 1
        })
    });
    if tiled {
        out.push(json!({"key": "need-glue"}));
    }
    for n in &game.cover.needs {
        let pieces: Vec<&str> = n
            .kinds
            .iter()
            .filter_map(|k| game.kinds.get(k))
            .map(|k| k.name.get(locale))
            .collect();
        out.push(json!({
            "item": n.item.get(locale),
            "count": n.count,
            "why": n.why.get(locale),
            "rule": n.rule,
            "pieces": pieces,
        }));
    }
    out
}

/// Each board as it goes together: its name and its sheets across and down.
fn boards(docs: &[DocPlan]) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    for d in docs.iter().filter(|d| d.part == Part::Boards) {
        for p in d.data["pages"].as_array().into_iter().flatten() {
            let t = &p["tile"];
            let entry = json!({"name": t["name"], "cols": t["cols"], "rows": t["rows"], "w": t["src"]["w"], "h": t["src"]["h"]});
            if !out.iter().any(|e| e["name"] == entry["name"]) {
                out.push(entry);
            }
        }
    }
    out
}

/// The content the pack proposes where the rulebook gives none: every
/// printed kind with invented pieces (`sample: true`) or invented values
/// (`sample: [fields]`), with the note the pack's `cover: proposals:` gives.
pub fn proposals(game: &Game, locale: &str) -> Vec<Value> {
    let mut out = Vec::new();
    for kind in game.kinds.values() {
        if kind.shape == Shape::None || kind.size.is_none() {
            continue;
        }
        let comps = game.components.get(&kind.id).map(Vec::as_slice).unwrap_or_default();
        let invented = comps.iter().filter(|c| c.sample == Sample::All).count();
        let values = comps.iter().filter(|c| matches!(c.sample, Sample::Fields(_))).count();
        let notes: Vec<&str> = game
            .cover
            .proposals
            .iter()
            .filter(|p| p.kinds.contains(&kind.id))
            .map(|p| p.note.get(locale))
            .collect();
        if invented + values == 0 && notes.is_empty() {
            continue;
        }
        out.push(json!({
            "kind": kind.name.get(locale),
            "total": comps.len(),
            "invented": invented,
            "values": values,
            "note": notes.join(" "),
        }));
    }
    out
}
