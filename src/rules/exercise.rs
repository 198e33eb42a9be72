//! Self-play that exercises the pack's effects (`pnpkit check --effects`).
//!
//! A random legal game is played while the interpreter notes the clauses
//! it uses ([`super::kit::trace`]), and at every position the engine's
//! breaches are looked for:
//!
//! - **used**: every clause the chosen actions used, and the automatic
//!   clauses that shaped the legal moves (a Sniper who may not attack from
//!   ADVANCE is in force when her attack is left out of the legal list);
//! - **near misses**: the engine's candidates that are not legal, and the
//!   chosen action written wrong (each number one more, each part of its
//!   outcome left out), refused citing an effect (a wrong target, an amount
//!   beyond the bound, a move a web forbids, an outcome left out);
//! - **forgotten**: an automatic clause an action used whose absence would
//!   show: without it the engine refuses the action as written (what the
//!   log records counts the clause), or the state differs (a log whose
//!   checkpoint wrote the state without it is refused there).
//!
//! The player is curious: among a sample of the legal actions it prefers
//! one that uses a clause no game of the run has used yet (`seen`), so
//! that rare cards get played when they can be; otherwise it plays at
//! random or, half the time, greedily (the self-play greedy player), so
//! that games get far (rounds cleared, upgrades taken). Every game is a
//! pure function of its seed and `seen`.

use super::kit::trace::{self, ClauseRef, Use};
use super::{Cause, Engine};

/// What one random game showed.
#[derive(Clone, Debug, Default)]
pub struct Exercise {
    /// The clauses it used.
    pub used: Vec<Use>,
    /// Effects whose breach the engine refuses, and how (`near miss at
    /// action 12`, `forgotten at action 3`).
    pub refused: Vec<(Cause, String)>,
    /// Actions played.
    pub actions: usize,
}

impl Exercise {
    fn use_all(&mut self, uses: Vec<Use>, auto_only: bool) {
        for u in uses {
            if (!auto_only || u.auto) && !self.used.iter().any(|x| x.at == u.at) {
                self.used.push(u);
            }
        }
    }

    fn refuse(&mut self, c: Cause, how: String) {
        if !self
            .refused
            .iter()
            .any(|(x, _)| x.effect == c.effect && x.clause == c.clause)
        {
            self.refused.push((c, how));
        }
    }
}

/// At most this many near misses are tried per position.
const NEAR_MISSES: usize = 24;

