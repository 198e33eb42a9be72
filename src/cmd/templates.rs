//! `pnpkit templates list|eject`: the layouts built into pnpkit, which the
//! project overrides, and copies of them in the project's `templates/` to
//! edit (a project file takes the place of the built-in file of its path).

use std::path::PathBuf;

use super::{Fatal, Outcome, Status};
use crate::cli::{Format, TemplatesAction, TemplatesArgs};
use crate::fsx::write_atomic;

/// The built-in template folders (`shared`, `gallery`, `scaffold`, a game id), sorted.
fn folders() -> Vec<&'static str> {
    let mut out: Vec<&'static str> = crate::builtin::under("templates")
        .filter_map(|(rel, _)| rel.split_once('/').map(|(f, _)| f))
        .collect();
    out.dedup();
    out
}

pub fn run(cx: &super::Ctx, args: &TemplatesArgs) -> Result<Outcome, Fatal> {
    match &args.action {
        TemplatesAction::List => list(cx),
        TemplatesAction::Eject { folders: wanted } => eject(cx, wanted),
    }
}

fn list(cx: &super::Ctx) -> Result<Outcome, Fatal> {
    let root = cx.root();
    let rows: Vec<(String, bool)> = crate::builtin::under("templates")
        .map(|(rel, _)| format!("templates/{rel}"))
        .chain(
            crate::builtin::fonts()
                .into_iter()
                .map(|(name, _)| format!("fonts/{name}")),
        )
        .map(|path| {
            let overridden = root.is_some_and(|r| r.join(&path).is_file());
            (path, overridden)
        })
        .collect();
    let stdout = match cx.cli.format {
        Format::Json => {
            let list: Vec<_> = rows
                .iter()
                .map(|(p, o)| serde_json::json!({"path": p, "overridden": o}))
                .collect();
            serde_json::to_string_pretty(&serde_json::json!({ "built_in": list })).unwrap_or_default() + "\n"
        }
        Format::Human => {
            let mut s = String::from("built into pnpkit (a project file of the same path takes its place):\n");
            for (p, o) in &rows {
                s.push_str(&format!("  {p}{}\n", if *o { "   (the project's own)" } else { "" }));
            }
            s
        }
    };
    Ok(Outcome::report(stdout, true))
}

fn eject(cx: &super::Ctx, wanted: &[String]) -> Result<Outcome, Fatal> {
    let root = cx.need_root()?;
    let known = folders();
    for w in wanted {
        if !known.contains(&w.as_str()) {
            return Err(Fatal::Setup(format!(
                "no built-in template folder `{w}`: one of {}",
                known.join(", ")
            )));
        }
    }
    let chosen: Vec<&str> = if wanted.is_empty() {
        known
    } else {
        known.into_iter().filter(|k| wanted.iter().any(|w| w == k)).collect()
    };
    let mut written = Vec::new();
    let mut kept = Vec::new();
    for folder in chosen {
        for (rel, bytes) in crate::builtin::under(&format!("templates/{folder}")) {
            let path: PathBuf = root.join("templates").join(folder).join(rel);
            // Never overwrites: a file there is the project's own already.
            if std::fs::symlink_metadata(&path).is_ok() {
                kept.push(path);
                continue;
            }
            write_atomic(&path, bytes).map_err(|source| Fatal::Write {
                path: path.clone(),
                source,
            })?;
            written.push(path);
        }
    }
    let mut stdout = String::new();
    for p in &written {
        stdout.push_str(&format!("wrote {}\n", p.display()));
    }
    for p in &kept {
        stdout.push_str(&format!("kept {} (the project's own; not overwritten)\n", p.display()));
    }
    stdout.push_str(&format!(
        "{} file(s) copied; the project's files now take the place of the built-in ones\n",
        written.len()
    ));
    Ok(Outcome {
        stdout,
        status: Status::Clean,
    })
}
