//! Card actions: scenario interactions, equipment, triggered texts and
//! reinforcements (each a recorded [`Effect`] outcome, checked by
//! [`OneVMany::check_outcome`], the plug-in point of card effects), and the
//! upgrade phase.

use super::super::OneVMany;
use super::super::actions::Effect;
use super::super::effects::{Ch, Ctx, MANY_SIDE, ONE_SIDE, Out, When};
use super::super::rule;
use super::super::state::{EMPTY, FREE, Phase, State, WALL, bit};
use super::super::tables::{NONE, User};
use crate::rules::Violation;
use crate::rules::kit::effects::{self as fx, Host, Src};
use crate::rules::kit::v;

/// A card a `trigger` or `reinforce` cites.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in super::super) enum Source {
    Character,
    Unit(u8),
    Scenario,
    Boss,
    OneUpgrade(u8),
    ManyUpgrade(u8),
}

impl Source {
    /// The rule an effect of this source is checked under.
    pub(in super::super) fn rule(self) -> &'static str {
        match self {
            Source::Boss => rule::BOSS_ROUND,
            Source::OneUpgrade(_) | Source::ManyUpgrade(_) => rule::UPGRADES,
            _ => rule::CARD_ACTIONS,
        }
    }
}

impl OneVMany {
    pub(super) fn check_interact(&self, s: &State, interaction: u8, effect: &Effect) -> Result<(), Violation> {
        let user = match s.phase {
            Phase::One => User::One,
            Phase::Many if s.active != NONE => User::Many,
            Phase::Many => {
                return Err(v(
                    rule::CARD_ACTIONS,
                    "a MANY interaction is performed by an activated unit",
                )
                .expected("`activate` a unit first")
                .found("no unit activated"));
            }
            _ => return Err(self.wrong_phase(s, "a scenario interaction")),
        };
        let sc = &self.t.scenarios[s.scenario as usize];
        let Some(&(who, cost)) = sc.interactions.get((interaction as usize).wrapping_sub(1)) else {
            return Err(v(
                rule::CARD_ACTIONS,
                format!("the scenario {} has no interaction {interaction}", sc.id),
            )
            .expected(format!("an interaction from 1 to {}", sc.interactions.len()))
            .found(interaction));
        };
        if who != user {
            return Err(v(
                rule::CARD_ACTIONS,
                format!(
                    "interaction {interaction} of {} is not for {}",
                    sc.id,
                    if user == User::One { "ONE" } else { "MANY" }
                ),
            )
            .expected(format!(
                "an interaction whose user is {}",
                if user == User::One { "ONE" } else { "MANY" }
            ))
            .found(format!(
                "interaction {interaction}, for {}",
                if who == User::One { "ONE" } else { "MANY" }
            )));
        }
        let left = if user == User::One {
            self.one_left(s)
        } else {
            self.unit_left(s)
        };
        if left < cost {
            return Err(v(
                rule::CARD_ACTIONS,
                format!("interaction {interaction} of {} costs {cost}", sc.id),
            )
            .expected(format!("{cost} action points"))
            .found(format!("{left} left")));
        }
        if user == User::One
            && let Some(by) = self.has(s, Out::NoInteractions, Some(s.one_sq))
        {
            return Err(v(
                rule::CARD_ACTIONS,
                format!("ONE cannot use scenario interactions while `{by}` is in force"),
            )
            .expected(format!("no interaction (`{by}`)"))
            .found(format!("interaction {interaction}")));
        }
        self.check_outcome(s, effect, rule::CARD_ACTIONS)?;
        let d = self.t.fx.interactions[s.scenario as usize]
            .get((interaction as usize).wrapping_sub(1))
            .copied()
            .flatten();
        self.allow_effect(s, d, &[When::Interaction], effect, rule::CARD_ACTIONS)
    }

