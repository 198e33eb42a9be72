//! Every legal choice in a state (canonical form), and near misses for
//! mutation tests.

use super::OneVMany;
use super::actions::{Action, Effect};
use super::effects::{Ctx, MANY_SIDE, ONE_SIDE, Out, When};
use super::state::{EMPTY, FREE, OBSTACLE, Phase, State, WALL, bit};
use super::tables::{NONE, User};
use crate::rules::kit::effects::{self as fx, Host, Src};

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
                    let range = self.one_range(s);
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
                        for q in self.many_moves(s) {
                            out.push(Action::Move { to: name(q) });
                        }
                        if self
                            .t
                            .line_distance(k.sq, s.one_sq)
                            .is_some_and(|d| d <= self.many_range(s, s.active as usize))
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
        // What card effects require first (a choice owed, a unit that must
        // leave an obstacle) can make ending or moving on illegal.
        // A unit standing on an obstacle keeps an action to step off it.
        let perched = self.perched(s);
        out.retain(|a| {
            !(perched || matches!(a, Action::EndTurn | Action::Activate { .. } | Action::Place { .. }))
                || self.check(s, a).is_ok()
        });
        out
    }

    /// The squares the active MANY unit may move to now.
    pub(super) fn many_moves(&self, s: &State) -> Vec<u8> {
        let mut out = Vec::new();
        if s.phase != Phase::Many || s.active == NONE {
            return out;
        }
        let k = s.tokens[s.active as usize];
        let left = self.unit_left(s);
        if k.sq == NONE || left < 1 {
            return out;
        }
        for &q in self.t.board.neighbours(k.sq) {
            let t = s.terrain[q as usize];
            let through = s.climb || self.has(s, Out::PassObstacles, Some(k.sq)).is_some();
            // Through an obstacle only with an action left to step off it again.
            let exit = s.climb
                || self
                    .t
                    .board
                    .neighbours(q)
                    .iter()
                    .any(|&n| n != k.sq && s.occ[n as usize] == FREE && s.terrain[n as usize] == EMPTY);
            if s.occ[q as usize] == FREE && t != WALL && (t != OBSTACLE || through && (s.climb || left >= 2 && exit)) {
                out.push(q);
            }
        }
        out
    }

    /// Whether the active MANY unit stands on an obstacle it must leave.
    pub(super) fn perched(&self, s: &State) -> bool {
        if s.phase != Phase::Many || s.active == NONE || s.climb {
            return false;
        }
        let k = s.tokens[s.active as usize];
        k.sq != NONE && s.terrain[k.sq as usize] == OBSTACLE
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

    /// Interactions and equipment the acting side can pay for, with every
    /// outcome their effects allow.
    pub(super) fn legal_specials(&self, s: &State, one: bool, left: i8, out: &mut Vec<Action>) {
        let user = if one { User::One } else { User::Many };
        if s.scenario != NONE {
            for (i, &(who, cost)) in self.t.scenarios[s.scenario as usize].interactions.iter().enumerate() {
                if who == user && cost <= left {
                    let d = self.t.fx.interactions[s.scenario as usize][i];
                    for effect in self.effect_choices(s, d, &[When::Interaction]) {
                        let a = Action::Interact {
                            interaction: (i + 1) as u8,
                            effect,
                        };
                        if self.check(s, &a).is_ok() {
                            out.push(a);
                        }
                    }
                }
            }
        }
        let (owned, list, eq) = if one {
            (s.one_owned, &self.t.one_upgrades, &self.t.fx.one_equipment)
        } else {
            (s.many_owned, &self.t.many_upgrades, &self.t.fx.many_equipment)
        };
        for (i, u) in list.iter().enumerate() {
            if owned & bit(i as u8) != 0 && u.equipment.is_some_and(|c| c <= left) {
                for effect in self.effect_choices(s, eq[i], &[When::Equipment]) {
                    let a = Action::Equip {
                        card: u.id.clone(),
                        effect,
                    };
                    if self.check(s, &a).is_ok() {
                        out.push(a);
                    }
                }
            }
        }
    }

    /// Triggers of the cards in force that have a choice to record now.
    pub(super) fn legal_triggers(&self, s: &State, out: &mut Vec<Action>) {
        let open = self.moments(s);
        for by in self.sources_in_force(s) {
            let Ok(src) = self.source(s, &by) else { continue };
            let (d, _) = self.source_def(s, src);
            if !d.is_some_and(|d| self.t.fx.defs[usize::from(d)].clauses.iter().any(|c| !c.auto)) {
                continue;
            }
            for effect in self.effect_choices(s, d, &open) {
                let a = Action::Trigger { by: by.clone(), effect };
                if self.check(s, &a).is_ok() {
                    out.push(a);
                }
            }
        }
    }

    /// Every outcome the chosen clauses of effect `d` may record at the
    /// moments `open`: each clause's targets with the amount the state
    /// allows, combined across the clauses, and nothing at all.
    pub(super) fn effect_choices(&self, s: &State, d: Option<u16>, open: &[When]) -> Vec<Effect> {
        let mut all = vec![Effect::default()];
        let Some(d) = d else { return all };
        let ctx = Ctx::new(self, open);
        let owner = if s.phase == Phase::One { ONE_SIDE } else { MANY_SIDE };
        let at = self.actor_square(s);
        let src = Src {
            card: d,
            owner,
            at: (at != NONE).then_some(at),
        };
        for c in self.t.fx.defs[usize::from(d)]
            .clauses
            .iter()
            .filter(|c| !c.auto && ctx.open(s, &src, c.when))
        {
            let objs: Vec<Option<u8>> = match &c.target {
                None => vec![None],
                Some(t) => ctx
                    .candidates(s, &src, t.who)
                    .into_iter()
                    .filter(|o| t.cond.iter().all(|x| ctx.holds(s, &src, x, Some(*o))))
                    .map(Some)
                    .collect(),
            };
            let mut variants = Vec::new();
            for obj in objs {
                let mut e = Effect::default();
                for (o, amount) in &c.out {
                    let n = match amount {
                        fx::Amount::Exactly(n) | fx::Amount::UpTo(n) => *n,
                        fx::Amount::Per { .. } => 1,
                    };
                    let n = ctx.cap(s, &src, *o, obj).map_or(n, |k| n.min(k)).clamp(-20, 20) as i8;
                    let name = obj.map(|q| self.t.name(q).to_string());
                    match (o, name) {
                        (Out::Actions, _) => e.actions = n,
                        (Out::Range, _) => e.range = n,
                        (Out::Damage, _) => e.damage = n,
                        (Out::Heal, Some(q)) if n > 0 => {
                            e.life.insert(q, n);
                        }
                        (Out::LoseLife, Some(q)) if n > 0 => {
                            e.life.insert(q, -n);
                        }
                        (Out::Remove, Some(q)) => e.remove.push(q),
                        (Out::Obstacle, Some(q)) => e.obstacle.push(q),
                        (Out::Wall, Some(q)) => e.wall.push(q),
                        (Out::Step, Some(q)) => e.to = Some(q),
                        (Out::Swap, Some(q)) => e.swap = Some(q),
                        _ => {}
                    }
                }
                variants.push(e);
            }
            if variants.is_empty() {
                continue;
            }
            let mut next = Vec::new();
            for base in &all {
                for v in &variants {
                    let mut e = base.clone();
                    e.actions += v.actions;
                    e.range += v.range;
                    e.damage += v.damage;
                    e.life.extend(v.life.clone());
                    e.remove.extend(v.remove.clone());
                    e.obstacle.extend(v.obstacle.clone());
                    e.wall.extend(v.wall.clone());
                    e.to = e.to.or(v.to.clone());
                    e.swap = e.swap.or(v.swap.clone());
                    next.push(e);
                }
                if c.optional {
                    next.push(base.clone());
                }
            }
            next.truncate(64);
            all = next;
        }
        all.insert(0, Effect::default());
        all.dedup();
        all
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
                    let a = Action::Reinforce {
                        unit: self.t.units[ty as usize].id.clone(),
                        square: self.t.name(q).to_string(),
                        by: by.clone(),
                    };
                    if self.check(s, &a).is_ok() {
                        out.push(a);
                    }
                }
            }
        }
    }
}
