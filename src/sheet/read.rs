//! Reading sheets (CSV, XLSX, ODS) into rows of text, bounded before
//! anything is materialised: the file by its size (read by streaming), a
//! workbook by what it unzips to (decompressed and counted, not trusted from
//! its directory), and the sheet by rows, columns, cells and cell length.
//! Cells are read sparsely, so a far cell is refused by name (`XFD1048576`)
//! instead of allocating the dense range up to it.

use std::collections::BTreeMap;
use std::io::{BufReader, Cursor, Read};
use std::path::Path;

use quick_xml::events::{BytesStart, Event};

use super::column_letter;
use crate::diag::{Code, Diagnostic};
use crate::fsx::read::{ReadError, Refusal, Scope, bytes, max, read_bounded};
use crate::pack::yaml::thousands;

/// Rows a sheet may have, the header included (the last allowed row is this number).
pub const MAX_ROWS: usize = 100_000;
/// Columns a sheet may have (`AMJ`, as in LibreOffice).
pub const MAX_COLUMNS: usize = 1_024;
/// Cells of all rows together, each row counted up to its last filled cell.
pub const MAX_CELLS: usize = 2_000_000;
/// Bytes of text in one cell.
pub const MAX_CELL_BYTES: usize = 1024 * 1024;
/// Entries of a zipped workbook.
const MAX_ZIP_ENTRIES: usize = 10_000;

/// A sheet read from CSV, XLSX or ODS: every cell as text.
#[derive(Debug)]
pub struct Sheet {
    /// How locations name the sheet: `cards.csv` or `cards.xlsx: sheet Cards`.
    pub label: String,
    /// Rows with their 1-based row number, in order; rows without any cell
    /// are left out. The first is the header.
    pub rows: Vec<(usize, Vec<String>)>,
}

/// Why a sheet was not read.
#[derive(Debug)]
pub enum ReadSheetError {
    /// The file cannot be opened or is not a workbook: exit 2.
    Unreadable(String),
    /// The sheet is refused (a limit, a special file): a diagnostic, exit 1.
    Refused(Box<Diagnostic>),
}

impl ReadSheetError {
    fn limit(file: &str, message: String, expected: String) -> ReadSheetError {
        ReadSheetError::Refused(Box::new(
            Diagnostic::new(Code::SheetLimit, message)
                .in_file(file)
                .expected(expected)
                .help("a sheet holds one component per row; remove stray cells far from the data, or split the kind over several files"),
        ))
    }
}

/// Cells collected sparsely, with every limit checked before a cell is kept.
struct Collect {
    label: String,
    rows: BTreeMap<usize, Vec<String>>,
    cells: usize,
    text: u64,
}

impl Collect {
    fn new(label: &str) -> Self {
        Collect {
            label: label.to_owned(),
            rows: BTreeMap::new(),
            cells: 0,
            text: 0,
        }
    }

    /// Checks that a cell at 0-based (`row`, `col`) repeated over `rows` rows
    /// and `cols` columns with `len` bytes of text fits, naming the first
    /// cell that does not.
    fn fits(&self, row: usize, col: usize, rows: usize, cols: usize, len: usize) -> Result<(), ReadSheetError> {
        let (last_row, last_col) = (
            row.saturating_add(rows).saturating_sub(1),
            col.saturating_add(cols).saturating_sub(1),
        );
        let name = |r: usize, c: usize| format!("{}{}", column_letter(c), r.saturating_add(1));
        if last_row >= MAX_ROWS || last_col >= MAX_COLUMNS {
            // The first cell out of bounds: the cell itself, or where its repeat crosses.
            let r = if last_row >= MAX_ROWS { row.max(MAX_ROWS) } else { row };
            let c = if last_col >= MAX_COLUMNS {
                col.max(MAX_COLUMNS)
            } else {
                col
            };
            return Err(ReadSheetError::limit(
                &self.label,
                format!("cell {} of {} is beyond the sheet limits", name(r, c), self.label),
                format!(
                    "cells within {}: at most {} rows and {} columns",
                    name(MAX_ROWS - 1, MAX_COLUMNS - 1),
                    thousands(MAX_ROWS),
                    thousands(MAX_COLUMNS)
                ),
            ));
        }
        if len > MAX_CELL_BYTES {
            return Err(ReadSheetError::limit(
                &self.label,
                format!("cell {} of {} holds too much text", name(row, col), self.label),
                format!("at most {} of text in a cell", bytes(MAX_CELL_BYTES as u64)),
            ));
        }
        // Each row costs up to its last filled cell.
        let added: usize = (row..=last_row)
            .map(|r| {
                let have = self.rows.get(&r).map_or(0, Vec::len);
                (last_col + 1).saturating_sub(have)
            })
            .fold(0usize, usize::saturating_add);
        let text = (len as u64).saturating_mul((rows as u64).saturating_mul(cols as u64));
        if self.cells.saturating_add(added) > MAX_CELLS || self.text.saturating_add(text) > max::SHEET_UNZIPPED {
            return Err(ReadSheetError::limit(
                &self.label,
                format!(
                    "{} holds too many cells (at cell {})",
                    self.label,
                    name(last_row, last_col)
                ),
                format!(
                    "at most {} cells, each row counted to its last filled cell, and {} of text",
                    thousands(MAX_CELLS),
                    bytes(max::SHEET_UNZIPPED)
                ),
            ));
        }
        Ok(())
    }

