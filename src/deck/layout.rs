//! The layout of a list, decided from all its lines together before any
//! line is read: which lines are the rows of a table and which column holds
//! what (named by a header row, or — without one — the columns of numbers
//! that could be the counts), and whether numbers at the start of lines
//! are item numbers (`1.`, `2.`, `3.` … running in order) or counts. Where
//! the lines allow more than one layout, each is returned, most likely
//! first, with the choices it made; [`super::reading`] reads the list in
//! each and keeps the one whose list makes sense.

use super::HeaderKeys;
use super::forms::{cell_separator, item_number, parse_count, split_cells, strip_markers};
use super::names::{Found, Names};
use super::text::Line;
use super::vocab::{ColumnWord, Vocab};

/// What numbers at the start of lines are.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Items {
    /// Counts (`1. Name` is one copy).
    #[default]
    Counts,
    /// `1.`, `2)` … running in order: item numbers.
    Numbered,
    /// `1 `, `2 ` … running in order read as item numbers too.
    NumberedPlain,
}

/// What the columns of a table hold, from a header row or the values.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Columns {
    /// The column of copies, if any: without one, each row is one card named once.
    pub count: Option<usize>,
    /// The column of names, if a header names it.
    pub name: Option<usize>,
    /// Columns named after a header field (`Héroe`, `Faction`), by field id.
    pub fields: Vec<(usize, String)>,
}

/// The rows of a table (lines split into cells by one separator).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Table {
    /// Indexes of its lines, header rows included.
    pub rows: Vec<usize>,
    /// Header rows (they name the columns of the rows below them).
    pub headers: Vec<usize>,
    /// The columns from each row on: (first row index, columns).
    segments: Vec<(usize, Columns)>,
}

impl Table {
    /// The columns in force at a row.
    pub fn columns_at(&self, index: usize) -> Columns {
        self.segments
            .iter()
            .rev()
            .find(|(from, _)| *from <= index)
            .map(|(_, c)| c.clone())
            .unwrap_or_default()
    }
}

/// A layout of the whole list.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    pub items: Items,
    pub tables: Vec<Table>,
}

/// A decision between readings the lines allow, for the note that says
/// which was taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Numbers 1, 2, 3 … start lines `first` to `last`: read as item numbers or as counts.
    Items { first: u32, last: u32, numbered: bool },
    /// A table without a header has several columns of numbers: `column`
    /// (1-based) is read as the copies.
    CountColumn { line: u32, column: usize, of: Vec<usize> },
}

/// The most layouts tried for one list.
const MAX_LAYOUTS: usize = 8;

/// One line as the layout sees it.
struct Cells {
    sep: Option<char>,
    cells: Vec<String>,
}

