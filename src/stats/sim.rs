//! Running self-play games for `pnpkit simulate`: one seed per game from
//! the run's seed, players rotated over the seats, and the run's summary.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Serialize;

use crate::rules::Replayer;
use crate::rules::selfplay::{Played, Policy};

/// One simulated game and where its log goes.
#[derive(Clone, Debug)]
pub struct Game {
    pub index: u32,
    pub seed: u64,
    /// `game-0001.yaml`.
    pub file: String,
    pub played: Played,
}

/// SplitMix64: a game's seed from the run's seed and the game's number, so
/// that games do not depend on how many others run beside them.
pub fn game_seed(seed: u64, index: u32) -> u64 {
    let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15u64.wrapping_mul(u64::from(index) + 1));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Plays game `index` of `count`: seat `s` takes `policies[(s + index) % len]`.
/// `attempt` > 0 draws another setup for the same game (when the game's
/// construction rules refuse the engine's random armies).
#[allow(clippy::too_many_arguments)]
pub fn game(
    engine: &dyn Replayer,
    game_id: &str,
    seed: u64,
    index: u32,
    attempt: u32,
    count: u32,
    policies: &[Policy],
    max_actions: usize,
) -> Result<Game, String> {
    let n = policies.len().max(1);
    let rotated: Vec<Policy> = (0..n).map(|s| policies[(s + index as usize) % n]).collect();
    let s = game_seed(seed, index).wrapping_add(u64::from(attempt).wrapping_mul(0xd1b5_4a32_d192_ed03));
    let listed: Vec<&str> = policies.iter().map(|p| p.name()).collect();
    let comment = format!(
        "Simulated with `pnpkit simulate {game_id} --games {count} --seed {seed} --players {}`:\ngame {} of {count} (game seed {s}); seats play {}.",
        listed.join(","),
        index + 1,
        rotated.iter().map(|p| p.name()).collect::<Vec<_>>().join(", ")
    );
    let played = engine
        .self_play(s, &rotated, max_actions, &comment)
        .map_err(|e| format!("game {} (seed {s}): {e}", index + 1))?;
    Ok(Game {
        index,
        seed: s,
        file: format!("game-{:04}.yaml", index + 1),
        played,
    })
}

/// What a run of games came to.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    pub game: String,
    pub seed: u64,
    pub games: usize,
    pub finished: usize,
    pub draws: usize,
    /// Wins by player name (`Greedy`, `Random`).
    pub wins: BTreeMap<String, usize>,
    pub median_turns: usize,
    pub median_actions: usize,
    /// Where the logs were written; `None` when they were not kept.
    pub out: Option<String>,
    /// Logs `log` did not read clean (a bug: reported, exit 1).
    pub unclean: usize,
    /// Setups drawn again because the construction rules refused an army.
    pub redrawn: usize,
}

fn median(mut v: Vec<usize>) -> usize {
    v.sort_unstable();
    v.get(v.len() / 2).copied().unwrap_or(0)
}

impl Summary {
    pub fn of(game: &str, seed: u64, played: &[Game], out: Option<&Path>, unclean: usize, redrawn: usize) -> Summary {
        // Wins by player (`Random A` and `Random B` are both the random player).
        let policy = |name: &str| name.split(' ').next().unwrap_or(name).to_owned();
        let mut wins = BTreeMap::new();
        for g in played {
            for p in &g.played.players {
                wins.entry(policy(p)).or_insert(0);
            }
            for w in &g.played.winners {
                *wins.entry(policy(w)).or_insert(0) += 1;
            }
        }
        let finished = played.iter().filter(|g| g.played.finished).count();
        Summary {
            game: game.to_owned(),
            seed,
            games: played.len(),
            finished,
            draws: played
                .iter()
                .filter(|g| g.played.finished && g.played.winners.is_empty())
                .count(),
            wins,
            median_turns: median(played.iter().map(|g| g.played.turns).collect()),
            median_actions: median(played.iter().map(|g| g.played.actions).collect()),
            out: out.map(|o| o.display().to_string()),
            unclean,
            redrawn,
        }
    }

    pub fn human(&self) -> String {
        let mut s = format!(
            "simulated {} {} game{} (seed {}) {}: {} finished, {} unfinished, {} draw{}\n",
            self.games,
            self.game,
            if self.games == 1 { "" } else { "s" },
            self.seed,
            match &self.out {
                Some(out) => format!("into {out}"),
                None => "(logs not kept: `--out DIR` keeps them)".to_owned(),
            },
            self.finished,
            self.games - self.finished,
            self.draws,
            if self.draws == 1 { "" } else { "s" },
        );
        let wins: Vec<String> = self.wins.iter().map(|(p, w)| format!("{p} {w}")).collect();
        s.push_str(&format!("wins: {}\n", wins.join(", ")));
        s.push_str(&format!(
            "median length: {} turns, {} actions\n",
            self.median_turns, self.median_actions
        ));
        if self.redrawn > 0 {
            s.push_str(&format!(
                "{} setup{} drawn again: the construction rules refused a random army\n",
                self.redrawn,
                if self.redrawn == 1 { " was" } else { "s were" }
            ));
        }
        if self.unclean == 0 {
            match &self.out {
                Some(out) => s.push_str(&format!(
                    "every log replays clean; next: pnpkit stats {}\n",
                    Path::new(out).join("*.yaml").display()
                )),
                None => s.push_str("every log replays clean\n"),
            }
        } else {
            s.push_str(&format!(
                "{} log(s) do not replay clean (below): a bug in pnpkit\n",
                self.unclean
            ));
        }
        s
    }
}
