//! The log checker: golden logs per rule id, the shipped sample games, and
//! engine-driven property tests (random legal games, mutated actions).
//!
//! Golden logs live in `tests/fixtures/logs/<game>/` and are named
//! `<RULE>-legal[-what].yaml` or `<RULE>-illegal[-what].yaml`. An illegal one
//! starts with a comment saying where it must fail:
//! `# violation: UM-3 at turn 2 action 1` (or `at turn 2` for the turn
//! itself, or `at setup`), or, for an automatic effect a log forgets,
//! `# checkpoint: damage.Ana.cover-left at turn 2 action 3` (the checkpoint
//! that must fail there). A log about a card effect also names the card the
//! refusal must cite: `# card: botiquin`.

use std::fs;
use std::path::{Path, PathBuf};

use pnpkit::cmd::log::{LogReport, check_log, human};
use pnpkit::project::Catalog;
use pnpkit::rules::replay::FailureKind;
use pnpkit::rules::{Options, Replayer, engine_for, engine_games, random};

use crate::common::{game, root, shipped};

fn engine(id: &str) -> Box<dyn Replayer> {
    engine_for(game(id)).expect("engine").expect("engine reads the pack")
}

/// Runs `pnpkit log` on a file given relative to the crate root.
fn run(rel: &Path) -> LogReport {
    check_log(
        &Catalog::new(Some("data".into()), "fonts".into()),
        rel,
        &Options::default(),
    )
    .expect("log readable")
}

fn yaml_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = fs::read_dir(dir)
        .map(|rd| rd.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    v.retain(|p| p.extension().is_some_and(|e| e == "yaml"));
    v.sort();
    v
}

/// `# violation: UM-3 at turn 2 action 1` → (rule, turn, action).
fn expected_violation(text: &str) -> Option<(String, Option<usize>, Option<usize>)> {
    let line = text.lines().find_map(|l| l.strip_prefix("# violation: "))?;
    let (rule, at) = line.split_once(" at ")?;
    let words: Vec<&str> = at.split_whitespace().collect();
    let num = |key: &str| {
        words
            .iter()
            .position(|w| *w == key)
            .and_then(|i| words.get(i + 1))
            .and_then(|n| n.parse().ok())
    };
    Some((rule.trim().to_string(), num("turn"), num("action")))
}

/// `# checkpoint: damage.Ana.cover-left at turn 2 action 3` → (path, turn, action).
fn expected_checkpoint(text: &str) -> Option<(String, Option<usize>, Option<usize>)> {
    let line = text.lines().find_map(|l| l.strip_prefix("# checkpoint: "))?;
    let (path, at) = line.split_once(" at ")?;
    let (_, turn, action) = expected_violation(&format!("# violation: - at {at}"))?;
    Some((path.trim().to_string(), turn, action))
}

fn rel(p: &Path) -> PathBuf {
    p.strip_prefix(root()).unwrap().to_path_buf()
}

/// Fails with `$msg` unless `$cond` holds (a golden log's problem, collected).
macro_rules! ensure {
    ($cond:expr, $($msg:tt)+) => {
        if !$cond {
            return Err(format!($($msg)+));
        }
    };
}

