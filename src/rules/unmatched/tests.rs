//! Unit tests of the Unmatched engine against the shipped pack (the golden
//! logs in tests/fixtures/logs/unmatched/ cover every rule id).

use std::path::Path;

use super::*;
use crate::rules::replay::{Options, Prepared};
use crate::rules::{Replayer, random};

fn engine() -> Unmatched {
    let report = crate::check::check(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("data"),
        &[],
        &crate::pack::yaml::Limits::default(),
    )
    .expect("data readable");
    let game = report
        .games
        .iter()
        .find(|g| g.id == "unmatched")
        .expect("unmatched pack");
    Unmatched::new(game).expect("engine reads the pack")
}

#[test]
fn pack_tables_are_read() {
    let e = engine();
    assert_eq!(e.t.heroes.len(), 4);
    for h in &e.t.heroes {
        let total: u32 = h.deck.iter().map(|&k| u32::from(k)).sum();
        assert_eq!(total, 30, "{}", h.id);
    }
    let harbour = e.t.boards.iter().find(|b| b.id == "harbour-of-mists").unwrap();
    assert_eq!(harbour.start_count, 2);
    let (s14, s15, s16) = (
        harbour.space("s14").unwrap(),
        harbour.space("s15").unwrap(),
        harbour.space("s16").unwrap(),
    );
    assert_eq!(harbour.distance(s14, s16, u64::MAX), Some(2));
    // Around s15 and s20: s14 → s07 → s08 → s16.
    assert_eq!(
        harbour.distance(s14, s16, !(1u64 << s15) & !(1u64 << harbour.space("s20").unwrap())),
        Some(3)
    );
    assert_eq!(e.t.numbers.hand_limit, 7);
    assert_eq!(e.t.numbers.opening_hand, 5);
}

#[test]
fn random_games_replay_and_probes_agree() {
    let e = engine();
    let p = Prepared(e);
    let mut ended = 0;
    for seed in 0..60 {
        let text = p.random_log(seed, 200);
        let r = p
            .replay(&random::parse_log(&text).unwrap(), &Options::default())
            .unwrap_or_else(|d| panic!("{:?}\n{text}", d[0]));
        assert!(r.failure.is_none(), "{:?}\n{text}", r.failure);
        ended += usize::from(r.ending.is_some());
        p.mutation_probe(seed, 120).unwrap();
    }
    assert!(ended > 0);
}

/// `cargo test --release --lib rules::unmatched::tests::throughput -- --ignored --nocapture`
#[test]
#[ignore]
fn throughput() {
    let p = Prepared(engine());
    let (n, secs) = p.throughput(1, 200_000);
    println!(
        "unmatched: {n} actions in {secs:.3} s = {:.0} actions/s",
        n as f64 / secs
    );
}

#[test]
#[ignore]
fn random_game_stats() {
    let e = engine();
    let mut ended = 0;
    let mut lens = 0;
    for seed in 0..300 {
        let mut rng = fastrand::Rng::with_seed(seed);
        let g = random::play(&e, &mut rng, 200).unwrap();
        ended += usize::from(g.ending.is_some());
        lens += g.flat.len();
    }
    println!("ended {ended}/300, mean length {}", lens / 300);
    let p = Prepared(engine());
    println!("{}", p.random_log(7, 60));
}
