//! `pnpkit log --upgrade`: a log of an older format rewritten in today's
//! ([`super::log::FORMAT`]), keeping everything else of the text as written
//! (comments, layout, the order of keys).
//!
//! Format 1 is how logs were written before card effects were data: the
//! table wrote down what automatic effects did (`ability` or `play` steps
//! for an Assault Rifle's extra damage), a fixed action left play with
//! `expire: true`, and where an effect asked for a choice the log wrote free
//! text (`effect: "+1 movement for the warriors"`) instead of today's
//! fields (`target:`). The upgrade, in order:
//!
//! 1. takes `expire` out of every outcome (an `ability` left with nothing
//!    else is commented out) and every free-text `effect:` out of its action
//!    (kept as a comment);
//! 2. replays the log: an action refused because it writes what an effect
//!    that applies by itself did is commented out; an action refused for
//!    lack of a field today's format asks for is completed when exactly one
//!    legal action writes what it writes and more (ties broken by the ids
//!    the old free text named); and again, until the log replays past it;
//! 3. writes `format:` with today's number.
//!
//! What the upgrade cannot decide (a checkpoint an old log got wrong, a
//! choice with several legal completions) is left as it is, for the replay
//! that follows to report.

use serde_json::Value as Json;

use super::Replay;
use super::log::{self, FORMAT, Item, Log};
use super::replay::{FailureKind, flow};
use super::replayer::Replayer;
use crate::diag::{Diagnostic, FileId};
use crate::model::effects::Effect;
use crate::model::{FieldValue, Game};
use crate::pack::format::{self, KEY};
use crate::pack::yaml::{Limits, Node, Value};

/// A log read (its decks resolved) and replayed, as the command does it.
pub struct Attempt {
    pub log: Option<Log>,
    pub replay: Option<Replay>,
    /// Problems that stopped the replay (reading, decks).
    pub problems: Vec<Diagnostic>,
}

/// One change the upgrade made, at a line of the original text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    pub line: u32,
    pub what: String,
    /// Something only format 1 writes (not a field today's format asks
    /// for and the log forgot).
    pub old: bool,
}

/// A log rewritten in today's format.
#[derive(Clone, Debug)]
pub struct Upgraded {
    pub text: String,
    /// The format it was in.
    pub from: u32,
    pub changes: Vec<Change>,
}

/// A text edit: replace `start..end` with `with`.
struct Edit {
    start: usize,
    end: usize,
    with: String,
}

