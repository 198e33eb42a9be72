//! Reading a git revision of the project: which commit a name means, and
//! the files of some folders at that commit, copied into a scratch folder.
//! Only the git command-line client is used (`rev-parse`, `ls-tree`,
//! `cat-file --batch`): nothing is checked out, the index and the work tree
//! are never touched, and every file's size is known and bounded before it
//! is read.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Component, Path, PathBuf};
use std::process::{Command, Stdio};

/// Bounds on what one revision may bring in.
#[derive(Clone, Copy, Debug)]
pub struct GitLimits {
    pub max_files: usize,
    pub max_bytes: u64,
}

impl Default for GitLimits {
    fn default() -> Self {
        GitLimits {
            max_files: 50_000,
            max_bytes: 1 << 30,
        }
    }
}

/// Why a revision cannot be read.
#[derive(Debug)]
pub enum GitError {
    /// git is not installed or cannot run.
    NoGit(std::io::Error),
    /// The folder is not inside a git work tree.
    NotARepository { dir: PathBuf, detail: String },
    /// The name is not a commit of the repository.
    UnknownRevision { rev: String, detail: String },
    /// A path to read is outside the repository.
    OutsideRepository { path: PathBuf, repo: PathBuf },
    /// The revision holds more than the limits allow.
    TooLarge { rev: String, what: String },
    /// git failed while reading.
    Failed { what: String, detail: String },
    /// Writing the scratch copy failed.
    Write { path: PathBuf, source: std::io::Error },
}

impl std::fmt::Display for GitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GitError::NoGit(e) => write!(f, "cannot run `git` ({e}): install git to compare revisions"),
            GitError::NotARepository { dir, detail } => {
                write!(f, "`{}` is not in a git repository ({detail})", dir.display())
            }
            GitError::UnknownRevision { rev, detail } => write!(
                f,
                "`{rev}` is neither a folder nor a git revision of this repository{}",
                if detail.is_empty() {
                    String::new()
                } else {
                    format!(" ({detail})")
                }
            ),
            GitError::OutsideRepository { path, repo } => write!(
                f,
                "`{}` is outside the git repository `{}`: a revision cannot hold it",
                path.display(),
                repo.display()
            ),
            GitError::TooLarge { rev, what } => write!(f, "revision `{rev}` is too large to read: {what}"),
            GitError::Failed { what, detail } => write!(f, "git failed while {what}: {detail}"),
            GitError::Write { path, source } => write!(f, "cannot write `{}`: {source}", path.display()),
        }
    }
}

impl std::error::Error for GitError {}

fn git(dir: &Path) -> Command {
    let mut c = Command::new("git");
    c.arg("-C").arg(dir);
    // Never page, never ask for credentials, never run hooks or filters of the user's config.
    c.env("GIT_PAGER", "cat").env("GIT_TERMINAL_PROMPT", "0");
    c
}

fn run(mut cmd: Command) -> Result<Result<String, String>, GitError> {
    let out = cmd.output().map_err(GitError::NoGit)?;
    if out.status.success() {
        Ok(Ok(String::from_utf8_lossy(&out.stdout).trim_end().to_owned()))
    } else {
        Ok(Err(String::from_utf8_lossy(&out.stderr).trim().to_owned()))
    }
}

/// The top folder of the work tree that holds `dir`.
pub fn repo_root(dir: &Path) -> Result<PathBuf, GitError> {
    let mut c = git(dir);
    c.args(["rev-parse", "--show-toplevel"]);
    match run(c)? {
        Ok(top) => Ok(PathBuf::from(top)),
        Err(detail) => Err(GitError::NotARepository {
            dir: dir.to_path_buf(),
            detail: first_line(&detail),
        }),
    }
}

/// The commit `rev` names (a branch, tag, `HEAD~2`, a hash …).
pub fn resolve(repo: &Path, rev: &str) -> Result<String, GitError> {
    // A name that git would read as an option is never a revision.
    if rev.starts_with('-') || rev.is_empty() {
        return Err(GitError::UnknownRevision {
            rev: rev.to_owned(),
            detail: String::new(),
        });
    }
    let mut c = git(repo);
    c.args(["rev-parse", "--verify", "--quiet", "--end-of-options"])
        .arg(format!("{rev}^{{commit}}"));
    match run(c)? {
        Ok(sha) if !sha.is_empty() => Ok(sha),
        Ok(_) | Err(_) => Err(GitError::UnknownRevision {
            rev: rev.to_owned(),
            detail: String::new(),
        }),
    }
}

