//! `watch`: time from a one-card edit to the rewritten PDFs of a generated
//! 1,000-card pack (one locale, one paper), in one long-lived session.
//! Plain timing (no criterion): `cargo bench --bench watch`. Results are
//! recorded in docs/benchmarks.md.

use std::path::PathBuf;
use std::time::Instant;

use pnpkit::cmd::watch::{Rebuilt, Session};
use pnpkit::render::impose;
#[path = "support/mod.rs"]
mod support;

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    support::generate(&data, 1000, 10);
    let out = tmp.path().join("out");
    let mut s = Session::new(&data, &root, &out, "bench", Some("en".into()), impose::A4).unwrap();
    let quiet = |l: &str| {
        if l.contains("rebuilt") || l.contains("redrawn") {
            println!("  {l}")
        }
    };
    let t = Instant::now();
    let first = s.rebuild(&quiet).unwrap();
    println!("first build: {:.0} ms ({first:?})", t.elapsed().as_secs_f64() * 1000.0);
    let file = data.join("bench/components/card/part-5.yaml");
    let original = std::fs::read_to_string(&file).unwrap();
    let mut times = Vec::new();
    for i in 0..7 {
        let edited = original.replace("\"Card 500\"", &format!("\"Card 500 edit {i}\""));
        assert_ne!(edited, original);
        std::fs::write(&file, edited).unwrap();
        let t = Instant::now();
        let r = s.rebuild(&quiet).unwrap();
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        let Rebuilt::Ok { changed, files, .. } = r else {
            panic!("{r:?}")
        };
        println!("one-card edit {i}: {ms:.0} ms ({changed} of {files} files rewritten)");
        times.push(ms);
    }
    times.sort_by(f64::total_cmp);
    println!(
        "one-card edit: median {:.0} ms, min {:.0}, max {:.0}",
        times[times.len() / 2],
        times[0],
        times[times.len() - 1]
    );
    // No change at all: what a save without edits costs.
    let t = Instant::now();
    s.rebuild(&quiet).unwrap();
    println!("unchanged rebuild: {:.0} ms", t.elapsed().as_secs_f64() * 1000.0);
}
