//! What a log's checkpoints and the summary see of a state, and how the
//! game ended.

use serde_json::{Map, Value as Json, json};

use super::OneVMany;
use super::rule;
use super::state::{Phase, Reason, State, Token};
use super::tables::NONE;
use crate::rules::Ending;

impl OneVMany {
    /// The observable state.
    pub(super) fn view(&self, s: &State) -> Json {
        let mut o = Map::new();
        o.insert("round".into(), json!(s.round));
        o.insert("turn".into(), json!(s.turn));
        o.insert("phase".into(), json!(s.phase.name()));
        if s.scenario != NONE {
            o.insert("scenario".into(), json!(self.t.scenarios[s.scenario as usize].id));
        }
        let mut one = Map::new();
        if s.one_sq != NONE {
            one.insert("at".into(), json!(self.t.name(s.one_sq)));
        }
        one.insert("life".into(), json!(s.one_life));
        if s.phase == Phase::One {
            one.insert("ap".into(), json!(self.one_left(s)));
        }
        o.insert("one".into(), Json::Object(one));
        let mut many = Map::new();
        let mut squares: Vec<&Token> = s.tokens.iter().filter(|k| k.sq != NONE).collect();
        squares.sort_by_key(|k| k.sq);
        for k in squares {
            many.insert(
                self.t.name(k.sq).to_string(),
                json!(format!(
                    "{} {}/{}",
                    self.unit_name(k.ty),
                    k.life,
                    self.many_max_life(s, k.ty)
                )),
            );
        }
        o.insert("many".into(), Json::Object(many));
        if s.phase == Phase::Many && s.active != NONE {
            let k = s.tokens[s.active as usize];
            o.insert(
                "active".into(),
                json!({"at": self.t.name(k.sq), "actions": self.unit_left(s)}),
            );
        }
        if s.one_owned | s.many_owned != 0 {
            o.insert(
                "upgrades".into(),
                json!({"one": self.owned_list(s, true), "many": self.owned_list(s, false)}),
            );
        }
        Json::Object(o)
    }

    /// ONE: the MANY's health gone; MANY: the ONE's health gone.
    pub(super) fn progress_of(&self, s: &State, player: usize) -> i64 {
        let many: i64 = s
            .tokens
            .iter()
            .filter(|t| !t.reserve && t.life > 0)
            .map(|t| i64::from(t.life) + 1)
            .sum();
        if player as u8 == s.one_player {
            -many
        } else {
            4 * -i64::from(s.one_life)
        }
    }

    /// The game's end, once reached.
    pub(super) fn end(&self, s: &State) -> Option<Ending> {
        let one = s.one_player as usize;
        s.over.map(|r| match r {
            Reason::HordeDefeated => Ending {
                winners: vec![one],
                reason: "horde-defeated".into(),
                rule: rule::VICTORY,
            },
            Reason::HeroFallen => Ending {
                winners: vec![1 - one],
                reason: "hero-fallen".into(),
                rule: rule::VICTORY,
            },
            Reason::OutOfTime => Ending {
                winners: vec![1 - one],
                reason: "out-of-time".into(),
                rule: rule::VICTORY,
            },
        })
    }
}
