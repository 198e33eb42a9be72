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

/// A project with one game, `duel`, as `pnpkit new` writes it.
pub fn new_pack() -> tempfile::TempDir {
    let tmp = empty_project();
    let o = pnpkit_in(tmp.path(), &["new", "duel"]);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    tmp
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
    let tmp = new_pack();
    let dir = tmp.path();
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

/// SVG art and icons that would not print as drawn: a link to a web address,
/// a path out of the pack, a font that is not at hand. Each is refused at
/// `check` (E047) at the YAML line that names the file, with where in the SVG.
#[test]
fn svg_art_is_checked_where_it_is_declared() {
    let tmp = new_pack();
    let dir = tmp.path();
    let svg = |body: &str| {
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"60\" height=\"30\">\n  {body}\n</svg>\n"
        )
    };
    let pack = dir.join("data/duel");
    std::fs::write(
        pack.join("art/web.svg"),
        svg("<image href=\"https://example.com/sun.png\" width=\"10\" height=\"10\"/>"),
    )
    .unwrap();
    std::fs::write(
        pack.join("art/outside.svg"),
        svg("<image xlink:href=\"../../../secret.png\" width=\"10\" height=\"10\"/>"),
    )
    .unwrap();
    std::fs::write(
        pack.join("art/comic.svg"),
        svg("<text x=\"2\" y=\"20\" font-family=\"Comic Sans MS\">Eclipse</text>"),
    )
    .unwrap();
    std::fs::write(
        pack.join("icons/moon.svg"),
        svg("<text x=\"2\" y=\"20\" style=\"font-family: Papyrus; fill: #000000\">M</text>"),
    )
    .unwrap();
    let cards = "data/duel/components/card.yaml";
    edit(dir, cards, "  power: 5\n", "  power: 5\n  art: art/web.svg\n");
    edit(dir, cards, "  power: 3\n", "  power: 3\n  art: art/outside.svg\n");
    edit(dir, cards, "art: art/eclipse.svg", "art: art/comic.svg");
    let o = pnpkit_in(dir, &["check", "duel"]);
    let text = out(&o);
    assert_eq!(o.status.code(), Some(1), "{text}");
    let found: Vec<String> = text
        .lines()
        .filter(|l| l.starts_with("error[") || l.starts_with(" --> ") || l.starts_with("  --> "))
        .map(|l| l.trim().to_owned())
        .collect();
    insta::assert_snapshot!("svg-refused", found.join("\n"));
}

/// Every text of the quick reference is markup: an icon in an action's cost
/// prints as the icon, not as `:sun:`.
#[test]
fn icons_print_in_the_quick_reference_costs() {
    if !crate::common::raster::renderer_available("icons_print_in_the_quick_reference_costs") {
        return;
    }
    let tmp = new_pack();
    let dir = tmp.path();
    edit(
        dir,
        "data/duel/quickref.yaml",
        "cost: {es: \"1 carta\", en: \"1 card\"}",
        "cost: {es: \"1 carta y :sun:\", en: \"1 card and :sun:\"}",
    );
    let o = pnpkit_in(dir, &["build", "duel", "--paper", "a4", "--locale", "en"]);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    let pdf = std::fs::read(dir.join("output/duel/en/duel-quickref-a4.pdf")).unwrap();
    let text = crate::common::raster::pdf_text(&pdf);
    assert!(text.contains("1 card and"), "{text}");
    assert!(!text.contains(":sun:"), "the icon printed as its name: {text}");
}

/// The art box is the size the field declares, declared once: art that
/// `check` measures at 300 ppi prints at 300 ppi (the scaffold used to
/// declare 51 × 30 mm and draw 57 mm wide: 269 ppi at preflight).
#[test]
fn art_prints_at_the_size_check_measures() {
    let tmp = new_pack();
    let dir = tmp.path();
    // 51 × 30 mm at 300 ppi: 603 × 355 pixels (rounded up).
    write_png(&dir.join("data/duel/art/exact.png"), 603, 355);
    edit(
        dir,
        "data/duel/components/card.yaml",
        "  power: 5\n",
        "  power: 5\n  art: art/exact.png\n",
    );
    let o = pnpkit_in(dir, &["check", "duel", "--deny-warnings"]);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    let o = pnpkit_in(dir, &["preflight", "duel", "--paper", "a4"]);
    let text = out(&o);
    assert!(!text.contains("W043"), "{text}");
    assert_eq!(o.status.code(), Some(0), "{text}");
}
