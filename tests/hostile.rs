//! Hostile inputs, as an attacker or an unlucky user would give them: files
//! that never end, pipes, links out of the project, oversized and dense
//! sheets, runaway text templates. Each case must be answered with a located
//! diagnostic, without reading what it must not read and without printing
//! any of a refused file. Children run under a hang guard (a hung command is
//! a failure, not a wait) and an address-space cap, so a regression fails
//! the test instead of taking the machine down.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::root;

/// A secret that must never appear in any output.
const SECRET: &str = "root:x:0:0:SECRET-LINE";

/// Runs pnpkit in `dir` with a 2 GiB address-space cap; kills it and fails
/// when it has not finished after `guard` (a hang, not a slow run: the
/// commands here answer in well under a second).
fn run_guarded(dir: &Path, args: &[&str], guard: Duration) -> Output {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 2097152; exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_pnpkit"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run pnpkit");
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        if start.elapsed() > guard {
            let _ = child.kill();
            let o = child.wait_with_output().unwrap();
            panic!(
                "pnpkit {} did not finish within {guard:?}; output so far:\n{}",
                args.join(" "),
                common::out(&o)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

const GUARD: Duration = Duration::from_secs(60);

/// A project with a copy of the minimal pack as `data/demo`, and a secret file outside it.
struct Project {
    dir: tempfile::TempDir,
    outside: tempfile::TempDir,
}

impl Project {
    fn new() -> Project {
        let dir = tempfile::tempdir().unwrap();
        common::copy_dir(&root().join("tests/fixtures/minimal/demo"), &dir.path().join("data/demo"));
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(
            outside.path().join("secret.txt"),
            format!("- id: leaked\n  name: {{es: {SECRET}, en: {SECRET}}}\n{SECRET}\n"),
        )
        .unwrap();
        Project { dir, outside }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    fn secret(&self) -> PathBuf {
        self.outside.path().join("secret.txt")
    }

    fn run(&self, args: &[&str]) -> Output {
        run_guarded(self.dir.path(), args, GUARD)
    }
}

fn assert_refused(o: &Output, what: &str) {
    let text = common::out(o);
    assert!(!text.contains("SECRET-LINE"), "{what}: a refused file's content was printed:\n{text}");
    assert!(text.contains("E031"), "{what}: no file-refused diagnostic:\n{text}");
    assert_eq!(o.status.code(), Some(1), "{what}:\n{text}");
}

#[test]
fn a_pack_file_linked_out_of_the_project_is_not_read() {
    let p = Project::new();
    let card = p.path("data/demo/components/card.yaml");
    std::fs::remove_file(&card).unwrap();
    std::os::unix::fs::symlink(p.secret(), &card).unwrap();
    let o = p.run(&["check"]);
    assert_refused(&o, "symlinked pack file");
    assert!(common::out(&o).contains("data/demo/components/card.yaml:1:1"), "{}", common::out(&o));
}

#[test]
fn a_pack_file_hard_linked_from_outside_is_not_read() {
    let p = Project::new();
    let card = p.path("data/demo/components/card.yaml");
    std::fs::remove_file(&card).unwrap();
    if std::fs::hard_link(p.secret(), &card).is_err() {
        // Two temp dirs on different filesystems: a hard link cannot exist there.
        return;
    }
    assert_refused(&p.run(&["check"]), "hard-linked pack file");
}

#[test]
fn special_files_given_as_a_deck_or_log_are_refused_at_once() {
    let p = Project::new();
    let data = root().join("data");
    let data = data.to_str().unwrap();
    // /dev/zero says it is empty and never ends; reading it filled memory.
    let o = p.run(&["--data", data, "deck", "xterminio", "/dev/zero"]);
    let text = common::out(&o);
    assert_eq!(o.status.code(), Some(1), "{text}");
    assert!(text.contains("E031") && text.contains("a character device"), "{text}");
    // A FIFO nobody writes to: opening it blocked for ever.
    let fifo = p.path("game.yaml");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let o = p.run(&["--data", data, "log", "game.yaml"]);
    let text = common::out(&o);
    assert_eq!(o.status.code(), Some(1), "{text}");
    assert!(text.contains("E031") && text.contains("a FIFO"), "{text}");
    assert!(text.contains("game.yaml"), "{text}");
}

#[test]
fn a_logs_deck_path_out_of_the_project_is_not_read() {
    let p = Project::new();
    let log = std::fs::read_to_string(root().join("data/unmatched/logs/sample-duel.yaml")).unwrap();
    let start = log.find("deck: {excalibur-cut").unwrap();
    let end = start + log[start..].find('}').unwrap() + 1;
    let log = format!("{}deck: ana.txt{}", &log[..start], &log[end..]);
    std::fs::create_dir_all(p.path("logs")).unwrap();
    std::fs::write(p.path("logs/duel.yaml"), log).unwrap();
    std::os::unix::fs::symlink(p.secret(), p.path("logs/ana.txt")).unwrap();
    let data = root().join("data");
    let o = p.run(&["--data", data.to_str().unwrap(), "log", "logs/duel.yaml"]);
    assert_refused(&o, "a log's deck file");
    // The same list as a plain file next to the log is read.
    std::fs::remove_file(p.path("logs/ana.txt")).unwrap();
    std::fs::write(p.path("logs/ana.txt"), "3 Excalibur's cut\n").unwrap();
    let o = p.run(&["--data", data.to_str().unwrap(), "log", "logs/duel.yaml"]);
    assert!(!common::out(&o).contains("E031"), "{}", common::out(&o));
}

/// A project root with `fonts/` and `templates/`, and a secret outside it.
fn layout_project() -> (tempfile::TempDir, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("fonts")).unwrap();
    std::fs::create_dir_all(dir.path().join("templates")).unwrap();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.typ"), format!("{SECRET}\n")).unwrap();
    (dir, outside)
}

fn read_template(root: &Path, vpath: &str) -> Result<Vec<u8>, String> {
    use typst::World;
    let shared = pnpkit::render::world::Shared::new(root, 0).unwrap();
    let world = pnpkit::render::world::DocWorld::new(&shared, String::new(), Vec::new());
    world
        .file(pnpkit::render::world::file_id(vpath))
        .map(|b| b.to_vec())
        .map_err(|e| format!("{e:?}"))
}

#[test]
fn templates_linked_out_of_the_project_are_not_read() {
    let (dir, outside) = layout_project();
    let secret = outside.path().join("secret.typ");
    std::fs::write(dir.path().join("templates/own.typ"), "#let x = 1\n").unwrap();
    assert_eq!(read_template(dir.path(), "/templates/own.typ").unwrap(), b"#let x = 1\n");
    std::os::unix::fs::symlink(&secret, dir.path().join("templates/soft.typ")).unwrap();
    let e = read_template(dir.path(), "/templates/soft.typ").unwrap_err();
    assert!(!e.contains("SECRET"), "{e}");
    if std::fs::hard_link(&secret, dir.path().join("templates/hard.typ")).is_ok() {
        let r = read_template(dir.path(), "/templates/hard.typ");
        assert!(r.is_err(), "a hard link to a file outside the project was read: {r:?}");
        assert!(r.unwrap_err().contains("hard link"));
    }
}

#[test]
fn fonts_linked_out_of_the_project_are_not_loaded() {
    let (dir, outside) = layout_project();
    let font = std::fs::read_dir(root().join("fonts"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "ttf" || e == "otf"))
        .unwrap();
    let elsewhere = outside.path().join(font.file_name().unwrap());
    std::fs::copy(&font, &elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, dir.path().join("fonts").join(font.file_name().unwrap())).unwrap();
    match pnpkit::render::world::Shared::new(dir.path(), 0) {
        Ok(s) => panic!("a font linked from outside was loaded ({} fonts)", s.font_count()),
        Err(e) => assert!(e.to_string().contains("leads outside the project"), "{e}"),
    }
}

#[test]
fn yaml_limits_are_the_documented_ones_in_plain_words() {
    use pnpkit::diag::{Code, FileId};
    use pnpkit::pack::yaml::{Limits, parse};
    // docs/reliability.md promises 2,000,000 nodes; the reader stopped at
    // 1,000,000 parser events, which 600,000 empty lists (two events each) exceed.
    let lists = format!("[{}[]]", "[],".repeat(599_999));
    let limits = Limits::default();
    assert!(parse(&lists, FileId(0), &limits).is_ok(), "600,000 nodes are within the limit");
    // Over the limit, the message says which limit in words, not a parser value.
    let small = Limits {
        max_nodes: 1_000,
        ..Limits::default()
    };
    let d = parse(&format!("[{}1]", "1,".repeat(1_000)), FileId(0), &small).unwrap_err();
    assert_eq!(d.code, Code::YamlLimit);
    let label = d.label.clone().unwrap_or_default();
    assert!(!label.contains('{'), "a raw parser value in the message: {label}");
    assert!(label.contains("more than 1,000 YAML nodes"), "{label}");
}
