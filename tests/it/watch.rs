//! `pnpkit watch`: a session rebuilds what changed, keeps the last good
//! output on errors and says when an error is fixed; the real process sees
//! an edit and rewrites the PDF.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use pnpkit::cmd::watch::{Rebuilt, Session};
use pnpkit::render::impose;

use crate::common;
use crate::common::copy_dir;

/// A project with the fonts, the shared templates and the minimal pack `demo`.
fn project() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    copy_dir(&root.join("fonts"), &tmp.path().join("fonts"));
    copy_dir(&root.join("templates/shared"), &tmp.path().join("templates/shared"));
    copy_dir(&root.join("tests/fixtures/minimal/demo"), &tmp.path().join("data/demo"));
    common::mark(tmp.path());
    tmp
}

fn text_of(pdf: &Path) -> String {
    let doc = lopdf::Document::load(pdf).unwrap();
    let pages: Vec<u32> = doc.get_pages().keys().copied().collect();
    doc.extract_text(&pages).unwrap_or_default()
}

fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{from} not in {}", path.display());
    std::fs::write(path, text.replace(from, to)).unwrap();
}

#[test]
fn session_redraws_changes_keeps_output_on_errors_and_reports_fixes() {
    let tmp = project();
    let dir = tmp.path();
    let out = dir.join("output");
    let mut s = Session::new(&dir.join("data"), dir, &out, "demo", Some("en".into()), impose::A4).unwrap();
    let lines = RefCell::new(Vec::<String>::new());
    let report = |l: &str| lines.borrow_mut().push(l.to_owned());
    let first = s.rebuild(&report).unwrap();
    assert!(
        matches!(first, Rebuilt::Ok { changed, .. } if changed >= 2),
        "{first:?}"
    );
    let cards = out.join("demo/en/demo-cards-a4.pdf");
    let good = std::fs::read(&cards).unwrap();

    // One card's edit: its design is redrawn first, then the sheets.
    let card_file = dir.join("data/demo/components/card.yaml");
    edit(&card_file, "en: Sunstrike", "en: Sunblast");
    lines.borrow_mut().clear();
    let r = s.rebuild(&report).unwrap();
    assert!(matches!(r, Rebuilt::Ok { changed, .. } if changed >= 1), "{r:?}");
    let log = lines.borrow().join("\n");
    assert!(
        log.contains("redrawn in") && log.contains("card sunstrike (front)"),
        "{log}"
    );
    assert!(!log.contains("moonshield"), "only the edited card is redrawn: {log}");
    assert!(text_of(&out.join("demo/en/demo-changed.pdf")).contains("Sunblast"));
    let after_edit = std::fs::read(&cards).unwrap();
    assert_ne!(good, after_edit);

    // An error: reported with check's diagnostics; the output stays.
    edit(&card_file, "power: 5", "power: 12");
    lines.borrow_mut().clear();
    let r = s.rebuild(&report).unwrap();
    assert_eq!(r, Rebuilt::Failed { errors: 1 });
    let log = lines.borrow().join("\n");
    assert!(log.contains("error[E008]") && log.contains("card.yaml:"), "{log}");
    assert!(log.contains("the last good output stays in place"), "{log}");
    assert_eq!(std::fs::read(&cards).unwrap(), after_edit);

    // Fixed: said so.
    edit(&card_file, "power: 12", "power: 7");
    lines.borrow_mut().clear();
    assert!(matches!(s.rebuild(&report).unwrap(), Rebuilt::Ok { .. }));
    assert!(
        lines.borrow().iter().any(|l| l.starts_with("fixed, rebuilt demo")),
        "{:?}",
        lines.borrow()
    );

    // A template error names the template line; the output stays again.
    std::fs::create_dir_all(dir.join("templates/demo")).unwrap();
    let generic = std::fs::read_to_string(dir.join("templates/shared/generic.typ")).unwrap();
    let broken = generic.replace(
        "#import \"style.typ\": *",
        "#import \"/templates/shared/style.typ\": *\n#let oops = (1 + )",
    );
    std::fs::write(dir.join("templates/demo/kit.typ"), broken).unwrap();
    let before = std::fs::read(&cards).unwrap();
    lines.borrow_mut().clear();
    assert!(matches!(s.rebuild(&report).unwrap(), Rebuilt::Failed { .. }));
    let log = lines.borrow().join("\n");
    assert!(log.contains("E019") && log.contains("templates/demo/kit.typ"), "{log}");
    assert_eq!(std::fs::read(&cards).unwrap(), before);
    std::fs::remove_file(dir.join("templates/demo/kit.typ")).unwrap();
    lines.borrow_mut().clear();
    assert!(matches!(s.rebuild(&report).unwrap(), Rebuilt::Ok { .. }));
    assert!(lines.borrow().iter().any(|l| l.starts_with("fixed, rebuilt")));
}

#[test]
fn the_watch_process_rebuilds_an_edited_card() {
    let tmp = project();
    let dir = tmp.path();
    let mut child = Command::new(env!("CARGO_BIN_EXE_pnpkit"))
        .args(["watch", "demo", "--locale", "en", "--color", "never"])
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let rx = common::lines_of(stdout);
    let mut seen = Vec::new();
    common::wait_for(&rx, "watching demo", &mut seen);
    let cards: PathBuf = dir.join("output/demo/en/demo-cards-a4.pdf");
    let before = std::fs::read(&cards).unwrap();
    let modified = std::fs::metadata(&cards).unwrap().modified().unwrap();

    let card_file = dir.join("data/demo/components/card.yaml");
    edit(&card_file, "en: Moonshield", "en: Moonwall");
    common::wait_for(&rx, "rebuilt demo", &mut seen);
    let after = std::fs::read(&cards).unwrap();
    assert_ne!(before, after, "{}", seen.join("\n"));
    assert!(std::fs::metadata(&cards).unwrap().modified().unwrap() >= modified);
    assert!(text_of(&dir.join("output/demo/en/demo-changed.pdf")).contains("Moonwall"));

    // A broken file: diagnostics on the output, the PDF stays; fixing it says so.
    edit(&card_file, "kind: defense", "kind: [defense");
    common::wait_for(&rx, "last good output stays", &mut seen);
    assert!(seen.iter().any(|l| l.contains("error[E001]")), "{}", seen.join("\n"));
    assert_eq!(std::fs::read(&cards).unwrap(), after);
    edit(&card_file, "kind: [defense", "kind: defense");
    common::wait_for(&rx, "fixed, rebuilt demo", &mut seen);
    child.kill().unwrap();
    child.wait().unwrap();
}

#[test]
fn once_builds_and_exits_with_the_status() {
    let tmp = project();
    let dir = tmp.path();
    let o = Command::new(env!("CARGO_BIN_EXE_pnpkit"))
        .args(["watch", "demo", "--once"])
        .current_dir(dir)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stdout));
    assert!(
        dir.join("output/demo/es/demo-cards-a4.pdf").is_file(),
        "first locale, A4 by default"
    );
    assert!(!dir.join("output/demo/en").exists());
    edit(&dir.join("data/demo/components/card.yaml"), "power: 5", "power: 12");
    let o = Command::new(env!("CARGO_BIN_EXE_pnpkit"))
        .args(["watch", "demo", "--once"])
        .current_dir(dir)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stdout).contains("E008"));
}
