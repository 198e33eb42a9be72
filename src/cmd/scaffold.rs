//! `pnpkit new <game>`: a minimal working pack from templates embedded in the
//! binary (`templates/scaffold/`), with the game id substituted.

use std::path::{Path, PathBuf};

use super::{Fatal, Outcome, Status};
use crate::cli::{Cli, NewArgs};
use crate::fsx::write_atomic;

/// The scaffold's files: where each goes (`data` = inside the pack folder,
/// `template` = inside `templates/<game>/`) and its text.
const FILES: &[(Place, &str, &str)] = &[
    (
        Place::Data,
        "game.yaml",
        include_str!("../../templates/scaffold/game.yaml"),
    ),
    (
        Place::Data,
        "components/card.yaml",
        include_str!("../../templates/scaffold/components/card.yaml"),
    ),
    (
        Place::Data,
        "glossary.yaml",
        include_str!("../../templates/scaffold/glossary.yaml"),
    ),
    (
        Place::Data,
        "facts.yaml",
        include_str!("../../templates/scaffold/facts.yaml"),
    ),
    (
        Place::Data,
        "quickref.yaml",
        include_str!("../../templates/scaffold/quickref.yaml"),
    ),
    (
        Place::Data,
        "rules/01-play.yaml",
        include_str!("../../templates/scaffold/rules/01-play.yaml"),
    ),
    (
        Place::Data,
        "icons/sun.svg",
        include_str!("../../templates/scaffold/icons/sun.svg"),
    ),
    (
        Place::Data,
        "icons/moon.svg",
        include_str!("../../templates/scaffold/icons/moon.svg"),
    ),
    (
        Place::Data,
        "art/eclipse.svg",
        include_str!("../../templates/scaffold/art/eclipse.svg"),
    ),
    (
        Place::Template,
        "kit.typ",
        include_str!("../../templates/scaffold/kit.typ"),
    ),
];

#[derive(Clone, Copy)]
enum Place {
    Data,
    Template,
}

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

/// Writes the scaffold of `id` into `data/<id>/` and `<root>/templates/<id>/`.
/// Refuses when either exists. Returns the files written.
pub fn scaffold(data: &Path, root: &Path, id: &str) -> Result<Vec<PathBuf>, Fatal> {
    if !crate::pack::reader::is_slug(id) {
        return Err(Fatal::Setup(format!(
            "`{id}` is not a game id: use lowercase letters, digits and dashes, starting with a letter or digit \
             (e.g. `my-game`)"
        )));
    }
    let pack = data.join(id);
    let templates = root.join("templates").join(id);
    for dir in [&pack, &templates] {
        if dir.exists() {
            return Err(Fatal::Setup(format!(
                "`{}` already exists: `pnpkit new` never overwrites a pack (pick another id or remove it)",
                dir.display()
            )));
        }
    }
    let name = title(id);
    let prefix = prefix(id);
    let mut written = Vec::new();
    for (place, rel, text) in FILES {
        let path = match place {
            Place::Data => pack.join(rel),
            Place::Template => templates.join(rel),
        };
        let text = text
            .replace("__GAME__", id)
            .replace("__NAME__", &name)
            .replace("__PREFIX__", &prefix);
        write_atomic(&path, text.as_bytes()).map_err(|source| Fatal::Write {
            path: path.clone(),
            source,
        })?;
        written.push(path);
    }
    Ok(written)
}

pub fn run(cli: &Cli, args: &NewArgs) -> Result<Outcome, Fatal> {
    let written = scaffold(&cli.data, Path::new("."), &args.game)?;
    let mut stdout = format!("created game `{}`:\n", args.game);
    for p in &written {
        stdout.push_str(&format!("  {}\n", p.display()));
    }
    let data = if cli.data == Path::new("data") {
        String::new()
    } else {
        format!("--data {} ", cli.data.display())
    };
    stdout.push_str(&format!(
        "next: pnpkit {data}check {g} --deny-warnings && pnpkit {data}build {g} --paper a4\n      \
         pnpkit {data}schema {g}   (editor completion for the YAML files)\n",
        g = args.game
    ));
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
}
