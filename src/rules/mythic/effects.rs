//! Effects in Mythic Battles: talents, powers, troop bonuses, terrain,
//! manoeuvres and cards in the words of the pack's effect vocabulary
//! ([`crate::rules::kit::effects`], docs/effects.md).
//!
//! Sources in force: a unit's talents (while they work: a troop only when
//! complete, nobody's in water), its troop bonuses and its powers, and the
//! terrain of every area. Targets are units (their slot) or areas
//! ([`AREA`] + index). An attack under way is the context of the `attack`
//! and `defend` timings and of the attack's conditions (melee, ranged …).

use super::Mythic;
use super::state::{State, Unit};
use super::tables::{Cat, MAXA};
use crate::model::effects::Arg;
use crate::rules::kit::effects::{self as fx, Host, Src, Vocab};
use crate::words;

words! {
    pub enum When {
        Continuous = "continuous",
        Attack = "attack",
        Defend = "defend",
        OnEnter = "on-enter",
        TurnEnd = "turn-end",
        Activation = "activation",
        AnyTime = "any-time",
        SpecialAttack = "special-attack",
        Counter = "counter",
        Maneuver = "maneuver",
        OnKill = "on-kill",
        EnemyActivationEnd = "enemy-activation-end",
        ActivationEnd = "activation-end",
    }
}

words! {
    pub enum Who {
        Itself = "self",
        FriendlyUnit = "friendly-unit",
        EnemyUnit = "enemy-unit",
        AnyUnit = "unit",
        UnitHere = "unit-here",
    }
}

words! {
    pub enum Out {
        Attack = "attack",
        Defense = "defense",
        Range = "range",
        TargetDefense = "target-defense",
        IgnoreSight = "ignore-sight",
        BlanksCount = "blanks-count",
        Wounds = "wounds",
        Regain = "regain",
        Reach = "reach",
        NoSight = "no-sight",
        PowerDice = "power-dice",
        Attacks = "attacks",
        Activations = "activations",
        Climb = "climb",
        NoEntry = "no-entry",
        NoMove = "no-move",
        NoPickUp = "no-pick-up",
        MoveAfterAttack = "move-after-attack",
        PickUpAdjacent = "pick-up-adjacent",
        Stop = "stop",
        EndActivation = "end-activation",
        RunSteps = "run-steps",
        NoTalents = "no-talents",
        NoActivePowers = "no-active-powers",
        FreeCounter = "free-counter",
        Draw = "draw",
        Search = "search",
        CallTroop = "call-troop",
        UsePower = "use-power",
        Maneuver = "maneuver",
        StandIn = "stand-in",
        Rerolls = "rerolls",
        RerollAny = "reroll-any",
        ForceRerolls = "force-rerolls",
        Redirect = "redirect",
        Displace = "displace",
        Petrify = "petrify",
        Shift = "shift",
        Activate = "activate",
    }
}

words! {
    pub enum Per { Turn = "turn" }
}

words! {
    pub enum Res { ArtOfWar = "art-of-war", BlankDice = "blank-dice" }
}

