//! All-or-nothing writes.
//!
//! - [`FileTxn`]: replace and remove files under one folder (a pack's YAML
//!   and lock files). Every new file is staged in a folder beside them; a
//!   journal renamed into place is the commit point; the renames follow.
//!   Killed before the journal, nothing changed; after it, the next run
//!   finishes the renames ([`recover`]). Either way the staging folder is
//!   gone once the next run starts.
//! - [`DirSwap`]: build whole output folders (one per game) in a staging
//!   folder and exchange each with the live one in a single atomic rename
//!   (`renameat2(RENAME_EXCHANGE)` on Linux), so a reader or a killed build
//!   sees each game's output entirely old or entirely new.
//!
//! Staging folders are named `.pnpkit-…` and hold a `lock` file that the
//! running process keeps locked; a folder whose lock is free belongs to a
//! process that died, and the next run recovers or removes it.

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Prefix of every staging folder and temporary file pnpkit makes.
pub const PREFIX: &str = ".pnpkit-";
const LOCK: &str = "lock";
const JOURNAL: &str = "journal";

/// A fresh, locked staging folder `<root>/.pnpkit-<what>-<pid>-<n>`.
fn staging(root: &Path, what: &str) -> io::Result<(PathBuf, File)> {
    fs::create_dir_all(root)?;
    let pid = std::process::id();
    for n in 0..1000u32 {
        let dir = root.join(format!("{PREFIX}{what}-{pid}-{n}"));
        match fs::create_dir(&dir) {
            Ok(()) => {
                let lock = File::create(dir.join(LOCK))?;
                lock.lock()?;
                return Ok((dir, lock));
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::other("no free name for a staging folder"))
}

/// Whether a staging folder's owner is gone (its lock can be taken).
fn abandoned(dir: &Path) -> bool {
    match File::open(dir.join(LOCK)) {
        Ok(f) => f.try_lock().is_ok(),
        // No lock file: killed while creating the folder.
        Err(_) => true,
    }
}

fn sync_dir(dir: &Path) {
    // Makes renames durable; not every platform can open a folder.
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}

fn write_synced(path: &Path, bytes: &[u8]) -> io::Result<()> {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent)?;
    }
    let mut f = File::create(path)?;
    f.write_all(bytes)?;
    f.sync_all()
}

/// Finishes or removes what killed runs left in `root`: committed file
/// transactions are completed, everything else staged is deleted, and so
/// are the temporary files of [`super::write_atomic`]. Returns how many
/// leftovers were handled.
pub fn recover(root: &Path) -> io::Result<usize> {
    recover_in(root, false)
}

/// [`recover`], also removing the `.<name>.<pid>.tmp` files that older
/// versions left (only in output folders, where every file is pnpkit's).
fn recover_in(root: &Path, legacy: bool) -> io::Result<usize> {
    let Ok(entries) = fs::read_dir(root) else {
        return Ok(0);
    };
    let mut n = 0;
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let path = e.path();
        let is_dir = e.file_type().map(|t| t.is_dir()).unwrap_or(false);
        if name.starts_with(PREFIX) && is_dir {
            if !abandoned(&path) {
                continue;
            }
            if path.join(JOURNAL).is_file() {
                replay(root, &path)?;
            }
            fs::remove_dir_all(&path)?;
            n += 1;
        } else if !is_dir
            && ((name.starts_with(PREFIX) && !writer_alive(&name)) || (legacy && is_legacy_temp_file(&name)))
        {
            fs::remove_file(&path)?;
            n += 1;
        }
    }
    Ok(n)
}

/// Whether the process that is writing `.pnpkit-tmp-<pid>-<name>` still runs
/// (checked on Linux; elsewhere a temporary file is taken as abandoned).
fn writer_alive(name: &str) -> bool {
    let pid = name
        .strip_prefix(PREFIX)
        .and_then(|n| n.strip_prefix("tmp-"))
        .and_then(|n| n.split_once('-'))
        .map(|(pid, _)| pid);
    match pid {
        Some(pid) if cfg!(target_os = "linux") && !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()) => {
            Path::new("/proc").join(pid).exists()
        }
        _ => false,
    }
}

