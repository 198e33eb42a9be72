//! Boards as the table assembles them. Every shipped board's tile pages (A4
//! and Letter) are rasterised by an independent renderer (poppler), cut at
//! the edge marks printed around each tile, and laid on one another as the
//! page tells the player: each tile's left (top) edge on the dashed line of
//! the tile before it, the printed overlap apart. The assembled board is then
//! compared with the whole board from the print-shop pieces file: the same
//! size within 0.5 mm, and the same picture everywhere (a stretch shown twice
//! or left out shifts everything after it).
//!
//! The plan only says which page holds which tile and roughly where it is;
//! the tile's edges are found from its marks, the overlap is read from the
//! printed label.
//!
//! `PNPKIT_ASSEMBLY_PNG=<dir>` writes each assembled board as a PNG there
//! (how docs/img/assembled-*.png were made).

use crate::common;

use crate::common::raster::{Gray, pdf_text, rasterise, renderer_available};
use lopdf::Document;
use pnpkit::render::Part;
use pnpkit::render::pipeline::Built;
use serde_json::Value;

/// The assembled boards: coarse enough to hold a 600 × 450 mm board in
/// memory many times.
const DPI: f64 = 100.0;
/// The sheets, where their edge marks are found: fine enough to place a
/// hairline within a few hundredths of a millimetre (at 100 dpi the marks of
/// one sheet came out up to 0.2 mm apart from where they print, and a board
/// of four sheets adds four of those up).
const MARK_DPI: f64 = 200.0;
/// Largest size difference between the assembled board and the board.
const SIZE_TOLERANCE: f64 = 0.5;
/// Side of the squares the pictures are compared in, mm.
const BLOCK: f64 = 6.0;
/// Largest mean grey-level difference of one square at a millimetre a pixel.
/// Correct assemblies of the shipped boards stay at or under 22 (the seams
/// and anti-aliasing); the same tiles laid a millimetre off reach 50 or more
/// (the test checks that for every board), a stretch shown twice far more.
const BLOCK_TOLERANCE: f64 = 32.0;

fn built() -> Vec<&'static Built> {
    common::shipped_kits()
        .iter()
        .filter(|b| b.plan.locale == "en")
        .collect()
}

/// A tile page as measured: its edges (mm on the page) and its picture.
#[derive(Clone)]
struct Cut {
    col: usize,
    row: usize,
    x0: f64,
    x1: f64,
    y0: f64,
    y1: f64,
    overlap: f64,
    label: String,
    page: Gray,
}

/// The centre of the mark line crossing a short scan, nearest to `near`.
fn mark(found: Vec<f64>, near: f64) -> Option<f64> {
    found
        .into_iter()
        .filter(|p| (p - near).abs() < 2.0)
        .min_by(|a, b| (a - near).abs().total_cmp(&(b - near).abs()))
}

