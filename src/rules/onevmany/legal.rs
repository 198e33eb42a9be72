//! Every legal choice in a state (canonical form), and near misses for
//! mutation tests.

use super::OneVMany;
use super::actions::{Action, Effect};
use super::state::{EMPTY, FREE, OBSTACLE, Phase, State, WALL, bit};
use super::tables::{NONE, User};

impl OneVMany {
    /// Every legal action in `s`, chance fields in canonical form.
    pub(super) fn legal(&self, s: &State) -> Vec<Action> {
        let mut out = Vec::new();
        let name = |q: u8| self.t.name(q).to_string();
        match s.phase {
            Phase::Over => {}
            Phase::Reveal => out.push(Action::Reveal {
                scenario: String::new(),
            }),
            Phase::Deploy => {
                let sc = &self.t.scenarios[s.scenario as usize];
                for (ty, u) in self.t.units.iter().enumerate() {
                    if s.pool[ty] == 0 {
                        continue;
                    }
                    for &q in &sc.spawn {
                        if s.occ[q as usize] == FREE && s.terrain[q as usize] == EMPTY {
                            out.push(Action::Deploy {
                                unit: u.id.clone(),
                                square: name(q),
                            });
                        }
                    }
                }
            }
            Phase::Place => {
                let sc = &self.t.scenarios[s.scenario as usize];
                for &q in &sc.start {
                    if s.occ[q as usize] == FREE && s.terrain[q as usize] != WALL {
                        out.push(Action::Place { square: name(q) });
                    }
                }
                self.legal_reinforcements(s, &mut out);
            }
            Phase::One => {
                out.push(Action::EndTurn);
                let left = self.one_left(s);
                if left >= 1 {
                    for &q in self.t.board.neighbours(s.one_sq) {
                        if s.occ[q as usize] != FREE || s.terrain[q as usize] == WALL {
                            continue;
                        }
                        if s.terrain[q as usize] == OBSTACLE && left < 1 + self.one_obstacle_cost(s) {
                            continue;
                        }
                        out.push(Action::Move { to: name(q) });
                    }
                    let range = s.one_range.saturating_add(s.bonus_range);
                    for k in &s.tokens {
                        if k.sq != NONE && self.t.line_distance(s.one_sq, k.sq).is_some_and(|d| d <= range) {
                            out.push(Action::Attack { target: name(k.sq) });
                        }
                    }
                }
                self.legal_specials(s, true, left, &mut out);
                self.legal_triggers(s, &mut out);
                self.legal_reinforcements(s, &mut out);
            }
            Phase::Cleared | Phase::Ready => out.push(Action::EndTurn),
            Phase::Many => {
                if s.tokens.iter().all(|k| k.sq == NONE || k.activated) {
                    out.push(Action::EndTurn);
                }
                for k in &s.tokens {
                    if k.sq != NONE && !k.activated {
                        out.push(Action::Activate { square: name(k.sq) });
                    }
                }
                if s.active != NONE {
                    let k = s.tokens[s.active as usize];
                    let left = self.unit_left(s);
                    if left >= 1 {
                        for &q in self.t.board.neighbours(k.sq) {
                            let t = s.terrain[q as usize];
                            if s.occ[q as usize] == FREE && t != WALL && (t != OBSTACLE || s.climb) {
                                out.push(Action::Move { to: name(q) });
                            }
                        }
                        if self
                            .t
                            .line_distance(k.sq, s.one_sq)
                            .is_some_and(|d| d <= self.many_range(s, k.ty))
                        {
                            out.push(Action::Attack { target: name(s.one_sq) });
                        }
                    }
                    self.legal_specials(s, false, left, &mut out);
                }
                self.legal_triggers(s, &mut out);
                self.legal_reinforcements(s, &mut out);
            }
            Phase::Draw => out.push(Action::DrawUpgrades {
                one: Vec::new(),
                many: Vec::new(),
            }),
            Phase::Pair => {
                for &o in &s.drawn_one {
                    for &m in &s.drawn_many {
                        out.push(Action::Pair {
                            one: self.t.one_upgrades[o as usize].id.clone(),
                            many: self.t.many_upgrades[m as usize].id.clone(),
                        });
                    }
                }
            }
            Phase::Pick => {
                for &o in &s.drawn_one {
                    out.push(Action::Pick {
                        one: self.t.one_upgrades[o as usize].id.clone(),
                    });
                }
            }
        }
        out
    }

