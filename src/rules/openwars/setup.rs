//! The log header of Open Wars (a scenario map, two players with their
//! factions, starting armies and deployments) and the state it sets up.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::OpenWars;
use super::rule;
use super::state::{Phase, State, bit};
use super::tables::WATER;
use crate::rules::Violation;
use crate::rules::kit::v;

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// The scenario map's id.
    pub scenario: String,
    pub players: Vec<PlayerSetup>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerSetup {
    pub name: String,
    pub faction: String,
    /// The starting army: unit id → tokens.
    pub deck: BTreeMap<String, u32>,
    /// Where it starts: cell → unit id → tokens.
    pub deploy: BTreeMap<String, BTreeMap<String, u32>>,
}

impl OpenWars {
    /// The state after setup, or the rule the header breaks.
    pub(super) fn setup(&self, setup: &Setup) -> Result<State, Violation> {
        let Some(mi) = self.t.maps.iter().position(|m| m.id == setup.scenario) else {
            return Err(v(rule::SETUP, format!("there is no scenario `{}`", setup.scenario))
                .expected(format!(
                    "one of {}",
                    self.t.maps.iter().map(|m| m.id.as_str()).collect::<Vec<_>>().join(", ")
                ))
                .found(setup.scenario.as_str()));
        };
        let m = &self.t.maps[mi];
        if setup.players.len() != 2 || m.players != 2 {
            return Err(v(rule::SETUP, "the engine plays two-player scenarios")
                .expected(format!("{} players (the scenario's count, and 2)", m.players))
                .found(format!("{} players", setup.players.len())));
        }
        let mut faction = [0u8; 2];
        for (p, ps) in setup.players.iter().enumerate() {
            let Some(f) = self.t.factions.iter().position(|f| *f == ps.faction) else {
                return Err(v(rule::SETUP, format!("{} picks an unknown faction", ps.name))
                    .expected(format!("one of {}", self.t.factions.join(", ")))
                    .found(ps.faction.as_str()));
            };
            faction[p] = f as u8;
        }
        if faction[0] == faction[1] {
            return Err(v(rule::SETUP, "each player chooses a different faction")
                .expected("two factions")
                .found(format!("both play the {}", setup.players[0].faction)));
        }
        let mut s = State {
            names: setup.players.iter().map(|p| p.name.clone()).collect(),
            map: mi as u8,
            faction,
            turn: 1,
            phase: Phase::OrderRoll,
            step: 0,
            order: [0, 1],
            to_move: 0,
            done: false,
            gold: [m.gold; 2],
            mana: [m.mana; 2],
            stacks: Vec::new(),
            fallen: vec![0; self.t.units.len()],
            fight: None,
            resolved: 0,
            contested_started: false,
            streak: [0; 2],
            result: None,
            lasting: Vec::new(),
            uses: Default::default(),
            held: 0,
            holder: Vec::new(),
        };
        for (p, ps) in setup.players.iter().enumerate() {
            let p8 = p as u8;
            let mut cost = 0u32;
            for (id, &k) in &ps.deck {
                let u = self.unit_ix(id, rule::RECRUITMENT)?;
                let ud = self.unit(u);
                if ud.faction != faction[p] {
                    return Err(v(
                        rule::RECRUITMENT,
                        format!("{}'s army holds {id}, a unit of another faction", ps.name),
                    )
                    .expected(format!("units of the {}", ps.faction))
                    .found(format!("{id} ({})", self.t.factions[usize::from(ud.faction)])));
                }
                let limit = if ud.unique { 1 } else { u32::from(ud.copies) };
                if k > limit {
                    return Err(v(
                        rule::RECRUITMENT,
                        format!(
                            "{}'s army has more {id} than {}",
                            ps.name,
                            if ud.unique {
                                "a unique unit allows"
                            } else {
                                "the kit holds"
                            }
                        ),
                    )
                    .expected(format!("at most {limit}"))
                    .found(format!("{k}")));
                }
                cost = cost.saturating_add(k.saturating_mul(u32::from(ud.cost)));
            }
            if cost > m.budget {
                return Err(v(
                    rule::RECRUITMENT,
                    format!("{}'s starting army costs more than the budget", ps.name),
                )
                .expected(format!("at most {} gold", m.budget))
                .found(format!("{cost} gold")));
            }
            let mut placed: BTreeMap<&str, u32> = BTreeMap::new();
            for (cell, units) in &ps.deploy {
                let Some(c) = m.cell(cell) else {
                    return Err(v(rule::SETUP, format!("`{cell}` is not a cell of {}", m.id))
                        .expected("a start cell")
                        .found(cell.as_str()));
                };
                if m.starts.get(p).is_none_or(|st| st & bit(c) == 0) {
                    return Err(v(rule::SETUP, format!("{} deploys outside their start cells", ps.name))
                        .expected(format!(
                            "one of {}",
                            m.ids(m.starts.get(p).copied().unwrap_or(0)).join(", ")
                        ))
                        .found(cell.as_str()));
                }
                for (id, &k) in units {
                    let u = self.unit_ix(id, rule::SETUP)?;
                    let k8 = u8::try_from(k).unwrap_or(u8::MAX);
                    if k8 == 0 {
                        continue;
                    }
                    let cl = &m.cells[usize::from(c)];
                    if self.unit(u).ty == WATER && cl.ty != WATER && !cl.port {
                        return Err(v(
                            rule::WATER,
                            format!("{id} is a water unit: it starts in water or in a port city"),
                        )
                        .expected("water or a city next to water")
                        .found(cell.as_str()));
                    }
                    self.stacking(&s, p8, u, c, k8)?;
                    let mv = self.unit(u).movement;
                    self.add_tokens(&mut s, p8, u, c, k8, &[mv; 4]);
                    *placed.entry(id.as_str()).or_default() += k;
                }
            }
            let deck: BTreeMap<&str, u32> = ps
                .deck
                .iter()
                .filter(|(_, k)| **k > 0)
                .map(|(id, k)| (id.as_str(), *k))
                .collect();
            if placed != deck {
                let show = |m: &BTreeMap<&str, u32>| {
                    m.iter()
                        .map(|(k, n)| format!("{k}: {n}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                return Err(v(rule::SETUP, format!("{} must deploy exactly their army", ps.name))
                    .expected(format!("{{{}}}", show(&deck)))
                    .found(format!("{{{}}}", show(&placed))));
            }
        }
        self.note_holders(&mut s);
        self.begin_turn(&mut s);
        Ok(s)
    }
}
