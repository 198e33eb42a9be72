//! From a diff to the selection a reprint pack prints: per game and locale,
//! the copies of every changed or new piece, the board variants drawn anew,
//! the rules reference when it changed, and the cover's words.

use std::collections::BTreeSet;

use super::value::What;
use super::{Diff, PieceStatus, Status, report};
use crate::model::{Game, Shape};
use crate::render::reprint::{Pick, Reprint};

/// What the reprint packs of `diff` print, laid out from the `new` games.
pub fn selection(diff: &Diff, new: &[Game], version: Option<&str>) -> Reprint {
    let mut out = Reprint::default();
    for g in diff
        .games
        .iter()
        .filter(|g| !matches!(g.status, Status::Removed | Status::Unchanged))
    {
        let Some(game) = new.iter().find(|n| n.id == g.id) else {
            continue;
        };
        for l in &g.locales {
            let mut pick = Pick::default();
            for (k, p) in g.pieces() {
                let n = p.print.get(l).copied().unwrap_or(0);
                if n == 0 {
                    continue;
                }
                let board = game.kinds.get(&k.id).filter(|b| b.shape == Shape::Board);
                match board.and_then(|b| b.variants.as_ref()) {
                    Some(vkind) => {
                        let only_variants = !p.changes.is_empty() && p.changes.iter().all(|c| c.what == What::Variant);
                        let set: BTreeSet<String> = if only_variants {
                            p.changes
                                .iter()
                                .filter(|c| c.locale.as_deref().is_none_or(|x| x == l))
                                .filter_map(|c| variant_id(&c.path))
                                .collect()
                        } else {
                            game.components
                                .get(vkind)
                                .into_iter()
                                .flatten()
                                .map(|c| c.id.clone())
                                .collect()
                        };
                        if !set.is_empty() {
                            pick.variants.insert((k.id.clone(), p.id.clone()), set);
                        }
                    }
                    None => {
                        pick.copies.insert((k.id.clone(), p.id.clone()), n);
                    }
                }
            }
            pick.rules = g.rules_changed(l);
            pick.quickref = g.quickref.iter().any(|q| q == l);
            pick.note = report::reprint_note(g, l, version, pick.rules);
            if !pick.is_empty() {
                out.picks.insert((g.id.clone(), l.clone()), pick);
            }
        }
    }
    out
}

fn variant_id(path: &str) -> Option<String> {
    Some(path.strip_prefix("variant[")?.strip_suffix(']')?.to_owned())
}

/// How many pieces a game's reprint prints in a locale (copies of every kind).
pub fn count(diff: &Diff, game: &str, locale: &str) -> u32 {
    diff.games
        .iter()
        .filter(|g| g.id == game)
        .flat_map(|g| g.pieces())
        .filter(|(_, p)| p.status != PieceStatus::Removed)
        .map(|(_, p)| p.print.get(locale).copied().unwrap_or(0))
        .sum()
}
