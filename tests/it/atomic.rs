//! All or nothing: a transaction or a build killed at any moment leaves each
//! game's files entirely old or entirely new, and the next run leaves no
//! staging folder or temporary file behind. Children are killed with
//! SIGKILL (no destructor, no cleanup) at every step of a commit, and a real
//! `pnpkit build` is killed during its write phase.

use crate::common;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use pnpkit::fsx::txn::{DirSwap, FileTxn, recover_tree};

type Files = BTreeMap<PathBuf, Vec<u8>>;

/// Every file under `dir`, by path relative to it.
fn files(dir: &Path) -> Files {
    fn walk(base: &Path, dir: &Path, out: &mut Files) {
        let Ok(rd) = std::fs::read_dir(dir) else { return };
        for e in rd.flatten() {
            let p = e.path();
            // The build cache is not output: it keeps what a failed build compiled, for the next run.
            if e.file_name() == pnpkit::render::cache::DIR {
                continue;
            }
            if e.file_type().unwrap().is_dir() {
                walk(base, &p, out);
            } else if let Ok(bytes) = std::fs::read(&p) {
                out.insert(p.strip_prefix(base).unwrap().to_path_buf(), bytes);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// Names pnpkit uses for staging and temporary files, anywhere under `dir`.
fn leftovers(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(rd) = std::fs::read_dir(dir) else { return out };
    for e in rd.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with(".pnpkit-") || (name.starts_with('.') && name.ends_with(".tmp")) {
            out.push(e.path());
        } else if e.file_type().unwrap().is_dir() {
            out.extend(leftovers(&e.path()));
        }
    }
    out
}

/// Runs this test binary's child helper with `env`, waits for the line
/// `PNPKIT-CHILD-READY`, then kills it with SIGKILL.
fn kill_child_at(env: &[(&str, String)]) {
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "atomic::child_process_helper",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut ready = false;
    for line in lines.by_ref() {
        if line.unwrap().ends_with("PNPKIT-CHILD-READY") {
            ready = true;
            break;
        }
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(ready, "the child ended before the kill point");
}

/// Pauses for ever after telling the parent where it is.
fn stop_here() -> ! {
    println!("PNPKIT-CHILD-READY");
    loop {
        std::thread::sleep(std::time::Duration::from_secs(60));
    }
}

/// Not a test: the child process of the tests below (what it does depends on
/// its environment). Ignored, so a normal run skips it.
#[test]
#[ignore = "run by the killed-child tests"]
fn child_process_helper() {
    let dir = PathBuf::from(std::env::var("PNPKIT_CHILD_DIR").unwrap());
    let at: usize = std::env::var("PNPKIT_KILL_AT").unwrap().parse().unwrap();
    match std::env::var("PNPKIT_CHILD").unwrap().as_str() {
        "txn" => {
            let mut t = FileTxn::begin(&dir).unwrap();
            for i in 0..4 {
                t.put(&dir.join(format!("f{i}.yaml")), format!("new {i}").as_bytes())
                    .unwrap();
            }
            t.remove(&dir.join("gone.yaml")).unwrap();
            t.commit_with(|step| {
                if step == at {
                    stop_here()
                }
            })
            .unwrap();
        }
        "swap" => {
            let s = DirSwap::begin(&dir).unwrap();
            for g in ["a", "b", "c"] {
                for f in ["es/kit.pdf", "en/kit.pdf", "index.html"] {
                    s.write(&Path::new(g).join(f), format!("new {g} {f}").as_bytes())
                        .unwrap();
                }
            }
            if at == 0 {
                stop_here()
            }
            let mut n = 0;
            s.commit_with(|_| {
                n += 1;
                if n == at {
                    stop_here()
                }
            })
            .unwrap();
        }
        other => panic!("unknown child {other}"),
    }
    println!("DONE");
}

/// The files a reader sees: staging folders left out.
fn visible(dir: &Path) -> Files {
    files(dir)
        .into_iter()
        .filter(|(p, _)| !p.to_string_lossy().starts_with(".pnpkit-"))
        .collect()
}

#[test]
fn a_file_transaction_killed_at_any_step_is_all_or_nothing() {
    // Steps: 0 before the journal, 1 after it, 2..=6 after each of the five operations.
    for at in 0..=6 {
        let dir = tempfile::tempdir().unwrap();
        let old: Files = (0..4)
            .map(|i| (PathBuf::from(format!("f{i}.yaml")), format!("old {i}").into_bytes()))
            .chain([(PathBuf::from("gone.yaml"), b"old".to_vec())])
            .collect();
        for (p, b) in &old {
            std::fs::write(dir.path().join(p), b).unwrap();
        }
        let new: Files = (0..4)
            .map(|i| (PathBuf::from(format!("f{i}.yaml")), format!("new {i}").into_bytes()))
            .collect();
        kill_child_at(&[
            ("PNPKIT_CHILD", "txn".into()),
            ("PNPKIT_CHILD_DIR", dir.path().display().to_string()),
            ("PNPKIT_KILL_AT", at.to_string()),
        ]);
        if at == 0 {
            assert_eq!(
                visible(dir.path()),
                old,
                "killed before the commit point: nothing may change"
            );
        }
        // The next run: recovery finishes a committed transaction, drops an uncommitted one.
        recover_tree(dir.path()).unwrap();
        let after = files(dir.path());
        assert_eq!(after, if at == 0 { old } else { new }, "killed at step {at}");
        assert!(leftovers(dir.path()).is_empty(), "{:?}", leftovers(dir.path()));
    }
}

#[test]
fn a_swap_killed_at_any_game_leaves_each_game_old_or_new() {
    for at in 0..=3 {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path();
        for g in ["a", "b", "c"] {
            for f in ["es/kit.pdf", "en/kit.pdf", "index.html", "i18n/en.po"] {
                let p = out.join(g).join(f);
                std::fs::create_dir_all(p.parent().unwrap()).unwrap();
                std::fs::write(p, format!("old {g} {f}")).unwrap();
            }
        }
        kill_child_at(&[
            ("PNPKIT_CHILD", "swap".into()),
            ("PNPKIT_CHILD_DIR", out.display().to_string()),
            ("PNPKIT_KILL_AT", at.to_string()),
        ]);
        for (i, g) in ["a", "b", "c"].iter().enumerate() {
            let got = files(&out.join(g));
            let state = |age: &str| -> Files {
                ["es/kit.pdf", "en/kit.pdf", "index.html"]
                    .iter()
                    .map(|f| (PathBuf::from(f), format!("{age} {g} {f}").into_bytes()))
                    .chain([(PathBuf::from("i18n/en.po"), format!("old {g} i18n/en.po").into_bytes())])
                    .collect()
            };
            // Games before the kill point were swapped; the others not at all.
            let want = if i + 1 < at { state("new") } else { state("old") };
            assert_eq!(got, want, "game {g}, killed before swap {at}");
        }
        // The next run removes the staging folder the killed one left.
        drop(DirSwap::begin(out).unwrap());
        assert!(leftovers(out).is_empty(), "{:?}", leftovers(out));
    }
}

// ---------------------------------------------------------------- pnpkit build

/// A project with fonts, templates and the minimal pack.
fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = common::root();
    for d in ["fonts", "templates"] {
        common::copy_dir(&root.join(d), &dir.path().join(d));
    }
    common::copy_dir(&root.join("tests/fixtures/minimal"), &dir.path().join("data"));
    common::mark(dir.path());
    dir
}

fn build(dir: &Path) {
    let o = common::pnpkit_in(dir, &["build"]);
    assert_eq!(o.status.code(), Some(0), "{}", common::out(&o));
}

/// Changes the pack so that every document of the kit changes.
fn edit_pack(dir: &Path) {
    let game = dir.join("data/demo/game.yaml");
    let text = std::fs::read_to_string(&game).unwrap();
    std::fs::write(
        &game,
        text.replace("Sample Duel", "Sample Duel II")
            .replace("Duelo de ejemplo", "Duelo II"),
    )
    .unwrap();
}

/// Inode of each file, to see the moment a run starts changing the output.
fn inodes(dir: &Path) -> BTreeMap<PathBuf, u64> {
    use std::os::unix::fs::MetadataExt;
    fn walk(dir: &Path, out: &mut BTreeMap<PathBuf, u64>) {
        let Ok(rd) = std::fs::read_dir(dir) else { return };
        for e in rd.flatten() {
            let p = e.path();
            if let Ok(m) = std::fs::symlink_metadata(&p) {
                out.insert(p.clone(), m.ino());
                if m.is_dir() {
                    walk(&p, out);
                }
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, &mut out);
    out
}

#[test]
fn a_build_killed_while_writing_leaves_the_kit_old_or_new() {
    // The kit before, and the kit a complete build of the edited pack writes.
    let reference = project();
    build(reference.path());
    let old = files(&reference.path().join("output/demo"));
    edit_pack(reference.path());
    build(reference.path());
    let new = files(&reference.path().join("output/demo"));
    assert_ne!(old, new);
    assert!(
        old.keys().any(|p| p.starts_with("gallery")),
        "the gallery is part of the kit"
    );
    // Kill points: at the first change of the output folder (a file or folder
    // made, replaced or staged), then later and later into the write phase.
    let mut ages = Vec::new();
    for (attempt, delay_ms) in [0u64, 1, 3, 6, 12, 25, 50, 100].into_iter().enumerate() {
        let dir = project();
        build(dir.path());
        edit_pack(dir.path());
        let out = dir.path().join("output");
        let before = inodes(&out);
        let mut child = Command::new(env!("CARGO_BIN_EXE_pnpkit"))
            .arg("build")
            .current_dir(dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        while child.try_wait().unwrap().is_none() {
            if inodes(&out) != before {
                std::thread::sleep(std::time::Duration::from_millis(delay_ms));
                let _ = child.kill();
                break;
            }
        }
        child.wait().unwrap();
        let got = files(&out.join("demo"));
        let newer = got
            .iter()
            .filter(|(p, b)| new.get(*p) == Some(*b) && old.get(*p) != Some(*b))
            .count();
        let stray: Vec<_> = got
            .keys()
            .filter(|p| !old.contains_key(*p) && !new.contains_key(*p))
            .collect();
        assert!(
            got == old || got == new,
            "attempt {attempt}: a killed build left a mix: {newer} of {} kit files new, {} missing, stray files {stray:?}",
            old.len(),
            old.keys().filter(|p| !got.contains_key(*p)).count()
        );
        ages.push(if got == new { "new" } else { "old" });
        // The next run starts by removing what the killed one left.
        build(dir.path());
        assert!(leftovers(&out).is_empty(), "attempt {attempt}: {:?}", leftovers(&out));
        assert_eq!(files(&out.join("demo")), new);
    }
    eprintln!("kit after each kill: {ages:?}");
}

#[test]
fn a_gallery_that_fails_leaves_the_kit_as_it_was() {
    let dir = project();
    build(dir.path());
    let old = files(&dir.path().join("output"));
    edit_pack(dir.path());
    let gallery = dir.path().join("templates/gallery/index.html");
    std::fs::write(&gallery, "{% for x in %}broken").unwrap();
    let o = common::pnpkit_in(dir.path(), &["build"]);
    let report = common::out(&o);
    assert_eq!(o.status.code(), Some(1), "{report}");
    assert!(report.contains("gallery"), "{report}");
    assert_eq!(
        files(&dir.path().join("output")),
        old,
        "PDFs were replaced although the build failed:\n{report}"
    );
}

#[test]
fn a_killed_import_leaves_the_data_old_or_new_and_no_scratch() {
    // The sheet changes one spell; a complete import gives `new`.
    let make = || {
        let dir = tempfile::tempdir().unwrap();
        common::copy_dir(&common::root().join("data/openwars"), &dir.path().join("data/openwars"));
        common::mark(dir.path());
        let o = common::pnpkit_in(dir.path(), &["export-sheet", "openwars", "spell", "-o", "spells.csv"]);
        assert_eq!(o.status.code(), Some(0), "{}", common::out(&o));
        let csv = std::fs::read_to_string(dir.path().join("spells.csv")).unwrap();
        std::fs::write(
            dir.path().join("spells.csv"),
            csv.replacen("Call of the Jaguar", "Call of the Jaguars", 1),
        )
        .unwrap();
        std::fs::create_dir_all(dir.path().join("tmp")).unwrap();
        dir
    };
    let data = |d: &Path| visible(&d.join("data"));
    let reference = make();
    let old = data(reference.path());
    let o = common::pnpkit_in(reference.path(), &["import", "openwars", "spell", "spells.csv"]);
    assert_eq!(o.status.code(), Some(0), "{}", common::out(&o));
    let new = data(reference.path());
    assert_ne!(old, new);
    let mut ages = Vec::new();
    for delay_ms in [20u64, 60, 120, 250, 400, 700] {
        let dir = make();
        let tmp = dir.path().join("tmp");
        let mut child = Command::new(env!("CARGO_BIN_EXE_pnpkit"))
            .args(["import", "openwars", "spell", "spells.csv"])
            .env("TMPDIR", &tmp)
            .current_dir(dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        let _ = child.kill();
        child.wait().unwrap();
        let got = data(dir.path());
        assert!(
            got == old || got == new,
            "killed after {delay_ms} ms: the data is a mix"
        );
        // The next run (any command) finishes or removes what the killed one left.
        let o = common::pnpkit_in(dir.path(), &["check", "openwars"]);
        assert!(o.status.code().is_some(), "{}", common::out(&o));
        let got = data(dir.path());
        assert!(
            got == old || got == new,
            "after the next run, killed at {delay_ms} ms: a mix"
        );
        ages.push(if got == new { "new" } else { "old" });
        assert!(
            leftovers(&dir.path().join("data")).is_empty(),
            "{:?}",
            leftovers(&dir.path().join("data"))
        );
        let scratch: Vec<_> = std::fs::read_dir(&tmp).unwrap().flatten().map(|e| e.path()).collect();
        assert!(
            scratch.is_empty(),
            "killed after {delay_ms} ms, scratch folders left in the temp folder: {scratch:?}"
        );
    }
    eprintln!("data after each kill: {ages:?}");
}

#[test]
fn a_killed_i18n_import_leaves_the_data_old_or_new_and_no_scratch() {
    // Every English translation of Open Wars changes: one import rewrites 26
    // YAML files and the lock file.
    let make = || {
        let dir = tempfile::tempdir().unwrap();
        common::copy_dir(&common::root().join("data/openwars"), &dir.path().join("data/openwars"));
        common::mark(dir.path());
        let o = common::pnpkit_in(
            dir.path(),
            &["i18n", "export", "openwars", "--locale", "en", "--out", "po"],
        );
        assert_eq!(o.status.code(), Some(0), "{}", common::out(&o));
        let po = dir.path().join("po/openwars/i18n/en.po");
        let text = std::fs::read_to_string(&po).unwrap();
        let mut edited = String::new();
        let mut lines = text.lines().peekable();
        while let Some(l) = lines.next() {
            // A one-line, non-empty translation gets a suffix.
            let single = !lines.peek().is_some_and(|n| n.starts_with('"'));
            match l.strip_prefix("msgstr \"").and_then(|r| r.strip_suffix('"')) {
                Some(t) if single && !t.is_empty() => edited.push_str(&format!("msgstr \"{t} v2\"\n")),
                _ => {
                    edited.push_str(l);
                    edited.push('\n');
                }
            }
        }
        std::fs::write(&po, edited).unwrap();
        std::fs::create_dir_all(dir.path().join("tmp")).unwrap();
        dir
    };
    let args = ["i18n", "import", "openwars", "--locale", "en", "--out", "po"];
    let data = |d: &Path| visible(&d.join("data"));
    let reference = make();
    let old = data(reference.path());
    let o = common::pnpkit_in(reference.path(), &args);
    assert_eq!(o.status.code(), Some(0), "{}", common::out(&o));
    let new = data(reference.path());
    let changed = new.iter().filter(|(p, b)| old.get(*p) != Some(*b)).count();
    assert!(changed > 20, "{changed} files changed");
    // Kill points: after the file transaction appears in the data folder
    // (files being staged), after its journal appears (the commit point:
    // renames under way), and by the clock.
    let marker = |d: &Path, name: &str| {
        std::fs::read_dir(d.join("data")).is_ok_and(|rd| {
            rd.flatten().any(|e| {
                e.file_name().to_string_lossy().starts_with(".pnpkit-txn")
                    && (name.is_empty() || e.path().join(name).exists())
            })
        })
    };
    let staged = |d: &Path| marker(d, "");
    let points = [
        ("", 0u64),
        ("", 5),
        ("journal", 0),
        ("journal", 1),
        ("journal", 3),
        ("clock", 100),
        ("clock", 300),
    ];
    let mut ages = Vec::new();
    for (watch, delay_ms) in points {
        let dir = make();
        let tmp = dir.path().join("tmp");
        let mut child = Command::new(env!("CARGO_BIN_EXE_pnpkit"))
            .args(args)
            .env("TMPDIR", &tmp)
            .current_dir(dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        if watch != "clock" {
            while child.try_wait().unwrap().is_none() && !marker(dir.path(), watch) {}
        }
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        let _ = child.kill();
        child.wait().unwrap();
        let got = data(dir.path());
        let mixed = got
            .iter()
            .filter(|(p, b)| new.get(*p) == Some(*b) && old.get(*p) != Some(*b))
            .count();
        assert!(
            got == old || got == new || staged(dir.path()),
            "killed after {delay_ms} ms: {mixed} of {changed} files new and no transaction to finish them"
        );
        // The next run (any command) finishes or removes what the killed one left.
        let o = common::pnpkit_in(dir.path(), &["check", "openwars"]);
        assert!(o.status.code().is_some(), "{}", common::out(&o));
        let got = data(dir.path());
        let mixed = got
            .iter()
            .filter(|(p, b)| new.get(*p) == Some(*b) && old.get(*p) != Some(*b))
            .count();
        assert!(
            got == old || got == new,
            "after the next run, killed at {delay_ms} ms: {mixed} of {changed} files new"
        );
        ages.push(if got == new { "new" } else { "old" });
        assert!(
            leftovers(&dir.path().join("data")).is_empty(),
            "{:?}",
            leftovers(&dir.path().join("data"))
        );
        let scratch: Vec<_> = std::fs::read_dir(&tmp).unwrap().flatten().map(|e| e.path()).collect();
        assert!(
            scratch.is_empty(),
            "killed after {delay_ms} ms, scratch folders left in the temp folder: {scratch:?}"
        );
    }
    eprintln!("data after each kill: {ages:?}");
}

#[test]
fn what_a_killed_writer_left_in_the_output_is_removed_by_any_command() {
    let dir = project();
    build(dir.path());
    let out = dir.path().join("output");
    // What a killed `export` or `diff` leaves: a staging folder whose lock
    // nobody holds, a half-written temporary file of a process long gone,
    // one level down as exports stage them.
    let staged = out.join("demo/shop/.pnpkit-stage-999999-0");
    std::fs::create_dir_all(&staged).unwrap();
    std::fs::write(staged.join("lock"), "").unwrap();
    std::fs::write(staged.join("001-card.png"), "half").unwrap();
    std::fs::write(out.join("demo/.pnpkit-tmp-999999999-demo-cards-a4.pdf"), "half").unwrap();
    assert_eq!(leftovers(&out).len(), 2);
    // `check` writes nothing to the output, yet clears it.
    let o = common::pnpkit_in(dir.path(), &["check"]);
    assert_eq!(o.status.code(), Some(0), "{}", common::out(&o));
    assert_eq!(leftovers(&out), Vec::<PathBuf>::new());
}