/// Upgrades `text` (read as file `file`) to today's format. `attempt`
/// reads and replays a text the way `pnpkit log` does.
pub fn upgrade(
    text: &str,
    file: FileId,
    game: &Game,
    engine: &dyn Replayer,
    attempt: &mut dyn FnMut(&str) -> Attempt,
) -> Result<Upgraded, Vec<Diagnostic>> {
    let root = log::parse(text, file, &Limits::default()).map_err(|d| vec![*d])?;
    let version = format::read(&root, &FORMAT).map_err(|d| vec![*d])?;
    if version.number > FORMAT.current {
        return Err(vec![format::newer(&version, &FORMAT)]);
    }
    let from = if version.written { version.number } else { 1 };
    let mut changes = Vec::new();
    if from == FORMAT.current {
        return Ok(Upgraded {
            text: text.to_owned(),
            from,
            changes,
        });
    }
    // 1. What format 1 wrote that today's cannot read at all.
    let mut edits = Vec::new();
    let mut hints: Vec<(usize, Vec<String>)> = Vec::new();
    let unreadable = !attempt(text).problems.is_empty();
    for (ti, turn) in turns(&root).iter().enumerate() {
        for (ai, action) in actions(turn).iter().enumerate() {
            if unreadable {
                old_fields(text, action, &mut edits, &mut changes);
            }
            let mut ids = Vec::new();
            if let Some(e) = action.get("effect") {
                leaves(e, &mut ids);
            }
            if !ids.is_empty() {
                hints.push((key(ti + 1, ai + 1), ids));
            }
        }
    }
    let mut text = apply(text, edits);
    // 2. Replay: what the engine now does by itself, and missing fields.
    let total = turns(&root).iter().map(|t| actions(t).len()).sum::<usize>();
    for _ in 0..=total {
        let a = attempt(&text);
        let (Some(l), Some(r)) = (a.log, a.replay) else {
            break;
        };
        let Some(f) = r.failure.filter(|f| f.kind == FailureKind::Illegal) else {
            break;
        };
        let (Some(t), Some(i)) = (f.turn, f.action) else { break };
        let Some(Item::Action(item)) = l.turns.get(t - 1).and_then(|x| x.items.get(i - 1)) else {
            break;
        };
        let node = item.node.clone();
        // An outcome written for a card whose effect now applies by itself:
        // the action names the card and records an outcome.
        let written = item.value();
        let card = f.cause.as_ref().map_or_else(String::new, |c| c.card.clone());
        let names_card = |v: &Json| {
            v.as_object().is_some_and(|m| {
                m.contains_key("effect")
                    && m.values()
                        .any(|x| x.as_str().is_some_and(|s| !s.is_empty() && card.starts_with(s)))
            })
        };
        // (Format 1 wrote outcomes the card does not give at all, as the
        // Assault Rifle's extra damage; a wrong confirmation of what it does
        // give is today's mistake, left for the replay to report.)
        if f.cause
            .as_ref()
            .is_some_and(|c| c.clause.is_none() && automatic(game, c.effect))
            && names_card(&written)
        {
            changes.push(Change {
                line: node.span.line,
                what: format!("removed what `{card}` does by itself (the engine applies it now)"),
                old: true,
            });
            text = apply(&text, vec![comment_out(&text, &node, "applied by the engine now")]);
            continue;
        }
        let hint = hints.iter().find(|(k, _)| *k == key(t, i)).map(|(_, v)| v.as_slice());
        match complete(engine, &l, t, i, &written, hint.unwrap_or(&[])) {
            Some(done) => {
                changes.push(Change {
                    line: node.span.line,
                    what: format!("completed with today's fields: {}", flow(&done)),
                    // It replaced an outcome written as free text.
                    old: written.get("effect").is_some_and(Json::is_string),
                });
                let (start, end) = extent(&text, &node);
                let mut edit = Edit {
                    start,
                    end,
                    with: flow(&done),
                };
                // What the old outcome said stays, as a comment.
                if let Some(old) = written.get("effect").filter(|_| done.get("effect").is_none()) {
                    let said = old.as_str().map_or_else(|| flow(old), str::to_owned);
                    let le = line_end(&text, end);
                    edit = edit.with_note(&text, le, format!("  # format 1 said: {said}"));
                }
                text = apply(&text, vec![edit]);
            }
            None => break,
        }
    }
    // 3. The format it is in now.
    let text = with_format(&text, file)?;
    Ok(Upgraded { text, from, changes })
}

/// Whether `text` (read as today's format) is a format-1 log: what the
/// upgrade would change in it, when some change is of a format-1 construct
/// (a field today's format asks for and a log forgot is no sign of age).
pub fn looks_older(
    text: &str,
    file: FileId,
    game: &Game,
    engine: &dyn Replayer,
    attempt: &mut dyn FnMut(&str) -> Attempt,
) -> Vec<Change> {
    match upgrade(text, file, game, engine, attempt) {
        Ok(u) if u.changes.iter().any(|c| c.old) => u.changes,
        _ => Vec::new(),
    }
}

fn key(turn: usize, action: usize) -> usize {
    turn * 100_000 + action
}

fn turns(root: &Node) -> Vec<&Node> {
    root.get("turns")
        .and_then(Node::as_seq)
        .map(|s| s.iter().collect())
        .unwrap_or_default()
}

fn actions(turn: &Node) -> Vec<&Node> {
    turn.get("actions")
        .and_then(Node::as_seq)
        .map(|s| s.iter().filter(|a| a.get("expect").is_none()).collect())
        .unwrap_or_default()
}

/// The strings inside a value (the ids an old outcome named).
fn leaves(n: &Node, out: &mut Vec<String>) {
    match &n.value {
        Value::Str(s) => out.extend(words(s)),
        Value::Seq(items) => items.iter().for_each(|x| leaves(x, out)),
        Value::Map(entries) => entries.iter().for_each(|(k, v)| {
            leaves(k, out);
            leaves(v, out);
        }),
        _ => {}
    }
}

