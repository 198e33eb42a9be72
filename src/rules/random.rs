//! Engine-driven random players: legal games for property tests and
//! benchmarks, and mutation probes that compare `validate` with the engine's
//! own list of legal actions.

use serde_json::{Map, Value as Json};

use super::replay::{Failure, FailureKind, Options, flow, parse, run, timed};
use super::{Ending, Engine, log};
use crate::diag::FileId;
use crate::pack::yaml::Limits;

/// A generated game.
pub struct Generated<E: Engine> {
    pub setup: E::Setup,
    /// Turn blocks: the player and the actions listed (ending the turn is
    /// implicit, as in a log).
    pub turns: Vec<(usize, Vec<E::Action>)>,
    /// Every action in order, turn ends included: what a replay applies.
    pub flat: Vec<E::Action>,
    pub ending: Option<Ending>,
}

/// Plays a random legal game of at least `max_actions` actions (unless it
/// ends sooner), stopping at a turn boundary.
pub fn play<E: Engine>(engine: &E, rng: &mut fastrand::Rng, max_actions: usize) -> Result<Generated<E>, String> {
    let setup = engine.random_setup(rng);
    let mut state = engine
        .start(&setup)
        .map_err(|v| format!("the engine's random setup is illegal: {v:?}"))?;
    let end = engine.end_turn();
    let mut turns = vec![(engine.to_move(&state), Vec::new())];
    let mut flat = Vec::new();
    let hard_cap = max_actions + 100_000;
    while engine.ending(&state).is_none() {
        let legal = engine.legal_actions(&state);
        if legal.is_empty() {
            return Err(format!("no legal action, yet the game has not ended, in {state:?}"));
        }
        let mut a = if flat.len() >= max_actions && legal.contains(&end) {
            end.clone()
        } else {
            legal[rng.usize(..legal.len())].clone()
        };
        engine.randomize(&state, &mut a, rng);
        if let Err(v) = engine.validate(&state, &a) {
            return Err(format!("legal action {a:?} was rejected: {v:?}\nstate: {state:?}"));
        }
        let mover = engine.to_move(&state);
        state = engine.apply(state, &a);
        flat.push(a.clone());
        if a == end {
            if flat.len() >= max_actions {
                break;
            }
            turns.push((engine.to_move(&state), Vec::new()));
        } else {
            if engine.to_move(&state) != mover && engine.ending(&state).is_none() {
                return Err(format!("{a:?} changed the player to move without ending the turn"));
            }
            turns.last_mut().expect("one turn at least").1.push(a);
        }
        if flat.len() > hard_cap {
            return Err(format!("no end after {hard_cap} actions"));
        }
    }
    if engine.ending(&state).is_some() && turns.len() > 1 && turns.last().is_some_and(|(_, a)| a.is_empty()) {
        turns.pop();
    }
    Ok(Generated {
        setup,
        turns,
        flat,
        ending: engine.ending(&state),
    })
}

/// A generated game as log text (JSON, which is YAML).
pub fn to_log_text<E: Engine>(engine: &E, g: &Generated<E>) -> String {
    log_text(engine, &g.setup, &g.turns, g.ending.as_ref())
}

fn log_text<E: Engine>(
    _engine: &E,
    setup: &E::Setup,
    turns: &[(usize, Vec<E::Action>)],
    ending: Option<&Ending>,
) -> String {
    let header = serde_json::to_value(setup).expect("setups serialise");
    let names: Vec<String> = header
        .get("players")
        .and_then(Json::as_array)
        .map(|ps| {
            ps.iter()
                .map(|p| p.get("name").and_then(Json::as_str).unwrap_or("?").to_string())
                .collect()
        })
        .unwrap_or_default();
    let name = |i: usize| player_name(&names, i);
    let mut doc = Map::new();
    doc.insert("game".into(), Json::from(E::GAME));
    if let Json::Object(h) = header {
        doc.extend(h);
    }
    let turns: Vec<Json> = turns
        .iter()
        .map(|(p, actions)| {
            let mut t = Map::new();
            t.insert("player".into(), Json::from(name(*p)));
            t.insert(
                "actions".into(),
                Json::Array(
                    actions
                        .iter()
                        .map(|a| serde_json::to_value(a).expect("actions serialise"))
                        .collect(),
                ),
            );
            Json::Object(t)
        })
        .collect();
    doc.insert("turns".into(), Json::Array(turns));
    if let Some(e) = ending {
        doc.insert("result".into(), result_json(e, &names));
    }
    // One turn per line: readable, and cheaper to read back than pretty JSON.
    compact_lines(&Json::Object(doc))
}

/// Seat `i`'s name (`player 3` when the setup names fewer players).
pub(crate) fn player_name(names: &[String], i: usize) -> String {
    names.get(i).cloned().unwrap_or_else(|| format!("player {}", i + 1))
}

/// A log's `result:` for an ending: its winner (`none`, a name or a list) and reason.
pub(crate) fn result_json(e: &Ending, names: &[String]) -> Json {
    let mut r = Map::new();
    let winners: Vec<Json> = e.winners.iter().map(|&w| Json::from(player_name(names, w))).collect();
    r.insert(
        "winner".into(),
        match winners.len() {
            0 => Json::from("none"),
            1 => winners[0].clone(),
            _ => Json::Array(winners),
        },
    );
    r.insert("reason".into(), Json::from(e.reason.clone()));
    Json::Object(r)
}

