//! What the Open Wars engine reads from the pack: unit, spell and location
//! stats and the scenario maps, as small indexed tables.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::model::{Component, FieldValue, Game};

/// Unit and location types, as the pack spells them.
pub const TYPES: [&str; 8] = [
    "water", "mountain", "forest", "plains", "desert", "city", "magic", "flying",
];
pub const WATER: u8 = 0;
pub const CITY: u8 = 5;
pub const MAGIC: u8 = 6;
pub const FLYING: u8 = 7;

/// Tokens per stack of a normal unit (OW-6).
pub const STACK_NORMAL: u8 = 4;

/// FNV-1a: ids are short, and SipHash dominated id lookups in replay.
#[derive(Default)]
pub struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 { 0xcbf2_9ce4_8422_2325 } else { self.0 };
        for b in bytes {
            h = (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
}

pub type Ids = HashMap<String, u16, BuildHasherDefault<Fnv>>;

pub struct Unit {
    pub id: String,
    pub faction: u8,
    pub cost: u8,
    pub initiative: u8,
    pub ty: u8,
    pub movement: u8,
    pub attack: u8,
    pub range: u8,
    pub unique: bool,
    pub copies: u8,
}

impl Unit {
    /// Tokens per stack (OW-6): magic and unique units stack 1.
    pub fn limit(&self) -> u8 {
        if self.ty == MAGIC || self.unique {
            1
        } else {
            STACK_NORMAL
        }
    }

    /// Initiative tie-break category (OW-11): flying > magic > unique > normal.
    pub fn class(&self) -> u8 {
        if self.ty == FLYING {
            3
        } else if self.ty == MAGIC {
            2
        } else if self.unique {
            1
        } else {
            0
        }
    }

    pub fn class_name(&self) -> &'static str {
        ["normal", "unique", "magic", "flying"][self.class() as usize]
    }

    /// Initiative order key: initiative, then category, then cost.
    pub fn key(&self) -> u32 {
        u32::from(self.initiative) * 10_000 + u32::from(self.class()) * 100 + u32::from(self.cost)
    }
}

pub struct Spell {
    pub id: String,
    /// `None` for a common spell.
    pub faction: Option<u8>,
    pub combat: bool,
    pub cost: u8,
}

pub struct Cell {
    pub id: String,
    pub location: String,
    pub ty: u8,
    pub entry: u8,
    pub gold: u8,
    pub mana: u8,
    pub adj: Vec<u8>,
    /// A city with an orthogonally adjacent water cell.
    pub port: bool,
}

pub struct Scenario {
    pub id: String,
    pub players: u8,
    pub cells: Vec<Cell>,
    /// Orthogonal steps between cells (BFS over the adjacency).
    pub dist: Vec<Vec<u8>>,
    /// Start cells per player, as bit masks.
    pub starts: Vec<u32>,
    pub objectives: u32,
    pub turn_limit: Option<u8>,
    pub fixed_order: bool,
    pub skip_collection: bool,
    pub skip_recruitment: bool,
    pub skip_movement: bool,
    pub ranged_first: bool,
    pub budget: u32,
    pub gold: u32,
    pub mana: u32,
    /// Cell index by id `[a-z][1-9]` (255: none), for fast lookups.
    pub grid: [u8; 26 * 9],
}

impl Scenario {
    pub fn cell(&self, id: &str) -> Option<u8> {
        if let Some(k) = grid_key(id) {
            return Some(self.grid[k]).filter(|&c| c != u8::MAX);
        }
        self.cells.iter().position(|c| c.id == id).map(|i| i as u8)
    }

    pub fn ids(&self, mask: u32) -> Vec<&str> {
        (0..self.cells.len())
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| self.cells[i].id.as_str())
            .collect()
    }
}

/// `c3` → its slot in [`Scenario::grid`].
fn grid_key(id: &str) -> Option<usize> {
    match id.as_bytes() {
        [l @ b'a'..=b'z', d @ b'1'..=b'9'] => Some(usize::from(l - b'a') * 9 + usize::from(d - b'1')),
        _ => None,
    }
}

pub struct Tables {
    pub factions: Vec<String>,
    pub units: Vec<Unit>,
    pub unit_ix: Ids,
    pub spells: Vec<Spell>,
    pub spell_ix: Ids,
    pub maps: Vec<Scenario>,
}

