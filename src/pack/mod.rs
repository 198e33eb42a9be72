//! Finding and reading game packs: the data directory, each pack's
//! `game.yaml` and component files. I/O lives here and in `cmd/`.

pub mod assets;
pub mod construction;
pub mod cover;
pub mod decks;
pub mod decl;
pub mod draw;
pub mod effects;
pub mod format;
pub mod git;
pub mod node_de;
pub mod plain_yaml;
pub mod reader;
pub mod revision;
pub mod yaml;

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::diag::{Code, Diagnostic, FileId, Span};
use crate::fsx::read::{ReadError, Refusal, Scope, max, read_bounded};
use yaml::{Limits, Node};

/// A fatal error: the run cannot continue (exit code 2).
#[derive(Debug)]
pub enum LoadError {
    /// A path could not be read.
    Io { path: PathBuf, source: io::Error },
    /// The data directory holds no pack (or not the requested ones).
    NoPacks { path: PathBuf, detail: String },
    /// The command needs a project's games and the current folder is in none.
    NoProject,
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::Io { path, source } => write!(f, "cannot read `{}`: {source}", path.display()),
            LoadError::NoPacks { path, detail } if path.as_os_str().is_empty() => f.write_str(detail),
            LoadError::NoPacks { path, detail } => write!(f, "{detail} in `{}`", path.display()),
            LoadError::NoProject => f.write_str(crate::project::NOT_IN_A_PROJECT),
        }
    }
}

impl std::error::Error for LoadError {}

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> LoadError + '_ {
    move |source| LoadError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The folders of the data directory that should be packs, sorted by name.
/// `only` restricts them to some game ids.
pub fn pack_dirs(data: &Path, only: &[String]) -> Result<Vec<PathBuf>, LoadError> {
    let mut dirs = Vec::new();
    for entry in fs::read_dir(data).map_err(io_err(data))? {
        let entry = entry.map_err(io_err(data))?;
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || !path.is_dir() {
            continue;
        }
        if only.is_empty() || only.contains(&name) {
            dirs.push(path);
        }
    }
    dirs.sort();
    if dirs.is_empty() {
        let detail = if only.is_empty() {
            "no game pack found".to_string()
        } else {
            format!("no game pack named {}", only.join(", "))
        };
        return Err(LoadError::NoPacks {
            path: data.to_path_buf(),
            detail,
        });
    }
    for want in only {
        if !dirs.iter().any(|d| d.file_name().is_some_and(|n| n == want.as_str())) {
            return Err(LoadError::NoPacks {
                path: data.to_path_buf(),
                detail: format!("no game pack named `{want}`"),
            });
        }
    }
    Ok(dirs)
}

/// The component files of a pack, sorted: `components/<kind>.yaml` and
/// `components/<kind>/*.yaml`, each with the kind its location names.
pub fn component_files(pack: &Path) -> Result<Vec<(String, PathBuf)>, LoadError> {
    let dir = pack.join("components");
    let mut out = Vec::new();
    if !dir.exists() {
        return Ok(out);
    }
    let mut entries: Vec<_> = fs::read_dir(&dir)
        .map_err(io_err(&dir))?
        .collect::<Result<_, _>>()
        .map_err(io_err(&dir))?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        if path.is_dir() {
            let mut inner: Vec<_> = fs::read_dir(&path)
                .map_err(io_err(&path))?
                .collect::<Result<_, _>>()
                .map_err(io_err(&path))?;
            inner.sort_by_key(|e| e.file_name());
            for e in inner {
                let p = e.path();
                if is_yaml(&p) {
                    out.push((name.clone(), p));
                }
            }
        } else if is_yaml(&path) {
            let kind = path.file_stem().unwrap_or_default().to_string_lossy().into_owned();
            out.push((kind, path));
        }
    }
    Ok(out)
}

fn is_yaml(p: &Path) -> bool {
    is_entry(p) && matches!(p.extension().and_then(|e| e.to_str()), Some("yaml" | "yml"))
}

/// True for a name that exists and is not a folder: a file, but also a
/// link, FIFO or device, which the reader then refuses with a diagnostic
/// instead of skipping it without a word.
pub fn is_entry(p: &Path) -> bool {
    fs::symlink_metadata(p).is_ok() && !p.is_dir()
}

/// A file read from disk, bounded in size, as UTF-8 text.
pub enum ReadFile {
    Text(Arc<str>),
    /// Refused (too large, a special file, outside the project) or not
    /// UTF-8: the diagnostic to report. Its span is filled in by the caller,
    /// which registers the file with no text, so nothing of it is shown.
    Rejected(Box<dyn FnOnce(FileId) -> Diagnostic + Send>),
}

/// What a file is for: its size limit and how problems with it are explained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    PackFile,
    Deck,
    Log,
    Po,
    /// A font file in `fonts/`.
    Font,
}

impl Input {
    /// The largest file of this kind (pack files use [`Limits::max_file_bytes`]).
    pub fn limit(self, limits: &Limits) -> u64 {
        match self {
            Input::PackFile => limits.max_file_bytes,
            Input::Deck => max::DECK,
            Input::Log => max::LOG,
            Input::Po => max::PO,
            Input::Font => max::FONT,
        }
    }