    /// Keeps a non-empty cell repeated over `rows` × `cols` (ODS repeats).
    fn put(&mut self, row: usize, col: usize, rows: usize, cols: usize, value: &str) -> Result<(), ReadSheetError> {
        self.fits(row, col, rows, cols, value.len())?;
        for r in row..row + rows {
            let cells = self.rows.entry(r).or_default();
            if cells.len() < col + cols {
                self.cells += col + cols - cells.len();
                cells.resize(col + cols, String::new());
            }
            cells[col..col + cols].fill(value.to_owned());
            self.text += (value.len() * cols) as u64;
        }
        Ok(())
    }

    fn finish(self) -> Sheet {
        Sheet {
            label: self.label,
            rows: self.rows.into_iter().map(|(r, cells)| (r + 1, cells)).collect(),
        }
    }
}

/// Reads a sheet. For workbooks, `name` picks the sheet; otherwise the one
/// named like the kind (any case, singular or plural), else the first.
pub fn read_sheet(path: &Path, name: Option<&str>, kind: &str) -> Result<Sheet, ReadSheetError> {
    let file = path.file_name().unwrap_or_default().to_string_lossy().into_owned();
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or_default()
        .to_ascii_lowercase();
    if !matches!(ext.as_str(), "csv" | "xlsx" | "xlsm" | "ods") {
        return Err(ReadSheetError::Unreadable(format!(
            "`{}` is not a sheet pnpkit reads: save it as .csv, .xlsx or .ods",
            path.display()
        )));
    }
    // The user named this file: read wherever it is, but not a FIFO or device, and bounded.
    let data = match read_bounded(path, max::SHEET, &Scope::named()) {
        Ok(d) => d,
        Err(ReadError::Io(e)) => {
            return Err(ReadSheetError::Unreadable(format!(
                "cannot read `{}`: {e}",
                path.display()
            )));
        }
        Err(ReadError::Refused(r)) => {
            let code = if matches!(r, Refusal::TooLarge { .. }) {
                Code::FileTooLarge
            } else {
                Code::FileRefused
            };
            return Err(ReadSheetError::Refused(Box::new(
                Diagnostic::new(code, format!("the sheet `{file}` is not read: {r}"))
                    .in_file(path)
                    .expected(format!("a .csv, .xlsx or .ods file of at most {}", bytes(max::SHEET)))
                    .help("save the sheet without images and unused sheets, or as CSV"),
            )));
        }
    };
    parse_sheet(data, &file, &ext, name, kind)
}

/// Reads a sheet from its bytes (`ext`: `csv`, `xlsx`, `xlsm` or `ods`),
/// within the same limits as [`read_sheet`]. `file` names it in messages.
pub fn parse_sheet(
    data: Vec<u8>,
    file: &str,
    ext: &str,
    name: Option<&str>,
    kind: &str,
) -> Result<Sheet, ReadSheetError> {
    let path = Path::new(file);
    if data.len() as u64 > max::SHEET {
        return Err(ReadSheetError::Refused(Box::new(
            Diagnostic::new(
                Code::FileTooLarge,
                format!("the sheet `{file}` is larger than {}", bytes(max::SHEET)),
            )
            .in_file(path),
        )));
    }
    match ext {
        "csv" => read_csv(&data, file.to_owned()),
        "ods" => {
            check_zip(&data, file)?;
            read_ods(&data, file, name, kind, path)
        }
        "xlsx" | "xlsm" => {
            check_zip(&data, file)?;
            read_xlsx(data, file, name, kind, path)
        }
        other => Err(ReadSheetError::Unreadable(format!(
            "`.{other}` is not a sheet pnpkit reads"
        ))),
    }
}

