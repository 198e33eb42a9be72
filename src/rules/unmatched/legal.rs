//! Every legal choice in a state (canonical form), and near misses for
//! mutation tests.

use super::Unmatched;
use super::actions::{Action, Effect};
use super::choices::DECK;
use super::state::{Phase, State};
use super::tables::{Ability, CardKind, OFF};

impl Unmatched {
    /// Every legal action in `s`, chance fields in canonical form.
    pub(super) fn legal(&self, s: &State) -> Vec<Action> {
        let mut out = Vec::new();
        if s.over.is_some() {
            return out;
        }
        let p = s.to_move;
        let hero = self.hero(s, p);
        let pl = &s.players[p as usize];
        if let Phase::Combat { target, .. } = s.phase {
            let tf = s.figs[target as usize];
            let dp = tf.owner;
            let dhero = self.hero(s, dp);
            out.extend(self.defend_choices(s, None));
            for c in s.players[dp as usize].hand.cards().map(|c| c as u8) {
                let def = &dhero.cards[c as usize];
                if matches!(def.kind, CardKind::Defense | CardKind::Versatile) && Self::usable(dhero, c, tf.fighter) {
                    out.extend(self.defend_choices(s, Some(c)));
                }
            }
            return out;
        }
        let max = self.t.numbers.actions_per_turn;
        let b = self.board(s);
        if s.actions == 0
            && !s.gazed
            && hero.ability == Ability::Gaze
            && let Some(m) = s.figs().iter().find(|f| f.owner == p && f.is_hero && f.at != OFF)
        {
            for t in s.figs() {
                if t.at != OFF
                    && s.team_of(t.owner) != s.team_of(p)
                    && b.zones[m.at as usize] & b.zones[t.at as usize] != 0
                {
                    out.push(Action::Gaze {
                        target: self.fig_name(t).to_string(),
                    });
                }
            }
        }
        if s.actions < max {
            out.push(Action::Maneuver { draw: None });
            for c in pl.hand.cards().map(|c| c as u8) {
                let def = &hero.cards[c as usize];
                if def.kind == CardKind::Scheme
                    && s.figs()
                        .iter()
                        .any(|f| f.owner == p && f.at != OFF && def.fighter.is_none_or(|x| x == f.fighter))
                {
                    out.extend(self.scheme_choices(s, p, c));
                }
            }
            for a in s.figs().iter().filter(|f| f.owner == p && f.at != OFF) {
                for t in s.figs() {
                    if t.at == OFF || s.team_of(t.owner) == s.team_of(p) || !self.in_reach(s, a, t) {
                        continue;
                    }
                    for c in pl.hand.cards().map(|c| c as u8) {
                        let def = &hero.cards[c as usize];
                        if !matches!(def.kind, CardKind::Attack | CardKind::Versatile)
                            || !Self::usable(hero, c, a.fighter)
                        {
                            continue;
                        }
                        let mk = |extra: Option<String>| Action::Attack {
                            fighter: self.fig_name(a).to_string(),
                            target: self.fig_name(t).to_string(),
                            card: def.id.clone(),
                            extra,
                        };
                        out.push(mk(None));
                        if hero.ability == Ability::ExtraCard && a.is_hero {
                            for x in pl.hand.cards().map(|c| c as u8) {
                                if pl.hand.count(x as usize) >= if x == c { 2 } else { 1 } {
                                    out.push(mk(Some(hero.cards[x as usize].id.clone())));
                                }
                            }
                        }
                    }
                }
            }
        }
        if let Phase::Maneuver { boost, boosted, moved } = s.phase {
            if !boosted && moved == 0 {
                for c in pl.hand.cards().map(|c| c as u8) {
                    out.push(Action::Boost {
                        card: hero.cards[c as usize].id.clone(),
                    });
                }
            }
            let passable = !s.enemy_mask(p);
            let bonus = self.sinbad_bonus(s, p);
            for (i, f) in s.figs().iter().enumerate() {
                if f.owner != p || f.at == OFF || moved & (1 << i) != 0 {
                    continue;
                }
                let mut reach = b.reach(f.at, f.mv.saturating_add(boost).saturating_add(bonus), passable) & !s.occ;
                while reach != 0 {
                    let d = reach.trailing_zeros() as usize;
                    reach &= reach - 1;
                    out.push(Action::Move {
                        fighter: self.fig_name(f).to_string(),
                        to: b.graph.name(d as u8).to_string(),
                    });
                }
            }
        }
        if s.actions >= max {
            if pl.hand.total() > self.t.numbers.hand_limit {
                for c in pl.hand.cards().map(|c| c as u8) {
                    out.push(Action::Discard {
                        card: hero.cards[c as usize].id.clone(),
                    });
                }
            } else {
                out.push(Action::EndTurn);
            }
        }
        out
    }

