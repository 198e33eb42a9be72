//! Finding and reading game packs: the data directory, each pack's
//! `game.yaml` and component files. I/O lives here and in `cmd/`.

pub mod assets;
pub mod construction;
pub mod decl;
pub mod draw;
pub mod git;
pub mod plain_yaml;
pub mod reader;
pub mod revision;
pub mod yaml;

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::diag::{Code, Diagnostic, FileId, Span};
use yaml::{Limits, Node};

/// A fatal error: the run cannot continue (exit code 2).
#[derive(Debug)]
pub enum LoadError {
    /// A path could not be read.
    Io { path: PathBuf, source: io::Error },
    /// The data directory holds no pack (or not the requested ones).
    NoPacks { path: PathBuf, detail: String },
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::Io { path, source } => write!(f, "cannot read `{}`: {source}", path.display()),
            LoadError::NoPacks { path, detail } => write!(f, "{detail} in `{}`", path.display()),
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
    p.is_file() && matches!(p.extension().and_then(|e| e.to_str()), Some("yaml" | "yml"))
}

/// A file read from disk, bounded in size, as UTF-8 text.
pub enum ReadFile {
    Text(Arc<str>),
    /// Too large or not UTF-8: the diagnostic to report (its span is filled
    /// in by the caller, which knows the file id).
    Rejected(Box<dyn FnOnce(FileId) -> Diagnostic + Send>),
}

pub fn read_file(path: &Path, limits: &Limits) -> Result<ReadFile, LoadError> {
    let meta = fs::metadata(path).map_err(io_err(path))?;
    if meta.len() > limits.max_file_bytes {
        let (size, max) = (meta.len(), limits.max_file_bytes);
        return Ok(ReadFile::Rejected(Box::new(move |file| {
            Diagnostic::new(Code::FileTooLarge, "file is too large to read")
                .at(Span {
                    file,
                    line: 1,
                    column: 1,
                    start: 0,
                    end: 0,
                })
                .label("not read")
                .found(format!("{size} bytes"))
                .expected(format!("at most {max} bytes"))
                .help("split the components over several files in `components/<kind>/`")
        })));
    }
    let bytes = fs::read(path).map_err(io_err(path))?;
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
                    .expected("a UTF-8 encoded YAML file")
            })))
        }
    }
}

/// Parses text already registered as `file`.
pub fn parse_yaml(text: &str, file: FileId, limits: &Limits) -> Result<Node, Box<Diagnostic>> {
    yaml::parse(text, file, limits)
}
