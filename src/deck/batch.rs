//! An organiser's batch: one verdict per list (player, legal or not, the
//! rule ids, the deck hash) as a table, CSV and JSON. The decklist sheets
//! are rendered by [`crate::render::decklist`].

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::DeckReport;
use super::words::printable;

/// Whether a file of a batch folder holds a list, by its extension.
pub fn is_list_file(path: &Path) -> bool {
    matches!(
        path.extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .as_deref(),
        Some("txt" | "md" | "markdown" | "csv" | "tsv" | "dek" | "list" | "yaml" | "yml" | "xlsx" | "ods")
    )
}

/// Why an entry of a batch folder is not read as a list, if it is not:
/// every entry is read, refused with its reason, or named as skipped.
pub fn skip_reason(path: &Path) -> Option<&'static str> {
    let name = path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
    if path.is_dir() {
        Some("a folder (lists in folders inside the batch folder are not read)")
    } else if name.starts_with('.') {
        Some("a hidden file")
    } else if is_list_file(path) {
        None
    } else {
        Some("not a list file by its extension (.txt, .md, .csv, .tsv, .xlsx, .ods, .yaml)")
    }
}

/// Illegal lists whose problems a batch prints in full; the rest are in
/// the verdicts and on their sheets.
pub const MAX_DETAILED: usize = 20;

pub fn more_details(n: usize) -> String {
    format!(
        "… and {n} more illegal or unreadable list{} (problems in verdicts.json and on the sheets)\n\n",
        if n == 1 { "" } else { "s" }
    )
}

/// Sheets in `out` named as a batch names them (`03-ana.pdf`) that this
/// run did not write.
pub fn stale_sheets(out: &Path, written: &std::collections::BTreeSet<PathBuf>) -> Vec<PathBuf> {
    let Ok(rd) = std::fs::read_dir(out) else {
        return Vec::new();
    };
    let mut stale: Vec<PathBuf> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let digits = name.chars().take_while(char::is_ascii_digit).count();
            digits >= 2 && name[digits..].starts_with('-') && name.ends_with(".pdf") && p.is_file()
        })
        .filter(|p| !written.contains(p))
        .collect();
    stale.sort();
    stale
}

/// One line of the verdicts.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    pub player: String,
    pub file: String,
    pub legal: bool,
    /// The file is not a list at all (E090): its own verdict, exit 2.
    pub unreadable: bool,
    /// The list's own title, if it gives one.
    pub title: Option<String>,
    /// Broken rule ids, then codes of problems reading the list (`E028`).
    pub rules: Vec<String>,
    pub cards: u32,
    pub hash: String,
    pub locale: String,
    /// The file the decklist sheet went to, if one was written.
    pub sheet: Option<String>,
}

pub fn row(report: &DeckReport, sheet: Option<&PathBuf>) -> Row {
    let mut rules = report.broken_rules();
    rules.extend(report.problem_codes().into_iter().map(str::to_string));
    Row {
        player: report.player(),
        file: report.file.display().to_string(),
        legal: report.is_legal(),
        unreadable: report.unreadable,
        title: report.title().map(str::to_string),
        rules,
        cards: report.deck.total(),
        hash: report.hash.clone(),
        locale: report.verdict.locale.clone(),
        sheet: sheet
            .and_then(|p| p.file_name())
            .map(|f| f.to_string_lossy().into_owned()),
    }
}

/// The verdicts as an aligned table, then a count of illegal lists.
pub fn table(rows: &[Row]) -> String {
    let head = ["#", "player", "verdict", "rules", "cards", "hash", "file"];
    let body: Vec<[String; 7]> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            [
                (i + 1).to_string(),
                printable(&r.player),
                // Problems shout, as on the sheets.
                match verdict(r) {
                    "legal" => "legal".to_string(),
                    other => other.to_uppercase(),
                },
                r.rules.join(" "),
                r.cards.to_string(),
                r.hash.clone(),
                printable(&r.file),
            ]
        })
        .collect();
    let mut width = head.map(|h| h.chars().count());
    for b in &body {
        for (w, cell) in width.iter_mut().zip(b.iter()) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: &[String]| {
        let mut s = String::new();
        for (i, (cell, w)) in cells.iter().zip(width.iter()).enumerate() {
            if i + 1 == cells.len() {
                s.push_str(cell);
            } else {
                s.push_str(cell);
                s.push_str(&" ".repeat(w - cell.chars().count() + 2));
            }
        }
        s.trim_end().to_string() + "\n"
    };
    let mut out = line(&head.map(str::to_string));
    for b in &body {
        out.push_str(&line(b));
    }
    let unreadable = rows.iter().filter(|r| r.unreadable).count();
    let illegal = rows.iter().filter(|r| !r.legal).count() - unreadable;
    out.push_str(&format!(
        "{} list{}: {} legal, {} illegal",
        rows.len(),
        if rows.len() == 1 { "" } else { "s" },
        rows.len() - illegal - unreadable,
        illegal
    ));
    if unreadable > 0 {
        out.push_str(&format!(", {unreadable} unreadable"));
    }
    out.push('\n');
    out
}

