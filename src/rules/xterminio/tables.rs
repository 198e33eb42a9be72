//! What the XTerminio engine reads from the pack: every card with the stats
//! the rules use (indexed by a small number), the mat's slots and their
//! contiguity (a graph), the numbers of `facts.yaml`, the ENERGY tracker's
//! highest value, and the two starter decks random games play. Every problem
//! is a located `engine-data` diagnostic.

use std::collections::BTreeMap;

use crate::diag::Diagnostic;
use crate::model::{Component, FieldValue, Game};
use crate::rules::kit::{Graph, IdTable, Reader};

use super::actions::Slot;
use super::effects::{Def, Xv};

/// Distinct cards at most (piles hold a count per card).
pub const MAX_CARDS: usize = 128;

/// The kinds of card that go into a deck.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Character,
    Equipment,
    Action,
    Zone,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Character => "a character",
            Kind::Equipment => "an equipment card",
            Kind::Action => "an action card",
            Kind::Zone => "a zone card",
        }
    }
}

/// One printed attack.
#[derive(Clone, Copy, Debug)]
pub struct AttackStat {
    pub cost: u16,
    pub damage: u8,
    pub interception: bool,
    /// The attack text's effect (index into [`Tables::defs`]).
    pub effect: Option<u16>,
}

/// One card's rules-relevant stats.
#[derive(Clone, Debug)]
pub struct Card {
    pub id: String,
    pub kind: Kind,
    pub life: u8,
    pub powered: bool,
    /// The classic character this card is a version of (itself for a
    /// classic character; meaningless for other kinds).
    pub base: u8,
    /// For a classic character: its powered version, if the pack has one.
    pub powered_version: Option<u8>,
    pub protagonist: bool,
    pub attacks: Vec<AttackStat>,
    /// Equipment that goes in the energy slot rather than on a character.
    pub energy: bool,
    /// An action that stays in play after it is played.
    pub fixed: bool,
    /// The card has a text (or an attack with a text).
    pub text: bool,
    /// The card text's effect (index into [`Tables::defs`]).
    pub effect: Option<u16>,
}

/// The numbers of the rules, from `facts.yaml` (and the ENERGY tracker).
#[derive(Clone, Debug)]
pub struct Numbers {
    pub target_min: u32,
    pub target_max: u32,
    pub point_cost: u16,
    pub point_score: u16,
    pub point_score_empty: u16,
    pub opening_characters: usize,
    pub opening_support: usize,
    pub mulligans: usize,
    pub opening_limit: u16,
    pub turn_draw: usize,
    pub hand_limit: u16,
    pub energy_masakre: u16,
    pub energy_xterminar: u16,
    pub energy_per_camp: u16,
    pub move_cost: u16,
    pub powered_discard_energy: u16,
    pub camp_slots: usize,
    /// The most ENERGY a player can have: the energy tracker's highest
    /// value (`range_max`), unless the tracker says `cap: false` (XT-6).
    pub energy_cap: u16,
}

/// Everything the engine knows about the pack.
#[derive(Clone, Debug)]
pub struct Tables {
    pub cards: Vec<Card>,
    ids: IdTable,
    /// The BATTLE slots (in [`Slot`] order) and which touch at a corner.
    pub mat: Graph,
    pub n: Numbers,
    /// A standard deck per faction for random games.
    pub pools: Vec<Pool>,
    /// Every card and attack text as a compiled effect.
    pub defs: Vec<Def>,
    /// What each effect is called in messages (`botiquin`, `artificiero (attack 1)`).
    pub def_names: Vec<String>,
    /// The card each effect belongs to.
    pub def_card: Vec<u8>,
}

fn bool_field(v: Option<&FieldValue>) -> bool {
    matches!(v, Some(FieldValue::Bool(true)))
}

