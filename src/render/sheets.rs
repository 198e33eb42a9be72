//! Sheet pages: where every copy of every piece of one part (cards, tokens,
//! sheets) goes on the paper.
//!
//! Pieces that are cut alike — the same trim size (either way round) and
//! both with or both without backs — share pages whatever their kind. Each
//! such group is laid out in the grid that fits the most pieces, rotated a
//! quarter turn when that fits more. Full pages come first; the rest of each
//! group is a smaller block (only the rows it needs), and blocks of several
//! groups share a page, stacked top to bottom with a separating cut between
//! them. Crop marks are drawn only for the cut lines of pieces on the page:
//! the vertical ones in the strip above and below their own block.

use super::boards::tiled_pages;
use super::impose::{
    Grid, Line, Paper, Rect, Settings, Slot, choose_grid, fold_mirror, gutterfold_areas, mirror, mirror_line, printable,
};
use super::{Item, KitOptions, Layout, Page, Part, PiecesPlan, chunk_path, has_backs};
use crate::model::{Component, Game, Kind};

/// One copy of a piece to place.
#[derive(Clone, Copy)]
struct Copy<'a> {
    kind: &'a Kind,
    c: &'a Component,
    copy: u32,
    /// The piece's own trim size.
    w: f64,
    h: f64,
}

/// Pieces cut alike: one normalised size, backs or not.
struct Group<'a> {
    long: f64,
    short: f64,
    backs: bool,
    copies: Vec<Copy<'a>>,
}

/// A block of one group on a page: its grid (positioned), whether its
/// pieces lie in landscape (long side across), and the copies it holds.
struct Block<'a> {
    grid: Grid,
    landscape: bool,
    copies: Vec<Copy<'a>>,
}

impl Block<'_> {
    /// Height the block needs on the page: the grid with its outer bleed,
    /// and room for crop marks above and below.
    fn extent(&self, s: &Settings) -> f64 {
        let g = &self.grid;
        g.pitch_y * (g.rows - 1) as f64 + g.h + 2.0 * g.outer_bleed_y + 2.0 * s.min_mark
    }
}

/// Space between stacked blocks, beyond their marks: where the separating cut goes.
const BLOCK_GAP: f64 = 2.0;

fn same(a: f64, b: f64) -> bool {
    (a - b).abs() < 0.01
}

