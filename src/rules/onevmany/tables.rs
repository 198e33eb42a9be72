//! What the ONE v MANY engine reads from the pack: the board, character,
//! unit, boss, scenario and upgrade cards, as small indexed tables.

use crate::model::{Component, FieldValue, Game};

/// The most squares a board may have (state arrays are this long).
pub const MAX_SQUARES: usize = 64;
/// Marks "no square" / "no component".
pub const NONE: u8 = u8::MAX;

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
    pub squares: Vec<String>,
    pub xy: Vec<(i8, i8)>,
    /// Orthogonal neighbours of each square.
    pub adj: Vec<Vec<u8>>,
    /// `grid[x][y]` → square index (x, y 1-based).
    pub grid: [[u8; 27]; 100],
    pub last_turn: u8,
    pub boss_round: u8,
    pub characters: Vec<Character>,
    pub units: Vec<UnitType>,
    pub bosses: Vec<Boss>,
    pub scenarios: Vec<Scenario>,
    pub one_upgrades: Vec<Upgrade>,
    pub many_upgrades: Vec<Upgrade>,
}

fn int(c: &Component, f: &str) -> Result<i64, String> {
    c.field(f)
        .and_then(FieldValue::as_int)
        .ok_or_else(|| format!("{} `{}` has no integer `{f}`", c.kind, c.id))
}

fn small(c: &Component, f: &str) -> Result<i8, String> {
    let v = int(c, f)?;
    i8::try_from(v).map_err(|_| format!("{} `{}`: `{f}` {v} is out of range", c.kind, c.id))
}

fn list<'a>(c: &'a Component, f: &str) -> &'a [FieldValue] {
    c.field(f).and_then(FieldValue::as_list).unwrap_or(&[])
}

fn has_text(c: &Component, f: &str) -> bool {
    matches!(c.field(f), Some(FieldValue::Text(_)) | Some(FieldValue::Str(_)))
}

fn comps<'a>(game: &'a Game, kind: &str) -> &'a [Component] {
    game.components.get(kind).map(Vec::as_slice).unwrap_or(&[])
}

