//! Recorded outcomes checked against the effect of their source: [`allow`]
//! and what a usable clause must record ([`missing`]).
//!
//! A recorded part is either a **choice** (an outcome of a clause that is
//! not automatic, usable now: owner, moment, limit, cost, conditions, then
//! target and bound) or a **confirmation** of what an automatic clause did
//! (the engine applied it, or applies it with this very action): accepted
//! when equal, refused naming the effect and what it really did, and never
//! applied a second time (the engine skips the parts [`Allowed::restated`]
//! marks). Every refusal names the card, what its effect gives and, for an
//! outcome the log leaves out, the field to write and an example.

use super::words::{gives, how_to_write, terms, times_word};
use super::{Amount, Change, Clause, Count, Host, Src, Vocab, Word, amount_now};
use crate::rules::{Cause, Violation};

type Ch<H> = Change<<<H as Host>::V as Vocab>::Out, <H as Host>::Obj>;

/// Why the clause at hand does not fit, ranked by how far it got.
struct Miss {
    depth: u8,
    v: Violation,
}

impl Miss {
    fn new(depth: u8, v: Violation) -> Miss {
        Miss { depth, v }
    }

    /// The refusal, citing clause `i` of the effect of `src`.
    fn of<H: Host>(self, h: &H, src: &Src<H::Obj>, i: Option<usize>) -> Violation {
        let def = h.def(src);
        self.v.caused_by(Cause {
            card: h.card_id(src),
            effect: def.origin,
            clause: i.map(|i| i as u8),
        })
    }
}

/// Keeps the miss that got furthest.
fn keep(best: &mut Option<(Miss, usize)>, m: Miss, i: usize) {
    if best.as_ref().is_none_or(|b| m.depth > b.0.depth) {
        *best = Some((m, i));
    }
}

/// What [`allow`] found: the chosen clauses that take effect (those that
/// gave a recorded part, and the others that are not optional), and for
/// each recorded change the clause that allows it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Allowed {
    pub clauses: Vec<u8>,
    pub of: Vec<u8>,
    /// Per recorded change: a confirmation of an automatic clause, which
    /// the engine applies by itself and must not apply again.
    pub restated: Vec<bool>,
}

impl Allowed {
    /// The recorded changes to apply, each with its clause (confirmations
    /// of automatic clauses left out).
    pub fn to_apply<'a, C: Copy>(&'a self, changes: &'a [C]) -> impl Iterator<Item = (C, u8)> + 'a {
        changes
            .iter()
            .zip(&self.of)
            .zip(&self.restated)
            .filter(|(_, r)| !**r)
            .map(|((ch, i), _)| (*ch, *i))
    }
}

/// Does an effect of `src` allow `changes`, recorded for its owner now?
/// Every part must be a choice of a clause usable now, on a valid target,
/// within its bound, or a confirmation of what an automatic clause did;
/// what a usable clause must do and the log leaves out is refused too.
pub fn allow<H: Host>(
    h: &H,
    s: &H::State,
    src: &Src<H::Obj>,
    changes: &[Ch<H>],
    rule: &'static str,
) -> Result<Allowed, Violation> {
    allow_with(h, s, src, changes, rule, true)
}

