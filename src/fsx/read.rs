//! Reading files with bounds: every file is opened once, checked on the
//! opened handle (a regular file, inside the project when it must be, not a
//! hard link to elsewhere) and read by streaming up to its limit, so neither
//! a lying size, a FIFO, `/dev/zero` nor a symlink swapped in between a check
//! and a read gets past it.

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// The largest file of each kind pnpkit reads, in bytes. docs/reliability.md
/// lists them; `tests/bounded/bounds.rs` checks that it says the same.
pub mod max {
    const MIB: u64 = 1024 * 1024;
    /// A YAML file of a pack (`game.yaml`, components, rules).
    pub const PACK_FILE: u64 = 16 * MIB;
    /// A deck or army list.
    pub const DECK: u64 = 16 * MIB;
    /// A game log.
    pub const LOG: u64 = 16 * MIB;
    /// A sheet file given to `import` (CSV, or a zipped XLSX or ODS).
    pub const SHEET: u64 = 32 * MIB;
    /// All the parts of an XLSX or ODS workbook once unzipped, together.
    pub const SHEET_UNZIPPED: u64 = 100 * MIB;
    /// A gettext PO file given to `i18n import`, and a translation lock file.
    pub const PO: u64 = 16 * MIB;
    /// A file a typst layout reads (a template, an image), and the gallery template.
    pub const TEMPLATE_FILE: u64 = 64 * MIB;
    /// A font file in `fonts/`.
    pub const FONT: u64 = 64 * MIB;
}

/// Where a file may be: anywhere (a path the user named on the command
/// line), or inside one of some folders (the project's data, templates,
/// fonts), symlinks resolved, and not a hard link.
#[derive(Clone, Debug)]
pub struct Scope {
    anywhere: bool,
    roots: Vec<PathBuf>,
}

impl Scope {
    /// A path the user named: read wherever it is.
    pub fn named() -> Scope {
        Scope {
            anywhere: true,
            roots: Vec::new(),
        }
    }

    /// Files inside `root` (which must exist). The root itself is resolved
    /// once here: a `--data` folder that is a symlink is what the user named.
    pub fn within(root: &Path) -> io::Result<Scope> {
        Ok(Scope {
            anywhere: false,
            roots: vec![root.canonicalize()?],
        })
    }

    /// Files inside any of `roots`; those that cannot be resolved are left
    /// out (with none left, nothing is accepted).
    pub fn within_any(roots: &[&Path]) -> Scope {
        Scope {
            anywhere: false,
            roots: roots.iter().filter_map(|r| r.canonicalize().ok()).collect(),
        }
    }

    /// True for a scope that accepts any path.
    pub fn is_named(&self) -> bool {
        self.anywhere
    }

    pub fn roots(&self) -> &[PathBuf] {
        &self.roots
    }
}

/// Why a file was not read. Nothing of its content is kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// More bytes than the limit were there to read (whatever the metadata said).
    TooLarge { limit: u64 },
    /// A directory, FIFO, socket or device: `what` says which.
    NotAFile { what: &'static str },
    /// The opened file lies outside the project (through a symlink or `..`).
    Outside { real: PathBuf },
    /// A file with several hard links: one of them may be outside the project.
    HardLinked { links: u64 },
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::TooLarge { limit } => write!(f, "it is larger than the limit of {}", bytes(*limit)),
            Refusal::NotAFile { what } => write!(f, "it is {what}, not a regular file"),
            Refusal::Outside { real } => write!(f, "it leads outside the project (to `{}`)", real.display()),
            Refusal::HardLinked { links } => write!(
                f,
                "it has {links} hard links, so it may be a file from outside the project"
            ),
        }
    }
}

/// A failed read: the file could not be opened or read (I/O), or was refused.
#[derive(Debug)]
pub enum ReadError {
    Io(io::Error),
    Refused(Refusal),
}

impl From<io::Error> for ReadError {
    fn from(e: io::Error) -> Self {
        ReadError::Io(e)
    }
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Io(e) => e.fmt(f),
            ReadError::Refused(r) => write!(f, "not read: {r}"),
        }
    }
}

/// "16 MiB", "512 bytes": a limit as people read it.
pub fn bytes(n: u64) -> String {
    const MIB: u64 = 1024 * 1024;
    if n >= MIB && n.is_multiple_of(MIB) {
        format!("{} MiB", n / MIB)
    } else if n >= 1024 && n.is_multiple_of(1024) {
        format!("{} KiB", n / 1024)
    } else {
        format!("{n} bytes")
    }
}

/// Opens `path` for reading without blocking on a FIFO, and checks the
/// opened file: a regular file, and inside `scope`.
pub fn open_checked(path: &Path, scope: &Scope) -> Result<File, ReadError> {
    let file = open_nonblocking(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(ReadError::Refused(Refusal::NotAFile { what: describe(&meta) }));
    }
    if !scope.is_named() {
        let real = real_path(&file, path)?;
        if !scope.roots.iter().any(|r| real.starts_with(r)) {
            return Err(ReadError::Refused(Refusal::Outside { real }));
        }
        let links = link_count(&meta);
        if links > 1 {
            return Err(ReadError::Refused(Refusal::HardLinked { links }));
        }
    }
    Ok(file)
}

/// Reads at most `limit` bytes from an open file; more is a refusal.
pub fn read_to_limit(file: impl Read, limit: u64) -> Result<Vec<u8>, ReadError> {
    let mut buf = Vec::new();
    file.take(limit.saturating_add(1)).read_to_end(&mut buf)?;
    if buf.len() as u64 > limit {
        return Err(ReadError::Refused(Refusal::TooLarge { limit }));
    }
    Ok(buf)
}