impl Tables {
    pub fn new(game: &Game) -> Result<Tables, String> {
        let board = comps(game, "board").first().ok_or("the pack has no board")?;
        let mut t = Tables {
            squares: Vec::new(),
            xy: Vec::new(),
            adj: Vec::new(),
            grid: [[NONE; 27]; 100],
            last_turn: 10,
            boss_round: 7,
            characters: Vec::new(),
            units: Vec::new(),
            bosses: Vec::new(),
            scenarios: Vec::new(),
            one_upgrades: Vec::new(),
            many_upgrades: Vec::new(),
        };
        let squares = list(board, "squares");
        if squares.is_empty() || squares.len() > MAX_SQUARES {
            return Err(format!(
                "the board has {} squares (1 to {MAX_SQUARES} supported)",
                squares.len()
            ));
        }
        for s in squares {
            let r = s.as_record().ok_or("a board square is not a record")?;
            let id = r
                .get("id")
                .and_then(FieldValue::as_str)
                .ok_or("a board square has no id")?;
            let x = r
                .get("x")
                .and_then(FieldValue::as_int)
                .ok_or("a board square has no x")?;
            let y = r
                .get("y")
                .and_then(FieldValue::as_int)
                .ok_or("a board square has no y")?;
            if !(1..=26).contains(&x) || !(1..=99).contains(&y) {
                return Err(format!("square {id} lies outside a 26×99 grid"));
            }
            t.grid[y as usize][x as usize] = t.squares.len() as u8;
            t.squares.push(id.to_string());
            t.xy.push((x as i8, y as i8));
        }
        for s in squares {
            let r = s.as_record().expect("checked above");
            let mut adj = Vec::new();
            for a in r.get("adjacent").and_then(FieldValue::as_list).unwrap_or(&[]) {
                let a = a.as_str().ok_or("an adjacency entry is not a square id")?;
                adj.push(t.square(a).ok_or_else(|| format!("unknown adjacent square {a}"))?);
            }
            t.adj.push(adj);
        }
        if let Some(tt) = board.field("turn_track").and_then(FieldValue::as_record) {
            t.last_turn = tt.get("last").and_then(FieldValue::as_int).unwrap_or(10) as u8;
        }
        t.boss_round = board.field("boss_round").and_then(FieldValue::as_int).unwrap_or(7) as u8;

        for c in comps(game, "one") {
            t.characters.push(Character {
                id: c.id.clone(),
                actions: small(c, "actions")?,
                range: small(c, "range")?,
                damage: small(c, "damage")?,
                life: small(c, "life")?,
                ability: has_text(c, "ability"),
            });
        }
        for c in comps(game, "many") {
            t.units.push(UnitType {
                id: c.id.clone(),
                actions: small(c, "actions")?,
                life: small(c, "life")?,
                damage: small(c, "damage")?,
                range: small(c, "range")?,
                ability: has_text(c, "ability"),
                copies: 0,
            });
        }
        for c in comps(game, "token") {
            if let Some(u) = c.field("unit").and_then(FieldValue::as_str)
                && let Some(i) = t.unit(u)
            {
                t.units[i as usize].copies = t.units[i as usize].copies.saturating_add(c.copies.min(255) as u8);
            }
        }
        for c in comps(game, "boss") {
            let mut start = vec![0u8; t.units.len()];
            for e in list(c, "start_tokens") {
                let r = e.as_record().ok_or("a boss start entry is not a record")?;
                let u = r.get("unit").and_then(FieldValue::as_str).unwrap_or("");
                let n = r.get("count").and_then(FieldValue::as_int).unwrap_or(0);
                let i = t
                    .unit(u)
                    .ok_or_else(|| format!("boss `{}` names unknown unit `{u}`", c.id))?;
                start[i as usize] = start[i as usize].saturating_add(n.clamp(0, 255) as u8);
            }
            let mut reserve = vec![false; t.units.len()];
            for e in list(c, "reserve") {
                let u = e.as_str().unwrap_or("");
                let i = t
                    .unit(u)
                    .ok_or_else(|| format!("boss `{}` names unknown unit `{u}`", c.id))?;
                reserve[i as usize] = true;
            }
            t.bosses.push(Boss {
                id: c.id.clone(),
                start,
                reserve,
            });
        }
        for c in comps(game, "scenario") {
            let cells = |f: &str| -> Result<Vec<u8>, String> {
                list(c, f)
                    .iter()
                    .map(|v| {
                        let s = v.as_str().unwrap_or("");
                        t.square(s)
                            .ok_or_else(|| format!("scenario `{}`: unknown square `{s}` in `{f}`", c.id))
                    })
                    .collect()
            };
            let mut interactions = Vec::new();
            for e in list(c, "interactions") {
                let r = e.as_record().ok_or("an interaction is not a record")?;
                let user = match r.get("user").and_then(FieldValue::as_str) {
                    Some("many") => User::Many,
                    _ => User::One,
                };
                let cost = r.get("cost").and_then(FieldValue::as_int).unwrap_or(1).clamp(0, 100) as i8;
                interactions.push((user, cost));
            }
            t.scenarios.push(Scenario {
                id: c.id.clone(),
                walls: cells("walls")?,
                obstacles: cells("obstacles")?,
                spawn: cells("spawn")?,
                start: cells("start")?,
                ability: has_text(c, "ability"),
                interactions,
            });
        }
        for (kind, out) in [
            ("one_upgrade", &mut t.one_upgrades),
            ("many_upgrade", &mut t.many_upgrades),
        ] {
            for c in comps(game, kind) {
                let equipment = c
                    .field("equipment")
                    .and_then(FieldValue::as_record)
                    .and_then(|r| r.get("cost"))
                    .and_then(FieldValue::as_int)
                    .map(|n| n.clamp(0, 100) as i8);
                let mut mods = Mods::default();
                if let Some(r) = c.field("modifiers").and_then(FieldValue::as_record) {
                    let g = |k: &str| r.get(k).and_then(FieldValue::as_int).unwrap_or(0).clamp(-20, 20) as i8;
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
            }
        }
        if t.characters.is_empty() || t.bosses.is_empty() || t.scenarios.is_empty() {
            return Err("the pack needs characters, bosses and scenarios".into());
        }
        if t.units.len() > 16 {
            return Err("at most 16 MANY unit types are supported".into());
        }
        if t.scenarios.len() > 64 || t.one_upgrades.len() > 64 || t.many_upgrades.len() > 64 {
            return Err("at most 64 scenario or upgrade cards per deck are supported".into());
        }
        Ok(t)
    }

    /// A square id (`D4`) as its index.
    pub fn square(&self, id: &str) -> Option<u8> {
        let b = id.as_bytes();
        if b.len() < 2 || b.len() > 3 || !b[0].is_ascii_uppercase() {
            return None;
        }
        let x = (b[0] - b'A' + 1) as usize;
        let y: usize = id[1..].parse().ok()?;
        if y == 0 || y >= 100 || id[1..].starts_with('0') {
            return None;
        }
        let i = self.grid[y][x];
        (i != NONE).then_some(i)
    }

    pub fn unit(&self, id: &str) -> Option<u8> {
        self.units.iter().position(|u| u.id == id).map(|i| i as u8)
    }

    pub fn character(&self, id: &str) -> Option<u8> {
        self.characters.iter().position(|u| u.id == id).map(|i| i as u8)
    }

    pub fn boss(&self, id: &str) -> Option<u8> {
        self.bosses.iter().position(|u| u.id == id).map(|i| i as u8)
    }

    pub fn scenario(&self, id: &str) -> Option<u8> {
        self.scenarios.iter().position(|u| u.id == id).map(|i| i as u8)
    }

    pub fn one_upgrade(&self, id: &str) -> Option<u8> {
        self.one_upgrades.iter().position(|u| u.id == id).map(|i| i as u8)
    }

    pub fn many_upgrade(&self, id: &str) -> Option<u8> {
        self.many_upgrades.iter().position(|u| u.id == id).map(|i| i as u8)
    }

    /// Distance along a shared row or column, or `None` off-line.
    pub fn line_distance(&self, a: u8, b: u8) -> Option<i8> {
        let (ax, ay) = self.xy[a as usize];
        let (bx, by) = self.xy[b as usize];
        if ax == bx {
            Some((ay - by).abs())
        } else if ay == by {
            Some((ax - bx).abs())
        } else {
            None
        }
    }

    pub fn adjacent(&self, a: u8, b: u8) -> bool {
        self.adj[a as usize].contains(&b)
    }

    pub fn name(&self, sq: u8) -> &str {
        self.squares.get(sq as usize).map_or("off the board", String::as_str)
    }
}
