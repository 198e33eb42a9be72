//! Reading `construction.draw` from game.yaml: the piles a list makes, the
//! opening hand and the draws of each turn (docs/decks.md#odds), every kind,
//! field and pile it names checked against the pack's declarations.

use super::construction::{Ctx, bad, read_filter, read_words};
use super::reader::{MapReader, quote_list, read_bool, read_int, read_seq, read_str};
use super::yaml::Node;
use crate::diag::Diagnostic;
use crate::model::FieldType;
use crate::model::construction::{Brings, DrawGroup, DrawRules, Pile, SetAside};

const KEYS: &[&str] = &[
    "piles",
    "per_turn",
    "per_turn_from",
    "first_player_skips",
    "mulligans",
    "cite",
    "note",
    "groups",
];

/// A count from 0 to `max`.
fn count(node: &Node, what: &str, max: i64, diags: &mut Vec<Diagnostic>) -> Option<u32> {
    let n = read_int(node, what, diags)?;
    if (0..=max).contains(&n) {
        Some(n as u32)
    } else {
        diags.push(bad(
            node,
            format!("{what} is {n}"),
            format!("a whole number from 0 to {max}"),
        ));
        None
    }
}

pub(super) fn read_draw(node: &Node, ctx: &Ctx, locales: &[String], diags: &mut Vec<Diagnostic>) -> Option<DrawRules> {
    let mut m = MapReader::new(node, "`draw`", diags)?;
    let mut piles: Vec<Pile> = Vec::new();
    if let Some(pn) = m.require("piles", "the draw piles a list makes", diags)
        && let Some(seq) = read_seq(pn, "`piles`", diags)
    {
        for p in seq {
            if let Some(pile) = read_pile(p, ctx, locales, diags) {
                if piles.iter().any(|x| x.id == pile.id) {
                    diags.push(bad(
                        p,
                        format!("draw pile `{}` is declared twice", pile.id),
                        "unique pile ids",
                    ));
                }
                piles.push(pile);
            }
        }
        if piles.is_empty() && !seq.is_empty() {
            return None;
        }
        if seq.is_empty() {
            diags.push(bad(pn, "`piles` is empty".into(), "at least one pile"));
        }
    }
    let per_turn = m
        .take("per_turn")
        .and_then(|n| count(n, "`per_turn`", 60, diags))
        .unwrap_or(0);
    let per_turn_from = match m.take("per_turn_from") {
        None => piles.first().map(|p| p.id.clone()),
        Some(n) => match read_str(n, "`per_turn_from`", diags) {
            Some("choice") => None,
            Some(id) if piles.iter().any(|p| p.id == id) => Some(id.to_owned()),
            Some(id) => {
                let ids: Vec<&str> = piles.iter().map(|p| p.id.as_str()).chain(["choice"]).collect();
                diags.push(bad(
                    n,
                    format!("`per_turn_from` names unknown pile `{id}`"),
                    format!("one of {}", quote_list(&ids)),
                ));
                piles.first().map(|p| p.id.clone())
            }
            None => None,
        },
    };
    let first_player_skips = m
        .take("first_player_skips")
        .and_then(|n| read_bool(n, "`first_player_skips`", diags))
        .unwrap_or(false);
    let mulligans = m
        .take("mulligans")
        .and_then(|n| count(n, "`mulligans`", 9, diags))
        .unwrap_or(0);
    let cite = m
        .take("cite")
        .and_then(|n| read_str(n, "`cite`", diags))
        .map(str::to_owned);
    let note = m.take("note").and_then(|n| read_words(n, "`note`", locales, diags));
    // Groups may filter the cards piles bring (activation cards), not only the list's.
    let mut kinds = ctx.construction_kinds.clone();
    for b in piles.iter().flat_map(|p| &p.brings) {
        if !kinds.contains(&b.kind) {
            kinds.push(b.kind.clone());
        }
    }
    let group_ctx = Ctx {
        kinds: ctx.kinds,
        construction_kinds: kinds,
        header: Default::default(),
        modes: None,
    };
    let groups = m
        .take("groups")
        .and_then(|n| read_seq(n, "`groups`", diags))
        .map(|seq| {
            seq.iter()
                .filter_map(|g| read_group(g, &group_ctx, locales, diags))
                .collect()
        })
        .unwrap_or_default();
    m.finish(KEYS, diags);
    (!piles.is_empty()).then_some(DrawRules {
        piles,
        per_turn,
        per_turn_from,
        first_player_skips,
        mulligans,
        cite,
        note,
        groups,
    })
}