/// Whether clause `c` (not automatic) can be used now: moment, limit, cost,
/// conditions.
fn usable<H: Host>(
    h: &H,
    s: &H::State,
    src: &Src<H::Obj>,
    c: &Clause<H::V>,
    i: usize,
    card: &str,
    rule: &'static str,
) -> Result<(), Miss> {
    let v = |msg: String| Violation::new(rule, msg);
    if !h.open(s, src, c.when) {
        // How it is written when its moment comes (an answer on an attack).
        let written = c
            .out
            .first()
            .and_then(|(o, a)| {
                let n = match a {
                    Amount::Exactly(n) | Amount::UpTo(n) => *n,
                    Amount::Per { step, .. } => *step,
                };
                h.write(s, src, *o, None, n)
            })
            .filter(|w| !w.example.starts_with("effect:"))
            .map(|w| format!(", written `{}`", w.example))
            .unwrap_or_default();
        return Err(Miss::new(
            0,
            v(format!("`{card}` is used at the wrong moment"))
                .expected(format!(
                    "the moment of its effect: {} ({}){written}",
                    terms(c),
                    gives(c)
                ))
                .found(h.now(s)),
        ));
    }
    if let Some((per, times)) = c.limit
        && h.used(s, src, i as u8, per) >= times
    {
        return Err(Miss::new(
            1,
            v(format!(
                "`{card}` has already been used {} this {}",
                times_word(times),
                per.name()
            ))
            .expected(format!("at most {} per {}", times_word(times), per.name()))
            .found(format!("use {}", times + 1)),
        ));
    }
    if let Some((res, n)) = c.cost.iter().find(|(r, n)| !h.afford(s, src, *r, *n)) {
        return Err(Miss::new(
            2,
            v(format!("the {} of `{card}` cannot be paid", res.name()))
                .expected(format!("{n} {}", res.name()))
                .found("not enough"),
        ));
    }
    if let Some(x) = c.cond.iter().find(|x| !h.holds(s, src, x, None)) {
        return Err(Miss::new(
            3,
            v(format!("the condition of `{card}` does not hold"))
                .expected(H::V::show(x))
                .found("it does not hold now"),
        ));
    }
    Ok(())
}

/// [`allow`], with the check of what the log leaves out made only when
/// `require` (an engine that checks an outcome in steps asks it last).
pub fn allow_with<H: Host>(
    h: &H,
    s: &H::State,
    src: &Src<H::Obj>,
    changes: &[Ch<H>],
    rule: &'static str,
    require: bool,
) -> Result<Allowed, Violation> {
    let def = h.def(src);
    if !def.checked {
        return Ok(Allowed::default());
    }
    let card = h.card_id(src);
    let mut best: Option<(Miss, usize)> = None;
    // The choices usable now, and whether an automatic clause is: a card
    // used with nothing written still keeps its moment and limit.
    let mut open: Vec<usize> = Vec::new();
    let mut by_itself: Vec<u8> = Vec::new();
    for (i, c) in def.clauses.iter().enumerate() {
        match usable(h, s, src, c, i, &card, rule) {
            Ok(()) if c.auto => by_itself.push(i as u8),
            Ok(()) => open.push(i),
            // Not a moment to use it: a clause that applies by itself is
            // never used by a log, whatever the moment.
            Err(m) if c.auto && m.depth == 0 => keep(
                &mut best,
                Miss::new(
                    0,
                    Violation::new(rule, format!("`{card}` applies by itself: a log does not use it"))
                        .expected(format!(
                            "nothing written for it: the engine applies its effect ({}: {})",
                            terms(c),
                            gives(c)
                        ))
                        .found(format!("`{card}` used by the log, in {}", h.now(s))),
                ),
                i,
            ),
            Err(m) => keep(&mut best, m, i),
        }
    }
    let mut of = Vec::with_capacity(changes.len());
    let mut restated = Vec::with_capacity(changes.len());
    for ch in changes {
        let mut found = None;
        let mut why: Option<(Miss, usize)> = None;
        for &i in &open {
            match check_one(h, s, src, &def.clauses[i], ch, &card, rule) {
                Ok(()) => {
                    found = Some((i, false));
                    break;
                }
                Err(m) => keep(&mut why, m, i),
            }
        }
        if found.is_none() {
            for (i, c) in def.clauses.iter().enumerate() {
                if !c.auto || c.amount(ch.out).is_none() {
                    continue;
                }
                match confirm(h, s, src, c, i, ch, &card, rule) {
                    Ok(()) => {
                        found = Some((i, true));
                        break;
                    }
                    Err(m) => keep(&mut why, m, i),
                }
            }
        }
        match found {
            Some((i, r)) => {
                of.push(i as u8);
                restated.push(r);
            }
            None => {
                // What the clauses giving this outcome objected to, else why
                // no clause could be used now, else what the card gives.
                return Err(match why.or(best) {
                    Some((m, i)) => m.of(h, src, Some(i)),
                    None => nothing_chosen(h, s, src, ch, &card, rule).of(h, src, None),
                });
            }
        }
    }
    if open.is_empty() && changes.is_empty() && by_itself.is_empty() {
        let m = best.map(|(m, _)| m).unwrap_or_else(|| {
            let all: Vec<String> = def
                .clauses
                .iter()
                .map(|c| format!("{}: {}", terms(c), gives(c)))
                .collect();
            Miss::new(
                0,
                Violation::new(rule, format!("`{card}` has no effect a player chooses"))
                    .expected(format!(
                        "nothing written: its effect applies by itself ({})",
                        all.join("; ")
                    ))
                    .found("the card used in the log"),
            )
        });
        return Err(m.of(h, src, None));
    }
    let mut clauses = Vec::new();
    for &i in &open {
        let c = &def.clauses[i];
        let mine: Vec<_> = changes
            .iter()
            .zip(&of)
            .filter(|(_, k)| usize::from(**k) == i)
            .map(|(ch, _)| *ch)
            .collect();
        check_rest(h, s, src, c, &mine, &card, rule, require && !c.optional).map_err(|m| m.of(h, src, Some(i)))?;
        if !mine.is_empty() || !c.optional {
            clauses.push(i as u8);
        }
    }
    for &i in clauses.iter().chain(&of) {
        def.note(i, true, || card.clone());
    }
    // The card used: what it does by itself at this moment takes effect.
    for &i in &by_itself {
        def.note(i, false, || card.clone());
    }
    Ok(Allowed { clauses, of, restated })
}