    /// Legal actions and near misses: any fighter, space or card of the game.
    pub(super) fn near_misses(&self, s: &State, rng: &mut fastrand::Rng) -> Vec<Action> {
        let mut out = self.legal(s);
        if out.len() > 40 {
            rng.shuffle(&mut out);
            out.truncate(40);
        }
        let b = self.board(s);
        let figs: Vec<&str> = s.figs().iter().map(|f| self.fig_name(f)).collect();
        let fig = |rng: &mut fastrand::Rng| figs[rng.usize(..figs.len())].to_string();
        let space = |rng: &mut fastrand::Rng| b.graph.name(rng.usize(..b.graph.len()) as u8).to_string();
        // Any card of any hero in the game: other decks, not in hand, wrong kind.
        let cards: Vec<&str> = (0..s.n)
            .flat_map(|p| self.hero(s, p).cards.iter().map(|c| c.id.as_str()))
            .collect();
        let card = |rng: &mut fastrand::Rng| cards[rng.usize(..cards.len())].to_string();
        for _ in 0..4 {
            out.push(Action::Move {
                fighter: fig(rng),
                to: space(rng),
            });
            out.push(Action::Attack {
                fighter: fig(rng),
                target: fig(rng),
                card: card(rng),
                extra: None,
            });
            out.push(Action::Defend {
                card: Some(card(rng)),
                effects: Vec::new(),
                damage: None,
                winner: None,
            });
            out.push(Action::Scheme {
                card: card(rng),
                effect: Effect::default(),
            });
            out.push(Action::Boost { card: card(rng) });
            out.push(Action::Discard { card: card(rng) });
            out.push(Action::Gaze { target: fig(rng) });
        }
        out.push(Action::Attack {
            fighter: fig(rng),
            target: fig(rng),
            card: card(rng),
            extra: Some(card(rng)),
        });
        // Effect outcomes beyond what the cards give: one more card drawn,
        // health and damage inflated, a value stated for a card, an outcome
        // for a card not in this combat.
        for a in self.legal(s) {
            match a {
                Action::Scheme { card, mut effect } => {
                    effect.draw.push(DECK.to_string());
                    out.push(Action::Scheme {
                        card: card.clone(),
                        effect: effect.clone(),
                    });
                    effect.draw.pop();
                    effect.heal.insert(fig(rng), 1 + rng.u8(..3));
                    effect.damage.insert(fig(rng), 1 + rng.u8(..3));
                    out.push(Action::Scheme { card, effect });
                }
                Action::Defend {
                    card: dc, mut effects, ..
                } => {
                    if let Some(e) = effects.first_mut() {
                        e.draw.push(DECK.to_string());
                    }
                    effects.push(Effect {
                        card: Some(card(rng)),
                        value: Some(1 + rng.i8(..3)),
                        ..Effect::default()
                    });
                    out.push(Action::Defend {
                        card: dc,
                        effects,
                        damage: None,
                        winner: None,
                    });
                }
                _ => {}
            }
        }
        out.push(Action::Move {
            fighter: "nobody".into(),
            to: "s99".into(),
        });
        out.push(Action::Maneuver { draw: None });
        out.push(Action::Defend {
            card: None,
            effects: Vec::new(),
            damage: None,
            winner: None,
        });
        out.push(Action::EndTurn);
        out
    }
}
