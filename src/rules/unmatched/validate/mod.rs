//! Whether an action is legal in a state (never mutates). Attacks and the
//! defender's answer are in [`combat`]; a scheme's recorded outcome, and a
//! combat's outcomes, damage and winner, are resolved on a scratch copy of
//! the state by the same code that applies them ([`Unmatched::resolve`],
//! [`Unmatched::resolve_outcome`]), since each depends on the one before.

mod combat;

use super::Unmatched;
use super::actions::{Action, Effect};
use super::effects::{Ch, Ctx, Out, When};
use super::rule;
use super::state::{Phase, State};
use super::tables::{Ability, CardKind, OFF, Style};
use crate::rules::Violation;
use crate::rules::kit::effects as fx;
use crate::rules::kit::{ordinal, plural, v};

impl Unmatched {
    /// Whether `a` is legal in `s`.
    pub(super) fn check(&self, s: &State, a: &Action) -> Result<(), Violation> {
        if let Some(w) = s.over {
            return Err(v(
                rule::DEFEAT,
                format!("the game is over ({} won)", self.winner_names(s, w)),
            )
            .expected("no more steps")
            .found("a step after the end"));
        }
        let p = s.to_move;
        match a {
            Action::EndTurn => self.check_end_turn(s, p),
            Action::Gaze { target } => self.check_gaze(s, p, target).map(|_| ()),
            Action::Maneuver { draw } => self.check_maneuver(s, p, draw.as_deref()),
            Action::Boost { card } => self.check_boost(s, p, card),
            Action::Move { fighter, to } => self.check_move(s, p, fighter, to),
            Action::Scheme { card, effect } => self.check_scheme(s, p, card, effect),
            Action::Attack {
                fighter,
                target,
                card,
                extra,
            } => self.check_attack(s, p, fighter, target, card, extra.as_deref()),
            Action::Defend {
                card,
                effects,
                damage,
                winner,
            } => self.check_defend(s, card.as_deref(), effects, *damage, *winner),
            Action::Discard { card } => self.check_discard(s, p, card),
        }
    }

    pub(super) fn no_combat(&self, s: &State) -> Result<(), Violation> {
        if let Phase::Combat { target, .. } = s.phase {
            let f = &s.figs[target as usize];
            return Err(v(
                rule::DEFENSE,
                format!(
                    "{} must first answer the attack on {} (defend, with a card or without)",
                    s.name(f.owner),
                    self.fig_name(f)
                ),
            )
            .expected("a `defend` step")
            .found("another step"));
        }
        Ok(())
    }

    pub(super) fn free_action(&self, s: &State, what: &str) -> Result<(), Violation> {
        let max = self.t.numbers.actions_per_turn;
        if s.actions >= max {
            return Err(v(
                rule::ACTIONS,
                format!("{} has already taken {max} actions this turn", s.name(s.to_move)),
            )
            .expected(format!("exactly {max} actions per turn"))
            .found(format!("a {} action ({what})", ordinal(s.actions + 1))));
        }
        Ok(())
    }

    fn check_end_turn(&self, s: &State, p: u8) -> Result<(), Violation> {
        self.no_combat(s)?;
        let max = self.t.numbers.actions_per_turn;
        if s.actions < max {
            return Err(v(
                rule::ACTIONS,
                format!(
                    "{} takes only {} this turn",
                    s.name(p),
                    plural(s.actions, "action", "actions")
                ),
            )
            .expected(format!("exactly {max} actions (maneuver, scheme or attack)"))
            .found(plural(s.actions, "action", "actions")));
        }
        let limit = self.t.numbers.hand_limit;
        let n = s.players[p as usize].hand.total();
        if n > limit {
            return Err(v(
                rule::HAND_LIMIT,
                format!("{} ends the turn holding {n} cards", s.name(p)),
            )
            .expected(format!("at most {limit} cards (discard {} first)", n - limit))
            .found(plural(n, "card", "cards")));
        }
        Ok(())
    }

