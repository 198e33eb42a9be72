//! `pnpkit games`: the games at hand — the project's own packs and the games
//! built into pnpkit — with where each comes from and whether pnpkit has its
//! rules engine (for `log`, `simulate` and `stats`).

use serde::Serialize;

use super::{Fatal, Outcome};
use crate::cli::Format;
use crate::project::Origin;

#[derive(Serialize)]
struct Row {
    id: String,
    origin: Origin,
    path: String,
    rules_engine: bool,
}

pub fn run(cx: &super::Ctx) -> Result<Outcome, Fatal> {
    let engines: Vec<&str> = crate::rules::engine_games().collect();
    let rows: Vec<Row> = cx
        .catalog
        .games()
        .into_iter()
        .map(|(id, origin)| Row {
            path: match (origin, cx.catalog.data()) {
                (Origin::Project, Some(d)) => d.join(&id).display().to_string(),
                _ => format!("{}/data/{id}", crate::builtin::LABEL),
            },
            rules_engine: engines.contains(&id.as_str()),
            origin,
            id,
        })
        .collect();
    let stdout = match cx.cli.format {
        Format::Json => serde_json::to_string_pretty(&serde_json::json!({ "games": rows })).unwrap_or_default() + "\n",
        Format::Human => {
            let width = rows.iter().map(|r| r.id.len()).max().unwrap_or(4).max(4);
            let mut s = format!("{:<width$}  {:<8}  {:<5}  where\n", "game", "from", "rules");
            for r in &rows {
                let from = match r.origin {
                    Origin::Project => "project",
                    Origin::BuiltIn => "built in",
                };
                let rules = if r.rules_engine { "yes" } else { "no" };
                s.push_str(&format!("{:<width$}  {from:<8}  {rules:<5}  {}\n", r.id, r.path));
            }
            if cx.project.is_none() {
                s.push_str("not in a project: `pnpkit new GAME` starts one here\n");
            }
            s
        }
    };
    Ok(Outcome::report(stdout, true))
}
