//! Engine-level tests: random games through the replay, the legal list
//! against `validate`, and (ignored) a throughput measurement.

use super::*;
use crate::check::check;
use crate::pack::yaml::Limits;
use serde_json::json;

use super::state::{Phase, bit};
use super::tables::NONE;
use crate::rules::Engine;
use crate::rules::replay::Options;
use crate::rules::replayer::Prepared;
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
                    "{c:?}: {:?}\nlisted: {:?}\n{s:?}",
                    e.validate(&s, &c),
                    legal
                        .iter()
                        .filter(|a| matches!(a, Action::Interact { .. }))
                        .collect::<Vec<_>>()
                );
            }
            let mut a = legal[rng.usize(..legal.len())].clone();
            e.randomize(&s, &mut a, &mut rng);
            s = e.apply(s, &a);
        }
    }
}

/// Writes a complete game won by ONE (the shipped sample game and the
/// boss-round golden log are made from it): a greedy hero against a horde
/// that chases it. `OVM_SAMPLE=path cargo test --lib
/// rules::onevmany::tests::write_sample_game -- --ignored`
#[test]
#[ignore]
fn write_sample_game() {
    let e = engine();
    let setup = Setup {
        players: vec![
            PlayerSetup {
                name: "Ana".into(),
                side: "one".into(),
                character: Some("hechicera".into()),
                boss: None,
                upgrades: Vec::new(),
            },
            PlayerSetup {
                name: "Ben".into(),
                side: "many".into(),
                character: None,
                boss: Some("senor-de-la-horda".into()),
                upgrades: Vec::new(),
            },
        ],
        round: 1,
    };
    let scenarios = [
        "patio-abierto",
        "ruinas",
        "pasillo",
        "barricadas",
        "torre-de-vigia",
        "puente",
        "puertas-de-hierro",
    ];
    let draws = [
        (["botas-ligeras", "bomba"], ["marcha-forzada", "furia"]),
        (["filo-afilado", "garfio"], ["ojos-de-halcon", "cerco"]),
        (["armadura", "escudo"], ["piel-dura", "regeneracion"]),
        (["catalejo", "capa-de-sombras"], ["trampas", "refuerzos"]),
        (["pocion-de-curacion", "segundo-aliento"], ["demolicion", "enjambre"]),
        (["botas-de-escalada", "martillo-de-guerra"], ["tuneles", "agotamiento"]),
    ];
    let mut s = e.start(&setup).unwrap();
    let t = &e.t;
    let dist = |a: u8, b: u8| {
        let (ax, ay) = t.board.coordinates(a);
        let (bx, by) = t.board.coordinates(b);
        ((ax - bx).abs() + (ay - by).abs()) as i32
    };
    let mut out = String::new();
    let mut turn_lines: Vec<String> = Vec::new();
    let mut potion_round = 0;
    let flow = |a: &Action| crate::rules::replay::flow(&serde_json::to_value(a).unwrap());
    let mut guard = 0;
    while e.ending(&s).is_none() {
        guard += 1;
        assert!(guard < 5000, "no end: {s:?}");
        let legal = e.legal_actions(&s);
        let pick = |pred: &dyn Fn(&Action) -> bool| legal.iter().find(|a| pred(a)).cloned();
        let a: Action = match s.phase {
            Phase::Reveal => Action::Reveal {
                scenario: scenarios[s.round as usize - 1].into(),
            },
            Phase::Deploy => {
                // Spread out: the free red square farthest from the others.
                let mut best = legal[0].clone();
                let mut score = i32::MIN;
                for a in &legal {
                    if let Action::Deploy { square, .. } = a {
                        let q = t.square(square).unwrap();
                        let sc: i32 = s.tokens.iter().map(|k| dist(k.sq, q).min(4)).sum();
                        if sc > score {
                            score = sc;
                            best = a.clone();
                        }
                    }
                }
                best
            }
            Phase::Place => pick(&|a| matches!(a, Action::Place { .. })).unwrap(),
            Phase::One => {
                let potion = t.one_upgrade("pocion-de-curacion").unwrap();
                if s.one_owned & bit(potion) != 0
                    && s.one_life <= s.one_max - 2
                    && potion_round != s.round
                    && e.one_left(&s) >= 1
                {
                    potion_round = s.round;
                    let mut life = std::collections::BTreeMap::new();
                    life.insert(t.name(s.one_sq).to_string(), 2);
                    Action::Equip {
                        card: "pocion-de-curacion".into(),
                        effect: Effect {
                            life,
                            ..Effect::default()
                        },
                    }
                } else if let Some(a) = legal
                    .iter()
                    .filter(|a| matches!(a, Action::Attack { .. }))
                    .min_by_key(|a| match a {
                        Action::Attack { target } => {
                            let k = e.token_at(&s, t.square(target).unwrap()).unwrap();
                            (s.tokens[k].life, dist(s.one_sq, s.tokens[k].sq))
                        }
                        _ => (0, 0),
                    })
                {
                    a.clone()
                } else {
                    // Step to where something is in reach, away from crowds.
                    let range = s.one_range + s.bonus_range;
                    let score = |q: u8| -> i32 {
                        let alive = s.tokens.iter().filter(|k| k.sq != NONE);
                        let reach = alive
                            .clone()
                            .filter(|k| t.line_distance(q, k.sq).is_some_and(|d| d <= range))
                            .count() as i32;
                        let near = alive.clone().filter(|k| dist(q, k.sq) == 1).count() as i32;
                        let closest = alive.map(|k| dist(q, k.sq)).min().unwrap_or(0);
                        reach * 20 - near * 8 - closest
                    };
                    let here = score(s.one_sq);
                    legal
                        .iter()
                        .filter_map(|a| match a {
                            Action::Move { to } => Some((score(t.square(to).unwrap()), a)),
                            _ => None,
                        })
                        .max_by_key(|(sc, _)| *sc)
                        .filter(|(sc, _)| *sc > here || s.spent == 0)
                        .map(|(_, a)| a.clone())
                        .unwrap_or(Action::EndTurn)
                }
            }
            Phase::Many => {
                let boss_in = pick(&|a| matches!(a, Action::Reinforce { by, .. } if by == "senor-de-la-horda"));
                if let Some(a) = boss_in.filter(|_| {
                    s.round == t.boss_round
                        && s.tokens.iter().all(|k| !k.activated)
                        && s.active == NONE
                        && !turn_lines.iter().any(|l| l.contains("reinforce"))
                }) {
                    a
                } else if let Some(a) = pick(&|a| matches!(a, Action::Attack { .. })) {
                    a
                } else if s.active != NONE && e.unit_left(&s) > 0 {
                    let k = s.tokens[s.active as usize];
                    let here = dist(k.sq, s.one_sq);
                    legal
                        .iter()
                        .filter_map(|a| match a {
                            Action::Move { to } => Some((dist(t.square(to).unwrap(), s.one_sq), a)),
                            _ => None,
                        })
                        .min_by_key(|(d, _)| *d)
                        .filter(|(d, _)| *d < here)
                        .map(|(_, a)| a.clone())
                        .or_else(|| pick(&|a| matches!(a, Action::Activate { .. })))
                        .unwrap_or(Action::EndTurn)
                } else {
                    pick(&|a| matches!(a, Action::Activate { .. })).unwrap_or(Action::EndTurn)
                }
            }
            Phase::Draw => {
                let (o, m) = draws[s.round as usize - 1];
                Action::DrawUpgrades {
                    one: o.iter().map(|x| x.to_string()).collect(),
                    many: m.iter().map(|x| x.to_string()).collect(),
                }
            }
            Phase::Pair => {
                let (o, m) = draws[s.round as usize - 1];
                Action::Pair {
                    one: o[0].into(),
                    many: m[0].into(),
                }
            }
            Phase::Pick => Action::Pick {
                one: draws[s.round as usize - 1].0[0].into(),
            },
            Phase::Cleared | Phase::Ready => Action::EndTurn,
            Phase::Over => unreachable!(),
        };
        e.validate(&s, &a).unwrap_or_else(|v| panic!("{a:?}: {v:?}"));
        let mover = e.to_move(&s);
        let round = s.round;
        s = e.apply(s, &a);
        if a == Action::EndTurn {
            let who = if mover == 0 { "Ana" } else { "Ben" };
            out.push_str(&format!("  - player: {who}\n    actions:\n"));
            for l in turn_lines.drain(..) {
                out.push_str(&format!("      - {l}\n"));
            }
            if turn_lines.is_empty() && out.ends_with("actions:\n") {
                out.truncate(out.len() - 1);
                out.push_str(" []\n");
            }
            let obs = e.observe(&s);
            if s.round != round || s.phase == Phase::Draw {
                out.push_str(&format!(
                    "    expect: {}\n",
                    crate::rules::replay::flow(
                        &json!({"round": obs["round"], "phase": obs["phase"], "one": obs["one"]})
                    )
                ));
            }
        } else {
            turn_lines.push(flow(&a));
        }
    }
    if !turn_lines.is_empty() {
        let who = if e.to_move(&s) == 0 { "Ana" } else { "Ben" };
        out.push_str(&format!("  - player: {who}\n    actions:\n"));
        for l in turn_lines.drain(..) {
            out.push_str(&format!("      - {l}\n"));
        }
    }
    let end = e.ending(&s).unwrap();
    let text = format!(
        "game: onevmany\nplayers:\n  - {{name: Ana, side: one, character: hechicera}}\n  - {{name: Ben, side: many, boss: senor-de-la-horda}}\nturns:\n{out}result: {{winner: {}, reason: {}}}\n",
        if end.winners == [0] { "Ana" } else { "Ben" },
        end.reason
    );
    match std::env::var("OVM_SAMPLE") {
        Ok(path) => std::fs::write(path, &text).unwrap(),
        Err(_) => println!("{text}"),
    }
}

