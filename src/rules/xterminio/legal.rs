//! Every legal choice in a state (canonical form), and near misses for
//! mutation tests: one superset of plausible actions, filtered through the
//! same checks as `validate` (or widened for near misses).

use super::Xterminio;
use super::actions::{Action, Effect, Intercept, Slot};
use super::state::{CHAR_DECK, Phase, SUPPORT_DECK, State};
use super::tables::Kind;

impl Xterminio {
    /// Every legal action in `s`, chance fields in canonical form.
    pub(super) fn legal(&self, s: &State) -> Vec<Action> {
        if s.winner.is_some() {
            return Vec::new();
        }
        let mut all = Vec::new();
        self.superset(s, false, &mut None, &mut all);
        all.retain(|a| match a {
            Action::Draw { .. } => self.draw_split_ok(s, a),
            // Listed in canonical form (no effect): legal when the card may
            // act at all, since gaining 1 ENERGY is always a valid outcome.
            Action::Ability { card, by, effect: None } => self
                .check(
                    s,
                    &Action::Ability {
                        card: card.clone(),
                        by: by.clone(),
                        effect: Some(Effect {
                            energy: 1,
                            ..Effect::default()
                        }),
                    },
                )
                .is_ok(),
            _ => self.check(s, a).is_ok(),
        });
        all
    }

    /// Legal actions and near misses.
    pub(super) fn near_misses(&self, s: &State, rng: &mut fastrand::Rng) -> Vec<Action> {
        let mut out = Vec::new();
        self.superset(s, true, &mut Some(rng), &mut out);
        out
    }

    /// Every plausible action (`wide`: near misses too), for
    /// [`Engine::legal_actions`] (filtered) and [`Engine::candidates`].
    pub(super) fn superset(&self, s: &State, wide: bool, rng: &mut Option<&mut fastrand::Rng>, out: &mut Vec<Action>) {
        let p = s.to_move;
        let q = 1 - p;
        let me = &s.p[p];
        let distinct = |counts: &[u8]| -> Vec<u8> {
            counts
                .iter()
                .enumerate()
                .filter(|(_, k)| **k > 0)
                .map(|(c, _)| c as u8)
                .collect()
        };
        let id = |c: u8| self.t.id(c).to_string();
        let hand = distinct(me.hand.counts());
        let mut camp: Vec<u8> = me.camp.iter().map(|c| c.card).collect();
        camp.sort_unstable();
        camp.dedup();
        // The draw.
        if !s.drawn || wide {
            let left = (me.deck_chars + me.deck_support) as usize;
            let need = self.t.n.turn_draw.min(left);
            let sizes: &[usize] = if wide {
                &[need, need + 1, need.saturating_sub(1)]
            } else {
                &[need]
            };
            for &size in sizes {
                for k in 0..=size {
                    if (k as u16) <= me.deck_chars && ((size - k) as u16) <= me.deck_support || wide {
                        let mut cards = vec![CHAR_DECK.to_string(); k];
                        cards.extend(std::iter::repeat_n(SUPPORT_DECK.to_string(), size - k));
                        out.push(Action::Draw { cards });
                    }
                }
            }
            if !s.drawn && !wide {
                self.anytime(s, wide, out);
                return;
            }
        }
        let mine: Vec<Slot> = Slot::CHARACTER
            .into_iter()
            .filter(|sl| Self::fighter(s, p, *sl).is_some())
            .collect();
        let theirs: Vec<Slot> = Slot::CHARACTER
            .into_iter()
            .filter(|sl| Self::fighter(s, q, *sl).is_some())
            .collect();
        let free: Vec<Slot> = Slot::CHARACTER
            .into_iter()
            .filter(|sl| Self::fighter(s, p, *sl).is_none())
            .collect();
        let slots_to: &[Slot] = if wide { &Slot::ALL } else { &free };
        if s.phase <= Phase::Main || wide {
            for &c in &camp {
                match self.t.get(c).kind {
                    Kind::Character => {
                        for &to in slots_to {
                            out.push(Action::Deploy { card: id(c), to });
                        }
                    }
                    Kind::Equipment => {
                        let targets: &[Slot] = if wide { &Slot::ALL } else { &mine };
                        for &to in targets {
                            out.push(Action::Equip { card: id(c), to });
                        }
                        out.push(Action::Equip {
                            card: id(c),
                            to: Slot::CoverEnergy,
                        });
                    }
                    _ => {}
                }
            }
            for &c in &hand {
                let k = self.t.get(c).kind;
                if k == Kind::Zone || wide {
                    out.push(Action::Zone { card: id(c) });
                }
                if wide && k == Kind::Character {
                    out.push(Action::Deploy {
                        card: id(c),
                        to: free.first().copied().unwrap_or(Slot::CoverZone),
                    });
                }
            }
            for &from in &mine {
                for &to in slots_to {
                    if to != from {
                        out.push(Action::Move { from, to });
                    }
                }
                let f = Self::fighter(s, p, from).map(|f| f.card);
                if wide || f.is_some_and(|c| self.t.get(c).powered_version.is_some() && !self.t.get(c).powered) {
                    out.push(Action::PowerUp { slot: from });
                }
            }
            for (c, &k) in me.owned.counts().iter().enumerate() {
                if k > 0 && self.t.get(c as u8).powered {
                    out.push(Action::Fetch { card: id(c as u8) });
                }
            }
        }
        if s.phase <= Phase::Attack || wide {
            for &from in &mine {
                let Some(f) = Self::fighter(s, p, from) else { continue };
                // Outside `wide`, skip what `check` rejects anyway (cheaper).
                if !wide && (f.attacked || f.exhausted) {
                    continue;
                }
                if wide || s.point_ok {
                    out.push(Action::PointAttack { attacker: from });
                }
                let info = self.t.get(f.card);
                for k in 1..=info.attacks.len() as u8 {
                    if !wide && info.attacks[k as usize - 1].cost > me.energy {
                        continue;
                    }
                    for &target in &theirs {
                        out.push(Action::Attack {
                            attacker: from,
                            attack: k,
                            target,
                            intercept: None,
                        });
                        for &by in &theirs {
                            let Some(g) = Self::fighter(s, q, by) else { continue };
                            if !wide && (g.exhausted || g.stunned) {
                                continue;
                            }
                            for (j, st) in self.t.get(g.card).attacks.iter().enumerate() {
                                if st.interception && (wide || st.cost <= s.p[q].energy) {
                                    out.push(Action::Attack {
                                        attacker: from,
                                        attack: k,
                                        target,
                                        intercept: Some(Intercept {
                                            by,
                                            attack: j as u8 + 1,
                                        }),
                                    });
                                }
                            }
                        }
                    }
                }
            }
            if wide && let Some(rng) = rng.as_deref_mut() {
                for _ in 0..6 {
                    let pick = |rng: &mut fastrand::Rng| Slot::CHARACTER[rng.usize(..5)];
                    let attacker = pick(rng);
                    let target = pick(rng);
                    let intercept = rng.bool().then(|| Intercept {
                        by: pick(rng),
                        attack: rng.u8(1..=3),
                    });
                    out.push(Action::Attack {
                        attacker,
                        attack: rng.u8(1..=3),
                        target,
                        intercept,
                    });
                }
            }
        }
        if s.phase <= Phase::Camp || wide {
            for &c in &hand {
                if wide || matches!(self.t.get(c).kind, Kind::Character | Kind::Equipment) {
                    out.push(Action::Camp { card: id(c) });
                }
            }
        }
        for &c in &hand {
            out.push(Action::Discard { card: id(c) });
        }
        self.anytime(s, wide, out);
    }

