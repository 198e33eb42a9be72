//! Benchmarks: the full default build (5 games × 2 locales × 2 papers) and a
//! generated 1,000-card pack, each as the whole pipeline (check, plan,
//! compile, PDF) and as typst alone (compile + PDF of the same documents).
//! Results are recorded in docs/benchmarks.md.

use std::path::{Path, PathBuf};

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use pnpkit::check::check;
use pnpkit::model::Game;
use pnpkit::pack::yaml::Limits;
use pnpkit::progress::Quiet;
use pnpkit::render::pipeline::{build_all, template_for};
use pnpkit::render::world::Shared;
#[path = "support/mod.rs"]
mod support;

use pnpkit::render::{DocPlan, KitOptions, chunk_path, compile, pdf, plan_game, plan_pieces};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn games(data: &Path) -> Vec<Game> {
    let report = check(data, &[], &Limits::default()).unwrap();
    assert!(!report.has_errors());
    report.games
}

/// typst alone: compile and write the PDFs of the same documents the build makes.
fn typst_only(shared: &Shared, games: &[Game], opts: &KitOptions) {
    use rayon::prelude::*;
    type Files = Vec<(String, typst::foundations::Bytes)>;
    let pieces: Vec<_> = games
        .iter()
        .flat_map(|g| {
            g.locales
                .iter()
                .map(move |l| (g, plan_pieces(g, l, opts, &template_for(shared, g))))
        })
        .collect();
    let files: Vec<Files> = pieces
        .iter()
        .map(|(_, p)| {
            p.chunks
                .par_iter()
                .enumerate()
                .map(|(i, c)| {
                    let mut s = pnpkit::diag::SourceMap::default();
                    let doc = compile(shared, c, &[], &mut s, None).ok().unwrap();
                    (
                        chunk_path(i),
                        typst::foundations::Bytes::new(pdf(shared, c, &doc.document).unwrap()),
                    )
                })
                .collect()
        })
        .collect();
    let docs: Vec<(DocPlan, &Files)> = pieces
        .iter()
        .zip(&files)
        .flat_map(|((g, p), f)| {
            let mut d = vec![(p.merged.clone(), f)];
            for paper in &opts.papers {
                d.extend(plan_game(g, &p.locale, *paper, opts, p).into_iter().map(|x| (x, f)));
            }
            d
        })
        .collect();
    docs.par_iter().for_each(|(d, f)| {
        let mut s = pnpkit::diag::SourceMap::default();
        let doc = compile(shared, d, f, &mut s, None).ok().unwrap();
        pdf(shared, d, &doc.document).unwrap();
    });
}

fn bench(c: &mut Criterion) {
    let shared = Shared::new(&root(), 1_767_225_600).unwrap();
    let opts = KitOptions::default();
    let data = root().join("data");
    let mut group = c.benchmark_group("build");
    group.sample_size(10);
    let dir = tempfile::tempdir().unwrap();
    support::generate(dir.path(), 1000, 1);
    let pipeline = |data: &Path| {
        let games = games(data);
        let (built, problems) = build_all(&shared, &games, &opts, &Quiet);
        assert!(problems.is_empty());
        built.len()
    };
    // Cold: typst's memo cache is emptied before every run, as in a fresh process.
    // Warm: the cache is kept, as in a long-running process rebuilding the same input.
    for (name, data) in [("full-default-build", data.as_path()), ("1000-cards", dir.path())] {
        let loaded = games(data);
        group.bench_function(format!("{name}/pipeline-cold"), |b| {
            b.iter_batched(|| comemo::evict(0), |_| pipeline(data), BatchSize::PerIteration)
        });
        group.bench_function(format!("{name}/typst-only-cold"), |b| {
            b.iter_batched(
                || comemo::evict(0),
                |_| typst_only(&shared, &loaded, &opts),
                BatchSize::PerIteration,
            )
        });
        group.bench_function(format!("{name}/pipeline-warm"), |b| b.iter(|| pipeline(data)));
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
