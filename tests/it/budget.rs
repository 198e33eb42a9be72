//! The run's budget as a designer meets it: a layout that runs away (a
//! `range` of a billion numbers, a loop of tens of millions of steps) stops
//! with a located E019, exit 1 and nothing written, instead of aborting the
//! process or running for minutes (docs/reliability.md, "Layouts").

use std::path::Path;

use crate::common::{out, pnpkit_in};

/// A new project whose card front starts with `line` (typst code).
fn runaway(line: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(pnpkit_in(dir.path(), &["new", "spin"]).status.code(), Some(0));
    let kit = dir.path().join("templates/spin/kit.typ");
    let text = std::fs::read_to_string(&kit).unwrap();
    let marker = "#let front(c, ctx) = {";
    assert!(text.contains(marker), "the scaffold's front changed: {text}");
    std::fs::write(
        &kit,
        text.replacen(marker, &format!("{line}\n{marker}\n  let _ = run()"), 1),
    )
    .unwrap();
    dir
}

fn nothing_written(dir: &Path) {
    let output = dir.join("output");
    let files: Vec<_> = walkdir(&output);
    assert!(files.is_empty(), "a stopped build wrote {files:?}");
}

fn walkdir(dir: &Path) -> Vec<std::path::PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for e in entries.flatten() {
        if e.path().is_dir() {
            out.extend(walkdir(&e.path()));
        } else {
            out.push(e.path());
        }
    }
    out
}

#[test]
fn a_layout_that_asks_for_too_much_memory_stops_with_e019() {
    let dir = runaway("#let run() = range(1000000000).len()");
    // Without the budget this aborts the process ("memory allocation of …
    // failed", signal 6) after holding gigabytes.
    let o = pnpkit_in(dir.path(), &["build", "--memory-limit", "512", "--color", "never"]);
    let text = out(&o);
    assert_eq!(o.status.code(), Some(1), "{text}");
    assert!(
        text.contains("error[E019]: template error: the run needed more than its memory limit of 512 MiB"),
        "{text}"
    );
    assert!(text.contains("while building spin/"), "{text}");
    nothing_written(dir.path());
}

#[test]
fn a_layout_that_runs_too_long_stops_with_e019_at_its_line() {
    // Two loops of ten thousand: no array is large, the steps are many.
    let dir = runaway(
        "#let run() = {\n  let x = 0\n  for i in range(10000) {\n    for j in range(10000) {\n      x = calc.rem(x + i * j, 7)\n    }\n  }\n  x\n}",
    );
    let o = pnpkit_in(
        dir.path(),
        &[
            "build",
            "--layout-time-limit",
            "3",
            "--memory-limit",
            "8192",
            "--color",
            "never",
        ],
    );
    let text = out(&o);
    assert_eq!(o.status.code(), Some(1), "{text}");
    // The line the loop keeps running, in the designer's template.
    let located = text
        .lines()
        .skip_while(|l| !l.starts_with("error[E019]"))
        .take(6)
        .collect::<Vec<_>>()
        .join("\n");
    insta::assert_snapshot!(located);
    nothing_written(dir.path());
}

#[test]
fn memory_outside_any_layout_is_e098_not_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(pnpkit_in(dir.path(), &["new", "spin"]).status.code(), Some(0));
    // One MiB cannot hold a shipped pack as it is checked: the run stops where it is.
    let o = pnpkit_in(
        dir.path(),
        &["check", "mythic", "--memory-limit", "1", "--color", "never"],
    );
    let text = out(&o);
    assert_eq!(o.status.code(), Some(1), "{text}");
    assert!(text.contains("error[E098]"), "{text}");
    assert!(text.contains("no location: no layout was running"), "{text}");
    nothing_written(dir.path());
}

/// A flat PNG of `side` × `side` 8-bit RGBA pixels: a few hundred KB on
/// disk, `side² × 4` bytes once decoded.
fn flat_png(side: u32, shade: u8) -> Vec<u8> {
    crate::common::rgba_png(side, side, side, [shade, 255 - shade, shade / 2, 255])
}

#[test]
fn a_pack_of_many_large_pictures_checks_and_builds_within_a_bound() {
    // Six pictures of 238 MiB each once decoded (1.4 GiB together), under a
    // limit of 1200 MiB: laid out one chunk at a time and let go, they fit.
    // Before, every chunk of designs was laid out at once (rayon's work
    // stealing) and the build held them all: E019 at this limit.
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(pnpkit_in(dir.path(), &["new", "big"]).status.code(), Some(0));
    let pack = dir.path().join("data/big");
    let mut cards = std::fs::read_to_string(pack.join("components/card.yaml")).unwrap();
    for i in 0..6u8 {
        std::fs::write(pack.join(format!("art/big{i}.png")), flat_png(7900, i * 40)).unwrap();
        cards.push_str(&format!(
            "- id: big{i}\n  name: {{es: Grande {i}, en: Big {i}}}\n  suit: sun\n  power: {}\n  art: art/big{i}.png\n",
            i + 1
        ));
    }
    std::fs::write(pack.join("components/card.yaml"), cards).unwrap();
    let game = std::fs::read_to_string(pack.join("game.yaml")).unwrap();
    assert!(game.contains("    count: 6 "), "the scaffold's card count changed");
    std::fs::write(
        pack.join("game.yaml"),
        game.replacen("    count: 6 ", "    count: 12 ", 1),
    )
    .unwrap();
    let limit = ["--memory-limit", "1200", "--color", "never"];
    let o = pnpkit_in(dir.path(), &[&["check"][..], &limit].concat());
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    let o = pnpkit_in(
        dir.path(),
        &[&["build", "--no-cache", "--locale", "es", "--paper", "a4"][..], &limit].concat(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    assert!(dir.path().join("output/big/es/big-cards-a4.pdf").is_file());
}
