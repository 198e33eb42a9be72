//! `pnpkit simulate` and `pnpkit stats` as a user runs them: simulated logs
//! replay clean with `pnpkit log` and are the same for the same seed; the
//! statistics of a folder of simulated games are recounted from the logs'
//! own `result:` lines and their intervals recomputed independently; the
//! HTML report loads in headless Chromium; mixed and illegal logs are
//! reported.

use crate::common;

use std::path::{Path, PathBuf};

use serde_json::Value;

fn run(dir: &Path, args: &[&str]) -> std::process::Output {
    let mut all = vec!["--color", "never"];
    all.extend_from_slice(args);
    common::pnpkit_in(dir, &all)
}

fn logs(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    v.sort();
    v
}

/// The Wilson interval by its definition: the p whose score statistic
/// |p̂ − p| / √(p(1 − p)/n) equals z, found by bisection on each side of p̂.
fn wilson_by_bisection(wins: f64, n: f64) -> (f64, f64) {
    let z = 1.959_963_984_540_054;
    let phat = wins / n;
    let score = |p: f64| (phat - p).abs() - z * (p * (1.0 - p) / n).sqrt();
    let solve = |mut lo: f64, mut hi: f64| {
        // score > 0 at the far end, < 0 at p̂ (unless p̂ is 0 or 1, where the end itself is the bound).
        for _ in 0..200 {
            let mid = (lo + hi) / 2.0;
            if (score(mid) > 0.0) == (score(lo) > 0.0) {
                lo = mid
            } else {
                hi = mid
            }
        }
        (lo + hi) / 2.0
    };
    let low = if phat == 0.0 { 0.0 } else { solve(0.0, phat) };
    let high = if phat == 1.0 { 1.0 } else { solve(phat, 1.0) };
    (low, high)
}

