//! Bounded work, measured by counting (allocation calls and bytes on the
//! working thread), never by the clock: paths that were quadratic must stay
//! linear in lines, diagnostics and text length. Timings live in the
//! benchmarks (`benches/`, docs/benchmarks.md).

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
        let (out, work) = crate::common::alloc::measure(|| render_human(&diags, &sources, false));
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
fn printing_diagnostics_with_far_related_labels_is_linear() {
    // Deck problems point at a card line and at the header line that named
    // the hero ("named here"): one snippet from the header down to the card
    // handed every line between them to the renderer, so a long list with a
    // problem per line cost the square of its length.
    let cost = |n: usize| {
        let (mut diags, sources) = many_diagnostics(n);
        let header = sources.line_span(pnpkit::diag::FileId(0), 1);
        for d in &mut diags {
            *d = d.clone().related(header, "named here");
        }
        let (out, work) = crate::common::alloc::measure(|| render_human(&diags, &sources, false));
        assert!(out.contains(&format!("problem {}", n - 1)) && out.contains("named here"));
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
    let (s, work) = crate::common::alloc::measure(|| did_you_mean(&huge, candidates));
    assert_eq!(s, None);
    assert!(work.bytes < 1024 * 1024, "a huge word: {work:?}");
    // A huge candidate (a 10-million-character name in the data) costs
    // memory too: 240 MB for this one comparison.
    let (s, work) = crate::common::alloc::measure(|| did_you_mean("atack", ["attack", huge.as_str()]));
    assert_eq!(s, Some("attack"));
    assert!(work.bytes < 1024 * 1024, "a huge candidate: {work:?}");
}

#[test]
fn reliability_page_states_the_bounds_of_the_code() {
    use pnpkit::fsx::read::{bytes, max};
    use pnpkit::pack::assets;
    use pnpkit::pack::yaml::{Limits, thousands};
    use pnpkit::text::guard;
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/reliability.md")).unwrap();
    let y = Limits::default();
    let rows = [
        ("pack file (YAML)", bytes(max::PACK_FILE), "fsx::read::max::PACK_FILE"),
        ("deck or army list", bytes(max::DECK), "fsx::read::max::DECK"),
        ("game log", bytes(max::LOG), "fsx::read::max::LOG"),
        (
            "sheet file (CSV, XLSX, ODS)",
            bytes(max::SHEET),
            "fsx::read::max::SHEET",
        ),
        (
            "workbook unzipped (all parts, counted while inflating)",
            bytes(max::SHEET_UNZIPPED),
            "fsx::read::max::SHEET_UNZIPPED",
        ),
        ("PO file, translation lock file", bytes(max::PO), "fsx::read::max::PO"),
        (
            "file read by a layout (template, image), gallery template",
            bytes(max::TEMPLATE_FILE),
            "fsx::read::max::TEMPLATE_FILE",
        ),
        ("font file", bytes(max::FONT), "fsx::read::max::FONT"),
        (
            "artwork file of a pack (`art/…`)",
            bytes(assets::MAX_ART),
            "pack::assets::MAX_ART",
        ),
        (
            "artwork pixels (from the image's header, before decoding)",
            thousands(assets::MAX_ART_PIXELS as usize),
            "pack::assets::MAX_ART_PIXELS",
        ),
        (
            "icon file of a pack (`icons/<name>.svg`)",
            bytes(assets::MAX_ICON),
            "pack::assets::MAX_ICON",
        ),
        (
            "YAML nodes in one file",
            thousands(y.max_nodes),
            "pack::yaml::Limits::max_nodes",
        ),
        (
            "YAML nesting depth",
            thousands(y.max_depth),
            "pack::yaml::Limits::max_depth",
        ),
        (
            "values replayed by YAML aliases in one file",
            thousands(y.max_alias_events),
            "pack::yaml::Limits::max_alias_events",
        ),
        (
            "YAML file size (the pack file limit)",
            bytes(y.max_file_bytes),
            "pack::yaml::Limits::max_file_bytes",
        ),
        (
            "sheet rows (header included)",
            thousands(pnpkit::sheet::MAX_ROWS),
            "sheet::MAX_ROWS",
        ),
        (
            "sheet columns",
            thousands(pnpkit::sheet::MAX_COLUMNS),
            "sheet::MAX_COLUMNS",
        ),
        (
            "sheet cells (each row counted to its last filled cell)",
            thousands(pnpkit::sheet::MAX_CELLS),
            "sheet::MAX_CELLS",
        ),
        (
            "text in one sheet cell",
            bytes(pnpkit::sheet::MAX_CELL_BYTES as u64),
            "sheet::MAX_CELL_BYTES",
        ),
        (
            "text template source",
            format!("{} bytes", thousands(guard::MAX_TEMPLATE_BYTES)),
            "text::guard::MAX_TEMPLATE_BYTES",
        ),
        (
            "text template loop steps (all loops of one render) and `range` length",
            thousands(guard::MAX_LOOP_STEPS as usize),
            "text::guard::MAX_LOOP_STEPS",
        ),
        (
            "text template output, and what `join`, `replace`, `indent` may build",
            bytes(guard::MAX_OUTPUT_BYTES as u64),
            "text::guard::MAX_OUTPUT_BYTES",
        ),
        (
            "`~` concatenations in one text template",
            thousands(guard::MAX_CONCATENATIONS),
            "text::guard::MAX_CONCATENATIONS",
        ),
        (
            "text template render time (a backstop; the counts trip first)",
            format!("{} s", guard::MAX_RENDER_TIME.as_secs()),
            "text::guard::MAX_RENDER_TIME",
        ),
        (
            "memory a run may hold (`--memory-limit`, MiB; a layout over it is E019, anything else E098)",
            bytes(pnpkit::budget::DEFAULT_MEMORY_MIB << 20),
            "budget::DEFAULT_MEMORY_MIB",
        ),
        (
            "time one layout (one typst document) may run (`--layout-time-limit`), then E019 at the line it runs",
            format!("{} s", pnpkit::budget::DEFAULT_LAYOUT_SECONDS),
            "budget::DEFAULT_LAYOUT_SECONDS",
        ),
        (
            "word length compared for \"did you mean\"",
            format!("{} characters", pnpkit::diag::MAX_SUGGEST_CHARS),
            "diag::MAX_SUGGEST_CHARS",
        ),
    ];
    for (what, value, constant) in rows {
        let row = format!("| {what} | {value} | `{constant}` |");
        assert!(doc.contains(&row), "docs/reliability.md lacks or misstates:\n{row}");
    }
}
