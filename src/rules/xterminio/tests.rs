use std::path::Path;
use std::sync::OnceLock;

use super::*;
use crate::rules::replay::Options;
use crate::rules::replayer::Prepared;
use crate::rules::{Engine, Replayer, random};

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
    assert!(e.t.contiguous(Slot::AdvanceLeft, Slot::CoverLeft));
    assert!(!e.t.contiguous(Slot::AdvanceLeft, Slot::AdvanceCenter));
    assert_eq!(e.t.n.camp_slots, 6);
    let mut rng = fastrand::Rng::with_seed(1);
    for p in &e.t.pools {
        for d in [p.deck(None), p.deck(Some(&mut rng))] {
            assert_eq!(d.values().sum::<u32>(), 60, "{d:?}");
        }
    }
}

#[test]
fn random_games_replay_clean_and_mutations_agree() {
    let p = Prepared(Xterminio::new_for_test());
    let mut ended = 0;
    for seed in 0..60 {
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

impl Xterminio {
    fn new_for_test() -> Xterminio {
        let e = engine();
        Xterminio { t: e.t.clone() }
    }
}

/// Interception arithmetic: the interceptor's damage hits the attacker first
/// (and can eliminate it, scoring for the defender), then the interceptor
/// still takes the attack, and is exhausted for the rest of the turn.
#[test]
fn interception_can_eliminate_the_attacker_and_still_takes_the_hit() {
    let e = engine();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/logs/xterminio/XT-11-legal.yaml");
    let log = random::parse_log(&std::fs::read_to_string(path).unwrap()).unwrap();
    let parsed = crate::rules::replay::parse::<Xterminio>(&log).unwrap_or_else(|_| panic!("log reads"));
    let mut s = e.start(&parsed.setup).unwrap();
    let run = |s: State, a: Action| {
        e.validate(&s, &a).unwrap();
        e.apply(s, &a)
    };
    s = run(s, Action::EndTurn);
    s = run(
        s,
        Action::Draw {
            cards: vec!["larva".into(), "zangano".into(), "muda".into()],
        },
    );
    // A hand-built wound: Ben's Drone (life 2) has 1 damage.
    s.p[1].battle[Slot::CoverRight.index().unwrap()]
        .as_mut()
        .unwrap()
        .damage = 1;
    // The Drone (cost 1, damage 1) attacks the Recruit; Ana's Militiaman
    // intercepts with Block (cost 1, damage 1): the Drone falls (2 points for
    // Ana) and the Militiaman still takes the hit, which Ana's Bunker (her
    // characters in COVER take 1 less) brings down to 0.
    let intercepted = |attacker| Action::Attack {
        attacker,
        attack: 1,
        target: Slot::AdvanceLeft,
        intercept: Some(Intercept {
            by: Slot::CoverLeft,
            attack: 2,
            answer: None,
        }),
        answer: None,
        effect: None,
    };
    s = run(s, intercepted(Slot::CoverRight));
    let o = e.observe(&s);
    assert_eq!(o["score"]["Ana"], 2, "{o}");
    assert_eq!(o["battle"]["Ben"].get("cover-right"), None, "{o}");
    assert_eq!(o["damage"]["Ana"].get("cover-left"), None, "{o}");
    // Ben's Colmena adds 1 to his charge: he has 3 characters in BATTLE.
    assert_eq!(o["energy"], serde_json::json!({"Ana": 4, "Ben": 5}), "{o}");
    // Exhausted now, the Militiaman cannot intercept the Spitter.
    let v = e.validate(&s, &intercepted(Slot::AdvanceCenter)).unwrap_err();
    assert_eq!((v.rule, v.found.as_str()), ("XT-11", "an exhausted character"));
}

/// The golden log `name` replayed by an engine over the pack with the
/// energy tracker's `cap` set to `cap` (absent: the pack as shipped).
fn replay_with_cap(name: &str, cap: Option<bool>) -> crate::rules::Replay {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let report = crate::check::check(&data, &["xterminio".to_string()], &crate::pack::yaml::Limits::default())
        .expect("data readable");
    let mut game = report.games[0].clone();
    if let Some(cap) = cap {
        for t in game.components.get_mut("tracker").expect("trackers") {
            t.fields.insert("cap".into(), crate::model::FieldValue::Bool(cap));
        }
    }
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/logs/xterminio")
        .join(name);
    let log = random::parse_log(&std::fs::read_to_string(path).unwrap()).unwrap();
    Prepared(Xterminio::new(&game).expect("engine reads the pack"))
        .replay(&log, &Options::default())
        .expect("log understood")
}

#[test]
fn energy_stops_at_the_tracker_unless_its_cap_is_lifted() {
    assert_eq!(engine().t.n.energy_cap, 30);
    // Shipped (no `cap` written) and `cap: true` agree: 30.
    for cap in [None, Some(true)] {
        let r = replay_with_cap("XT-6-legal-energy-cap.yaml", cap);
        assert!(r.failure.is_none(), "{:?}", r.failure);
        let f = replay_with_cap("XT-7-illegal-deploy-over-energy-cap.yaml", cap)
            .failure
            .expect("rejected");
        assert_eq!((f.rule, f.turn, f.action), (Some("XT-7"), Some(9), Some(4)));
    }
    // `cap: false`: ENERGY grows past the dial (32, then 40) …
    let f = replay_with_cap("XT-6-legal-energy-cap.yaml", Some(false))
        .failure
        .expect("the checkpoint of 30 fails");
    assert_eq!((f.turn, f.action, f.found.as_str()), (Some(7), Some(1), "32"));
    // … and Aurora's 13 life fit in 40: the log then stops short of its
    // cleanup, with all three deployed.
    let f = replay_with_cap("XT-7-illegal-deploy-over-energy-cap.yaml", Some(false))
        .failure
        .expect("the turn ends without the cleanup");
    assert_eq!((f.rule, f.turn, f.action), (Some("XT-4"), Some(9), None));
    assert_eq!(f.state["energy"]["Ana"], 40);
    assert_eq!(f.state["battle"]["Ana"]["advance-center"], "comandante-aurora");
}

/// The random players use card effects: over many games they play action
/// cards with recorded outcomes, use abilities, answer attacks, and the
/// mutation probes try effect outcomes the interpreter refuses.
#[test]
fn random_players_use_effects() {
    let p = Prepared(Xterminio::new_for_test());
    let (mut plays, mut abilities, mut answers) = (0, 0, 0);
    for seed in 0..40 {
        let text = p.random_log(seed, 200);
        plays += text.matches(r#""do":"play""#).count();
        abilities += text.matches(r#""do":"ability""#).count();
        answers += text.matches(r#""answer":"#).count();
    }
    assert!(
        plays > 20 && abilities > 20 && answers > 0,
        "plays {plays}, abilities {abilities}, answers {answers}"
    );
    let mut refused_effects = 0;
    for seed in 0..300 {
        let probe = p.mutation_probe(seed, 120).unwrap();
        if !probe.legal && (probe.mutated.contains("effect") || probe.mutated.contains("ability")) {
            refused_effects += 1;
        }
    }
    assert!(refused_effects > 5, "only {refused_effects} refused effect mutations");
}
