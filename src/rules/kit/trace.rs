//! Which clauses of the pack's effects a replay used, and replays without
//! one of them.
//!
//! `pnpkit check --effects` asks, for every effect, which logs use each of
//! its clauses; `pnpkit log` asks, when a checkpoint differs, whether the
//! log's values are those of the game without an automatic effect (the log
//! forgot it). The engines stay pure state machines: the interpreter
//! ([`super::effects`]) notes each clause it applies, allows or counts into
//! a journal of the current thread that a replay turns on around one action
//! ([`recording`]), and a what-if replay names one clause the interpreter
//! leaves out ([`without`]). Both are off by default, and then cost one
//! thread-local read per question the interpreter answers.

use std::cell::{Cell, RefCell};

use serde::Serialize;

use crate::diag::Span;

/// One clause of one effect of the pack: where the effect is written, and
/// the clause's index in it (0-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct ClauseRef {
    #[serde(skip)]
    pub effect: Span,
    pub clause: u8,
}

/// A clause used by a replay: which, the card it belongs to, and whether it
/// applies by itself.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Use {
    #[serde(flatten)]
    pub at: ClauseRef,
    pub card: String,
    pub auto: bool,
    /// Noted as the choice an action records (not as a modifier or an
    /// outcome the engine applied).
    pub chosen: bool,
}

const RECORD: u8 = 1;
const WITHOUT: u8 = 2;

thread_local! {
    static MODE: Cell<u8> = const { Cell::new(0) };
    static LEFT_OUT: Cell<Option<ClauseRef>> = const { Cell::new(None) };
    static USED: RefCell<Vec<Use>> = const { RefCell::new(Vec::new()) };
}

fn mode() -> u8 {
    MODE.with(Cell::get)
}

/// Notes that clause `clause` of the effect written at `effect` was used
/// (`card` is asked only while recording).
pub fn note(effect: Span, clause: u8, auto: bool, chosen: bool, card: impl FnOnce() -> String) {
    if mode() & RECORD == 0 || effect.line == 0 {
        return;
    }
    let at = ClauseRef { effect, clause };
    USED.with(|u| {
        let mut u = u.borrow_mut();
        match u.iter_mut().find(|x| x.at == at) {
            Some(x) => x.chosen |= chosen,
            None => u.push(Use {
                at,
                card: card(),
                auto,
                chosen,
            }),
        }
    });
}

/// Whether the interpreter leaves this clause out (a what-if replay).
pub fn left_out(effect: Span, clause: u8) -> bool {
    mode() & WITHOUT != 0 && LEFT_OUT.with(Cell::get) == Some(ClauseRef { effect, clause })
}

/// Puts the mode and the clause left out back as they were, even on a panic.
struct Restore {
    mode: u8,
    left_out: Option<ClauseRef>,
}

impl Drop for Restore {
    fn drop(&mut self) {
        MODE.with(|m| m.set(self.mode));
        LEFT_OUT.with(|l| l.set(self.left_out));
    }
}

fn save() -> Restore {
    Restore {
        mode: mode(),
        left_out: LEFT_OUT.with(Cell::get),
    }
}

/// Runs `f` noting the clauses it uses; returns them once each, in the
/// order first used.
pub fn recording<R>(f: impl FnOnce() -> R) -> (R, Vec<Use>) {
    let outer = USED.with(|u| std::mem::take(&mut *u.borrow_mut()));
    let restore = save();
    MODE.with(|m| m.set(restore.mode | RECORD));
    let r = f();
    drop(restore);
    let used = USED.with(|u| std::mem::replace(&mut *u.borrow_mut(), outer));
    (r, used)
}

/// Runs `f` as if clause `c` were not written.
pub fn without<R>(c: ClauseRef, f: impl FnOnce() -> R) -> R {
    let restore = save();
    MODE.with(|m| m.set(restore.mode | WITHOUT));
    LEFT_OUT.with(|l| l.set(Some(c)));
    let r = f();
    drop(restore);
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(line: u32) -> Span {
        Span {
            line,
            ..Span::default()
        }
    }

    #[test]
    fn notes_only_while_recording_and_once_each() {
        note(at(3), 0, true, false, || "a".into());
        let ((), used) = recording(|| {
            note(at(3), 0, true, false, || "a".into());
            note(at(3), 0, true, false, || "a".into());
            note(at(3), 1, false, false, || "a".into());
            note(Span::default(), 0, false, false, || "nowhere".into());
        });
        assert_eq!(used.len(), 2);
        assert_eq!(used[1].at.clause, 1);
        let ((), none) = recording(|| {});
        assert!(none.is_empty());
    }

    #[test]
    fn leaves_out_one_clause_inside_without_only() {
        let c = ClauseRef {
            effect: at(7),
            clause: 1,
        };
        assert!(!left_out(at(7), 1));
        without(c, || {
            assert!(left_out(at(7), 1));
            assert!(!left_out(at(7), 0));
        });
        assert!(!left_out(at(7), 1));
    }
}
