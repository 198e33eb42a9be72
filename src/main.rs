//! The pnpkit binary: parse the command line, run the command, print its
//! report and pick the exit code (0 clean, 1 problems, 2 usage or I/O).

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use indicatif::{ProgressBar, ProgressStyle};
use pnpkit::cmd::{self, Progress, Status};

/// mimalloc instead of the system allocator: reading a game log or a pack
/// makes millions of small strings and maps (docs/decisions.md).
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// A progress bar on standard error, only when it is a terminal.
struct Bar(Option<ProgressBar>);

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
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    }
}

fn main() -> ExitCode {
    let (cli, project) = cmd::parse();
    let bar = Bar(std::io::stderr().is_terminal().then(|| {
        let b = ProgressBar::new(0);
        if let Ok(style) = ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} {elapsed}") {
            b.set_style(style.progress_chars("=> "));
        }
        b
    }));
    match cmd::run(&cli, project, &bar) {
        Ok(outcome) => {
            let mut out = std::io::stdout().lock();
            // A closed pipe (`pnpkit check | head`) is not an error worth a panic.
            let _ = out.write_all(outcome.stdout.as_bytes());
            let _ = out.flush();
            match outcome.status {
                Status::Clean => ExitCode::SUCCESS,
                Status::Problems => ExitCode::from(1),
            }
        }
        Err(cmd::Fatal::Located(text)) => {
            eprint!("{text}");
            ExitCode::from(2)
        }
        Err(fatal) => {
            eprintln!("error: {fatal}");
            ExitCode::from(2)
        }
    }
}
