//! A combat's resolution (UM-8 … UM-11) and recorded card outcomes: the
//! effects of the revealed cards in order, the damage and the winner, each
//! checked against the state as it stands when it resolves and applied at
//! once. [`Unmatched::check`] runs them on a scratch copy, [`Unmatched::step`]
//! on the state itself. [`Unmatched::resolve_outcome`] is the plug-in point
//! of card effects (docs/architecture.md, "Rules engines").

use super::Unmatched;
use super::actions::{Effect, Side, Size};
use super::effects::{Ch, Combat, Ctx, Out, When};
use super::rule;
use super::state::{CombatResult, Figure, Phase, State};
use super::tables::{Ability, CardKind, OFF};
use crate::rules::Violation;
use crate::rules::kit::effects::{self as fx, Src, Word};
use crate::rules::kit::{plural, v};

impl Unmatched {
    /// Resolves the combat under way, the defender having played card `dc`
    /// (or [`OFF`]): timing by timing (immediately, during, after combat;
    /// the defender's card first), each card's automatic clauses apply and
    /// its recorded outcome is checked by the effect interpreter; damage is
    /// dealt before the after-combat effects; then the cards are discarded.
    pub(super) fn resolve(
        &self,
        s: &mut State,
        dc: u8,
        effects: &[Effect],
        damage: Option<u8>,
        winner: Option<Side>,
    ) -> Result<(), Violation> {
        let Phase::Combat {
            attacker,
            target,
            card: ac,
            extra,
        } = s.phase
        else {
            return Ok(());
        };
        let ap = s.to_move;
        let (af, tf) = (s.figs[attacker as usize], s.figs[target as usize]);
        let dp = tf.owner;
        if dc != OFF {
            s.players[dp as usize].hand.take(dc as usize, 1);
        }
        // Side 0 is the defender, side 1 the attacker.
        let cards = [(dp, dc, target), (ap, ac, attacker)];
        let srcs: [Option<Src<u8>>; 2] =
            cards.map(|(p, c, by)| (c != OFF).then(|| self.card_src(s, p, c, by)).flatten());
        let ids: [Option<&str>; 2] =
            cards.map(|(p, c, _)| (c != OFF).then(|| self.hero(s, p).cards[c as usize].id.as_str()));
        let mut combat = Combat {
            attacker,
            defender: target,
            attacker_won: None,
        };
        // A card that cancels the other's effects (stopped-clock).
        let cancels = |k: usize| {
            srcs[k].is_some_and(|x| {
                self.t.defs[usize::from(x.card)]
                    .clauses
                    .iter()
                    .any(|c| c.auto && c.amount(Out::Cancel).is_some())
            })
        };
        let cancelled = [cancels(1), cancels(0)];
        let mut change = [0i16; 2];
        let mut next = 0;
        for timing in [When::Immediately, When::DuringCombat, When::AfterCombat] {
            if timing == When::AfterCombat {
                self.deal(s, (af, tf, attacker, target), (ac, dc, extra), change, damage, winner)?;
                combat.attacker_won = s.last.map(|r| r.attacker_won);
            }
            for k in 0..2 {
                let Some(src) = srcs[k] else { continue };
                let id = ids[k].unwrap_or("?");
                let recorded = effects.get(next).filter(|e| e.card.as_deref() == Some(id));
                if cancelled[k] {
                    if recorded.is_some() {
                        let other = srcs[1 - k].map(|o| {
                            let d = &self.t.defs[usize::from(o.card)];
                            d.cause(&self.t.def_names[usize::from(o.card)], None)
                        });
                        let mine = self.t.defs[usize::from(src.card)].cause(id, None);
                        return Err(v(
                            rule::EFFECTS,
                            format!("`{id}` has no effect: the other card cancels it"),
                        )
                        .expected(format!("no outcome for `{id}` in `effects`"))
                        .found(format!("an outcome for `{id}`"))
                        .cited_all(std::iter::once(mine).chain(other)));
                    }
                    continue;
                }
                if !self.t.defs[usize::from(src.card)].has(timing) {
                    continue;
                }
                if let Some(w) = s.over {
                    if recorded.is_some() {
                        return Err(v(
                            rule::DEFEAT,
                            format!(
                                "the game ended when a hero fell ({} won); `{id}` no longer resolves",
                                self.winner_names(s, w)
                            ),
                        )
                        .expected("nothing more after the last hero falls")
                        .found(format!("an outcome for `{id}`")));
                    }
                    continue;
                }
                let ctx = Ctx::new(self, &[timing], Some(combat));
                let (owner, other) = (src.owner, cards[1 - k].0);
                // The recorded outcome is checked against the state before
                // the card's automatic parts apply (it may restate them).
                let rest = match recorded {
                    Some(e) => {
                        next += 1;
                        let changes = self.changes(s, &src, e, owner);
                        let ok = fx::allow(&ctx, s, &src, &changes, rule::EFFECTS)?;
                        Some(self.strip_auto(s, &src, e, &changes, &ok))
                    }
                    None => {
                        fx::missing(&ctx, s, &src, rule::EFFECTS)?;
                        None
                    }
                };
                for (_, _, ch) in fx::fire(&ctx, s, &[src], timing, None) {
                    if ch.out == Out::Value {
                        change[k] += ch.n;
                    } else {
                        self.apply_change(s, src.owner, ch);
                    }
                }
                if let Some(e) = rest {
                    self.resolve_outcome(s, &e, owner, other, rule::EFFECTS)?;
                }
            }
        }
        if let Some(e) = effects.get(next) {
            let id = e.card.as_deref().unwrap_or("");
            let revealed: Vec<&str> = ids.iter().flatten().copied().collect();
            return Err(if e.card.is_none() {
                v(rule::EFFECTS, "a combat effect must name the card it comes from")
                    .expected(format!("`card: {}`", revealed.join("` or `")))
                    .found("an effect without `card`")
            } else if !revealed.contains(&id) {
                let found = if extra != OFF && self.hero(s, ap).cards[extra as usize].id == id {
                    format!("`{id}`, King Arthur's extra card, which only adds its boost")
                } else {
                    format!("`{id}`")
                };
                v(
                    rule::EFFECTS,
                    format!("`{id}` is not one of the cards revealed in this combat"),
                )
                .expected(format!("`{}`", revealed.join("` or `")))
                .found(found)
            } else if srcs
                .iter()
                .flatten()
                .zip(ids.iter().flatten())
                .any(|(x, i)| *i == id && self.t.defs[usize::from(x.card)].clauses.is_empty())
                || !srcs.iter().flatten().zip(ids.iter().flatten()).any(|(_, i)| *i == id)
            {
                v(rule::EFFECTS, format!("`{id}` has no combat effect to resolve"))
                    .expected("outcomes only for cards with an effect")
                    .found(format!("an outcome for `{id}`"))
            } else {
                let side = |i: &str| if ids[0] == Some(i) { "defender" } else { "attacker" };
                let timing = |i: &str| {
                    srcs.iter()
                        .flatten()
                        .zip(ids.iter().flatten())
                        .find(|(_, x)| **x == i)
                        .and_then(|(x, _)| self.t.defs[usize::from(x.card)].clauses.first())
                        .map_or("", |c| Word::name(c.when))
                };
                match next.checked_sub(1).and_then(|k| effects[k].card.as_deref()) {
                    Some(prev) if prev != id => v(
                        rule::EFFECTS,
                        format!(
                            "`{id}` ({}, {}) is listed after `{prev}` ({}, {})",
                            side(id),
                            timing(id),
                            side(prev),
                            timing(prev)
                        ),
                    )
                    .expected("immediately, then during combat, then after combat; within each timing the defender's card first")
                    .found(format!("`{prev}` ({}) before `{id}` ({})", timing(prev), timing(id))),
                    Some(_) => v(rule::EFFECTS, format!("`{id}` resolves twice"))
                        .expected("one outcome per card")
                        .found(format!("two outcomes for `{id}`")),
                    None => v(rule::EFFECTS, format!("`{id}` has nothing to record here"))
                        .expected("outcomes in timing order")
                        .found(format!("an outcome for `{id}`")),
                }
            });
        }
        let pa = &mut s.players[ap as usize];
        pa.discard.add(ac as usize, 1);
        if extra != OFF {
            pa.discard.add(extra as usize, 1);
        }
        if dc != OFF {
            let pd = &mut s.players[dp as usize];
            pd.discard.add(dc as usize, 1);
        }
        s.phase = Phase::Actions;
        Ok(())
    }

