//! Setup, validation and application of actions.

use std::collections::BTreeMap;

use super::dice::{RollError, max_successes};
use super::tables::{PowerKind, bits, talent, terrain};
use super::*;

/// An attack's reach and numbers.
#[derive(Clone, Copy, Debug)]
pub struct Strike {
    pub melee: bool,
    pub dice: u8,
    pub defense: u8,
}

fn v(rule: &'static str, msg: impl Into<String>) -> Violation {
    Violation::new(rule, msg)
}

/// What an action is, for `found:`.
pub fn what(a: &Action) -> &'static str {
    match a {
        Action::Draw { .. } => "a `draw`",
        Action::Rest { .. } => "a `rest`",
        Action::DrawTwo { .. } => "a `draw-two`",
        Action::Search { .. } => "a `search`",
        Action::CallTroop { .. } => "a `call-troop`",
        Action::Activate { .. } => "an `activate`",
        Action::Enter { .. } => "an `enter`",
        Action::Move { .. } => "a `move`",
        Action::Run { .. } => "a `run`",
        Action::Attack { .. } => "an `attack`",
        Action::Counter { .. } => "a `counter`",
        Action::PickUp { .. } => "a `pick-up`",
        Action::Drop { .. } => "a `drop`",
        Action::Absorb { .. } => "an `absorb`",
        Action::Power { .. } => "a `power`",
        Action::Leave { .. } => "a `leave`",
        Action::EndTurn => "the end of the turn",
    }
}

fn stat(base: u8, mods: i32) -> u8 {
    (base as i32 + mods.clamp(-2, 2)).clamp(0, 10) as u8
}

impl Mythic {
    // ------------------------------------------------------------ setup

    pub(super) fn setup_state(&self, setup: &Setup) -> Result<State, Violation> {
        let r = "MB-1";
        let t = &self.t;
        let m = t.modes.iter().position(|m| m.id == setup.mode).ok_or_else(|| {
            v(r, format!("there is no game mode `{}`", setup.mode))
                .expected(format!(
                    "one of {}",
                    t.modes.iter().map(|m| m.id.as_str()).collect::<Vec<_>>().join(", ")
                ))
                .found(&setup.mode)
        })?;
        let mode = &t.modes[m];
        let b = match &setup.battlefield {
            Some(id) => t.boards.iter().position(|b| &b.id == id).ok_or_else(|| {
                v(r, format!("there is no battlefield `{id}`"))
                    .expected(format!(
                        "one of {}",
                        t.boards.iter().map(|b| b.id.as_str()).collect::<Vec<_>>().join(", ")
                    ))
                    .found(id)
            })?,
            None => t
                .boards
                .iter()
                .position(|b| b.omphalos.iter().any(|(mi, _)| *mi == m))
                .unwrap_or(0),
        };
        let board = &t.boards[b];
        if setup.players.len() != mode.players as usize {
            return Err(v(
                r,
                format!("the `{}` mode is played by {} players", mode.id, mode.players),
            )
            .expected(plural(mode.players as u32, "player", "players"))
            .found(plural(setup.players.len() as u32, "player", "players")));
        }
        let layout = board
            .omphalos
            .iter()
            .find(|(mi, _)| *mi == m)
            .map(|(_, l)| l.clone())
            .ok_or_else(|| {
                v(
                    r,
                    format!(
                        "the `{}` battlefield has no omphalos layout for the `{}` mode",
                        board.id, mode.id
                    ),
                )
                .expected("a battlefield with omphalos spots for this mode")
                .found(&board.id)
            })?;
        for p in 0..setup.players.len() {
            if board.deploy[(mode.side(p) as usize - 1).min(3)] == 0 {
                return Err(v(
                    r,
                    format!(
                        "the `{}` battlefield has no deployment area for side {}",
                        board.id,
                        mode.side(p)
                    ),
                )
                .expected(format!("deployment areas for {} sides", mode.sides))
                .found(&board.id));
            }
        }

        let mut slot = [NONE; MAXU];
        let mut units: Vec<Unit> = Vec::new();
        let mut players = Vec::new();
        for (p, ps) in setup.players.iter().enumerate() {
            let role = match mode.shape {
                Shape::Lone if p == 0 => "lone",
                Shape::Lone => "ally",
                _ => "player",
            };
            if let Some(given) = &ps.role
                && given != role
            {
                return Err(v(
                    r,
                    format!("in the `{}` mode {} plays the role `{role}`", mode.id, ps.name),
                )
                .expected(format!("role `{role}`"))
                .found(format!("role `{given}`")));
            }
            let mut god = NONE;
            let mut army = Vec::new();
            for (id, &n) in &ps.deck {
                let u = t.unit(id).ok_or_else(|| {
                    v(
                        r,
                        format!("{}'s army names `{id}`, which is no unit of the game", ps.name),
                    )
                    .expected("character or troop ids")
                    .found(id)
                })?;
                if n != 1 {
                    return Err(v(
                        r,
                        format!(
                            "{}'s army has {n} copies of `{id}`; each unit is one figure set",
                            ps.name
                        ),
                    )
                    .expected("1 copy")
                    .found(format!("{n} copies")));
                }
                if slot[u as usize] != NONE {
                    let other = &setup.players[units[slot[u as usize] as usize].owner as usize].name;
                    return Err(v(r, format!("`{id}` is in the armies of both {other} and {}", ps.name))
                        .expected("each unit in one army")
                        .found("two armies"));
                }
                if t.units[u as usize].cat == Cat::God {
                    if god != NONE {
                        return Err(v(r, format!("{} has two Gods", ps.name))
                            .expected("1 God")
                            .found("2 Gods"));
                    }
                    god = units.len() as u8;
                }
                slot[u as usize] = units.len() as u8;
                army.push(u);
                units.push(Unit {
                    def: u,
                    owner: p as u8,
                    at: OFF,
                    wounds: 0,
                    carry: false,
                });
            }
            let needs_god = mode.gods.contains(&(p as u8));
            if needs_god && god == NONE {
                return Err(v(r, format!("{} has no God", ps.name)).expected("1 God").found("none"));
            }
            if !needs_god && god != NONE {
                return Err(v(r, format!("in the `{}` mode player {} takes no God", mode.id, p + 1))
                    .expected("no God")
                    .found(self.t.units[units[god as usize].def as usize].id.clone()));
            }
            if mode.shape == Shape::Fixed {
                army.sort_unstable();
                let fixed = mode.armies.iter().any(|a| {
                    let mut a = a.clone();
                    a.sort_unstable();
                    a == army
                });
                if !fixed {
                    let show = |a: &[u8]| {
                        a.iter()
                            .map(|&u| t.units[u as usize].id.as_str())
                            .collect::<Vec<_>>()
                            .join(" + ")
                    };
                    return Err(v(
                        r,
                        format!("{} does not play one of the scenario's fixed armies", ps.name),
                    )
                    .expected(mode.armies.iter().map(|a| show(a)).collect::<Vec<_>>().join(" or "))
                    .found(show(&army)));
                }
            }
            let mut deck = [0u8; MAXC];
            for &u in &army {
                let d = &t.units[u as usize];
                deck[d.card as usize] += d.activation;
                deck[AOW as usize] += d.strategy;
            }
            let drawn = tally(t, &ps.draw).map_err(|id| {
                v(
                    r,
                    format!("{}'s opening draw names `{id}`, which is no card of the game", ps.name),
                )
                .expected("card ids: `art-of-war`, or a unit's activation card")
                .found(id)
            })?;
            if ps.draw.len() != mode.opening_draw as usize {
                return Err(v(
                    r,
                    format!(
                        "{} draws {} for the opening hand",
                        ps.name,
                        plural(ps.draw.len() as u32, "card", "cards")
                    ),
                )
                .expected(plural(mode.opening_draw as u32, "card", "cards"))
                .found(plural(ps.draw.len() as u32, "card", "cards")));
            }
            if let Some(c) = (0..MAXC).find(|&c| drawn[c] > deck[c]) {
                return Err(v(r, format!("{}'s deck cannot give the opening draw", ps.name))
                    .expected(format!("at most {} `{}` (the deck's copies)", deck[c], t.cards[c]))
                    .found(format!("{} drawn", drawn[c])));
            }
            let mut hand = drawn;
            hand[AOW as usize] += mode.opening_aow;
            for c in 0..MAXC {
                deck[c] -= drawn[c];
            }
            players.push(Player {
                hand,
                deck,
                discard: [0; MAXC],
                absorbed: 0,
                out: false,
                team: mode.team(p),
                side: mode.side(p),
                god,
            });
        }
        let mut s = State {
            names: setup.players.iter().map(|p| p.name.clone()).collect(),
            mode: m as u8,
            board: b as u8,
            players,
            units,
            slot,
            ground: [0; MAXA],
            reserve: mode.omphalos_cards.min(t.omphalos_copies),
            removed: 0,
            cycle_pos: 0,
            turn: 0,
            cycles: 0,
            t: Turn::NEW,
            winner: None,
        };
        for a in layout {
            s.ground[a as usize] += 1;
        }
        // Learning scenario: every unit starts on the battlefield.
        for (p, ps) in setup.players.iter().enumerate() {
            if mode.shape != Shape::Fixed {
                if let Some(id) = ps.start.keys().next() {
                    return Err(v(r, format!("{} places `{id}` at the start; in this mode units enter the battlefield with their first activation", ps.name))
                        .expected("no `start`")
                        .found("a `start` placement"));
                }
                continue;
            }
            for (id, area) in &ps.start {
                let sl = t.unit(id).map_or(NONE, |u| s.slot[u as usize]);
                if sl == NONE || s.units[sl as usize].owner as usize != p {
                    return Err(v(r, format!("{} places `{id}`, which is not in their army", ps.name))
                        .expected("a unit of the player's army")
                        .found(id));
                }
                let a = board.area(area).ok_or_else(|| {
                    v(
                        r,
                        format!("there is no area `{area}` on the `{}` battlefield", board.id),
                    )
                    .expected("an area id")
                    .found(area)
                })?;
                let here = s.units.iter().filter(|u| u.at == a).count();
                if here >= board.areas[a as usize].capacity as usize {
                    return Err(v(r, format!("area `{area}` is full"))
                        .expected(format!("at most {} units", board.areas[a as usize].capacity))
                        .found(format!("{} units", here + 1)));
                }
                s.units[sl as usize].at = a;
            }
            let zone: Vec<usize> = bits(board.deploy[(s.players[p].side as usize - 1).min(3)]).collect();
            let mut k = 0;
            for i in 0..s.units.len() {
                if s.units[i].owner as usize != p || s.units[i].at != OFF {
                    continue;
                }
                for _ in 0..zone.len() {
                    let a = zone[k % zone.len()];
                    k += 1;
                    let here = s.units.iter().filter(|u| u.at as usize == a).count();
                    if here < board.areas[a].capacity as usize {
                        s.units[i].at = a as u8;
                        break;
                    }
                }
                if s.units[i].at == OFF {
                    return Err(v(r, format!("{}'s units do not fit in the deployment areas", ps.name))
                        .expected("room for every unit")
                        .found("full deployment areas"));
                }
            }
        }
        Ok(s)
    }

