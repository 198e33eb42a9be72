//! Thin command modules over the load → check → (build) pipeline. Commands
//! read and write files but never print: they return an [`Outcome`] that
//! `main` prints, with the status that picks the exit code.

pub mod build;
pub mod check;
pub mod deck;
pub mod diff;
pub mod export;
pub mod gallery;
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
pub mod watch;

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
}

impl std::fmt::Display for Fatal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fatal::Load(e) => e.fmt(f),
            Fatal::Write { path, source } => write!(f, "cannot write `{}`: {source}", path.display()),
            Fatal::Setup(msg) => f.write_str(msg),
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

/// The project's fonts and typst library for rendering, rooted at the
/// current directory (templates and fonts are read from there).
pub fn project_shared() -> Result<crate::render::world::Shared, Fatal> {
    let shared = crate::render::world::Shared::new(std::path::Path::new("."), crate::render::pipeline::epoch())
        .map_err(|e| {
            Fatal::Setup(format!(
                "cannot load fonts from `fonts/`: {e} (run pnpkit from the project root)"
            ))
        })?;
    if shared.font_count() == 0 {
        return Err(Fatal::Setup(
            "no font in `fonts/`: pnpkit renders only with the project's fonts".into(),
        ));
    }
    Ok(shared)
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

/// Runs the command the CLI names.
pub fn run(cli: &Cli, progress: &dyn Progress) -> Result<Outcome, Fatal> {
    // What a killed `import` or `i18n import` left in the data folder is
    // finished (a committed transaction) or removed before anything reads it.
    crate::fsx::txn::recover_tree(&cli.data).map_err(|source| Fatal::Write {
        path: cli.data.clone(),
        source,
    })?;
    match &cli.command {
        Command::Check(args) => check::run(cli, args, progress),
        Command::Schema(args) => schema::run(cli, args),
        Command::Build(args) => build::run(cli, args, progress),
        Command::Preflight(args) => preflight::run(cli, args, progress),
        Command::Export(args) => export::run(cli, args, progress),
        Command::I18n(args) => i18n::run(cli, args),
        Command::Log(args) => log::run(cli, args),
        Command::Simulate(args) => simulate::run(cli, args, progress),
        Command::Stats(args) => stats::run(cli, args),
        Command::Deck(args) => deck::run(cli, args),
        Command::Diff(args) => diff::run(cli, args, progress),
        Command::Import(args) => sheet::import(cli, args),
        Command::ExportSheet(args) => sheet::export(cli, args),
        Command::New(args) => scaffold::run(cli, args),
        Command::Watch(args) => watch::run(cli, args, progress),
        Command::Gallery(args) => gallery::run(cli, args, progress),
        Command::Completions(args) => manual::completions(args),
        Command::Man => manual::man(),
    }
}
