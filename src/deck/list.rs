//! Deck lists: YAML files and the plain text players paste everywhere
//! (`3 Card name` or `3x Card name` per line, `#` comments, optional section
//! headers, `key: value` header lines). Names match in any locale of the pack,
//! ignoring case, accents and punctuation; ids match too.

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

use super::{Construction, Deck};
use crate::diag::{Code, Diagnostic, FileId, Span};
use crate::model::{Component, Game};
use crate::pack::reader::quote_list;
use crate::pack::yaml::{Node, Value, span_of_offset};

/// Most copies a single line may ask for (anything above is a typo).
const MAX_COUNT: u32 = 999;

/// A name reduced for matching: no accents, case, punctuation or extra spaces.
pub fn normalize(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut space = false;
    for ch in s.nfd().filter(|c| !is_combining_mark(*c)) {
        if ch.is_alphanumeric() {
            if space && !out.is_empty() {
                out.push(' ');
            }
            space = false;
            out.extend(ch.to_lowercase());
        } else if ch.is_whitespace() || ch == '-' || ch == '_' {
            space = true;
        }
        // Other punctuation (apostrophes, dots, commas) is dropped.
    }
    out
}

/// Finds a component of `kinds` by id or by name in any locale.
pub fn find_component<'g>(game: &'g Game, kinds: &[String], name: &str) -> Result<&'g Component, String> {
    let key = normalize(name);
    let mut found: Vec<&Component> = Vec::new();
    for kind in kinds {
        for c in game.components.get(kind).into_iter().flatten() {
            let hit = c.id == name || normalize(&c.id) == key || c.name.0.values().any(|n| normalize(n) == key);
            if hit && !found.iter().any(|f| f.id == c.id && f.kind == c.kind) {
                found.push(c);
            }
        }
    }
    match found.len() {
        1 => Ok(found[0]),
        0 => {
            let mut candidates: Vec<(String, String)> = Vec::new();
            for kind in kinds {
                for c in game.components.get(kind).into_iter().flatten() {
                    for n in c.name.0.values() {
                        candidates.push((normalize(n), n.clone()));
                    }
                }
            }
            let best = crate::diag::did_you_mean(&key, candidates.iter().map(|(k, _)| k.as_str()));
            match best.and_then(|b| candidates.iter().find(|(k, _)| k == b)) {
                Some((_, shown)) => Err(format!("no card is called `{name}`; did you mean `{shown}`?")),
                None => Err(format!("no card is called `{name}`")),
            }
        }
        _ => Err(format!(
            "`{name}` names several cards: {}; write the id instead",
            quote_list(
                &found
                    .iter()
                    .map(|c| format!("{} ({})", c.id, c.kind))
                    .collect::<Vec<_>>()
            )
        )),
    }
}

fn unknown(message: String, span: Span) -> Diagnostic {
    let (msg, help) = match message.split_once("; did you mean ") {
        Some((m, h)) => (m.to_string(), Some(format!("did you mean {h}"))),
        None => (message, None),
    };
    let mut d = Diagnostic::new(Code::UnknownCard, msg).at(span).label("unknown card");
    if let Some(h) = help {
        d = d.help(h);
    }
    d
}

/// Whether a header line names a field the construction declares (or one
/// every list may have).
fn header_key(c: &Construction, key: &str) -> Option<String> {
    let k = normalize(key).replace(' ', "_");
    (c.header.contains_key(&k) || matches!(k.as_str(), "mode" | "role" | "name" | "game" | "players")).then_some(k)
}

/// `3 Name`, `3x Name`, `3 x Name` → (3, "Name").
fn split_count(line: &str) -> Option<(u32, &str)> {
    let digits = line.len() - line.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 {
        return None;
    }
    let n: u32 = line[..digits].parse().unwrap_or(u32::MAX);
    let rest = line[digits..].trim_start();
    let rest = rest
        .strip_prefix(['x', 'X', '×'])
        .filter(|r| r.starts_with(char::is_whitespace))
        .or_else(|| line[digits..].strip_prefix(['x', 'X', '×']))
        .unwrap_or(rest);
    let name = rest.trim();
    (!name.is_empty()).then_some((n, name))
}

