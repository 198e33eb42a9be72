//! Measuring the registration fixture's designs on the printed page: cut
//! lines read from the crop marks, each piece's trim hairline against them,
//! the bleed outside every edge, backs behind their fronts, board tiles and
//! the print-shop pieces file. Shared by the kit's raster tests and the
//! reprint pack's (tests/diff.rs).
#![allow(dead_code)]

use lopdf::{Document, Object};
use pnpkit::render::impose::Paper;
use pnpkit::render::pipeline::Built;
use serde_json::Value;

use super::raster::{Gray, PAPER, rasterise};

/// How far a trim line may lie from its cut line.
pub const TOLERANCE: f64 = 0.15;
/// Resolution of the registration measurements (0.085 mm per pixel; hairlines
/// are located to a fraction of that from their grey levels).
pub const FINE_DPI: f64 = 300.0;

/// What the measurements found, over every page looked at.
#[derive(Default)]
pub struct Findings {
    pub pages: usize,
    pub pieces: usize,
    /// Largest distance between a trim line and its cut line, and where.
    pub worst: f64,
    pub worst_at: String,
    /// Blank paper inside a trim edge.
    pub slivers: Vec<String>,
    /// An edge promised bleed that the page does not show.
    pub missing_bleed: Vec<String>,
    /// Anything else that is wrong (a piece or a trim line not found, backs that differ).
    pub other: Vec<String>,
    /// The largest trim-to-cut distance per file.
    pub worst_by_file: std::collections::BTreeMap<String, f64>,
}

impl Findings {
    pub fn error(&mut self, err: f64, at: impl FnOnce() -> String) {
        let at = at();
        // The file (before " p<page>") keeps its own worst distance for the report.
        let file = at.split(" p").next().unwrap_or("").to_owned();
        let w = self.worst_by_file.entry(file).or_insert(0.0);
        *w = w.max(err);
        if err > self.worst {
            self.worst = err;
            self.worst_at = at;
        }
    }

    pub fn summary(&self, what: &str) -> String {
        let list = |v: &[String]| {
            v.iter().take(8).map(|s| format!("\n    {s}")).collect::<String>()
                + &if v.len() > 8 {
                    format!("\n    … and {} more", v.len() - 8)
                } else {
                    String::new()
                }
        };
        format!(
            "{what}: {} pages, {} pieces; largest trim-to-cut distance {:.3} mm{}; {} slivers{}; {} edges missing bleed{}; {} other problems{}",
            self.pages,
            self.pieces,
            self.worst,
            if self.worst_at.is_empty() {
                String::new()
            } else {
                format!(" ({})", self.worst_at)
            },
            self.slivers.len(),
            list(&self.slivers),
            self.missing_bleed.len(),
            list(&self.missing_bleed),
            self.other.len(),
            list(&self.other),
        )
    }

    /// Every finding, one per line (written where `PNPKIT_RASTER_REPORT` names).
    pub fn dump(&self) {
        if let Some(path) = std::env::var_os("PNPKIT_RASTER_REPORT") {
            let all: Vec<&String> = self
                .slivers
                .iter()
                .chain(&self.missing_bleed)
                .chain(&self.other)
                .collect();
            let mut text: String = all.iter().map(|s| format!("{s}\n")).collect();
            for (file, w) in &self.worst_by_file {
                text.push_str(&format!("largest trim-to-cut distance {w:.3} mm in {file}\n"));
            }
            std::fs::write(path, text).unwrap();
        }
    }

    pub fn clean(&self) -> bool {
        self.worst <= TOLERANCE && self.slivers.is_empty() && self.missing_bleed.is_empty() && self.other.is_empty()
    }
}

// ------------------------------------------------------------------ cut lines

/// Horizontal cut lines read from the crop marks in the side margins (the
/// lines between rows of pieces, and the separating cuts between blocks).
pub fn horizontal_cuts(g: &Gray, margin: f64) -> Vec<f64> {
    let (w, h) = (g.width_mm(), g.height_mm());
    let mut ys: Vec<f64> = [margin + 0.5, w - margin - 0.5]
        .iter()
        .flat_map(|&x| g.dark_along_col(x, margin, h - margin, 128))
        .collect();
    merge(&mut ys);
    ys
}

