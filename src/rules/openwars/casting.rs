//! What a cast does (OW-16): the changes a spell's effect makes on the
//! stacks it reaches (chosen targets, or all that qualify; outcomes that
//! hang on a die or a destruction), and applying them.

use super::OpenWars;
use super::effects::{Cond, Ctx, Lasting, Out, When, Who, key, parts};
use super::state::State;
use crate::rules::kit::effects::{self as fx, Host, Src};

impl OpenWars {
    /// The changes a cast of `spell` by player `p` makes: its chosen
    /// target (a stack of `target` in `at`) for each outcome, or every
    /// stack that qualifies for a clause that reaches all. A die (`roll`,
    /// `dice`) or a destruction an outcome hangs on decides whether it
    /// lands: a target that misses it is no wrong target, it just gets none.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn cast_changes(
        &self,
        s: &State,
        d: u16,
        p: u8,
        from: u8,
        at: u8,
        target: Option<u16>,
        roll: &[u8],
        dice: Vec<(u32, u8)>,
    ) -> (Ctx<'_>, Src<u32>, Vec<fx::Change<Out, u32>>) {
        let mut ctx = Ctx::new(self, &[When::Cast]);
        ctx.caster = Some(from);
        ctx.at = Some(at);
        ctx.roll = roll.to_vec();
        ctx.dice = dice;
        ctx.raise = self.grant(d).raise;
        let def = &self.t.fx.defs[usize::from(d)];
        ctx.hits = def
            .clauses
            .iter()
            .filter_map(|c| match c.amount(Out::Hits) {
                Some(fx::Amount::Exactly(n)) => Some(*n),
                _ => None,
            })
            .max()
            .unwrap_or(0);
        let src = Src {
            card: d,
            owner: p,
            at: None,
        };
        let outcome_cond = |x: &Cond| matches!(x, Cond::Roll(_) | Cond::Destroys);
        let mut out = Vec::new();
        for c in &def.clauses {
            let Some(t) = &c.target else { continue };
            // A clause whose one die failed gives nothing.
            if c.cond.iter().any(|x| match x {
                Cond::Roll(m) => !roll.first().is_some_and(|f| *f <= 6 && m & 1 << f != 0),
                _ => false,
            }) {
                continue;
            }
            let objs: Vec<u32> = if t.count == fx::Count::All {
                ctx.candidates(s, &src, t.who)
                    .into_iter()
                    .filter(|o| t.cond.iter().all(|x| ctx.holds(s, &src, x, Some(*o))))
                    .collect()
            } else {
                let owner = if matches!(t.who, Who::EnemyUnit) { 1 - p } else { p };
                target
                    .map(|u| key(owner, u, at))
                    .into_iter()
                    .filter(|o| {
                        t.cond
                            .iter()
                            .filter(|x| outcome_cond(x))
                            .all(|x| ctx.holds(s, &src, x, Some(*o)))
                    })
                    .collect()
            };
            for o in objs {
                for (out_, a) in &c.out {
                    if let fx::Amount::Exactly(n) = a {
                        out.push(fx::Change {
                            out: *out_,
                            obj: Some(o),
                            n: *n,
                        });
                    }
                }
            }
        }
        (ctx, src, out)
    }

    /// A cast applied: lasting outcomes on their stacks, hits dealt.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn cast_apply(
        &self,
        s: &mut State,
        d: u16,
        p: u8,
        from: u8,
        at: u8,
        target: Option<u16>,
        roll: &[u8],
        dice: Vec<(u32, u8)>,
    ) {
        let (ctx, src, changes) = self.cast_changes(s, d, p, from, at, target, roll, dice);
        let Ok(ok) = fx::allow(&ctx, s, &src, &changes, "") else {
            return;
        };
        for &c in &ok.clauses {
            if let Some((per, _)) = self.t.fx.defs[usize::from(d)].clauses[usize::from(c)].limit {
                s.uses.add(p, d, c, per);
            }
        }
        let mut given: Vec<(u8, Option<u32>)> = Vec::new();
        for (ch, &c) in changes.iter().zip(&ok.of) {
            let clause = &self.t.fx.defs[usize::from(d)].clauses[usize::from(c)];
            match (ch.out, clause.until) {
                (Out::Hits, _) => {
                    let (q, u, cell) = parts(ch.obj.unwrap_or(0));
                    if let Some(j) = self.find(s, q, u, cell) {
                        // A shield ignores the first hits.
                        let shield = self.modifier(s, Out::IgnoreHits, &s.stacks[j]).max(0) as u32
                            + self.side_shields(s, q, cell).max(0) as u32;
                        let ignored = shield.min(ch.n.max(0) as u32);
                        if ignored > 0 {
                            self.spend_shields(s, q, cell, ignored);
                        }
                        let k = ((ch.n.max(0) as u32 - ignored) as u8).min(s.stacks[j].n);
                        s.fallen[usize::from(u)] = s.fallen[usize::from(u)].saturating_add(k);
                        s.stacks[j].wounded |= k > 0;
                        self.take_tokens(s, j, k);
                    }
                }
                (Out::LoseToken, _) => {
                    let (q, u, cell) = parts(ch.obj.unwrap_or(0));
                    if let Some(j) = self.find(s, q, u, cell) {
                        let k = (ch.n.max(0) as u8).min(s.stacks[j].n);
                        s.fallen[usize::from(u)] = s.fallen[usize::from(u)].saturating_add(k);
                        self.take_tokens(s, j, k);
                    }
                }
                (Out::Mana, _) => s.mana[usize::from(p)] = s.mana[usize::from(p)].saturating_add(ch.n.max(0) as u32),
                (_, Some(until)) => {
                    // Movement gained during the movement phase counts at once.
                    if ch.out == Out::Movement {
                        let (q, u, cell) = parts(ch.obj.unwrap_or(0));
                        if let Some(j) = self.find(s, q, u, cell) {
                            for m in &mut s.stacks[j].mp {
                                *m = (i16::from(*m) + ch.n).clamp(0, 20) as u8;
                            }
                        }
                    }
                    // One lasting outcome per clause and target: it gives
                    // every outcome of its clause (+1 Attack and -1
                    // Initiative are one entry, not two).
                    if !given.contains(&(c, ch.obj)) {
                        given.push((c, ch.obj));
                        s.lasting.push(Lasting {
                            src,
                            clause: c,
                            obj: ch.obj,
                            until,
                        });
                    }
                }
                _ => {}
            }
        }
    }
}
