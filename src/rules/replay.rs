//! Driving an engine over a log: the first illegal action, checkpoint or
//! result mismatch, located at its turn, action and source position.

use std::time::Instant;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value as Json;

use super::kit::trace::{self, Use};
use super::log::{self, Item, Log};
use super::{Cause, Ending, Engine, Violation};
use crate::diag::{Code, Diagnostic, Span};

/// How to replay.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// Keep the state after every action.
    pub trace: bool,
    /// Note the clauses of the pack's effects each action uses
    /// ([`Replay::uses`], for `check --effects`).
    pub record: bool,
    /// A what-if replay (the log without one effect): a checkpoint that
    /// differs is not explained further.
    pub what_if: bool,
}

/// What a replay found.
#[derive(Clone, Debug, Serialize)]
pub struct Replay {
    pub game: &'static str,
    pub players: Vec<String>,
    /// Turn blocks replayed (fully or up to the failure).
    pub turns: usize,
    /// Actions replayed, ending turns included.
    pub actions: usize,
    pub final_state: Json,
    pub ending: Option<EndingView>,
    pub failure: Option<Failure>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub trace: Vec<TraceStep>,
    /// With a trace: the state after setup, before the first action.
    #[serde(skip)]
    pub initial: Json,
    /// With [`Options::record`]: the effect clauses each step used.
    #[serde(skip)]
    pub uses: Vec<Used>,
}

/// The clauses of the pack's effects one step used (the setup, an action,
/// or ending a turn).
#[derive(Clone, Debug)]
pub struct Used {
    pub turn: Option<usize>,
    pub action: Option<usize>,
    pub uses: Vec<Use>,
}

#[derive(Clone, Debug, Serialize)]
pub struct EndingView {
    pub winners: Vec<String>,
    pub reason: String,
    pub rule: &'static str,
}

