//! Spreadsheets ⇄ component YAML: one row per component, one column per
//! field (`<field>.<locale>` for texts), list and record values as YAML flow
//! text in one cell, comments in a `#` column.
//!
//! The YAML side has one canonical form ([`write_yaml`]): the same values
//! and comments always give the same bytes, so YAML → CSV → YAML can be
//! compared byte for byte. The format is documented in docs/sheets.md.

use std::ops::Range;

use crate::diag::{Code, Diagnostic, FileId};
use crate::model::{FieldType, Kind};
use crate::pack::yaml::{self, Limits, Node, Value};

/// Column of comments.
pub const COMMENT_COLUMN: &str = "#";
/// Column naming the file of a kind kept in a folder (`components/<kind>/<file>`).
pub const FILE_COLUMN: &str = "file";
/// Column of copies.
pub const COUNT_COLUMN: &str = "count";

/// Lines longer than this are written in block style.
const LINE: usize = 110;
/// Longest key written as `key: value` (YAML's limit for implicit keys is 1024).
const MAX_IMPLICIT_KEY: usize = 1000;

/// One component as written: its comment lines and its YAML mapping.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// Comment lines above (and inside) the component, without `# `; an
    /// empty string is a blank line between comment groups.
    pub comments: Vec<String>,
    pub node: Node,
    /// Sheet row of this component (when read from a sheet).
    pub row: Option<usize>,
}

/// One components file of a kind.
#[derive(Clone, Debug, PartialEq)]
pub struct FileData {
    /// The file name inside `components/<kind>/` for kinds kept in a folder;
    /// `None` for `components/<kind>.yaml`.
    pub name: Option<String>,
    pub entries: Vec<Entry>,
}

// ---------------------------------------------------------------- YAML → entries

/// Reads a components file: its items and the comments that belong to each.
/// The `yaml-language-server` line is dropped (the writer adds it back).
pub fn read_yaml(text: &str, file: FileId, name: Option<String>) -> Result<FileData, Box<Diagnostic>> {
    let root = yaml::parse(text, file, &Limits::default())?;
    let items: Vec<Node> = match root.value {
        Value::Seq(items) => items,
        Value::Null => Vec::new(),
        _ => {
            return Err(Box::new(
                Diagnostic::new(Code::WrongType, "a components file must be a list")
                    .at(root.span)
                    .expected("a list of components, each starting with `- id: …`"),
            ));
        }
    };
    let starts: Vec<u32> = items.iter().map(|n| n.span.line).collect();
    let mut leading: Vec<Vec<String>> = vec![Vec::new(); items.len()];
    let mut inner: Vec<Vec<String>> = vec![Vec::new(); items.len()];
    let mut pending: Vec<String> = Vec::new();
    let mut current: Option<usize> = None;
    for (i, line) in text.lines().enumerate() {
        let no = i as u32 + 1;
        let t = line.trim();
        if t.is_empty() {
            if !pending.is_empty() && pending.last().is_some_and(|l| !l.is_empty()) {
                pending.push(String::new());
            }
            continue;
        }
        if let Some(c) = t.strip_prefix('#') {
            if c.trim_start().starts_with("yaml-language-server:") {
                continue;
            }
            pending.push(c.strip_prefix(' ').unwrap_or(c).trim_end().to_owned());
            continue;
        }
        trim_blank(&mut pending);
        if let Some(k) = starts.iter().position(|&s| s == no) {
            current = Some(k);
            leading[k].append(&mut pending);
        } else if let Some(k) = current {
            inner[k].append(&mut pending);
        } else {
            pending.clear();
        }
        if let (Some(k), Some(c)) = (current, trailing_comment(line)) {
            inner[k].push(c);
        }
    }
    trim_blank(&mut pending);
    if let Some(k) = current {
        inner[k].append(&mut pending);
    }
    let entries = items
        .into_iter()
        .zip(leading.into_iter().zip(inner))
        .map(|(node, (mut l, i))| {
            if !i.is_empty() && !l.is_empty() {
                l.push(String::new());
            }
            l.extend(i);
            Entry {
                comments: l,
                node,
                row: None,
            }
        })
        .collect();
    Ok(FileData { name, entries })
}

fn trim_blank(lines: &mut Vec<String>) {
    while lines.last().is_some_and(String::is_empty) {
        lines.pop();
    }
}

