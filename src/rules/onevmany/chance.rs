//! Chance in a ONE v MANY log (the scenario revealed, the upgrades drawn):
//! canonical forms, random outcomes and random headers for generated games.

use super::OneVMany;
use super::actions::Action;
use super::setup::{PlayerSetup, Setup};
use super::state::{State, bit};

impl OneVMany {
    /// The player's choice in `a`, chance fields cleared (an effect's
    /// outcome is a choice and stays).
    pub(super) fn canonical(&self, a: &Action) -> Action {
        match a {
            Action::Reveal { .. } => Action::Reveal {
                scenario: String::new(),
            },
            Action::DrawUpgrades { .. } => Action::DrawUpgrades {
                one: Vec::new(),
                many: Vec::new(),
            },
            other => other.clone(),
        }
    }

    /// Fills the chance fields of `a` with a random outcome.
    pub(super) fn fill_chance(&self, s: &State, a: &mut Action, rng: &mut fastrand::Rng) {
        match a {
            Action::Reveal { scenario } => {
                let left: Vec<usize> = (0..self.t.scenarios.len())
                    .filter(|&i| s.used_scenarios & bit(i as u8) == 0)
                    .collect();
                if !left.is_empty() {
                    *scenario = self.t.scenarios[left[rng.usize(..left.len())]].id.clone();
                }
            }
            Action::DrawUpgrades { one, many } => {
                let pick = |seen: u64, n: usize, rng: &mut fastrand::Rng| -> Vec<usize> {
                    let mut left: Vec<usize> = (0..n).filter(|&i| seen & bit(i as u8) == 0).collect();
                    rng.shuffle(&mut left);
                    left.truncate(2);
                    left
                };
                *one = pick(s.one_seen, self.t.one_upgrades.len(), rng)
                    .into_iter()
                    .map(|i| self.t.one_upgrades[i].id.clone())
                    .collect();
                *many = pick(s.many_seen, self.t.many_upgrades.len(), rng)
                    .into_iter()
                    .map(|i| self.t.many_upgrades[i].id.clone())
                    .collect();
            }
            _ => {}
        }
    }

    /// A random legal header.
    pub(super) fn random_header(&self, rng: &mut fastrand::Rng) -> Setup {
        // Half the games are recorded from a later round, the sides holding
        // one upgrade per round played (random players rarely clear one).
        let round = if rng.bool() { 1 } else { rng.u8(1..=self.t.boss_round) };
        let held = |ups: &[super::tables::Upgrade], rng: &mut fastrand::Rng| -> Vec<String> {
            let mut ids: Vec<String> = ups.iter().map(|u| u.id.clone()).collect();
            rng.shuffle(&mut ids);
            ids.truncate(usize::from(round - 1));
            ids
        };
        let one = PlayerSetup {
            name: "Ana".into(),
            side: "one".into(),
            character: Some(self.t.characters[rng.usize(..self.t.characters.len())].id.clone()),
            boss: None,
            upgrades: held(&self.t.one_upgrades, rng),
        };
        let many = PlayerSetup {
            name: "Ben".into(),
            side: "many".into(),
            character: None,
            boss: Some(self.t.bosses[rng.usize(..self.t.bosses.len())].id.clone()),
            upgrades: held(&self.t.many_upgrades, rng),
        };
        let players = if rng.bool() { vec![one, many] } else { vec![many, one] };
        Setup { players, round }
    }
}