#[derive(Clone, Debug, Serialize)]
pub struct TraceStep {
    pub turn: usize,
    pub player: String,
    /// 1-based index in the turn; `None` for the end of the turn.
    pub action: Option<usize>,
    #[serde(rename = "do")]
    pub done: Json,
    pub state: Json,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FailureKind {
    /// An action (or the setup, or ending a turn) breaks a rule.
    Illegal,
    /// An `expect:` checkpoint disagrees with the state.
    Checkpoint,
    /// `result:` disagrees with how the game ended.
    Result,
}

/// The first thing wrong with a log.
#[derive(Clone, Debug, Serialize)]
pub struct Failure {
    pub kind: FailureKind,
    /// The broken rule, for [`FailureKind::Illegal`].
    pub rule: Option<&'static str>,
    pub message: String,
    pub expected: String,
    pub found: String,
    /// 1-based turn block; `None` during setup or at the end of the log.
    pub turn: Option<usize>,
    /// 1-based action within the turn; `None` for the turn itself (its
    /// player, or ending it).
    pub action: Option<usize>,
    #[serde(skip)]
    pub span: Span,
    /// The state before the failing step, as the engine observes it.
    pub state: Json,
    /// A few legal actions at that point, when the engine can list them.
    pub alternatives: Vec<Json>,
    /// The card effect that caused a refusal, if one did.
    #[serde(skip)]
    pub cause: Option<Cause>,
    /// Other effects the refusal names as shaping the bound it breaks.
    #[serde(skip)]
    pub also: Vec<Cause>,
    /// For a checkpoint that differs: an effect that applies by itself and
    /// that the log's values leave out (the checkpoint holds without it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forgotten: Option<Use>,
}

/// A log's game-specific parts as the engine's types.
pub struct Parsed<E: Engine> {
    pub setup: E::Setup,
    /// Per turn, per item: the action, or `None` for a checkpoint.
    pub actions: Vec<Vec<Option<E::Action>>>,
}

/// Interprets the header and every action; all problems at once.
pub fn parse<E: Engine>(log: &Log) -> Result<Parsed<E>, Vec<Diagnostic>> {
    let read = read::<E>(log);
    match read.setup {
        Some(setup) if read.diags.is_empty() => Ok(Parsed {
            setup,
            actions: read.actions,
        }),
        _ => Err(read.diags),
    }
}

/// A log read as far as it can be: what could not be read is left out.
pub struct Read<E: Engine> {
    pub setup: Option<E::Setup>,
    /// Per turn, per item: the action, or `None` for a checkpoint or an
    /// action that cannot be read.
    pub actions: Vec<Vec<Option<E::Action>>>,
    pub diags: Vec<Diagnostic>,
    /// The actions that cannot be read: turn and item (both 1-based), and
    /// the index of their problem in `diags`.
    pub unread: Vec<(usize, usize, usize)>,
}

/// Reads the header and every action, keeping what can be read.
pub fn read<E: Engine>(log: &Log) -> Read<E> {
    let mut diags = Vec::new();
    let page = format!("docs/log-format/{}.md", E::GAME);
    let setup = decode::<E::Setup>(&log.header, &log.header_node, "the log's header", &mut diags);
    if setup.is_none() {
        for d in &mut diags {
            d.help = Some(format!("{page} lists the header fields of {}", E::GAME));
        }
    }
    let mut actions = Vec::with_capacity(log.turns.len());
    let mut unread = Vec::new();
    for (t, turn) in log.turns.iter().enumerate() {
        let mut list = Vec::with_capacity(turn.items.len());
        for (i, item) in turn.items.iter().enumerate() {
            match item {
                Item::Action(a) => {
                    let action = decode_node::<E::Action>(&a.node, "an action", &mut diags);
                    if action.is_none() {
                        let d = diags.len() - 1;
                        diags[d].help = Some(format!("{page} lists the actions of {} and their fields", E::GAME));
                        unread.push((t + 1, i + 1, d));
                    }
                    list.push(action);
                }
                Item::Expect(_) => list.push(None),
            }
        }
        actions.push(list);
    }
    Read {
        setup,
        actions,
        diags,
        unread,
    }
}

/// [`decode`] straight from the node; through its JSON only to point at a problem.
fn decode_node<T: DeserializeOwned>(
    node: &crate::pack::yaml::Node,
    what: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<T> {
    if let Ok(v) = crate::pack::node_de::from_node(node) {
        return Some(v);
    }
    decode(&log::to_json(node), node, what, diags)
}

fn decode<T: DeserializeOwned>(
    value: &Json,
    node: &crate::pack::yaml::Node,
    what: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<T> {
    // Without tracking the path first: the path is only needed to point at a problem.
    if let Ok(v) = T::deserialize(value) {
        return Some(v);
    }
    match serde_path_to_error::deserialize(value) {
        Ok(v) => Some(v),
        Err(e) => {
            let at = log::locate(node, e.path());
            let path = e.path().to_string();
            let mut d = Diagnostic::new(Code::LogFormat, format!("{what} cannot be read"))
                .at(at.span)
                .label(e.inner().to_string());
            if path != "." {
                d = d.note(format!("at `{path}`"));
            }
            diags.push(d);
            None
        }
    }
}

/// Runs the engine over a parsed log.
pub fn run<E: Engine>(engine: &E, log: &Log, parsed: &Parsed<E>, options: &Options) -> Replay {
    let names: Vec<String> = log.players.iter().map(|p| p.name.clone()).collect();
    let mut out = Replay {
        game: E::GAME,
        players: names.clone(),
        turns: 0,
        actions: 0,
        final_state: Json::Null,
        ending: None,
        failure: None,
        trace: Vec::new(),
        initial: Json::Null,
        uses: Vec::new(),
    };
    let name = |i: usize| names.get(i).cloned().unwrap_or_else(|| format!("player {}", i + 1));
    let (started, used) = noted(options, || engine.start(&parsed.setup));
    keep(&mut out.uses, None, None, used);
    let mut state = match started {
        Ok(s) => s,
        Err(v) => {
            out.failure = Some(illegal(v, None, None, log.header_node.span, Json::Null, Vec::new()));
            return out;
        }
    };
    if options.trace {
        out.initial = engine.observe(&state);
    }
    let end_turn = engine.end_turn();
    'turns: for (ti, (turn, actions)) in log.turns.iter().zip(&parsed.actions).enumerate() {
        let t = Some(ti + 1);
        out.turns = ti + 1;
        if let Some(end) = engine.ending(&state) {
            out.failure = Some(after_end(engine, &state, &end, &name, t, None, turn.span));
            break;
        }
        let mover = engine.to_move(&state);
        if turn.player != name(mover) {
            let v = Violation::new(
                E::TURN_RULE,
                format!("it is {}'s turn, not {}'s", name(mover), turn.player),
            )
            .expected(format!("a turn of {}", name(mover)))
            .found(format!("a turn of {}", turn.player));
            out.failure = Some(illegal(
                v,
                t,
                None,
                turn.player_span,
                engine.observe(&state),
                Vec::new(),
            ));
            break;
        }
        for (ai, (item, action)) in turn.items.iter().zip(actions).enumerate() {
            let a = Some(ai + 1);
            match (item, action) {
                (Item::Expect(cp), _) => {
                    if let Some(f) = compare(engine, &state, &cp.value, cp.node.span, t, a) {
                        out.failure = Some(f);
                        break 'turns;
                    }
                }
                (Item::Action(item), Some(action)) => {
                    if let Some(end) = engine.ending(&state) {
                        out.failure = Some(after_end(engine, &state, &end, &name, t, a, item.node.span));
                        break 'turns;
                    }
                    let (verdict, mut used) = noted(options, || engine.validate(&state, action));
                    if let Err(v) = verdict {
                        out.failure = Some(illegal(
                            v,
                            t,
                            a,
                            item.node.span,
                            engine.observe(&state),
                            alternatives(engine, &state),
                        ));
                        break 'turns;
                    }
                    let (next, applied) = noted(options, move || engine.apply(state, action));
                    state = next;
                    used.extend(applied);
                    keep(&mut out.uses, t, a, used);
                    out.actions += 1;
                    if options.trace {
                        out.trace.push(TraceStep {
                            turn: ti + 1,
                            player: turn.player.clone(),
                            action: a,
                            done: item.value(),
                            state: engine.observe(&state),
                        });
                    }
                }
                (Item::Action(_), None) => unreachable!("parse() decodes every action"),
            }
        }
        if engine.ending(&state).is_none() {
            let (verdict, mut used) = noted(options, || engine.validate(&state, &end_turn));
            if let Err(v) = verdict {
                let at = turn.items.last().map_or(turn.span, |i| match i {
                    Item::Action(a) => a.node.span,
                    Item::Expect(c) => c.node.span,
                });
                let mut f = illegal(v, t, None, at, engine.observe(&state), alternatives(engine, &state));
                f.message = format!("the turn cannot end here: {}", f.message);
                out.failure = Some(f);
                break;
            }
            let (next, applied) = noted(options, || engine.apply(state, &end_turn));
            state = next;
            used.extend(applied);
            keep(&mut out.uses, t, None, used);
            out.actions += 1;
            if options.trace {
                out.trace.push(TraceStep {
                    turn: ti + 1,
                    player: turn.player.clone(),
                    action: None,
                    done: serde_json::to_value(&end_turn).unwrap_or(Json::Null),
                    state: engine.observe(&state),
                });
            }
        }
        if let Some(cp) = &turn.expect
            && let Some(f) = compare(engine, &state, &cp.value, cp.node.span, t, None)
        {
            out.failure = Some(f);
            break;
        }
    }
    if !options.what_if
        && let Some(f) = &out.failure
        && f.kind == FailureKind::Checkpoint
    {
        let found = forgotten(engine, log, parsed, f);
        if let Some(f) = &mut out.failure {
            f.forgotten = found;
        }
    }
    out.final_state = engine.observe(&state);
    let ending = engine.ending(&state);
    out.ending = ending.as_ref().map(|e| EndingView {
        winners: e.winners.iter().map(|&w| name(w)).collect(),
        reason: e.reason.clone(),
        rule: e.rule,
    });
    if out.failure.is_none()
        && let Some(claimed) = &log.result
    {
        let (found_w, found_r) = match &out.ending {
            Some(e) => (e.winners.clone(), Some(e.reason.clone())),
            None => (Vec::new(), None),
        };
        let mut sorted_claim = claimed.winners.clone();
        sorted_claim.sort();
        let mut sorted_found = found_w.clone();
        sorted_found.sort();
        let reason_ok = claimed.reason.is_none() || claimed.reason == found_r;
        if out.ending.is_none() || sorted_claim != sorted_found || !reason_ok {
            let show = |w: &[String], r: Option<&String>| match (w.is_empty(), r) {
                (_, None) => "the game still going".to_string(),
                (true, Some(r)) => format!("a draw ({r})"),
                (false, Some(r)) => format!("{} winning ({r})", w.join(" and ")),
            };
            out.failure = Some(Failure {
                kind: FailureKind::Result,
                rule: ending.as_ref().map(|e| e.rule),
                message: "the log's `result` does not match how the game ended".into(),
                expected: show(
                    &claimed.winners,
                    claimed.reason.as_ref().or(Some(&"any reason".to_string())),
                ),
                found: show(&found_w, found_r.as_ref()),
                turn: None,
                action: None,
                span: claimed.span,
                state: out.final_state.clone(),
                alternatives: Vec::new(),
                cause: None,
                also: Vec::new(),
                forgotten: None,
            });
        }
    }
    out
}

/// At most this many automatic clauses are tried as the explanation of a
/// checkpoint that differs.
const WHAT_IFS: usize = 8;

/// The clause the engine applied by itself (an automatic one, or a lasting
/// outcome chosen earlier) whose absence explains checkpoint failure `f`:
/// used in the turn of the checkpoint before it (or at the start of that
/// turn), and such that the log replays past the checkpoint without it.
fn forgotten<E: Engine>(engine: &E, log: &Log, parsed: &Parsed<E>, f: &Failure) -> Option<Use> {
    let turn = f.turn?;
    let plain = Options {
        what_if: true,
        ..Options::default()
    };
    let recorded = run(engine, log, parsed, &Options { record: true, ..plain });
    let before = |u: &Used| match (u.turn, u.action) {
        (Some(t), a) if t == turn => f.action.is_none() || a.is_some_and(|a| Some(a) < f.action),
        (Some(t), None) => t + 1 == turn,
        (None, _) => turn == 1,
        _ => false,
    };
    let mut tried: Vec<Use> = Vec::new();
    for u in recorded
        .uses
        .iter()
        .rev()
        .filter(|u| before(u))
        .flat_map(|u| u.uses.iter().rev())
    {
        if u.chosen || tried.iter().any(|t| t.at == u.at) {
            continue;
        }
        tried.push(u.clone());
        if tried.len() > WHAT_IFS {
            break;
        }
        let again = trace::without(u.at, || run(engine, log, parsed, &plain));
        let explains = match &again.failure {
            None => true,
            Some(g) => {
                let at = |x: &Failure| (x.turn.unwrap_or(0), x.action.unwrap_or(usize::MAX));
                at(g) > at(f) || (at(g) == at(f) && g.kind == f.kind && g.message != f.message)
            }
        };
        if explains {
            return Some(u.clone());
        }
    }
    None
}

/// Runs `f`, noting the effect clauses it uses when the replay records them.
fn noted<R>(options: &Options, f: impl FnOnce() -> R) -> (R, Vec<Use>) {
    if options.record {
        trace::recording(f)
    } else {
        (f(), Vec::new())
    }
}

/// Keeps what one step used (nothing when it used nothing).
fn keep(sink: &mut Vec<Used>, turn: Option<usize>, action: Option<usize>, mut uses: Vec<Use>) {
    let mut seen = Vec::with_capacity(uses.len());
    uses.retain(|u| {
        let new = !seen.contains(&u.at);
        seen.push(u.at);
        new
    });
    if !uses.is_empty() {
        sink.push(Used { turn, action, uses });
    }
}

fn illegal(
    v: Violation,
    turn: Option<usize>,
    action: Option<usize>,
    span: Span,
    state: Json,
    alternatives: Vec<Json>,
) -> Failure {
    Failure {
        kind: FailureKind::Illegal,
        rule: Some(v.rule),
        message: v.message,
        expected: v.expected,
        found: v.found,
        turn,
        action,
        span,
        state,
        alternatives,
        cause: v.cause.map(|c| *c),
        also: v.also.into_vec(),
        forgotten: None,
    }
}

fn after_end<E: Engine>(
    engine: &E,
    state: &E::State,
    end: &Ending,
    name: &dyn Fn(usize) -> String,
    turn: Option<usize>,
    action: Option<usize>,
    span: Span,
) -> Failure {
    let who = if end.winners.is_empty() {
        "nobody".to_string()
    } else {
        end.winners.iter().map(|&w| name(w)).collect::<Vec<_>>().join(" and ")
    };
    let v = Violation::new(
        end.rule,
        format!("the game is already over ({who} won: {})", end.reason),
    )
    .expected("no more actions")
    .found("the log goes on");
    illegal(v, turn, action, span, engine.observe(state), Vec::new())
}

/// At most this many legal alternatives are shown.
const ALTERNATIVES: usize = 5;

/// A few legal actions, their chance results (a card drawn, dice) filled in
/// as a player would write them.
fn alternatives<E: Engine>(engine: &E, state: &E::State) -> Vec<Json> {
    let mut out: Vec<Json> = Vec::new();
    let mut rng = fastrand::Rng::with_seed(24);
    for mut a in engine.legal_actions(state) {
        engine.randomize(state, &mut a, &mut rng);
        let j = serde_json::to_value(&a).unwrap_or(Json::Null);
        if !out.contains(&j) {
            out.push(j);
        }
        if out.len() == ALTERNATIVES {
            break;
        }
    }
    out
}

/// Checks an `expect:` against the observed state: every key it names must
/// be there with that value (mappings compare as subsets).
fn compare<E: Engine>(
    engine: &E,
    state: &E::State,
    expect: &Json,
    span: Span,
    turn: Option<usize>,
    action: Option<usize>,
) -> Option<Failure> {
    let seen = engine.observe(state);
    let (path, want, got) = subset(expect, &seen, String::new())?;
    Some(Failure {
        kind: FailureKind::Checkpoint,
        rule: None,
        message: format!("checkpoint `{path}` differs from the replayed state"),
        expected: flow(&want),
        found: got.map_or_else(|| "nothing: the state has no such value".to_string(), |g| flow(&g)),
        turn,
        action,
        span,
        state: seen,
        alternatives: Vec::new(),
        cause: None,
        also: Vec::new(),
        forgotten: None,
    })
}

fn subset(want: &Json, got: &Json, path: String) -> Option<(String, Json, Option<Json>)> {
    match (want, got) {
        (Json::Object(w), Json::Object(g)) => {
            for (k, wv) in w {
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                match g.get(k) {
                    Some(gv) => {
                        if let Some(m) = subset(wv, gv, p) {
                            return Some(m);
                        }
                    }
                    None => return Some((p, wv.clone(), None)),
                }
            }
            None
        }
        (Json::Number(a), Json::Number(b)) if a.as_f64() == b.as_f64() => None,
        _ if want == got => None,
        _ => Some((path, want.clone(), Some(got.clone()))),
    }
}

/// A JSON value as one line of YAML flow style (`{life: {Ana: 10}}`).
pub fn flow(v: &Json) -> String {
    fn key(s: &str) -> String {
        let plain = !s.is_empty()
            && s.chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | ' '))
            && !s.starts_with(' ')
            && !s.ends_with(' ');
        if plain { s.to_string() } else { format!("{s:?}") }
    }
    match v {
        Json::Null => "null".into(),
        Json::Bool(b) => b.to_string(),
        Json::Number(n) => n.to_string(),
        Json::String(s) => {
            let k = key(s);
            if k == *s && s.parse::<f64>().is_err() && !matches!(s.as_str(), "true" | "false" | "null" | "yes" | "no") {
                k
            } else {
                format!("{s:?}")
            }
        }
        Json::Array(a) => format!("[{}]", a.iter().map(flow).collect::<Vec<_>>().join(", ")),
        Json::Object(m) => format!(
            "{{{}}}",
            m.iter()
                .map(|(k, v)| format!("{}: {}", key(k), flow(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// The state right before item `action` (1-based) of turn `turn` (1-based),
/// if the log replays that far; `None` past a failure or the log's end.
pub fn state_at<E: Engine>(engine: &E, parsed: &Parsed<E>, turn: usize, action: usize) -> Option<E::State> {
    let mut state = engine.start(&parsed.setup).ok()?;
    let end_turn = engine.end_turn();
    for (ti, actions) in parsed.actions.iter().enumerate().take(turn) {
        for (ai, a) in actions.iter().enumerate() {
            if ti + 1 == turn && ai + 1 == action {
                return Some(state);
            }
            if let Some(a) = a {
                engine.validate(&state, a).ok()?;
                state = engine.apply(state, a);
            }
        }
        if ti + 1 == turn {
            return None;
        }
        if engine.ending(&state).is_none() {
            engine.validate(&state, &end_turn).ok()?;
            state = engine.apply(state, &end_turn);
        }
    }
    None
}

/// Replays generated actions without parsing: the engine's own speed.
pub fn replay_actions<E: Engine>(
    engine: &E,
    setup: &E::Setup,
    actions: &[E::Action],
) -> Result<usize, (usize, Violation)> {
    let mut state = engine.start(setup).map_err(|v| (0, v))?;
    for (i, a) in actions.iter().enumerate() {
        engine.validate(&state, a).map_err(|v| (i, v))?;
        state = engine.apply(state, a);
    }
    Ok(actions.len())
}

/// Times [`replay_actions`] (for benchmarks).
pub fn timed<E: Engine>(engine: &E, games: &[(E::Setup, Vec<E::Action>)]) -> (usize, f64) {
    let start = Instant::now();
    let mut n = 0;
    for (setup, actions) in games {
        n += replay_actions(engine, setup, actions)
            .unwrap_or_else(|(i, v)| panic!("{}: generated action {i} rejected: {v:?}", E::GAME));
    }
    (n, start.elapsed().as_secs_f64())
}
