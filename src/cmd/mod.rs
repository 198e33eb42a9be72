//! Thin command modules over the load → check → (build) pipeline. Commands
//! read and write files but never print: they return an [`Outcome`] that
//! `main` prints, with the status that picks the exit code.

pub mod build;
pub mod check;
mod ctx;
pub mod deck;
pub mod diff;
pub mod export;
pub mod gallery;
pub mod games;
pub mod i18n;
mod i18n_import;
pub mod log;
pub mod manual;
pub mod preflight;
pub mod scaffold;
pub mod schema;
pub mod sheet;
pub mod simulate;
pub mod stats;
pub mod templates;
pub mod watch;

pub use ctx::Ctx;

use std::io::IsTerminal;
use std::path::PathBuf;

use crate::cli::{Cli, Color, Command};
use crate::pack::LoadError;

/// What a command produced.
#[derive(Debug)]
pub struct Outcome {
    /// The report, printed on standard output.
    pub stdout: String,
    pub status: Status,
}

impl Outcome {
    /// A report that exits with 0 when `clean`, else with 1.
    pub fn report(stdout: String, clean: bool) -> Outcome {
        Outcome {
            stdout,
            status: if clean { Status::Clean } else { Status::Problems },
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Exit code 0.
    Clean,
    /// Exit code 1: the input has problems.
    Problems,
    /// Exit code 2 with a report: an input cannot be read at all (a deck
    /// list that is not text).
    Unreadable,
}

/// A failure that stops the command: exit code 2.
#[derive(Debug)]
pub enum Fatal {
    Load(LoadError),
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The project's fonts or templates cannot be read.
    Setup(String),
    /// Located problems that stop every command (a `pnpkit.toml` in error),
    /// rendered: printed as they are.
    Located(String),
}

impl std::fmt::Display for Fatal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fatal::Load(e) => e.fmt(f),
            Fatal::Write { path, source } => write!(f, "cannot write `{}`: {source}", path.display()),
            Fatal::Setup(msg) | Fatal::Located(msg) => f.write_str(msg),
        }
    }
}

impl From<LoadError> for Fatal {
    fn from(e: LoadError) -> Self {
        Fatal::Load(e)
    }
}

/// Reads a user's file (a deck list, a log) into `sources`: its id and text,
/// or the diagnostic that refuses it (too large, a special file, outside
/// `scope`, not UTF-8) with the file registered empty, so nothing of it is
/// shown. A missing or unreadable file is fatal.
pub fn read_source(
    path: &std::path::Path,
    input: crate::pack::Input,
    scope: &crate::fsx::read::Scope,
    sources: &mut crate::diag::SourceMap,
) -> Result<Result<(crate::diag::FileId, std::sync::Arc<str>), crate::diag::Diagnostic>, Fatal> {
    let limits = crate::pack::yaml::Limits::default();
    Ok(match crate::pack::read_text(path, input, &limits, scope)? {
        crate::pack::ReadFile::Text(t) => Ok((sources.add(path.to_path_buf(), t.clone()), t)),
        crate::pack::ReadFile::Rejected(make) => Err(make(sources.add(path.to_path_buf(), std::sync::Arc::from("")))),
    })
}

/// The build cache in `<out>/.cache`, unless `--no-cache`.
pub fn cache_store(args: &crate::cli::CacheArgs, out: &std::path::Path) -> Option<crate::render::cache::Store> {
    (!args.no_cache).then(|| {
        crate::render::cache::Store::new(
            &out.join(crate::render::cache::DIR),
            args.cache_limit.saturating_mul(1024 * 1024),
        )
    })
}

/// Diagnostics that each carry their own sources, rendered for humans or as JSON.
pub fn render_each<'a>(
    items: impl IntoIterator<Item = &'a (crate::diag::Diagnostic, crate::diag::SourceMap)>,
    format: crate::cli::Format,
    color: bool,
) -> String {
    match format {
        crate::cli::Format::Human => items
            .into_iter()
            .map(|(d, sources)| crate::diag::render_human(std::slice::from_ref(d), sources, color))
            .collect(),
        crate::cli::Format::Json => {
            let list: Vec<_> = items.into_iter().map(|(d, s)| crate::diag::to_json(d, s)).collect();
            let mut s = serde_json::to_string_pretty(&serde_json::json!({"diagnostics": list})).unwrap_or_default();
            s.push('\n');
            s
        }
    }
}