/// The refusal of a part that no clause of the card gives: a card whose
/// effect applies by itself says so; another lists what it gives.
fn nothing_chosen<H: Host>(h: &H, s: &H::State, src: &Src<H::Obj>, ch: &Ch<H>, card: &str, rule: &'static str) -> Miss {
    let def = h.def(src);
    let on = ch.obj.map(|o| format!(" on {}", h.show(s, o))).unwrap_or_default();
    let all: Vec<String> = def
        .clauses
        .iter()
        .map(|c| format!("{}: {}", terms(c), gives(c)))
        .collect();
    let by_itself = def.clauses.iter().all(|c| c.auto);
    let v = if by_itself {
        Violation::new(
            rule,
            format!("`{card}` applies by itself and gives no `{}`", ch.out.name()),
        )
        .expected(format!(
            "nothing written for it: the engine applies its effect ({})",
            all.join("; ")
        ))
    } else {
        Violation::new(rule, format!("`{card}` does not give `{}`", ch.out.name()))
            .expected(format!("what its effect gives: {}", all.join("; ")))
    };
    Miss::new(4, v.found(format!("`{}` {}{on}", ch.out.name(), ch.n)))
}

/// Whether some clause of `src` that is a choice (not automatic) can be
/// used now: an action that records nothing but a card (a `trigger`) is
/// only for such a clause.
pub fn chooses<H: Host>(h: &H, s: &H::State, src: &Src<H::Obj>) -> bool {
    let def = h.def(src);
    let card = String::new();
    !def.checked
        || def
            .clauses
            .iter()
            .enumerate()
            .any(|(i, c)| !c.auto && usable(h, s, src, c, i, &card, "").is_ok())
}

/// What a usable clause of `src` must record when the log records nothing
/// for it: `Err` names the first such outcome (no usable clause: `Ok`).
pub fn missing<H: Host>(h: &H, s: &H::State, src: &Src<H::Obj>, rule: &'static str) -> Result<(), Violation> {
    let def = h.def(src);
    if !def.checked {
        return Ok(());
    }
    let card = h.card_id(src);
    for (i, c) in def.clauses.iter().enumerate() {
        if !c.auto && !c.optional && usable(h, s, src, c, i, &card, rule).is_ok() {
            check_rest(h, s, src, c, &[], &card, rule, true).map_err(|m| m.of(h, src, Some(i)))?;
        }
    }
    Ok(())
}