/// `.<name>.<pid>.tmp`: what `write_atomic` named its temporary files before.
fn is_legacy_temp_file(name: &str) -> bool {
    let Some(inner) = name.strip_prefix('.').and_then(|n| n.strip_suffix(".tmp")) else {
        return false;
    };
    inner
        .rsplit_once('.')
        .is_some_and(|(_, pid)| !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()))
}

/// [`recover_tree`] for an output folder, where every file is pnpkit's:
/// also the temporary files older versions left. Every command runs it on
/// the project's output folder, so a killed `build`, `export`, `diff` or
/// `deck --batch` leaves nothing behind once pnpkit runs again.
pub fn recover_output(out: &Path) -> io::Result<usize> {
    recover_tree_in(out, true)
}

/// [`recover`] in `root` and every folder below it (skipping staging folders).
pub fn recover_tree(root: &Path) -> io::Result<usize> {
    recover_tree_in(root, false)
}

fn recover_tree_in(root: &Path, legacy: bool) -> io::Result<usize> {
    let mut n = recover_in(root, legacy)?;
    if let Ok(entries) = fs::read_dir(root) {
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if e.file_type().map(|t| t.is_dir()).unwrap_or(false) && !name.starts_with(PREFIX) {
                n += recover_tree_in(&e.path(), legacy)?;
            }
        }
    }
    Ok(n)
}

/// One step of a file transaction's journal.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
enum Op {
    /// Move staged file `staged` (a name in the staging folder) to `target` (relative to the root).
    Put { staged: String, target: PathBuf },
    /// Remove `target` (relative to the root).
    Remove { target: PathBuf },
}

fn replay(root: &Path, dir: &Path) -> io::Result<()> {
    let journal = fs::read_to_string(dir.join(JOURNAL))?;
    let ops: Vec<Op> = serde_json::from_str(&journal).map_err(io::Error::other)?;
    apply(root, dir, &ops)
}

/// Carries out the journal; safe to repeat (a done step is skipped).
fn apply(root: &Path, dir: &Path, ops: &[Op]) -> io::Result<()> {
    for op in ops {
        match op {
            Op::Put { staged, target } => {
                let from = dir.join(staged);
                if from.exists() {
                    let to = root.join(target);
                    if let Some(p) = to.parent() {
                        fs::create_dir_all(p)?;
                    }
                    fs::rename(&from, &to)?;
                }
            }
            Op::Remove { target } => match fs::remove_file(root.join(target)) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
                _ => {}
            },
        }
    }
    let mut parents: Vec<PathBuf> = ops
        .iter()
        .filter_map(|op| match op {
            Op::Put { target, .. } | Op::Remove { target } => root.join(target).parent().map(Path::to_path_buf),
        })
        .collect();
    parents.sort();
    parents.dedup();
    for p in parents {
        sync_dir(&p);
    }
    Ok(())
}

/// Replaces and removes files under one root, all or nothing.
pub struct FileTxn {
    root: PathBuf,
    dir: PathBuf,
    _lock: File,
    ops: Vec<Op>,
}

impl FileTxn {
    /// Starts a transaction under `root`, first recovering what killed runs left there.
    pub fn begin(root: &Path) -> io::Result<FileTxn> {
        recover_tree(root)?;
        let (dir, lock) = staging(root, "txn")?;
        Ok(FileTxn {
            root: root.to_path_buf(),
            dir,
            _lock: lock,
            ops: Vec::new(),
        })
    }

    fn relative(&self, path: &Path) -> io::Result<PathBuf> {
        path.strip_prefix(&self.root)
            .map(Path::to_path_buf)
            .map_err(|_| io::Error::other(format!("`{}` is outside `{}`", path.display(), self.root.display())))
    }