    /// Checks a recorded outcome against effect `d` (of the side acting
    /// now), at the moments `open`.
    pub(in super::super) fn allow_effect(
        &self,
        s: &State,
        d: Option<u16>,
        open: &[When],
        effect: &Effect,
        rule: &'static str,
    ) -> Result<(), Violation> {
        let Some(card) = d else { return Ok(()) };
        let owner = if s.phase == Phase::One { ONE_SIDE } else { MANY_SIDE };
        let src = Src { card, owner, at: None };
        let ctx = Ctx::new(self, open);
        fx::allow(&ctx, s, &src, &self.changes(s, effect), rule).map(|_| ())
    }

    /// A recorded outcome as the interpreter's changes (squares).
    pub(in super::super) fn changes(&self, s: &State, e: &Effect) -> Vec<Ch> {
        let me = self.actor_square(s);
        let sq = |q: &str| self.t.square(q);
        let mut out = Vec::new();
        let at = (me != NONE).then_some(me);
        for (o, n) in [
            (Out::Actions, e.actions),
            (Out::Range, e.range),
            (Out::Damage, e.damage),
        ] {
            if n != 0 {
                out.push(Ch {
                    out: o,
                    obj: at,
                    n: i16::from(n),
                });
            }
        }
        if e.climb {
            out.push(Ch {
                out: Out::PassObstacles,
                obj: at,
                n: 1,
            });
        }
        for (q, &d) in &e.life {
            let (o, n) = if d >= 0 { (Out::Heal, d) } else { (Out::LoseLife, -d) };
            out.push(Ch {
                out: o,
                obj: sq(q),
                n: i16::from(n),
            });
        }
        for (list, o) in [
            (&e.remove, Out::Remove),
            (&e.obstacle, Out::Obstacle),
            (&e.wall, Out::Wall),
        ] {
            for q in list {
                out.push(Ch {
                    out: o,
                    obj: sq(q),
                    n: 1,
                });
            }
        }
        if let Some(q) = e.to.as_deref().and_then(sq) {
            let n = if me == NONE { 0 } else { self.t.board.distance(me, q) };
            out.push(Ch {
                out: Out::Step,
                obj: Some(q),
                n: i16::from(n),
            });
        }
        if let Some(q) = e.swap.as_deref().and_then(sq) {
            out.push(Ch {
                out: Out::Swap,
                obj: Some(q),
                n: 1,
            });
        }
        out
    }

    /// The moments a card may answer now.
    pub(in super::super) fn moments(&self, s: &State) -> Vec<When> {
        let mut open = Vec::new();
        if matches!(s.phase, Phase::Deploy | Phase::Place) {
            open.push(When::RoundStart);
        }
        if let Some((_, by_one)) = s.removed {
            open.push(When::OnRemoval);
            if by_one && s.phase == Phase::One {
                open.push(When::OnKill);
            }
        }
        if s.phase == Phase::Many {
            open.push(When::ManyPhaseEnd);
            if s.tokens.iter().all(|k| !k.activated) {
                open.push(When::ManyPhaseStart);
            }
        }
        open
    }

    /// A source's effect the player must still use at `when`: its card id
    /// and the refusal of what the log must write (field, example, cause).
    pub(in super::super) fn owed(&self, s: &State, when: When) -> Option<(String, Violation)> {
        let mut ctx = Ctx::new(self, &[when]);
        ctx.unit = s.removed.map(|(t, _)| t);
        let src = *self.sources(s).iter().find(|src| fx::owed(&ctx, s, src, when))?;
        let card = ctx.card_id(&src);
        let why = fx::missing(&ctx, s, &src, rule::CARD_ACTIONS).err().unwrap_or_else(|| {
            Violation::new(rule::CARD_ACTIONS, "").cited(crate::rules::kit::effects::cause_named(
                &self.t.fx.defs,
                &self.t.fx.names,
                &card,
            ))
        });
        Some((card, why))
    }

    /// The effect called `name` as the cause of a refusal about it.
    pub(in super::super) fn cite(&self, name: &str) -> Option<crate::rules::Cause> {
        crate::rules::kit::effects::cause_named(&self.t.fx.defs, &self.t.fx.names, name)
    }

