//! The kit as the printer receives it: every PDF `build` writes is
//! rasterised by an independent renderer (poppler's `pdftoppm`) and measured
//! in pixels. Cut lines are found from the crop marks on the page, trim lines
//! from the designs themselves; nothing here trusts the layout plan for
//! where things landed (the plan only names which piece a slot holds and how
//! much bleed it promised).
//!
//! - The registration fixture (`tests/fixtures/registration`): designs with a
//!   black hairline exactly on the trim and a magenta bleed. On A4 and Letter,
//!   fronts and mirrored backs (long and short edge), gutterfold, tiled boards
//!   and an oversize tiled sheet, and the print-shop pieces file, every trim
//!   line lies on its cut line within 0.15 mm and the bleed is all there.
//! - The shipped kits: no piece shows blank paper inside its trim, every outer
//!   edge has its bleed, and the backs on a sheet are identical up to position.

use crate::common;

use std::path::Path;

use crate::common::raster::{Gray, PAPER, pdf_text, rasterise, renderer_available};
use crate::common::registration::*;
use lopdf::Document;
use pnpkit::check::check;
use pnpkit::pack::yaml::Limits;
use pnpkit::progress::Quiet;
use pnpkit::render::impose::{self, Duplex, Paper};
use pnpkit::render::pipeline::{Built, build_all};
use pnpkit::render::world::Shared;
use pnpkit::render::{KitOptions, Layout, Part};

const EPOCH: i64 = 1_767_225_600;
/// Resolution of the shipped-kit checks (slivers and bleed are millimetres wide).
const COARSE_DPI: f64 = 72.0;

fn build_in(root: &Path, data: &Path, opts: &KitOptions) -> Vec<Built> {
    let report = check(data, &[], &Limits::default()).unwrap();
    assert!(!report.has_errors(), "fixture data has errors");
    let shared = Shared::new(root, EPOCH).unwrap();
    let (built, problems) = build_all(&shared, &report.games, opts, &Quiet);
    assert!(
        problems.is_empty(),
        "{:?}",
        problems.iter().map(|(d, _)| &d.message).collect::<Vec<_>>()
    );
    built
}

fn fixture_findings(papers: Vec<Paper>, duplex: Duplex, layout: Layout) -> Findings {
    let dir = common::fixture_project("registration");
    let opts = KitOptions {
        papers: papers.clone(),
        duplex,
        layout,
        ..KitOptions::default()
    };
    let built = build_in(dir.path(), &dir.path().join("data"), &opts);
    let mut f = Findings::default();
    for b in &built {
        match b.plan.part {
            Part::Cards | Part::Tokens | Part::Sheets | Part::Boards => {
                let paper = b.plan.paper.unwrap();
                measure_sheets(b, &paper, opts.settings.margin, &mut f);
            }
            Part::Pieces if b.plan.out.to_string_lossy().ends_with("reg-pieces.pdf") => measure_pieces_file(b, &mut f),
            _ => {}
        }
    }
    f
}

#[test]
fn registration_fixture_lands_on_the_crop_marks_fronts_and_long_edge_backs() {
    if !renderer_available("registration") {
        return;
    }
    let f = fixture_findings(vec![impose::A4, impose::LETTER], Duplex::Long, Layout::Duplex);
    eprintln!("{}", f.summary("registration, long-edge duplex, A4 and Letter"));
    f.dump();
    assert!(
        f.pieces > 100,
        "the fixture has pieces on every kind of sheet: {}",
        f.pieces
    );
    assert!(f.clean(), "{}", f.summary("registration, long-edge duplex"));
}

#[test]
fn registration_fixture_lands_on_the_crop_marks_short_edge_backs() {
    if !renderer_available("registration") {
        return;
    }
    let f = fixture_findings(vec![impose::A4, impose::LETTER], Duplex::Short, Layout::Duplex);
    eprintln!("{}", f.summary("registration, short-edge duplex"));
    assert!(f.clean(), "{}", f.summary("registration, short-edge duplex"));
}