words! {
    pub enum Until { EndOfTurn = "end-of-turn" }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Cond {
    Melee,
    Ranged,
    NormalAttack,
    InOwnArea,
    FriendHere,
    FullTroopHere,
    FiguresAtLeast(u8),
    Category(Vec<Cat>),
    NotCategory(Vec<Cat>),
    /// The unit attacked is of one of these categories.
    Against(Vec<Cat>),
    Here,
    NotFlying,
    NotAquatic,
    NotFireproof,
    FlyingAttacker,
    /// A talent's id (matched against the unit's talents).
    WithoutTalent(String),
    Wounded,
    OwnTurn,
    ActivatedBelow(u8),
}

fn cats(a: &Arg) -> Option<Vec<Cat>> {
    let one = |w: &str| match w {
        "god" => Some(Cat::God),
        "hero" => Some(Cat::Hero),
        "monster" => Some(Cat::Monster),
        "troop" => Some(Cat::Troop),
        _ => None,
    };
    match a {
        Arg::Word(w) => Some(vec![one(w)?]),
        Arg::Words(ws) => ws.iter().map(|w| one(w)).collect(),
        _ => None,
    }
}

/// The categories `against` names: also Titans, which no unit of the
/// pack is (the clause then never applies).
fn against(a: &Arg) -> Option<Vec<Cat>> {
    let titan = |w: &str| w == "titan";
    match a {
        Arg::Word(w) if titan(w) => Some(Vec::new()),
        Arg::Words(ws) if ws.iter().any(|w| titan(w)) => {
            let rest: Vec<String> = ws.iter().filter(|w| !titan(w)).cloned().collect();
            if rest.is_empty() {
                Some(Vec::new())
            } else {
                cats(&Arg::Words(rest))
            }
        }
        a => cats(a),
    }
}

#[derive(Clone, Debug)]
pub struct Mv;

impl Vocab for Mv {
    crate::vocab_types!();

    fn cond(name: &str, arg: &Arg) -> Option<Cond> {
        let n = |a: &Arg| a.as_int().map(|x| x.clamp(0, 20) as u8);
        Some(match (name, arg) {
            ("melee", Arg::None) => Cond::Melee,
            ("ranged", Arg::None) => Cond::Ranged,
            ("normal-attack", Arg::None) => Cond::NormalAttack,
            ("in-own-area", Arg::None) => Cond::InOwnArea,
            ("friend-here", Arg::None) => Cond::FriendHere,
            ("full-troop-here", Arg::None) => Cond::FullTroopHere,
            ("figures-at-least", a) => Cond::FiguresAtLeast(n(a)?),
            ("category", a) => Cond::Category(cats(a)?),
            ("not-category", a) => Cond::NotCategory(cats(a)?),
            ("against", a) => Cond::Against(against(a)?),
            ("here", Arg::None) => Cond::Here,
            ("not-flying", Arg::None) => Cond::NotFlying,
            ("not-aquatic", Arg::None) => Cond::NotAquatic,
            ("not-fireproof", Arg::None) => Cond::NotFireproof,
            ("flying-attacker", Arg::None) => Cond::FlyingAttacker,
            ("without-talent", Arg::Word(w)) => Cond::WithoutTalent(w.clone()),
            ("wounded", Arg::None) => Cond::Wounded,
            ("own-turn", Arg::None) => Cond::OwnTurn,
            ("activated-below", a) => Cond::ActivatedBelow(n(a)?),
            _ => return None,
        })
    }

    fn show(c: &Cond) -> String {
        let list = |v: &[Cat]| v.iter().map(|c| c.name()).collect::<Vec<_>>().join(" or ");
        match c {
            Cond::Melee => "on a melee attack".into(),
            Cond::Ranged => "on a ranged attack".into(),
            Cond::NormalAttack => "on an attack that is not a special attack".into(),
            Cond::InOwnArea => "against a unit in the attacker's area".into(),
            Cond::FriendHere => "with another friendly unit in its area".into(),
            Cond::FullTroopHere => "with a complete friendly Troop in its area".into(),
            Cond::FiguresAtLeast(n) => format!("with at least {n} figures left"),
            Cond::Category(v) => format!("a {}", list(v)),
            Cond::NotCategory(v) => format!("not a {}", list(v)),
            Cond::Against(v) if v.is_empty() => "against a titan".into(),
            Cond::Against(v) => format!("against a {}", list(v)),
            Cond::Here => "in the same area".into(),
            Cond::NotFlying => "a ground or aquatic unit".into(),
            Cond::NotAquatic => "a unit that is not aquatic".into(),
            Cond::NotFireproof => "a unit that is not fireproof".into(),
            Cond::FlyingAttacker => "attacked by a flying unit".into(),
            Cond::WithoutTalent(t) => format!("a unit without {t}"),
            Cond::Wounded => "after losing vitality".into(),
            Cond::OwnTurn => "in its player's own turn".into(),
            Cond::ActivatedBelow(n) => format!("with fewer than {n} units activated this turn"),
        }
    }
}

pub type Def = fx::Def<Mv>;
pub type Uses = fx::Uses<Per>;

/// Targets at or above this are areas (`AREA + index`), below it unit slots.
pub const AREA: u8 = 64;
const _: () = assert!(MAXA < AREA as usize);

/// An attack under way: attacker and defender slots, melee or not, and
/// whether it is a special attack.
#[derive(Clone, Copy, Debug)]
pub struct Strike {
    pub a: usize,
    pub d: usize,
    pub melee: bool,
    pub special: bool,
}

/// One moment for the interpreter: the timings open, and the attack under
/// way (for the attack's conditions).
pub struct Ctx<'a> {
    pub e: &'a Mythic,
    pub open: u32,
    pub strike: Option<Strike>,
    /// A unit (slot) entering an area: it counts as there already.
    pub entering: Option<(u8, u8)>,
}

