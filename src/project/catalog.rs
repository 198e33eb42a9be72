//! Where the games at hand come from: the data folder (the project's, or
//! `--data`) and the games built into pnpkit. A folder of the data folder
//! takes the place of a built-in game of the same id. Built-in packs are
//! written into a private temporary folder on first use and read from there
//! like any pack; messages show their files as `<built-in>/data/<game>/…`.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use serde::Serialize;

use crate::check::{PackDir, Report, check_packs};
use crate::pack::yaml::Limits;
use crate::pack::{self, LoadError};

/// Where a game comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Origin {
    /// A folder of the data folder.
    Project,
    /// Built into pnpkit.
    BuiltIn,
}

/// The games at hand.
pub struct Catalog {
    data: Option<PathBuf>,
    /// The project's fonts folder (which may not exist), beside the built-in fonts.
    fonts: PathBuf,
    /// The private folder built-in packs are written into, made on first use.
    scratch: OnceLock<Result<tempfile::TempDir, String>>,
    written: Mutex<Vec<String>>,
}

impl Catalog {
    /// The games of `data` (when there is a data folder) and the built-in
    /// ones, checked with the fonts of `fonts` and the built-in ones.
    pub fn new(data: Option<PathBuf>, fonts: PathBuf) -> Catalog {
        Catalog {
            data,
            fonts,
            scratch: OnceLock::new(),
            written: Mutex::new(Vec::new()),
        }
    }

    /// The data folder, if any.
    pub fn data(&self) -> Option<&Path> {
        self.data.as_deref()
    }

    /// Whether the data folder has a pack folder `id`.
    fn in_data(&self, id: &str) -> bool {
        self.data.as_ref().is_some_and(|d| d.join(id).is_dir())
    }

    /// Every game at hand, sorted by id: the data folder's folders, then the
    /// built-in games no folder takes the place of.
    pub fn games(&self) -> Vec<(String, Origin)> {
        let mut out: Vec<(String, Origin)> = Vec::new();
        if let Some(dirs) = self.data.as_ref().and_then(|d| pack::pack_dirs(d, &[]).ok()) {
            for d in dirs {
                out.push((
                    d.file_name().unwrap_or_default().to_string_lossy().into_owned(),
                    Origin::Project,
                ));
            }
        }
        for id in crate::builtin::games() {
            if !out.iter().any(|(g, _)| g == id) {
                out.push((id.to_owned(), Origin::BuiltIn));
            }
        }
        out.sort();
        out
    }

    /// The pack folders of `only` (every folder of the data folder when
    /// empty), each from the data folder when it has one, else built in.
    pub fn resolve(&self, only: &[String]) -> Result<Vec<PackDir>, LoadError> {
        if only.is_empty() {
            let Some(data) = &self.data else {
                return Err(LoadError::NoProject);
            };
            if !data.exists() {
                return Err(LoadError::NoPacks {
                    path: PathBuf::new(),
                    detail: format!(
                        "no game pack: `{}` does not exist (`pnpkit new GAME` adds a first game)",
                        data.display()
                    ),
                });
            }
            return Ok(pack::pack_dirs(data, &[])?
                .into_iter()
                .map(|dir| PackDir {
                    dir,
                    data: data.clone(),
                    built_in: false,
                })
                .collect());
        }
        let mut out = Vec::new();
        for id in only {
            if let Some(data) = self.data.as_ref().filter(|_| self.in_data(id)) {
                out.push(PackDir {
                    dir: pack::pack_dirs(data, std::slice::from_ref(id))?.remove(0),
                    data: data.clone(),
                    built_in: false,
                });
            } else if crate::builtin::games().contains(&id.as_str()) {
                let scratch = self.write_built_in(id)?;
                out.push(PackDir {
                    dir: scratch.join(id),
                    data: scratch,
                    built_in: true,
                });
            } else {
                return Err(self.unknown(id));
            }
        }
        Ok(out)
    }

