//! The project's fonts (`fonts/`, the only font source) by family name, as
//! typst names them, and the diagnostic for a family that is not there.

use std::path::Path;

use crate::diag::{Code, Diagnostic};

/// The largest font file read.
const MAX_FONT: u64 = 64 * 1024 * 1024;

/// Family names of the fonts in `dir`, sorted, without repeats.
pub fn families(dir: &Path) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in entries.flatten() {
        let p = e.path();
        let font = matches!(
            p.extension()
                .and_then(|x| x.to_str())
                .map(str::to_ascii_lowercase)
                .as_deref(),
            Some("ttf" | "otf" | "ttc" | "otc")
        );
        if !font || !e.file_type().is_ok_and(|t| t.is_file()) {
            continue;
        }
        let Ok(meta) = e.metadata() else { continue };
        if meta.len() > MAX_FONT {
            continue;
        }
        let Ok(bytes) = std::fs::read(&p) else { continue };
        for info in typst::text::FontInfo::iter(&bytes) {
            if !out.contains(&info.family) {
                out.push(info.family);
            }
        }
    }
    out.sort();
    out
}

/// A font family that `fonts/` does not have: never a silent fallback.
pub fn unknown(family: &str, families: &[String]) -> Diagnostic {
    let mut d = Diagnostic::new(Code::UnknownFont, format!("font family `{family}` is not in `fonts/`"))
        .found(format!("`{family}`"))
        .expected(if families.is_empty() {
            "a family of a font file in `fonts/` (there is none)".to_owned()
        } else {
            format!(
                "one of the families in `fonts/`: {}",
                crate::pack::reader::quote_list(families)
            )
        })
        .help("add the font file (with its licence) to `fonts/`, or use a family that is there");
    d = d.suggest(family, families.iter().map(String::as_str));
    d
}
