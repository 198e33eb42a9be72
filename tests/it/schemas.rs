//! The generated JSON Schemas accept the packs they describe (issue 25 item
//! 7): every YAML file with a schema — `game.yaml`, each components file and
//! each YAML deck list — of every shipped pack and of a fresh scaffold,
//! validated against `pnpkit schema`'s output by an independent validator
//! (the `jsonschema` crate), as an editor with the YAML language server does.

use pnpkit::model::Game;

use crate::common;

/// The schema each YAML file of `game` answers to, by path relative to the pack.
fn files_with_schemas(game: &Game) -> Vec<(String, String)> {
    let mut out = vec![("game.yaml".to_string(), "game.schema.json".to_string())];
    for (kind, path) in pnpkit::pack::component_files(&game.dir).unwrap() {
        let rel = path.strip_prefix(&game.dir).unwrap().to_string_lossy().into_owned();
        out.push((rel, format!("{kind}.schema.json")));
    }
    if game.construction.is_some()
        && let Ok(rd) = std::fs::read_dir(game.dir.join("decks"))
    {
        let mut decks: Vec<String> = rd
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".yaml"))
            .collect();
        decks.sort();
        out.extend(
            decks
                .into_iter()
                .map(|n| (format!("decks/{n}"), "deck.schema.json".to_string())),
        );
    }
    out
}

/// Every file of `game` its schema refuses, with the validator's words.
fn refusals(game: &Game) -> Vec<String> {
    let schemas: Vec<(String, serde_json::Value)> = pnpkit::schema::pack_files(game)
        .into_iter()
        .map(|(path, text)| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, serde_json::from_str(&text).unwrap())
        })
        .collect();
    let mut problems = Vec::new();
    for (file, schema_name) in files_with_schemas(game) {
        let Some((_, schema)) = schemas.iter().find(|(n, _)| *n == schema_name) else {
            problems.push(format!("{}/{file}: no schema {schema_name} generated", game.id));
            continue;
        };
        let validator = jsonschema::validator_for(schema)
            .unwrap_or_else(|e| panic!("{}/{schema_name} is not a valid schema: {e}", game.id));
        let text = std::fs::read_to_string(game.dir.join(&file)).unwrap();
        let doc: serde_json::Value =
            serde_saphyr::from_str(&text).unwrap_or_else(|e| panic!("{}/{file}: {e}", game.id));
        for e in validator.iter_errors(&doc) {
            problems.push(format!("{}/{file} at {}: {e}", game.id, e.instance_path()));
        }
    }
    problems
}

#[test]
fn shipped_packs_pass_their_own_schemas() {
    let mut problems = Vec::new();
    let mut files = 0;
    for game in common::shipped() {
        files += files_with_schemas(game).len();
        problems.extend(refusals(game));
    }
    assert!(files > 60, "{files} files validated");
    common::assert_no_problems(&problems);
}

#[test]
fn a_new_pack_passes_its_own_schemas() {
    let tmp = crate::designer::new_pack();
    let dir = tmp.path();
    let report = pnpkit::check::check(&dir.join("data"), &[], &pnpkit::pack::yaml::Limits::default()).unwrap();
    assert!(!report.has_errors());
    let game = &report.games[0];
    // The schemas `new` wrote are the ones `pnpkit schema` generates.
    for (path, text) in pnpkit::schema::pack_files(game) {
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text, "{}", path.display());
    }
    let checked = files_with_schemas(game);
    assert!(checked.iter().any(|(f, _)| f.starts_with("components/")), "{checked:?}");
    common::assert_no_problems(&refusals(game));
}
