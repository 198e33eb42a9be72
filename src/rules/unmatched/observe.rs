//! What a log's checkpoints and the summary see of a state, and how the
//! game ended.

use serde_json::{Map, Value as Json, json};

use super::Unmatched;
use super::rule;
use super::state::{Phase, Player, State};
use super::tables::{Ability, OFF};
use crate::rules::Ending;

impl Unmatched {
    /// The observable state.
    pub(super) fn view(&self, s: &State) -> Json {
        let b = self.board(s);
        let mut hp = Map::new();
        let mut at = Map::new();
        for f in s.figs() {
            let name = self.fig_name(f).to_string();
            hp.insert(name.clone(), json!(f.hp));
            if f.at != OFF {
                at.insert(name, json!(b.name(f.at)));
            }
        }
        let per = |g: &dyn Fn(&Player) -> u16| -> Json {
            Json::Object(
                (0..s.n)
                    .map(|p| (s.name(p).to_string(), json!(g(&s.players[p as usize]))))
                    .collect(),
            )
        };
        let phase = match s.phase {
            Phase::Actions if s.actions >= self.t.numbers.actions_per_turn => "end",
            Phase::Actions => "actions",
            Phase::Maneuver { .. } => "maneuver",
            Phase::Combat { .. } => "combat",
        };
        let mut o = Map::new();
        o.insert("turn".into(), json!(s.turn));
        o.insert("player".into(), json!(s.name(s.to_move)));
        o.insert("actions".into(), json!(s.actions));
        o.insert("phase".into(), json!(phase));
        o.insert("hp".into(), Json::Object(hp));
        o.insert("at".into(), Json::Object(at));
        o.insert("hand".into(), per(&|p| p.hand.total()));
        o.insert("deck".into(), per(&|p| p.deck.total()));
        o.insert("discard".into(), per(&|p| p.discard.total()));
        for p in 0..s.n {
            if self.hero(s, p).ability == Ability::Size {
                o.insert(
                    "size".into(),
                    json!(if s.players[p as usize].big { "big" } else { "small" }),
                );
            }
        }
        if let Some(c) = s.last {
            o.insert(
                "combat".into(),
                json!({"attack": c.attack, "defense": c.defense, "damage": c.damage,
                       "winner": if c.attacker_won { "attacker" } else { "defender" }}),
            );
        }
        Json::Object(o)
    }

    /// Health on the player's team minus health on the others' (damage dealt counts double with damage taken).
    pub(super) fn progress_of(&self, s: &State, player: usize) -> i64 {
        let team = s.team_of(player as u8);
        s.figs()
            .iter()
            .map(|f| {
                let hp = i64::from(f.hp) + if f.is_hero { i64::from(f.hp) } else { 0 };
                if s.team_of(f.owner) == team { hp } else { -hp }
            })
            .sum()
    }

    /// The game's end, once reached.
    pub(super) fn end(&self, s: &State) -> Option<Ending> {
        let w = s.over?;
        let winners: Vec<usize> = (0..s.n as usize).filter(|p| w & (1 << p) != 0).collect();
        let reason = if winners.is_empty() {
            "all-heroes-defeated"
        } else if s.teams {
            "team-heroes-defeated"
        } else {
            "hero-defeated"
        };
        Some(Ending {
            winners,
            reason: reason.into(),
            rule: rule::DEFEAT,
        })
    }
}
