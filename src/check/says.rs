//! What a card text says, in the words of the effect vocabulary (E054):
//! each word of `effects:` in game.yaml may list, per locale, the phrases
//! card texts use for it (`says: {en: [heal*], es: [cura*, recupera*]}`).
//! A text then agrees with its effect both ways:
//!
//! - every word its effect uses that has phrases in the text's locale is
//!   said (a Volcano whose effect fires "when a combat starts here" but
//!   whose text says "at the start of the combat phase" is caught);
//! - every phrase the text says belongs to a word its effect uses (a Wild
//!   Fury whose text lets the unit "move" but whose effect gives no `move`).
//!
//! Phrases are lowercase words matched against the text's words in order;
//! a word ending in `*` matches any ending (`heal*`: heal, heals, healed).

use crate::model::effects::{Effect, Vocabulary, Word};

/// A word of the vocabulary an effect uses: its section (singular) and name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Used<'a> {
    pub section: &'static str,
    pub word: &'a str,
}

/// The vocabulary words an effect uses.
pub fn used(e: &Effect) -> Vec<Used<'_>> {
    let mut all: Vec<Used<'_>> = Vec::new();
    for c in &e.clauses {
        all.push(Used::new("timing", &c.when));
        if let Some(l) = &c.limit {
            all.push(Used::new("limit", &l.per));
        }
        for (r, _) in &c.cost {
            all.push(Used::new("resource", r));
        }
        for x in &c.conditions {
            all.push(Used::new("condition", &x.name));
        }
        if let Some(t) = &c.target {
            all.push(Used::new("target", &t.who));
            for x in &t.conditions {
                all.push(Used::new("condition", &x.name));
            }
        }
        for o in &c.outcomes {
            all.push(Used::new("outcome", &o.name));
            if let crate::model::effects::Amount::Per { per, .. } = &o.amount {
                all.push(Used::new("condition", &per.name));
            }
        }
        if let Some(u) = &c.until {
            all.push(Used::new("duration", u));
        }
    }
    let mut out: Vec<Used<'_>> = Vec::with_capacity(all.len());
    for u in all {
        if !out.contains(&u) {
            out.push(u);
        }
    }
    out
}

impl<'a> Used<'a> {
    fn new(section: &'static str, word: &'a str) -> Self {
        Used { section, word }
    }
}

/// Every word of the vocabulary with its section (singular).
fn words(voc: &Vocabulary) -> impl Iterator<Item = (&'static str, &str, &Word)> {
    let parts: [(&'static str, &indexmap::IndexMap<String, Word>); 7] = [
        ("timing", &voc.timings),
        ("target", &voc.targets),
        ("condition", &voc.conditions),
        ("outcome", &voc.outcomes),
        ("duration", &voc.durations),
        ("limit", &voc.limits),
        ("resource", &voc.resources),
    ];
    parts
        .into_iter()
        .flat_map(|(s, m)| m.iter().map(move |(k, w)| (s, k.as_str(), w)))
}

fn lookup<'v>(voc: &'v Vocabulary, u: &Used<'_>) -> Option<&'v Word> {
    let m = match u.section {
        "timing" => &voc.timings,
        "target" => &voc.targets,
        "condition" => &voc.conditions,
        "outcome" => &voc.outcomes,
        "duration" => &voc.durations,
        "limit" => &voc.limits,
        _ => &voc.resources,
    };
    m.get(u.word)
}

/// The words of a text for matching: lowercase, split at anything that is
/// not a letter or digit, template tags (`{{ … }}`, `{% … %}`) left out.
pub fn tokens(text: &str) -> Vec<String> {
    let mut plain = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("{{").or_else(|| rest.find("{%")) {
        plain.push_str(&rest[..i]);
        let close = if rest[i..].starts_with("{{") { "}}" } else { "%}" };
        match rest[i..].find(close) {
            Some(j) => rest = &rest[i + j + 2..],
            None => rest = "",
        }
        plain.push(' ');
    }
    plain.push_str(rest);
    plain
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Whether `phrase` occurs in the words `text`.
pub fn says(text: &[String], phrase: &str) -> bool {
    let want: Vec<&str> = phrase.split(' ').collect();
    if want.is_empty() || want.len() > text.len() {
        return false;
    }
    text.windows(want.len()).any(|win| {
        win.iter().zip(&want).all(|(t, w)| match w.strip_suffix('*') {
            Some(stem) => t.starts_with(stem),
            None => t == w,
        })
    })
}

/// A disagreement between a text and its effect, in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disagreement {
    pub message: String,
    pub found: String,
    pub expected: String,
}

/// The first way text `t` (of `locale`) and effect `e` disagree about what
/// happens, when, or to whom.
pub fn disagreement(voc: &Vocabulary, e: &Effect, locale: &str, t: &str) -> Option<Disagreement> {
    let text = tokens(t);
    let used = used(e);
    for u in &used {
        let Some(w) = lookup(voc, u) else { continue };
        let Some(phrases) = w.says.get(locale).filter(|p| !p.is_empty()) else {
            continue;
        };
        if !phrases.iter().any(|p| says(&text, p)) {
            return Some(Disagreement {
                message: format!(
                    "the {locale} text never says the {} `{}` of its effect ({})",
                    u.section, u.word, w.help
                ),
                found: format!("\"{}\"", short(t)),
                expected: format!("one of: {}", phrases.join(", ")),
            });
        }
    }
    for (section, name, w) in words(voc) {
        if used.iter().any(|u| u.section == section && u.word == name) {
            continue;
        }
        let Some(phrases) = w.says.get(locale) else { continue };
        for p in phrases {
            if !says(&text, p) {
                continue;
            }
            // A phrase several words share is explained by any of them.
            let shared = used
                .iter()
                .any(|u| lookup(voc, u).is_some_and(|x| x.says.get(locale).is_some_and(|ps| ps.contains(p))));
            if shared {
                continue;
            }
            return Some(Disagreement {
                message: format!(
                    "the {locale} text says \"{p}\" (the {section} `{name}`: {}), which its effect does not give",
                    w.help
                ),
                found: format!("\"{}\"", short(t)),
                expected: format!("an effect with the {section} `{name}`, or a text that does not say it"),
            });
        }
    }
    None
}

fn short(t: &str) -> String {
    if t.chars().count() > 80 {
        format!("{}…", t.chars().take(79).collect::<String>())
    } else {
        t.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phrases_match_words_in_order_with_any_ending() {
        let t = tokens("It may move 1 location after attacking. {{ moves }}");
        assert!(says(&t, "move*"));
        assert!(says(&t, "after attack*"));
        assert!(!says(&t, "moves"));
        assert!(!says(&t, "after move*"));
        let es = tokens("Al empezar la fase de combate, cada pila tira un dado");
        assert!(says(&es, "fase de combate"));
        assert!(says(&es, "al empezar"));
    }
}
