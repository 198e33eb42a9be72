//! The pack's effects, compiled (docs/effects.md): talents, terrain,
//! manoeuvres and cards here; powers and troop bonuses with their units
//! ([`super::units`]), which also take their numbers from them.

use super::super::effects::{Def, Mv, Out, When};
use crate::model::Component;
use crate::rules::kit::effects::Amount;
use crate::rules::kit::{IdTable, Reader};

/// Every compiled effect, and what each belongs to.
#[derive(Clone, Debug, Default)]
pub struct Fx {
    pub defs: Vec<Def>,
    pub names: Vec<String>,
    /// Per effect: every clause names a target, so the effect may reach
    /// other units than its own (Reinforce, Block).
    pub targeted: Vec<bool>,
    /// Per effect: the outcomes any of its clauses gives (a bit per
    /// [`Out`]), so a question about one outcome skips the others.
    pub gives: Vec<u64>,
    /// Talents by index (component order).
    pub talent_ids: IdTable,
    pub talent_fx: Vec<Option<u16>>,
    /// Terrain types by index (component order; at most 16).
    pub terrain_ids: IdTable,
    pub terrain_fx: Vec<Option<u16>>,
    /// Manoeuvres by id.
    pub maneuver_ids: IdTable,
    pub maneuver_fx: Vec<Option<u16>>,
    pub art_of_war: Option<u16>,
    pub omphalos: Option<u16>,
}

/// The bit of `o` in [`Fx::gives`].
pub fn out_bit(o: Out) -> u64 {
    1u64 << (o as u32 % 64)
}

impl Fx {
    /// Adds a compiled effect named `name` (`None` when it has no clause).
    pub fn add(&mut self, d: Def, name: String) -> Option<u16> {
        if d.clauses.is_empty() {
            return None;
        }
        self.targeted.push(d.clauses.iter().all(|c| c.target.is_some()));
        self.gives.push(
            d.clauses
                .iter()
                .flat_map(|c| c.out.iter())
                .fold(0, |m, (o, _)| m | out_bit(*o)),
        );
        self.defs.push(d);
        self.names.push(name);
        Some((self.defs.len() - 1) as u16)
    }

    /// Talents, terrain, manoeuvres, Art of War and omphalos cards.
    pub fn read(r: &mut Reader) -> Fx {
        let mut f = Fx::default();
        let compile = |r: &mut Reader, c: &Component| r.effect::<Mv>(c, "effect", c.field("effect"));
        for c in r.all("talent") {
            let d = compile(r, c);
            f.talent_ids.push(c.id.clone());
            let i = f.add(d, c.id.clone());
            f.talent_fx.push(i);
        }
        for c in r.all("terrain") {
            if f.terrain_fx.len() == 16 {
                r.error(c, "id", "more than 16 terrain types", "at most 16 terrain types", &c.id);
                break;
            }
            let d = compile(r, c);
            f.terrain_ids.push(c.id.clone());
            let i = f.add(d, c.id.clone());
            f.terrain_fx.push(i);
        }
        for c in r.all("maneuver") {
            let d = compile(r, c);
            f.maneuver_ids.push(c.id.clone());
            let i = f.add(d, c.id.clone());
            f.maneuver_fx.push(i);
        }
        if let Some(c) = r.all("art_of_war").first() {
            let d = compile(r, c);
            f.art_of_war = f.add(d, c.id.clone());
        }
        if let Some(c) = r.all("omphalos").first() {
            let d = compile(r, c);
            f.omphalos = f.add(d, c.id.clone());
        }
        f
    }

    /// The exact amount of `out` a clause at `when` of effect `d` gives.
    pub fn amount(&self, d: Option<u16>, when: When, out: Out) -> Option<i16> {
        let def = &self.defs[usize::from(d?)];
        def.clauses
            .iter()
            .filter(|c| c.when == when)
            .find_map(|c| match c.amount(out) {
                Some(Amount::Exactly(n)) => Some(*n),
                _ => None,
            })
    }

    /// The cards the draw-two manoeuvre draws (its effect's `draw`).
    pub fn draw_two(&self) -> u32 {
        self.amount(self.maneuver("draw-two"), When::Maneuver, Out::Draw)
            .map_or(2, |n| n.max(0) as u32)
    }

    /// The manoeuvre named `id`, compiled.
    pub fn maneuver(&self, id: &str) -> Option<u16> {
        self.maneuver_ids.get(id).and_then(|i| self.maneuver_fx[usize::from(i)])
    }
}
