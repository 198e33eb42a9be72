//! What to write where a log's action cannot be read: an action of the
//! same kind (`do:`) that is legal at that point of the log, or else one
//! from a random legal game of the same engine, as a one-line example.

use serde_json::Value as Json;

use super::log::{Item, Log};
use super::replay::{Read, flow};
use super::{Engine, random};

/// Actions of a random game searched for an example of a kind not legal
/// at the point of the log.
const RANDOM_ACTIONS: usize = 400;

/// Adds to each problem of an action that cannot be read a help line with
/// an example of that action written as the engine reads it.
pub fn add_examples<E: Engine>(engine: &E, log: &Log, read: &mut Read<E>) {
    let page = format!("docs/log-format/{}.md", E::GAME);
    let mut fallback: Option<Vec<Json>> = None;
    for &(turn, item, diag) in &read.unread.clone() {
        let Some(Item::Action(a)) = log.turns.get(turn - 1).and_then(|t| t.items.get(item - 1)) else {
            continue;
        };
        let Some(kind) = a.value().get("do").and_then(Json::as_str).map(str::to_string) else {
            read.diags[diag].help = Some(format!("an action starts with `do:`, its kind; {page} lists them"));
            continue;
        };
        let here = legal_here(engine, read, turn, item).into_iter().find(|j| is(j, &kind));
        let help = match here {
            Some(j) => format!(
                "write it like `{}` (legal at this point); {page} lists its fields",
                flow(&j)
            ),
            None => {
                let random = fallback.get_or_insert_with(|| random_actions(engine));
                match random.iter().find(|j| is(j, &kind)) {
                    Some(j) => format!("written right it looks like `{}`; {page} lists its fields", flow(j)),
                    None => continue,
                }
            }
        };
        read.diags[diag].help = Some(help);
    }
}

fn is(action: &Json, kind: &str) -> bool {
    action.get("do").and_then(Json::as_str) == Some(kind)
}

/// The legal actions right before item `item` of turn `turn`, replaying
/// what can be read before it (none if the log is refused before).
fn legal_here<E: Engine>(engine: &E, read: &Read<E>, turn: usize, item: usize) -> Vec<Json> {
    let Some(setup) = &read.setup else { return Vec::new() };
    let Ok(mut state) = engine.start(setup) else {
        return Vec::new();
    };
    let end = engine.end_turn();
    for (t, actions) in read.actions.iter().enumerate().take(turn) {
        let last = t + 1 == turn;
        for a in actions
            .iter()
            .take(if last { item - 1 } else { actions.len() })
            .flatten()
        {
            if engine.validate(&state, a).is_err() {
                return Vec::new();
            }
            state = engine.apply(state, a);
        }
        if !last && engine.ending(&state).is_none() {
            if engine.validate(&state, &end).is_err() {
                return Vec::new();
            }
            state = engine.apply(state, &end);
        }
    }
    // Chance results (a card drawn, dice) are filled in as a random player does.
    let mut rng = fastrand::Rng::with_seed(24);
    let mut legal = engine.legal_actions(&state);
    for a in &mut legal {
        engine.randomize(&state, a, &mut rng);
    }
    legal.iter().filter_map(|a| serde_json::to_value(a).ok()).collect()
}

/// Every distinct action of one random legal game, in order.
fn random_actions<E: Engine>(engine: &E) -> Vec<Json> {
    let mut rng = fastrand::Rng::with_seed(24);
    let Ok(game) = random::play(engine, &mut rng, RANDOM_ACTIONS) else {
        return Vec::new();
    };
    game.flat.iter().filter_map(|a| serde_json::to_value(a).ok()).collect()
}