    /// Stages the new content of `path` (under the root).
    pub fn put(&mut self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        let target = self.relative(path)?;
        let staged = format!("{}", self.ops.len());
        write_synced(&self.dir.join(&staged), bytes)?;
        self.ops.push(Op::Put { staged, target });
        Ok(())
    }

    /// Stages the new content of `path` written piece by piece (a file too
    /// large to hold whole): the caller writes the file returned and syncs it
    /// before [`FileTxn::commit`].
    pub fn create(&mut self, path: &Path) -> io::Result<File> {
        let target = self.relative(path)?;
        let staged = format!("{}", self.ops.len());
        let file = File::create(self.dir.join(&staged))?;
        self.ops.push(Op::Put { staged, target });
        Ok(file)
    }

    /// Stages the removal of `path` (under the root).
    pub fn remove(&mut self, path: &Path) -> io::Result<()> {
        let target = self.relative(path)?;
        self.ops.push(Op::Remove { target });
        Ok(())
    }

    /// Commits: the journal is written and renamed into place (from then on
    /// the change happens even if this process dies), then carried out.
    pub fn commit(self) -> io::Result<()> {
        self.commit_with(|_| {})
    }

    /// [`FileTxn::commit`] with a hook called between steps (for tests that
    /// kill a run at every point): 0 before the journal, 1 after it, then
    /// after each rename.
    pub fn commit_with(self, mut at: impl FnMut(usize)) -> io::Result<()> {
        let json = serde_json::to_string(&self.ops).map_err(io::Error::other)?;
        at(0);
        write_synced(&self.dir.join("journal.new"), json.as_bytes())?;
        fs::rename(self.dir.join("journal.new"), self.dir.join(JOURNAL))?;
        sync_dir(&self.dir);
        at(1);
        for (i, op) in self.ops.iter().enumerate() {
            apply(&self.root, &self.dir, std::slice::from_ref(op))?;
            at(i + 2);
        }
        fs::remove_dir_all(&self.dir)
    }
}

impl Drop for FileTxn {
    fn drop(&mut self) {
        // Not committed (an error, a refusal): nothing staged is kept.
        let _ = fs::remove_dir_all(&self.dir);
    }
}

/// A scratch folder beside the data (`<root>/.pnpkit-scratch-…`) for
/// checking a changed copy of a pack before anything real is written.
/// Removed when dropped; if the process is killed, by the next run's
/// [`recover`].
pub struct Scratch {
    dir: PathBuf,
    _lock: File,
}

impl Scratch {
    pub fn begin(root: &Path) -> io::Result<Scratch> {
        recover(root)?;
        let (dir, lock) = staging(root, "scratch")?;
        Ok(Scratch { dir, _lock: lock })
    }

    /// A scratch folder beside `root`, or in the temporary folder when
    /// `root` cannot be written (a read-only data folder checked with
    /// `import --check`); killed runs' leftovers are removed from both.
    pub fn beside(root: &Path) -> io::Result<Scratch> {
        Scratch::begin(root).or_else(|e| Scratch::begin(&std::env::temp_dir()).map_err(|_| e))
    }

    pub fn path(&self) -> &Path {
        &self.dir
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.dir);
    }
}

/// Copies the files of `from` into `to` as a check reads them: through
/// [`super::read::read_bounded`] within `scope`. Files the reader refuses
/// are left out (the real check reports them).
pub fn copy_tree(from: &Path, to: &Path, scope: &super::read::Scope) -> io::Result<()> {
    fs::create_dir_all(to)?;
    for e in fs::read_dir(from)?.flatten() {
        let path = e.path();
        let name = e.file_name();
        if name.to_string_lossy().starts_with(PREFIX) {
            continue;
        }
        if path.is_dir() {
            copy_tree(&path, &to.join(&name), scope)?;
        } else {
            match super::read::read_bounded(&path, super::read::max::TEMPLATE_FILE, scope) {
                Ok(bytes) => fs::write(to.join(&name), bytes)?,
                Err(super::read::ReadError::Refused(_)) => {}
                Err(super::read::ReadError::Io(e)) => return Err(e),
            }
        }
    }
    Ok(())
}

