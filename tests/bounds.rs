//! Bounded work, measured by counting (allocation calls and bytes on the
//! working thread), never by the clock: paths that were quadratic must stay
//! linear in lines, diagnostics and text length. Timings live in the
//! benchmarks (`benches/`, docs/benchmarks.md).

#[path = "common/alloc.rs"]
mod alloc;

#[global_allocator]
static A: alloc::Counting = alloc::Counting;

use std::path::PathBuf;
use std::sync::Arc;

use pnpkit::diag::{Code, Diagnostic, SourceMap, did_you_mean, render_human};

/// One file of `lines` lines and one diagnostic on each line.
fn many_diagnostics(lines: usize) -> (Vec<Diagnostic>, SourceMap) {
    let mut text = String::new();
    for i in 0..lines {
        text.push_str(&format!("- id: card-{i}\n"));
    }
    let mut sources = SourceMap::default();
    let file = sources.add(PathBuf::from("cards.yaml"), Arc::from(text));
    let diags = (0..lines)
        .map(|i| {
            let span = sources.line_span(file, i as u32 + 1);
            Diagnostic::new(Code::UnknownField, format!("problem {i}"))
                .at(span)
                .label("here")
                .expected("something else")
        })
        .collect();
    (diags, sources)
}

#[test]
fn printing_diagnostics_is_linear_in_their_number() {
    // The same diagnostics over a file 10 times as long must cost about 10
    // times as much, not 100 times: each one used to hand the whole file to
    // the snippet renderer (20,000 diagnostics took 38 s).
    let cost = |n| {
        let (diags, sources) = many_diagnostics(n);
        let (out, work) = alloc::measure(|| render_human(&diags, &sources, false));
        assert!(out.contains(&format!("problem {}", n - 1)));
        work
    };
    let small = cost(2_000);
    let large = cost(20_000);
    assert!(
        large.bytes < small.bytes * 15 && large.calls < small.calls * 15,
        "10× the diagnostics cost {}× the bytes and {}× the allocations",
        large.bytes / small.bytes.max(1),
        large.calls / small.calls.max(1)
    );
}

#[test]
fn did_you_mean_on_huge_words_does_no_work() {
    // "did you mean" costs the product of the lengths in time and the
    // candidate's length in memory: a 10-million-character line took 44 s.
    let huge = "x".repeat(10_000_000);
    let candidates = ["attack", "defense", "power", "cost"];
    let (s, work) = alloc::measure(|| did_you_mean(&huge, candidates));
    assert_eq!(s, None);
    assert!(work.bytes < 1024 * 1024, "a huge word: {work:?}");
    // A huge candidate (a 10-million-character name in the data) costs
    // memory too: 240 MB for this one comparison.
    let (s, work) = alloc::measure(|| did_you_mean("atack", ["attack", huge.as_str()]));
    assert_eq!(s, Some("attack"));
    assert!(work.bytes < 1024 * 1024, "a huge candidate: {work:?}");
}
