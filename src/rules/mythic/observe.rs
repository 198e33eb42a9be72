//! What a log's checkpoints and the summary see of a state, and how the
//! game ended.

use serde_json::{Map, Value as Json, json};

use super::Mythic;
use super::rule;
use super::state::{DEAD, GONE, NONE, OFF, Player, State};
use super::tables::Shape;
use crate::rules::Ending;
use crate::rules::Engine;

impl Mythic {
    /// The observable state.
    pub(super) fn view(&self, s: &State) -> Json {
        let b = self.board(s);
        let mut vitality = Map::new();
        let mut at = Map::new();
        let mut carry = Vec::new();
        let mut petrified = Vec::new();
        for (i, u) in s.units.iter().enumerate() {
            let d = self.def(s, i);
            let left = if u.alive() {
                d.life().saturating_sub(u.wounds)
            } else {
                0
            };
            vitality.insert(d.id.clone(), json!(left));
            at.insert(
                d.id.clone(),
                json!(match u.at {
                    OFF => "off",
                    DEAD => "destroyed",
                    GONE => "gone",
                    a => b.areas.get(a as usize).map_or("?", |a| a.id.as_str()),
                }),
            );
            if u.carry {
                carry.push(json!(d.id));
            }
            if u.petrified {
                petrified.push(json!(d.id));
            }
        }
        let mut ground = Map::new();
        for (i, &n) in s.ground.iter().enumerate().take(b.areas.len()) {
            if n > 0 {
                ground.insert(b.areas[i].id.clone(), json!(n));
            }
        }
        let per_player = |f: &dyn Fn(&Player) -> u32| -> Json {
            Json::Object(
                s.players
                    .iter()
                    .enumerate()
                    .map(|(i, p)| (self.name(s, i).to_string(), json!(f(p))))
                    .collect(),
            )
        };
        let mut o = Map::new();
        o.insert("turn".into(), json!(s.turn + 1));
        o.insert("player".into(), json!(self.name(s, self.to_move(s))));
        o.insert("activations".into(), json!(s.t.activations));
        o.insert("vitality".into(), Json::Object(vitality));
        o.insert("at".into(), Json::Object(at));
        if !carry.is_empty() {
            o.insert("carrying".into(), Json::Array(carry));
        }
        if !petrified.is_empty() {
            o.insert("petrified".into(), Json::Array(petrified));
        }
        o.insert("omphalos".into(), Json::Object(ground));
        o.insert("absorbed".into(), per_player(&|p| p.absorbed as u32));
        if self.mode(s).shape == Shape::Lone {
            o.insert("removed".into(), json!(s.removed));
        }
        o.insert("hand".into(), per_player(&|p| u32::from(p.hand.total())));
        o.insert("deck".into(), per_player(&|p| u32::from(p.deck.total())));
        Json::Object(o)
    }

    /// Wounds dealt to other teams' units minus wounds taken, and omphalos absorbed.
    pub(super) fn progress_of(&self, s: &State, player: usize) -> i64 {
        let team = s.players[player].team;
        let wounds: i64 = s
            .units
            .iter()
            .enumerate()
            .map(|(i, u)| {
                let w = if u.alive() { i64::from(u.wounds) } else { 10 };
                if self.team(s, i) == team { -w } else { w }
            })
            .sum();
        let absorbed: i64 = s
            .players
            .iter()
            .map(|p| {
                if p.team == team {
                    5 * i64::from(p.absorbed)
                } else {
                    -5 * i64::from(p.absorbed)
                }
            })
            .sum();
        wounds + absorbed
    }

    /// The game's end, once reached.
    pub(super) fn end(&self, s: &State) -> Option<Ending> {
        let (team, reason) = s.winner?;
        let rule = rule::VICTORY;
        let winners = if team == NONE {
            Vec::new()
        } else {
            (0..s.players.len()).filter(|&p| s.players[p].team == team).collect()
        };
        Some(Ending {
            winners,
            reason: reason.to_string(),
            rule,
        })
    }
}
