//! Rendering tests: build kits in memory, open the PDFs with lopdf and
//! check what a printer would see: page sizes, where each piece sits, its
//! pitch, crop marks, duplex alignment, embedded fonts, text.

use crate::common;
use std::path::{Path, PathBuf};
use std::process::Command;

use lopdf::content::Content;
use lopdf::{Document, Object};
use pnpkit::check::check;
use pnpkit::model::Game;
use pnpkit::pack::yaml::Limits;
use pnpkit::render::impose::{self, Duplex};
use pnpkit::render::pipeline::{Built, build_all};
use pnpkit::render::world::Shared;
use pnpkit::render::{KitOptions, Layout, Part};

const PT_PER_MM: f64 = 72.0 / 25.4;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn games(data: &str) -> Vec<Game> {
    let report = check(&root().join(data), &[], &Limits::default()).unwrap();
    assert!(!report.has_errors());
    report.games
}

fn build(data: &str, opts: &KitOptions) -> Vec<Built> {
    let shared = Shared::new(&root(), 1_767_225_600).unwrap();
    let (built, problems) = build_all(&shared, &games(data), opts, &pnpkit::progress::Quiet);
    assert!(
        problems.is_empty(),
        "{:?}",
        problems.iter().map(|(d, _)| &d.message).collect::<Vec<_>>()
    );
    built
}

fn find<'a>(built: &'a [Built], part: Part, paper: &str, locale: &str) -> &'a Built {
    built
        .iter()
        .find(|b| b.plan.part == part && b.plan.paper.map(|p| p.name) == Some(paper) && b.plan.locale == locale)
        .unwrap_or_else(|| panic!("no {part:?} {paper} {locale}"))
}

/// The print-shop pieces file (`<game>-pieces.pdf`).
fn pieces<'a>(built: &'a [Built], locale: &str) -> &'a Built {
    built
        .iter()
        .find(|b| b.plan.part == Part::Pieces && b.plan.locale == locale)
        .expect("pieces document")
}

/// All text a PDF shows, decoded through each font's encoding: page content
/// and form XObjects (sheet pages place designs as XObjects).
fn all_text(doc: &Document) -> String {
    let mut out = String::new();
    for obj in doc.objects.values() {
        let Ok(stream) = obj.as_stream() else { continue };
        let is_form = stream.dict.get(b"Subtype").and_then(|s| s.as_name()).ok() == Some(b"Form");
        if !is_form {
            continue;
        }
        let Ok(resources) = stream.dict.get(b"Resources").and_then(|r| match r {
            Object::Reference(id) => doc.get_dictionary(*id),
            Object::Dictionary(d) => Ok(d),
            _ => Err(lopdf::Error::DictType {
                expected: "Dictionary",
                found: "other".into(),
            }),
        }) else {
            continue;
        };
        let Ok(fonts) = resources.get(b"Font").and_then(|f| match f {
            Object::Reference(id) => doc.get_dictionary(*id),
            Object::Dictionary(d) => Ok(d),
            _ => Err(lopdf::Error::DictType {
                expected: "Dictionary",
                found: "other".into(),
            }),
        }) else {
            continue;
        };
        let mut encodings = std::collections::BTreeMap::new();
        for (name, f) in fonts.iter() {
            let dict = match f {
                Object::Reference(id) => doc.get_dictionary(*id).ok(),
                Object::Dictionary(d) => Some(d),
                _ => None,
            };
            if let Some(enc) = dict.and_then(|d| d.get_font_encoding(doc).ok()) {
                encodings.insert(name.clone(), enc);
            }
        }
        let Ok(content) = stream
            .decompressed_content()
            .or_else(|_| Ok::<_, lopdf::Error>(stream.content.clone()))
        else {
            continue;
        };
        let Ok(ops) = Content::decode(&content) else { continue };
        let mut current: Option<Vec<u8>> = None;
        for op in ops.operations {
            match op.operator.as_str() {
                "Tf" => current = op.operands.first().and_then(|o| o.as_name().ok()).map(|n| n.to_vec()),
                "Tj" | "TJ" => {
                    let Some(enc) = current.as_ref().and_then(|c| encodings.get(c)) else {
                        continue;
                    };
                    let strings: Vec<&Object> = match op.operands.first() {
                        Some(Object::Array(items)) => items.iter().collect(),
                        Some(o) => vec![o],
                        None => vec![],
                    };
                    for s in strings {
                        if let Object::String(bytes, _) = s
                            && let Ok(t) = Document::decode_text(enc, bytes)
                        {
                            out.push_str(&t);
                        }
                    }
                    out.push(' ');
                }
                _ => {}
            }
        }
    }
    out
}

