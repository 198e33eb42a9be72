//! The effect interpreter every engine calls (docs/effects.md).
//!
//! A pack declares its effect vocabulary and gives every card, spell,
//! power, talent, upgrade and location feature a structured effect
//! ([`crate::model::effects`]). An engine types the words it interprets
//! ([`Vocab`]), compiles each effect into a [`Def`] when it reads its tables
//! (a checked effect using a word the engine does not interpret is an
//! `engine-data` error), and answers the game-specific questions through
//! [`Host`]: which timing is open, whether a condition holds, what a target
//! is, how much the state allows. The interpreter does the rest, the same
//! way for every game:
//!
//! - [`allow`]: does an effect in force allow this recorded outcome (owner,
//!   timing, limit, cost, conditions, target, bound)? A refusal cites the
//!   rule and the card.
//! - [`modifier`]: the sum of the automatic modifiers in force for an
//!   object (continuous effects and lasting outcomes).
//! - [`fire`]: the automatic outcomes a timing triggers.
//!
//! Limits are counted in [`Uses`], lasting outcomes kept in [`Lasting`],
//! both in the engine's state and reset at its phase boundaries.

use std::fmt::Debug;

use crate::model::effects::{self as m, Arg};
use crate::rules::Violation;

/// A word an engine interprets: parsed from its pack name, named back.
pub trait Word: Copy + Eq + Debug + 'static {
    const ALL: &'static [(&'static str, Self)];

    fn parse(name: &str) -> Option<Self> {
        Self::ALL.iter().find(|(n, _)| *n == name).map(|(_, w)| *w)
    }

    fn name(self) -> &'static str {
        Self::ALL.iter().find(|(_, w)| *w == self).map_or("?", |(n, _)| n)
    }
}

/// Declares an enum of words with their pack names.
#[macro_export]
macro_rules! words {
    ($(#[$meta:meta])* $vis:vis enum $name:ident { $($(#[$vm:meta])* $variant:ident = $text:literal),* $(,)? }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        $vis enum $name { $($(#[$vm])* $variant),* }
        impl $crate::rules::kit::effects::Word for $name {
            const ALL: &'static [(&'static str, Self)] = &[$(($text, $name::$variant)),*];
        }
    };
}

/// The associated types of a [`Vocab`] impl, for an engine whose word enums
/// bear the trait's names (`When`, `Who`, `Out`, `Per`, `Res`, `Until`, `Cond`).
#[macro_export]
macro_rules! vocab_types {
    () => {
        type When = When;
        type Who = Who;
        type Out = Out;
        type Per = Per;
        type Res = Res;
        type Until = Until;
        type Cond = Cond;
    };
}

/// The words of one game, typed by its engine.
pub trait Vocab: 'static {
    type When: Word;
    type Who: Word;
    type Out: Word;
    type Per: Word;
    type Res: Word;
    type Until: Word;
    /// A condition with its argument.
    type Cond: Clone + Debug;

    /// Parses a condition (`None`: a word or argument the engine does not
    /// interpret).
    fn cond(name: &str, arg: &Arg) -> Option<Self::Cond>;

    /// A condition in words, for messages (`in COVER`).
    fn show(c: &Self::Cond) -> String;
}

/// How many targets a clause reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count {
    UpTo(u8),
    All,
}

/// A compiled amount.
#[derive(Clone, Debug)]
pub enum Amount<C> {
    Exactly(i16),
    UpTo(i16),
    Per { per: C, step: i16, max: Option<i16> },
}

#[derive(Clone, Debug)]
pub struct Target<V: Vocab> {
    pub who: V::Who,
    pub cond: Vec<V::Cond>,
    pub count: Count,
}

#[derive(Clone, Debug)]
pub struct Clause<V: Vocab> {
    pub when: V::When,
    pub auto: bool,
    pub optional: bool,
    pub limit: Option<(V::Per, u8)>,
    pub cost: Vec<(V::Res, i16)>,
    pub cond: Vec<V::Cond>,
    pub target: Option<Target<V>>,
    pub out: Vec<(V::Out, Amount<V::Cond>)>,
    pub until: Option<V::Until>,
}

impl<V: Vocab> Clause<V> {
    /// The amount of `out` this clause gives, if any.
    pub fn amount(&self, out: V::Out) -> Option<&Amount<V::Cond>> {
        self.out.iter().find(|(o, _)| *o == out).map(|(_, a)| a)
    }
}

