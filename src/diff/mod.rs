//! What changed between two versions of the game packs: per game and kind,
//! the pieces added, removed and changed, each changed field with its old
//! and new value (texts per locale, as printed: quoted values filled in),
//! changed art and icons; the rules reference, facts and glossary; and for
//! every locale how many copies of each piece to print and to take out.
//!
//! Both sides are validated models (`check` built them); nothing here reads
//! files. [`report`] writes the diff for people (a report and a Markdown
//! changelog per locale), [`reprint`] turns it into the selection a reprint
//! pack prints.

pub mod reference;
pub mod report;
pub mod reprint;
pub mod value;
pub mod words;

use std::collections::HashMap;

use indexmap::IndexMap;
use serde::Serialize;

use crate::model::{Component, Game, Kind, Shape, Size, Text};
pub use reference::{FactChange, RuleChange, TermChange};
use value::{Cx, Labels};

/// Everything that changed from `old` to `new`.
#[derive(Clone, Debug, Serialize)]
pub struct Diff {
    /// What the two sides are (a revision such as `v1.0 (3f2a9c1)`, or a folder).
    pub old: String,
    pub new: String,
    pub games: Vec<GameDiff>,
}

impl Diff {
    /// Whether anything changed at all.
    pub fn is_empty(&self) -> bool {
        self.games.iter().all(|g| g.status == Status::Unchanged)
    }
}

/// Whether something is new, gone, different or the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Added,
    Removed,
    Changed,
    Unchanged,
}

/// What changed in one game.
#[derive(Clone, Debug, Serialize)]
pub struct GameDiff {
    pub id: String,
    pub name: Text,
    pub status: Status,
    /// The locales of the new version (of the old one for a removed game).
    pub locales: Vec<String>,
    /// Whether the layouts the game prints with changed: every piece may look
    /// different. `None` when one side is a plain folder (its layouts are unknown).
    pub layout_changed: Option<bool>,
    pub kinds: Vec<KindDiff>,
    pub rules: Vec<RuleChange>,
    pub facts: Vec<FactChange>,
    pub glossary: Vec<TermChange>,
    /// The locales whose quick reference changed.
    pub quickref: Vec<String>,
    pub icons: Vec<IconChange>,
}

impl GameDiff {
    /// Every piece that changed, with its kind.
    pub fn pieces(&self) -> impl Iterator<Item = (&KindDiff, &PieceDiff)> {
        self.kinds.iter().flat_map(|k| k.pieces.iter().map(move |p| (k, p)))
    }

    /// Whether the rules reference changed in `locale`.
    pub fn rules_changed(&self, locale: &str) -> bool {
        self.rules.iter().any(|r| r.locales.iter().any(|l| l == locale))
            || self.glossary.iter().any(|t| t.locales.iter().any(|l| l == locale))
    }
}

/// An icon (`:name:`) whose drawing was added, removed or redrawn.
#[derive(Clone, Debug, Serialize)]
pub struct IconChange {
    pub name: String,
    pub status: Status,
}

/// What changed in one kind.
#[derive(Clone, Debug, Serialize)]
pub struct KindDiff {
    pub id: String,
    pub name: Text,
    /// Whether the kind is printed (its pieces go in the kit).
    pub printed: bool,
    /// A new trim size: every piece of the kind prints anew.
    pub size: Option<SizeChange>,
    pub pieces: Vec<PieceDiff>,
}

#[derive(Clone, Copy, Debug, Serialize)]
pub struct SizeChange {
    pub old: Option<Size>,
    pub new: Option<Size>,
}

/// How a piece changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PieceStatus {
    Added,
    Removed,
    /// Its design changed (in at least one locale).
    Changed,
    /// Only the number of copies changed.
    Copies,
}

/// One piece that is new, gone or different.
#[derive(Clone, Debug, Serialize)]
pub struct PieceDiff {
    pub id: String,
    /// The new name (the old one for a removed piece).
    pub name: Text,
    pub status: PieceStatus,
    pub copies: Copies,
    pub changes: Vec<value::Change>,
    /// Per locale: copies to print for the reprint pack.
    pub print: IndexMap<String, u32>,
    /// Per locale: copies of the old printing to take out of the box.
    pub take_out: IndexMap<String, u32>,
}

#[derive(Clone, Copy, Debug, Serialize)]
pub struct Copies {
    pub old: u32,
    pub new: u32,
}

