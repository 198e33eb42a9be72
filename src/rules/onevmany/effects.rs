//! Card effects in ONE v MANY: the words of the pack's effect vocabulary
//! the engine interprets, the sources in force (ONE's character and
//! upgrades, the unit types on the board, the round's scenario, the boss in
//! the boss round, MANY's upgrades) and the answers the interpreter asks
//! for ([`crate::rules::kit::effects`], docs/effects.md). Targets are
//! squares: ONE's, a MANY token's, or any square for terrain.

use super::OneVMany;
use super::state::{FREE, OBSTACLE, ONE, State, WALL, bit};
use super::tables::NONE;
use crate::model::effects::Arg;
use crate::rules::kit::effects::{self as fx, Change, Host, Src, Vocab, Word, Written};
use crate::words;

words! {
    pub enum When {
        Continuous = "continuous",
        RoundStart = "round-start",
        ManyPhaseStart = "many-phase-start",
        ManyPhaseEnd = "many-phase-end",
        OnePhaseEnd = "one-phase-end",
        OnKill = "on-kill",
        OnRemoval = "on-removal",
        Equipment = "equipment",
        Interaction = "interaction",
    }
}

words! {
    pub enum Who {
        One = "one",
        ManyToken = "many-token",
        ThisUnit = "this-unit",
        Square = "square",
    }
}

words! {
    pub enum Out {
        Actions = "actions",
        Range = "range",
        Damage = "damage",
        Life = "life",
        ObstacleExtra = "obstacle-extra",
        MaxRange = "max-range",
        IgnoreDarkness = "ignore-darkness",
        PassObstacles = "pass-obstacles",
        NoInteractions = "no-interactions",
        DamageTaken = "damage-taken",
        Survive = "survive",
        Heal = "heal",
        LoseLife = "lose-life",
        Obstacle = "obstacle",
        Wall = "wall",
        Remove = "remove",
        Step = "step",
        Swap = "swap",
        Reinforce = "reinforce",
    }
}

words! {
    pub enum Per { Turn = "turn", Round = "round", Game = "game" }
}

words! {
    pub enum Res { None = "none" }
}

