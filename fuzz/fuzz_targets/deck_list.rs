//! Deck lists: the first byte picks the game and the format (text or
//! YAML); the list is read and validated with the game's construction rules.
#![no_main]

#[path = "common.rs"]
mod common;

use libfuzzer_sys::fuzz_target;
use pnpkit::diag::SourceMap;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, input)) = data.split_first() else { return };
    let games = common::games();
    let game = &games[(pick & 0x7f) as usize % games.len()];
    if game.construction.is_none() {
        return;
    }
    let path = std::path::Path::new(if pick & 0x80 != 0 { "deck.yaml" } else { "deck.txt" });
    let text = String::from_utf8_lossy(input);
    let mut sources = SourceMap::default();
    let file = sources.add(path.into(), text.as_ref().into());
    let report = pnpkit::deck::check_list(game, path, file, &text, &Default::default()).expect("construction rules");
    assert!(report.is_legal() || !report.diagnostics.is_empty(), "an illegal list without a diagnostic");
    common::assert_reported(&report.diagnostics, &sources);
});
