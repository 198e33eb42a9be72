//! Card effects in XTerminio: the words of the pack's effect vocabulary the
//! engine interprets, the sources in force (characters, equipment, zones,
//! fixed actions on their slots) and the answers the interpreter asks for
//! ([`crate::rules::kit::effects`], docs/effects.md).

use super::Xterminio;
use super::actions::Slot;
use super::state::State;
use crate::model::effects::Arg;
use crate::rules::kit::effects::{self as fx, Change, Host, Src, Vocab, Word, Written};
use crate::rules::{Cause, Violation};
use crate::words;

words! {
    /// When a clause takes effect.
    pub enum When {
        Play = "play",
        Main = "main",
        Upkeep = "upkeep",
        Charge = "charge",
        Continuous = "continuous",
        Attack = "attack",
        AttackDeclared = "attack-declared",
        InterceptionDeclared = "interception-declared",
        AfterAttack = "after-attack",
        AfterMove = "after-move",
        OnMove = "on-move",
        OnEnter = "on-enter",
        OnKill = "on-kill",
        OnDeath = "on-death",
    }
}

words! {
    /// Who an outcome lands on.
    pub enum Who {
        Itself = "self",
        Bearer = "bearer",
        Host = "host",
        OwnCharacter = "own-character",
        OwnSlot = "own-slot",
        EnemyCharacter = "enemy-character",
        EnemySlot = "enemy-slot",
        AttackTarget = "attack-target",
        Attacker = "attacker",
        MovedEnemy = "moved-enemy",
        Mover = "mover",
        Entering = "entering",
    }
}

words! {
    /// What an effect does.
    pub enum Out {
        Heal = "heal",
        Damage = "damage",
        Energy = "energy",
        Ready = "ready",
        Stun = "stun",
        DamageBonus = "damage-bonus",
        DamageTaken = "damage-taken",
        AttackCost = "attack-cost",
        InterceptCost = "intercept-cost",
        InterceptDamage = "intercept-damage",
        FreeMove = "free-move",
        NoMove = "no-move",
        NoIntercept = "no-intercept",
        NoAttack = "no-attack",
        StunImmune = "stun-immune",
        Unblockable = "unblockable",
        CancelAttack = "cancel-attack",
        CancelInterception = "cancel-interception",
        Place = "place",
        Deploy = "deploy",
        Fetch = "fetch",
        Fly = "fly",
        DiscardEquipment = "discard-equipment",
        DiscardSelf = "discard-self",
    }
}

words! {
    pub enum Per { Turn = "turn" }
}

words! {
    pub enum Res { Energy = "energy" }
}

words! {
    /// How long a lasting outcome or a fixed action stays.
    pub enum Until {
        EndOfTurn = "end-of-turn",
        NextAttack = "next-attack",
        NextUpkeep = "next-upkeep",
        HostTurnEnd = "host-turn-end",
    }
}

/// A row of the mat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Row {
    Cover,
    Advance,
}

/// The conditions the engine evaluates.
#[derive(Clone, Debug, PartialEq)]
pub enum Cond {
    In(Row),
    Contiguous,
    Empty,
    Other,
    NotTarget,
    Exhausted,
    Enemy,
    FirstAttack,
    CampAtMost(u8),
    BattleAtLeast(u8),
    EnergyEquipment,
    Named(String),
}

/// XTerminio's effect words.
#[derive(Clone, Debug)]
pub struct Xv;

impl Vocab for Xv {
    crate::vocab_types!();

    fn cond(name: &str, arg: &Arg) -> Option<Cond> {
        Some(match (name, arg) {
            ("in", Arg::Word(w)) if w == "cover" => Cond::In(Row::Cover),
            ("in", Arg::Word(w)) if w == "advance" => Cond::In(Row::Advance),
            ("contiguous", Arg::None) => Cond::Contiguous,
            ("empty", Arg::None) => Cond::Empty,
            ("other", Arg::None) => Cond::Other,
            ("not-target", Arg::None) => Cond::NotTarget,
            ("exhausted", Arg::None) => Cond::Exhausted,
            ("enemy", Arg::None) => Cond::Enemy,
            ("first-attack", Arg::None) => Cond::FirstAttack,
            ("camp-at-most", Arg::Int(n)) => Cond::CampAtMost((*n).clamp(0, 255) as u8),
            ("battle-at-least", Arg::Int(n)) => Cond::BattleAtLeast((*n).clamp(0, 255) as u8),
            ("energy-equipment", Arg::None) => Cond::EnergyEquipment,
            ("named", Arg::Word(w)) => Cond::Named(w.clone()),
            _ => return None,
        })
    }

