//! Whether an action is legal in a state (never mutates): the checks of
//! each rule in the order the log's reader expects them. Card actions and
//! the upgrade phase are in [`cards`].

mod cards;

use super::OneVMany;
use super::actions::Action;
use super::effects::{Out, When};
use super::rule;
use super::state::{EMPTY, FREE, OBSTACLE, Phase, State, Token, WALL, bit};
use super::tables::NONE;
use crate::rules::Violation;
use crate::rules::kit::v;

impl OneVMany {
    /// Whether `a` is legal in `s`.
    pub(super) fn check(&self, s: &State, a: &Action) -> Result<(), Violation> {
        if s.phase == Phase::Over {
            return Err(v(rule::VICTORY, "the game is over")
                .expected("no more actions")
                .found("an action"));
        }
        self.obligations(s, a)?;
        self.check_action(s, a)?;
        self.keeps_a_way_off(s, a)
    }

    /// A unit standing on an obstacle (passing through it) must keep an
    /// action and a free square to step off it: nothing it does may leave it
    /// stranded there.
    fn keeps_a_way_off(&self, s: &State, a: &Action) -> Result<(), Violation> {
        if !self.perched(s) || matches!(a, Action::Move { .. } | Action::EndTurn | Action::Activate { .. }) {
            return Ok(());
        }
        let next = self.step(s.clone(), a);
        if next.active != s.active || !self.perched(&next) || !self.many_moves(&next).is_empty() {
            return Ok(());
        }
        let k = next.tokens[next.active as usize];
        let by = self.has(&next, Out::PassObstacles, Some(k.sq)).unwrap_or_default();
        Err(v(
            rule::MANY_ACTIVATION,
            format!(
                "the {} on the obstacle on {} would have no way off it",
                self.unit_name(k.ty),
                self.t.name(k.sq)
            ),
        )
        .expected(format!("an action and a free square left to step off it (`{by}`)"))
        .found(format!(
            "{} action(s) left after this and no square to step to",
            self.unit_left(&next).max(0)
        )))
    }

