//! Whether an action is legal in a state (never mutates). Combat actions
//! and spells are in [`combat`].

mod combat;

use super::OpenWars;
use super::actions::Action;
use super::rule;
use super::state::{Phase, State, bit};
use super::tables::{self, CITY, FLYING, MAGIC, WATER};
use crate::rules::Violation;
use crate::rules::kit::{Set, dice, v};

impl OpenWars {
    pub(super) fn over(&self, s: &State) -> Violation {
        v(rule::VICTORY, "the game is already over")
            .expected("no more actions")
            .found(format!("an action after the end of turn {}", s.turn))
    }

    pub(super) fn wrong_phase(&self, s: &State, what: &str, phase: &str) -> Violation {
        v(
            rule::PHASES,
            format!(
                "{what} belongs to the {phase} phase, but {} is in the {} phase of turn {}",
                self.name(s, s.to_move),
                s.phase.name(),
                s.turn
            ),
        )
        .expected(format!("the {phase} phase"))
        .found(format!("the {} phase", s.phase.name()))
    }

    /// Whether `a` is legal in `s`; with `chance` false the recorded chance
    /// results (dice) are not looked at.
    pub(super) fn check(&self, s: &State, a: &Action, chance: bool) -> Result<(), Violation> {
        if s.phase == Phase::Over {
            return Err(self.over(s));
        }
        match a {
            Action::EndTurn => self.check_end(s),
            Action::OrderRoll { roll } => {
                if s.phase != Phase::OrderRoll || s.done {
                    return Err(v(rule::ORDER, "there is no tie for first place to roll off")
                        .expected("a roll only when army values tie at the start of a turn")
                        .found("an order roll"));
                }
                if chance {
                    if !dice::faces_ok(roll, dice::D6) || !roll.len().is_multiple_of(4) || roll.is_empty() {
                        return Err(v(rule::ORDER, "the tie roll is 2d6 per player, round after round")
                            .expected("groups of 4 dice from 1 to 6 (2 per player, seat order)")
                            .found(dice::show(roll)));
                    }
                    let sums: Vec<u8> = roll.chunks(2).map(|p| p[0] + p[1]).collect();
                    dice::roll_off(&sums).map_err(|why| {
                        v(rule::ORDER, format!("the tie roll does not settle the order: {why}"))
                            .expected("re-roll while the totals tie, stop when they differ")
                            .found(dice::show(roll))
                    })?;
                }
                Ok(())
            }
            Action::Collect { from, gold, mana } => self.check_collect(s, from, *gold, *mana),
            Action::Recruit { unit, at, tokens } => self.check_recruit(s, unit, at, *tokens),
            Action::Move {
                unit,
                from,
                to,
                tokens,
                roll,
            } => {
                self.check_move(s, unit, from, to, *tokens)?;
                if chance {
                    self.check_move_roll(s, unit, from, to, roll)?;
                }
                Ok(())
            }
            Action::Fight { at, rolls } => {
                self.check_fight(s, at)?;
                if chance {
                    let c = self.cell_ix(s, at, rule::COMBATS)?;
                    self.check_fight_rolls(s, c, rolls)?;
                }
                Ok(())
            }
            Action::Attack {
                unit,
                at,
                tie,
                roll,
                casualties,
                rolls,
            } => {
                self.check_attack(s, unit, at, tie, roll, casualties, chance)?;
                if chance {
                    self.check_returns(s, unit, at, casualties, rolls)?;
                }
                Ok(())
            }
            Action::Retreat { unit, to, tokens, tie } => self.check_retreat(s, unit, to, *tokens, tie, chance),
            Action::Hold { unit, tie } => self.check_hold(s, unit, tie, chance),
            Action::Cast { .. } => self.check_cast(s, a, chance),
        }
    }

