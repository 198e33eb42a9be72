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

/// A temp dir holding a copy of `rel` (a path in the project).
fn copy_of(rel: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    Command::new("cp")
        .arg("-r")
        .arg(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(rel))
        .arg(dir.path())
        .status()
        .unwrap();
    dir
}

/// A copy of the minimal pack in a temp dir, as the data directory.
fn minimal_copy() -> tempfile::TempDir {
    copy_of("tests/fixtures/minimal/demo")
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
}

#[test]
fn po_round_trip_changes_only_what_translators_changed() {
    let dir = minimal_copy();
    let data = dir.path().to_str().unwrap();
    let po_tmp = tempfile::tempdir().unwrap();
    let po_dir = po_tmp.path().join("po");
    let run = |args: &[&str]| {
        let mut all = vec!["--data", data, "i18n"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["--locale", "en", "--out", po_dir.to_str().unwrap()]);
        pnpkit(&all)
    };
    let cards = dir.path().join("demo/components/card.yaml");
    std::fs::write(
        &cards,
        std::fs::read_to_string(&cards)
            .unwrap()
            .replace("{es: Escudo lunar, en: Moonshield}", "{es: Escudo lunar}"),
    )
    .unwrap();
    let before: Vec<(std::path::PathBuf, Vec<u8>)> = walk(&dir.path().join("demo"));
    assert_eq!(run(&["export"]).status.code(), Some(0));
    // Unchanged PO: the YAML stays byte for byte as it was.
    let o = run(&["import"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    for (path, bytes) in &before {
        if !path.to_string_lossy().contains("/i18n/") {
            assert_eq!(&std::fs::read(path).unwrap(), bytes, "{} changed", path.display());
        }
    }
    // A translator fills the missing name and rewords another text.
    let po_path = po_dir.join("demo/i18n/en.po");
    let po = std::fs::read_to_string(&po_path)
        .unwrap()
        .replace(
            "msgid \"Escudo lunar\"\nmsgstr \"\"",
            "msgid \"Escudo lunar\"\nmsgstr \"Moon Shield\"",
        )
        .replace("msgstr \"Sunstrike\"", "msgstr \"Sun Strike\"");
    std::fs::write(&po_path, po).unwrap();
    let o = run(&["import"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("2 translations changed in 1 file,"),
        "{}",
        stdout(&o)
    );
    let text = std::fs::read_to_string(&cards).unwrap();
    // Each translation keeps the style of the text it replaces (or of its source).
    assert!(text.contains("{es: Golpe solar, en: Sun Strike}"), "{text}");
    assert!(text.contains("{es: Escudo lunar, en: Moon Shield}"), "{text}");
    // The pack is still clean and every translation is current.
    assert_eq!(
        pnpkit(&["--data", data, "check", "--deny-warnings"]).status.code(),
        Some(0)
    );
    let o = pnpkit(&["--data", data, "i18n", "status", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["status"][0]["missing"], 0);
    assert_eq!(v["status"][0]["stale"], 0);
}

fn walk(dir: &std::path::Path) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push((p.clone(), std::fs::read(&p).unwrap()));
        }
    }
    out
}

#[test]
fn shipped_data_survives_a_po_round_trip_unchanged() {
    let dir = copy_of("data");
    let data = dir.path().join("data");
    let before = walk(&data);
    let po = dir.path().join("po");
    for action in ["export", "import"] {
        let o = pnpkit(&[
            "--data",
            data.to_str().unwrap(),
            "i18n",
            action,
            "--out",
            po.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    }
    for (path, bytes) in &before {
        assert_eq!(&std::fs::read(path).unwrap(), bytes, "{} changed", path.display());
    }
}

#[test]
fn deck_exit_codes_and_json() {
    let o = pnpkit(&["deck", "xterminio", "data/xterminio/decks/resistance-starter.txt"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains("xterminio deck: legal"));
    let o = pnpkit(&["deck", "mythic", "data/mythic/decks/duel-zeus.txt", "--players", "3"]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "a 12-point army is illegal with 10 points:\n{}",
        stdout(&o)
    );
    assert!(
        stdout(&o).contains("recruitment points: 12 spent of 10"),
        "{}",
        stdout(&o)
    );
    let o = pnpkit(&[
        "deck",
        "openwars",
        "data/openwars/decks/amazons.txt",
        "--param",
        "gold=28",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    assert_eq!(j["legal"], false);
    assert_eq!(j["verdict"]["violations"][0]["rules"][0], "OW-D2");
    assert_eq!(j["diagnostics"][0]["code"], "E030");
    let o = pnpkit(&["deck", "xterminio", "no/such/deck.txt"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn log_of_an_unknown_game_is_a_problem_and_a_missing_file_is_fatal() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.yaml");
    std::fs::write(&path, "game: unmatchd\nplayers: [{name: Ana}]\nturns: []\n").unwrap();
    let o = pnpkit(&["log", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("did you mean `unmatched`?"), "{}", stdout(&o));
    let o = pnpkit(&["log", "no/such/log.yaml"]);
    assert_eq!(o.status.code(), Some(2));
}

/// `pnpkit.toml` in error: every problem at its line and column, exit 2,
/// whatever the command; from a subfolder too.
#[test]
fn a_project_marker_in_error_is_reported_located_whatever_the_command() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("pnpkit.toml"),
        "[project]\ndata = \"../elsewhere\"\n\n[build]\npapers = [\"a5\"]\nduplex = \"sideways\"\nmargin = 40\n\n[export]\nshop = \"tcg\"\n",
    )
    .unwrap();
    let sub = dir.path().join("data/mine");
    std::fs::create_dir_all(&sub).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_pnpkit"))
        .args(["--color", "never", "games"])
        .current_dir(&sub)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr).replace(&dir.path().display().to_string(), "<project>");
    insta::assert_snapshot!("project-marker-in-error", err);
    std::fs::write(dir.path().join("pnpkit.toml"), "[biuld]\npapers = [\"a4\"]\n").unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_pnpkit"))
        .args(["--color", "never", "check"])
        .current_dir(&sub)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr).replace(&dir.path().display().to_string(), "<project>");
    insta::assert_snapshot!("project-marker-unknown-section", err);
}

/// The project's settings are the options' defaults; the command line still wins.
#[test]
fn project_settings_are_the_defaults_of_the_options() {
    let dir = tempfile::tempdir().unwrap();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    crate::common::copy_dir(&root.join("tests/fixtures/minimal"), &dir.path().join("data"));
    std::fs::write(
        dir.path().join("pnpkit.toml"),
        "[project]\noutput = \"kits\"\n[build]\npapers = [\"letter\"]\nlocales = [\"en\"]\n",
    )
    .unwrap();
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_pnpkit"))
            .args(args)
            .current_dir(dir.path().join("data"))
            .output()
            .unwrap()
    };
    let o = run(&["build", "--no-cache"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let kit = dir.path().join("kits/demo");
    assert!(kit.join("en/demo-cards-letter.pdf").is_file(), "{}", stdout(&o));
    assert!(!kit.join("en/demo-cards-a4.pdf").exists() && !kit.join("es").exists());
    let o = run(&["build", "--no-cache", "--paper", "a4", "--locale", "es"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(kit.join("es/demo-cards-a4.pdf").is_file());
    let help = stdout(&run(&["build", "--help"]));
    assert!(help.contains("[default: letter]"), "{help}");
}

#[test]
fn names_from_a_log_reach_the_terminal_inert() {
    // A player's name set the window title and cleared the screen: names
    // from logs and lists were printed as written. Such a name is now
    // refused at its line, and nothing of it reaches the terminal raw.
    let dir = tempfile::tempdir().unwrap();
    let evil = r#""\e]0;pwned\a\e[2J\e[31mEvil\u202Egpj""#;
    let log = std::fs::read_to_string(crate::common::root().join("data/unmatched/logs/sample-duel.yaml"))
        .unwrap()
        .replace(" Ana", &format!(" {evil}"))
        .replace("{Ana:", &format!("{{{evil}:"));
    std::fs::write(dir.path().join("duel.yaml"), log).unwrap();
    let o = crate::common::pnpkit_in(dir.path(), &["log", "duel.yaml"]);
    let text = crate::common::out(&o);
    assert_eq!(o.status.code(), Some(1), "{text}");
    assert!(
        text.contains(r"a player's name holds a control character (\u{1b})"),
        "{text}"
    );
    assert!(
        !text.contains(['\u{1b}', '\u{7}', '\u{202e}']),
        "a control character reached the terminal: {text:?}"
    );
}
