//! What the ONE v MANY engine reads from the pack: the board (a grid graph
//! of squares), character, unit, boss, scenario and upgrade cards, as small
//! indexed tables. Every problem is a located `engine-data` diagnostic.

use crate::diag::Diagnostic;
use crate::model::{Component, FieldValue, Game};
use crate::rules::kit::graph::MAX_NODES;
use crate::rules::kit::{Graph, IdTable, Reader};

/// The most squares a board may have (state arrays are this long).
pub const MAX_SQUARES: usize = MAX_NODES;
/// Marks "no square" / "no component".
pub const NONE: u8 = u8::MAX;
/// MANY unit types at most (per-type arrays in the state).
pub const MAX_UNITS: usize = 16;
/// Cards per scenario or upgrade deck at most (decks are `u64` sets).
pub const MAX_DECK: usize = 64;

#[derive(Clone, Debug)]
pub struct Character {
    pub id: String,
    pub actions: i8,
    pub range: i8,
    pub damage: i8,
    pub life: i8,
    pub ability: bool,
}

#[derive(Clone, Debug)]
pub struct UnitType {
    pub id: String,
    pub actions: i8,
    pub life: i8,
    pub damage: i8,
    pub range: i8,
    pub ability: bool,
    /// Tokens of this type in the kit.
    pub copies: u8,
}

