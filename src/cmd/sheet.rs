//! `pnpkit import` (a sheet → a kind's YAML, checked like `check`) and
//! `pnpkit export-sheet` (a kind's YAML → CSV).

use std::path::{Path, PathBuf};

use super::{Fatal, Outcome, Status, use_color};
use crate::check::{Report, check};
use crate::cli::{ExportSheetArgs, Format, ImportArgs};
use crate::diag::{Diagnostic, Severity, SourceMap, render_human, to_json};
use crate::fsx::read::Scope;
use crate::fsx::txn::{FileTxn, Scratch, copy_tree};
use crate::fsx::write_atomic;
use crate::model::{Game, Kind};
use crate::pack::yaml::Limits;
use crate::pack::{self, LoadError};
use crate::sheet::{self, CellRef, FileData, ReadSheetError, Sheet, Written};

/// The game and kind named on the command line, from a check of the pack.
fn game_and_kind<'a>(report: &'a Report, game: &str, kind: &str) -> Result<(&'a Game, &'a Kind), Fatal> {
    let g = report
        .games
        .iter()
        .find(|g| g.id == game || g.dir.file_name().is_some_and(|n| n == game))
        .ok_or_else(|| Fatal::Setup(format!("game `{game}` could not be read (see `pnpkit check {game}`)")))?;
    let k = g.kinds.get(kind).ok_or_else(|| {
        let names: Vec<&str> = g.kinds.keys().map(String::as_str).collect();
        Fatal::Setup(format!(
            "game `{game}` has no kind `{kind}` (its kinds: {})",
            names.join(", ")
        ))
    })?;
    Ok((g, k))
}

/// The files of a kind: `(name inside components/<kind>/ or None, path)`.
fn kind_files(dir: &Path, kind: &str) -> Result<Vec<(Option<String>, PathBuf)>, LoadError> {
    Ok(pack::component_files(dir)?
        .into_iter()
        .filter(|(k, _)| k == kind)
        .map(|(_, p)| {
            let in_folder = p.parent().and_then(Path::file_name).is_some_and(|n| n == kind);
            let name = in_folder.then(|| p.file_name().unwrap_or_default().to_string_lossy().into_owned());
            (name, p)
        })
        .collect())
}

/// Reads a kind's components files with their comments.
pub fn read_kind(dir: &Path, kind: &str) -> Result<Result<Vec<FileData>, (Diagnostic, SourceMap)>, Fatal> {
    let mut files = Vec::new();
    // Read as `check` reads the pack: inside the data folder.
    let scope = pack::pack_scope(dir)?;
    for (name, path) in kind_files(dir, kind)? {
        let mut sources = SourceMap::default();
        let text = match pack::read_file(&path, &Limits::default(), &scope)? {
            pack::ReadFile::Text(t) => t,
            pack::ReadFile::Rejected(make) => {
                let id = sources.add(path.clone(), "".into());
                return Ok(Err((make(id), sources)));
            }
        };
        let id = sources.add(path.clone(), text.clone());
        match sheet::read_yaml(&text, id, name) {
            Ok(f) => files.push(f),
            Err(d) => return Ok(Err((*d, sources))),
        }
    }
    Ok(Ok(files))
}

pub fn export(cx: &super::Ctx, args: &ExportSheetArgs) -> Result<Outcome, Fatal> {
    let cli = cx.cli;
    let report = cx.check(std::slice::from_ref(&args.game))?;
    let (game, kind) = game_and_kind(&report, &args.game, &args.kind)?;
    let files = match read_kind(&game.dir, &kind.id)? {
        Ok(f) => f,
        Err((d, sources)) => {
            return Ok(Outcome {
                stdout: render_human(&[d], &sources, use_color(cli.color)),
                status: Status::Problems,
            });
        }
    };
    let (header, rows) = sheet::to_rows(kind, &game.locales, &files);
    let csv = sheet::write_csv(&header, &rows).map_err(|e| Fatal::Setup(format!("cannot write CSV: {e}")))?;
    match &args.out {
        Some(path) => {
            write_atomic(path, &csv).map_err(|source| Fatal::Write {
                path: path.clone(),
                source,
            })?;
            Ok(Outcome {
                stdout: format!(
                    "wrote {} {} components ({} columns) to {}\n",
                    rows.len(),
                    kind.id,
                    header.len(),
                    path.display()
                ),
                status: Status::Clean,
            })
        }
        None => Ok(Outcome {
            stdout: String::from_utf8_lossy(&csv).into_owned(),
            status: Status::Clean,
        }),
    }
}

