//! `stats` as a table for the terminal.

use super::{Distribution, Rate, Stats};

/// `54.6 %`.
pub fn pct(p: f64) -> String {
    format!("{:.1} %", p * 100.0)
}

fn rate_line(r: &Rate, width: usize) -> String {
    format!(
        "  {:<width$}  {:>5} / {:<5}  {:>7}  [{} – {}]\n",
        r.value,
        r.wins,
        r.games,
        pct(r.rate),
        pct(r.low),
        pct(r.high),
    )
}

fn dist_line(name: &str, d: &Distribution) -> String {
    format!(
        "  {name:<8} min {}  q1 {}  median {}  q3 {}  max {}  mean {:.1}\n",
        d.min, d.q1, d.median, d.q3, d.max, d.mean
    )
}

/// The whole report.
pub fn human(s: &Stats) -> String {
    let mut out = format!(
        "stats: {}, {} log{} ({} finished, {} unfinished, {} draw{})\n",
        s.game,
        s.logs,
        if s.logs == 1 { "" } else { "s" },
        s.finished,
        s.unfinished,
        s.draws,
        if s.draws == 1 { "" } else { "s" },
    );
    let f = &s.first_player;
    out.push_str(&format!(
        "first player wins {} of {} finished games: {} (95% interval {} – {})\n",
        f.wins,
        f.games,
        pct(f.rate),
        pct(f.low),
        pct(f.high)
    ));
    for d in &s.dimensions {
        out.push_str(&format!(
            "\nwin rate by {} (wins / games, rate, 95% Wilson interval)\n",
            d.name
        ));
        let width = d.rates.iter().map(|r| r.value.chars().count()).max().unwrap_or(0);
        for r in &d.rates {
            out.push_str(&rate_line(r, width));
        }
    }
    out.push_str("\ngame length (finished games)\n");
    out.push_str(&dist_line("turns", &s.turns));
    out.push_str(&dist_line("actions", &s.actions));
    if !s.cards.is_empty() {
        out.push_str("\ncards: drawn, played, in decks (player-games), and the deck's win rate with it\n");
        let width = s
            .cards
            .iter()
            .map(|c| c.name.chars().count())
            .max()
            .unwrap_or(0)
            .min(40);
        for c in &s.cards {
            out.push_str(&format!(
                "  {:<width$}  drawn {:>5}  played {:>5}  decks {:>4}  won {:>4}  {:>7}  [{} – {}]\n",
                c.name,
                c.drawn,
                c.played,
                c.in_decks,
                c.in_winning_decks,
                pct(c.win_rate.rate),
                pct(c.win_rate.low),
                pct(c.win_rate.high),
            ));
        }
    }
    out
}
