//! `stats --html`: one self-contained page (inline CSS, SVG charts, a few
//! lines of script to sort the card table; no network): a bar per win rate
//! with its 95% interval as a whisker, histograms of game length, and the
//! cards.

use super::{Distribution, Rate, Stats};
use crate::markup::html_escape as esc;

fn pct(p: f64) -> String {
    format!("{:.1}%", p * 100.0)
}

const WIDTH: f64 = 640.0;
const LABEL: f64 = 180.0;
const ROW: f64 = 26.0;

/// Horizontal bars: the rate, the interval's whisker, and a line at 50%.
fn bars(title: &str, id: &str, rates: &[Rate]) -> String {
    let plot = WIDTH - LABEL - 90.0;
    let h = ROW * rates.len() as f64 + 30.0;
    let x = |p: f64| LABEL + p * plot;
    let mut s = format!(
        "<figure><figcaption>{}</figcaption><svg class=\"chart\" id=\"{}\" viewBox=\"0 0 {WIDTH} {h}\" width=\"{WIDTH}\" height=\"{h}\" role=\"img\" aria-label=\"{}\">",
        esc(title),
        esc(id),
        esc(title)
    );
    for (i, r) in rates.iter().enumerate() {
        let y = 8.0 + i as f64 * ROW;
        s.push_str(&format!(
            "<text x=\"{:.1}\" y=\"{:.1}\" class=\"label\" text-anchor=\"end\">{}</text>",
            LABEL - 8.0,
            y + 14.0,
            esc(&r.value)
        ));
        s.push_str(&format!(
            "<rect class=\"bar\" data-value=\"{}\" data-rate=\"{:.6}\" data-low=\"{:.6}\" data-high=\"{:.6}\" data-games=\"{}\" x=\"{LABEL}\" y=\"{:.1}\" width=\"{:.2}\" height=\"16\"><title>{}: {} of {} ({}; 95% interval {} – {})</title></rect>",
            esc(&r.value),
            r.rate,
            r.low,
            r.high,
            r.games,
            y + 2.0,
            r.rate * plot,
            esc(&r.value),
            r.wins,
            r.games,
            pct(r.rate),
            pct(r.low),
            pct(r.high)
        ));
        let yw = y + 10.0;
        s.push_str(&format!(
            "<path class=\"whisker\" d=\"M{:.2} {yw:.1}H{:.2}M{:.2} {:.1}V{:.1}M{:.2} {:.1}V{:.1}\"/>",
            x(r.low),
            x(r.high),
            x(r.low),
            yw - 5.0,
            yw + 5.0,
            x(r.high),
            yw - 5.0,
            yw + 5.0
        ));
        s.push_str(&format!(
            "<text x=\"{:.1}\" y=\"{:.1}\" class=\"value\">{} <tspan class=\"n\">n={}</tspan></text>",
            x(1.0) + 6.0,
            y + 14.0,
            pct(r.rate),
            r.games
        ));
    }
    let bottom = 8.0 + rates.len() as f64 * ROW;
    s.push_str(&format!(
        "<path class=\"half\" d=\"M{:.2} 4V{bottom:.1}\"/><path class=\"axis\" d=\"M{LABEL} {bottom:.1}H{:.2}\"/>",
        x(0.5),
        x(1.0)
    ));
    for t in [0.0, 0.25, 0.5, 0.75, 1.0] {
        s.push_str(&format!(
            "<text x=\"{:.1}\" y=\"{:.1}\" class=\"tick\" text-anchor=\"middle\">{}</text>",
            x(t),
            bottom + 16.0,
            pct(t)
        ));
    }
    s.push_str("</svg></figure>");
    s
}

/// A histogram of a distribution.
fn histogram(title: &str, id: &str, d: &Distribution) -> String {
    let (w, h) = (WIDTH, 200.0);
    let (left, bottom, top) = (40.0, h - 30.0, 10.0);
    let most = d.bins.iter().map(|b| b.2).max().unwrap_or(1).max(1) as f64;
    let bw = (w - left - 10.0) / d.bins.len().max(1) as f64;
    let mut s = format!(
        "<figure><figcaption>{}</figcaption><svg class=\"chart\" id=\"{}\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" role=\"img\" aria-label=\"{}\">",
        esc(title),
        esc(id),
        esc(title)
    );
    for (i, (from, to, n)) in d.bins.iter().enumerate() {
        let bh = (bottom - top) * *n as f64 / most;
        let x = left + i as f64 * bw;
        s.push_str(&format!(
            "<rect class=\"bin\" data-from=\"{from}\" data-to=\"{to}\" data-games=\"{n}\" x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\"><title>{from}–{to}: {n} games</title></rect>",
            x + 1.0,
            bottom - bh,
            (bw - 2.0).max(1.0),
            bh
        ));
        s.push_str(&format!(
            "<text x=\"{:.1}\" y=\"{:.1}\" class=\"tick\" text-anchor=\"middle\">{from}</text>",
            x + bw / 2.0,
            bottom + 14.0
        ));
    }
    s.push_str(&format!(
        "<path class=\"axis\" d=\"M{left} {bottom}H{:.1}\"/><text x=\"4\" y=\"{:.1}\" class=\"tick\">{}</text>",
        w - 10.0,
        top + 8.0,
        most as usize
    ));
    s.push_str(&format!(
        "</svg><p class=\"quantiles\">min {} · q1 {} · median {} · q3 {} · max {} · mean {:.1}</p></figure>",
        d.min, d.q1, d.median, d.q3, d.max, d.mean
    ));
    s
}

