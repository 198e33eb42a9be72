//! Snapshot tests of `pnpkit check` diagnostics: one fixture pack per
//! diagnostic code under `tests/fixtures/invalid/<case>/`.

use std::fs;
use std::path::{Path, PathBuf};

use pnpkit::check::{Report, check};
use pnpkit::cmd::check::{human, json};
use pnpkit::diag::{Code, Severity};
use pnpkit::pack::yaml::Limits;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// Runs the check from the crate root so paths in messages are relative and stable.
fn run_case(dir: &Path) -> Report {
    let mut limits = Limits::default();
    if let Ok(s) = fs::read_to_string(dir.join("limits.txt")) {
        for line in s.lines() {
            if let Some(v) = line.strip_prefix("max_file_bytes = ") {
                limits.max_file_bytes = v.trim().parse().unwrap();
            }
        }
    }
    let rel = dir.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap();
    std::env::set_current_dir(env!("CARGO_MANIFEST_DIR")).unwrap();
    check(rel, &[], &limits).expect("fixture readable")
}

fn cases() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = fs::read_dir(fixtures().join("invalid"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    v.sort();
    v
}

#[test]
fn invalid_fixtures_match_snapshots() {
    for dir in cases() {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let report = run_case(&dir);
        assert!(!report.diagnostics.items.is_empty(), "{name}: expected diagnostics");
        insta::assert_snapshot!(format!("invalid__{name}"), human(&report, false, None));
    }
}

#[test]
fn every_code_has_a_fixture_that_reports_it() {
    let cases = cases();
    // `template-*` codes come from `build` (tests/render.rs), `log-*` from
    // `log` (tests/it/rules.rs), `deck-*` from `deck` (tests/it/deck.rs) and
    // `preflight-*` and `missing-glyph` from `preflight`/`build` (tests/preflight.rs), `shop-*` from
    // `export --shop` (tests/shop.rs), `stats-*` from `stats` (tests/stats.rs), `sheet-*` from `import`
    // and `i18n-*` from `i18n import` (tests/hostile.rs, tests/i18n.rs).
    let check_time = |c: &&Code| {
        ![
            "template-",
            "log-",
            "deck-",
            "preflight-",
            "shop-",
            "missing-glyph",
            "sheet-",
            "i18n-",
            "stats-",
            "project-",
            // `effect-unexercised` comes from `check --effects` (tested
            // below); `format-older` from reading logs (tests/it/rules.rs):
            // packs have had one format so far.
            "effect-unexercised",
            "format-older",
            // `memory-limit` stops any command over `--memory-limit` (tests/it/budget.rs).
            "memory-limit",
        ]
        .iter()
        .any(|p| c.name().starts_with(p))
    };
    for code in Code::ALL.iter().filter(check_time) {
        let matching: Vec<_> = cases
            .iter()
            .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with(code.name()))
            .collect();
        assert!(!matching.is_empty(), "no fixture for {} ({})", code.id(), code.name());
        for dir in matching {
            let report = run_case(dir);
            assert!(
                report.diagnostics.items.iter().any(|d| d.code == *code),
                "fixture {} does not report {}",
                dir.display(),
                code.name()
            );
        }
    }
}

#[test]
fn all_problems_are_reported_in_one_run() {
    let report = run_case(&fixtures().join("invalid/many-problems"));
    let codes: Vec<Code> = report.diagnostics.items.iter().map(|d| d.code).collect();
    for want in [
        Code::OutOfRange,
        Code::UnknownField,
        Code::UnknownReference,
        Code::MissingField,
    ] {
        assert!(codes.contains(&want), "{want:?} missing from {codes:?}");
    }
}

#[test]
fn json_report_carries_positions() {
    let report = run_case(&fixtures().join("invalid/out-of-range"));
    let v: serde_json::Value = serde_json::from_str(&json(&report)).unwrap();
    let d = &v["diagnostics"][0];
    assert_eq!(d["code"], "E008");
    assert_eq!(d["name"], "out-of-range");
    assert_eq!(d["severity"], "error");
    assert!(d["file"].as_str().unwrap().ends_with("components/card.yaml"));
    assert_eq!(d["line"], 5);
    assert_eq!(d["column"], 10);
    assert_eq!(d["found"], "12");
    assert_eq!(d["expected"], "an integer from 0 to 9");
    assert_eq!(v["summary"]["errors"], 1);
}

#[test]
fn minimal_pack_is_clean_and_models_values() {
    let report = run_case(&fixtures().join("minimal"));
    assert!(report.diagnostics.items.is_empty(), "{}", human(&report, false, None));
    let game = &report.games[0];
    let card = game.component("card", "moonshield").unwrap();
    assert_eq!(card.copies, 3);
    assert_eq!(card.field("power").and_then(|v| v.as_int()), Some(3));
    assert_eq!(card.name.get("en"), "Moonshield");
}

#[test]
fn shipped_data_is_clean() {
    let report = run_case(&Path::new(env!("CARGO_MANIFEST_DIR")).join("data"));
    let problems: Vec<_> = report
        .diagnostics
        .items
        .iter()
        .filter(|d| matches!(d.severity, Severity::Error | Severity::Warning))
        .collect();
    assert!(problems.is_empty(), "{}", human(&report, false, None));
    let ids: Vec<&str> = report.games.iter().map(|g| g.id.as_str()).collect();
    assert_eq!(ids, ["mythic", "onevmany", "openwars", "unmatched", "xterminio"]);
}

#[test]
fn every_code_is_documented() {
    let doc = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/diagnostics.md")).unwrap();
    for code in Code::ALL {
        let row = format!(
            "| `{}` | `{}` | {} | {} |",
            code.id(),
            code.name(),
            match code.severity() {
                Severity::Error => "error",
                Severity::Warning => "warning",
            },
            code.summary()
        );
        assert!(
            doc.contains(&row),
            "docs/diagnostics.md lacks or misstates {}",
            code.id()
        );
    }
}

#[test]
fn effect_coverage_counts_checked_and_lists_unchecked_effects() {
    let report = run_case(&fixtures().join("effects"));
    assert!(report.diagnostics.items.is_empty(), "{}", human(&report, false, None));
    let cov = pnpkit::check::coverage::coverage(&report.games, &report.sources);
    assert_eq!((cov.effects(), cov.checked()), (3, 2));
    insta::assert_snapshot!("effect-coverage", cov.human());
}

/// Issue 13: at least 95% of the shipped effects are checked by the engines,
/// and every one that is not says why.
#[test]
fn shipped_effects_are_at_least_95_percent_machine_checked() {
    let report = run_case(&Path::new(env!("CARGO_MANIFEST_DIR")).join("data"));
    let cov = pnpkit::check::coverage::coverage(&report.games, &report.sources);
    for g in &cov.games {
        assert!(g.effects > 0, "{} has no structured effects", g.game);
        for u in &g.unchecked {
            assert!(
                u.reason.split_whitespace().count() >= 4,
                "{}: reason too short: {}",
                u.id,
                u.reason
            );
        }
    }
    assert!(cov.percent() >= 95.0, "{}", cov.human());
}
