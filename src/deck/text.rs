//! The paste reader: deck lists as players paste them from deck sites,
//! spreadsheets, chats and Markdown. Every line is either a card (a count
//! and a name in one of the common forms), a header line (`hero: Medusa`,
//! `modo: duelo`), a section header (`Characters (33)`, `Deck`, `Sideboard`),
//! a comment, or an error with its line. Linear in the number of lines: each
//! line is tried in a fixed number of forms, each one hash lookup.

use std::collections::HashSet;

use super::names::{Found, Names, normalize};
use super::{Deck, HeaderKey, HeaderKeys, Problem};
use crate::diag::{FileId, Span};
use crate::model::construction::{Construction, HeaderType};
use crate::model::{Component, Game};

/// Most copies a single line may ask for (anything above is a typo).
pub const MAX_COUNT: u32 = 999;

/// Problems reported one by one; past this, one "… and N more".
pub const MAX_PROBLEMS: usize = 50;

/// Words that head a column of counts or of names in a pasted table.
const QTY_COLUMNS: &[&str] = &[
    "qty", "quantity", "count", "copies", "amount", "number", "n", "x", "cantidad", "cant", "copias", "numero",
    "unidades", "total",
];
const NAME_COLUMNS: &[&str] = &[
    "name",
    "card",
    "card name",
    "cards",
    "unit",
    "units",
    "nombre",
    "carta",
    "cartas",
    "unidad",
    "ficha",
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
const SIDE_WORDS: &[&str] = &["sideboard", "side", "maybeboard", "considering", "banquillo"];

/// Reads a plain-text list. Problems are collected; the lines that could be
/// read still make up the deck.
pub fn read(text: &str, file: FileId, game: &Game, c: &Construction, keys: &HeaderKeys) -> (Deck, Vec<Problem>) {
    let names = Names::new(game, &c.kinds);
    let sections = section_words(game, c);
    let refs: Vec<(String, Names)> = c
        .header
        .iter()
        .filter_map(|(id, f)| match &f.ty {
            HeaderType::Ref { kind } => Some((id.clone(), Names::new(game, std::slice::from_ref(kind)))),
            HeaderType::Int => None,
        })
        .collect();
    let mut r = Reader {
        names: &names,
        keys,
        sections: &sections,
        deck: Deck::default(),
        problems: Vec::new(),
        more: 0,
        columns: None,
        side: false,
        about: false,
        first: true,
        refs: &refs,
    };
    let mut offset = 0;
    let mut line_no = 0u32;
    for raw in text.split_inclusive('\n') {
        let start = offset;
        offset += raw.len();
        line_no += 1;
        let mut line = raw.trim_end_matches(['\n', '\r']);
        let mut skip = 0;
        if line_no == 1
            && let Some(rest) = line.strip_prefix('\u{feff}')
        {
            skip = '\u{feff}'.len_utf8();
            line = rest;
        }
        // Drop a trailing comment, but not a `#` inside a name like "No. #5".
        let content = match line
            .find(" #")
            .or_else(|| line.find("\t#"))
            .or_else(|| line.find(" //"))
        {
            Some(i) => &line[..i],
            None => line,
        };
        let trimmed = content.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with("//") || is_rule(trimmed) {
            continue;
        }
        let lead = content.len() - content.trim_start().len();
        let from = start + skip + lead;
        let column = line[..lead].chars().count() as u32 + 1;
        let span = Span {
            file,
            line: line_no,
            column,
            start: from,
            end: from + trimmed.len(),
        };
        r.line(trimmed, span);
    }
    if r.more > 0 {
        r.problems.push(Problem::More { count: r.more });
    }
    let unread = r.problems.iter().any(|p| {
        matches!(
            p,
            Problem::Unknown { .. } | Problem::Unreadable { .. } | Problem::NoCount { .. }
        )
    });
    if r.deck.entries.is_empty() && !unread {
        r.problems.push(Problem::Empty);
    }
    (r.deck, r.problems)
}

struct Reader<'a, 'g> {
    names: &'a Names<'g>,
    keys: &'a HeaderKeys,
    sections: &'a HashSet<String>,
    deck: Deck,
    problems: Vec<Problem>,
    /// Problems past [`MAX_PROBLEMS`].
    more: usize,
    /// (count column, name column) from a table's header row.
    columns: Option<(usize, usize)>,
    /// In a sideboard section.
    side: bool,
    /// In an "About" section (MTG Arena: `Name <deck name>`).
    about: bool,
    /// Reading the first line that is not blank or a comment.
    first: bool,
    /// The header fields that name a component, with those components' names.
    refs: &'a [(String, Names<'g>)],
}