#[test]
fn simulated_games_replay_clean_and_their_statistics_check_out() {
    let tmp = tempfile::tempdir().unwrap();
    let root = common::root();
    let out = tmp.path().join("sims");
    let o = run(
        root,
        &[
            "simulate",
            "unmatched",
            "--games",
            "40",
            "--seed",
            "7",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", common::out(&o));
    assert!(
        common::out(&o).contains("every log replays clean"),
        "{}",
        common::out(&o)
    );
    let files = logs(&out);
    assert_eq!(files.len(), 40);
    // Ordinary logs: `pnpkit log` reads them clean, result included.
    for f in files.iter().step_by(7) {
        let o = run(root, &["log", f.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0), "{}: {}", f.display(), common::out(&o));
        let text = std::fs::read_to_string(f).unwrap();
        assert!(text.starts_with("# Simulated with `pnpkit simulate unmatched"));
        assert!(text.contains("\nturns:\n  - player: "), "block-style turns");
    }
    // The same seed, the same games, byte for byte; another seed, other games.
    let again = tmp.path().join("again");
    run(
        root,
        &[
            "simulate",
            "unmatched",
            "--games",
            "40",
            "--seed",
            "7",
            "--out",
            again.to_str().unwrap(),
        ],
    );
    for (a, b) in files.iter().zip(logs(&again)) {
        assert_eq!(std::fs::read(a).unwrap(), std::fs::read(&b).unwrap(), "{}", a.display());
    }
    let other = tmp.path().join("other");
    run(
        root,
        &[
            "simulate",
            "unmatched",
            "--games",
            "3",
            "--seed",
            "8",
            "--out",
            other.to_str().unwrap(),
        ],
    );
    assert_ne!(
        std::fs::read(&files[0]).unwrap(),
        std::fs::read(&logs(&other)[0]).unwrap()
    );

    // Statistics, as JSON.
    let o = run(root, &["--format", "json", "stats", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", common::out(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["logs"], 40);
    assert_eq!(v["finished"], 40);

    // Recount wins per seat and per player from the logs themselves: the
    // players listed in each header, the winners its `result:` names.
    let mut seat: std::collections::BTreeMap<String, (u64, u64)> = Default::default();
    let mut player: std::collections::BTreeMap<String, (u64, u64)> = Default::default();
    let mut first = (0u64, 0u64);
    for f in &files {
        let log = pnpkit::rules::random::parse_log(&std::fs::read_to_string(f).unwrap()).unwrap();
        let winners = log.result.as_ref().map(|r| r.winners.clone()).unwrap_or_default();
        for (i, p) in log.players.iter().enumerate() {
            let won = u64::from(winners.contains(&p.name));
            let e = seat.entry(format!("seat {}", i + 1)).or_default();
            e.0 += won;
            e.1 += 1;
            let e = player.entry(p.name.clone()).or_default();
            e.0 += won;
            e.1 += 1;
        }
        first.1 += 1;
        first.0 += u64::from(winners.contains(&log.turns[0].player));
    }
    let dims = v["dimensions"].as_array().unwrap();
    let mut checked = 0;
    for (name, counts) in [("seat", &seat), ("player", &player)] {
        let d = dims
            .iter()
            .find(|d| d["name"] == name)
            .unwrap_or_else(|| panic!("no {name} dimension"));
        let rates = d["rates"].as_array().unwrap();
        assert_eq!(rates.len(), counts.len(), "{name}");
        for r in rates {
            let (w, n) = counts[r["value"].as_str().unwrap()];
            assert_eq!(
                (r["wins"].as_u64().unwrap(), r["games"].as_u64().unwrap()),
                (w, n),
                "{name} {}",
                r["value"]
            );
            let (lo, hi) = wilson_by_bisection(w as f64, n as f64);
            assert!(
                (r["low"].as_f64().unwrap() - lo).abs() < 1e-9,
                "{name} {}: low {} vs {lo}",
                r["value"],
                r["low"]
            );
            assert!(
                (r["high"].as_f64().unwrap() - hi).abs() < 1e-9,
                "{name} {}: high {} vs {hi}",
                r["value"],
                r["high"]
            );
            checked += 1;
        }
    }
    assert!(checked >= 4);
    let fp = &v["first_player"];
    assert_eq!((fp["wins"].as_u64().unwrap(), fp["games"].as_u64().unwrap()), first);
    // Every interval in the report holds its rate.
    for d in dims {
        for r in d["rates"].as_array().unwrap() {
            let (lo, p, hi) = (
                r["low"].as_f64().unwrap(),
                r["rate"].as_f64().unwrap(),
                r["high"].as_f64().unwrap(),
            );
            assert!(lo <= p && p <= hi, "{r}");
        }
    }
    // The greedy player, which takes damage-dealing actions, beats the random one.
    let greedy = player
        .iter()
        .filter(|(k, _)| k.starts_with("Greedy"))
        .fold((0, 0), |a, (_, b)| (a.0 + b.0, a.1 + b.1));
    let random = player
        .iter()
        .filter(|(k, _)| k.starts_with("Random"))
        .fold((0, 0), |a, (_, b)| (a.0 + b.0, a.1 + b.1));
    // Its 95 % interval lies wholly above the random player's (the random
    // player now picks a kind of action first, so it plays less badly than
    // when the greedy one won twice as often).
    let (g_low, _) = wilson_by_bisection(greedy.0 as f64, greedy.1 as f64);
    let (_, r_high) = wilson_by_bisection(random.0 as f64, random.1 as f64);
    assert!(g_low > r_high, "greedy {greedy:?} random {random:?}");
    // Cards: drawn and played counts are recounted from the actions of one log.
    let cards = v["cards"].as_array().unwrap();
    assert!(
        cards
            .iter()
            .all(|c| c["in_decks"].as_u64().unwrap() >= c["in_winning_decks"].as_u64().unwrap())
    );
    assert!(
        cards
            .iter()
            .any(|c| c["played"].as_u64().unwrap() > 0 && c["drawn"].as_u64().unwrap() > 0)
    );

    // The table names every dimension and the first player's advantage.
    let o = run(
        root,
        &[
            "stats",
            out.to_str().unwrap(),
            "--html",
            tmp.path().join("stats.html").to_str().unwrap(),
        ],
    );
    let table = String::from_utf8_lossy(&o.stdout);
    assert!(table.contains("first player wins"), "{table}");
    assert!(table.contains("win rate by hero"), "{table}");
    assert!(table.contains("King Arthur"), "hero ids read as names: {table}");
    html_in_chromium(&tmp.path().join("stats.html"), &v);
}

fn chromium() -> Option<PathBuf> {
    common::chromium::find()
}

/// The page as headless Chromium builds it: no console error, the script
/// ran, one bar per rate carrying the JSON's numbers, two histograms.
fn html_in_chromium(page: &Path, v: &Value) {
    let html = std::fs::read_to_string(page).unwrap();
    assert!(
        !html.contains("http://") && !html.contains("https://") && !html.contains("src="),
        "self-contained"
    );
    let Some(browser) = chromium() else {
        assert!(std::env::var_os("CI").is_none(), "chromium is required in CI");
        println!("SKIPPED: chromium not found");
        return;
    };
    let dom = common::chromium::ready_dom(&browser, page, "");
    let rates: usize = v["dimensions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["rates"].as_array().unwrap().len())
        .sum();
    assert_eq!(
        dom.matches("<rect class=\"bar\"").count(),
        rates + 1,
        "one bar per rate and the first player's"
    );
    for d in v["dimensions"].as_array().unwrap() {
        for r in d["rates"].as_array().unwrap() {
            let want = format!("data-rate=\"{:.6}\"", r["rate"].as_f64().unwrap());
            assert!(dom.contains(&want), "{want}");
        }
    }
    assert!(dom.contains("id=\"turns\"") && dom.contains("id=\"actions\""));
    assert_eq!(
        dom.matches("<tr data-id=").count(),
        v["cards"].as_array().unwrap().len()
    );
}

#[test]
fn logs_of_other_games_and_illegal_logs_are_reported() {
    let root = common::root();
    let tmp = tempfile::tempdir().unwrap();
    // One legal Mythic log, one illegal: the legal one is counted, the other left out with W076.
    let o = run(
        root,
        &[
            "stats",
            "data/mythic/logs/sample-learning.yaml",
            "data/mythic/logs/illegal-full-area.yaml",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", common::out(&o));
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(out.contains("warning[W076]"), "{out}");
    assert!(out.contains("stats: mythic, 1 log (1 finished"), "{out}");
    insta::assert_snapshot!("stats-log-skipped", out.split("stats: mythic").next().unwrap());
    // Logs of two games: E075, nothing counted.
    let o = run(
        root,
        &[
            "stats",
            "data/mythic/logs/sample-learning.yaml",
            "data/unmatched/logs/sample-duel.yaml",
        ],
    );
    assert_eq!(o.status.code(), Some(1));
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(out.contains("error[E075]"), "{out}");
    insta::assert_snapshot!("stats-mixed-games", out);
    // Nothing usable; a folder without logs.
    let o = run(root, &["stats", "data/mythic/logs/illegal-full-area.yaml"]);
    assert_eq!(o.status.code(), Some(1));
    let o = run(root, &["stats", tmp.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    // Simulation refuses an unknown player and a game without an engine's data.
    let o = run(
        root,
        &[
            "simulate",
            "unmatched",
            "--players",
            "clever",
            "--out",
            tmp.path().to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(common::out(&o).contains("`clever` is not a player"));
}

#[test]
fn every_engine_plays_itself_to_clean_logs() {
    let tmp = tempfile::tempdir().unwrap();
    for game in ["mythic", "onevmany", "openwars", "xterminio"] {
        let out = tmp.path().join(game);
        let o = run(
            common::root(),
            &[
                "simulate",
                game,
                "--games",
                "4",
                "--seed",
                "3",
                "--players",
                "greedy,random",
                "--out",
                out.to_str().unwrap(),
            ],
        );
        assert_eq!(o.status.code(), Some(0), "{game}: {}", common::out(&o));
        let o = run(common::root(), &["--format", "json", "stats", out.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0), "{game}: {}", common::out(&o));
        let v: Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["logs"], 4, "{game}");
    }
}
