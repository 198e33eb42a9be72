//! Opening-hand odds of a list: the draw piles it makes (the game's
//! `construction.draw`), and for each declared group of cards and each card
//! the exact hypergeometric probability of holding at least k of them in the
//! opening hand and by turn N. Counts are exact integers (u128 while a pile
//! has at most 125 cards, log space beyond); piles are independent draws, so
//! a target spread over piles is their convolution.

use serde::Serialize;

use super::Deck;
use crate::model::construction::{DrawRules, Filter};
use crate::model::{Component, FieldValue, Game, Text};

/// One card of a pile: what it is and how many copies.
#[derive(Clone, Debug)]
pub struct Card<'a> {
    pub component: &'a Component,
    pub count: u32,
}

/// A pile as a list makes it.
#[derive(Clone, Debug)]
pub struct PileCards<'a> {
    pub id: String,
    pub name: Text,
    pub cards: Vec<Card<'a>>,
    /// Cards taken into the hand before the draw.
    pub aside: Vec<Card<'a>>,
    pub opening: u32,
}

impl PileCards<'_> {
    /// Cards in the pile after the set-aside ones left it.
    pub fn size(&self) -> u32 {
        self.cards.iter().map(|c| c.count).sum()
    }
}

/// The piles a list makes under the draw rules.
pub fn piles<'a>(game: &'a Game, draw: &DrawRules, deck: &Deck) -> Result<Vec<PileCards<'a>>, String> {
    let mut out = Vec::new();
    for p in &draw.piles {
        let mut cards: Vec<Card> = Vec::new();
        let mut add = |c: &'a Component, n: u32| {
            if n == 0 {
                return;
            }
            match cards.iter_mut().find(|x| std::ptr::eq(x.component, c)) {
                Some(x) => x.count += n,
                None => cards.push(Card { component: c, count: n }),
            }
        };
        for e in &deck.entries {
            let Some(c) = game.component(&e.kind, &e.id) else {
                continue;
            };
            if let Some(f) = &p.cards {
                if f.matches(c) {
                    add(c, e.count);
                }
                continue;
            }
            for b in &p.brings {
                let Some(n) = c.field(&b.field).and_then(FieldValue::as_int) else {
                    continue;
                };
                let target = match &b.id {
                    Some(id) => game.component(&b.kind, id),
                    None => game.components.get(&b.kind).and_then(|list| {
                        list.iter().find(|x| {
                            b.by.iter()
                                .any(|f| x.field(f).and_then(FieldValue::as_str) == Some(c.id.as_str()))
                        })
                    }),
                };
                let Some(target) = target else {
                    return Err(format!(
                        "the draw rules give `{}` {n} {} card(s), but the pack has no such card",
                        c.id, b.kind
                    ));
                };
                add(target, (n.max(0) as u32).saturating_mul(e.count));
            }
        }
        let mut aside = Vec::new();
        for s in &p.set_aside {
            // Extra cards come from outside the pile; the others leave it.
            if s.extra {
                if let Some(c) = game.component(&s.kind, &s.id) {
                    aside.push(Card {
                        component: c,
                        count: s.count,
                    });
                }
                continue;
            }
            let Some(i) = cards
                .iter()
                .position(|c| c.component.kind == s.kind && c.component.id == s.id)
            else {
                continue;
            };
            let n = s.count.min(cards[i].count);
            cards[i].count -= n;
            aside.push(Card {
                component: cards[i].component,
                count: n,
            });
        }
        cards.retain(|c| c.count > 0);
        out.push(PileCards {
            id: p.id.clone(),
            name: p.name.clone(),
            cards,
            aside,
            opening: p.opening,
        });
    }
    Ok(out)
}

/// C(n, k) exactly, while it fits.
fn binomial(n: u32, k: u32) -> Option<u128> {
    if k > n {
        return Some(0);
    }
    let k = k.min(n - k);
    let mut r: u128 = 1;
    for j in 1..=k as u128 {
        // r·(n−k+j)/j stays whole at every step.
        r = r.checked_mul(n as u128 - k as u128 + j)? / j;
    }
    Some(r)
}