    fn show(c: &Cond) -> String {
        match c {
            Cond::In(Row::Cover) => "in COVER".into(),
            Cond::In(Row::Advance) => "in ADVANCE".into(),
            Cond::Contiguous => "in a contiguous slot".into(),
            Cond::Empty => "empty".into(),
            Cond::Other => "another character".into(),
            Cond::NotTarget => "other than the attack's target".into(),
            Cond::Exhausted => "exhausted".into(),
            Cond::Enemy => "an enemy".into(),
            Cond::FirstAttack => "before its first attack this turn".into(),
            Cond::CampAtMost(n) => format!("with at most {n} cards in CAMP"),
            Cond::BattleAtLeast(n) => format!("with at least {n} characters in BATTLE"),
            Cond::EnergyEquipment => "with equipment in the energy slot".into(),
            Cond::Named(id) => format!("choosing `{id}`"),
        }
    }
}

pub type Def = fx::Def<Xv>;

/// A card in force that forbids something: its id, its clause in words,
/// and the cause a refusal cites.
pub struct Restriction {
    pub card: String,
    pub said: String,
    pub cause: Cause,
}

/// A place on a mat: whose, and which slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spot {
    pub side: u8,
    pub slot: Slot,
}

impl Spot {
    pub fn new(side: usize, slot: Slot) -> Spot {
        Spot { side: side as u8, slot }
    }
}

impl Slot {
    pub fn row(self) -> Row {
        match self {
            Slot::AdvanceLeft | Slot::AdvanceCenter | Slot::AdvanceRight => Row::Advance,
            _ => Row::Cover,
        }
    }
}

/// What happened last, for the effects that answer it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    Attack { attacker: Spot, target: Spot },
    Move { to: Spot },
}

/// A fixed action in play: where it lies and until when.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fixed {
    pub card: u8,
    pub on: Option<Spot>,
    pub until: Option<Until>,
    /// The turn it was laid (a duration counts from the next turn).
    pub turn: u16,
}

pub type Lasting = fx::Lasting<Spot, Until>;
pub type Uses = fx::Uses<Per>;
pub type Journal = fx::Journal<Out, Spot>;
pub type Ch = Change<Out, Spot>;

/// The interpreter's view of one moment: the engine, the timings open, and
/// the attack, move or card the moment is about.
pub struct Ctx<'a> {
    pub e: &'a Xterminio,
    pub open: u32,
    pub attack: Option<(Spot, Spot)>,
    pub mover: Option<Spot>,
    pub card: Option<u8>,
}

pub fn bit(w: When) -> u32 {
    1 << (w as u32)
}

impl<'a> Ctx<'a> {
    pub fn new(e: &'a Xterminio, open: &[When]) -> Self {
        Ctx {
            e,
            open: open.iter().fold(0, |b, w| b | bit(*w)),
            attack: None,
            mover: None,
            card: None,
        }
    }
}

