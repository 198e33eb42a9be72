//! Engine-level tests: random games through the replay, the legal list
//! against `validate`, and (ignored) a throughput measurement.

use super::*;
use crate::check::check;
use crate::pack::yaml::Limits;
use crate::rules::replay::{Options, Prepared};
use crate::rules::{Replayer, random};

fn engine() -> OneVMany {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let report = check(&root, &["onevmany".to_string()], &Limits::default()).expect("data");
    let game = report.games.iter().find(|g| g.id == GAME_ID).expect("pack");
    OneVMany::new(game).expect("engine reads the pack")
}

#[test]
fn random_games_replay_and_some_end() {
    let p = Prepared(engine());
    let mut ended = 0;
    for seed in 0..100 {
        let text = p.random_log(seed, 200);
        let r = p
            .replay(&random::parse_log(&text).unwrap(), &Options::default())
            .unwrap();
        assert!(r.failure.is_none(), "{text}\n{:?}", r.failure);
        ended += usize::from(r.ending.is_some());
        p.mutation_probe(seed, 120).unwrap();
    }
    assert!(ended > 0, "no random game ended");
}

#[test]
fn every_listed_action_validates() {
    let e = engine();
    let mut rng = fastrand::Rng::with_seed(7);
    for _ in 0..50 {
        let setup = e.random_setup(&mut rng);
        let mut s = e.start(&setup).unwrap();
        for _ in 0..300 {
            let legal = e.legal_actions(&s);
            if legal.is_empty() {
                assert!(e.ending(&s).is_some());
                break;
            }
            for a in &legal {
                let mut a = a.clone();
                e.randomize(&s, &mut a, &mut rng);
                assert!(e.validate(&s, &a).is_ok(), "{a:?} in {s:?}");
            }
            for c in e.candidates(&s, &mut rng) {
                let mut c = c.clone();
                e.randomize(&s, &mut c, &mut rng);
                assert_eq!(
                    e.validate(&s, &c).is_ok(),
                    legal.contains(&e.choice(&c)),
                    "{c:?}: {:?}\n{s:?}",
                    e.validate(&s, &c)
                );
            }
            let mut a = legal[rng.usize(..legal.len())].clone();
            e.randomize(&s, &mut a, &mut rng);
            s = e.apply(s, &a);
        }
    }
}

/// `cargo test --release --lib rules::onevmany::tests::throughput -- --ignored --nocapture`
#[test]
#[ignore]
fn throughput() {
    let p = Prepared(engine());
    let (n, secs) = p.throughput(1, 200_000);
    println!(
        "onevmany: {n} actions in {secs:.3} s = {:.0} actions/s",
        n as f64 / secs
    );
}
