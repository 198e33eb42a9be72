//! A combat's resolution (UM-8 … UM-11) and recorded card outcomes: the
//! effects of the revealed cards in order, the damage and the winner, each
//! checked against the state as it stands when it resolves and applied at
//! once. [`Unmatched::check`] runs them on a scratch copy, [`Unmatched::step`]
//! on the state itself. [`Unmatched::resolve_outcome`] is the plug-in point
//! of card effects (docs/architecture.md, "Rules engines").

use super::Unmatched;
use super::actions::{Effect, Side, Size};
use super::rule;
use super::state::{CombatResult, Figure, Phase, State};
use super::tables::{Ability, OFF, Timing};
use crate::rules::Violation;
use crate::rules::kit::{plural, v};

impl Unmatched {
    /// Resolves the combat under way, the defender having played card `dc`
    /// (or [`OFF`]): effects in order, damage, winner, discards.
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
        let ahero = self.hero(s, ap);
        let dhero = self.hero(s, dp);
        if dc != OFF {
            s.players[dp as usize].hand.take(dc as usize, 1);
        }
        let acard = &ahero.cards[ac as usize];
        let mut change = [0i16; 2]; // [defense, attack]
        let mut done = false;
        let mut prev: Option<(Timing, u8, &str)> = None;
        for e in effects {
            let Some(id) = e.card.as_deref() else {
                return Err(v(rule::EFFECTS, "a combat effect must name the card it comes from")
                    .expected(format!("`card: {}` or the defence card", acard.id))
                    .found("an effect without `card`"));
            };
            let (side, owner, other, hero, c) = if id == acard.id {
                (1u8, ap, dp, ahero, ac)
            } else if dc != OFF && id == dhero.cards[dc as usize].id {
                (0u8, dp, ap, dhero, dc)
            } else {
                let found = if extra != OFF && ahero.cards[extra as usize].id == id {
                    format!("`{id}`, King Arthur's extra card, which only adds its boost")
                } else {
                    format!("`{id}`")
                };
                return Err(v(
                    rule::EFFECTS,
                    format!("`{id}` is not one of the cards revealed in this combat"),
                )
                .expected(match dc {
                    OFF => format!("`{}`", acard.id),
                    _ => format!("`{}` or `{}`", dhero.cards[dc as usize].id, acard.id),
                })
                .found(found));
            };
            let Some(timing) = hero.cards[c as usize].timing.filter(|t| *t != Timing::NotInCombat) else {
                return Err(v(rule::EFFECTS, format!("`{id}` has no combat effect to resolve"))
                    .expected("outcomes only for cards with an effect")
                    .found(format!("an outcome for `{id}`")));
            };
            let key = (timing, side);
            if let Some((pt, ps, pid)) = prev
                && key <= (pt, ps)
            {
                let who = |s: u8| if s == 0 { "defender" } else { "attacker" };
                return Err(v(
                    rule::EFFECTS,
                    if key == (pt, ps) {
                        format!("`{id}` resolves twice")
                    } else {
                        format!(
                            "`{id}` ({}, {}) is listed after `{pid}` ({}, {})",
                            who(side),
                            timing.name(),
                            who(ps),
                            pt.name()
                        )
                    },
                )
                .expected(
                    "immediately, then during combat, then after combat; within each timing the defender's card first",
                )
                .found(if key == (pt, ps) {
                    format!("two outcomes for `{id}`")
                } else {
                    format!("`{pid}` ({}) before `{id}` ({})", pt.name(), timing.name())
                }));
            }
            prev = Some((timing, side, id));
            if timing == Timing::AfterCombat && !done {
                self.deal(s, (af, tf, attacker, target), (ac, dc, extra), change, damage, winner)?;
                done = true;
            }
            if let Some(w) = s.over {
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
            if let Some(dv) = e.value {
                if timing == Timing::AfterCombat {
                    return Err(v(
                        rule::EFFECTS,
                        format!("`{id}` resolves after combat, when damage is already dealt"),
                    )
                    .expected("value changes only from immediately or during-combat effects")
                    .found(format!("value {dv:+} from an after-combat effect")));
                }
                change[side as usize] += i16::from(dv);
            }
            self.resolve_outcome(s, e, owner, other, rule::EFFECTS)?;
        }
        if !done {
            self.deal(s, (af, tf, attacker, target), (ac, dc, extra), change, damage, winner)?;
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
        if ahero.ability == Ability::Size && af.is_hero && s.players[ap as usize].big {
            attack += 2;
            parts.push("BIG +2".into());
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
            if dhero.ability == Ability::Size && tf.is_hero && !s.players[dp as usize].big {
                defense += 1;
                dparts.push("SMALL +1".into());
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
        for r in &e.recover {
            let c = self.card(s, p, r, rule)?;
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