/// What a page draws, in PDF points with the origin at the bottom-left.
#[derive(Debug, Default)]
struct PageGeometry {
    /// Rectangular clips at page level: one per placed piece (trim + bleed).
    clips: Vec<[f64; 4]>,
    /// Two-point stroked paths drawn outside any clip: crop marks, fold lines.
    lines: Vec<[f64; 4]>,
}

type Matrix = [f64; 6];

fn mul(a: &Matrix, b: &Matrix) -> Matrix {
    [
        a[0] * b[0] + a[1] * b[2],
        a[0] * b[1] + a[1] * b[3],
        a[2] * b[0] + a[3] * b[2],
        a[2] * b[1] + a[3] * b[3],
        a[4] * b[0] + a[5] * b[2] + b[4],
        a[4] * b[1] + a[5] * b[3] + b[5],
    ]
}

fn apply(m: &Matrix, x: f64, y: f64) -> (f64, f64) {
    (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])
}

fn num(o: &Object) -> f64 {
    match o {
        Object::Integer(i) => *i as f64,
        Object::Real(r) => *r as f64,
        _ => f64::NAN,
    }
}

/// Walks a page's content stream tracking the transformation matrix and
/// clip nesting, collecting page-level clip rectangles and hairlines.
fn geometry(doc: &Document, page: u32) -> PageGeometry {
    let pages = doc.get_pages();
    let id = pages[&page];
    let content = Content::decode(&doc.get_page_content(id)).unwrap();
    let mut out = PageGeometry::default();
    let mut ctm: Matrix = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0];
    let mut stack: Vec<(Matrix, usize)> = Vec::new();
    let mut clip_depth = 0usize;
    let mut path: Vec<(f64, f64)> = Vec::new();
    let mut pending_clip = false;
    for op in &content.operations {
        let a: Vec<f64> = op.operands.iter().map(num).collect();
        match op.operator.as_str() {
            "q" => stack.push((ctm, clip_depth)),
            "Q" => (ctm, clip_depth) = stack.pop().unwrap_or((ctm, 0)),
            "cm" => ctm = mul(&[a[0], a[1], a[2], a[3], a[4], a[5]], &ctm),
            "m" | "l" => path.push(apply(&ctm, a[0], a[1])),
            "c" => path.push(apply(&ctm, a[4], a[5])),
            "re" => {
                let (x, y) = apply(&ctm, a[0], a[1]);
                let (x2, y2) = apply(&ctm, a[0] + a[2], a[1] + a[3]);
                path.extend([(x, y), (x2, y), (x2, y2), (x, y2)]);
            }
            "W" | "W*" => pending_clip = true,
            "n" => {
                if pending_clip {
                    if clip_depth == 0 && path.len() == 4 {
                        let xs: Vec<f64> = path.iter().map(|p| p.0).collect();
                        let ys: Vec<f64> = path.iter().map(|p| p.1).collect();
                        let (x0, x1) = (
                            xs.iter().cloned().fold(f64::MAX, f64::min),
                            xs.iter().cloned().fold(f64::MIN, f64::max),
                        );
                        let (y0, y1) = (
                            ys.iter().cloned().fold(f64::MAX, f64::min),
                            ys.iter().cloned().fold(f64::MIN, f64::max),
                        );
                        out.clips.push([x0, y0, x1, y1]);
                    }
                    clip_depth += 1;
                }
                pending_clip = false;
                path.clear();
            }
            "S" => {
                if clip_depth == 0 && path.len() == 2 {
                    out.lines.push([path[0].0, path[0].1, path[1].0, path[1].1]);
                }
                path.clear();
            }
            "f" | "f*" | "B" | "B*" | "b" | "b*" | "s" => path.clear(),
            _ => {}
        }
    }
    out
}

