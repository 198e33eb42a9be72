//! `pnpkit log --html`: the replay page as headless Chromium builds it. It
//! opens at the first illegal action, highlighted with its message; stepping
//! to another action redraws the board with the pieces that action moved;
//! checkpoints are marked; every shipped game's sample log gets a board with
//! its pieces; the page loads nothing from anywhere.

use crate::common;

use std::path::{Path, PathBuf};

use serde_json::Value;

fn chromium() -> Option<PathBuf> {
    common::chromium::find()
}

/// The DOM after the page's script ran, at `#step=…` when given.
fn dom(browser: &Path, page: &Path, hash: &str) -> String {
    common::chromium::ready_dom(browser, page, hash)
}

/// The page's embedded replay.
fn data(page: &Path) -> Value {
    let html = std::fs::read_to_string(page).unwrap();
    let start = html.find("type=\"application/json\">").unwrap() + "type=\"application/json\">".len();
    let end = start + html[start..].find("</script>").unwrap();
    serde_json::from_str(&html[start..end].replace("<\\/", "</")).unwrap()
}

/// The pieces drawn on the board: `node label` pairs, sorted.
fn drawn(dom: &str) -> Vec<String> {
    let mut out: Vec<String> = dom
        .split("<g class=\"token\" ")
        .skip(1)
        .map(|g| {
            let attr = |k: &str| {
                g.split(&format!("{k}=\""))
                    .nth(1)
                    .and_then(|s| s.split('"').next())
                    .unwrap_or("")
                    .to_owned()
            };
            format!("{} {}", attr("data-node"), attr("data-label"))
        })
        .collect();
    out.sort();
    out
}

fn planned(d: &Value, step: usize) -> Vec<String> {
    let mut out: Vec<String> = d["steps"][step]["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| format!("{} {}", t["node"].as_str().unwrap(), t["label"].as_str().unwrap()))
        .collect();
    out.sort();
    out
}

fn write_page(log: &str, page: &Path) -> std::process::Output {
    common::pnpkit_in(
        common::root(),
        &["--color", "never", "log", log, "--html", page.to_str().unwrap()],
    )
}

#[test]
fn the_page_opens_at_the_illegal_action_and_the_board_follows_the_steps() {
    let tmp = tempfile::tempdir().unwrap();
    let page = tmp.path().join("replay.html");
    let o = write_page("data/mythic/logs/illegal-full-area.yaml", &page);
    assert_eq!(
        o.status.code(),
        Some(1),
        "an illegal log exits 1 and still writes the page: {}",
        common::out(&o)
    );
    let html = std::fs::read_to_string(&page).unwrap();
    for banned in ["src=", "href=", "https://", "url("] {
        assert!(!html.contains(banned), "the page loads something: {banned}");
    }
    assert_eq!(
        html.matches("http://").count(),
        html.matches("http://www.w3.org/2000/svg").count(),
        "only the SVG namespace"
    );
    let d = data(&page);
    let fail = d["failure"]["step"].as_u64().expect("the failure is on the timeline") as usize;
    assert_eq!(d["steps"][fail]["kind"], "illegal");
    assert_eq!(d["steps"][fail]["text"], "{do: run, unit: ares, to: b2}");
    let Some(browser) = chromium() else {
        assert!(std::env::var_os("CI").is_none(), "chromium is required in CI");
        println!("SKIPPED: chromium not found");
        return;
    };
    // Opened without a step: at the illegal action, highlighted, with its rule and message.
    let at_fail = dom(&browser, &page, "");
    assert!(
        at_fail.contains(&format!("data-step=\"{fail}\" class=\"illegal current\"")),
        "illegal step highlighted"
    );
    let problem = at_fail
        .split("id=\"problem\"")
        .nth(1)
        .unwrap()
        .split("</div>")
        .next()
        .unwrap();
    assert!(!problem.starts_with(" hidden"), "the message is shown");
    assert!(
        problem.contains("MB-6 (Move)") && problem.contains("cannot reach"),
        "{problem}"
    );
    // Later actions were not replayed and say so.
    assert!(at_fail.contains("class=\"unplayed\""));
    // Stepping: two steps whose replayed states put pieces in different places draw different boards, each
    // as its state says.
    let first_move = (1..fail)
        .find(|&i| planned(&d, i) != planned(&d, 0))
        .expect("some action moves a piece");
    let before = dom(&browser, &page, "#step=0");
    let after = dom(&browser, &page, &format!("#step={first_move}"));
    assert!(before.contains("data-step=\"0\""));
    assert_eq!(drawn(&before), planned(&d, 0));
    assert_eq!(drawn(&after), planned(&d, first_move));
    assert_ne!(drawn(&before), drawn(&after), "the board changes when stepping");
    assert!(!drawn(&after).is_empty());
    // The failing step shows the state before the illegal action: ares still on e2.
    assert!(drawn(&at_fail).contains(&"e2 ares".to_owned()), "{:?}", drawn(&at_fail));
    // Each action cites its rule.
    assert!(after.contains("class=\"rule\""));
}

#[test]
fn every_sample_log_gets_a_board_with_its_pieces_and_its_checkpoints() {
    let tmp = tempfile::tempdir().unwrap();
    for (game, log) in [
        ("mythic", "sample-learning"),
        ("onevmany", "sample-full-game"),
        ("openwars", "sample-contested-capital"),
        ("unmatched", "sample-duel"),
        ("xterminio", "sample-masakre"),
    ] {
        let page = tmp.path().join(format!("{game}.html"));
        let path = format!("data/{game}/logs/{log}.yaml");
        let o = write_page(&path, &page);
        assert_eq!(o.status.code(), Some(0), "{game}: {}", common::out(&o));
        let d = data(&page);
        assert!(d["board"].is_object(), "{game}: no board");
        let steps = d["steps"].as_array().unwrap();
        let with_pieces = steps
            .iter()
            .filter(|s| !s["tokens"].as_array().unwrap().is_empty())
            .count();
        assert!(
            with_pieces * 2 > steps.len(),
            "{game}: pieces on {with_pieces} of {} steps",
            steps.len()
        );
        assert!(
            steps
                .iter()
                .filter(|s| s["kind"] == "action")
                .all(|s| s["rule"].is_string()),
            "{game}: an action without its rule"
        );
        // Every `expect:` of the log is a passed checkpoint on the timeline.
        let text = std::fs::read_to_string(common::root().join(&path)).unwrap();
        let expects = text
            .lines()
            .map(|l| l.split('#').next().unwrap_or("").trim_start().trim_start_matches("- "))
            .filter(|l| l.starts_with("expect:") || l.starts_with("{expect:"))
            .count();
        let marked = steps.iter().filter(|s| s["checkpoint"]["ok"] == true).count();
        assert_eq!(marked, expects, "{game}: checkpoints");
        // The owner of every piece that belongs to a player is known.
        assert!(
            steps
                .iter()
                .flat_map(|s| s["tokens"].as_array().unwrap())
                .any(|t| t["owner"].is_number()),
            "{game}"
        );
        if game == "unmatched"
            && let Some(browser) = chromium()
        {
            let dom = dom(&browser, &page, "#step=5");
            assert!(
                dom.matches("class=\"cp\"").count() >= expects,
                "checkpoints marked in the timeline"
            );
        }
    }
}
