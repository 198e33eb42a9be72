//! The pnpkit binary: parse the command line, run the command, print its
//! report and pick the exit code (0 clean, 1 problems, 2 usage or I/O).

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;
use pnpkit::cli::Cli;
use pnpkit::cmd::{self, Status};

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cmd::run(&cli) {
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
        Err(fatal) => {
            eprintln!("error: {fatal}");
            ExitCode::from(2)
        }
    }
}
