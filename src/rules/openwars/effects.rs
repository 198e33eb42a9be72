//! Card effects in Open Wars: location features and spells, in the words
//! of the pack's effect vocabulary ([`crate::rules::kit::effects`],
//! docs/effects.md). Sources in force are the features of the map's
//! locations; spells leave lasting outcomes on the stacks they target.
//! Targets are stacks, named by (player, unit, location); a location or a
//! controller is a target with no unit.

use super::OpenWars;
use super::state::{Stack, State};
use super::tables::TYPES;
use crate::model::effects::Arg;
use crate::rules::kit::effects::{self as fx, Host, Src, Vocab};
use crate::words;

words! {
    pub enum When {
        Continuous = "continuous",
        Collection = "collection",
        OnEnter = "on-enter",
        CombatStart = "combat-start",
        Cast = "cast",
    }
}

words! {
    pub enum Who {
        UnitHere = "unit-here",
        FriendlyUnit = "friendly-unit",
        EnemyUnit = "enemy-unit",
        FriendlyUnits = "friendly-units",
        EnemyUnits = "enemy-units",
        Controller = "controller",
        Location = "location",
    }
}

words! {
    pub enum Out {
        Initiative = "initiative",
        Attack = "attack",
        Range = "range",
        Movement = "movement",
        Gold = "gold",
        Mana = "mana",
        RecruitCost = "recruit-cost",
        ManaCost = "mana-cost",
        NoRangedTarget = "no-ranged-target",
        Stop = "stop",
        IgnoreHits = "ignore-hits",
        MaxHits = "max-hits",
        Hits = "hits",
        LoseToken = "lose-token",
        Move = "move",
        Teleport = "teleport",
        ExtraAttack = "extra-attack",
        Raise = "raise",
        FreeSpell = "free-spell",
        CancelSpell = "cancel-spell",
        NoMove = "no-move",
        NoPush = "no-push",
        StripBonuses = "strip-bonuses",
        FreeEntry = "free-entry",
        Return = "return",
    }
}

words! {
    pub enum Per { Turn = "turn", Game = "game", Combat = "combat" }
}

words! {
    pub enum Res { None = "none" }
}