    /// Whether `a` is legal in `s`, obligations aside.
    fn check_action(&self, s: &State, a: &Action) -> Result<(), Violation> {
        match a {
            Action::EndTurn => self.check_end_turn(s),
            Action::Reveal { scenario } => {
                if s.phase != Phase::Reveal {
                    return Err(self.wrong_phase(s, "revealing a scenario"));
                }
                let Some(sc) = self.t.scenario(scenario) else {
                    return Err(v(
                        rule::ROUND_START,
                        "the revealed scenario is not a card of the scenario deck",
                    )
                    .expected("a scenario id")
                    .found(if scenario.is_empty() { "no scenario" } else { scenario }));
                };
                if s.used_scenarios & bit(sc) != 0 {
                    return Err(v(
                        rule::ROUND_START,
                        format!("the scenario `{scenario}` was already played this game"),
                    )
                    .expected("a scenario still in the deck")
                    .found(format!("{scenario}, already used")));
                }
                Ok(())
            }
            Action::Deploy { unit, square } => {
                if s.phase != Phase::Deploy {
                    return Err(self.wrong_phase(s, "deploying a MANY token"));
                }
                let boss = &self.t.bosses[s.boss as usize];
                let ty = self.t.unit(unit).ok_or_else(|| {
                    v(rule::ROUND_START, format!("`{unit}` is not a MANY unit type"))
                        .expected("a unit id")
                        .found(unit)
                })?;
                if s.pool[ty as usize] == 0 {
                    let left: Vec<String> = (0..self.t.units.len())
                        .filter(|&i| s.pool[i] > 0)
                        .map(|i| format!("{} {}", s.pool[i], self.t.units[i].id))
                        .collect();
                    return Err(v(
                        rule::ROUND_START,
                        format!("MANY has no {unit} starting token left to deploy this round"),
                    )
                    .expected(format!(
                        "one of the starting tokens of {} still left: {}",
                        boss.id,
                        left.join(", ")
                    ))
                    .found(format!(
                        "a {unit} ({} of the boss's starting tokens)",
                        boss.start[ty as usize]
                    )));
                }
                let sq = self.sq(square, rule::ROUND_START, "the deployment square")?;
                let sc = &self.t.scenarios[s.scenario as usize];
                if !sc.spawn.contains(&sq) {
                    return Err(v(
                        rule::ROUND_START,
                        format!("MANY deploys on {square}, which is not a red square"),
                    )
                    .expected(format!(
                        "a red square of {}: {}",
                        sc.id,
                        sc.spawn.iter().map(|&q| self.t.name(q)).collect::<Vec<_>>().join(", ")
                    ))
                    .found(square));
                }
                if s.occ[sq as usize] != FREE || s.terrain[sq as usize] != EMPTY {
                    return Err(v(rule::ROUND_START, format!("the red square {square} is not free"))
                        .expected("a free red square")
                        .found(format!("{square}, {}", self.describe(s, sq))));
                }
                Ok(())
            }
            Action::Place { square } => {
                if s.phase != Phase::Place {
                    return Err(self.wrong_phase(s, "placing ONE"));
                }
                let sq = self.sq(square, rule::ROUND_START, "ONE's start square")?;
                let sc = &self.t.scenarios[s.scenario as usize];
                if !sc.start.contains(&sq) {
                    return Err(v(
                        rule::ROUND_START,
                        format!("ONE starts on {square}, which is not a blue square"),
                    )
                    .expected(format!(
                        "a blue square of {}: {}",
                        sc.id,
                        sc.start.iter().map(|&q| self.t.name(q)).collect::<Vec<_>>().join(", ")
                    ))
                    .found(square));
                }
                if s.occ[sq as usize] != FREE || s.terrain[sq as usize] == WALL {
                    return Err(v(rule::ROUND_START, format!("the blue square {square} is taken"))
                        .expected("a free blue square")
                        .found(format!("{square}, {}", self.describe(s, sq))));
                }
                Ok(())
            }
            Action::Move { to } => match s.phase {
                Phase::One => {
                    let left = self.one_left(s);
                    if left < 1 {
                        return Err(v(rule::ONE_ACTIONS, "ONE has no action point left for a move")
                            .expected(format!("at most {} action points this turn", self.one_ap(s)))
                            .found(format!("a move after spending {}", s.spent)));
                    }
                    let dest = self.sq(to, rule::ONE_MOVE, "the move's destination")?;
                    if !self.t.adjacent(s.one_sq, dest) {
                        return Err(v(
                            rule::ONE_MOVE,
                            format!(
                                "ONE moves from {} to {to}, which is not an adjacent square",
                                self.t.name(s.one_sq)
                            ),
                        )
                        .expected(format!("one orthogonal step from {}", self.t.name(s.one_sq)))
                        .found(to));
                    }
                    if s.occ[dest as usize] != FREE || s.terrain[dest as usize] == WALL {
                        return Err(v(rule::ONE_MOVE, format!("ONE may not enter {to}"))
                            .expected("a square without MANY tokens or walls")
                            .found(format!("{to}, {}", self.describe(s, dest))));
                    }
                    if s.terrain[dest as usize] == OBSTACLE {
                        let cost = 1 + self.one_obstacle_cost(s);
                        if left < cost {
                            return Err(v(
                                rule::ONE_MOVE,
                                format!("entering the obstacle on {to} costs {cost} action points"),
                            )
                            .expected(format!("{cost} action points"))
                            .found(format!("{left} left")));
                        }
                    }
                    Ok(())
                }
                Phase::Many => {
                    let k = self.acting_unit(s, "moves", "a move", &format!("to {to}"))?;
                    let dest = self.sq(to, rule::MANY_ACTIVATION, "the move's destination")?;
                    if !self.t.adjacent(k.sq, dest) {
                        return Err(v(
                            rule::MANY_ACTIVATION,
                            format!(
                                "the {} moves from {} to {to}, which is not adjacent",
                                self.unit_name(k.ty),
                                self.t.name(k.sq)
                            ),
                        )
                        .expected(format!("one orthogonal step from {}", self.t.name(k.sq)))
                        .found(to));
                    }
                    let through = s.climb || self.has(s, Out::PassObstacles, Some(k.sq)).is_some();
                    let blocked = s.occ[dest as usize] != FREE
                        || s.terrain[dest as usize] == WALL
                        || (s.terrain[dest as usize] == OBSTACLE && !through);
                    if blocked {
                        return Err(v(rule::MANY_ACTIVATION, format!("a MANY unit may not enter {to}"))
                            .expected("a square free of tokens, walls and obstacles")
                            .found(format!("{to}, {}", self.describe(s, dest))));
                    }
                    if s.terrain[dest as usize] == OBSTACLE && !s.climb && self.unit_left(s) < 2 {
                        let by = self.has(s, Out::PassObstacles, Some(k.sq)).unwrap_or_default();
                        return Err(v(
                            rule::MANY_ACTIVATION,
                            format!(
                                "the {} would end its move on the obstacle on {to}",
                                self.unit_name(k.ty)
                            ),
                        )
                        .expected(format!("an action left to move on past the obstacle (`{by}`)"))
                        .found(format!("{} action(s) left", self.unit_left(s))));
                    }
                    // Past the obstacle there must be somewhere to step off to.
                    let exit = self
                        .t
                        .board
                        .neighbours(dest)
                        .iter()
                        .any(|&n| n != k.sq && s.occ[n as usize] == FREE && s.terrain[n as usize] == EMPTY);
                    if s.terrain[dest as usize] == OBSTACLE && !s.climb && !exit {
                        let by = self.has(s, Out::PassObstacles, Some(k.sq)).unwrap_or_default();
                        return Err(v(
                            rule::MANY_ACTIVATION,
                            format!(
                                "the {} would be stranded on the obstacle on {to}: no free square beyond it",
                                self.unit_name(k.ty)
                            ),
                        )
                        .expected(format!("an obstacle with a free square past it (`{by}`)"))
                        .found(format!("{to}, {}", self.describe(s, dest)))
                        .cited(self.cite(&by)));
                    }
                    Ok(())
                }
                _ => Err(self.wrong_phase(s, "a move")),
            },
            Action::Attack { target } => match s.phase {
                Phase::One => {
                    if self.one_left(s) < 1 {
                        return Err(v(rule::ONE_ACTIONS, "ONE has no action point left for an attack")
                            .expected(format!("at most {} action points this turn", self.one_ap(s)))
                            .found(format!("an attack after spending {}", s.spent)));
                    }
                    let t = self.sq(target, rule::ONE_ATTACK, "the attack's target")?;
                    if self.token_at(s, t).is_none() {
                        return Err(v(
                            rule::ONE_ATTACK,
                            format!("ONE attacks {target}, where there is no MANY token"),
                        )
                        .expected("a square with a MANY token")
                        .found(format!("{target}, {}", self.describe(s, t))));
                    }
                    let range = self.one_range(s);
                    match self.t.line_distance(s.one_sq, t) {
                        Some(d) if d <= range => Ok(()),
                        Some(d) => Err(v(rule::ONE_ATTACK, format!("{target} is out of ONE's range"))
                            .expected(format!("at most {range} squares away"))
                            .found(format!("{d} squares"))),
                        None => Err(v(
                            rule::ONE_ATTACK,
                            format!(
                                "{target} is not in a row or column with ONE on {}",
                                self.t.name(s.one_sq)
                            ),
                        )
                        .expected(format!("a target in ONE's row or column, at most {range} squares away"))
                        .found(format!("{target}, diagonal to ONE"))),
                    }
                }
                Phase::Many => {
                    let k = self.acting_unit(s, "attacks", "an attack", &format!("on {target}"))?;
                    let t = self.sq(target, rule::MANY_ATTACK, "the attack's target")?;
                    if t != s.one_sq {
                        return Err(v(
                            rule::MANY_ATTACK,
                            format!("MANY attacks {target}, but ONE is on {}", self.t.name(s.one_sq)),
                        )
                        .expected(format!("ONE's square {}", self.t.name(s.one_sq)))
                        .found(target));
                    }
                    let range = self.many_range(s, s.active as usize);
                    match self.t.line_distance(k.sq, t) {
                        Some(d) if d <= range => Ok(()),
                        Some(d) => Err(v(
                            rule::MANY_ATTACK,
                            format!(
                                "ONE is out of range of the {} on {}",
                                self.unit_name(k.ty),
                                self.t.name(k.sq)
                            ),
                        )
                        .expected(format!("at most {range} squares away"))
                        .found(format!("{d} squares"))),
                        None => Err(v(
                            rule::MANY_ATTACK,
                            format!(
                                "ONE on {target} is not in a row or column with the {} on {}",
                                self.unit_name(k.ty),
                                self.t.name(k.sq)
                            ),
                        )
                        .expected(format!("ONE in the unit's row or column, at most {range} squares away"))
                        .found(format!("{target}, diagonal to {}", self.t.name(k.sq)))),
                    }
                }
                _ => Err(self.wrong_phase(s, "an attack")),
            },
            Action::Activate { square } => {
                if s.phase != Phase::Many {
                    return Err(self.wrong_phase(s, "activating a MANY unit"));
                }
                let sq = self.sq(square, rule::MANY_ACTIVATION, "the activated unit's square")?;
                let Some(k) = self.token_at(s, sq) else {
                    return Err(v(
                        rule::MANY_ACTIVATION,
                        format!("there is no MANY unit on {square} to activate"),
                    )
                    .expected("the square of a MANY unit")
                    .found(format!("{square}, {}", self.describe(s, sq))));
                };
                if s.tokens[k].activated {
                    return Err(v(
                        rule::MANY_ACTIVATION,
                        format!(
                            "the {} on {square} was already activated this turn",
                            self.unit_name(s.tokens[k].ty)
                        ),
                    )
                    .expected("one activation per unit and turn")
                    .found("a second activation"));
                }
                Ok(())
            }
            Action::Interact { interaction, effect } => self.check_interact(s, *interaction, effect),
            Action::Equip { card, effect } => self.check_equip(s, card, effect),
            Action::Trigger { by, effect } => self.check_trigger(s, by, effect),
            Action::Reinforce { unit, square, by } => self.check_reinforce(s, unit, square, by),
            Action::DrawUpgrades { one, many } => self.check_upgrade_draw(s, one, many),
            Action::Pair { one, many } => self.check_pair(s, one, many),
            Action::Pick { one } => self.check_pick(s, one),
        }
    }

