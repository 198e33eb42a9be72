//! The state after a validated action: phase flow, movement, attacks,
//! recorded card outcomes ([`OneVMany::apply_outcome`], the plug-in point of
//! card effects) and the upgrade phase.

use super::OneVMany;
use super::actions::{Action, Effect};
use super::effects::{Ctx, MANY_SIDE, ONE_SIDE, Out, Per, When};
use super::state::{EMPTY, FREE, OBSTACLE, ONE, Phase, Reason, State, Token, WALL, bit};
use super::tables::{MAX_SQUARES, NONE};
use crate::rules::kit::effects::{self as fx, Src};

impl OneVMany {
    /// The state after `a`, which [`OneVMany::check`] accepted.
    pub(super) fn step(&self, mut s: State, a: &Action) -> State {
        match a {
            Action::EndTurn => match s.phase {
                Phase::One => {
                    self.fire(&mut s, When::OnePhaseEnd);
                    s.removed = None;
                    if s.phase == Phase::Over {
                        return s;
                    }
                    s.phase = Phase::Many;
                    s.to_move = 1 - s.one_player;
                    s.active = NONE;
                    for k in s.tokens.iter_mut() {
                        k.activated = false;
                    }
                    Self::reset_actor(&mut s);
                }
                Phase::Cleared => {
                    s.phase = Phase::Draw;
                    s.to_move = 1 - s.one_player;
                }
                Phase::Many => {
                    self.fire(&mut s, When::ManyPhaseEnd);
                    s.to_move = s.one_player;
                    Self::reset_actor(&mut s);
                    s.active = NONE;
                    s.removed = None;
                    s.one_attacked = false;
                    s.uses.reset(Per::Turn);
                    if s.turn >= self.t.last_turn {
                        s.over = Some(Reason::OutOfTime);
                        s.phase = Phase::Over;
                    } else {
                        s.turn += 1;
                        s.phase = Phase::One;
                    }
                }
                Phase::Ready => {
                    s.to_move = s.one_player;
                    s.round += 1;
                    s.turn = 1;
                    s.uses.reset(Per::Turn);
                    s.uses.reset(Per::Round);
                    s.one_attacked = false;
                    s.removed = None;
                    s.phase = Phase::Reveal;
                    self.start_round_board(&mut s);
                }
                _ => {}
            },
            Action::Reveal { scenario } => {
                if let Some(sc) = self.t.scenario(scenario) {
                    s.scenario = sc;
                    s.used_scenarios |= bit(sc);
                    let card = &self.t.scenarios[sc as usize];
                    for &q in &card.obstacles {
                        s.terrain[q as usize] = OBSTACLE;
                    }
                    for &q in &card.walls {
                        s.terrain[q as usize] = WALL;
                    }
                    let pool: u8 = s.pool.iter().sum();
                    s.deploy_left = pool.min(self.free_spawn(&s));
                    s.phase = if s.deploy_left == 0 {
                        Phase::Place
                    } else {
                        Phase::Deploy
                    };
                }
            }
            Action::Deploy { unit, square } => {
                if let (Some(ty), Some(sq)) = (self.t.unit(unit), self.t.square(square)) {
                    s.pool[ty as usize] -= 1;
                    self.new_token(&mut s, ty, sq, false);
                    s.deploy_left -= 1;
                    if s.deploy_left == 0 {
                        s.phase = Phase::Place;
                    }
                }
            }
            Action::Place { square } => {
                if let Some(sq) = self.t.square(square) {
                    s.one_sq = sq;
                    s.occ[sq as usize] = ONE;
                    s.phase = Phase::One;
                    Self::reset_actor(&mut s);
                    self.after_losses(&mut s);
                }
            }
            Action::Move { to } => {
                if let Some(dest) = self.t.square(to) {
                    if s.phase == Phase::One {
                        let cost = if s.terrain[dest as usize] == OBSTACLE {
                            1 + self.one_obstacle_cost(&s)
                        } else {
                            1
                        };
                        s.spent = s.spent.saturating_add(cost);
                        let from = s.one_sq;
                        self.relocate(&mut s, from, dest);
                    } else {
                        s.spent = s.spent.saturating_add(1);
                        s.moved = true;
                        let from = s.tokens[s.active as usize].sq;
                        self.relocate(&mut s, from, dest);
                    }
                }
            }
            Action::Attack { target } => {
                if let Some(t) = self.t.square(target) {
                    s.spent = s.spent.saturating_add(1);
                    if s.phase == Phase::One {
                        let dmg = self.one_damage(&s, t);
                        s.one_attacked = true;
                        self.change_life(&mut s, t, -dmg);
                        if s.occ[t as usize] == FREE {
                            s.removed = s.removed.map(|(ty, _)| (ty, true));
                        }
                    } else {
                        let one = Some(s.one_sq);
                        let taken = self.modifier(&s, Out::DamageTaken, one, None);
                        self.count_uses(&mut s, Out::DamageTaken, one);
                        let dmg = (i16::from(self.many_damage(&s, s.active as usize)) + taken).clamp(0, 50) as i8;
                        self.change_life(&mut s, t, -dmg);
                    }
                    self.after_losses(&mut s);
                }
            }
            Action::Activate { square } => {
                if let Some(k) = self.t.square(square).and_then(|q| self.token_at(&s, q)) {
                    s.tokens[k].activated = true;
                    s.active = k as u8;
                    Self::reset_actor(&mut s);
                    s.moved = false;
                }
            }
            Action::Interact { interaction, effect } => {
                let sc = &self.t.scenarios[s.scenario as usize];
                if let Some(&(_, cost)) = sc.interactions.get((*interaction as usize).wrapping_sub(1)) {
                    s.spent = s.spent.saturating_add(cost);
                }
                let d = self.t.fx.interactions[s.scenario as usize]
                    .get((*interaction as usize).wrapping_sub(1))
                    .copied()
                    .flatten();
                self.use_effect(&mut s, d, &[When::Interaction], None, effect);
            }
            Action::Equip { card, effect } => {
                let one = s.phase == Phase::One;
                let (cost, d) = if one {
                    let u = self.t.one_upgrade(card);
                    (
                        u.and_then(|u| self.t.one_upgrades[u as usize].equipment),
                        u.and_then(|u| self.t.fx.one_equipment[u as usize]),
                    )
                } else {
                    let u = self.t.many_upgrade(card);
                    (
                        u.and_then(|u| self.t.many_upgrades[u as usize].equipment),
                        u.and_then(|u| self.t.fx.many_equipment[u as usize]),
                    )
                };
                s.spent = s.spent.saturating_add(cost.unwrap_or(0));
                self.use_effect(&mut s, d, &[When::Equipment], None, effect);
            }
            Action::Trigger { by, effect } => {
                let (d, owner) = match self.source(&s, by) {
                    Ok(src) => self.source_def(&s, src),
                    Err(_) => (None, 0),
                };
                let open = self.moments(&s);
                self.use_effect(&mut s, d, &open, Some(owner), effect);
            }
            Action::Reinforce { unit, square, by } => {
                if let (Some(ty), Some(sq)) = (self.t.unit(unit), self.t.square(square)) {
                    if let Ok(src) = self.source(&s, by)
                        && let (Some(card), owner) = self.source_def(&s, src)
                    {
                        let mut ctx = Ctx::new(self, &self.moments(&s));
                        ctx.unit = Some(ty);
                        let x = Src { card, owner, at: None };
                        let ch = super::effects::Ch {
                            out: Out::Reinforce,
                            obj: Some(sq),
                            n: 1,
                        };
                        if let Ok(ok) = fx::allow(&ctx, &s, &x, &[ch], "") {
                            self.count_clauses(&mut s, &x, &ok);
                        }
                    }
                    self.new_token(&mut s, ty, sq, true);
                }
            }
            Action::DrawUpgrades { one, many } => {
                for (i, id) in one.iter().take(2).enumerate() {
                    if let Some(u) = self.t.one_upgrade(id) {
                        s.drawn_one[i] = u;
                        s.one_seen |= bit(u);
                    }
                }
                for (i, id) in many.iter().take(2).enumerate() {
                    if let Some(u) = self.t.many_upgrade(id) {
                        s.drawn_many[i] = u;
                        s.many_seen |= bit(u);
                    }
                }
                s.phase = Phase::Pair;
            }
            Action::Pair { one, many } => {
                if let (Some(o), Some(m)) = (self.t.one_upgrade(one), self.t.many_upgrade(many)) {
                    s.paired = (o, m);
                    s.phase = Phase::Pick;
                }
            }
            Action::Pick { one } => {
                if let Some(o) = self.t.one_upgrade(one) {
                    let m = if o == s.paired.0 {
                        s.paired.1
                    } else if s.drawn_many[0] == s.paired.1 {
                        s.drawn_many[1]
                    } else {
                        s.drawn_many[0]
                    };
                    s.one_owned |= bit(o);
                    s.many_owned |= bit(m);
                    // Life gained with an upgrade comes with its maximum.
                    let one = self.life_gain(self.t.fx.one_upgrades[o as usize]);
                    s.one_max = (s.one_max + one).max(1);
                    s.one_life = (s.one_life + one).clamp(1, s.one_max);
                    let many = self.life_gain(self.t.fx.many_upgrades[m as usize]);
                    for k in s.tokens.iter_mut().filter(|k| k.sq != NONE) {
                        k.life = (k.life + many).max(1);
                    }
                    s.phase = Phase::Ready;
                }
            }
        }
        s
    }