#[test]
fn registration_fixture_lands_on_the_crop_marks_gutterfold() {
    if !renderer_available("registration") {
        return;
    }
    let f = fixture_findings(vec![impose::A4, impose::LETTER], Duplex::Long, Layout::Gutterfold);
    eprintln!("{}", f.summary("registration, gutterfold"));
    assert!(f.clean(), "{}", f.summary("registration, gutterfold"));
}

// ------------------------------------------------------------ shipped kits

/// Checks one placed piece of a shipped kit against its planned slot: no
/// blank paper just inside any trim edge, and bleed (not paper) outside each
/// edge that promised it. Designs are free in colour, so only paper white is
/// judged: a design must never be blank at its trim or in its bleed.
fn check_shipped_piece(g: &Gray, c: &Cell, bleed: [f64; 4], at: &str, f: &mut Findings) {
    f.pieces += 1;
    let (x, y, w, h) = (c.x0, c.y0, c.x1 - c.x0, c.y1 - c.y0);
    let [l, t, r, b] = bleed;
    // Bands along the middle 60 % of each edge.
    let (mx, mw, my, mh) = (x + 0.2 * w, 0.6 * w, y + 0.2 * h, 0.6 * h);
    let paper = |v: u8| v >= PAPER;
    let inside = [
        ("left", g.share(x + 0.3, my, 0.7, mh, paper)),
        ("top", g.share(mx, y + 0.3, mw, 0.7, paper)),
        ("right", g.share(x + w - 1.0, my, 0.7, mh, paper)),
        ("bottom", g.share(mx, y + h - 1.0, mw, 0.7, paper)),
    ];
    for (edge, share) in inside {
        if share > 0.5 {
            f.slivers.push(format!("{at}: blank paper inside the {edge} trim edge"));
        }
    }
    let outside = [
        ("left", l, g.share(x - l + 0.3, my, l - 0.6, mh, paper)),
        ("top", t, g.share(mx, y - t + 0.3, mw, t - 0.6, paper)),
        ("right", r, g.share(x + w + 0.3, my, r - 0.6, mh, paper)),
        ("bottom", b, g.share(mx, y + h + 0.3, mw, b - 0.6, paper)),
    ];
    for (edge, bleed, share) in outside {
        if bleed >= 1.0 && share > 0.5 {
            f.missing_bleed.push(format!(
                "{at}: {edge} edge promised {bleed:.1} mm of bleed, the page is blank there"
            ));
        }
    }
}

/// The share of the piece at `b` that differs from the piece at `a` (same
/// size, trim boxes in mm): both are blurred over 3×3 pixels (about 1 mm at
/// 72 dpi) and a pixel differs when it is more than 40 grey levels from
/// every pixel around its match. Copies of one design placed at different
/// sub-pixel offsets agree (hairlines blur away); a blank strip or another
/// mark does not.
fn differing_share(g: &Gray, a: (f64, f64), b: (f64, f64), w: f64, h: f64) -> f64 {
    // A ring of 0.75 mm inside the trim is left out: its pixels mix with the neighbouring piece.
    let ring = g.px_of(0.75).ceil() as i64 + 1;
    let (pw, ph) = (g.px_of(w).floor() as i64, g.px_of(h).floor() as i64);
    let blurred = |x0: f64, y0: f64| -> Vec<i32> {
        let (ox, oy) = (g.px_of(x0).round() as i64, g.px_of(y0).round() as i64);
        let at = |x: i64, y: i64| {
            g.at(
                (ox + x).clamp(0, g.w as i64 - 1) as usize,
                (oy + y).clamp(0, g.h as i64 - 1) as usize,
            ) as i32
        };
        let mut out = vec![0; (pw * ph) as usize];
        for y in 0..ph {
            for x in 0..pw {
                let mut sum = 0;
                for dy in -1..=1 {
                    for dx in -1..=1 {
                        sum += at(x + dx, y + dy);
                    }
                }
                out[(y * pw + x) as usize] = sum / 9;
            }
        }
        out
    };
    let (ba, bb) = (blurred(a.0, a.1), blurred(b.0, b.1));
    let mut differ = 0usize;
    for y in ring..ph - ring {
        for x in ring..pw - ring {
            let v = bb[(y * pw + x) as usize];
            let close = (-1..=1).any(|dy| (-1..=1).any(|dx| (ba[((y + dy) * pw + x + dx) as usize] - v).abs() <= 40));
            if !close {
                differ += 1;
            }
        }
    }
    differ as f64 / ((pw - 2 * ring).max(1) * (ph - 2 * ring).max(1)) as f64
}

