//! What a log's checkpoints and the summary see of a state, and how the
//! game ended.

use serde_json::{Map, Value as Json, json};

use super::OpenWars;
use super::rule;
use super::state::{Phase, Stack, State};
use crate::rules::Ending;

impl OpenWars {
    /// The observable state.
    pub(super) fn view(&self, s: &State) -> Json {
        let m = self.map(s);
        let per = |f: &dyn Fn(usize) -> Json| -> Json {
            let mut o = Map::new();
            for p in 0..2 {
                o.insert(s.names[p].clone(), f(p));
            }
            Json::Object(o)
        };
        let mut o = Map::new();
        o.insert("turn".into(), json!(s.turn));
        o.insert("phase".into(), json!(s.phase.name()));
        if s.phase != Phase::Over {
            o.insert("player".into(), json!(s.names[usize::from(s.to_move)]));
        }
        o.insert(
            "order".into(),
            json!([s.names[usize::from(s.order[0])], s.names[usize::from(s.order[1])]]),
        );
        o.insert("gold".into(), per(&|p| json!(s.gold[p])));
        o.insert("mana".into(), per(&|p| json!(s.mana[p])));
        o.insert("army".into(), per(&|p| json!(self.army_value(s, p as u8))));
        if let Some(f) = s.fight {
            o.insert(
                "fight".into(),
                json!({"at": m.grid.name(f.cell), "kind": if f.ranged {"ranged"} else {"contested"}, "round": f.round}),
            );
        }
        let mut idx: Vec<&Stack> = s.stacks.iter().collect();
        idx.sort_by_key(|x| (x.cell, x.player, x.unit));
        let mut units = Map::new();
        for x in idx {
            let cell = units
                .entry(m.grid.name(x.cell).to_string())
                .or_insert_with(|| Json::Object(Map::new()));
            if let Json::Object(c) = cell {
                c.insert(self.unit(x.unit).id.clone(), json!(x.n));
            }
        }
        o.insert("units".into(), Json::Object(units));
        let fallen: Map<String, Json> = s
            .fallen
            .iter()
            .enumerate()
            .filter(|(_, n)| **n > 0)
            .map(|(u, n)| (self.t.units[u].id.clone(), json!(n)))
            .collect();
        if !fallen.is_empty() {
            o.insert("fallen".into(), Json::Object(fallen));
        }
        if let Some((w, reason)) = s.result {
            o.insert(
                "winner".into(),
                json!(w.map_or("none".to_string(), |w| s.names[usize::from(w)].clone())),
            );
            o.insert("reason".into(), json!(reason));
        }
        Json::Object(o)
    }

    /// Army value ahead of the opponent's (units lost count against), then gold and mana.
    pub(super) fn progress_of(&self, s: &State, player: usize) -> i64 {
        let p = player.min(1) as u8;
        let army = |q: u8| i64::from(self.army_value(s, q));
        4 * (army(p) - army(1 - p)) + i64::from(s.gold[usize::from(p)]) + i64::from(s.mana[usize::from(p)])
    }

    /// The game's end, once reached.
    pub(super) fn end(&self, s: &State) -> Option<Ending> {
        s.result.map(|(w, reason)| Ending {
            winners: w.map(|w| vec![usize::from(w)]).unwrap_or_default(),
            reason: reason.to_string(),
            rule: rule::VICTORY,
        })
    }
}