impl<'a> Ctx<'a> {
    pub fn new(e: &'a Mythic, open: &[When]) -> Self {
        Ctx {
            e,
            open: open.iter().fold(0, |b, w| b | 1 << (*w as u32)),
            strike: None,
            entering: None,
        }
    }
}

impl Mythic {
    /// Whether a unit's talents work now: a troop's only while it is
    /// complete, nobody's where the terrain takes them away (water).
    pub(super) fn talents_on(&self, s: &State, slot: usize) -> bool {
        let u = &s.units[slot];
        let d = self.def(s, slot);
        if d.cat == Cat::Troop && u.wounds > 0 {
            return false;
        }
        !(u.on_board() && self.terrain_mod(s, u.at as usize, When::Continuous, Out::NoTalents, slot) > 0)
    }

    /// The unit's own sources: talents (while they work) and powers (troop
    /// bonuses are read into the unit's table and counted by its row).
    pub(super) fn own_sources(&self, s: &State, slot: usize, out: &mut Vec<Src<u8>>) {
        self.own_sources_if(s, slot, &|_| true, out);
    }

    /// [`Mythic::own_sources`] among the effects `keep` accepts (the
    /// talents' terrain is asked only when one of them is kept).
    fn own_sources_if(&self, s: &State, slot: usize, keep: &dyn Fn(u16) -> bool, out: &mut Vec<Src<u8>>) {
        let u = &s.units[slot];
        let d = self.def(s, slot);
        let src = |card: u16| Src {
            card,
            owner: u.owner,
            at: Some(slot as u8),
        };
        if d.talent_fx.iter().any(|&c| keep(c)) && self.talents_on(s, slot) {
            out.extend(d.talent_fx.iter().copied().filter(|&c| keep(c)).map(src));
        }
        out.extend(d.power_fx.iter().flatten().copied().filter(|&c| keep(c)).map(src));
    }

    /// The sources of other units that reach units around them (every
    /// clause targeted: Reinforce, Block), among those `keep` accepts.
    fn reaching_sources(&self, s: &State, except: usize, keep: &dyn Fn(u16) -> bool, out: &mut Vec<Src<u8>>) {
        for (i, u) in s.units.iter().enumerate() {
            if i == except || !u.on_board() {
                continue;
            }
            let reach = |c: u16| self.t.fx.targeted[usize::from(c)] && keep(c);
            let talents = &self.def(s, i).talent_fx;
            if !talents.iter().any(|&c| reach(c)) || !self.talents_on(s, i) {
                continue;
            }
            out.extend(talents.iter().copied().filter(|&c| reach(c)).map(|card| Src {
                card,
                owner: u.owner,
                at: Some(i as u8),
            }));
        }
    }

    /// The terrain sources of area `a`.
    pub(super) fn area_sources(&self, s: &State, a: usize, out: &mut Vec<Src<u8>>) {
        if !self.terrain_on(s) || a >= MAXA {
            return;
        }
        let mask = self.board(s).areas[a].terrains;
        for (i, d) in self.t.fx.terrain_fx.iter().enumerate() {
            if mask & (1 << i) != 0
                && let Some(card) = d
            {
                out.push(Src {
                    card: *card,
                    owner: u8::MAX,
                    at: Some(AREA + a as u8),
                });
            }
        }
    }