/// Every layout the lines allow, most likely first, each with its choices.
pub fn layouts(
    lines: &[Line],
    names: &Names,
    keys: &HeaderKeys,
    vocab: &Vocab,
    csv: bool,
) -> Vec<(Layout, Vec<Choice>)> {
    let split: Vec<Cells> = lines
        .iter()
        .map(|l| {
            if l.heading {
                return Cells {
                    sep: None,
                    cells: Vec::new(),
                };
            }
            let body = strip_markers(l.text);
            let sep = cell_separator(&body);
            Cells {
                sep,
                cells: if sep.is_some() { split_cells(&body) } else { Vec::new() },
            }
        })
        .collect();
    let is_card = |s: &str| !matches!(names.find(s), Found::None);
    // Which lines are table rows: tabs, pipes and semicolons always; commas
    // in a CSV file, in two lines running with as many cells, or with a count and a card.
    let comma = |i: usize| split[i].sep == Some(',') && split[i].cells.len() >= 2 && !split[i].cells[0].contains(':');
    let row: Vec<bool> = (0..lines.len())
        .map(|i| {
            let c = &split[i];
            match c.sep {
                Some('\t' | ';') => c.cells.len() >= 2,
                Some(',') if comma(i) => {
                    csv || [i.checked_sub(1), Some(i + 1)]
                        .into_iter()
                        .flatten()
                        .any(|j| j < lines.len() && comma(j) && split[j].cells.len() == c.cells.len())
                        || (c.cells.iter().any(|x| parse_count(x).is_some()) && c.cells.iter().any(|x| is_card(x)))
                }
                _ => false,
            }
        })
        .collect();
    let mut tables = Vec::new();
    let mut ambiguous: Vec<(usize, usize, Vec<usize>)> = Vec::new();
    for sep in ['\t', ';', ','] {
        let rows: Vec<usize> = (0..lines.len())
            .filter(|&i| row[i] && split[i].sep == Some(sep))
            .collect();
        if rows.is_empty() {
            continue;
        }
        let header_line = |i: usize| {
            let cells = &split[i].cells;
            keys.find(&cells[0]).is_some() && cells.iter().filter(|c| !c.is_empty()).count() <= 2
        };
        let headers: Vec<usize> = rows
            .iter()
            .copied()
            .filter(|&i| {
                let cells = &split[i].cells;
                cells.iter().filter(|c| !c.is_empty()).count() >= 2
                    && !header_line(i)
                    && cells.iter().all(|c| parse_count(c).is_none() && !is_card(c))
                    && cells.iter().any(|c| {
                        matches!(
                            vocab.column(c),
                            ColumnWord::Count | ColumnWord::Name | ColumnWord::Number
                        )
                    })
            })
            .collect();
        let mut table = Table {
            rows: rows.clone(),
            headers: headers.clone(),
            segments: Vec::new(),
        };
        // Segments: the rows before the first header, then from each header on.
        let mut starts: Vec<Option<usize>> = vec![None];
        starts.extend(headers.iter().map(|h| Some(*h)));
        for (k, start) in starts.iter().enumerate() {
            let end = starts.get(k + 1).copied().flatten().unwrap_or(usize::MAX);
            let body: Vec<usize> = rows
                .iter()
                .copied()
                .filter(|&i| start.is_none_or(|s| i > s) && i < end && !header_line(i))
                .collect();
            let from = start.unwrap_or(rows[0]);
            let cols = match start {
                Some(h) => named(&split[*h].cells, &body, &split, keys, vocab),
                None => {
                    if body.is_empty() {
                        continue;
                    }
                    let numeric = numeric_columns(&body, &split, &is_card);
                    if numeric.len() > 1 {
                        ambiguous.push((tables.len(), table.segments.len(), numeric.clone()));
                    }
                    Columns {
                        count: numeric.first().copied(),
                        ..Columns::default()
                    }
                }
            };
            table.segments.push((from, cols));
        }
        tables.push(table);
    }
    let base = Layout {
        items: items(lines, &row),
        tables,
    };
    // The plain numbers `1 Name`, `2 Name`, `3 Name` … may be item numbers.
    let plain = plain_items(lines, &row);
    let mut out: Vec<(Layout, Vec<Choice>)> = vec![(base, Vec::new())];
    if let Some((first, last)) = plain
        && out[0].0.items == Items::Counts
    {
        let mut next = Vec::new();
        for (l, ch) in &out {
            for numbered in [false, true] {
                let mut l = l.clone();
                l.items = if numbered { Items::NumberedPlain } else { Items::Counts };
                let mut ch = ch.clone();
                ch.push(Choice::Items { first, last, numbered });
                next.push((l, ch));
            }
        }
        out = next;
    }
    for (t, s, columns) in ambiguous {
        let mut next = Vec::new();
        for (l, ch) in &out {
            for &col in &columns {
                if next.len() >= MAX_LAYOUTS {
                    break;
                }
                let mut l = l.clone();
                l.tables[t].segments[s].1.count = Some(col);
                let line = lines[l.tables[t].segments[s].0].span.line;
                let mut ch = ch.clone();
                ch.push(Choice::CountColumn {
                    line,
                    column: col + 1,
                    of: columns.iter().map(|c| c + 1).collect(),
                });
                next.push((l, ch));
            }
        }
        out = next;
    }
    out.truncate(MAX_LAYOUTS);
    out
}

