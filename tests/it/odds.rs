//! `pnpkit deck --odds`: the odds of random small lists of a fixture game
//! (two piles, a card set aside into the hand, draws from the pile of the
//! player's choice, a first player who skips a draw) checked against
//! counting every possible draw; the shipped games' tables as snapshots.

use crate::common;

use std::path::Path;

use pnpkit::check::check;
use pnpkit::deck::odds::{Ask, odds};
use pnpkit::deck::{Context, check_list};
use pnpkit::diag::FileId;
use pnpkit::model::Game;
use pnpkit::pack::yaml::Limits;
use proptest::prelude::*;

fn mini() -> &'static Game {
    static GAME: std::sync::OnceLock<Game> = std::sync::OnceLock::new();
    GAME.get_or_init(|| {
        let r = check(&common::root().join("tests/fixtures/odds"), &[], &Limits::default()).unwrap();
        assert!(!r.has_errors());
        r.games.into_iter().next().unwrap()
    })
}

/// Every way to pick `k` of `n` positions.
fn combinations(n: usize, k: usize, f: &mut impl FnMut(&[usize])) {
    fn go(start: usize, n: usize, k: usize, cur: &mut Vec<usize>, f: &mut impl FnMut(&[usize])) {
        if cur.len() == k {
            f(cur);
            return;
        }
        for i in start..n {
            cur.push(i);
            go(i + 1, n, k, cur, f);
            cur.pop();
        }
    }
    go(0, n, k, &mut Vec::new(), f);
}

/// The fixture's rules, by hand: the card pile (one `c1` set aside into the
/// hand), the gem pile; 2 and 1 cards in the opening hand, then 1 a turn
/// from the pile holding more of the wanted cards (the card pile on a tie),
/// none on the first player's first turn. Counts every draw.
fn brute(copies: &[(&str, u32)], wanted: &dyn Fn(&str) -> bool, turn: u32, first: bool, k: u32) -> f64 {
    let mut cards: Vec<&str> = Vec::new();
    let mut gems: Vec<&str> = Vec::new();
    for (id, n) in copies {
        for _ in 0..*n {
            if id.starts_with('c') {
                cards.push(id)
            } else {
                gems.push(id)
            }
        }
    }
    let mut in_hand = 0;
    if let Some(i) = cards.iter().position(|c| *c == "c1") {
        cards.remove(i);
        in_hand += u32::from(wanted("c1"));
    }
    let hits = |pile: &[&str]| pile.iter().filter(|c| wanted(c)).count();
    let steps = if first { turn.saturating_sub(1) } else { turn };
    let to_cards = hits(&cards) >= hits(&gems);
    let dc = (2 + if to_cards { steps } else { 0 }) as usize;
    let dg = (1 + if to_cards { 0 } else { steps }) as usize;
    let (dc, dg) = (dc.min(cards.len()), dg.min(gems.len()));
    let (mut good, mut all) = (0u64, 0u64);
    combinations(cards.len(), dc, &mut |a| {
        let ha = a.iter().filter(|&&i| wanted(cards[i])).count() as u32;
        combinations(gems.len(), dg, &mut |b| {
            let hb = b.iter().filter(|&&i| wanted(gems[i])).count() as u32;
            all += 1;
            if in_hand + ha + hb >= k {
                good += 1;
            }
        });
    });
    good as f64 / all as f64
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn odds_match_counting_every_draw(
        counts in prop::collection::vec(0u32..4, 6),
        turns in 0u32..4,
        k in 1u32..4,
        first: bool,
    ) {
        let ids = ["c1", "c2", "c3", "c4", "g1", "g2"];
        let copies: Vec<(&str, u32)> = ids.iter().copied().zip(counts.iter().copied()).filter(|(_, n)| *n > 0).collect();
        prop_assume!(!copies.is_empty());
        // The list as a player pastes it.
        let names = [("c1", "One"), ("c2", "Two"), ("c3", "Three"), ("c4", "Four"), ("g1", "Ruby"), ("g2", "Opal")];
        let text: String = copies
            .iter()
            .map(|(id, n)| format!("{n} {}\n", names.iter().find(|(i, _)| i == id).unwrap().1))
            .collect();
        let game = mini();
        let report = check_list(game, Path::new("list.txt"), FileId(0), &text, &Context::default()).unwrap();
        prop_assert!(report.diagnostics.is_empty(), "{text}");
        let draw = game.construction.as_ref().unwrap().draw.as_ref().unwrap();
        let ask = Ask { turns, at_least: k, first };
        let o = odds(game, draw, &report.deck, &ask, "en").unwrap();
        for row in &o.rows {
            let wanted: Box<dyn Fn(&str) -> bool> = match row.id.as_str() {
                "sun" => Box::new(|c: &str| c == "c1" || c == "c3"),
                "bright" => Box::new(|c: &str| c == "g1"),
                "anything" => Box::new(|_: &str| true),
                card => {
                    let id = card.split('/').nth(1).unwrap().to_owned();
                    Box::new(move |c: &str| c == id)
                }
            };
            let want = brute(&copies, &*wanted, 0, first, k);
            prop_assert!((row.opening - want).abs() < 1e-12, "{} opening: {} vs {want} ({text})", row.id, row.opening);
            for (t, p) in row.by_turn.iter().enumerate() {
                let want = brute(&copies, &*wanted, t as u32 + 1, first, k);
                prop_assert!((p - want).abs() < 1e-12, "{} turn {}: {p} vs {want} ({text})", row.id, t + 1);
            }
        }
    }
}