impl Tables {
    pub fn new(game: &Game) -> Result<Tables, Vec<Diagnostic>> {
        let mut r = Reader::new(game);
        let mut cards: Vec<Card> = Vec::new();
        let mut defs: Vec<Def> = Vec::new();
        let mut def_names: Vec<String> = Vec::new();
        let mut def_card: Vec<u8> = Vec::new();
        let mut add_def = |d: Def, name: String, card: usize| -> Option<u16> {
            if d.clauses.is_empty() {
                return None;
            }
            defs.push(d);
            def_names.push(name);
            def_card.push(card.min(255) as u8);
            Some((defs.len() - 1) as u16)
        };
        let mut bases: Vec<(usize, &Component, String)> = Vec::new();
        for (kind_id, kind) in [
            ("character", Kind::Character),
            ("equipment", Kind::Equipment),
            ("action", Kind::Action),
            ("zone", Kind::Zone),
        ] {
            for c in r.all(kind_id) {
                let mut card = Card {
                    id: c.id.clone(),
                    kind,
                    life: 0,
                    powered: false,
                    base: cards.len().min(255) as u8,
                    powered_version: None,
                    protagonist: false,
                    attacks: Vec::new(),
                    energy: false,
                    fixed: false,
                    text: c.field("text").is_some(),
                    effect: None,
                };
                let d = r.effect::<Xv>(c, "effect", c.field("effect"));
                card.effect = add_def(d, c.id.clone(), cards.len());
                match kind {
                    Kind::Character => {
                        card.life = r.small(c, "life").unwrap_or(1);
                        card.powered = bool_field(c.field("powered"));
                        card.protagonist = bool_field(c.field("protagonist"));
                        if card.powered
                            && let Some(base) = r.str(c, "base")
                        {
                            bases.push((cards.len(), c, base.to_string()));
                        }
                        for a in r.list(c, "attacks") {
                            let rec = a.as_record();
                            let num = |f: &str| rec.and_then(|x| x.get(f)).and_then(FieldValue::as_int).unwrap_or(-1);
                            let (cost, damage) = (num("cost"), num("damage"));
                            if !(0..=100).contains(&cost) || !(0..=100).contains(&damage) {
                                r.error(
                                    c,
                                    "attacks",
                                    format!("an attack of `{}` lacks its cost or damage", c.id),
                                    "`cost` and `damage` from 0 to 100",
                                    format!("cost {cost}, damage {damage}"),
                                );
                                continue;
                            }
                            card.text |= rec.and_then(|x| x.get("text")).is_some();
                            let d = r.effect::<Xv>(c, "attacks", rec.and_then(|x| x.get("effect")));
                            let k = card.attacks.len() + 1;
                            card.attacks.push(AttackStat {
                                cost: cost as u16,
                                damage: damage as u8,
                                interception: bool_field(rec.and_then(|x| x.get("interception"))),
                                effect: add_def(d, format!("{} (attack {k})", c.id), cards.len()),
                            });
                        }
                        if card.attacks.is_empty() {
                            r.error(
                                c,
                                "attacks",
                                format!("character `{}` has no attacks", c.id),
                                "at least one attack",
                                "none",
                            );
                        }
                    }
                    Kind::Equipment => {
                        card.energy = c.field("target").and_then(FieldValue::as_str) == Some("energy_source");
                    }
                    Kind::Action => card.fixed = bool_field(c.field("fixed")),
                    Kind::Zone => {}
                }
                if cards.len() == MAX_CARDS {
                    r.error(
                        c,
                        "id",
                        format!("the engine handles at most {MAX_CARDS} distinct cards"),
                        format!("at most {MAX_CARDS} characters, equipment, actions and zones"),
                        "more",
                    );
                    continue;
                }
                cards.push(card);
            }
        }
        let ids: IdTable = cards.iter().map(|c| c.id.clone()).collect();
        for (i, c, base) in bases {
            let b = ids
                .get(&base)
                .map(|b| b as usize)
                .filter(|&b| cards[b].kind == Kind::Character && !cards[b].powered);
            match b {
                Some(b) => {
                    cards[i].base = b as u8;
                    cards[b].powered_version = Some(i as u8);
                }
                None => r.error(
                    c,
                    "base",
                    format!("powered `{}` names a base that is not a classic character", c.id),
                    "the id of a classic (not powered) character",
                    format!("`{base}`"),
                ),
            }
        }
        let n = numbers(&mut r);
        let mat = read_mat(&mut r, n.as_ref().map(|n| n.camp_slots));
        let pools = starter_pools(&r);
        match (n, mat) {
            (Some(n), Some(mat)) => r.finish(Some(Tables {
                cards,
                ids,
                mat,
                n,
                pools,
                defs,
                def_names,
                def_card,
            })),
            _ => r.finish(None),
        }
    }

