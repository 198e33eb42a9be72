//! Art, inline icons and fitted text as printed: the layout fixture
//! (`tests/fixtures/layout`, boxes given in its `templates/lay/kit.typ`) is
//! built, its print-shop pieces file rasterised by an independent renderer
//! and measured in pixels from the design's TrimBox. Also the layout's
//! diagnostics: an unknown font in a template, missing art, `check --layout`.

use crate::common;

use std::path::Path;

use crate::common::raster::{Gray, rasterise, renderer_available};
use lopdf::{Document, Object};
use pnpkit::check::check;
use pnpkit::diag::{Diagnostic, SourceMap, render_human};
use pnpkit::pack::yaml::Limits;
use pnpkit::progress::Quiet;
use pnpkit::render::pipeline::{Built, build_all};
use pnpkit::render::world::Shared;
use pnpkit::render::{KitOptions, Part, impose, preflight};

const EPOCH: i64 = 1_767_225_600;
const DPI: f64 = 300.0;
/// How far a measured edge may lie from where the layout asked for it.
const TOLERANCE: f64 = 0.15;

type Problems = Vec<(Diagnostic, SourceMap)>;

fn build(root: &Path) -> (Vec<Built>, Problems) {
    let report = check(&root.join("data"), &[], &Limits::default()).unwrap();
    assert!(!report.has_errors(), "fixture data has errors");
    let shared = Shared::new(root, EPOCH).unwrap();
    let opts = KitOptions {
        papers: vec![impose::A4],
        preflight: Some(preflight::Limits::build()),
        ..KitOptions::default()
    };
    build_all(&shared, &report.games, &opts, &Quiet)
}

/// The front of the fixture's card, rasterised from the pieces file, and the
/// position (mm from the page's top-left) of its trim's top-left corner.
fn front(root: &Path) -> (Gray, f64, f64) {
    let (built, problems) = build(root);
    assert!(problems.is_empty(), "{problems:?}");
    let findings: Vec<&str> = built
        .iter()
        .flat_map(|b| &b.findings)
        .map(|(d, _)| d.message.as_str())
        .collect();
    assert!(findings.is_empty(), "the fixture lays out clean: {findings:#?}");
    let pieces = built
        .iter()
        .find(|b| b.plan.part == Part::Pieces)
        .expect("a pieces file");
    let doc = Document::load_mem(&pieces.pdf).unwrap();
    let (_, id) = doc.get_pages().into_iter().next().unwrap();
    let dict = doc.get_dictionary(id).unwrap();
    let boxed = |k: &[u8]| -> Vec<f64> {
        dict.get(k)
            .unwrap()
            .as_array()
            .unwrap()
            .iter()
            .map(|o| match o {
                Object::Integer(i) => *i as f64,
                Object::Real(r) => *r as f64,
                _ => f64::NAN,
            })
            .collect()
    };
    let (media, trim) = (boxed(b"MediaBox"), boxed(b"TrimBox"));
    let mm = |pt: f64| pt * 25.4 / 72.0;
    let g = rasterise(&pieces.pdf, 1, 1, DPI).remove(0);
    (g, mm(trim[0] - media[0]), mm(media[3] - trim[3]))
}

/// First and last positions (mm) of pixels darker than `below` along a line.
fn extent(g: &Gray, horizontal: bool, at: f64, from: f64, to: f64, below: u8) -> (f64, f64) {
    let step = 25.4 / g.dpi;
    let mut hits = Vec::new();
    let mut p = from;
    while p <= to {
        let v = if horizontal { g.at_mm(p, at) } else { g.at_mm(at, p) };
        if v < below {
            hits.push(p);
        }
        p += step;
    }
    (hits[0], hits[hits.len() - 1])
}

fn near(found: f64, want: f64, what: &str) {
    assert!(
        (found - want).abs() <= TOLERANCE,
        "{what}: found {found:.3} mm, expected {want:.3} mm"
    );
}

