//! The build cache (issue 16): the full default build of the shipped data
//! (5 games × 2 locales × 2 papers, every design chunk and document, the
//! gallery's pictures) clean, with nothing changed, and after one card's
//! text changed, each as a ratio to the clean build of the same run.
//! `cargo bench --bench cache`; results in docs/benchmarks.md.
//!
//! Each iteration checks the packs, plans and builds (`build_with`), as
//! `pnpkit build` does before it writes the files. Clean: no cache and typst's
//! memo emptied, as in a fresh process. Unchanged: the cache filled by the
//! previous run. One card: a spell's text edited with a new word each time,
//! so its design is never in the cache.

/// The allocator `pnpkit` itself runs with (src/main.rs).
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use pnpkit::check::check;
use pnpkit::pack::yaml::Limits;
use pnpkit::progress::Quiet;
use pnpkit::render::KitOptions;
use pnpkit::render::cache::Store;
use pnpkit::render::pipeline::{Run, build_with};
use pnpkit::render::world::Shared;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn build(shared: &Shared, data: &Path, store: Option<&Store>) -> (usize, usize) {
    let report = check(data, &[], &Limits::default()).unwrap();
    assert!(!report.has_errors());
    let opts = KitOptions {
        preflight: Some(pnpkit::render::preflight::Limits::build()),
        ..KitOptions::default()
    };
    let run = Run {
        store,
        gallery: true,
        ..Run::default()
    };
    let out = build_with(shared, &report.games, &opts, &Quiet, &run);
    assert!(out.problems.is_empty());
    (out.stats.reused(), out.stats.compiled())
}

const SPELLS: &str = "openwars/components/spell.yaml";
const TEXT: &str = "Mueve una unidad amazona hasta 2 localizaciones";

fn bench(c: &mut Criterion) {
    let shared = Shared::new(&root(), 1_767_225_600).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    copy(&root().join("data"), &data);
    let store = Store::new(&tmp.path().join("cache"), pnpkit::render::cache::DEFAULT_LIMIT);
    let original = std::fs::read_to_string(data.join(SPELLS)).unwrap();
    assert!(original.contains(TEXT));
    let mut group = c.benchmark_group("cache");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(30));
    let mut times = [Vec::new(), Vec::new(), Vec::new()];
    group.bench_function("full-default-build/clean", |b| {
        b.iter_batched(
            || comemo::evict(0),
            |_| {
                let t = Instant::now();
                build(&shared, &data, None);
                times[0].push(t.elapsed().as_secs_f64());
            },
            BatchSize::PerIteration,
        )
    });
    build(&shared, &data, Some(&store));
    group.bench_function("full-default-build/unchanged", |b| {
        b.iter_batched(
            || comemo::evict(0),
            |_| {
                let t = Instant::now();
                let (_, compiled) = build(&shared, &data, Some(&store));
                times[1].push(t.elapsed().as_secs_f64());
                assert_eq!(compiled, 0);
            },
            BatchSize::PerIteration,
        )
    });
    let mut n = 0;
    group.bench_function("full-default-build/one-card-text", |b| {
        b.iter_batched(
            || {
                n += 1;
                let text = original.replacen(TEXT, &format!("{TEXT} (edit {n})"), 1);
                std::fs::write(data.join(SPELLS), text).unwrap();
                comemo::evict(0);
            },
            |_| {
                let t = Instant::now();
                let (reused, compiled) = build(&shared, &data, Some(&store));
                times[2].push(t.elapsed().as_secs_f64());
                assert!(compiled > 0 && reused > compiled);
            },
            BatchSize::PerIteration,
        )
    });
    group.finish();
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let clean = median(&mut times[0]);
    let unchanged = median(&mut times[1]);
    let one = median(&mut times[2]);
    println!(
        "medians: clean {clean:.3} s; unchanged {unchanged:.3} s ({:.3} of clean); one card {one:.3} s ({:.3} of clean)",
        unchanged / clean,
        one / clean
    );
}

fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        if e.file_type().unwrap().is_dir() {
            copy(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