impl Host for Ctx<'_> {
    type V = Xv;
    type State = State;
    type Obj = Spot;

    fn def(&self, src: &Src<Spot>) -> &Def {
        &self.e.t.defs[usize::from(src.card)]
    }

    fn card_id(&self, src: &Src<Spot>) -> String {
        self.e.t.def_names[usize::from(src.card)].clone()
    }

    fn open(&self, _s: &State, _src: &Src<Spot>, when: When) -> bool {
        self.open & bit(when) != 0
    }

    fn now(&self, s: &State) -> String {
        let names: Vec<&str> = When::ALL
            .iter()
            .filter(|(_, w)| self.open & bit(*w) != 0)
            .map(|(n, _)| *n)
            .collect();
        format!(
            "{}'s {} phase{}",
            s.names[s.to_move],
            if s.drawn { s.phase.name() } else { "draw" },
            if names.is_empty() {
                String::new()
            } else {
                format!(" (open: {})", names.join(", "))
            }
        )
    }

    fn holds(&self, s: &State, src: &Src<Spot>, c: &Cond, obj: Option<Spot>) -> bool {
        let o = obj.or(src.at);
        let fighter = |o: Spot| Xterminio::fighter(s, usize::from(o.side), o.slot);
        let side = &s.p[usize::from(src.owner)];
        match c {
            Cond::In(row) => o.is_some_and(|o| o.slot.row() == *row),
            Cond::Contiguous => match (obj, src.at) {
                (Some(o), Some(a)) => o.side == a.side && self.e.t.contiguous(o.slot, a.slot),
                _ => false,
            },
            Cond::Empty => o.is_some_and(|o| o.slot.index().is_some() && fighter(o).is_none()),
            Cond::Other => obj.is_some() && obj != src.at,
            Cond::NotTarget => obj.is_some() && obj != self.attack.map(|a| a.1),
            Cond::Exhausted => o.and_then(fighter).is_some_and(|f| f.exhausted),
            Cond::Enemy => o.is_some_and(|o| o.side != src.owner),
            Cond::FirstAttack => o.and_then(fighter).is_some_and(|f| !f.attacked),
            Cond::CampAtMost(n) => side.camp.len() <= usize::from(*n),
            Cond::BattleAtLeast(n) => side.battle.iter().flatten().count() >= usize::from(*n),
            Cond::EnergyEquipment => side.energy_eq.is_some(),
            Cond::Named(id) => self.card.is_some() && self.card == self.e.t.card(id),
        }
    }

    fn count(&self, _s: &State, _src: &Src<Spot>, _c: &Cond, _obj: Option<Spot>) -> i16 {
        0
    }

    fn is(&self, s: &State, src: &Src<Spot>, who: Who, o: Spot) -> bool {
        let fighter = Xterminio::fighter(s, usize::from(o.side), o.slot).is_some();
        let own = o.side == src.owner;
        match who {
            Who::Itself | Who::Bearer | Who::Host => Some(o) == src.at,
            Who::OwnCharacter => own && fighter,
            Who::OwnSlot => own && o.slot.index().is_some(),
            Who::EnemyCharacter => !own && fighter,
            Who::EnemySlot => !own && o.slot.index().is_some(),
            Who::AttackTarget => self.attack.is_some_and(|a| a.1 == o),
            Who::Attacker => self.attack.is_some_and(|a| a.0 == o),
            Who::MovedEnemy => !own && self.mover == Some(o),
            Who::Mover | Who::Entering => self.mover == Some(o),
        }
    }

    fn candidates(&self, s: &State, src: &Src<Spot>, who: Who) -> Vec<Spot> {
        let owner = usize::from(src.owner);
        let slots = |side: usize, full: Option<bool>| -> Vec<Spot> {
            Slot::CHARACTER
                .into_iter()
                .filter(|sl| full.is_none_or(|f| Xterminio::fighter(s, side, *sl).is_some() == f))
                .map(|sl| Spot::new(side, sl))
                .collect()
        };
        match who {
            Who::Itself | Who::Bearer | Who::Host => src.at.into_iter().collect(),
            Who::OwnCharacter => slots(owner, Some(true)),
            Who::OwnSlot => slots(owner, None),
            Who::EnemyCharacter => slots(1 - owner, Some(true)),
            Who::EnemySlot => slots(1 - owner, None),
            Who::AttackTarget => self.attack.map(|a| a.1).into_iter().collect(),
            Who::Attacker => self.attack.map(|a| a.0).into_iter().collect(),
            Who::MovedEnemy => self
                .mover
                .filter(|m| usize::from(m.side) != owner)
                .into_iter()
                .collect(),
            Who::Mover | Who::Entering => self.mover.into_iter().collect(),
        }
    }

    fn cap(&self, s: &State, _src: &Src<Spot>, out: Out, obj: Option<Spot>) -> Option<i16> {
        let f = obj.and_then(|o| Xterminio::fighter(s, usize::from(o.side), o.slot));
        match out {
            Out::Heal => Some(f.map_or(0, |f| i16::from(f.damage))),
            Out::Ready => Some(f.map_or(0, |f| i16::from(f.exhausted))),
            Out::Damage | Out::Stun => f.is_none().then_some(0),
            Out::DiscardEquipment => Some(i16::from(f.is_some_and(|f| f.equipment.is_some()))),
            _ => None,
        }
    }

    fn used(&self, s: &State, src: &Src<Spot>, clause: u8, per: Per) -> u8 {
        s.uses.get(src.owner, src.card, clause, per)
    }

    fn afford(&self, s: &State, src: &Src<Spot>, res: Res, n: i16) -> bool {
        match res {
            Res::Energy => i32::from(s.p[usize::from(src.owner)].energy) >= i32::from(n),
        }
    }

    fn show(&self, s: &State, o: Spot) -> String {
        let who = &s.names[usize::from(o.side)];
        match Xterminio::fighter(s, usize::from(o.side), o.slot) {
            Some(f) => format!("{who}'s `{}` ({})", o.slot.id(), self.e.t.id(f.card)),
            None => format!("{who}'s empty `{}`", o.slot.id()),
        }
    }

    fn write(&self, s: &State, src: &Src<Spot>, out: Out, obj: Option<Spot>, n: i16) -> Option<Written> {
        let slot = obj.map_or("advance-left", |o| o.slot.id());
        let owner = usize::from(src.owner);
        let (field, example) = match out {
            Out::Heal => ("effect.heal", format!("effect: {{heal: {{{slot}: {n}}}}}")),
            Out::Damage => ("effect.damage", format!("effect: {{damage: {{{slot}: {n}}}}}")),
            Out::Energy => ("effect.energy", format!("effect: {{energy: {n}}}")),
            Out::Ready => ("effect.ready", format!("effect: {{ready: [{slot}]}}")),
            Out::Stun => ("effect.stun", format!("effect: {{stun: [{slot}]}}")),
            Out::DamageBonus => ("effect.bonus", format!("effect: {{bonus: {{{slot}: {n}}}}}")),
            Out::Place => ("effect.place", format!("effect: {{place: {slot}}}")),
            Out::Fly => ("effect.fly", format!("effect: {{fly: {slot}}}")),
            Out::Deploy => {
                let p = &s.p[owner];
                let card = p
                    .camp
                    .iter()
                    .map(|c| c.card)
                    .find(|c| !self.e.is_support(*c))
                    .map_or("recluta", |c| self.e.t.id(c));
                ("effect.deploy", format!("effect: {{deploy: {{{slot}: {card}}}}}"))
            }
            Out::Fetch => {
                let named = self
                    .def(src)
                    .clauses
                    .iter()
                    .flat_map(|c| &c.cond)
                    .find_map(|c| match c {
                        Cond::Named(id) => Some(id.clone()),
                        _ => None,
                    });
                (
                    "effect.fetch",
                    format!("effect: {{fetch: [{}]}}", named.as_deref().unwrap_or("larva")),
                )
            }
            Out::CancelAttack => (
                "answer",
                format!("answer: {} (on the attack it cancels)", self.card_id(src)),
            ),
            Out::CancelInterception => (
                "intercept.answer",
                format!("intercept: {{by: cover-left, answer: {}}}", self.card_id(src)),
            ),
            _ => return None,
        };
        Some(Written {
            field: field.into(),
            example,
        })
    }

    fn applied(&self, s: &State, src: &Src<Spot>, clause: u8) -> Option<Vec<Ch>> {
        let c = self.def(src).clauses.get(usize::from(clause))?;
        (c.when != When::Continuous).then(|| s.applied.of(src, clause))
    }
}

