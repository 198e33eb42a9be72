//! The typst World: file access sandboxed to the project root (symlinks
//! resolved and checked) and the files built into pnpkit, fonts only from
//! the project's `fonts/` and the built-in ones, no packages, and a fixed
//! clock so the same input gives the same PDF.
//!
//! A layout's path (`/templates/shared/kit.typ`) is the project's file when
//! the project has it, else the built-in file of that path: a project
//! restyles a built-in layout by placing a file of the same name.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use typst::diag::{FileError, FileResult, PackageError};
use typst::foundations::{Bytes, Datetime, Duration};
use typst::syntax::{FileId, RootedPath, Source, VirtualPath, VirtualRoot};
use typst::text::{Font, FontBook};
use typst::utils::LazyHash;
use typst::{Library, LibraryExt, World};

use crate::fsx::read::{ReadError, Refusal, Scope, max, read_bounded};

/// What every document of a run shares: fonts, the standard library, the clock.
pub struct Shared {
    /// The project folder; `None` outside a project (built-in files only).
    root: Option<PathBuf>,
    /// Project files a layout may read: inside the root, links resolved.
    scope: Option<Scope>,
    library: LazyHash<Library>,
    book: LazyHash<FontBook>,
    fonts: Vec<Font>,
    now: Datetime,
    /// Unix seconds of `now`, for PDF metadata.
    pub epoch: i64,
}

impl Shared {
    /// The project at `root`: its `fonts/` (if any) before the built-in
    /// fonts, so a project font takes the place of a built-in one of the same
    /// family and style. `epoch` is the fixed "now" in Unix seconds.
    pub fn new(root: &Path, epoch: i64) -> std::io::Result<Shared> {
        Shared::open(Some(root), epoch)
    }

    /// [`Shared::new`], or outside any project (`None`): built-in layouts and fonts only.
    pub fn open(root: Option<&Path>, epoch: i64) -> std::io::Result<Shared> {
        let root = root.map(Path::canonicalize).transpose()?;
        let mut fonts = Vec::new();
        // Fonts are read like every project file: opened once, checked on the
        // opened file (inside the project, not a link out of it), bounded.
        let scope = root.as_deref().map(Scope::within).transpose()?;
        if let (Some(root), Some(scope)) = (&root, &scope) {
            let dir = root.join("fonts");
            let listed = match fs::read_dir(&dir) {
                Ok(entries) => entries.filter_map(|e| e.ok().map(|e| e.path())).collect(),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
                Err(e) => return Err(e),
            };
            for p in crate::fonts::font_files(listed) {
                let bytes = read_bounded(&p, max::FONT, scope).map_err(|e| match e {
                    ReadError::Io(e) => e,
                    ReadError::Refused(r) => std::io::Error::other(format!("`{}` is not read: {r}", p.display())),
                })?;
                fonts.extend(Font::iter(Bytes::new(bytes)));
            }
        }
        for (_, bytes) in crate::builtin::fonts() {
            fonts.extend(Font::iter(Bytes::new(bytes)));
        }
        let book = FontBook::from_fonts(&fonts);
        let dt = time::OffsetDateTime::from_unix_timestamp(epoch).unwrap_or(time::OffsetDateTime::UNIX_EPOCH);
        let now = Datetime::from_ymd_hms(
            dt.year(),
            dt.month() as u8,
            dt.day(),
            dt.hour(),
            dt.minute(),
            dt.second(),
        )
        .unwrap_or_else(|| Datetime::from_ymd(2026, 1, 1).expect("valid date"));
        Ok(Shared {
            root,
            scope,
            library: LazyHash::new(Library::default()),
            book: LazyHash::new(book),
            fonts,
            now,
            epoch,
        })
    }

    /// The project folder, when there is a project.
    pub fn root(&self) -> Option<&Path> {
        self.root.as_deref()
    }

    /// The project's fonts folder (which may not exist), or none outside a project.
    pub fn fonts_dir(&self) -> PathBuf {
        self.root.as_deref().map(|r| r.join("fonts")).unwrap_or_default()
    }