/// Step 1 for one action: a free-text `effect:` and `expire` taken out.
fn old_fields(text: &str, action: &Node, edits: &mut Vec<Edit>, changes: &mut Vec<Change>) {
    let Some(entries) = action.as_map() else { return };
    let Some((k, v)) = entries.iter().find(|(k, _)| k.as_str() == Some("effect")) else {
        return;
    };
    match &v.value {
        Value::Str(s) => {
            changes.push(Change {
                line: k.span.line,
                what: format!("free-text `effect: \"{s}\"` kept as a comment"),
                old: true,
            });
            let mut cut = remove_entry(text, entries, k, v);
            if cut.start == line_start(text, cut.start) && cut.end > extent(text, v).1 {
                // A line of its own: the comment takes its place.
                let indent = &text[cut.start..k.span.start];
                cut.with = format!("{indent}# format 1 said: {s}\n");
                edits.push(cut);
            } else {
                let le = line_end(text, extent(text, action).1);
                edits.push(cut);
                edits.push(Edit {
                    start: le,
                    end: le,
                    with: format!("  # format 1 said: {s}"),
                });
            }
        }
        Value::Map(inner) => {
            let Some((ek, ev)) = inner.iter().find(|(k, _)| k.as_str() == Some("expire")) else {
                return;
            };
            changes.push(Change {
                line: ek.span.line,
                what: "`expire` removed (a fixed action lasts as long as its effect says)".into(),
                old: true,
            });
            if inner.len() > 1 {
                edits.push(remove_entry(text, inner, ek, ev));
            } else if action.get("do").and_then(Node::as_str) == Some("ability") {
                edits.push(comment_out(text, action, "a fixed action leaves play by itself now"));
            } else {
                edits.push(remove_entry(text, entries, k, v));
            }
        }
        _ => {}
    }
}

/// Whether the effect written at `span` only has clauses that apply by
/// themselves.
fn automatic(game: &Game, span: crate::diag::Span) -> bool {
    let mut found = None;
    for pieces in game.components.values() {
        for c in pieces {
            for v in c.fields.values() {
                find(v, span, &mut found);
            }
        }
    }
    found.is_some_and(|e: &Effect| !e.clauses.is_empty() && e.clauses.iter().all(|c| c.auto))
}

fn find<'a>(v: &'a FieldValue, span: crate::diag::Span, out: &mut Option<&'a Effect>) {
    match v {
        FieldValue::Effect(e) if e.span == span => *out = Some(e),
        FieldValue::List(items) => items.iter().for_each(|x| find(x, span, out)),
        FieldValue::Record(r) => r.values().for_each(|x| find(x, span, out)),
        _ => {}
    }
}

/// The one legal action that writes all that `written` writes and more;
/// several are told apart by the words of the old outcome (`hint`): the one
/// whose new fields name most of them.
fn complete(
    engine: &dyn Replayer,
    log: &Log,
    turn: usize,
    action: usize,
    written: &Json,
    hint: &[String],
) -> Option<Json> {
    let legal = engine.legal_at(log, turn, action)?;
    let Json::Object(w) = written else { return None };
    if let Some(done) = wider(&legal, w, hint) {
        return Some(done);
    }
    // An outcome written the old way gives way to today's fields; what it
    // named tells the candidates apart.
    let old = w.get("effect")?;
    let mut rest = w.clone();
    rest.remove("effect");
    let mut hint = hint.to_vec();
    hint.extend(words(&old.to_string()));
    wider(&legal, &rest, &hint)
}

fn wider(legal: &[Json], w: &serde_json::Map<String, Json>, hint: &[String]) -> Option<Json> {
    let wider: Vec<&serde_json::Map<String, Json>> = legal
        .iter()
        .filter_map(|c| match c {
            Json::Object(m) if m.len() > w.len() && w.iter().all(|(k, v)| m.get(k) == Some(v)) => Some(m),
            _ => None,
        })
        .collect();
    if wider.len() == 1 {
        return Some(Json::Object(wider[0].clone()));
    }
    let score = |m: &serde_json::Map<String, Json>| {
        let mut said = Vec::new();
        for (k, v) in m.iter().filter(|(k, _)| !w.contains_key(*k)) {
            said.extend(words(k));
            said.extend(words(&v.to_string()));
        }
        said.iter().filter(|x| hint.contains(x)).count()
    };
    let best = wider.iter().map(|m| score(m)).max().filter(|n| *n > 0)?;
    let top: Vec<_> = wider.iter().filter(|m| score(m) == best).collect();
    (top.len() == 1).then(|| Json::Object((**top[0]).clone()))
}

/// The words of a text, lowercase, split at anything not a letter or digit.
fn words(s: &str) -> Vec<String> {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Where a node's text ends: past the closing bracket of a flow mapping or
/// list (the parser's span may stop at its last value).
fn extent(text: &str, node: &Node) -> (usize, usize) {
    let (start, end) = (node.span.start.min(text.len()), node.span.end.min(text.len()));
    let Some(open) = text[start..].chars().next().filter(|c| matches!(c, '{' | '[')) else {
        return (start, end);
    };
    let (mut depth, mut quote) = (0i32, None::<char>);
    for (i, c) in text[start..].char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '{' | '[') => depth += 1,
            (None, '}' | ']') => {
                depth -= 1;
                if depth == 0 {
                    return (start, start + i + 1);
                }
            }
            (None, '\n') if open == '{' && depth == 0 => break,
            _ => {}
        }
    }
    (start, end)
}