/// Whether human output should be coloured.
pub fn use_color(choice: Color) -> bool {
    match choice {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => std::env::var_os("NO_COLOR").is_none() && std::io::stdout().is_terminal(),
    }
}

pub use crate::progress::{Progress, Quiet};

/// Finds the project of the current folder and parses the command line
/// with the project's settings as the options' defaults (clap exits on a
/// usage error, with its message and exit code 2).
pub fn parse() -> (Cli, Result<Option<crate::project::Project>, crate::project::FindError>) {
    use clap::FromArgMatches;
    let found = std::env::current_dir()
        .map_err(|source| crate::project::FindError::Io {
            path: PathBuf::from("."),
            source,
        })
        .and_then(|cwd| crate::project::find(&cwd));
    let config = found.as_ref().ok().and_then(Option::as_ref).map(|p| &p.config);
    let matches = crate::cli::command(config).get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    (cli, found)
}

/// The report of a run its budget stopped ([`crate::budget::watch`]): one
/// located diagnostic, exit 1.
pub fn stopped(e: &crate::budget::Exceeded, format: crate::cli::Format, color: bool) -> Outcome {
    let mut sources = crate::diag::SourceMap::default();
    let d = crate::render::runaway::over_budget(e, &mut sources);
    let stdout = match format {
        crate::cli::Format::Human => crate::diag::render_human(std::slice::from_ref(&d), &sources, color),
        crate::cli::Format::Json => {
            let all = serde_json::json!({ "diagnostics": [crate::diag::to_json(&d, &sources)] });
            format!("{}\n", serde_json::to_string_pretty(&all).unwrap_or_default())
        }
    };
    Outcome {
        stdout,
        status: Status::Problems,
    }
}

/// Runs the command the CLI names, in the project `found` (if any).
pub fn run(
    cli: &Cli,
    found: Result<Option<crate::project::Project>, crate::project::FindError>,
    progress: &dyn Progress,
) -> Result<Outcome, Fatal> {
    let project = match found {
        Ok(p) => p,
        Err(crate::project::FindError::Io { path, source }) => return Err(Fatal::Write { path, source }),
        Err(crate::project::FindError::Invalid { diagnostics, sources }) => {
            let color = use_color(cli.color);
            return Err(Fatal::Located(crate::diag::render_human(&diagnostics, &sources, color)));
        }
    };
    let cx = Ctx::new(cli, project)?;
    // What a killed `import` or `i18n import` left in the data folder is
    // finished (a committed transaction) or removed before anything reads it.
    if let Some(data) = cx.catalog.data().filter(|d| d.is_dir()) {
        crate::fsx::txn::recover_tree(data).map_err(|source| Fatal::Write {
            path: data.to_path_buf(),
            source,
        })?;
    }
    // And what a killed `build`, `export`, `diff` or `deck --batch` staged in
    // the project's output folder.
    if let Some(out) = cx.out(&None).ok().filter(|o| o.is_dir()) {
        crate::fsx::txn::recover_output(&out).map_err(|source| Fatal::Write {
            path: out.clone(),
            source,
        })?;
    }
    let cli = cx.cli;
    match &cli.command {
        Command::Check(args) => check::run(&cx, args, progress),
        Command::Schema(args) => schema::run(&cx, args),
        Command::Build(args) => build::run(&cx, args, progress),
        Command::Preflight(args) => preflight::run(&cx, args, progress),
        Command::Export(args) => export::run(&cx, args, progress),
        Command::I18n(args) => i18n::run(&cx, args),
        Command::Log(args) => log::run(&cx, args),
        Command::Simulate(args) => simulate::run(&cx, args, progress),
        Command::Stats(args) => stats::run(&cx, args),
        Command::Deck(args) => deck::run(&cx, args),
        Command::Diff(args) => diff::run(&cx, args, progress),
        Command::Import(args) => sheet::import(&cx, args),
        Command::ExportSheet(args) => sheet::export(&cx, args),
        Command::New(args) => scaffold::run(&cx, args),
        Command::Watch(args) => watch::run(&cx, args, progress),
        Command::Gallery(args) => gallery::run(&cx, args, progress),
        Command::Games => games::run(&cx),
        Command::Init => scaffold::init(&cx),
        Command::Templates(args) => templates::run(&cx, args),
        Command::Completions(args) => manual::completions(args),
        Command::Man => manual::man(),
    }
}
