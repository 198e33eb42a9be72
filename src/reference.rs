//! Reading the rules reference of a pack: glossary, facts, chapters of rules
//! and the quick reference (docs/rules-format.md), from spanned YAML with
//! every problem collected, like components. The types are in
//! [`crate::model::reference`].

use crate::diag::{Code, Diagnostic, Span};
use crate::model::Text;
pub use crate::model::reference::{
    Action, Cell, Chapter, Fact, QuickRef, Reference, SText, Section, SectionKind, Term,
};
use crate::pack::reader::{MapReader, read_id_where, read_seq, read_slug, read_str, read_text, wrong_type};
use crate::pack::yaml::{Node, Value};

fn stext(node: &Node, what: &str, locales: &[String], diags: &mut Vec<Diagnostic>) -> Option<SText> {
    read_text(node, what, locales, diags).map(|text| SText { text, span: node.span })
}

fn req_stext(
    m: &mut MapReader,
    key: &str,
    what: &str,
    locales: &[String],
    diags: &mut Vec<Diagnostic>,
) -> Option<SText> {
    m.require(key, "a text in every locale", diags)
        .and_then(|n| stext(n, &format!("the {key} of {what}"), locales, diags))
}

fn opt_stext(
    m: &mut MapReader,
    key: &str,
    what: &str,
    locales: &[String],
    diags: &mut Vec<Diagnostic>,
) -> Option<SText> {
    m.take(key)
        .and_then(|n| stext(n, &format!("the {key} of {what}"), locales, diags))
}

fn stext_list(node: &Node, what: &str, locales: &[String], diags: &mut Vec<Diagnostic>) -> Vec<SText> {
    read_seq(node, what, diags)
        .unwrap_or_default()
        .iter()
        .filter_map(|n| stext(n, what, locales, diags))
        .collect()
}

/// A section or chapter id: a slug, or a rule id such as `OW-6`.
fn read_id(node: &Node, what: &str, diags: &mut Vec<Diagnostic>) -> Option<String> {
    read_id_where(
        node,
        what,
        |s| crate::pack::reader::is_slug(s) || is_rule_id(s),
        "a slug such as `combat-example`, or a rule id such as `OW-6`",
        diags,
    )
}

/// The entries of a list file (glossary.yaml, facts.yaml): each a mapping
/// with a slug `id`. Entries without one are reported and left out.
fn items_with_id<'a>(
    root: &'a Node,
    file: &str,
    what: &str,
    diags: &mut Vec<Diagnostic>,
) -> Vec<(&'a Node, MapReader<'a>, String)> {
    let mut out = Vec::new();
    for item in read_seq(root, file, diags).unwrap_or_default() {
        let Some(mut m) = MapReader::new(item, format!("a {what}"), diags) else {
            continue;
        };
        if let Some(id) = m
            .require("id", &format!("the {what}'s id"), diags)
            .and_then(|n| read_slug(n, &format!("a {what} id"), diags))
        {
            out.push((item, m, id));
        }
    }
    out
}

/// `OW-6`, `MB-13`: capital letters, a dash, a number.
pub fn is_rule_id(s: &str) -> bool {
    match s.split_once('-') {
        Some((p, n)) => {
            !p.is_empty()
                && p.chars().all(|c| c.is_ascii_uppercase())
                && !n.is_empty()
                && n.chars().all(|c| c.is_ascii_digit())
        }
        None => false,
    }
}