    /// Medusa's gaze; the figure it hits.
    pub(super) fn check_gaze(&self, s: &State, p: u8, target: &str) -> Result<usize, Violation> {
        let hero = self.hero(s, p);
        // The gaze is Medusa's effect: a refusal about it cites it.
        let gaze = fx::cause_named(&self.t.defs, &self.t.def_names, "medusa");
        if hero.ability != Ability::Gaze {
            return Err(v(
                rule::ACTIONS,
                format!("{} plays {}, who has no start-of-turn gaze", s.name(p), hero.id),
            )
            .expected("a maneuver, scheme or attack")
            .found("a gaze")
            .cited(gaze.clone()));
        }
        if s.actions > 0 || s.gazed || s.phase != Phase::Actions {
            return Err(v(
                rule::ACTIONS,
                "Medusa's gaze comes once, at the start of the turn, before the first action",
            )
            .expected("the gaze before the first action")
            .found(if s.gazed {
                "a second gaze".to_string()
            } else {
                format!("a gaze after {}", plural(s.actions, "action", "actions"))
            })
            .cited(gaze));
        }
        let Some(m) = s.figs().iter().position(|f| f.owner == p && f.is_hero && f.at != OFF) else {
            return Err(v(rule::ACTIONS, "Medusa is defeated and can no longer use her gaze")
                .expected("Medusa in play")
                .found("Medusa defeated"));
        };
        let t = self.figure(s, target, rule::ACTIONS)?;
        self.check_target(s, p, t, rule::ACTIONS)?;
        let b = self.board(s);
        let (ms, ts) = (s.figs[m].at, s.figs[t].at);
        if b.zones[ms as usize] & b.zones[ts as usize] == 0 {
            return Err(v(
                rule::ACTIONS,
                format!("{target} is not in Medusa's zone (`medusa`'s gaze)"),
            )
            .expected(format!(
                "an enemy on a {} space (Medusa is on {})",
                b.zone_list(ms),
                b.name(ms)
            ))
            .found(format!("{target} on {} ({})", b.name(ts), b.zone_list(ts)))
            .cited(gaze));
        }
        if let Some(src) = self.ability_src(s, p) {
            let ctx = Ctx::new(self, &[When::StartOfTurn], None);
            let ch = Ch {
                out: Out::Damage,
                obj: Some(t as u8),
                n: 1,
            };
            fx::allow(&ctx, s, &src, &[ch], rule::ACTIONS)?;
        }
        Ok(t)
    }

    /// `t` must be an enemy figure of `p` still in play.
    pub(super) fn check_target(&self, s: &State, p: u8, t: usize, rule: &'static str) -> Result<(), Violation> {
        let f = &s.figs[t];
        let name = self.fig_name(f);
        if f.at == OFF {
            return Err(v(
                rule::DEFEAT,
                format!("{name} has been defeated and left the battlefield"),
            )
            .expected("a fighter still in play")
            .found(format!("{name} (defeated)")));
        }
        if f.owner == p {
            return Err(v(rule, format!("{name} is one of {}'s own fighters", s.name(p)))
                .expected("an enemy fighter")
                .found(format!("{name}, {}'s own", s.name(p))));
        }
        if s.team_of(f.owner) == s.team_of(p) {
            return Err(v(
                rule::TEAMS,
                format!("{name} belongs to {}, {}'s teammate", s.name(f.owner), s.name(p)),
            )
            .expected("an enemy fighter (allies are never targets)")
            .found(format!("{name}, an ally")));
        }
        Ok(())
    }

    /// `f` must be a figure of `p` still in play.
    pub(super) fn check_own(&self, s: &State, p: u8, f: usize, what: &str) -> Result<(), Violation> {
        let fig = &s.figs[f];
        let name = self.fig_name(fig);
        if fig.owner != p {
            return Err(v(
                rule::TEAMS,
                format!(
                    "{} cannot {what} {name}: it is {}'s fighter",
                    s.name(p),
                    s.name(fig.owner)
                ),
            )
            .expected(format!("one of {}'s own fighters", s.name(p)))
            .found(format!("{name} ({}'s)", s.name(fig.owner))));
        }
        if fig.at == OFF {
            return Err(v(
                rule::DEFEAT,
                format!("{name} has been defeated and left the battlefield"),
            )
            .expected("a fighter still in play")
            .found(format!("{name} (defeated)")));
        }
        Ok(())
    }

