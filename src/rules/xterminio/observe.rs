//! What a log's checkpoints and the summary see of a state, and how the
//! game ended.

use serde_json::{Map, Value as Json, json};

use super::Xterminio;
use super::actions::Slot;
use super::effects::Spot;
use super::rule;
use super::state::{Side, State};
use crate::rules::Ending;

impl Xterminio {
    /// The observable state.
    pub(super) fn view(&self, s: &State) -> Json {
        let per = |f: &dyn Fn(&Side) -> Json| -> Json {
            let mut m = Map::new();
            for (i, side) in s.p.iter().enumerate() {
                m.insert(s.names[i].clone(), f(side));
            }
            Json::Object(m)
        };
        let battle = |side: &Side| -> Json {
            let mut m = Map::new();
            for (i, f) in side.battle.iter().enumerate() {
                if let Some(f) = f {
                    let mut txt = self.t.id(f.card).to_string();
                    if let Some(e) = f.equipment {
                        txt.push_str(" + ");
                        txt.push_str(self.t.id(e));
                    }
                    m.insert(Slot::CHARACTER[i].id().into(), Json::from(txt));
                }
            }
            Json::Object(m)
        };
        let damage = |side: &Side| -> Json {
            let mut m = Map::new();
            for (i, f) in side.battle.iter().enumerate() {
                if let Some(f) = f.filter(|f| f.damage > 0) {
                    m.insert(Slot::CHARACTER[i].id().into(), Json::from(f.damage));
                }
            }
            Json::Object(m)
        };
        let exhausted = |side: &Side| -> Json {
            Json::from(
                side.battle
                    .iter()
                    .enumerate()
                    .filter(|(_, f)| f.is_some_and(|f| f.exhausted))
                    .map(|(i, _)| Slot::CHARACTER[i].id())
                    .collect::<Vec<_>>(),
            )
        };
        // Stunned by a status or a card in force, and not immune.
        let mut stunned = Map::new();
        for (i, name) in s.names.iter().enumerate().take(2) {
            let slots: Vec<&str> = Slot::CHARACTER
                .iter()
                .filter(|sl| self.stunned(s, Spot::new(i, **sl)))
                .map(|sl| sl.id())
                .collect();
            stunned.insert(name.clone(), Json::from(slots));
        }
        let camp = |side: &Side| -> Json {
            let mut ids: Vec<&str> = side.camp.iter().map(|c| self.t.id(c.card)).collect();
            ids.sort_unstable();
            Json::from(ids)
        };
        let fixed = |side: &Side| -> Json {
            Json::from(
                side.fixed
                    .iter()
                    .map(|f| match f.on {
                        Some(o) => format!("{} on {}", self.t.id(f.card), o.slot.id()),
                        None => self.t.id(f.card).to_string(),
                    })
                    .collect::<Vec<_>>(),
            )
        };
        json!({
            "turn": s.turn,
            "player": s.names[s.to_move],
            "phase": if s.drawn { s.phase.name() } else { "draw" },
            "score": per(&|x| Json::from(x.score)),
            "energy": per(&|x| Json::from(x.energy)),
            "hand": per(&|x| Json::from(x.hand.total())),
            "battle": per(&battle),
            "damage": per(&damage),
            "exhausted": per(&exhausted),
            "stunned": stunned,
            "camp": per(&camp),
            "fixed": per(&fixed),
        })
    }

    /// Score ahead of the opponent, then damage on the opponent's characters.
    pub(super) fn progress_of(&self, s: &State, player: usize) -> i64 {
        let damage = |side: &Side| -> i64 { side.battle.iter().flatten().map(|f| i64::from(f.damage)).sum() };
        let (me, them) = (&s.p[player], &s.p[1 - player]);
        10 * (i64::from(me.score) - i64::from(them.score)) + damage(them) - damage(me)
    }

    /// The game's end, once reached.
    pub(super) fn end(&self, s: &State) -> Option<Ending> {
        s.winner.map(|w| Ending {
            winners: vec![w],
            reason: "target-score".into(),
            rule: rule::TARGET,
        })
    }
}