/// The vertical cut lines that apply at height `y`: read from the nearest
/// row above it that holds nothing but crop marks (thin dark lines on paper)
/// — the strip of marks above the block of pieces `y` belongs to. A
/// gutterfold page's fold line is not a cut.
pub fn vertical_cuts_above(g: &Gray, y: f64, margin: f64, fold: Option<f64>) -> Vec<f64> {
    let w = g.width_mm();
    let step = 25.4 / g.dpi;
    let mut row = y - step;
    while row > margin {
        let (a, b) = (g.px_of(margin + 0.3) as usize, g.px_of(w - margin - 0.3) as usize);
        let py = g.px_of(row) as usize;
        // Runs of non-paper pixels: all thin (a hairline), at least one.
        let mut widths = Vec::new();
        let mut run = 0usize;
        for x in a..b {
            if g.at(x, py) < PAPER {
                run += 1;
            } else if run > 0 {
                widths.push(run);
                run = 0;
            }
        }
        if run > 0 {
            widths.push(run);
        }
        let thin = g.px_of(0.45).ceil() as usize;
        if !widths.is_empty() && widths.iter().all(|&n| n <= thin) {
            let mut xs: Vec<f64> = g
                .dark_along_row(row, margin, w - margin, 128)
                .into_iter()
                .filter(|x| fold.is_none_or(|f| (x - f).abs() > 1.0))
                .collect();
            merge(&mut xs);
            if !xs.is_empty() {
                return xs;
            }
        }
        row -= step;
    }
    Vec::new()
}

/// Cut lines of the whole page: the horizontal ones, and the vertical ones
/// above the first row (as read from the marks there).
pub fn cut_lines(g: &Gray, margin: f64, fold: Option<f64>) -> (Vec<f64>, Vec<f64>) {
    let ys = horizontal_cuts(g, margin);
    let xs = ys
        .first()
        .map(|y| vertical_cuts_above(g, *y, margin, fold))
        .unwrap_or_default();
    (xs, ys)
}

/// Sorts and merges values closer than 0.3 mm (the same line seen twice).
pub fn merge(v: &mut Vec<f64>) {
    v.sort_by(f64::total_cmp);
    let mut out: Vec<(f64, usize)> = Vec::new();
    for &x in v.iter() {
        match out.last_mut() {
            Some((m, n)) if (x - *m / *n as f64).abs() < 0.3 => {
                *m += x;
                *n += 1;
            }
            _ => out.push((x, 1)),
        }
    }
    *v = out.into_iter().map(|(m, n)| m / n as f64).collect();
}

// ------------------------------------------------------- the fixture's pieces

#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Ink {
    Paper,
    Bleed,
    Body,
    Line,
}

/// The fixture's colours in grey: magenta bleed (~105), cyan fronts (~179),
/// yellow backs (~226), black hairlines, white paper.
pub fn ink(v: u8) -> Ink {
    match v {
        0..=60 => Ink::Line,
        80..=140 => Ink::Bleed,
        150..=245 => Ink::Body,
        _ if v >= PAPER => Ink::Paper,
        _ => Ink::Line,
    }
}

/// A piece found on the page: its trim box (mm), bounded by cut lines.
#[derive(Clone, Copy, Debug)]
pub struct Cell {
    pub x0: f64,
    pub x1: f64,
    pub y0: f64,
    pub y1: f64,
}

/// The pieces on a page: for each band between consecutive horizontal cut
/// lines, the cells between the vertical cut lines of that band's block that
/// hold a design (body colour).
pub fn pieces_on(g: &Gray, ys: &[f64], margin: f64, fold: Option<f64>) -> Vec<Cell> {
    let mut out = Vec::new();
    for yy in ys.windows(2) {
        let xs = vertical_cuts_above(g, yy[0] + 0.2, margin, fold);
        for xx in xs.windows(2) {
            let c = Cell {
                x0: xx[0],
                x1: xx[1],
                y0: yy[0],
                y1: yy[1],
            };
            let probes = [(0.3, 0.3), (0.7, 0.3), (0.3, 0.7), (0.7, 0.7)];
            let body = probes
                .iter()
                .all(|(fx, fy)| ink(g.at_mm(c.x0 + fx * (c.x1 - c.x0), c.y0 + fy * (c.y1 - c.y0))) == Ink::Body);
            if body {
                out.push(c);
            }
        }
    }
    out
}