fn read_csv(data: &[u8], file: String) -> Result<Sheet, ReadSheetError> {
    let mut r = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(data);
    let mut collect = Collect::new(&file);
    let mut record = csv::StringRecord::new();
    let mut row = 0usize;
    loop {
        match r.read_record(&mut record) {
            Ok(false) => break,
            Ok(true) => {}
            Err(e) => return Err(ReadSheetError::Unreadable(format!("`{file}` is not valid CSV: {e}"))),
        }
        if let Some(last) = (0..record.len()).rev().find(|&i| !record[i].is_empty()) {
            let longest = record.iter().map(str::len).max().unwrap_or(0);
            collect.fits(row, 0, 1, last + 1, longest)?;
            let cells: Vec<String> = record.iter().take(last + 1).map(str::to_owned).collect();
            collect.cells += cells.len();
            collect.text += cells.iter().map(|c| c.len() as u64).sum::<u64>();
            collect.rows.insert(row, cells);
        }
        row += 1;
    }
    Ok(collect.finish())
}

/// Unzips every entry of a workbook, counting what comes out: the total must
/// stay within [`max::SHEET_UNZIPPED`] whatever the zip directory claims.
fn check_zip(data: &[u8], file: &str) -> Result<(), ReadSheetError> {
    let unreadable = |e: &dyn std::fmt::Display| ReadSheetError::Unreadable(format!("`{file}` is not a workbook: {e}"));
    let mut zip = zip::ZipArchive::new(Cursor::new(data)).map_err(|e| unreadable(&e))?;
    let too_much = |what: String| {
        ReadSheetError::limit(
            file,
            format!("the workbook `{file}` unzips to too much ({what})"),
            format!(
                "a workbook of at most {} entries and {} unzipped",
                thousands(MAX_ZIP_ENTRIES),
                bytes(max::SHEET_UNZIPPED)
            ),
        )
    };
    if zip.len() > MAX_ZIP_ENTRIES {
        return Err(too_much(format!("{} entries", zip.len())));
    }
    let mut total: u64 = 0;
    let mut sink = [0u8; 64 * 1024];
    for i in 0..zip.len() {
        let mut entry = zip.by_index(i).map_err(|e| unreadable(&e))?;
        loop {
            let n = entry.read(&mut sink).map_err(|e| unreadable(&e))?;
            if n == 0 {
                break;
            }
            total += n as u64;
            if total > max::SHEET_UNZIPPED {
                return Err(too_much(format!("more than {}", bytes(max::SHEET_UNZIPPED))));
            }
        }
    }
    Ok(())
}

/// The sheet to read: `name`, else the one named like the kind, else the first.
fn choose(names: &[String], name: Option<&str>, kind: &str, path: &Path) -> Result<String, ReadSheetError> {
    match name {
        Some(n) => names.iter().find(|s| s.as_str() == n).cloned().ok_or_else(|| {
            ReadSheetError::Unreadable(format!(
                "`{}` has no sheet `{n}` (it has: {})",
                path.display(),
                names.join(", ")
            ))
        }),
        None => {
            let k = kind.to_lowercase();
            names
                .iter()
                .find(|s| {
                    let s = s.to_lowercase();
                    s == k || s == format!("{k}s")
                })
                .or(names.first())
                .cloned()
                .ok_or_else(|| ReadSheetError::Unreadable(format!("`{}` has no sheet", path.display())))
        }
    }
}

/// A number as a sheet shows it: `3`, not `3.0`.
fn number(f: f64) -> String {
    if f.fract() == 0.0 && f.abs() < 1e15 {
        format!("{}", f as i64)
    } else {
        f.to_string()
    }
}

fn read_xlsx(data: Vec<u8>, file: &str, name: Option<&str>, kind: &str, path: &Path) -> Result<Sheet, ReadSheetError> {
    use calamine::{Data, DataRef, Reader, Xlsx};
    let unreadable =
        |e: &dyn std::fmt::Display| ReadSheetError::Unreadable(format!("cannot read `{}`: {e}", path.display()));
    let mut wb: Xlsx<_> = Xlsx::new(Cursor::new(data)).map_err(|e| unreadable(&e))?;
    let chosen = choose(wb.sheet_names().as_slice(), name, kind, path)?;
    let label = format!("{file}: sheet {chosen}");
    let mut collect = Collect::new(&label);
    // Cells one by one, as they are in the file: never the dense range.
    let mut cells = wb.worksheet_cells_reader(&chosen).map_err(|e| unreadable(&e))?;
    while let Some(cell) = cells.next_cell().map_err(|e| unreadable(&e))? {
        let (row, col) = cell.get_position();
        let text = match cell.get_value() {
            DataRef::Empty => continue,
            DataRef::String(s) | DataRef::DateTimeIso(s) | DataRef::DurationIso(s) => s.clone(),
            DataRef::SharedString(s) => (*s).to_owned(),
            DataRef::Float(f) => number(*f),
            DataRef::Int(i) => i.to_string(),
            DataRef::Bool(b) => b.to_string(),
            other => Data::from(other.clone()).to_string(),
        };
        if text.is_empty() {
            continue;
        }
        collect.put(row as usize, col as usize, 1, 1, &text)?;
    }
    drop(cells);
    Ok(collect.finish())
}