#[test]
fn extreme_recorded_effects_do_not_panic() {
    let p = Prepared(engine());
    let text = "game: onevmany\nplayers:\n  - {name: Ana, side: one, character: coloso}\n  - {name: Ben, side: many, boss: reina-arquera}\nturns:\n  - player: Ana\n    actions:\n      - {do: reveal, scenario: arena}\n      - {do: deploy, unit: arquero, square: A4}\n      - {do: deploy, unit: arquero, square: H4}\n      - {do: deploy, unit: arquero, square: D1}\n      - {do: deploy, unit: esbirro, square: A5}\n      - {do: deploy, unit: esbirro, square: H5}\n      - {do: place, square: D6}\n      - {do: trigger, by: coloso, effect: {actions: 127, range: 127, damage: 127}}\n      - {do: trigger, by: coloso, effect: {actions: 127, range: 127, damage: 127, life: {D6: 127, A4: -128}}}\n      - {do: attack, target: D1}\n      - {do: trigger, by: coloso, effect: {actions: -128, life: {D6: -128}}}\n";
    // Outcomes no effect allows are refused (the Colossus's ability is a
    // continuous discount, nothing to trigger), without panicking.
    let r = p.replay_text(text).expect("log understood");
    let f = r.failure.expect("refused");
    assert_eq!((f.rule, f.turn, f.action), (Some("OVM-7"), Some(1), Some(8)), "{f:?}");
}

trait ReplayText {
    fn replay_text(&self, text: &str) -> Option<crate::rules::Replay>;
}

impl ReplayText for Prepared<OneVMany> {
    fn replay_text(&self, text: &str) -> Option<crate::rules::Replay> {
        self.replay(&random::parse_log(text).ok()?, &Options::default()).ok()
    }
}
