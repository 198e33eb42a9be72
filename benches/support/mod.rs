//! Shared by the benchmarks: a generated pack of `n` cards in the shape of
//! the minimal example pack.

use std::fmt::Write;
use std::path::Path;

/// Writes pack `bench` into `dir` with `n` cards spread over `files` files.
pub fn generate(dir: &Path, n: usize, files: usize) {
    let pack = dir.join("bench");
    std::fs::create_dir_all(pack.join("components/card")).unwrap();
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/minimal/demo");
    // The demo's rulebook is not copied, so neither are its rule ids.
    let game: String = std::fs::read_to_string(demo.join("game.yaml"))
        .unwrap()
        .replace("id: demo", "id: bench")
        .replace("count: 4", &format!("count: {n}"))
        .lines()
        .filter(|l| !l.starts_with("rule_ids"))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(pack.join("game.yaml"), game).unwrap();
    std::fs::copy(demo.join("components/house.yaml"), pack.join("components/house.yaml")).unwrap();
    for f in 0..files {
        let mut s = String::new();
        for i in (f * n / files)..((f + 1) * n / files) {
            let house = if i % 2 == 0 { "sun" } else { "moon" };
            let kind = if i % 3 == 0 { "defense" } else { "attack" };
            writeln!(
                s,
                "- id: card-{i}\n  name: {{es: \"Carta {i}\", en: \"Card {i}\"}}\n  house: {house}\n  power: {}\n  \
                 kind: {kind}\n  text: {{es: \"Si ganas, roba {{{{ power }}}} cartas.\", en: \"If you win, draw {{{{ power }}}} cards.\"}}",
                i % 10
            )
            .unwrap();
        }
        std::fs::write(pack.join(format!("components/card/part-{f}.yaml")), s).unwrap();
    }
}