#[test]
fn art_fills_its_box_and_keeps_the_focus_in_view() {
    if !renderer_available("art_fills_its_box_and_keeps_the_focus_in_view") {
        return;
    }
    let dir = common::fixture_project("layout");
    let (g, x0, y0) = front(dir.path());
    // The 40 × 20 mm box at (10, 10) mm: the art's grey fills it, no more.
    let (l, r) = extent(&g, true, y0 + 25.0, x0 + 2.0, x0 + 60.0, 220);
    near(l - x0, 10.0, "left edge of the art");
    near(r - x0, 50.0, "right edge of the art");
    let (t, b) = extent(&g, false, x0 + 40.0, y0 + 2.0, y0 + 34.0, 220);
    near(t - y0, 10.0, "top edge of the art");
    near(b - y0, 30.0, "bottom edge of the art");
    // The square image covers the box at 40 × 40 mm; cropped about its focus
    // (20 %, 30 %) the dot at that point lands 8 mm across and 10 mm down the
    // box (centred cropping would put it 2 mm down, half cut off).
    let (mut sx, mut sy, mut n) = (0.0, 0.0, 0.0);
    let (px0, py0) = (g.px_of(x0 + 10.0) as usize, g.px_of(y0 + 10.0) as usize);
    for y in py0..g.px_of(y0 + 30.0) as usize {
        for x in px0..g.px_of(x0 + 50.0) as usize {
            if g.at(x, y) < 60 {
                sx += x as f64;
                sy += y as f64;
                n += 1.0;
            }
        }
    }
    assert!(n > 0.0, "the focal dot is printed inside the box");
    near(g.mm_of(sx / n + 0.5) - x0, 18.0, "focal dot across");
    near(g.mm_of(sy / n + 0.5) - y0, 20.0, "focal dot down");
    // Whole: a dot 4 mm across, about 12.6 mm² of black.
    let area = n * (25.4 / DPI).powi(2);
    assert!((area - 12.57).abs() < 1.0, "the dot is whole: {area:.2} mm²");
}

#[test]
fn an_inline_icon_sits_on_the_baseline_at_the_text_size() {
    if !renderer_available("an_inline_icon_sits_on_the_baseline_at_the_text_size") {
        return;
    }
    let dir = common::fixture_project("layout");
    let (g, x0, y0) = front(dir.path());
    // `HH :mark: HH` at 24 pt from (10, 38) mm: the glyphs and the icon as
    // clusters of dark columns, each with its top and bottom.
    let (top, bottom) = (g.px_of(y0 + 34.0) as usize, g.px_of(y0 + 52.0) as usize);
    let mut clusters: Vec<(usize, usize, usize, usize)> = Vec::new(); // (x0, x1, top, bottom)
    for x in g.px_of(x0 + 8.0) as usize..g.px_of(x0 + 60.0) as usize {
        let dark: Vec<usize> = (top..bottom).filter(|&y| g.at(x, y) < 128).collect();
        let Some((&a, &b)) = dark.first().zip(dark.last()) else {
            continue;
        };
        match clusters.last_mut() {
            Some(c) if c.1 + 1 >= x => *c = (c.0, x, c.2.min(a), c.3.max(b)),
            _ => clusters.push((x, x, a, b)),
        }
    }
    assert_eq!(clusters.len(), 5, "H, H, the icon, H, H: {clusters:?}");
    let icon = clusters[2];
    let baseline = clusters
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != 2)
        .map(|(_, c)| c.3)
        .max()
        .unwrap();
    near(
        g.mm_of(icon.3 as f64),
        g.mm_of(baseline as f64),
        "bottom of the icon against the baseline",
    );
    // 0.8 em of 24 pt tall, square.
    let em = 24.0 * 25.4 / 72.0;
    near(g.mm_of((icon.3 - icon.2 + 1) as f64), 0.8 * em, "height of the icon");
    near(g.mm_of((icon.1 - icon.0 + 1) as f64), 0.8 * em, "width of the icon");
}

#[test]
fn fitted_text_shrinks_until_its_last_word_is_inside_the_box() {
    if !renderer_available("fitted_text_shrinks_until_its_last_word_is_inside_the_box") {
        return;
    }
    let dir = common::fixture_project("layout");
    let (g, x0, y0) = front(dir.path());
    // The box: 40 × 20 mm at (10, 55) mm. The text ends in a black square; a
    // 0.8 mm window entirely black is found only there (strokes are thinner).
    let k = g.px_of(0.8).ceil() as usize;
    let (bx0, by0) = (g.px_of(x0 + 10.0) as usize, g.px_of(y0 + 55.0) as usize);
    let (bx1, by1) = (g.px_of(x0 + 50.0) as usize, g.px_of(y0 + 75.0) as usize);
    let square = (by0..by1 - k).find_map(|y| {
        (bx0..bx1 - k)
            .find(|&x| (y..y + k).all(|yy| (x..x + k).all(|xx| g.at(xx, yy) < 100)))
            .map(|x| (x, y))
    });
    assert!(square.is_some(), "the end of the text (■) is printed inside the box");
    // Nothing printed between the box and the bottom of the card.
    let (lo, hi) = (g.px_of(y0 + 75.3) as usize, g.px_of(y0 + 85.0) as usize);
    let stray = (lo..hi)
        .flat_map(|y| (bx0..bx1).map(move |x| (x, y)))
        .filter(|&(x, y)| g.at(x, y) < 128)
        .count();
    assert_eq!(stray, 0, "dark pixels below the box");
    // And the text was shrunk: at its largest (14 pt) it would need more than
    // three times the box; its lines now sit closer than 14 pt apart.
    let rows: Vec<bool> = (by0..by1).map(|y| (bx0..bx1).any(|x| g.at(x, y) < 128)).collect();
    let lines = rows.windows(2).filter(|w| !w[0] && w[1]).count() + usize::from(rows[0]);
    assert!(lines >= 5, "at least five lines fit once shrunk, found {lines}");
}

