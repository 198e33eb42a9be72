//! Sheet geometry: how many pieces fit a page, where each goes, its bleed,
//! crop marks, duplex mirroring, gutterfold and board tiling. All lengths
//! in millimetres, origin at the top-left corner of the paper.

use serde::Serialize;

/// A paper size.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Paper {
    pub name: &'static str,
    pub width: f64,
    pub height: f64,
}

pub const A4: Paper = Paper {
    name: "a4",
    width: 210.0,
    height: 297.0,
};

pub const LETTER: Paper = Paper {
    name: "letter",
    width: 215.9,
    height: 279.4,
};

/// How pages are arranged for double-sided printing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Duplex {
    /// Flip on the long edge: backs mirror left-right.
    Long,
    /// Flip on the short edge: backs mirror top-bottom.
    Short,
}

/// Printer and cutting settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Unprintable border of the printer: nothing is drawn there.
    pub margin: f64,
    /// Bleed around each piece (art extends past the cut line).
    pub bleed: f64,
    /// Shortest crop mark worth drawing.
    pub min_mark: f64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            margin: 5.0,
            bleed: 3.0,
            min_mark: 1.5,
        }
    }
}

/// How pieces sit on the sheet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Pieces apart, each with full bleed on every side.
    Spaced,
    /// Pieces touching: shared cut lines, bleed only on the outer edges.
    Abutting,
}

/// A chosen grid for one piece size on one page area.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Grid {
    pub mode: Mode,
    pub cols: usize,
    pub rows: usize,
    /// Distance between the left edges (top edges) of neighbouring pieces.
    pub pitch_x: f64,
    pub pitch_y: f64,
    /// Top-left corner of the first piece's trim box.
    pub x0: f64,
    pub y0: f64,
    /// Bleed drawn past the outer cut lines (may be less than asked for when room is short).
    pub outer_bleed_x: f64,
    pub outer_bleed_y: f64,
    /// Bleed between pieces (0 when abutting).
    pub inner_bleed: f64,
    pub w: f64,
    pub h: f64,
}

impl Grid {
    pub fn capacity(&self) -> usize {
        self.cols * self.rows
    }

    /// The same grid cut down to `cols`×`rows`, centred again in `area`.
    pub fn limited(self, cols: usize, rows: usize, area: Rect) -> Grid {
        let grid_w = self.pitch_x * (cols - 1) as f64 + self.w;
        let grid_h = self.pitch_y * (rows - 1) as f64 + self.h;
        Grid {
            cols,
            rows,
            x0: area.x + (area.w - grid_w) / 2.0,
            y0: area.y + (area.h - grid_h) / 2.0,
            ..self
        }
    }
}

/// A rectangle: the printable area, or a region of the page.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

/// Fits as many `w`×`h` pieces as possible into `area`.
///
/// The largest grid is the abutting one. When the same grid also fits with
/// gaps and full bleed around every piece, it is spaced; otherwise pieces
/// abut, sharing cut lines, with bleed only on the outer edges.
/// Returns `None` when not even one piece fits.
pub fn choose_grid(area: Rect, w: f64, h: f64, s: &Settings) -> Option<Grid> {
    let abutting = fit(area, w, h, s, Mode::Abutting)?;
    match fit(area, w, h, s, Mode::Spaced) {
        Some(spaced) if spaced.cols >= abutting.cols && spaced.rows >= abutting.rows => {
            Some(spaced.limited(abutting.cols, abutting.rows, area))
        }
        _ => Some(abutting),
    }
}

/// Pieces along one axis: (count, outer bleed) or none.
fn fit_axis(avail: f64, size: f64, s: &Settings, mode: Mode) -> Option<(usize, f64)> {
    let eps = 1e-9;
    match mode {
        Mode::Spaced => {
            // Each piece takes size + 2·bleed; marks need min_mark on both outer sides.
            let pitch = size + 2.0 * s.bleed;
            let n = ((avail - 2.0 * s.min_mark + eps) / pitch).floor();
            (n >= 1.0).then_some((n as usize, s.bleed))
        }
        Mode::Abutting => {
            // Pieces touch; outer bleed shrinks (down to 0) to leave room for marks.
            let n = ((avail - 2.0 * s.min_mark + eps) / size).floor();
            if n < 1.0 {
                return None;
            }
            let slack = (avail - n * size) / 2.0;
            Some((n as usize, (slack - s.min_mark).clamp(0.0, s.bleed)))
        }
    }
}