#[derive(Clone, Debug)]
pub struct Boss {
    pub id: String,
    /// Starting tokens per unit type (indexed like `units`).
    pub start: Vec<u8>,
    /// Unit types whose remaining tokens form the reserve.
    pub reserve: Vec<bool>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum User {
    One,
    Many,
}

#[derive(Clone, Debug)]
pub struct Scenario {
    pub id: String,
    pub walls: Vec<u8>,
    pub obstacles: Vec<u8>,
    pub spawn: Vec<u8>,
    pub start: Vec<u8>,
    pub ability: bool,
    /// (who may use it, action cost), in card order.
    pub interactions: Vec<(User, i8)>,
}

#[derive(Clone, Debug, Default)]
pub struct Mods {
    pub actions: i8,
    pub range: i8,
    pub damage: i8,
    pub life: i8,
    pub obstacle_extra: i8,
    pub melee_damage: i8,
    pub ranged_range: i8,
}

#[derive(Clone, Debug)]
pub struct Upgrade {
    pub id: String,
    pub equipment: Option<i8>,
    pub mods: Mods,
}

/// Everything the engine needs from the pack.
#[derive(Clone, Debug)]
pub struct Tables {
    /// The squares with their orthogonal neighbours and grid coordinates.
    pub board: Graph,
    pub last_turn: u8,
    pub boss_round: u8,
    pub characters: Vec<Character>,
    pub units: Vec<UnitType>,
    pub bosses: Vec<Boss>,
    pub scenarios: Vec<Scenario>,
    pub one_upgrades: Vec<Upgrade>,
    pub many_upgrades: Vec<Upgrade>,
    ids: Ids,
}

/// Id tables of each kind of card.
#[derive(Clone, Debug, Default)]
struct Ids {
    characters: IdTable,
    units: IdTable,
    bosses: IdTable,
    scenarios: IdTable,
    one_upgrades: IdTable,
    many_upgrades: IdTable,
}

fn has_text(c: &Component, f: &str) -> bool {
    matches!(c.field(f), Some(FieldValue::Text(_)) | Some(FieldValue::Str(_)))
}

/// The board component's squares as a grid graph.
fn read_board(r: &mut Reader, board: &Component) -> Option<Graph> {
    let squares = r.list(board, "squares");
    if squares.is_empty() || squares.len() > MAX_SQUARES {
        r.error(
            board,
            "squares",
            format!("board `{}` has {} squares", board.id, squares.len()),
            format!("1 to {MAX_SQUARES} squares"),
            squares.len(),
        );
        return None;
    }
    let mut ids = IdTable::new();
    let mut xy = Vec::new();
    for s in squares {
        let rec = s.as_record();
        let get = |f: &str| rec.and_then(|r| r.get(f));
        let id = get("id").and_then(FieldValue::as_str).unwrap_or("");
        let x = get("x").and_then(FieldValue::as_int).unwrap_or(0);
        let y = get("y").and_then(FieldValue::as_int).unwrap_or(0);
        if id.is_empty() || !(1..=26).contains(&x) || !(1..=99).contains(&y) {
            r.error(
                board,
                "squares",
                format!("square `{id}` of board `{}` lies outside a 26×99 grid", board.id),
                "an `id` with `x` from 1 to 26 and `y` from 1 to 99",
                format!("x {x}, y {y}"),
            );
        }
        ids.push(id);
        xy.push((x as i16, y as i16));
    }
    let mut lists = Vec::new();
    for s in squares {
        let mut adj = Vec::new();
        let rec = s.as_record();
        let from = rec
            .and_then(|r| r.get("id"))
            .and_then(FieldValue::as_str)
            .unwrap_or("?");
        for a in rec
            .and_then(|r| r.get("adjacent"))
            .and_then(FieldValue::as_list)
            .unwrap_or(&[])
        {
            let a = a.as_str().unwrap_or("");
            match ids.get(a) {
                Some(j) => adj.push(j as u8),
                None => r.error(
                    board,
                    "squares",
                    format!(
                        "square `{from}` of board `{}` lists an unknown adjacent square",
                        board.id
                    ),
                    "ids of the board's squares",
                    format!("`{a}`"),
                ),
            }
        }
        lists.push(adj);
    }
    Some(Graph::new(ids, lists, false).with_coordinates(xy))
}

/// Square ids of a scenario's list field.
fn squares_of(r: &mut Reader, board: &Graph, c: &Component, f: &str) -> Vec<u8> {
    let mut out = Vec::new();
    for v in r.list(c, f) {
        let s = v.as_str().unwrap_or("");
        match board.index(s) {
            Some(q) => out.push(q),
            None => r.error(
                c,
                f,
                format!("scenario `{}` names an unknown square in `{f}`", c.id),
                "square ids of the board",
                format!("`{s}`"),
            ),
        }
    }
    out
}

impl Tables {
    pub fn new(game: &Game) -> Result<Tables, Vec<Diagnostic>> {
        let mut r = Reader::new(game);
        let boards = r.some("board", "board");
        let Some(board_c) = boards.first() else {
            return r.finish(None);
        };
        let Some(board) = read_board(&mut r, board_c) else {
            return r.finish(None);
        };
        let last_turn = board_c
            .field("turn_track")
            .and_then(FieldValue::as_record)
            .and_then(|t| t.get("last"))
            .and_then(FieldValue::as_int)
            .unwrap_or(10)
            .clamp(1, 255) as u8;
        let boss_round = r.opt_int(board_c, "boss_round").unwrap_or(7).clamp(1, 64) as u8;
        let mut ids = Ids::default();
        let mut characters = Vec::new();
        for c in r.some("one", "ONE character cards") {
            characters.push(Character {
                id: c.id.clone(),
                actions: r.small(c, "actions").unwrap_or(0),
                range: r.small(c, "range").unwrap_or(0),
                damage: r.small(c, "damage").unwrap_or(0),
                life: r.small(c, "life").unwrap_or(1),
                ability: has_text(c, "ability"),
            });
            ids.characters.push(c.id.clone());
        }
        let many = r.all("many");
        if let Some(c) = many.get(MAX_UNITS) {
            r.error(
                c,
                "id",
                format!("the engine handles at most {MAX_UNITS} MANY unit types"),
                format!("at most {MAX_UNITS} `many` cards"),
                many.len(),
            );
        }
        let mut units = Vec::new();
        for c in many.iter().take(MAX_UNITS) {
            units.push(UnitType {
                id: c.id.clone(),
                actions: r.small(c, "actions").unwrap_or(0),
                life: r.small(c, "life").unwrap_or(1),
                damage: r.small(c, "damage").unwrap_or(0),
                range: r.small(c, "range").unwrap_or(0),
                ability: has_text(c, "ability"),
                copies: 0,
            });
            ids.units.push(c.id.clone());
        }
        for c in r.all("token") {
            if let Some(i) = r.opt_str(c, "unit").and_then(|u| ids.units.get(u)) {
                let u = &mut units[i as usize];
                u.copies = u.copies.saturating_add(c.copies.min(255) as u8);
            }
        }
        let mut bosses = Vec::new();
        for c in r.some("boss", "boss cards") {
            let mut start = vec![0u8; units.len()];
            for e in r.list(c, "start_tokens") {
                let rec = e.as_record();
                let u = rec
                    .and_then(|x| x.get("unit"))
                    .and_then(FieldValue::as_str)
                    .unwrap_or("");
                let n = rec
                    .and_then(|x| x.get("count"))
                    .and_then(FieldValue::as_int)
                    .unwrap_or(0);
                match ids.units.get(u) {
                    Some(i) => start[i as usize] = start[i as usize].saturating_add(n.clamp(0, 255) as u8),
                    None => r.error(
                        c,
                        "start_tokens",
                        format!("boss `{}` starts with an unknown unit", c.id),
                        "ids of `many` unit cards",
                        format!("`{u}`"),
                    ),
                }
            }
            let mut reserve = vec![false; units.len()];
            for e in r.list(c, "reserve") {
                let u = e.as_str().unwrap_or("");
                match ids.units.get(u) {
                    Some(i) => reserve[i as usize] = true,
                    None => r.error(
                        c,
                        "reserve",
                        format!("boss `{}` keeps an unknown unit in reserve", c.id),
                        "ids of `many` unit cards",
                        format!("`{u}`"),
                    ),
                }
            }
            bosses.push(Boss {
                id: c.id.clone(),
                start,
                reserve,
            });
            ids.bosses.push(c.id.clone());
        }
        let mut scenarios = Vec::new();
        for c in r.some("scenario", "scenario cards") {
            let mut interactions = Vec::new();
            for e in r.list(c, "interactions") {
                let rec = e.as_record();
                let user = match rec.and_then(|x| x.get("user")).and_then(FieldValue::as_str) {
                    Some("many") => User::Many,
                    _ => User::One,
                };
                let cost = rec
                    .and_then(|x| x.get("cost"))
                    .and_then(FieldValue::as_int)
                    .unwrap_or(1)
                    .clamp(0, 100) as i8;
                interactions.push((user, cost));
            }
            scenarios.push(Scenario {
                id: c.id.clone(),
                walls: squares_of(&mut r, &board, c, "walls"),
                obstacles: squares_of(&mut r, &board, c, "obstacles"),
                spawn: squares_of(&mut r, &board, c, "spawn"),
                start: squares_of(&mut r, &board, c, "start"),
                ability: has_text(c, "ability"),
                interactions,
            });
            ids.scenarios.push(c.id.clone());
        }
        let mut one_upgrades = Vec::new();
        let mut many_upgrades = Vec::new();
        for (kind, out, table) in [
            ("one_upgrade", &mut one_upgrades, &mut ids.one_upgrades),
            ("many_upgrade", &mut many_upgrades, &mut ids.many_upgrades),
        ] {
            for c in r.all(kind) {
                let equipment = c
                    .field("equipment")
                    .and_then(FieldValue::as_record)
                    .and_then(|e| e.get("cost"))
                    .and_then(FieldValue::as_int)
                    .map(|n| n.clamp(0, 100) as i8);
                let mut mods = Mods::default();
                if let Some(m) = c.field("modifiers").and_then(FieldValue::as_record) {
                    let g = |k: &str| m.get(k).and_then(FieldValue::as_int).unwrap_or(0).clamp(-20, 20) as i8;
                    mods = Mods {
                        actions: g("actions"),
                        range: g("range"),
                        damage: g("damage"),
                        life: g("life"),
                        obstacle_extra: g("obstacle_extra"),
                        melee_damage: g("melee_damage"),
                        ranged_range: g("ranged_range"),
                    };
                }
                out.push(Upgrade {
                    id: c.id.clone(),
                    equipment,
                    mods,
                });
                table.push(c.id.clone());
            }
        }
        // A full game: one scenario per round, two cards of each upgrade
        // deck per upgrade phase; decks are `u64` sets.
        let phases = (boss_round as usize).saturating_sub(1) * 2;
        let decks = [
            ("scenario", scenarios.len(), boss_round as usize),
            ("one_upgrade", one_upgrades.len(), phases),
            ("many_upgrade", many_upgrades.len(), phases),
        ];
        for (kind, have, need) in decks {
            if have < need || have > MAX_DECK {
                r.error(
                    board_c,
                    "boss_round",
                    format!(
                        "with the boss in round {boss_round}, a full game needs {need} `{kind}` cards; the pack has {have}"
                    ),
                    format!("{need} to {MAX_DECK} `{kind}` cards"),
                    have,
                );
            }
        }
        let t = Tables {
            board,
            last_turn,
            boss_round,
            characters,
            units,
            bosses,
            scenarios,
            one_upgrades,
            many_upgrades,
            ids,
        };
        r.finish(Some(t))
    }

