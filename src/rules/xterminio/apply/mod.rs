//! The state after a validated action: the turn's phases, cards moving
//! between decks, hand, CAMP and BATTLE, attacks and their damage, recorded
//! card outcomes ([`Xterminio::apply_outcome`], the plug-in point of card
//! effects) and ENERGY, which never exceeds the kit's tracker (XT-6).

mod resolve;

use super::Xterminio;
use super::actions::Action;
use super::effects::{Event, Out, Spot};
use super::rule;
use super::setup::Mode;
use super::state::{CampCard, Fighter, Phase, Side, State};

impl Xterminio {
    /// The state after `a`, which [`Xterminio::check`] accepted.
    pub(super) fn step(&self, mut s: State, a: &Action) -> State {
        let p = s.to_move;
        let mut window = None;
        if Self::closes_upkeep(a) {
            s.upkeep = false;
        }
        let last = s.last.take();
        match a {
            Action::Draw { cards } => {
                let side = &mut s.p[p];
                for id in cards {
                    if let Some(c) = self.t.card(id) {
                        side.deck.take(c as usize, 1);
                        if self.is_support(c) {
                            side.deck_support -= 1;
                        } else {
                            side.deck_chars -= 1;
                        }
                        side.hand.add(c as usize, 1);
                    }
                }
                s.drawn = true;
            }
            Action::Deploy { card, to } => {
                let (Some(c), Some(i)) = (self.t.card(card), to.index()) else {
                    return s;
                };
                let info = self.t.get(c);
                if s.deploy_cap.is_none() {
                    s.deploy_cap = Some(s.p[p].energy);
                }
                s.deployed += info.life as u16;
                let side = &mut s.p[p];
                Self::take_from_camp(side, c);
                if info.powered {
                    self.discard_classics(side, info.base);
                }
                side.battle[i] = Some(Fighter {
                    card: c,
                    damage: 0,
                    exhausted: false,
                    attacked: false,
                    stunned: false,
                    equipment: None,
                });
                s.phase = Phase::Main;
                s.upkeep = false;
                self.entered(&mut s, Spot::new(p, *to));
                s.last = None;
            }
            Action::Equip { card, to } => {
                let Some(c) = self.t.card(card) else {
                    return s;
                };
                let side = &mut s.p[p];
                Self::take_from_camp(side, c);
                if self.t.get(c).energy {
                    side.energy_eq = Some(c);
                } else if let Some(f) = to.index().and_then(|i| side.battle[i].as_mut()) {
                    f.equipment = Some(c);
                }
                s.phase = Phase::Main;
            }
            Action::Zone { card } => {
                if let Some(c) = self.t.card(card) {
                    let side = &mut s.p[p];
                    side.hand.take(c as usize, 1);
                    side.zone = Some(c);
                }
                s.phase = Phase::Main;
            }
            Action::Move { from, to } => {
                let at = Spot::new(p, *from);
                if s.mode == Mode::Xterminar {
                    let cost = self.move_cost(&s, at);
                    if cost == 0 {
                        self.count_uses(&mut s, Out::FreeMove, at);
                    }
                    s.p[p].energy = s.p[p].energy.saturating_sub(cost);
                }
                self.relocate(&mut s, at, Spot::new(p, *to));
                s.phase = Phase::Main;
                s.upkeep = false;
                self.moved(&mut s, Spot::new(p, *to));
                s.last = Some(Event::Move { to: Spot::new(p, *to) });
            }
            Action::PowerUp { slot } => {
                let side = &mut s.p[p];
                if let Some(i) = slot.index()
                    && let Some(mut f) = side.battle[i]
                    && let Some(pw) = self.t.get(f.card).powered_version
                {
                    Self::take_from_camp(side, pw);
                    let b = f.card;
                    side.battle[i] = None;
                    self.discard_classics(side, b);
                    f.card = pw;
                    side.battle[i] = Some(f);
                }
                s.phase = Phase::Main;
            }
            Action::Fetch { card } => {
                if let Some(c) = self.t.card(card) {
                    let side = &mut s.p[p];
                    self.discard_classics(side, self.t.get(c).base);
                    side.deck.take(c as usize, 1);
                    side.deck_chars -= 1;
                    if side.camp.len() < self.t.n.camp_slots {
                        side.camp.push(CampCard { card: c, fresh: true });
                    } else {
                        side.hand.add(c as usize, 1);
                    }
                }
                s.phase = Phase::Main;
            }
            Action::DiscardPowered { card } => {
                if let Some(c) = self.t.card(card) {
                    let side = &mut s.p[p];
                    if side.hand.count(c as usize) > 0 {
                        side.hand.take(c as usize, 1);
                    } else if let Some(k) = side.camp.iter().position(|x| x.card == c) {
                        side.camp.remove(k);
                    }
                    self.charge(side, self.t.n.powered_discard_energy);
                }
            }
            Action::Attack {
                attacker,
                attack,
                target,
                intercept,
                answer,
                effect,
            } => {
                s.phase = Phase::Attack;
                self.resolve_attack(
                    &mut s,
                    (*attacker, *attack, *target),
                    intercept.as_ref(),
                    answer.as_deref(),
                    effect.as_ref(),
                );
            }
            Action::PointAttack { attacker } => {
                s.phase = Phase::Attack;
                let q = 1 - p;
                let empty = s.p[q].battle.iter().all(Option::is_none);
                if let Some(f) = attacker.index().and_then(|i| s.p[p].battle[i].as_mut()) {
                    f.exhausted = true;
                    f.attacked = true;
                }
                s.p[p].energy -= self.t.n.point_cost;
                let n = &self.t.n;
                self.award(&mut s, p, if empty { n.point_score_empty } else { n.point_score });
            }
            Action::Camp { card } => {
                if let Some(c) = self.t.card(card) {
                    let side = &mut s.p[p];
                    side.hand.take(c as usize, 1);
                    side.camp.push(CampCard { card: c, fresh: true });
                }
                s.phase = Phase::Camp;
            }
            Action::Discard { card } => {
                if let Some(c) = self.t.card(card) {
                    let side = &mut s.p[p];
                    side.hand.take(c as usize, 1);
                }
                s.phase = Phase::Cleanup;
            }
            Action::Play { card, by, effect } => {
                let Ok(a) = self.actor(&s, by, rule::ACTIONS) else {
                    return s;
                };
                s.last = last;
                if let Some(c) = self.t.card(card) {
                    s.p[a].hand.take(c as usize, 1);
                    self.play_card(&mut s, a, c, effect.as_ref());
                }
                s.last = None;
                window = Some(a);
            }
            Action::Ability { card, by, effect } => {
                let Ok(a) = self.actor(&s, by, rule::ACTIONS) else {
                    return s;
                };
                s.last = last;
                if let Some(c) = self.t.card(card) {
                    self.use_ability(&mut s, a, c, effect.as_ref());
                }
                s.last = None;
            }
            Action::Pass => {}
            Action::EndTurn => {
                let side = &mut s.p[p];
                for c in side.camp.iter_mut() {
                    c.fresh = false;
                }
                for f in side.battle.iter_mut().flatten() {
                    f.stunned = false;
                }
                s.point_ok = side.battle.iter().flatten().all(|f| f.exhausted);
                self.end_of_turn(&mut s, p);
                s.to_move = 1 - p;
                s.turn += 1;
                self.begin_turn(&mut s);
            }
        }
        s.window = window;
        s
    }