/// `legal`, `illegal` or `unreadable`.
pub fn verdict(r: &Row) -> &'static str {
    if r.unreadable {
        "unreadable"
    } else if r.legal {
        "legal"
    } else {
        "illegal"
    }
}

/// A cell a spreadsheet would read as a formula (`=HYPERLINK(…)`,
/// `+cmd`, `-2+3`, `@SUM(…)`, or one starting with a tab or carriage
/// return) made inert the way OWASP's CSV-injection advice says: a leading
/// apostrophe, which spreadsheets show as text and do not display.
pub fn inert(cell: &str) -> std::borrow::Cow<'_, str> {
    if cell.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{cell}").into()
    } else {
        cell.into()
    }
}

/// The verdicts as CSV (RFC 4180, a header row); text from lists and file
/// names is made inert for spreadsheets ([`inert`]).
pub fn csv(rows: &[Row]) -> String {
    let mut w = ::csv::Writer::from_writer(Vec::new());
    let _ = w.write_record([
        "player", "title", "file", "verdict", "legal", "rules", "cards", "hash", "locale", "sheet",
    ]);
    for r in rows {
        let _ = w.write_record([
            inert(&r.player).as_ref(),
            inert(r.title.as_deref().unwrap_or("")).as_ref(),
            inert(&r.file).as_ref(),
            verdict(r),
            if r.legal { "yes" } else { "no" },
            &r.rules.join(" "),
            &r.cards.to_string(),
            r.hash.as_str(),
            r.locale.as_str(),
            inert(r.sheet.as_deref().unwrap_or("")).as_ref(),
        ]);
    }
    String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
}

/// `verdicts.json` written as the lists are judged: each full report as it
/// comes, the verdict rows at the end. With `keep`, the text is also kept
/// (for `--format json` on standard output).
pub struct JsonWriter<W: Write> {
    out: W,
    kept: Option<String>,
    reports: usize,
}

impl<W: Write> JsonWriter<W> {
    pub fn new(out: W, game: &str, keep: bool) -> std::io::Result<JsonWriter<W>> {
        let mut w = JsonWriter {
            out,
            kept: keep.then(String::new),
            reports: 0,
        };
        w.put(&format!("{{\n  \"game\": {},\n  \"reports\": [", json_string(game)))?;
        Ok(w)
    }

    fn put(&mut self, s: &str) -> std::io::Result<()> {
        if let Some(k) = &mut self.kept {
            k.push_str(s);
        }
        self.out.write_all(s.as_bytes())
    }

    /// Appends one list's full report.
    pub fn report(&mut self, report: &super::report::JsonDeck) -> std::io::Result<()> {
        let text = serde_json::to_string_pretty(report).map_err(std::io::Error::other)?;
        let sep = if self.reports == 0 { "\n" } else { ",\n" };
        let indented = text.replace('\n', "\n    ");
        self.put(&format!("{sep}    {indented}"))?;
        self.reports += 1;
        Ok(())
    }

    /// Closes the reports, writes the verdicts and counts, flushes and
    /// syncs; returns the kept text (empty unless kept).
    pub fn finish(mut self, rows: &[Row]) -> std::io::Result<String>
    where
        W: IntoFile,
    {
        let verdicts = serde_json::to_string_pretty(rows)
            .map_err(std::io::Error::other)?
            .replace('\n', "\n  ");
        let unreadable = rows.iter().filter(|r| r.unreadable).count();
        self.put(&format!(
            "\n  ],\n  \"lists\": {},\n  \"illegal\": {},\n  \"unreadable\": {unreadable},\n  \"verdicts\": {verdicts}\n}}\n",
            rows.len(),
            rows.iter().filter(|r| !r.legal).count() - unreadable,
        ))?;
        self.out.sync()?;
        Ok(self.kept.take().unwrap_or_default())
    }
}

/// A writer whose bytes can be made durable.
pub trait IntoFile: Write {
    fn sync(&mut self) -> std::io::Result<()>;
}

impl IntoFile for std::io::BufWriter<std::fs::File> {
    fn sync(&mut self) -> std::io::Result<()> {
        self.flush()?;
        self.get_ref().sync_all()
    }
}

fn json_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

/// A file name for a player's sheet: `03-ana-garcia.pdf`.
pub fn sheet_name(index: usize, player: &str) -> String {
    let slug: String = super::names::normalize(&player.replace(['.', ','], " "))
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let slug = slug.trim_matches('-');
    let slug = if slug.is_empty() { "list" } else { slug };
    format!("{:02}-{slug}.pdf", index + 1)
}
