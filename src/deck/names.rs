//! Finding components by what players write: ids and names in every locale
//! of the pack, ignoring case, accents, punctuation and extra spaces. One
//! hash lookup per try, so reading a list is linear in its lines.

use std::collections::HashMap;

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

// Names longer than the one cap of every suggestion are not compared for
// "did you mean": a pasted paragraph is not a misspelt card.
use crate::diag::MAX_SUGGEST_CHARS;
use crate::model::{Component, Game};

/// A name reduced for matching: no accents, case, punctuation or extra spaces.
pub fn normalize(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut space = false;
    let mut push = |ch: char, out: &mut String| {
        if ch.is_alphanumeric() {
            if space && !out.is_empty() {
                out.push(' ');
            }
            space = false;
            out.extend(ch.to_lowercase());
        } else if ch.is_whitespace() || ch == '-' || ch == '_' || ch == '/' {
            space = true;
        }
        // Other punctuation (apostrophes, dots, commas) is dropped.
    };
    if s.is_ascii() {
        for ch in s.chars() {
            push(ch, &mut out);
        }
    } else {
        for ch in s.nfd().filter(|c| !is_combining_mark(*c)) {
            push(ch, &mut out);
        }
    }
    out
}

/// One way to name a component: by id, or by its name in a locale.
#[derive(Clone, Copy, Debug)]
struct Hit<'g> {
    comp: &'g Component,
    /// The locale whose name matched; `None` for an id or a name that is the
    /// same in every locale.
    locale: Option<&'g str>,
}

/// The components of some kinds, by normalized id and name.
pub struct Names<'g> {
    by_key: HashMap<String, Vec<Hit<'g>>>,
    /// (normalized, shown) names for suggestions.
    shown: Vec<(String, &'g str)>,
}

/// What a written name resolves to.
pub enum Found<'g> {
    One(&'g Component, Option<&'g str>),
    Several(Vec<&'g Component>),
    None,
}

impl<'g> Names<'g> {
    pub fn new(game: &'g Game, kinds: &[String]) -> Names<'g> {
        let mut by_key: HashMap<String, Vec<Hit<'g>>> = HashMap::new();
        let mut shown = Vec::new();
        for kind in kinds {
            for c in game.components.get(kind).into_iter().flatten() {
                // Each written form of this component, with the locales whose name it is.
                let mut forms: Vec<(String, Vec<&'g str>)> = Vec::new();
                for (locale, n) in &c.name.0 {
                    let key = normalize(n);
                    shown.push((key.clone(), n.as_str()));
                    match forms.iter_mut().find(|(k, _)| *k == key) {
                        Some((_, ls)) => ls.push(locale.as_str()),
                        None => forms.push((key, vec![locale.as_str()])),
                    }
                }
                for id in [c.id.clone(), normalize(&c.id)] {
                    if !forms.iter().any(|(k, _)| *k == id) {
                        forms.push((id, Vec::new()));
                    }
                }
                for (key, locales) in forms {
                    // A name shared by every locale, or an id, says nothing about the list's locale.
                    let locale = match locales.as_slice() {
                        [one] if c.name.0.len() > 1 => Some(*one),
                        _ => None,
                    };
                    let hits = by_key.entry(key).or_default();
                    if !hits.iter().any(|h| std::ptr::eq(h.comp, c)) {
                        hits.push(Hit { comp: c, locale });
                    }
                }
            }
        }
        shown.sort();
        shown.dedup();
        Names { by_key, shown }
    }

    /// Looks a written name up: exact id first, then the normalized name.
    pub fn find(&self, written: &str) -> Found<'g> {
        let written = written.trim();
        if written.is_empty() {
            return Found::None;
        }
        match self.by_key.get(written) {
            Some(hits) => Self::found(hits),
            None => self.find_normalized(&normalize(written)),
        }
    }

    /// Looks up a name already passed through [`normalize`]; a plural
    /// (`5 Minions`, `2 Guerreros enanos`) finds its singular when nothing is
    /// named so exactly.
    pub fn find_normalized(&self, key: &str) -> Found<'g> {
        if let Some(hits) = self.by_key.get(key) {
            return Self::found(hits);
        }
        for single in singulars(key) {
            if let Some(hits) = self.by_key.get(&single)
                && let [_] = hits.as_slice()
            {
                return Self::found(hits);
            }
        }
        Found::None
    }