fn int(c: &Component, f: &str) -> Result<i64, String> {
    c.field(f)
        .and_then(FieldValue::as_int)
        .ok_or_else(|| format!("{} `{}` has no integer `{f}`", c.kind, c.id))
}

fn small(c: &Component, f: &str) -> Result<u8, String> {
    u8::try_from(int(c, f)?).map_err(|_| format!("{} `{}`: `{f}` out of range", c.kind, c.id))
}

fn text<'a>(c: &'a Component, f: &str) -> Result<&'a str, String> {
    c.field(f)
        .and_then(FieldValue::as_str)
        .ok_or_else(|| format!("{} `{}` has no `{f}`", c.kind, c.id))
}

fn ty(c: &Component) -> Result<u8, String> {
    let t = text(c, "type")?;
    TYPES
        .iter()
        .position(|x| *x == t)
        .map(|i| i as u8)
        .ok_or_else(|| format!("{} `{}`: unknown type `{t}`", c.kind, c.id))
}

impl Tables {
    pub fn read(game: &Game) -> Result<Tables, String> {
        let list = |kind: &str| game.components.get(kind).map(Vec::as_slice).unwrap_or(&[]);
        let factions: Vec<String> = list("faction").iter().map(|c| c.id.clone()).collect();
        let faction_of = |c: &Component| -> Result<Option<u8>, String> {
            let f = text(c, "faction")?;
            if f == "common" {
                return Ok(None);
            }
            factions
                .iter()
                .position(|x| x == f)
                .map(|i| Some(i as u8))
                .ok_or_else(|| format!("{} `{}`: unknown faction `{f}`", c.kind, c.id))
        };
        let mut units = Vec::new();
        for c in list("unit") {
            units.push(Unit {
                id: c.id.clone(),
                faction: faction_of(c)?.ok_or_else(|| format!("unit `{}` has no faction", c.id))?,
                cost: small(c, "cost")?,
                initiative: small(c, "initiative")?,
                ty: ty(c)?,
                movement: small(c, "movement")?,
                attack: small(c, "attack")?,
                range: small(c, "range")?,
                unique: matches!(c.field("unique"), Some(FieldValue::Bool(true))),
                copies: u8::try_from(c.copies).unwrap_or(u8::MAX),
            });
        }
        let mut spells = Vec::new();
        for c in list("spell") {
            spells.push(Spell {
                id: c.id.clone(),
                faction: faction_of(c)?,
                combat: text(c, "kind")? == "combat",
                cost: small(c, "mana_cost")?,
            });
        }
        let mut maps = Vec::new();
        for m in list("map") {
            maps.push(read_map(game, m)?);
        }
        if maps.is_empty() {
            return Err("no scenario map".into());
        }
        if units.len() > usize::from(u16::MAX) || spells.len() > usize::from(u16::MAX) {
            return Err("too many units or spells".into());
        }
        Ok(Tables {
            unit_ix: units
                .iter()
                .enumerate()
                .map(|(i, u)| (u.id.clone(), i as u16))
                .collect(),
            spell_ix: spells
                .iter()
                .enumerate()
                .map(|(i, s)| (s.id.clone(), i as u16))
                .collect(),
            factions,
            units,
            spells,
            maps,
        })
    }
}