/// Output folders built aside and swapped in whole.
///
/// A file whose bytes equal the live file at its place is not staged: a
/// game none of whose files changed (and that would lose no file by the
/// swap) is left alone, so a build that changes nothing writes nothing; in
/// a game that does change, the unchanged files are hard-linked from the
/// live folder into the staged one (already durable: no write, no fsync).
pub struct DirSwap {
    out: PathBuf,
    dir: PathBuf,
    _lock: File,
    /// Files already live with the bytes given, by path inside the output.
    same: RefCell<Vec<PathBuf>>,
    /// Games with at least one file staged.
    changed: RefCell<BTreeSet<String>>,
    /// How many folders below a game's folder make the unit this run
    /// rebuilds whole: 1 for `build` (`<game>/<locale>/`), 2 for exports
    /// (`<game>/shop/<shop>/`), where a unit's siblings are other runs' work.
    depth: usize,
    /// The units written to (staged or found the same), by path.
    units: RefCell<BTreeSet<PathBuf>>,
}

impl DirSwap {
    /// Starts staging output under `out`, first removing what killed runs left there.
    pub fn begin(out: &Path) -> io::Result<DirSwap> {
        DirSwap::begin_in_units(out, 1)
    }

    /// [`DirSwap::begin`] where the folders rebuilt whole lie `depth` levels
    /// below each game's folder: exporting for one shop replaces
    /// `<game>/shop/<shop>/` (no file of an earlier export of it survives)
    /// and keeps the other shops' folders.
    pub fn begin_in_units(out: &Path, depth: usize) -> io::Result<DirSwap> {
        recover_tree_in(out, true)?;
        let (dir, lock) = staging(out, "stage")?;
        Ok(DirSwap {
            out: out.to_path_buf(),
            dir,
            _lock: lock,
            same: RefCell::default(),
            changed: RefCell::default(),
            depth: depth.max(1),
            units: RefCell::default(),
        })
    }

    /// Stages a file at `rel` (relative to the output folder, starting with
    /// the game's folder: `openwars/es/openwars-cards-a4.pdf`); a file the
    /// live folder already holds with these bytes is only noted.
    pub fn write(&self, rel: &Path, bytes: &[u8]) -> io::Result<()> {
        let mut parts = rel.components();
        let game = match parts.next() {
            Some(std::path::Component::Normal(g)) if parts.next().is_some() => g.to_string_lossy().into_owned(),
            _ => return Err(not_inside(rel)),
        };
        if rel.components().any(|c| !matches!(c, std::path::Component::Normal(_))) {
            return Err(not_inside(rel));
        }
        self.units
            .borrow_mut()
            .insert(rel.components().take(1 + self.depth).collect());
        if same_bytes(&self.out.join(rel), bytes) {
            self.same.borrow_mut().push(rel.to_path_buf());
            return Ok(());
        }
        self.changed.borrow_mut().insert(game);
        write_synced(&self.dir.join(rel), bytes)
    }

    /// Swaps each changed game folder in. What the live folder holds and
    /// this run did not write at its top level (other locales, `export/`,
    /// `i18n/`) is carried over first, by hard link (or copy), so only what
    /// was rebuilt changes. Returns the games swapped.
    pub fn commit(self) -> io::Result<Vec<String>> {
        self.commit_with(|_| {})
    }