impl Xterminio {
    /// The effects in force of player `side`: its characters, their
    /// equipment, its zone and energy equipment, its fixed actions.
    pub(super) fn sources_of(&self, s: &State, side: usize, out: &mut Vec<Src<Spot>>) {
        let p = &s.p[side];
        let owner = side as u8;
        let mut push = |card: u8, at: Option<Spot>| {
            if let Some(d) = self.t.get(card).effect {
                out.push(Src { card: d, owner, at });
            }
        };
        for (i, f) in p.battle.iter().enumerate() {
            if let Some(f) = f {
                let at = Some(Spot::new(side, Slot::CHARACTER[i]));
                push(f.card, at);
                if let Some(e) = f.equipment {
                    push(e, at);
                }
            }
        }
        if let Some(z) = p.zone {
            push(z, Some(Spot::new(side, Slot::CoverZone)));
        }
        if let Some(e) = p.energy_eq {
            push(e, Some(Spot::new(side, Slot::CoverEnergy)));
        }
        for f in &p.fixed {
            push(f.card, f.on);
        }
    }

    /// Every effect in force, both players'.
    pub(super) fn sources(&self, s: &State) -> Vec<Src<Spot>> {
        let mut out = Vec::with_capacity(16);
        self.sources_of(s, 0, &mut out);
        self.sources_of(s, 1, &mut out);
        out
    }