    fn check_maneuver(&self, s: &State, p: u8, draw: Option<&str>) -> Result<(), Violation> {
        self.no_combat(s)?;
        self.free_action(s, "maneuver")?;
        let pl = &s.players[p as usize];
        if pl.deck.is_empty() {
            if let Some(d) = draw {
                return Err(v(
                    rule::DRAW,
                    format!("{}'s deck is empty: nothing can be drawn", s.name(p)),
                )
                .expected(format!(
                    "no draw (exhaustion: each of {}'s fighters loses {} health)",
                    s.name(p),
                    self.t.numbers.exhaustion_loss
                ))
                .found(format!("a draw of `{d}`")));
            }
            return Ok(());
        }
        let Some(d) = draw else {
            return Err(v(rule::DRAW, format!("{} maneuvers without drawing", s.name(p)))
                .expected(format!(
                    "a draw (the deck holds {})",
                    plural(pl.deck.total(), "card", "cards")
                ))
                .found("no `draw`"));
        };
        let c = self.card(s, p, d, rule::DRAW)?;
        if pl.deck.count(c as usize) == 0 {
            return Err(
                v(rule::DRAW, format!("no copy of `{d}` is left in {}'s deck", s.name(p)))
                    .expected(format!(
                        "one of the {} left in the deck",
                        plural(pl.deck.total(), "card", "cards")
                    ))
                    .found(format!("`{d}` (every copy already drawn)")),
            );
        }
        Ok(())
    }

    fn check_boost(&self, s: &State, p: u8, card: &str) -> Result<(), Violation> {
        let Phase::Maneuver { boosted, moved, .. } = s.phase else {
            return Err(
                v(rule::MOVE, "a boost card is discarded during a maneuver, before moving")
                    .expected("a maneuver just before")
                    .found(format!("boost with `{card}` outside a maneuver")),
            );
        };
        if boosted || moved != 0 {
            return Err(v(
                rule::MOVE,
                if boosted {
                    "only one card may be discarded as a boost per maneuver"
                } else {
                    "the boost card is discarded before any fighter moves"
                },
            )
            .expected("at most 1 boost, before the first move")
            .found(if boosted {
                "a second boost"
            } else {
                "a boost after moving"
            }));
        }
        let c = self.card(s, p, card, rule::MOVE)?;
        self.in_hand(s, p, c, 1, rule::MOVE)
    }

    fn check_move(&self, s: &State, p: u8, fighter: &str, to: &str) -> Result<(), Violation> {
        let Phase::Maneuver { boost, boosted, moved } = s.phase else {
            return Err(v(rule::MOVE, format!("{fighter} moves outside a maneuver"))
                .expected("moves right after a maneuver's draw (and boost)")
                .found(format!("a move of {fighter}")));
        };
        let f = self.figure(s, fighter, rule::MOVE)?;
        self.check_own(s, p, f, "move")?;
        if moved & (1 << f) != 0 {
            return Err(v(rule::MOVE, format!("{fighter} has already moved in this maneuver"))
                .expected("each fighter moves once per maneuver, one after another")
                .found(format!("a second move of {fighter}")));
        }
        let b = self.board(s);
        let Some(dest) = b.space(to) else {
            let n = b.graph.len() as u8;
            return Err(v(rule::MOVE, format!("`{to}` is not a space of {}", b.id))
                .expected(format!(
                    "a space of {} ({} … {})",
                    b.id,
                    b.graph.name(0),
                    b.graph.name(n - 1)
                ))
                .found(format!("`{to}`")));
        };
        let from = s.figs[f].at;
        if dest == from {
            return Err(v(rule::MOVE, format!("{fighter} is already on {to}"))
                .expected("a move to another space (or no move at all)")
                .found(format!("{to} → {to}")));
        }
        if s.occ & (1u64 << dest) != 0 {
            let who = s.figs().iter().find(|x| x.at == dest).map_or("?", |x| self.fig_name(x));
            return Err(
                v(rule::MOVE, format!("{fighter} would end on {to}, which {who} occupies"))
                    .expected("an empty space to stop on")
                    .found(format!("{to}, held by {who}")),
            );
        }
        let budget = s.figs[f]
            .mv
            .saturating_add(boost)
            .saturating_add(self.sinbad_bonus(s, p));
        let passable = !s.enemy_mask(p);
        match b.graph.distance_through(from, dest, passable) {
            None => Err(v(
                rule::MOVE,
                format!("{fighter} cannot reach {to} without crossing an enemy"),
            )
            .expected("a path through empty or allied spaces")
            .found(format!("{} → {to}: every path crosses an enemy", b.name(from)))),
            Some(d) if d > budget => Err(v(
                rule::MOVE,
                format!(
                    "{fighter} needs {} to reach {to} from {}",
                    plural(d, "step", "steps"),
                    b.name(from)
                ),
            )
            .expected(format!(
                "at most {budget} (move {}{}{})",
                s.figs[f].mv,
                if boosted {
                    format!(" + boost {boost}")
                } else {
                    String::new()
                },
                match self.sinbad_bonus(s, p) {
                    0 => String::new(),
                    k => format!(" + {k} voyages"),
                }
            ))
            .found(plural(d, "step", "steps"))),
            Some(_) => Ok(()),
        }
    }