    /// [`DirSwap::commit`] with a hook called before each game's swap (for tests).
    pub fn commit_with(self, mut before_swap: impl FnMut(&str)) -> io::Result<Vec<String>> {
        let same = self.same.take();
        let changed = self.changed.take();
        let units = self.units.take();
        let mut games: BTreeSet<String> = changed.clone();
        games.extend(same.iter().filter_map(|p| game_of(p)));
        let mut swapped = Vec::new();
        for game in &games {
            let here: BTreeSet<&Path> = same
                .iter()
                .filter(|p| game_of(p).as_deref() == Some(game))
                .map(PathBuf::as_path)
                .collect();
            let live = self.out.join(game);
            if !changed.contains(game) && self.swap_would_keep(game, &here, &units)? {
                continue;
            }
            let staged = self.dir.join(game);
            fs::create_dir_all(&staged)?;
            for rel in &here {
                let to = self.dir.join(rel);
                if let Some(p) = to.parent() {
                    fs::create_dir_all(p)?;
                }
                link_tree(&self.out.join(rel), &to)?;
            }
            if live.is_dir() {
                carry_over(&live, &staged, Path::new(game), &units)?;
            }
            sync_dir(&staged);
            before_swap(game);
            if live.exists() {
                exchange(&staged, &live)?;
            } else {
                fs::rename(&staged, &live)?;
            }
            sync_dir(&self.out);
            // `staged` now holds the previous output.
            let _ = fs::remove_dir_all(&staged);
            swapped.push(game.clone());
        }
        fs::remove_dir_all(&self.dir)?;
        Ok(swapped)
    }