    pub(super) fn check_end(&self, s: &State) -> Result<(), Violation> {
        let who = self.name(s, s.to_move);
        match s.phase {
            Phase::OrderRoll if !s.done => Err(v(
                rule::ORDER,
                "army values tie for first place: the tied players roll 2d6 before the turn starts",
            )
            .expected("an order-roll")
            .found("the end of the block")),
            Phase::Collection => Err(v(
                rule::COLLECTION,
                format!("{who} has not collected: collection comes before the rest of the turn"),
            )
            .expected("a collect action")
            .found("no collection")),
            Phase::Combat => {
                if let Some(f) = s.fight {
                    return Err(v(
                        rule::COMBATS,
                        format!("the combat in {} is not over", self.cell_name(s, f.cell)),
                    )
                    .expected("every stack there acts until one side is left")
                    .found(format!("round {}", f.round)));
                }
                let (pending, _) = self.allowed_fights(s);
                if pending != 0 {
                    return Err(v(rule::COMBATS, "combats remain to be fought this phase")
                        .expected(format!("fights in {}", self.map(s).ids(pending).join(", ")))
                        .found("the end of the combat phase"));
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    pub(super) fn check_collect(&self, s: &State, from: &[String], gold: u32, mana: u32) -> Result<(), Violation> {
        match s.phase {
            Phase::Collection => {}
            Phase::Recruitment if s.done => {
                return Err(v(rule::COLLECTION, "collection is taken once per turn")
                    .expected("one collect per turn")
                    .found("a second collect"));
            }
            Phase::Recruitment if s.turn == 1 && self.map(s).skip_collection => {
                return Err(v(rule::PHASES, "turn 1 skips the collection phase (scenario setting)")
                    .expected("no collection on turn 1")
                    .found("a collect"));
            }
            _ => return Err(self.wrong_phase(s, "collecting", "collection")),
        }
        let p = s.to_move;
        let m = self.map(s);
        let mut listed: Set = 0;
        for id in from {
            let c = self.cell_ix(s, id, rule::CONTROL)?;
            if listed & bit(c) != 0 {
                return Err(v(rule::COLLECTION, format!("{id} is listed twice"))
                    .expected("each controlled location once")
                    .found(format!("{id} twice")));
            }
            if let Some(why) = self.no_control(s, p, c) {
                return Err(v(
                    rule::CONTROL,
                    format!("{} does not control {id}: {why}", self.name(s, p)),
                )
                .expected("only locations with own tokens and no enemy token")
                .found(id.as_str()));
            }
            listed |= bit(c);
        }
        let ctrl = self.controlled(s, p);
        let missing = ctrl & !listed;
        if missing != 0 {
            return Err(v(
                rule::COLLECTION,
                format!(
                    "{} also controls {}: every controlled location yields",
                    self.name(s, p),
                    m.ids(missing).join(", ")
                ),
            )
            .expected(format!("from: [{}]", m.ids(ctrl).join(", ")))
            .found(format!("from: [{}]", from.join(", "))));
        }
        let (mut g, mut n) = (0u32, 0u32);
        for (i, c) in m.cells.iter().enumerate() {
            if ctrl & (1 << i) != 0 {
                g += u32::from(c.gold);
                n += u32::from(c.mana);
            }
        }
        let (bg, bn, by) = self.collection_bonus(s, s.to_move);
        let (g, n) = (g + bg, n + bn);
        if g != gold || n != mana {
            return Err(v(
                rule::COLLECTION,
                if by.is_empty() {
                    "the collection does not add up to the printed gold and mana".to_string()
                } else {
                    format!(
                        "the collection does not add up to the printed gold and mana and the bonuses of {}",
                        by.join(", ")
                    )
                },
            )
            .expected(format!("gold {g}, mana {n}"))
            .found(format!("gold {gold}, mana {mana}")));
        }
        Ok(())
    }

    pub(super) fn check_recruit(&self, s: &State, unit: &str, at: &str, tokens: u8) -> Result<(), Violation> {
        match s.phase {
            Phase::Recruitment => {}
            Phase::Collection => {
                return Err(v(rule::PHASES, "collection comes before recruitment: collect first")
                    .expected("collect")
                    .found("a recruit"));
            }
            _ => return Err(self.wrong_phase(s, "recruiting", "recruitment")),
        }
        if s.turn == 1 && self.map(s).skip_recruitment {
            return Err(v(rule::PHASES, "turn 1 skips the recruitment phase (scenario setting)")
                .expected("no recruitment on turn 1")
                .found("a recruit"));
        }
        let p = s.to_move;
        let who = self.name(s, p);
        let u = self.unit_ix(unit, rule::RECRUITMENT)?;
        let ud = self.unit(u);
        if ud.faction != s.faction[usize::from(p)] {
            return Err(v(
                rule::RECRUITMENT,
                format!(
                    "{unit} belongs to the {}; {who} plays the {}",
                    self.t.factions[usize::from(ud.faction)],
                    self.t.factions[usize::from(s.faction[usize::from(p)])]
                ),
            )
            .expected(format!(
                "a unit of the {}",
                self.t.factions[usize::from(s.faction[usize::from(p)])]
            ))
            .found(unit));
        }
        let c = self.cell_ix(s, at, rule::RECRUITMENT)?;
        let cell = &self.map(s).cells[usize::from(c)];
        if cell.ty != CITY {
            return Err(v(
                rule::RECRUITMENT,
                format!("recruits appear only in cities, and {at} is {}", cell.location),
            )
            .expected("a controlled city")
            .found(format!("{at} ({})", tables::TYPES[usize::from(cell.ty)])));
        }
        if let Some(why) = self.no_control(s, p, c) {
            return Err(v(
                rule::RECRUITMENT,
                format!("{who} recruits only in cities they control: {why}"),
            )
            .expected("a city with own tokens and no enemy")
            .found(at));
        }
        if ud.ty == WATER && !cell.port {
            return Err(v(
                rule::RECRUITMENT,
                format!("{unit} is a water unit and {at} has no adjacent water (no port)"),
            )
            .expected("a city next to a water location")
            .found(at));
        }
        if tokens == 0 {
            return Err(v(rule::RECRUITMENT, "a recruit places at least one token")
                .expected("tokens: 1 or more")
                .found("tokens: 0"));
        }
        let on = self.on_map(s, u);
        if ud.unique && (on > 0 || tokens > 1) {
            return Err(v(
                rule::RECRUITMENT,
                format!("{unit} is unique: the army holds at most one"),
            )
            .expected("1 token, none on the map")
            .found(format!("{} on the map, {tokens} recruited", on)));
        }
        let avail = u32::from(ud.copies).saturating_sub(on + u32::from(s.fallen[usize::from(u)]));
        if u32::from(tokens) > avail {
            return Err(v(
                rule::RECRUITMENT,
                format!(
                    "the kit has {} {unit} tokens: {on} on the map, {} set aside as casualties this turn",
                    ud.copies,
                    s.fallen[usize::from(u)]
                ),
            )
            .expected(format!("at most {avail} more"))
            .found(format!("{tokens}")));
        }
        let price = self.recruit_cost(s, p, u, c) * u32::from(tokens);
        if price > s.gold[usize::from(p)] {
            return Err(v(rule::RECRUITMENT, format!("{who} cannot pay for {tokens} {unit}"))
                .expected(format!("{price} gold"))
                .found(format!("{} gold in reserve", s.gold[usize::from(p)])));
        }
        self.stacking(s, p, u, c, tokens)
    }

    pub(super) fn check_move(&self, s: &State, unit: &str, from: &str, to: &str, tokens: u8) -> Result<(), Violation> {
        if s.phase != Phase::Movement {
            return Err(self.wrong_phase(s, "moving", "movement"));
        }
        let p = s.to_move;
        let u = self.unit_ix(unit, rule::MOVEMENT)?;
        if let Some(o) = self.owner(s, u)
            && o != p
        {
            return Err(v(
                rule::ORDER,
                format!(
                    "{unit} belongs to {}; this is {}'s movement phase",
                    self.name(s, o),
                    self.name(s, p)
                ),
            )
            .expected(format!("a unit of {}", self.name(s, p)))
            .found(format!("a unit of {}", self.name(s, o))));
        }
        let f = self.cell_ix(s, from, rule::MOVEMENT)?;
        let t = self.cell_ix(s, to, rule::MOVEMENT)?;
        let have = self.find(s, p, u, f).map_or(0, |i| s.stacks[i].n);
        if tokens == 0 || tokens > have {
            return Err(v(
                rule::MOVEMENT,
                format!("{} has {have} {unit} in {from}", self.name(s, p)),
            )
            .expected(format!("1 to {have} tokens"))
            .found(format!("{tokens}")));
        }
        let m = self.map(s);
        let adj = m.grid.neighbours(f);
        if !adj.contains(&t) {
            return Err(v(
                rule::MOVEMENT,
                format!("units move one orthogonal step at a time, and {to} is not next to {from}"),
            )
            .expected(format!(
                "one of {}",
                adj.iter().map(|&c| self.cell_name(s, c)).collect::<Vec<_>>().join(", ")
            ))
            .found(to));
        }
        if let Some(why) = self.water_block(s, u, f, t) {
            return Err(v(rule::WATER, why)
                .expected("water only for water and flying units")
                .found(to));
        }
        let ud = self.unit(u);
        let foes = self.tokens_of(s, 1 - p, f);
        if foes > 0 && ud.ty != FLYING {
            return Err(v(
                rule::ENGAGED,
                format!("{unit} is engaged in {from} ({foes} enemy token(s)): it may not leave in the movement phase"),
            )
            .expected("stay until the combat phase (retreat there)")
            .found(format!("a move to {to}")));
        }
        let i = self.find(s, p, u, f).unwrap_or(0);
        if let Some(by) = self.held_still(s, &s.stacks[i]) {
            return Err(v(
                rule::MOVEMENT,
                format!("{unit} in {from} cannot move this turn (`{by}`)"),
            )
            .expected(format!("a stack free to move (`{by}` holds it)"))
            .found(format!("a move to {to}"))
            .cited(self.cite(&by)));
        }
        let cost = self.entry(s, u, t);
        let left = s.stacks[i].mp[usize::from(tokens - 1)];
        // A feature where the stack stands that ended its move (it entered).
        if left == 0
            && let Some(by) = self.stopped_by(s, &s.stacks[i], f)
        {
            return Err(v(
                rule::MOVEMENT,
                format!("{unit} cannot move on from {from}: `{by}` ended its movement when it entered"),
            )
            .expected(format!("no further move this turn (`{by}` stops a unit entering it)"))
            .found(format!("a move to {to}"))
            .cited(self.cite(&by)));
        }
        if left < cost {
            let cell = &m.cells[usize::from(t)];
            let why = if cost < cell.entry {
                format!("entry cost {} minus 1 for matching terrain", cell.entry)
            } else {
                format!("entry cost {}", cell.entry)
            };
            // The effects that set its movement this phase (an Oasis it
            // started from): their bound is what ran out.
            let (moves, causes) = self.movement_desc(&s.stacks[i]);
            let found = if causes.is_empty() {
                format!("{left} left")
            } else {
                format!("{left} left of its {moves}")
            };
            return Err(v(
                rule::MOVEMENT,
                format!(
                    "{unit} cannot pay to enter {to} ({}, {why}): it stays put",
                    cell.location
                ),
            )
            .expected(format!("{cost} movement point(s)"))
            .found(found)
            .cited_all(causes));
        }
        self.stacking(s, p, u, t, tokens)
    }

    /// The die a stack entering a location rolls for its feature.
    fn check_move_roll(&self, s: &State, unit: &str, from: &str, to: &str, roll: &[u8]) -> Result<(), Violation> {
        let (Some(u), Some(f), Some(t)) = (self.t.unit_ix.get(unit), self.map(s).cell(from), self.map(s).cell(to))
        else {
            return Ok(());
        };
        let Some(i) = self.find(s, s.to_move, u, f) else {
            return Ok(());
        };
        let mut x = s.stacks[i].clone();
        x.cell = t;
        self.check_enter_roll(s, &x, t, roll)
    }

    pub(super) fn check_fight(&self, s: &State, at: &str) -> Result<(), Violation> {
        if s.phase != Phase::Combat {
            return Err(self.wrong_phase(s, "a fight", "combat"));
        }
        if let Some(f) = s.fight {
            return Err(v(
                rule::COMBATS,
                format!("the combat in {} is still going on", self.cell_name(s, f.cell)),
            )
            .expected("one combat at a time")
            .found(format!("a fight in {at}")));
        }
        let c = self.cell_ix(s, at, rule::COMBATS)?;
        let (allowed, ranged) = self.allowed_fights(s);
        if allowed & bit(c) != 0 {
            return Ok(());
        }
        let m = self.map(s);
        let any = self.ranged_pending(s) | self.contested_pending(s);
        let msg = if any & bit(c) != 0 {
            if ranged {
                format!(
                    "isolated ranged combats come first (isolated_ranged_combat: {})",
                    if m.ranged_first { "first" } else { "last" }
                )
            } else {
                "combats in contested locations come first here".to_string()
            }
        } else {
            format!("there is no combat to fight in {at}")
        };
        Err(v(rule::COMBATS, msg)
            .expected(self.fights_left(s))
            .found(format!("a fight in {at}")))
    }

    /// What a fight may do now, in words: the locations it may be in, or
    /// that no combat is left (the turn moves on).
    pub(super) fn fights_left(&self, s: &State) -> String {
        let allowed = self.allowed_fights(s).0;
        if allowed == 0 {
            "no fight: no combat is left this turn (end the turn)".to_string()
        } else {
            format!("a fight in {}", self.map(s).ids(allowed).join(" or "))
        }
    }

    /// Stacking (OW-6) for `k` more tokens of `u` of player `p` in `c`.
    pub(super) fn stacking(&self, s: &State, p: u8, u: u16, c: u8, k: u8) -> Result<(), Violation> {
        let unit = self.unit(u);
        let have = self.find(s, p, u, c).map_or(0, |i| s.stacks[i].n);
        let limit = unit.limit();
        if u32::from(have) + u32::from(k) > u32::from(limit) {
            return Err(v(
                rule::STACKING,
                format!(
                    "a {} stack holds at most {limit} token{}; {} already has {have} {} in {}",
                    if unit.ty == MAGIC {
                        "magic"
                    } else if unit.unique {
                        "unique"
                    } else {
                        "normal"
                    },
                    if limit == 1 { "" } else { "s" },
                    self.name(s, p),
                    unit.id,
                    self.cell_name(s, c)
                ),
            )
            .expected(format!("at most {limit} in the stack"))
            .found(format!("{}", u32::from(have) + u32::from(k))));
        }
        if unit.ty == MAGIC
            && let Some(other) = s
                .stacks
                .iter()
                .find(|x| x.player == p && x.cell == c && x.unit != u && self.unit(x.unit).ty == MAGIC)
        {
            return Err(v(
                rule::STACKING,
                format!(
                    "{} already has a magic unit ({}) in {}",
                    self.name(s, p),
                    self.unit(other.unit).id,
                    self.cell_name(s, c)
                ),
            )
            .expected("at most 1 magic unit per player per location")
            .found(format!("{} and {}", self.unit(other.unit).id, unit.id)));
        }
        Ok(())
    }

    pub(super) fn unit_ix(&self, id: &str, rule: &'static str) -> Result<u16, Violation> {
        self.t.unit_ix.get(id).ok_or_else(|| {
            v(rule, format!("`{id}` is not a unit of Open Wars"))
                .expected("a unit id of the pack")
                .found(id)
        })
    }

    pub(super) fn cell_ix(&self, s: &State, id: &str, rule: &'static str) -> Result<u8, Violation> {
        self.map(s).cell(id).ok_or_else(|| {
            v(rule, format!("`{id}` is not a cell of the map `{}`", self.map(s).id))
                .expected("a cell id such as c3")
                .found(id)
        })
    }

    // ----- combat bookkeeping -----
}