    /// What card effects require before `a`: a choice the moment owes (a
    /// reinforcement at the round's or MANY phase's start, a healing at its
    /// end, a replacement after a removal), and a unit that passed through
    /// obstacles not stopping on one.
    fn obligations(&self, s: &State, a: &Action) -> Result<(), Violation> {
        let owe = |when: When, moment: &str| -> Result<(), Violation> {
            match self.owed(s, when) {
                Some((card, why)) => {
                    let r = self.source(s, &card).map_or(rule::CARD_ACTIONS, |x| x.rule());
                    let mut e = v(r, format!("`{card}` must be used {moment}"))
                        .expected(if why.expected.is_empty() {
                            format!("its effect, recorded before moving on (`trigger` or `reinforce` by `{card}`)")
                        } else {
                            format!("its effect, recorded before moving on: {}", why.expected)
                        })
                        .found("the game moving on without it");
                    e.cause = why.cause;
                    Err(e)
                }
                None => Ok(()),
            }
        };
        let ends_activation = matches!(a, Action::Activate { .. } | Action::EndTurn) && s.phase == Phase::Many;
        if ends_activation && s.active != NONE {
            let k = s.tokens[s.active as usize];
            if k.sq != NONE && s.terrain[k.sq as usize] == OBSTACLE && !s.climb {
                let by = self.has(s, Out::PassObstacles, Some(k.sq)).unwrap_or_default();
                return Err(v(
                    rule::MANY_ACTIVATION,
                    format!(
                        "the {} ends its activation on the obstacle on {}",
                        self.unit_name(k.ty),
                        self.t.name(k.sq)
                    ),
                )
                .expected(format!("moves through obstacles, never stopping on one (`{by}`)"))
                .found(format!("its activation over on {}", self.t.name(k.sq))));
            }
        }
        match a {
            Action::Place { .. } => owe(When::RoundStart, "at the start of the round")?,
            Action::Activate { .. } | Action::EndTurn
                if s.phase == Phase::Many && s.tokens.iter().all(|k| !k.activated) =>
            {
                owe(When::ManyPhaseStart, "at the start of MANY's phase")?
            }
            _ => {}
        }
        if matches!(a, Action::EndTurn) {
            if s.phase == Phase::Many {
                owe(When::ManyPhaseEnd, "at the end of MANY's phase")?;
            }
            if s.removed.is_some() && matches!(s.phase, Phase::One | Phase::Many) {
                owe(When::OnRemoval, "right after a MANY token is removed")?;
            }
        }
        Ok(())
    }

