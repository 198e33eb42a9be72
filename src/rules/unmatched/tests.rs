//! Unit tests of the Unmatched engine against the shipped pack (the golden
//! logs in tests/fixtures/logs/unmatched/ cover every rule id).

use std::path::Path;

use super::state::Phase;
use super::tables::OFF;
use super::*;
use crate::rules::Engine;
use crate::rules::replay::Options;
use crate::rules::replayer::Prepared;
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
    assert_eq!(harbour.graph.distance_through(s14, s16, u64::MAX), Some(2));
    // Around s15 and s20: s14 → s07 → s08 → s16.
    assert_eq!(
        harbour
            .graph
            .distance_through(s14, s16, !(1u64 << s15) & !(1u64 << harbour.space("s20").unwrap())),
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

/// A duel where Medusa's deck runs out: exhaustion costs every fighter of
/// hers 2 health at each maneuver, and can defeat them (UM-4, UM-11).
#[test]
fn exhaustion_hurts_every_fighter_and_can_end_the_game() {
    let e = engine();
    let mut setup = e.random_setup(&mut fastrand::Rng::with_seed(3));
    setup.mode = Some(Mode::Duel);
    setup.battlefield = "harbour-of-mists".into();
    setup.players.truncate(2);
    let ps = &mut setup.players[1];
    ps.name = "Ben".into();
    ps.hero = "medusa".into();
    ps.team = None;
    ps.size = None;
    ps.deck = Some([("gorgons-fury".to_string(), 2), ("pecking".to_string(), 4)].into());
    ps.hand = vec!["pecking".into(); 4]
        .into_iter()
        .chain(["gorgons-fury".into()])
        .collect();
    ps.sidekicks = [("harpy-1", "s12"), ("harpy-2", "s13"), ("harpy-3", "s26")]
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .into();
    let p0 = &mut setup.players[0];
    p0.name = "Ana".into();
    p0.hero = "alice".into();
    p0.team = None;
    p0.size = Some(Size::Big);
    p0.deck = None;
    p0.hand = vec!["croquet-match".into(); 3]
        .into_iter()
        .chain(vec!["growing-cake".into(); 2])
        .collect();
    p0.sidekicks = [("jabberwock".to_string(), "s20".to_string())].into();
    let mut s = e.start(&setup).expect("legal setup");
    // Ends a turn, discarding down to the hand limit first.
    let end = |e: &Unmatched, mut s: State| loop {
        let legal = e.legal_actions(&s);
        s = e.apply(s, &legal[0]);
        if legal[0] == Action::EndTurn {
            break s;
        }
    };
    let pass = |e: &Unmatched, s: State, draws: [Option<&str>; 2]| {
        let mut s = s;
        for d in draws {
            if e.ending(&s).is_some() {
                return s;
            }
            let a = Action::Maneuver {
                draw: d.map(str::to_string),
            };
            e.validate(&s, &a).unwrap();
            s = e.apply(s, &a);
        }
        if e.ending(&s).is_some() { s } else { end(e, s) }
    };
    s = pass(&e, s, [Some("growing-cake"), Some("trial-without-evidence")]);
    // Ben draws his last card, then maneuvers with an empty deck.
    s = pass(&e, s, [Some("gorgons-fury"), None]);
    let hp = |s: &State, id: &str| e.observe(s)["hp"][id].as_u64().unwrap();
    assert_eq!((hp(&s, "medusa"), hp(&s, "harpy-1")), (14, 0));
    assert!(!e.observe(&s)["at"].as_object().unwrap().contains_key("harpy-2"));
    // A draw named from an empty deck is refused.
    s = pass(&e, s, [Some("grin-without-a-cat"), Some("nonsense-chatter")]);
    let v = e
        .validate(
            &s,
            &Action::Maneuver {
                draw: Some("pecking".into()),
            },
        )
        .unwrap_err();
    assert_eq!(v.rule, "UM-4");
    // Seven more exhausting maneuvers bring Medusa from 14 to 0: Ana wins.
    let mut turns = 0;
    while e.ending(&s).is_none() {
        s = pass(&e, s, [None, None]);
        if e.ending(&s).is_none() {
            // Ana maneuvers with whatever her deck still holds.
            let mut rng = fastrand::Rng::with_seed(turns);
            for _ in 0..2 {
                let mut a = Action::Maneuver { draw: None };
                e.randomize(&s, &mut a, &mut rng);
                s = e.apply(s, &a);
            }
            s = end(&e, s);
        }
        turns += 1;
        assert!(turns < 10);
    }
    let end = e.ending(&s).unwrap();
    assert_eq!(
        (end.winners.as_slice(), end.reason.as_str()),
        ([0usize].as_slice(), "hero-defeated")
    );
    assert_eq!(hp(&s, "medusa"), 0);
}

/// Prints a game between two greedy players (the draft of the shipped
/// sample game): `cargo test --lib rules::unmatched::tests::greedy_game -- --ignored --nocapture`.
#[test]
#[ignore]
fn greedy_game() {
    let e = engine();
    let setup: Setup = serde_json::from_value(serde_json::json!({
        "battlefield": "harbour-of-mists",
        "players": [
            {"name": "Ana", "hero": "king-arthur",
             "hand": ["excalibur-cut", "round-table-oath", "dragon-shield", "wizards-counsel", "arcane-bolt"],
             "sidekicks": {"merlin": "s15"}},
            {"name": "Ben", "hero": "sinbad",
             "hand": ["boarding-party", "full-sail", "second-voyage", "oar-strike", "seasoned-sailor"],
             "sidekicks": {"porter": "s25"}}
        ]
    }))
    .unwrap();
    let mut s = e.start(&setup).unwrap();
    let mut rng = fastrand::Rng::with_seed(11);
    let score = |s: &State, p: u8| -> i64 {
        let b = e.board(s);
        let mut v = 0i64;
        for f in s.figs() {
            let own = s.team_of(f.owner) == s.team_of(p);
            let w = if f.is_hero { 3 } else { 1 };
            v += if own {
                2 * w * i64::from(f.hp)
            } else {
                -4 * w * i64::from(f.hp)
            };
            if own && f.at != OFF {
                let d = s
                    .figs()
                    .iter()
                    .filter(|g| g.at != OFF && s.team_of(g.owner) != s.team_of(p))
                    .filter_map(|g| b.graph.distance_through(f.at, g.at, u64::MAX))
                    .min()
                    .unwrap_or(0);
                v -= i64::from(d);
            }
        }
        v + i64::from(s.players[p as usize].hand.total().min(7))
    };
    let mut out = String::new();
    let mut turn_lines: Vec<String> = Vec::new();
    let mut guard = 0;
    while e.ending(&s).is_none() && guard < 400 {
        guard += 1;
        let legal = e.legal_actions(&s);
        let decider = match s.phase {
            Phase::Combat { target, .. } => s.figs[target as usize].owner,
            _ => s.to_move,
        };
        let mut best: Option<(i64, Action)> = None;
        for a in legal {
            let mut a = a;
            e.randomize(&s, &mut a, &mut rng);
            if let Action::Defend { damage, .. } = &mut a {
                *damage = None;
            }
            if e.check(&s, &a).is_err() {
                continue;
            }
            let mut t = e.step(s.clone(), &a);
            if matches!(a, Action::Attack { .. }) {
                let defend = Action::Defend {
                    card: None,
                    effects: vec![],
                    damage: None,
                    winner: None,
                };
                if e.check(&t, &defend).is_ok() {
                    t = e.step(t, &defend);
                }
            }
            let mut sc = score(&t, decider);
            if matches!(a, Action::Boost { .. }) {
                sc -= 3;
            }
            if matches!(a, Action::Scheme { .. }) {
                sc += 1;
            }
            if best.as_ref().is_none_or(|(b, _)| sc > *b) {
                best = Some((sc, a));
            }
        }
        let (_, mut a) = best.unwrap();
        if let Action::Defend { .. } = a {
            e.check(&s, &a).unwrap();
            let t = e.step(s.clone(), &a);
            if let Action::Defend { damage, .. } = &mut a {
                *damage = t.last.map(|c| c.damage);
            }
        }
        let mover = s.to_move;
        s = e.apply(s, &a);
        if a == Action::EndTurn {
            out.push_str(&format!("  - player: {}\n    actions:\n", s.name(mover)));
            for l in turn_lines.drain(..) {
                out.push_str(&format!("      - {l}\n"));
            }
            let o = e.observe(&s);
            out.push_str(&format!("    # {}\n", crate::rules::replay::flow(&o["hp"])));
        } else {
            turn_lines.push(crate::rules::replay::flow(&serde_json::to_value(&a).unwrap()));
        }
    }
    out.push_str(&format!("  - player: {}\n    actions:\n", s.name(s.to_move)));
    for l in turn_lines.drain(..) {
        out.push_str(&format!("      - {l}\n"));
    }
    println!(
        "{out}\n{:?}\n{}",
        e.ending(&s),
        crate::rules::replay::flow(&e.observe(&s))
    );
}

/// Engine data missing from the pack is a located `engine-data` problem:
/// every one of them, not the first.
#[test]
fn broken_tables_are_reported_with_their_places() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let report = crate::check::check(&root, &["unmatched".to_string()], &crate::pack::yaml::Limits::default())
        .expect("data readable");
    let mut game = report.games[0].clone();
    game.reference
        .facts
        .retain(|f| f.id != "hand-limit" && f.id != "opening-hand");
    let alice = game
        .components
        .get_mut("hero")
        .unwrap()
        .iter_mut()
        .find(|h| h.id == "alice")
        .unwrap();
    let span = alice.span_of("fighters");
    if let Some(crate::model::FieldValue::List(fighters)) = alice.fields.get_mut("fighters") {
        for f in fighters {
            if let crate::model::FieldValue::Record(r) = f {
                r.insert("role".into(), crate::model::FieldValue::Str("hero".into()));
            }
        }
    }
    let Err(diags) = Unmatched::new(&game) else {
        panic!("the engine accepted broken tables")
    };
    let codes: Vec<_> = diags.iter().map(|d| d.code).collect();
    assert!(codes.iter().all(|c| *c == crate::diag::Code::EngineData), "{codes:?}");
    let messages: Vec<&str> = diags.iter().map(|d| d.message.as_str()).collect();
    assert!(
        messages.contains(&"facts.yaml has no fact `hand-limit`"),
        "{messages:?}"
    );
    assert!(
        messages.contains(&"facts.yaml has no fact `opening-hand`"),
        "{messages:?}"
    );
    let hero = diags
        .iter()
        .find(|d| d.message.contains("exactly one fighter with role hero"))
        .expect("the hero with two heroes");
    assert_eq!(hero.span, Some(span));
    let fact = diags.iter().find(|d| d.message.contains("hand-limit")).unwrap();
    assert!(fact.file.as_ref().is_some_and(|f| f.ends_with("facts.yaml")));
}