/// The comment at the end of a line of YAML content, if any.
fn trailing_comment(line: &str) -> Option<String> {
    let mut quote: Option<char> = None;
    let mut prev = ' ';
    for (i, c) in line.char_indices() {
        match quote {
            Some('"') if c == '\\' => {}
            Some('"') if c == '"' && prev != '\\' => quote = None,
            Some('\'') if c == '\'' => quote = None,
            Some(_) => {}
            None => {
                if (c == '"' || c == '\'') && (prev.is_whitespace() || "[{,:".contains(prev)) {
                    quote = Some(c);
                } else if c == '#' && prev.is_whitespace() {
                    let rest = &line[i + 1..];
                    return Some(rest.strip_prefix(' ').unwrap_or(rest).trim_end().to_owned());
                }
            }
        }
        prev = if prev == '\\' && c == '\\' { ' ' } else { c };
    }
    None
}

// ---------------------------------------------------------------- writing YAML

/// Where a piece of the written YAML came from in a sheet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellRef {
    /// 1-based sheet row.
    pub row: usize,
    /// 0-based columns (one, or several for a text field; none for the whole row).
    pub columns: Vec<usize>,
}

/// The written YAML and, for entries read from a sheet, the byte ranges
/// that came from each cell and row.
pub struct Written {
    pub text: String,
    pub origins: Vec<(Range<usize>, CellRef)>,
}

impl Written {
    /// The sheet place of a byte offset: the smallest range holding it.
    pub fn origin(&self, at: usize) -> Option<&CellRef> {
        self.origins
            .iter()
            .filter(|(r, _)| r.start <= at && at <= r.end)
            .min_by_key(|(r, _)| r.end - r.start)
            .map(|(_, c)| c)
    }
}

/// The schema comment of a components file, relative to its location.
pub fn schema_line(kind: &str, in_folder: bool) -> String {
    let up = if in_folder { "../../" } else { "../" };
    format!("# yaml-language-server: $schema={up}schemas/{kind}.schema.json\n")
}

/// Writes a components file in the canonical form. `cells` gives, per entry
/// and per top-level key, the sheet cells it came from.
pub fn write_yaml(kind: &Kind, locales: &[String], file: &FileData, cells: &[Origins]) -> Written {
    let mut out = schema_line(&kind.id, file.name.is_some());
    let mut origins = Vec::new();
    for (i, e) in file.entries.iter().enumerate() {
        if !e.comments.is_empty() {
            if i > 0 {
                out.push('\n');
            }
            for c in &e.comments {
                if c.is_empty() {
                    out.push('\n');
                } else {
                    out.push_str("# ");
                    out.push_str(&comment_text(c));
                    out.push('\n');
                }
            }
        }
        let start = out.len();
        let entries = canonical_order(kind, locales, e.node.as_map().unwrap_or_default());
        for (j, (k, v)) in entries.iter().enumerate() {
            out.push_str(if j == 0 { "- " } else { "  " });
            let key_start = out.len();
            let key = scalar(k);
            if key.chars().count() > MAX_IMPLICIT_KEY {
                // YAML reads at most 1024 characters as an implicit key: a
                // longer one (a stray header cell) is written explicitly.
                out.push_str("? ");
                out.push_str(&key);
                out.push_str("\n  :");
                value(v, 2, 4, &mut out);
            } else {
                out.push_str(&key);
                out.push(':');
                value(v, 2, key.len() + 4, &mut out);
            }
            if let (Some(row), Some(cols)) = (
                e.row,
                cells
                    .get(i)
                    .and_then(|c| c.iter().find(|(name, _)| Some(name.as_str()) == k.as_str())),
            ) {
                origins.push((
                    key_start..out.len(),
                    CellRef {
                        row,
                        columns: cols.1.clone(),
                    },
                ));
            }
            out.push('\n');
        }
        if entries.is_empty() {
            out.push_str("- {}\n");
        }
        if let Some(row) = e.row {
            origins.push((
                start..out.len(),
                CellRef {
                    row,
                    columns: Vec::new(),
                },
            ));
        }
    }
    Written { text: out, origins }
}

