//! Deck lists in YAML: a mapping with header fields and `cards:` (a list of
//! `N Card name` strings or `{card, count}` items, or a `{card: copies}`
//! mapping), or inside a game log just the cards, or a text block read like
//! a paste.

use super::names::{Found, Names};
use super::text::{self, MAX_COUNT};
use super::{Deck, HeaderKeys, Problem};
use crate::diag::{Code, Diagnostic};
use crate::model::Game;
use crate::model::construction::Construction;
use crate::pack::format;
use crate::pack::yaml::{Node, Value};

fn format_problem(message: String, node: &Node, expected: &str) -> Problem {
    Problem::Yaml(Box::new(
        Diagnostic::new(Code::DeckFormat, message)
            .at(node.span)
            .expected(expected.to_string()),
    ))
}

/// Reads a YAML list. `top_level`: the whole file (header keys allowed);
/// else a log's `deck:` value.
pub fn read(node: &Node, game: &Game, c: &Construction, keys: &HeaderKeys, top_level: bool) -> (Deck, Vec<Problem>) {
    let mut problems = Vec::new();
    if top_level
        && is_versioned(node, keys)
        && let Err(d) = format::read_checked(node, &format::DECK, "the list")
    {
        // A list of a format this pnpkit does not read is not read further.
        let stop = d.code != Code::InvalidValue;
        problems.push(Problem::Yaml(d));
        if stop {
            return (Deck::default(), problems);
        }
    }
    let names = Names::new(game, &c.kinds);
    let deck = read_node(node, game, c, keys, &names, top_level, &mut problems);
    if deck.entries.is_empty() && deck.side.is_empty() && problems.is_empty() {
        problems.push(Problem::Empty);
    }
    (deck, problems)
}

/// Whether the list's `format:` is its format version (not a header field
/// of the pack's that happens to be called `format`).
fn is_versioned(node: &Node, keys: &HeaderKeys) -> bool {
    node.get(format::KEY).is_some() && keys.find(format::KEY).is_none()
}

fn read_node(
    node: &Node,
    game: &Game,
    c: &Construction,
    keys: &HeaderKeys,
    names: &Names,
    top_level: bool,
    problems: &mut Vec<Problem>,
) -> Deck {
    match &node.value {
        Value::Str(s) => {
            // A text block inside YAML: positions point at the block.
            let (mut deck, inner) = text::read(s, node.span.file, game, c, keys);
            for mut p in inner {
                relocate(&mut p, node.span);
                if !matches!(p, Problem::Empty) {
                    problems.push(p);
                }
            }
            for e in &mut deck.entries {
                e.spans = vec![node.span];
            }
            deck
        }
        Value::Seq(items) => {
            let mut deck = Deck::default();
            for item in items {
                read_card(item, None, names, &mut deck, problems);
            }
            deck
        }
        Value::Map(entries) if top_level || node.get("cards").is_some() => {
            let mut deck = Deck::default();
            let mut cards = None;
            for (k, v) in entries {
                let Some(key) = k.as_str() else { continue };
                if matches!(key, "cards" | "cartas") {
                    cards = Some(v);
                    continue;
                }
                if top_level && key == format::KEY && keys.find(key).is_none() {
                    continue;
                }
                let Some(h) = keys.find(key) else {
                    problems.push(Problem::UnknownKey {
                        span: k.span,
                        key: key.to_string(),
                        suggestion: keys.suggest(key),
                    });
                    continue;
                };
                let value = match &v.value {
                    Value::Str(s) => s.clone(),
                    Value::Int(i) => i.to_string(),
                    _ => {
                        problems.push(format_problem(
                            format!("header `{key}` is not a single value"),
                            v,
                            "a name, an id or a number",
                        ));
                        continue;
                    }
                };
                if let Some(l) = h.locale {
                    *deck.votes.entry(l).or_default() += 1;
                }
                if let Some(found) = crate::terminal::control_in_name(&value) {
                    problems.push(Problem::HeaderControl {
                        span: v.span,
                        key: key.to_string(),
                        found,
                    });
                }
                if h.id == "name" {
                    deck.title = Some(value.clone());
                }
                deck.header.insert(h.id, (value, v.span));
            }
            match cards {
                Some(cn) => {
                    let inner = read_node(cn, game, c, keys, names, false, problems);
                    for (l, n) in inner.votes {
                        *deck.votes.entry(l).or_default() += n;
                    }
                    deck.set_entries(inner.entries);
                    deck.side = inner.side;
                }
                None => problems.push(format_problem(
                    "the list has no `cards:`".into(),
                    node,
                    "`cards:` with one `N Card name` per item",
                )),
            }
            deck
        }
        Value::Map(entries) => {
            // `{card id or name: copies}`
            let mut deck = Deck::default();
            for (k, v) in entries {
                read_card(k, Some(v), names, &mut deck, problems);
            }
            deck
        }
        _ => {
            problems.push(format_problem(
                "a list must be a list of cards".into(),
                node,
                "a list of `N Card name` items, a `{card: copies}` mapping or a text block",
            ));
            Deck::default()
        }
    }
}