#[test]
fn shipped_lists_odds_tables() {
    let root = common::root();
    let run = |args: &[&str]| {
        let o = common::pnpkit_in(root, args);
        assert_eq!(o.status.code(), Some(0), "{}", common::out(&o));
        String::from_utf8(o.stdout).unwrap()
    };
    let medusa = run(&[
        "--color",
        "never",
        "deck",
        "unmatched",
        "data/unmatched/decks/medusa.txt",
        "--odds",
    ]);
    insta::assert_snapshot!("odds-unmatched-medusa", medusa);
    // 3 copies in 30 cards, 5 drawn: 1 − C(27,5)/C(30,5) = 43.3 %.
    assert!(medusa.contains("Petrifying Gaze                3   43.3 %"), "{medusa}");
    insta::assert_snapshot!(
        "odds-xterminio-first",
        run(&[
            "--color",
            "never",
            "deck",
            "xterminio",
            "data/xterminio/decks/resistance-starter.txt",
            "--odds",
            "--first",
            "--turns",
            "2"
        ])
    );
    insta::assert_snapshot!(
        "odds-mythic-es",
        run(&[
            "--color",
            "never",
            "deck",
            "mythic",
            "data/mythic/decks/duel-zeus.txt",
            "--odds",
            "--locale",
            "es",
            "--at-least",
            "2"
        ])
    );
    // JSON: the same numbers, unrounded.
    let json = run(&[
        "--format",
        "json",
        "deck",
        "unmatched",
        "data/unmatched/decks/medusa.txt",
        "--odds",
    ]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let gaze = v["odds"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "card/petrifying-gaze")
        .unwrap();
    let exact = 1.0 - 80730.0 / 142506.0;
    assert!((gaze["opening"].as_f64().unwrap() - exact).abs() < 1e-15);

    // A game whose lists are not drawn from, and --odds on a batch: usage errors.
    let o = common::pnpkit_in(root, &["deck", "openwars", "data/openwars/decks/amazons.txt", "--odds"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        common::out(&o).contains("declares no draw rules"),
        "{}",
        common::out(&o)
    );
    let o = common::pnpkit_in(
        root,
        &["deck", "unmatched", "--batch", "data/unmatched/decks", "--odds"],
    );
    assert_eq!(o.status.code(), Some(2));
}