/// A compiled effect. `checked: false` marks one the pack says the engine
/// cannot check (its outcomes stay trusted, as before effects were data).
#[derive(Clone, Debug)]
pub struct Def<V: Vocab> {
    pub clauses: Vec<Clause<V>>,
    pub checked: bool,
}

impl<V: Vocab> Def<V> {
    /// An effect with nothing to interpret.
    pub fn none() -> Self {
        Def {
            clauses: Vec::new(),
            checked: false,
        }
    }

    /// Whether any clause has this timing.
    pub fn has(&self, when: V::When) -> bool {
        self.clauses.iter().any(|c| c.when == when)
    }
}

/// Compiles an effect; `Err` names the first word the engine does not
/// interpret (only for checked effects: an unchecked one keeps what it can).
pub fn compile<V: Vocab>(e: &m::Effect) -> Result<Def<V>, String> {
    let checked = e.unchecked.is_none();
    let mut clauses = Vec::new();
    'clauses: for c in &e.clauses {
        macro_rules! word {
            ($t:ty, $name:expr, $what:literal) => {
                match <$t as Word>::parse($name) {
                    Some(w) => w,
                    None if checked => return Err(format!("the {} `{}`", $what, $name)),
                    None => continue 'clauses,
                }
            };
        }
        let cond = |c: &m::Cond| -> Result<Option<V::Cond>, String> {
            match V::cond(&c.name, &c.arg) {
                Some(x) => Ok(Some(x)),
                None if checked => Err(format!("the condition `{}`", c.name)),
                None => Ok(None),
            }
        };
        let mut conds = Vec::new();
        for x in &c.conditions {
            match cond(x)? {
                Some(x) => conds.push(x),
                None => continue 'clauses,
            }
        }
        let target = match &c.target {
            None => None,
            Some(t) => {
                let mut tc = Vec::new();
                for x in &t.conditions {
                    match cond(x)? {
                        Some(x) => tc.push(x),
                        None => continue 'clauses,
                    }
                }
                Some(Target {
                    who: word!(V::Who, &t.who, "target"),
                    cond: tc,
                    count: match t.count {
                        m::Count::All => Count::All,
                        m::Count::UpTo(n) => Count::UpTo(n.clamp(1, 20) as u8),
                    },
                })
            }
        };
        let mut out = Vec::new();
        for o in &c.outcomes {
            let w = word!(V::Out, &o.name, "outcome");
            let a = match &o.amount {
                m::Amount::Exactly(n) => Amount::Exactly(small(*n)),
                m::Amount::UpTo(n) => Amount::UpTo(small(*n)),
                m::Amount::Per { per, step, max } => match cond(per)? {
                    Some(p) => Amount::Per {
                        per: p,
                        step: small(*step),
                        max: max.map(small),
                    },
                    None => continue 'clauses,
                },
            };
            out.push((w, a));
        }
        let mut cost = Vec::new();
        for (r, n) in &c.cost {
            cost.push((word!(V::Res, r, "resource"), small(*n)));
        }
        clauses.push(Clause {
            when: word!(V::When, &c.when, "timing"),
            auto: c.auto,
            optional: c.optional,
            limit: match &c.limit {
                Some(l) => Some((word!(V::Per, &l.per, "limit period"), l.times.clamp(1, 20) as u8)),
                None => None,
            },
            cost,
            cond: conds,
            target,
            out,
            until: match &c.until {
                Some(u) => Some(word!(V::Until, u, "duration")),
                None => None,
            },
        });
    }
    Ok(Def { clauses, checked })
}

fn small(n: i64) -> i16 {
    n.clamp(i64::from(i16::MIN), i64::from(i16::MAX)) as i16
}

/// An effect's source in force: the card (the engine's index), its owner,
/// and what it sits on (a bearer, a slot, a location), if anything.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Src<O> {
    pub card: u16,
    pub owner: u8,
    pub at: Option<O>,
}

/// One part of a recorded (or triggered) outcome: `n` of `out` on `obj`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Change<Out, O> {
    pub out: Out,
    pub obj: Option<O>,
    pub n: i16,
}

/// Limit counters: uses per (source card, clause, period).
#[derive(Clone, Debug)]
pub struct Uses<P> {
    list: Vec<(u16, u8, u8, P, u8)>,
}

impl<P> Default for Uses<P> {
    fn default() -> Self {
        Uses { list: Vec::new() }
    }
}