fn media_box(doc: &Document, page: u32) -> Vec<f64> {
    let id = doc.get_pages()[&page];
    let dict = doc.get_dictionary(id).unwrap();
    dict.get(b"MediaBox")
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .map(num)
        .collect()
}

fn minimal_opts() -> KitOptions {
    KitOptions {
        locales: Some(vec!["en".into()]),
        ..KitOptions::default()
    }
}

#[test]
fn page_sizes_are_a4_and_letter() {
    let built = build("tests/fixtures/minimal", &minimal_opts());
    for (paper, w, h) in [("a4", 595.28, 841.89), ("letter", 612.0, 792.0)] {
        for part in [Part::Cover, Part::Cards] {
            let doc = Document::load_mem(&find(&built, part, paper, "en").pdf).unwrap();
            for page in doc.get_pages().keys() {
                let mb = media_box(&doc, *page);
                assert!(
                    (mb[2] - w).abs() < 0.01 && (mb[3] - h).abs() < 0.01,
                    "{paper} {part:?}: {mb:?}"
                );
            }
        }
    }
}

/// The trim boxes of a page's pieces in mm from the top-left, from the plan.
fn planned(b: &Built, page: usize) -> Vec<serde_json::Value> {
    b.plan.data["pages"][page]["items"].as_array().unwrap().clone()
}

#[test]
fn pieces_sit_where_planned_with_the_right_pitch() {
    let built = build("tests/fixtures/minimal", &minimal_opts());
    for paper in [impose::A4, impose::LETTER] {
        let b = find(&built, Part::Cards, paper.name, "en");
        let doc = Document::load_mem(&b.pdf).unwrap();
        let g = geometry(&doc, 1);
        let items = planned(b, 0);
        assert_eq!(g.clips.len(), items.len(), "one clip per card on {}", paper.name);
        let height = paper.height * PT_PER_MM;
        for (clip, item) in g.clips.iter().zip(&items) {
            let f = |k: &str| item[k].as_f64().unwrap();
            let bleed: Vec<f64> = item["bleed"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_f64().unwrap())
                .collect();
            // Trim box in mm, from the PDF clip (trim + bleed).
            let x = clip[0] / PT_PER_MM + bleed[0];
            let top = (height - clip[3]) / PT_PER_MM + bleed[1];
            let w = (clip[2] - clip[0]) / PT_PER_MM - bleed[0] - bleed[2];
            let h = (clip[3] - clip[1]) / PT_PER_MM - bleed[1] - bleed[3];
            assert!(
                (x - f("x")).abs() < 0.1 && (top - f("y")).abs() < 0.1,
                "position {x},{top} vs {item}"
            );
            // True size, turned a quarter when that fits more (2 × 4 poker cards).
            assert!(
                ((w - 63.0).abs() < 0.1 && (h - 88.0).abs() < 0.1)
                    || ((w - 88.0).abs() < 0.1 && (h - 63.0).abs() < 0.1),
                "true size 63×88, got {w}×{h}"
            );
        }
        // Cut apart: neighbours at least 2 mm apart, and the PDF's pitch is the plan's.
        let trim_x: Vec<f64> = items.iter().map(|i| i["x"].as_f64().unwrap()).collect();
        let w0 = items[0]["w"].as_f64().unwrap();
        let gap = trim_x[1] - trim_x[0] - w0;
        assert!(gap >= impose::MIN_GAP - 1e-6, "gap {gap} on {}", paper.name);
        let clip_pitch = (g.clips[1][0] - g.clips[0][0]) / PT_PER_MM;
        let bleed0 = items[0]["bleed"][0].as_f64().unwrap();
        let bleed1 = items[1]["bleed"][0].as_f64().unwrap();
        assert!(
            (clip_pitch - (trim_x[1] - trim_x[0]) - (bleed0 - bleed1)).abs() < 0.1,
            "pitch {clip_pitch} on {}",
            paper.name
        );
    }
}

