//! PO import: the input is a PO file for one YAML file of a shipped pack
//! (the first byte picks it); it is read, checked for duplicates, and its
//! translations written into the file, which must read back with exactly
//! those values changed.
#![no_main]

#[path = "common.rs"]
mod common;

use std::collections::{BTreeMap, HashSet};
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use pnpkit::diag::FileId;
use pnpkit::i18n::{Edit, locate, parse_po, rewrite};
use pnpkit::pack::yaml::{Limits, Node, parse};

/// The YAML files with texts of every shipped game: (file id prefix, text).
fn files() -> &'static Vec<(String, String)> {
    static FILES: OnceLock<Vec<(String, String)>> = OnceLock::new();
    FILES.get_or_init(|| {
        let mut out = BTreeMap::new();
        for g in common::games() {
            for e in pnpkit::cmd::i18n::game_entries(g, &Limits::default()).unwrap() {
                out.entry(format!("{}/{}", g.id, e.file))
                    .or_insert_with(|| std::fs::read_to_string(g.dir.join(&e.file)).unwrap());
            }
        }
        out.into_iter().collect()
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, input)) = data.split_first() else { return };
    let files = files();
    let (name, yaml) = &files[pick as usize % files.len()];
    let file = name.split_once('/').map_or(name.as_str(), |(_, f)| f);
    let po = match parse_po(&String::from_utf8_lossy(input)) {
        Ok(po) => po,
        Err(problems) => return assert!(problems.iter().all(|p| p.line >= 1 && !p.message.is_empty())),
    };
    let _ = pnpkit::i18n::duplicates(&po);
    let root = parse(yaml, FileId(0), &Limits::default()).unwrap();
    let mut seen = HashSet::new();
    let edits: Vec<Edit> = po
        .iter()
        .filter(|p| !p.translation.is_empty())
        .filter_map(|p| Some((p.context.strip_prefix(&format!("{file}#"))?.to_owned(), p)))
        .filter(|(path, _)| locate(&root, path).is_some_and(|n| n.get("es").is_some()) && seen.insert(path.clone()))
        .map(|(path, p)| Edit { path, locale: "en".into(), translation: p.translation.clone() })
        .collect();
    if let Ok(out) = rewrite(yaml, &root, &edits) {
        let back = parse(&out, FileId(0), &Limits::default()).expect("a rewritten file parses");
        for e in &edits {
            let got = locate(&back, &e.path).and_then(|m| m.get("en")).and_then(Node::as_str);
            assert_eq!(got, Some(e.translation.as_str()), "{} reads back otherwise", e.path);
        }
    }
});