impl<'g> Reader<'_, 'g> {
    /// Whether problems are only counted from now on (no suggestions computed).
    fn full(&self) -> bool {
        self.problems.len() >= MAX_PROBLEMS
    }

    /// "Did you mean" for the problems still reported one by one.
    fn suggest(&self, written: &str) -> Option<String> {
        if self.full() {
            None
        } else {
            self.names.suggest(written).map(str::to_string)
        }
    }

    fn problem(&mut self, p: Problem) {
        if self.problems.len() < MAX_PROBLEMS {
            self.problems.push(p);
        } else {
            self.more += 1;
        }
    }

    fn add(&mut self, comp: &'g Component, locale: Option<&str>, n: u32, span: Span) {
        if n == 0 || n > MAX_COUNT {
            self.problem(Problem::BadCount { span, count: n });
            return;
        }
        if let Some(l) = locale {
            *self.deck.votes.entry(l.to_string()).or_default() += 1;
        }
        self.deck.add_card(&comp.kind, &comp.id, n, span, self.side);
    }

    fn line(&mut self, line: &str, span: Span) {
        let first = self.first;
        self.line_kind(line, span);
        if first {
            self.first = false;
        }
    }

    fn line_kind(&mut self, line: &str, span: Span) {
        let (line, side) = match strip_ci(line, "SB:") {
            Some(rest) => (rest.trim(), true),
            None => (line, false),
        };
        let side = side || self.side;
        let body = strip_markers(line);
        // Cards first: a count in any common form and a known name.
        let saved = self.side;
        self.side = side;
        let found = self.card(&body, span);
        self.side = saved;
        if found {
            return;
        }
        // A header line `key: value` (also a table row `key<TAB>value`).
        if let Some((key, value)) = split_header(&body)
            && let Some(k) = self.keys.find(key)
            && !value.is_empty()
        {
            self.header(k, key, value, span);
            return;
        }
        // A whole line naming a card: no count.
        let bare = strip_decoration(&body);
        let bare_key = normalize(&bare);
        if !bare.is_empty() && !matches!(self.names.find_normalized(&bare_key), Found::None) {
            self.problem(Problem::NoCount { span, written: bare });
            return;
        }
        // A line naming the component a header field refers to (`Medusa`
        // under a deck site's title): that header, when not given yet.
        if !bare.is_empty() {
            for (id, names) in self.refs {
                if let Found::One(comp, locale) = names.find_normalized(&bare_key)
                    && !self.deck.header.contains_key(id)
                {
                    if let Some(l) = locale {
                        *self.deck.votes.entry(l.to_string()).or_default() += 1;
                    }
                    self.deck.header.insert(id.clone(), (comp.id.clone(), span));
                    self.first = false;
                    return;
                }
            }
        }
        // A section header: known words, with or without a count.
        let title = section_title(&body);
        let title_key = if title == bare { bare_key } else { normalize(&title) };
        if !title.is_empty() && is_section(&title_key, self.sections) {
            self.section(&title);
            return;
        }
        if self.about && strip_ci(&body, "Name ").is_some() {
            self.deck.title = Some(body[5..].trim().to_string());
            return;
        }
        // `Key: value` with a key the game does not know.
        if let Some((key, value)) = split_header(&body)
            && !value.is_empty()
            && !key.chars().any(|c| c.is_ascii_digit())
            && key.split_whitespace().count() <= 3
            && parse_count(value).is_none()
        {
            let suggestion = if self.full() { None } else { self.keys.suggest(key) };
            // A misspelt key still says which language the list is in.
            if let Some(l) = suggestion
                .as_deref()
                .and_then(|k| self.keys.find(k))
                .and_then(|k| k.locale)
            {
                *self.deck.votes.entry(l).or_default() += 1;
            }
            self.problem(Problem::UnknownKey {
                span,
                key: key.to_string(),
                suggestion,
            });
            return;
        }
        // A count and a name that is no card.
        if let Some(name) = counted_name(&body) {
            let suggestion = self.suggest(&name);
            self.problem(Problem::Unknown { span, name, suggestion });
            return;
        }
        // A decorated title (`Extras:`, `[Extras]`, `== Extras ==`): a section.
        if is_decorated(line) && !title.is_empty() {
            self.section(&title);
            return;
        }
        let suggestion = self.suggest(&bare);
        // Deck sites start an export with the list's name: the first line,
        // when it is not close to any card, is the title.
        if self.first && suggestion.is_none() && self.deck.title.is_none() && counted_name(&body).is_none() {
            self.deck.title = Some(bare);
            self.first = false;
            return;
        }
        self.problem(Problem::Unreadable {
            span,
            text: line.to_string(),
            suggestion,
        });
    }

    fn section(&mut self, title: &str) {
        let key = normalize(title);
        self.side = SIDE_WORDS.iter().any(|w| key.starts_with(w));
        self.about = key == "about" || key == "acerca";
        self.columns = None;
        self.deck.section = Some(title.to_string());
    }

    fn header(&mut self, key: HeaderKey, written: &str, value: &str, span: Span) {
        if let Some(l) = &key.locale {
            *self.deck.votes.entry(l.clone()).or_default() += 1;
        }
        let value = value.trim().trim_matches(|c| c == '"' || c == '\'').trim().to_string();
        match self.deck.header.get(&key.id) {
            Some((old, first)) if normalize(old) != normalize(&value) => {
                let first = *first;
                self.problem(Problem::HeaderTwice {
                    span,
                    key: written.to_string(),
                    first,
                });
            }
            Some(_) => {}
            None => {
                self.deck.header.insert(key.id, (value, span));
            }
        }
    }

    /// Tries every form of a card line; true when one names a card.
    fn card(&mut self, body: &str, span: Span) -> bool {
        // A table row: cells split by tabs, semicolons or commas.
        let cells = if body.contains(['\t', ';', ',']) {
            split_cells(body)
        } else {
            Vec::new()
        };
        if cells.len() > 1 {
            let norm: Vec<String> = cells.iter().map(|c| normalize(c)).collect();
            let qty = norm.iter().position(|c| QTY_COLUMNS.contains(&c.as_str()));
            let name = norm.iter().position(|c| NAME_COLUMNS.contains(&c.as_str()));
            if let (Some(q), Some(n)) = (qty, name) {
                self.columns = Some((q, n));
                return true;
            }
            if let Some((q, n)) = self.columns
                && let (Some(qc), Some(nc)) = (cells.get(q), cells.get(n))
                && let Some(count) = parse_count(qc)
                && self.try_name(nc, count, span)
            {
                return true;
            }
            for (i, cell) in cells.iter().enumerate() {
                let Some(count) = parse_count(cell) else { continue };
                for (j, other) in cells.iter().enumerate() {
                    if i != j && parse_count(other).is_none() && self.try_name(other, count, span) {
                        return true;
                    }
                }
            }
            // A cell may hold `3x Name` itself.
            for cell in &cells {
                if let Some(lead) = leading_count(cell)
                    && self.try_name(lead.1, lead.0, span)
                {
                    return true;
                }
            }
        }
        for (n, name) in count_forms(body) {
            if self.try_name(name, n, span) {
                return true;
            }
        }
        // A set code or tag after the count: `Name x3 (SET)`, `Name (3) #tag`.
        for stripped in name_forms(body).into_iter().skip(1) {
            for (n, name) in trailing_counts(stripped) {
                if self.try_name(name, n, span) {
                    return true;
                }
            }
        }
        false
    }

    /// Resolves a name (with set codes and tags stripped if need be).
    fn try_name(&mut self, name: &str, n: u32, span: Span) -> bool {
        for candidate in name_forms(name) {
            match self.names.find(candidate) {
                Found::One(comp, locale) => {
                    self.add(comp, locale, n, span);
                    return true;
                }
                Found::Several(cs) => {
                    self.problem(Problem::Ambiguous {
                        span,
                        name: candidate.to_string(),
                        ids: cs.iter().map(|c| (c.id.clone(), c.kind.clone())).collect(),
                    });
                    return true;
                }
                Found::None => {}
            }
        }
        false
    }
}

