//! Every word a game uses for a thing, as a list may write it: the words of
//! section titles (kinds, the values of their fields, rule and draw-group
//! labels, and the common ones of deck sites), the headers of a table's
//! columns (`Qty`, `Cantidad`, `Token`, `Ficha`, `Unidad`…), and the
//! spelled-out numbers and "versus" words of mode names (`Tres vs Uno`,
//! `3-vs-1`, `3 contra 1`).

use std::collections::HashSet;

use super::names::normalize;
use crate::model::construction::Construction;
use crate::model::{FieldType, Game};

/// Words that head a column of counts.
const QTY_COLUMNS: &[&str] = &[
    "qty",
    "quantity",
    "count",
    "copies",
    "copy",
    "amount",
    "cantidad",
    "cant",
    "copias",
    "ejemplares",
    "total",
    "x",
    "nb",
    "num copies",
];

/// Words that head a column of item numbers or of counts: which one, the
/// values say (`1, 2, 3 …` are item numbers).
const NUMBER_COLUMNS: &[&str] = &[
    "", "n", "no", "nº", "n º", "num", "number", "numero", "unidades", "units",
];

/// Words that head a column of names (besides the game's kinds).
const NAME_COLUMNS: &[&str] = &[
    "name",
    "card",
    "card name",
    "cards",
    "unit",
    "units name",
    "token",
    "tokens",
    "piece",
    "nombre",
    "carta",
    "cartas",
    "nombre de la carta",
    "unidad",
    "ficha",
    "fichas",
    "pieza",
];

/// Section titles every list may use, in both locales (normalized).
const SECTION_WORDS: &[&str] = &[
    "deck",
    "main",
    "main deck",
    "maindeck",
    "mainboard",
    "sideboard",
    "side",
    "maybeboard",
    "considering",
    "commander",
    "companion",
    "cards",
    "card",
    "tokens",
    "units",
    "army",
    "lineup",
    "list",
    "others",
    "other",
    "extra",
    "reserve",
    "characters",
    "heroes",
    "monsters",
    "troops",
    "gods",
    "god",
    "equipment",
    "actions",
    "zones",
    "events",
    "assets",
    "skills",
    "upgrades",
    "spells",
    "total",
    "mazo",
    "baraja",
    "principal",
    "banquillo",
    "reserva",
    "cartas",
    "fichas",
    "unidades",
    "ejercito",
    "lista",
    "otros",
    "otras",
    "personajes",
    "heroes",
    "monstruos",
    "tropas",
    "dioses",
    "dios",
    "equipo",
    "equipamiento",
    "acciones",
    "zonas",
    "eventos",
    "mejoras",
    "hechizos",
    "about",
    "acerca",
];

/// Sections whose cards are not part of the checked list.
pub const SIDE_WORDS: &[&str] = &["sideboard", "side", "maybeboard", "considering", "banquillo"];

/// Little words a title joins its words with (`heroes and monsters`).
const JOINERS: &[&str] = &[
    "and", "y", "e", "or", "o", "the", "el", "la", "los", "las", "de", "del", "&",
];

/// What a table's column holds, by its header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ColumnWord {
    /// Copies.
    Count,
    /// Item numbers or copies (`#`, `Nº`): the values decide.
    Number,
    /// Card names.
    Name,
    /// Something else: cost, points, faction, type…; never a count.
    Other,
}

/// The words of one game's lists.
pub struct Vocab {
    sections: HashSet<String>,
    names: HashSet<String>,
}

impl Vocab {
    pub fn new(game: &Game, c: &Construction) -> Vocab {
        Vocab {
            sections: with_forms(section_words(game, c)),
            names: with_forms(name_words(game)),
        }
    }

    /// Whether a (normalized) title is made of section words: `heroes and monsters`.
    pub fn is_section(&self, title: &str) -> bool {
        if title.is_empty() {
            return false;
        }
        if self.sections.contains(title) {
            return true;
        }
        let parts: Vec<&str> = title.split(' ').filter(|w| !JOINERS.contains(w)).collect();
        !parts.is_empty() && parts.len() <= 6 && parts.iter().all(|w| self.sections.contains(*w))
    }

    /// What a header cell names, as written.
    pub fn column(&self, cell: &str) -> ColumnWord {
        let t = cell.trim();
        let n = normalize(t);
        if t == "#" || NUMBER_COLUMNS.contains(&n.as_str()) {
            ColumnWord::Number
        } else if QTY_COLUMNS.contains(&n.as_str()) || n.starts_with("cantidad") || n.starts_with("qty") {
            ColumnWord::Count
        } else if NAME_COLUMNS.contains(&n.as_str()) || self.names.contains(&n) {
            ColumnWord::Name
        } else {
            ColumnWord::Other
        }
    }
}

/// Whether a section title puts its cards aside (a sideboard).
pub fn is_side(title: &str) -> bool {
    let key = normalize(title);
    SIDE_WORDS.iter().any(|w| key.starts_with(w))
}

