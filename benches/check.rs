//! Benchmark: checking a generated pack of 10,000 cards.
//! Results are recorded in docs/benchmarks.md.

use std::fmt::Write;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use pnpkit::check::check;
use pnpkit::pack::yaml::Limits;

/// Writes a pack like the minimal example with `n` cards spread over 10 files.
fn generate(dir: &Path, n: usize) {
    let pack = dir.join("bench");
    std::fs::create_dir_all(pack.join("components/card")).unwrap();
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/minimal/demo");
    let game = std::fs::read_to_string(demo.join("game.yaml"))
        .unwrap()
        .replace("id: demo", "id: bench")
        .replace("count: 4", &format!("count: {n}"));
    std::fs::write(pack.join("game.yaml"), game).unwrap();
    std::fs::copy(demo.join("components/house.yaml"), pack.join("components/house.yaml")).unwrap();
    for f in 0..10 {
        let mut s = String::new();
        for i in (f * n / 10)..((f + 1) * n / 10) {
            let house = if i % 2 == 0 { "sun" } else { "moon" };
            let kind = if i % 3 == 0 { "defense" } else { "attack" };
            writeln!(
                s,
                "- id: card-{i}\n  name: {{es: \"Carta {i}\", en: \"Card {i}\"}}\n  house: {house}\n  power: {}\n  \
                 kind: {kind}\n  text: {{es: \"Roba {} cartas si ganas.\", en: \"Draw {} cards if you win.\"}}",
                i % 10,
                i % 4,
                i % 4
            )
            .unwrap();
        }
        std::fs::write(pack.join(format!("components/card/part-{f}.yaml")), s).unwrap();
    }
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    generate(dir.path(), 10_000);
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