const STYLE: &str = "body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:760px;color:#222}\
h1{font-size:1.6em;margin-bottom:.2em}h2{margin-top:1.6em;border-bottom:1px solid #ddd}\
figure{margin:1em 0}figcaption{font-weight:600;margin-bottom:.3em}\
.bar{fill:#4a7fb5}.whisker{stroke:#111;stroke-width:1.5;fill:none}.half{stroke:#c33;stroke-dasharray:4 3}\
.axis{stroke:#888}.label,.value,.tick{font-size:12px;fill:#222}.n{fill:#777}.bin{fill:#6a9f58}\
table{border-collapse:collapse;width:100%}th,td{padding:3px 6px;border-bottom:1px solid #eee;text-align:right}\
th{cursor:pointer;background:#f4f4f4}td:first-child,th:first-child{text-align:left}.summary{color:#444}\
.quantiles{color:#555;font-size:12px;margin:.2em 0}";

/// Sorts the card table by a clicked column; marks the page ready for tests.
const SCRIPT: &str = "document.querySelectorAll('#cards th').forEach(function(th,i){th.addEventListener('click',function(){\
var body=document.querySelector('#cards tbody');var rows=Array.prototype.slice.call(body.rows);\
var desc=th.dataset.desc!=='1';th.dataset.desc=desc?'1':'0';rows.sort(function(a,b){\
var x=a.cells[i].dataset.v||a.cells[i].textContent,y=b.cells[i].dataset.v||b.cells[i].textContent;\
var nx=parseFloat(x),ny=parseFloat(y);var c=(isNaN(nx)||isNaN(ny))?x.localeCompare(y):nx-ny;return desc?-c:c;});\
rows.forEach(function(r){body.appendChild(r);});});});document.body.dataset.ready='true';";

/// The page.
pub fn page(s: &Stats, title: &str) -> String {
    let mut h = format!(
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title><style>{STYLE}</style></head><body>",
        esc(title)
    );
    h.push_str(&format!("<h1>{}</h1>", esc(title)));
    h.push_str(&format!(
        "<p class=\"summary\">{} logs: {} finished, {} unfinished, {} draws. Win rates count finished games; the whisker is the 95% Wilson interval, the dashed line 50%.</p>",
        s.logs, s.finished, s.unfinished, s.draws
    ));
    h.push_str("<h2>First player</h2>");
    h.push_str(&bars(
        "First player's win rate",
        "first-player",
        std::slice::from_ref(&s.first_player),
    ));
    h.push_str("<h2>Win rates</h2>");
    for d in &s.dimensions {
        h.push_str(&bars(
            &format!("By {}", d.name),
            &format!("by-{}", d.name.replace(' ', "-")),
            &d.rates,
        ));
    }
    h.push_str("<h2>Game length</h2>");
    h.push_str(&histogram("Turns per game", "turns", &s.turns));
    h.push_str(&histogram("Actions per game", "actions", &s.actions));
    if !s.cards.is_empty() {
        h.push_str("<h2>Cards</h2><table id=\"cards\"><thead><tr><th>card</th><th>drawn</th><th>played</th><th>in decks</th><th>won</th><th>win rate</th><th>95% interval</th></tr></thead><tbody>");
        for c in &s.cards {
            let r = &c.win_rate;
            h.push_str(&format!(
                "<tr data-id=\"{}\"><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td data-v=\"{:.6}\">{}</td><td data-v=\"{:.6}\">{} – {}</td></tr>",
                esc(&c.id),
                esc(&c.name),
                c.drawn,
                c.played,
                c.in_decks,
                c.in_winning_decks,
                r.rate,
                pct(r.rate),
                r.low,
                pct(r.low),
                pct(r.high)
            ));
        }
        h.push_str("</tbody></table>");
    }
    h.push_str(&format!("<script>{SCRIPT}</script></body></html>\n"));
    h
}