/// Compares two versions of the packs. `old_label` and `new_label` say
/// what each side is. `layouts` tells, per game id, whether its layouts
/// changed (when the caller knows).
pub fn diff(old_label: &str, old: &[Game], new_label: &str, new: &[Game], layouts: &HashMap<String, bool>) -> Diff {
    let mut ids: Vec<&str> = new.iter().map(|g| g.id.as_str()).collect();
    for g in old {
        if !ids.contains(&g.id.as_str()) {
            ids.push(&g.id);
        }
    }
    ids.sort();
    let games = ids
        .into_iter()
        .map(|id| {
            let o = old.iter().find(|g| g.id == id);
            let n = new.iter().find(|g| g.id == id);
            let mut d = game_diff(o, n);
            d.layout_changed = layouts.get(id).copied();
            if d.layout_changed == Some(true) && d.status == Status::Unchanged {
                d.status = Status::Changed;
            }
            d
        })
        .collect();
    Diff {
        old: old_label.to_owned(),
        new: new_label.to_owned(),
        games,
    }
}

fn game_diff(old: Option<&Game>, new: Option<&Game>) -> GameDiff {
    let main = new.or(old).expect("a game on one side at least");
    let locales = main.locales.clone();
    let (ocx, ncx) = (old.map(Cx::new), new.map(Cx::new));
    let labels = Labels::new(new, old);
    let mut kind_ids: Vec<&str> = main.kinds.keys().map(String::as_str).collect();
    for g in [old, new].into_iter().flatten() {
        for k in g.kinds.keys() {
            if !kind_ids.contains(&k.as_str()) {
                kind_ids.push(k);
            }
        }
    }
    let icons = icon_changes(old, new);
    let mut kinds = Vec::new();
    for kind in kind_ids {
        let ok = old.and_then(|g| g.kinds.get(kind));
        let nk = new.and_then(|g| g.kinds.get(kind));
        let d = kind_diff(
            kind,
            (old, ok, ocx.as_ref()),
            (new, nk, ncx.as_ref()),
            &labels,
            &icons,
            &locales,
        );
        if d.size.is_some() || !d.pieces.is_empty() {
            kinds.push(d);
        }
    }
    if let Some(n) = new {
        board_variants(n, &mut kinds, &locales);
    }
    let empty = crate::model::Reference::default();
    let render_with = |cx: Option<&Cx>, t: &Text, l: &str| match cx {
        Some(cx) => cx.render(t, l, None),
        None => t.get(l).to_owned(),
    };
    let (ro, rn) = (
        |t: &Text, l: &str| render_with(ocx.as_ref(), t, l),
        |t: &Text, l: &str| render_with(ncx.as_ref(), t, l),
    );
    let oside = reference::Side {
        reference: old.map_or(&empty, |g| &g.reference),
        render: &ro,
    };
    let nside = reference::Side {
        reference: new.map_or(&empty, |g| &g.reference),
        render: &rn,
    };
    let rules = reference::rules(&oside, &nside, &locales);
    let facts = reference::facts(oside.reference, nside.reference);
    let glossary = reference::glossary(oside.reference, nside.reference, &locales);
    let quickref = reference::quickref(&oside, &nside, &locales);
    let status = match (old, new) {
        (None, _) => Status::Added,
        (_, None) => Status::Removed,
        _ if kinds.is_empty()
            && rules.is_empty()
            && facts.is_empty()
            && glossary.is_empty()
            && quickref.is_empty()
            && icons.is_empty() =>
        {
            Status::Unchanged
        }
        _ => Status::Changed,
    };
    GameDiff {
        id: main.id.clone(),
        name: main.name.clone(),
        status,
        locales,
        layout_changed: None,
        kinds,
        rules,
        facts,
        glossary,
        quickref,
        icons,
    }
}

/// Icons whose file was added, removed or redrawn.
fn icon_changes(old: Option<&Game>, new: Option<&Game>) -> Vec<IconChange> {
    let names = |g: Option<&Game>| -> IndexMap<String, Option<String>> {
        g.map(|g| {
            g.icons
                .keys()
                .map(|n| {
                    let path = crate::check::assets::icon_path(n);
                    let hash = g.assets.iter().find(|(p, _)| *p == path).map(|(_, b)| value::hash(b));
                    (n.clone(), hash)
                })
                .collect()
        })
        .unwrap_or_default()
    };
    let (o, n) = (names(old), names(new));
    let mut out = Vec::new();
    for (name, h) in &n {
        match o.get(name) {
            None if old.is_some() => out.push(IconChange {
                name: name.clone(),
                status: Status::Added,
            }),
            Some(oh) if oh != h => out.push(IconChange {
                name: name.clone(),
                status: Status::Changed,
            }),
            _ => {}
        }
    }
    if new.is_some() {
        for name in o.keys().filter(|k| !n.contains_key(*k)) {
            out.push(IconChange {
                name: name.clone(),
                status: Status::Removed,
            });
        }
    }
    out
}