/// A horizontal rule (`---`, `===`, `***`).
/// A horizontal rule or a Markdown table's separator row (`|---|:--:|`).
fn is_rule(s: &str) -> bool {
    s.len() >= 3
        && s.contains(['-', '=', '*', '_', '~'])
        && s.chars()
            .all(|c| matches!(c, '-' | '=' | '*' | '_' | '~' | ' ' | '|' | ':' | '+'))
}

fn strip_ci<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    let head = s.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix).then(|| &s[prefix.len()..])
}

/// Drops list markers (`- `, `* `, `+ `, `• `, `[ ] `), Markdown emphasis
/// and links (`[Name](url)` → `Name`), and table pipes.
fn strip_markers(line: &str) -> String {
    let mut s = line.trim();
    // An ordered list's number before a counted line: `1. 3x Name`.
    let num = s.len() - s.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if num > 0
        && let Some(rest) = s[num..].strip_prefix(['.', ')'])
        && rest.starts_with(' ')
        && leading_count(rest).is_some()
    {
        s = rest.trim_start();
    }
    loop {
        let before = s;
        for m in ["- ", "* ", "+ ", "• ", "· ", "– ", "— ", "[ ] ", "[x] ", "[X] "] {
            if let Some(rest) = s.strip_prefix(m) {
                s = rest.trim_start();
            }
        }
        if s == before {
            break;
        }
    }
    let mut out = String::with_capacity(s.len());
    // Markdown links: keep the text.
    let mut rest = s;
    while let Some(open) = rest.find('[') {
        let after = &rest[open + 1..];
        match after.find("](") {
            Some(close) if !after[..close].contains('[') => {
                let tail = &after[close + 2..];
                match tail.find(')') {
                    Some(end) => {
                        out.push_str(&rest[..open]);
                        out.push_str(&after[..close]);
                        rest = &tail[end + 1..];
                    }
                    None => break,
                }
            }
            _ => break,
        }
    }
    out.push_str(rest);
    let mut t = out.trim().to_string();
    for m in ["**", "__"] {
        if t.starts_with(m) && t.ends_with(m) && t.len() > 2 * m.len() {
            t = t[m.len()..t.len() - m.len()].trim().to_string();
        }
    }
    if t.starts_with('|') || t.ends_with('|') {
        t = t.trim_matches('|').replace('|', "\t").trim().to_string();
    }
    t
}

