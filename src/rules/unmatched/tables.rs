//! What the Unmatched engine reads from the pack, as compact tables: heroes
//! with their fighters and cards (card ids become per-hero `u8` indices),
//! battlefields as graphs of spaces with zones, and the numbers the rules
//! quote (hand limit, opening hand …) from `facts.yaml`. Every problem is a
//! located `engine-data` diagnostic.

use std::collections::HashMap;

use crate::diag::Diagnostic;
use crate::model::{Component, FieldValue, Game};
use crate::rules::kit::graph::{MAX_NODES, Set};
use crate::rules::kit::{Graph, IdTable, Reader};

/// Distinct cards per hero deck (the deck state is a fixed array of copies).
pub const MAX_CARDS: usize = 24;
/// Figures on the board at most (4 heroes with their sidekicks).
pub const MAX_FIGURES: usize = 16;
/// Players at most (2 in a duel, 4 in team play).
pub const MAX_PLAYERS: usize = 4;
/// Spaces per battlefield at most (sets of spaces are `u64` masks).
pub const MAX_SPACES: usize = MAX_NODES;
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
    card_index: IdTable,
}

impl Hero {
    /// The index of card `id` in this hero's deck.
    pub fn card(&self, id: &str) -> Option<u8> {
        self.card_index.get(id).map(|i| i as u8)
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
    /// The spaces and their adjacency.
    pub graph: Graph,
    /// Zone bits per space.
    pub zones: Vec<u16>,
    pub zone_names: Vec<String>,
    /// Start space 1..=4 (index), `OFF` when the face has fewer.
    pub start: [u8; MAX_PLAYERS],
    pub start_count: u8,
}

impl Board {
    pub fn space(&self, id: &str) -> Option<u8> {
        self.graph.index(id)
    }

