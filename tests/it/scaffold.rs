//! `pnpkit new`: a scaffolded pack checks clean and builds at once.

use std::path::Path;

use crate::common;
use crate::common::{copy_dir, out, pnpkit_in};

/// A project folder with the fonts and shared templates, and no pack.
pub fn empty_project() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    copy_dir(&root.join("fonts"), &tmp.path().join("fonts"));
    copy_dir(&root.join("templates/shared"), &tmp.path().join("templates/shared"));
    tmp
}

#[test]
fn new_pack_checks_clean_and_builds() {
    let tmp = empty_project();
    let dir = tmp.path();
    let o = pnpkit_in(dir, &["new", "star-duel"]);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    assert!(dir.join("data/star-duel/game.yaml").is_file());
    assert!(dir.join("templates/star-duel/kit.typ").is_file());
    let game = std::fs::read_to_string(dir.join("data/star-duel/game.yaml")).unwrap();
    assert!(game.contains("id: star-duel") && game.contains("Star Duel") && game.contains("prefix: STAR"));
    assert!(
        game.lines().filter(|l| l.contains('#')).count() >= 8,
        "teaching comments: {game}"
    );
    let o = pnpkit_in(dir, &["check", "star-duel", "--deny-warnings"]);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    assert!(out(&o).contains("0 errors, 0 warnings"), "{}", out(&o));
    let o = pnpkit_in(dir, &["build", "star-duel", "--paper", "a4"]);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    for part in ["cards", "rules", "quickref", "cover"] {
        let pdf = dir.join(format!("output/star-duel/en/star-duel-{part}-a4.pdf"));
        let bytes = std::fs::read(&pdf).unwrap_or_else(|_| panic!("{} missing", pdf.display()));
        assert!(bytes.starts_with(b"%PDF"), "{}", pdf.display());
    }
    // The game's own layout drew the cards (its power in big type), not the generic one.
    let cards = std::fs::read(dir.join("output/star-duel/en/star-duel-pieces.pdf")).unwrap();
    assert!(cards.len() > 1000);
    // The scaffold shows each feature a designer starts from: enum names per
    // locale, markup with a bulleted list inside a fitted text box, inline
    // icons (drawn as images) and art.
    if !common::raster::renderer_available("new_pack_checks_clean_and_builds") {
        return;
    }
    // poppler's pdftotext reads the placed designs (lopdf does not enter them).
    let pdftotext = std::process::Command::new("pdftotext")
        .arg(dir.join("output/star-duel/en/star-duel-pieces.pdf"))
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils) runs");
    let text = String::from_utf8_lossy(&pdftotext.stdout)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let doc = lopdf::Document::load_mem(&cards).unwrap();
    for words in [
        "Moon",
        "Change its suit to",
        "Your opponent discards a card",
        "If you win with 5",
    ] {
        assert!(text.contains(words), "«{words}» printed: {text}");
    }
    let images = doc
        .objects
        .values()
        .filter(|o| {
            o.as_stream().is_ok_and(|s| {
                s.dict
                    .get(b"Subtype")
                    .is_ok_and(|t| t.as_name().is_ok_and(|n| n == b"Image" || n == b"Form"))
            })
        })
        .count();
    assert!(images >= 3, "icons and art are placed ({images} image or form objects)");
}

#[test]
fn new_refuses_to_overwrite_and_bad_ids() {
    let tmp = empty_project();
    let dir = tmp.path();
    assert_eq!(pnpkit_in(dir, &["new", "duel"]).status.code(), Some(0));
    let before = std::fs::read(dir.join("data/duel/game.yaml")).unwrap();
    std::fs::write(dir.join("data/duel/game.yaml"), b"id: duel # edited\n").unwrap();
    let o = pnpkit_in(dir, &["new", "duel"]);
    assert_eq!(o.status.code(), Some(2), "{}", out(&o));
    assert!(out(&o).contains("already exists"), "{}", out(&o));
    assert_eq!(
        std::fs::read(dir.join("data/duel/game.yaml")).unwrap(),
        b"id: duel # edited\n"
    );
    assert_ne!(before, b"id: duel # edited\n");
    let o = pnpkit_in(dir, &["new", "Bad Name"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(out(&o).contains("not a game id"), "{}", out(&o));
    // --data puts the pack elsewhere.
    let o = pnpkit_in(dir, &["--data", "games", "new", "solo"]);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    assert!(dir.join("games/solo/game.yaml").is_file());
    let o = pnpkit_in(dir, &["--data", "games", "check", "--deny-warnings"]);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
}
