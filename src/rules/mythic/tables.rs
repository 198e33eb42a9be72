//! What the Mythic Battles engine reads from the pack, as compact tables:
//! units (sheets and troop cards), cards, battlefields (areas, adjacency,
//! distances, lines of sight) and game modes.

use crate::model::{Component, FieldValue, Game};

/// Most card designs a player's hand, deck and discard pile can hold.
pub const MAXC: usize = 32;
/// Most areas on a battlefield (area sets are `u32` masks).
pub const MAXA: usize = 30;
/// Most units in one game (unit sets are `u32` masks).
pub const MAXU: usize = 32;

/// Card index of the Art of War card.
pub const AOW: u8 = 0;
/// Card index of the omphalos card.
pub const OMPH: u8 = 1;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cat {
    God,
    Hero,
    Monster,
    Troop,
}

impl Cat {
    pub fn name(self) -> &'static str {
        match self {
            Cat::God => "god",
            Cat::Hero => "hero",
            Cat::Monster => "monster",
            Cat::Troop => "troop",
        }
    }
}

/// One row of a stat ladder (troops have a single row).
#[derive(Clone, Copy, Debug, Default)]
pub struct Row {
    pub attack: u8,
    pub defense: u8,
    pub range: u8,
    pub movement: u8,
    pub power: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PowerKind {
    Special,
    Active,
    Passive,
    Permanent,
}

#[derive(Clone, Debug)]
pub struct PowerDef {
    /// The English name as a slug (`lightning-bolt`): how logs name it.
    pub slug: String,
    pub kind: PowerKind,
    pub cost: u8,
    /// Special attacks: reach replacing the unit's range.
    pub range: Option<u8>,
    /// Special attacks: whether a line of sight is needed.
    pub sight: bool,
    /// Attacks allowed in the activation (special: power rolls; active: normal attacks).
    pub attacks: u8,
    /// Extra activations this turn.
    pub activations: u8,
}

/// Talents the engine applies (bit positions in [`UnitDef::talents`]).
pub mod talent {
    pub const ARCHER: u32 = 1 << 0;
    pub const SURPRISE_ATTACK: u32 = 1 << 1;
    pub const BLOCK: u32 = 1 << 2;
    pub const DIRECT_COMBAT: u32 = 1 << 3;
    pub const CLIMB: u32 = 1 << 4;
    pub const ESCORT: u32 = 1 << 5;
    pub const PHALANX: u32 = 1 << 6;
    pub const HARASS: u32 = 1 << 7;
    pub const MOBILITY: u32 = 1 << 8;
    pub const GEM_COLLECTOR: u32 = 1 << 9;
    pub const REINFORCE: u32 = 1 << 10;
    pub const STORM: u32 = 1 << 11;