fn ln_binomial(n: u32, k: u32) -> f64 {
    let k = k.min(n - k);
    (1..=k).map(|j| ((n - k + j) as f64 / j as f64).ln()).sum()
}

/// P(X = i) for i = 0..=draws when `draws` cards are drawn from `size` cards
/// of which `hits` are wanted (the hypergeometric distribution).
pub fn hypergeometric(size: u32, hits: u32, draws: u32) -> Vec<f64> {
    let draws = draws.min(size);
    let hits = hits.min(size);
    let mut out = vec![0.0; draws as usize + 1];
    let lo = draws.saturating_sub(size - hits);
    let hi = draws.min(hits);
    match binomial(size, draws) {
        // Every term C(K,i)·C(N−K,n−i) is at most C(N,n) (Vandermonde): exact counts, one division.
        Some(all) if size <= 125 => {
            for i in lo..=hi {
                let ways = binomial(hits, i).unwrap_or(0) * binomial(size - hits, draws - i).unwrap_or(0);
                out[i as usize] = ways as f64 / all as f64;
            }
        }
        _ => {
            let all = ln_binomial(size, draws);
            for i in lo..=hi {
                out[i as usize] = (ln_binomial(hits, i) + ln_binomial(size - hits, draws - i) - all).exp();
            }
        }
    }
    out
}

/// P(at least `k`) when each pile `(size, hits, draws)` is drawn from
/// independently and `fixed` wanted cards are already in hand.
pub fn at_least(piles: &[(u32, u32, u32)], fixed: u32, k: u32) -> f64 {
    let mut dist = vec![1.0f64];
    for &(size, hits, draws) in piles {
        let h = hypergeometric(size, hits, draws);
        let mut next = vec![0.0; dist.len() + h.len() - 1];
        for (a, pa) in dist.iter().enumerate() {
            for (b, pb) in h.iter().enumerate() {
                next[a + b] += pa * pb;
            }
        }
        dist = next;
    }
    let need = k.saturating_sub(fixed) as usize;
    if need == 0 {
        // Certain: not a float sum that rounds to 0.999….
        return 1.0;
    }
    // `+ 0.0` turns the −0.0 an empty float sum starts from into 0.
    let p: f64 = dist.iter().skip(need).sum::<f64>() + 0.0;
    p.clamp(0.0, 1.0)
}

/// What to compute.
#[derive(Clone, Copy, Debug)]
pub struct Ask {
    /// Turns after the opening hand (columns `turn 1` … `turn N`).
    pub turns: u32,
    /// At least this many of a card or group.
    pub at_least: u32,
    /// As the first player (who may skip the first turn's draw).
    pub first: bool,
}

/// The odds of one card or group.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// `group` or `card`.
    pub what: &'static str,
    pub id: String,
    pub name: String,
    /// Copies in the piles and in the hand before the draw.
    pub copies: u32,
    pub opening: f64,
    /// The opening hand with every mulligan used when it lacks the card.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mulligan: Option<f64>,
    /// By the end of the draw of turn 1, 2 … N.
    pub by_turn: Vec<f64>,
}

