//! The log header of ONE v MANY (two players, one per side, with ONE's
//! character and MANY's boss) and the state it sets up (OVM-1).

use serde::{Deserialize, Serialize};

use super::OneVMany;
use super::rule;
use super::state::{EMPTY, FREE, Phase, State, bit};
use super::tables::{MAX_SQUARES, NONE};
use crate::rules::Violation;
use crate::rules::kit::v;

/// The log header: two players, one per side; a game recorded from a
/// later round says which (`round:`) and the upgrades each side holds.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    pub players: Vec<PlayerSetup>,
    /// The round the log starts in (1 by default).
    #[serde(default = "first_round", skip_serializing_if = "is_first_round")]
    pub round: u8,
}

fn first_round() -> u8 {
    1
}

fn is_first_round(r: &u8) -> bool {
    *r == 1
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
    /// The upgrades the side holds when the log starts in a later round:
    /// ONE's upgrades for ONE, MANY's for MANY, one per round played.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub upgrades: Vec<String>,
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
            moved: false,
            one_attacked: false,
            removed: None,
            uses: Default::default(),
            torch: false,
        };
        self.later_round(&mut s, setup.round, &one.upgrades, &many.upgrades)?;
        self.start_round_board(&mut s);
        Ok(s)
    }

    /// A log that starts in round `round`, the sides holding `one` and
    /// `many` upgrades (at most one per round played, each once).
    fn later_round(&self, s: &mut State, round: u8, one: &[String], many: &[String]) -> Result<(), Violation> {
        let last = self.t.boss_round;
        if round == 0 || round > last {
            return Err(v(rule::SETUP, format!("a game has rounds 1 to {last}, not {round}"))
                .expected(format!("`round:` from 1 to {last}"))
                .found(format!("round {round}")));
        }
        s.round = round;
        for (ids, is_one) in [(one, true), (many, false)] {
            let side = if is_one { "ONE" } else { "MANY" };
            if ids.len() > usize::from(round - 1) {
                return Err(v(
                    rule::UPGRADES,
                    format!("{side} holds {} upgrade(s) in round {round}", ids.len()),
                )
                .expected(format!("at most {} (one per round played)", round - 1))
                .found(format!("upgrades: [{}]", ids.join(", "))));
            }
            for id in ids {
                let u = if is_one {
                    self.t.one_upgrade(id)
                } else {
                    self.t.many_upgrade(id)
                };
                let owned = if is_one { s.one_owned } else { s.many_owned };
                let Some(u) = u.filter(|u| owned & bit(*u) == 0) else {
                    return Err(
                        v(rule::UPGRADES, format!("`{id}` is not an upgrade {side} can hold here"))
                            .expected(format!("{side}'s upgrades, each once"))
                            .found(id.clone()),
                    );
                };
                if is_one {
                    s.one_owned |= bit(u);
                    s.one_seen |= bit(u);
                    let gain = self.life_gain(self.t.fx.one_upgrades[u as usize]);
                    s.one_max = (s.one_max + gain).max(1);
                    s.one_life = (s.one_life + gain).clamp(1, s.one_max);
                } else {
                    s.many_owned |= bit(u);
                    s.many_seen |= bit(u);
                }
            }
        }
        Ok(())
    }
}
