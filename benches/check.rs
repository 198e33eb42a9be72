//! Benchmark: checking a generated pack of 10,000 cards.
//! Results are recorded in docs/benchmarks.md.

use criterion::{Criterion, criterion_group, criterion_main};
use pnpkit::check::check;
use pnpkit::pack::yaml::Limits;

#[path = "support/mod.rs"]
mod support;

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    support::generate(dir.path(), 10_000, 10);
    let limits = Limits::default();
    let report = check(dir.path(), &[], &limits).unwrap();
    assert_eq!(report.component_count(), 10_002);
    assert_eq!(report.diagnostics.items.len(), 0, "generated pack must be clean");
    let mut group = c.benchmark_group("check");
    group.sample_size(20);
    group.bench_function("10k-cards", |b| b.iter(|| check(dir.path(), &[], &limits).unwrap()));
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
