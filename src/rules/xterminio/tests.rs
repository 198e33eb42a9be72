use std::path::Path;
use std::sync::OnceLock;

use super::*;
use crate::rules::replay::{Options, Prepared};
use crate::rules::{Replayer, random};

fn engine() -> &'static Xterminio {
    static E: OnceLock<Xterminio> = OnceLock::new();
    E.get_or_init(|| {
        let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
        let report = crate::check::check(&data, &["xterminio".to_string()], &crate::pack::yaml::Limits::default())
            .expect("data readable");
        let game = report.games.iter().find(|g| g.id == GAME_ID).expect("xterminio pack");
        Xterminio::new(game).expect("engine reads the pack")
    })
}

#[test]
fn pack_tables_are_read() {
    let e = engine();
    let m = e.t.card("miliciano").unwrap();
    let mp = e.t.card("miliciano-potenciado").unwrap();
    assert_eq!(e.t.get(m).powered_version, Some(mp));
    assert_eq!(e.t.get(mp).base, m);
    assert!(e.t.adjacent[Slot::AdvanceLeft as usize][Slot::CoverLeft as usize]);
    assert!(!e.t.adjacent[Slot::AdvanceLeft as usize][Slot::AdvanceCenter as usize]);
    assert_eq!(e.t.n.camp_slots, 6);
    for d in &e.decks {
        assert_eq!(d.values().sum::<u32>(), 60, "{d:?}");
    }
}

#[test]
fn random_games_replay_clean_and_mutations_agree() {
    let p = Prepared(Xterminio::new_for_test());
    let mut ended = 0;
    for seed in 0..100 {
        let text = p.random_log(seed, 200);
        let r = p
            .replay(&random::parse_log(&text).unwrap(), &Options::default())
            .unwrap();
        assert!(r.failure.is_none(), "{text}\n{:?}", r.failure);
        ended += r.ending.is_some() as usize;
        p.mutation_probe(seed, 120).unwrap();
    }
    assert!(ended > 0, "no random game ended");
}

#[test]
#[ignore = "timing: run once with --release"]
fn throughput() {
    let p = Prepared(Xterminio::new_for_test());
    let (n, secs) = p.throughput(1, 200_000);
    println!(
        "xterminio: {n} actions in {secs:.3} s = {:.0} actions/s",
        n as f64 / secs
    );
}

impl Xterminio {
    fn new_for_test() -> Xterminio {
        let e = engine();
        Xterminio {
            t: e.t.clone(),
            decks: e.decks.clone(),
        }
    }
}

#[test]
#[ignore = "statistics of random games"]
fn random_stats() {
    let p = Prepared(Xterminio::new_for_test());
    let (mut ended, mut legal, mut kinds) = (0, 0, std::collections::BTreeMap::new());
    for seed in 0..300 {
        let text = p.random_log(seed, 200);
        let r = p
            .replay(&random::parse_log(&text).unwrap(), &Options::default())
            .unwrap();
        ended += r.ending.is_some() as usize;
        let pr = p.mutation_probe(seed, 120).unwrap();
        legal += pr.legal as usize;
        let k = pr.mutated.split(',').next().unwrap().to_string();
        *kinds.entry((k, pr.legal)).or_insert(0) += 1;
        if seed == 3 {
            println!("{text}");
        }
    }
    println!("ended {ended}/300, legal probes {legal}/300");
    for (k, n) in kinds {
        println!("{k:?}: {n}");
    }
}

#[test]
#[ignore = "timing of the property-test steps"]
fn timing() {
    use std::time::Instant;
    let p = Prepared(Xterminio::new_for_test());
    let (mut gen_t, mut parse_t, mut replay_t, mut bytes) = (0.0, 0.0, 0.0, 0);
    for seed in 0..100 {
        let t = Instant::now();
        let text = p.random_log(seed, 200);
        gen_t += t.elapsed().as_secs_f64();
        bytes += text.len();
        let t = Instant::now();
        let log = random::parse_log(&text).unwrap();
        parse_t += t.elapsed().as_secs_f64();
        let t = Instant::now();
        p.replay(&log, &Options::default()).unwrap();
        replay_t += t.elapsed().as_secs_f64();
    }
    println!(
        "gen {gen_t:.2} parse {parse_t:.2} replay {replay_t:.2} bytes/game {}",
        bytes / 100
    );
}

#[test]
#[ignore = "what random games are made of"]
fn random_mix() {
    let p = Prepared(Xterminio::new_for_test());
    let mut kinds = std::collections::BTreeMap::new();
    let (mut n, mut ended, mut turns) = (0, 0, 0);
    for seed in 0..100 {
        let text = p.random_log(seed, 200);
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        ended += v.get("result").is_some() as usize;
        for t in v["turns"].as_array().unwrap() {
            turns += 1;
            for a in t["actions"].as_array().unwrap() {
                *kinds.entry(a["do"].as_str().unwrap().to_string()).or_insert(0) += 1;
                n += 1;
            }
        }
    }
    println!("{n} actions, {turns} turns, {ended} ended: {kinds:?}");
}
