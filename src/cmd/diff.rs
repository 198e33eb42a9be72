//! `pnpkit diff OLD [NEW]`: open both versions, check them, compare them,
//! and write each changed game's changelogs and reprint pack.

use std::path::{Path, PathBuf};

use super::{Fatal, Outcome, Progress, use_color};
use crate::check::{Report, check};
use crate::cli::{Cli, DiffArgs, Format};
use crate::diff::{self, Diff, Status, report};
use crate::fsx::txn::FileTxn;
use crate::pack::git::GitLimits;
use crate::pack::revision::{self, Version};
use crate::pack::yaml::Limits;
use crate::render::pipeline::build_all;

pub fn run(cx: &super::Ctx, args: &DiffArgs, progress: &dyn Progress) -> Result<Outcome, Fatal> {
    let cli = cx.cli;
    let limits = GitLimits::default();
    let (data, root) = (cx.data()?, cx.need_root()?);
    let open = |spec: Option<&str>| revision::open(spec, data, root, &limits).map_err(|e| Fatal::Setup(e.to_string()));
    let (old, new) = (open(Some(&args.old))?, open(args.new.as_deref())?);
    let (old_games, new_games) = (revision::games(&old), revision::games(&new));
    for g in &args.games {
        if !old_games.contains(g) && !new_games.contains(g) {
            return Err(Fatal::Setup(format!(
                "no game pack named `{g}` in {} or {}",
                old.label, new.label
            )));
        }
    }
    let (a, b) = (
        checked(&old, &old_games, &args.games)?,
        checked(&new, &new_games, &args.games)?,
    );
    if a.has_errors() || b.has_errors() {
        return Ok(Outcome::report(refused(cli, &[(&old, &a), (&new, &b)]), false));
    }
    let games: Vec<String> = b.games.iter().chain(&a.games).map(|g| g.id.clone()).collect();
    let layouts = revision::layouts_changed(&old, &new, &games);
    let mut d = diff::diff(&old.label, &a.games, &new.label, &b.games, &layouts);
    if !args.locale.is_empty() {
        for g in &mut d.games {
            g.locales.retain(|l| args.locale.contains(l));
        }
    }
    // The changelog names the new version by its mark when the work tree is being stamped.
    let new_name = new.name.clone().or_else(|| args.print.stamp.clone());
    let old_name = old.name.clone().unwrap_or_else(|| old.label.clone());
    let mut files = texts(&d, &old_name, new_name.as_deref(), args.print.stamp.as_deref());
    if !args.no_reprint {
        match reprint(cx, &d, &b, args, progress)? {
            Ok(pdfs) => files.extend(pdfs),
            Err(problems) => return Ok(Outcome::report(problems, false)),
        }
    }
    let out = cx.out(&args.out)?;
    let written = write(&out, &d, files)?;
    let stdout = match cli.format {
        Format::Human => {
            let mut s = report::human(&d);
            s.push_str(&format!("wrote {} files into {}\n", written.len(), out.display()));
            s
        }
        Format::Json => {
            let mut v = serde_json::to_value(&d).unwrap_or_default();
            v["files"] = serde_json::json!(written);
            serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
        }
    };
    Ok(Outcome::report(stdout, true))
}

/// Checks the games of one version (those named, or all), its files named as the version names them.
fn checked(v: &Version, present: &[String], only: &[String]) -> Result<Report, Fatal> {
    let wanted: Vec<String> = present
        .iter()
        .filter(|g| only.is_empty() || only.contains(g))
        .cloned()
        .collect();
    if wanted.is_empty() {
        return Ok(Report::default());
    }
    let mut r = check(&v.data, &wanted, &Limits::default())?;
    r.sources.rename(|p| v.display(p));
    Ok(r)
}

/// The errors of the versions that do not check clean.
fn refused(cli: &Cli, sides: &[(&Version, &Report)]) -> String {
    let mut out = String::new();
    for (v, r) in sides.iter().filter(|(_, r)| r.has_errors()) {
        out.push_str(&match cli.format {
            Format::Human => super::check::human(r, use_color(cli.color), None),
            Format::Json => super::check::json(r),
        });
        if cli.format == Format::Human {
            out.push_str(&format!(
                "diff refused: {} has errors; both versions must check clean\n",
                v.label
            ));
        }
    }
    out
}

