//! What the XTerminio engine reads from the pack: every card with the stats
//! the rules use (indexed by a small number), the mat's slots and contiguity,
//! and the numbers of `facts.yaml`.

use crate::model::{FieldValue, Game};

use super::Slot;

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
    /// The card has a text (or an attack with a text) whose outcome an
    /// `ability` step may record.
    pub text: bool,
}

/// The numbers of the rules, from `facts.yaml`.
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
}

/// Everything the engine knows about the pack.
#[derive(Clone, Debug)]
pub struct Tables {
    pub cards: Vec<Card>,
    /// Card ids sorted, with their index, for lookups without hashing.
    sorted: Vec<(String, u8)>,
    /// `adjacent[a][b]`: the slots touch at a corner.
    pub adjacent: [[bool; 7]; 7],
    pub n: Numbers,
}

fn bool_field(v: Option<&FieldValue>) -> bool {
    matches!(v, Some(FieldValue::Bool(true)))
}

fn int_field(c: &crate::model::Component, f: &str) -> Result<i64, String> {
    c.field(f)
        .and_then(FieldValue::as_int)
        .ok_or_else(|| format!("{} `{}` has no integer `{f}`", c.kind, c.id))
}

impl Tables {
    pub fn new(game: &Game) -> Result<Tables, String> {
        let mut cards: Vec<Card> = Vec::new();
        let mut bases: Vec<(usize, String)> = Vec::new();
        for (kind_id, kind) in [
            ("character", Kind::Character),
            ("equipment", Kind::Equipment),
            ("action", Kind::Action),
            ("zone", Kind::Zone),
        ] {
            for c in game.components.get(kind_id).map(Vec::as_slice).unwrap_or_default() {
                let mut card = Card {
                    id: c.id.clone(),
                    kind,
                    life: 0,
                    powered: false,
                    base: cards.len() as u8,
                    powered_version: None,
                    protagonist: false,
                    attacks: Vec::new(),
                    energy: false,
                    fixed: false,
                    text: c.field("text").is_some(),
                };
                match kind {
                    Kind::Character => {
                        card.life = u8::try_from(int_field(c, "life")?)
                            .map_err(|_| format!("`{}`: life out of range", c.id))?;
                        card.powered = bool_field(c.field("powered"));
                        card.protagonist = bool_field(c.field("protagonist"));
                        if card.powered {
                            let base = c
                                .field("base")
                                .and_then(FieldValue::as_str)
                                .ok_or_else(|| format!("powered character `{}` names no base", c.id))?;
                            bases.push((cards.len(), base.to_string()));
                        }
                        for a in c.field("attacks").and_then(FieldValue::as_list).unwrap_or_default() {
                            let r = a
                                .as_record()
                                .ok_or_else(|| format!("`{}`: an attack is not a record", c.id))?;
                            let num = |f: &str| r.get(f).and_then(FieldValue::as_int).unwrap_or(-1);
                            let (cost, damage) = (num("cost"), num("damage"));
                            if !(0..=100).contains(&cost) || !(0..=100).contains(&damage) {
                                return Err(format!("`{}`: an attack lacks its cost or damage", c.id));
                            }
                            card.text |= r.get("text").is_some();
                            card.attacks.push(AttackStat {
                                cost: cost as u16,
                                damage: damage as u8,
                                interception: bool_field(r.get("interception")),
                            });
                        }
                        if card.attacks.is_empty() {
                            return Err(format!("character `{}` has no attacks", c.id));
                        }
                    }
                    Kind::Equipment => {
                        card.energy = c.field("target").and_then(FieldValue::as_str) == Some("energy_source");
                    }
                    Kind::Action => card.fixed = bool_field(c.field("fixed")),
                    Kind::Zone => {}
                }
                cards.push(card);
            }
        }
        if cards.len() > 250 {
            return Err(format!("{} cards: the engine indexes at most 250", cards.len()));
        }
        let mut sorted: Vec<(String, u8)> = cards.iter().enumerate().map(|(i, c)| (c.id.clone(), i as u8)).collect();
        sorted.sort();
        let mut t = Tables {
            cards,
            sorted,
            adjacent: [[false; 7]; 7],
            n: numbers(game)?,
        };
        for (i, base) in bases {
            let b = t
                .card(&base)
                .filter(|&b| t.cards[b as usize].kind == Kind::Character && !t.cards[b as usize].powered)
                .ok_or_else(|| format!("powered `{}`: base `{base}` is not a classic character", t.cards[i].id))?;
            t.cards[i].base = b;
            t.cards[b as usize].powered_version = Some(i as u8);
        }
        t.read_board(game)?;
        Ok(t)
    }