/// `key: value`, `key = value`, `key<TAB>value` or `key;value` (a table row).
fn split_header(s: &str) -> Option<(&str, &str)> {
    for sep in [':', '=', '\t', ';', ','] {
        if let Some((k, v)) = s.split_once(sep) {
            let k = k.trim();
            if !k.is_empty() && !k.contains(['\t', ';', ':']) {
                let v = v.trim().trim_end_matches([';', ',', '\t']).trim();
                return Some((k, v));
            }
        }
    }
    None
}

/// A line without its decoration: `Name:`, `[Name]`, `== Name ==`, `**Name**`.
fn strip_decoration(s: &str) -> String {
    s.trim_matches(|c: char| matches!(c, '=' | '[' | ']' | '*' | ':' | '_' | '<' | '>' | '~') || c.is_whitespace())
        .to_string()
}

fn is_decorated(s: &str) -> bool {
    let s = s.trim();
    s.ends_with(':')
        || (s.starts_with('[') && s.ends_with(']'))
        || (s.starts_with('=') && s.ends_with('='))
        || (s.starts_with("**") && s.ends_with("**"))
        || (s.starts_with("__") && s.ends_with("__"))
}

/// A section header's title: decoration and a count dropped
/// (`Characters (33)`, `God: 1`, `Zonas - 4`).
fn section_title(s: &str) -> String {
    let mut t = strip_decoration(s);
    if let Some((_, name)) = trailing_counts(&t).first() {
        t = name.to_string();
    }
    strip_decoration(&t)
}