pub fn read_glossary(root: &Node, locales: &[String], diags: &mut Vec<Diagnostic>) -> Vec<Term> {
    let mut out = Vec::new();
    for (item, mut m, id) in items_with_id(root, "glossary.yaml", "glossary term", diags) {
        let what = format!("glossary term `{id}`");
        let mut forms = indexmap::IndexMap::new();
        for l in locales {
            match m.take(l) {
                Some(n) => {
                    if let Some(s) = read_str(n, &format!("the `{l}` form of {what}"), diags) {
                        forms.insert(l.clone(), s.to_owned());
                    }
                }
                None => diags.push(
                    Diagnostic::new(Code::MissingTranslation, format!("{what} has no `{l}` form"))
                        .at(item.span)
                        .label("translation missing")
                        .expected(format!("`{l}: …`, the word in that language")),
                ),
            }
        }
        let plural = m
            .take("plural")
            .and_then(|n| read_text(n, &format!("the plural of {what}"), locales, diags));
        let note = opt_stext(&mut m, "note", &what, locales, diags);
        let check = m
            .take("check")
            .and_then(|n| crate::pack::reader::read_bool(n, &format!("`check` of {what}"), diags))
            .unwrap_or(true);
        let mut known: Vec<&str> = vec!["id", "plural", "note", "check"];
        known.extend(locales.iter().map(String::as_str));
        m.finish(&known, diags);
        out.push(Term {
            id,
            forms: Text(forms),
            plural,
            note,
            check,
            span: item.span,
        });
    }
    out
}

pub fn read_facts(root: &Node, locales: &[String], diags: &mut Vec<Diagnostic>) -> Vec<Fact> {
    let mut out = Vec::new();
    for (item, mut m, id) in items_with_id(root, "facts.yaml", "fact", diags) {
        let what = format!("fact `{id}`");
        let value = m
            .require("value", "a number (or short text)", diags)
            .and_then(|n| match &n.value {
                Value::Int(i) => Some(serde_json::json!(i)),
                Value::Float(f) => Some(serde_json::json!(f)),
                Value::Str(s) => Some(serde_json::json!(s)),
                Value::Bool(b) => Some(serde_json::json!(b)),
                _ => {
                    diags.push(wrong_type(
                        n,
                        &format!("the value of {what}"),
                        "a number or a short text",
                    ));
                    None
                }
            });
        let label = req_stext(&mut m, "label", &what, locales, diags);
        let rule = m
            .take("rule")
            .and_then(|n| read_str(n, "a rule id", diags).map(str::to_owned));
        m.finish(&["id", "value", "label", "rule"], diags);
        if let (Some(value), Some(label)) = (value, label) {
            out.push(Fact {
                id,
                value,
                label,
                rule,
                span: item.span,
            });
        }
    }
    out
}

pub fn read_chapter(root: &Node, file: &str, locales: &[String], diags: &mut Vec<Diagnostic>) -> Option<Chapter> {
    let mut m = MapReader::new(root, format!("chapter file {file}"), diags)?;
    let id = m
        .require("id", "the chapter's id", diags)
        .and_then(|n| read_id(n, "the chapter id", diags))?;
    let what = format!("chapter `{id}`");
    let title = req_stext(&mut m, "title", &what, locales, diags)?;
    let text = opt_stext(&mut m, "text", &what, locales, diags);
    let sections = m
        .take("sections")
        .map(|n| read_sections(n, locales, 0, diags))
        .unwrap_or_default();
    m.finish(&["id", "title", "text", "sections"], diags);
    Some(Chapter {
        id,
        title,
        text,
        sections,
        span: root.span,
    })
}

const SECTION_KEYS: &[&str] = &[
    "id", "kind", "title", "text", "steps", "columns", "rows", "see", "sections",
];