/// The columns a header row names, for the rows `body` under it.
fn named(header: &[String], body: &[usize], split: &[Cells], keys: &HeaderKeys, vocab: &Vocab) -> Columns {
    let mut cols = Columns::default();
    let mut number = None;
    for (i, cell) in header.iter().enumerate() {
        if let Some(k) = keys.find(cell) {
            cols.fields.push((i, k.id));
            continue;
        }
        match vocab.column(cell) {
            ColumnWord::Count if cols.count.is_none() => cols.count = Some(i),
            ColumnWord::Name if cols.name.is_none() => cols.name = Some(i),
            ColumnWord::Number if number.is_none() => number = Some(i),
            _ => {}
        }
    }
    // `#`, `Nº`: item numbers when they run 1, 2, 3 …, else copies.
    if cols.count.is_none()
        && let Some(n) = number
    {
        let values: Vec<Option<u32>> = body
            .iter()
            .filter_map(|&i| split[i].cells.get(n))
            .map(|c| parse_count(c))
            .collect();
        let running = values.iter().enumerate().all(|(k, v)| *v == Some(k as u32 + 1));
        if !running || values.len() < 2 {
            cols.count = Some(n);
        }
    }
    cols
}

/// The columns whose every value, on rows that name a card, is a number.
fn numeric_columns(body: &[usize], split: &[Cells], is_card: &dyn Fn(&str) -> bool) -> Vec<usize> {
    let rows: Vec<&Vec<String>> = body
        .iter()
        .map(|&i| &split[i].cells)
        .filter(|cells| cells.iter().any(|c| is_card(c)))
        .collect();
    let width = rows.iter().map(|r| r.len()).max().unwrap_or(0);
    (0..width)
        .filter(|&col| {
            !rows.is_empty()
                && rows
                    .iter()
                    .all(|r| r.get(col).is_some_and(|c| parse_count(c).is_some()))
        })
        .collect()
}

/// Numbers that run 1, 2, 3 …, starting again at 1 after a section (a
/// line between them that is no item) or once a run has reached 2: `1
/// Ares`, `1 Heracles`, `1 Cerberus` one under the other are copies.
/// `numbers` holds each number and whether another line stands before it.
fn running(numbers: &[(u32, bool)]) -> bool {
    numbers.len() >= 2
        && numbers[0].0 == 1
        && numbers
            .windows(2)
            .all(|w| w[1].0 == w[0].0 + 1 || (w[1].0 == 1 && (w[0].0 >= 2 || w[1].1)))
        && numbers.windows(2).any(|w| w[1].0 == w[0].0 + 1)
}

/// `1.`, `2)` … at the start of the lines outside tables: item numbers
/// when they run in order.
fn items(lines: &[Line], row: &[bool]) -> Items {
    let numbers: Vec<(u32, bool)> = numbered(lines, row, false)
        .into_iter()
        .map(|(n, _, b)| (n, b))
        .collect();
    if running(&numbers) {
        Items::Numbered
    } else {
        Items::Counts
    }
}

/// The item numbers at the start of lines outside tables (`plain`: `1
/// Name` too, but not lines `1. Name`), each with its line and whether a
/// line that is no such item stands before it.
fn numbered(lines: &[Line], row: &[bool], plain: bool) -> Vec<(u32, u32, bool)> {
    let mut out = Vec::new();
    let mut between = false;
    for (i, l) in lines.iter().enumerate() {
        if row[i] {
            between = true;
            continue;
        }
        let body = strip_markers(l.text);
        let found = if l.heading {
            None
        } else if plain {
            item_number(&body, false)
                .is_none()
                .then(|| item_number(&body, true))
                .flatten()
        } else {
            item_number(&body, false)
        };
        match found {
            Some((n, _)) => {
                out.push((n, l.span.line, between));
                between = false;
            }
            None => between = true,
        }
    }
    out
}

/// Lines `1 Name`, `2 Name`, `3 Name` … whose numbers run in order (at
/// least three): the first and last line, when every such line runs.
fn plain_items(lines: &[Line], row: &[bool]) -> Option<(u32, u32)> {
    let found = numbered(lines, row, true);
    let numbers: Vec<(u32, bool)> = found.iter().map(|(n, _, b)| (*n, *b)).collect();
    (numbers.len() >= 3 && running(&numbers)).then(|| (found[0].1, found[found.len() - 1].1))
}