fn read_pile(node: &Node, ctx: &Ctx, locales: &[String], diags: &mut Vec<Diagnostic>) -> Option<Pile> {
    let mut m = MapReader::new(node, "a draw pile", diags)?;
    let id = m
        .require("id", "the pile's id (`deck`)", diags)
        .and_then(|n| read_str(n, "the pile id", diags))
        .map(str::to_owned);
    let name = m
        .take("name")
        .and_then(|n| read_words(n, "the pile's name", locales, diags));
    let cards = m.take("cards").map(|n| read_filter(n, ctx, diags));
    let brings_node = m.take("brings");
    let brings: Vec<Brings> = brings_node
        .and_then(|n| read_seq(n, "`brings`", diags))
        .map(|seq| seq.iter().filter_map(|b| read_brings(b, ctx, diags)).collect())
        .unwrap_or_default();
    if cards.is_some() == brings_node.is_some() {
        diags.push(bad(
            node,
            "a draw pile needs either `cards` or `brings`".into(),
            "`cards: {kind: card}` (the list's cards) or `brings: [{field: activation, kind: activation, by: [character]}]`",
        ));
    }
    let opening = m
        .require("opening", "the cards drawn into the opening hand", diags)
        .and_then(|n| count(n, "`opening`", 200, diags));
    let set_aside = m
        .take("set_aside")
        .and_then(|n| read_seq(n, "`set_aside`", diags))
        .map(|seq| seq.iter().filter_map(|s| read_set_aside(s, ctx, diags)).collect())
        .unwrap_or_default();
    m.finish(&["id", "name", "cards", "brings", "set_aside", "opening"], diags);
    let id = id?;
    Some(Pile {
        name: name.unwrap_or_else(|| crate::model::Text(locales.iter().map(|l| (l.clone(), id.clone())).collect())),
        id,
        cards,
        brings,
        set_aside,
        opening: opening?,
    })
}

fn known_kind(n: &Node, kind: &str, ctx: &Ctx, diags: &mut Vec<Diagnostic>) -> bool {
    if ctx.kinds.contains_key(kind) {
        return true;
    }
    let names: Vec<&str> = ctx.kinds.keys().map(String::as_str).collect();
    diags.push(
        bad(
            n,
            format!("draw rules name unknown kind `{kind}`"),
            format!("one of {}", quote_list(&names)),
        )
        .suggest(kind, names.iter().copied()),
    );
    false
}