    /// Applies a recorded outcome of a card text (see
    /// [`OneVMany::check_outcome`]).
    pub(super) fn apply_outcome(&self, s: &mut State, e: &Effect) {
        s.bonus_ap = s.bonus_ap.saturating_add(e.actions);
        s.bonus_range = s.bonus_range.saturating_add(e.range);
        s.bonus_dmg = s.bonus_dmg.saturating_add(e.damage);
        s.climb |= e.climb;
        for q in &e.remove {
            if let Some(sq) = self.t.square(q) {
                s.terrain[sq as usize] = EMPTY;
            }
        }
        for q in &e.obstacle {
            if let Some(sq) = self.t.square(q) {
                s.terrain[sq as usize] = OBSTACLE;
            }
        }
        for q in &e.wall {
            if let Some(sq) = self.t.square(q) {
                s.terrain[sq as usize] = WALL;
            }
        }
        let me = self.actor_square(s);
        if let Some(to) = e.to.as_deref().and_then(|q| self.t.square(q))
            && me != NONE
        {
            self.relocate(s, me, to);
        }
        if let Some(other) = e.swap.as_deref().and_then(|q| self.t.square(q))
            && me != NONE
        {
            let (a, b) = (s.occ[me as usize], s.occ[other as usize]);
            s.occ[me as usize] = b;
            s.occ[other as usize] = a;
            for (sq, o) in [(me, b), (other, a)] {
                match o {
                    FREE => {}
                    ONE => s.one_sq = sq,
                    k => s.tokens[(k - 2) as usize].sq = sq,
                }
            }
        }
        for (q, d) in &e.life {
            if let Some(sq) = self.t.square(q) {
                self.change_life(s, sq, *d);
            }
        }
    }