fn shipped_findings(built: &[Built]) -> Findings {
    use rayon::prelude::*;
    let parts: Vec<Findings> = built.par_iter().map(shipped_file).collect();
    let mut f = Findings::default();
    for p in parts {
        f.pages += p.pages;
        f.pieces += p.pieces;
        f.slivers.extend(p.slivers);
        f.missing_bleed.extend(p.missing_bleed);
        f.other.extend(p.other);
    }
    f
}

/// The findings of one file of a shipped kit.
fn shipped_file(b: &Built) -> Findings {
    let mut f = Findings::default();
    {
        let sheets = matches!(b.plan.part, Part::Cards | Part::Tokens | Part::Sheets);
        if b.plan.part == Part::Pieces {
            let doc = Document::load_mem(&b.pdf).unwrap();
            let pages = doc.get_pages();
            let rasters = rasterise(&b.pdf, 1, pages.len(), COARSE_DPI);
            for ((n, id), g) in pages.iter().zip(&rasters) {
                f.pages += 1;
                let dict = doc.get_dictionary(*id).unwrap();
                let boxed = |k: &[u8]| -> Option<Vec<f64>> {
                    dict.get(k)
                        .ok()
                        .and_then(|o| o.as_array().ok())
                        .map(|a| a.iter().map(num).collect())
                };
                let (Some(media), Some(trim)) = (boxed(b"MediaBox"), boxed(b"TrimBox")) else {
                    continue;
                };
                let mm = |pt: f64| pt * 25.4 / 72.0;
                let (x, y) = (mm(trim[0] - media[0]), mm(media[3] - trim[3]));
                let (w, h) = (mm(trim[2] - trim[0]), mm(trim[3] - trim[1]));
                let bl = [x, y, mm(media[2] - trim[2]), mm(trim[1] - media[1])];
                check_shipped_piece(
                    g,
                    &Cell {
                        x0: x,
                        y0: y,
                        x1: x + w,
                        y1: y + h,
                    },
                    bl,
                    &format!("{} p{n}", b.plan.out.display()),
                    &mut f,
                );
            }
            return f;
        }
        if !sheets {
            return f;
        }
        let pages = b.plan.data["pages"].as_array().unwrap();
        let rasters = rasterise(&b.pdf, 1, pages.len(), COARSE_DPI);
        for (n, (g, page)) in rasters.iter().zip(pages).enumerate() {
            f.pages += 1;
            if page["side"] == "board" {
                continue;
            }
            let items = page["items"].as_array().unwrap();
            let mut designs: std::collections::HashMap<String, (f64, f64)> = Default::default();
            for item in items {
                let v = |k: &str| item[k].as_f64().unwrap();
                let at = format!(
                    "{} p{} {} {} `{}` {}",
                    b.plan.out.display(),
                    n + 1,
                    item["face"].as_str().unwrap(),
                    item["kind"].as_str().unwrap(),
                    item["id"].as_str().unwrap(),
                    item["copy"]
                );
                let cell = Cell {
                    x0: v("x"),
                    y0: v("y"),
                    x1: v("x") + v("w"),
                    y1: v("y") + v("h"),
                };
                check_shipped_piece(g, &cell, bleed_of(item), &at, &mut f);
                if item["face"] == "back" {
                    let key = format!("{}#{}", item["file"], item["piece"]);
                    match designs.get(&key) {
                        None => {
                            designs.insert(key, (v("x"), v("y")));
                        }
                        Some(first) => {
                            let share = differing_share(g, *first, (v("x"), v("y")), v("w"), v("h"));
                            if share > 0.01 {
                                f.other.push(format!(
                                    "{at}: this back differs from the first copy of its design on the sheet in {:.1} % of its area: a marked card",
                                    share * 100.0
                                ));
                            }
                        }
                    }
                }
            }
        }
    }
    f
}