    fn found(hits: &[Hit<'g>]) -> Found<'g> {
        match Some(hits) {
            Some([h]) => Found::One(h.comp, h.locale),
            Some(hs) if !hs.is_empty() => Found::Several(hs.iter().map(|h| h.comp).collect()),
            _ => Found::None,
        }
    }

    /// The closest name to `written`, as the pack writes it.
    pub fn suggest(&self, written: &str) -> Option<&'g str> {
        if written.chars().count() > MAX_SUGGEST_CHARS {
            return None;
        }
        let key = normalize(written);
        let best = crate::diag::did_you_mean(&key, self.shown.iter().map(|(k, _)| k.as_str()))?;
        self.shown.iter().find(|(k, _)| k == best).map(|(_, s)| *s)
    }
}

impl<'g> Names<'g> {
    /// The name one of whose words is closest to `written` (`alianz` →
    /// "Modo Alianza"), for header values that give a word of a name.
    pub fn suggest_by_word(&self, written: &str) -> Option<&'g str> {
        if written.chars().count() > MAX_SUGGEST_CHARS {
            return None;
        }
        let key = normalize(written);
        let words: Vec<(&str, &'g str)> = self
            .shown
            .iter()
            .flat_map(|(k, shown)| k.split(' ').filter(|w| w.len() >= 3).map(move |w| (w, *shown)))
            .collect();
        let best = crate::diag::did_you_mean(&key, words.iter().map(|(w, _)| *w))?;
        words.iter().find(|(w, _)| *w == best).map(|(_, s)| *s)
    }
}

/// The singular forms a written plural may stand for: the last word, or
/// every word (Spanish pluralises the adjective too), without `s` or `es`.
fn singulars(key: &str) -> Vec<String> {
    let strip = |w: &str, suffix: &str| -> Option<String> {
        w.strip_suffix(suffix)
            .filter(|s| s.chars().count() >= 3)
            .map(str::to_string)
    };
    let words: Vec<&str> = key.split(' ').collect();
    let mut out = Vec::new();
    for suffix in ["s", "es"] {
        if let Some((last, head)) = words.split_last()
            && let Some(one) = strip(last, suffix)
        {
            let mut w: Vec<String> = head.iter().map(|x| x.to_string()).collect();
            w.push(one);
            out.push(w.join(" "));
        }
        if words.len() > 1 {
            let all: Vec<String> = words
                .iter()
                .map(|w| strip(w, suffix).unwrap_or_else(|| w.to_string()))
                .collect();
            out.push(all.join(" "));
        }
    }
    out
}

/// Finds a component of `kinds` by id or name in any locale; when nothing
/// matches exactly, one whose name says the same with numbers and "versus"
/// written another way (`3 contra 1` for "Tres vs Uno",
/// [`super::vocab::canonical`]), then a unique component whose name holds
/// every written word (`duelo` for "Modo Duelo"). The error is a "did you
/// mean" suggestion, if any.
pub fn resolve<'g>(game: &'g Game, kinds: &[String], written: &str) -> Result<&'g Component, Unresolved<'g>> {
    let names = Names::new(game, kinds);
    match names.find(written) {
        Found::One(c, _) => Ok(c),
        Found::Several(cs) => Err(Unresolved::Several(cs)),
        Found::None => {
            let canon = super::vocab::canonical(written);
            let same: Vec<&Component> = kinds
                .iter()
                .flat_map(|k| game.components.get(k).into_iter().flatten())
                .filter(|c| {
                    c.name
                        .0
                        .values()
                        .chain(std::iter::once(&c.id))
                        .any(|n| super::vocab::canonical(n) == canon)
                })
                .collect();
            match same.as_slice() {
                [one] => return Ok(one),
                [] => {}
                _ => return Err(Unresolved::Several(same)),
            }
            let words: Vec<String> = canon.split(' ').map(str::to_string).collect();
            let mut holding: Vec<&Component> = Vec::new();
            if !words.is_empty() && !words[0].is_empty() {
                for kind in kinds {
                    for c in game.components.get(kind).into_iter().flatten() {
                        let has = c.name.0.values().chain(std::iter::once(&c.id)).any(|n| {
                            let n = super::vocab::canonical(n);
                            let nw: Vec<&str> = n.split(' ').collect();
                            words.iter().all(|w| nw.contains(&w.as_str()))
                        });
                        if has {
                            holding.push(c);
                        }
                    }
                }
            }
            match holding.len() {
                1 => Ok(holding[0]),
                0 => Err(Unresolved::Unknown(
                    names
                        .suggest(written)
                        .or_else(|| names.suggest_by_word(written))
                        .map(str::to_string),
                )),
                _ => Err(Unresolved::Several(holding)),
            }
        }
    }
}

/// Why a written name found no single component.
pub enum Unresolved<'g> {
    /// Nothing matches; perhaps this name was meant.
    Unknown(Option<String>),
    Several(Vec<&'g Component>),
}
