//! The state after a validated action: the phase flow of a game turn
//! (order roll, supply, movement, combat, end of turn), tokens moved,
//! recruited and removed.

use std::collections::BTreeMap;

use super::OpenWars;
use super::actions::Action;
use super::effects::{Out, When};
use super::state::{Fight, Phase, Stack, State, bit};
use super::tables::{CITY, FLYING};
use crate::rules::kit::dice;

impl OpenWars {
    /// The state after `a`, which [`OpenWars::check`] accepted.
    pub(super) fn step(&self, mut s: State, a: &Action) -> State {
        match a {
            Action::EndTurn => match s.phase {
                Phase::OrderRoll => self.begin_supply(&mut s, 0),
                Phase::Collection | Phase::Recruitment => {
                    if s.step == 0 {
                        self.begin_supply(&mut s, 1)
                    } else {
                        self.begin_movement(&mut s, 0)
                    }
                }
                Phase::Movement => {
                    if s.step == 0 {
                        self.begin_movement(&mut s, 1)
                    } else {
                        self.begin_combat(&mut s)
                    }
                }
                Phase::Combat => self.end_of_turn(&mut s),
                Phase::Over => {}
            },
            Action::OrderRoll { roll } => {
                let sums: Vec<u8> = roll.chunks(2).map(|p| p.iter().sum()).collect();
                let w = dice::roll_off(&sums).unwrap_or(0);
                s.order = [w, 1 - w];
                s.done = true;
            }
            Action::Collect { gold, mana, .. } => {
                let p = usize::from(s.to_move);
                s.gold[p] += gold;
                s.mana[p] += mana;
                let who = s.to_move;
                self.count_collection(&mut s, who);
                s.done = true;
                s.phase = Phase::Recruitment;
            }
            Action::Recruit { unit, at, tokens } => {
                let (Some(u), Some(c)) = (self.t.unit_ix.get(unit.as_str()), self.map(&s).cell(at)) else {
                    return s;
                };
                let p = s.to_move;
                let price = self.recruit_cost(&s, p, u, c) * u32::from(*tokens);
                s.gold[usize::from(p)] = s.gold[usize::from(p)].saturating_sub(price);
                let mv = self.unit(u).movement;
                self.add_tokens(&mut s, p, u, c, *tokens, &[mv; 4]);
            }
            Action::Move {
                unit,
                from,
                to,
                tokens,
                roll,
            } => {
                let m = self.map(&s);
                let (Some(u), Some(f), Some(t)) = (self.t.unit_ix.get(unit.as_str()), m.cell(from), m.cell(to)) else {
                    return s;
                };
                let p = s.to_move;
                let Some(i) = self.find(&s, p, u, f) else { return s };
                let cost = self.entry(&s, u, t);
                let engaged = self.tokens_of(&s, 1 - p, t) > 0 && self.unit(u).ty != FLYING;
                // What set the movement of the tokens goes with them.
                let by = std::mem::take(&mut s.stacks[i].mp_by);
                let mut mp = self.take_tokens(&mut s, i, *tokens);
                if let Some(k) = self.find(&s, p, u, f) {
                    s.stacks[k].mp_by.clone_from(&by);
                }
                for x in &mut mp {
                    *x = if engaged { 0 } else { x.saturating_sub(cost) };
                }
                let j = self.add_tokens(&mut s, p, u, t, *tokens, &mp);
                for b in by {
                    if !s.stacks[j].mp_by.contains(&b) {
                        s.stacks[j].mp_by.push(b);
                    }
                }
                // A feature that ends the movement of a unit entering here.
                let x = s.stacks[j].clone();
                if self.stopped_by(&s, &x, t).is_some() {
                    s.stacks[j].mp = [0; 4];
                }
                // A feature whose die the entering stack rolled.
                if !roll.is_empty() {
                    let k = super::effects::key(p, u, t);
                    let changes = self.fire_dice(&s, When::OnEnter, t, Some(k), roll, vec![(k, roll[0])]);
                    let lost: Vec<_> = changes.into_iter().filter(|c| c.2.out == Out::LoseToken).collect();
                    self.apply_changes(&mut s, &lost);
                }
            }
            Action::Fight { at, rolls } => {
                let Some(c) = self.map(&s).cell(at) else { return s };
                self.start_fight_features(&mut s, c, rolls);
                let ranged = self.ranged_pending(&s) & bit(c) != 0 && self.contested_pending(&s) & bit(c) == 0;
                if !ranged {
                    s.contested_started = true;
                    for x in s.stacks.iter_mut().filter(|x| x.cell == c) {
                        x.fought = true;
                        x.acted = false;
                    }
                }
                s.fight = Some(Fight {
                    cell: c,
                    ranged,
                    round: 1,
                    attacked: false,
                });
                // A feature may have left one side (or nobody) here.
                self.advance_fight(&mut s);
            }
            Action::Attack {
                unit,
                at,
                roll,
                casualties,
                rolls,
                ..
            } => self.do_attack(&mut s, unit, at, roll, casualties, rolls),
            Action::Retreat { unit, to, tokens, .. } => self.do_retreat(&mut s, unit, to, *tokens),
            Action::Hold { unit, .. } => {
                if let (Some(f), Some(u)) = (s.fight, self.t.unit_ix.get(unit.as_str()))
                    && let Some(x) = s.stacks.iter_mut().find(|x| x.unit == u && x.cell == f.cell)
                {
                    if f.ranged {
                        x.fought = true;
                    } else {
                        x.acted = true;
                    }
                }
                self.advance_fight(&mut s);
            }
            Action::Cast {
                spell,
                caster,
                from,
                at,
                target,
                roll,
                rolls,
                cancels,
                path,
                attack,
                ..
            } => {
                let m = self.map(&s);
                if let (Some(sp), Some(cu), Some(f), Some(t)) = (
                    self.t.spell_ix.get(spell.as_str()),
                    self.t.unit_ix.get(caster.as_str()),
                    m.cell(from),
                    m.cell(at),
                ) && let Some(p) = self.owner(&s, cu)
                {
                    let cost = self.spell_cost(&s, p, cu, f, self.t.spells[usize::from(sp)].cost);
                    s.mana[usize::from(p)] = s.mana[usize::from(p)].saturating_sub(cost);
                    // A free spell in store is used up.
                    if let Some(i) = self.free_spell(&s, p) {
                        s.lasting.remove(i);
                    }
                    if let Some(d) = self.t.fx.spells[usize::from(sp)] {
                        let tu = target.as_deref().and_then(|id| self.t.unit_ix.get(id));
                        let dice = self.cast_dice(&s, d, p, f, t, roll, rolls).unwrap_or_default();
                        self.cast_apply(&mut s, d, p, f, t, tu, roll, dice);
                        self.apply_grant(&mut s, d, p, t, tu, path, attack.as_ref());
                        self.cast_returns(&mut s, d, p, f, t);
                        // A unit the spell moved out of a combat (Elven
                        // Reflexes) may leave one side alone: it is over.
                        self.advance_fight(&mut s);
                    }
                    if let Some(id) = cancels {
                        self.cancel(&mut s, id);
                    }
                }
            }
        }
        if s.fight.is_none() {
            s.lasting.retain(|l| l.until != super::effects::Until::ThisCombat);
        }
        self.note_holders(&mut s);
        s
    }