    pub(super) fn relocate(&self, s: &mut State, from: u8, to: u8) {
        let o = s.occ[from as usize];
        s.occ[from as usize] = FREE;
        s.occ[to as usize] = o;
        match o {
            ONE => s.one_sq = to,
            FREE => {}
            k => s.tokens[(k - 2) as usize].sq = to,
        }
    }

    /// Life change of the token on `sq`; ONE at 0 loses, a MANY token at 0
    /// leaves the board.
    pub(super) fn change_life(&self, s: &mut State, sq: u8, d: i8) {
        match s.occ[sq as usize] {
            FREE => {}
            ONE => {
                s.one_life = (s.one_life as i16 + d as i16).clamp(0, s.one_max as i16) as i8;
                if s.one_life == 0 && self.has(s, Out::Survive, Some(sq)).is_some() {
                    // Second Wind: ONE stays at 1.
                    self.count_uses(s, Out::Survive, Some(sq));
                    s.one_life = 1;
                }
                if s.one_life == 0 {
                    s.over = Some(Reason::HeroFallen);
                    s.phase = Phase::Over;
                }
            }
            o => {
                let k = (o - 2) as usize;
                let max = self.many_max_life(s, s.tokens[k].ty);
                let life = (s.tokens[k].life as i16 + d as i16).min(max as i16);
                if life <= 0 {
                    s.removed = Some((s.tokens[k].ty, false));
                    s.tokens[k].life = 0;
                    s.tokens[k].sq = NONE;
                    s.occ[sq as usize] = FREE;
                    s.alive -= 1;
                    if s.active as usize == k {
                        s.active = NONE;
                    }
                } else {
                    s.tokens[k].life = life as i8;
                }
            }
        }
    }