    fn noun(self) -> &'static str {
        match self {
            Input::PackFile => "a pack file",
            Input::Deck => "a deck list",
            Input::Log => "a game log",
            Input::Po => "a PO file",
            Input::Font => "a font file",
        }
    }

    fn expected_text(self) -> &'static str {
        match self {
            Input::PackFile => "a UTF-8 encoded YAML file",
            Input::Deck => "UTF-8 text (a spreadsheet saves it as \"CSV UTF-8\")",
            Input::Log => "a UTF-8 encoded YAML game log",
            Input::Po => "a UTF-8 encoded gettext PO file",
            Input::Font => "a TrueType or OpenType font file",
        }
    }

    fn too_large_help(self) -> &'static str {
        match self {
            Input::PackFile => {
                "split it: components over several files in `components/<kind>/`, rules over several chapters in `rules/`"
            }
            Input::Deck => "a deck list is a few kilobytes: check that the right file was named",
            Input::Log => "record one game per log file",
            Input::Po => "export and import one game and locale at a time (`pnpkit i18n export <game> --locale <l>`)",
            Input::Font => "a font file is a few megabytes: check that the right file is in `fonts/`",
        }
    }
}

/// The diagnostic for a file that was not read, at the start of `file`
/// (registered without text: a refused file's content is never shown).
pub fn refused(file: FileId, input: Input, refusal: &Refusal) -> Diagnostic {
    let at = Span {
        file,
        line: 1,
        column: 1,
        start: 0,
        end: 0,
    };
    match refusal {
        Refusal::TooLarge { limit } => Diagnostic::new(Code::FileTooLarge, format!("{} is too large to read", input.noun()))
            .at(at)
            .label("not read")
            .found(format!("more than {}", max_bytes(*limit)))
            .expected(format!("at most {}", max_bytes(*limit)))
            .help(input.too_large_help()),
        Refusal::NotAFile { what } => Diagnostic::new(Code::FileRefused, format!("{} is {what}, not a file", input.noun()))
            .at(at)
            .label("not read")
            .expected(input.expected_text())
            .help("pnpkit reads regular files only: a pipe or a device could block or never end"),
        Refusal::Outside { real } => Diagnostic::new(
            Code::FileRefused,
            format!("{} leads outside the project", input.noun()),
        )
        .at(at)
        .label("not read")
        .found(format!("`{}`, outside the project folder (named there, or reached through a link)", shown_path(real).display()))
        .expected("a file inside the project folder")
        .help("copy the file into the project (do not link to it), or name it on the command line: a path named there is read wherever it is"),
        Refusal::HardLinked { links } => Diagnostic::new(
            Code::FileRefused,
            format!("{} is a hard link ({links} names for one file)", input.noun()),
        )
        .at(at)
        .label("not read")
        .expected("a file with one name, inside the project folder")
        .help("a hard link may share its content with a file outside the project: replace it with a copy"),
    }
}

/// A resolved path as messages show it: relative to the working folder
/// when it is inside it, so reports stay the same on every machine.
fn shown_path(real: &Path) -> PathBuf {
    std::env::current_dir()
        .and_then(|d| d.canonicalize())
        .ok()
        .and_then(|d| real.strip_prefix(d).ok().map(Path::to_path_buf))
        .unwrap_or_else(|| real.to_path_buf())
}

fn max_bytes(n: u64) -> String {
    crate::fsx::read::bytes(n)
}

/// Reads a text file of kind `input` inside `scope`, bounded by its limit.
/// A missing or unreadable file is fatal; a refused or non-UTF-8 one comes
/// back as the diagnostic to report.
pub fn read_text(path: &Path, input: Input, limits: &Limits, scope: &Scope) -> Result<ReadFile, LoadError> {
    let bytes = match read_bounded(path, input.limit(limits), scope) {
        Ok(b) => b,
        Err(ReadError::Io(source)) => return Err(io_err(path)(source)),
        Err(ReadError::Refused(r)) => return Ok(ReadFile::Rejected(Box::new(move |file| refused(file, input, &r)))),
    };
    match String::from_utf8(bytes) {
        Ok(s) => Ok(ReadFile::Text(s.into())),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            Ok(ReadFile::Rejected(Box::new(move |file| {
                Diagnostic::new(Code::YamlSyntax, "file is not UTF-8 text")
                    .at(Span {
                        file,
                        line: 1,
                        column: 1,
                        start: 0,
                        end: 0,
                    })
                    .label(format!("invalid UTF-8 at byte {at}"))
                    .expected(input.expected_text())
            })))
        }
    }
}

/// The scope pack files are read in: the data folder holding the pack
/// folder `dir` (as `check` reads them).
pub fn pack_scope(dir: &Path) -> Result<Scope, LoadError> {
    let data = dir
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    Scope::within(data).map_err(io_err(data))
}

/// Reads a pack file (YAML) inside `scope`.
pub fn read_file(path: &Path, limits: &Limits, scope: &Scope) -> Result<ReadFile, LoadError> {
    read_text(path, Input::PackFile, limits, scope)
}

/// Parses text already registered as `file`: with the fast reader of plain
/// YAML when the text is in its reach (the same tree), else the full parser.
pub fn parse_yaml(text: &str, file: FileId, limits: &Limits) -> Result<Node, Box<Diagnostic>> {
    match plain_yaml::parse(text, file, limits) {
        Some(node) => Ok(node),
        None => yaml::parse(text, file, limits),
    }
}
