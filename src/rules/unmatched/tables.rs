//! What the Unmatched engine reads from the pack, as compact tables: heroes
//! with their fighters and cards (card ids become per-hero `u8` indices),
//! battlefields with adjacency and zones as bit masks, and the numbers the
//! rules quote (hand limit, opening hand …) from `facts.yaml`.

use std::collections::HashMap;

use crate::model::{FieldValue, Game};

/// Distinct cards per hero deck (the deck state is a fixed array of copies).
pub const MAX_CARDS: usize = 24;
/// Figures on the board at most (4 heroes with their sidekicks).
pub const MAX_FIGURES: usize = 16;
/// Players at most (2 in a duel, 4 in team play).
pub const MAX_PLAYERS: usize = 4;
/// Spaces per battlefield at most (sets of spaces are `u64` masks).
pub const MAX_SPACES: usize = 64;
/// "No space": a defeated figure.
pub const OFF: u8 = u8::MAX;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    Melee,
    Ranged,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CardKind {
    Attack,
    Defense,
    Versatile,
    Scheme,
}

impl CardKind {
    pub fn name(self) -> &'static str {
        match self {
            CardKind::Attack => "an attack card",
            CardKind::Defense => "a defense card",
            CardKind::Versatile => "a versatile card",
            CardKind::Scheme => "a scheme card",
        }
    }
}

/// When a card's effect resolves in combat. Ordered as they resolve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Timing {
    Immediately,
    DuringCombat,
    AfterCombat,
    /// Scheme effects: resolved when played.
    NotInCombat,
}

impl Timing {
    pub fn name(self) -> &'static str {
        match self {
            Timing::Immediately => "immediately",
            Timing::DuringCombat => "during combat",
            Timing::AfterCombat => "after combat",
            Timing::NotInCombat => "when played",
        }
    }
}

/// A hero's special ability, as far as the engine plays it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ability {
    /// Alice: BIG (+2 to her attacks) or SMALL (+1 to her defenses).
    Size,
    /// Medusa: 1 damage to an enemy in her zone at the start of the turn.
    Gaze,
    /// King Arthur: a second face-down card adds its boost to his attack.
    ExtraCard,
    /// Sinbad: +1 move per scheme card in the discard pile.
    Voyages,
    None,
}

#[derive(Clone, Debug)]
pub struct Card {
    pub id: String,
    pub kind: CardKind,
    pub value: u8,
    pub boost: u8,
    /// Index into the hero's fighters; `None` = any fighter of the hero.
    pub fighter: Option<u8>,
    /// `None` when the card has no effect text.
    pub timing: Option<Timing>,
}

#[derive(Clone, Debug)]
pub struct Fighter {
    pub id: String,
    pub is_hero: bool,
    pub hp: u8,
    pub style: Style,
    pub mv: u8,
    /// Figure ids: the fighter id, or `harpy-1` … when it has several figures.
    pub figures: Vec<String>,
}

#[derive(Clone, Debug)]
pub struct Hero {
    pub id: String,
    pub ability: Ability,
    pub fighters: Vec<Fighter>,
    pub cards: Vec<Card>,
    /// The pack's deck: copies per card index.
    pub deck: [u8; MAX_CARDS],
    card_index: HashMap<String, u8>,
}

impl Hero {
    pub fn card(&self, id: &str) -> Option<u8> {
        self.card_index.get(id).copied()
    }

    /// Who may use card `c`, for messages.
    pub fn user(&self, c: &Card) -> &str {
        c.fighter
            .map_or("any fighter", |f| self.fighters[f as usize].id.as_str())
    }
}

#[derive(Clone, Debug)]
pub struct Board {
    pub id: String,
    pub spaces: Vec<String>,
    pub adjacent: Vec<u64>,
    /// Zone bits per space.
    pub zones: Vec<u16>,
    pub zone_names: Vec<String>,
    /// Start space 1..=4 (index), `OFF` when the face has fewer.
    pub start: [u8; MAX_PLAYERS],
    pub start_count: u8,
    index: HashMap<String, u8>,
}

