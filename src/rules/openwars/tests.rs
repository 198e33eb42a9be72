//! Unit tests of the Open Wars engine against the shipped pack.

use super::*;
use crate::rules::kit::dice::roll_off as tie_winner;
use crate::rules::{Engine, random};

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

/// The pack with every map's `ranged_targets` set to `reading`.
fn engine_with_ranged(reading: &str) -> OpenWars {
    let report = crate::check::check(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data"),
        &["openwars".to_string()],
        &crate::pack::yaml::Limits::default(),
    )
    .expect("data readable");
    let mut game = report.games[0].clone();
    for m in game.components.get_mut("map").expect("maps") {
        m.fields
            .insert("ranged_targets".into(), crate::model::FieldValue::Str(reading.into()));
    }
    OpenWars::new(&game).expect("engine reads the pack")
}

fn replay_golden(e: OpenWars, name: &str) -> crate::rules::Replay {
    use crate::rules::Replayer;
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/logs/openwars")
        .join(name);
    let log = random::parse_log(&std::fs::read_to_string(path).unwrap()).expect("log reads");
    crate::rules::replayer::Prepared(e)
        .replay(&log, &crate::rules::Options::default())
        .expect("log understood")
}

#[test]
fn ranged_targets_lines_is_the_default_and_steps_allows_diagonals() {
    // The map's default (`lines`) and the setting written out agree.
    for e in [engine(), engine_with_ranged("lines")] {
        let f = replay_golden(e, "OW-15-illegal-diagonal.yaml")
            .failure
            .expect("rejected");
        assert_eq!((f.rule, f.turn, f.action), (Some("OW-15"), Some(9), Some(2)));
        assert_eq!(f.found, "c4, diagonal");
    }
    // With `steps`, the diagonal neighbour is 2 steps away: within range 2.
    let r = replay_golden(engine_with_ranged("steps"), "OW-15-illegal-diagonal.yaml");
    assert!(r.failure.is_none(), "{:?}", r.failure);
    // … and a diagonal enemy makes an isolated ranged combat again.
    // The fight in d5 is accepted; the log then ends the block with it unfought.
    let f = replay_golden(engine_with_ranged("steps"), "OW-10-illegal-no-target-in-line.yaml")
        .failure
        .expect("the combat is left unfinished");
    assert_eq!((f.rule, f.turn, f.action), (Some("OW-10"), Some(9), None));
    assert!(f.message.contains("the combat in d5 is not over"), "{}", f.message);
}