words! {
    pub enum Until { EndOfTurn = "end-of-turn", ThisCombat = "this-combat" }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Cond {
    Type(u8),
    NotType(u8),
    Faction(String),
    NotFaction(String),
    Ranged,
    AdjacentCity,
    FirstControl,
    OwnUnitType(u8),
    Adjacent,
    SameLocation,
    CostAtMost(u8),
    /// The die recorded for the target (or the cast) shows one of these
    /// faces (bit n = face n).
    Roll(u8),
    /// The target's player held the location before the combat began.
    HeldBefore,
    /// The cast's hits destroy the target stack.
    Destroys,
    /// The target stack has more than one token.
    NotLast,
    /// The target stack scored a hit this turn.
    Scored,
    /// The target stack lost a token in combat this turn.
    Wounded,
    /// The target stack was attacked this turn.
    Struck,
    /// Before the combat phase of the turn.
    BeforeCombat,
}

#[derive(Clone, Debug)]
pub struct Owv;

impl Vocab for Owv {
    crate::vocab_types!();

    fn cond(name: &str, arg: &Arg) -> Option<Cond> {
        let ty = |a: &Arg| {
            a.as_word()
                .and_then(|w| TYPES.iter().position(|t| *t == w))
                .map(|i| i as u8)
        };
        Some(match (name, arg) {
            ("type", a) => Cond::Type(ty(a)?),
            ("not-type", a) => Cond::NotType(ty(a)?),
            ("faction", Arg::Word(w)) => Cond::Faction(w.clone()),
            ("not-faction", Arg::Word(w)) => Cond::NotFaction(w.clone()),
            ("ranged", Arg::None) => Cond::Ranged,
            ("adjacent-city", Arg::None) => Cond::AdjacentCity,
            ("first-control", Arg::None) => Cond::FirstControl,
            ("own-unit-type", a) => Cond::OwnUnitType(ty(a)?),
            ("adjacent", Arg::None) => Cond::Adjacent,
            ("same-location", Arg::None) => Cond::SameLocation,
            ("cost-at-most", Arg::Int(n)) => Cond::CostAtMost((*n).clamp(0, 255) as u8),
            ("roll", a) => Cond::Roll(faces(a)?),
            ("held-before", Arg::None) => Cond::HeldBefore,
            ("destroys", Arg::None) => Cond::Destroys,
            ("not-last", Arg::None) => Cond::NotLast,
            ("scored", Arg::None) => Cond::Scored,
            ("wounded", Arg::None) => Cond::Wounded,
            ("struck", Arg::None) => Cond::Struck,
            ("before-combat", Arg::None) => Cond::BeforeCombat,
            _ => return None,
        })
    }

    fn show(c: &Cond) -> String {
        match c {
            Cond::Type(t) => format!("a {} unit", TYPES[usize::from(*t)]),
            Cond::NotType(t) => format!("not a {} unit", TYPES[usize::from(*t)]),
            Cond::Faction(f) => format!("of the {f}"),
            Cond::NotFaction(f) => format!("not of the {f}"),
            Cond::Ranged => "a ranged unit".into(),
            Cond::AdjacentCity => "with an adjacent city of the controller".into(),
            Cond::FirstControl => "controlled for the first time".into(),
            Cond::OwnUnitType(t) => format!("holding a {} unit of the controller", TYPES[usize::from(*t)]),
            Cond::Adjacent => "in a location next to the caster's".into(),
            Cond::SameLocation => "in the caster's location".into(),
            Cond::CostAtMost(n) => format!("costing at most {n}"),
            Cond::Roll(m) => format!(
                "on a die showing {}",
                (1..=6)
                    .filter(|f| m & 1 << f != 0)
                    .map(|f| f.to_string())
                    .collect::<Vec<_>>()
                    .join(" or ")
            ),
            Cond::HeldBefore => "of the side that held the location before the combat".into(),
            Cond::Destroys => "destroyed by the hits".into(),
            Cond::NotLast => "with more than one token".into(),
            Cond::Scored => "that scored a hit this turn".into(),
            Cond::Wounded => "that lost a token in combat this turn".into(),
            Cond::Struck => "that was attacked this turn".into(),
            Cond::BeforeCombat => "before the combat phase".into(),
        }
    }
}

/// Die faces as bits (bit n = face n): `roll: [5, 6]`.
fn faces(a: &Arg) -> Option<u8> {
    let list = match a {
        Arg::Int(n) => vec![*n],
        Arg::Ints(v) => v.clone(),
        _ => return None,
    };
    list.iter()
        .try_fold(0u8, |m, &f| (1..=6).contains(&f).then_some(m | 1 << f))
}

pub type Def = fx::Def<Owv>;
pub type Lasting = fx::Lasting<u32, Until>;
pub type Uses = fx::Uses<Per>;

/// A stack as a target: player, unit, location.
pub fn key(player: u8, unit: u16, cell: u8) -> u32 {
    u32::from(player) << 24 | u32::from(unit) << 8 | u32::from(cell)
}

pub(super) fn parts(k: u32) -> (u8, u16, u8) {
    ((k >> 24) as u8, (k >> 8) as u16, k as u8)
}

/// One moment for the interpreter: the timings open, the caster's
/// location, the location a spell targets.
pub struct Ctx<'a> {
    pub e: &'a OpenWars,
    pub open: u32,
    pub caster: Option<u8>,
    pub at: Option<u8>,
    /// The single die (or dice) recorded for the outcome.
    pub roll: Vec<u8>,
    /// One die per target stack.
    pub dice: Vec<(u32, u8)>,
    /// The hits a cast deals its target (for `destroys`).
    pub hits: i16,
    /// A spell that brings a unit back: its target is not on the map.
    pub raise: bool,
}

impl<'a> Ctx<'a> {
    pub fn new(e: &'a OpenWars, open: &[When]) -> Self {
        Ctx {
            e,
            open: open.iter().fold(0, |b, w| b | 1 << (*w as u32)),
            caster: None,
            at: None,
            roll: Vec::new(),
            dice: Vec::new(),
            hits: 0,
            raise: false,
        }
    }
}

impl OpenWars {
    /// The features in force: one source per map cell with a feature, its
    /// owner the cell's controller (or nobody: 255).
    pub(super) fn sources(&self, s: &State) -> Vec<Src<u32>> {
        let m = self.map(s);
        let ctrl = [self.controlled(s, 0), self.controlled(s, 1)];
        m.cells
            .iter()
            .enumerate()
            .filter_map(|(i, c)| {
                let owner = (0..2).find(|&p| ctrl[p] & (1 << i) != 0).map_or(255, |p| p as u8);
                c.effect.map(|card| Src {
                    card,
                    owner,
                    at: Some(key(owner, 0xFFFF, i as u8)),
                })
            })
            .collect()
    }