    pub(super) fn check_equip(&self, s: &State, card: &str, effect: &Effect) -> Result<(), Violation> {
        let one = match s.phase {
            Phase::One => true,
            Phase::Many if s.active != NONE => false,
            Phase::Many => {
                return Err(v(rule::CARD_ACTIONS, "MANY equipment is used by an activated unit")
                    .expected("`activate` a unit first")
                    .found("no unit activated"));
            }
            _ => return Err(self.wrong_phase(s, "an equipment action")),
        };
        let side = if one { "ONE" } else { "MANY" };
        let (u, owned) = if one {
            (self.t.one_upgrade(card), s.one_owned)
        } else {
            (self.t.many_upgrade(card), s.many_owned)
        };
        let Some(u) = u.filter(|&u| owned & bit(u) != 0) else {
            return Err(v(rule::UPGRADES, format!("{side} does not hold the upgrade `{card}`"))
                .expected(format!("one of {side}'s upgrades: {}", self.owned_list(s, one)))
                .found(card));
        };
        let up = if one {
            &self.t.one_upgrades[u as usize]
        } else {
            &self.t.many_upgrades[u as usize]
        };
        let Some(cost) = up.equipment else {
            return Err(v(
                rule::CARD_ACTIONS,
                format!("the upgrade `{card}` has no equipment action"),
            )
            .expected("an upgrade with an equipment action")
            .found(card));
        };
        let left = if one { self.one_left(s) } else { self.unit_left(s) };
        if left < cost {
            return Err(v(rule::CARD_ACTIONS, format!("the equipment of `{card}` costs {cost}"))
                .expected(format!("{cost} action points"))
                .found(format!("{left} left")));
        }
        self.check_outcome(s, effect, rule::CARD_ACTIONS)?;
        let d = if one {
            self.t.fx.one_equipment[u as usize]
        } else {
            self.t.fx.many_equipment[u as usize]
        };
        self.allow_effect(s, d, &[When::Equipment], effect, rule::CARD_ACTIONS)
    }

    pub(super) fn check_trigger(&self, s: &State, by: &str, effect: &Effect) -> Result<(), Violation> {
        if !matches!(s.phase, Phase::One | Phase::Many) {
            return Err(self.wrong_phase(s, "a card effect"));
        }
        let src = self.source(s, by)?;
        self.check_outcome(s, effect, src.rule())?;
        let (d, owner) = self.source_def(s, src);
        let Some(card) = d else {
            // Nothing to record for a card without an effect of its own.
            if effect.is_empty() {
                return Err(v(src.rule(), format!("`{by}` has no effect a `trigger` could record"))
                    .expected("a card in force whose effect is a choice to record")
                    .found(format!("{{do: trigger, by: {by}}}")));
            }
            return Ok(());
        };
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
        let ctx = Ctx::new(self, &self.moments(s));
        fx::allow(&ctx, s, &x, &self.changes(s, effect), src.rule())?;
        // A trigger records a choice: a card whose effect now only applies
        // by itself has nothing to record.
        if effect.is_empty() && !fx::chooses(&ctx, s, &x) {
            return Err(v(
                src.rule(),
                format!("`{by}` applies by itself: a `trigger` has nothing to record"),
            )
            .expected("no `trigger` for it: the engine applies its effect")
            .found(format!("{{do: trigger, by: {by}}}"))
            .cited(self.cite(by)));
        }
        Ok(())
    }

    /// The effect of a source, and its side.
    pub(in super::super) fn source_def(&self, s: &State, src: Source) -> (Option<u16>, u8) {
        let f = &self.t.fx;
        match src {
            Source::Character => (f.characters[s.character as usize], ONE_SIDE),
            Source::Unit(u) => (f.units[u as usize], MANY_SIDE),
            Source::Scenario => (f.scenarios[s.scenario as usize], MANY_SIDE),
            Source::Boss => (f.bosses[s.boss as usize], MANY_SIDE),
            Source::OneUpgrade(u) => (f.one_upgrades[u as usize], ONE_SIDE),
            Source::ManyUpgrade(u) => (f.many_upgrades[u as usize], MANY_SIDE),
        }
    }