impl Board {
    pub fn space(&self, id: &str) -> Option<u8> {
        self.index.get(id).copied()
    }

    pub fn name(&self, s: u8) -> &str {
        self.spaces.get(s as usize).map_or("off the board", String::as_str)
    }

    /// The zones of a space, as `red/purple`.
    pub fn zone_list(&self, s: u8) -> String {
        let z = self.zones[s as usize];
        let names: Vec<&str> = (0..self.zone_names.len())
            .filter(|i| z & (1 << i) != 0)
            .map(|i| self.zone_names[i].as_str())
            .collect();
        names.join("/")
    }

    /// Spaces sharing at least one zone with `s`.
    pub fn zone_mask(&self, s: u8) -> u64 {
        let z = self.zones[s as usize];
        let mut m = 0u64;
        for (i, &zi) in self.zones.iter().enumerate() {
            if zi & z != 0 {
                m |= 1 << i;
            }
        }
        m
    }

    /// Steps from `from` to `to` through `passable` spaces (`to` must be in
    /// it), or `None` when no such path exists.
    pub fn distance(&self, from: u8, to: u8, passable: u64) -> Option<u8> {
        let target = 1u64 << to;
        let mut seen = 1u64 << from;
        let mut frontier = seen;
        let mut d = 0u8;
        while frontier != 0 {
            if frontier & target != 0 {
                return Some(d);
            }
            let mut next = 0u64;
            let mut f = frontier;
            while f != 0 {
                let i = f.trailing_zeros() as usize;
                f &= f - 1;
                next |= self.adjacent[i];
            }
            next &= passable & !seen;
            seen |= next;
            frontier = next;
            d = d.saturating_add(1);
        }
        None
    }

    /// Spaces reachable from `from` in 1..=`steps` steps through `passable`.
    pub fn reach(&self, from: u8, steps: u8, passable: u64) -> u64 {
        let mut seen = 1u64 << from;
        let mut frontier = seen;
        for _ in 0..steps {
            let mut next = 0u64;
            let mut f = frontier;
            while f != 0 {
                let i = f.trailing_zeros() as usize;
                f &= f - 1;
                next |= self.adjacent[i];
            }
            next &= passable & !seen;
            if next == 0 {
                break;
            }
            seen |= next;
            frontier = next;
        }
        seen & !(1u64 << from)
    }
}

/// The numbers the rules quote, read from the pack's facts.
#[derive(Clone, Copy, Debug)]
pub struct Numbers {
    pub opening_hand: u16,
    pub hand_limit: u16,
    pub actions_per_turn: u8,
    pub exhaustion_loss: u8,
}

pub struct Tables {
    pub heroes: Vec<Hero>,
    pub boards: Vec<Board>,
    pub numbers: Numbers,
    /// Figure id → (hero, fighter, copy).
    pub figures: HashMap<String, (u8, u8, u8)>,
}

fn int(c: &crate::model::Component, f: &str) -> Result<i64, String> {
    c.field(f)
        .and_then(FieldValue::as_int)
        .ok_or_else(|| format!("{} `{}` has no integer `{f}`", c.kind, c.id))
}

fn text<'a>(c: &'a crate::model::Component, f: &str) -> Result<&'a str, String> {
    c.field(f)
        .and_then(FieldValue::as_str)
        .ok_or_else(|| format!("{} `{}` has no `{f}`", c.kind, c.id))
}

fn rec_str<'a>(r: &'a indexmap::IndexMap<String, FieldValue>, f: &str, what: &str) -> Result<&'a str, String> {
    r.get(f)
        .and_then(FieldValue::as_str)
        .ok_or_else(|| format!("{what} has no `{f}`"))
}

fn small(v: i64, what: &str) -> Result<u8, String> {
    u8::try_from(v).map_err(|_| format!("{what} is out of range: {v}"))
}

fn style(s: &str) -> Result<Style, String> {
    match s {
        "melee" => Ok(Style::Melee),
        "ranged" => Ok(Style::Ranged),
        other => Err(format!("unknown attack style `{other}`")),
    }
}

