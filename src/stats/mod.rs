//! Playtest statistics over logs of one game (`pnpkit stats`): win rates per
//! seat, side, player, hero, faction, god, deck and every other trait a log
//! gives its players, each with its 95% Wilson interval; the first player's
//! advantage; how long games last; and per card how often it was drawn,
//! played and in the winner's deck. [`sim`] runs the self-play games that
//! produce such logs (`pnpkit simulate`).
//!
//! Logs come in replayed (the command replays each with its engine); only
//! the replay's ending, turn and action counts and the log's own header and
//! actions are read here.

pub mod html;
pub mod report;
pub mod sim;

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use serde_json::Value as Json;

use crate::diag::{Code, Diagnostic, Span};
use crate::model::{Game, Shape};

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The Wilson score interval of `wins` out of `n` at `z` (`(0, 1)` for `n` = 0).
pub fn wilson(wins: u64, n: u64, z: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n = n as f64;
    let p = wins as f64 / n;
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    // At 0 or n wins the bound is exactly 0 or 1 (rounding would leave 1e-17 and the interval would miss its rate).
    let low = if wins == 0 { 0.0 } else { (centre - half).max(0.0) };
    let high = if wins as f64 == n {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    (low, high)
}

/// One player of one game.
#[derive(Clone, Debug)]
pub struct Seat {
    pub name: String,
    /// What the log says of the player besides its name: `hero: medusa`,
    /// `faction: amazons`, `side: one`, `deck: 3f2a9c1b` (a deck's hash).
    pub traits: Vec<(String, String)>,
    /// Card id → copies, when the log gives a deck.
    pub deck: BTreeMap<String, u32>,
}

/// One replayed game.
#[derive(Clone, Debug)]
pub struct Record {
    pub file: String,
    pub seats: Vec<Seat>,
    /// The seat that played the first turn.
    pub first: Option<usize>,
    /// Seats that won (empty: a draw, or not finished).
    pub winners: Vec<usize>,
    pub finished: bool,
    pub turns: usize,
    pub actions: usize,
    /// Card id → times drawn (opening hands included), and played.
    pub drawn: BTreeMap<String, u32>,
    pub played: BTreeMap<String, u32>,
}

/// A short stable name of a deck: the first 8 hex digits of the SHA-256 of
/// its sorted `id count` lines.
pub fn deck_hash(deck: &BTreeMap<String, u32>) -> String {
    use sha2::{Digest, Sha256};
    let text: String = deck.iter().map(|(k, n)| format!("{k} {n}\n")).collect();
    Sha256::digest(text.as_bytes())
        .iter()
        .take(4)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Keys of an action whose strings are cards drawn, and cards played.
const DRAWN: &[&str] = &["draw", "drawn", "draws"];
const PLAYED: &[&str] = &["card", "spell", "upgrade", "played"];

/// The ids of the game's cards (pieces of card-shaped kinds).
fn card_ids(game: &Game) -> BTreeSet<String> {
    game.kinds
        .values()
        .filter(|k| k.shape == Shape::Card)
        .flat_map(|k| game.components.get(&k.id).into_iter().flatten())
        .map(|c| c.id.clone())
        .collect()
}

fn strings(v: &Json, out: &mut Vec<String>) {
    match v {
        Json::String(s) => out.push(s.clone()),
        Json::Array(items) => items.iter().for_each(|i| strings(i, out)),
        _ => {}
    }
}

/// Counts the card ids under the given keys of an action (at any depth).
fn count_cards(v: &Json, keys: &[&str], cards: &BTreeSet<String>, draw_action: bool, out: &mut BTreeMap<String, u32>) {
    if let Json::Object(m) = v {
        for (k, x) in m {
            let wanted = keys.contains(&k.as_str()) || (draw_action && k == "cards");
            if wanted {
                let mut found = Vec::new();
                strings(x, &mut found);
                for id in found.into_iter().filter(|id| cards.contains(id)) {
                    *out.entry(id).or_insert(0) += 1;
                }
            } else {
                count_cards(x, keys, cards, false, out);
            }
        }
    } else if let Json::Array(items) = v {
        items.iter().for_each(|i| count_cards(i, keys, cards, draw_action, out));
    }
}

/// Traits a deck's one-of-a-kind card gives it: where the construction
/// rules ask for exactly one card of some sort (one god per army, one
/// protagonist per deck), the deck is named by that card (`gods: Zeus`).
fn named_by(game: &Game, deck: &BTreeMap<String, u32>) -> Vec<(String, String)> {
    use crate::model::construction::{Amount, Bound, Check, DeckRule};
    fn walk<'a>(rules: &'a [DeckRule], out: &mut Vec<&'a DeckRule>) {
        for r in rules {
            if matches!(r.check, Check::Count(Bound::Exactly(Amount::Number(1)))) {
                out.push(r);
            }
            walk(&r.parts, out);
        }
    }
    let Some(c) = &game.construction else { return Vec::new() };
    let mut ones = Vec::new();
    walk(&c.rules, &mut ones);
    let cards: Vec<(&crate::model::Component, u32)> = deck
        .iter()
        .filter_map(|(id, n)| {
            let comp = c.kinds.iter().find_map(|k| game.component(k, id))?;
            Some((comp, *n))
        })
        .collect();
    let mut out: Vec<(String, String)> = Vec::new();
    for r in ones {
        let hits: Vec<&(&crate::model::Component, u32)> =
            cards.iter().filter(|(comp, _)| r.filter.matches(comp)).collect();
        if let [(comp, 1)] = hits[..] {
            let label = r.label.get("en").to_owned();
            if !out.iter().any(|(l, _)| *l == label) {
                out.push((label, comp.name.get("en").to_owned()));
            }
        }
    }
    out
}

/// A record from a replayed log: its header (players with their traits and
/// decks), its actions, and how the replay ended.
pub fn record(game: &Game, file: &str, log: &crate::rules::log::Log, replay: &crate::rules::Replay) -> Record {
    let cards = card_ids(game);
    let players = log
        .header
        .get("players")
        .and_then(Json::as_array)
        .cloned()
        .unwrap_or_default();
    let mut drawn = BTreeMap::new();
    let mut played = BTreeMap::new();
    let seats: Vec<Seat> = log
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let entry = players.get(i).and_then(Json::as_object);
            let mut traits = Vec::new();
            let mut deck = BTreeMap::new();
            for (k, v) in entry.into_iter().flatten() {
                match (k.as_str(), v) {
                    ("name", _) => {}
                    ("deck", Json::Object(m)) => {
                        deck = m
                            .iter()
                            .map(|(id, n)| (id.clone(), n.as_u64().unwrap_or(1) as u32))
                            .collect();
                    }
                    // An opening hand: cards drawn before the first turn.
                    ("hand" | "draw", _) => {
                        let mut found = Vec::new();
                        strings(v, &mut found);
                        for id in found.into_iter().filter(|id| cards.contains(id)) {
                            *drawn.entry(id).or_insert(0) += 1;
                        }
                    }
                    // A piece's id reads as its name (`king-arthur` → King Arthur).
                    (_, Json::String(s)) => {
                        let shown = game.components.values().flatten().find(|c| c.id == *s);
                        traits.push((
                            k.clone(),
                            shown.map_or_else(|| s.clone(), |c| c.name.get("en").to_owned()),
                        ));
                    }
                    (_, Json::Number(n)) => traits.push((k.clone(), n.to_string())),
                    _ => {}
                }
            }
            if !deck.is_empty() {
                traits.push(("deck".into(), format!("deck {}", deck_hash(&deck))));
                traits.extend(named_by(game, &deck));
            }
            Seat {
                name: p.name.clone(),
                traits,
                deck,
            }
        })
        .collect();
    for turn in &log.turns {
        for item in &turn.items {
            if let crate::rules::log::Item::Action(a) = item {
                let value = a.value();
                let draw_action = value
                    .get("do")
                    .and_then(Json::as_str)
                    .is_some_and(|d| d.contains("draw"));
                count_cards(&value, DRAWN, &cards, draw_action, &mut drawn);
                count_cards(&value, PLAYED, &cards, false, &mut played);
            }
        }
    }
    let seat_of = |name: &str| seats.iter().position(|s| s.name == name);
    Record {
        file: file.to_owned(),
        first: log.turns.first().and_then(|t| seat_of(&t.player)),
        winners: replay
            .ending
            .as_ref()
            .map(|e| e.winners.iter().filter_map(|w| seat_of(w)).collect())
            .unwrap_or_default(),
        finished: replay.ending.is_some(),
        turns: replay.turns,
        actions: replay.actions,
        seats,
        drawn,
        played,
    }
}

