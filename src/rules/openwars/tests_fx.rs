//! Effects on hand-built positions: location features whose die or holder
//! the log records (Whirlpool, Volcano, Citadel), and spells whose outcome
//! comes later (Immortal Legion, Dark Pact, Purifying Flame).

use std::collections::BTreeMap;

use super::state::{Phase, Stack, State};
use super::*;
use crate::rules::Engine;

/// The shipped pack, with the named cells of every map holding other
/// locations (`[("a4", "whirlpool")]`).
fn engine_with(cells: &[(&str, &str)]) -> OpenWars {
    let report = crate::check::check(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data"),
        &["openwars".to_string()],
        &crate::pack::yaml::Limits::default(),
    )
    .expect("data readable");
    let mut game = report.games[0].clone();
    for m in game.components.get_mut("map").expect("maps") {
        let Some(crate::model::FieldValue::List(list)) = m.fields.get_mut("cells") else {
            panic!("cells")
        };
        for cell in list.iter_mut() {
            let crate::model::FieldValue::Record(r) = cell else {
                panic!("cell")
            };
            let id = match r.get("id") {
                Some(crate::model::FieldValue::Str(s)) => s.clone(),
                _ => panic!("id"),
            };
            if let Some((_, loc)) = cells.iter().find(|(c, _)| *c == id) {
                r.insert("location".into(), crate::model::FieldValue::Str((*loc).into()));
            }
        }
    }
    OpenWars::new(&game).expect("engine reads the pack")
}

/// A game of `a` (Ana) against `b` (Ben) with nothing on the map yet, in
/// `phase`, Ana to move, both with 9 gold and `mana`.
fn position(e: &OpenWars, a: &str, b: &str, phase: Phase, mana: u32) -> State {
    let mut players = Vec::new();
    for (name, f, cell) in [("Ana", a, "c1"), ("Ben", b, "c5")] {
        let u =
            e.t.units
                .iter()
                .find(|u| e.t.factions[usize::from(u.faction)] == f && u.cost <= 3)
                .unwrap();
        players.push(PlayerSetup {
            name: name.into(),
            faction: f.into(),
            deck: BTreeMap::from([(u.id.clone(), 1)]),
            deploy: BTreeMap::from([(cell.to_string(), BTreeMap::from([(u.id.clone(), 1)]))]),
        });
    }
    let mut s = e
        .start(&Setup {
            scenario: "contested-capital".into(),
            players,
        })
        .expect("setup");
    s.stacks.clear();
    s.phase = phase;
    s.to_move = 0;
    s.order = [0, 1];
    s.turn = 2;
    s.mana = [mana; 2];
    s.gold = [9; 2];
    s
}

fn put(e: &OpenWars, s: &mut State, p: u8, unit: &str, cell: &str, n: u8) {
    let u = e.t.unit_ix.get(unit).unwrap();
    let c = e.map(s).cell(cell).unwrap();
    let mut x = Stack::new(p, u, c, n);
    x.mp = [e.unit(u).movement; 4];
    s.stacks.push(x);
    e.note_holders(s);
}

fn count(e: &OpenWars, s: &State, unit: &str, cell: &str) -> u8 {
    let u = e.t.unit_ix.get(unit).unwrap();
    let c = e.map(s).cell(cell).unwrap();
    s.stacks.iter().find(|x| x.unit == u && x.cell == c).map_or(0, |x| x.n)
}

fn go(e: &OpenWars, s: State, a: Action) -> State {
    if let Err(v) = e.validate(&s, &a) {
        panic!("{a:?} refused: {} / {} / {}", v.message, v.expected, v.found);
    }
    e.apply(s, &a)
}

fn cast(spell: &str, caster: &str, from: &str, at: &str, target: Option<&str>) -> Action {
    legal::cast(spell, caster, from.into(), at.into(), target.map(String::from))
}

#[test]
fn whirlpool_makes_an_entering_water_unit_roll_and_a_1_or_2_costs_a_token() {
    let e = engine_with(&[("a4", "whirlpool")]);
    let mut s = position(&e, "amazons", "undead", Phase::Movement, 0);
    put(&e, &mut s, 0, "river-canoes", "a3", 3);
    let mv = |roll: Vec<u8>| Action::Move {
        unit: "river-canoes".into(),
        from: "a3".into(),
        to: "a4".into(),
        tokens: 3,
        roll,
    };
    let v = e.validate(&s, &mv(vec![])).expect_err("the die is owed");
    assert_eq!(v.rule, "OW-7");
    assert!(v.message.contains("`whirlpool`"), "{}", v.message);
    assert!(e.validate(&s, &mv(vec![7])).is_err(), "a d6");
    let kept = go(&e, s.clone(), mv(vec![3]));
    assert_eq!(count(&e, &kept, "river-canoes", "a4"), 3);
    let lost = go(&e, s.clone(), mv(vec![2]));
    assert_eq!(count(&e, &lost, "river-canoes", "a4"), 2);
    // Entering open sea asks for no die.
    let mut s2 = s.clone();
    put(&e, &mut s2, 0, "river-canoes", "e2", 1);
    let sea = Action::Move {
        unit: "river-canoes".into(),
        from: "e2".into(),
        to: "e3".into(),
        tokens: 1,
        roll: vec![4],
    };
    assert!(e.validate(&s2, &sea).is_err(), "no die where nothing rolls");
}