fn read_sections(node: &Node, locales: &[String], depth: usize, diags: &mut Vec<Diagnostic>) -> Vec<Section> {
    let mut out = Vec::new();
    for item in read_seq(node, "`sections`", diags).unwrap_or_default() {
        let Some(mut m) = MapReader::new(item, "a section", diags) else {
            continue;
        };
        let Some(id) = m
            .require("id", "the section's id", diags)
            .and_then(|n| read_id(n, "a section id", diags))
        else {
            continue;
        };
        let what = format!("section `{id}`");
        let kind = match m
            .take("kind")
            .and_then(|n| read_str(n, "a section kind", diags).map(|s| (s, n)))
        {
            None => SectionKind::Section,
            Some(("section", _)) => SectionKind::Section,
            Some(("step", _)) => SectionKind::Step,
            Some(("example", _)) => SectionKind::Example,
            Some(("table", _)) => SectionKind::Table,
            Some((other, n)) => {
                diags.push(
                    Diagnostic::new(Code::InvalidValue, format!("{what} has an unknown kind `{other}`"))
                        .at(n.span)
                        .label("unknown kind")
                        .expected("one of `section`, `step`, `example`, `table`"),
                );
                SectionKind::Section
            }
        };
        let title = req_stext(&mut m, "title", &what, locales, diags);
        let text = opt_stext(&mut m, "text", &what, locales, diags);
        let steps = m
            .take("steps")
            .map(|n| stext_list(n, &format!("the steps of {what}"), locales, diags))
            .unwrap_or_default();
        let columns = m
            .take("columns")
            .map(|n| stext_list(n, &format!("the columns of {what}"), locales, diags))
            .unwrap_or_default();
        let mut rows = Vec::new();
        if let Some(rn) = m.take("rows") {
            for row in read_seq(rn, &format!("the rows of {what}"), diags).unwrap_or_default() {
                let cells: Vec<Cell> = read_seq(row, &format!("a row of {what}"), diags)
                    .unwrap_or_default()
                    .iter()
                    .filter_map(|c| match &c.value {
                        Value::Map(_) => stext(c, &format!("a cell of {what}"), locales, diags).map(Cell::Text),
                        Value::Str(s) => Some(Cell::Plain(s.clone())),
                        Value::Int(i) => Some(Cell::Plain(i.to_string())),
                        Value::Float(f) => Some(Cell::Plain(f.to_string())),
                        Value::Bool(b) => Some(Cell::Plain(b.to_string())),
                        _ => {
                            diags.push(wrong_type(
                                c,
                                &format!("a cell of {what}"),
                                "a text {es: …, en: …} or a value",
                            ));
                            None
                        }
                    })
                    .collect();
                if !columns.is_empty() && cells.len() != columns.len() {
                    diags.push(
                        Diagnostic::new(
                            Code::OutOfRange,
                            format!(
                                "a row of {what} has {} cells for {} columns",
                                cells.len(),
                                columns.len()
                            ),
                        )
                        .at(row.span)
                        .label(format!("{} cells", cells.len()))
                        .expected(format!("{} cells, one per column", columns.len())),
                    );
                }
                rows.push(cells);
            }
        }
        let see = m
            .take("see")
            .and_then(|n| read_seq(n, &format!("`see` of {what}"), diags))
            .unwrap_or_default()
            .iter()
            .filter_map(|n| read_str(n, "a section id", diags).map(|s| (s.to_owned(), n.span)))
            .collect();
        let sections = match m.take("sections") {
            Some(n) if depth < 3 => read_sections(n, locales, depth + 1, diags),
            Some(n) => {
                diags.push(
                    Diagnostic::new(Code::OutOfRange, format!("{what} nests sections too deeply"))
                        .at(n.span)
                        .label("fourth level")
                        .expected("at most three levels of sections in a chapter"),
                );
                Vec::new()
            }
            None => Vec::new(),
        };
        m.finish(SECTION_KEYS, diags);
        let Some(title) = title else { continue };
        out.push(Section {
            id,
            kind,
            title,
            text,
            steps,
            columns,
            rows,
            see,
            sections,
            span: item.span,
        });
    }
    out
}

