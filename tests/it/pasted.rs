//! The pasted-list corpus of issue 23 (`tests/fixtures/decks/pasted.tsv`):
//! lists written the way deck sites, spreadsheets, chats and forums write
//! them, each read from its file's bytes (UTF-16, `.xlsx`, `.ods` included)
//! as `pnpkit deck` reads it, with the verdict, title, player, number of
//! copies read and reading note each must get. The same files go through
//! the binary once more for the exit code (0 legal, 1 illegal, 2 unreadable).

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use pnpkit::deck::{Context, DeckReport, check_bytes};
use pnpkit::diag::{Code, SourceMap};

use crate::common::{self, game, root};

struct Case {
    file: String,
    game: String,
    expect: BTreeSet<String>,
    locale: String,
    checks: Vec<(String, String)>,
}

fn corpus() -> Vec<Case> {
    let text = fs::read_to_string(root().join("tests/fixtures/decks/pasted.tsv")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            let file = cols[0].to_string();
            Case {
                game: file.split('/').next().unwrap().to_string(),
                expect: cols[1].split(' ').map(str::to_string).collect(),
                locale: cols.get(2).unwrap_or(&"en").to_string(),
                checks: cols
                    .get(3)
                    .map(|c| {
                        c.split(';')
                            .filter(|x| !x.is_empty())
                            .map(|x| {
                                let (k, v) = x.split_once('=').unwrap_or((x, ""));
                                (k.to_string(), v.to_string())
                            })
                            .collect()
                    })
                    .unwrap_or_default(),
                file,
            }
        })
        .collect()
}

fn path_of(case: &Case) -> PathBuf {
    Path::new("tests/fixtures/decks/pasted").join(&case.file)
}

fn read(case: &Case) -> (DeckReport, String) {
    let rel = path_of(case);
    let bytes = fs::read(root().join(&rel)).unwrap();
    let mut sources = SourceMap::default();
    let report = check_bytes(game(&case.game), &rel, bytes, &Context::default(), &mut sources).unwrap();
    let shown = report.human(game(&case.game), &sources, false);
    (report, shown)
}

/// The verdict as the corpus writes it: `legal`, `unreadable`, or the
/// broken rule ids and problem codes.
fn verdict(report: &DeckReport) -> BTreeSet<String> {
    if report.unreadable {
        return ["unreadable".to_string()].into();
    }
    if report.is_legal() {
        return ["legal".to_string()].into();
    }
    let codes = report
        .diagnostics
        .iter()
        .filter(|d| d.code != Code::DeckRule)
        .map(|d| d.code.id().to_string());
    report.broken_rules().into_iter().chain(codes).collect()
}

#[test]
fn pasted_lists_get_their_verdict_title_and_cards() {
    let cases = corpus();
    assert!(cases.len() >= 60, "the corpus has {} lists", cases.len());
    let mut failures = Vec::new();
    for case in &cases {
        let (report, shown) = read(case);
        let mut wrong = Vec::new();
        let got = verdict(&report);
        if got != case.expect {
            wrong.push(format!("verdict {got:?}, expected {:?}", case.expect));
        }
        if !report.unreadable && report.verdict.locale != case.locale {
            wrong.push(format!(
                "locale `{}`, expected `{}`",
                report.verdict.locale, case.locale
            ));
        }
        for (key, want) in &case.checks {
            let have = match key.as_str() {
                "title" => report.title().unwrap_or("").to_string(),
                "player" => report.player(),
                "cards" => report.deck.entries.iter().map(|e| e.count).sum::<u32>().to_string(),
                "note" => (!report.notes.is_empty()).to_string(),
                other => panic!("{}: unknown check `{other}`", case.file),
            };
            let want = if key == "note" { "true" } else { want.as_str() };
            if have != want {
                wrong.push(format!("{key} `{have}`, expected `{want}`"));
            }
        }
        if !wrong.is_empty() {
            failures.push(format!("{}: {}\n{shown}", case.file, wrong.join("; ")));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} lists misread:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

/// The exit code a user sees, for every list of the corpus at once (one
/// run of the binary per list would take most of a minute).
#[test]
fn pasted_lists_exit_as_their_verdict() {
    let dir = tempfile::tempdir().unwrap();
    common::mark(dir.path());
    let mut wrong = Vec::new();
    for case in corpus() {
        let path = root().join(path_of(&case));
        let out = common::pnpkit_in(
            dir.path(),
            &["deck", &case.game, path.to_str().unwrap(), "--color", "never"],
        );
        let want = if case.expect.contains("legal") {
            0
        } else if case.expect.contains("unreadable") {
            2
        } else {
            1
        };
        if out.status.code() != Some(want) {
            wrong.push(format!(
                "{}: exit {:?}, expected {want}\n{}",
                case.file,
                out.status.code(),
                common::out(&out)
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