    pub fn name(&self, s: u8) -> &str {
        if (s as usize) < self.graph.len() {
            self.graph.name(s)
        } else {
            "off the board"
        }
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
    pub fn zone_mask(&self, s: u8) -> Set {
        let z = self.zones[s as usize];
        let mut m = 0;
        for (i, &zi) in self.zones.iter().enumerate() {
            if zi & z != 0 {
                m |= 1 << i;
            }
        }
        m
    }

    /// Spaces reachable from `from` in 1..=`steps` steps through `passable`.
    pub fn reach(&self, from: u8, steps: u8, passable: Set) -> Set {
        self.graph.reach(from, steps, passable)
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

fn style(r: &mut Reader, h: &Component, s: &str) -> Style {
    match s {
        "ranged" => Style::Ranged,
        "melee" => Style::Melee,
        other => {
            r.error(
                h,
                "fighters",
                format!("a fighter of `{}` has an unknown attack style", h.id),
                "melee or ranged",
                format!("`{other}`"),
            );
            Style::Melee
        }
    }
}

fn read_hero(r: &mut Reader, h: &Component) -> Hero {
    let ability = match h.id.as_str() {
        "alice" => Ability::Size,
        "medusa" => Ability::Gaze,
        "king-arthur" => Ability::ExtraCard,
        "sinbad" => Ability::Voyages,
        _ => Ability::None,
    };
    let hero_move = r.small::<u8>(h, "move").unwrap_or(0);
    let mut fighters = Vec::new();
    for f in h.field("fighters").and_then(FieldValue::as_list).unwrap_or(&[]) {
        let rec = f.as_record();
        let get = |k: &str| rec.and_then(|x| x.get(k));
        let id = get("id").and_then(FieldValue::as_str).unwrap_or("?").to_string();
        let count = get("count").and_then(FieldValue::as_int).unwrap_or(1).clamp(1, 16) as u8;
        let figures = if count == 1 {
            vec![id.clone()]
        } else {
            (1..=count).map(|k| format!("{id}-{k}")).collect()
        };
        let hp = get("hp").and_then(FieldValue::as_int).unwrap_or(0);
        if !(1..=255).contains(&hp) {
            r.error(
                h,
                "fighters",
                format!("fighter `{id}` of `{}` has no health the engine can use", h.id),
                "`hp` from 1 to 255",
                hp,
            );
        }
        let st = get("style").and_then(FieldValue::as_str).unwrap_or("");
        fighters.push(Fighter {
            is_hero: get("role").and_then(FieldValue::as_str) == Some("hero"),
            hp: hp.clamp(1, 255) as u8,
            style: style(r, h, st),
            mv: get("move")
                .and_then(FieldValue::as_int)
                .map_or(hero_move, |m| m.clamp(0, 255) as u8),
            figures,
            id,
        });
    }
    let heroes = fighters.iter().filter(|f| f.is_hero).count();
    if heroes != 1 {
        r.error(
            h,
            "fighters",
            format!("hero `{}` needs exactly one fighter with role hero", h.id),
            "1 fighter with `role: hero`",
            heroes,
        );
    }
    Hero {
        id: h.id.clone(),
        ability,
        fighters,
        cards: Vec::new(),
        deck: [0; MAX_CARDS],
        card_index: IdTable::new(),
    }
}

fn read_card<'g>(r: &mut Reader<'g>, c: &'g Component, heroes: &mut [Hero]) {
    let Some(hid) = r.str(c, "hero") else { return };
    let Some(hero) = heroes.iter_mut().find(|h| h.id == hid) else {
        r.error(
            c,
            "hero",
            format!("card `{}` names an unknown hero", c.id),
            "a hero id",
            format!("`{hid}`"),
        );
        return;
    };
    if hero.cards.len() == MAX_CARDS {
        r.error(
            c,
            "hero",
            format!("hero `{hid}` has more than {MAX_CARDS} distinct cards"),
            format!("at most {MAX_CARDS} distinct cards per hero"),
            "more",
        );
        return;
    }
    let kind = match r.str(c, "kind").unwrap_or("") {
        "attack" => CardKind::Attack,
        "defense" => CardKind::Defense,
        "versatile" => CardKind::Versatile,
        "scheme" => CardKind::Scheme,
        other => {
            r.error(
                c,
                "kind",
                format!("card `{}` has an unknown kind", c.id),
                "attack, defense, versatile or scheme",
                format!("`{other}`"),
            );
            return;
        }
    };
    let fighter = match r.str(c, "fighter").unwrap_or("any") {
        "any" => None,
        f => match hero.fighters.iter().position(|x| x.id == f) {
            Some(i) => Some(i as u8),
            None => {
                r.error(
                    c,
                    "fighter",
                    format!("card `{}` names a fighter its hero does not have", c.id),
                    format!(
                        "`any` or a fighter of `{hid}`: {}",
                        hero.fighters
                            .iter()
                            .map(|f| f.id.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                    format!("`{f}`"),
                );
                None
            }
        },
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
    let idx = hero.cards.len();
    hero.deck[idx] = u8::try_from(c.copies).unwrap_or(u8::MAX);
    hero.card_index.push(c.id.clone());
    hero.cards.push(Card {
        id: c.id.clone(),
        kind,
        value: r.opt_int(c, "value").unwrap_or(0).clamp(0, 255) as u8,
        boost: r.small(c, "boost").unwrap_or(0),
        fighter,
        timing,
    });
}

fn read_board(r: &mut Reader, b: &Component) -> Option<Board> {
    let zone_names: Vec<String> = r
        .list(b, "zones")
        .iter()
        .filter_map(|z| z.as_record().and_then(|x| x.get("id")).and_then(FieldValue::as_str))
        .map(str::to_string)
        .collect();
    if zone_names.len() > 16 {
        r.error(
            b,
            "zones",
            format!("battlefield `{}` has more than 16 zones", b.id),
            "at most 16 zones",
            zone_names.len(),
        );
        return None;
    }
    let list = r.list(b, "spaces");
    if list.is_empty() || list.len() > MAX_SPACES {
        r.error(
            b,
            "spaces",
            format!("battlefield `{}` has {} spaces", b.id, list.len()),
            format!("1 to {MAX_SPACES} spaces"),
            list.len(),
        );
        return None;
    }
    let field = |s: &FieldValue, f: &str| s.as_record().and_then(|x| x.get(f)).cloned();
    let ids: IdTable = list
        .iter()
        .map(|s| {
            field(s, "id")
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default()
        })
        .collect();
    let mut lists = vec![Vec::new(); list.len()];
    let mut zones = vec![0u16; list.len()];
    let mut start = [OFF; MAX_PLAYERS];
    for (i, s) in list.iter().enumerate() {
        for a in field(s, "adjacent")
            .as_ref()
            .and_then(FieldValue::as_list)
            .unwrap_or(&[])
        {
            match a.as_str().and_then(|a| ids.get(a)) {
                Some(j) => lists[i].push(j as u8),
                None => r.error(
                    b,
                    "spaces",
                    format!(
                        "space `{}` of battlefield `{}` lists an unknown adjacent space",
                        ids.name(i),
                        b.id
                    ),
                    "ids of the battlefield's spaces",
                    format!("{a:?}"),
                ),
            }
        }
        for z in field(s, "zones").as_ref().and_then(FieldValue::as_list).unwrap_or(&[]) {
            match z.as_str().and_then(|z| zone_names.iter().position(|n| n == z)) {
                Some(zi) => zones[i] |= 1 << zi,
                None => r.error(
                    b,
                    "spaces",
                    format!(
                        "space `{}` of battlefield `{}` lies in an unknown zone",
                        ids.name(i),
                        b.id
                    ),
                    format!("one of the zones {}", zone_names.join(", ")),
                    format!("{z:?}"),
                ),
            }
        }
        if let Some(n) = field(s, "start").as_ref().and_then(FieldValue::as_int)
            && (1..=MAX_PLAYERS as i64).contains(&n)
        {
            start[n as usize - 1] = i as u8;
        }
    }
    let start_count = start.iter().take_while(|&&s| s != OFF).count() as u8;
    Some(Board {
        id: b.id.clone(),
        graph: Graph::new(ids, lists, true),
        zones,
        zone_names,
        start,
        start_count,
    })
}

impl Tables {
    pub fn read(game: &Game) -> Result<Tables, Vec<Diagnostic>> {
        let mut r = Reader::new(game);
        let mut heroes: Vec<Hero> = r.some("hero", "heroes").iter().map(|h| read_hero(&mut r, h)).collect();
        for c in r.all("card") {
            read_card(&mut r, c, &mut heroes);
        }
        let mut figures = HashMap::new();
        for (hi, h) in heroes.iter().enumerate() {
            for (fi, f) in h.fighters.iter().enumerate() {
                for (k, id) in f.figures.iter().enumerate() {
                    if figures.insert(id.clone(), (hi as u8, fi as u8, k as u8)).is_some()
                        && let Some(c) = game.component("hero", &h.id)
                    {
                        r.error(
                            c,
                            "fighters",
                            format!("two figures are called `{id}`"),
                            "unique figure ids",
                            format!("`{id}` twice"),
                        );
                    }
                }
            }
        }
        let mut boards = Vec::new();
        for b in r.some("battlefield", "battlefields") {
            boards.extend(read_board(&mut r, b));
        }
        let opening_hand = r.fact_small::<u16>("opening-hand");
        let hand_limit = r.fact_small::<u16>("hand-limit");
        let actions_per_turn = r.fact_small::<u8>("actions-per-turn");
        let exhaustion_loss = r.fact_small::<u8>("exhaustion-loss");
        let numbers = match (opening_hand, hand_limit, actions_per_turn, exhaustion_loss) {
            (Some(opening_hand), Some(hand_limit), Some(actions_per_turn), Some(exhaustion_loss)) => Some(Numbers {
                opening_hand,
                hand_limit,
                actions_per_turn,
                exhaustion_loss,
            }),
            _ => None,
        };
        let tables = numbers.map(|numbers| Tables {
            heroes,
            boards,
            numbers,
            figures,
        });
        r.finish(tables)
    }
}
