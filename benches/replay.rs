//! Replay throughput of every rules engine: actions per second over long
//! generated games (validate + apply, no parsing), and the whole pipeline
//! (read the YAML log, replay) for one long game. Target: ≥ 1,000,000
//! actions/s per engine. Run with `cargo bench --bench replay`; results are
//! recorded in docs/benchmarks.md.

use std::path::Path;
use std::time::Instant;

use pnpkit::check::check;
use pnpkit::pack::yaml::Limits;
use pnpkit::rules::{Options, engine_for, random};

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
    for game in &report.games {
        let Some(engine) = engine_for(game) else { continue };
        let engine = engine.expect("engine");
        let mut rates = Vec::new();
        let mut n = 0;
        for _ in 0..RUNS {
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
        for _ in 0..RUNS {
            let start = Instant::now();
            let mut actions = 0;
            for text in &texts {
                let log = random::parse_log(text).expect("generated log reads");
                let replay = engine.replay(&log, &Options::default()).expect("understood");
                assert!(replay.failure.is_none());
                actions += replay.actions;
            }
            log_rates.push(actions as f64 / start.elapsed().as_secs_f64());
        }
        log_rates.sort_by(f64::total_cmp);
        println!(
            "{:<10} {:>12} {:>16.0} {:>22.0}",
            game.id,
            n,
            rates[RUNS / 2],
            log_rates[RUNS / 2]
        );
        println!(
            "{:<10} read + replay: {held} actions in {} logs, {:.1} MB of YAML",
            "",
            texts.len(),
            bytes as f64 / 1e6
        );
    }
}