    /// Legal actions and near misses (diagonals, jumps, other cards).
    pub(super) fn near_misses(&self, s: &State, rng: &mut fastrand::Rng) -> Vec<Action> {
        let mut out = self.legal(s);
        let n = self.t.board.len();
        let rsq = |rng: &mut fastrand::Rng| self.t.name(rng.usize(..n) as u8).to_string();
        let near = |rng: &mut fastrand::Rng, from: u8| -> String {
            if from == NONE {
                return self.t.name(rng.usize(..n) as u8).to_string();
            }
            // A square up to two steps away in any direction (diagonals
            // and two-square jumps included).
            let (x, y) = self.t.board.coordinates(from);
            let (dx, dy) = (rng.i8(-2..=2), rng.i8(-2..=2));
            if let Some(i) = self.t.board.at((x + i16::from(dx), y + i16::from(dy))) {
                return self.t.name(i).to_string();
            }
            self.t.name(rng.usize(..n) as u8).to_string()
        };
        let actor = if s.phase == Phase::Many && s.active != NONE {
            s.tokens[s.active as usize].sq
        } else {
            s.one_sq
        };
        for _ in 0..4 {
            out.push(Action::Move { to: near(rng, actor) });
            out.push(Action::Attack {
                target: near(rng, actor),
            });
        }
        out.push(Action::Attack { target: rsq(rng) });
        for k in s.tokens.iter().filter(|k| k.sq != NONE) {
            out.push(Action::Attack {
                target: self.t.name(k.sq).to_string(),
            });
            out.push(Action::Activate {
                square: self.t.name(k.sq).to_string(),
            });
        }
        if s.one_sq != NONE {
            out.push(Action::Attack {
                target: self.t.name(s.one_sq).to_string(),
            });
        }
        out.push(Action::Activate { square: rsq(rng) });
        out.push(Action::Place { square: rsq(rng) });
        let unit = self.t.units[rng.usize(..self.t.units.len())].id.clone();
        out.push(Action::Deploy {
            unit: unit.clone(),
            square: rsq(rng),
        });
        out.push(Action::EndTurn);
        out.push(Action::Reveal {
            scenario: String::new(),
        });
        out.push(Action::DrawUpgrades {
            one: Vec::new(),
            many: Vec::new(),
        });
        out.push(Action::Interact {
            interaction: rng.u8(0..4),
            effect: Effect::default(),
        });
        let one_up = self.t.one_upgrades[rng.usize(..self.t.one_upgrades.len())].id.clone();
        let many_up = self.t.many_upgrades[rng.usize(..self.t.many_upgrades.len())].id.clone();
        out.push(Action::Equip {
            card: one_up.clone(),
            effect: Effect::default(),
        });
        out.push(Action::Equip {
            card: many_up.clone(),
            effect: Effect::default(),
        });
        out.push(Action::Pair {
            one: one_up.clone(),
            many: many_up.clone(),
        });
        out.push(Action::Pick { one: one_up.clone() });
        let sources = [
            self.t.characters[rng.usize(..self.t.characters.len())].id.clone(),
            self.t.units[rng.usize(..self.t.units.len())].id.clone(),
            self.t.scenarios[rng.usize(..self.t.scenarios.len())].id.clone(),
            self.t.bosses[s.boss as usize].id.clone(),
            self.t.bosses[rng.usize(..self.t.bosses.len())].id.clone(),
            one_up,
            many_up.clone(),
        ];
        for by in sources {
            out.push(Action::Trigger {
                by,
                effect: Effect::default(),
            });
        }
        let by = if rng.bool() {
            many_up
        } else {
            self.t.bosses[s.boss as usize].id.clone()
        };
        out.push(Action::Reinforce {
            unit,
            square: rsq(rng),
            by,
        });
        out
    }

    /// Interactions and equipment the acting side can pay for.
    pub(super) fn legal_specials(&self, s: &State, one: bool, left: i8, out: &mut Vec<Action>) {
        let user = if one { User::One } else { User::Many };
        if s.scenario != NONE {
            for (i, &(who, cost)) in self.t.scenarios[s.scenario as usize].interactions.iter().enumerate() {
                if who == user && cost <= left {
                    out.push(Action::Interact {
                        interaction: (i + 1) as u8,
                        effect: Effect::default(),
                    });
                }
            }
        }
        let (owned, list) = if one {
            (s.one_owned, &self.t.one_upgrades)
        } else {
            (s.many_owned, &self.t.many_upgrades)
        };
        for (i, u) in list.iter().enumerate() {
            if owned & bit(i as u8) != 0 && u.equipment.is_some_and(|c| c <= left) {
                out.push(Action::Equip {
                    card: u.id.clone(),
                    effect: Effect::default(),
                });
            }
        }
    }

    pub(super) fn legal_triggers(&self, s: &State, out: &mut Vec<Action>) {
        for by in self.sources_in_force(s) {
            out.push(Action::Trigger {
                by,
                effect: Effect::default(),
            });
        }
    }

    pub(super) fn legal_reinforcements(&self, s: &State, out: &mut Vec<Action>) {
        let sources = self.reinforce_sources(s);
        if sources.is_empty() || s.scenario == NONE {
            return;
        }
        let sc = &self.t.scenarios[s.scenario as usize];
        for ty in 0..self.t.units.len() as u8 {
            if self.reserve_left(s, ty) == 0 {
                continue;
            }
            for &q in &sc.spawn {
                if s.occ[q as usize] != FREE || s.terrain[q as usize] != EMPTY {
                    continue;
                }
                for by in &sources {
                    out.push(Action::Reinforce {
                        unit: self.t.units[ty as usize].id.clone(),
                        square: self.t.name(q).to_string(),
                        by: by.clone(),
                    });
                }
            }
        }
    }
}