words! {
    pub enum Until { EndOfPhase = "end-of-phase" }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Cond {
    FirstTurn,
    NotMoved,
    RangeAtMost(i8),
    RangeAtLeast(i8),
    Unit(String),
    Adjacent,
    NextToOne,
    OthersNextToOne(u8),
    ManyNextToOne(u8),
    DistanceAtLeast(i8),
    On(String),
    Named(Vec<String>),
    Free,
    Obstacle,
    Wall,
    NextToObstacle,
    LineTwo,
    BehindObstacle,
    NoAttack,
    RemovedType,
}

#[derive(Clone, Debug)]
pub struct Ov;

impl Vocab for Ov {
    crate::vocab_types!();

    fn cond(name: &str, arg: &Arg) -> Option<Cond> {
        let n = |a: &Arg| a.as_int().map(|x| x.clamp(0, 100) as i8);
        Some(match (name, arg) {
            ("first-turn", Arg::None) => Cond::FirstTurn,
            ("not-moved", Arg::None) => Cond::NotMoved,
            ("range-at-most", a) => Cond::RangeAtMost(n(a)?),
            ("range-at-least", a) => Cond::RangeAtLeast(n(a)?),
            ("unit", Arg::Word(w)) => Cond::Unit(w.clone()),
            ("adjacent", Arg::None) => Cond::Adjacent,
            ("next-to-one", Arg::None) => Cond::NextToOne,
            ("others-next-to-one", a) => Cond::OthersNextToOne(n(a)? as u8),
            ("many-next-to-one", a) => Cond::ManyNextToOne(n(a)? as u8),
            ("distance-at-least", a) => Cond::DistanceAtLeast(n(a)?),
            ("on", Arg::Word(w)) => Cond::On(w.clone()),
            ("named", Arg::Words(w)) => Cond::Named(w.clone()),
            ("named", Arg::Word(w)) => Cond::Named(vec![w.clone()]),
            ("free", Arg::None) => Cond::Free,
            ("obstacle", Arg::None) => Cond::Obstacle,
            ("wall", Arg::None) => Cond::Wall,
            ("next-to-obstacle", Arg::None) => Cond::NextToObstacle,
            ("line-two", Arg::None) => Cond::LineTwo,
            ("behind-obstacle", Arg::None) => Cond::BehindObstacle,
            ("no-attack", Arg::None) => Cond::NoAttack,
            ("removed-type", Arg::None) => Cond::RemovedType,
            _ => return None,
        })
    }

    fn show(c: &Cond) -> String {
        match c {
            Cond::FirstTurn => "on turn 1 of the round".into(),
            Cond::NotMoved => "that has not moved in this activation".into(),
            Cond::RangeAtMost(n) => format!("with card range at most {n}"),
            Cond::RangeAtLeast(n) => format!("with card range {n} or more"),
            Cond::Unit(u) => format!("a {u}"),
            Cond::Adjacent => "next to the acting token".into(),
            Cond::NextToOne => "next to ONE".into(),
            Cond::OthersNextToOne(n) => format!("with at least {n} other MANY token(s) next to ONE"),
            Cond::ManyNextToOne(n) => format!("with at least {n} MANY tokens next to ONE"),
            Cond::DistanceAtLeast(n) => format!("attacking at {n} squares or more"),
            Cond::On(q) => format!("with ONE on {q}"),
            Cond::Named(q) => format!("on {}", q.join(" or ")),
            Cond::Free => "free of tokens and terrain".into(),
            Cond::Obstacle => "with an obstacle".into(),
            Cond::Wall => "with a wall".into(),
            Cond::NextToObstacle => "next to an obstacle".into(),
            Cond::LineTwo => "two squares away in a straight line".into(),
            Cond::BehindObstacle => "past an obstacle next to ONE".into(),
            Cond::NoAttack => "after a phase without an attack".into(),
            Cond::RemovedType => "of the type just removed".into(),
        }
    }
}

pub type Def = fx::Def<Ov>;
pub type Ch = Change<Out, u8>;
pub type Uses = fx::Uses<Per>;

/// One moment for the interpreter: the timings open, and the square an
/// attack aims at (for distance conditions).
pub struct Ctx<'a> {
    pub e: &'a OneVMany,
    pub open: u32,
    pub target: Option<u8>,
    /// The unit type a reinforcement brings.
    pub unit: Option<u8>,
}

pub fn bit_of(w: When) -> u32 {
    1 << (w as u32)
}

impl<'a> Ctx<'a> {
    pub fn new(e: &'a OneVMany, open: &[When]) -> Self {
        Ctx {
            e,
            open: open.iter().fold(0, |b, w| b | bit_of(*w)),
            target: None,
            unit: None,
        }
    }
}

/// Side of a source: ONE's cards or MANY's.
pub const ONE_SIDE: u8 = 0;
pub const MANY_SIDE: u8 = 1;

impl OneVMany {
    /// The effects in force now.
    pub(super) fn sources(&self, s: &State) -> Vec<Src<u8>> {
        let f = &self.t.fx;
        let mut out = Vec::with_capacity(12);
        let mut push = |d: Option<u16>, owner: u8, at: Option<u8>| {
            if let Some(card) = d {
                out.push(Src { card, owner, at });
            }
        };
        push(
            f.characters[s.character as usize],
            ONE_SIDE,
            (s.one_sq != NONE).then_some(s.one_sq),
        );
        for k in s.tokens.iter().filter(|k| k.sq != NONE) {
            push(f.units[k.ty as usize], MANY_SIDE, Some(k.sq));
        }
        if s.scenario != NONE {
            push(f.scenarios[s.scenario as usize], MANY_SIDE, None);
        }
        if s.round >= self.t.boss_round {
            push(f.bosses[s.boss as usize], MANY_SIDE, None);
        }
        for i in 0..self.t.one_upgrades.len() {
            if s.one_owned & bit(i as u8) != 0 {
                push(f.one_upgrades[i], ONE_SIDE, None);
            }
        }
        for i in 0..self.t.many_upgrades.len() {
            if s.many_owned & bit(i as u8) != 0 {
                push(f.many_upgrades[i], MANY_SIDE, None);
            }
        }
        out
    }

