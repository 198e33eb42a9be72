//! Effects in words, for refusals: what a clause gives, when, and how a log
//! writes it.

use super::{Amount, Clause, Count, Host, Src, Vocab, Word};

/// `once`, `twice`, `3 times`.
pub(super) fn times_word(n: u8) -> String {
    match n {
        1 => "once".into(),
        2 => "twice".into(),
        n => format!("{n} times"),
    }
}

/// An amount in words: `2`, `up to 3`, `1 per harpy-adjacent (at most 3)`.
pub(super) fn amount<V: Vocab>(a: &Amount<V::Cond>) -> String {
    match a {
        Amount::Exactly(n) => n.to_string(),
        Amount::UpTo(n) => format!("up to {n}"),
        Amount::Per { per, step, max } => format!(
            "{step} per {}{}",
            V::show(per),
            max.map(|m| format!(" (at most {m})")).unwrap_or_default()
        ),
    }
}

/// What a clause gives, to whom: `heal 2 to own-character (in a contiguous
/// slot)`, `energy 1`, `damage-bonus 1 to every own-character (in COVER)`.
pub(super) fn gives<V: Vocab>(c: &Clause<V>) -> String {
    let outs: Vec<String> = c
        .out
        .iter()
        .map(|(o, a)| format!("{} {}", o.name(), amount::<V>(a)))
        .collect();
    let mut s = outs.join(" and ");
    if let Some(t) = &c.target {
        let who = match t.count {
            Count::All => format!("every {}", t.who.name()),
            Count::UpTo(1) => t.who.name().to_owned(),
            Count::UpTo(k) => format!("up to {k} × {}", t.who.name()),
        };
        s.push_str(&format!(" to {who}"));
        if !t.cond.is_empty() {
            let conds: Vec<String> = t.cond.iter().map(V::show).collect();
            s.push_str(&format!(" ({})", conds.join(", ")));
        }
    }
    s
}

/// When and at what price a clause is used: `main, once per turn, for 1
/// energy, if with at most 2 cards in CAMP`.
pub(super) fn terms<V: Vocab>(c: &Clause<V>) -> String {
    let mut s = format!("`{}`", c.when.name());
    if let Some((per, times)) = c.limit {
        s.push_str(&format!(", {} per {}", times_word(times), per.name()));
    }
    for (r, n) in &c.cost {
        s.push_str(&format!(", for {n} {}", r.name()));
    }
    if !c.cond.is_empty() {
        let conds: Vec<String> = c.cond.iter().map(V::show).collect();
        s.push_str(&format!(", if {}", conds.join(" and ")));
    }
    if let Some(u) = c.until {
        s.push_str(&format!(", until {}", u.name()));
    }
    s
}

/// How a log writes `n` of `out` on `obj` for `src`, as `field: example`
/// for a refusal's `expected`, or why it cannot.
pub(super) fn how_to_write<H: Host>(
    h: &H,
    s: &H::State,
    src: &Src<H::Obj>,
    out: <H::V as Vocab>::Out,
    obj: Option<H::Obj>,
    n: i16,
) -> String {
    match h.write(s, src, out, obj, n) {
        Some(w) => format!("`{}` in the log, e.g. `{}`", w.field, w.example),
        None => format!(
            "its `{}` written with the action (the game's page in docs/log-format/ names the field)",
            out.name()
        ),
    }
}

/// A clause in words, for an engine's refusal that names it: `continuous:
/// no-attack 1 to self (in ADVANCE)`.
pub fn describe<V: Vocab>(c: &Clause<V>) -> String {
    format!("{}: {}", terms(c), gives(c))
}