fn read_brings(node: &Node, ctx: &Ctx, diags: &mut Vec<Diagnostic>) -> Option<Brings> {
    let mut m = MapReader::new(node, "an entry of `brings`", diags)?;
    let field_node = m.require("field", "the listed piece's field that says how many cards", diags);
    let field = field_node
        .and_then(|n| read_str(n, "`field`", diags))
        .map(str::to_owned);
    let kind_node = m.require("kind", "the kind of the cards brought", diags);
    let kind = kind_node.and_then(|n| read_str(n, "`kind`", diags)).map(str::to_owned);
    let id = m.take("id").and_then(|n| read_str(n, "`id`", diags)).map(str::to_owned);
    let by: Vec<String> = m
        .take("by")
        .and_then(|n| read_seq(n, "`by`", diags))
        .map(|seq| {
            seq.iter()
                .filter_map(|b| read_str(b, "a field", diags).map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    m.finish(&["field", "kind", "id", "by"], diags);
    let (field, kind) = (field?, kind?);
    // The count field: an integer of some kind a list may hold.
    let counts = ctx
        .construction_kinds
        .iter()
        .filter_map(|k| ctx.kinds.get(k))
        .any(|k| matches!(k.fields.get(&field).map(|f| &f.ty), Some(FieldType::Int { .. })));
    if !counts && let Some(n) = field_node {
        diags.push(bad(
            n,
            format!("`brings` counts with `{field}`, which no kind a list holds declares as an integer"),
            "an integer field of the listed kinds (`activation`)",
        ));
    }
    if let Some(n) = kind_node
        && known_kind(n, &kind, ctx, diags)
    {
        let k = &ctx.kinds[&kind];
        for f in &by {
            if !matches!(k.fields.get(f).map(|s| &s.ty), Some(FieldType::Ref { .. })) {
                diags.push(bad(
                    node,
                    format!("`by: {f}` is not a reference field of kind `{kind}`"),
                    "the ref fields that name the listed piece",
                ));
            }
        }
        if id.is_none() && by.is_empty() {
            diags.push(bad(
                node,
                "`brings` needs `id` or `by`".into(),
                "`id: art-of-war` or `by: [character]`",
            ));
        }
    }
    Some(Brings { field, kind, id, by })
}

fn read_set_aside(node: &Node, ctx: &Ctx, diags: &mut Vec<Diagnostic>) -> Option<SetAside> {
    let mut m = MapReader::new(node, "an entry of `set_aside`", diags)?;
    let kind_node = m.require("kind", "the kind of the cards set aside", diags);
    let kind = kind_node.and_then(|n| read_str(n, "`kind`", diags)).map(str::to_owned);
    let id = m
        .require("id", "the card set aside", diags)
        .and_then(|n| read_str(n, "`id`", diags))
        .map(str::to_owned);
    let n = m
        .require("count", "how many are set aside", diags)
        .and_then(|n| count(n, "the `count` of `set_aside`", 200, diags));
    let extra = m
        .take("extra")
        .and_then(|n| read_bool(n, "`extra`", diags))
        .unwrap_or(false);
    m.finish(&["kind", "id", "count", "extra"], diags);
    let kind = kind?;
    if let Some(k) = kind_node
        && !known_kind(k, &kind, ctx, diags)
    {
        return None;
    }
    Some(SetAside {
        kind,
        id: id?,
        count: n?,
        extra,
    })
}

fn read_group(node: &Node, ctx: &Ctx, locales: &[String], diags: &mut Vec<Diagnostic>) -> Option<DrawGroup> {
    let mut m = MapReader::new(node, "a draw group", diags)?;
    let id = m
        .require("id", "the group's id", diags)
        .and_then(|n| read_str(n, "the group id", diags))
        .map(str::to_owned);
    let label = m
        .require("label", "what the group's cards are called, per locale", diags)
        .and_then(|n| read_words(n, "the group's label", locales, diags));
    let filter = m
        .require("where", "which cards (`{kind: zone}`, `{rank: basic}`)", diags)
        .map(|n| group_filter(n, ctx, diags));
    m.finish(&["id", "label", "where"], diags);
    Some(DrawGroup {
        id: id?,
        label: label?,
        filter: filter?,
    })
}

/// A group's filter: like a construction filter, except that `kind` values
/// that are no kind name filter a field called `kind` when the cards have
/// one (Unmatched's attack, defense, versatile and scheme cards).
fn group_filter(node: &Node, ctx: &Ctx, diags: &mut Vec<Diagnostic>) -> crate::model::construction::Filter {
    let field_kind = node.as_map().and_then(|entries| {
        let (_, v) = entries.iter().find(|(k, _)| k.as_str() == Some("kind"))?;
        let values: Vec<String> = match &v.value {
            super::yaml::Value::Seq(items) => items.iter().filter_map(|i| i.as_str().map(str::to_owned)).collect(),
            _ => v.as_str().map(str::to_owned).into_iter().collect(),
        };
        let names_kinds = values.iter().all(|x| ctx.kinds.contains_key(x));
        let has_field = ctx
            .construction_kinds
            .iter()
            .any(|k| ctx.kinds.get(k).is_some_and(|kd| kd.fields.contains_key("kind")));
        (!names_kinds && has_field).then_some(values)
    });
    match field_kind {
        None => read_filter(node, ctx, diags),
        Some(values) => {
            // Read the rest as a filter, then add the `kind` field's values.
            let rest: Vec<(Node, Node)> = node
                .as_map()
                .into_iter()
                .flatten()
                .filter(|(k, _)| k.as_str() != Some("kind"))
                .cloned()
                .collect();
            let mut f = read_filter(
                &Node {
                    value: super::yaml::Value::Map(rest),
                    span: node.span,
                },
                ctx,
                diags,
            );
            f.fields.insert("kind".into(), values);
            f
        }
    }
}