    /// A continuous modifier of `out` for the token on `sq`, `target` the
    /// square it attacks (if any).
    pub(super) fn modifier(&self, s: &State, out: Out, sq: Option<u8>, target: Option<u8>) -> i16 {
        let mut ctx = Ctx::new(self, &[When::Continuous]);
        ctx.target = target;
        fx::modifier(&ctx, s, &self.sources(s), &[], When::Continuous, out, sq)
    }

    /// A continuous modifier of `out` that MANY's cards give every unit
    /// (for a token not on the board yet).
    pub(super) fn many_modifier(&self, s: &State, out: Out) -> i16 {
        let ctx = Ctx::new(self, &[When::Continuous]);
        let mut srcs = self.sources(s);
        srcs.retain(|x| x.owner == MANY_SIDE);
        fx::modifier(&ctx, s, &srcs, &[], When::Continuous, out, None)
    }

    /// Whether a continuous `out` applies to the token on `sq`, and the
    /// card it comes from.
    pub(super) fn has(&self, s: &State, out: Out, sq: Option<u8>) -> Option<String> {
        let ctx = Ctx::new(self, &[When::Continuous]);
        fx::modifiers(&ctx, s, &self.sources(s), &[], When::Continuous, out, sq)
            .first()
            .map(|(src, _, _)| ctx.card_id(src))
    }

    /// Counts the uses of limited continuous clauses of `out` that applied.
    pub(super) fn count_uses(&self, s: &mut State, out: Out, sq: Option<u8>) {
        let ctx = Ctx::new(self, &[When::Continuous]);
        let parts = fx::modifiers(&ctx, s, &self.sources(s), &[], When::Continuous, out, sq);
        for (src, clause, _) in parts {
            if let Some((per, _)) = self.t.fx.defs[usize::from(src.card)].clauses[usize::from(clause)].limit {
                s.uses.add(src.owner, src.card, clause, per);
            }
        }
    }

    fn adjacent_to_one(&self, s: &State, sq: u8) -> bool {
        s.one_sq != NONE && self.t.adjacent(s.one_sq, sq)
    }

    fn many_next_to_one(&self, s: &State) -> u8 {
        if s.one_sq == NONE {
            return 0;
        }
        s.tokens
            .iter()
            .filter(|k| k.sq != NONE && self.t.adjacent(s.one_sq, k.sq))
            .count() as u8
    }

    /// The square two steps from `from` through `via`, in line.
    pub(super) fn beyond(&self, from: u8, via: u8) -> Option<u8> {
        let (fx, fy) = self.t.board.coordinates(from);
        let (vx, vy) = self.t.board.coordinates(via);
        self.t.board.at((2 * vx - fx, 2 * vy - fy))
    }
}

