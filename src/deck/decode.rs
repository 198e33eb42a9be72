//! A list file's bytes as text, or why they are not a list: UTF-8 with or
//! without a byte-order mark, UTF-16 (little or big endian) with one, and
//! spreadsheets (`.xlsx`, `.ods`) read by the project's sheet reader
//! ([`crate::sheet::read`]) into one tab-separated line per row, so row N is
//! line N in every message. Anything else — another encoding, a picture, a
//! broken workbook — is unreadable, with the line and the reason.

use std::path::Path;

use crate::sheet::{ReadSheetError, parse_sheet};

/// Why a file is not a list, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unreadable {
    /// 1-based line and column of the first byte that is not text (0: the whole file).
    pub line: u32,
    pub column: u32,
    pub reason: String,
    /// What the player can do.
    pub help: String,
}

const SAVE_AS: &str = "save the list as UTF-8 text (or UTF-16 with a byte-order mark, as Notepad's \"Unicode\"), or as .csv, .xlsx or .ods";

/// Whether the file is a workbook read as a table.
pub fn is_workbook(path: &Path) -> bool {
    matches!(extension(path).as_str(), "xlsx" | "xlsm" | "ods")
}

fn extension(path: &Path) -> String {
    path.extension()
        .and_then(|e| e.to_str())
        .unwrap_or_default()
        .to_ascii_lowercase()
}

/// The text of a list file.
pub fn decode(bytes: Vec<u8>, path: &Path) -> Result<String, Unreadable> {
    if is_workbook(path) {
        return workbook(bytes, path);
    }
    let text = if let Some(rest) = bytes.strip_prefix(&[0xFF, 0xFE]) {
        utf16(rest, u16::from_le_bytes)?
    } else if let Some(rest) = bytes.strip_prefix(&[0xFE, 0xFF]) {
        utf16(rest, u16::from_be_bytes)?
    } else {
        let body = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(&bytes);
        match std::str::from_utf8(body) {
            Ok(s) => s.to_string(),
            Err(e) => {
                let at = e.valid_up_to();
                let (line, column) = position(&body[..at]);
                let byte = body[at];
                let what =
                    if body.starts_with(b"\x89PNG") || body.starts_with(b"%PDF") || body.starts_with(&[0xFF, 0xD8]) {
                        "this is a picture or a PDF, not a text list".to_string()
                    } else {
                        format!(
                            "byte 0x{byte:02X} is not UTF-8: the file is in another encoding (Windows-1252 or Latin-1?)"
                        )
                    };
                return Err(Unreadable {
                    line,
                    column,
                    reason: what,
                    help: SAVE_AS.into(),
                });
            }
        }
    };
    binary_check(&text)?;
    Ok(text)
}

/// Line and column after `before` (1-based).
fn position(before: &[u8]) -> (u32, u32) {
    let line = before.iter().filter(|b| **b == b'\n').count() as u32 + 1;
    let last = before.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
    let column = String::from_utf8_lossy(&before[last..]).chars().count() as u32 + 1;
    (line, column)
}

fn utf16(body: &[u8], read: fn([u8; 2]) -> u16) -> Result<String, Unreadable> {
    if body.len() % 2 == 1 {
        return Err(Unreadable {
            line: 0,
            column: 0,
            reason: "the file starts like UTF-16 but has an odd number of bytes: it is cut short".into(),
            help: SAVE_AS.into(),
        });
    }
    let units: Vec<u16> = body.chunks_exact(2).map(|c| read([c[0], c[1]])).collect();
    let mut out = String::with_capacity(units.len());
    for r in char::decode_utf16(units.iter().copied()) {
        match r {
            Ok(c) => out.push(c),
            Err(e) => {
                let (line, column) = position(out.as_bytes());
                return Err(Unreadable {
                    line,
                    column,
                    reason: format!("unit 0x{:04X} is not UTF-16 text", e.unpaired_surrogate()),
                    help: SAVE_AS.into(),
                });
            }
        }
    }
    Ok(out)
}

/// Control characters other than tab and line ends: not a text list.
fn binary_check(text: &str) -> Result<(), Unreadable> {
    let Some(at) = text.find(|c: char| c.is_control() && !matches!(c, '\t' | '\n' | '\r' | '\u{c}')) else {
        return Ok(());
    };
    let (line, column) = position(&text.as_bytes()[..at]);
    let c = text[at..].chars().next().unwrap_or('\0');
    let reason = if c == '\0' {
        "a NUL byte: this is binary data, or UTF-16 text without a byte-order mark".to_string()
    } else {
        format!("control character U+{:04X}: this is not a text list", c as u32)
    };
    Err(Unreadable {
        line,
        column,
        reason,
        help: SAVE_AS.into(),
    })
}

/// A workbook's first sheet as one tab-separated line per row (row N on line N).
fn workbook(bytes: Vec<u8>, path: &Path) -> Result<String, Unreadable> {
    let file = path.file_name().unwrap_or_default().to_string_lossy().into_owned();
    let sheet = parse_sheet(bytes, &file, &extension(path), None, "deck").map_err(|e| {
        let reason = match e {
            ReadSheetError::Unreadable(m) => m,
            ReadSheetError::Refused(d) => d.message.clone(),
        };
        Unreadable {
            line: 0,
            column: 0,
            reason,
            help: "open the file in a spreadsheet program and save it again as .xlsx, .ods or .csv".into(),
        }
    })?;
    let mut out = String::new();
    let mut line = 1usize;
    for (row, cells) in &sheet.rows {
        while line < *row {
            out.push('\n');
            line += 1;
        }
        let cells: Vec<String> = cells
            .iter()
            .map(|c| c.replace(['\t', '\r', '\n'], " ").trim().to_string())
            .collect();
        out.push_str(cells.join("\t").trim_end());
        out.push('\n');
        line += 1;
    }
    binary_check(&out)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodings() {
        let p = Path::new("l.txt");
        assert_eq!(decode(b"\xEF\xBB\xBF3 Zeus\n".to_vec(), p).unwrap(), "3 Zeus\n");
        let mut le = vec![0xFF, 0xFE];
        le.extend("1 Atenea\r\n".encode_utf16().flat_map(u16::to_le_bytes));
        assert_eq!(decode(le, p).unwrap(), "1 Atenea\r\n");
        let mut be = vec![0xFE, 0xFF];
        be.extend("1 Atenea".encode_utf16().flat_map(u16::to_be_bytes));
        assert_eq!(decode(be, p).unwrap(), "1 Atenea");
        let e = decode(b"3 Zeus\n1 Le\xF3nidas\n".to_vec(), p).unwrap_err();
        assert_eq!((e.line, e.column), (2, 5));
        let e = decode("3 Zeus".encode_utf16().flat_map(u16::to_le_bytes).collect(), p).unwrap_err();
        assert!(e.reason.contains("NUL"), "{e:?}");
    }
}