fn read_map(game: &Game, m: &Component) -> Result<Scenario, String> {
    let err = |what: &str| format!("map `{}`: {what}", m.id);
    let cells_raw = m
        .field("cells")
        .and_then(FieldValue::as_list)
        .ok_or_else(|| err("no cells"))?;
    if cells_raw.len() > 32 {
        return Err(err("more than 32 cells"));
    }
    let mut cells = Vec::new();
    let mut adj_ids: Vec<Vec<String>> = Vec::new();
    for c in cells_raw {
        let r = c.as_record().ok_or_else(|| err("a cell is not a record"))?;
        let id = r
            .get("id")
            .and_then(FieldValue::as_str)
            .ok_or_else(|| err("a cell has no id"))?;
        let loc_id = r
            .get("location")
            .and_then(FieldValue::as_str)
            .ok_or_else(|| err("a cell has no location"))?;
        let loc = game
            .component("location", loc_id)
            .ok_or_else(|| err(&format!("unknown location `{loc_id}`")))?;
        cells.push(Cell {
            id: id.to_string(),
            location: loc_id.to_string(),
            ty: ty(loc)?,
            entry: small(loc, "entry_cost")?,
            gold: small(loc, "gold")?,
            mana: small(loc, "mana")?,
            adj: Vec::new(),
            port: false,
        });
        adj_ids.push(
            r.get("adjacent")
                .and_then(FieldValue::as_list)
                .unwrap_or(&[])
                .iter()
                .filter_map(FieldValue::as_str)
                .map(str::to_string)
                .collect(),
        );
    }
    for (i, ids) in adj_ids.iter().enumerate() {
        for a in ids {
            let j = cells
                .iter()
                .position(|c| &c.id == a)
                .ok_or_else(|| err(&format!("unknown adjacent cell `{a}`")))?;
            cells[i].adj.push(j as u8);
        }
    }
    for i in 0..cells.len() {
        let port = cells[i].ty == CITY && cells[i].adj.iter().any(|&j| cells[j as usize].ty == WATER);
        cells[i].port = port;
    }
    let n = cells.len();
    let mut dist = vec![vec![u8::MAX; n]; n];
    for (s, row) in dist.iter_mut().enumerate() {
        row[s] = 0;
        let mut queue = vec![s];
        let mut head = 0;
        while head < queue.len() {
            let c = queue[head];
            head += 1;
            for &j in &cells[c].adj {
                if row[j as usize] == u8::MAX {
                    row[j as usize] = row[c] + 1;
                    queue.push(j as usize);
                }
            }
        }
    }
    let mask_of = |list: &[FieldValue]| -> Result<u32, String> {
        let mut mask = 0;
        for v in list {
            let id = v.as_str().ok_or_else(|| err("a cell list holds a non-string"))?;
            let i = cells
                .iter()
                .position(|c| c.id == id)
                .ok_or_else(|| err(&format!("unknown cell `{id}`")))?;
            mask |= 1 << i;
        }
        Ok(mask)
    };
    let players = small(m, "players")?;
    let mut starts = vec![0u32; usize::from(players)];
    for s in m.field("starts").and_then(FieldValue::as_list).unwrap_or(&[]) {
        let r = s.as_record().ok_or_else(|| err("a start is not a record"))?;
        let p = r
            .get("player")
            .and_then(FieldValue::as_int)
            .ok_or_else(|| err("a start has no player"))?;
        let cells_of = r.get("cells").and_then(FieldValue::as_list).unwrap_or(&[]);
        let slot = usize::try_from(p - 1)
            .ok()
            .and_then(|i| starts.get_mut(i))
            .ok_or_else(|| err(&format!("start for player {p}")))?;
        *slot |= mask_of(cells_of)?;
    }
    let skips: Vec<&str> = m
        .field("first_turn_skips")
        .and_then(FieldValue::as_list)
        .unwrap_or(&[])
        .iter()
        .filter_map(FieldValue::as_str)
        .collect();
    let mut grid = [u8::MAX; 26 * 9];
    for (i, c) in cells.iter().enumerate() {
        if let Some(k) = grid_key(&c.id) {
            grid[k] = i as u8;
        }
    }
    Ok(Scenario {
        grid,
        id: m.id.clone(),
        players,
        dist,
        starts,
        objectives: mask_of(m.field("objectives").and_then(FieldValue::as_list).unwrap_or(&[]))?,
        turn_limit: m
            .field("turn_limit")
            .and_then(FieldValue::as_int)
            .and_then(|t| u8::try_from(t).ok()),
        fixed_order: m.field("turn_order").and_then(FieldValue::as_str) == Some("fixed"),
        skip_collection: skips.contains(&"collection"),
        skip_recruitment: skips.contains(&"recruitment"),
        skip_movement: skips.contains(&"movement"),
        ranged_first: m.field("isolated_ranged_combat").and_then(FieldValue::as_str) != Some("last"),
        budget: int(m, "army_budget")?.max(0) as u32,
        gold: int(m, "start_gold")?.max(0) as u32,
        mana: int(m, "start_mana")?.max(0) as u32,
        cells,
    })
}