    pub(super) fn check_reinforce(&self, s: &State, unit: &str, square: &str, by: &str) -> Result<(), Violation> {
        if !matches!(s.phase, Phase::Place | Phase::One | Phase::Many) {
            return Err(self.wrong_phase(s, "a reinforcement"));
        }
        let src = self.source(s, by)?;
        if !matches!(src, Source::Boss | Source::ManyUpgrade(_)) {
            return Err(
                v(rule::SETUP, format!("`{by}` cannot bring MANY tokens from the reserve"))
                    .expected("a MANY upgrade, or the boss showdown in the boss round")
                    .found(by),
            );
        }
        let ty = self.t.unit(unit).ok_or_else(|| {
            v(rule::SETUP, format!("`{unit}` is not a MANY unit type"))
                .expected("a unit id")
                .found(unit)
        })?;
        let left = self.reserve_left(s, ty);
        if left == 0 {
            return Err(v(rule::SETUP, format!("MANY's reserve holds no {unit} token"))
                .expected("a unit type of the boss's reserve with tokens left")
                .found(format!("{unit}: 0 in reserve")));
        }
        let sq = self.sq(square, rule::ROUND_START, "the reinforcement square")?;
        let sc = &self.t.scenarios[s.scenario as usize];
        if !sc.spawn.contains(&sq) || s.occ[sq as usize] != FREE || s.terrain[sq as usize] != EMPTY {
            return Err(v(
                rule::ROUND_START,
                format!("reserve tokens enter on a free red square, not {square}"),
            )
            .expected("a free red square")
            .found(format!(
                "{square}, {}{}",
                if sc.spawn.contains(&sq) { "" } else { "not red, " },
                self.describe(s, sq)
            )));
        }
        let (d, owner) = self.source_def(s, src);
        // A card without an effect of its own (Traps only lays obstacles
        // through its equipment action) brings nothing from the reserve.
        let Some(card) = d else {
            return Err(v(
                src.rule(),
                format!("`{by}` has no effect that brings MANY tokens from the reserve"),
            )
            .expected("a card in force whose effect gives `reinforce`")
            .found(by)
            .cited(self.cite(by)));
        };
        let mut ctx = Ctx::new(self, &self.moments(s));
        ctx.unit = Some(ty);
        let x = Src { card, owner, at: None };
        let ch = Ch {
            out: Out::Reinforce,
            obj: Some(sq),
            n: 1,
        };
        fx::allow(&ctx, s, &x, &[ch], src.rule()).map(|_| ())
    }

    pub(super) fn check_upgrade_draw(&self, s: &State, one: &[String], many: &[String]) -> Result<(), Violation> {
        if s.phase != Phase::Draw {
            return Err(self.wrong_phase(s, "drawing upgrades"));
        }
        self.check_draw(s.one_seen, one, true)?;
        self.check_draw(s.many_seen, many, false)
    }

    pub(super) fn check_pair(&self, s: &State, one: &str, many: &str) -> Result<(), Violation> {
        if s.phase != Phase::Pair {
            return Err(self.wrong_phase(s, "pairing upgrades"));
        }
        self.drawn_one(s, one)?;
        self.drawn_many(s, many)?;
        Ok(())
    }

    pub(super) fn check_pick(&self, s: &State, one: &str) -> Result<(), Violation> {
        if s.phase != Phase::Pick {
            return Err(self.wrong_phase(s, "picking a pair of upgrades"));
        }
        self.drawn_one(s, one).map(|_| ())
    }

