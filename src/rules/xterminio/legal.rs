//! Every legal choice in a state (canonical form), and near misses for
//! mutation tests: one superset of plausible actions, filtered through the
//! same checks as `validate` (or widened for near misses).

use super::Xterminio;
use super::actions::{Action, Effect, Intercept, Slot};
use super::effects::{Cond, Ctx, Out, Spot, When};
use super::state::{CHAR_DECK, Phase, SUPPORT_DECK, State};
use super::tables::Kind;
use crate::rules::kit::effects::{self as fx, Count, Host, Src};

/// Near misses: one more than allowed on some targets.
fn rand_bump(obj: Option<Spot>) -> bool {
    obj.is_some_and(|o| (o.slot as u8 + o.side).is_multiple_of(2))
}

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
                    // The cost after the modifiers in force (an Ammo Backpack).
                    if !wide && self.attack_cost(s, Spot::new(p, from), info.attacks[k as usize - 1].cost) > me.energy {
                        continue;
                    }
                    for &target in &theirs {
                        let texts = self.attack_choices(s, Spot::new(p, from), k, Spot::new(q, target), wide);
                        for effect in &texts {
                            out.push(Action::Attack {
                                attacker: from,
                                attack: k,
                                target,
                                intercept: None,
                                answer: None,
                                effect: effect.clone(),
                            });
                        }
                        for card in self.answers(s, q, When::AttackDeclared, wide) {
                            out.push(Action::Attack {
                                attacker: from,
                                attack: k,
                                target,
                                intercept: None,
                                answer: Some(card),
                                effect: None,
                            });
                        }
                        for &by in &theirs {
                            let Some(g) = Self::fighter(s, q, by) else { continue };
                            if !wide && g.exhausted {
                                continue;
                            }
                            for (j, st) in self.t.get(g.card).attacks.iter().enumerate() {
                                // The cost after the modifiers in force (Captain Vega).
                                if st.interception
                                    && (wide || self.intercept_cost(s, Spot::new(q, by), st.cost) <= s.p[q].energy)
                                {
                                    let mut answers: Vec<Option<String>> = vec![None];
                                    answers.extend(
                                        self.answers(s, p, When::InterceptionDeclared, wide)
                                            .into_iter()
                                            .map(Some),
                                    );
                                    for answer in answers {
                                        out.push(Action::Attack {
                                            attacker: from,
                                            attack: k,
                                            target,
                                            intercept: Some(Intercept {
                                                by,
                                                attack: j as u8 + 1,
                                                answer,
                                            }),
                                            answer: None,
                                            effect: texts.first().cloned().flatten(),
                                        });
                                    }
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
                        answer: None,
                    });
                    out.push(Action::Attack {
                        attacker,
                        attack: rng.u8(1..=3),
                        target,
                        intercept,
                        answer: None,
                        effect: None,
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
        // Action cards and abilities, by either player, with every outcome
        // their effects allow (and, for near misses, some they do not).
        for a in [p, q] {
            let by = (a != p).then(|| s.names[a].clone());
            for c in distinct(s.p[a].hand.counts()) {
                if !wide && (self.t.get(c).kind != Kind::Action || s.window == Some(a)) {
                    continue;
                }
                let Some(d) = self.t.get(c).effect else { continue };
                let src = Src {
                    card: d,
                    owner: a as u8,
                    at: None,
                };
                let ctx = self.ctx_for(s, a, &[When::Play]);
                for effect in self.choices(&ctx, s, &src, a, wide) {
                    out.push(Action::Play {
                        card: id(c),
                        by: by.clone(),
                        effect,
                    });
                }
            }
            let mut srcs = Vec::new();
            self.sources_of(s, a, &mut srcs);
            if wide {
                // Someone else's cards, as if they were this player's.
                self.sources_of(s, 1 - a, &mut srcs);
            }
            let mut open = vec![];
            if Self::main_open(s, a) || wide {
                open.push(When::Main);
            }
            if a == p && s.upkeep || wide {
                open.push(When::Upkeep);
            }
            let ctx = self.ctx_for(s, a, &open);
            let mut seen: Vec<(u16, Option<Effect>)> = Vec::new();
            for src in srcs {
                if !self.t.defs[usize::from(src.card)].clauses.iter().any(|c| !c.auto) {
                    continue;
                }
                let mine = Src { owner: a as u8, ..src };
                for effect in self.choices(&ctx, s, &mine, a, wide) {
                    if seen.iter().any(|(d, e)| *d == src.card && *e == effect) {
                        continue;
                    }
                    seen.push((src.card, effect.clone()));
                    out.push(Action::Ability {
                        card: self.t.id(self.t.def_card[usize::from(src.card)]).to_string(),
                        by: by.clone(),
                        effect,
                    });
                }
            }
        }
    }

    /// The action cards player `a` holds that answer at `when`.
    fn answers(&self, s: &State, a: usize, when: When, wide: bool) -> Vec<String> {
        self.t
            .cards
            .iter()
            .enumerate()
            .filter(|(c, info)| {
                s.p[a].hand.count(*c) > 0
                    && info
                        .effect
                        .is_some_and(|d| wide || self.t.defs[usize::from(d)].has(when))
            })
            .map(|(_, info)| info.id.clone())
            .collect()
    }

    /// The outcomes an attack text may record (`None`: nothing recorded).
    fn attack_choices(&self, s: &State, at: Spot, k: u8, target: Spot, wide: bool) -> Vec<Option<Effect>> {
        let Some(f) = Self::fighter(s, usize::from(at.side), at.slot) else {
            return vec![None];
        };
        let Some(d) = self
            .t
            .get(f.card)
            .attacks
            .get(usize::from(k) - 1)
            .and_then(|st| st.effect)
        else {
            return vec![None];
        };
        if !self.t.defs[usize::from(d)].clauses.iter().any(|c| !c.auto) {
            return vec![None];
        }
        let mut ctx = Ctx::new(self, &[When::Attack]);
        ctx.attack = Some((at, target));
        let src = Src {
            card: d,
            owner: at.side,
            at: Some(at),
        };
        self.choices(&ctx, s, &src, usize::from(at.side), wide)
    }

    /// Every outcome the chosen clauses of `src` may record now: nothing,
    /// and each target with the amount the state allows (near misses: one
    /// more, or a target that does not qualify).
    fn choices(&self, ctx: &Ctx, s: &State, src: &Src<Spot>, a: usize, wide: bool) -> Vec<Option<Effect>> {
        let mut out: Vec<Option<Effect>> = vec![None];
        let def = &self.t.defs[usize::from(src.card)];
        for c in def.clauses.iter().filter(|c| !c.auto) {
            let objs: Vec<Option<Spot>> = match &c.target {
                None => vec![None],
                Some(t) if t.count == Count::All => vec![None],
                Some(t) => {
                    let mut v: Vec<Option<Spot>> = ctx
                        .candidates(s, src, t.who)
                        .into_iter()
                        .filter(|o| wide || t.cond.iter().all(|x| ctx.holds(s, src, x, Some(*o))))
                        .map(Some)
                        .collect();
                    if wide {
                        v.extend(Slot::CHARACTER.iter().map(|sl| Some(Spot::new(a, *sl))));
                    }
                    v
                }
            };
            for obj in objs {
                let mut e = Effect::default();
                let mut extra: Vec<Effect> = Vec::new();
                for (o, amount) in &c.out {
                    let n = match amount {
                        fx::Amount::Exactly(n) | fx::Amount::UpTo(n) => *n,
                        fx::Amount::Per { .. } => 1,
                    };
                    let n = ctx.cap(s, src, *o, obj).map_or(n, |k| n.min(k)) + i16::from(wide && rand_bump(obj));
                    if n <= 0 && !matches!(o, Out::Deploy | Out::Fetch | Out::Place | Out::Fly) {
                        continue;
                    }
                    let n = n.clamp(0, 255) as u8;
                    let sl = obj.map(|o| o.slot);
                    match (o, sl) {
                        (Out::Heal, Some(sl)) => {
                            e.heal.insert(sl, n);
                        }
                        (Out::Damage, Some(sl)) => {
                            e.damage.insert(sl, n);
                        }
                        (Out::Energy, _) => e.energy = n,
                        (Out::Ready, Some(sl)) => e.ready.push(sl),
                        (Out::Stun, Some(sl)) => e.stun.push(sl),
                        (Out::DamageBonus, Some(sl)) => {
                            e.bonus.insert(sl, n);
                        }
                        (Out::Place, Some(sl)) => e.place = Some(sl),
                        (Out::Fly, Some(sl)) => e.fly = Some(sl),
                        (Out::Deploy, Some(sl)) => {
                            let mut camp: Vec<u8> = s.p[a]
                                .camp
                                .iter()
                                .map(|x| x.card)
                                .filter(|&x| self.t.get(x).kind == Kind::Character)
                                .collect();
                            camp.dedup();
                            for x in camp {
                                let mut d = e.clone();
                                d.deploy.insert(sl, self.t.id(x).to_string());
                                extra.push(d);
                            }
                        }
                        (Out::Fetch, _) => {
                            for (x, &k) in s.p[a].deck.counts().iter().enumerate() {
                                let named = c.cond.iter().all(|cd| match cd {
                                    Cond::Named(id) => self.t.card(id) == Some(x as u8),
                                    _ => true,
                                });
                                if k > 0 && (named || wide) {
                                    let mut d = e.clone();
                                    d.fetch.push(self.t.id(x as u8).to_string());
                                    extra.push(d);
                                }
                            }
                        }
                        _ => {}
                    }
                }
                if extra.is_empty() {
                    if !e.is_empty() {
                        out.push(Some(e));
                    }
                } else {
                    out.extend(extra.into_iter().map(Some));
                }
            }
        }
        out.dedup();
        out
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
