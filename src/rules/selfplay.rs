//! Self-play: whole games between engine-driven players, written as the
//! logs players write (YAML, one action a line), so that `log` replays them
//! and `stats` reads them like any other.
//!
//! Two players: **random** (any legal action) and **greedy** (the legal
//! action that raises its [`Engine::progress`] most — points scored, damage
//! dealt — judged on a sampled outcome of dice and draws that is not the one
//! played; a random action when none gains anything). Every game is a pure
//! function of its seed.

use serde::Serialize;
use serde_json::Value as Json;

use super::Engine;
use super::replay::flow;

/// How a seat chooses its actions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Policy {
    Random,
    Greedy,
}

impl Policy {
    pub fn name(self) -> &'static str {
        match self {
            Policy::Random => "random",
            Policy::Greedy => "greedy",
        }
    }

    pub fn parse(s: &str) -> Option<Policy> {
        match s.trim().to_ascii_lowercase().as_str() {
            "random" => Some(Policy::Random),
            "greedy" => Some(Policy::Greedy),
            _ => None,
        }
    }
}

/// A played game.
#[derive(Clone, Debug)]
pub struct Played {
    /// The log (YAML).
    pub text: String,
    /// The players' names, in seat order.
    pub players: Vec<String>,
    /// Names of the winners (empty for a draw or an unfinished game).
    pub winners: Vec<String>,
    pub finished: bool,
    pub turns: usize,
    pub actions: usize,
}

/// At most this many legal actions are weighed per greedy choice.
const GREEDY_WIDTH: usize = 96;

/// Plays one game from `seed`: seat `i` plays `policies[i % len]`. The
/// players are named after their policy (`Greedy`, `Random`, numbered when
/// two seats share one). `comment` heads the log (`#` lines).
pub fn play<E: Engine>(
    engine: &E,
    seed: u64,
    policies: &[Policy],
    max_actions: usize,
    comment: &str,
) -> Result<Played, String> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut judge = fastrand::Rng::with_seed(seed ^ 0x9e37_79b9_7f4a_7c15);
    let setup = named(engine.random_setup(&mut rng), policies);
    let header = serde_json::to_value(&setup).map_err(|e| e.to_string())?;
    let names: Vec<String> = header
        .get("players")
        .and_then(Json::as_array)
        .map(|ps| {
            ps.iter()
                .map(|p| p.get("name").and_then(Json::as_str).unwrap_or("?").to_owned())
                .collect()
        })
        .unwrap_or_default();
    let policy = |seat: usize| {
        policies
            .get(seat % policies.len().max(1))
            .copied()
            .unwrap_or(Policy::Random)
    };
    let mut state = engine
        .start(&setup)
        .map_err(|v| format!("the engine's random setup is illegal: {v:?}"))?;
    let end = engine.end_turn();
    let mut turns: Vec<(usize, Vec<E::Action>)> = vec![(engine.to_move(&state), Vec::new())];
    let mut count = 0usize;
    while engine.ending(&state).is_none() {
        let legal = engine.legal_actions(&state);
        if legal.is_empty() {
            return Err(format!("no legal action, yet the game has not ended, in {state:?}"));
        }
        let mover = engine.to_move(&state);
        let mut a = if count >= max_actions && legal.contains(&end) {
            end.clone()
        } else {
            match policy(mover) {
                Policy::Random => legal[rng.usize(..legal.len())].clone(),
                Policy::Greedy => greedy(engine, &state, &legal, mover, &mut rng, &mut judge),
            }
        };
        engine.randomize(&state, &mut a, &mut rng);
        engine
            .validate(&state, &a)
            .map_err(|v| format!("legal action {a:?} was rejected: {v:?}"))?;
        state = engine.apply(state, &a);
        count += 1;
        if a == end {
            if count >= max_actions {
                break;
            }
            turns.push((engine.to_move(&state), Vec::new()));
        } else {
            turns.last_mut().expect("a turn").1.push(a);
        }
        if count > max_actions + 100_000 {
            return Err(format!("no turn end after {count} actions"));
        }
    }
    let ending = engine.ending(&state);
    if ending.is_some() && turns.len() > 1 && turns.last().is_some_and(|(_, a)| a.is_empty()) {
        turns.pop();
    }
    let winners: Vec<String> = ending
        .as_ref()
        .map(|e| {
            e.winners
                .iter()
                .map(|&w| names.get(w).cloned().unwrap_or_default())
                .collect()
        })
        .unwrap_or_default();
    let text = log_text(E::GAME, comment, &header, &names, &turns, ending.as_ref());
    Ok(Played {
        text,
        players: names,
        winners,
        finished: ending.is_some(),
        turns: turns.len(),
        actions: count,
    })
}