fn fit(area: Rect, w: f64, h: f64, s: &Settings, mode: Mode) -> Option<Grid> {
    let (cols, bx) = fit_axis(area.w, w, s, mode)?;
    let (rows, by) = fit_axis(area.h, h, s, mode)?;
    let (pitch_x, pitch_y, inner) = match mode {
        Mode::Spaced => (w + 2.0 * s.bleed, h + 2.0 * s.bleed, s.bleed),
        Mode::Abutting => (w, h, 0.0),
    };
    // Centre the trim boxes of the grid in the area.
    let grid_w = pitch_x * (cols - 1) as f64 + w;
    let grid_h = pitch_y * (rows - 1) as f64 + h;
    Some(Grid {
        mode,
        cols,
        rows,
        pitch_x,
        pitch_y,
        x0: area.x + (area.w - grid_w) / 2.0,
        y0: area.y + (area.h - grid_h) / 2.0,
        outer_bleed_x: bx,
        outer_bleed_y: by,
        inner_bleed: inner,
        w,
        h,
    })
}

/// One piece on a page: trim box and bleed on each side (left, top, right, bottom).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Slot {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
    pub bleed: [f64; 4],
}

/// A hairline, from (x1, y1) to (x2, y2).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Line {
    pub x1: f64,
    pub y1: f64,
    pub x2: f64,
    pub y2: f64,
}

impl Grid {
    /// The slot of the piece at (col, row).
    pub fn slot(&self, col: usize, row: usize) -> Slot {
        let x = self.x0 + col as f64 * self.pitch_x;
        let y = self.y0 + row as f64 * self.pitch_y;
        let side = |first: bool, last: bool, outer: f64| {
            let left = if first { outer } else { self.inner_bleed };
            let right = if last { outer } else { self.inner_bleed };
            (left, right)
        };
        let (l, r) = side(col == 0, col + 1 == self.cols, self.outer_bleed_x);
        let (t, b) = side(row == 0, row + 1 == self.rows, self.outer_bleed_y);
        Slot {
            x,
            y,
            w: self.w,
            h: self.h,
            bleed: [l, t, r, b],
        }
    }

    /// Slots in reading order, the first `n` of the grid.
    pub fn slots(&self, n: usize) -> Vec<Slot> {
        (0..n.min(self.capacity()))
            .map(|i| self.slot(i % self.cols, i / self.cols))
            .collect()
    }

    /// Crop marks: for every cut line, a hairline in the strip between the
    /// outer bleed and the printable edge, on both ends. Never over a piece.
    pub fn marks(&self, printable: Rect) -> Vec<Line> {
        let mut cuts_x = Vec::new();
        let mut cuts_y = Vec::new();
        for c in 0..self.cols {
            let x = self.x0 + c as f64 * self.pitch_x;
            cuts_x.push(x);
            cuts_x.push(x + self.w);
        }
        for r in 0..self.rows {
            let y = self.y0 + r as f64 * self.pitch_y;
            cuts_y.push(y);
            cuts_y.push(y + self.h);
        }
        dedup(&mut cuts_x);
        dedup(&mut cuts_y);
        let top = self.y0 - self.outer_bleed_y;
        let bottom = self.y0 + self.pitch_y * (self.rows - 1) as f64 + self.h + self.outer_bleed_y;
        let left = self.x0 - self.outer_bleed_x;
        let right = self.x0 + self.pitch_x * (self.cols - 1) as f64 + self.w + self.outer_bleed_x;
        let mut out = Vec::new();
        for &x in &cuts_x {
            out.push(Line {
                x1: x,
                y1: printable.y,
                x2: x,
                y2: top,
            });
            out.push(Line {
                x1: x,
                y1: bottom,
                x2: x,
                y2: printable.y + printable.h,
            });
        }
        for &y in &cuts_y {
            out.push(Line {
                x1: printable.x,
                y1: y,
                x2: left,
                y2: y,
            });
            out.push(Line {
                x1: right,
                y1: y,
                x2: printable.x + printable.w,
                y2: y,
            });
        }
        out.retain(|l| (l.x2 - l.x1).abs() + (l.y2 - l.y1).abs() > 1e-6);
        out
    }
}

