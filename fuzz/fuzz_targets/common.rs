//! What the fuzz targets share: the shipped games, loaded once, and the
//! checks every diagnostic must pass.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use pnpkit::diag::{Diagnostic, SourceMap};
use pnpkit::model::Game;

/// The project root (the fuzz crate's parent).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The shipped games, checked once per process.
pub fn games() -> &'static [Game] {
    static GAMES: OnceLock<Vec<Game>> = OnceLock::new();
    GAMES.get_or_init(|| {
        let report = pnpkit::check::check(&root().join("data"), &[], &Default::default()).expect("data readable");
        assert!(!report.has_errors(), "the shipped data has errors");
        report.games
    })
}

/// Every diagnostic is located inside its file and renders.
pub fn assert_reported(diags: &[Diagnostic], sources: &SourceMap) {
    for d in diags {
        match d.span {
            Some(s) => {
                let text = &sources.get(s.file).text;
                assert!(s.start <= s.end && s.end <= text.len(), "span outside its file: {d:?}");
                assert!(text.is_char_boundary(s.start) && text.is_char_boundary(s.end), "span splits a character: {d:?}");
            }
            None => assert!(d.file.is_some(), "a diagnostic without a location: {d:?}"),
        }
        let _ = pnpkit::diag::to_json(d, sources);
    }
    let _ = pnpkit::diag::render_human(diags, sources, false);
}
