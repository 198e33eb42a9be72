//! Shell completions and the manual page are generated from the CLI and
//! cover every command; the new commands have help with examples.

use std::process::{Command, Output};

fn pnpkit(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pnpkit"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run pnpkit")
}

const COMMANDS: &[&str] = &[
    "check",
    "schema",
    "build",
    "export",
    "i18n",
    "import",
    "export-sheet",
    "new",
    "watch",
    "gallery",
    "completions",
    "man",
];

#[test]
fn new_commands_have_help_with_examples() {
    for cmd in [
        "import",
        "export-sheet",
        "new",
        "watch",
        "gallery",
        "completions",
        "man",
    ] {
        let o = pnpkit(&[cmd, "--help"]);
        assert_eq!(o.status.code(), Some(0), "{cmd}");
        assert!(String::from_utf8_lossy(&o.stdout).contains("Examples:"), "{cmd}");
    }
}

#[test]
fn completions_cover_every_command_in_every_shell() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let o = pnpkit(&["completions", shell]);
        assert_eq!(o.status.code(), Some(0), "{shell}");
        let script = String::from_utf8_lossy(&o.stdout);
        for cmd in COMMANDS {
            assert!(script.contains(cmd), "{shell}: {cmd} missing");
        }
        assert!(script.contains("deny-warnings"), "{shell}: options missing");
    }
    // The bash script is valid bash.
    let o = pnpkit(&["completions", "bash"]);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pnpkit.bash");
    std::fs::write(&path, &o.stdout).unwrap();
    if let Ok(s) = Command::new("bash").arg("-n").arg(&path).status() {
        assert!(s.success(), "bash -n rejected the completion script");
    }
    assert_eq!(pnpkit(&["completions", "tcsh"]).status.code(), Some(2));
}

#[test]
fn man_page_documents_every_command() {
    let o = pnpkit(&["man"]);
    assert_eq!(o.status.code(), Some(0));
    let page = String::from_utf8_lossy(&o.stdout);
    assert!(page.starts_with(".ie") || page.contains(".TH pnpkit 1"), "{page}");
    assert!(page.contains(".TH pnpkit 1"));
    for cmd in COMMANDS {
        let head = format!(".SH \"COMMAND: {}\"", cmd.to_uppercase());
        assert!(page.contains(&head), "{head} missing");
    }
    assert!(page.contains("\\-\\-deny\\-warnings") || page.contains("--deny-warnings"));
    // man renders it, when man is installed.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pnpkit.1");
    std::fs::write(&path, &o.stdout).unwrap();
    let rendered = Command::new("man")
        .args(["-l", "-P", "cat"])
        .arg(&path)
        .env("MANWIDTH", "100")
        .output();
    if let Ok(r) = rendered
        && r.status.success()
    {
        let text = String::from_utf8_lossy(&r.stdout);
        assert!(text.contains("COMMAND: EXPORT-SHEET"), "{text}");
        assert!(text.contains("pnpkit import"), "{text}");
    }
}
