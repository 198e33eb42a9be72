//! Replay throughput of every rules engine: actions per second over long
//! generated games (validate + apply, no parsing), and the whole pipeline
//! (read the YAML log, replay) for one long game. Target: ≥ 1,000,000
//! actions/s per engine. Run with `cargo bench --bench replay`; results are
//! recorded in docs/benchmarks.md. `PNPKIT_BENCH_GAMES=mythic,xterminio`
//! measures only those engines.

/// The allocator `pnpkit` itself runs with (src/main.rs).
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::path::Path;
use std::time::Instant;

use pnpkit::check::check;
use pnpkit::diag::FileId;
use pnpkit::pack::yaml::Limits;
use pnpkit::rules::{Options, engine_for, log, random};

const ACTIONS: usize = 1_000_000;
const RUNS: usize = 3;
/// Actions read and replayed per game (issue 16: ≥ 500,000 actions/s).
const LOG_ACTIONS: usize = 20_000;

fn main() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let report = check(&data, &[], &Limits::default()).expect("data");
    println!(
        "{:<10} {:>12} {:>16} {:>22}",
        "game", "actions", "actions/s", "parse+replay actions/s"
    );
    let only: Option<Vec<String>> = std::env::var("PNPKIT_BENCH_GAMES")
        .ok()
        .map(|v| v.split(',').map(|s| s.trim().to_string()).collect());
    for game in &report.games {
        if only.as_ref().is_some_and(|o| !o.contains(&game.id)) {
            continue;
        }
        let Some(engine) = engine_for(game) else { continue };
        let engine = engine.expect("engine");
        let mut rates = Vec::new();
        let mut n = 0;
        // `REPLAY_LOGS_ONLY=1`: only the read + replay part (for profiling it).
        let runs = if std::env::var_os("REPLAY_LOGS_ONLY").is_some() {
            0
        } else {
            RUNS
        };
        for _ in 0..runs {
            let (actions, secs) = engine.throughput(7, ACTIONS);
            n = actions;
            rates.push(actions as f64 / secs);
        }
        rates.sort_by(f64::total_cmp);
        // Read and replay, as `pnpkit log` does: generated games (each as long
        // as the engine lets it go) until they hold 20,000 actions.
        let mut texts = Vec::new();
        let mut held = 0;
        let mut seed = 11;
        while held < LOG_ACTIONS {
            let text = engine.random_log(seed, LOG_ACTIONS - held);
            let log = random::parse_log(&text).expect("generated log reads");
            held += engine.replay(&log, &Options::default()).expect("understood").actions;
            texts.push(text);
            seed += 1;
        }
        let bytes: usize = texts.iter().map(String::len).sum();
        let mut log_rates = Vec::new();
        let mut cpu_rates = Vec::new();
        // Seconds in parsing the text, reading the log's structure, and replaying (decode + engine).
        let mut split = [0.0; 3];
        // `PNPKIT_BENCH_LOG_RUNS=50`: more runs of the read + replay part (for profiling it).
        let log_runs = std::env::var("PNPKIT_BENCH_LOG_RUNS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(RUNS)
            .max(1);
        for _ in 0..log_runs {
            let start = Instant::now();
            let cpu = cpu_seconds();
            let mut actions = 0;
            for text in &texts {
                let t = Instant::now();
                let node = log::parse(text, FileId(0), &Limits::default()).expect("generated log parses");
                let t1 = t.elapsed().as_secs_f64();
                let log = log::read_owned(node).expect("generated log reads");
                let t2 = t.elapsed().as_secs_f64();
                let replay = engine.replay(&log, &Options::default()).expect("understood");
                split[0] += t1;
                split[1] += t2 - t1;
                split[2] += t.elapsed().as_secs_f64() - t2;
                assert!(replay.failure.is_none());
                actions += replay.actions;
            }
            log_rates.push(actions as f64 / start.elapsed().as_secs_f64());
            if let (Some(a), Some(b)) = (cpu, cpu_seconds()) {
                cpu_rates.push(actions as f64 / (b - a));
            }
        }
        log_rates.sort_by(f64::total_cmp);
        cpu_rates.sort_by(f64::total_cmp);
        let ms = |s: f64| s * 1000.0 / log_runs as f64;
        println!(
            "{:<10} {:>12} {:>16.0} {:>22.0}",
            game.id,
            n,
            rates.get(rates.len() / 2).copied().unwrap_or(f64::NAN),
            log_rates[log_runs / 2]
        );
        println!(
            "{:<10} read + replay: {held} actions in {} logs, {:.1} MB of YAML; parse {:.1} ms, read {:.1} ms, replay {:.1} ms (wall); {:.0} actions per CPU second",
            "",
            texts.len(),
            bytes as f64 / 1e6,
            ms(split[0]),
            ms(split[1]),
            ms(split[2]),
            cpu_rates.get(cpu_rates.len() / 2).copied().unwrap_or(f64::NAN)
        );
    }
}

/// CPU time of this thread so far (Linux: /proc/thread-self/schedstat), so
/// that a machine shared with other work does not count against the code.
fn cpu_seconds() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    Some(s.split_whitespace().next()?.parse::<f64>().ok()? / 1e9)
}