#[test]
fn crop_marks_stay_outside_pieces_and_inside_the_printable_area() {
    let built = build("tests/fixtures/minimal", &minimal_opts());
    for paper in [impose::A4, impose::LETTER] {
        let b = find(&built, Part::Cards, paper.name, "en");
        let doc = Document::load_mem(&b.pdf).unwrap();
        for page in [1, 2] {
            let g = geometry(&doc, page);
            assert!(!g.lines.is_empty(), "marks on page {page}");
            let margin = 5.0 * PT_PER_MM;
            let (pw, ph) = (paper.width * PT_PER_MM, paper.height * PT_PER_MM);
            for l in &g.lines {
                for (x, y) in [(l[0], l[1]), (l[2], l[3])] {
                    assert!(x >= margin - 0.01 && x <= pw - margin + 0.01, "x {x} outside printable");
                    assert!(y >= margin - 0.01 && y <= ph - margin + 0.01, "y {y} outside printable");
                }
                let mid = ((l[0] + l[2]) / 2.0, (l[1] + l[3]) / 2.0);
                for c in &g.clips {
                    let inside =
                        mid.0 > c[0] + 0.01 && mid.0 < c[2] - 0.01 && mid.1 > c[1] + 0.01 && mid.1 < c[3] - 0.01;
                    assert!(!inside, "mark {l:?} over a piece {c:?}");
                }
            }
        }
    }
}

#[test]
fn backs_line_up_with_fronts_for_both_duplex_modes() {
    for duplex in [Duplex::Long, Duplex::Short] {
        let opts = KitOptions {
            duplex,
            papers: vec![impose::A4],
            ..minimal_opts()
        };
        let built = build("tests/fixtures/minimal", &opts);
        let b = find(&built, Part::Cards, "a4", "en");
        let doc = Document::load_mem(&b.pdf).unwrap();
        let (front, back) = (geometry(&doc, 1), geometry(&doc, 2));
        assert_eq!(front.clips.len(), back.clips.len());
        let (pw, ph) = (210.0 * PT_PER_MM, 297.0 * PT_PER_MM);
        for (f, k) in front.clips.iter().zip(&back.clips) {
            // Turning the sheet over maps the back onto the front.
            let expected = match duplex {
                Duplex::Long => [pw - f[2], f[1], pw - f[0], f[3]],
                Duplex::Short => [f[0], ph - f[3], f[2], ph - f[1]],
            };
            for i in 0..4 {
                assert!(
                    (k[i] - expected[i]).abs() < 0.1 * PT_PER_MM,
                    "{duplex:?}: back {k:?} vs {expected:?}"
                );
            }
        }
    }
}