    /// After anything that can remove tokens: an empty board ends the phase
    /// (and the game in the boss round).
    pub(super) fn after_losses(&self, s: &mut State) {
        if s.over.is_some() || s.alive > 0 || !matches!(s.phase, Phase::One | Phase::Many) {
            return;
        }
        if s.round >= self.t.boss_round {
            s.over = Some(Reason::HordeDefeated);
            s.phase = Phase::Over;
        } else if s.phase == Phase::One {
            s.phase = Phase::Cleared;
        } else {
            s.phase = Phase::Draw;
        }
    }

    /// Applies the automatic clauses a moment triggers (every source in
    /// force), counting their uses.
    pub(super) fn fire(&self, s: &mut State, when: When) {
        let ctx = Ctx::new(self, &[when]);
        let changes = fx::fire(&ctx, s, &self.sources(s), when, None);
        for (src, clause, ch) in changes {
            if let Some((per, _)) = self.t.fx.defs[usize::from(src.card)].clauses[usize::from(clause)].limit {
                s.uses.add(src.owner, src.card, clause, per);
            }
            self.apply_change(s, ch);
        }
        self.after_losses(s);
    }

    /// A recorded outcome of effect `d` applied: its uses counted, what it
    /// records, what it does by itself at that moment, and a torch lit.
    fn use_effect(&self, s: &mut State, d: Option<u16>, open: &[When], owner: Option<u8>, e: &Effect) {
        if let Some(card) = d {
            let owner = owner.unwrap_or(if s.phase == Phase::One { ONE_SIDE } else { MANY_SIDE });
            let at = if owner == ONE_SIDE {
                s.one_sq
            } else {
                self.actor_square(s)
            };
            let x = Src {
                card,
                owner,
                at: (at != NONE).then_some(at),
            };
            let ctx = Ctx::new(self, open);
            let changes = self.changes(s, e);
            let mut e = e.clone();
            if let Ok(ok) = fx::allow(&ctx, s, &x, &changes, "") {
                self.count_clauses(s, &x, &ok);
                let def = &self.t.fx.defs[usize::from(card)];
                if ok
                    .clauses
                    .iter()
                    .any(|&c| def.clauses[usize::from(c)].amount(Out::IgnoreDarkness).is_some())
                {
                    s.torch = true;
                }
                // What restates an automatic clause is applied by it, once.
                for (ch, &c) in changes.iter().zip(&ok.of) {
                    if def.clauses[usize::from(c)].auto
                        && let Some(q) = ch.obj
                    {
                        let name = self.t.name(q).to_string();
                        e.life.remove(&name);
                        e.remove.retain(|x| *x != name);
                        e.obstacle.retain(|x| *x != name);
                        e.wall.retain(|x| *x != name);
                    }
                }
            }
            self.apply_outcome(s, &e);
            for &w in open {
                let ctx = Ctx::new(self, &[w]);
                let changes = fx::fire(&ctx, s, &[x], w, None);
                for (src, clause, ch) in changes {
                    if let Some((per, _)) = self.t.fx.defs[usize::from(src.card)].clauses[usize::from(clause)].limit {
                        s.uses.add(src.owner, src.card, clause, per);
                    }
                    self.apply_change(s, ch);
                }
            }
        } else {
            self.apply_outcome(s, e);
        }
        self.after_losses(s);
    }