impl Host for Ctx<'_> {
    type V = Ov;
    type State = State;
    type Obj = u8;

    fn def(&self, src: &Src<u8>) -> &Def {
        &self.e.t.fx.defs[usize::from(src.card)]
    }

    fn card_id(&self, src: &Src<u8>) -> String {
        self.e.t.fx.names[usize::from(src.card)].clone()
    }

    fn open(&self, _s: &State, _src: &Src<u8>, when: When) -> bool {
        self.open & bit_of(when) != 0
    }

    fn now(&self, s: &State) -> String {
        let open: Vec<&str> = When::ALL
            .iter()
            .filter(|(_, w)| self.open & bit_of(*w) != 0)
            .map(|(n, _)| *n)
            .collect();
        format!(
            "round {}, turn {}, the {} phase{}",
            s.round,
            s.turn,
            s.phase.name(),
            if open.is_empty() {
                String::new()
            } else {
                format!(" ({})", open.join(", "))
            }
        )
    }

    fn holds(&self, s: &State, src: &Src<u8>, c: &Cond, obj: Option<u8>) -> bool {
        let e = self.e;
        let o = obj.or(src.at);
        let token = |q: u8| e.token_at(s, q).map(|k| s.tokens[k]);
        let actor = e.actor_square(s);
        match c {
            Cond::FirstTurn => s.turn == 1,
            Cond::NotMoved => !s.moved,
            Cond::RangeAtMost(n) => o.and_then(token).is_some_and(|k| e.t.units[k.ty as usize].range <= *n),
            Cond::RangeAtLeast(n) => o.and_then(token).is_some_and(|k| e.t.units[k.ty as usize].range >= *n),
            Cond::Unit(u) => match (o.and_then(token), self.unit) {
                (Some(k), _) => e.t.units[k.ty as usize].id == *u,
                (None, Some(t)) => e.t.units[t as usize].id == *u,
                // No token or unit named yet: one of that type is in reserve.
                (None, None) => e.t.unit(u).is_some_and(|t| e.reserve_left(s, t) > 0),
            },
            Cond::Adjacent => o.is_some_and(|q| actor != NONE && e.t.adjacent(actor, q)),
            Cond::NextToOne => o.is_some_and(|q| e.adjacent_to_one(s, q)),
            Cond::OthersNextToOne(n) => {
                let here = u8::from(o.is_some_and(|q| e.adjacent_to_one(s, q)));
                e.many_next_to_one(s).saturating_sub(here) >= *n
            }
            Cond::ManyNextToOne(n) => e.many_next_to_one(s) >= *n,
            Cond::DistanceAtLeast(n) => match self.target {
                Some(t) if s.one_sq != NONE => e.t.line_distance(s.one_sq, t).is_some_and(|d| d >= *n),
                _ => false,
            },
            Cond::On(q) => e.t.square(q).is_some_and(|q| q == s.one_sq),
            Cond::Named(list) => o.is_some_and(|q| list.iter().any(|x| e.t.square(x) == Some(q))),
            Cond::Free => o.is_some_and(|q| s.occ[q as usize] == FREE && s.terrain[q as usize] == 0),
            Cond::Obstacle => o.is_some_and(|q| s.terrain[q as usize] == OBSTACLE),
            Cond::Wall => o.is_some_and(|q| s.terrain[q as usize] == WALL),
            Cond::NextToObstacle => o.is_some_and(|q| {
                e.t.board
                    .neighbours(q)
                    .iter()
                    .any(|&n| s.terrain[n as usize] == OBSTACLE)
            }),
            Cond::LineTwo => o.is_some_and(|q| {
                let one = s.one_sq;
                one != NONE
                    && e.t.line_distance(one, q) == Some(2)
                    && e.t.board.neighbours(one).iter().any(|&m| {
                        e.t.adjacent(m, q)
                            && e.beyond(one, m) == Some(q)
                            && s.terrain[m as usize] != WALL
                            && s.occ[m as usize] == FREE
                    })
                    && s.occ[q as usize] == FREE
                    && s.terrain[q as usize] != WALL
            }),
            Cond::BehindObstacle => o.is_some_and(|q| {
                let one = s.one_sq;
                one != NONE
                    && s.occ[q as usize] == FREE
                    && s.terrain[q as usize] == 0
                    && e.t
                        .board
                        .neighbours(one)
                        .iter()
                        .any(|&m| s.terrain[m as usize] == OBSTACLE && e.beyond(one, m) == Some(q))
            }),
            Cond::NoAttack => !s.one_attacked,
            Cond::RemovedType => s.removed.is_some_and(|(t, _)| self.unit.is_none_or(|u| u == t)),
        }
    }

    fn count(&self, _s: &State, _src: &Src<u8>, _c: &Cond, _obj: Option<u8>) -> i16 {
        0
    }

    fn is(&self, s: &State, src: &Src<u8>, who: Who, q: u8) -> bool {
        match who {
            Who::One => s.occ[q as usize] == ONE,
            Who::ManyToken => s.occ[q as usize] >= 2,
            Who::ThisUnit => Some(q) == src.at && s.occ[q as usize] >= 2,
            Who::Square => (q as usize) < self.e.t.board.len(),
        }
    }

    fn candidates(&self, s: &State, src: &Src<u8>, who: Who) -> Vec<u8> {
        match who {
            Who::One => (s.one_sq != NONE).then_some(s.one_sq).into_iter().collect(),
            Who::ManyToken => s.tokens.iter().filter(|k| k.sq != NONE).map(|k| k.sq).collect(),
            Who::ThisUnit => src.at.into_iter().collect(),
            Who::Square => (0..self.e.t.board.len() as u8).collect(),
        }
    }

    fn cap(&self, s: &State, _src: &Src<u8>, out: Out, obj: Option<u8>) -> Option<i16> {
        let q = obj?;
        match out {
            Out::Heal => Some(match s.occ[q as usize] {
                ONE => i16::from(s.one_max - s.one_life).max(0),
                FREE => 0,
                o => {
                    let k = s.tokens[(o - 2) as usize];
                    i16::from(self.e.many_max_life(s, k.ty) - k.life).max(0)
                }
            }),
            Out::LoseLife => (s.occ[q as usize] == FREE).then_some(0),
            Out::Reinforce => {
                // Before the round's scenario is revealed there is no spawn square.
                let Some(sc) = self.e.t.scenarios.get(usize::from(s.scenario)) else {
                    return Some(0);
                };
                let spot = sc.spawn.contains(&q) && s.occ[q as usize] == FREE && s.terrain[q as usize] == 0;
                let reserve = (0..self.e.t.units.len() as u8)
                    .any(|t| self.unit.is_none_or(|u| u == t) && self.e.reserve_left(s, t) > 0);
                Some(i16::from(spot && reserve))
            }
            _ => None,
        }
    }

    fn used(&self, s: &State, src: &Src<u8>, clause: u8, per: Per) -> u8 {
        s.uses.get(src.owner, src.card, clause, per)
    }

    fn afford(&self, _s: &State, _src: &Src<u8>, _res: Res, _n: i16) -> bool {
        true
    }

    fn show(&self, s: &State, q: u8) -> String {
        format!("{} ({})", self.e.t.name(q), self.e.describe(s, q))
    }

    fn recorded(&self, out: Out) -> bool {
        out != Out::IgnoreDarkness
    }

    fn write(&self, _s: &State, src: &Src<u8>, out: Out, obj: Option<u8>, n: i16) -> Option<Written> {
        let sq = obj.map_or("D4", |q| self.e.t.name(q));
        let (field, example) = match out {
            Out::Actions => ("effect.actions", format!("effect: {{actions: {n}}}")),
            Out::Range => ("effect.range", format!("effect: {{range: {n}}}")),
            Out::Damage => ("effect.damage", format!("effect: {{damage: {n}}}")),
            Out::PassObstacles => ("effect.climb", "effect: {climb: true}".to_owned()),
            Out::Heal => ("effect.life", format!("effect: {{life: {{{sq}: {n}}}}}")),
            Out::LoseLife => ("effect.life", format!("effect: {{life: {{{sq}: -{n}}}}}")),
            Out::Remove => ("effect.remove", format!("effect: {{remove: [{sq}]}}")),
            Out::Obstacle => ("effect.obstacle", format!("effect: {{obstacle: [{sq}]}}")),
            Out::Wall => ("effect.wall", format!("effect: {{wall: [{sq}]}}")),
            Out::Step => ("effect.to", format!("effect: {{to: {sq}}}")),
            Out::Swap => ("effect.swap", format!("effect: {{swap: {sq}}}")),
            Out::Reinforce => {
                let unit = self
                    .unit
                    .and_then(|u| self.e.t.units.get(usize::from(u)))
                    .or_else(|| self.e.t.units.first())
                    .map_or("esbirro", |u| u.id.as_str());
                (
                    "reinforce",
                    format!(
                        "{{do: reinforce, unit: {unit}, square: {sq}, by: {}}}",
                        self.card_id(src)
                    ),
                )
            }
            _ => return None,
        };
        Some(Written {
            field: field.into(),
            example,
        })
    }
}