type SideOf<'a> = (Option<&'a Game>, Option<&'a Kind>, Option<&'a Cx<'a>>);

fn size_of(g: Option<&Game>, k: Option<&Kind>) -> Option<Size> {
    let (g, k) = (g?, k?);
    k.size.as_ref().and_then(|s| g.sizes.get(s)).copied()
}

fn kind_diff(
    kind: &str,
    (og, ok, ocx): SideOf,
    (ng, nk, ncx): SideOf,
    labels: &Labels,
    icons: &[IconChange],
    locales: &[String],
) -> KindDiff {
    let main = nk.or(ok).expect("a kind on one side");
    let printed = |k: Option<&Kind>| k.is_some_and(|k| k.shape != Shape::None);
    let (os, ns) = (size_of(og, ok), size_of(ng, nk));
    let resized = ok.is_some() && nk.is_some() && !same_size(os, ns);
    let none: Vec<Component> = Vec::new();
    let olist = og.and_then(|g| g.components.get(kind)).unwrap_or(&none);
    let nlist = ng.and_then(|g| g.components.get(kind)).unwrap_or(&none);
    let by_id: HashMap<&str, &Component> = olist.iter().map(|c| (c.id.as_str(), c)).collect();
    let mut pieces = Vec::new();
    for c in nlist {
        let piece = match by_id.get(c.id.as_str()) {
            None => added(c, printed(nk), locales),
            Some(o) => {
                let mut changes = Vec::new();
                if let (Some(ok), Some(nk), Some(ocx), Some(ncx)) = (ok, nk, ocx, ncx) {
                    value::compare(o, c, ok, nk, ocx, ncx, labels, locales, &mut changes);
                }
                value::icon_changes(o, c, icons, labels, locales, &mut changes);
                if resized {
                    changes.push(value::size_change(os, ns, labels));
                }
                changed(o, c, changes, printed(ok), printed(nk), locales)
            }
        };
        if let Some(p) = piece {
            pieces.push(p);
        }
    }
    let new_ids: std::collections::HashSet<&str> = nlist.iter().map(|c| c.id.as_str()).collect();
    for c in olist.iter().filter(|c| !new_ids.contains(c.id.as_str())) {
        pieces.push(removed(c, printed(ok), locales));
    }
    KindDiff {
        id: kind.to_owned(),
        name: main.name.clone(),
        printed: printed(nk.or(ok)),
        size: resized.then_some(SizeChange { old: os, new: ns }),
        pieces,
    }
}

fn same_size(a: Option<Size>, b: Option<Size>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => (a.width - b.width).abs() < 1e-9 && (a.height - b.height).abs() < 1e-9,
        (None, None) => true,
        _ => false,
    }
}

fn per_locale(locales: &[String], f: impl Fn(&str) -> u32) -> IndexMap<String, u32> {
    locales.iter().map(|l| (l.clone(), f(l))).collect()
}

fn added(c: &Component, printed: bool, locales: &[String]) -> Option<PieceDiff> {
    let n = if printed { c.copies } else { 0 };
    Some(PieceDiff {
        id: c.id.clone(),
        name: c.name.clone(),
        status: PieceStatus::Added,
        copies: Copies { old: 0, new: c.copies },
        changes: Vec::new(),
        print: per_locale(locales, |_| n),
        take_out: per_locale(locales, |_| 0),
    })
}

fn removed(c: &Component, printed: bool, locales: &[String]) -> PieceDiff {
    let n = if printed { c.copies } else { 0 };
    PieceDiff {
        id: c.id.clone(),
        name: c.name.clone(),
        status: PieceStatus::Removed,
        copies: Copies { old: c.copies, new: 0 },
        changes: Vec::new(),
        print: per_locale(locales, |_| 0),
        take_out: per_locale(locales, |_| n),
    }
}