#[test]
fn shipped_kits_have_no_slivers_full_bleed_and_identical_backs() {
    if !renderer_available("shipped kits") {
        return;
    }
    let f = shipped_findings(shipped());
    eprintln!("{}", f.summary("shipped kits, A4 and Letter, es and en"));
    f.dump();
    assert!(f.pages > 500, "every sheet page looked at: {}", f.pages);
    assert!(f.clean(), "{}", f.summary("shipped kits"));
}

/// The shipped kits (A4 and Letter, both locales), built once for every test that reads them.
fn shipped() -> &'static [Built] {
    common::shipped_kits()
}

/// What a player's kit must never print: markup or escapes that were not
/// rendered, internal ids and setting names, file paths, invented-value
/// marks. The cover may name the kit's own PDF files.
fn artefacts(text: &str, cover: bool) -> Vec<String> {
    let mut found = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let mut say = |what: &str, s: &str| found.push(format!("line {}: {what} `{s}` in «{}»", n + 1, line.trim()));
        for m in [
            "**",
            "#strong",
            "#emph",
            "#list",
            "#enum",
            "#icon",
            "#linebreak",
            "#parbreak",
            "#[]",
            "\\",
            "{{",
            "}}",
        ] {
            if line.contains(m) {
                say("markup left raw", m);
            }
        }
        for word in line.split(|c: char| c.is_whitespace() || "«»()[],;:.!?¿¡\"'“”‘’".contains(c)) {
            let w = word.trim_matches(|c: char| !c.is_alphanumeric());
            if w.is_empty() {
                continue;
            }
            let ascii_lower = w
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-');
            if ascii_lower && w.contains('_') {
                say("an internal name", w);
            }
            // A kebab-case id shown as a reference, `(first-turn-setting)` or «kit-per-hero»
            // (English compounds such as end-of-round are words, not ids).
            let quoted = line.contains(&format!("({w})")) || line.contains(&format!("«{w}»"));
            if ascii_lower && w.contains('-') && quoted && !(cover && (w.ends_with("-a4") || w.ends_with("-letter"))) {
                say("an internal id", w);
            }
        }
        for ext in [".png", ".svg", ".jpg", ".jpeg", ".yaml", ".typ", "templates/", "data/"] {
            if line.to_lowercase().contains(ext) && !(cover && ext == "data/") {
                say("a file path", ext);
            }
        }
        for mark in ["valor de ejemplo", "valores de ejemplo", "sample value"] {
            if line.to_lowercase().contains(mark) {
                say("an invented-value mark", mark);
            }
        }
    }
    found
}

#[test]
fn shipped_kits_print_no_developer_artefacts() {
    if !renderer_available("clean output") {
        return;
    }
    let mut problems = Vec::new();
    let mut files = 0;
    for b in shipped() {
        files += 1;
        let cover = b.plan.part == Part::Cover;
        for a in artefacts(&pdf_text(&b.pdf), cover) {
            problems.push(format!("{}: {a}", b.plan.out.display()));
        }
    }
    assert!(files > 100, "every file of every kit read: {files}");
    assert!(
        problems.is_empty(),
        "{} developer artefacts printed:\n{}",
        problems.len(),
        problems.iter().take(40).cloned().collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn artefact_scan_finds_what_it_looks_for() {
    // The scan itself: each kind of artefact is found, ordinary text is not.
    let hits = |s: &str| artefacts(s, false).len();
    assert_eq!(hits("Gana **dos** cartas"), 1);
    assert_eq!(hits("ajuste «first_turn_skips»"), 1);
    assert_eq!(hits("véase Por qué (first-turn-setting)"), 1);
    assert_eq!(hits("the end-of-round check"), 0);
    assert_eq!(hits("art/hero.png"), 1);
    assert_eq!(hits("3 valor de ejemplo"), 1);
    assert_eq!(hits("Cañón-láser +1 al ataque: roba 2 cartas (máx. 7)."), 0);
    assert_eq!(artefacts("unmatched-cards-a4", true).len(), 0);
}
