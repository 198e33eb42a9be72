//! The state of an XTerminio game: each player's decks, hand, CAMP and
//! BATTLE, ENERGY and score; and what the rules ask of it.

use std::sync::Arc;

use super::Xterminio;
use super::actions::Slot;
use super::effects::{Event, Fixed, Journal, Lasting, Uses};
use super::setup::Mode;
use super::tables::{Kind, MAX_CARDS};
use crate::rules::kit::Pile;

/// The canonical names of the two decks in a draw (`choice` form).
pub(super) const CHAR_DECK: &str = "character-deck";
pub(super) const SUPPORT_DECK: &str = "support-deck";

/// The phases that follow the draw, in order (XT-4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Phase {
    Main,
    Attack,
    Camp,
    Cleanup,
}

impl Phase {
    pub(super) fn name(self) -> &'static str {
        match self {
            Phase::Main => "main",
            Phase::Attack => "attack",
            Phase::Camp => "camp",
            Phase::Cleanup => "cleanup",
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Fighter {
    pub(super) card: u8,
    pub(super) damage: u8,
    pub(super) exhausted: bool,
    /// Attacked (or made a point attack) this turn.
    pub(super) attacked: bool,
    pub(super) stunned: bool,
    pub(super) equipment: Option<u8>,
}

#[derive(Clone, Copy, Debug)]
pub(super) struct CampCard {
    pub(super) card: u8,
    /// Laid this turn: not deployable before its owner's next turn.
    pub(super) fresh: bool,
}

#[derive(Clone, Debug)]
pub(super) struct Side {
    /// Cards left in the decks, by card index.
    pub(super) deck: Pile<MAX_CARDS>,
    pub(super) deck_chars: u16,
    pub(super) deck_support: u16,
    /// The deck list as built.
    pub(super) owned: Pile<MAX_CARDS>,
    pub(super) hand: Pile<MAX_CARDS>,
    pub(super) camp: Vec<CampCard>,
    pub(super) battle: [Option<Fighter>; 5],
    pub(super) zone: Option<u8>,
    pub(super) energy_eq: Option<u8>,
    /// Fixed action cards in play, each on its slot.
    pub(super) fixed: Vec<Fixed>,
    /// A classic copy of this character was eliminated.
    pub(super) died: Vec<bool>,
    pub(super) energy: u16,
    pub(super) score: u16,
}

/// The full game state.
#[derive(Clone, Debug)]
pub struct State {
    pub(super) names: Arc<Vec<String>>,
    pub(super) mode: Mode,
    pub(super) target: u16,
    pub(super) p: [Side; 2],
    pub(super) turn: u16,
    pub(super) to_move: usize,
    pub(super) drawn: bool,
    pub(super) phase: Phase,
    /// Energy when the first character was deployed this turn (XT-7 cap).
    pub(super) deploy_cap: Option<u16>,
    pub(super) deployed: u16,
    /// The player whose action card awaits an answer (XT-12).
    pub(super) window: Option<usize>,
    /// The opponent ended their last turn with every character exhausted (XT-2).
    pub(super) point_ok: bool,
    pub(super) winner: Option<usize>,
    /// Outcomes that last (`until:`), from cards played or used.
    pub(super) lasting: Vec<Lasting>,
    /// Uses of limited clauses this turn.
    pub(super) uses: Uses,
    /// What automatic clauses applied by themselves this turn (a log may
    /// write it down as a confirmation).
    pub(super) applied: Journal,
    /// The last attack or move, which some cards answer.
    pub(super) last: Option<Event>,
    /// The upkeep is under way: the turn's choices of upkeep effects are
    /// open until the first main-phase action.
    pub(super) upkeep: bool,
}

impl Xterminio {
    pub(super) fn is_support(&self, c: u8) -> bool {
        self.t.get(c).kind != Kind::Character
    }

    pub(super) fn name<'a>(&self, s: &'a State, p: usize) -> &'a str {
        &s.names[p]
    }

    /// A waited (`true`) or fresh (`false`) copy of `c` in CAMP, waited first.
    pub(super) fn in_camp(side: &Side, c: u8) -> Option<bool> {
        let mut found = None;
        for cc in &side.camp {
            if cc.card == c {
                if !cc.fresh {
                    return Some(true);
                }
                found = Some(false);
            }
        }
        found
    }

    pub(super) fn fighter(s: &State, side: usize, slot: Slot) -> Option<&Fighter> {
        slot.index().and_then(|i| s.p[side].battle[i].as_ref())
    }

    /// Classic copies of `b` held in hand, CAMP and BATTLE.
    pub(super) fn classic_held(&self, side: &Side, b: u8) -> u16 {
        side.hand.count(b as usize) as u16
            + side.camp.iter().filter(|c| c.card == b).count() as u16
            + side.battle.iter().flatten().filter(|f| f.card == b).count() as u16
    }
}
