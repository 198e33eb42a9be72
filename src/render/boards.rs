//! Board pages: a board (or a piece larger than the paper) tiled over as
//! many pages as it needs. Tiles are one size and overlap their neighbours
//! by exactly the marked band ([`impose::tiles`]); each page names its tile
//! (`A1`, `A2` … `B1`), the tiles it is laid on, and carries a small map of
//! the whole board with the tile picked out.

use serde_json::{Value, json};

use super::impose::{self, Paper, Settings, Slot, TILE_OVERLAP, tile_label};
use super::{Item, KitOptions, Page, PiecesPlan, chunk_path, variants};
use crate::model::{Component, Game, Kind, Shape};

/// Board pages: each board (once per variant) tiled over as many pages as it needs.
pub(super) fn board_pages(
    game: &Game,
    locale: &str,
    paper: Paper,
    opts: &KitOptions,
    pieces: &PiecesPlan,
) -> Vec<Page> {
    let mut pages = Vec::new();
    for kind in game.kinds.values().filter(|k| k.shape == Shape::Board) {
        let Some(size) = kind.size.as_ref().and_then(|s| game.sizes.get(s)) else {
            continue;
        };
        for c in game.components.get(&kind.id).into_iter().flatten() {
            for variant in variants(game, kind) {
                if !opts.prints_board(&game.id, locale, c, variant) {
                    continue;
                }
                let piece = pieces.locate(&kind.id, &c.id, "board", variant);
                let mut tiles = tiled_pages(
                    kind,
                    c,
                    locale,
                    "board",
                    piece,
                    size.width,
                    size.height,
                    paper,
                    &opts.settings,
                );
                if let Some(v) = variant {
                    let name = kind
                        .variants
                        .as_ref()
                        .and_then(|k| game.component(k, v))
                        .map(|vc| vc.name.get(locale).to_owned());
                    for t in &mut tiles {
                        if let Some(tile) = &mut t.tile {
                            tile["variant"] = json!({"kind": kind.variants, "id": v, "name": name});
                        }
                    }
                }
                pages.extend(tiles);
            }
        }
    }
    pages
}

/// The pages of one piece too large for one page, tiled with overlap.
#[allow(clippy::too_many_arguments)]
pub(super) fn tiled_pages(
    kind: &Kind,
    c: &Component,
    locale: &str,
    face: &'static str,
    (chunk, piece): (usize, usize),
    width: f64,
    height: f64,
    paper: Paper,
    s: &Settings,
) -> Vec<Page> {
    let tiles = impose::tiles(width, height, &paper, s, TILE_OVERLAP);
    let cols = tiles.iter().map(|t| t.col).max().unwrap_or(0) + 1;
    let rows = tiles.iter().map(|t| t.row).max().unwrap_or(0) + 1;
    tiles
        .iter()
        .map(|t| Page {
            side: "board",
            kind: kind.id.clone(),
            items: vec![Item {
                kind: kind.id.clone(),
                id: c.id.clone(),
                copy: 1,
                face,
                file: chunk_path(chunk),
                piece,
                rotate: 0,
                slot: Slot {
                    x: t.dst.x,
                    y: t.dst.y,
                    w: t.dst.w,
                    h: t.dst.h,
                    bleed: [0.0; 4],
                },
            }],
            marks: edge_marks(&t.dst),
            fold: None,
            tile: Some(json!({
                "col": t.col, "row": t.row, "cols": cols, "rows": rows,
                "label": tile_label(t.row, t.col),
                // The tiles this one is laid on: its left (top) edge goes on their dashed line.
                "left": (t.col > 0).then(|| tile_label(t.row, t.col - 1)),
                "above": (t.row > 0).then(|| tile_label(t.row - 1, t.col)),
                "src": t.src, "board": {"width": width, "height": height},
                "overlap": TILE_OVERLAP,
                "name": c.name.get(locale),
                // Pieces (not boards) carry a bleed in the pieces document.
                "bleed": if face == "board" { 0.0 } else { s.bleed },
                "variant": Value::Null,
            })),
        })
        .collect()
}

/// Cut marks of a tile: each edge continued into the margin at both of its
/// ends, stopping short of the tile so no mark touches the board.
fn edge_marks(r: &impose::Rect) -> Vec<impose::Line> {
    const GAP: f64 = 0.5;
    let mut out = Vec::new();
    for x in [r.x, r.x + r.w] {
        out.push(impose::Line {
            x1: x,
            y1: r.y - impose::TILE_MARKS,
            x2: x,
            y2: r.y - GAP,
        });
        out.push(impose::Line {
            x1: x,
            y1: r.y + r.h + GAP,
            x2: x,
            y2: r.y + r.h + impose::TILE_MARKS,
        });
    }
    for y in [r.y, r.y + r.h] {
        out.push(impose::Line {
            x1: r.x - impose::TILE_MARKS,
            y1: y,
            x2: r.x - GAP,
            y2: y,
        });
        out.push(impose::Line {
            x1: r.x + r.w + GAP,
            y1: y,
            x2: r.x + r.w + impose::TILE_MARKS,
            y2: y,
        });
    }
    out
}
