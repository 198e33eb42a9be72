//! `deck --batch` as an organiser runs it on a folder players filled: every
//! file accounted for (read, unreadable, or named as skipped), text from
//! lists and file names inert in `verdicts.csv` and escaped on the
//! terminal, and a re-run that leaves no sheet of a list no longer there.

use std::fs;
use std::path::Path;

use crate::common;

const LEGAL: &str = "tests/fixtures/decks/batch/ana-medusa.txt";

/// A folder as players fill it: lists whose player names and file names a
/// spreadsheet would run as formulas or a terminal as escape sequences, a
/// photo saved as `.txt`, a PDF and a folder.
fn hostile_folder(dir: &Path) {
    let legal = fs::read_to_string(common::root().join(LEGAL)).unwrap();
    let body: String = legal
        .lines()
        .filter(|l| !l.starts_with("player"))
        .map(|l| format!("{l}\n"))
        .collect();
    let with_player = |p: &str| format!("player: {p}\n{body}");
    fs::write(
        dir.join("a.txt"),
        with_player("=HYPERLINK(\"http://evil.test\",\"click\")"),
    )
    .unwrap();
    fs::write(dir.join("b.txt"), with_player("@SUM(1+1)*cmd|' /C calc'!A0")).unwrap();
    fs::write(dir.join("+cmd.txt"), &body).unwrap();
    fs::write(dir.join("-2+3.txt"), &body).unwrap();
    fs::write(dir.join("c\u{1b}]0;owned\u{7}.txt"), &body).unwrap();
    fs::write(dir.join("d.txt"), "player: \u{1b}[31mRed\u{1b}[0m\nhero: Medusa\n").unwrap();
    fs::write(dir.join("photo.txt"), b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR").unwrap();
    fs::write(dir.join("rules.pdf"), b"%PDF-1.7\n").unwrap();
    fs::create_dir(dir.join("old")).unwrap();
}

/// `deck unmatched --batch lists --out out` in `dir`, uncoloured.
fn batch(dir: &Path) -> std::process::Output {
    common::pnpkit_in(
        dir,
        &[
            "--color",
            "never",
            "deck",
            "unmatched",
            "--batch",
            "lists",
            "--out",
            "out",
        ],
    )
}

#[test]
fn a_batch_accounts_for_every_file_and_writes_nothing_a_spreadsheet_or_terminal_runs() {
    let tmp = tempfile::tempdir().unwrap();
    common::mark(tmp.path());
    let lists = tmp.path().join("lists");
    fs::create_dir(&lists).unwrap();
    hostile_folder(&lists);
    let run = || batch(tmp.path());
    let o = run();
    let text = common::out(&o);
    // Two files are no lists (a photo, a list with escape sequences): exit 2.
    assert_eq!(o.status.code(), Some(2), "{text}");
    assert!(
        !o.stdout.contains(&0x1b) && !o.stderr.contains(&0x1b),
        "an escape reached the terminal:\n{text}"
    );
    assert!(text.contains("\\u{1b}"), "the escape is not shown escaped:\n{text}");
    for skipped in ["rules.pdf", "old"] {
        assert!(
            text.lines().any(|l| l.starts_with("skipped") && l.contains(skipped)),
            "{skipped} not named as skipped:\n{text}"
        );
    }
    assert!(text.contains("7 lists: 5 legal, 0 illegal, 2 unreadable"), "{text}");
    let csv = fs::read_to_string(tmp.path().join("out/verdicts.csv")).unwrap();
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let mut players = Vec::new();
    for rec in reader.records() {
        let rec = rec.unwrap();
        for cell in rec.iter() {
            assert!(
                !cell.starts_with(['=', '+', '-', '@', '\t', '\r']),
                "a cell a spreadsheet evaluates: {cell:?}\n{csv}"
            );
        }
        players.push(rec[0].to_string());
    }
    assert!(
        players.contains(&"'=HYPERLINK(\"http://evil.test\",\"click\")".to_string()),
        "{csv}"
    );
    assert!(players.contains(&"'+cmd".to_string()), "{csv}");
    let verdicts: Vec<String> = csv.lines().skip(1).map(|l| l.to_string()).collect();
    assert_eq!(
        verdicts.iter().filter(|l| l.contains(",unreadable,")).count(),
        2,
        "{csv}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(tmp.path().join("out/verdicts.json")).unwrap()).unwrap();
    assert_eq!(json["lists"], 7);
    assert_eq!(json["unreadable"], 2);
    assert_eq!(json["reports"].as_array().unwrap().len(), 7);
    let sheets = |dir: &Path| {
        let mut v: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".pdf"))
            .collect();
        v.sort();
        v
    };
    assert_eq!(sheets(&tmp.path().join("out")).len(), 7);
    // A player withdraws: the next run leaves no sheet of theirs behind.
    fs::remove_file(lists.join("photo.txt")).unwrap();
    fs::remove_file(lists.join("d.txt")).unwrap();
    let o = run();
    assert_eq!(o.status.code(), Some(0), "{}", common::out(&o));
    let left = sheets(&tmp.path().join("out"));
    assert_eq!(left.len(), 5, "{left:?}");
    assert!(!left.iter().any(|n| n.contains("photo")), "{left:?}");
    let leftovers: Vec<_> = fs::read_dir(tmp.path().join("out"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".pnpkit"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

/// Names organisers meet in a folder players filled, hostile ones included.
const NAMES: &[&str] = &[
    "ana.txt",
    "bruno.tsv",
    "carla.csv",
    "eva.yaml",
    "=HYPERLINK(1).txt",
    "+cmd.txt",
    "-2+3.md",
    "c\u{1b}]0;owned\u{7}.txt",
    "photo.txt",
    "notes",
    ".hidden.txt",
];

/// The mutation smoke test of batch folders (the `deck_batch` fuzz target
/// goes deeper): folders of mutated fixture lists under hostile names, from
/// a fixed seed. Every run ends with a verdict (exit 0, 1 or 2, never a
/// crash), accounts for every file, prints no escape and writes no cell a
/// spreadsheet evaluates.
#[test]
fn mutated_batch_folders_get_a_verdict_for_every_file() {
    use crate::common::mutate::{DECK_TOKENS, mutate};
    let fixtures: Vec<Vec<u8>> = ["ana-medusa.txt", "bruno.tsv", "carla.csv", "dani.txt", "eva.yaml"]
        .iter()
        .map(|f| fs::read(common::root().join("tests/fixtures/decks/batch").join(f)).unwrap())
        .collect();
    let mut rng = fastrand::Rng::with_seed(0x5eed_2600);
    for round in 0..6 {
        let tmp = tempfile::tempdir().unwrap();
        let lists = tmp.path().join("lists");
        fs::create_dir(&lists).unwrap();
        let mut written = std::collections::BTreeSet::new();
        for _ in 0..4 {
            let name = NAMES[rng.usize(0..NAMES.len())];
            let seed = &fixtures[rng.usize(0..fixtures.len())];
            fs::write(lists.join(name), mutate(&mut rng, seed, DECK_TOKENS)).unwrap();
            written.insert(name);
        }
        let o = batch(tmp.path());
        let text = common::out(&o);
        assert!(
            matches!(o.status.code(), Some(0..=2)),
            "round {round}: {:?}\n{text}",
            o.status
        );
        assert!(
            !text.contains('\u{1b}'),
            "round {round}: an escape reached the terminal:\n{text}"
        );
        let read: Vec<&&str> = written
            .iter()
            .filter(|n| !n.starts_with('.') && pnpkit::deck::batch::is_list_file(std::path::Path::new(n)))
            .collect();
        if read.is_empty() {
            continue;
        }
        let csv = fs::read_to_string(tmp.path().join("out/verdicts.csv")).unwrap();
        let mut rows = 0;
        for rec in csv::Reader::from_reader(csv.as_bytes()).records() {
            rows += 1;
            for cell in rec.unwrap().iter() {
                assert!(
                    !cell.starts_with(['=', '+', '-', '@', '\t', '\r']),
                    "round {round}: a cell a spreadsheet evaluates: {cell:?}\n{csv}"
                );
            }
        }
        assert_eq!(
            rows,
            read.len(),
            "round {round}: a list without its verdict ({read:?}):\n{csv}"
        );
    }
}
