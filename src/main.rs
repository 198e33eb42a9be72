//! The pnpkit binary: parse the command line, run the command, print its
//! report and pick the exit code (0 clean, 1 problems, 2 usage or I/O).

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use indicatif::{ProgressBar, ProgressStyle};
use pnpkit::cmd::{self, Progress, Status};
use pnpkit::terminal::inert;

/// mimalloc instead of the system allocator: reading a game log or a pack
/// makes millions of small strings and maps (docs/decisions.md); counted
/// against the run's memory limit (`pnpkit::budget`).
#[global_allocator]
static ALLOC: pnpkit::budget::Budgeted<mimalloc::MiMalloc> = pnpkit::budget::Budgeted(mimalloc::MiMalloc);

/// A progress bar on standard error, only when it is a terminal; and
/// whether colour is on, for the lines a command prints as it goes.
struct Bar(Option<ProgressBar>, bool);

impl Progress for Bar {
    fn start(&self, total: usize, what: &str) {
        if let Some(b) = &self.0 {
            b.set_length(total as u64);
            b.set_message(what.to_owned());
        }
    }
    fn advance(&self) {
        if let Some(b) = &self.0 {
            b.inc(1);
        }
    }
    fn finish(&self) {
        if let Some(b) = &self.0 {
            b.finish_and_clear();
        }
    }
    fn message(&self, line: &str) {
        // Made before the lock is taken: a thread the budget stops while it
        // allocates must not hold standard output.
        let line = format!("{}\n", inert(line, self.1));
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(line.as_bytes());
        let _ = out.flush();
    }
}

fn main() -> ExitCode {
    let (cli, project) = cmd::parse();
    // Names in reports come from files anyone may write: printed inert.
    let color = cmd::use_color(cli.color);
    let (limits, format) = (cli.limits(), cli.format);
    let bar = Bar(
        std::io::stderr().is_terminal().then(|| {
            let b = ProgressBar::new(0);
            if let Ok(style) = ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} {elapsed}") {
                b.set_style(style.progress_chars("=> "));
            }
            b
        }),
        color,
    );
    // The command runs on a worker thread under the run's budget; this one
    // watches, and reports a layout that runs away.
    let done = pnpkit::budget::watch(limits, move || cmd::run(&cli, project, &bar));
    let done = done.unwrap_or_else(|stopped| Ok(cmd::stopped(&stopped, format, color)));
    match done {
        Ok(outcome) => {
            let mut out = std::io::stdout().lock();
            // A closed pipe (`pnpkit check | head`) is not an error worth a panic.
            let _ = out.write_all(inert(&outcome.stdout, color).as_bytes());
            let _ = out.flush();
            match outcome.status {
                Status::Clean => ExitCode::SUCCESS,
                Status::Problems => ExitCode::from(1),
                Status::Unreadable => ExitCode::from(2),
            }
        }
        Err(cmd::Fatal::Located(text)) => {
            eprint!("{}", inert(&text, color));
            ExitCode::from(2)
        }
        Err(fatal) => {
            eprintln!("error: {}", inert(&fatal.to_string(), color));
            ExitCode::from(2)
        }
    }
}