/// Every row of a list's odds, and what they assume.
#[derive(Clone, Debug, Serialize)]
pub struct Odds {
    pub at_least: u32,
    pub first: bool,
    pub per_turn: u32,
    pub piles: Vec<PileSummary>,
    pub rows: Vec<Row>,
    pub cite: Option<String>,
    pub note: Option<String>,
    /// Whether a turn's draws come from a pile of the player's choice.
    pub choice: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct PileSummary {
    pub id: String,
    pub name: String,
    pub cards: u32,
    pub opening: u32,
    pub set_aside: u32,
}

/// Cards drawn by the end of turn `t`'s draw (`t` = 0: the opening hand).
fn turn_draws(draw: &DrawRules, ask: &Ask, t: u32) -> u32 {
    let steps = if ask.first && draw.first_player_skips {
        t.saturating_sub(1)
    } else {
        t
    };
    draw.per_turn.saturating_mul(steps)
}

/// The probability of at least `ask.at_least` of the cards `hit` picks, in
/// the opening hand (`t` = 0) or by turn `t`.
fn chance(piles: &[PileCards], draw: &DrawRules, ask: &Ask, t: u32, hit: &dyn Fn(&Component) -> bool) -> f64 {
    let hits: Vec<u32> = piles
        .iter()
        .map(|p| p.cards.iter().filter(|c| hit(c.component)).map(|c| c.count).sum())
        .collect();
    let fixed: u32 = piles
        .iter()
        .flat_map(|p| &p.aside)
        .filter(|c| hit(c.component))
        .map(|c| c.count)
        .sum();
    // Where a turn's draws go: the declared pile, or (the player's choice) the one holding most of the cards.
    let target = match &draw.per_turn_from {
        Some(id) => piles.iter().position(|p| &p.id == id),
        None => (0..piles.len()).max_by_key(|&i| (hits[i], std::cmp::Reverse(i))),
    };
    let extra = turn_draws(draw, ask, t);
    let parts: Vec<(u32, u32, u32)> = piles
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let d = p.opening + if Some(i) == target { extra } else { 0 };
            (p.size(), hits[i], d.min(p.size()))
        })
        .collect();
    at_least(&parts, fixed, ask.at_least)
}

/// The odds of every declared group and every card of the list.
pub fn odds(game: &Game, draw: &DrawRules, deck: &Deck, ask: &Ask, locale: &str) -> Result<Odds, String> {
    let piles = piles(game, draw, deck)?;
    let row = |what: &'static str, id: String, name: String, hit: &dyn Fn(&Component) -> bool| {
        let copies = piles
            .iter()
            .flat_map(|p| p.cards.iter().chain(&p.aside))
            .filter(|c| hit(c.component))
            .map(|c| c.count)
            .sum();
        let opening = chance(&piles, draw, ask, 0, hit);
        Row {
            what,
            id,
            name,
            copies,
            opening,
            mulligan: (draw.mulligans > 0).then(|| 1.0 - (1.0 - opening).powi(draw.mulligans as i32 + 1)),
            by_turn: (1..=ask.turns).map(|t| chance(&piles, draw, ask, t, hit)).collect(),
        }
    };
    let mut rows = Vec::new();
    for g in &draw.groups {
        let f: &Filter = &g.filter;
        let hit = |c: &Component| f.matches(c);
        let r = row("group", g.id.clone(), g.label.get(locale).to_owned(), &hit);
        if r.copies > 0 {
            rows.push(r);
        }
    }
    for p in &piles {
        for c in p.cards.iter().chain(&p.aside) {
            let me = c.component;
            if rows
                .iter()
                .any(|r| r.what == "card" && r.id == format!("{}/{}", me.kind, me.id))
            {
                continue;
            }
            let hit = |x: &Component| std::ptr::eq(x, me);
            rows.push(row(
                "card",
                format!("{}/{}", me.kind, me.id),
                me.name.get(locale).to_owned(),
                &hit,
            ));
        }
    }
    Ok(Odds {
        at_least: ask.at_least,
        first: ask.first,
        per_turn: draw.per_turn,
        piles: piles
            .iter()
            .map(|p| PileSummary {
                id: p.id.clone(),
                name: p.name.get(locale).to_owned(),
                cards: p.size(),
                opening: p.opening,
                set_aside: p.aside.iter().map(|c| c.count).sum(),
            })
            .collect(),
        rows,
        cite: draw.cite.clone(),
        note: draw.note.as_ref().map(|n| n.get(locale).to_owned()),
        choice: draw.per_turn_from.is_none(),
    })
}

/// Our words for the odds table.
struct Words {
    title: &'static str,
    opening: &'static str,
    turn: &'static str,
    copies: &'static str,
    mulligan: &'static str,
    hand: &'static str,
    per_turn: &'static str,
    aside: &'static str,
    choice: &'static str,
    first: &'static str,
    second: &'static str,
}