/// Plays a random game of at most about `max_actions` actions from `seed`
/// and reports what it exercised.
pub fn exercise<E: Engine>(engine: &E, seed: u64, max_actions: usize, seen: &[ClauseRef]) -> Result<Exercise, String> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut judge = fastrand::Rng::with_seed(seed ^ 0x5eed_0fe7_7ec7);
    let mut out = Exercise::default();
    let setup = engine.random_setup(&mut rng);
    let (started, used) = trace::recording(|| engine.start(&setup));
    out.use_all(used, false);
    let mut state = started.map_err(|v| format!("the engine's random setup is illegal: {v:?}"))?;
    let end = engine.end_turn();
    while engine.ending(&state).is_none() && out.actions < max_actions + 1_000 {
        let (legal, shaped) = trace::recording(|| engine.legal_actions(&state));
        out.use_all(shaped, true);
        if legal.is_empty() {
            return Err(format!("no legal action, yet the game has not ended, in {state:?}"));
        }
        let mut tried = 0;
        for c in engine.candidates(&state, &mut rng) {
            if tried == NEAR_MISSES {
                break;
            }
            if legal.contains(&engine.choice(&c)) {
                continue;
            }
            tried += 1;
            if let Err(v) = engine.validate(&state, &c) {
                for cause in v.causes() {
                    out.refuse(cause.clone(), format!("near miss at action {}", out.actions + 1));
                }
            }
        }
        let a = if out.actions >= max_actions && legal.contains(&end) {
            let mut a = end.clone();
            engine.randomize(&state, &mut a, &mut rng);
            a
        } else {
            curious(engine, &state, &legal, (&mut rng, &mut judge), seen, &out.used)
        };
        let before = state.clone();
        let (checked, mut used) = trace::recording(|| engine.validate(&before, &a));
        checked.map_err(|v| format!("legal action {a:?} was rejected: {v:?}"))?;
        if used.iter().any(|u| !u.auto) {
            for m in miswritten(engine, &a, &legal) {
                if let Err(v) = engine.validate(&before, &m) {
                    for cause in v.causes() {
                        out.refuse(cause.clone(), format!("miswritten at action {}", out.actions + 1));
                    }
                }
            }
        }
        let (next, applied) = trace::recording(|| engine.apply(state, &a));
        used.extend(applied);
        out.actions += 1;
        let seen = engine.observe(&next);
        let mut asked: Vec<ClauseRef> = Vec::new();
        // Each clause the engine applied or counted by itself (an automatic
        // one, or a lasting outcome chosen earlier), not the action's own
        // choice.
        for u in used.iter().filter(|u| !u.chosen) {
            if asked.contains(&u.at) {
                continue;
            }
            asked.push(u.at);
            // Without the clause the action is refused (what it records
            // counts the clause), or it leaves another state.
            let without = trace::without(u.at, || {
                engine
                    .validate(&before, &a)
                    .ok()
                    .map(|()| engine.observe(&engine.apply(before.clone(), &a)))
            });
            if without.is_none_or(|w| w != seen) {
                out.refuse(
                    Cause {
                        card: u.card.clone(),
                        effect: u.at.effect,
                        clause: Some(u.at.clause),
                    },
                    format!("forgotten at action {}", out.actions),
                );
            }
        }
        out.use_all(used, false);
        state = next;
    }
    Ok(out)
}

/// At most this many legal actions are looked at for one that uses a new
/// clause.
const CURIOUS: usize = 96;

/// A legal action with its chance results filled in, preferring (three
/// times in four) one of a sample that uses a clause neither `seen` nor
/// `used` holds (judged with its dice rolled and cards drawn, as the
/// effects of many hang on them). Otherwise one drawn at random, from the
/// whole list or kind first ([`by_kind`]), or the greedy player's.
fn curious<E: Engine>(
    engine: &E,
    state: &E::State,
    legal: &[E::Action],
    (rng, judge): (&mut fastrand::Rng, &mut fastrand::Rng),
    seen: &[ClauseRef],
    used: &[Use],
) -> E::Action {
    let mut pick = match rng.u8(..8) {
        0 => super::selfplay::greedy(engine, state, legal, engine.to_move(state), rng, judge),
        1..4 => legal[rng.usize(..legal.len())].clone(),
        _ => by_kind(legal, rng).clone(),
    };
    engine.randomize(state, &mut pick, rng);
    if rng.u8(..4) == 0 {
        return pick;
    }
    let start = rng.usize(..legal.len());
    for k in 0..legal.len().min(CURIOUS) {
        let mut a = legal[(start + k) % legal.len()].clone();
        engine.randomize(state, &mut a, rng);
        let (ok, uses) = trace::recording(|| engine.validate(state, &a));
        if ok.is_ok()
            && uses
                .iter()
                .any(|u| !seen.contains(&u.at) && !used.iter().any(|x| x.at == u.at))
        {
            return a;
        }
    }
    pick
}

/// A legal action of a kind (`do:`) drawn first, then one of that kind:
/// kinds with many variants (every spell on every cell) do not crowd out
/// the others (a player who casts whatever is castable never keeps the
/// mana a combat spell needs).
fn by_kind<'a, A>(legal: &'a [A], rng: &mut fastrand::Rng) -> &'a A {
    let mut kinds = Vec::new();
    for a in legal {
        let k = std::mem::discriminant(a);
        if !kinds.contains(&k) {
            kinds.push(k);
        }
    }
    let kind = kinds[rng.usize(..kinds.len())];
    let of: Vec<&A> = legal.iter().filter(|a| std::mem::discriminant(*a) == kind).collect();
    of[rng.usize(..of.len())]
}

