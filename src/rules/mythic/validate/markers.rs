//! Petrification markers (Medusa's Petrifying Gaze): a petrified unit
//! neither moves nor attacks until its player discards one of its
//! activation cards (`remove-petrification`).

use super::super::Mythic;
use super::super::actions::Action;
use super::super::effects::Out;
use super::super::rule;
use super::super::state::State;
use crate::rules::Violation;
use crate::rules::kit::v;

impl Mythic {
    /// Whether power `i` of the unit in `slot` petrifies (its effect gives
    /// `petrify`).
    pub(crate) fn petrifies(&self, s: &State, slot: usize, i: usize) -> bool {
        self.def(s, slot).power_fx.get(i).copied().flatten().is_some_and(|d| {
            self.t.fx.defs[usize::from(d)]
                .clauses
                .iter()
                .any(|c| c.amount(Out::Petrify).is_some())
        })
    }

    /// The name of the effect that petrifies (for messages).
    fn petrify_card(&self) -> String {
        self.t
            .fx
            .defs
            .iter()
            .position(|d| d.clauses.iter().any(|c| c.amount(Out::Petrify).is_some()))
            .map_or_else(|| "petrification".to_string(), |i| self.t.fx.names[i].clone())
    }

    /// A move, run, departure, attack or counter-attack by a petrified
    /// unit is refused.
    pub(crate) fn petrified_ok(&self, s: &State, a: &Action) -> Result<(), Violation> {
        let (unit, what) = match a {
            Action::Move { unit, .. } | Action::Run { unit, .. } | Action::Leave { unit } => (unit, "move"),
            Action::Attack { unit, .. } | Action::Counter { unit, .. } => (unit, "attack"),
            _ => return Ok(()),
        };
        let Some(sl) = self.t.unit(unit).map(|u| s.slot[u as usize] as usize) else {
            return Ok(());
        };
        if sl >= s.units.len() || !s.units[sl].petrified {
            return Ok(());
        }
        Err(v(
            rule::ACTIONS,
            format!(
                "`{unit}` is petrified (`{}`): it cannot {what} until its player discards one of its activation cards",
                self.petrify_card()
            ),
        )
        .expected(format!("`{{do: remove-petrification, unit: {unit}}}` first"))
        .found(format!("a {what}"))
        .cited(self.cite(&self.petrify_card())))
    }

    /// Taking a petrification marker off: an own petrified unit, one of
    /// its activation cards in hand.
    pub(crate) fn check_unpetrify(&self, s: &State, p: usize, unit: &str) -> Result<(), Violation> {
        let r = rule::ACTIONS;
        let sl = self.slot_of(s, unit, r)?;
        if s.units[sl].owner as usize != p {
            return Err(v(r, format!("`{unit}` is not {}'s unit", self.name(s, p)))
                .expected("one of the player's own units")
                .found(format!("`{unit}`")));
        }
        if !s.units[sl].petrified {
            return Err(v(r, format!("`{unit}` has no petrification marker"))
                .expected("a petrified unit")
                .found(format!("`{unit}`")));
        }
        let c = self.def(s, sl).card as usize;
        if s.players[p].hand.count(c) == 0 {
            return Err(v(
                r,
                format!("removing the marker discards an activation card of `{unit}`"),
            )
            .expected(format!("a `{}` card in hand", self.t.cards[c]))
            .found("none in hand"));
        }
        Ok(())
    }
}
