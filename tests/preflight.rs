//! Preflight: the laid-out pages inspected for what would print badly.
//! A fixture whose one design breaks each check once; its diagnostics are
//! snapshot-tested (piece, locale, template line, numbers).

mod common;

use pnpkit::check::check;
use pnpkit::diag::render_human;
use pnpkit::pack::yaml::Limits;
use pnpkit::progress::Quiet;
use pnpkit::render::pipeline::build_all;
use pnpkit::render::preflight;
use pnpkit::render::world::Shared;
use pnpkit::render::{KitOptions, impose};

const EPOCH: i64 = 1_767_225_600;

/// Every finding of a build of `data` under `root`, rendered for humans, in order.
fn findings(root: &std::path::Path, limits: preflight::Limits) -> Vec<String> {
    let report = check(&root.join("data"), &[], &Limits::default()).unwrap();
    assert!(!report.has_errors());
    let shared = Shared::new(root, EPOCH).unwrap();
    let opts = KitOptions {
        papers: vec![impose::A4],
        preflight: Some(limits),
        ..KitOptions::default()
    };
    let (built, problems) = build_all(&shared, &report.games, &opts, &Quiet);
    assert!(problems.is_empty());
    built
        .iter()
        .flat_map(|b| &b.findings)
        .map(|(d, s)| render_human(std::slice::from_ref(d), s, false))
        .collect()
}

#[test]
fn each_check_reports_at_its_template_line() {
    let dir = common::fixture_project("preflight");
    let found = findings(dir.path(), preflight::Limits::default());
    let codes: Vec<&str> = found
        .iter()
        .filter_map(|f| f.split('[').nth(1).and_then(|s| s.split(']').next()))
        .collect();
    for code in ["W040", "W041", "W042", "W043", "W051", "W078"] {
        assert!(codes.contains(&code), "{code} in {codes:?}");
    }
    // The good card has no finding; every finding names the bad one.
    assert!(found.iter().all(|f| f.contains("`bad`")), "{found:#?}");
    insta::assert_snapshot!("preflight-fixture", found.join("\n"));
}

#[test]
fn limits_are_the_users() {
    let dir = common::fixture_project("preflight");
    // With a 4 pt minimum the tiny print passes; with a 0.2 mm safe zone the text at 0.5 mm passes.
    let found = findings(
        dir.path(),
        preflight::Limits {
            min_text_pt: 4.0,
            safe_mm: 0.2,
            ..preflight::Limits::default()
        },
    );
    assert!(!found.iter().any(|f| f.contains("W040")), "{found:#?}");
    assert!(!found.iter().any(|f| f.contains("«edge of the card»")), "{found:#?}");
}

/// The shipped kits as a player prints them: in both locales and both papers
/// no text below 6 pt, nothing outside the 3 mm safe zone, no text cut off,
/// no art below 300 ppi and no character the fonts cannot draw.
#[test]
fn the_shipped_kits_pass_preflight_clean() {
    let root = common::root();
    let report = check(&root.join("data"), &[], &Limits::default()).unwrap();
    assert!(!report.has_errors());
    let shared = Shared::new(root, EPOCH).unwrap();
    let opts = KitOptions {
        papers: vec![impose::A4, impose::LETTER],
        preflight: Some(preflight::Limits::default()),
        ..KitOptions::default()
    };
    let (built, problems) = build_all(&shared, &report.games, &opts, &Quiet);
    assert!(problems.is_empty());
    let found: Vec<String> = built
        .iter()
        .flat_map(|b| &b.findings)
        .map(|(d, s)| render_human(std::slice::from_ref(d), s, false))
        .collect();
    assert!(
        found.is_empty(),
        "{} findings, the first: {:#?}",
        found.len(),
        &found[..found.len().min(5)]
    );
}