#[test]
fn gutterfold_puts_backs_beside_fronts() {
    let opts = KitOptions {
        layout: Layout::Gutterfold,
        papers: vec![impose::A4],
        ..minimal_opts()
    };
    let built = build("tests/fixtures/minimal", &opts);
    let b = find(&built, Part::Cards, "a4", "en");
    let doc = Document::load_mem(&b.pdf).unwrap();
    // Half a page holds four poker cards turned a quarter (one column of three upright): four cards
    // take one page, no separate backs.
    assert_eq!(doc.get_pages().len(), 1);
    let fold = 105.0 * PT_PER_MM;
    for page in [1] {
        let g = geometry(&doc, page);
        let (left, right): (Vec<&[f64; 4]>, Vec<&[f64; 4]>) = g.clips.iter().partition(|c| c[2] <= fold + 0.01);
        assert_eq!(left.len(), right.len(), "each front has its back beside it");
        for (f, b) in left.iter().zip(&right) {
            assert!(
                (b[0] - (2.0 * fold - f[2])).abs() < 0.1 * PT_PER_MM,
                "mirrored about the fold"
            );
            assert!((b[1] - f[1]).abs() < 0.01);
        }
        assert!(
            g.lines
                .iter()
                .any(|l| (l[0] - fold).abs() < 0.01 && (l[2] - fold).abs() < 0.01),
            "fold line"
        );
    }
}

#[test]
fn fonts_are_embedded_and_names_are_text() {
    let opts = KitOptions {
        papers: vec![impose::A4],
        locales: None,
        ..KitOptions::default()
    };
    let built = build("tests/fixtures/minimal", &opts);
    for locale in ["es", "en"] {
        let b = find(&built, Part::Cards, "a4", locale);
        let doc = Document::load_mem(&b.pdf).unwrap();
        let mut fonts = 0;
        for (_, obj) in doc.objects.iter() {
            if let Ok(d) = obj.as_dict()
                && d.get(b"Type").and_then(|t| t.as_name()).ok() == Some(b"FontDescriptor")
            {
                fonts += 1;
                assert!(
                    d.has(b"FontFile2") || d.has(b"FontFile3") || d.has(b"FontFile"),
                    "font not embedded: {d:?}"
                );
            }
        }
        assert!(fonts > 0);
        // Sheets place each design as a form XObject: its text stays text.
        let text = all_text(&doc);
        let want = if locale == "es" { "Golpe solar" } else { "Sunstrike" };
        assert!(text.contains(want), "{locale}: {text}");
        // The pieces document (for print shops) has the names on its pages.
        let p = Document::load_mem(&pieces(&built, locale).pdf).unwrap();
        assert!(all_text(&p).contains(want));
    }
}

#[test]
fn pieces_document_has_a_trim_box_per_design() {
    let built = build("tests/fixtures/minimal", &minimal_opts());
    let doc = Document::load_mem(&pieces(&built, "en").pdf).unwrap();
    // Two cards (front and back each) and no printed house: 4 designs, however many copies.
    assert_eq!(doc.get_pages().len(), 4);
    for page in doc.get_pages().keys() {
        let id = doc.get_pages()[page];
        let dict = doc.get_dictionary(id).unwrap();
        let media: Vec<f64> = dict
            .get(b"MediaBox")
            .unwrap()
            .as_array()
            .unwrap()
            .iter()
            .map(num)
            .collect();
        let trim: Vec<f64> = dict
            .get(b"TrimBox")
            .expect("TrimBox")
            .as_array()
            .unwrap()
            .iter()
            .map(num)
            .collect();
        let bleed = 3.0 * PT_PER_MM;
        assert!(
            (media[2] - (63.0 + 6.0) * PT_PER_MM).abs() < 0.01 && (media[3] - (88.0 + 6.0) * PT_PER_MM).abs() < 0.01
        );
        assert!((trim[0] - bleed).abs() < 0.01 && (trim[1] - bleed).abs() < 0.01);
        assert!(
            ((trim[2] - trim[0]) - 63.0 * PT_PER_MM).abs() < 0.01
                && ((trim[3] - trim[1]) - 88.0 * PT_PER_MM).abs() < 0.01
        );
    }
}