pub fn read_quickref(root: &Node, locales: &[String], diags: &mut Vec<Diagnostic>) -> Option<QuickRef> {
    let mut m = MapReader::new(root, "quickref.yaml", diags)?;
    let mut q = QuickRef::default();
    if let Some(n) = m.take("turn") {
        q.turn = stext_list(n, "the turn sequence", locales, diags);
    }
    if let Some(n) = m.take("actions") {
        for item in read_seq(n, "`actions`", diags).unwrap_or_default() {
            let Some(mut a) = MapReader::new(item, "a quick-reference action", diags) else {
                continue;
            };
            let name = req_stext(&mut a, "name", "an action", locales, diags);
            let cost = opt_stext(&mut a, "cost", "an action", locales, diags);
            let effect = opt_stext(&mut a, "effect", "an action", locales, diags);
            let rule = a
                .take("rule")
                .and_then(|r| read_str(r, "a rule id", diags).map(str::to_owned));
            a.finish(&["name", "cost", "effect", "rule"], diags);
            if let Some(name) = name {
                q.actions.push(Action {
                    name,
                    cost,
                    effect,
                    rule,
                });
            }
        }
    }
    if let Some(n) = m.take("numbers") {
        q.numbers = read_seq(n, "`numbers`", diags)
            .unwrap_or_default()
            .iter()
            .filter_map(|n| read_str(n, "a fact id", diags).map(|s| (s.to_owned(), n.span)))
            .collect();
    }
    if let Some(n) = m.take("victory") {
        q.victory = stext_list(n, "the victory conditions", locales, diags);
    }
    if let Some(n) = m.take("notes") {
        q.notes = stext_list(n, "the notes", locales, diags);
    }
    m.finish(&["turn", "actions", "numbers", "victory", "notes"], diags);
    Some(q)
}

/// Checks across the reference: unique ids, `see` targets, quick-reference
/// numbers, declared rule ids each stated by exactly one section.
pub fn cross_check(r: &Reference, rule_ids: &[String], rule_ids_span: Option<Span>, diags: &mut Vec<Diagnostic>) {
    let mut seen: std::collections::HashMap<&str, Span> = std::collections::HashMap::new();
    for ch in &r.chapters {
        if let Some(first) = seen.insert(&ch.id, ch.span) {
            diags.push(duplicate(&ch.id, ch.span, first));
        }
    }
    for (_, s) in r.sections() {
        if let Some(first) = seen.insert(&s.id, s.span) {
            diags.push(duplicate(&s.id, s.span, first));
        }
    }
    let ids: Vec<&str> = seen.keys().copied().collect();
    for (_, s) in r.sections() {
        for (target, span) in &s.see {
            if !seen.contains_key(target.as_str()) {
                diags.push(
                    Diagnostic::new(
                        Code::UnknownReference,
                        format!("section `{}` refers to `{target}`, which is not a section", s.id),
                    )
                    .at(*span)
                    .label("no such section")
                    .expected("the id of a chapter or section of the rules")
                    .suggest(target, ids.iter().copied()),
                );
            }
        }
    }
    let mut term_ids = std::collections::HashMap::new();
    for t in &r.glossary {
        if let Some(first) = term_ids.insert(t.id.as_str(), t.span) {
            diags.push(duplicate(&t.id, t.span, first));
        }
    }
    let mut fact_ids = std::collections::HashMap::new();
    for f in &r.facts {
        if let Some(first) = fact_ids.insert(f.id.as_str(), f.span) {
            diags.push(duplicate(&f.id, f.span, first));
        }
    }
    if let Some(q) = &r.quickref {
        let facts: Vec<&str> = fact_ids.keys().copied().collect();
        for (id, span) in &q.numbers {
            if !fact_ids.contains_key(id.as_str()) {
                diags.push(
                    Diagnostic::new(
                        Code::UnknownReference,
                        format!("the quick reference lists `{id}`, which is not a fact"),
                    )
                    .at(*span)
                    .label("no such fact")
                    .expected("the id of a fact in facts.yaml")
                    .suggest(id, facts.iter().copied()),
                );
            }
        }
    }
    for rule in rule_ids {
        if !seen.contains_key(rule.as_str()) {
            let mut d = Diagnostic::new(
                Code::RuleNotCovered,
                format!("rule `{rule}` has no section in the rules reference"),
            )
            .label("declared here")
            .expected(format!(
                "a section with `id: {rule}` in data/<game>/rules/ stating the rule"
            ));
            if let Some(span) = rule_ids_span {
                d = d.at(span);
            }
            diags.push(d);
        }
    }
}

/// Whether `word` occurs in `text` as a whole word, ignoring case.
#[cfg(test)]
fn has_word(text: &str, word: &str) -> bool {
    has_lower_word(&text.to_lowercase(), &word.to_lowercase())
}

