//! What the Open Wars engine reads from the pack: unit, spell and location
//! stats and the scenario maps (a grid graph of cells with their settings),
//! as small indexed tables. Every problem is a located `engine-data`
//! diagnostic.

use super::effects::{Def, Owv};
use crate::diag::Diagnostic;
use crate::model::{Component, FieldValue, Game};
use crate::rules::kit::graph::{MAX_NODES, Set};
use crate::rules::kit::{Graph, IdTable, Reader};

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
}

pub struct Spell {
    pub id: String,
    /// `None` for a common spell.
    pub faction: Option<u8>,
    pub combat: bool,
    pub cost: u8,
}

pub struct Cell {
    pub location: String,
    /// The location's feature as a compiled effect.
    pub effect: Option<u16>,
    pub ty: u8,
    pub entry: u8,
    pub gold: u8,
    pub mana: u8,
    /// A city with an orthogonally adjacent water cell.
    pub port: bool,
}

/// Which locations a ranged attack may target (OW-15; the map's
/// `ranged_targets`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ranged {
    /// Along the attacker's row or column only, never a diagonal (the
    /// seed's wording, the default).
    Lines,
    /// Any location within range counting orthogonal steps (a diagonal
    /// neighbour is 2 steps away).
    Steps,
}

pub struct Scenario {
    pub id: String,
    pub players: u8,
    /// The cells (ids, adjacency as the pack lists it, grid coordinates).
    pub grid: Graph,
    pub cells: Vec<Cell>,
    /// Start cells per player.
    pub starts: Vec<Set>,
    pub objectives: Set,
    pub turn_limit: Option<u8>,
    pub fixed_order: bool,
    pub skip_collection: bool,
    pub skip_recruitment: bool,
    pub skip_movement: bool,
    pub ranged_first: bool,
    pub ranged: Ranged,
    pub budget: u32,
    pub gold: u32,
    pub mana: u32,
    /// Cell index by id `[a-z][1-9]` (255: none): the replay looks cells up
    /// for nearly every action, and this beats hashing the id.
    by_name: [u8; 26 * 9],
}

/// `c3` → its slot in [`Scenario::by_name`].
fn grid_key(id: &str) -> Option<usize> {
    match id.as_bytes() {
        [l @ b'a'..=b'z', d @ b'1'..=b'9'] => Some(usize::from(l - b'a') * 9 + usize::from(d - b'1')),
        _ => None,
    }
}

impl Scenario {
    pub fn cell(&self, id: &str) -> Option<u8> {
        match grid_key(id) {
            Some(k) => Some(self.by_name[k]).filter(|&c| c != u8::MAX),
            None => self.grid.index(id),
        }
    }

    pub fn ids(&self, mask: Set) -> Vec<&str> {
        self.grid.names(mask)
    }

    /// How far a ranged attack from `from` reaches `to` (OW-15), or `None`
    /// when it cannot target it at any range.
    pub fn shot(&self, from: u8, to: u8) -> Option<u8> {
        match self.ranged {
            Ranged::Lines => self.grid.straight(from, to),
            Ranged::Steps => Some(self.grid.distance(from, to)),
        }
    }
}

pub struct Tables {
    pub factions: Vec<String>,
    pub units: Vec<Unit>,
    pub unit_ix: IdTable,
    pub spells: Vec<Spell>,
    pub spell_ix: IdTable,
    pub maps: Vec<Scenario>,
    /// Every feature and spell as a compiled effect.
    pub fx: Fx,
}

/// The compiled effects: location features and spells.
#[derive(Clone, Debug, Default)]
pub struct Fx {
    pub defs: Vec<Def>,
    /// Per effect: a bit per outcome with a continuous clause giving it
    /// ([`Fx::continuous`]), so most modifier questions end at once.
    pub continuous: Vec<u64>,
    pub names: Vec<String>,
    pub spells: Vec<Option<u16>>,
}

impl Fx {
    /// The bit of outcome `o` in [`Fx::continuous`].
    pub fn bit(o: super::effects::Out) -> u64 {
        1u64 << (o as u32 % 64)
    }
}

fn ty<'g>(r: &mut Reader<'g>, c: &'g Component) -> u8 {
    let t = r.str(c, "type").unwrap_or("");
    match TYPES.iter().position(|x| *x == t) {
        Some(i) => i as u8,
        None => {
            r.error(
                c,
                "type",
                format!("{} `{}` has a type the engine does not know", c.kind, c.id),
                format!("one of {}", TYPES.join(", ")),
                format!("`{t}`"),
            );
            0
        }
    }
}

