//! A version of the project to compare: the data folder as it is now, another
//! data folder, or a git revision (its data and layouts copied into a
//! scratch folder that lives as long as the [`Version`]).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::git::{self, GitError, GitLimits};

/// One side of a comparison.
#[derive(Debug)]
pub struct Version {
    /// What the side is, for reports: `v1.0 (3f2a9c1)`, `old-data/`, `data (work tree)`.
    pub label: String,
    /// A short name for changelog titles (`v1.0`, `old-data`); `None` for the work tree.
    pub name: Option<String>,
    /// The data folder (one folder per game).
    pub data: PathBuf,
    /// The layouts folder (`templates/`), when known.
    pub templates: Option<PathBuf>,
    /// For a revision: the prefix of its copied files, and how to name them in messages.
    pub scratch_prefix: Option<(PathBuf, String)>,
    _scratch: Option<tempfile::TempDir>,
}

impl Version {
    /// How a file of this version is named in messages (`v1:data/demo/game.yaml`).
    pub fn display(&self, path: &Path) -> Option<PathBuf> {
        let (prefix, name) = self.scratch_prefix.as_ref()?;
        let rel = path.strip_prefix(prefix).ok()?;
        Some(PathBuf::from(format!("{name}:{}", rel.display())))
    }
}

/// Opens a version: `None` is the data folder as it is now (`data`, with
/// the project's `templates/` beside the current folder); a folder is a
/// data folder; anything else is a git revision of the repository holding
/// the current folder.
pub fn open(spec: Option<&str>, data: &Path, project: &Path, limits: &GitLimits) -> Result<Version, GitError> {
    let Some(spec) = spec else {
        return Ok(Version {
            label: format!("{} (work tree)", data.display()),
            name: None,
            data: data.to_path_buf(),
            templates: Some(project.join("templates")).filter(|t| t.is_dir()),
            scratch_prefix: None,
            _scratch: None,
        });
    };
    let dir = Path::new(spec);
    if dir.is_dir() {
        return Ok(Version {
            label: spec.to_owned(),
            name: Some(
                dir.file_name()
                    .map_or_else(|| spec.to_owned(), |n| n.to_string_lossy().into_owned()),
            ),
            data: dir.to_path_buf(),
            templates: None,
            scratch_prefix: None,
            _scratch: None,
        });
    }
    let repo = git::repo_root(project).map_err(|e| match e {
        GitError::NotARepository { detail, .. } => GitError::UnknownRevision {
            rev: spec.to_owned(),
            detail: format!("and the project is not in a git repository: {detail}"),
        },
        other => other,
    })?;
    let commit = git::resolve(&repo, spec)?;
    let data_rel = git::repo_path(&repo, data)?;
    let project_rel = git::repo_path(&repo, project)?;
    let templates_rel = if project_rel.is_empty() {
        "templates".to_owned()
    } else {
        format!("{project_rel}/templates")
    };
    let scratch = tempfile::Builder::new()
        .prefix("pnpkit-diff-")
        .tempdir()
        .map_err(|source| GitError::Write {
            path: std::env::temp_dir(),
            source,
        })?;
    let paths = [data_rel.clone(), templates_rel.clone()];
    git::extract(&repo, &commit, spec, &paths, scratch.path(), limits)?;
    let data_dir = scratch.path().join(&data_rel);
    // A revision without the data folder has no games: an empty folder says so.
    std::fs::create_dir_all(&data_dir).map_err(|source| GitError::Write {
        path: data_dir.clone(),
        source,
    })?;
    let templates = scratch.path().join(&templates_rel);
    let short: String = commit.chars().take(7).collect();
    Ok(Version {
        label: format!("{spec} ({short})"),
        name: Some(spec.to_owned()),
        data: data_dir,
        templates: Some(templates).filter(|t| t.is_dir()),
        scratch_prefix: Some((scratch.path().to_path_buf(), spec.to_owned())),
        _scratch: Some(scratch),
    })
}

/// The games (pack folders) of a version, sorted.
pub fn games(v: &Version) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(&v.data)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().join("game.yaml").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.'))
        .collect();
    out.sort();
    out
}

/// Per game, whether the layouts it prints with (`templates/<game>/` and
/// `templates/shared/`) differ between the versions; empty when a side's
/// layouts are unknown.
pub fn layouts_changed(old: &Version, new: &Version, games: &[String]) -> HashMap<String, bool> {
    let (Some(a), Some(b)) = (&old.templates, &new.templates) else {
        return HashMap::new();
    };
    let shared = tree_hash(&a.join("shared")) != tree_hash(&b.join("shared"));
    games
        .iter()
        .map(|g| (g.clone(), shared || tree_hash(&a.join(g)) != tree_hash(&b.join(g))))
        .collect()
}

/// The files of a folder (relative paths and bytes), in order; bounded to the
/// layouts' size (a folder of layouts is a few hundred kilobytes).
fn tree_hash(dir: &Path) -> Vec<(String, Vec<u8>)> {
    const MAX: u64 = 64 << 20;
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    let mut total = 0u64;
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for e in entries.flatten() {
            let p = e.path();
            let Ok(meta) = std::fs::symlink_metadata(&p) else {
                continue;
            };
            if meta.is_dir() {
                stack.push(p);
            } else if meta.is_file() {
                total += meta.len();
                if total > MAX {
                    return out;
                }
                let rel = p.strip_prefix(dir).unwrap_or(&p).to_string_lossy().into_owned();
                out.push((rel, std::fs::read(&p).unwrap_or_default()));
            }
        }
    }
    out.sort();
    out
}