/// Whether `ch` is a valid target and amount of clause `c` now.
fn check_one<H: Host>(
    h: &H,
    s: &H::State,
    src: &Src<H::Obj>,
    c: &Clause<H::V>,
    ch: &Ch<H>,
    card: &str,
    rule: &'static str,
) -> Result<(), Miss> {
    let v = |msg: String| Violation::new(rule, msg);
    let Some(a) = c.amount(ch.out) else {
        return Err(Miss::new(
            4,
            v(format!("`{card}` does not give `{}`", ch.out.name()))
                .expected(format!("what its effect gives: {}", gives(c)))
                .found(format!("`{}` {}", ch.out.name(), ch.n)),
        ));
    };
    if let (Some(t), Some(obj)) = (&c.target, ch.obj) {
        if !h.is(s, src, t.who, obj) {
            return Err(Miss::new(
                5,
                v(format!("`{card}` cannot reach {}", h.show(s, obj)))
                    .expected(format!("a target of its effect: {}", gives(c)))
                    .found(h.show(s, obj)),
            ));
        }
        if let Some(x) = t.cond.iter().find(|x| !h.holds(s, src, x, Some(obj))) {
            return Err(Miss::new(
                6,
                v(format!("{} is not a valid target of `{card}`", h.show(s, obj)))
                    .expected(format!("a target {}: its effect gives {}", H::V::show(x), gives(c)))
                    .found(h.show(s, obj)),
            ));
        }
    }
    let (n, exact) = amount_now(h, s, src, a, ch.obj);
    let most = capped(h, s, src, ch.out, ch.obj, n);
    let bad = if n >= 0 {
        ch.n > most || ch.n < 0 || (exact && ch.n != most)
    } else {
        ch.n < most || ch.n > 0 || (exact && ch.n != most)
    };
    if bad {
        let to = ch.obj.map(|o| format!(" to {}", h.show(s, o))).unwrap_or_default();
        return Err(Miss::new(
            7,
            v(format!(
                "`{card}` gives {} {most}{to}, not {}",
                if exact { "exactly" } else { "at most" },
                ch.n
            ))
            .expected(how_to_write(h, s, src, ch.out, ch.obj, most))
            .found(format!("{} {}", ch.out.name(), ch.n)),
        ));
    }
    Ok(())
}

/// `n` within what the state lets land on `obj`.
fn capped<H: Host>(
    h: &H,
    s: &H::State,
    src: &Src<H::Obj>,
    out: <H::V as Vocab>::Out,
    obj: Option<H::Obj>,
    n: i16,
) -> i16 {
    h.cap(s, src, out, obj)
        .map_or(n, |k| if n >= 0 { n.min(k) } else { n.max(-k) })
}

/// A log that writes down what automatic clause `c` did: equal to what the
/// engine applied (this turn, from its journal), or, for a clause that
/// applies now or continuously, to what it gives now.
#[allow(clippy::too_many_arguments)]
fn confirm<H: Host>(
    h: &H,
    s: &H::State,
    src: &Src<H::Obj>,
    c: &Clause<H::V>,
    i: usize,
    ch: &Ch<H>,
    card: &str,
    rule: &'static str,
) -> Result<(), Miss> {
    let recorded = format!(
        "{} {}{}",
        ch.out.name(),
        ch.n,
        ch.obj.map(|o| format!(" on {}", h.show(s, o))).unwrap_or_default()
    );
    let head = format!("`{card}` applies by itself ({}: {})", terms(c), gives(c));
    let refuse = |did: String| {
        Miss::new(
            10,
            Violation::new(rule, format!("{head}; {did}, not {recorded}"))
                .expected(format!("nothing written for it, or exactly what it did: {did}"))
                .found(recorded.clone()),
        )
    };
    if !h.open(s, src, c.when)
        && let Some(done) = h.applied(s, src, i as u8)
    {
        if done.contains(ch) {
            return Ok(());
        }
        let did = if done.is_empty() {
            "it has not applied this turn".to_owned()
        } else {
            let parts: Vec<String> = done
                .iter()
                .map(|d| {
                    format!(
                        "{} {}{}",
                        d.out.name(),
                        d.n,
                        d.obj.map(|o| format!(" on {}", h.show(s, o))).unwrap_or_default()
                    )
                })
                .collect();
            format!("this turn it applied {}", parts.join(", "))
        };
        return Err(refuse(did));
    }
    if c.cond.iter().any(|x| !h.holds(s, src, x, ch.obj)) {
        return Err(refuse("its condition does not hold now: it gives nothing".into()));
    }
    if c.target.is_some() && ch.obj.is_none() {
        return Err(refuse("it gives nothing without a target".into()));
    }
    // A target it cannot reach is refused as for a choice; a wrong amount
    // is not what it does.
    match check_one(h, s, src, c, ch, card, rule) {
        Ok(()) => Ok(()),
        Err(m) if m.depth < 7 => Err(Miss::new(10, m.v)),
        Err(_) => {
            let a = c.amount(ch.out).expect("the caller found the outcome");
            let (n, _) = amount_now(h, s, src, a, ch.obj);
            let n = capped(h, s, src, ch.out, ch.obj, n);
            let to = ch.obj.map(|o| format!(" to {}", h.show(s, o))).unwrap_or_default();
            Err(refuse(format!("it gives {} {n}{to}", ch.out.name())))
        }
    }
}

