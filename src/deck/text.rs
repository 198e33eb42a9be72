//! The paste reader: deck lists as players paste them from deck sites,
//! spreadsheets, chats and Markdown. The list is read as a whole: its
//! [`layout`] (tables and which column is what, numbered items) is decided
//! from all its lines together, then each line is read in that layout as a
//! card, a header line (`hero: Medusa`), a section header (`Characters
//! (33)`, `Ataques (9)`), the list's title, a comment, or an error with its
//! line. Linear in the number of lines: each line is tried in a fixed
//! number of forms, each one hash lookup.

use super::forms::{
    count_forms, counted_name, inline_items, is_decorated, is_rule, item_number, leading_count, name_forms,
    parse_count, section_title, split_cells, split_header, strip_ci, strip_decoration, strip_markers, trailing_counts,
};
use super::layout::{Items, Layout, Table};
use super::names::{Found, Names, normalize};
use super::vocab::{Vocab, is_side};
use super::{Deck, HeaderKey, HeaderKeys, Problem};
use crate::diag::{FileId, Span};
use crate::model::construction::{Construction, HeaderType};
use crate::model::{Component, Game};

/// Most copies a single line may ask for (anything above is a typo).
pub const MAX_COUNT: u32 = 999;

/// Problems reported one by one; past this, one "… and N more".
pub const MAX_PROBLEMS: usize = 50;

/// Lines in the heading of a deck-site export (title, author, date) before
/// the first card or section, at most.
const HEADING_LINES: usize = 4;

/// One line with content: blank lines and comments are left out.
#[derive(Clone, Debug)]
pub struct Line<'t> {
    pub span: Span,
    /// The content, trimmed, a trailing comment dropped.
    pub text: &'t str,
    /// A Markdown heading (`## Title`) of a Markdown file: its text.
    pub heading: bool,
}

/// The lines of a list with content. In a Markdown file (`markdown`), `#`
/// lines are headings; elsewhere they are comments.
pub fn lines(text: &str, file: FileId, markdown: bool) -> Vec<Line<'_>> {
    let mut out = Vec::new();
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
        let heading = markdown && {
            let t = line.trim_start();
            let hashes = t.len() - t.trim_start_matches('#').len();
            (1..=6).contains(&hashes) && t[hashes..].starts_with(' ')
        };
        let content = if heading {
            line.trim_start().trim_start_matches('#')
        } else {
            // Drop a trailing comment, but not a `#` inside a name like "No. #5".
            match line
                .find(" #")
                .or_else(|| line.find("\t#"))
                .or_else(|| line.find(" //"))
            {
                Some(i) => &line[..i],
                None => line,
            }
        };
        let trimmed = content.trim();
        if trimmed.is_empty()
            || (!heading && (trimmed.starts_with('#') || trimmed.starts_with("//")))
            || is_rule(trimmed)
        {
            continue;
        }
        // `trimmed` lies inside `line`: its offset there gives the column.
        let at = trimmed.as_ptr() as usize - line.as_ptr() as usize;
        let from = start + skip + at;
        let column = line[..at].chars().count() as u32 + 1;
        out.push(Line {
            span: Span {
                file,
                line: line_no,
                column,
                start: from,
                end: from + trimmed.len(),
            },
            text: trimmed,
            heading,
        });
    }
    out
}

/// Reads a plain-text list in its most likely layout. Problems are
/// collected; the lines that could be read still make up the deck.
pub fn read(text: &str, file: FileId, game: &Game, c: &Construction, keys: &HeaderKeys) -> (Deck, Vec<Problem>) {
    let lines = lines(text, file, false);
    let names = Names::new(game, &c.kinds);
    let vocab = Vocab::new(game, c);
    let layout = super::layout::layouts(&lines, &names, keys, &vocab, false)
        .into_iter()
        .next()
        .map(|(l, _)| l)
        .unwrap_or_default();
    read_lines(&lines, &layout, game, c, keys, &names, &vocab)
}