    /// Whether effect `card` gives `out` in any of its clauses.
    fn gives(&self, card: u16, out: Out) -> bool {
        self.t.fx.gives[usize::from(card)] & super::tables::fx::out_bit(out) != 0
    }

    /// What the terrain of area `a` gives the unit in `slot` (`out` at `when`).
    pub(super) fn terrain_mod(&self, s: &State, a: usize, when: When, out: Out, slot: usize) -> i16 {
        let mut src = Vec::new();
        self.area_sources(s, a, &mut src);
        src.retain(|x| self.gives(x.card, out));
        if src.is_empty() {
            return 0;
        }
        let ctx = Ctx::new(self, &[when]);
        fx::modifier(&ctx, s, &src, &[], when, out, Some(slot as u8))
    }

    /// Every source that may apply to the unit in `slot`.
    fn sources_for(&self, s: &State, slot: usize) -> Vec<Src<u8>> {
        self.sources_if(s, slot, &|_| true)
    }

    /// [`Mythic::sources_for`], only the sources that give `out`: asked for
    /// every value of every unit compared, most answers are then found
    /// without looking at the talents of every unit on the board.
    fn sources_giving(&self, s: &State, slot: usize, out: Out) -> Vec<Src<u8>> {
        self.sources_if(s, slot, &|c| self.gives(c, out))
    }

    fn sources_if(&self, s: &State, slot: usize, keep: &dyn Fn(u16) -> bool) -> Vec<Src<u8>> {
        let mut src = Vec::new();
        self.own_sources_if(s, slot, keep, &mut src);
        self.reaching_sources(s, slot, keep, &mut src);
        let at = s.units[slot].at as usize;
        let mut area = Vec::new();
        self.area_sources(s, at, &mut area);
        src.extend(area.into_iter().filter(|x| keep(x.card)));
        src
    }

    /// The sum of `out` at the timings `when` for the unit in `slot`,
    /// during `strike` if any.
    pub(super) fn unit_mod(&self, s: &State, slot: usize, when: &[When], out: Out, strike: Option<Strike>) -> i16 {
        let src = self.sources_giving(s, slot, out);
        if src.is_empty() {
            return 0;
        }
        let mut ctx = Ctx::new(self, when);
        ctx.strike = strike;
        when.iter()
            .map(|w| fx::modifier(&ctx, s, &src, &[], *w, out, Some(slot as u8)))
            .sum()
    }

    /// The parts of [`Mythic::unit_mod`], by card.
    pub(super) fn mod_parts(
        &self,
        s: &State,
        slot: usize,
        when: &[When],
        out: Out,
        strike: Option<Strike>,
    ) -> Vec<(String, i16)> {
        let src = self.sources_for(s, slot);
        let mut ctx = Ctx::new(self, when);
        ctx.strike = strike;
        let mut parts = Vec::new();
        for w in when {
            for (x, _, n) in fx::modifiers(&ctx, s, &src, &[], *w, out, Some(slot as u8)) {
                parts.push((ctx.card_id(&x), n));
            }
        }
        parts
    }

    /// The card that gives the unit in `slot` a continuous `out`, if any.
    pub(super) fn has(&self, s: &State, slot: usize, out: Out) -> Option<String> {
        let src = self.sources_giving(s, slot, out);
        if src.is_empty() {
            return None;
        }
        let ctx = Ctx::new(self, &[When::Continuous]);
        fx::modifiers(&ctx, s, &src, &[], When::Continuous, out, Some(slot as u8))
            .iter()
            .find(|(_, _, n)| *n > 0)
            .map(|(src, _, _)| ctx.card_id(src))
    }

    /// The effect called `name` (a power, talent, terrain, card) as the
    /// cause of a refusal about it.
    pub(super) fn cite(&self, name: &str) -> Option<crate::rules::Cause> {
        crate::rules::kit::effects::cause_named(&self.t.fx.defs, &self.t.fx.names, name)
    }

