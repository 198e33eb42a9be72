//! What the Mythic Battles engine reads from the pack, as compact tables:
//! units (sheets and troop cards), cards, battlefields ([`board`]: areas as
//! a graph, lines of sight, borders, deployment) and game modes with their
//! settings. Every problem is a located `engine-data` diagnostic.

mod board;
pub mod fx;
mod units;

use units::{character, troop};

use crate::diag::Diagnostic;
use crate::model::{Component, FieldValue, Game};
use crate::rules::kit::{Graph, IdTable, Reader, Set};

/// Most card designs a player's hand, deck and discard pile can hold.
pub const MAXC: usize = 32;
/// Most areas on a battlefield.
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

#[derive(Clone, Debug)]
pub struct UnitDef {
    pub id: String,
    pub cat: Cat,
    /// Ladder rows, full health first (troops: one row).
    pub rows: Vec<Row>,
    /// Troops: figures of the complete troop.
    pub figures: u8,
    /// Troops: (figures at least, attack bonus, defense bonus, the effect and
    /// its clause), read from the bonuses' effects.
    pub bonus: Vec<(u8, i8, i8, u16, u8)>,
    /// Talents (indices into [`fx::Fx::talent_ids`]) and their effects.
    pub talent_ids: Vec<u8>,
    pub talent_fx: Vec<u16>,
    /// The effects of the powers (by power).
    pub power_fx: Vec<Option<u16>>,
    pub powers: Vec<PowerDef>,
    pub activation: u8,
    pub strategy: u8,
    pub cost: u8,
    pub flying: bool,
    pub aquatic: bool,
    pub fireproof: bool,
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

/// What the battlefield's fields say of an area's terrain (bit flags);
/// everything else terrain does comes from its effects.
pub mod terrain {
    /// Blocks lines of sight crossing it.
    pub const SIGHT: u8 = 1 << 0;
}

#[derive(Clone, Debug)]
pub struct Area {
    pub id: String,
    pub x: f64,
    pub y: f64,
    pub capacity: u8,
    pub terrain: u8,
    /// Its terrain types (bits: indices into [`fx::Fx::terrain_ids`]).
    pub terrains: u16,
}

#[derive(Clone, Debug)]
pub struct Board {
    pub id: String,
    /// The areas and their adjacency (distances in steps).
    pub graph: Graph,
    pub areas: Vec<Area>,
    /// Areas a line of sight between two centres crosses.
    pub between: Vec<[Set; MAXA]>,
    /// Borders no unit crosses.
    pub wall: Vec<Set>,
    /// Borders only flying or climbing units cross.
    pub escarpment: Vec<Set>,
    /// `high[a]`: areas on the tip side of an altitude line from `a`.
    pub high: Vec<Set>,
    /// Deployment areas per side (index 0 = side 1).
    pub deploy: [Set; 4],
    /// Omphalos spots per mode index.
    pub omphalos: Vec<(usize, Vec<u8>)>,
    /// Areas on the board's edge (deployment areas of any side).
    pub edge: Set,
}

impl Board {
    pub fn area(&self, id: &str) -> Option<u8> {
        self.graph.index(id)
    }

    /// Steps between two areas.
    pub fn dist(&self, a: usize, b: usize) -> u8 {
        self.graph.distance(a as u8, b as u8)
    }