/// The planned slot that a found cell is: trim box within 0.5 mm.
pub fn slot_of<'a>(items: &'a [Value], c: &Cell) -> Option<&'a Value> {
    items.iter().find(|i| {
        let f = |k: &str| i[k].as_f64().unwrap_or(f64::NAN);
        (f("x") - c.x0).abs() < 0.5
            && (f("y") - c.y0).abs() < 0.5
            && (f("x") + f("w") - c.x1).abs() < 0.5
            && (f("y") + f("h") - c.y1).abs() < 0.5
    })
}

/// One edge of a cell: where its cut line is, and how to step across it.
pub struct Edge {
    pub name: &'static str,
    /// The cut line (x for left/right, y for top/bottom).
    pub cut: f64,
    /// +1 when outward is towards larger coordinates.
    pub out: f64,
    pub vertical: bool,
    /// Extent along the edge.
    pub from: f64,
    pub to: f64,
    /// Planned bleed on this side.
    pub bleed: f64,
}

pub fn edges(c: &Cell, bleed: [f64; 4]) -> [Edge; 4] {
    let [l, t, r, b] = bleed;
    [
        Edge {
            name: "left",
            cut: c.x0,
            out: -1.0,
            vertical: true,
            from: c.y0,
            to: c.y1,
            bleed: l,
        },
        Edge {
            name: "top",
            cut: c.y0,
            out: -1.0,
            vertical: false,
            from: c.x0,
            to: c.x1,
            bleed: t,
        },
        Edge {
            name: "right",
            cut: c.x1,
            out: 1.0,
            vertical: true,
            from: c.y0,
            to: c.y1,
            bleed: r,
        },
        Edge {
            name: "bottom",
            cut: c.y1,
            out: 1.0,
            vertical: false,
            from: c.x0,
            to: c.x1,
            bleed: b,
        },
    ]
}

/// Measures one fixture piece: its trim hairline against the cut lines, the
/// body inside each edge, and the bleed outside each edge that has one.
pub fn measure_piece(g: &Gray, c: &Cell, bleed: [f64; 4], at: &str, f: &mut Findings) {
    f.pieces += 1;
    for e in edges(c, bleed) {
        for t in [0.2, 0.5, 0.8] {
            // Midway between the 10 mm grid lines of boards and posters.
            let along = (e.from + (t * (e.to - e.from) / 10.0).floor() * 10.0 + 5.0).min(e.to - 1.0);
            let runs = if e.vertical {
                g.dark_along_row(along, e.cut - 4.0, e.cut + 4.0, 100)
            } else {
                g.dark_along_col(along, e.cut - 4.0, e.cut + 4.0, 100)
            };
            match runs.iter().map(|p| (p - e.cut).abs()).min_by(f64::total_cmp) {
                Some(err) => f.error(err, || format!("{at}, {} edge", e.name)),
                None => f
                    .other
                    .push(format!("{at}: no trim line within 4 mm of the {} cut", e.name)),
            }
        }
        // Just inside the trim: the design, never paper.
        let pt = |d: f64, a: f64| {
            if e.vertical {
                (e.cut + e.out * d, a)
            } else {
                (a, e.cut + e.out * d)
            }
        };
        let mut blank = 0;
        let mut short = 0;
        let n = 20;
        for k in 1..n {
            let a = e.from + (e.to - e.from) * k as f64 / n as f64;
            let (x, y) = pt(-0.6, a);
            if ink(g.at_mm(x, y)) == Ink::Paper {
                blank += 1;
            }
            // Outside: the bleed colour from the cut out to the promised bleed.
            if e.bleed >= 0.5 {
                let (x, y) = pt(e.bleed - 0.25, a);
                let (x2, y2) = pt(0.3, a);
                if ink(g.at_mm(x, y)) != Ink::Bleed || ink(g.at_mm(x2, y2)) != Ink::Bleed {
                    short += 1;
                }
            }
        }
        if blank > 0 {
            f.slivers
                .push(format!("{at}: blank paper inside the {} trim edge", e.name));
        }
        if short > 0 {
            f.missing_bleed
                .push(format!("{at}: {} edge promised {:.1} mm of bleed", e.name, e.bleed));
        }
    }
}