#[test]
fn missing_art_prints_a_labelled_placeholder() {
    if !renderer_available("missing_art_prints_a_labelled_placeholder") {
        return;
    }
    let dir = common::fixture_project("layout");
    std::fs::remove_file(dir.path().join("data/lay/art/target.png")).unwrap();
    let report = check(&dir.path().join("data"), &[], &Limits::default()).unwrap();
    let codes: Vec<&str> = report.diagnostics.items.iter().map(|d| d.code.id()).collect();
    assert_eq!(codes, ["W048"], "missing art is a warning, not an error");
    let (g, x0, y0) = front(dir.path());
    // The box is the placeholder's light grey with a dashed frame and a label,
    // not the art's darker grey and its dot.
    let inside = g.mean(x0 + 12.0, y0 + 12.0, 6.0, 6.0);
    assert!(inside > 220.0, "light placeholder fill, mean {inside:.0}");
    let label = g.share(x0 + 11.0, y0 + 15.0, 38.0, 10.0, |v| v < 128);
    assert!(label > 0.002, "a label is printed in the placeholder ({label:.4})");
}

#[test]
fn an_unknown_font_in_a_template_is_an_error_at_its_line() {
    let dir = common::fixture_project("layout");
    let kit = dir.path().join("templates/lay/kit.typ");
    let text = std::fs::read_to_string(&kit).unwrap();
    std::fs::write(
        &kit,
        text.replace("set text(font: sans,", "set text(font: \"Comic Sans\","),
    )
    .unwrap();
    let (_, problems) = build(dir.path());
    let shown: Vec<String> = problems
        .iter()
        .map(|(d, s)| render_human(std::slice::from_ref(d), s, false))
        .collect();
    assert!(shown.iter().any(|s| s.contains("E050")), "{shown:#?}");
    insta::assert_snapshot!("unknown-font-in-template", shown.join("\n"));
}

#[test]
fn check_layout_reports_overflow_with_the_field_and_the_template_line() {
    let dir = common::fixture_project("layout");
    let data = dir.path().join("data/lay/components/card.yaml");
    let text = std::fs::read_to_string(&data).unwrap();
    let long = "so the layout has to shrink it step by step until every word, ".repeat(12);
    std::fs::write(
        &data,
        text.replace("so the layout has to shrink it step by step until every word, ", &long),
    )
    .unwrap();
    let out = common::pnpkit_in(dir.path(), &["check", "--layout", "--color", "never"]);
    let shown = common::out(&out);
    assert_eq!(out.status.code(), Some(0), "warnings alone pass: {shown}");
    assert!(shown.contains("W042") && shown.contains("field `text`"), "{shown}");
    let denied = common::pnpkit_in(dir.path(), &["check", "--layout", "--deny-warnings"]);
    assert_eq!(denied.status.code(), Some(1), "--deny-warnings fails on overflow");
    let plain = common::pnpkit_in(dir.path(), &["check", "--deny-warnings"]);
    assert_eq!(plain.status.code(), Some(0), "without --layout nothing is laid out");
    let shown: String = shown
        .lines()
        .filter(|l| !l.starts_with("checked "))
        .collect::<Vec<_>>()
        .join("\n");
    insta::assert_snapshot!("check-layout-overflow", shown);
}

#[test]
fn the_same_art_is_in_the_gallery_and_the_png_exports() {
    let dir = common::fixture_project("layout");
    for cmd in ["export", "gallery"] {
        let out = common::pnpkit_in(dir.path(), &[cmd]);
        assert!(out.status.success(), "{}", common::out(&out));
    }
    let png = resvg::tiny_skia::Pixmap::load_png(dir.path().join("output/lay/export/en/png/card/one.png")).unwrap();
    let (w, h) = (png.width() as f64, png.height() as f64);
    // The export is the design with or without its bleed: whichever matches its shape.
    let (wmm, hmm) = if ((w / h) - 69.0 / 94.0).abs() < ((w / h) - 63.0 / 88.0).abs() {
        (69.0, 94.0)
    } else {
        (63.0, 88.0)
    };
    let mm2 = (wmm / w) * (hmm / h);
    let grey = |p: &resvg::tiny_skia::PremultipliedColorU8| (150..=190).contains(&p.red()) && p.red() == p.blue();
    let grey_px = png.pixels().iter().filter(|p| grey(p)).count() as f64;
    // The 40 × 20 mm box less the 4 mm dot: about 787 mm² of the art's grey.
    assert!(
        (grey_px * mm2 - 787.0).abs() < 787.0 * 0.05,
        "art grey covers {:.0} mm²",
        grey_px * mm2
    );
    let svg = std::fs::read_to_string(dir.path().join("output/lay/gallery/card/one.svg")).unwrap();
    assert!(svg.contains("data:image/png;base64,"), "the gallery embeds the art");
}
