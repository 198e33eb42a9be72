//! `pnpkit i18n import`: PO files back into the packs' YAML, all or nothing.
//!
//! 1. Every PO file is read (bounded) and parsed; unreadable lines,
//!    duplicate or conflicting entries, unknown text ids and changed sources
//!    are reported with their PO line.
//! 2. Each YAML file with new translations is rewritten in place
//!    (`i18n::rewrite`: every scalar style, parsed back and compared).
//! 3. The changed packs are checked in a scratch copy beside the data, as
//!    `import` does: a translation that breaks the pack (a text template that
//!    does not render) is reported at its PO line.
//! 4. Only with no error are the YAML files and lock files written, in one
//!    file transaction.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::i18n::{game_entries, lock_path, read_lock};
use super::{Fatal, Outcome, Status, use_color};
use crate::check::{Report, check};
use crate::cli::{Cli, Format, I18nArgs};
use crate::diag::{Code, Diagnostic, FileId, Severity, SourceMap, Span, render_human, to_json};
use crate::fsx::read::Scope;
use crate::fsx::txn::{FileTxn, Scratch, copy_tree};
use crate::i18n::{Edit, Entry, duplicates, hash, locate, parse_po, rewrite, write_lock};
use crate::model::Game;
use crate::pack::yaml::Limits;
use crate::pack::{self, Input, ReadFile};

/// Where an edit came from: the PO file (in the run's sources) and line.
#[derive(Clone, Copy)]
struct Origin {
    po: FileId,
    line: usize,
}

/// What one game's import changes.
#[derive(Default)]
struct Plan {
    /// Per YAML file (relative to the pack): the edits and their origins.
    files: BTreeMap<String, Vec<(Edit, Origin)>>,
    /// The new lock of each locale.
    locks: Vec<(String, BTreeMap<String, String>)>,
    changed: usize,
    fuzzy: usize,
    empty: usize,
}

fn at_line(sources: &SourceMap, file: FileId, line: usize) -> Span {
    sources.line_span(file, line as u32)
}

/// The diagnostic of every PO problem: one constructor for them all.
fn po_problem(span: Span, message: impl Into<String>, expected: impl Into<String>) -> Diagnostic {
    Diagnostic::new(Code::TranslationImport, message)
        .at(span)
        .expected(expected)
}

/// Reads one PO file and plans its edits into `plan`.
#[allow(clippy::too_many_arguments)]
fn plan_locale(
    game: &Game,
    locale: &str,
    entries: &[Entry],
    po_path: &Path,
    sources: &mut SourceMap,
    diags: &mut Vec<Diagnostic>,
    plan: &mut Plan,
) -> Result<(), Fatal> {
    let limits = Limits::default();
    let (file, text) = match pack::read_text(po_path, Input::Po, &limits, &Scope::named())? {
        ReadFile::Text(t) => (sources.add(po_path.to_path_buf(), t.clone()), t),
        ReadFile::Rejected(make) => {
            diags.push(make(sources.add(po_path.to_path_buf(), Arc::from(""))));
            return Ok(());
        }
    };
    let po = match parse_po(&text) {
        Ok(po) => po,
        Err(problems) => {
            for p in problems {
                diags.push(
                    po_problem(at_line(sources, file, p.line), p.message, p.expected)
                        .label("not read")
                        .help("fix the PO file (or export it again) and import again; nothing was written"),
                );
            }
            return Ok(());
        }
    };
    let mut repeated = std::collections::HashSet::new();
    for d in duplicates(&po) {
        repeated.insert(d.second);
        let (message, label) = if d.conflicting {
            (
                format!("`{}` is translated twice, differently", d.key),
                "a second, different translation",
            )
        } else {
            (format!("`{}` appears twice", d.key), "the same entry again")
        };
        diags.push(
            po_problem(at_line(sources, file, d.second), message, "each text once in a PO file")
                .label(label)
                .related(at_line(sources, file, d.first), "first given here")
                .help("keep one of the entries (a merge of two PO files can leave both)"),
        );
    }
    let by_id: HashMap<&str, &Entry> = entries.iter().map(|e| (e.id.as_str(), e)).collect();
    let mut lock = read_lock(game, locale);
    for p in po.iter().filter(|p| !repeated.contains(&p.line)) {
        let origin = Origin { po: file, line: p.line };
        if p.fuzzy {
            plan.fuzzy += 1;
            continue;
        }
        if p.translation.is_empty() {
            plan.empty += 1;
            continue;
        }
        let span = at_line(sources, file, p.line);
        let Some(entry) = by_id.get(p.context.as_str()) else {
            diags.push(
                po_problem(
                    span,
                    format!("no text `{}` in {}", p.context, game.id),
                    "the id of a text of the pack (msgctxt)",
                )
                .label("unknown text")
                .suggest(&p.context, by_id.keys().copied())
                .help("the text was moved or removed since the export: export again (`pnpkit i18n export`) and merge"),
            );
            continue;
        };
        if p.source != entry.source {
            diags.push(
                po_problem(span, format!("the source of `{}` changed since the export", p.context), "the current source text as msgid")
                    .label("translated from an older source")
                    .found(format!("{:?}", p.source))
                    .note(format!("the source is now {:?}", entry.source))
                    .help("export again and review this translation (it is marked fuzzy), or mark it `#, fuzzy` to leave it out"),
            );
            continue;
        }
        lock.insert(entry.id.clone(), hash(&entry.source));
        if entry.translations.get(locale) == Some(&p.translation) {
            continue;
        }
        let path = entry.id.split_once('#').map_or("", |(_, p)| p).to_owned();
        plan.files.entry(entry.file.clone()).or_default().push((
            Edit {
                path,
                locale: locale.to_owned(),
                translation: p.translation.clone(),
            },
            origin,
        ));
        plan.changed += 1;
    }
    plan.locks.push((locale.to_owned(), lock));
    Ok(())
}