/// Checks one golden log: an illegal one fails where its first lines say
/// (and cites the card they name), a legal one replays clean.
fn check_golden(id: &str, path: &Path) -> Result<(), String> {
    let name = path.file_stem().unwrap().to_string_lossy().into_owned();
    let text = fs::read_to_string(path).unwrap();
    let report = run(&rel(path));
    let shown = human(&report, false);
    if !name.contains("-illegal") {
        ensure!(
            name.contains("-legal"),
            "{name}: golden logs are named <RULE>-legal… or <RULE>-illegal…"
        );
        ensure!(report.is_legal(), "{name} should be legal\n{shown}");
        return Ok(());
    }
    let Some(replay) = report.replay.as_ref() else {
        return Err(format!("{name}: not replayed\n{shown}"));
    };
    let Some(f) = replay.failure.as_ref() else {
        return Err(format!("{name}: replayed as legal\n{shown}"));
    };
    if let Some((path, turn, action)) = expected_checkpoint(&text) {
        ensure!(f.kind == FailureKind::Checkpoint, "{name}: not a checkpoint\n{shown}");
        ensure!(
            f.message.contains(&format!("`{path}`")),
            "{name}: wrong checkpoint\n{shown}"
        );
        ensure!((f.turn, f.action) == (turn, action), "{name}: wrong position\n{shown}");
    } else {
        let Some((rule, turn, action)) = expected_violation(&text) else {
            return Err(format!("{name}: no `# violation: RULE at turn T action A` line"));
        };
        ensure!(
            name.starts_with(&format!("{rule}-")),
            "{name}: file name and violation line disagree"
        );
        ensure!(f.kind == FailureKind::Illegal, "{name}: not a refusal\n{shown}");
        ensure!(f.rule == Some(rule.as_str()), "{name}: wrong rule\n{shown}");
        ensure!((f.turn, f.action) == (turn, action), "{name}: wrong position\n{shown}");
        ensure!(
            report.rule_title.is_some(),
            "{name}: rule has no title in the reference"
        );
    }
    if let Some(card) = text.lines().find_map(|l| l.strip_prefix("# card: ")) {
        let card = card.trim();
        if f.kind == FailureKind::Checkpoint {
            // A forgotten automatic effect: the checkpoint holds without
            // it, and the report names it.
            ensure!(
                f.forgotten.as_ref().is_some_and(|u| u.card.starts_with(card)),
                "{name}: the checkpoint is not explained by `{card}`\n{shown}"
            );
            ensure!(shown.contains(&format!("without `{card}")), "{name}\n{shown}");
        } else {
            let said = format!("{} {} {}", f.message, f.expected, f.found);
            ensure!(
                said.contains(&format!("`{card}")),
                "{name}: the refusal does not cite `{card}`\n{shown}"
            );
            ensure!(
                f.cause.iter().chain(&f.also).any(|c| c.card.starts_with(card)),
                "{name}: the refusal is not caused by `{card}`'s effect\n{shown}"
            );
        }
    }
    for part in [&f.message, &f.expected, &f.found] {
        ensure!(
            dangling(part).is_none(),
            "{name}: a message ends in an empty value\n{shown}"
        );
    }
    insta::assert_snapshot!(format!("log-{id}-{name}"), shown);
    Ok(())
}

/// Where a refusal's text shows a value left empty: a trailing space (`a
/// fight in `), a colon or an opening bracket at the end, an empty code span
/// or brackets, two spaces in a row.
fn dangling(s: &str) -> Option<&'static str> {
    if s.is_empty() {
        return None;
    }
    let t = s.trim_end();
    if t.len() != s.len() {
        return Some("a trailing space");
    }
    if t.ends_with([':', '(', ',', '=']) {
        return Some("nothing after its last word");
    }
    ["``", "()", "[]`", "  ", " ,"]
        .iter()
        .find(|p| t.contains(*p))
        .map(|_| "an empty value inside")
}