const EN: Words = Words {
    title: "Odds of holding at least {k}",
    opening: "opening",
    turn: "turn",
    copies: "copies",
    mulligan: "+mulligan",
    hand: "opening hand: {n} from the {pile} ({size} cards)",
    per_turn: "then {n} a turn",
    aside: "{n} set aside into the hand first",
    choice: "each turn from the pile that holds the card",
    first: "as the first player (no draw on turn 1)",
    second: "as the player who draws on turn 1",
};

const ES: Words = Words {
    title: "Probabilidad de tener al menos {k}",
    opening: "inicial",
    turn: "turno",
    copies: "copias",
    mulligan: "+mulligan",
    hand: "mano inicial: {n} del {pile} ({size} cartas)",
    per_turn: "después {n} por turno",
    aside: "antes se apartan {n} a la mano",
    choice: "cada turno del montón que tiene la carta",
    first: "como jugador inicial (sin robo en el turno 1)",
    second: "como jugador que roba en el turno 1",
};

fn words(locale: &str) -> &'static Words {
    if locale == "es" { &ES } else { &EN }
}

/// A probability as a percentage in the locale's style (`42.3 %`, `42,3 %`).
pub fn percent(p: f64, locale: &str) -> String {
    // Never round a chance to a certainty or to nothing.
    let s = if (0.9995..1.0).contains(&p) {
        "> 99.9 %".to_owned()
    } else if p > 0.0 && p < 0.0005 {
        "< 0.1 %".to_owned()
    } else {
        format!("{:.1} %", p * 100.0)
    };
    if locale == "es" { s.replace('.', ",") } else { s }
}