/// Points a problem read from a text block at the block.
fn relocate(p: &mut Problem, at: crate::diag::Span) {
    match p {
        Problem::BadCount { span, .. }
        | Problem::Unknown { span, .. }
        | Problem::Ambiguous { span, .. }
        | Problem::NoCount { span, .. }
        | Problem::Unreadable { span, .. }
        | Problem::UnknownKey { span, .. }
        | Problem::HeaderControl { span, .. } => *span = at,
        Problem::HeaderTwice { span, first, .. } => {
            *span = at;
            *first = at;
        }
        Problem::Yaml(d) => d.span = Some(at),
        Problem::Empty | Problem::More { .. } => {}
    }
}

fn read_card(item: &Node, count: Option<&Node>, names: &Names, deck: &mut Deck, problems: &mut Vec<Problem>) {
    let (n, name) = match (&item.value, count) {
        (Value::Str(s), Some(cn)) => match cn.value {
            Value::Int(i) if (1..=i64::from(MAX_COUNT)).contains(&i) => (i as u32, s.clone()),
            _ => {
                problems.push(Problem::Yaml(Box::new(
                    Diagnostic::new(
                        Code::DeckFormat,
                        format!("copies of `{s}` must be a number from 1 to {MAX_COUNT}"),
                    )
                    .at(cn.span)
                    .found(cn.show()),
                )));
                return;
            }
        },
        (Value::Str(s), None) => match super::forms::leading_count(s.trim()) {
            Some((n, name)) if (1..=MAX_COUNT).contains(&n) => (n, name.to_string()),
            Some((n, _)) => {
                problems.push(Problem::BadCount {
                    span: item.span,
                    count: n,
                });
                return;
            }
            None => {
                problems.push(format_problem(
                    format!("`{s}` is not `N Card name`"),
                    item,
                    "a count then the card's name, e.g. `3 Gorgon's Gaze`",
                ));
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
                    problems.push(format_problem(
                        "a card entry needs `card` and a `count` from 1 up".into(),
                        item,
                        "`{card: gorgon-gaze, count: 3}`",
                    ));
                    return;
                }
            }
        }
        _ => {
            problems.push(Problem::Yaml(Box::new(
                Diagnostic::new(
                    Code::DeckFormat,
                    "a card entry must be `N Card name` or `{card, count}`",
                )
                .at(item.span)
                .found(item.show()),
            )));
            return;
        }
    };
    match names.find(&name) {
        Found::One(comp, locale) => {
            if let Some(l) = locale {
                *deck.votes.entry(l.to_string()).or_default() += 1;
            }
            deck.add_card(&comp.kind, &comp.id, n, item.span, false);
        }
        Found::Several(cs) => problems.push(Problem::Ambiguous {
            span: item.span,
            name,
            ids: cs.iter().map(|c| (c.id.clone(), c.kind.clone())).collect(),
        }),
        Found::None => problems.push(Problem::Unknown {
            span: item.span,
            suggestion: names.suggest(&name).map(str::to_string),
            name,
        }),
    }
}