    pub const NAMES: &[(&str, u32)] = &[
        ("archer", ARCHER),
        ("surprise-attack", SURPRISE_ATTACK),
        ("block", BLOCK),
        ("direct-combat", DIRECT_COMBAT),
        ("climb", CLIMB),
        ("escort", ESCORT),
        ("phalanx", PHALANX),
        ("harass", HARASS),
        ("mobility", MOBILITY),
        ("gem-collector", GEM_COLLECTOR),
        ("reinforce", REINFORCE),
        ("storm", STORM),
    ];
}

#[derive(Clone, Debug)]
pub struct UnitDef {
    pub id: String,
    pub cat: Cat,
    /// Ladder rows, full health first (troops: one row).
    pub rows: Vec<Row>,
    /// Troops: figures of the complete troop.
    pub figures: u8,
    /// Troops: (figures at least, attack bonus, defense bonus).
    pub bonus: Vec<(u8, i8, i8)>,
    pub talents: u32,
    pub powers: Vec<PowerDef>,
    pub activation: u8,
    pub strategy: u8,
    pub cost: u8,
    pub flying: bool,
    /// Index of this unit's activation card.
    pub card: u8,
}

impl UnitDef {
    /// Wounds that destroy the unit.
    pub fn life(&self) -> u8 {
        if self.cat == Cat::Troop {
            self.figures
        } else {
            self.rows.len() as u8
        }
    }
}

/// Terrain effects of an area (bit flags).
pub mod terrain {
    /// Blocks lines of sight crossing it.
    pub const SIGHT: u8 = 1 << 0;
    /// Cannot be entered without Climb (rock, crag).
    pub const NO_ENTRY: u8 = 1 << 1;
    /// +1 attack and +1 range, ignores obstacles (heights, rock).
    pub const HIGH: u8 = 1 << 2;
    /// +1 defense against ranged attacks (forest, cage of Tartarus).
    pub const COVER_RANGED: u8 = 1 << 3;
    /// +1 defense against attacks from the same area (ruins).
    pub const COVER_SAME: u8 = 1 << 4;
    /// -1 defense against ranged attacks (swamp).
    pub const EXPOSED: u8 = 1 << 5;
}

#[derive(Clone, Debug)]
pub struct Area {
    pub id: String,
    pub x: f64,
    pub y: f64,
    pub capacity: u8,
    pub terrain: u8,
}

#[derive(Clone, Debug)]
pub struct Board {
    pub id: String,
    pub areas: Vec<Area>,
    pub adj: Vec<u32>,
    /// Steps between areas.
    pub dist: Vec<[u8; MAXA]>,
    /// Areas a line of sight between two centres crosses.
    pub between: Vec<[u32; MAXA]>,
    /// Borders no unit crosses.
    pub wall: Vec<u32>,
    /// Borders only flying or climbing units cross.
    pub escarpment: Vec<u32>,
    /// `high[a]`: areas on the tip side of an altitude line from `a`.
    pub high: Vec<u32>,
    /// Deployment areas per side (index 0 = side 1).
    pub deploy: [u32; 4],
    /// Omphalos spots per mode index.
    pub omphalos: Vec<(usize, Vec<u8>)>,
    /// Areas on the board's edge (deployment areas of any side).
    pub edge: u32,
}

impl Board {
    pub fn area(&self, id: &str) -> Option<u8> {
        self.areas.iter().position(|a| a.id == id).map(|i| i as u8)
    }
}

/// How sides, turns and victory work in a mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Fixed armies on the board from the start, no terrain, no entry.
    Fixed,
    /// One God per player, every player on their own.
    Solo,
    /// Two teams of Gods (players alternate teams in turn order).
    Teams,
    /// Player 1 with a God against god-less allies.
    Lone,
}

#[derive(Clone, Debug)]
pub struct ModeDef {
    pub id: String,
    pub shape: Shape,
    pub players: u8,
    pub sides: u8,
    pub points: u8,
    pub ally_points: u8,
    /// Players (0-based) who choose a God.
    pub gods: Vec<u8>,
    /// Turn cycle (0-based players).
    pub cycle: Vec<u8>,
    /// Fixed armies: god and other units (unit indices).
    pub armies: Vec<Vec<u8>>,
    pub victory: u8,
    pub ally_victory: u8,
    pub team_omphalos: bool,
    pub omphalos_cards: u8,
    pub opening_draw: u8,
    pub opening_aow: u8,
    pub reshuffle: u8,
    pub max_activations: u8,
}

impl ModeDef {
    /// The team of a player (victory and friend or foe).
    pub fn team(&self, p: usize) -> u8 {
        match self.shape {
            Shape::Fixed | Shape::Solo => p as u8,
            Shape::Teams => (p % self.sides.max(1) as usize) as u8,
            Shape::Lone => u8::from(p != 0),
        }
    }

    /// The deployment side of a player (1-based).
    pub fn side(&self, p: usize) -> u8 {
        match self.shape {
            Shape::Teams => self.team(p) + 1,
            _ => p as u8 + 1,
        }
    }
}

pub struct Tables {
    pub units: Vec<UnitDef>,
    /// Card ids by index: `art-of-war`, `omphalos`, then activation cards.
    pub cards: Vec<String>,
    pub boards: Vec<Board>,
    pub modes: Vec<ModeDef>,
    pub omphalos_copies: u8,
}

fn int(c: &Component, f: &str) -> Result<i64, String> {
    c.field(f)
        .and_then(FieldValue::as_int)
        .ok_or_else(|| format!("{} `{}` has no integer `{f}`", c.kind, c.id))
}

fn opt_int(c: &Component, f: &str) -> Option<i64> {
    c.field(f).and_then(FieldValue::as_int)
}