/// A comment line as YAML allows it: characters YAML does not allow raw
/// (control characters, a carriage return that would end the line) become U+FFFD.
fn comment_text(c: &str) -> std::borrow::Cow<'_, str> {
    let bad = |ch: char| (ch.is_control() && ch != '\t') || matches!(ch, '\u{feff}' | '\u{fffe}' | '\u{ffff}');
    if c.chars().any(bad) {
        c.chars()
            .map(|ch| if bad(ch) { '\u{fffd}' } else { ch })
            .collect::<String>()
            .into()
    } else {
        c.into()
    }
}

/// The top-level keys of a component in the canonical order (id, name,
/// copies, declared fields, sample, others), texts in the pack's locale order.
fn canonical_order(kind: &Kind, locales: &[String], entries: &[(Node, Node)]) -> Vec<(Node, Node)> {
    let order = |k: &str| -> usize {
        match k {
            "id" => 0,
            "name" => 1,
            "copies" => 2,
            "sample" => usize::MAX - 1,
            _ => kind.fields.get_index_of(k).map_or(usize::MAX, |i| i + 3),
        }
    };
    let mut out: Vec<(Node, Node)> = entries.to_vec();
    out.sort_by_key(|(k, _)| order(k.as_str().unwrap_or("")));
    for (k, v) in &mut out {
        let is_text = k.as_str() == Some("name")
            || k.as_str()
                .and_then(|k| kind.fields.get(k))
                .is_some_and(|s| s.ty == FieldType::Text);
        if let (true, Value::Map(m)) = (is_text, &mut v.value) {
            m.sort_by_key(|(l, _)| {
                l.as_str()
                    .and_then(|l| locales.iter().position(|x| x == l))
                    .unwrap_or(usize::MAX)
            });
        }
    }
    out
}

/// Writes ` value` after a key at `indent`, in flow style when the line
/// stays short, else as a block.
fn value(v: &Node, indent: usize, used: usize, out: &mut String) {
    match &v.value {
        Value::Seq(items) if !items.is_empty() => {
            let f = flow(v);
            if indent + used + f.len() <= LINE {
                out.push(' ');
                out.push_str(&f);
            } else {
                for item in items {
                    out.push('\n');
                    push_indent(out, indent + 2);
                    out.push('-');
                    seq_item(item, indent + 2, out);
                }
            }
        }
        Value::Map(entries) if !entries.is_empty() => {
            let f = flow(v);
            if indent + used + f.len() <= LINE {
                out.push(' ');
                out.push_str(&f);
            } else {
                for (k, val) in entries {
                    out.push('\n');
                    push_indent(out, indent + 2);
                    let key = scalar(k);
                    out.push_str(&key);
                    out.push(':');
                    value(val, indent + 2, key.len() + 2, out);
                }
            }
        }
        _ => {
            out.push(' ');
            out.push_str(&flow(v));
        }
    }
}

/// Writes a block list item after its `-` at `indent`.
fn seq_item(item: &Node, indent: usize, out: &mut String) {
    let f = flow(item);
    match &item.value {
        Value::Map(entries) if !entries.is_empty() && indent + 2 + f.len() > LINE => {
            for (j, (k, val)) in entries.iter().enumerate() {
                if j == 0 {
                    out.push(' ');
                } else {
                    out.push('\n');
                    push_indent(out, indent + 2);
                }
                let key = scalar(k);
                out.push_str(&key);
                out.push(':');
                value(val, indent + 2, key.len() + 2, out);
            }
        }
        _ => {
            out.push(' ');
            out.push_str(&f);
        }
    }
}

fn push_indent(out: &mut String, n: usize) {
    out.extend(std::iter::repeat_n(' ', n));
}