#[test]
fn same_input_same_bytes_and_the_date_is_honoured() {
    let games = games("tests/fixtures/minimal");
    let opts = KitOptions {
        papers: vec![impose::A4],
        ..minimal_opts()
    };
    let run = |epoch| {
        let shared = Shared::new(&root(), epoch).unwrap();
        let (built, _) = build_all(&shared, &games, &opts, &pnpkit::progress::Quiet);
        built.into_iter().map(|b| b.pdf).collect::<Vec<_>>()
    };
    let (a, b) = (run(1_767_225_600), run(1_767_225_600));
    assert_eq!(a, b, "byte-identical across runs");
    let c = run(1_700_000_000);
    assert_ne!(a, c, "SOURCE_DATE_EPOCH changes the creation date");
    let text = String::from_utf8_lossy(&a[1]);
    assert!(text.contains("D:20260101000000"), "creation date written");
}

/// The shipped games built once for every test that reads them (A4, both
/// locales): the build takes seconds, so tests share it.
fn shipped_a4() -> Vec<&'static Built> {
    common::shipped_kits()
        .iter()
        .filter(|b| b.plan.paper.is_none_or(|p| p.name == impose::A4.name))
        .collect()
}

#[test]
fn every_shipped_game_builds_in_both_locales() {
    let built = shipped_a4();
    for game in ["onevmany", "unmatched", "openwars", "mythic", "xterminio"] {
        for locale in ["es", "en"] {
            let parts: Vec<Part> = built
                .iter()
                .filter(|b| b.plan.game == game && b.plan.locale == locale)
                .map(|b| b.plan.part)
                .collect();
            assert!(
                parts.contains(&Part::Cover) && parts.len() >= 3,
                "{game} {locale}: {parts:?}"
            );
        }
    }
    for b in &built {
        let doc = Document::load_mem(&b.pdf).unwrap();
        assert_eq!(doc.get_pages().len(), b.pages, "{}", b.plan.out.display());
    }
    // Every printable component appears somewhere: nothing is dropped for being too large.
    for game in games("data") {
        for kind in game.kinds.values().filter(|k| k.shape != pnpkit::model::Shape::None) {
            for c in game.components.get(&kind.id).into_iter().flatten() {
                let placed = built
                    .iter()
                    .filter(|b| b.plan.game == game.id && b.plan.part != Part::Pieces)
                    .any(|b| {
                        b.plan.data["pages"].as_array().unwrap().iter().any(|p| {
                            p["items"]
                                .as_array()
                                .into_iter()
                                .flatten()
                                .any(|i| i["kind"] == kind.id.as_str() && i["id"] == c.id.as_str())
                        })
                    });
                assert!(placed, "{} {} `{}` is not in any document", game.id, kind.id, c.id);
            }
        }
    }
}

/// A project copy in a temp dir: fonts, templates and the minimal data.
fn scratch_project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let copy = |from: &Path, to: &Path| {
        Command::new("cp").arg("-r").arg(from).arg(to).status().unwrap();
    };
    copy(&root().join("fonts"), dir.path());
    copy(&root().join("templates"), dir.path());
    copy(&root().join("tests/fixtures/minimal"), &dir.path().join("data"));
    std::fs::write(dir.path().join("pnpkit.toml"), "").unwrap();
    dir
}

