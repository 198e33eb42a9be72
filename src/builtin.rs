//! What travels inside the binary: the shared and per-game templates, the
//! scaffold of `pnpkit new`, the gallery page, the default fonts with their
//! licences, and the shipped game packs (`build.rs` embeds the repository's
//! `templates/`, `fonts/` and `data/`). A project's own files of the same
//! path take precedence everywhere they are looked up.

use std::io;
use std::path::Path;

mod table {
    include!(concat!(env!("OUT_DIR"), "/builtin_files.rs"));
}

/// The label shown where a path of the built-in set is printed.
pub const LABEL: &str = "<built-in>";

/// The embedded file at `path` (`templates/shared/kit.typ`, `/`-separated).
pub fn file(path: &str) -> Option<&'static [u8]> {
    let path = path.trim_start_matches('/');
    table::FILES
        .binary_search_by(|(p, _)| (*p).cmp(path))
        .ok()
        .map(|i| table::FILES[i].1)
}

/// The embedded files below the folder `dir` (`data/unmatched`), with their
/// paths relative to it, sorted.
pub fn under(dir: &str) -> impl Iterator<Item = (&'static str, &'static [u8])> {
    let prefix = format!("{}/", dir.trim_matches('/'));
    let start = table::FILES.partition_point(|(p, _)| *p < prefix.as_str());
    let len = prefix.len();
    table::FILES[start..]
        .iter()
        .take_while(move |(p, _)| p.starts_with(&prefix))
        .map(move |(p, b)| (&p[len..], *b))
}

/// Whether the folder `dir` holds any embedded file.
pub fn has_dir(dir: &str) -> bool {
    under(dir).next().is_some()
}

/// The ids of the shipped games (`data/<id>/game.yaml`), sorted.
pub fn games() -> Vec<&'static str> {
    let mut ids: Vec<&'static str> = table::FILES
        .iter()
        .filter_map(|(p, _)| p.strip_prefix("data/")?.strip_suffix("/game.yaml"))
        .filter(|id| !id.contains('/'))
        .collect();
    ids.dedup();
    ids
}

/// The default font files (`fonts/*.ttf|otf|ttc|otc`), by file name order.
pub fn fonts() -> Vec<(&'static str, &'static [u8])> {
    under("fonts")
        .filter(|(name, _)| crate::fonts::is_font_file(Path::new(name)))
        .collect()
}

/// Writes the embedded folder `dir` into `dest` (created; existing files of
/// the same names are replaced). Returns the paths written, relative to `dest`.
pub fn write_dir(dir: &str, dest: &Path) -> io::Result<Vec<&'static str>> {
    let mut written = Vec::new();
    for (rel, bytes) in under(dir) {
        let path = dest.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&path, bytes)?;
        written.push(rel);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_five_games_templates_and_fonts_travel_inside() {
        assert_eq!(games(), ["mythic", "onevmany", "openwars", "unmatched", "xterminio"]);
        for path in [
            "templates/shared/kit.typ",
            "templates/gallery/index.html",
            "templates/scaffold/game.yaml",
            "templates/unmatched/kit.typ",
            "data/unmatched/game.yaml",
            "fonts/LICENSE-DejaVu.txt",
        ] {
            assert!(file(path).is_some_and(|b| !b.is_empty()), "{path} is not embedded");
        }
        assert!(!fonts().is_empty());
        assert!(under("data/unmatched").any(|(p, _)| p == "game.yaml"));
        assert!(under("data/unmatched").all(|(p, _)| !p.starts_with('/')));
        assert!(file("templates/shared").is_none(), "a folder is not a file");
    }

    #[test]
    fn every_embedded_file_is_the_repository_file() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        for (path, bytes) in table::FILES {
            assert_eq!(std::fs::read(root.join(path)).ok().as_deref(), Some(*bytes), "{path}");
        }
        assert!(table::FILES.windows(2).all(|w| w[0].0 < w[1].0), "sorted, no repeats");
    }
}