/// The action written wrong: each number one more (one less), each part
/// of a recorded outcome (a key inside one of its fields) left out or
/// naming something else the legal actions name (another slot, space or
/// card); only what the legal list does not hold.
fn miswritten<E: Engine>(engine: &E, a: &E::Action, legal: &[E::Action]) -> Vec<E::Action> {
    let Ok(json) = serde_json::to_value(a) else {
        return Vec::new();
    };
    let mut names: Vec<String> = Vec::new();
    for l in legal.iter().take(64) {
        if let Ok(v) = serde_json::to_value(l) {
            strings(&v, &mut names);
        }
    }
    names.sort();
    names.dedup();
    let mut variants = Vec::new();
    vary(&json, &mut Vec::new(), 0, &json, &names, &mut variants);
    variants
        .into_iter()
        .filter_map(|v| serde_json::from_value::<E::Action>(v).ok())
        .filter(|m| m != a && !legal.contains(&engine.choice(m)))
        .take(24)
        .collect()
}

/// The strings inside a value (ids of slots, spaces, cards, units).
fn strings(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(items) => items.iter().for_each(|x| strings(x, out)),
        serde_json::Value::Object(m) => m.iter().for_each(|(k, x)| {
            out.push(k.clone());
            strings(x, out);
        }),
        _ => {}
    }
}

/// At most this many other names are tried in place of one.
const OTHER_NAMES: usize = 4;

/// Collects variants of `root`: at `path`, `node` changed.
fn vary(
    node: &serde_json::Value,
    path: &mut Vec<String>,
    depth: usize,
    root: &serde_json::Value,
    names: &[String],
    out: &mut Vec<serde_json::Value>,
) {
    use serde_json::Value as J;
    match node {
        J::String(s) if depth >= 1 && path.last().is_none_or(|k| k != "do") => {
            for other in names.iter().filter(|n| *n != s).take(OTHER_NAMES) {
                out.push(replaced(root, path, Some(J::from(other.as_str()))));
            }
        }
        J::Number(n) => {
            if let Some(k) = n.as_i64() {
                for m in [k + 1, k - 1] {
                    if m >= 0 {
                        out.push(replaced(root, path, Some(J::from(m))));
                    }
                }
            }
        }
        J::Object(map) => {
            for (key, v) in map {
                path.push(key.clone());
                if depth >= 1 {
                    out.push(replaced(root, path, None));
                }
                vary(v, path, depth + 1, root, names, out);
                path.pop();
            }
        }
        J::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                path.push(i.to_string());
                vary(v, path, depth + 1, root, names, out);
                path.pop();
            }
        }
        _ => {}
    }
}

/// `root` with the value at `path` replaced (`None`: the key removed).
fn replaced(root: &serde_json::Value, path: &[String], with: Option<serde_json::Value>) -> serde_json::Value {
    let mut copy = root.clone();
    let mut at = &mut copy;
    for (i, key) in path.iter().enumerate() {
        let last = i + 1 == path.len();
        match at {
            serde_json::Value::Object(m) if last => {
                match &with {
                    Some(v) => {
                        m.insert(key.clone(), v.clone());
                    }
                    None => {
                        m.remove(key);
                    }
                }
                return copy;
            }
            serde_json::Value::Array(a) if last => {
                if let (Ok(i), Some(v)) = (key.parse::<usize>(), &with)
                    && let Some(slot) = a.get_mut(i)
                {
                    *slot = v.clone();
                }
                return copy;
            }
            serde_json::Value::Object(m) => match m.get_mut(key) {
                Some(next) => at = next,
                None => return copy,
            },
            serde_json::Value::Array(a) => match key.parse::<usize>().ok().and_then(|i| a.get_mut(i)) {
                Some(next) => at = next,
                None => return copy,
            },
            _ => return copy,
        }
    }
    copy
}
