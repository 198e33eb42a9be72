//! `pnpkit diff` on two revisions of a fixture game (tests/fixtures/diff/v1
//! and v2, committed as tags of a scratch git repository): the report, the
//! changelogs in both locales, the JSON and the reprint notes are golden;
//! the reprint pack is rasterised and measured like the kit (cut lines,
//! trim, bleed, backs behind fronts) and holds exactly the changed and new
//! pieces; the version stamp is found on the printed pieces, inside the
//! safe zone, only on fronts.

use crate::common;

use std::path::Path;
use std::process::Command;

use crate::common::raster::{pdf_text, rasterise, renderer_available};
use crate::common::registration::{Findings, measure_pieces_file, measure_sheets};
use pnpkit::check::check;
use pnpkit::diff;
use pnpkit::pack::yaml::Limits;
use pnpkit::progress::Quiet;
use pnpkit::render::pipeline::{Built, build_all};
use pnpkit::render::world::Shared;
use pnpkit::render::{KitOptions, Part, impose, preflight};

const EPOCH: i64 = 1_767_225_600;

fn fixture(v: &str) -> std::path::PathBuf {
    common::root().join("tests/fixtures/diff").join(v)
}

/// A project with the fixture's layouts, fonts and `data/` holding version `v`.
fn project(v: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    common::copy_dir(&common::root().join("fonts"), &dir.path().join("fonts"));
    common::copy_dir(&common::root().join("templates"), &dir.path().join("templates"));
    common::copy_dir(&fixture("templates"), &dir.path().join("templates"));
    common::copy_dir(&fixture(v), &dir.path().join("data"));
    common::mark(dir.path());
    dir
}

