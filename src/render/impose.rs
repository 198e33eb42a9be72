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

/// How neighbouring pieces are cut apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Cuts {
    /// Each piece is cut on its own lines, with a gap between neighbours
    /// that holds each one's own bleed: a cut a little off the line shows
    /// more of the piece's own colour, never a stripe of its neighbour.
    /// Fewer pieces fit a page.
    Separate,
    /// Neighbours touch and share one cut line (most pieces per page; a cut
    /// off the line shows a sliver of the neighbour where colours differ).
    Shared,
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
    /// Least bleed past an outer cut when room is short (never more than `bleed`).
    pub min_bleed: f64,
    pub cuts: Cuts,
}

/// The common unprintable border of home printers: a quarter inch.
pub const QUARTER_INCH: f64 = 6.35;

/// The narrowest gap between separately cut neighbours: each keeps 1 mm of
/// its own bleed past its cut, twice a careful hand's error.
pub const MIN_GAP: f64 = 2.0;

impl Default for Settings {
    fn default() -> Self {
        Settings {
            margin: QUARTER_INCH,
            bleed: 3.0,
            min_mark: 1.5,
            min_bleed: 2.0,
            cuts: Cuts::Separate,
        }
    }
}

/// A chosen grid for one piece size on one page area.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Grid {
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
    /// Bleed between neighbours across and down: half the gap (0 at shared cuts).
    pub inner_bleed_x: f64,
    pub inner_bleed_y: f64,
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

    /// Whether neighbours share cut lines across (`x`) or down.
    pub fn shared_cuts(&self) -> (bool, bool) {
        (
            self.cols > 1 && self.inner_bleed_x == 0.0,
            self.rows > 1 && self.inner_bleed_y == 0.0,
        )
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

/// Fits as many `w`×`h` pieces as possible into `area`: along each axis the
/// most pieces for which every outer edge keeps at least `min_bleed` of bleed,
/// every cut line a crop mark of at least `min_mark`, and separately cut
/// neighbours (`Cuts::Separate`) a gap of at least [`MIN_GAP`]. Room left over
/// goes first to the outer bleed (up to `bleed`), then to the gaps (up to
/// twice the bleed: full bleed on every side), then to the marks.
/// Returns `None` when not even one piece fits.
pub fn choose_grid(area: Rect, w: f64, h: f64, s: &Settings) -> Option<Grid> {
    let (cols, gx, bx) = fit_axis(area.w, w, s)?;
    let (rows, gy, by) = fit_axis(area.h, h, s)?;
    let (pitch_x, pitch_y) = (w + gx, h + gy);
    // Centre the trim boxes of the grid in the area.
    let grid_w = pitch_x * (cols - 1) as f64 + w;
    let grid_h = pitch_y * (rows - 1) as f64 + h;
    Some(Grid {
        cols,
        rows,
        pitch_x,
        pitch_y,
        x0: area.x + (area.w - grid_w) / 2.0,
        y0: area.y + (area.h - grid_h) / 2.0,
        outer_bleed_x: bx,
        outer_bleed_y: by,
        inner_bleed_x: gx / 2.0,
        inner_bleed_y: gy / 2.0,
        w,
        h,
    })
}

/// Pieces along one axis: (count, gap between neighbours, outer bleed) or none.
fn fit_axis(avail: f64, size: f64, s: &Settings) -> Option<(usize, f64, f64)> {
    let eps = 1e-9;
    let bleed = s.bleed.max(0.0);
    let b_min = s.min_bleed.min(bleed);
    let g_min = match s.cuts {
        Cuts::Separate => MIN_GAP.min(2.0 * bleed),
        Cuts::Shared => 0.0,
    };
    // n·size + (n − 1)·gap + 2·(bleed + mark) ≤ avail
    let n = ((avail - 2.0 * (b_min + s.min_mark) + g_min + eps) / (size + g_min)).floor();
    if n < 1.0 {
        // One piece that fits only with less bleed (a sheet as tall as the
        // paper allows) keeps what bleed there is rather than being tiled.
        let room = (avail - size) / 2.0 - s.min_mark;
        return (room >= -eps).then(|| (1, 0.0, room.clamp(0.0, bleed)));
    }
    let mut slack = avail - n * size - (n - 1.0) * g_min - 2.0 * (b_min + s.min_mark);
    let b = b_min + (bleed - b_min).min(slack / 2.0).max(0.0);
    slack -= 2.0 * (b - b_min);
    let g = if n > 1.0 && s.cuts == Cuts::Separate {
        g_min + (2.0 * bleed - g_min).min(slack / (n - 1.0)).max(0.0)
    } else {
        0.0
    };
    Some((n as usize, g, b))
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
        let side = |first: bool, last: bool, outer: f64, inner: f64| {
            let left = if first { outer } else { inner };
            let right = if last { outer } else { inner };
            (left, right)
        };
        let (l, r) = side(col == 0, col + 1 == self.cols, self.outer_bleed_x, self.inner_bleed_x);
        let (t, b) = side(row == 0, row + 1 == self.rows, self.outer_bleed_y, self.inner_bleed_y);
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

/// The glue band a tile shares with the next tile to its right and below.
pub const TILE_OVERLAP: f64 = 10.0;
/// Room around a tile for its edge marks (top, left, right and bottom).
pub const TILE_MARKS: f64 = 2.5;
/// Room under the bottom edge marks for the tile's label and assembly map
/// (one line of 6 pt): small, so that a board as tall as Letter allows
/// (258 mm inside a quarter-inch margin) still takes one row of sheets.
pub const TILE_LABEL: f64 = 2.5;

/// A tile's name: its row as a letter and its column as a number (`A1`,
/// `A2` … `B1`), read like a page of text.
pub fn tile_label(row: usize, col: usize) -> String {
    let mut letters = String::new();
    let mut n = row + 1;
    while n > 0 {
        let d = (n - 1) % 26;
        letters.insert(0, (b'A' + d as u8) as char);
        n = (n - 1) / 26;
    }
    format!("{letters}{}", col + 1)
}

/// Splits a `w`×`h` board into page tiles of one size that overlap their
/// neighbours by exactly `overlap` mm, so that laying each tile's left (top)
/// edge on the dashed line of the tile before it rebuilds the board: `n`
/// tiles of width `t` across cover `n·t − (n−1)·overlap = w`.
pub fn tiles(w: f64, h: f64, paper: &Paper, s: &Settings, overlap: f64) -> Vec<Tile> {
    let p = printable(paper, s);
    // The largest tile a page holds, with room for the marks and the label.
    let tw = p.w - 2.0 * TILE_MARKS;
    let th = p.h - 2.0 * TILE_MARKS - TILE_LABEL;
    // Tiles along one axis, and the size of each.
    let split = |total: f64, room: f64| -> (usize, f64) {
        if total <= room + 1e-9 {
            return (1, total);
        }
        let n = ((total - overlap) / (room - overlap) - 1e-9).ceil().max(2.0) as usize;
        (n, (total + (n - 1) as f64 * overlap) / n as f64)
    };
    let (cols, sw) = split(w, tw);
    let (rows, sh) = split(h, th);
    let mut out = Vec::new();
    for row in 0..rows {
        for col in 0..cols {
            out.push(Tile {
                col,
                row,
                src: Rect {
                    x: col as f64 * (sw - overlap),
                    y: row as f64 * (sh - overlap),
                    w: sw,
                    h: sh,
                },
                dst: Rect {
                    x: p.x + TILE_MARKS + (tw - sw) / 2.0,
                    y: p.y + TILE_MARKS + (th - sh) / 2.0,
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

    /// The most pieces of `w`×`h` on a page, in the better orientation.
    fn per_page(paper: &Paper, s: &Settings, w: f64, h: f64) -> usize {
        let p = printable(paper, s);
        let a = choose_grid(p, w, h, s).map_or(0, |g| g.capacity());
        let b = choose_grid(p, h, w, s).map_or(0, |g| g.capacity());
        a.max(b)
    }

    #[test]
    fn pieces_per_page_follow_from_a_quarter_inch_printer_margin() {
        let s = Settings::default();
        assert_eq!(s.margin, QUARTER_INCH);
        for paper in [A4, LETTER] {
            // Cut apart: 2 × 4 poker cards (turned), 7 × 10 round tokens.
            assert_eq!(per_page(&paper, &s, 63.0, 88.0), 8, "{}", paper.name);
            let p = printable(&paper, &s);
            let g = choose_grid(p, 88.0, 63.0, &s).unwrap();
            assert_eq!((g.cols, g.rows), (2, 4), "{}", paper.name);
            assert!(g.inner_bleed_x >= MIN_GAP / 2.0 && g.inner_bleed_y >= MIN_GAP / 2.0);
            assert!(g.outer_bleed_x >= s.min_bleed && g.outer_bleed_y >= s.min_bleed);
        }
        assert_eq!(per_page(&A4, &s, 25.0, 25.0), 70);
        // Shared cuts fit 3 × 3 poker cards on A4 (2.65 mm of outer bleed
        // across), but on Letter three rows of 88 mm leave 2.7 mm for the
        // bleed and marks of both edges: 2 × 4 turned.
        let shared = Settings {
            cuts: Cuts::Shared,
            ..s
        };
        assert_eq!(per_page(&A4, &shared, 63.0, 88.0), 9);
        assert_eq!(per_page(&LETTER, &shared, 63.0, 88.0), 8);
        assert_eq!(per_page(&A4, &shared, 25.0, 25.0), 77);
        // `--margin 5` keeps its meaning: a printer that prints 5 mm from the
        // edge fits 3 × 3 poker cards cut apart on A4, with 2 mm gaps.
        let five = Settings { margin: 5.0, ..s };
        assert_eq!(per_page(&A4, &five, 63.0, 88.0), 9);
        let g = choose_grid(printable(&A4, &five), 63.0, 88.0, &five).unwrap();
        assert!((g.pitch_x - 65.0).abs() < 1e-6 && g.outer_bleed_x >= 2.0 - 1e-9);
    }

    #[test]
    fn with_room_neighbours_get_a_gap_with_full_bleed() {
        let s = Settings::default();
        // Two 100×130 sheets on A4: full bleed all round and a 6 mm gap.
        let g = choose_grid(printable(&A4, &s), 100.0, 130.0, &s).unwrap();
        assert_eq!((g.cols, g.rows), (1, 2));
        assert!((g.pitch_y - 136.0).abs() < 1e-9);
        assert_eq!(g.slot(0, 1).bleed, [3.0; 4]);
        assert_eq!(g.shared_cuts(), (false, false));
        // Shared cuts only when asked for.
        let t = choose_grid(
            printable(&A4, &s),
            25.0,
            25.0,
            &Settings {
                cuts: Cuts::Shared,
                ..s
            },
        )
        .unwrap();
        assert_eq!((t.cols, t.rows), (7, 11));
        assert_eq!(t.shared_cuts(), (true, true));
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
    fn board_tiles_overlap_exactly_and_cover_the_board() {
        let s = Settings::default();
        for paper in [A4, LETTER] {
            for (w, h) in [
                (600.0, 450.0),
                (356.0, 256.0),
                (594.0, 420.0),
                (552.0, 494.0),
                (150.0, 100.0),
            ] {
                let t = tiles(w, h, &paper, &s, TILE_OVERLAP);
                let p = printable(&paper, &s);
                let cols = t.iter().map(|t| t.col).max().unwrap() + 1;
                let rows = t.iter().map(|t| t.row).max().unwrap() + 1;
                assert_eq!(t.len(), cols * rows);
                for tile in &t {
                    // Neighbours share exactly the marked band.
                    if let Some(right) = t.iter().find(|o| o.row == tile.row && o.col == tile.col + 1) {
                        let shared = tile.src.x + tile.src.w - right.src.x;
                        assert!((shared - TILE_OVERLAP).abs() < 1e-9, "{w}x{h} {}: {shared}", paper.name);
                    }
                    if let Some(below) = t.iter().find(|o| o.col == tile.col && o.row == tile.row + 1) {
                        let shared = tile.src.y + tile.src.h - below.src.y;
                        assert!((shared - TILE_OVERLAP).abs() < 1e-9, "{w}x{h} {}: {shared}", paper.name);
                    }
                    // The tile, its marks and its label fit the printable area.
                    assert!(tile.dst.x - TILE_MARKS >= p.x - 1e-9 && tile.dst.y - TILE_MARKS >= p.y - 1e-9);
                    assert!(tile.dst.x + tile.dst.w + TILE_MARKS <= p.x + p.w + 1e-9);
                    assert!(tile.dst.y + tile.dst.h + TILE_MARKS + TILE_LABEL <= p.y + p.h + 1e-9);
                }
                let last = t.last().unwrap().src;
                assert!((last.x + last.w - w).abs() < 1e-9 && (last.y + last.h - h).abs() < 1e-9);
                assert_eq!((t[0].src.x, t[0].src.y), (0.0, 0.0));
            }
        }
    }

    #[test]
    fn tiles_are_named_by_row_letter_and_column_number() {
        assert_eq!(tile_label(0, 0), "A1");
        assert_eq!(tile_label(0, 3), "A4");
        assert_eq!(tile_label(1, 1), "B2");
        assert_eq!(tile_label(26, 0), "AA1");
    }
}