#[test]
fn volcano_makes_each_stack_roll_when_a_fight_starts() {
    let e = engine_with(&[]);
    let mut s = position(&e, "orcs", "undead", Phase::Combat, 0);
    put(&e, &mut s, 0, "orc-warriors", "a5", 2);
    put(&e, &mut s, 1, "skeletons", "a5", 2);
    let fight = |rolls: &[(&str, u8)]| Action::Fight {
        at: "a5".into(),
        rolls: rolls.iter().map(|(k, d)| (k.to_string(), *d)).collect(),
    };
    let v = e.validate(&s, &fight(&[])).expect_err("dice owed");
    assert_eq!(v.rule, "OW-10");
    assert!(v.message.contains("`volcano`"), "{}", v.message);
    assert!(
        e.validate(&s, &fight(&[("orc-warriors", 3)])).is_err(),
        "one die per stack"
    );
    let s2 = go(&e, s.clone(), fight(&[("orc-warriors", 1), ("skeletons", 4)]));
    assert_eq!(count(&e, &s2, "orc-warriors", "a5"), 1);
    assert_eq!(count(&e, &s2, "skeletons", "a5"), 2);
    // Both stacks down to nothing: the fight is over at once.
    let mut s3 = position(&e, "orcs", "undead", Phase::Combat, 0);
    put(&e, &mut s3, 0, "orc-warriors", "a5", 1);
    put(&e, &mut s3, 1, "skeletons", "a5", 1);
    let s3 = go(&e, s3, fight(&[("orc-warriors", 1), ("skeletons", 1)]));
    assert!(s3.fight.is_none());
}

#[test]
fn citadel_shields_the_side_that_held_it_once_per_combat() {
    let e = engine_with(&[("c3", "citadel")]);
    let mut s = position(&e, "orcs", "undead", Phase::Combat, 0);
    put(&e, &mut s, 0, "orc-warriors", "c3", 2); // Ana holds c3 …
    put(&e, &mut s, 0, "wolf-riders", "c3", 1);
    put(&e, &mut s, 1, "skeletons", "c3", 3); // … before Ben comes in
    let c3 = e.map(&s).cell("c3").unwrap();
    assert_eq!(e.after_shields(&s, 0, c3, 2).0, 2, "no shield before the fight");
    let s = go(
        &e,
        s,
        Action::Fight {
            at: "c3".into(),
            rolls: BTreeMap::new(),
        },
    );
    // One shield for Ana's side, not one per stack; none for Ben.
    let (due, ignored, _) = e.after_shields(&s, 0, c3, 2);
    assert_eq!((due, ignored), (1, 1));
    assert_eq!(e.after_shields(&s, 1, c3, 2).1, 0);
    assert!(e.shields(&s, 0, c3).contains(&"`citadel`".to_string()));
}

#[test]
fn immortal_legion_brings_back_a_destroyed_stack_on_a_5_or_6() {
    let e = engine_with(&[]);
    let mut s = position(&e, "orcs", "undead", Phase::Combat, 5);
    put(&e, &mut s, 0, "orc-warriors", "c3", 3);
    put(&e, &mut s, 1, "skeletons", "c3", 1);
    put(&e, &mut s, 1, "necromancer", "c4", 1);
    s.stacks.last_mut().unwrap().fought = true; // it has shot this phase
    s = go(
        &e,
        s,
        Action::Fight {
            at: "c3".into(),
            rolls: BTreeMap::new(),
        },
    );
    s = go(&e, s, cast("immortal-legion", "necromancer", "c4", "c3", None));
    assert_eq!(s.mana[1], 0);
    let attack = |rolls: &[(&str, u8)]| Action::Attack {
        unit: "orc-warriors".into(),
        at: "c3".into(),
        tie: vec![],
        roll: vec![1, 6, 6],
        casualties: BTreeMap::from([("skeletons".to_string(), 1)]),
        rolls: rolls.iter().map(|(k, d)| (k.to_string(), *d)).collect(),
    };
    let v = e.validate(&s, &attack(&[])).expect_err("the die is owed");
    assert_eq!(v.rule, "OW-13");
    assert!(v.message.contains("`immortal-legion`"), "{}", v.message);
    let back = go(&e, s.clone(), attack(&[("skeletons", 5)]));
    assert_eq!(count(&e, &back, "skeletons", "c3"), 1);
    let gone = go(&e, s.clone(), attack(&[("skeletons", 4)]));
    assert_eq!(count(&e, &gone, "skeletons", "c3"), 0);
}