    /// The figure of `p` who plays card `c`: its fighter (or the hero for
    /// a card any fighter may play), in play.
    pub(super) fn player_of_card(&self, s: &State, p: u8, c: u8) -> u8 {
        let want = self.hero(s, p).cards[c as usize].fighter;
        let mine = |f: &&Figure| f.owner == p && f.at != OFF;
        let figs = s.figs();
        let pick = match want {
            Some(w) => figs.iter().position(|f| mine(&f) && f.fighter == w),
            None => figs
                .iter()
                .position(|f| mine(&f) && f.is_hero)
                .or_else(|| figs.iter().position(|f| mine(&f))),
        };
        pick.unwrap_or(0) as u8
    }

    /// A scheme card's outcome, the card already played: the moves it
    /// records first (then whatever follows sees where the fighters went),
    /// its automatic clauses, then the rest, each checked by the effect
    /// interpreter and applied.
    pub(super) fn resolve_scheme(&self, s: &mut State, p: u8, c: u8, e: &Effect) -> Result<(), Violation> {
        let opp = self.opponent(s, p);
        let by = self.player_of_card(s, p, c);
        let Some(src) = self.card_src(s, p, c, by) else {
            return self.resolve_outcome(s, e, p, opp, rule::SCHEME);
        };
        let ctx = Ctx::new(self, &[When::Scheme], None);
        let moves = Effect {
            moves: e.moves.clone(),
            ..Effect::default()
        };
        let rest = Effect {
            moves: Default::default(),
            ..e.clone()
        };
        if !moves.moves.is_empty() {
            fx::allow_with(&ctx, s, &src, &self.changes(s, &src, &moves, p), rule::SCHEME, false)?;
        }
        let places = self.t.defs[usize::from(src.card)]
            .clauses
            .iter()
            .any(|c| c.amount(Out::Place).is_some());
        if places {
            let b = self.board(s);
            for (id, to) in &e.moves {
                let f = self.in_play(s, id, rule::SCHEME)?;
                let from = s.figs[f].at;
                if let Some(d) = b.space(to)
                    && b.zones[d as usize] & b.zones[from as usize] == 0
                {
                    return Err(v(rule::SCHEME, format!("{to} is in none of {id}'s zones"))
                        .expected(format!(
                            "a space of {} ({id} is on {})",
                            b.zone_list(from),
                            b.name(from)
                        ))
                        .found(format!("{to} ({})", b.zone_list(d))));
                }
            }
        }
        self.resolve_outcome(s, &moves, p, opp, rule::SCHEME)?;
        let changes = self.changes(s, &src, e, p);
        let ok = fx::allow(&ctx, s, &src, &changes, rule::SCHEME)?;
        let rest = self.strip_auto(s, &src, &rest, &changes, &ok);
        for (_, _, ch) in fx::fire(&ctx, s, &[src], When::Scheme, None) {
            self.apply_change(s, p, ch);
        }
        self.resolve_outcome(s, &rest, p, opp, rule::SCHEME)
    }