fn rec_int(r: &indexmap::IndexMap<String, FieldValue>, f: &str) -> Option<i64> {
    r.get(f).and_then(FieldValue::as_int)
}

fn small(v: i64) -> u8 {
    v.clamp(0, 255) as u8
}

fn num(v: Option<&FieldValue>) -> f64 {
    match v {
        Some(FieldValue::Int(i)) => *i as f64,
        Some(FieldValue::Number(n)) => *n,
        _ => 0.0,
    }
}

/// `Achilles' Prowess` → `achilles-prowess`.
pub fn slug(name: &str) -> String {
    let mut out = String::new();
    for ch in name.chars().filter(|c| *c != '\'' && *c != '’') {
        if ch.is_alphanumeric() {
            out.extend(ch.to_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

fn talents(c: &Component) -> u32 {
    let mut bits = 0;
    for t in c.field("talents").and_then(FieldValue::as_list).unwrap_or(&[]) {
        if let Some(&(_, b)) = t.as_str().and_then(|id| talent::NAMES.iter().find(|(n, _)| *n == id)) {
            bits |= b;
        }
    }
    bits
}

fn comps<'a>(game: &'a Game, kind: &str) -> &'a [Component] {
    game.components.get(kind).map(Vec::as_slice).unwrap_or(&[])
}

impl Tables {
    pub fn new(game: &Game) -> Result<Tables, String> {
        let mut units = Vec::new();
        for c in comps(game, "character") {
            let cat = match c.field("category").and_then(FieldValue::as_str) {
                Some("god") => Cat::God,
                Some("hero") => Cat::Hero,
                Some("monster") => Cat::Monster,
                other => return Err(format!("character `{}` has category {other:?}", c.id)),
            };
            let mut rows = Vec::new();
            for r in c.field("ladder").and_then(FieldValue::as_list).unwrap_or(&[]) {
                let r = r.as_record().ok_or("a ladder row is not a record")?;
                rows.push(Row {
                    attack: small(rec_int(r, "attack").unwrap_or(0)),
                    defense: small(rec_int(r, "defense").unwrap_or(0)),
                    range: small(rec_int(r, "range").unwrap_or(0)),
                    movement: small(rec_int(r, "movement").unwrap_or(0)),
                    power: small(rec_int(r, "power").unwrap_or(0)),
                });
            }
            if rows.is_empty() {
                return Err(format!("character `{}` has no ladder", c.id));
            }
            let dice = c.field("power_column").and_then(FieldValue::as_str) == Some("dice");
            let mut powers = Vec::new();
            for p in c.field("powers").and_then(FieldValue::as_list).unwrap_or(&[]) {
                let p = p.as_record().ok_or("a power is not a record")?;
                let name = match p.get("name") {
                    Some(FieldValue::Text(t)) => t.get("en").to_string(),
                    Some(FieldValue::Str(s)) => s.clone(),
                    _ => String::from("power"),
                };
                let kind = match p.get("kind").and_then(FieldValue::as_str) {
                    Some("special_attack") if dice => PowerKind::Special,
                    Some("special_attack") => PowerKind::Active,
                    Some("active") => PowerKind::Active,
                    Some("passive") => PowerKind::Passive,
                    _ => PowerKind::Permanent,
                };
                powers.push(PowerDef {
                    slug: slug(&name),
                    kind,
                    cost: small(rec_int(p, "cost").unwrap_or(0)),
                    range: rec_int(p, "range").map(small),
                    sight: !matches!(p.get("sight"), Some(FieldValue::Bool(false))),
                    attacks: small(rec_int(p, "attacks").unwrap_or(1)).max(1),
                    activations: small(rec_int(p, "activations").unwrap_or(0)),
                });
            }
            units.push(UnitDef {
                id: c.id.clone(),
                cat,
                figures: rows.len() as u8,
                rows,
                bonus: Vec::new(),
                talents: talents(c),
                powers,
                activation: small(int(c, "activation")?),
                strategy: small(opt_int(c, "strategy").unwrap_or(0)),
                cost: small(opt_int(c, "cost").unwrap_or(0)),
                flying: c.field("unit_type").and_then(FieldValue::as_str) == Some("flying"),
                card: 0,
            });
        }
        for c in comps(game, "troop") {
            let mut bonus = Vec::new();
            for b in c.field("bonus").and_then(FieldValue::as_list).unwrap_or(&[]) {
                let b = b.as_record().ok_or("a troop bonus is not a record")?;
                bonus.push((
                    small(rec_int(b, "figures").unwrap_or(1)),
                    rec_int(b, "attack").unwrap_or(0).clamp(-9, 9) as i8,
                    rec_int(b, "defense").unwrap_or(0).clamp(-9, 9) as i8,
                ));
            }
            units.push(UnitDef {
                id: c.id.clone(),
                cat: Cat::Troop,
                rows: vec![Row {
                    attack: small(int(c, "attack")?),
                    defense: small(int(c, "defense")?),
                    range: small(int(c, "range")?),
                    movement: small(int(c, "movement")?),
                    power: 0,
                }],
                figures: small(int(c, "figures")?).max(1),
                bonus,
                talents: talents(c),
                powers: Vec::new(),
                activation: small(int(c, "activation")?),
                strategy: 0,
                cost: small(opt_int(c, "cost").unwrap_or(1)),
                flying: c.field("unit_type").and_then(FieldValue::as_str) == Some("flying"),
                card: 0,
            });
        }
        if units.len() > MAXU {
            return Err(format!("{} units; the engine handles at most {MAXU}", units.len()));
        }

        let mut cards = vec![
            comps(game, "art_of_war")
                .first()
                .map_or("art-of-war".to_string(), |c| c.id.clone()),
            comps(game, "omphalos")
                .first()
                .map_or("omphalos".to_string(), |c| c.id.clone()),
        ];
        for c in comps(game, "activation") {
            let target = c
                .field("character")
                .or_else(|| c.field("troop"))
                .and_then(FieldValue::as_str)
                .ok_or_else(|| format!("activation card `{}` names no unit", c.id))?;
            let u = units
                .iter()
                .position(|u| u.id == target)
                .ok_or_else(|| format!("activation card `{}` names unknown unit `{target}`", c.id))?;
            if units[u].card != 0 {
                return Err(format!("unit `{target}` has two activation card designs"));
            }
            units[u].card = cards.len() as u8;
            cards.push(c.id.clone());
        }
        if let Some(u) = units.iter().find(|u| u.card == 0) {
            return Err(format!("unit `{}` has no activation card", u.id));
        }
        if cards.len() > MAXC {
            return Err(format!(
                "{} card designs; the engine handles at most {MAXC}",
                cards.len()
            ));
        }

        let mut modes = Vec::new();
        for c in comps(game, "mode") {
            let list = |f: &str| -> Vec<u8> {
                c.field(f)
                    .and_then(FieldValue::as_list)
                    .unwrap_or(&[])
                    .iter()
                    .filter_map(FieldValue::as_int)
                    .map(|i| small(i - 1))
                    .collect()
            };
            let players = small(int(c, "players")?);
            let sides = small(int(c, "sides")?);
            let mut armies = Vec::new();
            for a in c.field("armies").and_then(FieldValue::as_list).unwrap_or(&[]) {
                let a = a.as_record().ok_or("an army is not a record")?;
                let mut ids: Vec<&str> = Vec::new();
                ids.extend(a.get("god").and_then(FieldValue::as_str));
                for f in ["units", "troops"] {
                    ids.extend(
                        a.get(f)
                            .and_then(FieldValue::as_list)
                            .unwrap_or(&[])
                            .iter()
                            .filter_map(FieldValue::as_str),
                    );
                }
                let mut army = Vec::new();
                for id in ids {
                    army.push(
                        units
                            .iter()
                            .position(|u| u.id == id)
                            .ok_or_else(|| format!("mode `{}` names unknown unit `{id}`", c.id))?
                            as u8,
                    );
                }
                armies.push(army);
            }
            let ally_points = opt_int(c, "ally_points").map(small);
            let shape = if !armies.is_empty() {
                Shape::Fixed
            } else if ally_points.is_some() {
                Shape::Lone
            } else if sides < players {
                Shape::Teams
            } else {
                Shape::Solo
            };
            let cycle = if shape == Shape::Lone {
                list("unit_order")
            } else {
                (0..players).collect()
            };
            let gods = if shape == Shape::Fixed {
                (0..players).collect()
            } else {
                list("god_order")
            };
            modes.push(ModeDef {
                id: c.id.clone(),
                shape,
                players,
                sides,
                points: small(opt_int(c, "points").unwrap_or(0)),
                ally_points: ally_points.unwrap_or(0),
                gods,
                cycle,
                armies,
                victory: small(int(c, "victory_omphalos")?),
                ally_victory: small(opt_int(c, "ally_victory_omphalos").unwrap_or(0)),
                team_omphalos: matches!(c.field("team_omphalos"), Some(FieldValue::Bool(true))),
                omphalos_cards: small(opt_int(c, "omphalos_cards").unwrap_or(255)),
                opening_draw: small(int(c, "opening_draw")?),
                opening_aow: small(int(c, "opening_art_of_war")?),
                reshuffle: small(int(c, "reshuffle_draw")?),
                max_activations: small(int(c, "max_activations")?),
            });
        }

        let mut terrain_flags = std::collections::BTreeMap::new();
        for t in comps(game, "terrain") {
            let b = |f: &str| matches!(t.field(f), Some(FieldValue::Bool(true)));
            let mut flags = 0;
            if b("three_d") || b("blocks_sight") {
                flags |= terrain::SIGHT;
            }
            flags |= match t.id.as_str() {
                "impassable" => terrain::NO_ENTRY | terrain::HIGH,
                "crag" => terrain::NO_ENTRY,
                "heights" => terrain::HIGH,
                "forest" | "tartarus-cage" => terrain::COVER_RANGED,
                "ruins" => terrain::COVER_SAME,
                "swamp" => terrain::EXPOSED,
                _ => 0,
            };
            terrain_flags.insert(t.id.clone(), flags);
        }

        let mut boards = Vec::new();
        for c in comps(game, "battlefield") {
            boards.push(board(c, &terrain_flags, &modes)?);
        }
        if boards.is_empty() {
            return Err("no battlefield".into());
        }
        let omphalos_copies = comps(game, "omphalos").first().map_or(15, |c| c.copies.min(255) as u8);
        Ok(Tables {
            units,
            cards,
            boards,
            modes,
            omphalos_copies,
        })
    }

    pub fn unit(&self, id: &str) -> Option<u8> {
        self.units.iter().position(|u| u.id == id).map(|i| i as u8)
    }

    pub fn card(&self, id: &str) -> Option<u8> {
        self.cards.iter().position(|c| c == id).map(|i| i as u8)
    }
}

fn board(
    c: &Component,
    terrain_flags: &std::collections::BTreeMap<String, u8>,
    modes: &[ModeDef],
) -> Result<Board, String> {
    let list = c.field("areas").and_then(FieldValue::as_list).unwrap_or(&[]);
    if list.len() > MAXA {
        return Err(format!("battlefield `{}` has more than {MAXA} areas", c.id));
    }
    let mut areas = Vec::new();
    let mut adj_ids = Vec::new();
    for a in list {
        let a = a.as_record().ok_or("an area is not a record")?;
        let id = a.get("id").and_then(FieldValue::as_str).unwrap_or("?").to_string();
        let mut t = 0;
        for tr in a.get("terrain").and_then(FieldValue::as_list).unwrap_or(&[]) {
            t |= tr.as_str().and_then(|s| terrain_flags.get(s)).copied().unwrap_or(0);
        }
        areas.push(Area {
            id,
            x: num(a.get("x")),
            y: num(a.get("y")),
            capacity: small(rec_int(a, "capacity").unwrap_or(1)),
            terrain: t,
        });
        adj_ids.push(
            a.get("adjacent")
                .and_then(FieldValue::as_list)
                .unwrap_or(&[])
                .iter()
                .filter_map(FieldValue::as_str)
                .map(str::to_string)
                .collect::<Vec<_>>(),
        );
    }
    let n = areas.len();
    let index = |id: &str| areas.iter().position(|a| a.id == id);
    let mut adj = vec![0u32; n];
    for (i, ids) in adj_ids.iter().enumerate() {
        for id in ids {
            let j = index(id).ok_or_else(|| format!("area `{id}` unknown on `{}`", c.id))?;
            adj[i] |= 1 << j;
            adj[j] |= 1 << i;
        }
    }
    let mut dist = vec![[u8::MAX; MAXA]; n];
    for (s, row) in dist.iter_mut().enumerate() {
        row[s] = 0;
        let mut frontier = 1u32 << s;
        let mut seen = frontier;
        let mut d = 0;
        while frontier != 0 {
            d += 1;
            let mut next = 0;
            for a in bits(frontier) {
                next |= adj[a];
            }
            next &= !seen;
            for a in bits(next) {
                row[a] = d;
            }
            seen |= next;
            frontier = next;
        }
    }
    // Areas as the cells of their centres: a line crosses the areas whose
    // centre is nearest to some point of it.
    let mut between = vec![[0u32; MAXA]; n];
    for a in 0..n {
        for b in (a + 1)..n {
            let (ax, ay, bx, by) = (areas[a].x, areas[a].y, areas[b].x, areas[b].y);
            let len = ((bx - ax).powi(2) + (by - ay).powi(2)).sqrt();
            let steps = (len / 2.0).ceil().max(1.0) as usize;
            let mut mask = 0u32;
            for k in 1..steps {
                let t = k as f64 / steps as f64;
                let (x, y) = (ax + (bx - ax) * t, ay + (by - ay) * t);
                let mut best = (f64::MAX, 0usize);
                for (i, ar) in areas.iter().enumerate() {
                    let d = (ar.x - x).powi(2) + (ar.y - y).powi(2);
                    if d < best.0 - 1e-9 {
                        best = (d, i);
                    }
                }
                if best.1 != a && best.1 != b {
                    mask |= 1 << best.1;
                }
            }
            between[a][b] = mask;
            between[b][a] = mask;
        }
    }
    let mut wall = vec![0u32; n];
    let mut escarpment = vec![0u32; n];
    let mut high = vec![0u32; n];
    for b in c.field("borders").and_then(FieldValue::as_list).unwrap_or(&[]) {
        let b = b.as_record().ok_or("a border is not a record")?;
        let from = b.get("from").and_then(FieldValue::as_str).and_then(index);
        let to = b.get("to").and_then(FieldValue::as_str).and_then(index);
        let (Some(f), Some(t)) = (from, to) else { continue };
        match b.get("line").and_then(FieldValue::as_str) {
            Some("impassable") => {
                wall[f] |= 1 << t;
                wall[t] |= 1 << f;
            }
            Some("escarpment") => {
                escarpment[f] |= 1 << t;
                escarpment[t] |= 1 << f;
            }
            Some("altitude") => high[f] |= 1 << t,
            _ => {}
        }
    }
    let mut deploy = [0u32; 4];
    for d in c.field("deployment").and_then(FieldValue::as_list).unwrap_or(&[]) {
        let d = d.as_record().ok_or("a deployment is not a record")?;
        let side = rec_int(d, "side").unwrap_or(0);
        if !(1..=4).contains(&side) {
            continue;
        }
        for a in d.get("areas").and_then(FieldValue::as_list).unwrap_or(&[]) {
            if let Some(i) = a.as_str().and_then(index) {
                deploy[side as usize - 1] |= 1 << i;
            }
        }
    }
    let mut omphalos = Vec::new();
    for o in c.field("omphalos").and_then(FieldValue::as_list).unwrap_or(&[]) {
        let o = o.as_record().ok_or("an omphalos layout is not a record")?;
        let Some(m) = o
            .get("mode")
            .and_then(FieldValue::as_str)
            .and_then(|id| modes.iter().position(|m| m.id == id))
        else {
            continue;
        };
        let spots = o
            .get("areas")
            .and_then(FieldValue::as_list)
            .unwrap_or(&[])
            .iter()
            .filter_map(|a| a.as_str().and_then(index))
            .map(|i| i as u8)
            .collect();
        omphalos.push((m, spots));
    }
    let edge = deploy.iter().fold(0, |m, d| m | d);
    Ok(Board {
        id: c.id.clone(),
        areas,
        adj,
        dist,
        between,
        wall,
        escarpment,
        high,
        deploy,
        omphalos,
        edge,
    })
}

/// The set bits of a mask, lowest first.
pub fn bits(mut m: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(i)
        }
    })
}
