//! Files in and out: bounded, checked reading ([`read`]) and writes that a
//! failed or killed run never leaves half done.

pub mod read;
pub mod txn;

use std::fs;
use std::io::{self, Write};
use std::path::Path;

/// Writes `bytes` to `path` through a temporary file in the same folder and
/// a rename, so readers see the old file or the new one, never a mix.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    fs::create_dir_all(dir)?;
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    // Named so that a later run's `txn::recover` removes it if this one is killed.
    let tmp = dir.join(format!("{}tmp-{}-{name}", txn::PREFIX, std::process::id()));
    let result = (|| {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    #[test]
    fn writes_and_replaces() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a/b.txt");
        super::write_atomic(&p, b"one").unwrap();
        super::write_atomic(&p, b"two").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        assert_eq!(std::fs::read_dir(p.parent().unwrap()).unwrap().count(), 1);
    }
}

/// `path` as seen from `base` (both absolute): `.` for the same folder,
/// `..` for its parent, `data` below it; `path` itself when they share no root.
pub fn relative(path: &Path, base: &Path) -> std::path::PathBuf {
    let p: Vec<std::path::Component> = path.components().collect();
    let b: Vec<std::path::Component> = base.components().collect();
    let common = p.iter().zip(&b).take_while(|(x, y)| x == y).count();
    if common == 0 {
        return path.to_path_buf();
    }
    let mut out = std::path::PathBuf::new();
    for _ in common..b.len() {
        out.push("..");
    }
    for c in &p[common..] {
        out.push(c);
    }
    if out.as_os_str().is_empty() {
        out.push(".");
    }
    out
}

#[cfg(test)]
mod relative_tests {
    use super::relative;
    use std::path::Path;

    #[test]
    fn paths_read_from_the_current_folder() {
        assert_eq!(relative(Path::new("/p"), Path::new("/p")), Path::new("."));
        assert_eq!(relative(Path::new("/p/data"), Path::new("/p")), Path::new("data"));
        assert_eq!(relative(Path::new("/p"), Path::new("/p/a/b")), Path::new("../.."));
        assert_eq!(
            relative(Path::new("/p/output"), Path::new("/p/cards")),
            Path::new("../output")
        );
    }
}