/// The corner of a fixture piece that holds its orientation square, as the
/// page shows it: 0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left.
pub fn marker_corner(g: &Gray, c: &Cell) -> Option<usize> {
    let spots = [
        (c.x0 + 5.5, c.y0 + 5.5),
        (c.x1 - 5.5, c.y0 + 5.5),
        (c.x1 - 5.5, c.y1 - 5.5),
        (c.x0 + 5.5, c.y1 - 5.5),
    ];
    let dark: Vec<usize> = (0..4).filter(|&k| g.at_mm(spots[k].0, spots[k].1) < 60).collect();
    (dark.len() == 1).then(|| dark[0])
}

pub fn bleed_of(item: &Value) -> [f64; 4] {
    let b: Vec<f64> = item["bleed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    [b[0], b[1], b[2], b[3]]
}

/// Measures every page of a sheet document of the fixture.
pub fn measure_sheets(b: &Built, paper: &Paper, margin: f64, f: &mut Findings) {
    let pages = b.plan.data["pages"].as_array().unwrap();
    let rasters = rasterise(&b.pdf, 1, pages.len(), FINE_DPI);
    // The cut lines of each front, to compare with its back, and its pieces
    // with the corner of their orientation square.
    let mut front_cuts: Option<(Vec<f64>, Vec<f64>)> = None;
    let mut front_pieces: Vec<(Cell, Option<usize>)> = Vec::new();
    for (n, (g, page)) in rasters.iter().zip(pages).enumerate() {
        f.pages += 1;
        let name = format!("{} p{}", b.plan.out.display(), n + 1);
        let side = page["side"].as_str().unwrap();
        if side == "board" {
            measure_tile(g, page, &name, f);
            continue;
        }
        let fold = page["fold"].as_f64();
        let (xs, ys) = cut_lines(g, margin, fold);
        let items = page["items"].as_array().unwrap();
        let cells = pieces_on(g, &ys, margin, fold);
        if cells.len() != items.len() {
            f.other.push(format!(
                "{name}: {} pieces planned, {} found between the crop marks",
                items.len(),
                cells.len()
            ));
        }
        for c in &cells {
            let at = format!("{name} piece at {:.1},{:.1} mm", c.x0, c.y0);
            match slot_of(items, c) {
                Some(item) => measure_piece(g, c, bleed_of(item), &at, f),
                None => f.other.push(format!("{at}: no planned piece there")),
            }
        }
        let marked: Vec<(Cell, Option<usize>)> = cells.iter().map(|c| (*c, marker_corner(g, c))).collect();
        let duplex = b.plan.data["settings"]["duplex"].as_str().unwrap().to_owned();
        // Each back must sit behind its front and be upright with it when the
        // piece is turned over sideways: the back's top-left corner lies behind
        // the front's top-right (both as the design sees them).
        let mut check_backs = |fronts: &[(Cell, Option<usize>)],
                               backs: &[(Cell, Option<usize>)],
                               flip_x: bool,
                               turn: &dyn Fn(&Cell) -> Cell| {
            for (fc, fm) in fronts {
                let want = turn(fc);
                let Some((_, bm)) = backs
                    .iter()
                    .find(|(c, _)| (c.x0 - want.x0).abs() < 0.5 && (c.y0 - want.y0).abs() < 0.5)
                else {
                    f.other.push(format!(
                        "{name}: no back behind the front at {:.1},{:.1} mm",
                        fc.x0, fc.y0
                    ));
                    continue;
                };
                let (Some(fm), Some(bm)) = (fm, bm) else {
                    f.other.push(format!(
                        "{name}: orientation square not found at {:.1},{:.1} mm",
                        fc.x0, fc.y0
                    ));
                    continue;
                };
                // Corners seen from the front side: turning over mirrors left-right (x) or top-bottom.
                let seen = if flip_x { [1, 0, 3, 2][*bm] } else { [3, 2, 1, 0][*bm] };
                if seen != (fm + 1) % 4 {
                    f.other.push(format!(
                        "{name}: the back behind the front at {:.1},{:.1} mm is turned the wrong way (its top-left corner is behind the front's corner {seen}, not {})",
                        fc.x0,
                        fc.y0,
                        (fm + 1) % 4
                    ));
                }
            }
        };
        if side == "gutterfold" {
            let fold = fold.unwrap();
            let (left, right): (Vec<_>, Vec<_>) = marked.iter().copied().partition(|(c, _)| c.x1 < fold);
            check_backs(&left, &right, true, &|c: &Cell| Cell {
                x0: 2.0 * fold - c.x1,
                x1: 2.0 * fold - c.x0,
                ..*c
            });
        }
        if side == "back" {
            let fronts = std::mem::take(&mut front_pieces);
            let (pw, ph) = (paper.width, paper.height);
            if duplex == "short" {
                check_backs(&fronts, &marked, false, &|c: &Cell| Cell {
                    y0: ph - c.y1,
                    y1: ph - c.y0,
                    ..*c
                });
            } else {
                check_backs(&fronts, &marked, true, &|c: &Cell| Cell {
                    x0: pw - c.x1,
                    x1: pw - c.x0,
                    ..*c
                });
            }
        }
        // A back's cut lines are its front's, turned over.
        match side {
            "front" => {
                front_cuts = Some((xs, ys));
                front_pieces = marked;
            }
            "back" => {
                if let Some((fx, fy)) = front_cuts.take() {
                    let (ex, ey): (Vec<f64>, Vec<f64>) = if duplex == "short" {
                        (fx.clone(), fy.iter().rev().map(|y| paper.height - y).collect())
                    } else {
                        (fx.iter().rev().map(|x| paper.width - x).collect(), fy.clone())
                    };
                    for (got, want, axis) in [(&xs, &ex, "x"), (&ys, &ey, "y")] {
                        if got.len() != want.len() {
                            f.other.push(format!(
                                "{name}: back has {} cut lines in {axis}, front {}",
                                got.len(),
                                want.len()
                            ));
                            continue;
                        }
                        for (a, w) in got.iter().zip(want) {
                            f.error((a - w).abs(), || {
                                format!("{name}: back cut {axis}={a:.2} vs front turned over {w:.2}")
                            });
                        }
                    }
                }
            }
            "gutterfold" => {
                let fold = fold.unwrap();
                let left: Vec<f64> = xs.iter().copied().filter(|x| *x < fold).collect();
                let mut right: Vec<f64> = xs
                    .iter()
                    .copied()
                    .filter(|x| *x > fold)
                    .map(|x| 2.0 * fold - x)
                    .collect();
                right.reverse();
                if left.len() != right.len() {
                    f.other.push(format!(
                        "{name}: {} cuts left of the fold, {} right",
                        left.len(),
                        right.len()
                    ));
                }
                for (a, w) in left.iter().zip(&right) {
                    f.error((a - w).abs(), || format!("{name}: fold mirror {a:.2} vs {w:.2}"));
                }
            }
            _ => {}
        }
    }
}

/// A tile of a board or an oversize piece: the alignment crosses sit at the
/// tile's corners, and the design's 10 mm grid continues where the tile says
/// it starts (`src`), so neighbouring tiles join.
pub fn measure_tile(g: &Gray, page: &Value, name: &str, f: &mut Findings) {
    let item = &page["items"][0];
    let tile = &page["tile"];
    let v = |o: &Value, k: &str| o[k].as_f64().unwrap();
    let (dx, dy, dw, dh) = (v(item, "x"), v(item, "y"), v(item, "w"), v(item, "h"));
    let (sx, sy) = (v(&tile["src"], "x"), v(&tile["src"], "y"));
    f.pieces += 1;
    // Crosses: vertical arms just above the tile's top corners, horizontal arms left of its left corners.
    for (x, what) in [(dx, "left"), (dx + dw, "right")] {
        match g.dark_along_row(dy - 1.5, x - 1.0, x + 1.0, 128).first() {
            Some(c) => f.error((c - x).abs(), || format!("{name}: {what} cross")),
            None => f.other.push(format!("{name}: no alignment cross at the {what} corner")),
        }
    }
    for (y, what) in [(dy, "top"), (dy + dh, "bottom")] {
        match g.dark_along_col(dx - 1.5, y - 1.0, y + 1.0, 128).first() {
            Some(c) => f.error((c - y).abs(), || format!("{name}: {what} cross")),
            None => f.other.push(format!("{name}: no alignment cross at the {what} corner")),
        }
    }
    // The grid: lines at design coordinates 0, 10, 20 … appear at dst + (u − src).
    let overlap = v(tile, "overlap");
    let expect = |start: f64, src: f64, len: f64| -> Vec<f64> {
        (0..200)
            .map(|k| k as f64 * 10.0)
            .filter(|u| *u >= src - 0.01 && *u <= src + len + 0.01)
            .map(|u| start + u - src)
            .collect()
    };
    let mid = |src: f64, start: f64| start + (15.0 - (src % 10.0)).rem_euclid(10.0) + 10.0;
    let row = mid(sy, dy);
    let found = g.dark_along_row(row, dx - 0.4, dx + dw + 0.4, 100);
    let col = mid(sx, dx);
    let found_y = g.dark_along_col(col, dy - 0.4, dy + dh + 0.4, 100);
    // The dashed outline of an overlap band runs along its two long sides.
    for (found, want, axis, band) in [
        (found, expect(dx, sx, dw), "x", [dx + dw - overlap, dx + dw]),
        (found_y, expect(dy, sy, dh), "y", [dy + dh - overlap, dy + dh]),
    ] {
        for w in &want {
            match found.iter().map(|p| (p - w).abs()).min_by(f64::total_cmp) {
                Some(err) => f.error(err, || format!("{name}: grid line {axis}={w:.2}")),
                None => f.other.push(format!("{name}: grid line {axis}={w:.2} not found")),
            }
        }
        for p in &found {
            let expected = want.iter().chain(&band).any(|w| (p - w).abs() < 0.5);
            if !expected {
                f.other.push(format!("{name}: unexpected line at {axis}={p:.2}"));
            }
        }
    }
}

/// The print-shop pieces file: every page is one design, its TrimBox on the
/// trim line and its bleed out to the page edge.
pub fn measure_pieces_file(b: &Built, f: &mut Findings) {
    let doc = Document::load_mem(&b.pdf).unwrap();
    let pages = doc.get_pages();
    let rasters = rasterise(&b.pdf, 1, pages.len(), FINE_DPI);
    for ((n, id), g) in pages.iter().zip(&rasters) {
        f.pages += 1;
        let dict = doc.get_dictionary(*id).unwrap();
        let boxed = |k: &[u8]| -> Option<Vec<f64>> {
            dict.get(k)
                .ok()
                .and_then(|o| o.as_array().ok())
                .map(|a| a.iter().map(num).collect())
        };
        let media = boxed(b"MediaBox").unwrap();
        let name = format!("{} p{n}", b.plan.out.display());
        let Some(trim) = boxed(b"TrimBox") else {
            // Boards have no bleed: no TrimBox needed.
            continue;
        };
        let mm = |pt: f64| pt * 25.4 / 72.0;
        let c = Cell {
            x0: mm(trim[0] - media[0]),
            x1: mm(trim[2] - media[0]),
            y0: mm(media[3] - trim[3]),
            y1: mm(media[3] - trim[1]),
        };
        let bl = [c.x0, c.y0, mm(media[2]) - c.x1, mm(media[3]) - c.y1];
        measure_piece(g, &c, bl, &name, f);
    }
}

pub fn num(o: &Object) -> f64 {
    match o {
        Object::Integer(i) => *i as f64,
        Object::Real(r) => *r as f64,
        _ => f64::NAN,
    }
}