/// Parses log text (for generated logs and tests).
pub fn parse_log(text: &str) -> Result<log::Log, String> {
    let node = log::parse(text, FileId(0), &Limits::default()).map_err(|d| d.message.clone())?;
    log::read_owned(node).map_err(|ds| ds.iter().map(|d| d.message.clone()).collect::<Vec<_>>().join("; "))
}

/// What a mutation probe tried.
#[derive(Clone, Debug)]
pub struct MutationProbe {
    pub position: usize,
    pub mutated: String,
    pub legal: bool,
    /// How the replay refused the mutated action (when it is not legal).
    pub refusal: Option<Failure>,
}

/// Plays a random game, replaces one action by a candidate, and checks that
/// the replay rejects it at that position exactly when the engine's legal
/// list does not contain it.
pub fn mutation_probe<E: Engine>(engine: &E, seed: u64, max_actions: usize) -> Result<MutationProbe, String> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let g = play(engine, &mut rng, max_actions)?;
    let positions: Vec<(usize, usize)> = g
        .turns
        .iter()
        .enumerate()
        .flat_map(|(t, (_, a))| (0..a.len()).map(move |i| (t, i)))
        .collect();
    if positions.is_empty() {
        return Err("the random game has no actions to mutate".into());
    }
    let (ti, ai) = positions[rng.usize(..positions.len())];
    let end = engine.end_turn();
    let mut state = engine.start(&g.setup).map_err(|v| format!("{v:?}"))?;
    for (t, (_, actions)) in g.turns.iter().enumerate() {
        let upto = if t == ti { ai } else { actions.len() };
        for a in &actions[..upto] {
            state = engine.apply(state, a);
        }
        if t == ti {
            break;
        }
        state = engine.apply(state, &end);
    }
    let candidates = engine.candidates(&state, &mut rng);
    if candidates.is_empty() {
        return Err(format!("no candidates in {state:?}"));
    }
    let mut c = candidates[rng.usize(..candidates.len())].clone();
    engine.randomize(&state, &mut c, &mut rng);
    let listed = engine.legal_actions(&state).contains(&engine.choice(&c));
    let validated = engine.validate(&state, &c);
    let shown = flow(&serde_json::to_value(&c).unwrap_or(Json::Null));
    if listed != validated.is_ok() {
        return Err(format!(
            "{shown}: legal_actions says {}, validate says {validated:?}\nstate: {state:?}",
            if listed { "legal" } else { "illegal" }
        ));
    }
    let mut turns: Vec<(usize, Vec<E::Action>)> = g.turns.iter().map(|(p, a)| (*p, a.clone())).collect();
    turns[ti].1[ai] = c;
    let text = log_text(engine, &g.setup, &turns, None);
    let log = parse_log(&text).map_err(|e| format!("generated log unreadable: {e}"))?;
    let parsed = parse::<E>(&log).map_err(|ds| {
        format!(
            "generated log not understood: {}",
            ds.iter()
                .map(|d| d.label.clone().unwrap_or_default())
                .collect::<Vec<_>>()
                .join("; ")
        )
    })?;
    let replay = run(engine, &log, &parsed, &Options::default());
    let rejected_here = replay
        .failure
        .as_ref()
        .is_some_and(|f| f.kind == FailureKind::Illegal && f.turn == Some(ti + 1) && f.action == Some(ai + 1));
    if rejected_here == listed {
        return Err(format!(
            "turn {} action {}: {shown} is {} by the legal list but the replay {}: {:?}",
            ti + 1,
            ai + 1,
            if listed { "allowed" } else { "excluded" },
            if rejected_here { "rejects it" } else { "accepts it" },
            replay.failure
        ));
    }
    Ok(MutationProbe {
        position: positions.iter().position(|&p| p == (ti, ai)).unwrap_or(0),
        mutated: shown,
        legal: listed,
        refusal: replay.failure.filter(|_| rejected_here),
    })
}

/// Generates games until they hold `min_actions` actions, then times their
/// replay (validate + apply, no parsing).
pub fn throughput<E: Engine>(engine: &E, seed: u64, min_actions: usize) -> (usize, f64) {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut games = Vec::new();
    let mut total = 0;
    while total < min_actions {
        let g = play(engine, &mut rng, min_actions - total).unwrap_or_else(|e| panic!("{}: {e}", E::GAME));
        total += g.flat.len().max(1);
        games.push((g.setup, g.flat));
    }
    timed(engine, &games)
}

/// A random game of the engine, for the replay tests of one engine.
pub fn game_text<E: Engine>(engine: &E, seed: u64, max_actions: usize) -> Result<String, String> {
    let mut rng = fastrand::Rng::with_seed(seed);
    play(engine, &mut rng, max_actions).map(|g| to_log_text(engine, &g))
}

/// A log document as JSON with each turn on its own line.
fn compact_lines(doc: &Json) -> String {
    let Json::Object(m) = doc else {
        return doc.to_string();
    };
    let mut out = String::from("{\n");
    for (i, (k, v)) in m.iter().enumerate() {
        let sep = if i + 1 == m.len() { "" } else { "," };
        match v {
            Json::Array(items) if k == "turns" => {
                out.push_str(&format!("  {}: [\n", Json::from(k.as_str())));
                for (j, t) in items.iter().enumerate() {
                    out.push_str(&format!("    {}{}\n", t, if j + 1 == items.len() { "" } else { "," }));
                }
                out.push_str(&format!("  ]{sep}\n"));
            }
            _ => out.push_str(&format!("  {}: {}{sep}\n", Json::from(k.as_str()), v)),
        }
    }
    out.push('}');
    out.push('\n');
    out
}