impl Tables {
    pub fn read(game: &Game) -> Result<Tables, Vec<Diagnostic>> {
        let mut r = Reader::new(game);
        let factions: Vec<String> = r.some("faction", "factions").iter().map(|c| c.id.clone()).collect();
        let faction_of = |r: &mut Reader, c: &Component| -> Option<u8> {
            let f = r.opt_str(c, "faction").unwrap_or("");
            if f == "common" {
                return None;
            }
            let i = factions.iter().position(|x| x == f);
            if i.is_none() {
                r.error(
                    c,
                    "faction",
                    format!("{} `{}` names an unknown faction", c.kind, c.id),
                    format!("`common` or one of {}", factions.join(", ")),
                    format!("`{f}`"),
                );
            }
            i.map(|i| i as u8)
        };
        let mut units = Vec::new();
        for c in r.some("unit", "units") {
            let faction = faction_of(&mut r, c);
            if faction.is_none() && r.opt_str(c, "faction") == Some("common") {
                r.error(
                    c,
                    "faction",
                    format!("unit `{}` has no faction", c.id),
                    "a faction",
                    "`common`",
                );
            }
            units.push(Unit {
                id: c.id.clone(),
                faction: faction.unwrap_or(0),
                cost: r.small(c, "cost").unwrap_or(0),
                initiative: r.small(c, "initiative").unwrap_or(0),
                ty: ty(&mut r, c),
                movement: r.small(c, "movement").unwrap_or(0),
                attack: r.small(c, "attack").unwrap_or(0),
                range: r.small(c, "range").unwrap_or(0),
                unique: r.flag(c, "unique"),
                copies: u8::try_from(c.copies).unwrap_or(u8::MAX),
            });
        }
        let mut spells = Vec::new();
        for c in r.all("spell") {
            spells.push(Spell {
                id: c.id.clone(),
                faction: faction_of(&mut r, c),
                combat: r.str(c, "kind") == Some("combat"),
                cost: r.small(c, "mana_cost").unwrap_or(0),
            });
        }
        let mut maps = Vec::new();
        for m in r.some("map", "scenario maps") {
            if let Some(map) = read_map(&mut r, m) {
                maps.push(map);
            }
        }
        let unit_ix = units.iter().map(|u| u.id.clone()).collect();
        let spell_ix = spells.iter().map(|s| s.id.clone()).collect();
        let mut fx = Fx::default();
        fn add(fx: &mut Fx, d: Def, name: &str) -> Option<u16> {
            if d.clauses.is_empty() {
                return None;
            }
            fx.continuous.push(
                d.clauses
                    .iter()
                    .filter(|c| c.when == super::effects::When::Continuous)
                    .flat_map(|c| c.out.iter())
                    .fold(0, |m, (o, _)| m | Fx::bit(*o)),
            );
            fx.defs.push(d);
            fx.names.push(name.to_string());
            Some((fx.defs.len() - 1) as u16)
        }
        let mut features = std::collections::HashMap::new();
        for c in r.all("location") {
            let d = r.effect::<Owv>(c, "effect", c.field("effect"));
            features.insert(c.id.clone(), add(&mut fx, d, &c.id));
        }
        for m in &mut maps {
            for cell in &mut m.cells {
                cell.effect = features.get(&cell.location).copied().flatten();
            }
        }
        for c in r.all("spell") {
            let d = r.effect::<Owv>(c, "effect", c.field("effect"));
            let i = add(&mut fx, d, &c.id);
            fx.spells.push(i);
        }
        r.finish(Some(Tables {
            unit_ix,
            spell_ix,
            factions,
            units,
            spells,
            maps,
            fx,
        }))
    }
}