    /// Checks the games `only` (see [`Catalog::resolve`]); built-in files
    /// are named `<built-in>/data/…`.
    pub fn check(&self, only: &[String], limits: &Limits) -> Result<Report, LoadError> {
        let dirs = self.resolve(only)?;
        let mut report = check_packs(&dirs, &self.fonts, limits)?;
        if let Some(Ok(scratch)) = self.scratch.get() {
            let scratch = scratch.path().to_path_buf();
            report.sources.rename(|p| {
                p.strip_prefix(&scratch)
                    .ok()
                    .map(|rest| Path::new(crate::builtin::LABEL).join("data").join(rest))
            });
        }
        Ok(report)
    }

    /// A game id that is neither a folder of the data folder nor built in.
    fn unknown(&self, id: &str) -> LoadError {
        let built_in = crate::builtin::games();
        let mut detail = format!("no game `{id}`: ");
        match &self.data {
            Some(d) => detail.push_str(&format!("`{}` has no folder `{id}`", d.display())),
            None => detail.push_str("not in a project"),
        }
        detail.push_str(&format!(
            " and no built-in game has that id (built in: {})",
            built_in.join(", ")
        ));
        let games = self.games();
        if let Some(near) = crate::diag::did_you_mean(id, games.iter().map(|(g, _)| g.as_str())) {
            detail.push_str(&format!("; did you mean `{near}`?"));
        }
        // The detail names the data folder itself.
        LoadError::NoPacks {
            path: PathBuf::new(),
            detail,
        }
    }

    /// Writes the built-in pack `id` into the private folder (once) and
    /// returns that folder.
    fn write_built_in(&self, id: &str) -> Result<PathBuf, LoadError> {
        let scratch = self
            .scratch
            .get_or_init(|| {
                tempfile::Builder::new()
                    .prefix("pnpkit-built-in-")
                    .tempdir()
                    .map_err(|e| e.to_string())
            })
            .as_ref()
            .map_err(|e| LoadError::Io {
                path: std::env::temp_dir(),
                source: std::io::Error::other(e.clone()),
            })?
            .path()
            .to_path_buf();
        let mut written = self.written.lock().unwrap_or_else(|e| e.into_inner());
        if !written.iter().any(|w| w == id) {
            crate::builtin::write_dir(&format!("data/{id}"), &scratch.join(id)).map_err(|source| LoadError::Io {
                path: scratch.join(id),
                source,
            })?;
            written.push(id.to_owned());
        }
        Ok(scratch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_of_the_data_folder_takes_the_place_of_the_built_in_game() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        std::fs::create_dir_all(data.join("unmatched")).unwrap();
        std::fs::create_dir_all(data.join("mine")).unwrap();
        let c = Catalog::new(Some(data.clone()), dir.path().join("fonts"));
        let games = c.games();
        assert!(games.contains(&("unmatched".into(), Origin::Project)));
        assert!(games.contains(&("mine".into(), Origin::Project)));
        assert!(games.contains(&("mythic".into(), Origin::BuiltIn)));
        let dirs = c.resolve(&["unmatched".into(), "mythic".into()]).unwrap();
        assert_eq!(dirs[0].dir, data.join("unmatched"));
        assert!(!dirs[0].built_in && dirs[1].built_in);
        assert!(dirs[1].dir.join("game.yaml").is_file());
        let all = c.resolve(&[]).unwrap();
        assert_eq!(all.len(), 2, "every folder of the data folder, no built-in game");
    }

    #[test]
    fn outside_a_project_built_in_games_check_clean_and_are_named_as_built_in() {
        let c = Catalog::new(None, PathBuf::new());
        assert!(matches!(c.resolve(&[]), Err(LoadError::NoProject)));
        let r = c.check(&["unmatched".into()], &Limits::default()).unwrap();
        assert!(!r.has_errors(), "{:?}", r.diagnostics);
        assert!(r.games[0].built_in);
        assert!(
            r.sources
                .path(crate::diag::FileId(0))
                .starts_with("<built-in>/data/unmatched")
        );
        let e = c.resolve(&["unmatchd".into()]).unwrap_err().to_string();
        assert!(e.contains("did you mean `unmatched`"), "{e}");
    }
}