    /// The features in force with a continuous modifier of `out` (most
    /// maps have none for most values: asked for every stack compared, the
    /// answer then costs no allocation).
    pub(super) fn sources_giving(&self, s: &State, out: Out) -> Vec<Src<u32>> {
        let bit = super::tables::Fx::bit(out);
        let fx = &self.t.fx;
        let mut found = Vec::new();
        let mut occ = None;
        for (i, c) in self.map(s).cells.iter().enumerate() {
            let Some(card) = c.effect else { continue };
            if fx.continuous[usize::from(card)] & bit == 0 {
                continue;
            }
            let [a, b] = *occ.get_or_insert_with(|| self.occupancy(s));
            let owner = if (a & !b) & (1 << i) != 0 {
                0
            } else if (b & !a) & (1 << i) != 0 {
                1
            } else {
                255
            };
            found.push(Src {
                card,
                owner,
                at: Some(key(owner, 0xFFFF, i as u8)),
            });
        }
        found
    }

    /// A modifier of `out` for stack `x` (features and lasting spells).
    pub(super) fn modifier(&self, s: &State, out: Out, x: &Stack) -> i16 {
        // A purifying strike leaves the next attack with no bonus.
        if matches!(out, Out::Attack | Out::Range) && self.stripped(s, x) {
            return 0;
        }
        // The sum of the parts the refusals name (saturating, as fx::modifier adds).
        self.modifier_parts(s, out, x)
            .iter()
            .fold(0i16, |t, (_, n)| t.saturating_add(*n))
    }

    /// A stack's initiative key (initiative with its modifiers, class, cost).
    pub(super) fn key_of(&self, s: &State, x: &Stack) -> u32 {
        let u = self.unit(x.unit);
        let init = (i16::from(u.initiative) + self.modifier(s, Out::Initiative, x)).clamp(0, 99) as u32;
        init * 10_000 + u32::from(u.class()) * 100 + u32::from(u.cost)
    }

    /// A stack's attack (a reduction never below 1).
    pub(super) fn attack_of(&self, s: &State, x: &Stack) -> u8 {
        let m = self.modifier(s, Out::Attack, x);
        let a = i16::from(self.unit(x.unit).attack) + m;
        (if m < 0 { a.max(1) } else { a }).clamp(0, 6) as u8
    }

    /// A stack's range.
    pub(super) fn range_of(&self, s: &State, x: &Stack) -> u8 {
        let r = self.unit(x.unit).range;
        if r == 0 {
            return 0;
        }
        (i16::from(r) + self.modifier(s, Out::Range, x)).clamp(0, 20) as u8
    }

    /// The casualties an attack of `hits` hits deals player `foe` in `t`:
    /// the first hits its stacks ignore (shields) are taken off, and a
    /// stack that takes at most 1 hit per attack caps its losses. Returns
    /// the casualties due, the hits ignored, and the cap per unit.
    pub(super) fn after_shields(&self, s: &State, foe: u8, t: u8, hits: u32) -> (u32, u32, Vec<(u16, u8)>) {
        let mut ignored = 0i16;
        let mut caps = Vec::new();
        for y in s.stacks.iter().filter(|y| y.player == foe && y.cell == t) {
            ignored += self.modifier(s, Out::IgnoreHits, y).max(0);
            let cap = if self.modifier(s, Out::MaxHits, y) > 0 {
                y.n.min(1)
            } else {
                y.n
            };
            caps.push((y.unit, cap));
        }
        ignored += self.side_shields(s, foe, t).max(0);
        let ignored = (ignored as u32).min(hits);
        let most: u32 = caps.iter().map(|(_, c)| u32::from(*c)).sum();
        ((hits - ignored).min(most), ignored, caps)
    }

    /// The cards whose shields protect `foe`'s stacks in `t` now.
    pub(super) fn shields(&self, s: &State, foe: u8, t: u8) -> Vec<String> {
        let ctx = Ctx::new(self, &[When::Continuous]);
        let mut names: Vec<String> = Vec::new();
        for l in &s.lasting {
            let (p, _, c) = parts(l.obj.unwrap_or(0));
            let shield = ctx
                .def(&l.src)
                .clauses
                .get(usize::from(l.clause))
                .is_some_and(|c| c.amount(Out::IgnoreHits).is_some());
            let name = format!("`{}`", ctx.card_id(&l.src));
            if shield && p == foe && c == t && !names.contains(&name) {
                names.push(name);
            }
        }
        names
    }