/// A win rate with its interval.
#[derive(Clone, Debug, Serialize)]
pub struct Rate {
    pub value: String,
    /// Player-games counted (finished games).
    pub games: u64,
    pub wins: u64,
    pub rate: f64,
    /// The 95% Wilson interval.
    pub low: f64,
    pub high: f64,
}

impl Rate {
    fn new(value: String, wins: u64, games: u64) -> Rate {
        let (low, high) = wilson(wins, games, Z95);
        Rate {
            value,
            games,
            wins,
            rate: if games == 0 { 0.0 } else { wins as f64 / games as f64 },
            low,
            high,
        }
    }
}

/// Win rates by one trait (`hero`, `seat`, `player` …).
#[derive(Clone, Debug, Serialize)]
pub struct Dimension {
    pub name: String,
    pub rates: Vec<Rate>,
}

/// A distribution: quantiles and a histogram.
#[derive(Clone, Debug, Serialize)]
pub struct Distribution {
    pub min: usize,
    pub q1: f64,
    pub median: f64,
    pub q3: f64,
    pub max: usize,
    pub mean: f64,
    /// `(from, to, games)`: bins of equal width covering min..=max.
    pub bins: Vec<(usize, usize, usize)>,
}

fn quantile(sorted: &[usize], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    // Linear interpolation between closest ranks.
    let pos = q * (sorted.len() - 1) as f64;
    let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
    sorted[lo] as f64 + (sorted[hi] as f64 - sorted[lo] as f64) * (pos - lo as f64)
}

