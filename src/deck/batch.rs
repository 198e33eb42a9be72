//! An organiser's batch: one verdict per list (player, legal or not, the
//! rule ids, the deck hash) as a table, CSV and JSON. The decklist sheets
//! are rendered by [`crate::render::decklist`].

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::DeckReport;
use crate::diag::SourceMap;

/// The files of a batch folder that hold lists, sorted by name.
pub fn is_list_file(path: &Path) -> bool {
    matches!(
        path.extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .as_deref(),
        Some("txt" | "md" | "markdown" | "csv" | "tsv" | "dek" | "list" | "yaml" | "yml")
    )
}

/// One line of the verdicts.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    pub player: String,
    pub file: String,
    pub legal: bool,
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
                r.player.clone(),
                if r.legal { "legal".into() } else { "ILLEGAL".into() },
                r.rules.join(" "),
                r.cards.to_string(),
                r.hash.clone(),
                r.file.clone(),
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
    let illegal = rows.iter().filter(|r| !r.legal).count();
    out.push_str(&format!(
        "{} list{}: {} legal, {} illegal\n",
        rows.len(),
        if rows.len() == 1 { "" } else { "s" },
        rows.len() - illegal,
        illegal
    ));
    out
}

/// The verdicts as CSV (RFC 4180, a header row).
pub fn csv(rows: &[Row]) -> String {
    let mut w = ::csv::Writer::from_writer(Vec::new());
    let _ = w.write_record(["player", "file", "legal", "rules", "cards", "hash", "locale", "sheet"]);
    for r in rows {
        let _ = w.write_record([
            r.player.as_str(),
            r.file.as_str(),
            if r.legal { "yes" } else { "no" },
            &r.rules.join(" "),
            &r.cards.to_string(),
            r.hash.as_str(),
            r.locale.as_str(),
            r.sheet.as_deref().unwrap_or(""),
        ]);
    }
    String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
}

#[derive(Serialize)]
struct JsonBatch<'a> {
    game: &'a str,
    lists: usize,
    illegal: usize,
    verdicts: &'a [Row],
    reports: Vec<super::report::JsonDeck<'a>>,
}

/// The verdicts and every full report as JSON.
pub fn json(game: &str, rows: &[Row], reports: &[DeckReport], sources: &SourceMap) -> String {
    let j = JsonBatch {
        game,
        lists: rows.len(),
        illegal: rows.iter().filter(|r| !r.legal).count(),
        verdicts: rows,
        reports: reports.iter().map(|r| r.json(sources)).collect(),
    };
    let mut s = serde_json::to_string_pretty(&j).unwrap_or_default();
    s.push('\n');
    s
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
