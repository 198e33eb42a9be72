//! The state after a validated action: cards drawn, boosted, played and
//! discarded, fighters moved and hurt, the turn passed on; combats resolve
//! in [`super::combat`].

use super::Unmatched;
use super::actions::{Action, Effect};
use super::state::{Phase, State};
use super::tables::OFF;

impl Unmatched {
    /// The state after `a`, which [`Unmatched::check`] accepted.
    pub(super) fn step(&self, mut s: State, a: &Action) -> State {
        let p = s.to_move;
        match a {
            Action::EndTurn => self.next_turn(&mut s),
            Action::Gaze { target } => {
                if let Ok(t) = self.figure(&s, target, "") {
                    s.gazed = true;
                    self.hurt(&mut s, t, 1);
                }
            }
            Action::Maneuver { draw } => {
                let pl = &mut s.players[p as usize];
                if pl.deck.is_empty() {
                    let loss = self.t.numbers.exhaustion_loss;
                    for f in 0..s.nfig as usize {
                        if s.figs[f].owner == p {
                            self.hurt(&mut s, f, loss);
                        }
                    }
                } else if let Some(c) = draw.as_deref().and_then(|d| self.hero(&s, p).card(d)) {
                    let pl = &mut s.players[p as usize];
                    pl.deck.move_to(c as usize, &mut pl.hand);
                }
                s.actions += 1;
                s.phase = Phase::Maneuver {
                    boost: 0,
                    boosted: false,
                    moved: 0,
                };
            }
            Action::Boost { card } => {
                if let (Phase::Maneuver { boost, moved, .. }, Some(c)) = (s.phase, self.hero(&s, p).card(card)) {
                    let value = self.hero(&s, p).cards[c as usize].boost;
                    let pl = &mut s.players[p as usize];
                    pl.hand.move_to(c as usize, &mut pl.discard);
                    s.phase = Phase::Maneuver {
                        boost: boost.saturating_add(value),
                        boosted: true,
                        moved,
                    };
                }
            }
            Action::Move { fighter, to } => {
                if let (Phase::Maneuver { boost, boosted, moved }, Ok(f), Some(dest)) =
                    (s.phase, self.figure(&s, fighter, ""), self.board(&s).space(to))
                {
                    let from = s.figs[f].at;
                    s.occ = (s.occ & !(1u64 << from)) | 1u64 << dest;
                    s.figs[f].at = dest;
                    s.phase = Phase::Maneuver {
                        boost,
                        boosted,
                        moved: moved | 1 << f,
                    };
                }
            }
            Action::Scheme { card, effect } => {
                if let Some(c) = self.hero(&s, p).card(card) {
                    self.play_scheme(&mut s, p, c);
                    let opp = self.opponent(&s, p);
                    self.apply_outcome(&mut s, effect, p, opp);
                    s.players[p as usize].discard.add(c as usize, 1);
                }
            }
            Action::Attack {
                fighter,
                target,
                card,
                extra,
            } => {
                let hero = self.hero(&s, p);
                if let (Ok(a), Ok(t), Some(c)) = (
                    self.figure(&s, fighter, ""),
                    self.figure(&s, target, ""),
                    hero.card(card),
                ) {
                    let x = extra.as_deref().and_then(|e| hero.card(e)).unwrap_or(OFF);
                    let pl = &mut s.players[p as usize];
                    pl.hand.take(c as usize, 1);
                    if x != OFF {
                        pl.hand.take(x as usize, 1);
                    }
                    s.actions += 1;
                    s.phase = Phase::Combat {
                        attacker: a as u8,
                        target: t as u8,
                        card: c,
                        extra: x,
                    };
                }
            }
            Action::Defend {
                card,
                effects,
                damage,
                winner,
            } => {
                if let Phase::Combat { target, .. } = s.phase {
                    let dp = s.figs[target as usize].owner;
                    let dc = card.as_deref().and_then(|id| self.hero(&s, dp).card(id)).unwrap_or(OFF);
                    let r = self.resolve(&mut s, dc, effects, *damage, *winner);
                    debug_assert!(r.is_ok(), "defend applied without validation: {r:?}");
                }
            }
            Action::Discard { card } => {
                if let Some(c) = self.hero(&s, p).card(card) {
                    let pl = &mut s.players[p as usize];
                    pl.hand.move_to(c as usize, &mut pl.discard);
                    s.phase = Phase::Actions;
                }
            }
        }
        s
    }

    /// A scheme card leaves the hand and counts as an action; its outcome
    /// resolves next, and then it is discarded.
    pub(super) fn play_scheme(&self, s: &mut State, p: u8, c: u8) {
        s.players[p as usize].hand.take(c as usize, 1);
        s.actions += 1;
        s.phase = Phase::Actions;
    }

    /// Applies a recorded outcome that [`Unmatched::check`] accepted (see
    /// [`Unmatched::resolve_outcome`]).
    pub(super) fn apply_outcome(&self, s: &mut State, e: &Effect, p: u8, opp: u8) {
        if !e.is_empty() {
            let r = self.resolve_outcome(s, e, p, opp, "");
            debug_assert!(r.is_ok(), "outcome applied without validation: {r:?}");
        }
    }

    /// Removes a figure whose health reached 0, and ends the game when a
    /// side has lost all its heroes.
    pub(super) fn hurt(&self, s: &mut State, f: usize, amount: u8) {
        let fig = &mut s.figs[f];
        if fig.at == OFF {
            return;
        }
        fig.hp = fig.hp.saturating_sub(amount);
        if fig.hp == 0 {
            s.occ &= !(1u64 << fig.at);
            fig.at = OFF;
            self.check_over(s);
        }
    }

    pub(super) fn check_over(&self, s: &mut State) {
        if s.over.is_some() {
            return;
        }
        let mut lost = [false; 2];
        for (t, l) in lost.iter_mut().enumerate() {
            *l = s
                .figs()
                .iter()
                .filter(|f| f.is_hero && s.team_of(f.owner) == t as u8)
                .all(|f| f.at == OFF);
        }
        if lost[0] || lost[1] {
            let mut winners = 0u8;
            for p in 0..s.n {
                if !lost[s.team_of(p) as usize] {
                    winners |= 1 << p;
                }
            }
            s.over = Some(winners);
        }
    }

    pub(super) fn next_turn(&self, s: &mut State) {
        let mut p = s.to_move;
        for _ in 0..s.n {
            p = (p + 1) % s.n;
            if s.figs().iter().any(|f| f.owner == p && f.at != OFF) {
                break;
            }
        }
        s.to_move = p;
        s.turn = s.turn.saturating_add(1);
        s.actions = 0;
        s.gazed = false;
        s.phase = Phase::Actions;
    }
}