impl Distribution {
    pub fn of(values: &[usize]) -> Distribution {
        let mut v = values.to_vec();
        v.sort_unstable();
        let (min, max) = (v.first().copied().unwrap_or(0), v.last().copied().unwrap_or(0));
        let n = v.len().max(1);
        let bins_wanted = ((n as f64).sqrt().ceil() as usize).clamp(1, 12);
        let width = ((max - min) / bins_wanted + 1).max(1);
        let mut bins = Vec::new();
        let mut from = min;
        while from <= max && !v.is_empty() {
            let to = from + width - 1;
            let count = v.iter().filter(|x| **x >= from && **x <= to).count();
            bins.push((from, to, count));
            from += width;
        }
        Distribution {
            min,
            q1: quantile(&v, 0.25),
            median: quantile(&v, 0.5),
            q3: quantile(&v, 0.75),
            max,
            mean: v.iter().sum::<usize>() as f64 / n as f64,
            bins,
        }
    }
}

/// One card's numbers.
#[derive(Clone, Debug, Serialize)]
pub struct CardRow {
    pub id: String,
    pub name: String,
    pub drawn: u32,
    pub played: u32,
    /// Player-games (finished) whose deck holds the card, and how many of them won.
    pub in_decks: u64,
    pub in_winning_decks: u64,
    pub win_rate: Rate,
}

/// Everything `stats` reports.
#[derive(Clone, Debug, Serialize)]
pub struct Stats {
    pub game: String,
    pub logs: usize,
    pub finished: usize,
    pub draws: usize,
    pub unfinished: usize,
    /// The first player's win rate over finished games.
    pub first_player: Rate,
    pub dimensions: Vec<Dimension>,
    pub turns: Distribution,
    pub actions: Distribution,
    pub cards: Vec<CardRow>,
}