fn git(dir: &Path, args: &[&str]) {
    let o = Command::new("git")
        .args(["-c", "user.name=Fixture", "-c", "user.email=fixture@example.org"])
        .args([
            "-c",
            "commit.gpgsign=false",
            "-c",
            "tag.gpgsign=false",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z")
        .env("GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .expect("run git");
    assert!(o.status.success(), "git {args:?}: {}", common::out(&o));
}

/// A project whose git history has the fixture's versions as tags `v1`
/// and `v2` (data and layouts committed), with v2 in the work tree.
fn history() -> tempfile::TempDir {
    let dir = project("v1");
    let p = dir.path();
    git(p, &["init", "-q"]);
    git(p, &["add", "data", "templates"]);
    git(p, &["commit", "-q", "-m", "v1"]);
    git(p, &["tag", "v1"]);
    std::fs::remove_dir_all(p.join("data")).unwrap();
    common::copy_dir(&fixture("v2"), &p.join("data"));
    git(p, &["add", "-A", "data"]);
    git(p, &["commit", "-q", "-m", "v2"]);
    git(p, &["tag", "v2"]);
    dir
}

fn run(dir: &Path, args: &[&str]) -> std::process::Output {
    let mut all = vec!["--color", "never"];
    all.extend_from_slice(args);
    common::pnpkit_in(dir, &all)
}

/// Commit hashes differ with the layouts committed: `(3f2a9c1)` → `(<commit>)`.
fn redact(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find(" (") {
        out.push_str(&rest[..i]);
        let after = &rest[i + 2..];
        let hex = after.chars().take_while(|c| c.is_ascii_hexdigit()).count();
        if hex == 7 && after[7..].starts_with(')') {
            out.push_str(" (<commit>)");
            rest = &after[8..];
        } else {
            out.push_str(" (");
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

fn read(dir: &Path, rel: &str) -> String {
    std::fs::read_to_string(dir.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

#[test]
fn golden_report_changelogs_and_json_between_two_revisions() {
    let dir = history();
    let p = dir.path();
    let o = run(p, &["diff", "v1", "v2", "--no-reprint"]);
    assert_eq!(o.status.code(), Some(0), "{}", common::out(&o));
    insta::assert_snapshot!("diff-report", redact(&String::from_utf8_lossy(&o.stdout)));
    for l in ["es", "en"] {
        insta::assert_snapshot!(
            format!("diff-changelog-{l}"),
            read(p, &format!("output/duel/diff/changelog.{l}.md"))
        );
        insta::assert_snapshot!(
            format!("diff-reprint-{l}"),
            read(p, &format!("output/duel/diff/reprint.{l}.md"))
        );
    }
    insta::assert_snapshot!("diff-json", redact(&read(p, "output/duel/diff/diff.json")));
    // The same layouts in both revisions.
    assert!(read(p, "output/duel/diff/diff.json").contains("\"layout_changed\": false"));

    // Against the work tree (v2 with nothing edited) the changes are the same; the title says "since".
    let o = run(p, &["diff", "v1", "--no-reprint", "--out", "since"]);
    assert_eq!(o.status.code(), Some(0), "{}", common::out(&o));
    let since = read(p, "since/duel/diff/changelog.en.md");
    assert!(since.starts_with("# Wizard Duel — Changes since v1\n"), "{since}");
    let golden = read(p, "output/duel/diff/changelog.en.md");
    assert_eq!(
        since.lines().skip(1).collect::<Vec<_>>(),
        golden.lines().skip(1).collect::<Vec<_>>()
    );

    // Two folders give the same diff as the two revisions.
    let o = run(
        p,
        &[
            "diff",
            &fixture("v1").display().to_string(),
            "data",
            "--no-reprint",
            "--out",
            "dirs",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", common::out(&o));
    assert_eq!(
        read(p, "dirs/duel/diff/changelog.es.md")
            .lines()
            .skip(1)
            .collect::<Vec<_>>(),
        read(p, "output/duel/diff/changelog.es.md")
            .lines()
            .skip(1)
            .collect::<Vec<_>>()
    );

    // JSON on standard output: the diff and the files written.
    let o = run(
        p,
        &["--format", "json", "diff", "v1", "v2", "--no-reprint", "--out", "json"],
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["games"][0]["id"], "duel");
    assert_eq!(v["files"].as_array().unwrap().len(), 5);
}

#[test]
fn unchanged_revisions_and_refusals() {
    let dir = history();
    let p = dir.path();
    // The same version twice: nothing changed, nothing written.
    let o = run(p, &["diff", "v2", "v2", "--no-reprint"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("nothing changed"),
        "{}",
        common::out(&o)
    );
    assert!(!p.join("output").exists());

    // Neither a folder nor a revision; a game on neither side: usage errors.
    let o = run(p, &["diff", "no-such-tag"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(common::out(&o).contains("`no-such-tag` is neither a folder nor a git revision"));
    let o = run(p, &["diff", "v1", "--game", "chess"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        common::out(&o).contains("no game pack named `chess`"),
        "{}",
        common::out(&o)
    );
    // A revision name that git would read as an option is refused, not run.
    let o = run(p, &["diff", "--", "--output=/tmp/x"]);
    assert_eq!(o.status.code(), Some(2), "{}", common::out(&o));

    // A revision whose data has errors: its diagnostics, named by the revision, and exit 1.
    let card = p.join("data/duel/components/card.yaml");
    let text = std::fs::read_to_string(&card).unwrap();
    std::fs::write(&card, text.replace("cost: 2\n", "cost: 12\n")).unwrap();
    git(p, &["commit", "-qam", "broken"]);
    git(p, &["tag", "broken"]);
    let o = run(p, &["diff", "v1", "broken"]);
    assert_eq!(o.status.code(), Some(1), "{}", common::out(&o));
    let out = common::out(&o);
    assert!(out.contains("broken:data/duel/components/card.yaml:"), "{out}");
    assert!(
        out.contains("diff refused: broken (") && out.contains("has errors"),
        "{out}"
    );
}

/// Checks both versions, compares them and lays out the reprint packs.
fn reprint(dir: &Path, opts: KitOptions) -> (diff::Diff, Vec<Built>) {
    let old = check(&fixture("v1"), &[], &Limits::default()).unwrap();
    let new = check(&dir.join("data"), &[], &Limits::default()).unwrap();
    assert!(!old.has_errors() && !new.has_errors());
    let d = diff::diff("v1", &old.games, "v2", &new.games, &Default::default());
    let selection = diff::reprint::selection(&d, &new.games, opts.stamp.as_deref());
    let opts = KitOptions {
        reprint: Some(std::sync::Arc::new(selection)),
        ..opts
    };
    let shared = Shared::new(dir, EPOCH).unwrap();
    let (built, problems) = build_all(&shared, &new.games, &opts, &Quiet);
    assert!(
        problems.is_empty(),
        "{:?}",
        problems.iter().map(|(d, _)| &d.message).collect::<Vec<_>>()
    );
    (d, built)
}

/// The pieces a sheet document places: `kind/id` of every front, sorted.
fn placed(built: &[Built], locale: &str, paper: &str) -> Vec<String> {
    let mut out: Vec<String> = built
        .iter()
        .filter(|b| b.plan.locale == locale && b.plan.paper.is_some_and(|p| p.name == paper))
        .flat_map(|b| b.plan.data["pages"].as_array().cloned().unwrap_or_default())
        // A board spread over several sheets counts once: its first tile.
        .filter(|p| p["side"] != "board" || (p["tile"]["col"] == 0 && p["tile"]["row"] == 0))
        .flat_map(|p| p["items"].as_array().cloned().unwrap_or_default())
        .filter(|i| i["face"] != "back")
        .map(|i| format!("{}/{}", i["kind"].as_str().unwrap(), i["id"].as_str().unwrap()))
        .collect();
    out.sort();
    out
}

#[test]
fn reprint_pack_holds_the_changed_pieces_and_lands_on_the_crop_marks() {
    if !renderer_available("diff reprint") {
        return;
    }
    let dir = project("v2");
    let opts = KitOptions {
        papers: vec![impose::A4, impose::LETTER],
        ..KitOptions::default()
    };
    let (_, built) = reprint(dir.path(), opts.clone());
    let changed = [
        "arena/arena",
        "card/dragon",
        "card/fireball",
        "card/fireball",
        "card/potion",
        "card/sage",
        "card/wolf",
        "chit/ember",
        "chit/ember",
        "chit/ember",
        "scenario/tower",
    ];
    assert_eq!(placed(&built, "es", "a4"), changed);
    // The English text of the shield changed, the Spanish one did not.
    let mut en: Vec<String> = changed.iter().map(|s| s.to_string()).collect();
    en.push("card/shield".into());
    en.sort();
    assert_eq!(placed(&built, "en", "letter"), en);
    // The board prints for the changed scenario only.
    let boards = built
        .iter()
        .find(|b| b.plan.part == Part::Boards && b.plan.locale == "es")
        .unwrap();
    let mut variants: Vec<&str> = boards.plan.data["pages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["tile"]["variant"]["id"].as_str().unwrap())
        .collect();
    variants.dedup();
    assert_eq!(variants, ["tower"]);
    // The rules changed in both locales: the rules reference is part of the pack; the quick reference (none) is not.
    for l in ["es", "en"] {
        assert!(built.iter().any(|b| b.plan.part == Part::Rules && b.plan.locale == l));
    }

    // What the printer receives: the names printed on the cards, and the cover's lists.
    let cards = built
        .iter()
        .find(|b| b.plan.part == Part::Cards && b.plan.locale == "es" && b.plan.paper == Some(impose::A4))
        .unwrap();
    let text = pdf_text(&cards.pdf);
    for name in ["Bola de fuego", "Poción", "Lobo", "Sabio", "Dragón", "Torre"] {
        assert!(text.contains(name), "{name} not printed: {text}");
    }
    for name in ["Escudo", "Flecha", "Explorador", "Ruinas"] {
        assert!(!text.contains(name), "{name} printed: {text}");
    }
    let cover = built
        .iter()
        .find(|b| b.plan.part == Part::Cover && b.plan.locale == "es" && b.plan.paper == Some(impose::A4))
        .unwrap();
    let text = pdf_text(&cover.pdf);
    for line in [
        "Retira de tu copia",
        "Explorador ×2",
        "Flecha ×1",
        "Añade de estas hojas",
        "Brasa ×3",
    ] {
        assert!(text.contains(line), "cover lacks {line}: {text}");
    }

    // Every sheet measured like the kit's: trim on the cut lines, bleed, backs behind fronts.
    let mut f = Findings::default();
    for b in &built {
        match b.plan.part {
            Part::Cards | Part::Tokens | Part::Sheets | Part::Boards => {
                measure_sheets(b, &b.plan.paper.unwrap(), opts.settings.margin, &mut f)
            }
            Part::Pieces if b.plan.out.to_string_lossy().ends_with("duel-pieces.pdf") => measure_pieces_file(b, &mut f),
            _ => {}
        }
    }
    eprintln!("{}", f.summary("reprint pack"));
    assert!(f.pieces >= 2 * (11 + 12), "{}", f.summary("reprint pack"));
    assert!(f.clean(), "{}", f.summary("reprint pack"));
}

#[test]
fn the_binary_writes_the_pack_the_pipeline_lays_out() {
    let dir = project("v2");
    let o = run(
        dir.path(),
        &[
            "diff",
            &fixture("v1").display().to_string(),
            "--paper",
            "a4",
            "--locale",
            "es",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", common::out(&o));
    let opts = KitOptions {
        papers: vec![impose::A4],
        locales: Some(vec!["es".into()]),
        preflight: Some(preflight::Limits::build()),
        ..KitOptions::default()
    };
    let (_, built) = reprint(dir.path(), opts);
    let reprint_dir = dir.path().join("output/duel/diff/reprint/es");
    let mut names: Vec<String> = std::fs::read_dir(&reprint_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "duel-boards-a4.pdf",
            "duel-cards-a4.pdf",
            "duel-cover-a4.pdf",
            "duel-duplex-test-a4.pdf",
            "duel-pieces.pdf",
            "duel-rules-a4.pdf",
            "duel-tokens-a4.pdf"
        ]
    );
    for b in &built {
        let file = reprint_dir.join(b.plan.out.file_name().unwrap());
        assert!(std::fs::read(&file).unwrap() == b.pdf, "{} differs", file.display());
    }
    assert!(!dir.path().join("output/duel/diff/reprint/en").exists());
    // A second run with fewer locales and papers leaves no stale pack behind.
    let o = run(
        dir.path(),
        &[
            "diff",
            &fixture("v1").display().to_string(),
            "--paper",
            "letter",
            "--locale",
            "es",
        ],
    );
    assert_eq!(o.status.code(), Some(0));
    assert!(!reprint_dir.join("duel-cards-a4.pdf").exists());
    assert!(reprint_dir.join("duel-cards-letter.pdf").exists());
}

#[test]
fn version_stamp_prints_on_fronts_inside_the_safe_zone() {
    if !renderer_available("version stamp") {
        return;
    }
    let dir = project("v2");
    let base = KitOptions {
        papers: vec![impose::A4],
        locales: Some(vec!["es".into()]),
        ..KitOptions::default()
    };
    // The longest mark the command line takes: it wraps on the 25 mm chits.
    let stamp = "Segunda impresión · marzo de 2026 · v2.0";
    assert_eq!(stamp.chars().count(), 40);
    let full = preflight::Limits {
        min_text_pt: 6.0,
        safe_mm: 3.0,
        ..preflight::Limits::default()
    };
    let (d, plain) = reprint(dir.path(), base.clone());
    let d = &d;
    let (_, stamped) = reprint(
        dir.path(),
        KitOptions {
            stamp: Some(stamp.into()),
            preflight: Some(full),
            ..base
        },
    );
    // Preflight on the stamped designs: no text below 6 pt, none outside the safe zone.
    let findings: Vec<String> = stamped
        .iter()
        .flat_map(|b| &b.findings)
        .map(|(d, _)| format!("{}: {}", d.code.id(), d.message))
        .collect();
    assert!(findings.is_empty(), "{findings:#?}");
    let pieces = |built: &[Built]| {
        built
            .iter()
            .find(|b| b.plan.part == Part::Pieces && b.plan.out.to_string_lossy().ends_with("duel-pieces.pdf"))
            .unwrap()
            .pdf
            .clone()
    };
    let (a, b) = (pieces(&plain), pieces(&stamped));
    assert!(pdf_text(&b).contains("marzo de 2026"));
    let doc = lopdf::Document::load_mem(&b).unwrap();
    let n = doc.get_pages().len();
    let (ra, rb) = (rasterise(&a, 1, n, 300.0), rasterise(&b, 1, n, 300.0));
    // Which design each page of the pieces file is, in the order the pipeline laid them out.
    let new = check(&dir.path().join("data"), &[], &Limits::default()).unwrap();
    let reprint_opts = KitOptions {
        reprint: Some(std::sync::Arc::new(diff::reprint::selection(d, &new.games, None))),
        ..KitOptions::default()
    };
    let plan = pnpkit::render::plan_pieces(&new.games[0], "es", &reprint_opts, "/templates/duel/kit.typ");
    let faces: Vec<String> = plan
        .chunks
        .iter()
        .flat_map(|c| c.data["pieces"].as_array().cloned().unwrap_or_default())
        .map(|p| p["face"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(faces.len(), n);
    let bleeds: Vec<f64> = plan.merged.data["pages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["bleed"].as_f64().unwrap())
        .collect();
    for (k, ((ga, gb), face)) in ra.iter().zip(&rb).zip(&faces).enumerate() {
        let bleed = bleeds[k];
        let (w, h) = (ga.width_mm() - 2.0 * bleed, ga.height_mm() - 2.0 * bleed);
        let mut changed = 0usize;
        let mut outside = Vec::new();
        for y in 0..ga.h {
            for x in 0..ga.w {
                if ga.at(x, y).abs_diff(gb.at(x, y)) > 48 {
                    changed += 1;
                    // Millimetres from the trim: inside the 3 mm safe zone means more than 3 from every edge.
                    let (mx, my) = (ga.mm_of(x as f64 + 0.5) - bleed, ga.mm_of(y as f64 + 0.5) - bleed);
                    let edge = mx.min(my).min(w - mx).min(h - my);
                    if edge < 3.0 {
                        outside.push(format!("({mx:.2}, {my:.2}) mm, {edge:.2} mm from the trim"));
                    }
                }
            }
        }
        match face.as_str() {
            "back" => assert_eq!(changed, 0, "page {}: the stamp must not mark backs", k + 1),
            _ => {
                assert!(changed > 100, "page {} ({face}): no stamp found", k + 1);
                assert!(
                    outside.is_empty(),
                    "page {}: stamp outside the safe zone at {:?}",
                    k + 1,
                    &outside[..outside.len().min(5)]
                );
            }
        }
    }
}

/// A copy of version 1 with edits applied: `(file, from, to)` replaces text
/// (`from` empty: appends `to`; the file is created when missing).
fn edited(edits: &[(&str, &str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    common::copy_dir(&fixture("v1"), dir.path());
    for (file, from, to) in edits {
        let path = dir.path().join("duel").join(file);
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let new = if from.is_empty() {
            format!("{text}{to}")
        } else {
            assert!(text.contains(from), "{file} lacks {from:?}");
            text.replace(from, to)
        };
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, new).unwrap();
    }
    dir
}

/// The diff of the one game between two edited copies of version 1.
fn compare(old: &[(&str, &str, &str)], new: &[(&str, &str, &str)]) -> diff::GameDiff {
    let (a, b) = (edited(old), edited(new));
    let ra = check(a.path(), &[], &Limits::default()).unwrap();
    let rb = check(b.path(), &[], &Limits::default()).unwrap();
    for r in [&ra, &rb] {
        assert!(
            !r.has_errors(),
            "{:?}",
            r.diagnostics.items.iter().map(|d| &d.message).collect::<Vec<_>>()
        );
    }
    diff::diff("a", &ra.games, "b", &rb.games, &Default::default())
        .games
        .remove(0)
}

/// `kind/id path [locale] print-es print-en` for every change.
fn summary(g: &diff::GameDiff) -> Vec<String> {
    let mut out = Vec::new();
    for (k, p) in g.pieces() {
        let counts = format!("print es {} en {}", p.print["es"], p.print["en"]);
        if p.changes.is_empty() {
            out.push(format!("{}/{} {:?} {counts}", k.id, p.id, p.status));
        }
        for c in &p.changes {
            out.push(format!(
                "{}/{} {} [{}] {counts}",
                k.id,
                p.id,
                c.path,
                c.locale.as_deref().unwrap_or("*")
            ));
        }
    }
    out
}

#[test]
fn changes_are_found_where_players_see_them() {
    // An enum value renamed in Spanish only: the pieces with that value print anew in Spanish only.
    let g = compare(
        &[],
        &[("game.yaml", "ice: {es: Hielo, en: Ice}", "ice: {es: Escarcha, en: Ice}")],
    );
    assert_eq!(
        summary(&g),
        [
            "card/shield school [es] print es 1 en 0",
            "card/scout school [es] print es 2 en 0",
            "card/potion school [es] print es 2 en 0",
            "card/wolf school [es] print es 1 en 0",
            "card/sage school [es] print es 1 en 0",
        ]
    );
    let shield = g.pieces().find(|(_, p)| p.id == "shield").unwrap().1;
    assert_eq!(shield.changes[0].old.as_ref().unwrap().text.get("es"), "Hielo");
    assert_eq!(shield.changes[0].new.as_ref().unwrap().text.get("es"), "Escarcha");

    // A new trim size reprints every piece of the kind, in every locale.
    let g = compare(
        &[],
        &[(
            "game.yaml",
            "poker: {width: 63, height: 88}",
            "poker: {width: 64, height: 89}",
        )],
    );
    assert_eq!(g.kinds.iter().filter(|k| k.size.is_some()).count(), 2);
    assert_eq!(
        g.pieces()
            .filter(|(_, p)| p.print["es"] > 0 && p.print["en"] > 0)
            .count(),
        9
    );
    assert!(g.pieces().all(|(_, p)| p.changes.iter().any(|c| c.path == "size")));

    // List items are matched by id: a reordered list is no change, one changed item is one change.
    let runes_field = "      art: {type: image";
    let with_runes = format!(
        "      runes: {{type: list, required: false, of: {{type: record, fields: {{id: {{type: string}}, name: {{type: text}}, power: {{type: int}}}}}}}}\n{runes_field}"
    );
    let runes = |a: &str, b: &str| format!("  runes:\n    - {a}\n    - {b}\n  copies: 2\n- id: shield");
    let fire = "{id: fire, name: {es: Fuego, en: Fire}, power: 1}";
    let ash = "{id: ash, name: {es: Ceniza, en: Ash}, power: 2}";
    let ash3 = "{id: ash, name: {es: Ceniza, en: Ash}, power: 3}";
    let base = [
        ("game.yaml", runes_field, with_runes.as_str()),
        ("components/card.yaml", "  copies: 2\n- id: shield", &runes(fire, ash)),
    ];
    let reordered = [
        base[0],
        ("components/card.yaml", "  copies: 2\n- id: shield", &runes(ash, fire)),
    ];
    assert!(summary(&compare(&base, &reordered)).is_empty());
    let changed = [
        base[0],
        ("components/card.yaml", "  copies: 2\n- id: shield", &runes(ash3, fire)),
    ];
    let g = compare(&base, &changed);
    assert_eq!(summary(&g), ["card/fireball runes[ash].power [*] print es 2 en 2"]);
    let c = &g.pieces().next().unwrap().1.changes[0];
    assert_eq!(c.label.get("es"), "Runes › Ceniza › Power");

    // The name of a referenced piece is what a card shows: renaming it changes the card in that locale.
    let rival_field = format!(
        "      rival: {{type: ref, to: scenario, required: false, label: {{es: Rival, en: Rival}}}}\n{runes_field}"
    );
    let rival: [(&str, &str, &str); 2] = [
        ("game.yaml", runes_field, rival_field.as_str()),
        ("components/card.yaml", "  cost: 4\n", "  cost: 4\n  rival: tower\n"),
    ];
    let mut renamed = rival.to_vec();
    renamed.push((
        "components/scenario.yaml",
        "{es: Torre, en: Tower}",
        "{es: Torre negra, en: Tower}",
    ));
    let g = compare(&rival, &renamed);
    assert_eq!(
        summary(&g),
        [
            "card/sage rival [es] print es 1 en 0",
            "scenario/tower name [es] print es 1 en 0",
            "arena/arena variant[tower] [es] print es 1 en 0",
        ]
    );

    // A redrawn icon changes the pieces whose texts show it, and nothing else.
    let flame = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 10 10\"><circle cx=\"5\" cy=\"5\" r=\"4\" fill=\"#f60\"/></svg>";
    let icons = [
        (
            "game.yaml",
            "kinds:\n",
            "icons:\n  flame: {es: Llama, en: Flame}\nkinds:\n",
        ),
        ("icons/flame.svg", "", flame),
        (
            "components/card.yaml",
            "\"Inflige 3 daños.\"",
            "\"Inflige 3 daños :flame:.\"",
        ),
    ];
    let mut redrawn = icons.to_vec();
    let red = flame.replace("#f60", "#f00");
    redrawn[1] = ("icons/flame.svg", "", &red);
    let g = compare(&icons, &redrawn);
    assert_eq!(summary(&g), ["card/fireball icon:flame [*] print es 2 en 2"]);
    assert_eq!(g.icons.len(), 1);

    // Only the copies: the extra copies print, the surplus comes out; an invented-value mark is no change.
    let g = compare(
        &[],
        &[("components/card.yaml", "  copies: 4\n", "  copies: 6\n  sample: true\n")],
    );
    assert_eq!(summary(&g), ["card/arrow Copies print es 2 en 2"]);
    let arrow = g.pieces().next().unwrap().1;
    assert_eq!((arrow.take_out["es"], arrow.copies.old, arrow.copies.new), (0, 4, 6));
}
