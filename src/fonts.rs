//! The project's fonts (`fonts/`, the only font source) by family name, as
//! typst names them, and the diagnostic for a family that is not there.

use std::path::{Path, PathBuf};

use crate::diag::{Code, Diagnostic};
use crate::fsx::read::{ReadError, Scope, max, read_bounded};

/// The fonts of a folder: family names, and the files that were not read.
#[derive(Debug, Default)]
pub struct Families {
    /// Family names, sorted, without repeats.
    pub families: Vec<String>,
    /// Font files refused (a link out of the project, a special file, too large).
    pub refused: Vec<(PathBuf, crate::fsx::read::Refusal)>,
}

/// Family names of the fonts in `dir`, sorted, without repeats.
pub fn families(dir: &Path) -> Families {
    let mut res = Families::default();
    let out = &mut res.families;
    let Ok(entries) = std::fs::read_dir(dir) else {
        return res;
    };
    // Fonts are read like every project file: opened once, checked on the
    // opened file (inside the project folder holding `fonts/`), bounded.
    let project = dir
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let Ok(scope) = Scope::within(project) else {
        return res;
    };
    for p in font_files(entries.flatten().map(|e| e.path())) {
        let bytes = match read_bounded(&p, max::FONT, &scope) {
            Ok(b) => b,
            Err(ReadError::Refused(r)) => {
                res.refused.push((p, r));
                continue;
            }
            Err(ReadError::Io(_)) => continue,
        };
        for info in typst::text::FontInfo::iter(&bytes) {
            if !out.contains(&info.family) {
                out.push(info.family);
            }
        }
    }
    out.sort();
    res
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

/// The font files among `paths` (by extension: TrueType, OpenType and their
/// collections), sorted: the order in which `fonts/` is loaded everywhere.
pub fn font_files(paths: impl IntoIterator<Item = PathBuf>) -> Vec<PathBuf> {
    let mut fonts: Vec<PathBuf> = paths
        .into_iter()
        .filter(|p| {
            matches!(
                p.extension()
                    .and_then(|x| x.to_str())
                    .map(str::to_ascii_lowercase)
                    .as_deref(),
                Some("ttf" | "otf" | "ttc" | "otc")
            )
        })
        .collect();
    fonts.sort();
    fonts
}