    pub(super) fn advance_fight(&self, s: &mut State) {
        let Some(mut f) = s.fight else { return };
        if f.ranged {
            if !s.stacks.iter().any(|x| self.is_participant(&f, x)) {
                s.fight = None;
            }
            return;
        }
        let occ = self.occupancy(s);
        if occ[0] & occ[1] & bit(f.cell) == 0 {
            s.fight = None;
            s.resolved |= bit(f.cell);
            return;
        }
        if s.stacks.iter().any(|x| x.cell == f.cell && !x.acted) {
            return;
        }
        if !f.attacked {
            s.fight = None;
            s.resolved |= bit(f.cell);
            return;
        }
        f.round = f.round.saturating_add(1);
        f.attacked = false;
        for x in s.stacks.iter_mut().filter(|x| x.cell == f.cell) {
            x.acted = false;
        }
        s.fight = Some(f);
    }

    // ----- phase flow -----

    pub(super) fn begin_turn(&self, s: &mut State) {
        let m = self.map(s);
        if m.fixed_order {
            s.order = [0, 1];
        } else {
            let (a, b) = (self.army_value(s, 0), self.army_value(s, 1));
            if a == b {
                s.phase = Phase::OrderRoll;
                s.to_move = 0;
                s.done = false;
                return;
            }
            s.order = if a > b { [0, 1] } else { [1, 0] };
        }
        self.begin_supply(s, 0);
    }