/// The new text of every changed file of a game, or the diagnostics why not.
fn rewrite_files(
    game: &Game,
    plan: &Plan,
    sources: &SourceMap,
    diags: &mut Vec<Diagnostic>,
) -> Result<Vec<(String, String)>, Fatal> {
    let limits = Limits::default();
    let scope = pack::pack_scope(&game.dir)?;
    let mut out = Vec::new();
    for (rel, edits) in &plan.files {
        let path = game.dir.join(rel);
        let ReadFile::Text(text) = pack::read_file(&path, &limits, &scope)? else {
            return Err(Fatal::Setup(format!("`{}` cannot be read again", path.display())));
        };
        let root = pack::parse_yaml(&text, FileId(0), &limits)
            .map_err(|d| Fatal::Setup(format!("`{}` does not parse again: {}", path.display(), d.message)))?;
        let only: Vec<Edit> = edits.iter().map(|(e, _)| e.clone()).collect();
        match rewrite(&text, &root, &only) {
            Ok(new) => out.push((rel.clone(), new)),
            Err(e) => {
                let origin = edits
                    .iter()
                    .find(|(ed, _)| Some(&ed.path) == e.path.as_ref())
                    .or(edits.first())
                    .map(|(_, o)| *o);
                let mut d = Diagnostic::new(
                    Code::TranslationImport,
                    format!("a translation cannot be written into {}/{rel}", game.id),
                )
                .expected("the translation in place, the rest of the file unchanged")
                .note(e.message);
                d = match origin {
                    Some(o) => d.at(at_line(sources, o.po, o.line)).label("this translation"),
                    None => d.in_file(&path),
                };
                diags.push(d.help("write this text in the YAML by hand, or report the file to pnpkit's authors"));
            }
        }
    }
    Ok(out)
}

/// Checks each changed game in a scratch copy beside the data; its
/// problems come back pointing at the real files, and at the PO line of a
/// translation they lie in.
fn check_in_scratch(
    data: &Path,
    game: &Game,
    plan: &Plan,
    new_files: &[(String, String)],
    sources: &mut SourceMap,
    diags: &mut Vec<Diagnostic>,
) -> Result<(), Fatal> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| Fatal::Write { path, source }
    };
    let scratch = Scratch::beside(data).map_err(io(data))?;
    let folder = game.dir.file_name().unwrap_or_default();
    let copy = scratch.path().join(folder);
    let scope = Scope::within(data).map_err(io(data))?;
    copy_tree(&game.dir, &copy, &scope).map_err(io(&copy))?;
    for (rel, text) in new_files {
        std::fs::write(copy.join(rel), text).map_err(io(&copy.join(rel)))?;
    }
    let checked: Report = check(scratch.path(), std::slice::from_ref(&game.id), &Limits::default())?;
    if !checked.has_errors() {
        return Ok(());
    }
    let offset = sources.append(&checked.sources, |p| {
        p.strip_prefix(&copy)
            .map(|rest| game.dir.join(rest))
            .unwrap_or_else(|_| p.to_path_buf())
    });
    // Where each edited text sits in the new files.
    let mut placed: Vec<(PathBuf, std::ops::Range<usize>, Origin)> = Vec::new();
    for (rel, text) in new_files {
        if let Ok(root) = pack::parse_yaml(text, FileId(0), &Limits::default()) {
            for (e, o) in plan.files.get(rel).into_iter().flatten() {
                if let Some(n) = locate(&root, &e.path) {
                    placed.push((game.dir.join(rel), n.span.start..n.span.end.max(n.span.start + 1), *o));
                }
            }
        }
    }
    for d in checked
        .diagnostics
        .items
        .into_iter()
        .filter(|d| d.severity == Severity::Error)
    {
        let mut d = d.shifted(offset);
        if let Some(span) = d.span {
            let path = sources.path(span.file).to_path_buf();
            for (p, range, o) in &placed {
                if *p == path && range.contains(&span.start) {
                    d = d.related(at_line(sources, o.po, o.line), "the translation comes from here");
                }
            }
            if new_files.iter().any(|(rel, _)| game.dir.join(rel) == path) {
                d = d.note("in the file as `i18n import` would write it (nothing was written)");
            }
        }
        diags.push(d);
    }
    Ok(())
}

