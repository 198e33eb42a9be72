//! The log header of Mythic Battles (mode, battlefield, players with their
//! armies, opening draws and, in the learning scenario, start positions) and
//! the state it sets up (MB-1).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::Mythic;
use super::rule;
use super::state::{NONE, OFF, Player, State, Turn, Unit, tally};
use super::tables::{AOW, Cat, MAXA, MAXC, MAXU, Shape};
use crate::rules::Violation;
use crate::rules::kit::{Pile, bits, plural, v};

/// The log header.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// A `mode` component id (`learning`, `duel`, `alliance` …).
    pub mode: String,
    /// A `battlefield` component id; the pack's first one when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub battlefield: Option<String>,
    /// Fixed armies: the reading of the setup the players agreed, when it
    /// is not the mode's `start_areas` (the kit has no setup diagram).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_areas: Option<StartAreas>,
    /// In turn order.
    pub players: Vec<PlayerSetup>,
}

/// Where fixed armies may start (the mode's `start_areas`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StartAreas {
    /// In each side's deployment areas.
    Deployment,
    /// Anywhere on the battlefield.
    Anywhere,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerSetup {
    pub name: String,
    /// The army: `{unit id: 1}` for the God, heroes, monsters and troops.
    pub deck: BTreeMap<String, u32>,
    /// The cards drawn from the shuffled deck for the opening hand (MB-1).
    pub draw: Vec<String>,
    /// `player`, or in 3 vs 1 `lone` (player 1) and `ally` (the others);
    /// optional, for the deck validator.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    /// Learning scenario only: where each unit starts (`{zeus: a2}`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub start: BTreeMap<String, String>,
}