/// Per changed game: its diff as JSON, a changelog and a reprint note per locale.
fn texts(d: &Diff, old: &str, new: Option<&str>, stamp: Option<&str>) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    for g in d.games.iter().filter(|g| g.status != Status::Unchanged) {
        let dir = PathBuf::from(&g.id).join("diff");
        let json = serde_json::to_string_pretty(g).unwrap_or_default() + "\n";
        files.push((dir.join("diff.json"), json.into_bytes()));
        for l in &g.locales {
            let log = report::changelog(g, l, old, new);
            files.push((dir.join(format!("changelog.{l}.md")), log.into_bytes()));
            if g.status != Status::Removed {
                let note = report::reprint_markdown(g, l, stamp, g.rules_changed(l));
                files.push((dir.join(format!("reprint.{l}.md")), note.into_bytes()));
            }
        }
    }
    files
}

/// Lays out the reprint packs: `Ok(files)`, or the rendered problems.
#[allow(clippy::type_complexity)]
fn reprint(
    cx: &super::Ctx,
    d: &Diff,
    new: &Report,
    args: &DiffArgs,
    progress: &dyn Progress,
) -> Result<Result<Vec<(PathBuf, Vec<u8>)>, String>, Fatal> {
    let selection = diff::reprint::selection(d, &new.games, args.print.stamp.as_deref());
    if selection.picks.is_empty() {
        return Ok(Ok(Vec::new()));
    }
    let opts = crate::render::KitOptions {
        locales: (!args.locale.is_empty()).then(|| args.locale.clone()),
        preflight: Some(crate::render::preflight::Limits::build()),
        reprint: Some(std::sync::Arc::new(selection)),
        ..super::build::print_options(&args.print)
    };
    let shared = cx.shared()?;
    let (built, problems) = build_all(&shared, &new.games, &opts, progress);
    if !problems.is_empty() {
        let mut s = super::render_each(&problems, crate::cli::Format::Human, false);
        s.push_str("diff failed: the reprint pack could not be laid out; nothing was written\n");
        return Ok(Err(s));
    }
    Ok(Ok(built
        .into_iter()
        .map(|b| {
            let file = b.plan.out.file_name().map(PathBuf::from).unwrap_or_default();
            let path = PathBuf::from(&b.plan.game)
                .join("diff")
                .join("reprint")
                .join(&b.plan.locale)
                .join(file);
            (path, b.pdf)
        })
        .collect()))
}

/// Writes every file under `out` and removes the PDFs an earlier reprint of
/// the same games left there, all in one file transaction: a run that fails
/// or is killed leaves the changelogs and reprint packs entirely old or
/// entirely new (the next run of any command finishes or removes what it
/// staged). Returns the paths written.
fn write(out: &Path, d: &Diff, files: Vec<(PathBuf, Vec<u8>)>) -> Result<Vec<PathBuf>, Fatal> {
    let failed = |path: &Path| {
        let path = path.to_path_buf();
        move |source| Fatal::Write { path, source }
    };
    let mut stale = Vec::new();
    for g in &d.games {
        let dir = out.join(&g.id).join("diff").join("reprint");
        for l in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            for f in std::fs::read_dir(l.path()).into_iter().flatten().flatten() {
                let p = f.path();
                if p.extension().is_some_and(|e| e == "pdf") && !files.iter().any(|(q, _)| out.join(q) == p) {
                    stale.push(p);
                }
            }
        }
    }
    // Nothing changed: nothing is written, not even the output folder.
    if files.is_empty() && stale.is_empty() {
        return Ok(Vec::new());
    }
    std::fs::create_dir_all(out).map_err(failed(out))?;
    let mut txn = FileTxn::begin(out).map_err(failed(out))?;
    for p in stale {
        txn.remove(&p).map_err(failed(&p))?;
    }
    let mut written = Vec::new();
    for (rel, bytes) in files {
        let path = out.join(rel);
        txn.put(&path, &bytes).map_err(failed(&path))?;
        written.push(path);
    }
    txn.commit().map_err(failed(out))?;
    Ok(written)
}