/// Finds a tile's edges from the marks in its margin: vertical marks above
/// the top corners, horizontal marks left of the left corners.
fn cut(g: Gray, page: &Value, text: &str) -> Result<Cut, String> {
    let item = &page["items"][0];
    let v = |k: &str| item[k].as_f64().unwrap();
    let (x, y, w, h) = (v("x"), v("y"), v("w"), v("h"));
    let scan_y = y - 1.75;
    let scan_x = x - 1.75;
    let x0 = mark(g.dark_along_row(scan_y, x - 2.0, x + 2.0, 160), x).ok_or("no mark at the left edge")?;
    let x1 = mark(g.dark_along_row(scan_y, x + w - 2.0, x + w + 2.0, 160), x + w).ok_or("no mark at the right edge")?;
    let y0 = mark(g.dark_along_col(scan_x, y - 2.0, y + 2.0, 160), y).ok_or("no mark at the top edge")?;
    let y1 =
        mark(g.dark_along_col(scan_x, y + h - 2.0, y + h + 2.0, 160), y + h).ok_or("no mark at the bottom edge")?;
    if std::env::var_os("PNPKIT_ASSEMBLY_DEBUG").is_some() {
        eprintln!("cut {x:.2},{y:.2} {w:.2}x{h:.2}: found {x0:.2}..{x1:.2} x {y0:.2}..{y1:.2}");
    }
    let tile = &page["tile"];
    let (cols, rows) = (tile["cols"].as_u64().unwrap(), tile["rows"].as_u64().unwrap());
    // The overlap the page states ("overlap 10 mm"); a single sheet has none.
    let overlap = match text.split("overlap ").nth(1) {
        Some(rest) => rest
            .split_whitespace()
            .next()
            .and_then(|n| n.parse::<f64>().ok())
            .ok_or("unreadable overlap")?,
        None if cols * rows == 1 => 0.0,
        None => return Err("the page states no overlap".into()),
    };
    let label = text
        .split("Sheet ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .unwrap_or("")
        .to_owned();
    // Measured finely, assembled at the board's resolution.
    let g = coarse(&g, (MARK_DPI / DPI).round() as usize);
    Ok(Cut {
        col: tile["col"].as_u64().unwrap() as usize,
        row: tile["row"].as_u64().unwrap() as usize,
        x0,
        x1,
        y0,
        y1,
        overlap,
        label,
        page: g,
    })
}

/// The board in the pieces file: the page that the tiles place.
fn whole_board(pieces: &Built, item: &Value) -> Gray {
    let pages = pieces.plan.data["pages"].as_array().unwrap();
    let n = pages
        .iter()
        .position(|p| p["file"] == item["file"] && p["page"] == item["piece"])
        .expect("the board is in the pieces file")
        + 1;
    rasterise(&pieces.pdf, n, n, DPI).remove(0)
}

/// Lays the tiles on one another, each on the dashed line of the tile to its
/// left and above; later tiles cover earlier ones.
fn assemble(tiles: &[Cut]) -> Gray {
    let mut xs = std::collections::HashMap::new();
    let mut ys = std::collections::HashMap::new();
    let find = |c: usize, r: usize| tiles.iter().find(|t| t.col == c && t.row == r).unwrap();
    let (mut w, mut h) = (0.0f64, 0.0f64);
    let mut ordered: Vec<&Cut> = tiles.iter().collect();
    ordered.sort_by_key(|t| (t.row, t.col));
    for t in &ordered {
        let x = if t.col == 0 {
            0.0
        } else {
            let left = find(t.col - 1, t.row);
            xs[&(t.col - 1, t.row)] + (left.x1 - left.x0) - left.overlap
        };
        let y = if t.row == 0 {
            0.0
        } else {
            let above = find(t.col, t.row - 1);
            ys[&(t.col, t.row - 1)] + (above.y1 - above.y0) - above.overlap
        };
        xs.insert((t.col, t.row), x);
        ys.insert((t.col, t.row), y);
        w = w.max(x + t.x1 - t.x0);
        h = h.max(y + t.y1 - t.y0);
    }
    let px = |mm: f64| (mm / 25.4 * DPI).round() as usize;
    let (cw, ch) = (px(w), px(h));
    let mut out = Gray {
        w: cw,
        h: ch,
        dpi: DPI,
        px: vec![255; cw * ch],
    };
    // Each pixel of the board takes the tile's picture at the same place,
    // interpolated between the page's pixels (no rounding of positions).
    let bilinear = |g: &Gray, x: f64, y: f64| -> u8 {
        let (x0, y0) = (x.floor().max(0.0), y.floor().max(0.0));
        let (fx, fy) = (x - x0, y - y0);
        let (i, j) = (x0 as usize, y0 as usize);
        let v = |a: usize, b: usize| g.at(a, b) as f64;
        let top = v(i, j) * (1.0 - fx) + v(i + 1, j) * fx;
        let bottom = v(i, j + 1) * (1.0 - fx) + v(i + 1, j + 1) * fx;
        (top * (1.0 - fy) + bottom * fy).round() as u8
    };
    for t in &ordered {
        let (ox, oy) = (t.page.px_of(xs[&(t.col, t.row)]), t.page.px_of(ys[&(t.col, t.row)]));
        let (ex, ey) = (t.page.px_of(t.x1 - t.x0), t.page.px_of(t.y1 - t.y0));
        let (sx, sy) = (t.page.px_of(t.x0), t.page.px_of(t.y0));
        let (from_x, to_x) = (ox.round() as usize, ((ox + ex).round() as usize).min(cw));
        let (from_y, to_y) = (oy.round() as usize, ((oy + ey).round() as usize).min(ch));
        for dy in from_y..to_y {
            for dx in from_x..to_x {
                // Pixel centres: (d + 0.5) on the board is (s + d + 0.5 − o) on the page.
                let (x, y) = (sx + dx as f64 - ox, sy + dy as f64 - oy);
                out.px[dy * cw + dx] = bilinear(&t.page, x, y);
            }
        }
    }
    out
}

/// The picture averaged over squares of `n` pixels: fine detail (small
/// text, hairlines) that two renderings draw a fraction of a pixel apart
/// averages out; a shifted stretch of board does not.
fn coarse(g: &Gray, n: usize) -> Gray {
    let (w, h) = (g.w / n, g.h / n);
    let mut px = Vec::with_capacity(w * h);
    for y in 0..h {
        for x in 0..w {
            let mut s = 0u32;
            for yy in 0..n {
                for xx in 0..n {
                    s += g.at(x * n + xx, y * n + yy) as u32;
                }
            }
            px.push((s / (n * n) as u32) as u8);
        }
    }
    Gray {
        w,
        h,
        dpi: g.dpi / n as f64,
        px,
    }
}

/// `b` moved by the whole pixel (at most one either way) that best matches
/// `a`: the two rasterisations may sit a pixel apart (0.25 mm, within the
/// size tolerance), which would otherwise show on every edge.
fn aligned(a: &Gray, b: &Gray) -> Gray {
    let mut best = (f64::MAX, 0i64, 0i64);
    for dy in -1i64..=1 {
        for dx in -1i64..=1 {
            let (mut sum, mut n) = (0u64, 0u64);
            for yy in (4..a.h.saturating_sub(4)).step_by(3) {
                for xx in (4..a.w.saturating_sub(4)).step_by(3) {
                    let v = b.at((xx as i64 + dx) as usize, (yy as i64 + dy) as usize);
                    sum += (a.at(xx, yy) as i64 - v as i64).unsigned_abs();
                    n += 1;
                }
            }
            let mean = sum as f64 / n.max(1) as f64;
            if mean < best.0 {
                best = (mean, dx, dy);
            }
        }
    }
    let (_, dx, dy) = best;
    let px = (0..b.h)
        .flat_map(|y| (0..b.w).map(move |x| (x, y)))
        .map(|(x, y)| b.at((x as i64 + dx).max(0) as usize, (y as i64 + dy).max(0) as usize))
        .collect();
    Gray { px, ..b.clone() }
}

/// The worst square of the two pictures compared over the area both cover,
/// at about a millimetre a pixel: its mean grey-level difference and where
/// it is (mm).
fn worst_block(a: &Gray, b: &Gray) -> (f64, f64, f64) {
    let n = (DPI / 25.4).round() as usize;
    let (a, b) = (coarse(a, n), coarse(&aligned(a, b), n));
    let (w, h) = (a.width_mm().min(b.width_mm()), a.height_mm().min(b.height_mm()));
    let mut worst = (0.0, 0.0, 0.0);
    let mut y = 0.0;
    while y + BLOCK <= h {
        let mut x = 0.0;
        while x + BLOCK <= w {
            let (x0, y0, k) = (
                a.px_of(x) as usize,
                a.px_of(y) as usize,
                a.px_of(BLOCK).round() as usize,
            );
            let mut sum = 0u64;
            for yy in y0..y0 + k {
                for xx in x0..x0 + k {
                    sum += (a.at(xx, yy) as i64 - b.at(xx, yy) as i64).unsigned_abs();
                }
            }
            let diff = sum as f64 / (k * k) as f64;
            if diff > worst.0 {
                worst = (diff, x, y);
            }
            x += BLOCK;
        }
        y += BLOCK;
    }
    worst
}

/// Writes a picture at half its resolution (50 dpi: a board is a few hundred kB).
fn save_png(g: &Gray, path: &std::path::Path) {
    let (w, h) = (g.w / 2, g.h / 2);
    let px = (0..h)
        .flat_map(|y| (0..w).map(move |x| (y, x)))
        .map(|(y, x)| {
            let s: u32 = [(0, 0), (1, 0), (0, 1), (1, 1)]
                .iter()
                .map(|(dx, dy)| g.at(2 * x + dx, 2 * y + dy) as u32)
                .sum();
            (s / 4) as u8
        })
        .collect();
    image::GrayImage::from_raw(w as u32, h as u32, px)
        .unwrap()
        .save(path)
        .unwrap();
}

#[test]
fn every_shipped_board_assembles_from_its_tiles_into_the_board() {
    if !renderer_available("board assembly") {
        return;
    }
    let built = built();
    let save = std::env::var_os("PNPKIT_ASSEMBLY_PNG").map(std::path::PathBuf::from);
    let mut problems = Vec::new();
    let mut boards = 0;
    for b in built.iter().filter(|b| b.plan.part == Part::Boards) {
        let paper = b.plan.paper.unwrap();
        let pieces = built
            .iter()
            .find(|p| {
                p.plan.part == Part::Pieces
                    && p.plan.game == b.plan.game
                    && p.plan
                        .out
                        .to_string_lossy()
                        .ends_with(&format!("{}-pieces.pdf", b.plan.game))
            })
            .expect("the pieces file");
        let pages = b.plan.data["pages"].as_array().unwrap();
        let rasters = rasterise(&b.pdf, 1, pages.len(), MARK_DPI);
        let texts: Vec<String> = pdf_text(&b.pdf).split('\u{c}').map(str::to_owned).collect();
        // The tiles of each board (and variant), in page order.
        let mut groups: Vec<(String, Vec<Cut>, Value)> = Vec::new();
        for (n, (g, page)) in rasters.into_iter().zip(pages).enumerate() {
            let tile = &page["tile"];
            let key = format!(
                "{} {} {}",
                page["items"][0]["id"].as_str().unwrap(),
                tile["variant"]["id"].as_str().unwrap_or(""),
                paper.name
            );
            let text = texts.get(n).cloned().unwrap_or_default();
            match cut(g, page, &text) {
                Ok(c) => {
                    let want = format!("{}{}", (b'A' + c.row as u8) as char, c.col + 1);
                    if c.label != want {
                        problems.push(format!("{key} page {}: labelled `{}`, not {want}", n + 1, c.label));
                    }
                    match groups.iter_mut().find(|(k, _, _)| *k == key) {
                        Some((_, list, _)) => list.push(c),
                        None => groups.push((key, vec![c], page["items"][0].clone())),
                    }
                }
                Err(e) => problems.push(format!("{key} page {}: {e}", n + 1)),
            }
        }
        for (key, tiles, item) in &groups {
            boards += 1;
            let assembled = assemble(tiles);
            let board = whole_board(pieces, item);
            let (dw, dh) = (
                assembled.width_mm() - board.width_mm(),
                assembled.height_mm() - board.height_mm(),
            );
            eprintln!(
                "{}: {key}: {} tiles, assembled {:.1} × {:.1} mm, board {:.1} × {:.1} mm",
                b.plan.game,
                tiles.len(),
                assembled.width_mm(),
                assembled.height_mm(),
                board.width_mm(),
                board.height_mm()
            );
            if dw.abs() > SIZE_TOLERANCE || dh.abs() > SIZE_TOLERANCE {
                problems.push(format!(
                    "{}: {key}: assembled {:.1} × {:.1} mm, the board is {:.1} × {:.1} mm",
                    b.plan.game,
                    assembled.width_mm(),
                    assembled.height_mm(),
                    board.width_mm(),
                    board.height_mm()
                ));
            }
            let (diff, x, y) = worst_block(&assembled, &board);
            // The comparison sees an assembly one millimetre off: laid with
            // the overlap a millimetre wider, the same tiles must not pass.
            if tiles.len() > 1 {
                let off: Vec<Cut> = tiles
                    .iter()
                    .map(|t| Cut {
                        overlap: t.overlap + 1.0,
                        ..t.clone()
                    })
                    .collect();
                let (wrong, _, _) = worst_block(&assemble(&off), &board);
                eprintln!("{key}: worst square {diff:.1}, one millimetre off {wrong:.1}");
                if wrong <= BLOCK_TOLERANCE {
                    problems.push(format!(
                        "{key}: an assembly 1 mm off passes the comparison ({wrong:.1})"
                    ));
                }
            }
            if diff > BLOCK_TOLERANCE {
                problems.push(format!(
                    "{}: {key}: the assembled board differs from the board around ({x:.0}, {y:.0}) mm \
                     (mean difference {diff:.0} grey levels over {BLOCK} mm)",
                    b.plan.game
                ));
            }
            if let Some(dir) = &save {
                std::fs::create_dir_all(dir).unwrap();
                let name = key.replace(' ', "-").replace("--", "-");
                save_png(&assembled, &dir.join(format!("{}-{name}.png", b.plan.game)));
                if std::env::var_os("PNPKIT_ASSEMBLY_DIFF").is_some() {
                    save_png(&board, &dir.join(format!("{}-{name}-board.png", b.plan.game)));
                }
            }
        }
    }
    // Every game ships a board; ONE v MANY one per scenario.
    assert!(boards >= 10, "boards assembled: {boards}");
    common::assert_no_problems(&problems);
}

/// The pieces file's board pages are what the assembly is compared with:
/// they must be the board at its declared size.
#[test]
fn the_pieces_file_holds_each_board_at_its_size() {
    let built = built();
    for p in built
        .iter()
        .filter(|p| p.plan.part == Part::Pieces && p.plan.paper.is_none())
    {
        if !p
            .plan
            .out
            .to_string_lossy()
            .ends_with(&format!("{}-pieces.pdf", p.plan.game))
        {
            continue;
        }
        let doc = Document::load_mem(&p.pdf).unwrap();
        let pages = doc.get_pages();
        for (n, planned) in p.plan.data["pages"].as_array().unwrap().iter().enumerate() {
            let id = pages[&(n as u32 + 1)];
            let media = doc
                .get_dictionary(id)
                .unwrap()
                .get(b"MediaBox")
                .unwrap()
                .as_array()
                .unwrap();
            let mm = |o: &lopdf::Object| common::registration::num(o) * 25.4 / 72.0;
            let (w, h) = (mm(&media[2]) - mm(&media[0]), mm(&media[3]) - mm(&media[1]));
            let bleed = planned["bleed"].as_f64().unwrap();
            assert!((w - planned["w"].as_f64().unwrap() - 2.0 * bleed).abs() < 0.05);
            assert!((h - planned["h"].as_f64().unwrap() - 2.0 * bleed).abs() < 0.05);
        }
    }
}