/// A word and its plural or singular forms (`zone`, `zones`, `zonees`…): a
/// title matches when one of its forms is in the set.
fn with_forms(words: Vec<String>) -> HashSet<String> {
    let mut out = HashSet::new();
    for w in words {
        if w.len() >= 3 {
            out.insert(format!("{w}s"));
            out.insert(format!("{w}es"));
            if let Some(stem) = w.strip_suffix("es").filter(|s| s.len() >= 3) {
                out.insert(stem.to_string());
            }
            if let Some(stem) = w.strip_suffix('s').filter(|s| s.len() >= 3) {
                out.insert(stem.to_string());
            }
        }
        out.insert(w);
    }
    out
}

/// Adds a name and (for section titles) each of its longer words.
fn push_words(out: &mut Vec<String>, s: &str, words: bool) {
    let n = normalize(s);
    if n.is_empty() {
        return;
    }
    out.push(n.clone());
    if words {
        for w in n.split(' ') {
            if w.len() >= 3 && !JOINERS.contains(&w) {
                out.push(w.to_string());
            }
        }
    }
}

/// The words of section titles for this game: its kinds' ids and names, the
/// values (and their names) of the listed kinds' fields, values the rules
/// filter on, rule and draw-group labels, and the common words.
fn section_words(game: &Game, c: &Construction) -> Vec<String> {
    let mut out: Vec<String> = SECTION_WORDS.iter().map(|s| s.to_string()).collect();
    for k in &c.kinds {
        push_words(&mut out, k, true);
        let Some(kind) = game.kinds.get(k) else { continue };
        for n in kind.name.0.values() {
            push_words(&mut out, n, true);
        }
        // `Attack (13)`, `Versátiles (6)`: the values of the listed kinds' choice fields.
        for field in kind.fields.values() {
            if let FieldType::Enum { values } = &field.ty {
                for id in values {
                    push_words(&mut out, id, false);
                }
                for names in field.labels.values() {
                    for n in names.0.values() {
                        push_words(&mut out, n, false);
                    }
                }
            }
        }
    }
    let mut rules: Vec<&crate::model::construction::DeckRule> = c.rules.iter().collect();
    rules.extend(c.rules.iter().flat_map(|r| r.parts.iter()));
    for r in rules {
        for l in r.label.0.values() {
            push_words(&mut out, l, true);
        }
        for values in r.filter.fields.values() {
            for v in values {
                if v.parse::<f64>().is_err() && v != "true" && v != "false" {
                    push_words(&mut out, v, true);
                }
            }
        }
    }
    if let Some(d) = &c.draw {
        for g in &d.groups {
            for l in g.label.0.values() {
                push_words(&mut out, l, true);
            }
        }
    }
    out
}

/// The names of every kind of the game (`Token`, `Ficha`, `Unit`), for table headers.
fn name_words(game: &Game) -> Vec<String> {
    let mut out = Vec::new();
    for (id, kind) in &game.kinds {
        push_words(&mut out, id, false);
        for n in kind.name.0.values() {
            push_words(&mut out, n, false);
        }
    }
    out
}

/// Spelled-out numbers, English and Spanish.
const NUMBERS: &[(&str, &str)] = &[
    ("zero", "0"),
    ("cero", "0"),
    ("one", "1"),
    ("uno", "1"),
    ("una", "1"),
    ("two", "2"),
    ("dos", "2"),
    ("three", "3"),
    ("tres", "3"),
    ("four", "4"),
    ("cuatro", "4"),
    ("five", "5"),
    ("cinco", "5"),
    ("six", "6"),
    ("seis", "6"),
];

/// Words for "against" in a mode's name.
const VERSUS: &[&str] = &["vs", "v", "versus", "contra", "against", "frente"];

/// A name reduced further for comparing mode names: numbers as digits and
/// every "versus" as `vs` (`Tres vs Uno`, `3-vs-1` and `3 contra 1` are all
/// `3 vs 1`).
pub fn canonical(s: &str) -> String {
    normalize(s)
        .split(' ')
        .map(|w| {
            if VERSUS.contains(&w) {
                "vs"
            } else {
                NUMBERS.iter().find(|(n, _)| *n == w).map_or(w, |(_, d)| d)
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plural_words() {
        let words = with_forms(vec!["zone".into(), "dioses".into(), "hero".into()]);
        for w in ["zone", "zones", "dioses", "dios", "hero", "heroes"] {
            assert!(words.contains(w), "{w}");
        }
        assert!(!words.contains("zon"));
    }

    #[test]
    fn mode_names_agree() {
        for s in ["Tres vs Uno", "3-vs-1", "3 contra 1", "Three versus One", "3 VS 1"] {
            assert_eq!(canonical(s), "3 vs 1", "{s}");
        }
    }
}