/// "cards.csv: row 12, column C (cost)".
pub fn location(sheet: &Sheet, headers: &[String], cell: &CellRef) -> String {
    let name = |c: usize| headers.get(c).map(|h| h.trim().to_owned()).unwrap_or_default();
    // "cards.csv: row 3" but "cards.xlsx: sheet Cards, row 3".
    let sep = if sheet.label.contains(": sheet ") { ", " } else { ": " };
    match cell.columns.as_slice() {
        [] => format!("{}{sep}row {}", sheet.label, cell.row),
        [c] => format!(
            "{}{sep}row {}, column {} ({})",
            sheet.label,
            cell.row,
            sheet::column_letter(*c),
            name(*c)
        ),
        cs => format!(
            "{}{sep}row {}, columns {} ({})",
            sheet.label,
            cell.row,
            cs.iter()
                .map(|c| sheet::column_letter(*c))
                .collect::<Vec<_>>()
                .join(", "),
            cs.iter().map(|c| name(*c)).collect::<Vec<_>>().join(", ")
        ),
    }
}

fn file_path(pack: &Path, kind: &str, f: &FileData) -> PathBuf {
    match &f.name {
        Some(n) => pack.join("components").join(kind).join(n),
        None => pack.join("components").join(format!("{kind}.yaml")),
    }
}