    /// Whether a layout at `rel` (`templates/mygame/kit.typ`) exists, in the
    /// project or built in.
    pub fn has_layout(&self, rel: &str) -> bool {
        self.root.as_ref().is_some_and(|r| r.join(rel).is_file()) || crate::builtin::file(rel).is_some()
    }

    pub fn now(&self) -> Datetime {
        self.now
    }

    /// Reads a file (`rel` to the root) as layouts read them: the project's,
    /// inside the project, opened once and checked, bounded; else the
    /// built-in file of that path.
    pub fn read(&self, rel: &Path) -> Result<Vec<u8>, ReadError> {
        let built_in = || {
            rel.to_str()
                .and_then(crate::builtin::file)
                .map(<[u8]>::to_vec)
                .ok_or_else(|| ReadError::Io(std::io::Error::from(std::io::ErrorKind::NotFound)))
        };
        let (Some(root), Some(scope)) = (&self.root, &self.scope) else {
            return built_in();
        };
        match read_bounded(&root.join(rel), max::TEMPLATE_FILE, scope) {
            Err(ReadError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => built_in(),
            other => other,
        }
    }

    /// The fonts of `fonts/`, in the order typst's font book numbers them.
    pub fn fonts(&self) -> &[Font] {
        &self.fonts
    }

    pub fn font_count(&self) -> usize {
        self.fonts.len()
    }
}

/// The virtual path of the generated main file.
pub const MAIN: &str = "/main.typ";
/// The virtual path of the document's data.
pub const DATA: &str = "/data.json";

/// One document: a generated main source, its JSON data, and the project's files.
pub struct DocWorld<'a> {
    shared: &'a Shared,
    main: FileId,
    data_id: FileId,
    main_source: Source,
    data: Bytes,
    cache: Mutex<HashMap<FileId, FileResult<Bytes>>>,
    /// Shared with the run's budget, which finds the line a runaway layout runs.
    sources: Arc<Mutex<HashMap<FileId, Source>>>,
    /// Files made in memory by pnpkit (the pieces document), by virtual path.
    extra: HashMap<FileId, Bytes>,
    /// The in-memory files typst asked for (the build cache's dependencies).
    used: Mutex<std::collections::HashSet<FileId>>,
}

/// The virtual path of a file id (`/templates/shared/kit.typ`).
fn vpath(id: FileId) -> String {
    format!("/{}", id.vpath().get_without_slash())
}

pub fn file_id(path: &str) -> FileId {
    RootedPath::new(
        VirtualRoot::Project,
        VirtualPath::new(path).expect("valid virtual path"),
    )
    .intern()
}

impl<'a> DocWorld<'a> {
    pub fn new(shared: &'a Shared, main_text: String, data: Vec<u8>) -> Self {
        let main = file_id(MAIN);
        DocWorld {
            shared,
            main,
            data_id: file_id(DATA),
            main_source: Source::new(main, main_text),
            data: Bytes::new(data),
            cache: Mutex::new(HashMap::new()),
            sources: Arc::new(Mutex::new(HashMap::new())),
            extra: HashMap::new(),
            used: Mutex::new(std::collections::HashSet::new()),
        }
    }

    /// Adds an in-memory file at a virtual path such as `/pieces.pdf`.
    pub fn add_file(&mut self, path: &str, bytes: Bytes) {
        self.extra.insert(file_id(path), bytes);
    }