    /// Discards every classic copy of `b` from hand, CAMP and BATTLE.
    pub(super) fn discard_classics(&self, side: &mut Side, b: u8) {
        side.hand.set(b as usize, 0);
        side.camp.retain(|c| c.card != b);
        for f in side.battle.iter_mut() {
            if f.is_some_and(|f| f.card == b) {
                *f = None;
            }
        }
    }

    pub(super) fn award(&self, s: &mut State, who: usize, points: u16) {
        s.p[who].score = s.p[who].score.saturating_add(points);
        if s.winner.is_none() && s.p[who].score >= s.target {
            s.winner = Some(who);
        }
    }

    /// ENERGY gained: the source never holds more than the ENERGY
    /// tracker's highest value; what a charge or an effect would add
    /// beyond it is lost (XT-6; the tracker's `cap: false` lifts this).
    pub(super) fn charge(&self, side: &mut Side, n: u16) {
        side.energy = side.energy.saturating_add(n).min(self.t.n.energy_cap);
    }

    pub(super) fn take_from_camp(side: &mut Side, c: u8) {
        if let Some(k) = side.camp.iter().position(|x| x.card == c && !x.fresh) {
            side.camp.remove(k);
        }
    }

    pub(super) fn begin_turn(&self, s: &mut State) {
        let n = &self.t.n;
        let p = s.to_move;
        let base = match s.mode {
            Mode::Masakre => n.energy_masakre,
            Mode::Xterminar => n.energy_xterminar,
        };
        s.applied.clear();
        let extra = self.charge_bonus(s, p);
        let side = &mut s.p[p];
        let gain = base + n.energy_per_camp * side.camp.len() as u16 + extra;
        self.charge(side, gain);
        for f in side.battle.iter_mut().flatten() {
            f.exhausted = false;
            f.attacked = false;
        }
        s.drawn = side.deck_chars + side.deck_support == 0;
        s.phase = Phase::Main;
        s.deploy_cap = None;
        s.deployed = 0;
        s.window = None;
        self.upkeep(s, p);
    }
}
