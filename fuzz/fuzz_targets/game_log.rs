//! Game logs: read and replayed by the engine of the game they name.
#![no_main]

#[path = "common.rs"]
mod common;

use libfuzzer_sys::fuzz_target;
use pnpkit::diag::SourceMap;
use pnpkit::pack::yaml::{Limits, parse};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut sources = SourceMap::default();
    let file = sources.add("log.yaml".into(), text.as_ref().into());
    let node = match parse(&text, file, &Limits::default()) {
        Ok(n) => n,
        Err(d) => return common::assert_reported(&[*d], &sources),
    };
    let log = match pnpkit::rules::log::read(&node) {
        Ok(l) => l,
        Err(ds) => return common::assert_reported(&ds, &sources),
    };
    let Some(game) = common::games().iter().find(|g| g.id == log.game) else { return };
    let Some(Ok(engine)) = pnpkit::rules::engine_for(game) else { return };
    match engine.replay(&log, &pnpkit::rules::Options::default()) {
        Err(ds) => common::assert_reported(&ds, &sources),
        Ok(r) => {
            if let Some(f) = &r.failure {
                assert!(!f.message.is_empty(), "a failure without a message");
            }
        }
    }
});
