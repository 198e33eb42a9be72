//! `pnpkit new <game>`: a working pack, from the scaffold built into the
//! binary (`templates/scaffold/`, the game id substituted) or from a
//! built-in game (`--from`); outside a project it also makes the current
//! folder one. `pnpkit init`: only the project marker.

use std::path::{Path, PathBuf};

use super::{Fatal, Outcome, Status};
use crate::cli::NewArgs;
use crate::fsx::write_atomic;
use crate::project::{MARKER, TEMPLATE};

/// The rule id prefix: the id's letters, upper case, at most four.
fn prefix(id: &str) -> String {
    let p: String = id
        .chars()
        .filter(char::is_ascii_alphabetic)
        .take(4)
        .collect::<String>()
        .to_ascii_uppercase();
    if p.is_empty() { "R".into() } else { p }
}

/// "my-game" → "My Game".
fn title(id: &str) -> String {
    id.split('-')
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().chain(c).collect::<String>())
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The files of a new game `id`: each with its path (inside the pack folder,
/// or `kit.typ` and friends inside `templates/<id>/`) and bytes.
struct Files {
    pack: Vec<(String, Vec<u8>)>,
    layouts: Vec<(String, Vec<u8>)>,
}

/// The scaffold: every file of `templates/scaffold/` but the layout goes
/// into the pack; `__GAME__`, `__NAME__` and `__PREFIX__` are filled in.
fn scaffold_files(id: &str) -> Files {
    let fill = |bytes: &[u8]| match std::str::from_utf8(bytes) {
        Ok(text) => text
            .replace("__GAME__", id)
            .replace("__NAME__", &title(id))
            .replace("__PREFIX__", &prefix(id))
            .into_bytes(),
        Err(_) => bytes.to_vec(),
    };
    let mut files = Files {
        pack: Vec::new(),
        layouts: Vec::new(),
    };
    for (rel, bytes) in crate::builtin::under("templates/scaffold") {
        let to = if rel.ends_with(".typ") {
            &mut files.layouts
        } else {
            &mut files.pack
        };
        to.push((rel.to_owned(), fill(bytes)));
    }
    files
}

/// A built-in game's pack and layouts under the id `id`: the pack's id, the
/// `game:` of its logs and lists, its layouts' imports and the schemas'
/// descriptions renamed.
fn copied_files(from: &str, id: &str) -> Files {
    let rename = |rel: &str, bytes: &[u8]| -> Vec<u8> {
        let Ok(text) = std::str::from_utf8(bytes) else {
            return bytes.to_vec();
        };
        if from == id {
            return bytes.to_vec();
        }
        let mut out = String::with_capacity(text.len());
        for line in text.split_inclusive('\n') {
            let names_game = (rel == "game.yaml" && line.trim_end() == format!("id: {from}"))
                || (rel.ends_with(".yaml") && line.trim_end() == format!("game: {from}"));
            let renamed = if names_game {
                line.replacen(from, id, 1)
            } else {
                line.replace(&format!("/templates/{from}/"), &format!("/templates/{id}/"))
                    .replace(&format!("data/{from}/"), &format!("data/{id}/"))
                    .replace(&format!("in game pack `{from}`"), &format!("in game pack `{id}`"))
                    .replace(&format!("pnpkit deck {from} "), &format!("pnpkit deck {id} "))
            };
            out.push_str(&renamed);
        }
        out.into_bytes()
    };
    Files {
        pack: crate::builtin::under(&format!("data/{from}"))
            .map(|(rel, b)| (rel.to_owned(), rename(rel, b)))
            .collect(),
        layouts: crate::builtin::under(&format!("templates/{from}"))
            .map(|(rel, b)| (rel.to_owned(), rename(rel, b)))
            .collect(),
    }
}

/// Writes the files of `id` into `<data>/<id>/` and `<root>/templates/<id>/`.
/// Refuses when either exists. Returns the files written.
fn write_game(data: &Path, root: &Path, id: &str, files: &Files) -> Result<Vec<PathBuf>, Fatal> {
    let pack = data.join(id);
    let layouts = root.join("templates").join(id);
    for dir in [&pack, &layouts] {
        if dir.exists() {
            return Err(Fatal::Setup(format!(
                "`{}` already exists: `pnpkit new` never overwrites a pack (pick another id or remove it)",
                dir.display()
            )));
        }
    }
    let mut written = Vec::new();
    let places = [(&pack, &files.pack), (&layouts, &files.layouts)];
    for (dir, list) in places {
        for (rel, bytes) in list.iter() {
            let path = dir.join(rel);
            write_atomic(&path, bytes).map_err(|source| Fatal::Write {
                path: path.clone(),
                source,
            })?;
            written.push(path);
        }
    }
    Ok(written)
}

/// Writes `pnpkit.toml` into `dir`, with `data` set when it is not `data`.
fn write_marker(dir: &Path, data: &Path) -> Result<PathBuf, Fatal> {
    let path = dir.join(MARKER);
    if path.exists() {
        return Err(Fatal::Setup(format!(
            "`{}` already exists: this folder is a project",
            path.display()
        )));
    }
    let mut text = TEMPLATE.to_owned();
    if data != Path::new("data") {
        let line = format!("data = {:?}", data.display().to_string());
        text = text.replacen("# data = \"data\"       ", &format!("{line} #"), 1);
    }
    write_atomic(&path, text.as_bytes()).map_err(|source| Fatal::Write {
        path: path.clone(),
        source,
    })?;
    Ok(path)
}

pub fn run(cx: &super::Ctx, args: &NewArgs) -> Result<Outcome, Fatal> {
    let cli = cx.cli;
    let id = &args.game;
    if !crate::pack::reader::is_slug(id) {
        return Err(Fatal::Setup(format!(
            "`{id}` is not a game id: use lowercase letters, digits and dashes, starting with a letter or digit \
             (e.g. `my-game`)"
        )));
    }
    let files = match &args.from {
        None => scaffold_files(id),
        Some(from) if crate::builtin::games().contains(&from.as_str()) => copied_files(from, id),
        Some(from) => {
            return Err(Fatal::Setup(format!(
                "`{from}` is not a built-in game: `--from` takes one of {}",
                crate::builtin::games().join(", ")
            )));
        }
    };
    // In a project, the game joins it; elsewhere the current folder becomes one.
    let mut written = Vec::new();
    let (root, data) = match cx.root() {
        Some(root) => (root.to_path_buf(), cx.data()?.to_path_buf()),
        None => {
            let data = cli.data.clone().unwrap_or_else(|| PathBuf::from("data"));
            if data.is_absolute() || data.components().any(|c| matches!(c, std::path::Component::ParentDir)) {
                return Err(Fatal::Setup(format!(
                    "outside a project, `--data` names the new project's data folder: a folder inside the current \
                     one, not `{}`",
                    data.display()
                )));
            }
            for dir in [data.join(id), PathBuf::from("templates").join(id)] {
                if dir.exists() {
                    return Err(Fatal::Setup(format!(
                        "`{}` already exists: `pnpkit new` never overwrites a pack (pick another id or remove it)",
                        dir.display()
                    )));
                }
            }
            written.push(write_marker(Path::new("."), &data)?);
            (PathBuf::from("."), data)
        }
    };
    written.extend(write_game(&data, &root, id, &files)?);
    // The JSON Schemas the files' `yaml-language-server` comments point at.
    let pack = crate::check::PackDir {
        dir: data.join(id),
        data: data.clone(),
        built_in: false,
    };
    let report = crate::check::check_packs(&[pack], &root.join("fonts"), &crate::pack::yaml::Limits::default())?;
    for game in &report.games {
        for (path, text) in crate::schema::pack_files(game) {
            write_atomic(&path, text.as_bytes()).map_err(|source| Fatal::Write {
                path: path.clone(),
                source,
            })?;
            if !written.contains(&path) {
                written.push(path);
            }
        }
    }
    let mut stdout = format!("created game `{id}`:\n");
    for p in &written {
        let shown = p.strip_prefix(".").unwrap_or(p);
        stdout.push_str(&format!("  {}\n", shown.display()));
    }
    let data_arg = match &cli.data {
        Some(d) if cx.root().is_some() => format!("--data {} ", d.display()),
        _ => String::new(),
    };
    stdout.push_str(&format!(
        "next: pnpkit {data_arg}check {id} --deny-warnings && pnpkit {data_arg}build {id} --paper a4\n      \
         pnpkit {data_arg}schema {id}   (editor completion for the YAML files)\n"
    ));
    Ok(Outcome {
        stdout,
        status: Status::Clean,
    })
}

/// `pnpkit init`: makes the current folder a project.
pub fn init(cx: &super::Ctx) -> Result<Outcome, Fatal> {
    let data = cx.cli.data.clone().unwrap_or_else(|| PathBuf::from("data"));
    let path = write_marker(Path::new("."), &data)?;
    let mut stdout = format!(
        "wrote {}: this folder is a pnpkit project\n",
        path.display().to_string().trim_start_matches("./")
    );
    if let Some(outer) = &cx.project {
        stdout.push_str(&format!(
            "note: it is inside the project at {}; commands run here now use this one\n",
            outer.root.display()
        ));
    }
    if !data.is_dir() {
        stdout.push_str("next: pnpkit new GAME   (a first game that checks clean and builds)\n");
    }
    Ok(Outcome {
        stdout,
        status: Status::Clean,
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn names_and_prefixes() {
        assert_eq!(super::title("my-game"), "My Game");
        assert_eq!(super::prefix("my-game"), "MYGA");
        assert_eq!(super::prefix("42"), "R");
    }

    #[test]
    fn the_scaffold_puts_layouts_beside_the_pack() {
        let f = super::scaffold_files("star-duel");
        assert!(f.layouts.iter().any(|(p, _)| p == "kit.typ"));
        assert!(f.pack.iter().any(|(p, _)| p == "game.yaml"));
        assert!(f.pack.iter().any(|(p, _)| p == "art/eclipse.svg"));
        let game = String::from_utf8(f.pack.iter().find(|(p, _)| p == "game.yaml").unwrap().1.clone()).unwrap();
        assert!(game.contains("id: star-duel") && !game.contains("__GAME__"));
    }

    #[test]
    fn a_copied_game_is_renamed_where_its_id_is_a_name() {
        let f = super::copied_files("unmatched", "duel");
        let text = |list: &[(String, Vec<u8>)], p: &str| {
            String::from_utf8(list.iter().find(|(q, _)| q == p).unwrap().1.clone()).unwrap()
        };
        assert!(text(&f.pack, "game.yaml").lines().any(|l| l == "id: duel"));
        assert!(
            text(&f.pack, "logs/sample-duel.yaml")
                .lines()
                .any(|l| l == "game: duel")
        );
        assert!(text(&f.layouts, "kit.typ").contains("/templates/duel/parts.typ"));
        assert!(!text(&f.layouts, "kit.typ").contains("/templates/unmatched/"));
    }
}