#[test]
fn dark_pact_costs_a_token_and_pays_for_the_next_spell() {
    let e = engine_with(&[]);
    let mut s = position(&e, "demons", "elves", Phase::Combat, 2);
    put(&e, &mut s, 0, "cultists", "c2", 2);
    put(&e, &mut s, 0, "demon-warlock", "c2", 1);
    put(&e, &mut s, 1, "elven-archers", "c3", 2);
    put(&e, &mut s, 1, "forest-wardens", "b3", 1);
    let pact = cast("dark-pact", "demon-warlock", "c2", "c2", Some("cultists"));
    s = go(&e, s, pact.clone());
    assert_eq!((s.mana[0], count(&e, &s, "cultists", "c2")), (0, 1));
    // Once per turn, and never on a stack down to its last token.
    assert!(e.validate(&s, &pact).is_err());
    // Flames (3 Mana) is free now, once.
    let flames = |at: &str, t: &str| cast("flames-of-the-abyss", "demon-warlock", "c2", at, Some(t));
    s = go(&e, s, flames("c3", "elven-archers"));
    assert_eq!((s.mana[0], count(&e, &s, "elven-archers", "c3")), (0, 1));
    let v = e
        .validate(&s, &flames("c3", "elven-archers"))
        .expect_err("no mana left");
    assert_eq!(v.rule, "OW-16");
}

#[test]
fn purifying_flame_strips_the_bonus_of_the_next_attack_only() {
    let e = engine_with(&[]);
    let mut s = position(&e, "orcs", "demons", Phase::Combat, 6);
    put(&e, &mut s, 0, "orc-warriors", "c3", 2);
    put(&e, &mut s, 0, "orc-shaman", "c3", 1);
    put(&e, &mut s, 1, "hellhounds", "c3", 2);
    put(&e, &mut s, 1, "demon-warlock", "c4", 1);
    s.stacks.last_mut().unwrap().fought = true; // it has shot this phase
    s = go(
        &e,
        s,
        Action::Fight {
            at: "c3".into(),
            rolls: BTreeMap::new(),
        },
    );
    // Blood Corruption: +1 Attack for the hellhounds (4 → 5).
    s = go(&e, s, cast("blood-corruption", "demon-warlock", "c4", "c3", None));
    let hounds = |s: &State| {
        s.stacks
            .iter()
            .find(|x| e.unit(x.unit).id == "hellhounds")
            .unwrap()
            .clone()
    };
    assert_eq!(e.attack_of(&s, &hounds(&s)), 5);
    s = go(
        &e,
        s,
        cast("purifying-flame", "orc-shaman", "c3", "c3", Some("hellhounds")),
    );
    assert_eq!(count(&e, &s, "hellhounds", "c3"), 1, "one hit");
    assert_eq!(e.attack_of(&s, &hounds(&s)), 4, "no bonus for the next attack");
    let i = s.stacks.iter().position(|x| e.unit(x.unit).id == "hellhounds").unwrap();
    e.strike(&mut s, i, 0, 0, &BTreeMap::new());
    assert_eq!(
        e.attack_of(&s, &hounds(&s)),
        5,
        "the attack after it has its bonus again"
    );
}

#[test]
fn a_lasting_spell_with_several_outcomes_gives_each_once() {
    let e = engine_with(&[]);
    let mut s = position(&e, "orcs", "undead", Phase::Combat, 4);
    put(&e, &mut s, 0, "orc-warriors", "c3", 2);
    put(&e, &mut s, 0, "orc-shaman", "c3", 1);
    put(&e, &mut s, 1, "skeletons", "c3", 2);
    s = go(
        &e,
        s,
        Action::Fight {
            at: "c3".into(),
            rolls: BTreeMap::new(),
        },
    );
    // Reckless Charge: +1 Movement, +1 Attack, -1 Initiative.
    s = go(&e, s, cast("reckless-charge", "orc-shaman", "c3", "c3", None));
    let x = s.stacks.iter().find(|x| e.unit(x.unit).id == "orc-warriors").unwrap();
    assert_eq!(e.attack_of(&s, x), 5, "4 + 1, not 4 + 3");
    assert_eq!(
        e.initiative_desc(&s, x),
        "initiative 3 (3, +1 by `capital`, -1 by `reckless-charge`)"
    );
}