/// Whether a (normalized) title is made of section words: `heroes and monsters`.
/// `words` holds every section word in singular and plural forms.
fn is_section(title: &str, words: &HashSet<String>) -> bool {
    if title.is_empty() {
        return false;
    }
    let known = |w: &str| words.contains(w);
    if known(title) {
        return true;
    }
    let parts: Vec<&str> = title
        .split(' ')
        .filter(|w| {
            !matches!(
                *w,
                "and" | "y" | "e" | "or" | "o" | "the" | "el" | "la" | "los" | "las" | "de"
            )
        })
        .collect();
    !parts.is_empty() && parts.len() <= 6 && parts.iter().all(|w| known(w))
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

/// The words of section titles for this game: its kinds' ids and names,
/// values the rules filter on, rule labels, and the common words.
fn section_words(game: &Game, c: &Construction) -> HashSet<String> {
    let mut out: Vec<String> = SECTION_WORDS.iter().map(|s| s.to_string()).collect();
    let mut add = |s: &str| {
        let n = normalize(s);
        if !n.is_empty() {
            out.push(n.clone());
            for w in n.split(' ') {
                if w.len() >= 3 && !matches!(w, "the" | "and" | "del" | "las" | "los") {
                    out.push(w.to_string());
                }
            }
        }
    };
    for k in &c.kinds {
        add(k);
        if let Some(kind) = game.kinds.get(k) {
            for n in kind.name.0.values() {
                add(n);
            }
        }
    }
    let mut rules: Vec<&crate::model::construction::DeckRule> = c.rules.iter().collect();
    rules.extend(c.rules.iter().flat_map(|r| r.parts.iter()));
    for r in rules {
        for l in r.label.0.values() {
            add(l);
        }
        for values in r.filter.fields.values() {
            for v in values {
                if v.parse::<f64>().is_err() && v != "true" && v != "false" {
                    add(v);
                }
            }
        }
    }
    with_forms(out)
}

/// A count as players write it: `3`, `3x`, `x3`, `×3`, `(3)`.
fn parse_count(s: &str) -> Option<u32> {
    let t = s
        .trim()
        .trim_matches(|c| c == '(' || c == ')' || c == '[' || c == ']')
        .trim();
    let t = t
        .strip_prefix(['x', 'X', '×'])
        .or_else(|| t.strip_suffix(['x', 'X', '×']))
        .unwrap_or(t)
        .trim();
    if t.is_empty() || t.len() > 9 || !t.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    t.parse().ok()
}

/// `3 Name`, `3x Name`, `3 x Name`, `3× Name`, `3xName`, `x3 Name`.
pub(crate) fn leading_count(s: &str) -> Option<(u32, &str)> {
    let s = s.trim();
    let (digits_from, x_first) = match s.strip_prefix(['x', 'X', '×']) {
        Some(rest) if rest.starts_with(|c: char| c.is_ascii_digit()) => (s.len() - rest.len(), true),
        _ => (0, false),
    };
    let body = &s[digits_from..];
    let digits = body.len() - body.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 || digits > 9 {
        return None;
    }
    let n: u32 = body[..digits].parse().ok()?;
    let mut rest = &body[digits..];
    if !x_first {
        let t = rest.trim_start();
        if let Some(after) = t.strip_prefix(['x', 'X', '×', '*'])
            && (after.starts_with(char::is_whitespace) || rest.starts_with(['x', 'X', '×']))
        {
            rest = after;
        } else if !rest.starts_with(char::is_whitespace) && !rest.starts_with(['.', ')']) {
            return None;
        }
    } else if !rest.starts_with(char::is_whitespace) {
        return None;
    }
    let rest = rest.trim_start_matches(['.', ')']).trim();
    (!rest.is_empty()).then_some((n, rest))
}

/// `Name x3`, `Name x 3`, `Name ×3`, `Name (3)`, `Name (x3)`, `Name [3]`,
/// `Name: 3`, `Name = 3`, `Name - 3`, `Name, 3`, `Name<TAB>3`, `Name 3`.
fn trailing_counts(s: &str) -> Vec<(u32, &str)> {
    let s = s.trim();
    let mut out = Vec::new();
    let digits_end = s.trim_end_matches([')', ']']).trim_end();
    let body_end = digits_end.trim_end_matches(['x', 'X', '×']);
    let digits = body_end.len() - body_end.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 || digits > 9 {
        return out;
    }
    let Ok(n) = body_end[body_end.len() - digits..].parse::<u32>() else {
        return out;
    };
    let mut head = body_end[..body_end.len() - digits].trim_end();
    head = head.strip_suffix(['x', 'X', '×']).map_or(head, str::trim_end);
    let closed = s.len() != digits_end.len();
    if closed {
        match head.strip_suffix(['(', '[']) {
            Some(h) => head = h.trim_end(),
            None => return out,
        }
    }
    let head = head.trim_end_matches([':', '=', ',', ';', '\t']).trim_end();
    let head = head
        .strip_suffix(" -")
        .or_else(|| head.strip_suffix(" –"))
        .unwrap_or(head)
        .trim_end();
    if !head.is_empty() {
        out.push((n, head));
    }
    out
}

/// Every (count, name) reading of a line, most common first.
fn count_forms(s: &str) -> Vec<(u32, &str)> {
    let mut out = Vec::new();
    if let Some(x) = leading_count(s) {
        out.push(x);
    }
    out.extend(trailing_counts(s));
    out
}

/// The name of a line that has a count, for "no card is called …".
fn counted_name(s: &str) -> Option<String> {
    let cells = if s.contains(['\t', ';', ',']) {
        split_cells(s)
    } else {
        Vec::new()
    };
    if cells.len() > 1
        && cells.iter().any(|c| parse_count(c).is_some())
        && let Some(name) = cells.iter().find(|c| parse_count(c).is_none() && !c.trim().is_empty())
    {
        return Some(name.trim().to_string());
    }
    count_forms(s)
        .first()
        .map(|(_, name)| name_forms(name).last().copied().unwrap_or(name).to_string())
}

/// A name as written, then without trailing set codes, collector numbers,
/// foil marks and tags: `Name (SET) 12`, `Name [SET]`, `Name *F*`, `Name #tag`.
fn name_forms(name: &str) -> Vec<&str> {
    let mut out = vec![name.trim()];
    let mut s = name.trim();
    for _ in 0..4 {
        let before = s;
        // A collector number after a set code.
        if let Some((head, tail)) = s.rsplit_once(' ')
            && !tail.is_empty()
            && tail.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
            && tail.chars().any(|c| c.is_ascii_digit())
            && head.trim_end().ends_with([')', ']'])
        {
            s = head.trim_end();
        }
        if s.ends_with('*')
            && let Some(i) = s[..s.len() - 1].rfind(" *")
        {
            s = s[..i].trim_end();
        }
        for (open, close) in [('(', ')'), ('[', ']'), ('{', '}')] {
            if s.ends_with(close)
                && let Some(i) = s.rfind(open)
                && i > 0
            {
                s = s[..i].trim_end();
            }
        }
        if let Some(i) = s.rfind(" #") {
            s = s[..i].trim_end();
        }
        if s == before {
            break;
        }
        if !s.is_empty() {
            out.push(s);
        }
    }
    out
}

/// Splits a table row on tabs, else semicolons, else commas (with quotes).
fn split_cells(s: &str) -> Vec<String> {
    let sep = if s.contains('\t') {
        '\t'
    } else if s.contains(';') {
        ';'
    } else if s.contains(',') {
        ','
    } else {
        return vec![s.to_string()];
    };
    let mut cells = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut chars = s.chars().peekable();
    while let Some(ch) = chars.next() {
        match ch {
            '"' if quoted && chars.peek() == Some(&'"') => {
                cur.push('"');
                chars.next();
            }
            '"' => quoted = !quoted,
            c if c == sep && !quoted => cells.push(std::mem::take(&mut cur).trim().to_string()),
            c => cur.push(c),
        }
    }
    cells.push(cur.trim().to_string());
    while cells.last().is_some_and(String::is_empty) {
        cells.pop();
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn count_forms_read_every_style() {
        let cases = [
            ("3 Name", Some((3, "Name"))),
            ("3x Name", Some((3, "Name"))),
            ("3 x Name", Some((3, "Name"))),
            ("3× Name", Some((3, "Name"))),
            ("x3 Name", Some((3, "Name"))),
            ("3xName", Some((3, "Name"))),
            ("1. Name", Some((1, "Name"))),
            ("Name", None),
            ("3", None),
        ];
        for (s, want) in cases {
            assert_eq!(leading_count(s), want, "{s}");
        }
        let trailing = [
            ("Name x3", (3, "Name")),
            ("Name x 3", (3, "Name")),
            ("Name ×3", (3, "Name")),
            ("Name (3)", (3, "Name")),
            ("Name (x3)", (3, "Name")),
            ("Name [3]", (3, "Name")),
            ("Name: 3", (3, "Name")),
            ("Name - 3", (3, "Name")),
            ("Name\t3", (3, "Name")),
            ("Name 3", (3, "Name")),
            ("Characters (33)", (33, "Characters")),
        ];
        for (s, want) in trailing {
            assert_eq!(trailing_counts(s).first().copied(), Some(want), "{s}");
        }
        assert!(trailing_counts("Name").is_empty());
    }

    #[test]
    fn names_lose_set_codes_and_tags() {
        assert!(name_forms("Lightning Bolt (M11) 146").contains(&"Lightning Bolt"));
        assert!(name_forms("Sol Ring (C21) 263 *F*").contains(&"Sol Ring"));
        assert!(name_forms("Machete [Core]").contains(&"Machete"));
        assert!(name_forms("Machete #removal").contains(&"Machete"));
    }

    #[test]
    fn markers_and_links_go() {
        assert_eq!(
            strip_markers("- [ ] 2x [Machete](https://x.test/1) (Core)"),
            "2x Machete (Core)"
        );
        assert_eq!(strip_markers("**Equipo (14)**"), "Equipo (14)");
        assert_eq!(strip_markers("| 3 | Name |"), "3 \t Name");
    }

    #[test]
    fn cells_split_with_quotes() {
        assert_eq!(split_cells("\"Name, the Brave\",3"), vec!["Name, the Brave", "3"]);
        assert_eq!(split_cells("3;Name;"), vec!["3", "Name"]);
    }

    #[test]
    fn plural_words() {
        let words = with_forms(vec!["zone".into(), "dioses".into(), "hero".into()]);
        for w in ["zone", "zones", "dioses", "dios", "hero", "heroes"] {
            assert!(words.contains(w), "{w}");
        }
        assert!(!words.contains("zon"));
        assert!(is_section("heroes y dioses", &words));
        assert!(!is_section("heroes y villanos", &words));
    }
}
