//! The state of a Mythic Battles game, and what the rules ask of it:
//! units, areas, company, reach, what a player may pay with.

use std::sync::Arc;

use super::Mythic;
use super::effects::{Out, Uses};
use super::tables::{self, Cat, MAXA, MAXC, MAXU, Shape, Tables};
use crate::rules::Violation;
use crate::rules::kit::{Pile, Set, bits, v};

/// No unit / no area.
pub const NONE: u8 = u8::MAX;
/// `Unit::at` of a unit not yet on the battlefield.
pub const OFF: u8 = 255;
/// `Unit::at` of a destroyed unit.
pub const DEAD: u8 = 254;
/// `Unit::at` of a unit out of the game (left the board, or its player
/// was eliminated).
pub const GONE: u8 = 253;

/// Simple actions done in an activation.
pub(super) const MOVE: u8 = 1;
pub(super) const ATTACK: u8 = 2;
pub(super) const PICK: u8 = 4;

/// Manoeuvres done this turn.
pub(super) const DRAW_TWO: u8 = 1;
pub(super) const SEARCH: u8 = 2;

#[derive(Clone, Copy, Debug)]
pub struct Unit {
    /// Index into the unit table.
    pub def: u8,
    pub owner: u8,
    /// Area index, or [`OFF`], [`DEAD`], [`GONE`].
    pub at: u8,
    /// Ladder rows lost (characters) or figures lost (troops).
    pub wounds: u8,
    pub carry: bool,
    /// A petrification marker (Medusa's Petrifying Gaze): no moves, no
    /// attacks until its player discards one of its activation cards.
    pub petrified: bool,
}

impl Unit {
    pub fn on_board(&self) -> bool {
        (self.at as usize) < MAXA
    }

    pub fn alive(&self) -> bool {
        self.at != DEAD && self.at != GONE
    }
}

#[derive(Clone, Debug)]
pub struct Player {
    pub hand: Pile<MAXC>,
    pub deck: Pile<MAXC>,
    pub discard: Pile<MAXC>,
    pub absorbed: u8,
    /// Eliminated (free-for-all: the God died).
    pub out: bool,
    pub team: u8,
    pub side: u8,
    /// Slot of the player's God, or [`NONE`].
    pub god: u8,
}

/// The activation going on.
#[derive(Clone, Copy, Debug)]
pub struct Act {
    /// Slot of the activated unit, or [`NONE`].
    pub unit: u8,
    pub simple: u8,
    pub special: bool,
    pub attacks: u8,
    /// Normal attacks allowed (2 with a power such as War Fury).
    pub max_attacks: u8,
    /// Index of the special-attack power in use, or [`NONE`].
    pub power: u8,
    /// Units attacked in this activation.
    pub targets: u32,
    /// The activation ended early (the unit entered a swamp).
    pub over: bool,
}

impl Act {
    pub(super) const IDLE: Act = Act {
        unit: NONE,
        simple: 0,
        special: false,
        attacks: 0,
        max_attacks: 1,
        power: NONE,
        targets: 0,
        over: false,
    };
}

/// What the current turn has done.
#[derive(Clone, Copy, Debug)]
pub struct Turn {
    pub drawn: bool,
    pub rested: bool,
    pub called: bool,
    pub activations: u8,
    /// Extra activations granted by powers.
    pub extra: u8,
    pub activated: u32,
    pub act: Act,
    pub manoeuvres: u8,
    /// Paid powers used this turn: bit `slot * 4 + power`.
    pub powers: u128,
    pub countered: u32,
    /// Units that took a special action this turn (no powers for them).
    pub special: u32,
    /// A counter-attack may follow: (attacker slot, attacked slot).
    pub pending: Option<(u8, u8)>,
    /// A troop that may be activated next without an Art of War card
    /// (Leader), or [`NONE`].
    pub free: u8,
    /// The activated unit's end was answered by its own effect (Leader).
    pub led: bool,
}

impl Turn {
    pub(super) const NEW: Turn = Turn {
        drawn: false,
        rested: false,
        called: false,
        activations: 0,
        extra: 0,
        activated: 0,
        act: Act::IDLE,
        manoeuvres: 0,
        powers: 0,
        countered: 0,
        special: 0,
        pending: None,
        free: NONE,
        led: false,
    };
}

#[derive(Clone, Debug)]
pub struct State {
    pub names: Arc<[String]>,
    pub mode: u8,
    pub board: u8,
    pub players: Vec<Player>,
    pub units: Vec<Unit>,
    /// Unit table index → slot in `units` ([`NONE`] when not in the game).
    pub slot: [u8; MAXU],
    /// Omphalos lying on the ground, per area.
    pub ground: [u8; MAXA],
    /// Omphalos cards left in the reserve.
    pub reserve: u8,
    /// Omphalos taken off the battlefield by units leaving it (3 vs 1).
    pub removed: u8,
    pub cycle_pos: u8,
    pub turn: u32,
    pub cycles: u16,
    pub t: Turn,
    /// The winning team and why.
    pub winner: Option<(u8, &'static str)>,
    /// Uses of limited effects this turn (King of Sparta …).
    pub uses: Uses,
}

pub(super) fn area_name(b: &tables::Board, at: u8) -> String {
    match at {
        OFF => "off the battlefield".into(),
        DEAD => "destroyed".into(),
        GONE => "out of the game".into(),
        a => b.areas.get(a as usize).map_or("?".into(), |a| a.id.clone()),
    }
}

impl Mythic {
    pub(super) fn mode(&self, s: &State) -> &tables::ModeDef {
        &self.t.modes[s.mode as usize]
    }