fn pnpkit(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_pnpkit"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

#[test]
fn a_failed_build_leaves_the_previous_output_intact() {
    let dir = scratch_project();
    let ok = pnpkit(dir.path(), &["build", "--paper", "a4"]);
    assert_eq!(ok.status.code(), Some(0), "{}", String::from_utf8_lossy(&ok.stdout));
    let pdf = dir.path().join("output/demo/en/demo-cards-a4.pdf");
    assert!(dir.path().join("output/demo/en/demo-pieces.pdf").exists());
    let before = std::fs::read(&pdf).unwrap();
    // Break the generic layout: the build must fail, name the template line, and write nothing.
    let generic = dir.path().join("templates/shared/generic.typ");
    let text = std::fs::read_to_string(&generic).unwrap();
    std::fs::write(&generic, text.replace("c.name))", "c.nmae))")).unwrap();
    let bad = pnpkit(dir.path(), &["build", "--paper", "a4"]);
    let out = String::from_utf8_lossy(&bad.stdout);
    assert_eq!(bad.status.code(), Some(1), "{out}");
    assert!(out.contains("templates/shared/generic.typ:"), "{out}");
    assert!(out.contains("E019"), "{out}");
    assert!(
        out.contains("while drawing the front of card `sunstrike` (Sunstrike)"),
        "names the card: {out}"
    );
    assert_eq!(std::fs::read(&pdf).unwrap(), before);
}

#[test]
fn invalid_data_is_refused_before_rendering() {
    let dir = scratch_project();
    let card = dir.path().join("data/demo/components/card.yaml");
    let text = std::fs::read_to_string(&card).unwrap();
    std::fs::write(&card, text.replace("power: 5", "power: 50")).unwrap();
    let out = pnpkit(dir.path(), &["build"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("build refused"));
    assert!(!dir.path().join("output").exists());
}

#[test]
fn spanish_text_hyphenates_at_syllables() {
    use pnpkit::render::world::DocWorld;
    let shared = Shared::new(&root(), 1_767_225_600).unwrap();
    let main = "#set page(width: 40mm, height: auto, margin: 2mm)\n\
                #set text(font: \"DejaVu Sans\", size: 10pt, lang: \"es\", hyphenate: true)\n\
                #set par(justify: true)\n\
                Desafortunadamente la extraordinaria caballería retrocedió.\n"
        .to_string();
    let world = DocWorld::new(&shared, main, b"{}".to_vec());
    let doc = typst::compile::<typst_layout::PagedDocument>(&world)
        .output
        .expect("compiles");
    let shared_pdf = typst_pdf::pdf(&doc, &typst_pdf::PdfOptions::default()).unwrap();
    let text = Document::load_mem(&shared_pdf).unwrap().extract_text(&[1]).unwrap();
    // Spanish syllables of the long words; every break typst makes must fall on one.
    let allowed = [
        "De-",
        "Desa-",
        "Desafor-",
        "Desafortu-",
        "Desafortuna-",
        "Desafortunada-",
        "Desafortunadamen-",
        "ex-",
        "extra-",
        "extraor-",
        "extraordi-",
        "extraordina-",
        "ca-",
        "caba-",
        "caballe-",
        "caballerí-",
        "re-",
        "retro-",
        "retroce-",
    ];
    // typst marks a hyphenation break with a soft hyphen after the line's last syllable.
    let parts: Vec<&str> = text.split(['\u{ad}', '-']).collect();
    let breaks: Vec<String> = parts[..parts.len() - 1]
        .iter()
        .filter_map(|p| p.split_whitespace().last())
        .map(|w| format!("{w}-"))
        .collect();
    assert!(!breaks.is_empty(), "40 mm forces hyphenation: {text}");
    for b in &breaks {
        assert!(
            allowed.contains(&b.as_str()),
            "break `{b}` is not at a Spanish syllable: {text}"
        );
    }
}

#[test]
fn the_world_refuses_files_outside_the_project_and_packages() {
    use pnpkit::render::world::DocWorld;
    let dir = scratch_project();
    let outside = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(outside.path(), "secret").unwrap();
    std::os::unix::fs::symlink(outside.path(), dir.path().join("templates/leak.txt")).unwrap();
    std::fs::write(dir.path().join("templates/inside.txt"), "fine").unwrap();
    let shared = Shared::new(dir.path(), 1_767_225_600).unwrap();
    let run = |main: &str| {
        let world = DocWorld::new(&shared, main.to_string(), b"{}".to_vec());
        typst::compile::<typst_layout::PagedDocument>(&world)
            .output
            .map(|_| ())
            .map_err(|e| e.iter().map(|d| d.message.to_string()).collect::<Vec<_>>().join("; "))
    };
    assert!(
        run("#read(\"/templates/inside.txt\")").is_ok(),
        "project files are readable"
    );
    let symlink = run("#read(\"/templates/leak.txt\")").unwrap_err();
    assert!(
        symlink.contains("leads outside the project") && !symlink.contains("secret"),
        "a symlink out of the project is refused: {symlink}"
    );
    let parent = run("#read(\"../../etc/hostname\")").unwrap_err();
    assert!(!parent.is_empty(), "`..` cannot leave the root");
    let package = run("#import \"@preview/cetz:0.3.0\": *").unwrap_err();
    assert!(package.contains("packages are not available"), "{package}");
}

#[test]
fn rules_and_quick_reference_render_in_both_locales_without_untranslated_titles() {
    let shipped = games("data");
    let built = shipped_a4();
    for game in &shipped {
        for locale in ["es", "en"] {
            let find_part = |part: Part| {
                built
                    .iter()
                    .find(|b| b.plan.game == game.id && b.plan.locale == locale && b.plan.part == part)
                    .unwrap_or_else(|| panic!("{} {locale}: no {part:?}", game.id))
            };
            let quick = Document::load_mem(&find_part(Part::Quickref).pdf).unwrap();
            assert!(
                (1..=2).contains(&quick.get_pages().len()),
                "{} quick reference: {} pages",
                game.id,
                quick.get_pages().len()
            );
            let rules = Document::load_mem(&find_part(Part::Rules).pdf).unwrap();
            let pages: Vec<u32> = rules.get_pages().keys().copied().collect();
            let text = rules
                .extract_text(&pages)
                .unwrap()
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            // Every numbered rule is in the reference, so a checker message can be looked up.
            for id in &game.rule_ids {
                assert!(text.contains(id.as_str()), "{} {locale}: rule {id} not shown", game.id);
            }
            if locale == "en" {
                for (_, s) in game.reference.sections() {
                    let (es, en) = (s.title.text.get("es"), s.title.text.get("en"));
                    if es != en && es.split_whitespace().count() >= 2 && !es.contains("{{") {
                        assert!(
                            !text.contains(es),
                            "{}: Spanish title `{es}` in the English rules",
                            game.id
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn the_rules_reference_ends_with_an_icon_legend() {
    let built = shipped_a4();
    for game in games("data").iter().filter(|g| !g.icons.is_empty()) {
        for (locale, heading) in [("es", "Iconos"), ("en", "Icons")] {
            let rules = built
                .iter()
                .find(|b| b.plan.game == game.id && b.plan.locale == locale && b.plan.part == Part::Rules)
                .unwrap();
            let doc = Document::load_mem(&rules.pdf).unwrap();
            let last = *doc.get_pages().keys().last().unwrap();
            // The legend may run over more than one page: read the last few.
            let from = last.saturating_sub(3).max(1);
            let text = doc
                .extract_text(&(from..=last).collect::<Vec<_>>())
                .unwrap()
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            assert!(text.contains(heading), "{} {locale}: no «{heading}» heading", game.id);
            for (name, label) in &game.icons {
                let label: String = label.get(locale).split_whitespace().collect::<Vec<_>>().join(" ");
                assert!(
                    text.contains(&label),
                    "{} {locale}: icon `{name}` («{label}») not in the legend",
                    game.id
                );
            }
        }
    }
}

/// Layouts name enum values through `ctx.kind.labels`: a list of enum values
/// (Open Wars' `first_turn_skips`) gets its names under the list's own name,
/// like a plain enum field and the fields of records.
#[test]
fn enum_names_reach_layouts_for_lists_of_values() {
    let game = games("data").into_iter().find(|g| g.id == "openwars").unwrap();
    for (locale, skip, order) in [
        ("en", "collection", "fixed, in player-number order"),
        ("es", "recaudación", "fijo, por número de jugador"),
    ] {
        let view = pnpkit::render::game_view(&game, locale, false);
        let labels = &view["kinds"]["map"]["labels"];
        assert_eq!(labels["turn_order"]["fixed"], order, "{locale}: {labels}");
        assert_eq!(labels["first_turn_skips"]["collection"], skip, "{locale}: {labels}");
    }
}
