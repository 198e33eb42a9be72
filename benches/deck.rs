//! Benchmark: reading and checking deck lists of 1,000,000 short lines, the
//! hostile size of issue 15 (target: answered in under 2 s), in three
//! shapes: one card repeated, a real list's lines in many paste styles, and
//! lines that are no card at all (every line an error, only the first 50
//! reported). Plus 40,000 lines, the size that took 12.6 s before.
//! Results are recorded in docs/benchmarks.md.

use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use pnpkit::check::check;
use pnpkit::deck::{Context, check_list};
use pnpkit::diag::FileId;
use pnpkit::pack::yaml::Limits;

const STYLES: &[&str] = &[
    "1 Recruit",
    "Scout x1",
    "2x Sniper",
    "- Field Medic x 1",
    "Bunker (1)",
    "Trench\t1",
    "1 Assault Rifle (XTR) 31",
    "Botiquín ×1",
    "* 1 Land Mine",
];

fn lines(n: usize, f: impl Fn(usize) -> String) -> String {
    let mut s = String::with_capacity(n * 16);
    for i in 0..n {
        s.push_str(&f(i));
        s.push('\n');
    }
    s
}

fn bench(c: &mut Criterion) {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let report = check(&data, &["xterminio".to_string()], &Limits::default()).unwrap();
    let game = &report.games[0];
    let ctx = Context::default();
    let same = lines(1_000_000, |_| "1 Recruit".to_string());
    let styles = lines(1_000_000, |i| STYLES[i % STYLES.len()].to_string());
    let junk = lines(1_000_000, |i| format!("no card {}", i % 10_000));
    let small = lines(40_000, |i| STYLES[i % STYLES.len()].to_string());
    for (text, _) in [(&same, 0), (&styles, 1), (&junk, 2)] {
        assert!(
            text.len() < Limits::default().max_file_bytes as usize,
            "within the deck size limit"
        );
    }
    let run = |text: &str| {
        let r = check_list(game, Path::new("big.txt"), FileId(0), text, &ctx).unwrap();
        assert!(!r.is_legal());
        r.diagnostics.len()
    };
    assert!(run(&junk) <= 60, "problems past 50 are counted, not listed");
    let mut group = c.benchmark_group("deck");
    group.sample_size(10);
    group.bench_function("1M-lines-one-card", |b| b.iter(|| run(&same)));
    group.bench_function("1M-lines-nine-styles", |b| b.iter(|| run(&styles)));
    group.bench_function("1M-lines-no-card", |b| b.iter(|| run(&junk)));
    group.bench_function("40k-lines-nine-styles", |b| b.iter(|| run(&small)));
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