/// Opens, checks and reads a whole file of at most `limit` bytes.
pub fn read_bounded(path: &Path, limit: u64, scope: &Scope) -> Result<Vec<u8>, ReadError> {
    let file = open_checked(path, scope)?;
    read_to_limit(file, limit)
}

#[cfg(unix)]
fn open_nonblocking(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    // O_NONBLOCK: opening a FIFO with no writer returns at once instead of
    // waiting; the type check below then refuses it. No effect on regular files.
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32)
        .open(path)
}

#[cfg(not(unix))]
fn open_nonblocking(path: &Path) -> io::Result<File> {
    File::open(path)
}

#[cfg(unix)]
fn describe(meta: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_dir() {
        "a directory"
    } else if t.is_fifo() {
        "a FIFO (named pipe)"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else {
        "a special file"
    }
}

#[cfg(not(unix))]
fn describe(meta: &std::fs::Metadata) -> &'static str {
    if meta.is_dir() { "a directory" } else { "a special file" }
}

#[cfg(unix)]
fn link_count(meta: &std::fs::Metadata) -> u64 {
    std::os::unix::fs::MetadataExt::nlink(meta)
}

#[cfg(not(unix))]
fn link_count(_: &std::fs::Metadata) -> u64 {
    1
}

/// The real path of an open file: what the descriptor refers to, not what
/// the path names now. On Linux from `/proc/self/fd`; elsewhere (or without
/// /proc) the resolved path, accepted only if it is still the same file.
fn real_path(file: &File, path: &Path) -> io::Result<PathBuf> {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        if let Ok(p) = std::fs::read_link(format!("/proc/self/fd/{}", file.as_raw_fd()))
            && p.is_absolute()
        {
            return Ok(p);
        }
    }
    let real = path.canonicalize()?;
    if same_file(file, &real)? {
        Ok(real)
    } else {
        Err(io::Error::other("the file changed while it was opened"))
    }
}

#[cfg(unix)]
fn same_file(file: &File, path: &Path) -> io::Result<bool> {
    use std::os::unix::fs::MetadataExt;
    let (a, b) = (file.metadata()?, std::fs::metadata(path)?);
    Ok(a.dev() == b.dev() && a.ino() == b.ino())
}

#[cfg(not(unix))]
fn same_file(_: &File, _: &Path) -> io::Result<bool> {
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_up_to_the_limit_and_no_further() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.txt");
        std::fs::write(&p, b"12345").unwrap();
        assert_eq!(read_bounded(&p, 5, &Scope::named()).unwrap(), b"12345");
        assert!(matches!(
            read_bounded(&p, 4, &Scope::named()),
            Err(ReadError::Refused(Refusal::TooLarge { limit: 4 }))
        ));
    }

    #[cfg(unix)]
    #[test]
    fn special_files_are_refused_without_reading() {
        // /dev/zero reports size 0 and never ends; a FIFO with no writer blocks a plain open.
        let r = read_bounded(Path::new("/dev/zero"), 1024, &Scope::named());
        assert!(
            matches!(
                r,
                Err(ReadError::Refused(Refusal::NotAFile {
                    what: "a character device"
                }))
            ),
            "{r:?}"
        );
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe");
        assert!(
            std::process::Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .unwrap()
                .success()
        );
        let r = read_bounded(&fifo, 1024, &Scope::named());
        assert!(
            matches!(
                r,
                Err(ReadError::Refused(Refusal::NotAFile {
                    what: "a FIFO (named pipe)"
                }))
            ),
            "{r:?}"
        );
        let r = read_bounded(dir.path(), 1024, &Scope::named());
        assert!(matches!(
            r,
            Err(ReadError::Refused(Refusal::NotAFile { what: "a directory" }))
        ));
    }

    #[cfg(unix)]
    #[test]
    fn links_out_of_the_scope_are_refused() {
        let outside = tempfile::tempdir().unwrap();
        let secret = outside.path().join("secret.txt");
        std::fs::write(&secret, b"root:x:0:0").unwrap();
        let project = tempfile::tempdir().unwrap();
        let scope = Scope::within(project.path()).unwrap();
        let own = project.path().join("own.yaml");
        std::fs::write(&own, b"a: 1").unwrap();
        assert_eq!(read_bounded(&own, 100, &scope).unwrap(), b"a: 1");
        // A symlink to a file inside is fine; to one outside is not.
        let inner = project.path().join("inner.yaml");
        std::os::unix::fs::symlink(&own, &inner).unwrap();
        assert!(read_bounded(&inner, 100, &scope).is_ok());
        let link = project.path().join("link.yaml");
        std::os::unix::fs::symlink(&secret, &link).unwrap();
        match read_bounded(&link, 100, &scope) {
            Err(ReadError::Refused(Refusal::Outside { real })) => {
                assert_eq!(real, secret.canonicalize().unwrap())
            }
            other => panic!("{other:?}"),
        }
        // `..` out of the project.
        let up = project
            .path()
            .join("..")
            .join(outside.path().file_name().unwrap())
            .join("secret.txt");
        assert!(matches!(
            read_bounded(&up, 100, &scope),
            Err(ReadError::Refused(Refusal::Outside { .. }))
        ));
        // A hard link: same file, two names.
        let hard = project.path().join("hard.yaml");
        if std::fs::hard_link(&secret, &hard).is_ok() {
            assert!(matches!(
                read_bounded(&hard, 100, &scope),
                Err(ReadError::Refused(Refusal::HardLinked { links: 2 }))
            ));
        }
        // The user named it: read.
        assert!(read_bounded(&link, 100, &Scope::named()).is_ok());
    }
}
