//! Automatic clauses: the modifiers in force ([`modifiers`]), the outcomes
//! a timing triggers ([`fire`]) and the choices still owed ([`owed`]).

use super::{Amount, Change, Clause, Count, Host, Lasting, Src, Vocab, amount_now};

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
            (c.auto && c.when == when && !spent && !def.left_out(i)).then_some((src, i, c))
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
        if def.left_out(l.clause) {
            continue;
        }
        if l.obj.is_some() && l.obj != obj {
            continue;
        }
        if let Some(n) = applies_lasting(h, s, &l.src, c, out, obj, l.obj.is_some()) {
            parts.push((l.src, l.clause, n));
        }
    }
    for (src, i, n) in &parts {
        if *n != 0 {
            h.def(src).note(*i, false, || h.card_id(src));
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
                    h.def(src).note(i, false, || h.card_id(src));
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