    /// The continuous modifier `out` on the character in `at`.
    pub(super) fn modifier(&self, s: &State, out: Out, at: Spot) -> i16 {
        let ctx = Ctx::new(self, &[When::Continuous]);
        fx::modifier(&ctx, s, &self.sources(s), &s.lasting, When::Continuous, out, Some(at))
    }

    /// The card whose continuous `out` applies to `at`, if any, for a
    /// refusal that names it (and cites it as the cause).
    pub(super) fn restriction(&self, s: &State, out: Out, at: Spot) -> Option<Restriction> {
        let ctx = Ctx::new(self, &[When::Continuous]);
        fx::modifiers(&ctx, s, &self.sources(s), &s.lasting, When::Continuous, out, Some(at))
            .first()
            .map(|(src, clause, _)| Restriction {
                card: ctx.card_id(src),
                said: self.t.defs[usize::from(src.card)]
                    .clauses
                    .get(usize::from(*clause))
                    .map(fx::describe)
                    .unwrap_or_default(),
                cause: self.cause(src, Some(*clause)),
            })
    }

    /// A card effect as the cause of a refusal.
    pub(super) fn cause(&self, src: &Src<Spot>, clause: Option<u8>) -> Cause {
        Cause {
            card: self.t.def_names[usize::from(src.card)].clone(),
            effect: self.t.defs[usize::from(src.card)].origin,
            clause,
        }
    }

    /// Whether the character in `at` is stunned (by a status or a card).
    pub(super) fn stunned(&self, s: &State, at: Spot) -> bool {
        let Some(f) = Self::fighter(s, usize::from(at.side), at.slot) else {
            return false;
        };
        (f.stunned || self.modifier(s, Out::Stun, at) > 0) && self.modifier(s, Out::StunImmune, at) == 0
    }

    /// Whether the character in `at` may be interrupted at all by a stun.
    pub(super) fn stun_immune(&self, s: &State, at: Spot) -> bool {
        self.modifier(s, Out::StunImmune, at) > 0
    }

    /// Counts the uses of limited continuous clauses that applied to `at`.
    pub(super) fn count_uses(&self, s: &mut State, out: Out, at: Spot) {
        let ctx = Ctx::new(self, &[When::Continuous]);
        let parts = fx::modifiers(&ctx, s, &self.sources(s), &s.lasting, When::Continuous, out, Some(at));
        for (src, clause, _) in parts {
            if let Some((per, _)) = self.t.defs[usize::from(src.card)]
                .clauses
                .get(usize::from(clause))
                .and_then(|c| c.limit)
            {
                s.uses.add(src.owner, src.card, clause, per);
            }
        }
    }
}

impl Xterminio {
    /// A card of the player to move whose upkeep choice is still owed, and
    /// the refusal of what it must write (with the field and an example).
    pub(super) fn owed_upkeep(&self, s: &State) -> Option<(String, Violation)> {
        let ctx = Ctx::new(self, &[When::Upkeep]);
        let mut srcs = Vec::new();
        self.sources_of(s, s.to_move, &mut srcs);
        let src = srcs.iter().find(|src| fx::owed(&ctx, s, src, When::Upkeep))?;
        let why = fx::missing(&ctx, s, src, super::rule::TURN)
            .err()
            .unwrap_or_else(|| Violation::new(super::rule::TURN, "").caused_by(self.cause(src, None)));
        Some((ctx.card_id(src), why))
    }
}