/// Aggregates the records of one game.
pub fn stats(game: &Game, records: &[Record]) -> Stats {
    let done: Vec<&Record> = records.iter().filter(|r| r.finished).collect();
    let mut dims: BTreeMap<String, BTreeMap<String, (u64, u64)>> = BTreeMap::new();
    let mut add = |dim: &str, value: String, won: bool| {
        let e = dims.entry(dim.to_owned()).or_default().entry(value).or_insert((0, 0));
        e.0 += u64::from(won);
        e.1 += 1;
    };
    let (mut first_wins, mut first_games) = (0u64, 0u64);
    for r in &done {
        for (i, s) in r.seats.iter().enumerate() {
            let won = r.winners.contains(&i);
            add("seat", format!("seat {}", i + 1), won);
            add("player", s.name.clone(), won);
            if let Some(f) = r.first {
                add(
                    "turn order",
                    if f == i { "first".into() } else { "not first".into() },
                    won,
                );
            }
            for (k, v) in &s.traits {
                add(k, v.clone(), won);
            }
        }
        if let Some(f) = r.first {
            first_games += 1;
            first_wins += u64::from(r.winners.contains(&f));
        }
    }
    // Traits that say something: more than one value, or a value per player of a game.
    let order = ["seat", "turn order", "side", "player"];
    let mut dimensions: Vec<Dimension> = dims
        .into_iter()
        .filter(|(_, values)| values.len() > 1)
        .map(|(name, values)| {
            let mut rates: Vec<Rate> = values.into_iter().map(|(v, (w, n))| Rate::new(v, w, n)).collect();
            rates.sort_by(|a, b| {
                b.rate
                    .total_cmp(&a.rate)
                    .then(b.games.cmp(&a.games))
                    .then(a.value.cmp(&b.value))
            });
            Dimension { name, rates }
        })
        .collect();
    dimensions.sort_by_key(|d| {
        (
            order.iter().position(|o| *o == d.name).unwrap_or(order.len()),
            d.name.clone(),
        )
    });
    let cards = card_rows(game, records, &done);
    let turns: Vec<usize> = done.iter().map(|r| r.turns).collect();
    let actions: Vec<usize> = done.iter().map(|r| r.actions).collect();
    Stats {
        game: game.id.clone(),
        logs: records.len(),
        finished: done.len(),
        draws: done.iter().filter(|r| r.winners.is_empty()).count(),
        unfinished: records.len() - done.len(),
        first_player: Rate::new("first player".into(), first_wins, first_games),
        dimensions,
        turns: Distribution::of(&turns),
        actions: Distribution::of(&actions),
        cards,
    }
}

fn card_rows(game: &Game, records: &[Record], done: &[&Record]) -> Vec<CardRow> {
    let mut ids: BTreeSet<&String> = BTreeSet::new();
    for r in records {
        ids.extend(r.drawn.keys());
        ids.extend(r.played.keys());
        for s in &r.seats {
            ids.extend(s.deck.keys());
        }
    }
    let name_of = |id: &str| {
        game.components
            .values()
            .flatten()
            .find(|c| c.id == id)
            .map_or_else(|| id.to_owned(), |c| c.name.get("en").to_owned())
    };
    let mut rows: Vec<CardRow> = ids
        .into_iter()
        .map(|id| {
            let (mut n, mut w) = (0u64, 0u64);
            for r in done {
                for (i, s) in r.seats.iter().enumerate() {
                    if s.deck.contains_key(id) {
                        n += 1;
                        w += u64::from(r.winners.contains(&i));
                    }
                }
            }
            CardRow {
                id: id.clone(),
                name: name_of(id),
                drawn: records.iter().map(|r| r.drawn.get(id).copied().unwrap_or(0)).sum(),
                played: records.iter().map(|r| r.played.get(id).copied().unwrap_or(0)).sum(),
                in_decks: n,
                in_winning_decks: w,
                win_rate: Rate::new(id.clone(), w, n),
            }
        })
        .collect();
    rows.sort_by(|a, b| {
        b.played
            .cmp(&a.played)
            .then(b.drawn.cmp(&a.drawn))
            .then(a.id.cmp(&b.id))
    });
    rows
}

/// E075: a log of another game than the others.
pub fn mixed_games(span: Span, found: &str, expected: &str) -> Diagnostic {
    Diagnostic::new(
        Code::StatsMixedGames,
        format!("this log is a game of `{found}`, the others of `{expected}`"),
    )
    .at(span)
    .label("another game")
    .expected(format!("logs of `{expected}` only"))
    .help("statistics compare games of one game: run `pnpkit stats` once per game")
}

/// W076: a log left out of the statistics because it does not replay clean.
pub fn skipped(span: Option<Span>, file: &std::path::Path, why: &str) -> Diagnostic {
    let d = Diagnostic::new(Code::StatsLogSkipped, format!("left out of the statistics: {why}"))
        .help(format!("`pnpkit log {}` shows the problem in full", file.display()));
    match span {
        Some(s) => d.at(s).label("the log stops being legal here"),
        None => d.in_file(file),
    }
}
