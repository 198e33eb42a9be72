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
    for cmd in [vec!["--help"], vec!["check", "--help"], vec!["schema", "--help"]] {
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