    fn check_scheme(&self, s: &State, p: u8, card: &str, effect: &Effect) -> Result<(), Violation> {
        self.no_combat(s)?;
        self.free_action(s, "scheme")?;
        let c = self.card(s, p, card, rule::SCHEME)?;
        let hero = self.hero(s, p);
        let def = &hero.cards[c as usize];
        if def.kind != CardKind::Scheme {
            return Err(v(rule::SCHEME, format!("`{card}` is not a scheme card"))
                .expected("a scheme card")
                .found(format!("`{card}`, {}", def.kind.name())));
        }
        self.in_hand(s, p, c, 1, rule::SCHEME)?;
        let able = s
            .figs()
            .iter()
            .any(|f| f.owner == p && f.at != OFF && def.fighter.is_none_or(|x| x == f.fighter));
        if !able {
            return Err(v(
                rule::SCHEME,
                format!("no fighter of {} that may play `{card}` is in play", s.name(p)),
            )
            .expected(format!("{} in play", hero.user(def)))
            .found(format!("{} defeated", hero.user(def))));
        }
        if effect.card.as_deref().is_some_and(|x| x != card) || effect.value.is_some() {
            return Err(v(rule::SCHEME, "a scheme's effect is its own and has no combat value")
                .expected(format!("an outcome of `{card}` without `card` or `value`"))
                .found(format!("{effect:?}")));
        }
        // The outcome resolves with the card played (out of the hand, the
        // action counted), on a scratch copy.
        let mut t = s.clone();
        self.play_scheme(&mut t, p, c);
        self.resolve_scheme(&mut t, p, c, effect)
    }

    fn check_discard(&self, s: &State, p: u8, card: &str) -> Result<(), Violation> {
        self.no_combat(s)?;
        let max = self.t.numbers.actions_per_turn;
        let limit = self.t.numbers.hand_limit;
        let n = s.players[p as usize].hand.total();
        if s.actions < max {
            return Err(v(
                rule::HAND_LIMIT,
                format!("{} discards for the hand limit before taking both actions", s.name(p)),
            )
            .expected(format!(
                "hand-limit discards after the {max} actions, at the end of the turn"
            ))
            .found(format!("a discard after {}", plural(s.actions, "action", "actions"))));
        }
        if n <= limit {
            return Err(v(
                rule::HAND_LIMIT,
                format!("{} discards down to the hand limit with only {n} cards", s.name(p)),
            )
            .expected(format!("discards only while holding more than {limit} cards"))
            .found(format!("a discard with {}", plural(n, "card", "cards"))));
        }
        let c = self.card(s, p, card, rule::HAND_LIMIT)?;
        self.in_hand(s, p, c, 1, rule::HAND_LIMIT)
    }

    /// Whether figure `a` reaches figure `t` for an attack, as a violation.
    pub(super) fn check_reach(
        &self,
        s: &State,
        a: usize,
        t: usize,
        fighter: &str,
        target: &str,
    ) -> Result<(), Violation> {
        let (af, tf) = (s.figs[a], s.figs[t]);
        if self.in_reach(s, &af, &tf) {
            return Ok(());
        }
        let b = self.board(s);
        Err(match Self::fig_style(&af) {
            Style::Melee => v(
                rule::ATTACK,
                format!("{fighter} fights in melee but {target} is not adjacent"),
            )
            .expected(format!("an enemy on a space adjacent to {}", b.name(af.at)))
            .found(format!("{target} on {}", b.name(tf.at))),
            Style::Ranged => v(
                rule::ATTACK,
                format!("{fighter} attacks at range but shares no zone with {target}"),
            )
            .expected(format!(
                "an enemy on a {} space ({fighter} is on {})",
                b.zone_list(af.at),
                b.name(af.at)
            ))
            .found(format!("{target} on {} ({})", b.name(tf.at), b.zone_list(tf.at))),
        })
    }
}