    /// The areas next to `a`.
    pub fn adj(&self, a: usize) -> Set {
        self.graph.adjacent_set(a as u8)
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
    /// Fixed armies: where units may start (`start_areas`): their side's
    /// deployment areas (the default) or anywhere.
    pub start_anywhere: bool,
    /// Calling a troop into its God's full area (`call_capacity`): refused
    /// (the default) or allowed.
    pub call_over_capacity: bool,
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
    unit_ids: IdTable,
    /// Card ids by index: `art-of-war`, `omphalos`, then activation cards.
    pub cards: Vec<String>,
    card_ids: IdTable,
    pub boards: Vec<Board>,
    pub modes: Vec<ModeDef>,
    pub omphalos_copies: u8,
    /// Every effect, compiled.
    pub fx: fx::Fx,
}
fn rec_int(r: &indexmap::IndexMap<String, FieldValue>, f: &str) -> Option<i64> {
    r.get(f).and_then(FieldValue::as_int)
}

fn small(v: i64) -> u8 {
    v.clamp(0, 255) as u8
}

/// A game mode: players, sides, turn order, victory, settings.
fn mode(r: &mut Reader, c: &Component, unit_ids: &IdTable) -> ModeDef {
    let list = |f: &str| -> Vec<u8> {
        c.field(f)
            .and_then(FieldValue::as_list)
            .unwrap_or(&[])
            .iter()
            .filter_map(FieldValue::as_int)
            .map(|i| small(i - 1))
            .collect()
    };
    let players = small(r.int(c, "players").unwrap_or(2));
    let sides = small(r.int(c, "sides").unwrap_or(2));
    let mut armies = Vec::new();
    for a in r.list(c, "armies") {
        let Some(a) = a.as_record() else { continue };
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
            match unit_ids.get(id) {
                Some(u) => army.push(u as u8),
                None => r.error(
                    c,
                    "armies",
                    format!("mode `{}` names a unit with no sheet or troop card", c.id),
                    "character or troop ids",
                    format!("`{id}`"),
                ),
            }
        }
        armies.push(army);
    }
    let ally_points = r.opt_int(c, "ally_points").map(small);
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
    ModeDef {
        id: c.id.clone(),
        shape,
        players,
        sides,
        points: small(r.opt_int(c, "points").unwrap_or(0)),
        ally_points: ally_points.unwrap_or(0),
        gods,
        cycle,
        armies,
        victory: small(r.int(c, "victory_omphalos").unwrap_or(1)),
        ally_victory: small(r.opt_int(c, "ally_victory_omphalos").unwrap_or(0)),
        team_omphalos: r.flag(c, "team_omphalos"),
        omphalos_cards: small(r.opt_int(c, "omphalos_cards").unwrap_or(255)),
        opening_draw: small(r.int(c, "opening_draw").unwrap_or(0)),
        opening_aow: small(r.int(c, "opening_art_of_war").unwrap_or(0)),
        reshuffle: small(r.int(c, "reshuffle_draw").unwrap_or(0)),
        max_activations: small(r.int(c, "max_activations").unwrap_or(1)),
        start_anywhere: r.opt_str(c, "start_areas") == Some("anywhere"),
        call_over_capacity: r.opt_str(c, "call_capacity") == Some("ignored"),
    }
}

impl Tables {
    pub fn new(game: &Game) -> Result<Tables, Vec<Diagnostic>> {
        let mut r = Reader::new(game);
        let mut fx = fx::Fx::read(&mut r);
        let mut units = Vec::new();
        for c in r.some("character", "character sheets") {
            units.push(character(&mut r, c, &mut fx));
        }
        for c in r.all("troop") {
            units.push(troop(&mut r, c, &mut fx));
        }
        if units.len() > MAXU
            && let Some(c) = r.all("troop").last()
        {
            r.error(
                c,
                "id",
                format!("{} units; the engine handles at most {MAXU}", units.len()),
                format!("at most {MAXU} characters and troops"),
                units.len(),
            );
            units.truncate(MAXU);
        }
        let unit_ids: IdTable = units.iter().map(|u| u.id.clone()).collect();
        let mut cards = vec![
            r.all("art_of_war")
                .first()
                .map_or("art-of-war".to_string(), |c| c.id.clone()),
            r.all("omphalos")
                .first()
                .map_or("omphalos".to_string(), |c| c.id.clone()),
        ];
        for c in r.all("activation") {
            let target = c
                .field("character")
                .or_else(|| c.field("troop"))
                .and_then(FieldValue::as_str);
            let Some(target) = target else {
                r.error(
                    c,
                    "character",
                    format!("activation card `{}` names no unit", c.id),
                    "`character` or `troop`",
                    "neither",
                );
                continue;
            };
            let Some(u) = unit_ids.get(target).map(usize::from) else {
                r.error(
                    c,
                    "character",
                    format!("activation card `{}` names an unknown unit", c.id),
                    "a character or troop id",
                    format!("`{target}`"),
                );
                continue;
            };
            if units[u].card != 0 {
                r.error(
                    c,
                    "id",
                    format!("unit `{target}` has two activation card designs"),
                    "one activation card design per unit",
                    "a second one",
                );
                continue;
            }
            if cards.len() == MAXC {
                r.error(
                    c,
                    "id",
                    format!("more than {MAXC} card designs"),
                    format!("at most {MAXC} card designs"),
                    "more",
                );
                continue;
            }
            units[u].card = cards.len() as u8;
            cards.push(c.id.clone());
        }
        for u in units.iter().filter(|u| u.card == 0) {
            let c = game
                .component("character", &u.id)
                .or_else(|| game.component("troop", &u.id));
            if let Some(c) = c {
                r.error(
                    c,
                    "id",
                    format!("unit `{}` has no activation card", u.id),
                    "an `activation` component naming it",
                    "none",
                );
            }
        }
        let mut modes = Vec::new();
        for c in r.some("mode", "game modes") {
            modes.push(mode(&mut r, c, &unit_ids));
        }
        let terrain_flags = board::terrain_flags(&r, &fx);
        let mut boards = Vec::new();
        for c in r.some("battlefield", "battlefields") {
            boards.extend(board::read(&mut r, c, &terrain_flags, &modes));
        }
        let omphalos_copies = r.all("omphalos").first().map_or(15, |c| c.copies.min(255) as u8);
        let card_ids = cards.iter().cloned().collect();
        r.finish(Some(Tables {
            units,
            unit_ids,
            cards,
            card_ids,
            boards,
            modes,
            omphalos_copies,
            fx,
        }))
    }

    pub fn unit(&self, id: &str) -> Option<u8> {
        self.unit_ids.get(id).map(|i| i as u8)
    }

    pub fn card(&self, id: &str) -> Option<u8> {
        self.card_ids.get(id).map(|i| i as u8)
    }
}