    /// Uses up the shields of `foe`'s stacks in `t` that ignored `n` hits.
    pub(super) fn spend_shields(&self, s: &mut State, foe: u8, t: u8, mut n: u32) {
        let ctx = Ctx::new(self, &[When::Continuous]);
        s.lasting.retain(|l| {
            let (p, _, c) = parts(l.obj.unwrap_or(0));
            let shield = ctx
                .def(&l.src)
                .clauses
                .get(usize::from(l.clause))
                .is_some_and(|c| c.amount(Out::IgnoreHits).is_some());
            if n > 0 && shield && p == foe && c == t {
                n -= 1;
                false
            } else {
                true
            }
        });
    }

    /// What the collection features of `p`'s locations add: gold, mana,
    /// and the cards that give it.
    pub(super) fn collection_bonus(&self, s: &State, p: u8) -> (u32, u32, Vec<String>) {
        let ctrl = self.controlled(s, p);
        let ctx = Ctx::new(self, &[When::Collection]);
        let (mut g, mut n, mut by) = (0u32, 0u32, Vec::new());
        for c in 0..self.map(s).cells.len() as u8 {
            if ctrl & (1 << c) == 0 {
                continue;
            }
            for (src, _, ch) in self.fire_at(s, When::Collection, c, None) {
                match ch.out {
                    Out::Gold => g += ch.n.max(0) as u32,
                    Out::Mana => n += ch.n.max(0) as u32,
                    _ => continue,
                }
                by.push(ctx.card_id(&src));
            }
        }
        (g, n, by)
    }

    /// After `p` collects: limited collection bonuses are used, and the
    /// locations count as held.
    pub(super) fn count_collection(&self, s: &mut State, p: u8) {
        let ctrl = self.controlled(s, p);
        for c in 0..self.map(s).cells.len() as u8 {
            if ctrl & (1 << c) == 0 {
                continue;
            }
            for (src, clause, _) in self.fire_at(s, When::Collection, c, None) {
                if let Some((per, _)) = self.t.fx.defs[usize::from(src.card)].clauses[usize::from(clause)].limit {
                    s.uses.add(src.owner, src.card, clause, per);
                }
            }
        }
        s.held |= ctrl;
    }

    /// The gold one token of `u` costs to recruit in `c` for `p`.
    pub(super) fn recruit_cost(&self, s: &State, p: u8, u: u16, c: u8) -> u32 {
        let x = Stack::new(p, u, c, 1);
        let m = self.modifier(s, Out::RecruitCost, &x);
        let cost = i16::from(self.unit(u).cost);
        (if m < 0 { (cost + m).max(1) } else { cost + m }).max(0) as u32
    }

    /// The mana `spell` costs a caster of `u` in `c` for `p`.
    pub(super) fn spell_cost(&self, s: &State, p: u8, u: u16, c: u8, base: u8) -> u32 {
        let x = Stack::new(p, u, c, 1);
        if self.free_spell(s, p).is_some() {
            return 0;
        }
        let m = self.modifier(s, Out::ManaCost, &x);
        (if m < 0 {
            (i16::from(base) + m).max(1)
        } else {
            i16::from(base) + m
        })
        .max(0) as u32
    }

    /// Whether a feature of location `c` forbids ranged targets there.
    pub(super) fn no_ranged_target(&self, s: &State, c: u8) -> Option<String> {
        let card = self.map(s).cells.get(usize::from(c))?.effect?;
        if self.t.fx.continuous[usize::from(card)] & super::tables::Fx::bit(Out::NoRangedTarget) == 0 {
            return None;
        }
        let ctx = Ctx::new(self, &[When::Continuous]);
        self.feature_at(s, c)
            .filter(|x| fx::modifier(&ctx, s, &[*x], &[], When::Continuous, Out::NoRangedTarget, None) > 0)
            .map(|x| ctx.card_id(&x))
    }

    /// The automatic outcomes of the features of location `c` at `when`
    /// for stack `x` (or the location's controller).
    pub(super) fn fire_at(
        &self,
        s: &State,
        when: When,
        c: u8,
        x: Option<&Stack>,
    ) -> Vec<(Src<u32>, u8, fx::Change<Out, u32>)> {
        let ctx = Ctx::new(self, &[when]);
        let Some(src) = self.feature_at(s, c) else {
            return Vec::new();
        };
        fx::fire(&ctx, s, &[src], when, x.map(|x| key(x.player, x.unit, x.cell)))
    }
}
