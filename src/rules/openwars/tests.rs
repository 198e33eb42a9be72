//! Unit tests of the Open Wars engine against the shipped pack.

use super::*;
use crate::rules::random;

fn engine() -> OpenWars {
    let report = crate::check::check(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data"),
        &["openwars".to_string()],
        &crate::pack::yaml::Limits::default(),
    )
    .expect("data readable");
    OpenWars::new(&report.games[0]).expect("engine reads the pack")
}

#[test]
fn random_games_are_legal() {
    let e = engine();
    let mut rng = fastrand::Rng::with_seed(7);
    for _ in 0..50 {
        random::play(&e, &mut rng, 200).unwrap();
    }
}

/// `cargo test --release --lib rules::openwars -- --ignored --nocapture`
#[test]
#[ignore]
fn throughput() {
    let e = engine();
    let (n, secs) = random::throughput(&e, 1, 200_000);
    println!(
        "openwars: {n} actions in {secs:.3} s = {:.0} actions/s",
        n as f64 / secs
    );
}

#[test]
#[ignore]
fn stats() {
    let e = engine();
    let mut ended = std::collections::BTreeMap::new();
    let mut turns = 0u64;
    for seed in 0..300 {
        let mut rng = fastrand::Rng::with_seed(seed);
        let g = random::play(&e, &mut rng, 200).unwrap();
        let mut s = e.start(&g.setup).unwrap();
        for a in &g.flat {
            s = e.apply(s, a);
        }
        turns += u64::from(s.turn);
        *ended.entry(g.ending.map(|e| e.reason)).or_insert(0) += 1;
    }
    println!("{ended:?} avg turn {}", turns as f64 / 300.0);
}

#[test]
#[ignore]
fn timing() {
    use crate::rules::Replayer;
    use crate::rules::replay::Prepared;
    let e = engine();
    let t = std::time::Instant::now();
    let mut n = 0;
    for seed in 0..300 {
        let mut rng = fastrand::Rng::with_seed(seed);
        n += random::play(&e, &mut rng, 200).unwrap().flat.len();
    }
    println!("play: {n} actions {:?}", t.elapsed());
    let p = Prepared(engine());
    let t = std::time::Instant::now();
    let mut texts = Vec::new();
    for seed in 0..300 {
        texts.push(p.random_log(seed, 200));
    }
    println!("random_log {:?}", t.elapsed());
    let t = std::time::Instant::now();
    let logs: Vec<_> = texts.iter().map(|t| random::parse_log(t).unwrap()).collect();
    println!("parse {:?}", t.elapsed());
    let t = std::time::Instant::now();
    for l in &logs {
        p.replay(l, &Default::default()).unwrap();
    }
    println!("replay {:?}", t.elapsed());
}

#[test]
#[ignore]
fn show() {
    use crate::rules::Replayer;
    use crate::rules::replay::Prepared;
    let seed: u64 = std::env::var("SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(3);
    println!("{}", Prepared(engine()).random_log(seed, 200));
}
