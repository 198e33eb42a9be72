//! Reading `cover:` of game.yaml: what the table needs besides the kit, and
//! the content that is the pack's own proposal (model/cover.rs).

use indexmap::IndexMap;

use super::decl::read_kind_list;
use super::reader::{MapReader, read_int, read_seq, read_str, read_text};
use super::yaml::Node;
use crate::diag::{Code, Diagnostic};
use crate::model::Kind;
use crate::model::cover::{Cover, Need, Proposal};

/// Reads `cover: {needs: […], proposals: […]}`. `rule_ids` are the game's
/// numbered rules a need may cite.
pub(super) fn read_cover(
    node: &Node,
    locales: &[String],
    kinds: &IndexMap<String, Kind>,
    rule_ids: &[String],
    diags: &mut Vec<Diagnostic>,
) -> Cover {
    let mut cover = Cover::default();
    let Some(mut m) = MapReader::new(node, "`cover`", diags) else {
        return cover;
    };
    for item in m
        .take("needs")
        .and_then(|n| read_seq(n, "`needs` of the cover", diags))
        .unwrap_or_default()
    {
        let Some(mut n) = MapReader::new(item, "a need", diags) else {
            continue;
        };
        let what_node = n.require("item", "what players need, in every locale", diags);
        let item_text = what_node.and_then(|x| read_text(x, "the item of a need", locales, diags));
        let why = n
            .require("why", "what it is for, in every locale", diags)
            .and_then(|x| read_text(x, "what a need is for", locales, diags));
        let count = n.take("count").and_then(|x| {
            let v = read_int(x, "the count of a need", diags)?;
            if (1..=1000).contains(&v) {
                Some(v as u32)
            } else {
                diags.push(
                    Diagnostic::new(Code::OutOfRange, format!("a need's count {v} is out of range"))
                        .at(x.span)
                        .label("not a count of things on a table")
                        .expected("1 to 1000"),
                );
                None
            }
        });
        let rule = n.take("rule").and_then(|x| {
            let r = read_str(x, "the rule of a need", diags)?;
            if rule_ids.iter().any(|id| id == r) {
                Some(r.to_owned())
            } else {
                diags.push(
                    Diagnostic::new(
                        Code::BadDeclaration,
                        format!("a need cites rule `{r}`, which the game does not declare"),
                    )
                    .at(x.span)
                    .label("not one of `rule_ids`")
                    .expected("a numbered rule of the game, such as `OW-12`")
                    .suggest(r, rule_ids.iter().map(String::as_str)),
                );
                None
            }
        });
        let need_kinds = n
            .take("kinds")
            .map(|x| read_kind_list(x, "a need", kinds, diags))
            .unwrap_or_default();
        n.finish(&["item", "why", "count", "rule", "kinds"], diags);
        if let (Some(item_text), Some(why)) = (item_text, why) {
            cover.needs.push(Need {
                item: item_text,
                count,
                why,
                rule,
                kinds: need_kinds,
                span: Some(item.span),
            });
        }
    }
    for item in m
        .take("proposals")
        .and_then(|n| read_seq(n, "`proposals` of the cover", diags))
        .unwrap_or_default()
    {
        let Some(mut p) = MapReader::new(item, "a proposal", diags) else {
            continue;
        };
        let prop_kinds = p
            .require("kinds", "the kinds whose pieces the pack proposes", diags)
            .map(|x| read_kind_list(x, "a proposal", kinds, diags))
            .unwrap_or_default();
        let note = p
            .require("note", "what the pack proposes, in every locale", diags)
            .and_then(|x| read_text(x, "the note of a proposal", locales, diags));
        p.finish(&["kinds", "note"], diags);
        if let Some(note) = note {
            cover.proposals.push(Proposal {
                kinds: prop_kinds,
                note,
                span: Some(item.span),
            });
        }
    }
    m.finish(&["needs", "proposals"], diags);
    cover
}
