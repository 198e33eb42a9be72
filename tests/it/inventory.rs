//! Every export counted against the kit, as a buyer or a virtual table would
//! receive it: for every shipped game, each print shop's files (the card
//! names read from the PDF text for DriveThruCards and the print-ready PDF,
//! the PNG file list for The Game Crafter and MakePlayingCards) and the
//! Tabletop Simulator decks (their JSON). Every card is in one deck, in its
//! number of copies, each deck once, no two files share a name, and the
//! decks are the ones players shuffle (model/decks.rs): one per Unmatched
//! hero, one per XTerminio faction, Mythic's activation, Art of War and
//! omphalos cards in one army deck.

use crate::common;

use std::collections::{BTreeMap, HashSet};
use std::path::Path;

use crate::common::raster::pdf_text;
use pnpkit::export::{Style, game_files};
use pnpkit::model::Game;
use pnpkit::render::pipeline::template_for;
use pnpkit::render::world::Shared;
use pnpkit::render::{KitOptions, compile, plan_pieces};
use pnpkit::shop;

const GAMES: [&str; 5] = ["onevmany", "unmatched", "openwars", "mythic", "xterminio"];

fn shared() -> Shared {
    Shared::new(common::root(), 1_767_225_600).unwrap()
}

/// A shop's export of a shipped game in English.
fn export(game: &Game, shop_id: &str) -> shop::Export {
    shop::export(
        &shared(),
        game,
        "en",
        shop::shop(shop_id).unwrap(),
        &template_for(&shared(), game),
    )
    .unwrap_or_else(|p| {
        panic!(
            "{}: {:?}",
            game.id,
            p.iter().map(|(d, _)| &d.message).collect::<Vec<_>>()
        )
    })
}