    pub(super) fn board(&self, s: &State) -> &tables::Board {
        &self.t.boards[s.board as usize]
    }

    pub(super) fn def(&self, s: &State, slot: usize) -> &tables::UnitDef {
        &self.t.units[s.units[slot].def as usize]
    }

    pub(super) fn uid(&self, s: &State, slot: usize) -> &str {
        &self.def(s, slot).id
    }

    pub(super) fn terrain_on(&self, s: &State) -> bool {
        self.mode(s).shape != Shape::Fixed
    }

    pub(super) fn name<'a>(&self, s: &'a State, p: usize) -> &'a str {
        s.names.get(p).map_or("?", String::as_str)
    }

    pub(crate) fn slot_of(&self, s: &State, id: &str, rule: &'static str) -> Result<usize, Violation> {
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

    pub(super) fn area_of(&self, s: &State, id: &str, rule: &'static str) -> Result<u8, Violation> {
        let b = self.board(s);
        b.area(id).ok_or_else(|| {
            v(rule, format!("there is no area `{id}` on the `{}` battlefield", b.id))
                .expected("an area id of the battlefield")
                .found(id)
        })
    }

    /// The team of the player who owns the unit in `slot`.
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
        for &(f, a, dd, id, k) in &d.bonus {
            let fx = &self.t.fx.defs[usize::from(id)];
            if left >= f && !fx.left_out(k) {
                fx.note(k, false, || self.t.fx.names[usize::from(id)].clone());
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

    /// The troop bonuses in force in [`Mythic::row`] for the unit in
    /// `slot`: (attack bonus, its effect's name), (defense bonus, name).
    pub(super) fn row_bonus(&self, s: &State, slot: usize) -> [Option<(i8, String)>; 2] {
        let u = &s.units[slot];
        let d = &self.t.units[u.def as usize];
        let mut out: [Option<(i8, String)>; 2] = [None, None];
        if d.cat != Cat::Troop {
            return out;
        }
        let left = d.figures.saturating_sub(u.wounds);
        for &(f, a, dd, id, k) in &d.bonus {
            if left >= f && !self.t.fx.defs[usize::from(id)].left_out(k) {
                let name = || self.t.fx.names[usize::from(id)].clone();
                if a != 0 {
                    out[0] = Some((a, name()));
                }
                if dd != 0 {
                    out[1] = Some((dd, name()));
                }
            }
        }
        out
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
    pub(super) fn enemy_areas(&self, s: &State, team: u8) -> Set {
        let mut m = 0;
        for (i, u) in s.units.iter().enumerate() {
            if u.on_board() && self.team(s, i) != team {
                m |= 1 << u.at;
            }
        }
        m
    }

    /// Whether the unit may enter `area` (terrain may keep it out unless it climbs).
    pub(super) fn can_enter(&self, s: &State, slot: usize, area: usize) -> bool {
        self.kept_out(s, slot, area).is_none()
    }

    /// Areas the unit can end a move (a run: `run`) of up to `steps` areas
    /// in (MB-6): never through enemies, full areas or closed borders, nor
    /// past an area whose terrain stops it; not at all when something holds
    /// it in place, or only as far as the terrain lets it run.
    pub(super) fn reach(&self, s: &State, slot: usize, steps: u8, run: bool) -> Set {
        let b = self.board(s);
        let u = &s.units[slot];
        if !u.on_board() {
            return 0;
        }
        let mut steps = steps;
        if let Some((_, cap)) = self.hold(s, slot) {
            match cap {
                Some(k) if run => steps = steps.min(k),
                _ => return 0,
            }
        }
        let count = self.occupancy(s);
        let mut enemy = self.enemy_areas(s, self.team(s, slot));
        let cross = self.def(s, slot).flying || self.has(s, slot, Out::Climb).is_some();
        let start = u.at as usize;
        let mut seen: Set = 1 << start;
        let mut frontier = seen;
        let mut dest = 0;
        for _ in 0..steps {
            let mut next = 0;
            for a in bits(frontier) {
                if a != start && enemy & (1 << a) != 0 {
                    continue;
                }
                let mut n = b.adj(a) & !b.wall[a];
                if !cross {
                    n &= !b.escarpment[a];
                }
                next |= n;
            }
            next &= !seen;
            for a in bits(next) {
                if count[a] >= b.areas[a].capacity || !self.can_enter(s, slot, a) {
                    next &= !(1 << a);
                } else if self.stops(s, slot, a).is_some() {
                    // Entering stops the move: go no further from there.
                    enemy |= 1 << a;
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
}

/// Card counts of a list of card ids, or the first unknown id.
pub(super) fn tally<'a>(t: &Tables, ids: &'a [String]) -> Result<[u8; MAXC], &'a str> {
    let mut out = [0u8; MAXC];
    for id in ids {
        let c = t.card(id).ok_or(id.as_str())?;
        out[c as usize] = out[c as usize].saturating_add(1);
    }
    Ok(out)
}

/// `a ⊆ b` as multisets.
pub(super) fn within(a: &[u8; MAXC], b: &[u8; MAXC]) -> bool {
    a.iter().zip(b).all(|(x, y)| x <= y)
}

/// Moves paid cards from hand to discard pile.
pub(super) fn pay_cards(pl: &mut Player, out: &[u8; MAXC]) {
    for c in 0..MAXC {
        let k = pl.hand.take(c, out[c]);
        pl.discard.add(c, k);
    }
}

pub(super) fn stat(base: u8, mods: i32) -> u8 {
    (base as i32 + mods.clamp(-2, 2)).clamp(0, 10) as u8
}
