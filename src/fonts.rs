//! The fonts a kit may use, by family name as typst names them: the project's
//! own `fonts/` and the default fonts built into pnpkit (the only two font
//! sources), and the diagnostic for a family that is in neither.

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

/// Family names of the fonts in the project folder `dir` (which may not
/// exist) and of the built-in fonts, sorted, without repeats.
pub fn families(dir: &Path) -> Families {
    static BUILT_IN: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    let built_in = BUILT_IN.get_or_init(|| {
        let mut out = Vec::new();
        for (_, bytes) in crate::builtin::fonts() {
            add_families(bytes, &mut out);
        }
        out
    });
    let mut res = Families {
        families: built_in.clone(),
        ..Families::default()
    };
    project_families(dir, &mut res);
    res.families.sort();
    res
}

/// [`families`] of a fonts folder, read the first time they are asked for
/// (a pack that names no font reads no font file).
pub struct Lazy<'a> {
    dir: &'a Path,
    found: std::cell::OnceCell<Families>,
}

impl<'a> Lazy<'a> {
    pub fn new(dir: &'a Path) -> Self {
        Lazy {
            dir,
            found: std::cell::OnceCell::new(),
        }
    }

    pub fn get(&self) -> &Families {
        self.found.get_or_init(|| families(self.dir))
    }
}

fn add_families(bytes: &[u8], out: &mut Vec<String>) {
    for info in typst::text::FontInfo::iter(bytes) {
        if !out.contains(&info.family) {
            out.push(info.family);
        }
    }
}

fn project_families(dir: &Path, res: &mut Families) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    // Fonts are read like every project file: opened once, checked on the
    // opened file (inside the project folder holding `fonts/`), bounded.
    let project = dir
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let Ok(scope) = Scope::within(project) else {
        return;
    };
    for p in font_files(entries.flatten().map(|e| e.path())) {
        match read_bounded(&p, max::FONT, &scope) {
            Ok(bytes) => add_families(&bytes, &mut res.families),
            Err(ReadError::Refused(r)) => res.refused.push((p, r)),
            Err(ReadError::Io(_)) => {}
        }
    }
}

/// A font family that neither `fonts/` nor the built-in fonts have: never a
/// silent fallback.
pub fn unknown(family: &str, families: &[String]) -> Diagnostic {
    let mut d = Diagnostic::new(
        Code::UnknownFont,
        format!("font family `{family}` is not in `fonts/` nor among the built-in fonts"),
    )
    .found(format!("`{family}`"))
    .expected(if families.is_empty() {
        "a family of a font file in `fonts/` (there is none)".to_owned()
    } else {
        format!(
            "one of the families in `fonts/` or built in: {}",
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
    let mut fonts: Vec<PathBuf> = paths.into_iter().filter(|p| is_font_file(p)).collect();
    fonts.sort();
    fonts
}

/// Whether `p` names a font file by its extension (TrueType, OpenType and
/// their collections).
pub fn is_font_file(p: &Path) -> bool {
    matches!(
        p.extension()
            .and_then(|x| x.to_str())
            .map(str::to_ascii_lowercase)
            .as_deref(),
        Some("ttf" | "otf" | "ttc" | "otc")
    )
}