    pub(in super::super) fn source(&self, s: &State, id: &str) -> Result<Source, Violation> {
        let ch = &self.t.characters[s.character as usize];
        if ch.id == id {
            return if ch.ability {
                Ok(Source::Character)
            } else {
                Err(v(rule::SETUP, format!("ONE's character `{id}` has no ability to use"))
                    .expected("a card whose text is in force")
                    .found(format!("{id}, a character without an ability")))
            };
        }
        if self.t.character(id).is_some() {
            return Err(v(rule::SETUP, format!("`{id}` is not ONE's character"))
                .expected(format!("ONE's character {}", ch.id))
                .found(id));
        }
        if let Some(u) = self.t.unit(id) {
            let on_board = s.tokens.iter().any(|k| k.sq != NONE && k.ty == u);
            return if self.t.units[u as usize].ability && on_board {
                Ok(Source::Unit(u))
            } else {
                Err(
                    v(rule::MANY_ACTIVATION, format!("the `{id}` unit ability is not in play"))
                        .expected("a unit type with an ability and a token on the board")
                        .found(if on_board {
                            format!("{id}, which has no ability")
                        } else {
                            format!("no {id} token on the board")
                        }),
                )
            };
        }
        if let Some(sc) = self.t.scenario(id) {
            return if sc == s.scenario && self.t.scenarios[sc as usize].ability {
                Ok(Source::Scenario)
            } else {
                Err(v(
                    rule::ROUND_START,
                    format!("the scenario `{id}` has no ability in force"),
                )
                .expected(if s.scenario == NONE {
                    "a revealed scenario with an ability".to_string()
                } else {
                    format!("this round's scenario {}", self.t.scenarios[s.scenario as usize].id)
                })
                .found(id))
            };
        }
        if let Some(b) = self.t.boss(id) {
            if b != s.boss {
                return Err(v(rule::BOSS_ROUND, format!("`{id}` is not MANY's boss"))
                    .expected(format!("MANY's boss {}", self.t.bosses[s.boss as usize].id))
                    .found(id));
            }
            return if s.round == self.t.boss_round {
                Ok(Source::Boss)
            } else {
                Err(v(
                    rule::BOSS_ROUND,
                    format!("the boss showdown of {id} is only in force in the boss round"),
                )
                .expected(format!("round {}", self.t.boss_round))
                .found(format!("round {}", s.round)))
            };
        }
        if let Some(u) = self.t.one_upgrade(id) {
            return if s.one_owned & bit(u) != 0 {
                Ok(Source::OneUpgrade(u))
            } else {
                Err(v(rule::UPGRADES, format!("ONE has not gained the upgrade `{id}`"))
                    .expected(format!("one of ONE's upgrades: {}", self.owned_list(s, true)))
                    .found(id))
            };
        }
        if let Some(u) = self.t.many_upgrade(id) {
            return if s.many_owned & bit(u) != 0 {
                Ok(Source::ManyUpgrade(u))
            } else {
                Err(v(rule::UPGRADES, format!("MANY has not gained the upgrade `{id}`"))
                    .expected(format!("one of MANY's upgrades: {}", self.owned_list(s, false)))
                    .found(id))
            };
        }
        Err(v(rule::CARD_ACTIONS, format!("`{id}` is not a card of the game"))
            .expected("a character, unit, scenario, boss or upgrade id")
            .found(id))
    }