    /// `e` without the parts that restate an automatic clause (applied by
    /// the engine already).
    fn strip_auto(&self, s: &State, src: &Src<u8>, e: &Effect, changes: &[Ch], ok: &fx::Allowed) -> Effect {
        let def = &self.t.defs[usize::from(src.card)];
        let mut e = e.clone();
        for (ch, &k) in changes.iter().zip(&ok.of) {
            if !def.clauses.get(usize::from(k)).is_some_and(|c| c.auto) {
                continue;
            }
            let name = ch
                .obj
                .map(|f| self.fig_name(&s.figs[f as usize]).to_string())
                .unwrap_or_default();
            match ch.out {
                Out::Big | Out::Small => e.size = None,
                Out::Heal => {
                    e.heal.remove(&name);
                }
                Out::Damage => {
                    e.damage.remove(&name);
                }
                Out::Draw => e.draw.clear(),
                _ => {}
            }
        }
        e
    }

    /// An automatic outcome of a card of `p`.
    pub(super) fn apply_change(&self, s: &mut State, p: u8, ch: Ch) {
        match (ch.out, ch.obj) {
            (Out::Big, _) => s.players[p as usize].big = true,
            (Out::Small, _) => s.players[p as usize].big = false,
            (Out::Damage, Some(f)) => self.hurt(s, f as usize, ch.n.clamp(0, 255) as u8),
            (Out::Defeat, Some(f)) => self.hurt(s, f as usize, u8::MAX),
            (Out::Heal, Some(f)) => {
                let fig = &mut s.figs[f as usize];
                if fig.at != OFF {
                    fig.hp = fig.hp.saturating_add(ch.n.clamp(0, 255) as u8).min(fig.max);
                }
            }
            _ => {}
        }
    }