    /// Whether swapping `game` in would change nothing: every file under
    /// the live units it rebuilds is one of `same`, so none would go.
    fn swap_would_keep(&self, game: &str, same: &BTreeSet<&Path>, units: &BTreeSet<PathBuf>) -> io::Result<bool> {
        for unit in units.iter().filter(|u| u.starts_with(game)) {
            if !only_these(&self.out, unit, same)? {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// Links into `staged` what the live folder `live` (at `rel` in the output)
/// holds outside the units this run rebuilt: other locales, other shops'
/// exports, whatever an earlier run wrote beside them.
fn carry_over(live: &Path, staged: &Path, rel: &Path, units: &BTreeSet<PathBuf>) -> io::Result<()> {
    for e in fs::read_dir(live)?.flatten() {
        let name = e.file_name();
        let here = rel.join(&name);
        if name.to_string_lossy().starts_with(PREFIX) || units.contains(&here) {
            continue;
        }
        let is_dir = fs::symlink_metadata(e.path()).is_ok_and(|m| m.is_dir());
        if is_dir && units.iter().any(|u| u.starts_with(&here)) {
            fs::create_dir_all(staged.join(&name))?;
            carry_over(&e.path(), &staged.join(&name), &here, units)?;
        } else if !staged.join(&name).exists() {
            link_tree(&e.path(), &staged.join(&name))?;
        }
    }
    Ok(())
}

/// Whether every file at or under `rel` (inside `out`) is in `files`, and
/// nothing there is a link or a special file.
fn only_these(out: &Path, rel: &Path, files: &BTreeSet<&Path>) -> io::Result<bool> {
    let meta = fs::symlink_metadata(out.join(rel))?;
    if meta.is_file() {
        return Ok(files.contains(rel));
    }
    if !meta.is_dir() {
        return Ok(false);
    }
    for e in fs::read_dir(out.join(rel))? {
        if !only_these(out, &rel.join(e?.file_name()), files)? {
            return Ok(false);
        }
    }
    Ok(true)
}

fn not_inside(rel: &Path) -> io::Error {
    io::Error::other(format!("`{}` is not a path inside the output", rel.display()))
}

/// The game folder a path inside the output belongs to.
fn game_of(rel: &Path) -> Option<String> {
    rel.components()
        .next()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
}

/// Whether `path` is a regular file holding exactly `bytes` (read in
/// blocks, stopping at the first difference).
fn same_bytes(path: &Path, bytes: &[u8]) -> bool {
    use std::io::Read as _;
    let Ok(meta) = fs::symlink_metadata(path) else {
        return false;
    };
    if !meta.is_file() || meta.len() != bytes.len() as u64 {
        return false;
    }
    let Ok(mut f) = File::open(path) else {
        return false;
    };
    let mut buf = vec![0u8; 256 * 1024];
    let mut rest = bytes;
    loop {
        match f.read(&mut buf) {
            Ok(0) => return rest.is_empty(),
            Ok(n) => match rest.split_at_checked(n) {
                Some((a, b)) if a == &buf[..n] => rest = b,
                _ => return false,
            },
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return false,
        }
    }
}

impl Drop for DirSwap {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.dir);
    }
}

/// Recreates `from` at `to` with hard links to its files (copies where
/// links are not possible).
fn link_tree(from: &Path, to: &Path) -> io::Result<()> {
    let meta = fs::symlink_metadata(from)?;
    if meta.is_dir() {
        fs::create_dir_all(to)?;
        for e in fs::read_dir(from)?.flatten() {
            link_tree(&e.path(), &to.join(e.file_name()))?;
        }
        Ok(())
    } else if meta.is_file() {
        fs::hard_link(from, to).or_else(|_| fs::copy(from, to).map(|_| ()))
    } else {
        // Links and special files are not output pnpkit wrote: left behind.
        Ok(())
    }
}

/// Swaps two paths in one step.
#[cfg(any(target_os = "linux", target_os = "android", target_os = "macos", target_os = "ios"))]
fn exchange(a: &Path, b: &Path) -> io::Result<()> {
    use rustix::fs::{CWD, RenameFlags, renameat_with};
    renameat_with(CWD, a, CWD, b, RenameFlags::EXCHANGE).map_err(io::Error::from)
}

/// Without an atomic exchange: the old folder moves aside, the new one in.
#[cfg(not(any(target_os = "linux", target_os = "android", target_os = "macos", target_os = "ios")))]
fn exchange(a: &Path, b: &Path) -> io::Result<()> {
    let aside = a.with_extension("old");
    fs::rename(b, &aside)?;
    fs::rename(a, b)?;
    fs::rename(&aside, a)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(p: &Path) -> String {
        fs::read_to_string(p).unwrap_or_else(|_| "<none>".into())
    }

    #[test]
    fn a_file_transaction_replaces_and_removes_together() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::write(root.join("a.yaml"), "old a").unwrap();
        fs::write(root.join("b.yaml"), "old b").unwrap();
        let mut t = FileTxn::begin(root).unwrap();
        t.put(&root.join("a.yaml"), b"new a").unwrap();
        t.put(&root.join("sub/c.yaml"), b"new c").unwrap();
        t.remove(&root.join("b.yaml")).unwrap();
        // Nothing visible before the commit.
        assert_eq!(read(&root.join("a.yaml")), "old a");
        t.commit().unwrap();
        assert_eq!(read(&root.join("a.yaml")), "new a");
        assert_eq!(read(&root.join("sub/c.yaml")), "new c");
        assert!(!root.join("b.yaml").exists());
        let names: Vec<_> = fs::read_dir(root).unwrap().flatten().map(|e| e.file_name()).collect();
        assert_eq!(names.len(), 2, "{names:?}");
    }

    #[test]
    fn a_dropped_transaction_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let mut t = FileTxn::begin(dir.path()).unwrap();
        t.put(&dir.path().join("a"), b"x").unwrap();
        drop(t);
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn legacy_temp_file_names() {
        assert!(is_legacy_temp_file(".cards.yaml.1234.tmp"));
        assert!(!is_legacy_temp_file(".gitignore"));
        assert!(!is_legacy_temp_file("notes.tmp"));
        assert!(!is_legacy_temp_file(".notes.draft.tmp"));
    }

    fn inode(p: &Path) -> u64 {
        use std::os::unix::fs::MetadataExt;
        fs::metadata(p).unwrap().ino()
    }

    #[test]
    fn a_swap_of_unchanged_bytes_leaves_the_game_alone() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path();
        fs::create_dir_all(out.join("g/es")).unwrap();
        fs::write(out.join("g/es/kit.pdf"), "kit").unwrap();
        fs::write(out.join("g/index.html"), "html").unwrap();
        let before = (inode(&out.join("g")), inode(&out.join("g/es/kit.pdf")));
        let s = DirSwap::begin(out).unwrap();
        s.write(Path::new("g/es/kit.pdf"), b"kit").unwrap();
        s.write(Path::new("g/index.html"), b"html").unwrap();
        assert!(s.commit().unwrap().is_empty(), "nothing changed: no swap");
        assert_eq!(before, (inode(&out.join("g")), inode(&out.join("g/es/kit.pdf"))));
        let names: Vec<_> = fs::read_dir(out).unwrap().flatten().map(|e| e.file_name()).collect();
        assert_eq!(names, ["g"], "no staging folder left");
    }