/// Reads the lines of a list in one layout.
pub fn read_lines<'g>(
    lines: &[Line],
    layout: &Layout,
    game: &'g Game,
    c: &Construction,
    keys: &HeaderKeys,
    names: &Names<'g>,
    vocab: &Vocab,
) -> (Deck, Vec<Problem>) {
    let refs: Vec<(String, Names)> = c
        .header
        .iter()
        .filter_map(|(id, f)| match &f.ty {
            HeaderType::Ref { kind } => Some((id.clone(), Names::new(game, std::slice::from_ref(kind)))),
            HeaderType::Int => None,
        })
        .collect();
    let mut table_of = vec![None; lines.len()];
    for (t, table) in layout.tables.iter().enumerate() {
        for &i in &table.rows {
            table_of[i] = Some(t);
        }
    }
    let mut r = Reader {
        names,
        keys,
        vocab,
        layout,
        deck: Deck::default(),
        problems: Vec::new(),
        more: 0,
        side: false,
        about: false,
        top: true,
        heading: 0,
        refs: &refs,
        pending: None,
        columns: Vec::new(),
    };
    for (i, line) in lines.iter().enumerate() {
        match table_of[i] {
            Some(t) => r.table_row(line, &layout.tables[t], i),
            None => r.line(line),
        }
    }
    r.close_pending();
    r.finish_columns();
    if r.more > 0 {
        r.problems.push(Problem::More { count: r.more });
    }
    if r.deck.title.is_none()
        && let Some((name, _)) = r.deck.header.get("name")
    {
        r.deck.title = Some(name.clone());
    }
    // Problems in line order (a section title is judged after the lines under it).
    r.problems.sort_by_key(|p| p.line());
    let unread = r.problems.iter().any(|p| {
        matches!(
            p,
            Problem::Unknown { .. } | Problem::Unreadable { .. } | Problem::NoCount { .. }
        )
    });
    if r.deck.entries.is_empty() && r.deck.bare.is_empty() && !unread {
        r.problems.push(Problem::Empty);
    }
    (r.deck, r.problems)
}

/// A section title with a count that names no section word (`Ataques
/// fuertes (2)`): a section when the cards under it add up to its count,
/// else an unknown card.
struct Pending {
    title: String,
    count: u32,
    sum: u32,
    span: Span,
}