fn dedup(v: &mut Vec<f64>) {
    v.sort_by(f64::total_cmp);
    v.dedup_by(|a, b| (*a - *b).abs() < 1e-6);
}

/// The printable area of a paper.
pub fn printable(paper: &Paper, s: &Settings) -> Rect {
    Rect {
        x: s.margin,
        y: s.margin,
        w: paper.width - 2.0 * s.margin,
        h: paper.height - 2.0 * s.margin,
    }
}

/// Where the back of a slot goes so that it lands behind its front after
/// the sheet is turned over.
pub fn mirror(slot: &Slot, paper: &Paper, duplex: Duplex) -> Slot {
    let [l, t, r, b] = slot.bleed;
    match duplex {
        Duplex::Long => Slot {
            x: paper.width - slot.x - slot.w,
            bleed: [r, t, l, b],
            ..*slot
        },
        Duplex::Short => Slot {
            y: paper.height - slot.y - slot.h,
            bleed: [l, b, r, t],
            ..*slot
        },
    }
}

/// Mirrors a line the same way as [`mirror`].
pub fn mirror_line(l: &Line, paper: &Paper, duplex: Duplex) -> Line {
    match duplex {
        Duplex::Long => Line {
            x1: paper.width - l.x1,
            x2: paper.width - l.x2,
            ..*l
        },
        Duplex::Short => Line {
            y1: paper.height - l.y1,
            y2: paper.height - l.y2,
            ..*l
        },
    }
}

/// Gutterfold: the left half holds fronts, the right half their backs,
/// mirrored about the vertical fold line in the middle.
pub fn gutterfold_areas(paper: &Paper, s: &Settings) -> (Rect, f64) {
    let p = printable(paper, s);
    let fold = paper.width / 2.0;
    // Keep a bleed-wide strip free on each side of the fold.
    let left = Rect {
        x: p.x,
        y: p.y,
        w: fold - p.x - s.bleed,
        h: p.h,
    };
    (left, fold)
}

/// Mirror of a slot about the vertical line x = fold.
pub fn fold_mirror(slot: &Slot, fold: f64) -> Slot {
    let [l, t, r, b] = slot.bleed;
    Slot {
        x: 2.0 * fold - slot.x - slot.w,
        bleed: [r, t, l, b],
        ..*slot
    }
}

/// One page of a board too large for the paper.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Tile {
    pub col: usize,
    pub row: usize,
    /// The part of the board shown: board coordinates in mm.
    pub src: Rect,
    /// Where that part sits on the page.
    pub dst: Rect,
}