/// A path of the repository (relative to its top) for a path on disk.
pub fn repo_path(repo: &Path, path: &Path) -> Result<String, GitError> {
    let abs = std::fs::canonicalize(path)
        .or_else(|_| std::env::current_dir().map(|d| d.join(path)))
        .map_err(|source| GitError::Write {
            path: path.to_path_buf(),
            source,
        })?;
    let top = std::fs::canonicalize(repo).unwrap_or_else(|_| repo.to_path_buf());
    let rel = abs.strip_prefix(&top).map_err(|_| GitError::OutsideRepository {
        path: path.to_path_buf(),
        repo: top.clone(),
    })?;
    let parts: Vec<String> = rel
        .components()
        .filter_map(|c| match c {
            Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect();
    Ok(parts.join("/"))
}

/// What [`extract`] copied.
#[derive(Debug, Default)]
pub struct Extracted {
    pub files: usize,
    pub bytes: u64,
}

/// One blob of a tree listing.
struct Entry {
    oid: String,
    size: u64,
    path: String,
}

/// Copies the files under `paths` (repository paths, `/`-separated) at
/// `commit` into `dest`, keeping their repository paths. Links and
/// submodules are left out (a pack never needs them and a link could point
/// anywhere); paths that are not plain relative names are refused.
pub fn extract(
    repo: &Path,
    commit: &str,
    rev: &str,
    paths: &[String],
    dest: &Path,
    limits: &GitLimits,
) -> Result<Extracted, GitError> {
    let mut c = git(repo);
    c.args(["ls-tree", "-r", "-l", "-z", "--full-tree", commit, "--"]);
    c.args(paths);
    let out = c.output().map_err(GitError::NoGit)?;
    if !out.status.success() {
        return Err(GitError::Failed {
            what: format!("listing the files of `{rev}`"),
            detail: first_line(&String::from_utf8_lossy(&out.stderr)),
        });
    }
    let mut entries = Vec::new();
    let mut total = 0u64;
    for record in out.stdout.split(|b| *b == 0).filter(|r| !r.is_empty()) {
        let record = String::from_utf8_lossy(record);
        let Some((meta, path)) = record.split_once('\t') else {
            continue;
        };
        let fields: Vec<&str> = meta.split_whitespace().collect();
        let [mode, kind, oid, size] = fields[..] else {
            continue;
        };
        if kind != "blob" || !(mode == "100644" || mode == "100755") {
            continue;
        }
        if !plain_path(path) {
            return Err(GitError::Failed {
                what: format!("listing the files of `{rev}`"),
                detail: format!("refusing the path `{path}`"),
            });
        }
        let size: u64 = size.parse().unwrap_or(u64::MAX);
        total = total.saturating_add(size);
        entries.push(Entry {
            oid: oid.to_owned(),
            size,
            path: path.to_owned(),
        });
        if entries.len() > limits.max_files {
            return Err(GitError::TooLarge {
                rev: rev.to_owned(),
                what: format!("more than {} files under {}", limits.max_files, paths.join(", ")),
            });
        }
        if total > limits.max_bytes {
            return Err(GitError::TooLarge {
                rev: rev.to_owned(),
                what: format!("more than {} bytes under {}", limits.max_bytes, paths.join(", ")),
            });
        }
    }
    let mut child = git(repo)
        .args(["cat-file", "--batch"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(GitError::NoGit)?;
    let mut stdin = child.stdin.take().ok_or_else(|| GitError::Failed {
        what: "starting `git cat-file`".into(),
        detail: "no input pipe".into(),
    })?;
    let oids: String = entries.iter().map(|e| format!("{}\n", e.oid)).collect();
    // Written from a thread: git answers while it reads, and both pipes have bounded buffers.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(oids.as_bytes());
    });
    let stdout = child.stdout.take().ok_or_else(|| GitError::Failed {
        what: "starting `git cat-file`".into(),
        detail: "no output pipe".into(),
    })?;
    let mut reader = BufReader::new(stdout);
    let mut done = Extracted::default();
    let mut result = Ok(());
    for e in &entries {
        let mut header = String::new();
        if reader.read_line(&mut header).unwrap_or(0) == 0 {
            result = Err(GitError::Failed {
                what: format!("reading `{}` at `{rev}`", e.path),
                detail: "git stopped answering".into(),
            });
            break;
        }
        let parts: Vec<&str> = header.split_whitespace().collect();
        let size = match parts[..] {
            [_, "blob", size] => size.parse::<u64>().ok(),
            _ => None,
        };
        if size != Some(e.size) {
            result = Err(GitError::Failed {
                what: format!("reading `{}` at `{rev}`", e.path),
                detail: format!("unexpected answer `{}`", header.trim()),
            });
            break;
        }
        let mut bytes = Vec::with_capacity(e.size as usize);
        if let Err(err) = (&mut reader).take(e.size + 1).read_to_end(&mut bytes) {
            result = Err(GitError::Failed {
                what: format!("reading `{}` at `{rev}`", e.path),
                detail: err.to_string(),
            });
            break;
        }
        bytes.truncate(e.size as usize);
        let target = dest.join(&e.path);
        if let Some(dir) = target.parent()
            && let Err(source) = std::fs::create_dir_all(dir)
        {
            result = Err(GitError::Write {
                path: dir.to_path_buf(),
                source,
            });
            break;
        }
        if let Err(source) = std::fs::write(&target, &bytes) {
            result = Err(GitError::Write { path: target, source });
            break;
        }
        done.files += 1;
        done.bytes += e.size;
    }
    drop(reader);
    let _ = writer.join();
    let _ = child.kill();
    let _ = child.wait();
    result.map(|_| done)
}

/// A repository path made only of plain names.
fn plain_path(path: &str) -> bool {
    !path.is_empty()
        && !path.starts_with('/')
        && path
            .split('/')
            .all(|p| !p.is_empty() && p != "." && p != ".." && !p.contains('\\'))
}

fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or_default().trim().to_owned()
}

#[cfg(test)]
mod tests {
    use super::plain_path;

    #[test]
    fn only_plain_relative_paths_are_written() {
        assert!(plain_path("data/demo/game.yaml"));
        for bad in ["", "/etc/passwd", "data/../x", "./x", "a//b", "a\\b"] {
            assert!(!plain_path(bad), "{bad}");
        }
    }
}