fn fact(game: &Game, id: &str) -> Result<i64, String> {
    game.reference
        .facts
        .iter()
        .find(|f| f.id == id)
        .and_then(|f| f.value.as_i64())
        .ok_or_else(|| format!("facts.yaml has no number `{id}`"))
}

impl Tables {
    pub fn read(game: &Game) -> Result<Tables, String> {
        let none = Vec::new();
        let mut heroes = Vec::new();
        for h in game.components.get("hero").unwrap_or(&none) {
            let ability = match h.id.as_str() {
                "alice" => Ability::Size,
                "medusa" => Ability::Gaze,
                "king-arthur" => Ability::ExtraCard,
                "sinbad" => Ability::Voyages,
                _ => Ability::None,
            };
            let hero_move = small(int(h, "move")?, "move")?;
            let mut fighters = Vec::new();
            for f in h.field("fighters").and_then(FieldValue::as_list).unwrap_or(&[]) {
                let r = f.as_record().ok_or("a fighter is not a record")?;
                let what = format!("a fighter of `{}`", h.id);
                let id = rec_str(r, "id", &what)?.to_string();
                let count = small(r.get("count").and_then(FieldValue::as_int).unwrap_or(1), "count")?;
                let figures = if count == 1 {
                    vec![id.clone()]
                } else {
                    (1..=count).map(|k| format!("{id}-{k}")).collect()
                };
                fighters.push(Fighter {
                    is_hero: rec_str(r, "role", &what)? == "hero",
                    hp: small(r.get("hp").and_then(FieldValue::as_int).ok_or("fighter hp")?, "hp")?,
                    style: style(rec_str(r, "style", &what)?)?,
                    mv: match r.get("move").and_then(FieldValue::as_int) {
                        Some(m) => small(m, "move")?,
                        None => hero_move,
                    },
                    figures,
                    id,
                });
            }
            if fighters.iter().filter(|f| f.is_hero).count() != 1 {
                return Err(format!("hero `{}` needs exactly one fighter with role hero", h.id));
            }
            heroes.push(Hero {
                id: h.id.clone(),
                ability,
                fighters,
                cards: Vec::new(),
                deck: [0; MAX_CARDS],
                card_index: HashMap::new(),
            });
        }
        for c in game.components.get("card").unwrap_or(&none) {
            let hid = text(c, "hero")?;
            let hero = heroes
                .iter_mut()
                .find(|h| h.id == hid)
                .ok_or_else(|| format!("card `{}` names unknown hero `{hid}`", c.id))?;
            if hero.cards.len() == MAX_CARDS {
                return Err(format!("hero `{hid}` has more than {MAX_CARDS} distinct cards"));
            }
            let kind = match text(c, "kind")? {
                "attack" => CardKind::Attack,
                "defense" => CardKind::Defense,
                "versatile" => CardKind::Versatile,
                "scheme" => CardKind::Scheme,
                other => return Err(format!("card `{}` has unknown kind `{other}`", c.id)),
            };
            let fighter = match text(c, "fighter")? {
                "any" => None,
                f => Some(
                    hero.fighters
                        .iter()
                        .position(|x| x.id == f)
                        .ok_or_else(|| format!("card `{}` names unknown fighter `{f}`", c.id))?
                        as u8,
                ),
            };
            let timing = if c.field("effect").is_none() {
                None
            } else {
                Some(match c.field("timing").and_then(FieldValue::as_str) {
                    Some("immediately") => Timing::Immediately,
                    Some("during_combat") => Timing::DuringCombat,
                    Some("after_combat") => Timing::AfterCombat,
                    _ => Timing::NotInCombat,
                })
            };
            let idx = hero.cards.len() as u8;
            hero.deck[idx as usize] = u8::try_from(c.copies).map_err(|_| "too many copies")?;
            hero.card_index.insert(c.id.clone(), idx);
            hero.cards.push(Card {
                id: c.id.clone(),
                kind,
                value: small(c.field("value").and_then(FieldValue::as_int).unwrap_or(0), "value")?,
                boost: small(int(c, "boost")?, "boost")?,
                fighter,
                timing,
            });
        }
        let mut figures = HashMap::new();
        for (hi, h) in heroes.iter().enumerate() {
            for (fi, f) in h.fighters.iter().enumerate() {
                for (k, id) in f.figures.iter().enumerate() {
                    if figures.insert(id.clone(), (hi as u8, fi as u8, k as u8)).is_some() {
                        return Err(format!("two figures are called `{id}`"));
                    }
                }
            }
        }
        if heroes.len() > u8::MAX as usize || figures.len() > 255 {
            return Err("too many heroes".into());
        }
        let mut boards = Vec::new();
        for b in game.components.get("battlefield").unwrap_or(&none) {
            let zone_names: Vec<String> = b
                .field("zones")
                .and_then(FieldValue::as_list)
                .unwrap_or(&[])
                .iter()
                .filter_map(|z| z.as_record().and_then(|r| r.get("id")).and_then(FieldValue::as_str))
                .map(str::to_string)
                .collect();
            if zone_names.len() > 16 {
                return Err(format!("battlefield `{}` has more than 16 zones", b.id));
            }
            let list = b.field("spaces").and_then(FieldValue::as_list).unwrap_or(&[]);
            if list.len() > MAX_SPACES {
                return Err(format!("battlefield `{}` has more than {MAX_SPACES} spaces", b.id));
            }
            let mut spaces = Vec::new();
            let mut index = HashMap::new();
            for (i, s) in list.iter().enumerate() {
                let r = s.as_record().ok_or("a space is not a record")?;
                let id = rec_str(r, "id", "a space")?.to_string();
                index.insert(id.clone(), i as u8);
                spaces.push(id);
            }
            let mut adjacent = vec![0u64; spaces.len()];
            let mut zones = vec![0u16; spaces.len()];
            let mut start = [OFF; MAX_PLAYERS];
            for (i, s) in list.iter().enumerate() {
                let r = s.as_record().ok_or("a space is not a record")?;
                for a in r.get("adjacent").and_then(FieldValue::as_list).unwrap_or(&[]) {
                    let j = a
                        .as_str()
                        .and_then(|a| index.get(a))
                        .ok_or_else(|| format!("battlefield `{}`: unknown adjacent space", b.id))?;
                    adjacent[i] |= 1 << j;
                    adjacent[*j as usize] |= 1 << i;
                }
                for z in r.get("zones").and_then(FieldValue::as_list).unwrap_or(&[]) {
                    let zi = z
                        .as_str()
                        .and_then(|z| zone_names.iter().position(|n| n == z))
                        .ok_or_else(|| format!("battlefield `{}`: unknown zone", b.id))?;
                    zones[i] |= 1 << zi;
                }
                if let Some(n) = r.get("start").and_then(FieldValue::as_int)
                    && (1..=MAX_PLAYERS as i64).contains(&n)
                {
                    start[n as usize - 1] = i as u8;
                }
            }
            let start_count = start.iter().take_while(|&&s| s != OFF).count() as u8;
            boards.push(Board {
                id: b.id.clone(),
                spaces,
                adjacent,
                zones,
                zone_names,
                start,
                start_count,
                index,
            });
        }
        if heroes.is_empty() || boards.is_empty() {
            return Err("the pack needs heroes and battlefields".into());
        }
        let numbers = Numbers {
            opening_hand: u16::try_from(fact(game, "opening-hand")?).map_err(|e| e.to_string())?,
            hand_limit: u16::try_from(fact(game, "hand-limit")?).map_err(|e| e.to_string())?,
            actions_per_turn: small(fact(game, "actions-per-turn")?, "actions-per-turn")?,
            exhaustion_loss: small(fact(game, "exhaustion-loss")?, "exhaustion-loss")?,
        };
        Ok(Tables {
            heroes,
            boards,
            numbers,
            figures,
        })
    }
}