    /// The index of a card id.
    pub fn card(&self, id: &str) -> Option<u8> {
        self.ids.get(id).map(|i| i as u8)
    }

    pub fn get(&self, i: u8) -> &Card {
        &self.cards[i as usize]
    }

    pub fn id(&self, i: u8) -> &str {
        &self.cards[i as usize].id
    }

    /// Whether two BATTLE slots touch at a corner (XT-7).
    pub fn contiguous(&self, a: Slot, b: Slot) -> bool {
        self.mat.adjacent(a as u8, b as u8)
    }
}

/// The mat's BATTLE slots as a graph in [`Slot`] order.
fn read_mat(r: &mut Reader, camp_slots: Option<usize>) -> Option<Graph> {
    let boards = r.some("board", "player mat");
    let board = boards.first()?;
    let slots = r.list(board, "slots");
    let mut lists = vec![Vec::new(); Slot::ALL.len()];
    let mut seen = [false; 7];
    for s in slots {
        let rec = s.as_record();
        let get = |f: &str| rec.and_then(|x| x.get(f));
        let id = get("id").and_then(FieldValue::as_str).unwrap_or_default();
        let Some(slot) = Slot::from_id(id) else {
            r.error(
                board,
                "slots",
                format!("mat slot `{id}` is unknown to the engine"),
                format!(
                    "one of {}",
                    Slot::ALL.iter().map(|s| s.id()).collect::<Vec<_>>().join(", ")
                ),
                format!("`{id}`"),
            );
            continue;
        };
        let accepts = get("accepts").and_then(FieldValue::as_str).unwrap_or_default();
        let want = match slot {
            Slot::CoverZone => "zone",
            Slot::CoverEnergy => "energy",
            _ => "character",
        };
        if accepts != want {
            r.error(
                board,
                "slots",
                format!("mat slot `{id}` accepts `{accepts}`, the engine expects `{want}`"),
                format!("accepts: {want}"),
                format!("accepts: {accepts}"),
            );
        }
        seen[slot as usize] = true;
        for a in get("adjacent").and_then(FieldValue::as_list).unwrap_or_default() {
            match a.as_str().and_then(Slot::from_id) {
                Some(other) => lists[slot as usize].push(other as u8),
                None => r.error(
                    board,
                    "slots",
                    format!("mat slot `{id}` is contiguous to an unknown slot"),
                    "ids of the mat's slots",
                    format!("{a:?}"),
                ),
            }
        }
    }
    if let Some(missing) = Slot::ALL.iter().find(|s| !seen[**s as usize]) {
        r.error(
            board,
            "slots",
            format!("the mat lacks the BATTLE slot `{}`", missing.id()),
            "the 7 BATTLE slots",
            format!("{} slots", seen.iter().filter(|s| **s).count()),
        );
    }
    let camp = r.list(board, "camp").len();
    if camp == 0 {
        r.error(
            board,
            "camp",
            "the mat has no CAMP slots",
            "at least one CAMP slot",
            "none",
        );
    }
    if let Some(n) = camp_slots
        && n != camp
    {
        r.error(
            board,
            "camp",
            format!("fact camp-slots says {n} but the mat has {camp} CAMP slots"),
            format!("{n} CAMP slots"),
            camp,
        );
    }
    let ids: IdTable = Slot::ALL.iter().map(|s| s.id()).collect();
    Some(Graph::new(ids, lists, true))
}