struct Reader<'a, 'g> {
    names: &'a Names<'g>,
    keys: &'a HeaderKeys,
    vocab: &'a Vocab,
    layout: &'a Layout,
    deck: Deck,
    problems: Vec<Problem>,
    /// Problems past [`MAX_PROBLEMS`].
    more: usize,
    /// In a sideboard section.
    side: bool,
    /// In an "About" section (MTG Arena: `Name <deck name>`).
    about: bool,
    /// Before the first card, table row or section: where a deck site puts
    /// the list's title and heading.
    top: bool,
    /// Heading lines read so far (title, author…).
    heading: usize,
    /// The header fields that name a component, with those components' names.
    refs: &'a [(String, Names<'g>)],
    pending: Option<Pending>,
    /// Values of table columns named after a header field (`Héroe`), by field.
    columns: Vec<(String, String, Span)>,
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

    fn vote(&mut self, locale: Option<&str>) {
        if let Some(l) = locale {
            *self.deck.votes.entry(l.to_string()).or_default() += 1;
        }
    }

    fn add(&mut self, comp: &'g Component, locale: Option<&str>, n: u32, span: Span) {
        if n == 0 || n > MAX_COUNT {
            self.problem(Problem::BadCount { span, count: n });
            return;
        }
        self.vote(locale);
        self.top = false;
        if let Some(p) = &mut self.pending {
            p.sum = p.sum.saturating_add(n);
        }
        self.deck.add_card(&comp.kind, &comp.id, n, span, self.side);
    }

    /// A card named without a count: one copy for now; the caller keeps it
    /// only where the game allows a single copy ([`super::reading`]).
    fn add_bare(&mut self, comp: &'g Component, locale: Option<&str>, span: Span, written: &str) {
        self.add(comp, locale, 1, span);
        if !self.side {
            self.deck.bare.push(super::Bare {
                kind: comp.kind.clone(),
                id: comp.id.clone(),
                span,
                written: written.trim().to_string(),
            });
        }
    }

    fn line(&mut self, line: &Line) {
        if line.heading {
            let text = strip_markers(line.text);
            let (words, _) = section_title(&text);
            if self.top && self.deck.title.is_none() && !self.vocab.is_section(&normalize(&words)) {
                self.deck.title = Some(text);
                self.heading += 1;
            } else {
                self.section(&text, line.span);
            }
            return;
        }
        let (text, side) = match strip_ci(line.text, "SB:") {
            Some(rest) => (rest.trim(), true),
            None => (line.text, false),
        };
        if side && !self.side {
            // `SB: 2 Name`: this line only is in the sideboard.
            self.side = true;
            self.plain(text, line.span);
            self.side = false;
        } else {
            self.plain(text, line.span);
        }
    }

    fn plain(&mut self, line: &str, span: Span) {
        let stripped = strip_markers(line);
        let body = match self.layout.items {
            Items::Numbered => item_number(&stripped, false).map_or(stripped.clone(), |(_, rest)| rest.to_string()),
            Items::NumberedPlain => item_number(&stripped, true).map_or(stripped.clone(), |(_, rest)| rest.to_string()),
            Items::Counts => stripped,
        };
        let body = body.as_str();
        // `1. 4x Name` alone in a list: the `1.` is a marker whatever the other lines do.
        if let Some((_, rest)) = item_number(body, false)
            && leading_count(rest).is_some()
            && self.card(rest, span)
        {
            return;
        }
        // Cards first: a count in any common form and a known name.
        if self.card(body, span) {
            return;
        }
        // A header line `key: value` (also a table row `key<TAB>value`).
        if let Some((key, value)) = split_header(body)
            && let Some(k) = self.keys.find(key)
            && !value.is_empty()
        {
            self.header(k, key, value, span);
            return;
        }
        // A whole line naming a card: no count.
        let bare = strip_decoration(body);
        let bare_key = normalize(&bare);
        match self.names.find_normalized(&bare_key) {
            Found::One(comp, locale) if !bare.is_empty() => {
                self.add_bare(comp, locale, span, &bare);
                return;
            }
            Found::Several(cs) if !bare.is_empty() => {
                self.problem(Problem::Ambiguous {
                    span,
                    name: bare,
                    ids: cs.iter().map(|c| (c.id.clone(), c.kind.clone())).collect(),
                });
                return;
            }
            _ => {}
        }
        // A line naming the component a header field refers to (`Medusa`
        // under a deck site's title): that header, when not given yet.
        if !bare.is_empty() {
            for (id, names) in self.refs {
                if let Found::One(comp, locale) = names.find_normalized(&bare_key)
                    && !self.deck.header.contains_key(id)
                {
                    self.vote(locale);
                    self.deck.header.insert(id.clone(), (comp.id.clone(), span));
                    return;
                }
            }
        }
        // A section header: known words, with or without a count.
        let (title, count) = section_title(body);
        if !title.is_empty() && self.vocab.is_section(&normalize(&title)) {
            self.section(&title, span);
            return;
        }
        // `Heroes: Odysseus, Achilles`: a section and its cards on one line.
        if let Some((key, value)) = split_header(body)
            && !value.is_empty()
            && self.inline_section(key, value, span)
        {
            return;
        }
        if self.about && strip_ci(body, "Name ").is_some() {
            self.deck.title = Some(body[5..].trim().to_string());
            return;
        }
        // `Key: value` with a key close to one the game knows (`herp: Medusa`).
        let unknown_key = split_header(body).filter(|(key, value)| {
            !value.is_empty()
                && !key.chars().any(|c| c.is_ascii_digit())
                && key.split_whitespace().count() <= 3
                && parse_count(value).is_none()
        });
        let key_hint = unknown_key.and_then(|(k, _)| if self.full() { None } else { self.keys.suggest(k) });
        if let (Some((key, _)), Some(hint)) = (unknown_key, &key_hint) {
            self.unknown_key(key, Some(hint.clone()), span);
            return;
        }
        let counted = counted_name(body);
        // Deck sites start an export with the list's name: the first line
        // (under an organiser's `player:` line) is the title unless it is a
        // card; a counted line only when it is close to no card (`Ronda 1`).
        let leading = leading_count(body).is_some();
        if self.top && self.deck.title.is_none() && self.deck.section.is_none() && !leading {
            let close = counted.as_deref().and_then(|n| self.suggest(n));
            if close.is_none() {
                self.deck.title = Some(strip_decoration(body).trim().to_string()).filter(|t| !t.is_empty());
                self.heading += 1;
                return;
            }
        }
        // `Ataques fuertes (2)`: a deck site's own section, if the count holds.
        if let Some(n) = count
            && !leading
            && !title.is_empty()
            && self.suggest(&title).is_none()
            && !self.full()
        {
            self.section(&title, span);
            self.pending = Some(Pending {
                title,
                count: n,
                sum: 0,
                span,
            });
            return;
        }
        if let Some((key, _)) = unknown_key {
            self.unknown_key(key, None, span);
            return;
        }
        // A count and a name that is no card.
        if let Some(name) = counted {
            let suggestion = self.suggest(&name);
            self.problem(Problem::Unknown { span, name, suggestion });
            return;
        }
        // A decorated title (`Extras:`, `[Extras]`, `== Extras ==`): a section.
        if is_decorated(line) && !title.is_empty() {
            self.section(&title, span);
            return;
        }
        let suggestion = self.suggest(&bare);
        // The rest of a deck site's heading (author, date): not part of the list.
        if self.top && suggestion.is_none() && self.heading > 0 && self.heading < HEADING_LINES {
            self.heading += 1;
            return;
        }
        self.problem(Problem::Unreadable {
            span,
            text: line.to_string(),
            suggestion,
        });
    }

    fn unknown_key(&mut self, key: &str, suggestion: Option<String>, span: Span) {
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
    }

    /// `Heroes: Odysseus, Achilles` or `Dios: Zeus`: a section title and the
    /// cards under it on one line, every item a card.
    fn inline_section(&mut self, key: &str, value: &str, span: Span) -> bool {
        let items = inline_items(value);
        let mut found: Vec<(Option<u32>, &'g Component, Option<&'g str>, &str)> = Vec::new();
        for item in &items {
            let counted = count_forms(item)
                .into_iter()
                .find_map(|(n, name)| match self.names.find(name) {
                    Found::One(c, l) => Some((Some(n), c, l, *item)),
                    _ => None,
                });
            match counted.or_else(|| match self.names.find(item) {
                Found::One(c, l) => Some((None, c, l, *item)),
                _ => None,
            }) {
                Some(x) => found.push(x),
                None => return false,
            }
        }
        if found.is_empty() {
            return false;
        }
        self.section(key, span);
        for (n, comp, locale, written) in found {
            match n {
                Some(n) => self.add(comp, locale, n, span),
                None => self.add_bare(comp, locale, span, written),
            }
        }
        true
    }

    fn section(&mut self, title: &str, span: Span) {
        self.close_pending();
        let _ = span;
        let key = normalize(title);
        self.side = is_side(title);
        self.about = key == "about" || key == "acerca";
        self.top = false;
        self.deck.section = Some(title.to_string());
    }

    /// Judges a pending section title: its cards add up to its count, or it
    /// was a card the game does not have.
    fn close_pending(&mut self) {
        if let Some(p) = self.pending.take()
            && p.sum != p.count
        {
            let name = p.title.clone();
            self.problem(Problem::Unknown {
                span: p.span,
                name: format!("{} ({})", name, p.count),
                suggestion: None,
            });
        }
    }

    fn header(&mut self, key: HeaderKey, written: &str, value: &str, span: Span) {
        if let Some(l) = &key.locale {
            *self.deck.votes.entry(l.clone()).or_default() += 1;
        }
        let value = value.trim().trim_matches(|c| c == '"' || c == '\'').trim().to_string();
        if let Some(found) = crate::terminal::control_in_name(&value) {
            self.problem(Problem::HeaderControl {
                span,
                key: written.to_string(),
                found,
            });
        }
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

    /// A row of a table whose columns the layout decided.
    fn table_row(&mut self, line: &Line, table: &Table, index: usize) {
        if table.headers.contains(&index) {
            self.top = false;
            return;
        }
        let body = strip_markers(line.text);
        let cells = split_cells(&body);
        let span = line.span;
        // A header line inside the table: `hero;Medusa`, `Jefe<TAB>El Guardián`.
        if let Some(first) = cells.first()
            && let Some(k) = self.keys.find(first)
            && let Some(value) = cells.iter().skip(1).find(|c| !c.is_empty())
        {
            self.header(k, first, value, span);
            return;
        }
        let cols = table.columns_at(index);
        for (col, field) in &cols.fields {
            if let Some(v) = cells.get(*col).filter(|v| !v.is_empty()) {
                self.columns.push((field.clone(), v.clone(), span));
            }
        }
        let count = match cols.count.and_then(|i| cells.get(i)).filter(|c| !c.is_empty()) {
            None => None,
            Some(c) => match parse_count(c) {
                Some(n) => Some(n),
                None => {
                    let suggestion = None;
                    return self.problem(Problem::Unreadable {
                        span,
                        text: line.text.to_string(),
                        suggestion,
                    });
                }
            },
        };
        // The name: the name column, else the cells that name a card.
        let names: Vec<&String> = match cols.name {
            Some(i) => cells.get(i).into_iter().filter(|c| !c.is_empty()).collect(),
            None => cells
                .iter()
                .enumerate()
                .filter(|(i, c)| Some(*i) != cols.count && !c.is_empty() && parse_count(c).is_none())
                .map(|(_, c)| c)
                .collect(),
        };
        for cell in &names {
            let found = name_forms(cell).into_iter().find_map(|f| match self.names.find(f) {
                Found::None => None,
                x => Some(x),
            });
            match found {
                Some(Found::One(comp, locale)) => {
                    return match count {
                        Some(n) => self.add(comp, locale, n, span),
                        None => self.add_bare(comp, locale, span, cell),
                    };
                }
                Some(Found::Several(cs)) => {
                    return self.problem(Problem::Ambiguous {
                        span,
                        name: cell.to_string(),
                        ids: cs.iter().map(|c| (c.id.clone(), c.kind.clone())).collect(),
                    });
                }
                _ => {}
            }
            // A cell may hold `3x Name` itself.
            if let Some((n, name)) = leading_count(cell)
                && let Found::One(comp, locale) = self.names.find(name)
            {
                return self.add(comp, locale, n, span);
            }
        }
        match names.first() {
            Some(_) if self.top && self.deck.title.is_none() && count.is_none() => {
                self.deck.title = Some(cells.join(" ").trim().to_string());
                self.heading += 1;
            }
            Some(name) => {
                let name = name.to_string();
                let suggestion = self.suggest(&name);
                self.problem(Problem::Unknown { span, name, suggestion });
            }
            None => self.problem(Problem::Unreadable {
                span,
                text: line.text.to_string(),
                suggestion: None,
            }),
        }
    }

    /// Columns named after a header field (`Héroe`, `Faction`): their value
    /// is the header's when every row agrees and the list gives none.
    fn finish_columns(&mut self) {
        let mut fields: Vec<&str> = self.columns.iter().map(|(f, _, _)| f.as_str()).collect();
        fields.dedup();
        let mut set = Vec::new();
        for f in fields {
            let values: Vec<&(String, String, Span)> = self.columns.iter().filter(|(x, _, _)| x == f).collect();
            let first = normalize(&values[0].1);
            if !self.deck.header.contains_key(f) && values.iter().all(|(_, v, _)| normalize(v) == first) {
                set.push((f.to_string(), values[0].1.clone(), values[0].2));
            }
        }
        for (f, v, s) in set {
            self.deck.header.insert(f, (v, s));
        }
    }

    /// Tries every form of a card line; true when one names a card.
    fn card(&mut self, body: &str, span: Span) -> bool {
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
        // A row of cells outside a table: `3;Name`, `"Name, the Brave",3`.
        let cells = if body.contains(['\t', ';', ',']) {
            split_cells(body)
        } else {
            Vec::new()
        };
        if cells.len() > 1 {
            for (i, cell) in cells.iter().enumerate() {
                let Some(count) = parse_count(cell) else { continue };
                for (j, other) in cells.iter().enumerate() {
                    if i != j && parse_count(other).is_none() && self.try_name(other, count, span) {
                        return true;
                    }
                }
            }
            for cell in &cells {
                if let Some(lead) = leading_count(cell)
                    && self.try_name(lead.1, lead.0, span)
                {
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
