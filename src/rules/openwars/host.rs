//! The Open Wars answers to the effect interpreter ([`Host`]): timings,
//! conditions, targets and uses, for the [`Ctx`] of one moment.

use super::effects::{Cond, Ctx, Def, Out, Owv, Per, Res, When, Who, key, parts};
use super::state::State;
use super::tables::TYPES;
use crate::rules::kit::effects::{Host, Src, Written};

impl Host for Ctx<'_> {
    type V = Owv;
    type State = State;
    type Obj = u32;

    fn def(&self, src: &Src<u32>) -> &Def {
        &self.e.t.fx.defs[usize::from(src.card)]
    }

    fn card_id(&self, src: &Src<u32>) -> String {
        self.e.t.fx.names[usize::from(src.card)].clone()
    }

    fn open(&self, _s: &State, _src: &Src<u32>, when: When) -> bool {
        self.open & 1 << (when as u32) != 0
    }

    fn now(&self, s: &State) -> String {
        format!("the {} phase", s.phase.name())
    }

    fn holds(&self, s: &State, src: &Src<u32>, c: &Cond, obj: Option<u32>) -> bool {
        let e = self.e;
        let here = src.at.map(|k| parts(k).2).or(self.at);
        let unit = obj
            .map(parts)
            .filter(|(_, u, _)| *u != 0xFFFF)
            .map(|(_, u, _)| e.unit(u));
        let owner = src.owner;
        match c {
            Cond::Type(t) => unit.is_some_and(|u| u.ty == *t),
            Cond::NotType(t) => unit.is_some_and(|u| u.ty != *t),
            Cond::Faction(f) => unit.is_some_and(|u| e.t.factions[usize::from(u.faction)] == *f),
            Cond::NotFaction(f) => unit.is_some_and(|u| e.t.factions[usize::from(u.faction)] != *f),
            Cond::Ranged => unit.is_some_and(|u| u.range > 0),
            Cond::CostAtMost(n) => unit.is_some_and(|u| u.cost <= *n),
            Cond::AdjacentCity => here.is_some_and(|c| {
                owner < 2 && {
                    let m = e.map(s);
                    let ctrl = e.controlled(s, owner);
                    m.grid
                        .neighbours(c)
                        .iter()
                        .any(|&n| ctrl & (1 << n) != 0 && TYPES[usize::from(m.cells[usize::from(n)].ty)] == "city")
                }
            }),
            Cond::FirstControl => here.is_some_and(|c| s.held & (1 << c) == 0),
            Cond::OwnUnitType(t) => here.is_some_and(|c| {
                owner < 2
                    && s.stacks
                        .iter()
                        .any(|x| x.player == owner && x.cell == c && e.unit(x.unit).ty == *t)
            }),
            Cond::Adjacent => match (self.caster, self.at) {
                (Some(a), Some(b)) => e.map(s).grid.adjacent(a, b),
                _ => false,
            },
            Cond::SameLocation => self.caster.is_some() && self.caster == obj.map(|k| parts(k).2).or(self.at),
            // Of the clause: that a die is recorded (its face decides the
            // outcome, not whether the spell may be cast).
            Cond::Roll(_) if obj.is_none() => !self.roll.is_empty(),
            Cond::Roll(m) => {
                let die = obj
                    .and_then(|o| self.dice.iter().find(|(k, _)| *k == o).map(|d| d.1))
                    .or(self.roll.first().copied());
                die.is_some_and(|d| d <= 6 && m & 1 << d != 0)
            }
            Cond::HeldBefore => obj.is_some_and(|k| {
                let (p, _, c) = parts(k);
                s.holder.get(usize::from(c)) == Some(&p)
            }),
            Cond::Destroys => obj
                .and_then(|k| {
                    let (p, u, c) = parts(k);
                    e.find(s, p, u, c)
                })
                .is_some_and(|i| {
                    let x = &s.stacks[i];
                    e.modifier(s, Out::IgnoreHits, x) <= 0 && i16::from(x.n) <= self.hits
                }),
            Cond::BeforeCombat => s.phase != super::state::Phase::Combat,
            Cond::NotLast | Cond::Scored | Cond::Wounded | Cond::Struck => obj
                .and_then(|k| {
                    let (p, u, c) = parts(k);
                    e.find(s, p, u, c)
                })
                .is_some_and(|i| {
                    let x = &s.stacks[i];
                    match c {
                        Cond::NotLast => x.n > 1,
                        Cond::Scored => x.hits > 0,
                        Cond::Struck => x.struck,
                        _ => x.wounded,
                    }
                }),
        }
    }

    fn count(&self, _s: &State, _src: &Src<u32>, c: &Cond, _obj: Option<u32>) -> i16 {
        match c {
            Cond::Roll(m) => self.roll.iter().filter(|&&d| d <= 6 && m & 1 << d != 0).count() as i16,
            _ => 0,
        }
    }

    fn is(&self, s: &State, src: &Src<u32>, who: Who, k: u32) -> bool {
        let (p, u, c) = parts(k);
        let stack = u != 0xFFFF && s.stacks.iter().any(|x| x.player == p && x.unit == u && x.cell == c);
        let here = src.at.map(|a| parts(a).2).or(self.at);
        match who {
            Who::UnitHere => u != 0xFFFF && here == Some(c),
            Who::FriendlyUnit => {
                (stack || self.raise && u != 0xFFFF) && p == src.owner && self.at.is_none_or(|a| a == c)
            }
            Who::EnemyUnit => stack && p != src.owner && self.at.is_none_or(|a| a == c),
            Who::FriendlyUnits => stack && p == src.owner && here == Some(c),
            Who::EnemyUnits => stack && p != src.owner && here == Some(c),
            Who::Controller => u == 0xFFFF && p == src.owner,
            Who::Location => u == 0xFFFF && here == Some(c),
        }
    }

    fn candidates(&self, s: &State, src: &Src<u32>, who: Who) -> Vec<u32> {
        match who {
            Who::Controller => (src.owner < 2).then(|| key(src.owner, 0xFFFF, 0)).into_iter().collect(),
            Who::Location => self.at.map(|c| key(255, 0xFFFF, c)).into_iter().collect(),
            _ => s
                .stacks
                .iter()
                .map(|x| key(x.player, x.unit, x.cell))
                .filter(|&k| self.is(s, src, who, k))
                .collect(),
        }
    }

    fn cap(&self, _s: &State, _src: &Src<u32>, _out: Out, _obj: Option<u32>) -> Option<i16> {
        None
    }

    fn used(&self, s: &State, src: &Src<u32>, clause: u8, per: Per) -> u8 {
        s.uses.get(src.owner, src.card, clause, per)
    }

    fn afford(&self, _s: &State, _src: &Src<u32>, _res: Res, _n: i16) -> bool {
        true
    }

    /// Outcomes the engine checks through fields of their own (`cancels`,
    /// `path`, `attack`), not as recorded changes.
    fn recorded(&self, out: Out) -> bool {
        !matches!(
            out,
            Out::CancelSpell
                | Out::Move
                | Out::Teleport
                | Out::ExtraAttack
                | Out::Raise
                | Out::FreeSpell
                | Out::FreeEntry
        )
    }

    fn show(&self, s: &State, k: u32) -> String {
        let (p, u, c) = parts(k);
        if u == 0xFFFF {
            return self.e.cell_name(s, c).to_string();
        }
        if p < 2 && self.e.find(s, p, u, c).is_none() && self.e.find(s, 1 - p, u, c).is_some() {
            return format!(
                "{}'s {} in {} (not {}'s)",
                self.e.name(s, 1 - p),
                self.e.unit(u).id,
                self.e.cell_name(s, c),
                self.e.name(s, p)
            );
        }
        if self.e.find(s, p, u, c).is_none() {
            return format!(
                "{} in {}, where {} has none",
                self.e.unit(u).id,
                self.e.cell_name(s, c),
                self.e.name(s, p)
            );
        }
        format!(
            "{}'s {} in {}",
            self.e.name(s, p),
            self.e.unit(u).id,
            self.e.cell_name(s, c)
        )
    }

    /// A spell's outcome on a stack is written as the cast's `target:`; a
    /// location (a move, a teleport) in its `path:`.
    fn write(&self, s: &State, _src: &Src<u32>, _out: Out, obj: Option<u32>, _n: i16) -> Option<Written> {
        let (_, u, c) = parts(obj?);
        let (field, example) = if u == 0xFFFF {
            ("path", format!("path: [{}]", self.e.cell_name(s, c)))
        } else {
            ("target", format!("target: {}", self.e.unit(u).id))
        };
        Some(Written {
            field: format!("cast.{field}"),
            example,
        })
    }
}