fn with_path(a: Action, p: &[&str], attack: Option<super::actions::Strike>) -> Action {
    let mut a = a;
    if let Action::Cast { path, attack: k, .. } = &mut a {
        *path = p.iter().map(|c| c.to_string()).collect();
        *k = attack;
    }
    a
}

#[test]
fn spell_moves_keep_to_their_bound_owner_and_place() {
    let e = engine_with(&[]);
    // Call of the Jaguar: a friendly Amazon unit, up to 2 steps, never into the enemy.
    let mut s = position(&e, "amazons", "orcs", Phase::Movement, 9);
    put(&e, &mut s, 0, "jungle-shaman", "b1", 1);
    put(&e, &mut s, 0, "jaguar-riders", "b1", 2);
    put(&e, &mut s, 1, "orc-warriors", "c2", 2);
    let jaguar = |t: &str, at: &str, p: &[&str]| {
        with_path(cast("call-of-the-jaguar", "jungle-shaman", "b1", at, Some(t)), p, None)
    };
    let s2 = go(&e, s.clone(), jaguar("jaguar-riders", "b1", &["b2", "b3"]));
    assert_eq!(count(&e, &s2, "jaguar-riders", "b3"), 2);
    assert_eq!(
        s2.stacks
            .iter()
            .find(|x| e.unit(x.unit).id == "jaguar-riders")
            .unwrap()
            .mp[0],
        4,
        "no points spent"
    );
    for (bad, why) in [
        (jaguar("jaguar-riders", "b1", &["b2", "b3", "b4"]), "beyond the bound"),
        (jaguar("jaguar-riders", "b1", &["c1", "c2"]), "into the enemy"),
        (jaguar("jaguar-riders", "b1", &["b3"]), "not a neighbour"),
        (jaguar("jaguar-riders", "b1", &[]), "no path"),
        (jaguar("orc-warriors", "c2", &["d2"]), "the enemy's unit"),
    ] {
        let v = e.validate(&s, &bad).expect_err(why);
        assert_eq!(v.rule, "OW-16", "{why}: {}", v.message);
    }
    // Infernal Portal: to a location its player controls, nowhere else.
    let mut s = position(&e, "demons", "elves", Phase::Movement, 9);
    put(&e, &mut s, 0, "demon-warlock", "c2", 1);
    put(&e, &mut s, 0, "cultists", "c2", 2);
    put(&e, &mut s, 0, "imps", "e1", 1);
    put(&e, &mut s, 1, "forest-wardens", "c3", 1);
    let portal = |p: &[&str]| {
        with_path(
            cast("infernal-portal", "demon-warlock", "c2", "c2", Some("cultists")),
            p,
            None,
        )
    };
    let s2 = go(&e, s.clone(), portal(&["e1"]));
    assert_eq!(count(&e, &s2, "cultists", "e1"), 2);
    assert!(e.validate(&s, &portal(&["c3"])).is_err(), "held by the enemy");
    assert!(e.validate(&s, &portal(&["c1"])).is_err(), "held by nobody");
}

#[test]
fn bloodthirst_needs_a_hit_scored_and_its_attack_recorded() {
    let e = engine_with(&[]);
    let mut s = position(&e, "barbarians", "undead", Phase::Combat, 9);
    put(&e, &mut s, 0, "storm-shaman", "c3", 1);
    put(&e, &mut s, 0, "barbarian-raiders", "c3", 2);
    put(&e, &mut s, 1, "skeletons", "c3", 3);
    let strike = |roll: Vec<u8>, k: u8| super::actions::Strike {
        roll,
        casualties: BTreeMap::from([("skeletons".to_string(), k)]),
    };
    let thirst = |a| {
        with_path(
            cast("bloodthirst", "storm-shaman", "c3", "c3", Some("barbarian-raiders")),
            &[],
            a,
        )
    };
    let v = e
        .validate(&s, &thirst(Some(strike(vec![1, 2], 2))))
        .expect_err("no hit scored yet");
    assert!(v.message.contains("bloodthirst"), "{}", v.message);
    let i = s
        .stacks
        .iter()
        .position(|x| e.unit(x.unit).id == "barbarian-raiders")
        .unwrap();
    s.stacks[i].hits = 1;
    assert!(e.validate(&s, &thirst(None)).is_err(), "the attack is owed");
    assert_eq!(
        e.validate(&s, &thirst(Some(strike(vec![1, 2], 1)))).unwrap_err().rule,
        "OW-13"
    );
    let s2 = go(&e, s, thirst(Some(strike(vec![1, 2], 2))));
    assert_eq!(count(&e, &s2, "skeletons", "c3"), 1);
}