    /// Steps allowed at any moment: ending the turn, action cards,
    /// abilities, answering, trading a powered card for ENERGY.
    pub(super) fn anytime(&self, s: &State, wide: bool, out: &mut Vec<Action>) {
        let p = s.to_move;
        let q = 1 - p;
        let me = &s.p[p];
        let id = |c: u8| self.t.id(c).to_string();
        let distinct = |counts: &[u8]| -> Vec<u8> {
            counts
                .iter()
                .enumerate()
                .filter(|(_, k)| **k > 0)
                .map(|(c, _)| c as u8)
                .collect()
        };
        let hand = distinct(me.hand.counts());
        let mut camp: Vec<u8> = me.camp.iter().map(|c| c.card).collect();
        camp.sort_unstable();
        camp.dedup();
        for &c in hand.iter().chain(&camp) {
            if self.t.get(c).powered {
                out.push(Action::DiscardPowered { card: id(c) });
            }
        }
        out.push(Action::EndTurn);
        out.push(Action::Pass);
        // Action cards and abilities, by either player.
        for a in [p, q] {
            let by = (a != p).then(|| s.names[a].clone());
            for c in distinct(s.p[a].hand.counts()) {
                if wide || self.t.get(c).kind == Kind::Action && s.window != Some(a) {
                    out.push(Action::Play {
                        card: id(c),
                        by: by.clone(),
                        effect: None,
                    });
                }
            }
            let mut sources: Vec<u8> = s.p[a].battle.iter().flatten().map(|f| f.card).collect();
            sources.extend(s.p[a].battle.iter().flatten().filter_map(|f| f.equipment));
            sources.extend(s.p[a].zone);
            sources.extend(s.p[a].energy_eq);
            sources.extend(s.p[a].fixed.iter().copied());
            sources.retain(|&c| wide || self.t.get(c).text && s.p[a].used[c as usize] < Self::in_play(&s.p[a], c));
            sources.sort_unstable();
            sources.dedup();
            for c in sources {
                out.push(Action::Ability {
                    card: id(c),
                    by: by.clone(),
                    effect: None,
                });
            }
        }
    }

    /// A canonical draw (deck names for the cards) that a real draw could match.
    pub(super) fn draw_split_ok(&self, s: &State, a: &Action) -> bool {
        let Action::Draw { cards } = a else { return false };
        let side = &s.p[s.to_move];
        let need = self.t.n.turn_draw.min((side.deck_chars + side.deck_support) as usize);
        let chars = cards.iter().filter(|c| *c == CHAR_DECK).count();
        let support = cards.iter().filter(|c| *c == SUPPORT_DECK).count();
        s.turn != 1
            && !s.drawn
            && chars + support == cards.len()
            && cards.len() == need
            && chars as u16 <= side.deck_chars
            && support as u16 <= side.deck_support
    }
}
