//! The binary's contract: exit codes, formats, help.

use std::process::{Command, Output};

fn pnpkit(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pnpkit"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run pnpkit")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn shipped_data_checks_clean() {
    let o = pnpkit(&["check", "--deny-warnings"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains("0 errors, 0 warnings"));
}

#[test]
fn problems_exit_one() {
    let o = pnpkit(&["--data", "tests/fixtures/invalid/out-of-range", "check"]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(out.contains("error[E008]"), "{out}");
    assert!(
        out.contains("tests/fixtures/invalid/out-of-range/demo/components/card.yaml:5:10"),
        "{out}"
    );
}

#[test]
fn warnings_alone_exit_zero_unless_denied() {
    let args = ["--data", "tests/fixtures/invalid/missing-translation", "check"];
    assert_eq!(pnpkit(&args).status.code(), Some(0));
    let mut denied = args.to_vec();
    denied.push("--deny-warnings");
    assert_eq!(pnpkit(&denied).status.code(), Some(1));
}

#[test]
fn missing_directory_exits_two_with_the_path() {
    let o = pnpkit(&["--data", "no/such/dir", "check"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no/such/dir"));
}

#[test]
fn unknown_game_exits_two() {
    let o = pnpkit(&["check", "chess"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("chess"));
}

#[test]
fn usage_error_exits_two() {
    assert_eq!(pnpkit(&["check", "--bogus"]).status.code(), Some(2));
}

#[test]
fn json_format_is_valid_json() {
    let o = pnpkit(&[
        "--data",
        "tests/fixtures/invalid/many-problems",
        "check",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(v["diagnostics"].as_array().unwrap().len() >= 4);
}

#[test]
fn every_command_has_help_with_an_example() {
    for cmd in [
        vec!["--help"],
        vec!["check", "--help"],
        vec!["schema", "--help"],
        vec!["build", "--help"],
        vec!["export", "--help"],
        vec!["i18n", "--help"],
    ] {
        let o = pnpkit(&cmd);
        assert_eq!(o.status.code(), Some(0));
        assert!(stdout(&o).contains("Examples:"), "{cmd:?}");
    }
}

#[test]
fn committed_schemas_are_up_to_date() {
    let o = pnpkit(&["schema", "--check"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
}

/// A copy of the minimal pack in a temp dir, as the data directory.
fn minimal_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    Command::new("cp")
        .arg("-r")
        .arg(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/minimal/demo"))
        .arg(dir.path())
        .status()
        .unwrap();
    dir
}

#[test]
fn translation_status_reports_stale_and_missing_texts() {
    let dir = minimal_copy();
    let data = dir.path().to_str().unwrap();
    let run = |args: &[&str]| {
        let mut all = vec!["--data", data, "i18n"];
        all.extend_from_slice(args);
        pnpkit(&all)
    };
    // Nothing recorded yet: every translation is present but unrecorded.
    let o = run(&["status"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert_eq!(run(&["accept", "--locale", "en"]).status.code(), Some(0));
    let o = run(&["status", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let row = &v["status"][0];
    assert_eq!(row["current"], row["texts"]);
    assert_eq!(row["stale"], 0);
    // Change a Spanish source: its translation becomes stale; drop an English one: missing.
    let cards = dir.path().join("demo/components/card.yaml");
    let text = std::fs::read_to_string(&cards).unwrap();
    let text = text.replace("{es: Golpe solar, en: Sunstrike}", "{es: Golpe del sol, en: Sunstrike}");
    let text = text.replace("{es: Escudo lunar, en: Moonshield}", "{es: Escudo lunar}");
    std::fs::write(&cards, text).unwrap();
    let o = run(&["status"]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(
        out.contains("stale en: demo/components/card.yaml:3 (components/card.yaml#sunstrike.name)"),
        "{out}"
    );
    assert!(
        out.contains("missing en: demo/components/card.yaml:9 (components/card.yaml#moonshield.name)"),
        "{out}"
    );
    // The PO export marks the stale entry fuzzy and leaves the missing one empty.
    let out_dir = dir.path().join("po");
    assert_eq!(
        run(&["export", "--locale", "en", "--out", out_dir.to_str().unwrap()])
            .status
            .code(),
        Some(0)
    );
    let po = std::fs::read_to_string(out_dir.join("demo/i18n/en.po")).unwrap();
    assert!(
        po.contains(
            "#, fuzzy\nmsgctxt \"components/card.yaml#sunstrike.name\"\nmsgid \"Golpe del sol\"\nmsgstr \"Sunstrike\""
        ),
        "{po}"
    );
    assert!(
        po.contains("msgctxt \"components/card.yaml#moonshield.name\"\nmsgid \"Escudo lunar\"\nmsgstr \"\""),
        "{po}"
    );
}

#[test]
fn shipped_translations_are_complete_and_current() {
    let o = pnpkit(&["i18n", "status"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(!stdout(&o).contains("stale") || stdout(&o).contains("stale  missing"));
}
