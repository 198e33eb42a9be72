//! A tiny engine that exercises the replay machinery in unit tests: players
//! take turns adding 1 or 2 to a running total (exactly one addition per
//! turn); whoever brings it to 10 or more wins.

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::{Ending, Engine, Violation};
use crate::model::Game;

pub struct Toy;

#[derive(Clone, Debug)]
pub struct State {
    total: u32,
    to_move: usize,
    added: bool,
    winner: Option<usize>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "do", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Action {
    Add { n: u32 },
    EndTurn,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    pub players: Vec<Named>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Named {
    pub name: String,
}

impl Engine for Toy {
    const GAME: &'static str = "toy";
    const TURN_RULE: &'static str = "T-1";
    type State = State;
    type Action = Action;
    type Setup = Setup;

    fn new(_game: &Game) -> Result<Self, Vec<crate::diag::Diagnostic>> {
        Ok(Toy)
    }

    fn start(&self, setup: &Setup) -> Result<State, Violation> {
        if setup.players.len() != 2 {
            return Err(Violation::new("T-1", "the game needs two players")
                .expected(2)
                .found(setup.players.len()));
        }
        Ok(State {
            total: 0,
            to_move: 0,
            added: false,
            winner: None,
        })
    }

    fn to_move(&self, s: &State) -> usize {
        s.to_move
    }

    fn end_turn(&self) -> Action {
        Action::EndTurn
    }

    fn validate(&self, s: &State, a: &Action) -> Result<(), Violation> {
        match a {
            Action::Add { n } if !(1..=2).contains(n) => Err(Violation::new("T-2", "an addition is 1 or 2")
                .expected("1 or 2")
                .found(n)),
            Action::Add { .. } if s.added => Err(Violation::new("T-1", "one addition per turn")
                .expected("end of turn")
                .found("a second addition")),
            Action::EndTurn if !s.added => Err(Violation::new("T-1", "a turn adds once")
                .expected("an addition")
                .found("no addition")),
            _ => Ok(()),
        }
    }

    fn apply(&self, mut s: State, a: &Action) -> State {
        match a {
            Action::Add { n } => {
                s.total += n;
                s.added = true;
                if s.total >= 10 {
                    s.winner = Some(s.to_move);
                }
            }
            Action::EndTurn => {
                s.to_move = 1 - s.to_move;
                s.added = false;
            }
        }
        s
    }

    fn legal_actions(&self, s: &State) -> Vec<Action> {
        if s.winner.is_some() {
            Vec::new()
        } else if s.added {
            vec![Action::EndTurn]
        } else {
            vec![Action::Add { n: 1 }, Action::Add { n: 2 }]
        }
    }

    fn ending(&self, s: &State) -> Option<Ending> {
        s.winner.map(|w| Ending {
            winners: vec![w],
            reason: "reached-ten".into(),
            rule: "T-3",
        })
    }

    fn observe(&self, s: &State) -> serde_json::Value {
        json!({"total": s.total, "added": s.added})
    }

    fn random_setup(&self, _rng: &mut fastrand::Rng) -> Setup {
        Setup {
            players: vec![Named { name: "Ana".into() }, Named { name: "Ben".into() }],
        }
    }

    fn candidates(&self, _s: &State, _rng: &mut fastrand::Rng) -> Vec<Action> {
        (0..4).map(|n| Action::Add { n }).chain([Action::EndTurn]).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::replay::{FailureKind, Options};
    use crate::rules::replayer::Prepared;
    use crate::rules::{Replayer, random};

    fn replay(text: &str) -> crate::rules::Replay {
        let log = random::parse_log(text).expect("log reads");
        Prepared(Toy)
            .replay(
                &log,
                &Options {
                    trace: true,
                    ..Options::default()
                },
            )
            .expect("log understood")
    }

    const HEAD: &str = "game: toy\nplayers: [{name: Ana}, {name: Ben}]\n";

    #[test]
    fn legal_log_replays_to_its_result() {
        let r = replay(&format!(
            "{HEAD}turns:\n{}  - player: Ana\n    actions: [{{do: add, n: 2}}]\nresult: {{winner: Ana, reason: reached-ten}}\n",
            "  - player: Ana\n    actions: [{do: add, n: 2}]\n  - player: Ben\n    actions: [{do: add, n: 2}]\n"
                .repeat(2)
        ));
        assert!(r.failure.is_none(), "{:?}", r.failure);
        assert_eq!(r.turns, 5);
        assert_eq!(r.actions, 9);
        assert_eq!(r.ending.unwrap().winners, ["Ana"]);
        assert_eq!(r.trace.len(), 9);
    }

    #[test]
    fn first_illegal_action_is_located() {
        let r = replay(&format!(
            "{HEAD}turns:\n  - player: Ana\n    actions: [{{do: add, n: 1}}]\n  - player: Ben\n    actions:\n      - {{do: add, n: 1}}\n      - {{do: add, n: 3}}\n"
        ));
        let f = r.failure.expect("illegal");
        assert_eq!(
            (f.kind, f.rule, f.turn, f.action),
            (FailureKind::Illegal, Some("T-2"), Some(2), Some(2))
        );
        assert_eq!((f.span.line, f.span.column), (9, 9));
        assert_eq!(f.found, "3");
    }

    #[test]
    fn wrong_player_and_empty_turns_break_the_turn_rule() {
        let r = replay(&format!(
            "{HEAD}turns:\n  - player: Ben\n    actions: [{{do: add, n: 1}}]\n"
        ));
        let f = r.failure.unwrap();
        assert_eq!((f.rule, f.turn, f.action), (Some("T-1"), Some(1), None));
        let r = replay(&format!("{HEAD}turns:\n  - player: Ana\n    actions: []\n"));
        let f = r.failure.unwrap();
        assert_eq!((f.rule, f.turn, f.action), (Some("T-1"), Some(1), None));
        assert!(f.message.starts_with("the turn cannot end here"), "{}", f.message);
        assert_eq!(f.alternatives.len(), 2);
    }

    #[test]
    fn checkpoints_and_results_are_compared() {
        let r = replay(&format!(
            "{HEAD}turns:\n  - player: Ana\n    actions: [{{do: add, n: 2}}, {{expect: {{total: 2}}}}]\n    expect: {{total: 3}}\n"
        ));
        let f = r.failure.unwrap();
        assert_eq!((f.kind, f.turn, f.action), (FailureKind::Checkpoint, Some(1), None));
        assert_eq!((f.expected.as_str(), f.found.as_str()), ("3", "2"));
        let r = replay(&format!(
            "{HEAD}turns:\n  - player: Ana\n    actions: [{{do: add, n: 2}}]\nresult: {{winner: Ben}}\n"
        ));
        assert_eq!(r.failure.unwrap().kind, FailureKind::Result);
    }

    #[test]
    fn actions_after_the_end_are_illegal() {
        let mut text = format!("{HEAD}turns:\n");
        for p in ["Ana", "Ben", "Ana", "Ben", "Ana", "Ben"] {
            text.push_str(&format!("  - player: {p}\n    actions: [{{do: add, n: 2}}]\n"));
        }
        let f = replay(&text).failure.unwrap();
        assert_eq!((f.rule, f.turn), (Some("T-3"), Some(6)));
    }

    #[test]
    fn unreadable_actions_are_all_reported() {
        let log = random::parse_log(&format!(
            "{HEAD}turns:\n  - player: Ana\n    actions: [{{do: ad, n: 2}}, {{do: add, n: two}}]\n"
        ))
        .unwrap();
        let errs = Prepared(Toy).replay(&log, &Options::default()).unwrap_err();
        assert_eq!(errs.len(), 2);
        assert!(
            errs[0].label.as_deref().unwrap().contains("unknown variant `ad`"),
            "{:?}",
            errs[0].label
        );
    }

    #[test]
    fn random_games_replay_clean_and_mutations_agree() {
        let p = Prepared(Toy);
        for seed in 0..200 {
            let text = p.random_log(seed, 50);
            let r = p
                .replay(&random::parse_log(&text).unwrap(), &Options::default())
                .unwrap();
            assert!(r.failure.is_none(), "{text}\n{:?}", r.failure);
            p.mutation_probe(seed, 50).unwrap();
        }
    }
}