    pub(super) fn begin_supply(&self, s: &mut State, step: u8) {
        let m = self.map(s);
        let first = s.turn == 1;
        if first && m.skip_collection && m.skip_recruitment {
            return self.begin_movement(s, 0);
        }
        s.phase = if first && m.skip_collection {
            Phase::Recruitment
        } else {
            Phase::Collection
        };
        s.step = step;
        s.to_move = s.order[usize::from(step)];
        s.done = false;
    }

    pub(super) fn begin_movement(&self, s: &mut State, step: u8) {
        if s.turn == 1 && self.map(s).skip_movement {
            return self.begin_combat(s);
        }
        s.phase = Phase::Movement;
        s.step = step;
        let p = s.order[usize::from(step)];
        s.to_move = p;
        let mv: Vec<(u8, Vec<(u16, i16)>)> = s
            .stacks
            .iter()
            .map(|x| {
                let m = (i16::from(self.unit(x.unit).movement) + self.modifier(s, Out::Movement, x)).clamp(0, 20) as u8;
                let by = if x.player == p {
                    self.modifier_parts(s, Out::Movement, x)
                } else {
                    Vec::new()
                };
                (m, by)
            })
            .collect();
        for (x, (m, by)) in s.stacks.iter_mut().zip(mv).filter(|(x, _)| x.player == p) {
            x.mp = [m; 4];
            x.mp_by = by;
        }
    }

    pub(super) fn begin_combat(&self, s: &mut State) {
        s.phase = Phase::Combat;
        s.to_move = s.order[0];
        s.fight = None;
        s.resolved = 0;
        s.contested_started = false;
        if self.allowed_fights(s).0 == 0 {
            self.end_of_turn(s);
        }
    }

    pub(super) fn end_of_turn(&self, s: &mut State) {
        s.lasting.clear();
        s.uses.reset(super::effects::Per::Turn);
        s.fallen.iter_mut().for_each(|f| *f = 0);
        for x in &mut s.stacks {
            x.hits = 0;
            x.struck = false;
            x.wounded = false;
            x.attacked = false;
            x.retreated = false;
            x.fought = false;
            x.acted = false;
        }
        let m = self.map(s);
        let occ = self.occupancy(s);
        let alive = [occ[0] != 0, occ[1] != 0];
        let mut result = None;
        if !alive[0] || !alive[1] {
            let w = match alive {
                [true, false] => Some(0),
                [false, true] => Some(1),
                _ => None,
            };
            result = Some((w, "conquest"));
        }
        if m.objectives != 0 {
            for p in 0..2u8 {
                let held = self.controlled(s, p) & m.objectives == m.objectives;
                let st = &mut s.streak[usize::from(p)];
                *st = if held { st.saturating_add(1) } else { 0 };
                if *st >= 2 && result.is_none() {
                    result = Some((Some(p), "objective-held"));
                }
            }
        }
        if result.is_none() && m.turn_limit.is_some_and(|l| s.turn >= l) {
            let cities = |p: u8| {
                let c = self.controlled(s, p);
                (0..m.cells.len())
                    .filter(|&i| c & (1 << i) != 0 && m.cells[i].ty == CITY)
                    .count()
            };
            let (c0, c1) = (cities(0), cities(1));
            let (a0, a1) = (self.army_value(s, 0), self.army_value(s, 1));
            let w = if c0 != c1 {
                Some(u8::from(c1 > c0))
            } else if a0 != a1 {
                Some(u8::from(a1 > a0))
            } else {
                None
            };
            result = Some((w, "turn-limit"));
        }
        if result.is_some() {
            s.result = result;
            s.phase = Phase::Over;
            return;
        }
        s.turn = s.turn.saturating_add(1);
        self.begin_turn(s);
    }

    // ----- validation -----