impl<P: Copy + Eq> Uses<P> {
    /// Uses of clause `clause` of `card` by `owner` in period `per`.
    pub fn get(&self, owner: u8, card: u16, clause: u8, per: P) -> u8 {
        self.list
            .iter()
            .find(|u| u.0 == card && u.1 == clause && u.2 == owner && u.3 == per)
            .map_or(0, |u| u.4)
    }

    pub fn add(&mut self, owner: u8, card: u16, clause: u8, per: P) {
        match self
            .list
            .iter_mut()
            .find(|u| u.0 == card && u.1 == clause && u.2 == owner && u.3 == per)
        {
            Some(u) => u.4 = u.4.saturating_add(1),
            None => self.list.push((card, clause, owner, per, 1)),
        }
    }

    /// The period is over: its counters start again.
    pub fn reset(&mut self, per: P) {
        self.list.retain(|u| u.3 != per);
    }
}

/// An outcome that lasts (`until:`): the clause that gave it, on what.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lasting<O, U> {
    pub src: Src<O>,
    pub clause: u8,
    pub obj: Option<O>,
    pub until: U,
}

/// What an engine answers for the interpreter.
pub trait Host {
    type V: Vocab;
    type State;
    /// A target: a slot, square, figure, unit, location.
    type Obj: Copy + PartialEq + Debug;

    /// The compiled effect of a source's card.
    fn def(&self, src: &Src<Self::Obj>) -> &Def<Self::V>;
    /// The card's id, for messages.
    fn card_id(&self, src: &Src<Self::Obj>) -> String;
    /// Whether `when` is open now for this source's owner.
    fn open(&self, s: &Self::State, src: &Src<Self::Obj>, when: <Self::V as Vocab>::When) -> bool;
    /// The timing now, in words, for messages (`the attack phase`).
    fn now(&self, s: &Self::State) -> String;
    /// Whether a condition holds, of the source or (with `obj`) of a target.
    fn holds(
        &self,
        s: &Self::State,
        src: &Src<Self::Obj>,
        c: &<Self::V as Vocab>::Cond,
        obj: Option<Self::Obj>,
    ) -> bool;
    /// How many things a counting condition counts.
    fn count(&self, s: &Self::State, src: &Src<Self::Obj>, c: &<Self::V as Vocab>::Cond, obj: Option<Self::Obj>)
    -> i16;
    /// Whether `obj` is a `who` for this source (owner, kind, place).
    fn is(&self, s: &Self::State, src: &Src<Self::Obj>, who: <Self::V as Vocab>::Who, obj: Self::Obj) -> bool;
    /// Every candidate of `who` (for automatic outcomes on all that qualify).
    fn candidates(&self, s: &Self::State, src: &Src<Self::Obj>, who: <Self::V as Vocab>::Who) -> Vec<Self::Obj>;
    /// The most of `out` the state lets land on `obj` (healing stops at the
    /// damage taken); `None`: no limit but the effect's.
    fn cap(
        &self,
        s: &Self::State,
        src: &Src<Self::Obj>,
        out: <Self::V as Vocab>::Out,
        obj: Option<Self::Obj>,
    ) -> Option<i16>;
    /// Uses of a clause in a period.
    fn used(&self, s: &Self::State, src: &Src<Self::Obj>, clause: u8, per: <Self::V as Vocab>::Per) -> u8;
    /// Whether the owner can pay `n` of a resource.
    fn afford(&self, s: &Self::State, src: &Src<Self::Obj>, res: <Self::V as Vocab>::Res, n: i16) -> bool;
    /// A target in words (`Ben's advance-left`).
    fn show(&self, s: &Self::State, obj: Self::Obj) -> String;

    /// Whether a log records `out` (`false`: the engine applies it when
    /// the clause is used, as a torch that lasts the phase).
    fn recorded(&self, _out: <Self::V as Vocab>::Out) -> bool {
        true
    }
}

fn amount_now<H: Host>(
    h: &H,
    s: &H::State,
    src: &Src<H::Obj>,
    a: &Amount<<H::V as Vocab>::Cond>,
    obj: Option<H::Obj>,
) -> (i16, bool) {
    match a {
        Amount::Exactly(n) => (*n, true),
        Amount::UpTo(n) => (*n, false),
        Amount::Per { per, step, max } => {
            let n = h.count(s, src, per, obj).saturating_mul(*step);
            (max.map_or(n, |m| if m >= 0 { n.min(m) } else { n.max(m) }), true)
        }
    }
}