fn numbers(r: &mut Reader) -> Option<Numbers> {
    let mut fact = |id: &str| -> Option<u32> { r.fact_small::<u32>(id) };
    let small = |v: Option<u32>| v.map(|v| v.min(u16::MAX as u32) as u16);
    let n = Numbers {
        target_min: fact("target-score-min").unwrap_or(0),
        target_max: fact("target-score-max").unwrap_or(0),
        point_cost: small(fact("point-attack-cost")).unwrap_or(0),
        point_score: small(fact("point-attack-score")).unwrap_or(0),
        point_score_empty: small(fact("point-attack-score-empty")).unwrap_or(0),
        opening_characters: fact("opening-draw-characters").unwrap_or(0) as usize,
        opening_support: fact("opening-draw-support").unwrap_or(0) as usize,
        mulligans: fact("mulligans").unwrap_or(0) as usize,
        opening_limit: small(fact("opening-deploy-limit")).unwrap_or(0),
        turn_draw: fact("turn-draw").unwrap_or(0) as usize,
        hand_limit: small(fact("hand-limit")).unwrap_or(0),
        energy_masakre: small(fact("energy-masakre")).unwrap_or(0),
        energy_xterminar: small(fact("energy-xterminar")).unwrap_or(0),
        energy_per_camp: small(fact("energy-per-camp-card")).unwrap_or(0),
        move_cost: small(fact("move-cost")).unwrap_or(0),
        powered_discard_energy: small(fact("powered-discard-energy")).unwrap_or(0),
        camp_slots: fact("camp-slots").unwrap_or(0) as usize,
        energy_cap: energy_cap(r),
    };
    (!r.failed()).then_some(n)
}

/// The energy tracker's highest value, or no cap (XT-6).
fn energy_cap(r: &mut Reader) -> u16 {
    let tracker = r
        .all("tracker")
        .iter()
        .find(|c| r.opt_str(c, "track") == Some("energy"));
    match tracker {
        Some(c) if !matches!(c.field("cap"), Some(FieldValue::Bool(false))) => r
            .int_in(c, "range_max", 1..=i64::from(u16::MAX))
            .map_or(u16::MAX, |v| v as u16),
        _ => u16::MAX,
    }
}

/// What a faction may put in a deck for random games: every character,
/// and the equipment, actions and zones with their copies.
#[derive(Clone, Debug, Default)]
pub struct Pool {
    pub characters: BTreeMap<String, u32>,
    pub support: Vec<(String, u32)>,
    pub zones: Vec<(String, u32)>,
}

impl Pool {
    /// A 60-card deck: every character, 23 equipment and actions and 4
    /// zones, drawn at random from the pool's copies (the first ones in
    /// pack order without `rng`).
    pub fn deck(&self, rng: Option<&mut fastrand::Rng>) -> BTreeMap<String, u32> {
        let mut deck = self.characters.clone();
        let expand = |list: &[(String, u32)]| -> Vec<String> {
            list.iter()
                .flat_map(|(id, k)| std::iter::repeat_n(id.clone(), *k as usize))
                .collect()
        };
        let (mut support, mut zones) = (expand(&self.support), expand(&self.zones));
        if let Some(rng) = rng {
            rng.shuffle(&mut support);
            rng.shuffle(&mut zones);
        }
        for id in support.into_iter().take(23).chain(zones.into_iter().take(4)) {
            *deck.entry(id).or_insert(0) += 1;
        }
        deck
    }
}

/// Each faction's pool for random games.
fn starter_pools(r: &Reader) -> Vec<Pool> {
    let mut pools = Vec::new();
    for faction in ["resistance", "swarm"] {
        let mut pool = Pool::default();
        for kind in ["character", "equipment", "action", "zone"] {
            for c in r.all(kind) {
                if c.field("faction").and_then(FieldValue::as_str) != Some(faction) || c.copies == 0 {
                    continue;
                }
                let entry = (c.id.clone(), c.copies);
                match kind {
                    "character" => {
                        pool.characters.insert(c.id.clone(), c.copies);
                    }
                    "zone" => pool.zones.push(entry),
                    _ => pool.support.push(entry),
                }
            }
        }
        pools.push(pool);
    }
    pools
}
