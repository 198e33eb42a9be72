//! `pnpkit i18n`: translation status, PO export, and recording which source
//! each translation was made from (`accept`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::check::human;
use super::{Fatal, Outcome, Status, use_color};
use crate::cli::{Format, I18nAction, I18nArgs};
use crate::fsx::write_atomic;
use crate::i18n::{Entry, State, Survey, parse_lock, state, survey, to_po, write_lock};
use crate::model::Game;
use crate::pack::yaml::Limits;
use crate::pack::{self, LoadError, ReadFile};

/// Every YAML file of a pack that can hold texts, relative paths, sorted.
fn text_files(dir: &Path) -> Result<Vec<PathBuf>, LoadError> {
    fn walk(dir: &Path, base: &Path, out: &mut Vec<PathBuf>) -> Result<(), LoadError> {
        let entries = std::fs::read_dir(dir).map_err(|source| LoadError::Io {
            path: dir.to_path_buf(),
            source,
        })?;
        for e in entries.flatten() {
            let p = e.path();
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') || name == "schemas" || name == "i18n" {
                continue;
            }
            if p.is_dir() {
                walk(&p, base, out)?;
            } else if matches!(p.extension().and_then(|x| x.to_str()), Some("yaml" | "yml")) {
                out.push(p.strip_prefix(base).unwrap_or(&p).to_path_buf());
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out)?;
    out.sort();
    Ok(out)
}

/// The texts of a game, in file order.
pub fn game_entries(game: &Game, limits: &Limits) -> Result<Vec<Entry>, LoadError> {
    Ok(game_survey(game, limits)?.entries)
}

/// The texts of a game and those without their source text, in file order.
pub fn game_survey(game: &Game, limits: &Limits) -> Result<Survey, LoadError> {
    let mut out = Survey::default();
    let scope = pack::pack_scope(&game.dir)?;
    for rel in text_files(&game.dir)? {
        let path = game.dir.join(&rel);
        let ReadFile::Text(text) = pack::read_file(&path, limits, &scope)? else {
            continue;
        };
        // `check` passed, so every file parses.
        let Ok(root) = pack::parse_yaml(&text, crate::diag::FileId(0), limits) else {
            continue;
        };
        let s = survey(&root, &rel.to_string_lossy(), &game.locales);
        out.entries.extend(s.entries);
        out.sourceless.extend(s.sourceless);
    }
    Ok(out)
}

pub(super) fn lock_path(game: &Game, locale: &str) -> PathBuf {
    game.dir.join("i18n").join(format!("{locale}.lock"))
}

/// The recorded source hashes of `locale`; none when the file is missing
/// (or not a plain file of the pack, which `check` would not read either).
pub(super) fn read_lock(game: &Game, locale: &str) -> BTreeMap<String, String> {
    let Ok(scope) = pack::pack_scope(&game.dir) else {
        return BTreeMap::new();
    };
    crate::fsx::read::read_bounded(&lock_path(game, locale), crate::fsx::read::max::PO, &scope)
        .ok()
        .and_then(|b| String::from_utf8(b).ok())
        .map(|s| parse_lock(&s))
        .unwrap_or_default()
}

/// The target locales of a run: every locale but the source one, or those asked for.
pub(super) fn wanted(game: &Game, args: &I18nArgs) -> Vec<String> {
    game.locales[1..]
        .iter()
        .filter(|l| args.locale.is_empty() || args.locale.contains(l))
        .cloned()
        .collect()
}

pub fn run(cx: &super::Ctx, args: &I18nArgs) -> Result<Outcome, Fatal> {
    let cli = cx.cli;
    let limits = Limits::default();
    let report = cx.check(&args.games)?;
    if report.has_errors() {
        let mut stdout = human(&report, use_color(cli.color), None);
        stdout.push_str("i18n refused: the data has errors\n");
        return Ok(Outcome {
            stdout,
            status: Status::Problems,
        });
    }
    if matches!(args.action, I18nAction::Import | I18nAction::Accept) {
        for game in &report.games {
            cx.editable(game, "translated in place")?;
        }
    }
    if args.action == I18nAction::Import {
        let data = cx.data()?;
        let out = cx.out(&args.out)?;
        return super::i18n_import::run(cli, args, &out, data, &report);
    }
    let mut stdout = String::new();
    let mut problems = false;
    let mut rows = Vec::new();
    for game in &report.games {
        let Survey { entries, sourceless } = game_survey(game, &limits)?;
        // A text with no source text has nothing to translate from: a problem
        // of the source locale, reported once per game.
        if args.action == I18nAction::Status && !sourceless.is_empty() {
            problems = true;
            let source = &game.locales[0];
            if cli.format == Format::Human {
                for e in &sourceless {
                    stdout.push_str(&format!(
                        "missing source {source}: {}/{}:{} ({})\n",
                        game.id, e.file, e.line, e.id
                    ));
                }
            }
            rows.push(serde_json::json!({
                "game": game.id, "locale": source, "texts": entries.len() + sourceless.len(),
                "current": entries.len(), "unrecorded": 0, "stale": 0, "missing": sourceless.len(),
                "source": true,
            }));
        }
        for locale in wanted(game, args) {
            let lock = read_lock(game, &locale);
            match args.action {
                I18nAction::Status => {
                    let mut counts: BTreeMap<State, usize> = BTreeMap::new();
                    for e in &entries {
                        *counts.entry(state(e, &locale, &lock)).or_default() += 1;
                    }
                    let get = |s| counts.get(&s).copied().unwrap_or(0);
                    problems |= get(State::Missing) + get(State::Stale) > 0;
                    rows.push(serde_json::json!({
                        "game": game.id, "locale": locale, "texts": entries.len(),
                        "current": get(State::Current), "unrecorded": get(State::Unrecorded),
                        "stale": get(State::Stale), "missing": get(State::Missing),
                    }));
                    if cli.format == Format::Human {
                        for e in entries
                            .iter()
                            .filter(|e| matches!(state(e, &locale, &lock), State::Missing | State::Stale))
                        {
                            let what = if state(e, &locale, &lock) == State::Missing {
                                "missing"
                            } else {
                                "stale"
                            };
                            stdout.push_str(&format!(
                                "{what} {locale}: {}/{}:{} ({})\n",
                                game.id, e.file, e.line, e.id
                            ));
                        }
                    }
                }
                I18nAction::Export => {
                    let po = to_po(&game.id, &game.locales[0], &locale, &entries, &lock);
                    let path = cx
                        .out(&args.out)?
                        .join(&game.id)
                        .join("i18n")
                        .join(format!("{locale}.po"));
                    write_atomic(&path, po.as_bytes()).map_err(|source| Fatal::Write {
                        path: path.clone(),
                        source,
                    })?;
                    stdout.push_str(&format!("wrote {} ({} texts)\n", path.display(), entries.len()));
                }
                I18nAction::Import => unreachable!("handled above"),
                I18nAction::Accept => {
                    let lock: BTreeMap<String, String> = entries
                        .iter()
                        .filter(|e| state(e, &locale, &BTreeMap::new()) != State::Missing)
                        .map(|e| (e.id.clone(), crate::i18n::hash(&e.source)))
                        .collect();
                    let path = lock_path(game, &locale);
                    write_atomic(&path, write_lock(&locale, &lock).as_bytes()).map_err(|source| Fatal::Write {
                        path: path.clone(),
                        source,
                    })?;
                    stdout.push_str(&format!(
                        "recorded {} translations of {} in {}\n",
                        lock.len(),
                        game.id,
                        path.display()
                    ));
                }
            }
        }
    }
    if args.action == I18nAction::Status {
        match cli.format {
            Format::Json => {
                stdout = serde_json::to_string_pretty(&serde_json::json!({ "status": rows })).unwrap_or_default();
                stdout.push('\n');
            }
            Format::Human => {
                stdout.push_str(&format!(
                    "{:<10} {:<6} {:>6} {:>8} {:>10} {:>6} {:>8}\n",
                    "game", "locale", "texts", "current", "unrecorded", "stale", "missing"
                ));
                for r in &rows {
                    stdout.push_str(&format!(
                        "{:<10} {:<6} {:>6} {:>8} {:>10} {:>6} {:>8}\n",
                        r["game"].as_str().unwrap_or(""),
                        r["locale"].as_str().unwrap_or(""),
                        r["texts"].as_u64().unwrap_or(0),
                        r["current"].as_u64().unwrap_or(0),
                        r["unrecorded"].as_u64().unwrap_or(0),
                        r["stale"].as_u64().unwrap_or(0),
                        r["missing"].as_u64().unwrap_or(0)
                    ));
                }
            }
        }
    }
    Ok(Outcome {
        stdout,
        status: if problems { Status::Problems } else { Status::Clean },
    })
}