/// The pages of one part: fronts (and backs, or gutterfold pages).
pub(super) fn sheet_pages(
    game: &Game,
    locale: &str,
    part: Part,
    paper: Paper,
    opts: &KitOptions,
    pieces: &PiecesPlan,
) -> Vec<Page> {
    let s = &opts.settings;
    let mut groups: Vec<Group> = Vec::new();
    let mut pages = Vec::new();
    for kind in game.kinds.values().filter(|k| Part::of(k.shape) == Some(part)) {
        let Some(size) = kind.size.as_ref().and_then(|s| game.sizes.get(s)) else {
            continue;
        };
        let (w, h) = (size.width, size.height);
        let (long, short) = (w.max(h), w.min(h));
        let backs = has_backs(kind);
        let copies: Vec<Copy> = game
            .components
            .get(&kind.id)
            .into_iter()
            .flatten()
            .flat_map(|c| (1..=opts.copies_of(&game.id, locale, c)).map(move |copy| Copy { kind, c, copy, w, h }))
            .collect();
        if copies.is_empty() {
            continue;
        }
        match groups
            .iter_mut()
            .find(|g| same(g.long, long) && same(g.short, short) && g.backs == backs)
        {
            Some(g) => g.copies.extend(copies),
            None => groups.push(Group {
                long,
                short,
                backs,
                copies,
            }),
        }
    }
    let gutter = opts.layout == Layout::Gutterfold;
    let mut partial: Vec<Block> = Vec::new();
    for g in groups {
        let gutter = gutter && g.backs;
        let area = area_of(&paper, s, gutter);
        // The orientation that fits more (portrait first when equal).
        let portrait = choose_grid(area, g.short, g.long, s);
        let landscape = choose_grid(area, g.long, g.short, s);
        let (grid, is_landscape) = match (portrait, landscape) {
            (Some(p), Some(l)) if l.capacity() > p.capacity() => (l, true),
            (Some(p), _) => (p, false),
            (None, Some(l)) => (l, true),
            (None, None) => {
                // Larger than the printable area: each copy tiled over pages, like a board.
                for c in &g.copies {
                    let piece = pieces.locate(&c.kind.id, &c.c.id, "front", None);
                    pages.extend(tiled_pages(c.kind, c.c, locale, "front", piece, c.w, c.h, paper, s));
                }
                continue;
            }
        };
        let cap = grid.capacity();
        let mut rest: &[Copy] = &g.copies;
        while rest.len() >= cap {
            let (full, more) = rest.split_at(cap);
            let block = Block {
                grid,
                landscape: is_landscape,
                copies: full.to_vec(),
            };
            pages.extend(page_of(vec![block], area, &paper, opts, pieces, gutter));
            rest = more;
        }
        if !rest.is_empty() {
            let cols = grid.cols.min(rest.len());
            let rows = rest.len().div_ceil(grid.cols);
            partial.push(Block {
                grid: grid.limited(cols, rows, area),
                landscape: is_landscape,
                copies: rest.to_vec(),
            });
        }
    }
    // The partial blocks share pages: first fit, tallest first, never mixing
    // pieces with backs and pieces without on one page.
    partial.sort_by(|a, b| b.extent(s).total_cmp(&a.extent(s)));
    let mut shelves: Vec<(f64, bool, Vec<Block>)> = Vec::new();
    for block in partial {
        let backs = has_backs(block.copies[0].kind);
        let area = area_of(&paper, s, gutter && backs);
        let need = block.extent(s);
        match shelves
            .iter_mut()
            .find(|(used, b, _)| *b == backs && used + BLOCK_GAP + need <= area.h + 1e-9)
        {
            Some((used, _, blocks)) => {
                *used += BLOCK_GAP + need;
                blocks.push(block);
            }
            None => shelves.push((need, backs, vec![block])),
        }
    }
    for (_, backs, blocks) in shelves {
        let gutter = gutter && backs;
        let area = area_of(&paper, s, gutter);
        pages.extend(page_of(blocks, area, &paper, opts, pieces, gutter));
    }
    pages
}

fn area_of(paper: &Paper, s: &Settings, gutter: bool) -> Rect {
    if gutter {
        gutterfold_areas(paper, s).0
    } else {
        printable(paper, s)
    }
}

/// Where a piece's design is turned on the page, in degrees clockwise: a
/// landscape slot holds a portrait design turned a quarter (and the reverse).
fn turn(c: &Copy, landscape: bool) -> u32 {
    let natural_landscape = c.w > c.h + 1e-9;
    if natural_landscape == landscape || same(c.w, c.h) {
        0
    } else {
        90
    }
}

/// The turn of a back so that it lands behind its front, upright with it
/// when the piece is turned over sideways: flipping on the long edge
/// (or folding) mirrors left and right, on the short edge top and bottom.
fn back_turn(front: u32, mirror_x: bool) -> u32 {
    if mirror_x {
        (360 - front) % 360
    } else {
        (540 - front) % 360
    }
}