/// Why the clause at hand does not fit, ranked by how far it got.
struct Miss {
    depth: u8,
    v: Violation,
}

/// What [`allow`] found: the chosen clauses that take effect (those that
/// gave a recorded part, and the others that are not optional), and for
/// each recorded change the clause that allows it (an automatic clause's
/// part is a restatement: the engine applies it once, by itself).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Allowed {
    pub clauses: Vec<u8>,
    pub of: Vec<u8>,
}

/// Does an effect of `src` allow `changes`, recorded for its owner now?
/// Every part must be an outcome of a clause usable now (owner, timing,
/// limit, cost, conditions), on a valid target, within its bound; what a
/// usable clause must do and the log leaves out is refused too. An
/// automatic clause is no choice: a recorded part of it is accepted only as
/// a restatement of exactly what it gives (the engine applies it once).
pub fn allow<H: Host>(
    h: &H,
    s: &H::State,
    src: &Src<H::Obj>,
    changes: &[Change<<H::V as Vocab>::Out, H::Obj>],
    rule: &'static str,
) -> Result<Allowed, Violation> {
    allow_with(h, s, src, changes, rule, true)
}

/// [`allow`], with the check of what the log leaves out made only when
/// `require` (an engine that checks an outcome in steps asks it last).
pub fn allow_with<H: Host>(
    h: &H,
    s: &H::State,
    src: &Src<H::Obj>,
    changes: &[Change<<H::V as Vocab>::Out, H::Obj>],
    rule: &'static str,
    require: bool,
) -> Result<Allowed, Violation> {
    let def = h.def(src);
    let card = h.card_id(src);
    if !def.checked {
        return Ok(Allowed::default());
    }
    let mut best: Option<Miss> = None;
    let miss = |best: &mut Option<Miss>, m: Miss| {
        if best.as_ref().is_none_or(|b| m.depth > b.depth) {
            *best = Some(m);
        }
    };
    let v = |msg: String| Violation::new(rule, msg);
    let mut usable: Vec<usize> = Vec::new();
    for (i, c) in def.clauses.iter().enumerate() {
        // An automatic clause applies by itself; a log may still state its
        // outcome (`size: small`), which must then be exactly what it gives.
        // Used with nothing recorded, its moment and limit still count.
        if !h.open(s, src, c.when) {
            miss(
                &mut best,
                Miss {
                    depth: 0,
                    v: v(format!("`{card}` is used at the wrong moment"))
                        .expected(format!(
                            "the moment of its effect (`{}`{})",
                            c.when.name(),
                            if c.auto { ", which applies by itself" } else { "" }
                        ))
                        .found(h.now(s)),
                },
            );
            continue;
        }
        if let Some((per, times)) = c.limit
            && h.used(s, src, i as u8, per) >= times
        {
            miss(
                &mut best,
                Miss {
                    depth: 1,
                    v: v(format!(
                        "`{card}` has already been used {} this {}",
                        times_word(times),
                        per.name()
                    ))
                    .expected(format!("at most {} per {}", times_word(times), per.name()))
                    .found(format!("use {}", times + 1)),
                },
            );
            continue;
        }
        if let Some((res, n)) = c.cost.iter().find(|(r, n)| !h.afford(s, src, *r, *n)) {
            miss(
                &mut best,
                Miss {
                    depth: 2,
                    v: v(format!("the {} of `{card}` cannot be paid", res.name()))
                        .expected(format!("{n} {}", res.name()))
                        .found("not enough"),
                },
            );
            continue;
        }
        if let Some(x) = c.cond.iter().find(|x| !h.holds(s, src, x, None)) {
            miss(
                &mut best,
                Miss {
                    depth: 3,
                    v: v(format!("the condition of `{card}` does not hold"))
                        .expected(H::V::show(x))
                        .found("it does not hold now"),
                },
            );
            continue;
        }
        usable.push(i);
    }
    if usable.is_empty() {
        return Err(best.map(|m| m.v).unwrap_or_else(|| {
            v(format!("`{card}` has no effect a player chooses"))
                .expected("an effect the card gives by choice")
                .found("an outcome recorded for it")
        }));
    }
    let mut of = Vec::with_capacity(changes.len());
    for ch in changes {
        let mut found = None;
        let mut why: Option<Miss> = None;
        for &i in &usable {
            match check_one(h, s, src, &def.clauses[i], ch, &card, rule) {
                Ok(()) => {
                    found = Some(i);
                    break;
                }
                Err(m) => miss(&mut why, m),
            }
        }
        match found {
            Some(i) => of.push(i as u8),
            None => return Err(why.map(|m| m.v).expect("a clause was tried")),
        }
    }
    let mut clauses = Vec::new();
    for &i in &usable {
        let c = &def.clauses[i];
        let mine: Vec<_> = changes
            .iter()
            .zip(&of)
            .filter(|(_, k)| usize::from(**k) == i)
            .map(|(ch, _)| *ch)
            .collect();
        check_rest(h, s, src, c, &mine, &card, rule, require && !c.optional && !c.auto).map_err(|m| m.v)?;
        if !c.auto && (!mine.is_empty() || !c.optional) {
            clauses.push(i as u8);
        }
    }
    Ok(Allowed { clauses, of })
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
        let usable = !c.auto
            && !c.optional
            && h.open(s, src, c.when)
            && c.limit.is_none_or(|(per, times)| h.used(s, src, i as u8, per) < times)
            && c.cost.iter().all(|(r, n)| h.afford(s, src, *r, *n))
            && c.cond.iter().all(|x| h.holds(s, src, x, None));
        if usable {
            check_rest(h, s, src, c, &[], &card, rule, true).map_err(|m| m.v)?;
        }
    }
    Ok(())
}

