//! A designer's second day (issue 25): a scaffolded pack changed the way a
//! designer changes one, and what `build`, `check` and `i18n` tell of it.

use std::path::Path;

use crate::common::{out, pnpkit_in};
use crate::scaffold::empty_project;

/// Writes a one-colour PNG of `w` × `h` pixels.
pub fn write_png(path: &Path, w: u32, h: u32) {
    image::RgbImage::from_pixel(w, h, image::Rgb([200, 60, 40]))
        .save(path)
        .unwrap();
}

/// Replaces `from` by `to` in a file of the project, once, and insists it was there.
pub fn edit(dir: &Path, file: &str, from: &str, to: &str) {
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{file} lacks {from:?}");
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
}

/// A scaffolded game with what a kit must not print silently: art that does
/// not exist (a placeholder prints), a 72 ppi PNG, and a card whose Spanish
/// text was never written (the Spanish kit prints the English one).
fn unfit_pack() -> tempfile::TempDir {
    let tmp = empty_project();
    let dir = tmp.path();
    let o = pnpkit_in(dir, &["new", "duel"]);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    write_png(&dir.join("data/duel/art/low.png"), 144, 85);
    let cards = "data/duel/components/card.yaml";
    edit(dir, cards, "  power: 5\n", "  power: 5\n  art: art/low.png\n");
    edit(dir, cards, "  power: 3\n", "  power: 3\n  art: art/missing.png\n");
    edit(
        dir,
        cards,
        "text: {es: \"Si ganas con **{{ power }}**, roba una {{ term(id=\\\"card\\\") }} de :sun:.\", en:",
        "text: {en:",
    );
    tmp
}

/// The diagnostics' headlines and the summary line, times left out.
fn headlines(text: &str) -> String {
    text.lines()
        .filter(|l| {
            l.starts_with("warning[")
                || l.starts_with("error[")
                || l.starts_with("built ")
                || l.contains(" = note: the")
        })
        .map(|l| match l.find(" in ") {
            Some(at) if l.starts_with("built ") => {
                let tail = &l[l.find(" s (").map_or(l.len(), |i| i + 3)..];
                format!("{} … {tail}", &l[..at])
            }
            _ => l.trim().to_owned(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn build_reports_what_check_warns_of_and_counts_it() {
    let tmp = unfit_pack();
    let dir = tmp.path();
    let o = pnpkit_in(dir, &["build", "duel", "--paper", "a4"]);
    let text = out(&o);
    assert_eq!(o.status.code(), Some(0), "{text}");
    let printed = text.lines().filter(|l| l.starts_with("warning[")).count();
    assert!(printed >= 3, "{text}");
    assert!(text.contains(&format!("({printed} warnings;")), "{text}");
    insta::assert_snapshot!("unfit-build", headlines(&text));
    // Again from the cache: nothing compiled, the same warnings.
    let again = out(&pnpkit_in(dir, &["build", "duel", "--paper", "a4"]));
    let warnings = |t: &str| {
        t.lines()
            .filter(|l| l.starts_with("warning["))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(warnings(&again), warnings(&text), "{again}");
    assert!(again.contains(&format!("({printed} warnings;")), "{again}");
    let o = pnpkit_in(dir, &["build", "duel", "--paper", "a4", "--deny-warnings"]);
    assert_eq!(o.status.code(), Some(1), "{}", out(&o));
    // JSON: the same warnings, counted.
    let o = pnpkit_in(dir, &["--format", "json", "build", "duel", "--paper", "a4"]);
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(doc["warnings"], printed, "{doc}");
    let codes: Vec<&str> = doc["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    for code in ["W048", "W049", "W014"] {
        assert!(codes.contains(&code), "{code} in {codes:?}");
    }
}

#[test]
fn i18n_status_reports_a_missing_source_text() {
    let tmp = unfit_pack();
    let dir = tmp.path();
    let o = pnpkit_in(dir, &["i18n", "status", "duel"]);
    let text = out(&o);
    assert_eq!(o.status.code(), Some(1), "{text}");
    assert!(
        text.contains("missing source es: duel/components/card.yaml:9 (components/card.yaml#sunstrike.text)"),
        "{text}"
    );
    let o = pnpkit_in(dir, &["--format", "json", "i18n", "status", "duel"]);
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let source = doc["status"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["source"] == true)
        .unwrap_or_else(|| panic!("{doc}"));
    assert_eq!(source["locale"], "es");
    assert_eq!(source["missing"], 1);
}
