//! The build cache can never make the output differ from a clean build:
//! after each edit of a series (a card's text, a template, a font, the
//! settings, the locale list, an artwork file), `pnpkit build` with its
//! cache and `pnpkit build --no-cache` into another folder write the same
//! files, byte for byte. Damaged and deleted caches are compiled around,
//! and the cache stays within its bound.

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::common::{copy_dir, out, pnpkit_in, root};

/// Fonts and templates of the project, the minimal demo pack (two locales,
/// rules, quick reference) and the layout fixture's pack (artwork, an icon,
/// its own template).
fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&root().join("fonts"), &dir.path().join("fonts"));
    copy_dir(&root().join("templates"), &dir.path().join("templates"));
    copy_dir(
        &root().join("tests/fixtures/layout/templates"),
        &dir.path().join("templates"),
    );
    copy_dir(
        &root().join("tests/fixtures/minimal/demo"),
        &dir.path().join("data/demo"),
    );
    copy_dir(
        &root().join("tests/fixtures/layout/data/lay"),
        &dir.path().join("data/lay"),
    );
    common::mark(dir.path());
    dir
}

/// Every file under `dir` but the cache, by relative path.
fn files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    fn walk(base: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            if e.file_name() == ".cache" {
                continue;
            }
            if p.is_dir() {
                walk(base, &p, out);
            } else {
                out.insert(p.strip_prefix(base).unwrap().to_path_buf(), std::fs::read(&p).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// Builds with the cache into `output/` and without into a fresh folder;
/// both must succeed and write the same bytes. Returns the cached run's
/// summary line and the number of documents it compiled.
fn same_as_clean(dir: &Path, args: &[&str]) -> (String, usize) {
    let cached = pnpkit_in(dir, &[&["build"], args].concat());
    assert_eq!(cached.status.code(), Some(0), "{}", out(&cached));
    let clean_dir = dir.join("clean");
    let _ = std::fs::remove_dir_all(&clean_dir);
    let clean = pnpkit_in(dir, &[&["build", "--no-cache", "--out", "clean"], args].concat());
    assert_eq!(clean.status.code(), Some(0), "{}", out(&clean));
    let (a, b) = (files(&dir.join("output")), files(&clean_dir));
    // Files from an earlier step with other settings stay in output/: compare what this step wrote.
    for (path, bytes) in &b {
        match a.get(path) {
            Some(x) => assert!(
                x == bytes,
                "{} differs from a clean build after {args:?}",
                path.display()
            ),
            None => panic!("{} missing from the cached build", path.display()),
        }
    }
    let text = String::from_utf8_lossy(&cached.stdout).into_owned();
    let line = text.lines().find(|l| l.starts_with("built ")).unwrap().to_owned();
    let compiled = line
        .split(", ")
        .find_map(|p| p.strip_suffix(" compiled)"))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no compiled count in {line}"));
    (line, compiled)
}

fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{} has no `{from}`", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}

#[test]
fn cached_builds_equal_clean_builds_after_every_edit() {
    let dir = project();
    let d = dir.path();
    let (first, compiled) = same_as_clean(d, &[]);
    assert!(first.contains(" 0 documents reused"), "{first}");
    assert!(compiled > 0);
    // Nothing changed: nothing compiled.
    let (line, compiled) = same_as_clean(d, &[]);
    assert_eq!(compiled, 0, "{line}");

    // A card's text.
    edit(
        &d.join("data/demo/components/card.yaml"),
        "draw a card.",
        "draw two cards.",
    );
    let (line, compiled) = same_as_clean(d, &[]);
    assert!(compiled > 0 && !line.contains(" 0 documents reused"), "{line}");

    // The layout fixture's own template: only its game is redrawn.
    edit(&d.join("templates/lay/kit.typ"), "size: 24pt", "size: 20pt");
    let (line, compiled) = same_as_clean(d, &[]);
    assert!(compiled > 0, "{line}");

    // A font file changes: everything is redrawn.
    std::fs::remove_file(d.join("fonts/DejaVuSans-Oblique.ttf")).unwrap();
    same_as_clean(d, &[]);

    // Settings and flags.
    same_as_clean(d, &["--bleed", "2"]);
    same_as_clean(d, &["--proof", "--paper", "letter"]);
    same_as_clean(d, &["--layout", "gutterfold", "--ink-saver"]);

    // The locale list (and with it the gallery's locale).
    same_as_clean(d, &["--locale", "en"]);
    same_as_clean(d, &["--locale", "es,en"]);

    // An artwork file the pack names: same path, other bytes.
    std::fs::copy(
        root().join("tests/fixtures/invalid/low-resolution-art/demo/art/small.png"),
        d.join("data/lay/art/target.png"),
    )
    .unwrap();
    let (line, compiled) = same_as_clean(d, &[]);
    assert!(compiled > 0, "{line}");
    // And the icon the card's text shows.
    edit(&d.join("data/lay/icons/mark.svg"), "<svg", "<svg data-edited=\"1\"");
    same_as_clean(d, &[]);
}

#[test]
fn a_damaged_or_deleted_cache_is_compiled_around_and_stays_bounded() {
    let dir = project();
    let d = dir.path();
    same_as_clean(d, &[]);
    let cache = d.join("output/.cache");
    let entries: Vec<PathBuf> = std::fs::read_dir(&cache)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "doc"))
        .collect();
    assert!(!entries.is_empty());
    // Torn, flipped and emptied entries: each is ignored and compiled again.
    for (i, p) in entries.iter().enumerate() {
        let mut bytes = std::fs::read(p).unwrap();
        match i % 3 {
            0 => bytes.truncate(bytes.len() / 2),
            1 => {
                let n = bytes.len() / 3;
                bytes[n] ^= 0xff;
            }
            _ => bytes.clear(),
        }
        std::fs::write(p, bytes).unwrap();
    }
    // The games are up to date (the manifest vouches for their output):
    // damaged entries are not even read.
    let (line, compiled) = same_as_clean(d, &[]);
    assert_eq!(compiled, 0, "{line}");
    // Without the manifest every entry is needed, and none reads.
    std::fs::remove_file(cache.join("manifest.json")).unwrap();
    let (line, compiled) = same_as_clean(d, &[]);
    assert!(line.contains(" 0 documents reused"), "{line}");
    assert!(compiled > 0);
    // Deleted: the same.
    std::fs::remove_dir_all(&cache).unwrap();
    same_as_clean(d, &[]);
    // A bound of 1 MB holds after the build.
    let small = pnpkit_in(d, &["build", "--cache-limit", "1"]);
    assert_eq!(small.status.code(), Some(0), "{}", out(&small));
    let size: u64 = std::fs::read_dir(&cache)
        .unwrap()
        .flatten()
        .map(|e| e.metadata().unwrap().len())
        .sum();
    assert!(size <= 1024 * 1024 + 4096, "cache holds {size} bytes");
}

/// Inode and modification time of every output file but the cache, and of
/// each game folder: what a build that rewrites a file changes.
fn identities(dir: &Path) -> BTreeMap<PathBuf, (u64, std::time::SystemTime)> {
    use std::os::unix::fs::MetadataExt;
    fn walk(base: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, (u64, std::time::SystemTime)>) {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            if e.file_name() == ".cache" {
                continue;
            }
            let m = std::fs::symlink_metadata(&p).unwrap();
            out.insert(
                p.strip_prefix(base).unwrap().to_path_buf(),
                (m.ino(), m.modified().unwrap()),
            );
            if m.is_dir() {
                walk(base, &p, out);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

#[test]
fn a_build_that_changes_nothing_writes_nothing() {
    let dir = project();
    let d = dir.path();
    same_as_clean(d, &[]);
    let output = d.join("output");
    let (before, bytes) = (identities(&output), files(&output));
    let (line, compiled) = same_as_clean(d, &[]);
    assert_eq!(compiled, 0, "{line}");
    let after = identities(&output);
    let rewritten: Vec<_> = after.iter().filter(|(p, id)| before.get(*p) != Some(id)).collect();
    assert!(rewritten.is_empty(), "nothing changed, yet rewritten: {rewritten:?}");
    assert_eq!(before.len(), after.len());

    // One card's text: only the files whose bytes change are new files; the
    // others are the very same files as before.
    edit(
        &d.join("data/demo/components/card.yaml"),
        "draw a card.",
        "draw two cards.",
    );
    same_as_clean(d, &[]);
    let (after, new_bytes) = (identities(&output), files(&output));
    let mut changed = 0;
    for (path, b) in &new_bytes {
        let same_file = before.get(path) == after.get(path);
        if bytes.get(path) == Some(b) {
            assert!(same_file, "{} did not change, yet it was rewritten", path.display());
        } else {
            assert!(!same_file, "{} changed in place", path.display());
            changed += 1;
        }
    }
    assert!(
        changed > 0 && changed < new_bytes.len(),
        "{changed} of {} changed",
        new_bytes.len()
    );
    assert_eq!(
        before.get(Path::new("lay")),
        after.get(Path::new("lay")),
        "a game none of whose files changed is not swapped"
    );
}

/// Stages `--timings --format json` reports for a build.
fn stages(dir: &Path) -> Vec<String> {
    let o = pnpkit_in(dir, &["build", "--timings", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    v["timings"]["stages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["seconds"].as_f64().unwrap() > 0.0 || s["stage"] != "check")
        .map(|s| s["stage"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn an_up_to_date_game_is_neither_laid_out_nor_written_until_its_output_is_touched() {
    let dir = project();
    let d = dir.path();
    same_as_clean(d, &[]);
    // Nothing changed: no design is laid out, nothing is written.
    let s = stages(d);
    assert!(!s.iter().any(|s| s == "designs" || s == "sheets"), "{s:?}");
    // And says so: nothing was written.
    let o = pnpkit_in(d, &["build"]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("gallery files (output/<game>/index.html) up to date") && !text.contains("wrote"),
        "{text}"
    );
    let before = files(&d.join("output"));
    // Each kind of damage to the output is repaired by the next build, as a
    // clean build would leave it.
    let pdf = d.join("output/demo/en/demo-cards-a4.pdf");
    type Damage = fn(&Path, &Path);
    let damages: [(&str, Damage); 4] = [
        ("deleted", |_, pdf| std::fs::remove_file(pdf).unwrap()),
        ("overwritten in place", |_, pdf| {
            let mut bytes = std::fs::read(pdf).unwrap();
            let n = bytes.len() / 2;
            bytes[n] ^= 1;
            let modified = std::fs::metadata(pdf).unwrap().modified().unwrap();
            std::fs::write(pdf, bytes).unwrap();
            // Same size; the time changes with the write even if set back, the inode does not.
            let f = std::fs::File::options().write(true).open(pdf).unwrap();
            f.set_modified(modified + std::time::Duration::from_nanos(1)).unwrap();
        }),
        ("stray file", |d, _| {
            std::fs::write(d.join("output/demo/en/stray.pdf"), "x").unwrap()
        }),
        ("manifest damaged", |d, _| {
            std::fs::write(d.join("output/.cache/manifest.json"), "{").unwrap()
        }),
    ];
    for (what, damage) in damages {
        damage(d, &pdf);
        let s = stages(d);
        assert!(s.iter().any(|s| s == "sheets"), "{what}: not rebuilt: {s:?}");
        assert_eq!(
            files(&d.join("output")),
            before,
            "{what}: output differs from the clean build"
        );
        let s = stages(d);
        assert!(!s.iter().any(|s| s == "sheets"), "{what}: rebuilt twice: {s:?}");
    }
}