    pub(super) fn sq(&self, id: &str, rule: &'static str, what: &str) -> Result<u8, Violation> {
        self.t.square(id).ok_or_else(|| {
            v(rule, format!("{what} `{id}` is not a square of the board"))
                .expected("a square id from A1 to H8")
                .found(id)
        })
    }

    /// The MANY unit being activated, when it has an action left for the
    /// `act` (`a move`) the log records (`to C3`).
    pub(super) fn acting_unit(&self, s: &State, verb: &str, act: &str, detail: &str) -> Result<Token, Violation> {
        if s.active == NONE {
            return Err(v(rule::MANY_ACTIVATION, "no MANY unit is being activated")
                .expected(format!("`activate` a unit before it {verb}"))
                .found(format!("{act} {detail}")));
        }
        let k = s.tokens[s.active as usize];
        if self.unit_left(s) < 1 {
            return Err(v(
                rule::MANY_ACTIVATION,
                format!(
                    "the {} on {} has no action left",
                    self.unit_name(k.ty),
                    self.t.name(k.sq)
                ),
            )
            .expected(format!("at most {} actions", self.many_actions(s, s.active as usize)))
            .found(format!("{act} after {} actions", s.spent)));
        }
        Ok(k)
    }

    pub(super) fn wrong_phase(&self, s: &State, what: &str) -> Violation {
        let (rule, msg, expected): (&'static str, String, String) = match s.phase {
            Phase::Reveal => (
                rule::ROUND_START,
                format!("{what} comes before the round's scenario is revealed"),
                "`reveal`: ONE turns over the next scenario".into(),
            ),
            Phase::Deploy => (
                rule::ROUND_START,
                format!("{what} comes before MANY has deployed its starting tokens"),
                format!("`deploy` of the {} token(s) still to set on red squares", s.deploy_left),
            ),
            Phase::Place => (
                rule::ROUND_START,
                format!("{what} comes before ONE has placed its token"),
                "`place`: ONE on a free blue square".into(),
            ),
            Phase::One => (
                rule::TURN,
                format!("{what} is not possible during ONE's actions"),
                "an action of ONE, or the end of ONE's turn".into(),
            ),
            Phase::Cleared => (
                rule::ROUND_END,
                format!(
                    "{what} comes after the board was cleared: the round is over and the rest of the turn is skipped"
                ),
                "the end of the turn, then the upgrade phase".into(),
            ),
            Phase::Many => (
                rule::TURN,
                format!("{what} is not possible during MANY's activations"),
                "a MANY unit's activation or action, or the end of MANY's turn".into(),
            ),
            Phase::Draw | Phase::Pair | Phase::Pick => (
                rule::UPGRADES,
                format!("{what} is not possible during the upgrade phase"),
                format!(
                    "the upgrade phase's next step, `{}`",
                    match s.phase {
                        Phase::Draw => "draw-upgrades",
                        Phase::Pair => "pair",
                        _ => "pick",
                    }
                ),
            ),
            Phase::Ready => (
                rule::UPGRADES,
                format!("{what} comes after the upgrade phase"),
                "the end of MANY's turn (the next round starts with ONE's)".into(),
            ),
            Phase::Over => (rule::VICTORY, "the game is over".into(), "nothing".into()),
        };
        v(rule, msg).expected(expected).found(what.to_string())
    }