/// Splits a `w`×`h` board into page tiles that overlap by `overlap` mm so
/// neighbouring pages can be aligned and glued.
pub fn tiles(w: f64, h: f64, paper: &Paper, s: &Settings, overlap: f64) -> Vec<Tile> {
    let p = printable(paper, s);
    // Room for alignment marks around each tile.
    let inset = 4.0;
    let tw = p.w - 2.0 * inset;
    let th = p.h - 2.0 * inset;
    let count = |total: f64, tile: f64| -> usize {
        if total <= tile {
            1
        } else {
            ((total - overlap) / (tile - overlap)).ceil() as usize
        }
    };
    let (cols, rows) = (count(w, tw), count(h, th));
    let mut out = Vec::new();
    for row in 0..rows {
        for col in 0..cols {
            let sx = (col as f64 * (tw - overlap)).min((w - tw).max(0.0));
            let sy = (row as f64 * (th - overlap)).min((h - th).max(0.0));
            let sw = tw.min(w);
            let sh = th.min(h);
            out.push(Tile {
                col,
                row,
                src: Rect {
                    x: sx,
                    y: sy,
                    w: sw,
                    h: sh,
                },
                dst: Rect {
                    x: p.x + inset + (tw - sw) / 2.0,
                    y: p.y + inset + (th - sh) / 2.0,
                    w: sw,
                    h: sh,
                },
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const POKER: (f64, f64) = (63.0, 88.0);

    #[test]
    fn poker_on_a4_and_letter_is_three_by_three_abutting() {
        let s = Settings::default();
        for paper in [A4, LETTER] {
            let g = choose_grid(printable(&paper, &s), POKER.0, POKER.1, &s).unwrap();
            assert_eq!((g.cols, g.rows), (3, 3), "{}", paper.name);
            assert_eq!(g.mode, Mode::Abutting, "{}", paper.name);
        }
        // Spaced (full bleed all round) would fit only 2 columns on Letter.
        let spaced = fit(printable(&LETTER, &s), POKER.0, POKER.1, &s, Mode::Spaced).unwrap();
        assert_eq!(spaced.cols, 2);
    }

    #[test]
    fn with_room_pieces_get_gaps_and_full_bleed() {
        let s = Settings::default();
        // Two 100×135 sheets on A4: the largest grid (1×2) also fits spaced.
        let g = choose_grid(printable(&A4, &s), 100.0, 135.0, &s).unwrap();
        assert_eq!((g.cols, g.rows, g.mode), (1, 2, Mode::Spaced));
        assert_eq!(g.pitch_y, 141.0);
        assert_eq!(g.slot(0, 1).bleed, [3.0; 4]);
        // Small tokens: the largest grid only fits abutting.
        let t = choose_grid(printable(&A4, &s), 25.0, 25.0, &s).unwrap();
        assert_eq!((t.cols, t.rows, t.mode), (7, 11, Mode::Abutting));
    }

    #[test]
    fn everything_stays_inside_the_printable_area() {
        let s = Settings::default();
        for paper in [A4, LETTER] {
            let p = printable(&paper, &s);
            for (w, h) in [(63.0, 88.0), (25.0, 25.0), (88.0, 126.0), (148.0, 210.0), (63.0, 63.0)] {
                let g = choose_grid(p, w, h, &s).unwrap();
                for slot in g.slots(g.capacity()) {
                    let [l, t, r, b] = slot.bleed;
                    assert!(slot.x - l >= p.x - 1e-9 && slot.y - t >= p.y - 1e-9);
                    assert!(slot.x + slot.w + r <= p.x + p.w + 1e-9);
                    assert!(slot.y + slot.h + b <= p.y + p.h + 1e-9);
                }
                for m in g.marks(p) {
                    for (x, y) in [(m.x1, m.y1), (m.x2, m.y2)] {
                        assert!(x >= p.x - 1e-9 && x <= p.x + p.w + 1e-9 && y >= p.y - 1e-9 && y <= p.y + p.h + 1e-9);
                    }
                    // Outside every bleed box.
                    for slot in g.slots(g.capacity()) {
                        let [l, t, r, b] = slot.bleed;
                        let inside = |x: f64, y: f64| {
                            x > slot.x - l + 1e-9
                                && x < slot.x + slot.w + r - 1e-9
                                && y > slot.y - t + 1e-9
                                && y < slot.y + slot.h + b - 1e-9
                        };
                        let mid = ((m.x1 + m.x2) / 2.0, (m.y1 + m.y2) / 2.0);
                        assert!(!inside(mid.0, mid.1), "mark over a piece: {m:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn backs_mirror_onto_their_fronts() {
        let s = Settings::default();
        let g = choose_grid(printable(&A4, &s), 63.0, 88.0, &s).unwrap();
        let front = g.slot(0, 0);
        let back = mirror(&front, &A4, Duplex::Long);
        assert!((back.x - (210.0 - front.x - 63.0)).abs() < 1e-9);
        assert_eq!(back.y, front.y);
        let back = mirror(&front, &A4, Duplex::Short);
        assert!((back.y - (297.0 - front.y - 88.0)).abs() < 1e-9);
    }

    #[test]
    fn boards_tile_with_overlap() {
        let s = Settings::default();
        let t = tiles(600.0, 450.0, &A4, &s, 10.0);
        assert!(t.len() > 1);
        let first = t[0].src;
        let second = t[1].src;
        assert!(second.x < first.x + first.w - 9.9, "tiles overlap");
        let last = t.last().unwrap().src;
        assert!((last.x + last.w - 600.0).abs() < 1e-9 && (last.y + last.h - 450.0).abs() < 1e-9);
    }
}