impl Odds {
    /// The table, in the list's locale.
    pub fn human(&self, locale: &str, skips: bool) -> String {
        let w = words(locale);
        let mut out = w.title.replace("{k}", &self.at_least.to_string());
        if let Some(c) = &self.cite {
            out.push_str(&format!(" ({c})"));
        }
        out.push('\n');
        for p in &self.piles {
            let mut line = format!(
                "  {}",
                w.hand
                    .replace("{n}", &p.opening.to_string())
                    .replace("{pile}", &p.name)
                    .replace("{size}", &p.cards.to_string())
            );
            if p.set_aside > 0 {
                line.push_str(&format!("; {}", w.aside.replace("{n}", &p.set_aside.to_string())));
            }
            out.push_str(&line);
            out.push('\n');
        }
        if self.per_turn > 0 {
            let mut line = format!("  {}", w.per_turn.replace("{n}", &self.per_turn.to_string()));
            if self.choice && self.piles.len() > 1 {
                line.push_str(&format!(", {}", w.choice));
            }
            if let Some(n) = &self.note {
                line.push_str(&format!(" ({n})"));
            }
            if skips {
                line.push_str(&format!("; {}", if self.first { w.first } else { w.second }));
            }
            out.push_str(&line);
            out.push('\n');
        }
        let mut head = vec![String::new(), w.copies.to_owned(), w.opening.to_owned()];
        let mull = self.rows.first().is_some_and(|r| r.mulligan.is_some());
        if mull {
            head.push(w.mulligan.to_owned());
        }
        let turns = self.rows.first().map_or(0, |r| r.by_turn.len());
        head.extend((1..=turns).map(|t| format!("{} {t}", w.turn)));
        let mut table = vec![head];
        for r in &self.rows {
            let mut line = vec![
                if r.what == "group" {
                    r.name.clone()
                } else {
                    format!("  {}", r.name)
                },
                r.copies.to_string(),
                percent(r.opening, locale),
            ];
            if let Some(m) = r.mulligan {
                line.push(percent(m, locale));
            }
            line.extend(r.by_turn.iter().map(|p| percent(*p, locale)));
            table.push(line);
        }
        let widths: Vec<usize> = (0..table[0].len())
            .map(|i| table.iter().map(|l| l[i].chars().count()).max().unwrap_or(0))
            .collect();
        for l in &table {
            let mut s = String::from("  ");
            for (i, cell) in l.iter().enumerate() {
                let pad = widths[i] - cell.chars().count();
                if i == 0 {
                    s.push_str(cell);
                    s.push_str(&" ".repeat(pad));
                } else {
                    s.push_str("  ");
                    s.push_str(&" ".repeat(pad));
                    s.push_str(cell);
                }
            }
            out.push_str(s.trim_end());
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Every way to draw: which positions of a pile are drawn, counted.
    fn combinations(n: usize, k: usize, f: &mut impl FnMut(&[usize])) {
        fn go(start: usize, n: usize, k: usize, cur: &mut Vec<usize>, f: &mut impl FnMut(&[usize])) {
            if cur.len() == k {
                f(cur);
                return;
            }
            for i in start..n {
                if n - i < k - cur.len() {
                    break;
                }
                cur.push(i);
                go(i + 1, n, k, cur, f);
                cur.pop();
            }
        }
        go(0, n, k, &mut Vec::new(), f);
    }

    /// P(at least k) by enumerating every draw of every pile: a pile is a
    /// list of cards (true = wanted), each pile drawn `d` cards.
    fn brute(piles: &[(Vec<bool>, u32)], fixed: u32, k: u32) -> f64 {
        // The distribution of wanted cards per pile by enumeration, then every combination of piles.
        let mut dist = vec![1.0f64];
        for (cards, d) in piles {
            let d = (*d as usize).min(cards.len());
            let mut counts = vec![0u64; d + 1];
            let mut total = 0u64;
            combinations(cards.len(), d, &mut |pick| {
                counts[pick.iter().filter(|&&i| cards[i]).count()] += 1;
                total += 1;
            });
            let mut next = vec![0.0; dist.len() + d];
            for (a, pa) in dist.iter().enumerate() {
                for (b, n) in counts.iter().enumerate() {
                    next[a + b] += pa * *n as f64 / total as f64;
                }
            }
            dist = next;
        }
        dist.iter().skip(k.saturating_sub(fixed) as usize).sum()
    }

    #[test]
    fn known_values() {
        // 3 copies in a 30-card deck, 5 drawn: 1 − C(27,5)/C(30,5) = 1 − 80730/142506.
        let p = at_least(&[(30, 3, 5)], 0, 1);
        assert!((p - (1.0 - 80730.0 / 142506.0)).abs() < 1e-15, "{p}");
        // Everything drawn: certain; nothing wanted: impossible; already in hand: certain.
        assert_eq!(at_least(&[(10, 2, 10)], 0, 2), 1.0);
        assert_eq!(at_least(&[(10, 0, 5)], 0, 1), 0.0);
        assert_eq!(at_least(&[(10, 0, 5)], 3, 3), 1.0);
        // Large piles go through logarithms and still agree with a 125-card pile's exact counts.
        let exact = at_least(&[(125, 10, 20)], 0, 2);
        let big: f64 = hypergeometric(250, 20, 40).iter().skip(4).sum();
        assert!(exact > 0.0 && big > 0.0);
        let sum: f64 = hypergeometric(400, 37, 60).iter().sum();
        assert!((sum - 1.0).abs() < 1e-9, "{sum}");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        /// The closed form matches counting every possible draw, on one or two small piles.
        #[test]
        fn matches_enumeration(
            a in prop::collection::vec(any::<bool>(), 1..13),
            b in prop::collection::vec(any::<bool>(), 0..9),
            da in 0u32..8,
            db in 0u32..6,
            fixed in 0u32..3,
            k in 0u32..6,
        ) {
            let piles = if b.is_empty() { vec![(a.clone(), da)] } else { vec![(a.clone(), da), (b.clone(), db)] };
            let spec: Vec<(u32, u32, u32)> = piles
                .iter()
                .map(|(c, d)| (c.len() as u32, c.iter().filter(|x| **x).count() as u32, (*d).min(c.len() as u32)))
                .collect();
            let want = brute(&piles, fixed, k);
            let got = at_least(&spec, fixed, k);
            prop_assert!((want - got).abs() < 1e-12, "{spec:?} fixed {fixed} k {k}: {got} vs {want}");
        }
    }
}