/// The byte offset of the end of the line holding `at` (before its newline).
fn line_end(text: &str, at: usize) -> usize {
    text[at..].find('\n').map_or(text.len(), |i| at + i)
}

fn line_start(text: &str, at: usize) -> usize {
    text[..at].rfind('\n').map_or(0, |i| i + 1)
}

/// Removes one entry of a mapping: its own lines in a block mapping, or the
/// entry and a comma beside it in a flow mapping.
fn remove_entry(text: &str, entries: &[(Node, Node)], k: &Node, v: &Node) -> Edit {
    let v_end = extent(text, v).1;
    let ls = line_start(text, k.span.start);
    if text[ls..k.span.start].trim().is_empty() && text[v_end..line_end(text, v_end)].trim().is_empty() {
        let end = (line_end(text, v_end) + 1).min(text.len());
        return Edit {
            start: ls,
            end,
            with: String::new(),
        };
    }
    let last = entries.last().is_some_and(|(x, _)| x.span == k.span);
    if last {
        // `, effect: "…"` before the closing brace.
        let start = text[..k.span.start].rfind(',').unwrap_or(k.span.start);
        Edit {
            start,
            end: v_end,
            with: String::new(),
        }
    } else {
        let rest = &text[v_end..];
        let comma = rest.find(',').map_or(0, |i| i + 1);
        let spaces = rest[comma..].len() - rest[comma..].trim_start_matches([' ', '\t']).len();
        Edit {
            start: k.span.start,
            end: v_end + comma + spaces,
            with: String::new(),
        }
    }
}

/// An action commented out where it stands (or taken out of a flow list,
/// with a comment at the end of its line).
fn comment_out(text: &str, node: &Node, why: &str) -> Edit {
    let (start, end) = extent(text, node);
    let ls = line_start(text, start);
    let le = line_end(text, end);
    let before = text[ls..start].trim();
    let after = text[end..le].trim();
    if (before.is_empty() || before == "-") && (after.is_empty() || after.starts_with('#')) {
        let indent = &text[ls..ls + (text[ls..].len() - text[ls..].trim_start().len())];
        let body: Vec<String> = text[ls..le]
            .lines()
            .map(|l| format!("{indent}# {}", l.trim_start()))
            .collect();
        return Edit {
            start: ls,
            end: le,
            with: format!("{indent}# format 1, {why}:\n{}", body.join("\n")),
        };
    }
    let shown = text[start..end].to_owned();
    let rest = &text[end..];
    let comma = rest
        .find(',')
        .filter(|i| rest[..*i].trim().is_empty())
        .map_or(0, |i| i + 1);
    let spaces = rest[comma..].len() - rest[comma..].trim_start_matches([' ', '\t']).len();
    Edit {
        start,
        end: end + comma + spaces,
        with: String::new(),
    }
    .with_note(text, le, format!("  # format 1, {why}: {shown}"))
}

impl Edit {
    /// This edit, with `note` added at the end of the line ending at `le`
    /// (folded into one edit when it reaches that far).
    fn with_note(mut self, text: &str, le: usize, note: String) -> Edit {
        let tail = text[self.end..le].to_owned();
        self.with.push_str(&tail);
        self.with.push_str(&note);
        self.end = le;
        self
    }
}

/// Applies edits that do not overlap, last first.
fn apply(text: &str, mut edits: Vec<Edit>) -> String {
    edits.sort_by_key(|e| std::cmp::Reverse(e.start));
    let mut out = text.to_owned();
    let mut floor = usize::MAX;
    for e in edits {
        if e.end > floor || e.start > e.end || e.end > out.len() {
            continue;
        }
        out.replace_range(e.start..e.end, &e.with);
        floor = e.start;
    }
    out
}

/// `format:` set to today's: the value replaced, or a line added before the
/// first key of the document.
fn with_format(text: &str, file: FileId) -> Result<String, Vec<Diagnostic>> {
    let root = log::parse(text, file, &Limits::default()).map_err(|d| vec![*d])?;
    let out = match root.get(KEY) {
        Some(v) => apply(
            text,
            vec![Edit {
                start: v.span.start,
                end: v.span.end,
                with: FORMAT.current.to_string(),
            }],
        ),
        None => {
            let first = root
                .as_map()
                .and_then(|m| m.first())
                .map_or(0, |(k, _)| line_start(text, k.span.start));
            let mut t = text.to_owned();
            t.insert_str(first, &format!("{KEY}: {}\n", FORMAT.current));
            t
        }
    };
    log::parse(&out, file, &Limits::default()).map_err(|d| vec![*d])?;
    Ok(out)
}