/// [`has_word`] on text and word already lowercased: one word at a time,
/// what [`Words`] does for every word at once (kept to test it against).
#[cfg(test)]
fn has_lower_word(text: &str, word: &str) -> bool {
    if word.is_empty() {
        return false;
    }
    let mut from = 0;
    while let Some(i) = text[from..].find(word) {
        let start = from + i;
        let end = start + word.len();
        let before = text[..start].chars().next_back().is_none_or(|c| !c.is_alphanumeric());
        let after = text[end..].chars().next().is_none_or(|c| !c.is_alphanumeric());
        if before && after {
            return true;
        }
        from = start + word.chars().next().map_or(1, char::len_utf8);
    }
    false
}

/// The text without its template parts (`{{ … }}`, `{% … %}`), which are the
/// same in every locale.
fn literal(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find(['{']) {
        let tail = &rest[i..];
        let close = if tail.starts_with("{{") {
            "}}"
        } else if tail.starts_with("{%") {
            "%}"
        } else {
            out.push_str(&rest[..=i]);
            rest = &rest[i + 1..];
            continue;
        };
        out.push_str(&rest[..i]);
        match tail.find(close) {
            Some(j) => rest = &tail[j + 2..],
            None => {
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// Glossary consistency: when a source text uses a term, each translation
/// should use the glossary's word for it. The checked terms' words in the
/// two locales, lowercased once for every text compared.
pub struct Words<'a> {
    /// The checked terms.
    terms: Vec<&'a Term>,
    /// Their words (singular, plural) in the source and the translation
    /// locale, lowercased, searched together.
    src: Search,
    dst: Search,
}

/// Every word of the checked terms at once (Aho-Corasick), with the term each belongs to.
struct Search {
    automaton: Option<aho_corasick::AhoCorasick>,
    term_of: Vec<usize>,
}

impl Search {
    fn new(words: impl Iterator<Item = (usize, String)>) -> Search {
        let (term_of, words): (Vec<usize>, Vec<String>) = words.filter(|(_, w)| !w.is_empty()).unzip();
        // A contiguous NFA builds in time linear in the words' total length;
        // the DFA `AhoCorasick::new` may pick for few words is quadratic in a
        // long word (a 32,000-letter glossary word: 62 s to build).
        let automaton = aho_corasick::AhoCorasick::builder()
            .kind(Some(aho_corasick::AhoCorasickKind::ContiguousNFA))
            .build(&words)
            .ok();
        Search { automaton, term_of }
    }

    /// Which terms `text` (lowercased) uses as whole words.
    fn used(&self, text: &str, terms: usize) -> Vec<bool> {
        let mut used = vec![false; terms];
        let Some(ac) = &self.automaton else { return used };
        for m in ac.find_overlapping_iter(text) {
            let term = self.term_of[m.pattern().as_usize()];
            if !used[term] && whole_word(text, m.start(), m.end()) {
                used[term] = true;
            }
        }
        used
    }
}

/// Whether `text[start..end]` stands alone: no letter or digit touches it.
fn whole_word(text: &str, start: usize, end: usize) -> bool {
    let before = text[..start].chars().next_back().is_none_or(|c| !c.is_alphanumeric());
    let after = text[end..].chars().next().is_none_or(|c| !c.is_alphanumeric());
    before && after
}

impl<'a> Words<'a> {
    pub fn new(glossary: &'a [Term], src: &str, dst: &str) -> Words<'a> {
        let terms: Vec<&Term> = glossary.iter().filter(|t| t.check).collect();
        let words = |l: &str| -> Vec<(usize, String)> {
            let mut out = Vec::new();
            for (i, t) in terms.iter().enumerate() {
                let word = t.forms.0.get(l).map(String::as_str).unwrap_or_default();
                let plural = t.plural.as_ref().and_then(|p| p.0.get(l)).map(String::as_str);
                out.extend(std::iter::once(word).chain(plural).map(|w| (i, w.to_lowercase())));
            }
            out
        };
        let (src, dst) = (Search::new(words(src).into_iter()), Search::new(words(dst).into_iter()));
        Words { terms, src, dst }
    }

    /// The terms `source` uses and `translation` misses.
    pub fn missing(&self, source: &str, translation: &str) -> Vec<&'a Term> {
        let n = self.terms.len();
        let uses = self.src.used(&literal(source).to_lowercase(), n);
        if !uses.contains(&true) {
            return Vec::new();
        }
        let has = self.dst.used(&literal(translation).to_lowercase(), n);
        (0..n).filter(|&i| uses[i] && !has[i]).map(|i| self.terms[i]).collect()
    }
}

fn duplicate(id: &str, span: Span, first: Span) -> Diagnostic {
    Diagnostic::new(Code::DuplicateId, format!("`{id}` is used twice as an id in the rules"))
        .at(span)
        .label("second use")
        .related(first, "first use")
        .expected("unique ids across glossary, facts, chapters and sections of each kind")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Words that overlap, share prefixes, carry accents or stand inside
    /// other words, and texts made of them: the automaton finds exactly the
    /// terms the word-by-word search finds.
    #[test]
    fn every_word_at_once_finds_what_one_word_at_a_time_finds() {
        let text = |pairs: &[(&str, &str)]| {
            crate::model::Text(pairs.iter().map(|(l, w)| (l.to_string(), w.to_string())).collect())
        };
        let words = [
            ("carta", "card"),
            ("cartas", "cards"),
            ("maná", "mana"),
            ("ataque a distancia", "ranged attack"),
            ("ataque", "attack"),
            ("a", "an"),
            ("", "empty"),
        ];
        let glossary: Vec<Term> = words
            .iter()
            .enumerate()
            .map(|(i, (es, en))| Term {
                id: format!("t{i}"),
                forms: text(&[("es", es), ("en", en)]),
                plural: (i == 0).then(|| text(&[("es", "cartas"), ("en", "cards")])),
                note: None,
                check: i != 5,
                span: Span::default(),
            })
            .collect();
        let w = Words::new(&glossary, "es", "en");
        let pieces = [
            "carta",
            "cartas",
            "descartas",
            "maná",
            "MANÁ",
            "ataque",
            "a",
            "distancia",
            "card",
            "mana",
            "cards",
            "ranged",
            "attack",
            " ",
            ", ",
            ".",
            "x",
            "é",
            "{{ carta }}",
        ];
        let mut rng = fastrand::Rng::with_seed(7);
        for _ in 0..3000 {
            let mut make = || {
                (0..rng.usize(0..8))
                    .map(|_| pieces[rng.usize(..pieces.len())])
                    .collect::<String>()
            };
            let (source, translation) = (make(), make());
            let naive: Vec<&str> = glossary
                .iter()
                .filter(|t| t.check)
                .filter(|t| {
                    let forms = |l: &str| -> Vec<String> {
                        std::iter::once(t.forms.get(l))
                            .chain(t.plural.as_ref().map(|p| p.get(l)))
                            .map(str::to_lowercase)
                            .collect()
                    };
                    let (src, dst) = (literal(&source).to_lowercase(), literal(&translation).to_lowercase());
                    forms("es").iter().any(|f| has_lower_word(&src, f))
                        && !forms("en").iter().any(|f| has_lower_word(&dst, f))
                })
                .map(|t| t.id.as_str())
                .collect();
            let fast: Vec<&str> = w.missing(&source, &translation).iter().map(|t| t.id.as_str()).collect();
            assert_eq!(fast, naive, "{source:?} / {translation:?}");
        }
    }

    #[test]
    fn whole_words_and_literal_text() {
        assert!(has_word("Roba una Carta.", "carta"));
        assert!(!has_word("descartas", "carta"));
        assert!(has_word("el maná sobrante", "maná"));
        assert_eq!(
            literal("a {{ term(id=\"x\") }} b {% if y %}c{% endif %} {d}"),
            "a  b c {d}"
        );
    }
}