/// Reads a plain-text list. Problems go to `diags`; the lines that could be
/// read still make up the deck.
pub fn parse_text(text: &str, file: FileId, game: &Game, c: &Construction, diags: &mut Vec<Diagnostic>) -> Deck {
    let mut deck = Deck::default();
    let mut section: Option<String> = None;
    let mut offset = 0;
    for raw in text.split_inclusive('\n') {
        let start = offset;
        offset += raw.len();
        let line = raw.trim_end_matches(['\n', '\r']);
        // Drop a trailing comment, but not a `#` inside a name like "No. #5".
        let content = match line.find(" #") {
            Some(i) => &line[..i],
            None => line,
        };
        let trimmed = content.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with("//") {
            continue;
        }
        let lead = content.len() - content.trim_start().len();
        let span = span_of_offset(text, file, start + lead, start + lead + trimmed.len());
        if let Some((n, name)) = split_count(trimmed) {
            if n == 0 || n > MAX_COUNT {
                diags.push(
                    Diagnostic::new(Code::DeckFormat, format!("`{n}` is not a usable number of copies"))
                        .at(span)
                        .label("count")
                        .expected(format!("1 to {MAX_COUNT} copies")),
                );
                continue;
            }
            match find_component(game, &c.kinds, name) {
                Ok(comp) => deck.add(&comp.kind, &comp.id, n, span, section.clone()),
                Err(e) => diags.push(unknown(e, span)),
            }
            continue;
        }
        if let Some((k, v)) = trimmed.split_once(':')
            && !v.trim().is_empty()
            && let Some(key) = header_key(c, k)
        {
            deck.header.insert(key, (v.trim().to_string(), span));
            continue;
        }
        let decorated = trimmed.ends_with(':') || trimmed.starts_with(['=', '[', '*', '-']) || trimmed.ends_with(')');
        if !decorated && find_component(game, &c.kinds, trimmed).is_ok() {
            diags.push(
                Diagnostic::new(Code::DeckFormat, format!("`{trimmed}` has no number of copies"))
                    .at(span)
                    .label("a card without a count")
                    .expected(format!("`1 {trimmed}` (or `3x {trimmed}`)")),
            );
            continue;
        }
        let title = trimmed.trim_matches(|ch: char| matches!(ch, '=' | '[' | ']' | '*' | '-' | ':' | ' '));
        section = Some(title.to_string());
    }
    deck
}

