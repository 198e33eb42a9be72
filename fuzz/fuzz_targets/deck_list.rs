//! Deck lists: the first byte picks the game and the format (text or
//! YAML); the list is read and validated with the game's construction rules.
#![no_main]

#[path = "common.rs"]
mod common;

use libfuzzer_sys::fuzz_target;
use pnpkit::diag::SourceMap;
use pnpkit::pack::yaml::{Limits, parse};

fuzz_target!(|data: &[u8]| {
    let Some((&pick, input)) = data.split_first() else { return };
    let games = common::games();
    let game = &games[(pick & 0x7f) as usize % games.len()];
    let Some(c) = &game.construction else { return };
    let yaml = pick & 0x80 != 0;
    let text = String::from_utf8_lossy(input);
    let mut sources = SourceMap::default();
    let file = sources.add("deck".into(), text.as_ref().into());
    let mut diags = Vec::new();
    let deck = if yaml {
        match parse(&text, file, &Limits::default()) {
            Ok(node) => pnpkit::deck::list::parse_node(&node, &text, game, c, true, &mut diags),
            Err(d) => {
                common::assert_reported(&[*d], &sources);
                return;
            }
        }
    } else {
        pnpkit::deck::list::parse_text(&text, file, game, c, &mut diags)
    };
    let _ = pnpkit::deck::validate(game, c, &deck, &Default::default());
    common::assert_reported(&diags, &sources);
});