pub fn import(cx: &super::Ctx, args: &ImportArgs) -> Result<Outcome, Fatal> {
    let cli = cx.cli;
    let color = use_color(cli.color);
    let report = cx.check(std::slice::from_ref(&args.game))?;
    let (game, kind) = game_and_kind(&report, &args.game, &args.kind)?;
    if !args.check {
        cx.editable(game, "imported into")?;
    }
    let data = game.dir.parent().unwrap_or(Path::new("."));
    let sheet = match sheet::read_sheet(&args.file, args.sheet.as_deref(), &kind.id) {
        Ok(s) => s,
        Err(ReadSheetError::Unreadable(msg)) => return Err(Fatal::Setup(msg)),
        Err(ReadSheetError::Refused(d)) => {
            let sources = SourceMap::default();
            let stdout = match cli.format {
                Format::Human => {
                    render_human(std::slice::from_ref(&*d), &sources, color)
                        + "import refused: the sheet is not read; nothing was written\n"
                }
                Format::Json => {
                    let mut s = serde_json::to_string_pretty(&serde_json::json!({
                        "diagnostics": [to_json(&d, &sources)],
                        "components": 0,
                        "written": false,
                        "files": [],
                    }))
                    .unwrap_or_default();
                    s.push('\n');
                    s
                }
            };
            return Ok(Outcome {
                stdout,
                status: Status::Problems,
            });
        }
    };
    let existing = kind_files(&game.dir, &kind.id)?;
    let in_folder = existing.iter().any(|(n, _)| n.is_some());
    let (imported, problems) = sheet::from_sheet(&sheet, kind, &game.locales, in_folder);
    let written: Vec<Written> = imported
        .files
        .iter()
        .zip(&imported.cells)
        .map(|(f, c)| sheet::write_yaml(kind, &game.locales, f, c))
        .collect();

    // Check the pack with the new files in a scratch copy beside the data
    // (removed at the end, or by the next run if this one is killed).
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| Fatal::Write { path, source }
    };
    let scratch = Scratch::beside(data).map_err(io(data))?;
    let folder = game.dir.file_name().unwrap_or_default();
    let copy = scratch.path().join(folder);
    let scope = Scope::within(data).map_err(io(data))?;
    copy_tree(&game.dir, &copy, &scope).map_err(io(&copy))?;
    for (_, p) in kind_files(&copy, &kind.id)? {
        std::fs::remove_file(&p).map_err(io(&p))?;
    }
    let mut scratch_paths = Vec::new();
    for (f, w) in imported.files.iter().zip(&written) {
        let p = file_path(&copy, &kind.id, f);
        if let Some(d) = p.parent() {
            std::fs::create_dir_all(d).map_err(io(d))?;
        }
        std::fs::write(&p, &w.text).map_err(io(&p))?;
        scratch_paths.push(p);
    }
    let checked = check(scratch.path(), std::slice::from_ref(&game.id), &Limits::default())?;

    // Diagnostics in the generated files point at sheet cells; the others at
    // the pack's real files.
    let real = |p: &Path| -> PathBuf {
        p.strip_prefix(&copy)
            .map(|rest| game.dir.join(rest))
            .unwrap_or_else(|_| p.to_path_buf())
    };
    let mut sources = SourceMap::default();
    for i in 0..checked.sources.len() {
        let f = checked.sources.get(crate::diag::FileId(i as u32));
        sources.add(real(&f.path), f.text.clone());
    }
    let mut diags: Vec<Diagnostic> = problems
        .into_iter()
        .map(|p| {
            let cell = CellRef {
                row: p.row,
                columns: p.column.into_iter().collect(),
            };
            p.diagnostic.in_file(location(&sheet, &imported.headers, &cell))
        })
        .collect();
    for mut d in checked.diagnostics.items {
        let generated = d.span.and_then(|s| {
            scratch_paths
                .iter()
                .position(|p| p == checked.sources.path(s.file))
                .map(|i| (i, s))
        });
        if let Some((i, span)) = generated {
            let at = written[i]
                .origin(span.start)
                .map(|c| location(&sheet, &imported.headers, c))
                .unwrap_or_else(|| sheet.label.clone());
            d.span = None;
            d.file = Some(at.into());
            for l in std::mem::take(&mut d.related) {
                let place = match scratch_paths
                    .iter()
                    .position(|p| p == checked.sources.path(l.span.file))
                {
                    Some(j) => written[j]
                        .origin(l.span.start)
                        .map(|c| location(&sheet, &imported.headers, c))
                        .unwrap_or_else(|| sheet.label.clone()),
                    None => format!(
                        "{}:{}:{}",
                        real(checked.sources.path(l.span.file)).display(),
                        l.span.line,
                        l.span.column
                    ),
                };
                d.notes.push(format!("{}: {place}", l.message));
            }
        } else if let Some(f) = d.file.take() {
            d.file = Some(real(&f));
        }
        diags.push(d);
    }
    let errors = diags.iter().filter(|d| d.severity == Severity::Error).count();
    let warnings = diags.len() - errors;
    let count: usize = imported.files.iter().map(|f| f.entries.len()).sum();
    let targets: Vec<PathBuf> = imported
        .files
        .iter()
        .map(|f| file_path(&game.dir, &kind.id, f))
        .collect();
    let write = errors == 0 && !args.check;
    if write {
        // The kind's files are replaced and removed together, or not at all.
        let mut txn = FileTxn::begin(data).map_err(io(data))?;
        for (p, w) in targets.iter().zip(&written) {
            txn.put(p, w.text.as_bytes()).map_err(io(p))?;
        }
        for (_, p) in &existing {
            if !targets.contains(p) {
                txn.remove(p).map_err(io(p))?;
            }
        }
        txn.commit().map_err(io(data))?;
    }
    let summary = {
        let what = format!(
            "{count} {} component{} from {}",
            kind.id,
            if count == 1 { "" } else { "s" },
            sheet.label
        );
        let files = targets
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ");
        let tail = format!(
            "{errors} error{}, {warnings} warning{}",
            if errors == 1 { "" } else { "s" },
            if warnings == 1 { "" } else { "s" }
        );
        if errors > 0 {
            format!("import refused: {what} ({tail}); nothing was written\n")
        } else if args.check {
            format!("checked {what} ({tail}); nothing was written (--check)\n")
        } else {
            format!("imported {what} into {files} ({tail})\n")
        }
    };
    let stdout = match cli.format {
        Format::Human => render_human(&diags, &sources, color) + &summary,
        Format::Json => {
            let items: Vec<_> = diags.iter().map(|d| to_json(d, &sources)).collect();
            let mut s = serde_json::to_string_pretty(&serde_json::json!({
                "diagnostics": items,
                "components": count,
                "written": write,
                "files": targets,
            }))
            .unwrap_or_default();
            s.push('\n');
            s
        }
    };
    Ok(Outcome {
        stdout,
        status: if errors > 0 { Status::Problems } else { Status::Clean },
    })
}