/// Issue 24 (4): no refusal ends in an empty value, over the near misses of
/// random games of every engine.
#[test]
fn no_refusal_ends_in_an_empty_value() {
    let mut bad = Vec::new();
    for id in engine_games() {
        let engine = engine(id);
        for seed in 0..random_shipped() / 4 {
            let Ok(probe) = engine.mutation_probe(seed, 120) else {
                continue;
            };
            let Some(f) = probe.refusal else { continue };
            for part in [&f.message, &f.expected, &f.found] {
                if let Some(why) = dangling(part) {
                    bad.push(format!(
                        "{id} seed {seed} ({why}): {part:?} in {} / {} / {}",
                        f.message, f.expected, f.found
                    ));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn golden_logs_fail_where_they_say_and_legal_ones_replay() {
    let mut checked = 0;
    let mut problems = Vec::new();
    for id in engine_games() {
        for path in yaml_files(&root().join("tests/fixtures/logs").join(id)) {
            if let Err(p) = check_golden(id, &path) {
                problems.push(p);
            }
            checked += 1;
        }
    }
    assert!(
        problems.is_empty(),
        "{} golden logs wrong:\n\n{}",
        problems.len(),
        problems.join("\n\n")
    );
    assert!(checked > 0 || engine_games().next().is_none());
}

#[test]
fn every_rule_id_has_a_legal_and_an_illegal_golden_log() {
    for id in engine_games() {
        let names: Vec<String> = yaml_files(&root().join("tests/fixtures/logs").join(id))
            .iter()
            .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
            .collect();
        let mut missing = Vec::new();
        for rule in &game(id).rule_ids {
            for kind in ["legal", "illegal"] {
                let prefix = format!("{rule}-{kind}");
                if !names
                    .iter()
                    .any(|n| n == &prefix || n.starts_with(&format!("{prefix}-")))
                {
                    missing.push(prefix);
                }
            }
        }
        assert!(missing.is_empty(), "{id}: golden logs missing: {missing:?}");
    }
}

#[test]
fn every_shipped_game_has_an_engine() {
    let with: Vec<&str> = engine_games().collect();
    for g in shipped() {
        assert!(with.contains(&g.id.as_str()), "{} has no rules engine", g.id);
    }
}

#[test]
fn shipped_sample_games_replay() {
    for id in engine_games() {
        let files = yaml_files(&root().join("data").join(id).join("logs"));
        assert!(
            files
                .iter()
                .any(|p| !p.file_name().unwrap().to_string_lossy().starts_with("illegal-")),
            "{id}: no legal sample game in data/{id}/logs/"
        );
        for path in files {
            let report = run(&rel(&path));
            let shown = human(&report, false);
            let illegal = path.file_name().unwrap().to_string_lossy().starts_with("illegal-");
            assert_eq!(report.is_legal(), !illegal, "{}\n{shown}", path.display());
            if !illegal {
                let replay = report.replay.unwrap();
                assert!(
                    replay.ending.is_some(),
                    "{}: a complete sample game ends",
                    path.display()
                );
            }
        }
    }
}

/// Games per engine for the property tests (`PNPKIT_RANDOM_GAMES` raises it).
fn random_shipped() -> u64 {
    std::env::var("PNPKIT_RANDOM_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000)
}

/// A random legal game of `id`, through the log text and back, replays clean.
fn random_games_replay_clean(id: &str) {
    let engine = engine(id);
    let mut ended = 0;
    for seed in 0..random_shipped() {
        let text = engine.random_log(seed, 200);
        let log = random::parse_log(&text).unwrap_or_else(|e| panic!("{id} seed {seed}: {e}\n{text}"));
        let replay = engine
            .replay(&log, &Options::default())
            .unwrap_or_else(|ds| panic!("{id} seed {seed}: not understood: {:?}\n{text}", ds[0]));
        assert!(
            replay.failure.is_none(),
            "{id} seed {seed}: {:?}\n{text}",
            replay.failure
        );
        ended += usize::from(replay.ending.is_some());
    }
    assert!(ended > 0, "{id}: no random game ever ended");
}

/// One action of a random legal game replaced by a candidate is rejected at
/// that position exactly when the engine's legal list excludes it.
fn mutations_agree_with_the_legal_list(id: &str) {
    let engine = engine(id);
    let (mut legal, mut illegal) = (0, 0);
    for seed in 0..random_shipped() / 2 {
        let probe = engine
            .mutation_probe(seed, 120)
            .unwrap_or_else(|e| panic!("{id} seed {seed}: {e}"));
        if probe.legal {
            legal += 1;
        } else {
            illegal += 1;
        }
    }
    // Both outcomes must be exercised, or the property says little.
    assert!(
        legal > 0 && illegal > 0,
        "{id}: {legal} legal and {illegal} illegal mutations"
    );
}

/// One pair of property tests per engine, so they run in parallel.
macro_rules! properties {
    ($($game:ident),*) => {$(
        mod $game {
            #[test]
            fn random_legal_games_replay_clean() {
                super::random_games_replay_clean(stringify!($game));
            }

            #[test]
            fn mutated_actions_are_rejected_exactly_when_not_legal() {
                super::mutations_agree_with_the_legal_list(stringify!($game));
            }
        }
    )*};
}

properties!(mythic, onevmany, openwars, unmatched, xterminio);

#[test]
fn every_engine_has_property_tests() {
    let listed = ["mythic", "onevmany", "openwars", "unmatched", "xterminio"];
    for id in engine_games() {
        assert!(
            listed.contains(&id),
            "add `{id}` to properties!(…) in tests/it/rules.rs"
        );
    }
}

/// The `pnpkit` binary run from the crate root.
fn pnpkit(args: &[&str]) -> (bool, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pnpkit"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("pnpkit runs");
    (
        out.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

/// Issue 28 (4) and 24 (5): a real log of format 1 (from git history) read
/// as today's is refused with what changed and the command to run; the
/// upgrade rewrites it, keeping its comments, and it then replays clean.
#[test]
fn an_old_format_log_is_refused_then_upgraded_and_replays_clean() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("capital.yaml");
    let old =
        fs::read_to_string(root().join("tests/fixtures/logs-format-1/openwars-sample-contested-capital.yaml")).unwrap();
    fs::write(&file, &old).unwrap();
    let f = file.to_str().unwrap();

    let (ok, said) = pnpkit(&["log", f]);
    assert!(!ok, "{said}");
    assert!(said.contains("error[E087]"), "{said}");
    assert!(said.contains("written in format 1"), "{said}");
    assert!(said.contains("changed since: card effects became data"), "{said}");
    assert!(said.contains(&format!("run `pnpkit log --upgrade {f}`")), "{said}");

    let (ok, said) = pnpkit(&["log", "--upgrade", f]);
    assert!(ok, "{said}");
    assert!(
        said.contains("upgraded") && said.contains("from format 1 to format 2"),
        "{said}"
    );
    let new = fs::read_to_string(&file).unwrap();
    assert!(new.contains("\nformat: 2\ngame: openwars"), "{new}");
    assert!(
        new.contains("target: orc-warriors}  # format 1 said: +1 movement"),
        "{new}"
    );
    // Every comment of the old text is still there.
    for line in old.lines().filter(|l| l.trim_start().starts_with('#')) {
        assert!(new.contains(line), "lost the comment {line:?}");
    }

    let (ok, said) = pnpkit(&["log", f]);
    assert!(ok, "{said}");
    assert!(said.contains("openwars: legal"), "{said}");
    // A log already in today's format is left alone.
    let (ok, said) = pnpkit(&["log", "--upgrade", f]);
    assert!(ok && said.contains("already in format 2"), "{said}");
    assert_eq!(fs::read_to_string(&file).unwrap(), new);
}

/// A format this pnpkit does not know is refused (E086); `format: 1`
/// written on a log makes it read as format 1 (E087).
#[test]
fn format_versions_newer_and_written_older_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let legal = fs::read_to_string(root().join("tests/fixtures/logs/xterminio/XT-4-legal.yaml")).unwrap();
    for (version, code) in [(3, "E086"), (1, "E087")] {
        let file = dir.path().join(format!("v{version}.yaml"));
        fs::write(&file, format!("format: {version}\n{legal}")).unwrap();
        let (ok, said) = pnpkit(&["log", file.to_str().unwrap()]);
        assert!(!ok && said.contains(&format!("error[{code}]")), "{said}");
        assert!(!said.contains("error[E02"), "a refused format is not replayed: {said}");
    }
    // The written format 1 upgraded: only the version changes.
    let file = dir.path().join("v1.yaml");
    let (ok, said) = pnpkit(&["log", "--upgrade", file.to_str().unwrap()]);
    assert!(ok, "{said}");
    assert_eq!(fs::read_to_string(&file).unwrap(), format!("format: 2\n{legal}"));
}

/// Issue 24 (3): a format-1 log that wrote down what the Diesel Generator
/// adds at the charge replays clean: the line confirms what the engine
/// applied, which is not applied a second time.
#[test]
fn an_old_log_writing_down_an_automatic_effect_is_a_confirmation() {
    let report = run(Path::new("tests/fixtures/logs-format-1/xterminio-XT-9-legal.yaml"));
    assert!(report.is_legal(), "{}", human(&report, false));
}

/// Issue 24 (4): every problem of reading a log is reported in one run,
/// the structure's and the game's (header fields, actions), in file order.
#[test]
fn every_reading_problem_of_a_log_is_reported_at_once() {
    let report = run(Path::new("tests/fixtures/log-problems/four-problems.yaml"));
    assert!(report.replay.is_none());
    let lines: Vec<u32> = report
        .diagnostics
        .iter()
        .filter_map(|d| d.span.map(|s| s.line))
        .collect();
    assert_eq!(lines, [12, 19, 20, 21], "{}", human(&report, false));
    insta::assert_snapshot!("log-problems-four", human(&report, false));
}

/// The lines of a report the docs leave out when they quote it: the state
/// excerpts, the legal alternatives and the final state (long, and
/// changing with every new checkpoint key).
fn quoted(report: &str) -> String {
    let mut out = Vec::new();
    for l in report.lines() {
        let t = l.trim_start();
        if t.starts_with("= note: state:") || t.starts_with("help: legal here:") || t.starts_with("final state:") {
            continue;
        }
        out.push(l.trim_end());
    }
    out.join("\n").trim_end().to_string()
}

/// Issue 24 (4): every example of docs/log-format.md and docs/log-format/
/// replays. Each ```yaml block is preceded by `<!-- log: PATH -->` (it is
/// an excerpt of that log: its lines appear there in order) or
/// `<!-- not a log: why -->` (the fields checkpoints name, a syntax
/// sketch); each ```text block by `<!-- output: PATH -->` (the report of
/// replaying PATH, as `quoted` keeps it). `PNPKIT_UPDATE_DOCS=1` rewrites
/// the quoted reports.
#[test]
fn every_log_example_in_the_docs_replays() {
    let update = std::env::var_os("PNPKIT_UPDATE_DOCS").is_some();
    let mut docs = vec![root().join("docs/log-format.md")];
    let mut pages: Vec<PathBuf> = fs::read_dir(root().join("docs/log-format"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    docs.extend(pages);
    let mut problems = Vec::new();
    let (mut logs, mut outputs) = (0, 0);
    for doc in docs {
        let text = fs::read_to_string(&doc).unwrap();
        let name = rel(&doc).display().to_string();
        let lines: Vec<&str> = text.lines().collect();
        let mut out: Vec<String> = Vec::new();
        let mut i = 0;
        while i < lines.len() {
            let l = lines[i];
            let Some(kind) = l.strip_prefix("```").filter(|k| *k == "yaml" || *k == "text") else {
                out.push(l.to_string());
                i += 1;
                continue;
            };
            let end = (i + 1..lines.len())
                .find(|&j| lines[j].starts_with("```"))
                .expect("a closed block");
            let block = &lines[i + 1..end];
            let note = out
                .iter()
                .rev()
                .find(|x| !x.trim().is_empty())
                .cloned()
                .unwrap_or_default();
            let at = format!("{name}:{}", i + 1);
            let path = |key: &str| {
                note.strip_prefix(&format!("<!-- {key}: "))
                    .and_then(|r| r.strip_suffix(" -->"))
                    .map(str::to_string)
            };
            let mut body: Vec<String> = block.iter().map(|s| s.to_string()).collect();
            match kind {
                "yaml" if note.starts_with("<!-- not a log: ") => {
                    if let Err(e) = serde_yaml_ok(&block.join("\n")) {
                        problems.push(format!("{at}: not YAML: {e}"));
                    }
                }
                "yaml" => match path("log") {
                    None => problems.push(format!("{at}: a yaml block without `<!-- log: PATH -->`")),
                    Some(p) => {
                        logs += 1;
                        let Ok(file) = fs::read_to_string(root().join(&p)) else {
                            problems.push(format!("{at}: no log `{p}`"));
                            out.push(l.to_string());
                            out.extend(body);
                            out.push(lines[end].to_string());
                            i = end + 1;
                            continue;
                        };
                        let have: Vec<&str> = file.lines().map(uncommented).collect();
                        let mut k = 0;
                        for b in block
                            .iter()
                            .map(|b| uncommented(b))
                            .filter(|b| !b.is_empty() && *b != "…")
                        {
                            // A line cut short with `…` matches the lines it starts.
                            let same = |h: &&str| match b.split_once('…') {
                                Some((head, _)) => h.starts_with(head.trim_end()),
                                None => *h == b,
                            };
                            match have[k..].iter().position(same) {
                                Some(d) => k += d + 1,
                                None => {
                                    problems.push(format!("{at}: `{b}` is not in `{p}` (in order)"));
                                    break;
                                }
                            }
                        }
                        let report = run(Path::new(&p));
                        let shown = human(&report, false);
                        let illegal = p.contains("illegal") || p.contains("forgotten") || p.contains("refused");
                        if report.is_legal() == illegal && !p.contains("/examples/") {
                            problems.push(format!(
                                "{at}: `{p}` replays {}\n{shown}",
                                if illegal { "clean" } else { "with a problem" }
                            ));
                        }
                    }
                },
                _ => match path("output") {
                    None => problems.push(format!("{at}: a text block without `<!-- output: PATH -->`")),
                    Some(p) => {
                        outputs += 1;
                        let report = run(Path::new(&p));
                        let want = quoted(&human(&report, false));
                        if block.join("\n").trim_end() != want {
                            if update {
                                body = want.lines().map(str::to_string).collect();
                            } else {
                                problems.push(format!(
                                    "{at}: the report of `{p}` differs:\n--- docs\n{}\n--- now\n{want}",
                                    block.join("\n")
                                ));
                            }
                        }
                    }
                },
            }
            out.push(l.to_string());
            out.extend(body);
            out.push(lines[end].to_string());
            i = end + 1;
        }
        if update {
            let mut new = out.join("\n");
            new.push('\n');
            if new != text {
                fs::write(&doc, new).unwrap();
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} problems:\n\n{}",
        problems.len(),
        problems.join("\n\n")
    );
    assert!(logs > 40 && outputs > 40, "{logs} log examples, {outputs} reports");
}

/// A line of YAML without its indent and comment (the docs explain a
/// log's lines in comments of their own).
fn uncommented(line: &str) -> &str {
    let code = match line.find(" #") {
        Some(i) => &line[..i],
        None if line.trim_start().starts_with('#') => "",
        None => line,
    };
    code.trim()
}

/// Whether `text` is YAML (a sketch of fields in the docs).
fn serde_yaml_ok(text: &str) -> Result<(), String> {
    pnpkit::pack::yaml::parse(text, pnpkit::diag::FileId(0), &pnpkit::pack::yaml::Limits::default())
        .map(|_| ())
        .map_err(|d| d.message.clone())
}