/// Reads a YAML list: a mapping with header fields and `cards:`, or (inside
/// a log) just the cards as a list, a `{card: copies}` mapping or a text block.
pub fn parse_node(
    node: &Node,
    text: &str,
    game: &Game,
    c: &Construction,
    top_level: bool,
    diags: &mut Vec<Diagnostic>,
) -> Deck {
    match &node.value {
        Value::Str(s) => {
            // A text block inside YAML: positions point at the block.
            let mut inner = Vec::new();
            let mut deck = parse_text(s, node.span.file, game, c, &mut inner);
            for d in &mut inner {
                d.span = Some(node.span);
            }
            for e in &mut deck.entries {
                e.spans = vec![node.span];
            }
            diags.extend(inner);
            deck
        }
        Value::Seq(items) => {
            let mut deck = Deck::default();
            for item in items {
                read_card(item, None, text, game, c, &mut deck, diags);
            }
            deck
        }
        Value::Map(entries) if top_level || node.get("cards").is_some() => {
            let mut deck = Deck::default();
            let mut cards = None;
            for (k, v) in entries {
                let Some(key) = k.as_str() else { continue };
                if key == "cards" {
                    cards = Some(v);
                } else if let Some(h) = header_key(c, key) {
                    let value = match &v.value {
                        Value::Str(s) => s.clone(),
                        Value::Int(i) => i.to_string(),
                        _ => {
                            diags.push(
                                Diagnostic::new(Code::DeckFormat, format!("header `{key}` is not a single value"))
                                    .at(v.span)
                                    .expected("a name, an id or a number"),
                            );
                            continue;
                        }
                    };
                    deck.header.insert(h, (value, v.span));
                } else {
                    let known: Vec<&str> = c
                        .header
                        .keys()
                        .map(String::as_str)
                        .chain(["cards", "name", "mode", "role", "game"])
                        .collect();
                    diags.push(
                        Diagnostic::new(Code::DeckFormat, format!("unknown key `{key}` in a {} file", c.noun))
                            .at(k.span)
                            .expected(format!("one of {}", quote_list(&known)))
                            .suggest(key, known.iter().copied()),
                    );
                }
            }
            match cards {
                Some(cn) => {
                    let inner = parse_node(cn, text, game, c, false, diags);
                    deck.entries = inner.entries;
                }
                None => diags.push(
                    Diagnostic::new(Code::DeckFormat, format!("the {} file has no `cards:`", c.noun))
                        .at(node.span)
                        .expected("`cards:` with one `N Card name` per item"),
                ),
            }
            deck
        }
        Value::Map(entries) => {
            // `{card id or name: copies}`
            let mut deck = Deck::default();
            for (k, v) in entries {
                read_card(k, Some(v), text, game, c, &mut deck, diags);
            }
            deck
        }
        _ => {
            diags.push(
                Diagnostic::new(Code::DeckFormat, format!("a {} must be a list of cards", c.noun))
                    .at(node.span)
                    .expected("a list of `N Card name` items, a `{card: copies}` mapping or a text block"),
            );
            Deck::default()
        }
    }
}

fn read_card(
    item: &Node,
    count: Option<&Node>,
    _text: &str,
    game: &Game,
    c: &Construction,
    deck: &mut Deck,
    diags: &mut Vec<Diagnostic>,
) {
    let (n, name) = match (&item.value, count) {
        (Value::Str(s), Some(cn)) => match cn.value {
            Value::Int(i) if (1..=i64::from(MAX_COUNT)).contains(&i) => (i as u32, s.clone()),
            _ => {
                diags.push(
                    Diagnostic::new(
                        Code::DeckFormat,
                        format!("copies of `{s}` must be a number from 1 to {MAX_COUNT}"),
                    )
                    .at(cn.span)
                    .found(cn.show()),
                );
                return;
            }
        },
        (Value::Str(s), None) => match split_count(s.trim()) {
            Some((n, name)) if (1..=MAX_COUNT).contains(&n) => (n, name.to_string()),
            _ => {
                diags.push(
                    Diagnostic::new(Code::DeckFormat, format!("`{s}` is not `N Card name`"))
                        .at(item.span)
                        .expected("a count then the card's name, e.g. `3 Gorgon's Gaze`"),
                );
                return;
            }
        },
        (Value::Map(_), None) => {
            let card = item.get("card").and_then(Node::as_str);
            let n = item.get("count").map_or(Some(1), |n| match n.value {
                Value::Int(i) if (1..=i64::from(MAX_COUNT)).contains(&i) => Some(i as u32),
                _ => None,
            });
            match (card, n) {
                (Some(card), Some(n)) => (n, card.to_string()),
                _ => {
                    diags.push(
                        Diagnostic::new(Code::DeckFormat, "a card entry needs `card` and a `count` from 1 up")
                            .at(item.span)
                            .expected("`{card: gorgon-gaze, count: 3}`"),
                    );
                    return;
                }
            }
        }
        _ => {
            diags.push(
                Diagnostic::new(
                    Code::DeckFormat,
                    "a card entry must be `N Card name` or `{card, count}`",
                )
                .at(item.span)
                .found(item.show()),
            );
            return;
        }
    };
    match find_component(game, &c.kinds, &name) {
        Ok(comp) => deck.add(&comp.kind, &comp.id, n, item.span, None),
        Err(e) => diags.push(unknown(e, item.span)),
    }
}