/// The setup with each player named after its seat's policy.
fn named<S: Serialize + serde::de::DeserializeOwned>(setup: S, policies: &[Policy]) -> S {
    let Ok(mut v) = serde_json::to_value(&setup) else {
        return setup;
    };
    let Some(players) = v.get_mut("players").and_then(Json::as_array_mut) else {
        return setup;
    };
    let n = players.len();
    let of = |i: usize| {
        policies
            .get(i % policies.len().max(1))
            .copied()
            .unwrap_or(Policy::Random)
    };
    let mut renames: Vec<(String, String)> = Vec::new();
    for (i, p) in players.iter_mut().enumerate() {
        let pol = of(i);
        let same: Vec<usize> = (0..n).filter(|&j| of(j) == pol).collect();
        let mut name = match pol {
            Policy::Random => "Random".to_owned(),
            Policy::Greedy => "Greedy".to_owned(),
        };
        // Two seats with one policy: `Random A`, `Random B`, in seat order.
        if same.len() > 1 {
            let k = same.iter().position(|&j| j == i).unwrap_or(0);
            name.push(' ');
            name.push(char::from(b'A' + (k as u8 % 26)));
        }
        if let Some(m) = p.as_object_mut() {
            if let Some(old) = m.get("name").and_then(Json::as_str) {
                renames.push((old.to_owned(), name.clone()));
            }
            m.insert("name".into(), Json::from(name));
        }
    }
    // The header may name players elsewhere (`first: Ben`).
    fn rename(v: &mut Json, renames: &[(String, String)]) {
        match v {
            Json::String(s) => {
                if let Some((_, new)) = renames.iter().find(|(old, _)| old == s) {
                    *s = new.clone();
                }
            }
            Json::Array(items) => items.iter_mut().for_each(|i| rename(i, renames)),
            Json::Object(m) => m.values_mut().for_each(|i| rename(i, renames)),
            _ => {}
        }
    }
    for (k, val) in v.as_object_mut().into_iter().flatten() {
        if k != "players" {
            rename(val, &renames);
        }
    }
    serde_json::from_value(v).unwrap_or(setup)
}

/// The legal action that gains the mover most on a sampled outcome, or a
/// random one when none gains anything.
pub(super) fn greedy<E: Engine>(
    engine: &E,
    state: &E::State,
    legal: &[E::Action],
    me: usize,
    rng: &mut fastrand::Rng,
    judge: &mut fastrand::Rng,
) -> E::Action {
    let base = engine.progress(state, me);
    let pool: Vec<&E::Action> = if legal.len() > GREEDY_WIDTH {
        let mut idx: Vec<usize> = (0..legal.len()).collect();
        judge.shuffle(&mut idx);
        idx.truncate(GREEDY_WIDTH);
        idx.sort_unstable();
        idx.into_iter().map(|i| &legal[i]).collect()
    } else {
        legal.iter().collect()
    };
    let mut best = 0i64;
    let mut ties: Vec<&E::Action> = Vec::new();
    for a in pool {
        let mut x = a.clone();
        engine.randomize(state, &mut x, judge);
        if engine.validate(state, &x).is_err() {
            continue;
        }
        let next = engine.apply(state.clone(), &x);
        let mut gain = engine.progress(&next, me) - base;
        if let Some(e) = engine.ending(&next) {
            gain += if e.winners.contains(&me) { 1_000_000 } else { -1_000_000 };
        }
        if gain > best {
            best = gain;
            ties.clear();
        }
        if gain == best && gain > 0 {
            ties.push(a);
        }
    }
    match ties.len() {
        0 => legal[rng.usize(..legal.len())].clone(),
        n => ties[rng.usize(..n)].clone(),
    }
}

/// A game as a log a player would write: comments, the header with one line
/// per key (players one a line), then one action a line per turn.
fn log_text<A: Serialize>(
    game: &str,
    comment: &str,
    header: &Json,
    names: &[String],
    turns: &[(usize, Vec<A>)],
    ending: Option<&super::Ending>,
) -> String {
    let mut out = String::new();
    for line in comment.lines() {
        out.push_str(&format!("# {line}\n"));
    }
    out.push_str(&format!("game: {}\n", flow(&Json::from(game))));
    if let Json::Object(h) = header {
        for (k, v) in h {
            match (k.as_str(), v) {
                ("players", Json::Array(ps)) => {
                    out.push_str("players:\n");
                    for p in ps {
                        out.push_str(&format!("  - {}\n", flow(p)));
                    }
                }
                _ => out.push_str(&format!("{}: {}\n", flow(&Json::from(k.as_str())), flow(v))),
            }
        }
    }
    let name = |i: usize| super::random::player_name(names, i);
    out.push_str("turns:\n");
    for (p, actions) in turns {
        out.push_str(&format!("  - player: {}\n", flow(&Json::from(name(*p)))));
        if actions.is_empty() {
            out.push_str("    actions: []\n");
            continue;
        }
        out.push_str("    actions:\n");
        for a in actions {
            let v = serde_json::to_value(a).unwrap_or(Json::Null);
            out.push_str(&format!("      - {}\n", flow(&v)));
        }
    }
    if let Some(e) = ending {
        out.push_str(&format!("result: {}\n", flow(&super::random::result_json(e, names))));
    }
    out
}