    // ------------------------------------------------------------ helpers

    pub(super) fn slot_of(&self, s: &State, id: &str, rule: &'static str) -> Result<usize, Violation> {
        let sl = self.t.unit(id).map_or(NONE, |u| s.slot[u as usize]);
        if sl == NONE {
            return Err(v(rule, format!("`{id}` is not a unit of this game"))
                .expected(format!(
                    "one of {}",
                    s.units
                        .iter()
                        .map(|u| self.t.units[u.def as usize].id.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
                .found(id));
        }
        Ok(sl as usize)
    }

    fn area_of(&self, s: &State, id: &str, rule: &'static str) -> Result<u8, Violation> {
        let b = self.board(s);
        b.area(id).ok_or_else(|| {
            v(rule, format!("there is no area `{id}` on the `{}` battlefield", b.id))
                .expected("an area id of the battlefield")
                .found(id)
        })
    }

    pub(super) fn talents(&self, s: &State, slot: usize) -> u32 {
        let u = &s.units[slot];
        let d = &self.t.units[u.def as usize];
        if d.cat == Cat::Troop && u.wounds > 0 {
            0
        } else {
            d.talents
        }
    }

    pub(super) fn team(&self, s: &State, slot: usize) -> u8 {
        s.players[s.units[slot].owner as usize].team
    }

    /// The unit's current row with its troop bonuses.
    pub(super) fn row(&self, s: &State, slot: usize) -> tables::Row {
        let u = &s.units[slot];
        let d = &self.t.units[u.def as usize];
        if d.cat != Cat::Troop {
            return d.rows[(u.wounds as usize).min(d.rows.len() - 1)];
        }
        let mut r = d.rows[0];
        let left = d.figures.saturating_sub(u.wounds);
        let (mut att, mut def) = (0i32, 0i32);
        for &(f, a, dd) in &d.bonus {
            if left >= f {
                if a != 0 {
                    att = a as i32;
                }
                if dd != 0 {
                    def = dd as i32;
                }
            }
        }
        r.attack = (r.attack as i32 + att).clamp(0, 10) as u8;
        r.defense = (r.defense as i32 + def).clamp(0, 10) as u8;
        r
    }

    /// Units per area.
    pub(super) fn occupancy(&self, s: &State) -> [u8; MAXA] {
        let mut n = [0u8; MAXA];
        for u in &s.units {
            if u.on_board() {
                n[u.at as usize] += 1;
            }
        }
        n
    }

    /// Areas holding a unit of another team than `team`.
    pub(super) fn enemy_areas(&self, s: &State, team: u8) -> u32 {
        let mut m = 0;
        for (i, u) in s.units.iter().enumerate() {
            if u.on_board() && self.team(s, i) != team {
                m |= 1 << u.at;
            }
        }
        m
    }

    /// (another friendly unit here, a complete friendly troop here, a
    /// friendly unit with Reinforce here)
    fn company(&self, s: &State, slot: usize) -> (bool, bool, bool) {
        let at = s.units[slot].at;
        let team = self.team(s, slot);
        let (mut any, mut troop, mut reinforce) = (false, false, false);
        for (i, u) in s.units.iter().enumerate() {
            if i == slot || u.at != at || self.team(s, i) != team {
                continue;
            }
            any = true;
            let d = &self.t.units[u.def as usize];
            troop |= d.cat == Cat::Troop && u.wounds == 0;
            reinforce |= self.talents(s, i) & talent::REINFORCE != 0;
        }
        (any, troop, reinforce)
    }

    /// Whether an enemy with Block holds the unit in place.
    pub(super) fn blocked(&self, s: &State, slot: usize) -> bool {
        let u = &s.units[slot];
        if !u.on_board() || self.def(s, slot).flying || self.talents(s, slot) & talent::BLOCK != 0 {
            return false;
        }
        let team = self.team(s, slot);
        s.units
            .iter()
            .enumerate()
            .any(|(i, o)| o.at == u.at && self.team(s, i) != team && self.talents(s, i) & talent::BLOCK != 0)
    }

    fn can_enter(&self, s: &State, slot: usize, area: usize) -> bool {
        let free = self.def(s, slot).flying || self.talents(s, slot) & talent::CLIMB != 0;
        free || !self.terrain_on(s) || self.board(s).areas[area].terrain & terrain::NO_ENTRY == 0
    }

    /// Areas the unit can end a move of up to `steps` areas in (MB-6).
    pub(super) fn reach(&self, s: &State, slot: usize, steps: u8) -> u32 {
        let b = self.board(s);
        let u = &s.units[slot];
        if !u.on_board() || self.blocked(s, slot) {
            return 0;
        }
        let count = self.occupancy(s);
        let enemy = self.enemy_areas(s, self.team(s, slot));
        let cross = self.def(s, slot).flying || self.talents(s, slot) & talent::CLIMB != 0;
        let start = u.at as usize;
        let mut seen = 1u32 << start;
        let mut frontier = seen;
        let mut dest = 0;
        for _ in 0..steps {
            let mut next = 0;
            for a in bits(frontier) {
                if a != start && enemy & (1 << a) != 0 {
                    continue;
                }
                let mut n = b.adj[a] & !b.wall[a];
                if !cross {
                    n &= !b.escarpment[a];
                }
                next |= n;
            }
            next &= !seen;
            for a in bits(next) {
                if count[a] >= b.areas[a].capacity || !self.can_enter(s, slot, a) {
                    next &= !(1 << a);
                }
            }
            seen |= next;
            dest |= next;
            frontier = next;
            if frontier == 0 {
                break;
            }
        }
        dest
    }

    /// Reach, dice and defense of an attack (MB-7).
    pub(super) fn strike(&self, s: &State, a: usize, d: usize, power: Option<usize>) -> Result<Strike, Violation> {
        let r = "MB-7";
        let (ua, ud) = (&s.units[a], &s.units[d]);
        let (ida, idd) = (self.uid(s, a), self.uid(s, d));
        if ud.at == DEAD {
            return Err(v(
                "MB-9",
                format!("`{idd}` was destroyed: wounds never pass on, and it cannot be attacked"),
            )
            .expected("a target still on the battlefield")
            .found(format!("`{idd}` (destroyed)")));
        }
        if a == d || !ud.on_board() || self.team(s, a) == self.team(s, d) {
            return Err(
                v(r, format!("`{ida}` can only attack an enemy unit on the battlefield"))
                    .expected("an enemy unit on the battlefield")
                    .found(format!(
                        "`{idd}` ({})",
                        if a == d || self.team(s, a) == self.team(s, d) {
                            "a friendly unit".to_string()
                        } else {
                            area_name(self.board(s), ud.at)
                        }
                    )),
            );
        }
        let b = self.board(s);
        let (aa, da) = (ua.at as usize, ud.at as usize);
        let terrain_on = self.terrain_on(s);
        let da_ = &self.t.units[ua.def as usize];
        let row = self.row(s, a);
        let flying = da_.flying;
        let high_ground =
            (terrain_on && !flying && b.areas[aa].terrain & terrain::HIGH != 0) || b.high[aa] & (1 << da) != 0;
        let pw = power.map(|i| &da_.powers[i]);
        let range = match pw {
            Some(p) => p.range.unwrap_or(row.range),
            None => {
                let mut bonus = 0;
                if terrain_on && !flying && b.areas[aa].terrain & terrain::HIGH != 0 {
                    bonus += 1;
                }
                if b.high[aa] & (1 << da) != 0 {
                    bonus += 1;
                }
                row.range + bonus.min(2)
            }
        };
        let count = self.occupancy(s);
        let dist = b.dist[aa][da];
        let melee = if aa == da {
            true
        } else if dist == 1 && count[da] >= b.areas[da].capacity {
            // A full area the attacker cannot enter: +1 range, melee.
            true
        } else {
            if range == 0 {
                return Err(v(r, format!("`{ida}` has range 0: it attacks only in its own area"))
                    .expected(format!("a target in `{}`", b.areas[aa].id))
                    .found(format!(
                        "`{idd}` in `{}`, {} away",
                        b.areas[da].id,
                        plural(dist as u32, "area", "areas")
                    )));
            }
            if dist > range {
                return Err(v(r, format!("`{idd}` is out of `{ida}`'s range"))
                    .expected(format!(
                        "a target at most {} away",
                        plural(range as u32, "area", "areas")
                    ))
                    .found(plural(dist as u32, "area", "areas")));
            }
            let sight = pw.is_none_or(|p| p.sight);
            if sight && !flying && !high_ground {
                let mut blocking = 0u32;
                for i in 0..b.areas.len() {
                    if count[i] > 0 || (terrain_on && b.areas[i].terrain & terrain::SIGHT != 0) {
                        blocking |= 1 << i;
                    }
                }
                if let Some(x) = bits(b.between[aa][da] & blocking).next() {
                    return Err(v(
                        r,
                        format!(
                            "the line of sight from `{}` to `{}` is blocked",
                            b.areas[aa].id, b.areas[da].id
                        ),
                    )
                    .expected("a clear line of sight (no units or 3D terrain in between)")
                    .found(format!(
                        "`{}` in between ({})",
                        b.areas[x].id,
                        if count[x] > 0 { "units" } else { "3D terrain" }
                    )));
                }
            }
            false
        };
        // Dice.
        let dice = match pw {
            Some(_) => row.power,
            None => {
                let ta = self.talents(s, a);
                let (friend, troop, reinforce) = self.company(s, a);
                let mut m = 0i32;
                if ta & talent::DIRECT_COMBAT != 0 && melee {
                    m += 1;
                }
                if ta & talent::ARCHER != 0 && !melee {
                    m += 1;
                }
                if ta & talent::SURPRISE_ATTACK != 0 && friend {
                    m += 1;
                }
                if ta & talent::PHALANX != 0 && troop {
                    m += 1;
                }
                if da_.cat == Cat::Troop && reinforce {
                    m += 1;
                }
                if high_ground {
                    m += 1;
                }
                stat(row.attack, m)
            }
        };
        // Defense.
        let td = self.talents(s, d);
        let (friend, troop, reinforce) = self.company(s, d);
        let mut m = 0i32;
        if td & talent::ESCORT != 0 && friend {
            m += 1;
        }
        if td & talent::PHALANX != 0 && troop {
            m += 1;
        }
        if self.def(s, d).cat == Cat::Troop && reinforce {
            m += 1;
        }
        let ta = self.talents(s, a);
        if ta & talent::HARASS != 0 && melee && pw.is_none() {
            m -= 1;
        }
        if ta & talent::STORM != 0 && aa == da {
            m -= 1;
        }
        if terrain_on && !self.def(s, d).flying {
            let tt = b.areas[da].terrain;
            if tt & terrain::COVER_RANGED != 0 && (!melee || flying) {
                m += 1;
            }
            if tt & terrain::COVER_SAME != 0 && aa == da {
                m += 1;
            }
            if tt & terrain::EXPOSED != 0 && !melee {
                m -= 1;
            }
        }
        Ok(Strike {
            melee,
            dice,
            defense: stat(self.row(s, d).defense, m),
        })
    }

    /// The attack roll against a strike (MB-8).
    fn check_roll(&self, who: &str, st: Strike, roll: &[u8], reroll: &[u8], hits: u8) -> Result<(), Violation> {
        let r = "MB-8";
        if roll.len() != st.dice as usize {
            return Err(v(r, format!("`{who}` rolls {} dice", st.dice))
                .expected(plural(st.dice as u32, "die", "dice"))
                .found(plural(roll.len() as u32, "die", "dice")));
        }
        match max_successes(roll, reroll, st.defense) {
            Err(RollError::Face(f)) => Err(v(r, "a die shows a blank (0) or 1 to 5")
                .expected("faces 0 (blank) to 5")
                .found(format!("a {f}"))),
            Err(RollError::Rerolls { asked, possible }) => Err(v(
                r,
                "only dice worth 5 (naturally or with set-aside dice) are rerolled",
            )
            .expected(format!(
                "at most {} from this roll",
                plural(possible as u32, "reroll", "rerolls")
            ))
            .found(plural(asked as u32, "reroll", "rerolls"))),
            Ok(max) if hits > max => Err(v(
                r,
                format!(
                    "these dice cannot give {} against defense {}",
                    plural(hits as u32, "success", "successes"),
                    st.defense
                ),
            )
            .expected(format!("at most {}", plural(max as u32, "success", "successes")))
            .found(plural(hits as u32, "success", "successes"))),
            Ok(_) => Ok(()),
        }
    }

    /// Activation cards a player may discard in pairs instead of an Art of War card.
    pub(super) fn spare_cards(&self, s: &State, p: usize) -> [bool; MAXC] {
        let lone = self.mode(s).shape == Shape::Lone;
        let godless = s.players[p].god == NONE;
        let mut ok = [false; MAXC];
        for u in s.units.iter().filter(|u| u.owner as usize == p) {
            let d = &self.t.units[u.def as usize];
            let dead = !u.alive();
            let fits = match d.cat {
                Cat::Hero | Cat::Monster => dead,
                Cat::Troop => lone && godless,
                Cat::God => lone && dead,
            };
            ok[d.card as usize] |= fits;
        }
        ok
    }

    /// Cards a payment of `cost` Art of War cards discards (MB-4).
    pub(super) fn check_pay(
        &self,
        s: &State,
        p: usize,
        hand: &[u8; MAXC],
        cost: u8,
        pay: &[String],
        rule: &'static str,
    ) -> Result<[u8; MAXC], Violation> {
        let mut out = tally(&self.t, pay).map_err(|id| {
            v(rule, format!("`{id}` is no card of the game"))
                .expected("`art-of-war`, `omphalos` or activation cards")
                .found(id)
        })?;
        if cost == 0 {
            if !pay.is_empty() {
                return Err(v(rule, "nothing is paid here")
                    .expected("no `pay`")
                    .found(format!("{} paid", plural(pay.len() as u32, "card", "cards"))));
            }
            return Ok(out);
        }
        let spare = self.spare_cards(s, p);
        let mut pairs = 0u32;
        for (c, &n) in out.iter().enumerate().skip(2) {
            if n > 0 && !spare[c] {
                return Err(v(
                    rule,
                    format!("`{}` cannot stand in for an Art of War card", self.t.cards[c]),
                )
                .expected("2 activation cards of destroyed heroes or monsters per Art of War card")
                .found(format!("`{}`", self.t.cards[c])));
            }
            pairs += n as u32;
        }
        if pairs % 2 == 1 {
            return Err(
                v(rule, "activation cards stand in for an Art of War card two at a time")
                    .expected("an even number of activation cards")
                    .found(plural(pairs, "activation card", "activation cards")),
            );
        }
        let value = out[AOW as usize] as u32 + out[OMPH as usize] as u32 + pairs / 2;
        if value > cost as u32 {
            return Err(v(rule, "the payment is more than the cost")
                .expected(plural(cost as u32, "Art of War card", "Art of War cards"))
                .found(format!("{value} cards' worth")));
        }
        out[AOW as usize] += (cost as u32 - value) as u8;
        if let Some(c) = (0..MAXC).find(|&c| out[c] > hand[c]) {
            let need = if c == AOW as usize {
                plural(out[c] as u32, "Art of War card", "Art of War cards")
            } else {
                format!("{} × `{}`", out[c], self.t.cards[c])
            };
            return Err(v(
                rule,
                format!("{} cannot pay: the hand lacks the cards", self.name(s, p)),
            )
            .expected(format!("{need} in hand"))
            .found(format!("{} in hand", hand[c])));
        }
        Ok(out)
    }

    /// Drawing `n` cards, with a new battle cycle when the deck is short (MB-2).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn check_draw(
        &self,
        s: &State,
        pl: &Player,
        p: usize,
        n: u32,
        cards: &[String],
        others: &BTreeMap<String, Vec<String>>,
        rule: &'static str,
    ) -> Result<(), Violation> {
        let c = tally(&self.t, cards).map_err(|id| {
            v(rule, format!("`{id}` is no card of the game"))
                .expected("card ids of the player's deck")
                .found(id)
        })?;
        let deck_total = total(&pl.deck);
        if deck_total >= n {
            if cards.len() as u32 != n {
                return Err(v(
                    rule,
                    format!("{} draws {}", self.name(s, p), plural(n, "card", "cards")),
                )
                .expected(plural(n, "card", "cards"))
                .found(plural(cards.len() as u32, "card", "cards")));
            }
            if let Some(x) = (0..MAXC).find(|&x| c[x] > pl.deck[x]) {
                return Err(v(rule, format!("the deck has no more `{}`", self.t.cards[x]))
                    .expected(format!("at most {} × `{}`", pl.deck[x], self.t.cards[x]))
                    .found(format!("{} drawn", c[x])));
            }
            if let Some(name) = others.keys().next() {
                return Err(v(rule, "the deck has enough cards: no new battle cycle")
                    .expected("no `others`")
                    .found(format!("cards for {name}")));
            }
            return Ok(());
        }
        // A new battle cycle: the rest of the deck, then the reshuffled
        // discard pile for the missing cards and the extra ones.
        let extra = self.mode(s).reshuffle as u32;
        let want = deck_total + (n - deck_total + extra).min(total(&pl.discard));
        if cards.len() as u32 != want {
            return Err(v(rule, format!(
                "{}'s deck runs out: a new battle cycle draws the {} left, then {} from the reshuffled discard pile",
                self.name(s, p),
                deck_total,
                want - deck_total
            ))
            .expected(plural(want, "card", "cards"))
            .found(plural(cards.len() as u32, "card", "cards")));
        }
        for x in 0..MAXC {
            if c[x] < pl.deck[x] || c[x] - pl.deck[x] > pl.discard[x] {
                return Err(v(
                    rule,
                    format!(
                        "`{}` cannot be drawn that many times in this battle cycle",
                        self.t.cards[x]
                    ),
                )
                .expected(format!(
                    "{} from the old deck and at most {} from the discard pile",
                    pl.deck[x], pl.discard[x]
                ))
                .found(format!("{} drawn", c[x])));
            }
        }
        for name in others.keys() {
            let known = s.names.iter().position(|x| x == name);
            if known.is_none_or(|q| q == p || s.players[q].out) {
                return Err(v(rule, format!("`{name}` is not another player in the game"))
                    .expected("the names of the other players")
                    .found(name));
            }
        }
        for (q, o) in s.players.iter().enumerate() {
            if q == p || o.out {
                continue;
            }
            let name = self.name(s, q);
            let got: &[String] = others.get(name).map_or(&[], Vec::as_slice);
            let want = extra.min(total(&o.discard));
            if got.len() as u32 != want {
                return Err(v(
                    rule,
                    format!(
                        "in the new battle cycle {name} reshuffles and draws {}",
                        plural(want, "card", "cards")
                    ),
                )
                .expected(format!("{} for {name} in `others`", plural(want, "card", "cards")))
                .found(plural(got.len() as u32, "card", "cards")));
            }
            let oc = tally(&self.t, got).map_err(|id| {
                v(rule, format!("`{id}` is no card of the game"))
                    .expected("card ids")
                    .found(id)
            })?;
            if !within(&oc, &o.discard) {
                return Err(v(
                    rule,
                    format!("{name}'s new deck (the old discard pile) does not hold those cards"),
                )
                .expected("cards from their discard pile")
                .found(got.join(", ")));
            }
        }
        Ok(())
    }

    fn current(&self, s: &State, slot: usize) -> Result<(), Violation> {
        if s.t.act.unit as usize != slot {
            let now = if s.t.act.unit == NONE {
                "no unit is active".to_string()
            } else {
                format!("`{}` is active", self.uid(s, s.t.act.unit as usize))
            };
            return Err(
                v("MB-5", format!("`{}` acts without being activated", self.uid(s, slot)))
                    .expected(format!("an `activate` of `{}` first", self.uid(s, slot)))
                    .found(now),
            );
        }
        Ok(())
    }

    fn simple_ok(&self, s: &State, slot: usize, kind: u8) -> Result<(), Violation> {
        let r = "MB-5";
        let act = &s.t.act;
        let id = self.uid(s, slot);
        if s.units[slot].at == OFF {
            return Err(v(
                r,
                format!("`{id}` is not on the battlefield: its first activation enters it"),
            )
            .expected("`enter`")
            .found("a simple action of a unit off the battlefield"));
        }
        if act.special {
            return Err(v(
                r,
                format!("`{id}` took a special action: its activation does nothing else"),
            )
            .expected("a new activation or the end of the turn")
            .found("another action"));
        }
        let done = act.simple | if act.attacks > 0 { ATTACK } else { 0 };
        let name = |k: u8| match k {
            MOVE => "move",
            ATTACK => "attack",
            _ => "pick-up",
        };
        if done & kind != 0 {
            return Err(v(r, format!("`{id}` already made a {} in this activation", name(kind)))
                .expected("2 different simple actions")
                .found(format!("a second {}", name(kind))));
        }
        if done.count_ones() >= 2 {
            return Err(v(r, format!("`{id}` already took 2 simple actions"))
                .expected("at most 2 simple actions per activation")
                .found("a third one"));
        }
        if kind == MOVE && act.attacks > 0 && self.talents(s, slot) & talent::MOBILITY == 0 {
            return Err(v(
                r,
                format!("`{id}` attacked: it may not move afterwards without Mobility"),
            )
            .expected("no move after an attack")
            .found("a move after the attack"));
        }
        Ok(())
    }

    fn fresh(&self, s: &State, slot: usize, what: &str) -> Result<(), Violation> {
        let act = &s.t.act;
        if act.special || act.simple != 0 || act.attacks > 0 {
            return Err(v(
                "MB-5",
                format!("{what} is a special action: the only action of an activation"),
            )
            .expected("a special action first and alone")
            .found(format!("`{}` has already acted", self.uid(s, slot))));
        }
        Ok(())
    }

    fn move_ok(&self, s: &State, slot: usize, to: u8, steps: u8) -> Result<(), Violation> {
        let r = "MB-6";
        let b = self.board(s);
        let id = self.uid(s, slot);
        let at = s.units[slot].at;
        if to == at {
            return Err(v(r, format!("`{id}` is already in `{}`", b.areas[to as usize].id))
                .expected("another area")
                .found(b.areas[to as usize].id.clone()));
        }
        if self.blocked(s, slot) {
            return Err(v(
                r,
                format!("an enemy with Block holds `{id}` in `{}`", b.areas[at as usize].id),
            )
            .expected("no move")
            .found(format!("a move to `{}`", b.areas[to as usize].id)));
        }
        if self.reach(s, slot, steps) & (1 << to) == 0 {
            let count = self.occupancy(s);
            let why = if count[to as usize] >= b.areas[to as usize].capacity {
                format!(
                    "`{}` is full ({} units, capacity {})",
                    b.areas[to as usize].id, count[to as usize], b.areas[to as usize].capacity
                )
            } else if !self.can_enter(s, slot, to as usize) {
                format!("`{}` cannot be entered (terrain)", b.areas[to as usize].id)
            } else if b.dist[at as usize][to as usize] > steps {
                format!(
                    "`{}` is {} away",
                    b.areas[to as usize].id,
                    plural(b.dist[at as usize][to as usize] as u32, "area", "areas")
                )
            } else {
                format!(
                    "every way to `{}` within {} passes through an area with an enemy, a full area or a closed border",
                    b.areas[to as usize].id,
                    plural(steps as u32, "step", "steps")
                )
            };
            return Err(v(
                r,
                format!(
                    "`{id}` cannot reach `{}` from `{}`",
                    b.areas[to as usize].id, b.areas[at as usize].id
                ),
            )
            .expected(format!(
                "an area within {} (stopping at enemies, never entering full areas)",
                plural(steps as u32, "step", "steps")
            ))
            .found(why));
        }
        Ok(())
    }

    fn power_of(&self, s: &State, slot: usize, name: Option<&str>, rule: &'static str) -> Result<usize, Violation> {
        let d = self.def(s, slot);
        let list = || d.powers.iter().map(|p| p.slug.as_str()).collect::<Vec<_>>().join(", ");
        match name {
            Some(n) => d.powers.iter().position(|p| p.slug == n).ok_or_else(|| {
                v(rule, format!("`{}` has no power `{n}`", d.id))
                    .expected(if d.powers.is_empty() {
                        "none".into()
                    } else {
                        format!("one of {}", list())
                    })
                    .found(n)
            }),
            None => {
                let usable: Vec<usize> = (0..d.powers.len())
                    .filter(|&i| matches!(d.powers[i].kind, PowerKind::Active | PowerKind::Permanent))
                    .collect();
                if usable.len() == 1 {
                    Ok(usable[0])
                } else {
                    Err(v(rule, format!("which power of `{}`?", d.id))
                        .expected(if d.powers.is_empty() {
                            "a unit with a power".into()
                        } else {
                            format!("`power:` one of {}", list())
                        })
                        .found("no `power`"))
                }
            }
        }
    }

    // ------------------------------------------------------------ validate

    /// Validation; with `chance` false the recorded chance results (cards
    /// drawn, dice, the card searched) are not looked at.
    pub(super) fn check(&self, s: &State, a: &Action, chance: bool) -> Result<(), Violation> {
        if let Some((_, reason)) = s.winner {
            return Err(v("MB-13", format!("the game is already over ({reason})"))
                .expected("no more actions")
                .found(what(a)));
        }
        let p = self.to_move(s);
        let t = &s.t;
        if !t.drawn && !matches!(a, Action::Draw { .. }) {
            return Err(v("MB-2", format!("{}'s turn starts with the draw", self.name(s, p)))
                .expected("`draw` first")
                .found(what(a)));
        }
        if t.called && *a != Action::EndTurn {
            return Err(v(
                "MB-11",
                "the troop is called at the end of the turn: nothing follows the call",
            )
            .expected("the end of the turn")
            .found(what(a)));
        }
        if t.rested && !matches!(a, Action::EndTurn | Action::CallTroop { .. }) {
            return Err(v(
                "MB-12",
                "the extra card of a turn without activations is drawn at the end of the turn",
            )
            .expected("the end of the turn (or calling a troop)")
            .found(what(a)));
        }
        match a {
            Action::Draw { cards, others } => {
                if t.drawn {
                    return Err(v("MB-2", format!("{} already drew this turn", self.name(s, p)))
                        .expected("1 draw per turn")
                        .found("a second draw"));
                }
                if !chance {
                    return Ok(());
                }
                self.check_draw(s, &s.players[p], p, 1, cards, others, "MB-2")
            }
            Action::Rest { cards, others } => {
                if t.activations > 0 {
                    return Err(v("MB-12", "only a turn without activations earns the extra card")
                        .expected("no activation this turn")
                        .found(plural(t.activations as u32, "activation", "activations")));
                }
                if !chance {
                    return Ok(());
                }
                self.check_draw(s, &s.players[p], p, 1, cards, others, "MB-12")
            }
            Action::DrawTwo { cards, others, pay } => {
                if t.manoeuvres & DRAW_TWO != 0 {
                    return Err(v("MB-4", "each manoeuvre is done at most once per turn")
                        .expected("1 draw-two per turn")
                        .found("a second draw-two"));
                }
                let out = self.check_pay(s, p, &s.players[p].hand, 1, pay, "MB-4")?;
                if !chance {
                    return Ok(());
                }
                let mut pl = s.players[p].clone();
                pay_cards(&mut pl, &out);
                self.check_draw(s, &pl, p, 2, cards, others, "MB-4")
            }
            Action::Search { card, pay } => {
                if t.manoeuvres & SEARCH != 0 {
                    return Err(v("MB-4", "each manoeuvre is done at most once per turn")
                        .expected("1 search per turn")
                        .found("a second search"));
                }
                self.check_pay(s, p, &s.players[p].hand, 1, pay, "MB-4")?;
                if total(&s.players[p].deck) == 0 {
                    return Err(v("MB-4", "the deck is empty: there is nothing to search for")
                        .expected("a card in the deck")
                        .found("an empty deck"));
                }
                if !chance {
                    return Ok(());
                }
                let c = self.t.card(card).map_or(usize::MAX, |c| c as usize);
                if c == usize::MAX || s.players[p].deck[c] == 0 {
                    return Err(v("MB-4", format!("the deck holds no `{card}`"))
                        .expected("a card still in the deck")
                        .found(card.clone()));
                }
                Ok(())
            }
            Action::CallTroop { troop, pay } => {
                let r = "MB-11";
                let pl = &s.players[p];
                if pl.god == NONE || !s.units[pl.god as usize].on_board() {
                    return Err(v(
                        r,
                        format!("{} has no God on the battlefield to call a troop to", self.name(s, p)),
                    )
                    .expected("a God on the battlefield")
                    .found(if pl.god == NONE {
                        "no God".into()
                    } else {
                        area_name(self.board(s), s.units[pl.god as usize].at)
                    }));
                }
                let sl = self.slot_of(s, troop, r)?;
                if s.units[sl].owner as usize != p || self.def(s, sl).cat != Cat::Troop {
                    return Err(v(r, format!("`{troop}` is not a troop of {}", self.name(s, p)))
                        .expected("one of the player's troops")
                        .found(format!("`{troop}`")));
                }
                if s.units[sl].at == GONE {
                    return Err(v(r, format!("`{troop}` left the game"))
                        .expected("a troop still in the game")
                        .found("gone"));
                }
                self.check_pay(s, p, &s.players[p].hand, 1, pay, r).map(|_| ())
            }
            Action::Activate { unit, card, pay } => {
                let r = "MB-3";
                let sl = self.slot_of(s, unit, r)?;
                let u = &s.units[sl];
                if u.owner as usize != p {
                    return Err(v(r, format!("`{unit}` belongs to {}", self.name(s, u.owner as usize)))
                        .expected(format!("a unit of {}", self.name(s, p)))
                        .found(format!("`{unit}`")));
                }
                if u.at == DEAD {
                    return Err(v("MB-9", format!("`{unit}` was destroyed: it left the battlefield"))
                        .expected("a unit still in the game")
                        .found(format!("`{unit}` (destroyed)")));
                }
                if !u.alive() {
                    return Err(v(r, format!("`{unit}` is {}", area_name(self.board(s), u.at)))
                        .expected("a unit still in the game")
                        .found(format!("`{unit}`")));
                }
                if t.activated & (1 << sl) != 0 {
                    return Err(v(r, format!("`{unit}` was already activated this turn"))
                        .expected("a different unit each activation")
                        .found(format!("`{unit}` again")));
                }
                let cap = self.mode(s).max_activations + t.extra;
                if t.activations >= cap {
                    return Err(v(
                        r,
                        format!(
                            "{} already activated {}",
                            self.name(s, p),
                            plural(t.activations as u32, "unit", "units")
                        ),
                    )
                    .expected(format!("at most {} per turn", plural(cap as u32, "unit", "units")))
                    .found(format!("activation number {}", t.activations + 1)));
                }
                let c = self.paid_card(s, sl, card.as_deref(), unit, r, "does not activate")?;
                if s.players[p].hand[c] == 0 {
                    return Err(v(r, format!("activating `{unit}` takes one of its activation cards"))
                        .expected(format!("a `{}` card in hand", self.t.cards[c]))
                        .found("none in hand"));
                }
                let mut hand = s.players[p].hand;
                hand[c] -= 1;
                let second = t.activations == 1;
                if second {
                    self.check_pay(s, p, &hand, 1, pay, r).map_err(|e| {
                        if pay.is_empty() {
                            v(r, "the second activation of a turn also costs an Art of War card")
                                .expected(e.expected)
                                .found(e.found)
                        } else {
                            e
                        }
                    })?;
                } else if !pay.is_empty() {
                    return Err(v(
                        r,
                        "only the second activation of a turn is paid with an Art of War card",
                    )
                    .expected("no `pay`")
                    .found(plural(pay.len() as u32, "card", "cards")));
                }
                Ok(())
            }
            _ => self.check_unit_action(s, p, a, chance),
        }
    }
}

/// Moves paid cards from hand to discard pile.
pub(super) fn pay_cards(pl: &mut Player, out: &[u8; MAXC]) {
    for c in 0..MAXC {
        pl.hand[c] -= out[c];
        pl.discard[c] += out[c];
    }
}

impl Mythic {
    /// The card paid for activating (or counter-attacking with) the unit in
    /// `slot`: its own activation card unless the log names an omphalos card.
    fn paid_card(
        &self,
        s: &State,
        slot: usize,
        card: Option<&str>,
        unit: &str,
        rule: &'static str,
        refusal: &str,
    ) -> Result<usize, Violation> {
        let own = self.def(s, slot).card as usize;
        match card {
            None => Ok(own),
            Some(id) => match self.t.card(id) {
                Some(c) if c as usize == own || c == OMPH => Ok(c as usize),
                _ => Err(v(rule, format!("`{id}` {refusal} `{unit}`"))
                    .expected(format!("`{}` or `omphalos`", self.t.cards[own]))
                    .found(id)),
            },
        }
    }

    /// Actions of the activated unit, counters, powers and the end of turn.
    fn check_unit_action(&self, s: &State, p: usize, a: &Action, chance: bool) -> Result<(), Violation> {
        let t = &s.t;
        match a {
            Action::Enter { unit, to } => {
                let sl = self.slot_of(s, unit, "MB-5")?;
                self.current(s, sl)?;
                if s.units[sl].at != OFF {
                    return Err(v("MB-5", format!("`{unit}` is already on the battlefield"))
                        .expected("`enter` only for a unit off the battlefield")
                        .found(format!("`{unit}` in `{}`", area_name(self.board(s), s.units[sl].at))));
                }
                let to = self.area_of(s, to, "MB-5")?;
                let b = self.board(s);
                let side = s.players[p].side;
                if b.deploy[(side as usize - 1).min(3)] & (1 << to) == 0 {
                    return Err(v(
                        "MB-5",
                        format!("`{unit}` enters the battlefield in a deployment area of side {side}"),
                    )
                    .expected(format!(
                        "one of {}",
                        bits(b.deploy[(side as usize - 1).min(3)])
                            .map(|i| b.areas[i].id.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ))
                    .found(b.areas[to as usize].id.clone()));
                }
                let count = self.occupancy(s)[to as usize];
                if count >= b.areas[to as usize].capacity {
                    return Err(v("MB-6", format!("`{}` is full", b.areas[to as usize].id))
                        .expected(format!("at most {} units (capacity)", b.areas[to as usize].capacity))
                        .found(format!("{} units already there", count)));
                }
                if !self.can_enter(s, sl, to as usize) {
                    return Err(v(
                        "MB-6",
                        format!("`{unit}` cannot enter `{}` (terrain)", b.areas[to as usize].id),
                    )
                    .expected("an area the unit may enter")
                    .found(b.areas[to as usize].id.clone()));
                }
                Ok(())
            }
            Action::Move { unit, to } => {
                let sl = self.slot_of(s, unit, "MB-5")?;
                self.current(s, sl)?;
                self.simple_ok(s, sl, MOVE)?;
                let to = self.area_of(s, to, "MB-6")?;
                self.move_ok(s, sl, to, self.row(s, sl).movement)
            }
            Action::Run { unit, to } => {
                let sl = self.slot_of(s, unit, "MB-5")?;
                self.current(s, sl)?;
                if !s.units[sl].on_board() {
                    return Err(v(
                        "MB-5",
                        format!("`{unit}` is not on the battlefield: its first activation enters it"),
                    )
                    .expected("`enter`")
                    .found("a run"));
                }
                self.fresh(s, sl, "a run")?;
                let to = self.area_of(s, to, "MB-6")?;
                self.move_ok(s, sl, to, self.row(s, sl).movement + 1)
            }
            Action::Leave { unit } => {
                let sl = self.slot_of(s, unit, "MB-5")?;
                self.current(s, sl)?;
                self.simple_ok(s, sl, MOVE)?;
                let b = self.board(s);
                if self.mode(s).shape != Shape::Lone || self.def(s, sl).cat == Cat::God {
                    return Err(v(
                        "MB-6",
                        "only units other than Gods leave the battlefield, and only in the 3 vs 1 mode",
                    )
                    .expected("a unit staying on the battlefield")
                    .found(format!("`{unit}` leaving")));
                }
                if self.blocked(s, sl) {
                    return Err(v("MB-6", format!("an enemy with Block holds `{unit}`"))
                        .expected("no move")
                        .found("leaving"));
                }
                if b.edge & (1 << s.units[sl].at) == 0 {
                    return Err(v("MB-6", format!("`{unit}` is not at the edge of the battlefield"))
                        .expected("a deployment area (the board's edge)")
                        .found(area_name(b, s.units[sl].at)));
                }
                Ok(())
            }
            Action::Attack {
                unit,
                target,
                power,
                pay,
                roll,
                reroll,
                hits,
                ..
            } => {
                let sl = self.slot_of(s, unit, "MB-5")?;
                self.current(s, sl)?;
                let d = self.slot_of(s, target, "MB-7")?;
                let pi = match power {
                    Some(n) => {
                        let i = self.power_of(s, sl, Some(n), "MB-5")?;
                        if self.def(s, sl).powers[i].kind != PowerKind::Special {
                            return Err(v("MB-5", format!("`{n}` is not a special attack"))
                                .expected("a special-attack power")
                                .found(n.clone()));
                        }
                        Some(i)
                    }
                    None => None,
                };
                let act = &t.act;
                if act.attacks == 0 {
                    self.simple_ok(s, sl, ATTACK)?;
                } else {
                    let again = match pi {
                        Some(i) => act.power == i as u8 && act.attacks < self.def(s, sl).powers[i].attacks,
                        None => act.power == NONE && act.attacks < act.max_attacks,
                    };
                    if act.special || !again {
                        return Err(v("MB-5", format!("`{unit}` already attacked in this activation"))
                            .expected("1 attack per activation (more only with a power)")
                            .found(format!("attack number {}", act.attacks + 1)));
                    }
                    if act.targets & (1 << d) != 0 {
                        return Err(v(
                            "MB-5",
                            format!("`{unit}` already attacked `{target}` in this activation"),
                        )
                        .expected("a different unit for each attack")
                        .found(format!("`{target}` again")));
                    }
                }
                let cost = match pi {
                    Some(i) if act.power != i as u8 => {
                        let pw = &self.def(s, sl).powers[i];
                        if pw.cost > 0 && t.powers & (1u128 << (sl * 4 + i)) != 0 {
                            return Err(v("MB-4", format!("`{}` was already used this turn", pw.slug))
                                .expected("each power at most once per turn")
                                .found("a second use"));
                        }
                        pw.cost
                    }
                    _ => 0,
                };
                self.check_pay(s, p, &s.players[p].hand, cost, pay, "MB-4")?;
                let st = self.strike(s, sl, d, pi)?;
                if !chance {
                    return Ok(());
                }
                self.check_roll(unit, st, roll, reroll, *hits)
            }
            Action::Counter {
                unit,
                card,
                roll,
                reroll,
                hits,
            } => {
                let r = "MB-10";
                let Some((att, def)) = t.pending else {
                    return Err(v(r, "a counter-attack answers a melee attack right after it")
                        .expected("a melee attack just before")
                        .found(what(a)));
                };
                let sl = self.slot_of(s, unit, r)?;
                if sl != def as usize {
                    return Err(v(
                        r,
                        format!(
                            "only `{}`, the unit just attacked, may counter-attack",
                            self.uid(s, def as usize)
                        ),
                    )
                    .expected(format!("a counter by `{}`", self.uid(s, def as usize)))
                    .found(format!("a counter by `{unit}`")));
                }
                if t.countered & (1 << sl) != 0 {
                    return Err(v(r, format!("`{unit}` already counter-attacked this turn"))
                        .expected("1 counter-attack per unit per turn")
                        .found("a second one"));
                }
                let (ua, ud) = (&s.units[att as usize], &s.units[sl]);
                if !ua.on_board() || ud.at != ua.at {
                    return Err(v(r, format!("`{unit}` is no longer in its attacker's area"))
                        .expected("both units in the same area")
                        .found(format!(
                            "`{}` {}",
                            self.uid(s, att as usize),
                            area_name(self.board(s), ua.at)
                        )));
                }
                let q = ud.owner as usize;
                let c = self.paid_card(s, sl, card.as_deref(), unit, r, "is not an activation card of")?;
                if s.players[q].hand[c] == 0 {
                    return Err(v(
                        r,
                        format!(
                            "{} must discard an activation card of `{unit}` to counter-attack",
                            self.name(s, q)
                        ),
                    )
                    .expected(format!("a `{}` card in hand", self.t.cards[c]))
                    .found("none in hand"));
                }
                let st = self.strike(s, sl, att as usize, None)?;
                if !chance {
                    return Ok(());
                }
                self.check_roll(unit, st, roll, reroll, *hits)
            }
            Action::PickUp { unit, from } => {
                let sl = self.slot_of(s, unit, "MB-5")?;
                self.current(s, sl)?;
                self.simple_ok(s, sl, PICK)?;
                let at = s.units[sl].at;
                if s.units[sl].carry {
                    return Err(v("MB-5", format!("`{unit}` already carries an omphalos"))
                        .expected("at most 1 omphalos per unit")
                        .found("a second one"));
                }
                if self.blocked(s, sl) {
                    return Err(v("MB-5", format!("an enemy with Block keeps `{unit}` from picking up"))
                        .expected("no pick-up")
                        .found("a pick-up"));
                }
                let from_area = match from {
                    None => at,
                    Some(id) => {
                        let f = self.area_of(s, id, "MB-5")?;
                        let b = self.board(s);
                        let gem = self.talents(s, sl) & talent::GEM_COLLECTOR != 0;
                        if f != at && !(gem && b.adj[at as usize] & (1 << f) != 0) {
                            return Err(v(
                                "MB-5",
                                format!("`{unit}` picks up only in its own area (adjacent ones with Gem Collector)"),
                            )
                            .expected(format!("`{}`", b.areas[at as usize].id))
                            .found(id.clone()));
                        }
                        f
                    }
                };
                if s.ground[from_area as usize] == 0 {
                    return Err(v(
                        "MB-5",
                        format!(
                            "there is no omphalos on the ground in `{}`",
                            self.board(s).areas[from_area as usize].id
                        ),
                    )
                    .expected("an omphalos to pick up")
                    .found("none"));
                }
                Ok(())
            }
            Action::Drop { unit } => {
                let sl = self.slot_of(s, unit, "MB-5")?;
                self.current(s, sl)?;
                if !s.units[sl].carry {
                    return Err(v("MB-5", format!("`{unit}` carries no omphalos"))
                        .expected("a carried omphalos")
                        .found("none"));
                }
                Ok(())
            }
            Action::Absorb { unit, from } => {
                let sl = self.slot_of(s, unit, "MB-5")?;
                self.current(s, sl)?;
                if self.def(s, sl).cat != Cat::God {
                    return Err(v(
                        "MB-5",
                        format!(
                            "only Gods absorb omphalos; `{unit}` is a {}",
                            self.def(s, sl).cat.name()
                        ),
                    )
                    .expected("a God")
                    .found(format!("`{unit}`")));
                }
                if !s.units[sl].on_board() {
                    return Err(v("MB-5", format!("`{unit}` is not on the battlefield"))
                        .expected("`enter`")
                        .found("an absorb"));
                }
                self.fresh(s, sl, "absorbing")?;
                let at = s.units[sl].at;
                match from {
                    None => {
                        if s.ground[at as usize] == 0 {
                            return Err(v(
                                "MB-5",
                                format!(
                                    "there is no omphalos on the ground in `{}`",
                                    self.board(s).areas[at as usize].id
                                ),
                            )
                            .expected("an omphalos in the God's area")
                            .found("none"));
                        }
                    }
                    Some(id) => {
                        let c = self.slot_of(s, id, "MB-5")?;
                        let u = &s.units[c];
                        if u.at != at || self.team(s, c) != self.team(s, sl) || !u.carry {
                            return Err(v(
                                "MB-5",
                                format!("`{id}` is not a friendly unit carrying an omphalos in `{unit}`'s area"),
                            )
                            .expected("an omphalos carried by a friendly unit in the God's area")
                            .found(format!("`{id}`")));
                        }
                    }
                }
                Ok(())
            }
            Action::Power { unit, power, pay, .. } => {
                let sl = self.slot_of(s, unit, "MB-4")?;
                let u = &s.units[sl];
                if u.owner as usize != p || !u.on_board() {
                    return Err(v(
                        "MB-4",
                        format!("`{unit}` is not a unit of {} on the battlefield", self.name(s, p)),
                    )
                    .expected("an own unit on the battlefield")
                    .found(format!("`{unit}`")));
                }
                let i = self.power_of(s, sl, power.as_deref(), "MB-4")?;
                let pw = &self.def(s, sl).powers[i];
                match pw.kind {
                    PowerKind::Special => {
                        return Err(v(
                            "MB-5",
                            format!("`{}` is a special attack: it replaces an attack", pw.slug),
                        )
                        .expected(format!("`attack` with `power: {}`", pw.slug))
                        .found("a `power`"));
                    }
                    PowerKind::Passive => {
                        return Err(
                            v("MB-4", format!("`{}` is passive: it works by itself, unpaid", pw.slug))
                                .expected("no action")
                                .found("a `power`"),
                        );
                    }
                    PowerKind::Active => self.current(s, sl)?,
                    PowerKind::Permanent => {}
                }
                if t.special & (1 << sl) != 0 {
                    return Err(v(
                        "MB-5",
                        format!("`{unit}` took a special action: no powers for it this turn"),
                    )
                    .expected("no power")
                    .found(format!("`{}`", pw.slug)));
                }
                if t.powers & (1u128 << (sl * 4 + i)) != 0 {
                    return Err(v("MB-4", format!("`{}` was already used this turn", pw.slug))
                        .expected("each power at most once per turn")
                        .found("a second use"));
                }
                self.check_pay(s, p, &s.players[p].hand, pw.cost, pay, "MB-4")
                    .map(|_| ())
            }
            Action::EndTurn => Ok(()),
            _ => Ok(()),
        }
    }

    // ------------------------------------------------------------ apply

    fn draw_into(&self, s: &mut State, p: usize, n: u32, cards: &[String], others: &BTreeMap<String, Vec<String>>) {
        let c = tally(&self.t, cards).unwrap_or([0; MAXC]);
        let pl = &mut s.players[p];
        if total(&pl.deck) >= n {
            for x in 0..MAXC {
                let k = c[x].min(pl.deck[x]);
                pl.deck[x] -= k;
                pl.hand[x] += k;
            }
            return;
        }
        for x in 0..MAXC {
            let fresh = c[x].saturating_sub(pl.deck[x]).min(pl.discard[x]);
            pl.hand[x] += pl.deck[x] + fresh;
            pl.deck[x] = pl.discard[x] - fresh;
            pl.discard[x] = 0;
        }
        s.cycles += 1;
        for q in 0..s.players.len() {
            if q == p || s.players[q].out {
                continue;
            }
            let got = others
                .get(s.names[q].as_str())
                .and_then(|l| tally(&self.t, l).ok())
                .unwrap_or([0; MAXC]);
            let o = &mut s.players[q];
            for x in 0..MAXC {
                let k = got[x].min(o.discard[x]);
                o.hand[x] += o.deck[x] + k;
                o.deck[x] = o.discard[x] - k;
                o.discard[x] = 0;
            }
        }
    }

    fn wound(&self, s: &mut State, slot: usize, hits: u8) {
        let life = self.def(s, slot).life();
        let u = &mut s.units[slot];
        if !u.on_board() {
            return;
        }
        u.wounds = u.wounds.saturating_add(hits).min(life);
        if u.wounds >= life {
            if u.carry {
                s.ground[u.at as usize] += 1;
                u.carry = false;
            }
            u.at = DEAD;
            if s.t.act.unit as usize == slot {
                s.t.act.unit = NONE;
            }
        }
    }

    fn pay(&self, s: &mut State, p: usize, cost: u8, pay: &[String]) {
        let hand = s.players[p].hand;
        if let Ok(out) = self.check_pay(s, p, &hand, cost, pay, "MB-4") {
            pay_cards(&mut s.players[p], &out);
        }
    }

    fn discard_one(&self, s: &mut State, p: usize, card: usize) {
        let pl = &mut s.players[p];
        if pl.hand[card] > 0 {
            pl.hand[card] -= 1;
            pl.discard[card] += 1;
        }
    }

    pub(super) fn perform(&self, mut s: State, a: &Action) -> State {
        let p = self.to_move(&s);
        if !matches!(a, Action::Counter { .. }) {
            s.t.pending = None;
        }
        match a {
            Action::Draw { cards, others } => {
                self.draw_into(&mut s, p, 1, cards, others);
                s.t.drawn = true;
            }
            Action::Rest { cards, others } => {
                self.draw_into(&mut s, p, 1, cards, others);
                s.t.rested = true;
                s.t.act.unit = NONE;
            }
            Action::DrawTwo { cards, others, pay } => {
                self.pay(&mut s, p, 1, pay);
                self.draw_into(&mut s, p, 2, cards, others);
                s.t.manoeuvres |= DRAW_TWO;
            }
            Action::Search { card, pay } => {
                self.pay(&mut s, p, 1, pay);
                if let Some(c) = self.t.card(card) {
                    let pl = &mut s.players[p];
                    if pl.deck[c as usize] > 0 {
                        pl.deck[c as usize] -= 1;
                        pl.hand[c as usize] += 1;
                    }
                }
                s.t.manoeuvres |= SEARCH;
            }
            Action::CallTroop { troop, pay } => {
                self.pay(&mut s, p, 1, pay);
                let god_at = s.units[s.players[p].god as usize].at;
                if let Some(sl) = self.t.unit(troop).map(|u| s.slot[u as usize] as usize) {
                    let u = &mut s.units[sl];
                    if u.carry && u.on_board() {
                        s.ground[u.at as usize] += 1;
                    }
                    u.carry = false;
                    u.at = god_at;
                    u.wounds = 0;
                }
                s.t.called = true;
                s.t.act.unit = NONE;
            }
            Action::Activate { unit, card, pay } => {
                let sl = self.t.unit(unit).map_or(0, |u| s.slot[u as usize] as usize);
                let c = match card.as_deref() {
                    Some(id) => self.t.card(id).unwrap_or(OMPH) as usize,
                    None => self.def(&s, sl).card as usize,
                };
                self.discard_one(&mut s, p, c);
                if s.t.activations == 1 {
                    self.pay(&mut s, p, 1, pay);
                }
                s.t.activations += 1;
                s.t.activated |= 1 << sl;
                s.t.act = Act {
                    unit: sl as u8,
                    ..Act::IDLE
                };
            }
            Action::Enter { to, .. } => {
                let sl = s.t.act.unit as usize;
                if let Some(to) = self.board(&s).area(to) {
                    s.units[sl].at = to;
                }
                s.t.act.special = true;
                s.t.special |= 1 << sl;
            }
            Action::Move { to, .. } => {
                let sl = s.t.act.unit as usize;
                if let Some(to) = self.board(&s).area(to) {
                    s.units[sl].at = to;
                }
                s.t.act.simple |= MOVE;
            }
            Action::Run { to, .. } => {
                let sl = s.t.act.unit as usize;
                if let Some(to) = self.board(&s).area(to) {
                    s.units[sl].at = to;
                }
                s.t.act.special = true;
                s.t.special |= 1 << sl;
            }
            Action::Leave { .. } => {
                let sl = s.t.act.unit as usize;
                if s.units[sl].carry {
                    s.removed += 1;
                    s.units[sl].carry = false;
                }
                s.units[sl].at = GONE;
                s.t.act.unit = NONE;
            }
            Action::Attack {
                target,
                power,
                pay,
                hits,
                ..
            } => {
                let sl = s.t.act.unit as usize;
                let d = self.t.unit(target).map_or(0, |u| s.slot[u as usize] as usize);
                let pi = power
                    .as_deref()
                    .and_then(|n| self.def(&s, sl).powers.iter().position(|p| p.slug == n));
                if let Some(i) = pi
                    && s.t.act.power != i as u8
                {
                    let cost = self.def(&s, sl).powers[i].cost;
                    self.pay(&mut s, p, cost, pay);
                    if cost > 0 {
                        s.t.powers |= 1u128 << (sl * 4 + i);
                    }
                    s.t.act.power = i as u8;
                }
                let melee = self.strike(&s, sl, d, pi).map(|st| st.melee).unwrap_or(false);
                s.t.act.attacks += 1;
                s.t.act.simple |= ATTACK;
                s.t.act.targets |= 1 << d;
                self.wound(&mut s, d, *hits);
                if melee && s.units[d].on_board() && s.units[d].at == s.units[sl].at {
                    s.t.pending = Some((sl as u8, d as u8));
                }
            }
            Action::Counter { card, hits, .. } => {
                if let Some((att, def)) = s.t.pending {
                    let q = s.units[def as usize].owner as usize;
                    let c = match card.as_deref() {
                        Some(id) => self.t.card(id).unwrap_or(OMPH) as usize,
                        None => self.def(&s, def as usize).card as usize,
                    };
                    self.discard_one(&mut s, q, c);
                    s.t.countered |= 1 << def;
                    self.wound(&mut s, att as usize, *hits);
                }
                s.t.pending = None;
            }
            Action::PickUp { from, .. } => {
                let sl = s.t.act.unit as usize;
                let at = match from {
                    Some(id) => self.board(&s).area(id).unwrap_or(s.units[sl].at),
                    None => s.units[sl].at,
                };
                if s.ground[at as usize] > 0 {
                    s.ground[at as usize] -= 1;
                    s.units[sl].carry = true;
                }
                s.t.act.simple |= PICK;
            }
            Action::Drop { .. } => {
                let sl = s.t.act.unit as usize;
                s.units[sl].carry = false;
                s.ground[s.units[sl].at as usize] += 1;
            }
            Action::Absorb { from, .. } => {
                let sl = s.t.act.unit as usize;
                match from.as_deref().and_then(|id| self.t.unit(id)) {
                    Some(u) => s.units[s.slot[u as usize] as usize].carry = false,
                    None => {
                        let at = s.units[sl].at as usize;
                        s.ground[at] = s.ground[at].saturating_sub(1);
                    }
                }
                s.players[p].absorbed += 1;
                if s.reserve > 0 {
                    s.reserve -= 1;
                    s.players[p].hand[OMPH as usize] += 1;
                }
                s.t.act.special = true;
                s.t.special |= 1 << sl;
            }
            Action::Power { unit, power, pay, .. } => {
                let sl = self.t.unit(unit).map_or(0, |u| s.slot[u as usize] as usize);
                if let Ok(i) = self.power_of(&s, sl, power.as_deref(), "MB-4") {
                    let pw = &self.def(&s, sl).powers[i];
                    let (cost, extra, attacks, kind) = (pw.cost, pw.activations, pw.attacks, pw.kind);
                    self.pay(&mut s, p, cost, pay);
                    s.t.powers |= 1u128 << (sl * 4 + i);
                    s.t.extra += extra;
                    if kind == PowerKind::Active && attacks > 1 && s.t.act.unit as usize == sl {
                        s.t.act.max_attacks = attacks;
                    }
                }
            }
            Action::EndTurn => {
                s.t = Turn::NEW;
                s.turn += 1;
                let cycle = &self.mode(&s).cycle;
                for _ in 0..cycle.len() {
                    s.cycle_pos = ((s.cycle_pos as usize + 1) % cycle.len()) as u8;
                    if !s.players[cycle[s.cycle_pos as usize] as usize].out {
                        break;
                    }
                }
            }
        }
        self.settle(&mut s);
        s
    }

    /// Eliminations and victory (MB-13).
    fn settle(&self, s: &mut State) {
        if s.winner.is_some() {
            return;
        }
        let mode = self.mode(s);
        let shape = mode.shape;
        let n = s.players.len();
        let god_dead = |s: &State, p: usize| {
            let g = s.players[p].god;
            g != NONE && !s.units[g as usize].alive()
        };
        // Free-for-all with 3 or 4 players: a player whose God died is out.
        if shape == Shape::Solo && n > 2 {
            for p in 0..n {
                if !s.players[p].out && god_dead(s, p) {
                    s.players[p].out = true;
                    for u in s.units.iter_mut().filter(|u| u.owner as usize == p) {
                        if u.on_board() {
                            if u.carry {
                                s.ground[u.at as usize] += 1;
                            }
                            u.carry = false;
                            u.at = GONE;
                        }
                    }
                }
            }
        }
        // Omphalos.
        let teams = s.players.iter().map(|p| p.team).max().unwrap_or(0) + 1;
        for team in 0..teams {
            let got = if mode.team_omphalos {
                s.players
                    .iter()
                    .filter(|p| p.team == team)
                    .map(|p| p.absorbed as u32)
                    .sum()
            } else {
                s.players
                    .iter()
                    .filter(|p| p.team == team)
                    .map(|p| p.absorbed as u32)
                    .max()
                    .unwrap_or(0)
            };
            if got >= mode.victory as u32 {
                s.winner = Some((team, "omphalos-absorbed"));
                return;
            }
        }
        if shape == Shape::Lone && mode.ally_victory > 0 && s.removed >= mode.ally_victory {
            s.winner = Some((1, "omphalos-removed"));
            return;
        }
        // Gods and armies.
        let mut standing = Vec::new();
        for team in 0..teams {
            let members = (0..n).filter(|&p| s.players[p].team == team);
            let down = if shape == Shape::Lone && team == 1 {
                !s.units.iter().any(|u| u.owner != 0 && u.alive())
            } else {
                members.clone().any(|p| god_dead(s, p))
            };
            if !down {
                standing.push(team);
            }
        }
        match standing.len() {
            0 => s.winner = Some((NONE, "gods-killed")),
            1 if teams > 1 => {
                let reason = match shape {
                    Shape::Lone if standing[0] == 0 => "allies-wiped-out",
                    Shape::Solo if n > 2 => "gods-eliminated",
                    _ => "god-killed",
                };
                s.winner = Some((standing[0], reason));
            }
            _ => {}
        }
    }
}