/// Reads the table `name` (or the kind's, or the first) of an ODS workbook
/// from its `content.xml`, streaming: repeated rows and cells are expanded
/// only after the limits allow it.
fn read_ods(data: &[u8], file: &str, name: Option<&str>, kind: &str, path: &Path) -> Result<Sheet, ReadSheetError> {
    let names = ods_tables(data, file, None)?.0;
    let chosen = choose(&names, name, kind, path)?;
    let label = format!("{file}: sheet {chosen}");
    let sheet = ods_tables(data, file, Some((&chosen, &label)))?.1;
    Ok(sheet.unwrap_or(Sheet {
        label,
        rows: Vec::new(),
    }))
}

fn content_xml<'a>(data: &'a [u8], file: &str) -> Result<impl std::io::BufRead + 'a, ReadSheetError> {
    let unreadable =
        |e: &dyn std::fmt::Display| ReadSheetError::Unreadable(format!("`{file}` is not an ODS workbook: {e}"));
    let mut zip = zip::ZipArchive::new(Cursor::new(data)).map_err(|e| unreadable(&e))?;
    let mut entry = zip.by_name("content.xml").map_err(|e| unreadable(&e))?;
    // Already counted by `check_zip`: within the unzipped limit.
    let mut xml = Vec::new();
    entry
        .by_ref()
        .take(max::SHEET_UNZIPPED + 1)
        .read_to_end(&mut xml)
        .map_err(|e| unreadable(&e))?;
    Ok(BufReader::new(Cursor::new(xml)))
}

fn attr(e: &BytesStart, key: &str) -> Option<String> {
    let a = e.try_get_attribute(key).ok()??;
    a.normalized_value(quick_xml::XmlVersion::Implicit1_0)
        .ok()
        .map(|v| v.into_owned())
}

fn count_attr(e: &BytesStart, key: &str) -> usize {
    attr(e, key).and_then(|v| v.trim().parse().ok()).unwrap_or(1).max(1)
}