    /// Reads a project file, refusing anything outside the root (symlinks included).
    fn read(&self, id: FileId) -> FileResult<Bytes> {
        if matches!(id.root(), VirtualRoot::Package(_)) {
            return Err(FileError::Package(PackageError::Other(Some(
                "packages are not available: pnpkit builds offline and needs no package".into(),
            ))));
        }
        let rel = id.vpath().get_without_slash().to_string();
        let built_in = crate::builtin::file(&rel);
        let (Some(root), Some(scope)) = (&self.shared.root, &self.shared.scope) else {
            return built_in
                .map(Bytes::new)
                .ok_or_else(|| FileError::NotFound(PathBuf::from(&rel)));
        };
        let path = id.vpath().realize(root).map_err(FileError::Realize)?;
        // Opened once and checked on the opened file: no window between a
        // check of the path and the read for a symlink to be swapped in.
        match read_bounded(&path, max::TEMPLATE_FILE, scope) {
            Ok(bytes) => Ok(Bytes::new(bytes)),
            Err(ReadError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound && built_in.is_some() => {
                Ok(Bytes::new(built_in.unwrap_or_default()))
            }
            Err(ReadError::Io(e)) => Err(FileError::from_io(e, &path)),
            Err(ReadError::Refused(Refusal::NotAFile { what: "a directory" })) => Err(FileError::IsDirectory),
            Err(ReadError::Refused(r)) => Err(FileError::Other(Some(
                format!("pnpkit does not read `{}`: {r}", self.path_of(id).display()).into(),
            ))),
        }
    }

    /// Finds a span of this document's templates for the run's budget
    /// ([`crate::budget::enter`]): the file as the project names it, its text
    /// and the range; whether the file is built in or the project's.
    pub fn locator(&self) -> Arc<crate::budget::Locate> {
        let sources = self.sources.clone();
        let project = self.shared.root.clone();
        Arc::new(move |raw| {
            let span = typst::syntax::Span::from_raw(raw);
            let id = span.id()?;
            let source = sources.lock().ok()?.get(&id)?.clone();
            let range = source.find(span)?.range();
            let rel = id.vpath().get_without_slash().to_string();
            let built_in = project.as_ref().is_none_or(|root| !root.join(&rel).is_file());
            Some(crate::budget::Place {
                path: PathBuf::from(rel),
                text: source.text().into(),
                range,
                built_in,
            })
        })
    }

    /// The typst sources this document has loaded so far, ordered by path.
    pub fn loaded_sources(&self) -> Vec<Source> {
        let mut all: Vec<Source> = self
            .sources
            .lock()
            .map(|m| m.values().cloned().collect())
            .unwrap_or_default();
        all.sort_by_key(|s| self.path_of(s.id()));
        all
    }

    /// Every file the document read besides its main source and data, by
    /// virtual path, with its bytes (`None`: it could not be read), sorted:
    /// what the build cache checks before it reuses the document.
    pub fn read_files(&self) -> Vec<(String, Option<Bytes>)> {
        let mut out: Vec<(String, Option<Bytes>)> = Vec::new();
        for id in self.used.lock().expect("lock").iter() {
            out.push((vpath(*id), self.extra.get(id).cloned()));
        }
        for (id, r) in self.cache.lock().expect("lock").iter() {
            out.push((vpath(*id), r.as_ref().ok().cloned()));
        }
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    }

    /// The real path of a file id, for diagnostics.
    pub fn path_of(&self, id: FileId) -> PathBuf {
        let v = id.vpath().get_without_slash().to_string();
        PathBuf::from(v)
    }
}

impl World for DocWorld<'_> {
    fn library(&self) -> &LazyHash<Library> {
        &self.shared.library
    }

    fn book(&self) -> &LazyHash<FontBook> {
        &self.shared.book
    }

    fn main(&self) -> FileId {
        self.main
    }

    fn source(&self, id: FileId) -> FileResult<Source> {
        if id == self.main {
            return Ok(self.main_source.clone());
        }
        if let Some(s) = self.sources.lock().expect("lock").get(&id) {
            return Ok(s.clone());
        }
        let bytes = self.file(id)?;
        let text = std::str::from_utf8(&bytes).map_err(|_| FileError::InvalidUtf8)?;
        let source = Source::new(id, text.to_owned());
        self.sources.lock().expect("lock").insert(id, source.clone());
        Ok(source)
    }

    fn file(&self, id: FileId) -> FileResult<Bytes> {
        if id == self.data_id {
            return Ok(self.data.clone());
        }
        if let Some(b) = self.extra.get(&id) {
            self.used.lock().expect("lock").insert(id);
            return Ok(b.clone());
        }
        if id == self.main {
            return Ok(Bytes::from_string(self.main_source.text().to_owned()));
        }
        let mut cache = self.cache.lock().expect("lock");
        cache.entry(id).or_insert_with(|| self.read(id)).clone()
    }

    fn font(&self, index: usize) -> Option<Font> {
        self.shared.fonts.get(index).cloned()
    }

    fn today(&self, _offset: Option<Duration>) -> Option<Datetime> {
        Some(self.shared.now)
    }
}