    /// A recorded outcome of a card text (an interaction, equipment, an
    /// ability, a showdown, an upgrade): every square it names must hold
    /// what it changes. The plug-in point of card effects
    /// (docs/architecture.md, "Rules engines").
    pub(super) fn check_outcome(&self, s: &State, e: &Effect, rule: &'static str) -> Result<(), Violation> {
        for q in e.life.keys() {
            let sq = self.sq(q, rule, "an effect's life change on")?;
            if s.occ[sq as usize] == FREE {
                return Err(v(
                    rule,
                    format!("the effect changes the life of a token on {q}, but {q} is empty"),
                )
                .expected("a square with ONE or a MANY token")
                .found(format!("{q}, empty")));
            }
        }
        for q in &e.remove {
            let sq = self.sq(q, rule, "an effect removes terrain from")?;
            if s.terrain[sq as usize] == EMPTY {
                return Err(v(rule, format!("the effect removes terrain from {q}, which has none"))
                    .expected("a square with an obstacle or a wall")
                    .found(format!("{q}, no terrain")));
            }
        }
        for q in e.obstacle.iter().chain(&e.wall) {
            let sq = self.sq(q, rule, "an effect puts terrain on")?;
            if (s.terrain[sq as usize] != EMPTY && !e.remove.contains(q)) || s.occ[sq as usize] != FREE {
                return Err(v(rule, format!("the effect puts terrain on {q}, which is not empty"))
                    .expected("an empty square")
                    .found(format!("{q}, {}", self.describe(s, sq))));
            }
        }
        if e.to.is_some() || e.swap.is_some() {
            let me = self.actor_square(s);
            if me == NONE {
                return Err(v(rule, "the effect moves the acting token, but no token is acting")
                    .expected("ONE in its phase or an activated MANY unit")
                    .found(format!("the {} phase", s.phase.name())));
            }
            if let Some(q) = &e.to {
                let sq = self.sq(q, rule, "an effect moves the token to")?;
                if s.occ[sq as usize] != FREE || s.terrain[sq as usize] == WALL {
                    return Err(v(
                        rule,
                        format!("the effect moves the acting token to {q}, which is taken"),
                    )
                    .expected("a square without tokens or walls")
                    .found(format!("{q}, {}", self.describe(s, sq))));
                }
            }
            if let Some(q) = &e.swap {
                let sq = self.sq(q, rule, "an effect swaps with")?;
                if s.occ[sq as usize] == FREE || sq == me {
                    return Err(v(
                        rule,
                        format!("the effect swaps the acting token with {q}, which has no other token"),
                    )
                    .expected("a square with another token")
                    .found(format!("{q}, {}", self.describe(s, sq))));
                }
            }
        }
        Ok(())
    }

    pub(super) fn check_upgrade(&self, id: &str, one: bool) -> Result<u8, Violation> {
        let found = if one {
            self.t.one_upgrade(id)
        } else {
            self.t.many_upgrade(id)
        };
        found.ok_or_else(|| {
            v(
                rule::UPGRADES,
                format!(
                    "`{id}` is not a card of the {} upgrade deck",
                    if one { "ONE" } else { "MANY" }
                ),
            )
            .expected(format!("a {} upgrade id", if one { "ONE" } else { "MANY" }))
            .found(id)
        })
    }

    pub(super) fn drawn_one(&self, s: &State, id: &str) -> Result<u8, Violation> {
        let u = self.check_upgrade(id, true)?;
        if s.drawn_one.contains(&u) {
            Ok(u)
        } else {
            Err(
                v(rule::UPGRADES, format!("`{id}` is not one of the ONE upgrades drawn"))
                    .expected(format!(
                        "{} or {}",
                        self.t.one_upgrades[s.drawn_one[0] as usize].id,
                        self.t.one_upgrades[s.drawn_one[1] as usize].id
                    ))
                    .found(id),
            )
        }
    }

    pub(super) fn drawn_many(&self, s: &State, id: &str) -> Result<u8, Violation> {
        let u = self.check_upgrade(id, false)?;
        if s.drawn_many.contains(&u) {
            Ok(u)
        } else {
            Err(
                v(rule::UPGRADES, format!("`{id}` is not one of the MANY upgrades drawn"))
                    .expected(format!(
                        "{} or {}",
                        self.t.many_upgrades[s.drawn_many[0] as usize].id,
                        self.t.many_upgrades[s.drawn_many[1] as usize].id
                    ))
                    .found(id),
            )
        }
    }

    pub(super) fn check_draw(&self, seen: u64, ids: &[String], one: bool) -> Result<(), Violation> {
        let deck = if one { "ONE" } else { "MANY" };
        if ids.len() != 2 {
            return Err(v(
                rule::UPGRADES,
                format!("MANY draws {} card(s) from the {deck} upgrade deck", ids.len()),
            )
            .expected("2 cards")
            .found(format!("{} cards", ids.len())));
        }
        let mut mask = 0u64;
        for id in ids {
            let u = self.check_upgrade(id, one)?;
            if seen & bit(u) != 0 || mask & bit(u) != 0 {
                return Err(v(
                    rule::UPGRADES,
                    format!("`{id}` is no longer in the {deck} upgrade deck"),
                )
                .expected("a card still in the deck")
                .found(format!("{id}, already drawn")));
            }
            mask |= bit(u);
        }
        Ok(())
    }
}