    /// Works out and deals combat damage (UM-9), checking the log's claims.
    pub(super) fn deal(
        &self,
        s: &mut State,
        (af, tf, _a, t): (Figure, Figure, u8, u8),
        (ac, dc, extra): (u8, u8, u8),
        change: [i16; 2],
        claim: Option<u8>,
        winner: Option<Side>,
    ) -> Result<(), Violation> {
        let ap = af.owner;
        let dp = tf.owner;
        let ahero = self.hero(s, ap);
        let dhero = self.hero(s, dp);
        let mut parts = Vec::new();
        let base = i16::from(ahero.cards[ac as usize].value);
        let mut attack = (base + change[1]).max(0);
        parts.push(format!("{} {}", ahero.cards[ac as usize].id, base));
        if change[1] != 0 {
            parts.push(format!("effect {:+}", change[1]));
        }
        if extra != OFF {
            let b = i16::from(ahero.cards[extra as usize].boost);
            attack += b;
            parts.push(format!("extra {} boost {b}", ahero.cards[extra as usize].id));
        }
        let k = self.ability_mod(s, ap, Out::Attack, _a);
        if k != 0 {
            attack += k;
            parts.push(format!("{} {k:+}", ahero.id));
        }
        let mut dparts = Vec::new();
        let mut defense = 0i16;
        if dc != OFF {
            let base = i16::from(dhero.cards[dc as usize].value);
            defense = (base + change[0]).max(0);
            dparts.push(format!("{} {}", dhero.cards[dc as usize].id, base));
            if change[0] != 0 {
                dparts.push(format!("effect {:+}", change[0]));
            }
            let k = self.ability_mod(s, dp, Out::Defense, t);
            if k != 0 {
                defense += k;
                dparts.push(format!("{} {k:+}", dhero.id));
            }
        } else {
            dparts.push("no defence 0".into());
        }
        let (attack, defense) = (attack.min(255), defense.min(255));
        let dmg = (attack - defense).max(0) as u8;
        let attacker_won = dmg > 0;
        let sum = format!(
            "attack {attack} ({}) − defense {defense} ({}) = {dmg}",
            parts.join(" + "),
            dparts.join(" + ")
        );
        if let Some(c) = claim
            && c != dmg
        {
            return Err(v(rule::DAMAGE, format!("the log records {c} damage, but {sum}"))
                .expected(format!("{dmg} damage (attack − defense, never below 0)"))
                .found(format!("{c} damage")));
        }
        if let Some(w) = winner {
            let real = if attacker_won { Side::Attacker } else { Side::Defender };
            if w != real {
                return Err(v(
                    rule::DAMAGE,
                    format!(
                        "{sum}: the {} wins the combat",
                        if attacker_won { "attacker" } else { "defender" }
                    ),
                )
                .expected(format!(
                    "winner: {} (the defender wins ties and full blocks)",
                    if attacker_won { "attacker" } else { "defender" }
                ))
                .found(format!(
                    "winner: {}",
                    if w == Side::Attacker { "attacker" } else { "defender" }
                )));
            }
        }
        s.last = Some(CombatResult {
            attack: attack as u8,
            defense: defense as u8,
            damage: dmg,
            attacker_won,
        });
        self.hurt(s, t as usize, dmg);
        Ok(())
    }