fn times_word(n: u8) -> String {
    match n {
        1 => "once".into(),
        2 => "twice".into(),
        n => format!("{n} times"),
    }
}

fn check_one<H: Host>(
    h: &H,
    s: &H::State,
    src: &Src<H::Obj>,
    c: &Clause<H::V>,
    ch: &Change<<H::V as Vocab>::Out, H::Obj>,
    card: &str,
    rule: &'static str,
) -> Result<(), Miss> {
    let v = |msg: String| Violation::new(rule, msg);
    let Some(a) = c.amount(ch.out) else {
        let allowed: Vec<&str> = c.out.iter().map(|(o, _)| o.name()).collect();
        return Err(Miss {
            depth: 4,
            v: v(format!("`{card}` does not give `{}`", ch.out.name()))
                .expected(format!("its outcomes: {}", allowed.join(", ")))
                .found(format!("`{}` {}", ch.out.name(), ch.n)),
        });
    };
    if let (Some(t), Some(obj)) = (&c.target, ch.obj) {
        if !h.is(s, src, t.who, obj) {
            return Err(Miss {
                depth: 5,
                v: v(format!("`{card}` cannot reach {}", h.show(s, obj)))
                    .expected(format!("a target that is {}", t.who.name()))
                    .found(h.show(s, obj)),
            });
        }
        if let Some(x) = t.cond.iter().find(|x| !h.holds(s, src, x, Some(obj))) {
            return Err(Miss {
                depth: 6,
                v: v(format!("{} is not a valid target of `{card}`", h.show(s, obj)))
                    .expected(format!("{} {}", t.who.name(), H::V::show(x)))
                    .found(h.show(s, obj)),
            });
        }
    }
    let (n, exact) = amount_now(h, s, src, a, ch.obj);
    let cap = h.cap(s, src, ch.out, ch.obj);
    let most = cap.map_or(n, |k| if n >= 0 { n.min(k) } else { n.max(-k) });
    let bad = if n >= 0 {
        ch.n > most || ch.n < 0 || (exact && ch.n != most)
    } else {
        ch.n < most || ch.n > 0 || (exact && ch.n != most)
    };
    if bad {
        let expected = if exact {
            format!("{} {most}", ch.out.name())
        } else {
            format!("{} up to {most}", ch.out.name())
        };
        return Err(Miss {
            depth: 7,
            v: v(format!(
                "`{card}` gives {} {}{}, not {}",
                if exact { "exactly" } else { "at most" },
                most,
                ch.obj.map(|o| format!(" to {}", h.show(s, o))).unwrap_or_default(),
                ch.n
            ))
            .expected(expected)
            .found(format!("{} {}", ch.out.name(), ch.n)),
        });
    }
    Ok(())
}

