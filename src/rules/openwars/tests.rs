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

#[test]
fn tie_rolls_resolve_in_seat_order() {
    assert_eq!(tie_winner(&[4, 1]), Ok(0));
    assert_eq!(tie_winner(&[2, 5]), Ok(1));
    assert_eq!(tie_winner(&[3, 3, 1, 6]), Ok(1));
    assert!(tie_winner(&[3, 3]).is_err(), "still tied");
    assert!(tie_winner(&[4, 1, 2, 2]).is_err(), "rolled on after a decided round");
    assert!(tie_winner(&[]).is_err());
}

#[test]
fn random_games_end_and_replay_identically() {
    let e = engine();
    let mut ended = 0;
    for seed in 0..40 {
        let mut rng = fastrand::Rng::with_seed(seed);
        let g = random::play(&e, &mut rng, 200).unwrap();
        let mut s = e.start(&g.setup).unwrap();
        for a in &g.flat {
            e.validate(&s, a).unwrap();
            s = e.apply(s, a);
        }
        assert_eq!(e.ending(&s), g.ending);
        ended += usize::from(g.ending.is_some());
    }
    assert!(ended > 0, "no random game ended");
}