    /// Resolves a recorded outcome of a card owned by `p` (draws, recoveries,
    /// the opponent's discards, healing, damage, moves, Alice's size), each
    /// part checked against the state as the parts before it left it.
    pub(super) fn resolve_outcome(
        &self,
        s: &mut State,
        e: &Effect,
        p: u8,
        opp: u8,
        rule: &'static str,
    ) -> Result<(), Violation> {
        if let Some(size) = e.size {
            if self.hero(s, p).ability != Ability::Size {
                return Err(v(rule, "only Alice changes size")
                    .expected("no `size` outside Alice's cards")
                    .found(format!("size change for {}", self.hero(s, p).id)));
            }
            s.players[p as usize].big = size == Size::Big;
        }
        for d in &e.draw {
            let c = self.card(s, p, d, rule::DRAW)?;
            let pl = s.players[p as usize];
            if pl.deck.count(c as usize) == 0 {
                return Err(
                    v(rule::DRAW, format!("no copy of `{d}` is left in {}'s deck", s.name(p)))
                        .expected(format!(
                            "one of the {} left in the deck",
                            plural(pl.deck.total(), "card", "cards")
                        ))
                        .found(format!("a draw of `{d}`")),
                );
            }
            let pl = &mut s.players[p as usize];
            pl.deck.take(c as usize, 1);
            pl.hand.add(c as usize, 1);
        }
        for r in &e.search {
            let c = self.card(s, p, r, rule)?;
            let kind = self.hero(s, p).cards[c as usize].kind;
            if !matches!(kind, CardKind::Attack | CardKind::Versatile) {
                return Err(v(rule, format!("`{r}` is {}, not an attack card", kind.name()))
                    .expected("an attack card from the deck")
                    .found(format!("`{r}`")));
            }
            if s.players[p as usize].deck.count(c as usize) == 0 {
                return Err(v(rule, format!("no copy of `{r}` is left in {}'s deck", s.name(p)))
                    .expected("an attack card still in the deck")
                    .found(format!("`{r}`")));
            }
            let pl = &mut s.players[p as usize];
            pl.deck.take(c as usize, 1);
            pl.hand.add(c as usize, 1);
        }
        for r in &e.recover {
            let c = self.card(s, p, r, rule)?;
            if self.hero(s, p).cards[c as usize].kind == CardKind::Scheme {
                return Err(v(rule, format!("`{r}` is a scheme card"))
                    .expected("a non-scheme card from the discard pile")
                    .found(format!("`{r}`")));
            }
            if s.players[p as usize].discard.count(c as usize) == 0 {
                return Err(v(rule, format!("`{r}` is not in {}'s discard pile", s.name(p)))
                    .expected("a card from the discard pile")
                    .found(format!("`{r}`")));
            }
            let pl = &mut s.players[p as usize];
            pl.discard.take(c as usize, 1);
            pl.hand.add(c as usize, 1);
        }
        for d in &e.discard {
            let c = self.card(s, opp, d, rule)?;
            self.in_hand(s, opp, c, 1, rule)?;
            let pl = &mut s.players[opp as usize];
            pl.hand.take(c as usize, 1);
            pl.discard.add(c as usize, 1);
        }
        for (id, &n) in &e.heal {
            let f = self.in_play(s, id, rule)?;
            let fig = &mut s.figs[f];
            fig.hp = fig.hp.saturating_add(n).min(fig.max);
        }
        for (id, &n) in &e.damage {
            let f = self.in_play(s, id, rule)?;
            self.hurt(s, f, n);
        }
        for (id, to) in &e.moves {
            let f = self.in_play(s, id, rule)?;
            let b = self.board(s);
            let Some(dest) = b.space(to) else {
                return Err(v(rule, format!("`{to}` is not a space of {}", b.id))
                    .expected("a space of the battlefield")
                    .found(format!("`{to}`")));
            };
            let from = s.figs[f].at;
            if dest != from && s.occ & (1u64 << dest) != 0 {
                let who = s.figs().iter().find(|x| x.at == dest).map_or("?", |x| self.fig_name(x));
                return Err(v(rule::MOVE, format!("{id} would end on {to}, which {who} occupies"))
                    .expected("an empty space to stop on")
                    .found(format!("{to}, held by {who}")));
            }
            s.occ = (s.occ & !(1u64 << from)) | 1u64 << dest;
            s.figs[f].at = dest;
        }
        Ok(())
    }
}