/// The front page (and its back page, or one gutterfold page) of stacked blocks.
fn page_of(
    mut blocks: Vec<Block>,
    area: Rect,
    paper: &Paper,
    opts: &KitOptions,
    pieces: &PiecesPlan,
    gutter: bool,
) -> Vec<Page> {
    let s = &opts.settings;
    // Stack the blocks, the whole stack centred in the area.
    let total: f64 = blocks.iter().map(|b| b.extent(s)).sum::<f64>() + BLOCK_GAP * (blocks.len() - 1) as f64;
    let mut cursor = area.y + ((area.h - total) / 2.0).max(0.0);
    let full = printable(paper, s);
    let mut zones = Vec::new();
    for b in &mut blocks {
        let ext = b.extent(s);
        let g = &mut b.grid;
        let grid_w = g.pitch_x * (g.cols - 1) as f64 + g.w;
        g.x0 = area.x + (area.w - grid_w) / 2.0;
        g.y0 = cursor + s.min_mark + g.outer_bleed_y;
        zones.push((cursor, cursor + ext));
        cursor += ext + BLOCK_GAP;
    }
    // Marks: vertical cuts in each block's own strip (the outer blocks reach the
    // paper's printable edge), horizontal cuts out to the printable sides.
    let n = blocks.len();
    let mut marks = Vec::new();
    for (k, b) in blocks.iter().enumerate() {
        let top = if k == 0 { full.y } else { zones[k].0 - BLOCK_GAP / 2.0 };
        let bottom = if k + 1 == n {
            full.y + full.h
        } else {
            zones[k].1 + BLOCK_GAP / 2.0
        };
        let strip = Rect {
            x: full.x,
            y: top,
            w: if gutter { area.w } else { full.w },
            h: bottom - top,
        };
        marks.extend(b.grid.marks(strip));
    }
    // The separating cuts between blocks, marked in both side margins.
    for k in 1..n {
        let y = zones[k].0 - BLOCK_GAP / 2.0;
        let left = blocks[k - 1..=k]
            .iter()
            .map(|b| b.grid.x0 - b.grid.outer_bleed_x)
            .fold(f64::INFINITY, f64::min);
        let right = blocks[k - 1..=k]
            .iter()
            .map(|b| b.grid.x0 + b.grid.pitch_x * (b.grid.cols - 1) as f64 + b.grid.w + b.grid.outer_bleed_x)
            .fold(f64::NEG_INFINITY, f64::max);
        marks.push(Line {
            x1: full.x,
            y1: y,
            x2: left,
            y2: y,
        });
        if !gutter {
            marks.push(Line {
                x1: right,
                y1: y,
                x2: full.x + full.w,
                y2: y,
            });
        }
    }
    marks.retain(|l| (l.x2 - l.x1).abs() + (l.y2 - l.y1).abs() > 1e-6);
    let item = |c: &Copy, face: &'static str, slot: Slot, rotate: u32| {
        let (chunk, piece) = pieces.locate(&c.kind.id, &c.c.id, face, None);
        Item {
            kind: c.kind.id.clone(),
            id: c.c.id.clone(),
            copy: c.copy,
            face,
            file: chunk_path(chunk),
            piece,
            rotate,
            slot,
        }
    };
    let mut fronts = Vec::new();
    let mut backs = Vec::new();
    let backs_needed = blocks.iter().any(|b| has_backs(b.copies[0].kind));
    let fold = gutter.then(|| gutterfold_areas(paper, s).1);
    for b in &blocks {
        let slots = b.grid.slots(b.copies.len());
        for (c, slot) in b.copies.iter().zip(slots) {
            let r = turn(c, b.landscape);
            fronts.push(item(c, "front", slot, r));
            if has_backs(c.kind) {
                let (back, mirror_x) = match fold {
                    Some(f) => (fold_mirror(&slot, f), true),
                    None => (
                        mirror(&slot, paper, opts.duplex),
                        opts.duplex == super::impose::Duplex::Long,
                    ),
                };
                backs.push(item(c, "back", back, back_turn(r, mirror_x)));
            }
        }
    }
    let kind = blocks[0].copies[0].kind.id.clone();
    if let Some(fold) = fold {
        let mut all = fronts;
        all.extend(backs);
        let mut both = marks.clone();
        both.extend(marks.iter().map(|m| Line {
            x1: 2.0 * fold - m.x1,
            x2: 2.0 * fold - m.x2,
            ..*m
        }));
        return vec![Page {
            side: "gutterfold",
            kind,
            items: all,
            marks: both,
            fold: Some(fold),
            tile: None,
        }];
    }
    let mut out = vec![Page {
        side: "front",
        kind: kind.clone(),
        items: fronts,
        marks: marks.clone(),
        fold: None,
        tile: None,
    }];
    if backs_needed {
        out.push(Page {
            side: "back",
            kind,
            items: backs,
            marks: marks.iter().map(|m| mirror_line(m, paper, opts.duplex)).collect(),
            fold: None,
            tile: None,
        });
    }
    out
}
