//! Export tests: print-shop PNG sizes, Tabletop Simulator sheets and JSON,
//! and golden images of a few designs compared with a tolerance.
//! Set `PNPKIT_UPDATE_REFS=1` to rewrite the references in `tests/ref/`.

use std::path::{Path, PathBuf};
use std::process::Command;

use pnpkit::check::check;
use pnpkit::export::{rasterize, tts_cell};
use pnpkit::pack::yaml::Limits;
use pnpkit::render::pipeline::template_for;
use pnpkit::render::world::Shared;
use pnpkit::render::{KitOptions, compile, plan_pieces};
use resvg::tiny_skia::Pixmap;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn png_size(path: &Path) -> (u32, u32) {
    let p = Pixmap::decode_png(&std::fs::read(path).unwrap()).unwrap();
    (p.width(), p.height())
}

fn scratch() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (from, to) in [
        ("fonts", "fonts"),
        ("templates", "templates"),
        ("tests/fixtures/minimal", "data"),
    ] {
        Command::new("cp")
            .arg("-r")
            .arg(root().join(from))
            .arg(dir.path().join(to))
            .status()
            .unwrap();
    }
    std::fs::write(dir.path().join("pnpkit.toml"), "").unwrap();
    dir
}

fn export(dir: &Path, args: &[&str]) {
    let out = Command::new(env!("CARGO_BIN_EXE_pnpkit"))
        .arg("export")
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
}

#[test]
fn print_shop_pngs_have_the_shop_sizes() {
    let dir = scratch();
    export(dir.path(), &["--locale", "en"]);
    let png = dir.path().join("output/demo/export/en/png/card");
    assert_eq!(png_size(&png.join("sunstrike.png")), (822, 1122));
    assert_eq!(png_size(&png.join("sunstrike-back.png")), (822, 1122));
    export(dir.path(), &["--locale", "en", "--style", "tgc", "--out", "tgc"]);
    assert_eq!(
        png_size(&dir.path().join("tgc/demo/export/en/png/card/moonshield.png")),
        (825, 1125)
    );
    export(dir.path(), &["--locale", "en", "--style", "exact", "--out", "exact"]);
    // 63×88 mm + 3 mm bleed each side at 300 dpi.
    assert_eq!(
        png_size(&dir.path().join("exact/demo/export/en/png/card/moonshield.png")),
        (815, 1110)
    );
}

#[test]
fn tts_deck_sheets_and_json() {
    let dir = scratch();
    export(
        dir.path(),
        &["--locale", "es", "--url-prefix", "https://example.org/kit/"],
    );
    let tts = dir.path().join("output/demo/export/es/tts");
    let (w, h) = png_size(&tts.join("card-faces-1.png"));
    let (cw, ch) = tts_cell(822, 1122);
    // Two designs and the hidden card: one row of three cells.
    assert_eq!((w, h), (3 * cw, ch));
    assert!(w <= 4096 && h <= 4096);
    assert_eq!(png_size(&tts.join("card-backs-1.png")), (w, h));
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(tts.join("card.json")).unwrap()).unwrap();
    let deck = &json["ObjectStates"][0];
    // One Sunstrike and three Moonshields.
    assert_eq!(deck["DeckIDs"], serde_json::json!([100, 101, 101, 101]));
    assert_eq!(
        deck["CustomDeck"]["1"]["FaceURL"],
        "https://example.org/kit/card-faces-1.png"
    );
    assert_eq!(deck["CustomDeck"]["1"]["NumWidth"], 3);
    assert_eq!(deck["ContainedObjects"][1]["Nickname"], "Escudo lunar");
}

/// Mean difference per channel, and the share of pixels off by more than 64 levels.
fn compare(a: &Pixmap, b: &Pixmap) -> (f64, f64) {
    assert_eq!((a.width(), a.height()), (b.width(), b.height()), "image size changed");
    let (mut sum, mut bad) = (0u64, 0usize);
    for (p, q) in a.pixels().iter().zip(b.pixels()) {
        let d = [
            p.red().abs_diff(q.red()),
            p.green().abs_diff(q.green()),
            p.blue().abs_diff(q.blue()),
        ];
        sum += d.iter().map(|x| *x as u64).sum::<u64>();
        if d.iter().any(|x| *x > 64) {
            bad += 1;
        }
    }
    let n = a.pixels().len() as f64;
    (sum as f64 / (3.0 * n), bad as f64 / n)
}

#[test]
fn designs_match_their_golden_images() {
    let cases: &[(&str, &str, &str, &str, &str)] = &[
        ("tests/fixtures/minimal", "demo", "card", "sunstrike", "front"),
        ("tests/fixtures/minimal", "demo", "card", "moonshield", "back"),
        ("data", "unmatched", "card", "croquet-match", "front"),
        ("data", "openwars", "unit", "amazon-warriors", "front"),
        ("data", "onevmany", "scenario", "patio-abierto", "front"),
        ("data", "mythic", "troop", "hoplites", "front"),
        ("data", "xterminio", "character", "exploradora", "front"),
    ];
    let shared = Shared::new(&root(), 1_767_225_600).unwrap();
    let update = std::env::var_os("PNPKIT_UPDATE_REFS").is_some();
    let mut failures = Vec::new();
    for (data, game_id, kind, id, face) in cases {
        let report = check(&root().join(data), &[game_id.to_string()], &Limits::default()).unwrap();
        let game = &report.games[0];
        if game.component(kind, id).is_none() {
            failures.push(format!("{game_id}: no {kind} `{id}` (update the golden cases)"));
            continue;
        }
        let pieces = plan_pieces(game, "en", &KitOptions::default(), &template_for(&shared, game));
        let mut sources = pnpkit::diag::SourceMap::default();
        let (chunk, page) = pieces.locate(kind, id, face, None);
        let doc = compile(&shared, &pieces.chunks[chunk], &[], &mut sources, None)
            .unwrap_or_else(|_| panic!("{game_id} compiles"));
        let page = &doc.document.pages()[page - 1];
        // Small renders keep the references light; 100 dpi shows any layout change.
        let size = page.frame.size();
        let (w, h) = (
            (size.x.to_mm() + 6.0) / 25.4 * 100.0,
            (size.y.to_mm() + 6.0) / 25.4 * 100.0,
        );
        let img = rasterize(page, w.round() as u32, h.round() as u32).unwrap();
        let reference = root().join(format!("tests/ref/{game_id}-{kind}-{id}-{face}.png"));
        if update || !reference.exists() {
            std::fs::create_dir_all(reference.parent().unwrap()).unwrap();
            std::fs::write(&reference, img.encode_png().unwrap()).unwrap();
            continue;
        }
        let want = Pixmap::decode_png(&std::fs::read(&reference).unwrap()).unwrap();
        let (mean, bad) = compare(&img, &want);
        if mean > 2.0 || bad > 0.01 {
            let actual = reference.with_extension("actual.png");
            std::fs::write(&actual, img.encode_png().unwrap()).unwrap();
            failures.push(format!(
                "{}: mean difference {mean:.2}, {:.2}% pixels off (see {})",
                reference.display(),
                bad * 100.0,
                actual.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
