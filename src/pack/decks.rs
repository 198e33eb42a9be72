//! Reading the decks of `game.yaml` (`decks:`) and a card kind's back
//! (`back:` of a kind). What they mean: model/decks.rs; whether the cards of
//! each deck look alike from behind: check/decks.rs.

use indexmap::IndexMap;

use super::decl::{BUILTIN_FIELDS, read_filter, read_kind_list};
use super::reader::{MapReader, quote_list, read_seq, read_slug, read_str, read_text, wrong_type};
use super::yaml::{Node, Value};
use crate::diag::{Code, Diagnostic};
use crate::model::{Back, DeckDecl, FieldSpec, Kind, Shape};

const DECK_KEYS: &[&str] = &["id", "name", "kinds", "where", "by"];

/// Whether `field` names a value every kind has: a declared field or `id`.
fn has_field(field: &str, fields: &IndexMap<String, FieldSpec>) -> bool {
    fields.contains_key(field) || BUILTIN_FIELDS.contains(&field)
}

/// `back: <design>` or `back: {design: <design>, by: <field>}`.
pub(super) fn read_back(
    node: &Node,
    what: &str,
    fields: &IndexMap<String, FieldSpec>,
    diags: &mut Vec<Diagnostic>,
) -> Option<Back> {
    let (design, by) = match &node.value {
        Value::Str(_) => (read_slug(node, &format!("the back of {what}"), diags)?, None),
        Value::Map(_) => {
            let mut m = MapReader::new(node, format!("the back of {what}"), diags)?;
            let design = m
                .require("design", "the name of the back's design", diags)
                .and_then(|n| read_slug(n, &format!("the back design of {what}"), diags));
            let by = m.take("by").and_then(|n| {
                let f = read_str(n, &format!("`by` of the back of {what}"), diags)?;
                if !has_field(f, fields) {
                    diags.push(
                        Diagnostic::new(
                            Code::BadDeclaration,
                            format!("the back of {what} varies by `{f}`, a field the kind does not have"),
                        )
                        .at(n.span)
                        .label("not a field of this kind")
                        .expected("a field of the kind, or `id` for a back per card")
                        .suggest(f, fields.keys().map(String::as_str)),
                    );
                    return None;
                }
                Some(f.to_owned())
            });
            m.finish(&["design", "by"], diags);
            (design?, by)
        }
        _ => {
            diags.push(wrong_type(
                node,
                &format!("the back of {what}"),
                "a design name, or `{design: <name>, by: <field>}`",
            ));
            return None;
        }
    };
    Some(Back {
        design,
        by,
        span: Some(node.span),
    })
}

/// The `decks:` list: each deck's cards are shuffled together.
pub(super) fn read_decks(
    node: &Node,
    locales: &[String],
    kinds: &IndexMap<String, Kind>,
    diags: &mut Vec<Diagnostic>,
) -> Vec<DeckDecl> {
    let mut out: Vec<DeckDecl> = Vec::new();
    for item in read_seq(node, "`decks`", diags).unwrap_or_default() {
        let Some(mut m) = MapReader::new(item, "a deck", diags) else {
            continue;
        };
        let id = m
            .require("id", "an id for the deck", diags)
            .and_then(|n| read_slug(n, "the deck id", diags));
        let what = format!("deck `{}`", id.as_deref().unwrap_or("?"));
        if let Some(id) = &id
            && out.iter().any(|d| &d.id == id)
        {
            diags.push(
                Diagnostic::new(Code::DuplicateId, format!("{what} is declared twice"))
                    .at(item.span)
                    .label("second declaration"),
            );
        }
        let name = m
            .require("name", "the deck's name in every locale", diags)
            .and_then(|n| read_text(n, &format!("the name of {what}"), locales, diags));
        let kinds_node = m.require("kinds", "the card kinds shuffled into the deck", diags);
        let deck_kinds = kinds_node
            .map(|n| read_kind_list(n, &what, kinds, diags))
            .unwrap_or_default();
        for k in &deck_kinds {
            if kinds[k].shape != Shape::Card {
                let cards: Vec<&str> = kinds
                    .values()
                    .filter(|k| k.shape == Shape::Card)
                    .map(|k| k.id.as_str())
                    .collect();
                diags.push(
                    Diagnostic::new(
                        Code::BadDeclaration,
                        format!("{what} shuffles `{k}`, which is not a card"),
                    )
                    .at(kinds_node.map_or(item.span, |n| n.span))
                    .label("not a card kind")
                    .expected(format!("card kinds: {}", quote_list(&cards))),
                );
            }
        }
        let filter = m
            .take("where")
            .map(|n| read_filter(n, &what, &deck_kinds, kinds, diags))
            .unwrap_or_default();
        let by = m.take("by").and_then(|n| {
            let f = read_str(n, &format!("`by` of {what}"), diags)?;
            if !deck_kinds.iter().all(|k| has_field(f, &kinds[k].fields)) {
                diags.push(
                    Diagnostic::new(
                        Code::BadDeclaration,
                        format!("{what} is split by `{f}`, a field not every one of its kinds has"),
                    )
                    .at(n.span)
                    .label("not a field of every kind")
                    .expected("a field declared by every kind in `kinds` (one deck per value)"),
                );
                return None;
            }
            Some(f.to_owned())
        });
        m.finish(DECK_KEYS, diags);
        if let Some(id) = id {
            out.push(DeckDecl {
                id,
                name: name.unwrap_or_default(),
                kinds: deck_kinds,
                filter,
                by,
                span: Some(kinds_node.map_or(item.span, |n| n.span)),
            });
        }
    }
    out
}