/// The number of targets of a clause, and what it must do that the log
/// leaves out (when `require`).
#[allow(clippy::too_many_arguments)]
fn check_rest<H: Host>(
    h: &H,
    s: &H::State,
    src: &Src<H::Obj>,
    c: &Clause<H::V>,
    changes: &[Change<<H::V as Vocab>::Out, H::Obj>],
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
        return Err(Miss {
            depth: 8,
            v: v(format!("`{card}` reaches {} target(s), not {}", k, targets.len()))
                .expected(format!("at most {k}"))
                .found(targets.len().to_string()),
        });
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
        let missing = match &c.target {
            Some(t) if t.count == Count::All => h
                .candidates(s, src, t.who)
                .into_iter()
                .find(|obj| qualifies(*obj, *o) && !given.contains(&Some(*obj)))
                .map(|obj| h.show(s, obj)),
            _ if !given.is_empty() => None,
            Some(t) => h
                .candidates(s, src, t.who)
                .into_iter()
                .any(|obj| qualifies(obj, *o))
                .then(|| format!("a target ({})", t.who.name())),
            None => (h.cap(s, src, *o, None) != Some(0)).then(String::new),
        };
        if let Some(what) = missing {
            return Err(Miss {
                depth: 9,
                v: v(format!(
                    "`{card}` gives `{}`{}, which the log does not record",
                    o.name(),
                    if what.is_empty() {
                        String::new()
                    } else {
                        format!(" to {what}")
                    }
                ))
                .expected(format!("its `{}` in the outcome", o.name()))
                .found("no such outcome"),
            });
        }
    }
    Ok(())
}

/// The automatic clauses of `sources` with timing `when` whose limit is not
/// used up (of checked effects only), as (source, clause index, clause).
fn automatic<'a, H: Host>(
    h: &'a H,
    s: &'a H::State,
    sources: &'a [Src<H::Obj>],
    when: <H::V as Vocab>::When,
) -> impl Iterator<Item = (&'a Src<H::Obj>, u8, &'a Clause<H::V>)> + 'a {
    sources.iter().flat_map(move |src| {
        let def = h.def(src);
        let clauses: &'a [Clause<H::V>] = if def.checked { &def.clauses } else { &[] };
        clauses.iter().enumerate().filter_map(move |(i, c)| {
            let i = i as u8;
            let spent = c.limit.is_some_and(|(per, times)| h.used(s, src, i, per) >= times);
            (c.auto && c.when == when && !spent).then_some((src, i, c))
        })
    })
}

/// The automatic modifiers of `out` in force for `obj` (or the state as a
/// whole when `None`): clauses with timing `when` of every source whose
/// limit is not used up, and the lasting outcomes given earlier, each as
/// (source, clause, amount) so the engine can count the uses it makes.
pub fn modifiers<H: Host>(
    h: &H,
    s: &H::State,
    sources: &[Src<H::Obj>],
    lasting: &[Lasting<H::Obj, <H::V as Vocab>::Until>],
    when: <H::V as Vocab>::When,
    out: <H::V as Vocab>::Out,
    obj: Option<H::Obj>,
) -> Vec<(Src<H::Obj>, u8, i16)> {
    let mut parts = Vec::new();
    for (src, i, c) in automatic(h, s, sources, when) {
        if let Some(n) = applies(h, s, src, c, out, obj) {
            parts.push((*src, i, n));
        }
    }
    for l in lasting {
        let def = h.def(&l.src);
        let Some(c) = def.clauses.get(usize::from(l.clause)) else {
            continue;
        };
        if l.obj.is_some() && l.obj != obj {
            continue;
        }
        if let Some(n) = applies_lasting(h, s, &l.src, c, out, obj, l.obj.is_some()) {
            parts.push((l.src, l.clause, n));
        }
    }
    parts
}

/// The sum of [`modifiers`].
pub fn modifier<H: Host>(
    h: &H,
    s: &H::State,
    sources: &[Src<H::Obj>],
    lasting: &[Lasting<H::Obj, <H::V as Vocab>::Until>],
    when: <H::V as Vocab>::When,
    out: <H::V as Vocab>::Out,
    obj: Option<H::Obj>,
) -> i16 {
    modifiers(h, s, sources, lasting, when, out, obj)
        .iter()
        .fold(0i16, |t, p| t.saturating_add(p.2))
}