/// A piece on both sides: changed in design (in some locales), in copies
/// only, or not at all (`None`).
fn changed(
    o: &Component,
    c: &Component,
    changes: Vec<value::Change>,
    printed_old: bool,
    printed_new: bool,
    locales: &[String],
) -> Option<PieceDiff> {
    let copies = Copies {
        old: o.copies,
        new: c.copies,
    };
    if changes.is_empty() && o.copies == c.copies && printed_old == printed_new {
        return None;
    }
    let redesigned = |l: &str| changes.iter().any(|ch| ch.locale.as_deref().is_none_or(|x| x == l));
    let (po, pn) = (
        if printed_old { o.copies } else { 0 },
        if printed_new { c.copies } else { 0 },
    );
    let print = per_locale(locales, |l| if redesigned(l) { pn } else { pn.saturating_sub(po) });
    let take_out = per_locale(locales, |l| if redesigned(l) { po } else { po.saturating_sub(pn) });
    Some(PieceDiff {
        id: c.id.clone(),
        name: c.name.clone(),
        status: if changes.is_empty() {
            PieceStatus::Copies
        } else {
            PieceStatus::Changed
        },
        copies,
        changes,
        print,
        take_out,
    })
}

/// Boards printed once per component of another kind (a grid per
/// scenario): a board whose data is the same still prints anew for each
/// variant whose component changed. Such a board is listed as changed, one
/// change per variant (`variant[<id>]`), in the locales where it changed.
fn board_variants(game: &Game, kinds: &mut Vec<KindDiff>, locales: &[String]) {
    for board in game.kinds.values().filter(|k| k.shape == Shape::Board) {
        let Some(vkind) = &board.variants else { continue };
        let Some(vdiff) = kinds.iter().find(|k| &k.id == vkind) else {
            continue;
        };
        let vname = vdiff.name.clone();
        // Variants redrawn (new or changed, not only more copies), with the locales where they print.
        let changed: Vec<(String, Text, Vec<String>)> = vdiff
            .pieces
            .iter()
            // The variant's data, not its own trim size, is what the board draws.
            .filter(|p| {
                p.status == PieceStatus::Added
                    || (p.status == PieceStatus::Changed && p.changes.iter().any(|c| c.what != value::What::Size))
            })
            .map(|p| {
                let ls: Vec<String> = locales
                    .iter()
                    .filter(|l| p.print.get(*l).is_some_and(|n| *n > 0))
                    .cloned()
                    .collect();
                (p.id.clone(), p.name.clone(), ls)
            })
            .filter(|(_, _, ls)| !ls.is_empty())
            .collect();
        if changed.is_empty() {
            continue;
        }
        let labels = Labels::new(Some(game), None);
        let pos = match kinds.iter().position(|k| k.id == board.id) {
            Some(i) => i,
            None => {
                kinds.push(KindDiff {
                    id: board.id.clone(),
                    name: board.name.clone(),
                    printed: true,
                    size: None,
                    pieces: Vec::new(),
                });
                kinds.len() - 1
            }
        };
        for c in game.components.get(&board.id).into_iter().flatten() {
            let kd = &mut kinds[pos];
            // A board whose own data changed prints every variant anyway.
            if kd.pieces.iter().any(|p| p.id == c.id) {
                continue;
            }
            let mut changes = Vec::new();
            for (id, name, ls) in &changed {
                let label = Text(
                    labels
                        .locales
                        .iter()
                        .map(|l| (l.clone(), format!("{} › {}", vname.get(l), name.get(l))))
                        .collect(),
                );
                let scopes: Vec<Option<String>> = if ls.len() == locales.len() {
                    vec![None]
                } else {
                    ls.iter().cloned().map(Some).collect()
                };
                for locale in scopes {
                    changes.push(value::Change {
                        path: format!("variant[{id}]"),
                        label: label.clone(),
                        locale,
                        what: value::What::Variant,
                        old: None,
                        new: None,
                    });
                }
            }
            let prints = |l: &str| changed.iter().any(|(_, _, ls)| ls.iter().any(|x| x == l));
            kd.pieces.push(PieceDiff {
                id: c.id.clone(),
                name: c.name.clone(),
                status: PieceStatus::Changed,
                copies: Copies {
                    old: c.copies,
                    new: c.copies,
                },
                changes,
                print: per_locale(locales, |l| if prints(l) { c.copies } else { 0 }),
                take_out: per_locale(locales, |l| if prints(l) { c.copies } else { 0 }),
            });
        }
    }
}
