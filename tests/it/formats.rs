//! Format versions of the files a user writes (issue 28, item 4): a pack's
//! `game.yaml` and a deck list in YAML may say `format: N`; a newer one is
//! refused (E086) and the file is read no further. (Logs: tests/it/rules.rs;
//! a pack's E086 snapshot: tests/fixtures/invalid/format-newer.)

use std::fs;

use crate::common::{mark, out, pnpkit_in, root};

/// The shipped Mythic ally list, with `format:` written first.
fn ally_list(format: &str) -> String {
    let list = fs::read_to_string(root().join("data/mythic/decks/three-vs-one-ally.yaml")).unwrap();
    format!("{format}{list}")
}

#[test]
fn a_deck_list_in_a_newer_format_is_refused_and_todays_is_read() {
    let dir = tempfile::tempdir().unwrap();
    mark(dir.path());
    fs::write(dir.path().join("today.yaml"), ally_list("format: 1\n")).unwrap();
    fs::write(dir.path().join("newer.yaml"), ally_list("format: 2\n")).unwrap();

    let o = pnpkit_in(dir.path(), &["deck", "mythic", "today.yaml", "--role", "ally"]);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));

    let o = pnpkit_in(dir.path(), &["deck", "mythic", "newer.yaml", "--role", "ally"]);
    assert_eq!(o.status.code(), Some(1), "{}", out(&o));
    let said = String::from_utf8_lossy(&o.stdout);
    // The cards are not read: in another format they may mean something else.
    assert!(said.starts_with("error[E086]"), "{said}");
    assert!(!said.contains("Atalanta"), "{said}");
    insta::assert_snapshot!("deck-format-newer", said);
}

#[test]
fn a_shipped_pack_in_a_newer_format_is_refused_at_its_format_line() {
    let dir = tempfile::tempdir().unwrap();
    mark(dir.path());
    let pack = dir.path().join("data/unmatched");
    crate::common::copy_dir(&root().join("data/unmatched"), &pack);
    let game = fs::read_to_string(pack.join("game.yaml")).unwrap();
    assert!(game.contains("\nformat: 1 "), "the shipped pack says its format");
    fs::write(pack.join("game.yaml"), game.replacen("\nformat: 1 ", "\nformat: 7 ", 1)).unwrap();

    let o = pnpkit_in(dir.path(), &["check", "unmatched"]);
    assert_eq!(o.status.code(), Some(1), "{}", out(&o));
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(said.contains("error[E086]") && said.contains("game.yaml:2:9"), "{said}");
    assert_eq!(said.matches("error[").count(), 1, "{said}");
}
