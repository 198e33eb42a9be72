//! Replay throughput of every rules engine: actions per second over long
//! generated games (validate + apply, no parsing), and the whole pipeline
//! (read the YAML log, replay) for one long game. Target: ≥ 1,000,000
//! actions/s per engine. Run with `cargo bench --bench replay`; results are
//! recorded in docs/benchmarks.md. `PNPKIT_BENCH_GAMES=mythic,xterminio`
//! measures only those engines.

use std::path::Path;
use std::time::Instant;

use pnpkit::check::check;
use pnpkit::pack::yaml::Limits;
use pnpkit::rules::{Options, engine_for, random};

const ACTIONS: usize = 1_000_000;
const RUNS: usize = 3;

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
        for _ in 0..RUNS {
            let (actions, secs) = engine.throughput(7, ACTIONS);
            n = actions;
            rates.push(actions as f64 / secs);
        }
        rates.sort_by(f64::total_cmp);
        // One long game through the text pipeline.
        let text = engine.random_log(11, 20_000);
        let start = Instant::now();
        let log = random::parse_log(&text).expect("generated log reads");
        let replay = engine.replay(&log, &Options::default()).expect("understood");
        let secs = start.elapsed().as_secs_f64();
        assert!(replay.failure.is_none());
        println!(
            "{:<10} {:>12} {:>16.0} {:>22.0}",
            game.id,
            n,
            rates[RUNS / 2],
            replay.actions as f64 / secs
        );
    }
}
