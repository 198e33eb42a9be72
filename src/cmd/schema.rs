//! `pnpkit schema`: write (or verify) the JSON Schemas of every pack.

use std::path::PathBuf;

use super::check::human;
use super::{Fatal, Outcome, Status, use_color};
use crate::cli::SchemaArgs;
use crate::diag::Severity;
use crate::fsx::write_atomic;

pub fn run(cx: &super::Ctx, args: &SchemaArgs) -> Result<Outcome, Fatal> {
    let cli = cx.cli;
    let report = cx.check(&args.games)?;
    // Component problems do not matter here (the schemas help fix them),
    // but a broken game.yaml gives no trustworthy schema.
    let decl_broken = report.diagnostics.items.iter().any(|d| {
        d.severity == Severity::Error
            && d.span.is_some_and(|s| {
                report
                    .sources
                    .path(s.file)
                    .file_name()
                    .is_some_and(|n| n == "game.yaml")
            })
    });
    if decl_broken {
        let mut stdout = human(&report, use_color(cli.color), None);
        stdout.push_str("schemas not written: fix game.yaml first\n");
        return Ok(Outcome {
            stdout,
            status: Status::Problems,
        });
    }
    let mut files: Vec<(PathBuf, String)> = Vec::new();
    for game in &report.games {
        if !args.check {
            cx.editable(game, "given schemas")?;
        }
        files.extend(crate::schema::pack_files(game));
    }
    let mut stdout = String::new();
    let mut stale = 0;
    for (path, content) in &files {
        // Compared as the data is read: bounded, a FIFO or a link out of the data not read.
        // `<data>/<game>/schemas/<file>`: read within the data folder.
        let data = path.ancestors().nth(3).unwrap_or(std::path::Path::new("."));
        let current = crate::fsx::read::Scope::within(data)
            .ok()
            .and_then(|scope| crate::fsx::read::read_bounded(path, crate::fsx::read::max::PACK_FILE, &scope).ok())
            .and_then(|b| String::from_utf8(b).ok());
        if current.as_deref() == Some(content.as_str()) {
            continue;
        }
        if args.check {
            stale += 1;
            stdout.push_str(&format!("stale: {}\n", path.display()));
        } else {
            write_atomic(path, content.as_bytes()).map_err(|source| Fatal::Write {
                path: path.clone(),
                source,
            })?;
            stdout.push_str(&format!("wrote {}\n", path.display()));
        }
    }
    stdout.push_str(&format!(
        "{} schema files for {} pack{}{}\n",
        files.len(),
        report.games.len(),
        if report.games.len() == 1 { "" } else { "s" },
        if args.check {
            if stale == 0 {
                ", all up to date".to_string()
            } else {
                format!(", {stale} stale: run `pnpkit schema`")
            }
        } else {
            String::new()
        }
    ));
    Ok(Outcome {
        stdout,
        status: if stale > 0 { Status::Problems } else { Status::Clean },
    })
}