    pub(super) fn check_end_turn(&self, s: &State) -> Result<(), Violation> {
        match s.phase {
            Phase::One | Phase::Cleared | Phase::Ready => Ok(()),
            Phase::Many => {
                let waiting: Vec<&str> = s
                    .tokens
                    .iter()
                    .filter(|k| k.sq != NONE && !k.activated)
                    .map(|k| self.t.name(k.sq))
                    .collect();
                if waiting.is_empty() {
                    Ok(())
                } else {
                    Err(v(
                        rule::MANY_ACTIVATION,
                        format!(
                            "MANY ends its phase without activating the unit(s) on {}",
                            waiting.join(", ")
                        ),
                    )
                    .expected(format!("all {} units on the board activated", s.alive))
                    .found(format!(
                        "{} unit(s) never activated: {}",
                        waiting.len(),
                        waiting.join(", ")
                    )))
                }
            }
            Phase::Reveal | Phase::Deploy | Phase::Place => {
                let left = match s.phase {
                    Phase::Reveal => "no scenario revealed".to_string(),
                    Phase::Deploy => format!("{} MANY token(s) still to deploy", s.deploy_left),
                    _ => "ONE's token not placed".to_string(),
                };
                Err(v(rule::ROUND_START, "the round start is not finished")
                    .expected("scenario revealed, MANY deployed, ONE placed")
                    .found(left))
            }
            Phase::Draw | Phase::Pair | Phase::Pick => Err(v(rule::UPGRADES, "the upgrade phase is not finished")
                .expected("draw, pair and pick")
                .found(format!("still at the {} step", s.phase.name()))),
            Phase::Over => Err(v(rule::VICTORY, "the game is over")
                .expected("no more turns")
                .found("a turn")),
        }
    }
}
