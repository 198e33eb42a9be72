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
    crate::deck::assert_all_read(&failures, cases.len());
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

/// Accents dropped (`Versátiles` → `Versatiles`), as players type on a
/// keyboard without them.
fn without_accents(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            'á' | 'à' => 'a',
            'é' | 'è' => 'e',
            'í' => 'i',
            'ó' => 'o',
            'ú' | 'ü' => 'u',
            'ñ' => 'n',
            'Á' => 'A',
            'É' => 'E',
            'Í' => 'I',
            'Ó' => 'O',
            'Ú' => 'U',
            c => c,
        })
        .collect()
}

/// Every label a shipped pack prints for a part of a list — the rows and
/// sums of the composition table and the draw groups of `--odds`, in both
/// locales, with and without accents, with a count as deck sites add one —
/// read back as a section header above a legal list's cards: the list
/// stays legal. Every mode's name in both locales, with and without
/// accents, and written with `-` or `contra` for `vs`, picks that mode.
#[test]
fn every_label_and_mode_name_a_pack_prints_reads_back() {
    let mut wrong = Vec::new();
    for g in common::shipped() {
        let c = g.construction.as_ref().unwrap();
        let dir = root().join("data").join(&g.id).join("decks");
        let mut samples: Vec<PathBuf> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| {
                let n = p.file_name().unwrap().to_string_lossy();
                n.ends_with(".txt") && !n.starts_with("illegal-")
            })
            .collect();
        samples.sort();
        let sample = &samples[0];
        let text = fs::read_to_string(sample).unwrap();
        let check = |text: &str, locale: Option<&str>| {
            let ctx = Context {
                locale: locale.map(str::to_string),
                ..Context::default()
            };
            let mut sources = SourceMap::default();
            let report = check_bytes(g, Path::new("list.txt"), text.as_bytes().to_vec(), &ctx, &mut sources).unwrap();
            let shown = report.human(g, &sources, false);
            (report, shown)
        };
        let mut labels: BTreeSet<String> = BTreeSet::new();
        for locale in ["en", "es"] {
            let (report, _) = check(&text, Some(locale));
            labels.extend(report.verdict.composition.rows.iter().map(|(l, _)| l.clone()));
            labels.extend(report.verdict.composition.sums.iter().map(|(l, _)| l.clone()));
            if let Some(d) = &c.draw {
                labels.extend(d.groups.iter().map(|gr| gr.label.get(locale).to_string()));
            }
        }
        assert!(labels.len() >= 2, "{}: labels {labels:?}", g.id);
        // The section line goes after the first card, where nothing but a section or a card may stand.
        let lines: Vec<&str> = text.lines().collect();
        let first_card = lines
            .iter()
            .position(|l| l.trim_start().starts_with(|ch: char| ch.is_ascii_digit()))
            .expect("a counted line");
        for label in &labels {
            for written in [
                label.clone(),
                without_accents(label),
                format!("{label} (3)"),
                format!("{}:", label.to_uppercase()),
            ] {
                let mut with = lines.clone();
                with.insert(first_card + 1, &written);
                let list = with.join("\n") + "\n";
                let (report, shown) = check(&list, None);
                if !report.is_legal() {
                    wrong.push(format!("{}: section `{written}` not read back\n{shown}", g.id));
                }
            }
        }
        // Mode names.
        let Some(kind) = &c.modes else { continue };
        for mode in g.components.get(kind).into_iter().flatten() {
            for (locale, name) in &mode.name.0 {
                let key = if locale == "es" { "modo" } else { "mode" };
                // The seed's and the pack's names, and the tool's own label (the id: `3-vs-1`).
                let mut spellings = vec![
                    name.clone(),
                    without_accents(name),
                    name.to_lowercase(),
                    mode.id.clone(),
                    mode.id.replace('-', " "),
                ];
                if name.contains(" vs ") {
                    spellings.push(name.replace(" vs ", "-vs-"));
                    spellings.push(name.replace(" vs ", " contra "));
                }
                for written in spellings {
                    let list = format!("{key}: {written}\n");
                    let (report, shown) = check(&list, None);
                    if report.verdict.mode.as_deref() != Some(mode.id.as_str()) {
                        wrong.push(format!(
                            "{}: mode `{written}` read as {:?}\n{shown}",
                            g.id, report.verdict.mode
                        ));
                    }
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} names not read back:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