impl Mythic {
    /// The state after setup, or the rule the header breaks.
    pub(super) fn setup(&self, setup: &Setup) -> Result<State, Violation> {
        let r = rule::SETUP;
        let t = &self.t;
        let m = t.modes.iter().position(|m| m.id == setup.mode).ok_or_else(|| {
            v(r, format!("there is no game mode `{}`", setup.mode))
                .expected(format!(
                    "one of {}",
                    t.modes.iter().map(|m| m.id.as_str()).collect::<Vec<_>>().join(", ")
                ))
                .found(&setup.mode)
        })?;
        let mode = &t.modes[m];
        if let Some(given) = setup.start_areas
            && mode.shape != Shape::Fixed
        {
            return Err(v(
                r,
                format!(
                    "the `{}` mode has no start positions: units enter the battlefield with their first activation",
                    mode.id
                ),
            )
            .expected("no `start_areas`")
            .found(format!(
                "start_areas: {}",
                if given == StartAreas::Anywhere {
                    "anywhere"
                } else {
                    "deployment"
                }
            )));
        }
        let start_anywhere = setup
            .start_areas
            .map_or(mode.start_anywhere, |a| a == StartAreas::Anywhere);
        let b = match &setup.battlefield {
            Some(id) => t.boards.iter().position(|b| &b.id == id).ok_or_else(|| {
                v(r, format!("there is no battlefield `{id}`"))
                    .expected(format!(
                        "one of {}",
                        t.boards.iter().map(|b| b.id.as_str()).collect::<Vec<_>>().join(", ")
                    ))
                    .found(id)
            })?,
            None => t
                .boards
                .iter()
                .position(|b| b.omphalos.iter().any(|(mi, _)| *mi == m))
                .unwrap_or(0),
        };
        let board = &t.boards[b];
        if setup.players.len() != mode.players as usize {
            return Err(v(
                r,
                format!("the `{}` mode is played by {} players", mode.id, mode.players),
            )
            .expected(plural(mode.players as u32, "player", "players"))
            .found(plural(setup.players.len() as u32, "player", "players")));
        }
        let layout = board
            .omphalos
            .iter()
            .find(|(mi, _)| *mi == m)
            .map(|(_, l)| l.clone())
            .ok_or_else(|| {
                v(
                    r,
                    format!(
                        "the `{}` battlefield has no omphalos layout for the `{}` mode",
                        board.id, mode.id
                    ),
                )
                .expected("a battlefield with omphalos spots for this mode")
                .found(&board.id)
            })?;
        for p in 0..setup.players.len() {
            if board.deploy[(mode.side(p) as usize - 1).min(3)] == 0 {
                return Err(v(
                    r,
                    format!(
                        "the `{}` battlefield has no deployment area for side {}",
                        board.id,
                        mode.side(p)
                    ),
                )
                .expected(format!("deployment areas for {} sides", mode.sides))
                .found(&board.id));
            }
        }

        let mut slot = [NONE; MAXU];
        let mut units: Vec<Unit> = Vec::new();
        let mut players = Vec::new();
        for (p, ps) in setup.players.iter().enumerate() {
            let role = match mode.shape {
                Shape::Lone if p == 0 => "lone",
                Shape::Lone => "ally",
                _ => "player",
            };
            if let Some(given) = &ps.role
                && given != role
            {
                return Err(v(
                    r,
                    format!("in the `{}` mode {} plays the role `{role}`", mode.id, ps.name),
                )
                .expected(format!("role `{role}`"))
                .found(format!("role `{given}`")));
            }
            let mut god = NONE;
            let mut army = Vec::new();
            for (id, &n) in &ps.deck {
                let u = t.unit(id).ok_or_else(|| {
                    v(
                        r,
                        format!("{}'s army names `{id}`, which is no unit of the game", ps.name),
                    )
                    .expected("character or troop ids")
                    .found(id)
                })?;
                if n != 1 {
                    return Err(v(
                        r,
                        format!(
                            "{}'s army has {n} copies of `{id}`; each unit is one figure set",
                            ps.name
                        ),
                    )
                    .expected("1 copy")
                    .found(format!("{n} copies")));
                }
                if slot[u as usize] != NONE {
                    let other = &setup.players[units[slot[u as usize] as usize].owner as usize].name;
                    return Err(v(r, format!("`{id}` is in the armies of both {other} and {}", ps.name))
                        .expected("each unit in one army")
                        .found("two armies"));
                }
                if t.units[u as usize].cat == Cat::God {
                    if god != NONE {
                        return Err(v(r, format!("{} has two Gods", ps.name))
                            .expected("1 God")
                            .found("2 Gods"));
                    }
                    god = units.len() as u8;
                }
                slot[u as usize] = units.len() as u8;
                army.push(u);
                units.push(Unit {
                    def: u,
                    owner: p as u8,
                    at: OFF,
                    wounds: 0,
                    carry: false,
                    petrified: false,
                });
            }
            let needs_god = mode.gods.contains(&(p as u8));
            if needs_god && god == NONE {
                return Err(v(r, format!("{} has no God", ps.name)).expected("1 God").found("none"));
            }
            if !needs_god && god != NONE {
                return Err(v(r, format!("in the `{}` mode player {} takes no God", mode.id, p + 1))
                    .expected("no God")
                    .found(self.t.units[units[god as usize].def as usize].id.clone()));
            }
            if mode.shape == Shape::Fixed {
                army.sort_unstable();
                let fixed = mode.armies.iter().any(|a| {
                    let mut a = a.clone();
                    a.sort_unstable();
                    a == army
                });
                if !fixed {
                    let show = |a: &[u8]| {
                        a.iter()
                            .map(|&u| t.units[u as usize].id.as_str())
                            .collect::<Vec<_>>()
                            .join(" + ")
                    };
                    return Err(v(
                        r,
                        format!("{} does not play one of the scenario's fixed armies", ps.name),
                    )
                    .expected(mode.armies.iter().map(|a| show(a)).collect::<Vec<_>>().join(" or "))
                    .found(show(&army)));
                }
            }
            let mut deck = [0u8; MAXC];
            for &u in &army {
                let d = &t.units[u as usize];
                deck[d.card as usize] += d.activation;
                deck[AOW as usize] += d.strategy;
            }
            let drawn = tally(t, &ps.draw).map_err(|id| {
                v(
                    r,
                    format!("{}'s opening draw names `{id}`, which is no card of the game", ps.name),
                )
                .expected("card ids: `art-of-war`, or a unit's activation card")
                .found(id)
            })?;
            if ps.draw.len() != mode.opening_draw as usize {
                return Err(v(
                    r,
                    format!(
                        "{} draws {} for the opening hand",
                        ps.name,
                        plural(ps.draw.len() as u32, "card", "cards")
                    ),
                )
                .expected(plural(mode.opening_draw as u32, "card", "cards"))
                .found(plural(ps.draw.len() as u32, "card", "cards")));
            }
            if let Some(c) = (0..MAXC).find(|&c| drawn[c] > deck[c]) {
                return Err(v(r, format!("{}'s deck cannot give the opening draw", ps.name))
                    .expected(format!("at most {} `{}` (the deck's copies)", deck[c], t.cards[c]))
                    .found(format!("{} drawn", drawn[c])));
            }
            let mut hand = drawn;
            hand[AOW as usize] += mode.opening_aow;
            for c in 0..MAXC {
                deck[c] -= drawn[c];
            }
            players.push(Player {
                hand: Pile::of(hand),
                deck: Pile::of(deck),
                discard: Pile::default(),
                absorbed: 0,
                out: false,
                team: mode.team(p),
                side: mode.side(p),
                god,
            });
        }
        let mut s = State {
            names: setup.players.iter().map(|p| p.name.clone()).collect(),
            mode: m as u8,
            board: b as u8,
            players,
            units,
            slot,
            ground: [0; MAXA],
            reserve: mode.omphalos_cards.min(t.omphalos_copies),
            removed: 0,
            cycle_pos: 0,
            turn: 0,
            cycles: 0,
            t: Turn::NEW,
            winner: None,
            uses: Default::default(),
        };
        for a in layout {
            s.ground[a as usize] += 1;
        }
        // Learning scenario: every unit starts on the battlefield.
        for (p, ps) in setup.players.iter().enumerate() {
            if mode.shape != Shape::Fixed {
                if let Some(id) = ps.start.keys().next() {
                    return Err(v(r, format!("{} places `{id}` at the start; in this mode units enter the battlefield with their first activation", ps.name))
                        .expected("no `start`")
                        .found("a `start` placement"));
                }
                continue;
            }
            for (id, area) in &ps.start {
                let sl = t.unit(id).map_or(NONE, |u| s.slot[u as usize]);
                if sl == NONE || s.units[sl as usize].owner as usize != p {
                    return Err(v(r, format!("{} places `{id}`, which is not in their army", ps.name))
                        .expected("a unit of the player's army")
                        .found(id));
                }
                let a = board.area(area).ok_or_else(|| {
                    v(
                        r,
                        format!("there is no area `{area}` on the `{}` battlefield", board.id),
                    )
                    .expected("an area id")
                    .found(area)
                })?;
                // The seed's setup puts each army by its own deployment zone;
                // `start_areas: anywhere` on the mode lifts this.
                let side = s.players[p].side;
                let deploy = board.deploy[(side as usize - 1).min(3)];
                if !start_anywhere && deploy & (1 << a) == 0 {
                    return Err(v(
                        r,
                        format!(
                            "{} starts `{id}` in `{area}`, outside the deployment areas of side {side}",
                            ps.name
                        ),
                    )
                    .expected(format!(
                        "one of {}",
                        bits(deploy)
                            .map(|i| board.areas[i].id.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ))
                    .found(area));
                }
                let here = s.units.iter().filter(|u| u.at == a).count();
                if here >= board.areas[a as usize].capacity as usize {
                    return Err(v(r, format!("area `{area}` is full"))
                        .expected(format!("at most {} units", board.areas[a as usize].capacity))
                        .found(format!("{} units", here + 1)));
                }
                s.units[sl as usize].at = a;
            }
            let zone: Vec<usize> = bits(board.deploy[(s.players[p].side as usize - 1).min(3)]).collect();
            let mut k = 0;
            for i in 0..s.units.len() {
                if s.units[i].owner as usize != p || s.units[i].at != OFF {
                    continue;
                }
                for _ in 0..zone.len() {
                    let a = zone[k % zone.len()];
                    k += 1;
                    let here = s.units.iter().filter(|u| u.at as usize == a).count();
                    if here < board.areas[a].capacity as usize {
                        s.units[i].at = a as u8;
                        break;
                    }
                }
                if s.units[i].at == OFF {
                    return Err(v(r, format!("{}'s units do not fit in the deployment areas", ps.name))
                        .expected("room for every unit")
                        .found("full deployment areas"));
                }
            }
        }
        Ok(s)
    }
}