    /// A square id (`D4`) as its index.
    pub fn square(&self, id: &str) -> Option<u8> {
        self.board.index(id)
    }

    pub fn unit(&self, id: &str) -> Option<u8> {
        self.ids.units.get(id).map(|i| i as u8)
    }

    pub fn character(&self, id: &str) -> Option<u8> {
        self.ids.characters.get(id).map(|i| i as u8)
    }

    pub fn boss(&self, id: &str) -> Option<u8> {
        self.ids.bosses.get(id).map(|i| i as u8)
    }

    pub fn scenario(&self, id: &str) -> Option<u8> {
        self.ids.scenarios.get(id).map(|i| i as u8)
    }

    pub fn one_upgrade(&self, id: &str) -> Option<u8> {
        self.ids.one_upgrades.get(id).map(|i| i as u8)
    }

    pub fn many_upgrade(&self, id: &str) -> Option<u8> {
        self.ids.many_upgrades.get(id).map(|i| i as u8)
    }

    /// Distance along a shared row or column, or `None` off-line.
    pub fn line_distance(&self, a: u8, b: u8) -> Option<i8> {
        self.board.line(a, b).map(|d| d as i8)
    }

    pub fn adjacent(&self, a: u8, b: u8) -> bool {
        self.board.adjacent(a, b)
    }

    pub fn name(&self, sq: u8) -> &str {
        if (sq as usize) < self.board.len() {
            self.board.name(sq)
        } else {
            "off the board"
        }
    }
}
