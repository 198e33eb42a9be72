//! The log header of ONE v MANY (two players, one per side, with ONE's
//! character and MANY's boss) and the state it sets up (OVM-1).

use serde::{Deserialize, Serialize};

use super::OneVMany;
use super::rule;
use super::state::{EMPTY, FREE, Phase, State};
use super::tables::{MAX_SQUARES, NONE};
use crate::rules::Violation;
use crate::rules::kit::v;

/// The log header: two players, one per side.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    pub players: Vec<PlayerSetup>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerSetup {
    pub name: String,
    /// `one` or `many`.
    pub side: String,
    /// ONE's character card.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub character: Option<String>,
    /// MANY's boss card.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub boss: Option<String>,
}

impl OneVMany {
    /// The state after setup, or the setup rule the header breaks.
    pub(super) fn setup(&self, setup: &Setup) -> Result<State, Violation> {
        if setup.players.len() != 2 {
            return Err(v(rule::SETUP, "ONE v MANY is played by two players")
                .expected("2 players: ONE and MANY")
                .found(format!("{} players", setup.players.len())));
        }
        let sides: Vec<&str> = setup.players.iter().map(|p| p.side.as_str()).collect();
        let one_player = match sides.as_slice() {
            ["one", "many"] => 0,
            ["many", "one"] => 1,
            _ => {
                return Err(v(rule::SETUP, "one player is ONE and the other is MANY")
                    .expected("sides one and many")
                    .found(format!("sides {}", sides.join(" and "))));
            }
        };
        let one = &setup.players[one_player];
        let many = &setup.players[1 - one_player];
        let ch = one.character.as_deref().unwrap_or("");
        let character = self.t.character(ch).ok_or_else(|| {
            v(rule::SETUP, format!("ONE ({}) must pick one character card", one.name))
                .expected(format!(
                    "one of {}",
                    self.t
                        .characters
                        .iter()
                        .map(|c| c.id.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
                .found(if ch.is_empty() { "no character" } else { ch })
        })?;
        let b = many.boss.as_deref().unwrap_or("");
        let boss = self.t.boss(b).ok_or_else(|| {
            v(rule::SETUP, format!("MANY ({}) must pick one boss card", many.name))
                .expected(format!(
                    "one of {}",
                    self.t
                        .bosses
                        .iter()
                        .map(|c| c.id.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
                .found(if b.is_empty() { "no boss" } else { b })
        })?;
        if one.boss.is_some() || many.character.is_some() {
            return Err(v(rule::SETUP, "ONE picks a character and MANY picks a boss")
                .expected("`character` for ONE, `boss` for MANY")
                .found("a card on the wrong side"));
        }
        let c = &self.t.characters[character as usize];
        let mut s = State {
            one_player: one_player as u8,
            to_move: one_player as u8,
            character,
            boss,
            round: 1,
            turn: 1,
            phase: Phase::Reveal,
            scenario: NONE,
            used_scenarios: 0,
            terrain: [EMPTY; MAX_SQUARES],
            occ: [FREE; MAX_SQUARES],
            tokens: Vec::with_capacity(16),
            alive: 0,
            pool: [0; 16],
            deploy_left: 0,
            one_sq: NONE,
            one_life: c.life,
            one_max: c.life,
            one_ap: c.actions,
            one_range: c.range,
            one_dmg: c.damage,
            one_obstacle_extra: 0,
            many_life: 0,
            many_melee: 0,
            many_ranged: 0,
            spent: 0,
            bonus_ap: 0,
            bonus_range: 0,
            bonus_dmg: 0,
            climb: false,
            active: NONE,
            one_owned: 0,
            many_owned: 0,
            one_seen: 0,
            many_seen: 0,
            drawn_one: [NONE; 2],
            drawn_many: [NONE; 2],
            paired: (NONE, NONE),
            over: None,
        };
        self.start_round_board(&mut s);
        Ok(s)
    }
}
