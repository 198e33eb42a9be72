//! The HTML gallery: every component of every shipped game appears in the
//! page as headless Chromium sees it, with no console error. Needs Debian's
//! `chromium` (`apt-get install -y chromium`); skipped with a message when
//! it cannot be found.

use std::path::{Path, PathBuf};
use std::process::Command;

use pnpkit::check::check;
use pnpkit::pack::yaml::Limits;

use crate::common;

/// The DOM after scripts ran, and the console errors chromium logged.
fn load(browser: &Path, page: &Path) -> (String, Vec<String>) {
    common::chromium::load(browser, page, "", 5000)
}

#[test]
fn every_component_is_in_the_gallery_and_the_page_has_no_console_error() {
    let Some(browser) = common::chromium::required("every_component_is_in_the_gallery") else {
        return;
    };
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let tmp = tempfile::tempdir().unwrap();

    // The detector itself sees a script error.
    let bad = tmp.path().join("bad.html");
    std::fs::write(&bad, "<html><body><script>noSuchFunction();</script></body></html>").unwrap();
    let (_, errors) = load(&browser, &bad);
    assert!(
        !errors.is_empty(),
        "chromium logged no console error for a broken script"
    );

    let out = tmp.path().join("out");
    let o = Command::new(env!("CARGO_BIN_EXE_pnpkit"))
        .args(["gallery", "--locale", "en", "--out"])
        .arg(&out)
        .current_dir(&root)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stdout));
    let report = check(&root.join("data"), &[], &Limits::default()).unwrap();
    for game in &report.games {
        let page = out.join(&game.id).join("index.html");
        let html = std::fs::read_to_string(&page).unwrap();
        assert!(
            !html.contains("http://") && !html.contains("https://"),
            "{}: external address",
            game.id
        );
        for src in html.split("src=\"").skip(1).filter_map(|s| s.split('"').next()) {
            assert!(out.join(&game.id).join(src).is_file(), "{}: missing {src}", game.id);
        }
        let (dom, errors) = load(&browser, &page);
        assert!(errors.is_empty(), "{}: console errors:\n{}", game.id, errors.join("\n"));
        assert!(
            dom.contains("data-ready=\"true\""),
            "{}: the script did not run",
            game.id
        );
        let mut n = 0;
        for (kind, list) in &game.components {
            for c in list {
                assert!(
                    dom.contains(&format!("data-id=\"{kind}/{}\"", c.id)),
                    "{}: {kind} {} missing",
                    game.id,
                    c.id
                );
                n += 1;
            }
        }
        assert!(dom.contains(&format!("{n} / {n}")), "{}: the count line", game.id);
        for ch in &game.reference.chapters {
            assert!(
                dom.contains(&format!("id=\"ch-{}\"", ch.id)),
                "{}: chapter {}",
                game.id,
                ch.id
            );
        }
        for rule in &game.rule_ids {
            assert!(dom.contains(&format!("id=\"{rule}\"")), "{}: rule {rule}", game.id);
        }
    }
}

/// Enum values show their names in the page's locale, inside lists and
/// records too (an Unmatched fighter's attack style, a hero's fighters).
#[test]
fn enum_values_show_their_names_in_the_page_locale() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    for (locale, melee) in [("es", "Cuerpo a cuerpo"), ("en", "Melee")] {
        let o = Command::new(env!("CARGO_BIN_EXE_pnpkit"))
            .args(["gallery", "unmatched", "--locale", locale, "--out"])
            .arg(&out)
            .current_dir(root)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stdout));
        let page = std::fs::read_to_string(out.join("unmatched/index.html")).unwrap();
        assert!(
            page.contains(&format!("style: {melee}")),
            "{locale}: fighters' style named «{melee}»"
        );
        if locale == "es" {
            // Not even in the search index (lower case there).
            assert!(!page.contains("style: melee"), "{locale}: a raw enum id in the page");
        }
    }
}
