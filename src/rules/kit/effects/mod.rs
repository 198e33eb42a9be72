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

mod allow;
mod auto;
mod words;

use std::fmt::Debug;

pub use allow::{Allowed, allow, allow_with, chooses, missing};
pub use auto::{Fired, fire, modifier, modifiers, owed};
pub use words::describe;

use super::trace;
use crate::diag::Span;
use crate::model::effects::{self as m, Arg};

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
    /// Where the effect is written in the pack (what [`trace`] notes).
    pub origin: Span,
}

impl<V: Vocab> Def<V> {
    /// An effect with nothing to interpret.
    pub fn none() -> Self {
        Def {
            clauses: Vec::new(),
            checked: false,
            origin: Span::default(),
        }
    }

    /// Notes that clause `i` was used (for coverage and what-if replays):
    /// applied or counted as a modifier (`chosen: false`), or recorded as
    /// an action's choice.
    pub fn note(&self, i: u8, chosen: bool, card: impl FnOnce() -> String) {
        if !self.checked {
            return;
        }
        let auto = self.clauses.get(usize::from(i)).is_some_and(|c| c.auto);
        trace::note(self.origin, i, auto, chosen, card);
    }

    /// Whether clause `i` is left out by a what-if replay.
    pub fn left_out(&self, i: u8) -> bool {
        trace::left_out(self.origin, i)
    }

    /// This effect (of the card `card`) as the cause of a refusal.
    pub fn cause(&self, card: &str, clause: Option<u8>) -> crate::rules::Cause {
        crate::rules::Cause {
            card: card.to_owned(),
            effect: self.origin,
            clause,
        }
    }

    /// The clause `i` as a reference for refusals and coverage.
    pub fn clause_ref(&self, i: u8) -> trace::ClauseRef {
        trace::ClauseRef {
            effect: self.origin,
            clause: i,
        }
    }

    /// Whether any clause has this timing.
    pub fn has(&self, when: V::When) -> bool {
        self.clauses.iter().any(|c| c.when == when)
    }
}

/// The effect called `name` (`cunning`, or `artificiero` for
/// `artificiero (attack 1)`) among an engine's effects and their names, as
/// the cause of a refusal about it.
pub fn cause_named<V: Vocab>(defs: &[Def<V>], names: &[String], name: &str) -> Option<crate::rules::Cause> {
    let i = names.iter().position(|n| n == name).or_else(|| {
        names
            .iter()
            .position(|n| n.strip_prefix(name).is_some_and(|r| r.starts_with(' ')))
    })?;
    Some(defs.get(i)?.cause(&names[i], None))
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
    Ok(Def {
        clauses,
        checked,
        origin: e.span,
    })
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

    /// How a log writes `n` of `out` on `obj` for this source: the field
    /// (`effect.heal`) and a one-line example (`effect: {heal:
    /// {cover-left: 2}}`); `None` when the log has no field for it.
    fn write(
        &self,
        _s: &Self::State,
        _src: &Src<Self::Obj>,
        _out: <Self::V as Vocab>::Out,
        _obj: Option<Self::Obj>,
        _n: i16,
    ) -> Option<Written> {
        None
    }

    /// What automatic clause `clause` of `src` applied by itself since the
    /// engine last cleared its [`Journal`] (this turn), for a log that
    /// writes it down; `None` for a clause the engine does not journal (a
    /// continuous modifier: what it gives now is what it applied).
    #[allow(clippy::type_complexity)] // the changes of the host's own vocabulary
    fn applied(
        &self,
        _s: &Self::State,
        _src: &Src<Self::Obj>,
        _clause: u8,
    ) -> Option<Vec<Change<<Self::V as Vocab>::Out, Self::Obj>>> {
        None
    }
}

/// How a log writes an outcome: its field and a one-line example.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    pub field: String,
    pub example: String,
}

/// The automatic outcomes an engine applied by itself (kept in its state
/// and cleared at its turn boundary), so that a log may write them down as
/// a confirmation: [`allow`] accepts a restatement equal to one of them.
#[derive(Clone, Debug, PartialEq)]
pub struct Journal<Out, O> {
    list: Vec<(Src<O>, u8, Change<Out, O>)>,
}

impl<Out, O> Default for Journal<Out, O> {
    fn default() -> Self {
        Journal { list: Vec::new() }
    }
}

impl<Out: Copy + PartialEq, O: Copy + PartialEq> Journal<Out, O> {
    /// Clause `clause` of `src` applied `ch`.
    pub fn add(&mut self, src: &Src<O>, clause: u8, ch: Change<Out, O>) {
        self.list.push((*src, clause, ch));
    }

    /// What clause `clause` of `src` applied.
    pub fn of(&self, src: &Src<O>, clause: u8) -> Vec<Change<Out, O>> {
        self.list
            .iter()
            .filter(|(s, c, _)| s == src && *c == clause)
            .map(|(_, _, ch)| *ch)
            .collect()
    }

    pub fn clear(&mut self) {
        self.list.clear();
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