fn applies<H: Host>(
    h: &H,
    s: &H::State,
    src: &Src<H::Obj>,
    c: &Clause<H::V>,
    out: <H::V as Vocab>::Out,
    obj: Option<H::Obj>,
) -> Option<i16> {
    let a = c.amount(out)?;
    if !c.cond.iter().all(|x| h.holds(s, src, x, obj)) {
        return None;
    }
    if let (Some(t), Some(o)) = (&c.target, obj)
        && (!h.is(s, src, t.who, o) || !t.cond.iter().all(|x| h.holds(s, src, x, Some(o))))
    {
        return None;
    }
    Some(amount_now(h, s, src, a, obj).0)
}

fn applies_lasting<H: Host>(
    h: &H,
    s: &H::State,
    src: &Src<H::Obj>,
    c: &Clause<H::V>,
    out: <H::V as Vocab>::Out,
    obj: Option<H::Obj>,
    chosen: bool,
) -> Option<i16> {
    let a = c.amount(out)?;
    // A lasting outcome on a chosen target needs no more checks; one on
    // all that qualify is re-checked against the target's conditions.
    if !chosen
        && let (Some(t), Some(o)) = (&c.target, obj)
        && (!h.is(s, src, t.who, o) || !t.cond.iter().all(|x| h.holds(s, src, x, Some(o))))
    {
        return None;
    }
    Some(amount_now(h, s, src, a, obj).0)
}

/// A triggered outcome: its source, the clause, the change.
pub type Fired<H> = (
    Src<<H as Host>::Obj>,
    u8,
    Change<<<H as Host>::V as Vocab>::Out, <H as Host>::Obj>,
);

/// The automatic outcomes timing `when` triggers, as (source, clause,
/// change) for the engine to apply: targets are every candidate that
/// qualifies (or none for a clause without a target). Limits are honoured.
pub fn fire<H: Host>(
    h: &H,
    s: &H::State,
    sources: &[Src<H::Obj>],
    when: <H::V as Vocab>::When,
    only: Option<H::Obj>,
) -> Vec<Fired<H>> {
    let mut out = Vec::new();
    for (src, i, c) in automatic(h, s, sources, when) {
        if !c.cond.iter().all(|x| h.holds(s, src, x, only)) {
            continue;
        }
        let objs: Vec<Option<H::Obj>> = match &c.target {
            None => vec![None],
            Some(t) => {
                let mut v: Vec<Option<H::Obj>> = h
                    .candidates(s, src, t.who)
                    .into_iter()
                    .filter(|o| only.is_none_or(|x| x == *o))
                    .filter(|o| t.cond.iter().all(|x| h.holds(s, src, x, Some(*o))))
                    .map(Some)
                    .collect();
                if let Count::UpTo(k) = t.count {
                    v.truncate(usize::from(k));
                }
                v
            }
        };
        for obj in objs {
            for (o, a) in &c.out {
                let (n, _) = amount_now(h, s, src, a, obj);
                let n = h
                    .cap(s, src, *o, obj)
                    .map_or(n, |k| if n >= 0 { n.min(k) } else { n.max(-k) });
                if n != 0 {
                    out.push((*src, i, Change { out: *o, obj, n }));
                }
            }
        }
    }
    out
}

/// A mandatory choice of `src` still open at timing `when`: a clause the
/// player must use (not `may`, not used up, affordable, its conditions
/// holding, a target within reach). The engine refuses to move on past
/// `when` while one is owed.
pub fn owed<H: Host>(h: &H, s: &H::State, src: &Src<H::Obj>, when: <H::V as Vocab>::When) -> bool {
    let def = h.def(src);
    if !def.checked {
        return false;
    }
    def.clauses.iter().enumerate().any(|(i, c)| {
        !c.auto
            && !c.optional
            && c.when == when
            && c.limit.is_none_or(|(per, times)| h.used(s, src, i as u8, per) < times)
            && c.cost.iter().all(|(r, n)| h.afford(s, src, *r, *n))
            && c.cond.iter().all(|x| h.holds(s, src, x, None))
            && c.out.iter().any(|(o, a)| {
                matches!(a, Amount::Exactly(_))
                    && h.recorded(*o)
                    && match &c.target {
                        Some(t) => h.candidates(s, src, t.who).into_iter().any(|obj| {
                            t.cond.iter().all(|x| h.holds(s, src, x, Some(obj)))
                                && h.cap(s, src, *o, Some(obj)) != Some(0)
                        }),
                        None => h.cap(s, src, *o, None) != Some(0),
                    }
            })
    })
}