    /// Counts the uses of the limited clauses an allowed outcome used.
    fn count_clauses(&self, s: &mut State, x: &Src<u8>, ok: &fx::Allowed) {
        for &c in &ok.clauses {
            if let Some((per, _)) = self.t.fx.defs[usize::from(x.card)].clauses[usize::from(c)].limit {
                s.uses.add(x.owner, x.card, c, per);
            }
        }
    }

    /// One automatic change.
    pub(super) fn apply_change(&self, s: &mut State, ch: super::effects::Ch) {
        let Some(q) = ch.obj else { return };
        match ch.out {
            Out::Heal => self.change_life(s, q, ch.n.clamp(0, 20) as i8),
            Out::LoseLife => self.change_life(s, q, -(ch.n.clamp(0, 20) as i8)),
            Out::Obstacle => s.terrain[q as usize] = OBSTACLE,
            Out::Wall => s.terrain[q as usize] = WALL,
            Out::Remove => s.terrain[q as usize] = EMPTY,
            _ => {}
        }
    }

    pub(super) fn reset_actor(s: &mut State) {
        s.torch = false;
        s.spent = 0;
        s.bonus_ap = 0;
        s.bonus_range = 0;
        s.bonus_dmg = 0;
        s.climb = false;
    }

    /// The life an upgrade's continuous effect gives (with its maximum).
    pub(super) fn life_gain(&self, d: Option<u16>) -> i8 {
        d.map_or(0, |d| {
            let def = &self.t.fx.defs[usize::from(d)];
            def.clauses
                .iter()
                .enumerate()
                .filter(|(k, c)| c.when == When::Continuous && !def.left_out(*k as u8))
                .filter_map(|(k, c)| match c.amount(Out::Life) {
                    Some(fx::Amount::Exactly(n)) => {
                        def.note(k as u8, false, || self.t.fx.names[usize::from(d)].clone());
                        Some(*n)
                    }
                    _ => None,
                })
                .sum::<i16>()
        })
        .clamp(-20, 20) as i8
    }

    pub(super) fn start_round_board(&self, s: &mut State) {
        s.terrain = [EMPTY; MAX_SQUARES];
        s.occ = [FREE; MAX_SQUARES];
        s.tokens.clear();
        s.alive = 0;
        s.one_sq = NONE;
        s.active = NONE;
        s.scenario = NONE;
        let boss = &self.t.bosses[s.boss as usize];
        s.pool = [0; 16];
        for (i, n) in boss.start.iter().enumerate() {
            s.pool[i] = *n;
        }
        Self::reset_actor(s);
    }

    pub(super) fn new_token(&self, s: &mut State, ty: u8, sq: u8, reserve: bool) {
        let k = s.tokens.len();
        s.tokens.push(Token {
            ty,
            sq,
            life: self.many_max_life(s, ty),
            // A reinforcement arriving in MANY's phase still has to be activated.
            activated: false,
            reserve,
        });
        s.occ[sq as usize] = (k + 2) as u8;
        s.alive += 1;
    }
}