/// The number of targets of a clause, and what it must do that the log
/// leaves out (when `require`).
#[allow(clippy::too_many_arguments)]
fn check_rest<H: Host>(
    h: &H,
    s: &H::State,
    src: &Src<H::Obj>,
    c: &Clause<H::V>,
    changes: &[Ch<H>],
    card: &str,
    rule: &'static str,
    require: bool,
) -> Result<(), Miss> {
    let v = |msg: String| Violation::new(rule, msg);
    let mut targets: Vec<H::Obj> = Vec::new();
    for ch in changes {
        if let Some(o) = ch.obj
            && !targets.contains(&o)
        {
            targets.push(o);
        }
    }
    if let Some(t) = &c.target
        && let Count::UpTo(k) = t.count
        && targets.len() > usize::from(k)
    {
        return Err(Miss::new(
            8,
            v(format!("`{card}` reaches {} target(s), not {}", k, targets.len()))
                .expected(format!("at most {k}: {}", gives(c)))
                .found(targets.len().to_string()),
        ));
    }
    if !require || c.until.is_some() && c.target.as_ref().is_some_and(|t| t.count == Count::All) {
        return Ok(());
    }
    let qualifies = |obj: H::Obj, o| {
        c.target
            .as_ref()
            .is_none_or(|t| t.cond.iter().all(|x| h.holds(s, src, x, Some(obj))))
            && h.cap(s, src, o, Some(obj)) != Some(0)
    };
    for (o, a) in &c.out {
        if !matches!(a, Amount::Exactly(_)) || !h.recorded(*o) {
            continue;
        }
        let given: Vec<Option<H::Obj>> = changes.iter().filter(|ch| ch.out == *o).map(|ch| ch.obj).collect();
        // The target left out (`Some(None)`: the clause has no target).
        let left: Option<Option<H::Obj>> = match &c.target {
            Some(t) if t.count == Count::All => h
                .candidates(s, src, t.who)
                .into_iter()
                .find(|obj| qualifies(*obj, *o) && !given.contains(&Some(*obj)))
                .map(Some),
            _ if !given.is_empty() => None,
            Some(t) => h
                .candidates(s, src, t.who)
                .into_iter()
                .find(|obj| qualifies(*obj, *o))
                .map(Some),
            None => (h.cap(s, src, *o, None) != Some(0)).then_some(None),
        };
        if let Some(obj) = left {
            let (n, _) = amount_now(h, s, src, a, obj);
            let n = capped(h, s, src, *o, obj, n);
            let whom = match (&c.target, obj) {
                (Some(t), Some(x)) if t.count == Count::All => format!(" to {}", h.show(s, x)),
                (Some(t), _) => format!(" to a target ({})", t.who.name()),
                _ => String::new(),
            };
            return Err(Miss::new(
                9,
                v(format!(
                    "`{card}` gives {} {n}{whom}, which the log does not record",
                    o.name()
                ))
                .expected(how_to_write(h, s, src, *o, obj, n))
                .found(format!("no `{}` in the log", o.name())),
            ));
        }
    }
    Ok(())
}
