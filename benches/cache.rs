//! The build cache (issue 16), measured as the user meets it: the whole
//! `pnpkit build` process (the release binary this bench is built with) on a
//! copy of the project (shipped data, templates, fonts; 5 games × 2 locales ×
//! 2 papers, the gallery), in three cases, each as a ratio to the clean build
//! of the same run:
//!
//! - clean: `--no-cache` into an empty output folder;
//! - nothing changed: the cache and output of the previous build;
//! - one card: an Open Wars spell's Spanish text edited with a new word before
//!   each run, so its design is never in the cache.
//!
//! Peak memory is the process's own (`--timings`: `VmHWM`). `cargo bench
//! --bench cache`; `PNPKIT_BENCH_RUNS=n` (default 5) runs per case. Results
//! are recorded in docs/benchmarks.md.

use std::path::Path;
use std::process::Command;
use std::time::Instant;

const SPELLS: &str = "data/openwars/components/spell.yaml";
const TEXT: &str = "Mueve una unidad amazona hasta 2 localizaciones";

/// One build: wall seconds, peak memory (MB), documents reused and compiled.
fn build(project: &Path, args: &[&str]) -> (f64, f64, u64, u64) {
    let t = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_pnpkit"))
        .current_dir(project)
        .args(["build", "--timings", "--format", "json"])
        .args(args)
        .output()
        .expect("pnpkit runs");
    let wall = t.elapsed().as_secs_f64();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json summary");
    let peak = v["timings"]["peak_memory_bytes"].as_f64().unwrap_or(f64::NAN) / (1024.0 * 1024.0);
    let docs = &v["documents"];
    (
        wall,
        peak,
        docs["reused"].as_u64().unwrap_or(0),
        docs["compiled"].as_u64().unwrap_or(0),
    )
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    // `cargo bench` passes `--bench`; a filter argument that is not this bench skips it.
    if std::env::args()
        .skip(1)
        .any(|a| !a.starts_with('-') && !"cache".contains(a.as_str()))
    {
        return;
    }
    let runs: usize = std::env::var("PNPKIT_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5)
        .max(1);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tmp = tempfile::tempdir().expect("tempdir");
    let project = tmp.path();
    for dir in ["data", "templates", "fonts"] {
        copy(&root.join(dir), &project.join(dir));
    }
    let original = std::fs::read_to_string(project.join(SPELLS)).expect("spells");
    assert!(original.contains(TEXT));

    let mut rows = Vec::new();
    let mut clean = Vec::new();
    let mut peaks = Vec::new();
    let mut clean_compiled = 0;
    for _ in 0..runs {
        let _ = std::fs::remove_dir_all(project.join("clean"));
        let (wall, peak, _, compiled) = build(project, &["--no-cache", "--out", "clean"]);
        assert!(compiled > 0);
        clean.push(wall);
        peaks.push(peak);
        clean_compiled = compiled;
    }
    let clean_median = median(clean.clone());
    rows.push(("clean (--no-cache, empty output)", clean, peaks, 0, clean_compiled));

    // Fill the cache and the output.
    build(project, &[]);
    let (mut walls, mut peaks) = (Vec::new(), Vec::new());
    let mut docs = (0, 0);
    for _ in 0..runs {
        let (wall, peak, reused, compiled) = build(project, &[]);
        assert_eq!(compiled, 0, "nothing changed, yet compiled");
        walls.push(wall);
        peaks.push(peak);
        docs = (reused, compiled);
    }
    rows.push(("nothing changed", walls, peaks, docs.0, docs.1));

    let (mut walls, mut peaks) = (Vec::new(), Vec::new());
    for n in 0..runs {
        // A new word each time, without a digit (a number the spell's effect
        // does not state is an error, E054).
        let word: String = format!("{n:b}")
            .chars()
            .map(|c| if c == '0' { 'a' } else { 'b' })
            .collect();
        let text = original.replacen(TEXT, &format!("{TEXT} ({word})"), 1);
        std::fs::write(project.join(SPELLS), text).expect("edit");
        let (wall, peak, reused, compiled) = build(project, &[]);
        assert!(compiled > 0 && reused > compiled);
        walls.push(wall);
        peaks.push(peak);
        docs = (reused, compiled);
    }
    rows.push(("one card's text changed", walls, peaks, docs.0, docs.1));

    println!(
        "{:<34} {:>10} {:>10} {:>16} {:>10} {:>10}",
        "pnpkit build, whole process", "median s", "range s", "ratio to clean", "peak MB", "compiled"
    );
    for (name, walls, peaks, _, compiled) in rows {
        let (lo, hi) = (
            walls.iter().copied().fold(f64::INFINITY, f64::min),
            walls.iter().copied().fold(0.0, f64::max),
        );
        let m = median(walls);
        println!(
            "{name:<34} {m:>10.3} {:>10} {:>16.3} {:>10.0} {compiled:>10}",
            format!("{lo:.2}–{hi:.2}"),
            m / clean_median,
            median(peaks),
        );
    }
}

fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read_dir").flatten() {
        if e.file_type().expect("type").is_dir() {
            copy(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).expect("copy");
        }
    }
}