/// A value in YAML flow style, on one line.
pub fn flow(v: &Node) -> String {
    match &v.value {
        Value::Seq(items) => format!("[{}]", items.iter().map(flow).collect::<Vec<_>>().join(", ")),
        Value::Map(entries) => format!(
            "{{{}}}",
            entries
                .iter()
                .map(|(k, v)| format!("{}: {}", scalar(k), flow(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        _ => scalar(v),
    }
}

/// A scalar as YAML: numbers and booleans plain, strings plain when that is
/// unambiguous, else double-quoted.
pub fn scalar(v: &Node) -> String {
    match &v.value {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => float(*f),
        Value::Str(s) => string(s),
        Value::Seq(_) | Value::Map(_) => flow(v),
    }
}

fn float(f: f64) -> String {
    if f.is_nan() {
        ".nan".into()
    } else if f.is_infinite() {
        if f > 0.0 { ".inf".into() } else { "-.inf".into() }
    } else {
        format!("{f:?}")
    }
}

/// A string as YAML.
pub fn string(s: &str) -> String {
    if is_plain(s) { s.to_owned() } else { quote(s) }
}

fn is_plain(s: &str) -> bool {
    const RESERVED: &[&str] = &[
        "true", "false", "null", "yes", "no", "on", "off", "y", "n", "nan", "inf", "~",
    ];
    let Some(first) = s.chars().next() else {
        return false;
    };
    first.is_alphabetic()
        && !s.ends_with(' ')
        && !RESERVED.contains(&s.to_lowercase().as_str())
        && !s.contains("  ")
        && s.chars().all(|c| c.is_alphanumeric() || " -_./'()+¿¡!?;".contains(c))
}

/// A double-quoted YAML string.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

// ---------------------------------------------------------------- entries → sheet

/// What a column holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Column {
    File,
    Comment,
    /// A top-level key written as one cell (`id`, `count` → `copies`, fields, `sample`).
    Field(String),
    /// One locale of a text field (or of `name`).
    Text(String, String),
}

impl Column {
    pub fn header(&self) -> String {
        match self {
            Column::File => FILE_COLUMN.into(),
            Column::Comment => COMMENT_COLUMN.into(),
            Column::Field(f) if f == "copies" => COUNT_COLUMN.into(),
            Column::Field(f) => f.clone(),
            Column::Text(f, l) => format!("{f}.{l}"),
        }
    }

    /// The YAML key the column writes.
    pub fn key(&self) -> Option<&str> {
        match self {
            Column::Field(f) | Column::Text(f, _) => Some(f),
            _ => None,
        }
    }
}

/// The columns of a kind: `file` (kinds kept in a folder), `id`, `name.<locale>`,
/// `count`, the declared fields in order, `sample`, `#`.
pub fn columns(kind: &Kind, locales: &[String], folder: bool) -> Vec<Column> {
    let mut cols = Vec::new();
    if folder {
        cols.push(Column::File);
    }
    cols.push(Column::Field("id".into()));
    cols.extend(locales.iter().map(|l| Column::Text("name".into(), l.clone())));
    cols.push(Column::Field("copies".into()));
    for (name, spec) in &kind.fields {
        if spec.ty == FieldType::Text {
            cols.extend(locales.iter().map(|l| Column::Text(name.clone(), l.clone())));
        } else {
            cols.push(Column::Field(name.clone()));
        }
    }
    cols.push(Column::Field("sample".into()));
    cols.push(Column::Comment);
    cols
}

/// The sheet of a kind: header row and one row per component. Keys that the
/// kind does not declare get columns of their own at the end (so nothing is
/// lost; `import` then reports them as unknown fields).
pub fn to_rows(kind: &Kind, locales: &[String], files: &[FileData]) -> (Vec<String>, Vec<Vec<String>>) {
    let folder = files.iter().any(|f| f.name.is_some());
    let mut cols = columns(kind, locales, folder);
    for e in files.iter().flat_map(|f| &f.entries) {
        for (k, _) in e.node.as_map().unwrap_or_default() {
            let key = k.as_str().map(str::to_owned).unwrap_or_else(|| scalar(k));
            if !cols.iter().any(|c| c.key() == Some(key.as_str())) {
                cols.insert(cols.len() - 1, Column::Field(key));
            }
        }
    }
    let mut rows = Vec::new();
    for f in files {
        for e in &f.entries {
            let row = cols
                .iter()
                .map(|c| match c {
                    Column::File => f.name.clone().unwrap_or_default(),
                    Column::Comment => e.comments.join("\n"),
                    Column::Field(k) => e.node.get(k).map(cell_text).unwrap_or_default(),
                    Column::Text(k, l) => match e.node.get(k) {
                        Some(n) if n.as_map().is_some() => n.get(l).map(cell_text).unwrap_or_default(),
                        // Not a per-locale mapping: the first locale's column keeps it.
                        Some(n) if Some(l) == locales.first() => cell_text(n),
                        _ => String::new(),
                    },
                })
                .collect();
            rows.push(row);
        }
    }
    (cols.iter().map(Column::header).collect(), rows)
}

/// A value as cell text: strings as they are, other scalars in YAML, lists
/// and records in YAML flow style.
fn cell_text(n: &Node) -> String {
    match &n.value {
        Value::Str(s) => s.clone(),
        _ => flow(n),
    }
}

/// Writes a sheet as CSV.
pub fn write_csv(header: &[String], rows: &[Vec<String>]) -> Result<Vec<u8>, csv::Error> {
    let mut w = csv::WriterBuilder::new().flexible(true).from_writer(Vec::new());
    w.write_record(header)?;
    for r in rows {
        w.write_record(r)?;
    }
    w.into_inner().map_err(|e| csv::Error::from(e.into_error()))
}

// ---------------------------------------------------------------- reading sheets

mod read;
pub use read::{MAX_CELL_BYTES, MAX_CELLS, MAX_COLUMNS, MAX_ROWS, ReadSheetError, Sheet, parse_sheet, read_sheet};

/// A column letter: 0 → A, 26 → AA.
pub fn column_letter(mut i: usize) -> String {
    let mut s = Vec::new();
    loop {
        s.push(b'A' + (i % 26) as u8);
        if i < 26 {
            break;
        }
        i = i / 26 - 1;
    }
    s.reverse();
    String::from_utf8(s).unwrap_or_default()
}

/// Where each top-level key of one component came from: key → sheet columns.
pub type Origins = Vec<(String, Vec<usize>)>;

/// A sheet read into components files, with where each value came from.
pub struct Imported {
    pub files: Vec<FileData>,
    /// Per file, per entry: top-level key → sheet columns.
    pub cells: Vec<Vec<Origins>>,
    pub headers: Vec<String>,
}

/// A problem in the sheet's own structure, at a row and column.
pub struct SheetProblem {
    pub diagnostic: Diagnostic,
    pub row: usize,
    pub column: Option<usize>,
}

/// Turns a sheet into components files. Values are typed by the kind's
/// declarations; anything that does not fit is still written (a number
/// field holding `abc` becomes a string) so `check` reports it.
pub fn from_sheet(
    sheet: &Sheet,
    kind: &Kind,
    locales: &[String],
    default_folder: bool,
) -> (Imported, Vec<SheetProblem>) {
    let mut problems = Vec::new();
    let mut rows = sheet.rows.iter().peekable();
    // Rows of comments above the header.
    let mut header_comments: Vec<String> = Vec::new();
    while let Some((_, r)) = rows.peek() {
        let first = r.first().map(String::as_str).unwrap_or("");
        let rest_empty = r.iter().skip(1).all(|c| c.trim().is_empty());
        if first.trim_start().starts_with('#') && rest_empty {
            let c = first.trim_start()[1..].to_owned();
            header_comments.push(c.strip_prefix(' ').unwrap_or(&c).to_owned());
            rows.next();
        } else if r.iter().all(|c| c.trim().is_empty()) {
            rows.next();
        } else {
            break;
        }
    }
    let Some((header_row, header)) = rows.next() else {
        return (
            Imported {
                files: Vec::new(),
                cells: Vec::new(),
                headers: Vec::new(),
            },
            problems,
        );
    };
    let known = columns(kind, locales, true);
    let mut cols: Vec<Option<Column>> = Vec::new();
    for (i, h) in header.iter().enumerate() {
        let h = h.trim();
        let col = if h.is_empty() {
            None
        } else if let Some(c) = known.iter().find(|c| c.header() == h) {
            Some(c.clone())
        } else if h == "copies" {
            Some(Column::Field("copies".into()))
        } else if h == "name" || kind.fields.get(h).is_some_and(|s| s.ty == FieldType::Text) {
            problems.push(SheetProblem {
                diagnostic: Diagnostic::new(
                    Code::UnknownField,
                    format!("column `{h}` holds a text: it needs one column per locale"),
                )
                .expected(
                    locales
                        .iter()
                        .map(|l| format!("`{h}.{l}`"))
                        .collect::<Vec<_>>()
                        .join(", "),
                ),
                row: *header_row,
                column: Some(i),
            });
            None
        } else {
            // Unknown: written as a key so `check` reports it as an unknown field.
            Some(Column::Field(h.to_owned()))
        };
        if let Some(c) = &col
            && cols.iter().flatten().any(|o| o == c)
        {
            problems.push(SheetProblem {
                diagnostic: Diagnostic::new(Code::DuplicateKey, format!("column `{h}` appears twice")),
                row: *header_row,
                column: Some(i),
            });
            cols.push(None);
            continue;
        }
        cols.push(col);
    }
    let mut files: Vec<FileData> = Vec::new();
    let mut cells: Vec<Vec<Origins>> = Vec::new();
    let mut first = true;
    for (row_no, row) in rows {
        if row.iter().all(|c| c.trim().is_empty()) {
            continue;
        }
        let mut file_name: Option<String> = default_folder.then(|| format!("{}.yaml", kind.id));
        let mut comments: Vec<String> = Vec::new();
        let mut map: Vec<(Node, Node)> = Vec::new();
        let mut origin: Origins = Vec::new();
        for (i, col) in cols.iter().enumerate() {
            let Some(col) = col else { continue };
            let cell = row.get(i).map(String::as_str).unwrap_or("");
            match col {
                Column::File => {
                    let f = cell.trim();
                    if f.is_empty() {
                        continue;
                    }
                    let valid = f.ends_with(".yaml")
                        && f.len() > 5
                        && f.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
                        && !f.starts_with('.');
                    if valid {
                        file_name = Some(f.to_owned());
                    } else {
                        problems.push(SheetProblem {
                            diagnostic: Diagnostic::new(Code::InvalidValue, format!("`{f}` is not a file name"))
                                .found(f.to_owned())
                                .expected(format!(
                                    "a file name inside `components/{}/`, such as `{}.yaml`",
                                    kind.id, kind.id
                                )),
                            row: *row_no,
                            column: Some(i),
                        });
                    }
                }
                Column::Comment => {
                    if !cell.trim().is_empty() {
                        comments.extend(cell.lines().map(|l| l.trim_end().to_owned()));
                    }
                }
                Column::Field(k) => {
                    if cell.trim().is_empty() {
                        continue;
                    }
                    match typed(cell, k, kind) {
                        Ok(v) => {
                            map.push((str_node(k), v));
                            origin.push((k.clone(), vec![i]));
                        }
                        Err(d) => problems.push(SheetProblem {
                            diagnostic: *d,
                            row: *row_no,
                            column: Some(i),
                        }),
                    }
                }
                Column::Text(k, l) => {
                    if cell.is_empty() {
                        continue;
                    }
                    let v = str_node(cell);
                    match map.iter_mut().find(|(key, _)| key.as_str() == Some(k)) {
                        Some((
                            _,
                            Node {
                                value: Value::Map(m), ..
                            },
                        )) => {
                            m.push((str_node(l), v));
                            if let Some(o) = origin.iter_mut().find(|(key, _)| key == k) {
                                o.1.push(i);
                            }
                        }
                        _ => {
                            map.push((str_node(k), map_node(vec![(str_node(l), v)])));
                            origin.push((k.clone(), vec![i]));
                        }
                    }
                }
            }
        }
        if first {
            let mut c = header_comments.clone();
            if !c.is_empty() && !comments.is_empty() {
                c.push(String::new());
            }
            c.append(&mut comments);
            comments = c;
            first = false;
        }
        let fi = match files.iter().position(|f| f.name == file_name) {
            Some(fi) => fi,
            None => {
                files.push(FileData {
                    name: file_name.clone(),
                    entries: Vec::new(),
                });
                cells.push(Vec::new());
                files.len() - 1
            }
        };
        files[fi].entries.push(Entry {
            comments,
            node: map_node(map),
            row: Some(*row_no),
        });
        cells[fi].push(origin);
    }
    if files.is_empty() {
        files.push(FileData {
            name: default_folder.then(|| format!("{}.yaml", kind.id)),
            entries: Vec::new(),
        });
        cells.push(Vec::new());
    }
    (
        Imported {
            files,
            cells,
            headers: header.clone(),
        },
        problems,
    )
}

fn str_node(s: &str) -> Node {
    node(Value::Str(s.to_owned()))
}

fn map_node(m: Vec<(Node, Node)>) -> Node {
    node(Value::Map(m))
}

fn node(value: Value) -> Node {
    Node {
        value,
        span: crate::diag::Span {
            file: FileId(0),
            line: 0,
            column: 0,
            start: 0,
            end: 0,
        },
    }
}

/// A cell's value typed by the field's declaration.
fn typed(cell: &str, key: &str, kind: &Kind) -> Result<Node, Box<Diagnostic>> {
    let t = cell.trim();
    let ty = match key {
        "id" => Some(&FieldType::String),
        "copies" => Some(&FieldType::Int { min: None, max: None }),
        "sample" => None,
        _ => kind.fields.get(key).map(|s| &s.ty),
    };
    let number = || {
        t.parse::<i64>()
            .map(Value::Int)
            .ok()
            .or_else(|| t.parse::<f64>().ok().filter(|f| f.is_finite()).map(Value::Float))
    };
    Ok(match ty {
        Some(FieldType::Int { .. } | FieldType::Number { .. }) => node(number().unwrap_or(Value::Str(t.to_owned()))),
        Some(FieldType::Bool) => node(match t.to_ascii_lowercase().as_str() {
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            _ => Value::Str(t.to_owned()),
        }),
        Some(
            FieldType::String
            | FieldType::Image { .. }
            | FieldType::Enum { .. }
            | FieldType::Color
            | FieldType::Ref { .. }
            | FieldType::Member { .. }
            | FieldType::Cell { .. },
        ) => str_node(cell),
        Some(FieldType::Text) => str_node(cell),
        // Lists, records, `sample` and unknown columns: YAML in the cell.
        Some(FieldType::List { .. } | FieldType::Record { .. } | FieldType::Effect { .. }) | None => {
            if key == "sample" && t == "true" {
                return Ok(node(Value::Bool(true)));
            }
            match yaml::parse(t, FileId(0), &Limits::default()) {
                Ok(mut n) => {
                    strip_spans(&mut n);
                    n
                }
                Err(d) => {
                    let mut d = *d;
                    d.message = format!("the value of `{key}` is not valid YAML flow text");
                    d.span = None;
                    d.expected = Some("a list `[a, b]` or a record `{x: 1, y: 2}` in YAML flow style".into());
                    if let Some(l) = d.label.take() {
                        d.found = Some(l);
                    }
                    return Err(Box::new(d));
                }
            }
        }
    })
}

fn strip_spans(n: &mut Node) {
    n.span = node(Value::Null).span;
    match &mut n.value {
        Value::Seq(items) => items.iter_mut().for_each(strip_spans),
        Value::Map(m) => m.iter_mut().for_each(|(k, v)| {
            strip_spans(k);
            strip_spans(v);
        }),
        _ => {}
    }
}

/// Drops spans so two trees can be compared by value.
pub fn without_spans(n: &Node) -> Node {
    let mut n = n.clone();
    strip_spans(&mut n);
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn column_letters() {
        assert_eq!(column_letter(0), "A");
        assert_eq!(column_letter(25), "Z");
        assert_eq!(column_letter(26), "AA");
        assert_eq!(column_letter(27), "AB");
        assert_eq!(column_letter(701), "ZZ");
        assert_eq!(column_letter(702), "AAA");
    }

    #[test]
    fn strings_quote_when_needed() {
        assert_eq!(string("Zeus"), "Zeus");
        assert_eq!(string("Activación: Zeus"), "\"Activación: Zeus\"");
        assert_eq!(string("yes"), "\"yes\"");
        assert_eq!(string("012"), "\"012\"");
        assert_eq!(string("say \"hi\""), "\"say \\\"hi\\\"\"");
        assert_eq!(string(""), "\"\"");
        assert_eq!(string("#ff0000"), "\"#ff0000\"");
    }

    #[test]
    fn comments_belong_to_their_component() {
        let text = "# yaml-language-server: $schema=../schemas/x.schema.json\n# header\n\n# first\n- id: a\n  n: 1 # one\n  # inside\n  m: 2\n# second\n- id: b\n";
        let f = read_yaml(text, FileId(0), None).unwrap();
        assert_eq!(f.entries[0].comments, ["header", "", "first", "", "one", "inside"]);
        assert_eq!(f.entries[1].comments, ["second"]);
    }

    #[test]
    fn trailing_comments_skip_quoted_hashes() {
        assert_eq!(trailing_comment("  color: \"#ff0000\""), None);
        assert_eq!(trailing_comment("  - 1  # start"), Some("start".into()));
        assert_eq!(trailing_comment("  name: {en: Alice's deck} # x"), Some("x".into()));
    }
}