    pub(super) fn add_tokens(&self, s: &mut State, p: u8, u: u16, c: u8, k: u8, mp: &[u8]) -> usize {
        let i = match self.find(s, p, u, c) {
            Some(i) => i,
            None => {
                s.stacks.push(Stack::new(p, u, c, 0));
                s.stacks.len() - 1
            }
        };
        let x = &mut s.stacks[i];
        for j in 0..usize::from(k) {
            let slot = usize::from(x.n).min(3);
            x.mp[slot] = mp.get(j).copied().unwrap_or(0);
            x.n = x.n.saturating_add(1);
        }
        let n = usize::from(x.n).min(4);
        x.mp[..n].sort_unstable_by(|a, b| b.cmp(a));
        i
    }

    /// Takes `k` tokens (those with most movement left) off stack `i`.
    pub(super) fn take_tokens(&self, s: &mut State, i: usize, k: u8) -> [u8; 4] {
        let x = &mut s.stacks[i];
        let k = k.min(x.n);
        let mut out = [0u8; 4];
        let ku = usize::from(k);
        out[..ku].copy_from_slice(&x.mp[..ku]);
        x.mp.copy_within(ku.., 0);
        x.n -= k;
        if x.n == 0 {
            s.stacks.swap_remove(i);
        }
        out
    }

    pub(super) fn do_attack(
        &self,
        s: &mut State,
        unit: &str,
        at: &str,
        roll: &[u8],
        casualties: &BTreeMap<String, u8>,
        rolls: &BTreeMap<String, u8>,
    ) {
        let Some(f) = s.fight else { return };
        let Some(u) = self.t.unit_ix.get(unit) else { return };
        let Some(i) = s.stacks.iter().position(|x| x.unit == u && x.cell == f.cell) else {
            return;
        };
        let t = if f.ranged {
            self.map(s).cell(at).unwrap_or(f.cell)
        } else {
            f.cell
        };
        {
            let x = &mut s.stacks[i];
            x.attacked = true;
            if f.ranged {
                x.fought = true;
            } else {
                x.acted = true;
            }
        }
        if let Some(ff) = s.fight.as_mut() {
            ff.attacked = true;
        }
        let attack = self.attack_of(s, &s.stacks[i]);
        let hits = roll.iter().filter(|&&d| d <= attack).count() as u32;
        let foe = 1 - s.stacks[i].player;
        let back = self.returning(s, foe, t, casualties);
        self.strike(s, i, t, hits, casualties);
        self.bring_back(s, foe, t, &back, rolls);
        self.advance_fight(s);
    }

    /// Stack `i` deals `hits` hits in `t`: the shields that ignore some are
    /// used up, the casualties are set aside, the bonuses its attack had
    /// stripped come back.
    pub(super) fn strike(&self, s: &mut State, i: usize, t: u8, hits: u32, casualties: &BTreeMap<String, u8>) {
        let p = s.stacks[i].player;
        s.stacks[i].hits = hits.min(255) as u8;
        self.unstrip(s, i);
        let (_, ignored, _) = self.after_shields(s, 1 - p, t, hits);
        if ignored > 0 {
            self.spend_shields(s, 1 - p, t, ignored);
        }
        for y in s.stacks.iter_mut().filter(|y| y.player != p && y.cell == t) {
            y.struck = true;
        }
        for (id, &k) in casualties {
            let Some(cu) = self.t.unit_ix.get(id.as_str()) else {
                continue;
            };
            if let Some(j) = self.find(s, 1 - p, cu, t) {
                let k = k.min(s.stacks[j].n);
                s.fallen[usize::from(cu)] = s.fallen[usize::from(cu)].saturating_add(k);
                s.stacks[j].wounded |= k > 0;
                self.take_tokens(s, j, k);
            }
        }
    }

    pub(super) fn do_retreat(&self, s: &mut State, unit: &str, to: &str, tokens: u8) {
        let Some(f) = s.fight else { return };
        let Some(u) = self.t.unit_ix.get(unit) else { return };
        let Some(i) = s.stacks.iter().position(|x| x.unit == u && x.cell == f.cell) else {
            return;
        };
        let Some(t) = self.map(s).cell(to) else { return };
        let p = s.stacks[i].player;
        {
            let x = &mut s.stacks[i];
            x.retreated = true;
            x.acted = true;
        }
        self.take_tokens(s, i, tokens);
        let j = self.add_tokens(s, p, u, t, tokens, &[]);
        let y = &mut s.stacks[j];
        y.retreated = true;
        y.fought = true;
        y.acted = true;
        self.advance_fight(s);
    }
}