    #[test]
    fn a_changed_game_keeps_its_unchanged_files_by_link() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path();
        fs::create_dir_all(out.join("g/es")).unwrap();
        fs::write(out.join("g/es/a.pdf"), "a").unwrap();
        fs::write(out.join("g/es/b.pdf"), "b").unwrap();
        let a = inode(&out.join("g/es/a.pdf"));
        let s = DirSwap::begin(out).unwrap();
        s.write(Path::new("g/es/a.pdf"), b"a").unwrap();
        s.write(Path::new("g/es/b.pdf"), b"b2").unwrap();
        assert_eq!(s.commit().unwrap(), ["g"]);
        assert_eq!(read(&out.join("g/es/a.pdf")), "a");
        assert_eq!(read(&out.join("g/es/b.pdf")), "b2");
        assert_eq!(inode(&out.join("g/es/a.pdf")), a, "the unchanged file is the same file");
    }

    #[test]
    fn unchanged_bytes_still_swap_when_a_stale_file_must_go() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path();
        fs::create_dir_all(out.join("g/es")).unwrap();
        fs::create_dir_all(out.join("g/i18n")).unwrap();
        fs::write(out.join("g/es/a.pdf"), "a").unwrap();
        fs::write(out.join("g/es/old.pdf"), "old").unwrap();
        fs::write(out.join("g/i18n/en.po"), "po").unwrap();
        let s = DirSwap::begin(out).unwrap();
        s.write(Path::new("g/es/a.pdf"), b"a").unwrap();
        assert_eq!(s.commit().unwrap(), ["g"]);
        assert_eq!(read(&out.join("g/es/a.pdf")), "a");
        assert!(!out.join("g/es/old.pdf").exists(), "a rebuilt folder is replaced whole");
        assert_eq!(read(&out.join("g/i18n/en.po")), "po", "what was not rebuilt stays");
        // Same length, other bytes: staged.
        let s = DirSwap::begin(out).unwrap();
        s.write(Path::new("g/es/a.pdf"), b"b").unwrap();
        assert_eq!(s.commit().unwrap(), ["g"]);
        assert_eq!(read(&out.join("g/es/a.pdf")), "b");
    }

    #[test]
    fn a_swap_carries_over_what_it_did_not_rebuild() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path();
        fs::create_dir_all(out.join("g/es")).unwrap();
        fs::create_dir_all(out.join("g/i18n")).unwrap();
        fs::write(out.join("g/es/old.pdf"), "old").unwrap();
        fs::write(out.join("g/i18n/en.po"), "po").unwrap();
        fs::write(out.join("g/.kit.pdf.99.tmp"), "stale").unwrap();
        let s = DirSwap::begin(out).unwrap();
        assert!(
            !out.join("g/.kit.pdf.99.tmp").exists(),
            "stale temporary files go at the start"
        );
        s.write(Path::new("g/es/new.pdf"), b"new").unwrap();
        s.write(Path::new("g/index.html"), b"html").unwrap();
        assert!(s.write(Path::new("../x"), b"no").is_err());
        assert_eq!(s.commit().unwrap(), ["g"]);
        assert_eq!(read(&out.join("g/es/new.pdf")), "new");
        assert!(!out.join("g/es/old.pdf").exists(), "a rebuilt folder is replaced whole");
        assert_eq!(read(&out.join("g/i18n/en.po")), "po");
        assert_eq!(read(&out.join("g/index.html")), "html");
        let names: Vec<_> = fs::read_dir(out).unwrap().flatten().map(|e| e.file_name()).collect();
        assert_eq!(names, ["g"]);
    }
}