/// One pass over `content.xml`: the table names in order, and when `want`
/// names a table, its cells.
#[allow(clippy::type_complexity)]
fn ods_tables(
    data: &[u8],
    file: &str,
    want: Option<(&str, &str)>,
) -> Result<(Vec<String>, Option<Sheet>), ReadSheetError> {
    let bad = |e: &dyn std::fmt::Display| ReadSheetError::Unreadable(format!("`{file}` is not an ODS workbook: {e}"));
    let mut reader = quick_xml::Reader::from_reader(content_xml(data, file)?);
    let mut buf = Vec::new();
    let mut names = Vec::new();
    let mut sheet = None;
    // Inside the wanted table: the collector, the current row and column.
    let mut collect: Option<Collect> = None;
    let (mut row, mut col, mut row_repeat) = (0usize, 0usize, 1usize);
    // Inside a cell: its repeat, its value, its text, paragraph count, annotation depth.
    let mut cell: Option<(usize, Option<String>, String, usize)> = None;
    let mut skip_depth = 0usize;
    loop {
        let event = reader.read_event_into(&mut buf).map_err(|e| bad(&e))?;
        let empty = matches!(event, Event::Empty(_));
        match event {
            Event::Start(e) | Event::Empty(e) => {
                let name = e.name();
                let tag = name.as_ref();
                if skip_depth > 0 {
                    if !empty {
                        skip_depth += 1;
                    }
                } else if tag == "table:table" {
                    let n = attr(&e, "table:name").unwrap_or_default();
                    if let Some((w, label)) = want
                        && n == w
                        && sheet.is_none()
                        && collect.is_none()
                    {
                        collect = Some(Collect::new(label));
                        row = 0;
                    }
                    names.push(n);
                } else if let Some(c) = collect.as_mut() {
                    match tag {
                        "table:table-row" => {
                            row_repeat = count_attr(&e, "table:number-rows-repeated");
                            col = 0;
                            if empty {
                                row = row.saturating_add(row_repeat);
                            }
                        }
                        "table:table-cell" | "table:covered-table-cell" => {
                            let repeat = count_attr(&e, "table:number-columns-repeated");
                            let value = match attr(&e, "office:value-type").as_deref() {
                                Some("float" | "percentage" | "currency") => {
                                    attr(&e, "office:value").and_then(|v| v.parse::<f64>().ok()).map(number)
                                }
                                Some("boolean") => {
                                    attr(&e, "office:boolean-value").map(|v| (v == "true" || v == "TRUE").to_string())
                                }
                                Some("date") => attr(&e, "office:date-value"),
                                Some("time") => attr(&e, "office:time-value"),
                                Some("string") => attr(&e, "office:string-value"),
                                _ => None,
                            };
                            if empty {
                                if let Some(v) = value.filter(|v| !v.is_empty()) {
                                    c.put(row, col, row_repeat, repeat, &v)?;
                                }
                                col = col.saturating_add(repeat);
                            } else {
                                cell = Some((repeat, value, String::new(), 0));
                            }
                        }
                        "office:annotation" if !empty => skip_depth = 1,
                        "text:p" | "text:h" => {
                            if let Some(cell) = cell.as_mut() {
                                if cell.3 > 0 {
                                    cell.2.push('\n');
                                }
                                cell.3 += 1;
                            }
                        }
                        "text:s" => {
                            if let Some(cell) = cell.as_mut() {
                                let n = count_attr(&e, "text:c");
                                c.fits(row, col, 1, 1, cell.2.len().saturating_add(n))?;
                                cell.2.extend(std::iter::repeat_n(' ', n));
                            }
                        }
                        "text:tab" => {
                            if let Some(cell) = cell.as_mut() {
                                cell.2.push('\t');
                            }
                        }
                        "text:line-break" => {
                            if let Some(cell) = cell.as_mut() {
                                cell.2.push('\n');
                            }
                        }
                        _ => {}
                    }
                }
            }
            Event::End(e) => {
                let name = e.name();
                let tag = name.as_ref();
                if skip_depth > 0 {
                    skip_depth -= 1;
                } else if tag == "table:table" {
                    if let Some(c) = collect.take() {
                        sheet = Some(c.finish());
                    }
                } else if let Some(c) = collect.as_mut() {
                    match tag {
                        "table:table-row" => row = row.saturating_add(row_repeat),
                        "table:table-cell" | "table:covered-table-cell" => {
                            if let Some((repeat, value, text, _)) = cell.take() {
                                let v = value.unwrap_or(text);
                                if !v.is_empty() {
                                    c.put(row, col, row_repeat, repeat, &v)?;
                                }
                                col = col.saturating_add(repeat);
                            }
                        }
                        _ => {}
                    }
                }
            }
            Event::Text(t) => {
                if skip_depth == 0
                    && let (Some(c), Some(cell)) = (collect.as_ref(), cell.as_mut())
                {
                    let t = t.xml10_content();
                    c.fits(row, col, 1, 1, cell.2.len().saturating_add(t.len()))?;
                    cell.2.push_str(&t);
                }
            }
            Event::GeneralRef(r) => {
                if skip_depth == 0
                    && let Some(cell) = cell.as_mut()
                {
                    match r.resolve_char_ref() {
                        Ok(Some(ch)) => cell.2.push(ch),
                        _ => {
                            if let Some(s) = quick_xml::escape::resolve_predefined_entity(&r) {
                                cell.2.push_str(s);
                            }
                        }
                    }
                }
            }
            Event::Eof => break,
            _ => {}
        }
        buf.clear();
    }
    Ok((names, sheet))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_name_the_cell() {
        let c = Collect::new("cards.xlsx: sheet Cards");
        assert!(c.fits(0, 0, 1, 1, 3).is_ok());
        let Err(ReadSheetError::Refused(d)) = c.fits(1_048_575, 16_383, 1, 1, 1) else {
            panic!("a far cell was accepted")
        };
        assert!(d.message.contains("XFD1048576"), "{}", d.message);
        let Err(ReadSheetError::Refused(d)) = c.fits(0, 0, 1, 1, MAX_CELL_BYTES + 1) else {
            panic!("a huge cell was accepted")
        };
        assert!(d.message.contains("cell A1"), "{}", d.message);
    }
}