fn read_map<'g>(r: &mut Reader<'g>, m: &'g Component) -> Option<Scenario> {
    let game = r.game();
    let raw = r.list(m, "cells");
    if raw.is_empty() || raw.len() > MAX_NODES {
        r.error(
            m,
            "cells",
            format!("map `{}` has {} cells", m.id, raw.len()),
            format!("1 to {MAX_NODES} cells"),
            raw.len(),
        );
        return None;
    }
    let field = |c: &FieldValue, f: &str| c.as_record().and_then(|x| x.get(f)).cloned();
    let mut ids = IdTable::new();
    let mut xy = Vec::new();
    let mut cells = Vec::new();
    for c in raw {
        let id = field(c, "id")
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        let col = field(c, "col").and_then(|v| v.as_int()).unwrap_or(0);
        let row = field(c, "row").and_then(|v| v.as_int()).unwrap_or(0);
        let loc_id = field(c, "location")
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        let cell = match game.component("location", &loc_id) {
            Some(loc) => Cell {
                effect: None,
                location: loc_id,
                ty: ty(r, loc),
                entry: r.small(loc, "entry_cost").unwrap_or(1),
                gold: r.small(loc, "gold").unwrap_or(0),
                mana: r.small(loc, "mana").unwrap_or(0),
                port: false,
            },
            None => {
                r.error(
                    m,
                    "cells",
                    format!("cell `{id}` of map `{}` lies on an unknown location", m.id),
                    "a `location` component id",
                    format!("`{loc_id}`"),
                );
                Cell {
                    effect: None,
                    location: loc_id,
                    ty: 0,
                    entry: 1,
                    gold: 0,
                    mana: 0,
                    port: false,
                }
            }
        };
        ids.push(id);
        xy.push((col as i16, row as i16));
        cells.push(cell);
    }
    let mut lists = Vec::new();
    for (i, c) in raw.iter().enumerate() {
        let mut adj = Vec::new();
        let listed = field(c, "adjacent");
        for a in listed.as_ref().and_then(FieldValue::as_list).unwrap_or(&[]) {
            let a = a.as_str().unwrap_or("");
            let Some(j) = ids.get(a) else {
                r.error(
                    m,
                    "cells",
                    format!("cell `{}` of map `{}` is next to an unknown cell", ids.name(i), m.id),
                    "ids of the map's cells",
                    format!("`{a}`"),
                );
                continue;
            };
            // Movement and ranged attacks are orthogonal: a neighbour is one
            // column or one row away.
            let ((ac, ar), (bc, br)) = (xy[i], xy[j as usize]);
            if (ac - bc).abs() + (ar - br).abs() != 1 {
                r.error(
                    m,
                    "cells",
                    format!(
                        "cell `{}` of map `{}` is listed next to `{a}`, which is not an orthogonal neighbour",
                        ids.name(i),
                        m.id
                    ),
                    format!("a cell one column or one row from col {ac}, row {ar}"),
                    format!("`{a}` at col {bc}, row {br}"),
                );
                continue;
            }
            adj.push(j as u8);
        }
        lists.push(adj);
    }
    let grid = Graph::new(ids, lists, false).with_coordinates(xy);
    let mut by_name = [u8::MAX; 26 * 9];
    for i in 0..grid.len() as u8 {
        if let Some(k) = grid_key(grid.name(i)) {
            by_name[k] = i;
        }
    }
    for i in 0..cells.len() {
        let port = cells[i].ty == CITY && grid.neighbours(i as u8).iter().any(|&j| cells[j as usize].ty == WATER);
        cells[i].port = port;
    }
    let mask_of = |r: &mut Reader, list: &[FieldValue], f: &str| -> Set {
        let mut mask = 0;
        for v in list {
            let id = v.as_str().unwrap_or("");
            match grid.index(id) {
                Some(i) => mask |= 1 << i,
                None => r.error(
                    m,
                    f,
                    format!("map `{}` names an unknown cell in `{f}`", m.id),
                    "ids of the map's cells",
                    format!("`{id}`"),
                ),
            }
        }
        mask
    };
    let players = r.small::<u8>(m, "players").unwrap_or(2);
    let mut starts = vec![0; usize::from(players)];
    for s in r.list(m, "starts") {
        let rec = s.as_record();
        let p = rec
            .and_then(|x| x.get("player"))
            .and_then(FieldValue::as_int)
            .unwrap_or(0);
        let cells_of = rec
            .and_then(|x| x.get("cells"))
            .and_then(FieldValue::as_list)
            .unwrap_or(&[]);
        let mask = mask_of(r, cells_of, "starts");
        match usize::try_from(p - 1).ok().and_then(|i| starts.get_mut(i)) {
            Some(slot) => *slot |= mask,
            None => r.error(
                m,
                "starts",
                format!("map `{}` gives start cells to player {p}", m.id),
                format!("players 1 to {players}"),
                format!("player {p}"),
            ),
        }
    }
    let skips: Vec<&str> = r
        .list(m, "first_turn_skips")
        .iter()
        .filter_map(FieldValue::as_str)
        .collect();
    let objectives = mask_of(r, r.list(m, "objectives"), "objectives");
    let ranged = match r.opt_str(m, "ranged_targets") {
        Some("steps") => Ranged::Steps,
        _ => Ranged::Lines,
    };
    Some(Scenario {
        id: m.id.clone(),
        players,
        starts,
        objectives,
        turn_limit: r.opt_int(m, "turn_limit").and_then(|t| u8::try_from(t).ok()),
        fixed_order: r.opt_str(m, "turn_order") == Some("fixed"),
        skip_collection: skips.contains(&"collection"),
        skip_recruitment: skips.contains(&"recruitment"),
        skip_movement: skips.contains(&"movement"),
        ranged_first: r.opt_str(m, "isolated_ranged_combat") != Some("last"),
        ranged,
        budget: r.int(m, "army_budget").unwrap_or(0).max(0) as u32,
        gold: r.int(m, "start_gold").unwrap_or(0).max(0) as u32,
        mana: r.int(m, "start_mana").unwrap_or(0).max(0) as u32,
        grid,
        cells,
        by_name,
    })
}
