//! Unit tests of the Mythic Battles engine.

use std::collections::BTreeMap;

use super::*;
use crate::rules::random;

fn engine() -> Mythic {
    use std::sync::OnceLock;
    static GAME: OnceLock<crate::model::Game> = OnceLock::new();
    let game = GAME.get_or_init(|| {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
        let report = crate::check::check(&root, &["mythic".to_string()], &crate::pack::yaml::Limits::default())
            .expect("data readable");
        report.games.into_iter().next().expect("mythic pack")
    });
    Mythic::new(game).expect("engine reads the pack")
}

#[test]
fn random_games_end_often_enough() {
    let e = engine();
    let mut ended = BTreeMap::new();
    let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
    for seed in 0..300 {
        let mut rng = fastrand::Rng::with_seed(seed);
        let g = random::play(&e, &mut rng, 200).expect("random play");
        for a in &g.flat {
            let k = serde_json::to_value(a).unwrap()["do"].as_str().unwrap().to_string();
            *kinds.entry(k).or_default() += 1;
        }
        let key = format!("{} {}", g.setup.mode, g.ending.map_or("-".into(), |e| e.reason));
        *ended.entry(key).or_insert(0) += 1;
    }
    eprintln!("{ended:#?}\n{kinds:#?}");
}

#[test]
#[ignore]
fn show_a_random_game() {
    let e = engine();
    let seed: u64 = std::env::var("SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(1);
    let mut rng = fastrand::Rng::with_seed(seed);
    let g = random::play(&e, &mut rng, 60).expect("random play");
    eprintln!("{}", random::to_log_text(&e, &g));
    let mut s = e.start(&g.setup).unwrap();
    for a in g.flat.iter().take(40) {
        eprintln!(
            "{} legal: {}",
            serde_json::to_string(a).unwrap(),
            e.legal_actions(&s).len()
        );
        s = e.apply(s, a);
    }
    for a in e.legal_actions(&s) {
        eprintln!("  {}", serde_json::to_string(&a).unwrap());
    }
}