    /// The card whose terrain keeps the unit in `slot` out of area `a`
    /// (no talent lets it climb in), if any.
    pub(super) fn kept_out(&self, s: &State, slot: usize, a: usize) -> Option<String> {
        let mut src = Vec::new();
        self.area_sources(s, a, &mut src);
        if src.is_empty() {
            return None;
        }
        let ctx = Ctx::new(self, &[When::Continuous]);
        let by = fx::modifiers(&ctx, s, &src, &[], When::Continuous, Out::NoEntry, Some(slot as u8))
            .first()
            .map(|(src, _, _)| ctx.card_id(src))?;
        self.has(s, slot, Out::Climb).is_none().then_some(by)
    }

    /// What holds the unit in place (Block, a swamp): the card, and how
    /// far it may still run (terrain that allows a short run), if anything.
    pub(super) fn hold(&self, s: &State, slot: usize) -> Option<(String, Option<u8>)> {
        if !s.units[slot].on_board() {
            return None;
        }
        let src = self.sources_for(s, slot);
        let ctx = Ctx::new(self, &[When::Continuous]);
        let parts = fx::modifiers(&ctx, s, &src, &[], When::Continuous, Out::NoMove, Some(slot as u8));
        let (first, _, _) = parts.iter().find(|(_, _, n)| *n > 0)?;
        let by = ctx.card_id(first);
        let terrain_only = parts.iter().all(|(x, _, _)| x.at.is_some_and(|k| k >= AREA));
        let run = fx::modifier(&ctx, s, &src, &[], When::Continuous, Out::RunSteps, Some(slot as u8));
        Some((by, (terrain_only && run > 0).then_some(run as u8)))
    }

    /// The terrain card of area `a` that stops the unit in `slot` when it
    /// enters (`out`: `stop`, or `end-activation`), if any.
    pub(super) fn on_entering(&self, s: &State, slot: usize, a: usize, out: Out) -> Option<String> {
        let mut src = Vec::new();
        self.area_sources(s, a, &mut src);
        if src.is_empty() {
            return None;
        }
        let mut ctx = Ctx::new(self, &[When::OnEnter]);
        ctx.entering = Some((slot as u8, a as u8));
        fx::modifiers(&ctx, s, &src, &[], When::OnEnter, out, Some(slot as u8))
            .iter()
            .find(|(_, _, n)| *n > 0)
            .map(|(x, _, _)| ctx.card_id(x))
    }

    /// The terrain of area `a` that ends a move there, if any.
    pub(super) fn stops(&self, s: &State, slot: usize, a: usize) -> Option<String> {
        self.on_entering(s, slot, a, Out::Stop)
    }

    /// The team of a source (its unit's, or its owner's).
    pub(super) fn src_team(&self, s: &State, src: &Src<u8>) -> Option<u8> {
        match src.at {
            Some(k) if k < AREA => Some(self.team(s, usize::from(k))),
            _ if usize::from(src.owner) < s.players.len() => Some(s.players[usize::from(src.owner)].team),
            _ => None,
        }
    }

    /// The area of a source (its unit's, or the terrain's).
    pub(super) fn src_area(&self, s: &State, src: &Src<u8>) -> Option<u8> {
        match src.at {
            Some(k) if k >= AREA => Some(k - AREA),
            Some(k) => s.units.get(usize::from(k)).filter(|u| u.on_board()).map(|u| u.at),
            None => None,
        }
    }

    pub(super) fn figures_left(&self, s: &State, slot: usize) -> u8 {
        let d = self.def(s, slot);
        if d.cat == Cat::Troop {
            d.figures.saturating_sub(s.units[slot].wounds)
        } else {
            0
        }
    }

    /// Another unit of the same team in the unit's area (`troop`: a
    /// complete troop).
    pub(super) fn company_of(&self, s: &State, slot: usize, troop: bool) -> bool {
        let u = &s.units[slot];
        if !u.on_board() {
            return false;
        }
        let team = self.team(s, slot);
        s.units.iter().enumerate().any(|(i, o): (usize, &Unit)| {
            i != slot
                && o.at == u.at
                && self.team(s, i) == team
                && (!troop || self.def(s, i).cat == Cat::Troop && o.wounds == 0)
        })
    }
}
