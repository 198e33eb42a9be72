//! What every command works with: the command line, the project the current
//! folder is in (if any), the games at hand, and where output goes.

use std::path::{Path, PathBuf};

use crate::fsx::relative;

use super::Fatal;
use crate::check::Report;
use crate::cli::Cli;
use crate::model::Game;
use crate::pack::LoadError;
use crate::pack::yaml::Limits;
use crate::project::{Catalog, Project, not_in_a_project};
use crate::render::world::Shared;

pub struct Ctx<'a> {
    pub cli: &'a Cli,
    /// The project of the current folder.
    pub project: Option<Project>,
    /// The project's folder as a path from the current folder (`.`, `..`),
    /// so that files pnpkit names read as the user would type them.
    root: Option<PathBuf>,
    /// The games: the data folder (`--data`, else the project's) and the built-in ones.
    pub catalog: Catalog,
    /// What a command that needs a project says here, outside one.
    no_project: String,
}

impl<'a> Ctx<'a> {
    pub fn new(cli: &'a Cli, project: Option<Project>) -> Result<Ctx<'a>, Fatal> {
        let cwd = std::env::current_dir().map_err(|source| Fatal::Write {
            path: PathBuf::from("."),
            source,
        })?;
        let root = project.as_ref().map(|p| relative(&p.root, &cwd));
        let data = match (&cli.data, &project, &root) {
            (Some(d), _, _) => Some(d.clone()),
            (None, Some(p), _) => Some(relative(&p.data(), &cwd)),
            _ => None,
        };
        let no_project = not_in_a_project(&cwd);
        Ok(Ctx {
            no_project,
            cli,
            project,
            root: root.clone(),
            catalog: Catalog::new(data, root.as_ref().map(|r| r.join("fonts")).unwrap_or_default()),
        })
    }

    /// The project's folder (relative to the current folder), if any.
    pub fn root(&self) -> Option<&Path> {
        self.root.as_deref()
    }

    /// The project folder, or the one-line refusal of a command that needs one.
    pub fn need_root(&self) -> Result<&Path, Fatal> {
        self.root().ok_or_else(|| Fatal::Setup(self.no_project.clone()))
    }

    /// The data folder: `--data`, else the project's; a command that needs
    /// one outside a project is refused in one line.
    pub fn data(&self) -> Result<&Path, Fatal> {
        self.catalog.data().ok_or_else(|| Fatal::Setup(self.no_project.clone()))
    }

    /// Where output goes: `given` (`--out`), else the project's output
    /// folder; outside a project a command that writes needs `--out`.
    pub fn out(&self, given: &Option<PathBuf>) -> Result<PathBuf, Fatal> {
        if let Some(g) = given {
            return Ok(g.clone());
        }
        match &self.project {
            Some(p) => Ok(std::env::current_dir()
                .map(|cwd| relative(&p.output(), &cwd))
                .unwrap_or_else(|_| p.output())),
            _ => Err(Fatal::Setup(
                "no output folder: outside a pnpkit project, name one with `--out DIR` (or make this folder a \
                 project: `pnpkit init`)"
                    .into(),
            )),
        }
    }

    /// Reads and checks the games `only` (every game of the data folder when empty).
    pub fn check(&self, only: &[String]) -> Result<Report, Fatal> {
        self.catalog.check(only, &Limits::default()).map_err(|e| self.fatal(e))
    }

    /// A load error; outside a project, the one line that says so here.
    fn fatal(&self, e: LoadError) -> Fatal {
        match e {
            LoadError::NoProject => Fatal::Setup(self.no_project.clone()),
            e => Fatal::Load(e),
        }
    }

    /// One game, checked; refused when its pack has errors.
    pub fn load_game(&self, id: &str) -> Result<Game, Fatal> {
        load_game(&self.catalog, id)
    }

    /// Fonts and layouts for rendering: the project's, then the built-in ones.
    pub fn shared(&self) -> Result<Shared, Fatal> {
        Shared::open(self.root(), crate::render::pipeline::epoch())
            .map_err(|e| Fatal::Setup(format!("cannot load the project's fonts from `fonts/`: {e}")))
    }

    /// Refuses to change a built-in game: it is not a folder of the project.
    pub fn editable(&self, game: &Game, what: &str) -> Result<(), Fatal> {
        if game.built_in {
            return Err(Fatal::Setup(format!(
                "`{}` is built into pnpkit and cannot be {what}: `pnpkit new {} --from {}` copies it into the \
                 project to change",
                game.id, game.id, game.id
            )));
        }
        Ok(())
    }
}

/// One game of `catalog`, checked; refused when its pack has errors.
pub fn load_game(catalog: &Catalog, id: &str) -> Result<Game, Fatal> {
    let report = catalog.check(&[id.to_string()], &Limits::default())?;
    if report.has_errors() {
        return Err(Fatal::Load(LoadError::NoPacks {
            path: PathBuf::new(),
            detail: format!(
                "the `{id}` pack has {} problem(s); run `pnpkit check {id}` first",
                report.diagnostics.errors()
            ),
        }));
    }
    report
        .games
        .into_iter()
        .next()
        .ok_or_else(|| Fatal::Setup(format!("no game `{id}`")))
}