    fn read_board(&mut self, game: &Game) -> Result<(), String> {
        let board = game
            .components
            .get("board")
            .and_then(|b| b.first())
            .ok_or("the pack has no board (player mat)")?;
        let slots = board
            .field("slots")
            .and_then(FieldValue::as_list)
            .ok_or("the mat has no `slots`")?;
        let mut seen = [false; 7];
        for s in slots {
            let r = s.as_record().ok_or("a mat slot is not a record")?;
            let id = r.get("id").and_then(FieldValue::as_str).unwrap_or_default();
            let slot = Slot::from_id(id).ok_or_else(|| format!("mat slot `{id}` is unknown to the engine"))?;
            let accepts = r.get("accepts").and_then(FieldValue::as_str).unwrap_or_default();
            let want = match slot {
                Slot::CoverZone => "zone",
                Slot::CoverEnergy => "energy",
                _ => "character",
            };
            if accepts != want {
                return Err(format!(
                    "mat slot `{id}` accepts `{accepts}`, the engine expects `{want}`"
                ));
            }
            seen[slot as usize] = true;
            for a in r.get("adjacent").and_then(FieldValue::as_list).unwrap_or_default() {
                let other = a.as_str().and_then(Slot::from_id).ok_or("unknown adjacent slot")?;
                self.adjacent[slot as usize][other as usize] = true;
                self.adjacent[other as usize][slot as usize] = true;
            }
        }
        if seen.iter().any(|s| !s) {
            return Err("the mat lacks some of the 7 BATTLE slots".into());
        }
        let camp = board.field("camp").and_then(FieldValue::as_list).map_or(0, <[_]>::len);
        if camp == 0 {
            return Err("the mat has no CAMP slots".into());
        }
        if self.n.camp_slots != camp {
            return Err(format!(
                "fact camp-slots says {} but the mat has {camp} CAMP slots",
                self.n.camp_slots
            ));
        }
        Ok(())
    }

    /// The index of a card id.
    pub fn card(&self, id: &str) -> Option<u8> {
        self.sorted
            .binary_search_by(|(k, _)| k.as_str().cmp(id))
            .ok()
            .map(|i| self.sorted[i].1)
    }

    pub fn get(&self, i: u8) -> &Card {
        &self.cards[i as usize]
    }

    pub fn id(&self, i: u8) -> &str {
        &self.cards[i as usize].id
    }
}

fn numbers(game: &Game) -> Result<Numbers, String> {
    let fact = |id: &str| -> Result<u32, String> {
        game.reference
            .facts
            .iter()
            .find(|f| f.id == id)
            .and_then(|f| f.value.as_u64())
            .and_then(|v| u32::try_from(v).ok())
            .ok_or_else(|| format!("facts.yaml has no number `{id}`"))
    };
    let small = |id: &str| -> Result<u16, String> { fact(id).map(|v| v.min(u16::MAX as u32) as u16) };
    Ok(Numbers {
        target_min: fact("target-score-min")?,
        target_max: fact("target-score-max")?,
        point_cost: small("point-attack-cost")?,
        point_score: small("point-attack-score")?,
        point_score_empty: small("point-attack-score-empty")?,
        opening_characters: fact("opening-draw-characters")? as usize,
        opening_support: fact("opening-draw-support")? as usize,
        mulligans: fact("mulligans")? as usize,
        opening_limit: small("opening-deploy-limit")?,
        turn_draw: fact("turn-draw")? as usize,
        hand_limit: small("hand-limit")?,
        energy_masakre: small("energy-masakre")?,
        energy_xterminar: small("energy-xterminar")?,
        energy_per_camp: small("energy-per-camp-card")?,
        move_cost: small("move-cost")?,
        powered_discard_energy: small("powered-discard-energy")?,
        camp_slots: fact("camp-slots")? as usize,
    })
}