/// Letters and digits only, lower case: names survive capitals, hyphenation
/// and line breaks in the PDF text.
fn squash(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// What the kit says each deck holds: deck id → (card id → (name, copies)).
fn kit_decks(game: &Game) -> BTreeMap<String, BTreeMap<String, (String, u32)>> {
    game.decks()
        .iter()
        .map(|d| {
            let cards = d
                .cards
                .iter()
                .map(|c| (format!("{}/{}", c.kind, c.id), (c.name.get("en").to_owned(), c.copies)))
                .collect();
            (d.id.clone(), cards)
        })
        .collect()
}

fn no_two_files_share_a_name(files: &[(std::path::PathBuf, Vec<u8>)], what: &str, problems: &mut Vec<String>) {
    let mut seen = HashSet::new();
    for (p, _) in files {
        if !seen.insert(p.clone()) {
            problems.push(format!("{what}: two files are called {}", p.display()));
        }
    }
}

/// A PNG shop: `<deck>/NNN-<card>.png` per copy, the deck's `back.png` or a
/// back per copy.
fn png_inventory(game: &Game, shop_id: &str, problems: &mut Vec<String>) {
    let e = export(game, shop_id);
    let what = format!("{} {shop_id}", game.id);
    no_two_files_share_a_name(&e.files, &what, problems);
    let kit = kit_decks(game);
    let mut found: BTreeMap<String, BTreeMap<String, u32>> = BTreeMap::new();
    let mut numbers: BTreeMap<String, Vec<u32>> = BTreeMap::new();
    for (p, _) in &e.files {
        if p.extension().is_none_or(|x| x != "png") {
            continue;
        }
        let deck = p
            .parent()
            .and_then(Path::file_name)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let file = p.file_stem().unwrap().to_string_lossy().into_owned();
        if file == "back" || file.ends_with("-back") {
            continue;
        }
        let (n, id) = file
            .split_once('-')
            .unwrap_or_else(|| panic!("{what}: {}", p.display()));
        numbers.entry(deck.clone()).or_default().push(n.parse().unwrap());
        *found.entry(deck).or_default().entry(id.to_owned()).or_default() += 1;
    }
    compare(&what, &kit, &found, problems);
    // Copies are numbered 1, 2, 3 … within each deck, each number once.
    for (deck, mut ns) in numbers {
        ns.sort();
        if ns != (1..=ns.len() as u32).collect::<Vec<_>>() {
            problems.push(format!("{what}: deck {deck} numbers its files {ns:?}"));
        }
    }
}

/// The kit's decks against what an export holds (card id → copies by deck).
fn compare(
    what: &str,
    kit: &BTreeMap<String, BTreeMap<String, (String, u32)>>,
    found: &BTreeMap<String, BTreeMap<String, u32>>,
    problems: &mut Vec<String>,
) {
    for (deck, cards) in kit {
        let Some(got) = found.get(deck) else {
            problems.push(format!("{what}: deck {deck} is missing"));
            continue;
        };
        for (key, (name, copies)) in cards {
            let id = key.split('/').nth(1).unwrap();
            let n = got.get(id).copied().unwrap_or(0);
            if n != *copies {
                problems.push(format!(
                    "{what}: deck {deck} holds {n} of {name} ({key}), the kit {copies}"
                ));
            }
        }
        for id in got.keys() {
            if !cards.keys().any(|k| k.ends_with(&format!("/{id}"))) {
                problems.push(format!("{what}: deck {deck} holds {id}, which is not in that deck"));
            }
        }
    }
    for deck in found.keys() {
        if !kit.contains_key(deck) {
            problems.push(format!("{what}: exports deck {deck}, which the kit does not have"));
        }
    }
}

/// A PDF shop: one PDF per deck; every front page names its card.
fn pdf_inventory(game: &Game, shop_id: &str, problems: &mut Vec<String>) {
    let e = export(game, shop_id);
    let what = format!("{} {shop_id}", game.id);
    no_two_files_share_a_name(&e.files, &what, problems);
    let kit = kit_decks(game);
    // Each deck's cards in deck order: (kind/id, name, copies).
    let order: BTreeMap<String, Vec<(String, String, u32)>> = game
        .decks()
        .iter()
        .map(|d| {
            let cards = d
                .cards
                .iter()
                .map(|c| (format!("{}/{}", c.kind, c.id), c.name.get("en").to_owned(), c.copies))
                .collect();
            (d.id.clone(), cards)
        })
        .collect();
    let mut found: BTreeMap<String, BTreeMap<String, u32>> = BTreeMap::new();
    for (p, bytes) in e
        .files
        .iter()
        .filter(|(p, _)| p.extension().is_some_and(|x| x == "pdf"))
    {
        let file = p.file_stem().unwrap().to_string_lossy().into_owned();
        // `<game>-<deck>-<shop>.pdf`
        let deck = file
            .strip_prefix(&format!("{}-", game.id))
            .and_then(|r| r.strip_suffix(&format!("-{shop_id}")))
            .unwrap_or_else(|| panic!("{what}: {file}"))
            .to_owned();
        let Some(cards) = kit.get(&deck) else {
            problems.push(format!("{what}: {file} is no deck of the kit"));
            continue;
        };
        let mut pages: Vec<String> = pdf_text(bytes).split('\u{c}').map(squash).collect();
        if pages.last().is_some_and(String::is_empty) {
            pages.pop();
        }
        let copies: u32 = cards.values().map(|(_, n)| n).sum();
        // Which pages are fronts: DriveThruCards puts the deck's one back
        // first (or each card's back before it), the print-ready PDF each
        // back after its front.
        let fronts: Vec<&String> = match (shop_id, pages.len() as u32) {
            (_, n) if n == copies => pages.iter().collect(),
            ("dtc", n) if n == copies + 1 => pages.iter().skip(1).collect(),
            ("dtc", n) if n == 2 * copies => pages.iter().skip(1).step_by(2).collect(),
            (_, n) if n == 2 * copies => pages.iter().step_by(2).collect(),
            (_, n) => {
                problems.push(format!("{what}: {file} has {n} pages for {copies} cards"));
                continue;
            }
        };
        let counts = found.entry(deck.clone()).or_default();
        // The fronts come in deck order, each card in its copies: each must
        // show the words of its card's name (a name's words may be laid out
        // apart, as "Zeus" above "Activation card").
        let expected: Vec<(&String, &String)> = order
            .get(&deck)
            .into_iter()
            .flatten()
            .flat_map(|(key, name, copies)| std::iter::repeat_n((key, name), *copies as usize))
            .collect();
        for (n, text) in fronts.iter().enumerate() {
            let Some((key, name)) = expected.get(n) else { break };
            let words: Vec<String> = name
                .split(|c: char| !c.is_alphanumeric())
                .filter(|w| w.len() >= 3)
                .map(squash)
                .collect();
            if words.iter().all(|w| text.contains(w.as_str())) {
                *counts.entry(key.split('/').nth(1).unwrap().to_owned()).or_default() += 1;
            } else {
                problems.push(format!("{what}: {file} front {} does not show {name}", n + 1));
            }
        }
    }
    compare(&what, &kit, &found, problems);
}

/// The Tabletop Simulator export: one deck object per deck, each card its copies.
fn tts_inventory(game: &Game, problems: &mut Vec<String>) {
    let shared = shared();
    let opts = KitOptions::default();
    let pieces = plan_pieces(game, "en", &opts, &template_for(&shared, game));
    let docs: Vec<_> = pieces
        .chunks
        .iter()
        .map(|c| {
            compile(&shared, c, &[], &mut Default::default(), None)
                .ok()
                .unwrap()
                .document
        })
        .collect();
    let files = game_files(game, "en", &pieces, &docs, Style::Exact, "").unwrap();
    let what = format!("{} tts", game.id);
    no_two_files_share_a_name(&files, &what, problems);
    let kit = kit_decks(game);
    let mut found: BTreeMap<String, BTreeMap<String, u32>> = BTreeMap::new();
    for (p, bytes) in files
        .iter()
        .filter(|(p, _)| p.starts_with("tts") && p.extension().is_some_and(|x| x == "json"))
    {
        let deck = p.file_stem().unwrap().to_string_lossy().into_owned();
        let json: serde_json::Value = serde_json::from_slice(bytes).unwrap();
        let objects = json["ObjectStates"].as_array().unwrap();
        if objects.len() != 1 {
            problems.push(format!("{what}: {deck} holds {} objects", objects.len()));
        }
        let names: BTreeMap<String, String> = kit
            .get(&deck)
            .into_iter()
            .flatten()
            .map(|(k, (n, _))| (n.clone(), k.split('/').nth(1).unwrap().to_owned()))
            .collect();
        let counts = found.entry(deck.clone()).or_default();
        let contained = objects[0]["ContainedObjects"].as_array().unwrap();
        if contained.len() != objects[0]["DeckIDs"].as_array().unwrap().len() {
            problems.push(format!("{what}: {deck}: DeckIDs and cards differ in number"));
        }
        for card in contained {
            let nick = card["Nickname"].as_str().unwrap();
            let id = names.get(nick).cloned().unwrap_or_else(|| nick.to_owned());
            *counts.entry(id).or_default() += 1;
        }
    }
    compare(&what, &kit, &found, problems);
}

#[test]
fn decks_are_the_ones_players_shuffle() {
    let decks = |g: &str| -> Vec<(String, u32)> {
        common::game(g)
            .decks()
            .iter()
            .map(|d| (d.id.clone(), d.count()))
            .collect()
    };
    let um = decks("unmatched");
    for hero in ["alice", "medusa", "king-arthur", "sinbad"] {
        assert!(um.contains(&(format!("{hero}-deck"), 30)), "{um:?}");
    }
    let xt = decks("xterminio");
    assert!(
        xt.contains(&("resistance-deck".into(), 72)) && xt.contains(&("swarm-deck".into(), 72)),
        "{xt:?}"
    );
    assert_eq!(xt.len(), 2, "every XTerminio card is in its faction's deck: {xt:?}");
    let mb = decks("mythic");
    assert!(mb.contains(&("army".into(), 71 + 54 + 15)), "{mb:?}");
    // Every card of every game is in exactly one deck or set.
    for g in GAMES {
        let game = common::game(g);
        let mut seen = HashSet::new();
        for d in game.decks() {
            for c in &d.cards {
                assert!(
                    seen.insert((c.kind.clone(), c.id.clone())),
                    "{g}: {}/{} twice",
                    c.kind,
                    c.id
                );
            }
        }
        let cards: usize = game
            .kinds
            .values()
            .filter(|k| k.shape == pnpkit::model::Shape::Card)
            .map(|k| game.components.get(&k.id).map_or(0, Vec::len))
            .sum();
        assert_eq!(seen.len(), cards, "{g}");
    }
}

#[test]
fn every_shop_export_holds_every_card_in_its_copies_once_per_deck() {
    let mut problems = Vec::new();
    for g in GAMES {
        let game = common::game(g);
        for s in ["tgc", "mpc"] {
            png_inventory(game, s, &mut problems);
        }
        for s in ["dtc", "pnp"] {
            pdf_inventory(game, s, &mut problems);
        }
    }
    common::assert_no_problems(&problems);
}

#[test]
fn the_tabletop_simulator_export_follows_the_decks() {
    let mut problems = Vec::new();
    for g in GAMES {
        tts_inventory(common::game(g), &mut problems);
    }
    common::assert_no_problems(&problems);
}
