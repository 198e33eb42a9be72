//! Benchmarks of paths that were quadratic or unbounded (issue 15): printing
//! 20,000 diagnostics in human format, "did you mean" on a 10-million-
//! character word, a runaway text template stopped by its bounds.
//! Results are recorded in docs/benchmarks.md and docs/reliability.md.

use std::path::PathBuf;
use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use pnpkit::diag::{Code, Diagnostic, SourceMap, did_you_mean, render_human};

fn diagnostics(lines: usize) -> (Vec<Diagnostic>, SourceMap) {
    let mut text = String::new();
    for i in 0..lines {
        text.push_str(&format!("- id: card-{i}\n  power: 12\n"));
    }
    let mut sources = SourceMap::default();
    let file = sources.add(PathBuf::from("components/card.yaml"), Arc::from(text));
    let diags = (0..lines)
        .map(|i| {
            Diagnostic::new(
                Code::OutOfRange,
                format!("field `power` of card `card-{i}` is out of range"),
            )
            .at(sources.line_span(file, 2 * i as u32 + 2))
            .label("12 is above the maximum 9")
            .found("12")
            .expected("an integer from 0 to 9")
        })
        .collect();
    (diags, sources)
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("hostile");
    group.sample_size(10);
    let (diags, sources) = diagnostics(20_000);
    group.bench_function("20k-diagnostics-human", |b| {
        b.iter(|| render_human(&diags, &sources, false))
    });
    let huge = "x".repeat(10_000_000);
    group.bench_function("did-you-mean-10M-chars", |b| {
        b.iter(|| did_you_mean(&huge, ["attack", "defense", "power", "cost"]))
    });
    let tera = pnpkit::text::engine();
    let ctx = tera::Context::new();
    let nested = "{% for i in range(end=10000) %}{% for j in range(end=10000) %}{% endfor %}{% endfor %}";
    group.bench_function("runaway-template-stopped", |b| {
        b.iter(|| pnpkit::text::render(&tera, nested, &ctx).unwrap_err())
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