/// Runs `i18n import` over the checked games.
pub fn run(cli: &Cli, args: &I18nArgs, out: &Path, data: &Path, report: &Report) -> Result<Outcome, Fatal> {
    let color = use_color(cli.color);
    let limits = Limits::default();
    let mut sources = SourceMap::default();
    let mut diags = Vec::new();
    let mut plans: Vec<(&Game, Plan)> = Vec::new();
    for game in &report.games {
        let entries = game_entries(game, &limits)?;
        let mut plan = Plan::default();
        for locale in super::i18n::wanted(game, args) {
            let po_path = out.join(&game.id).join("i18n").join(format!("{locale}.po"));
            plan_locale(game, &locale, &entries, &po_path, &mut sources, &mut diags, &mut plan)?;
        }
        plans.push((game, plan));
    }
    let mut outputs: Vec<(&Game, Vec<(String, String)>)> = Vec::new();
    if diags.is_empty() {
        for (game, plan) in &plans {
            let files = rewrite_files(game, plan, &sources, &mut diags)?;
            outputs.push((game, files));
        }
    }
    if diags.is_empty() {
        for ((game, plan), (_, files)) in plans.iter().zip(&outputs) {
            if !files.is_empty() {
                check_in_scratch(data, game, plan, files, &mut sources, &mut diags)?;
            }
        }
    }
    if !diags.is_empty() {
        return Ok(refused(cli, &diags, &sources, color));
    }
    // Everything or nothing: one transaction for every file of every game.
    let write_err = |source| Fatal::Write {
        path: data.to_path_buf(),
        source,
    };
    let mut txn = FileTxn::begin(data).map_err(write_err)?;
    let mut summary = String::new();
    for ((game, plan), (_, files)) in plans.iter().zip(&outputs) {
        for (rel, text) in files {
            txn.put(&game.dir.join(rel), text.as_bytes()).map_err(write_err)?;
        }
        for (locale, lock) in &plan.locks {
            txn.put(&lock_path(game, locale), write_lock(locale, lock).as_bytes())
                .map_err(write_err)?;
        }
        let s = |n: usize| if n == 1 { "" } else { "s" };
        summary.push_str(&format!(
            "imported {}: {} translation{} changed in {} file{}, {} fuzzy and {} untranslated entries left out\n",
            game.id,
            plan.changed,
            s(plan.changed),
            files.len(),
            s(files.len()),
            plan.fuzzy,
            plan.empty
        ));
    }
    txn.commit().map_err(write_err)?;
    Ok(Outcome {
        stdout: summary,
        status: Status::Clean,
    })
}

fn refused(cli: &Cli, diags: &[Diagnostic], sources: &SourceMap, color: bool) -> Outcome {
    let n = diags.len();
    let stdout = match cli.format {
        Format::Human => {
            render_human(diags, sources, color)
                + &format!(
                    "i18n import refused: {n} problem{}; nothing was written\n",
                    if n == 1 { "" } else { "s" }
                )
        }
        Format::Json => {
            let items: Vec<_> = diags.iter().map(|d| to_json(d, sources)).collect();
            let mut s = serde_json::to_string_pretty(&serde_json::json!({"diagnostics": items, "written": false}))
                .unwrap_or_default();
            s.push('\n');
            s
        }
    };
    Outcome {
        stdout,
        status: Status::Problems,
    }
}
