//! `pnpkit deck`: the sample decks and armies in `data/<game>/decks/`, the
//! construction rules with their numbers, list parsing, and a property test
//! that mutates a legal deck and compares the validator with an independent
//! count.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use pnpkit::deck::{Context, Deck, DeckReport, check_list, validate};
use pnpkit::diag::SourceMap;
use pnpkit::model::{FieldValue, Game};
use proptest::prelude::*;

use crate::common;
use crate::common::{game, root, shipped};

fn samples(id: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = fs::read_dir(root().join("data").join(id).join("decks"))
        .map(|rd| rd.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    v.sort();
    v
}

/// Reads a list file (relative to the crate root) and checks it with the library.
fn check_file(id: &str, rel: &Path, ctx: &Context) -> (DeckReport, SourceMap) {
    let text: std::sync::Arc<str> = fs::read_to_string(root().join(rel)).expect("readable").into();
    let mut sources = SourceMap::default();
    let file = sources.add(rel.to_path_buf(), text.clone());
    let report = check_list(game(id), rel, file, &text, ctx).expect("construction rules");
    (report, sources)
}

fn checked(id: &str, path: &Path) -> (DeckReport, SourceMap) {
    let rel = path.strip_prefix(root()).unwrap_or(path);
    check_file(id, rel, &Context::default())
}

fn run(id: &str, path: &Path) -> DeckReport {
    checked(id, path).0
}

/// What `pnpkit deck` prints for a list.
fn shown(id: &str, path: &Path) -> String {
    let (report, sources) = checked(id, path);
    report.human(game(id), &sources, false)
}

/// Rule ids named in a sample's leading comment: `(XT-D2)`.
fn named_rules(text: &str) -> BTreeSet<String> {
    let head: String = text
        .lines()
        .take_while(|l| l.starts_with('#'))
        .collect::<Vec<_>>()
        .join(" ");
    head.split(['(', ')', ',', ' '])
        .filter(|w| w.contains("-D") && w.chars().next().is_some_and(|c| c.is_ascii_uppercase()))
        .map(|w| w.trim_end_matches('.').to_string())
        .collect()
}

fn violated(report: &DeckReport) -> BTreeSet<String> {
    report.broken_rules().into_iter().collect()
}

#[test]
fn every_game_has_a_legal_plain_text_sample_and_samples_behave_as_named() {
    for g in shipped() {
        let files = samples(&g.id);
        assert!(
            files.iter().any(|p| p.extension().is_some_and(|e| e == "txt")
                && !p.file_name().unwrap().to_string_lossy().starts_with("illegal-")),
            "{}: no legal plain-text sample in data/{}/decks/",
            g.id,
            g.id
        );
        for path in files {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let report = run(&g.id, &path);
            let shown = shown(&g.id, &path);
            if name.starts_with("illegal-") {
                assert!(!report.is_legal(), "{name} should be illegal\n{shown}");
                let named = named_rules(&fs::read_to_string(&path).unwrap());
                assert!(!named.is_empty(), "{name}: the first line names no rule id");
                let got: BTreeSet<String> = violated(&report)
                    .iter()
                    .map(|r| r.trim_end_matches(char::is_lowercase).to_string())
                    .collect();
                assert_eq!(
                    named, got,
                    "{name}: rules named in its comment vs rules broken\n{shown}"
                );
                insta::assert_snapshot!(format!("deck-{}-{}", g.id, name.replace('.', "-")), shown);
            } else {
                assert!(report.is_legal(), "{name} should be legal\n{shown}");
            }
        }
    }
}

#[test]
fn every_construction_rule_has_an_illegal_sample() {
    for g in shipped() {
        let Some(c) = &g.construction else {
            panic!("{} declares no construction rules", g.id)
        };
        let mut broken = BTreeSet::new();
        for path in samples(&g.id) {
            if path.file_name().unwrap().to_string_lossy().starts_with("illegal-") {
                broken.extend(
                    violated(&run(&g.id, &path))
                        .into_iter()
                        .map(|r| r.trim_end_matches(char::is_lowercase).to_string()),
                );
            }
        }
        for rule in &c.rules {
            assert!(
                broken.contains(&rule.id),
                "{}: no illegal sample breaks {}",
                g.id,
                rule.id
            );
        }
    }
}

fn message_of(id: &str, file: &str) -> String {
    let report = run(id, &root().join("data").join(id).join("decks").join(file));
    report
        .diagnostics
        .iter()
        .map(|d| d.message.clone())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn messages_carry_the_numbers() {
    let cases = [
        (
            "xterminio",
            "illegal-basic-short.txt",
            "XT-D2, XT-D2a (Deck composition): characters: 32 of 33 — basic: 11 of 12",
        ),
        (
            "xterminio",
            "illegal-over-60.txt",
            "XT-D1 (Deck size): cards: 61 (at most 60)",
        ),
        (
            "xterminio",
            "illegal-over-60.txt",
            "XT-D3 (Deck composition): equipment and actions: 24 of 23",
        ),
        ("xterminio", "illegal-zones.txt", "zones: 3 of 4"),
        (
            "xterminio",
            "illegal-powered-without-base.txt",
            "powered characters: Powered Militiaman needs Militiaman in the deck",
        ),
        (
            "unmatched",
            "illegal-29-cards.txt",
            "UM-D1 (Each hero's material): cards: 29 of 30",
        ),
        (
            "unmatched",
            "illegal-other-hero.txt",
            "hero's cards: Croquet Match belongs to Alice, not Medusa",
        ),
        (
            "mythic",
            "illegal-points-left.txt",
            "recruitment points: 11 spent of 12 — 1 left while 5 cards are still affordable",
        ),
        (
            "mythic",
            "illegal-over-budget.txt",
            "recruitment points: 13 spent of 12",
        ),
        ("mythic", "illegal-two-gods.txt", "gods: 2 of 1"),
        (
            "mythic",
            "illegal-ally-with-god.yaml",
            "gods (3-vs-1 ally): 1 (none allowed)",
        ),
        (
            "mythic",
            "illegal-ally-over-points.yaml",
            "recruitment points (3-vs-1 ally): 7 spent of 6",
        ),
        (
            "mythic",
            "illegal-unit-twice.txt",
            "units: 2 copies of Hoplites (at most 1 copy)",
        ),
        (
            "openwars",
            "illegal-queen-twice.txt",
            "unique units: 2 copies of Amazon Queen (at most 1 copy)",
        ),
        ("openwars", "illegal-over-gold.yaml", "army value: 29 (at most 25)"),
        (
            "onevmany",
            "illegal-wrong-lineup.txt",
            "fichas iniciales: 4 Esbirro donde El Señor de la Horda indica 5",
        ),
        (
            "onevmany",
            "illegal-more-than-the-kit.txt",
            "tokens in the kit: 11 copies of Minion (at most 10 copies)",
        ),
        (
            "onevmany",
            "illegal-more-than-the-kit.txt",
            "reserve: Minion has no token left for the reserve (10 in the kit, 11 in play)",
        ),
    ];
    for (id, file, want) in cases {
        let got = message_of(id, file);
        assert!(got.contains(want), "{id}/{file}: `{want}` not in\n{got}");
    }
}

#[test]
fn every_shipped_boss_lineup_fits_the_kit() {
    let g = game("onevmany");
    let c = g.construction.as_ref().unwrap();
    for boss in &g.components["boss"] {
        let mut deck = Deck::default();
        deck.header.insert("boss".into(), (boss.id.clone(), Default::default()));
        for t in boss.field("start_tokens").and_then(FieldValue::as_list).unwrap() {
            let rec = t.as_record().unwrap();
            let unit = rec["unit"].as_str().unwrap();
            deck.add(
                "many",
                unit,
                rec["count"].as_int().unwrap() as u32,
                Default::default(),
                None,
            );
        }
        let v = validate(g, c, &deck, &Context::default());
        assert!(v.is_legal(), "{}: {:?}", boss.id, v.violations);
    }
}

#[test]
fn names_match_in_either_locale_ignoring_case_accents_and_count_styles() {
    let g = game("xterminio");
    let c = g.construction.as_ref().unwrap();
    let mut diags: Vec<pnpkit::diag::Diagnostic> = Vec::new();
    let text = "# comment\nEquipment:\n2x BOTIQUIN\n1 x  granada de HUMO\n3 first-aid kit # trailing comment\nFrancotiradora\n2 Granade de humo\n";
    let (deck, d) = pnpkit::deck::report::read_text_list(text, pnpkit::diag::FileId(0), g, c, Path::new("list.txt"));
    diags.extend(d);
    let copies = deck.copies();
    assert_eq!(copies.get("botiquin"), Some(&5), "{copies:?}");
    assert_eq!(copies.get("granada-de-humo"), Some(&1));
    assert_eq!(deck.entries[0].section.as_deref(), Some("Equipment"));
    let msgs: Vec<String> = diags.iter().map(|d| format!("{} | {:?}", d.message, d.help)).collect();
    assert_eq!(msgs.len(), 2, "{msgs:?}");
    assert!(
        msgs[0].contains("`Francotiradora` nombra una carta pero no dice cuántas copias"),
        "{msgs:?}"
    );
    assert!(
        msgs[1].contains("ninguna carta se llama `Granade de humo`") && msgs[1].contains("Granada de humo"),
        "{msgs:?}"
    );
    assert_eq!(diags[1].span.unwrap().line, 7);
}

/// XTerminio's deck rules counted directly from the cards, independently of
/// the declarative validator.
fn xt_expected(g: &Game, copies: &[(String, u32)]) -> BTreeSet<String> {
    let comp = |id: &str| g.components.values().flatten().find(|c| c.id == id).unwrap();
    let flag = |c: &pnpkit::model::Component, f: &str| matches!(c.field(f), Some(FieldValue::Bool(true)));
    let rank = |c: &pnpkit::model::Component| c.field("rank").and_then(FieldValue::as_str).unwrap_or("").to_string();
    let mut by = std::collections::BTreeMap::<&str, u32>::new();
    let (mut total, mut chars, mut equip, mut zones) = (0, 0, 0, 0);
    let mut out = BTreeSet::new();
    for (id, n) in copies {
        let c = comp(id);
        total += n;
        match c.kind.as_str() {
            "character" => {
                chars += n;
                let key = match (rank(c).as_str(), flag(c, "powered"), flag(c, "protagonist")) {
                    ("basic", false, _) => "a",
                    ("basic", true, _) => "b",
                    ("initial", false, _) => "c",
                    ("initial", true, _) => "d",
                    ("advanced", false, _) => "e",
                    ("advanced", true, _) => "f",
                    ("superior", _, false) => "g",
                    _ => "h",
                };
                *by.entry(key).or_default() += n;
                if flag(c, "powered") {
                    let base = c.field("base").and_then(FieldValue::as_str).unwrap();
                    if !copies.iter().any(|(b, _)| b == base) {
                        out.insert("XT-D5".to_string());
                    }
                }
            }
            "zone" => zones += n,
            _ => equip += n,
        }
    }
    if total > 60 {
        out.insert("XT-D1".into());
    }
    if chars != 33 {
        out.insert("XT-D2".into());
    }
    for (k, want) in [
        ("a", 12),
        ("b", 1),
        ("c", 9),
        ("d", 1),
        ("e", 6),
        ("f", 1),
        ("g", 2),
        ("h", 1),
    ] {
        if by.get(k).copied().unwrap_or(0) != want {
            out.insert(format!("XT-D2{k}"));
        }
    }
    if equip != 23 {
        out.insert("XT-D3".into());
    }
    if zones != 4 {
        out.insert("XT-D4".into());
    }
    out
}

fn legal_xt() -> Vec<(String, u32)> {
    let report = run("xterminio", &root().join("data/xterminio/decks/resistance-starter.txt"));
    assert!(report.is_legal());
    report.deck.entries.iter().map(|e| (e.id.clone(), e.count)).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn mutated_xterminio_decks_agree_with_an_independent_count(
        edits in proptest::collection::vec((0usize..200, -2i32..=2), 1..5)
    ) {
        let g = game("xterminio");
        let c = g.construction.as_ref().unwrap();
        let pool: Vec<&pnpkit::model::Component> = c.kinds.iter().flat_map(|k| g.components[k].iter()).collect();
        let mut copies = legal_xt();
        for (pick, delta) in edits {
            let card = pool[pick % pool.len()];
            match copies.iter_mut().find(|(id, _)| *id == card.id) {
                Some((_, n)) => *n = (*n as i32 + delta).max(0) as u32,
                None if delta > 0 => copies.push((card.id.clone(), delta as u32)),
                None => {}
            }
        }
        copies.retain(|(_, n)| *n > 0);
        let mut deck = Deck::default();
        for (id, n) in &copies {
            let kind = pool.iter().find(|c| &c.id == id).unwrap().kind.clone();
            deck.add(&kind, id, *n, Default::default(), None);
        }
        let verdict = validate(g, c, &deck, &Context::default());
        let got: BTreeSet<String> = verdict.violations.iter().flat_map(|v| v.rules.iter().cloned()).collect();
        // A failing group reports its own id only when its total is off; the
        // independent count says the same.
        prop_assert_eq!(got, xt_expected(g, &copies));
    }

    #[test]
    fn random_mythic_armies_agree_with_an_independent_points_count(
        picks in proptest::collection::vec((0usize..19, 1u32..=2), 0..8)
    ) {
        let g = game("mythic");
        let c = g.construction.as_ref().unwrap();
        let pool: Vec<&pnpkit::model::Component> = c.kinds.iter().flat_map(|k| g.components[k].iter()).collect();
        let mut deck = Deck::default();
        for (i, n) in &picks {
            let card = pool[i % pool.len()];
            deck.add(&card.kind, &card.id, *n, Default::default(), None);
        }
        let ctx = Context { mode: Some("duel".into()), ..Context::default() };
        let verdict = validate(g, c, &deck, &ctx);
        let got: BTreeSet<String> = verdict.violations.iter().flat_map(|v| v.rules.iter().cloned()).collect();
        let cost = |id: &str| pool.iter().find(|c| c.id == id).unwrap().field("cost").and_then(FieldValue::as_int).unwrap();
        let spent: i64 = deck.entries.iter().map(|e| cost(&e.id) * i64::from(e.count)).sum();
        let gods: u32 = deck.entries.iter().filter(|e| {
            pool.iter().find(|c| c.id == e.id).unwrap().field("category").and_then(FieldValue::as_str) == Some("god")
        }).map(|e| e.count).sum();
        let mut want = BTreeSet::new();
        if gods != 1 { want.insert("MB-D1".to_string()); }
        if deck.entries.iter().any(|e| e.count > 1) { want.insert("MB-D5".to_string()); }
        let left = 12 - spent;
        let can_buy = pool.iter().any(|p| {
            let k = cost(&p.id);
            k > 0 && k <= left && !deck.entries.iter().any(|e| e.id == p.id)
        });
        if spent > 12 || (spent < 12 && can_buy) { want.insert("MB-D3".to_string()); }
        prop_assert_eq!(got, want);
    }
}

/// One list of the paste corpus and what `pnpkit deck` must say about it.
struct CorpusCase {
    file: String,
    game: String,
    expect: BTreeSet<String>,
    /// The language the messages must be in: the list's own.
    locale: String,
}

fn corpus() -> Vec<CorpusCase> {
    let dir = root().join("tests/fixtures/decks");
    let text = fs::read_to_string(dir.join("corpus.tsv")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            CorpusCase {
                file: cols[0].to_string(),
                game: cols[0].split('/').next().unwrap().to_string(),
                expect: cols[1].split_whitespace().map(str::to_string).collect(),
                locale: cols[2].to_string(),
            }
        })
        .collect()
}

/// The paste corpus: a legal and an illegal list per format, for several
/// games, in both locales; each list must get exactly its verdict.
#[test]
fn paste_corpus_gets_the_right_verdicts() {
    let mut failures = Vec::new();
    let cases = corpus();
    assert!(cases.len() >= 46, "the corpus lost lists");
    for case in &cases {
        let path = Path::new("tests/fixtures/decks").join(&case.file);
        let report = run(&case.game, &path);
        let shown = shown(&case.game, &path);
        let got: BTreeSet<String> = if report.is_legal() {
            ["legal".to_string()].into()
        } else {
            let rules = violated(&report);
            let codes: BTreeSet<String> = report
                .diagnostics
                .iter()
                .filter(|d| d.code != pnpkit::diag::Code::DeckRule)
                .map(|d| d.code.id().to_string())
                .collect();
            rules.into_iter().chain(codes).collect()
        };
        if report.verdict.locale != case.locale {
            failures.push(format!(
                "{}: messages in `{}`, expected `{}`\n{shown}",
                case.file, report.verdict.locale, case.locale
            ));
        }
        if got != case.expect {
            failures.push(format!(
                "{}: expected {:?}, got {:?}\n{shown}",
                case.file, case.expect, got
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} lists misread:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

/// What `pnpkit deck` prints for a list given as text (no file read).
fn shown_text(id: &str, name: &str, text: &str, ctx: &Context) -> String {
    let mut sources = SourceMap::default();
    let file = sources.add(PathBuf::from(name), text.into());
    let report = check_list(game(id), Path::new(name), file, text, ctx).unwrap();
    report.human(game(id), &sources, false)
}

/// The new messages, in both locales: reading problems, plurals, cut lists
/// with "… and N more", the wrong-header hint.
#[test]
fn messages_in_both_locales() {
    let none = Context::default();
    let cases: Vec<(&str, &str, &str, String)> = vec![
        (
            "reading-en",
            "unmatched",
            "list.txt",
            "herp: Medusa\nhero: Medusa\n3 Petrifying Gaz\nSerpent Locks\nthis is not a card\n3 Harpy Talons\n".into(),
        ),
        (
            "reading-es",
            "unmatched",
            "lista.txt",
            "héroe: Medusa\nheroe: Alice\n3 Mirada petrificant\nCabellera de serpientes:\nesto no es una carta\n3 Garras de arpía\n".into(),
        ),
        ("copies-en", "openwars", "army.txt", "Amazon Warriors x4\nAmazon Queen x2\n".into()),
        ("copies-es", "openwars", "ejercito.txt", "Guerreras amazonas x4\nReina amazona x2\n".into()),
        (
            "points-left-es",
            "mythic",
            "ejercito.txt",
            "modo: duelo\n1 Zeus\n1 Aquiles\n1 Leónidas\n1 Medusa\n1 Hoplitas\n".into(),
        ),
        ("empty-en", "xterminio", "deck.txt", "# nothing yet\n\nCharacters\n".into()),
        ("empty-es", "xterminio", "mazo.txt", "# nada aún\n\nPersonajes\n".into()),
        (
            "wrong-hero-es",
            "unmatched",
            "lista.txt",
            fs::read_to_string(root().join("tests/fixtures/decks/unmatched/csv.es.legal.csv"))
                .unwrap()
                .replace("héroe: Medusa", "héroe: Alice"),
        ),
        (
            "wrong-hero-en",
            "unmatched",
            "list.csv",
            fs::read_to_string(root().join("tests/fixtures/decks/unmatched/csv.en.illegal.csv")).unwrap(),
        ),
        (
            "many-unreadable-en",
            "xterminio",
            "deck.txt",
            (1..=60).map(|i| format!("{i} Nonexistent card number {i}\n")).collect(),
        ),
        ("bad-mode-es", "mythic", "ejercito.txt", "modo: alianz\nrol: aliada\n1 Atenea\n".into()),
    ];
    for (name, id, file, text) in cases {
        insta::assert_snapshot!(format!("messages-{name}"), shown_text(id, file, &text, &none));
    }
}

/// Reads a `construction:` written in YAML against a shipped game's kinds.
fn construction_of(id: &str, yaml: &str) -> (Option<pnpkit::model::Construction>, Vec<pnpkit::diag::Diagnostic>) {
    let g = game(id);
    let node = pnpkit::pack::parse_yaml(yaml, pnpkit::diag::FileId(0), &Default::default()).unwrap();
    let mut diags = Vec::new();
    let c = pnpkit::pack::construction::read_construction(&node, &g.kinds, &g.locales, &mut diags);
    (c, diags)
}

#[test]
fn bad_rule_keys_get_a_correct_did_you_mean() {
    let (_, diags) = construction_of(
        "openwars",
        "kinds: [unit]\nrules:\n  - {id: A, label: units, copies: {}, at_most: 1}\n  - {id: B, label: units, count: {}, at_mots: 3}\n  - {id: C, label: units, coun: {}, at_most: 3}\n",
    );
    let shown: Vec<String> = diags
        .iter()
        .map(|d| format!("{} | {:?} | {:?}", d.message, d.expected, d.help))
        .collect();
    insta::assert_snapshot!("construction-bad-keys", shown.join("\n"));
    assert!(
        !shown
            .iter()
            .any(|s| s.contains("unknown field `at_most`") && s.contains("did you mean `at_most`")),
        "{shown:#?}"
    );
}

/// Distinct values of a field, and counts per value of a field.
#[test]
fn distinct_and_per_value_rules() {
    let (c, diags) = construction_of(
        "openwars",
        "kinds: [unit]\nrules:\n  - {id: F, label: {en: factions, es: facciones}, distinct: faction, at_most: 2}\n  - {id: U, label: {en: unique units, es: unidades únicas}, where: {unique: true}, count: {}, per: faction, at_most: 1}\n",
    );
    assert!(diags.is_empty(), "{diags:?}");
    let c = c.unwrap();
    let g = game("openwars");
    let deck_of = |cards: &[(&str, u32)]| {
        let mut d = Deck::default();
        for (id, n) in cards {
            d.add("unit", id, *n, Default::default(), None);
        }
        d
    };
    let legal = deck_of(&[
        ("amazon-warriors", 4),
        ("amazon-queen", 1),
        ("orc-warriors", 2),
        ("orc-warboss", 1),
    ]);
    let v = validate(g, &c, &legal, &Context::default());
    assert!(v.is_legal(), "{:?}", v.violations);
    let three = deck_of(&[("amazon-warriors", 4), ("orc-warriors", 2), ("skeletons", 1)]);
    let v = validate(g, &c, &three, &Context::default());
    let msgs: Vec<&str> = v.violations.iter().map(|x| x.message.as_str()).collect();
    assert_eq!(msgs, ["factions: 3 (at most 2): Amazons, Orcs and Undead"]);
    let two_kings = deck_of(&[
        ("dwarf-warriors", 2),
        ("mountain-king", 1),
        ("orc-warboss", 1),
        ("lich-king", 1),
    ]);
    let v = validate(
        g,
        &c,
        &two_kings,
        &Context {
            locale: Some("es".into()),
            ..Context::default()
        },
    );
    let msgs: Vec<&str> = v.violations.iter().map(|x| x.message.as_str()).collect();
    assert_eq!(msgs, ["facciones: 3 (como máximo 2): Enanos, Orcos y No Muertos"]);
    let per = deck_of(&[("amazon-queen", 1), ("barbarian-warlord", 1)]);
    let mut c2 = c.clone();
    c2.rules[1].filter.fields.clear();
    c2.rules[1].filter.fields.insert("cost".into(), vec!["7".into()]);
    let v = validate(g, &c2, &per, &Context::default());
    assert!(v.is_legal(), "two factions, one 7-gold unit each: {:?}", v.violations);
    let per = deck_of(&[("amazon-queen", 2)]);
    let v = validate(g, &c, &per, &Context::default());
    let msgs: Vec<&str> = v.violations.iter().map(|x| x.message.as_str()).collect();
    assert_eq!(msgs, ["unique units (Amazons): 2 (at most 1)"]);
}

/// The same list in other words, order and locale has the same hash; one
/// more copy changes it.
#[test]
fn deck_hash_is_canonical() {
    let none = Context::default();
    let hash = |text: &str| {
        let report = check_list(game("unmatched"), Path::new("l.txt"), Default::default(), text, &none).unwrap();
        report.hash
    };
    let a = hash("hero: Medusa\n3 Petrifying Gaze\n2 Pecking\n");
    let b = hash("Picotazos x2\nhéroe: medusa\nMirada petrificante (3)\n");
    let c = hash("hero: Medusa\n3 Petrifying Gaze\n3 Pecking\n");
    assert_eq!(a, b);
    assert_ne!(a, c);
    assert_eq!(a.len(), 12);
    assert!(a.chars().all(|ch| ch.is_ascii_hexdigit()));
}

#[test]
fn a_header_naming_nothing_is_not_reported_as_missing() {
    let text = "hero: Medusaa\n3 Petrifying Gaze\n";
    let out = shown_text("unmatched", "l.txt", text, &Context::default());
    assert!(out.contains("UM-D2 (`hero` is not valid)"), "{out}");
    assert!(out.contains("did you mean `Medusa`?"), "{out}");
}

/// The organiser's kit on a folder of mixed lists (paste, spreadsheet, CSV,
/// YAML; legal and not; English and Spanish): the table, the CSV, the JSON,
/// a sheet per list, byte-identical on a second run, exit 1.
#[test]
fn batch_of_mixed_lists() {
    let out = tempfile::tempdir().unwrap();
    let o = out.path().to_str().unwrap();
    let run = || {
        common::pnpkit_in(
            root(),
            &["deck", "unmatched", "--batch", "tests/fixtures/decks/batch", "--out", o],
        )
    };
    let first = run();
    assert_eq!(first.status.code(), Some(1), "{}", common::out(&first));
    let stdout = String::from_utf8_lossy(&first.stdout).into_owned();
    let table: String = stdout
        .lines()
        .skip_while(|l| !l.starts_with("#  player"))
        .collect::<Vec<_>>()
        .join("\n");
    insta::assert_snapshot!("batch-table", table.replace(o, "<out>"));
    let csv = fs::read_to_string(out.path().join("verdicts.csv")).unwrap();
    insta::assert_snapshot!("batch-csv", csv);
    let json: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out.path().join("verdicts.json")).unwrap()).unwrap();
    assert_eq!(json["lists"], 5);
    assert_eq!(json["illegal"], 2);
    let verdicts = json["verdicts"].as_array().unwrap();
    let players: Vec<&str> = verdicts.iter().map(|v| v["player"].as_str().unwrap()).collect();
    assert_eq!(players, ["Ana García", "Bruno Díaz", "carla", "dani", "Eva"]);
    assert_eq!(verdicts[2]["rules"], serde_json::json!(["UM-D2"]));
    assert_eq!(json["reports"][1]["verdict"]["locale"], "es");
    let mut sheets: Vec<String> = fs::read_dir(out.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".pdf"))
        .collect();
    sheets.sort();
    assert_eq!(
        sheets,
        [
            "01-ana-garcia.pdf",
            "02-bruno-diaz.pdf",
            "03-carla.pdf",
            "04-dani.pdf",
            "05-eva.pdf"
        ]
    );
    let before: Vec<Vec<u8>> = sheets.iter().map(|s| fs::read(out.path().join(s)).unwrap()).collect();
    let second = run();
    assert_eq!(second.stdout, first.stdout);
    for (s, b) in sheets.iter().zip(&before) {
        assert_eq!(&fs::read(out.path().join(s)).unwrap(), b, "{s} differs on a second run");
    }
}

/// A poppler tool, or a clear failure in CI (where `CI` is set) and a skip
/// with a message elsewhere.
fn poppler(tool: &str) -> Option<PathBuf> {
    let found = std::env::var_os("PATH")
        .and_then(|path| std::env::split_paths(&path).map(|d| d.join(tool)).find(|p| p.is_file()));
    if found.is_none() {
        let msg = format!("`{tool}` not found: install poppler-utils (`apt-get install -y poppler-utils`)");
        assert!(
            std::env::var_os("CI").is_none(),
            "{msg}: the decklist raster test cannot run"
        );
        println!("SKIPPED: {msg}");
    }
    found
}

/// A greyscale raster of a PDF page: width, height, one byte per pixel.
fn raster(pdf: &Path, dpi: u32) -> (usize, usize, Vec<u8>) {
    let tool = poppler("pdftoppm").unwrap();
    let o = std::process::Command::new(tool)
        .args(["-gray", "-r", &dpi.to_string(), "-f", "1", "-l", "1"])
        .arg(pdf)
        .output()
        .unwrap();
    assert!(o.status.success());
    // PGM: "P5\n<w> <h>\n255\n" then the pixels.
    let data = o.stdout;
    let mut fields = Vec::new();
    let mut i = 0;
    while fields.len() < 4 {
        while data[i].is_ascii_whitespace() {
            i += 1;
        }
        let start = i;
        while !data[i].is_ascii_whitespace() {
            i += 1;
        }
        fields.push(String::from_utf8_lossy(&data[start..i]).into_owned());
    }
    assert_eq!(fields[0], "P5");
    let (w, h): (usize, usize) = (fields[1].parse().unwrap(), fields[2].parse().unwrap());
    (w, h, data[i + 1..].to_vec())
}

/// One decklist sheet as the organiser prints it: A4, nothing printed
/// within 10 mm of the edge, the list in the player's locale, the hash, and
/// an empty judge-notes box at least 50 mm tall.
#[test]
fn decklist_sheet_raster() {
    if poppler("pdftoppm").is_none() || poppler("pdftotext").is_none() {
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let o = out.path().to_str().unwrap();
    let r = common::pnpkit_in(
        root(),
        &[
            "deck",
            "unmatched",
            "tests/fixtures/decks/batch/bruno.tsv",
            "tests/fixtures/decks/batch/ana-medusa.txt",
            "--out",
            o,
        ],
    );
    assert_eq!(r.status.code(), Some(0), "{}", common::out(&r));
    let pdf = out.path().join("01-bruno-diaz.pdf");
    let dpi = 50;
    let (w, h, px) = raster(&pdf, dpi);
    let mm = |v: f64| (v * f64::from(dpi) / 25.4).round() as usize;
    assert!((w as f64 / h as f64 - 210.0 / 297.0).abs() < 0.01, "not A4: {w}x{h}");
    let dark = |x: usize, y: usize| px[y * w + x] < 200;
    // The margin a home printer cannot print stays blank.
    let edge = mm(10.0);
    for y in 0..h {
        for x in 0..w {
            if x < edge || y < edge || x >= w - edge || y >= h - edge {
                assert!(!dark(x, y), "ink at ({x}, {y}) within 10 mm of the edge");
            }
        }
    }
    // Ink in the top third: the title, the hash, the list.
    let ink_top = (0..h / 3)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .filter(|&(x, y)| dark(x, y))
        .count();
    assert!(
        ink_top > 500,
        "the top of the sheet is nearly empty ({ink_top} dark pixels)"
    );
    // Down the middle of the page, the judge-notes box: a white run of at
    // least 50 mm between two dark borders, in the lower half.
    let x = w / 2;
    let mut best = 0;
    let mut run = 0;
    let mut closed_above = false;
    for y in h / 2..h {
        if dark(x, y) {
            if closed_above {
                best = best.max(run);
            }
            closed_above = true;
            run = 0;
        } else {
            run += 1;
        }
    }
    assert!(
        best >= mm(50.0),
        "no judge-notes box of 50 mm: longest closed white run {best} px"
    );
    // The text a judge reads: Spanish names, the player, the hash.
    let text = std::process::Command::new(poppler("pdftotext").unwrap())
        .arg(&pdf)
        .arg("-")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    let json: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out.path().join("verdicts.json")).unwrap()).unwrap();
    let hash = json["verdicts"][0]["hash"].as_str().unwrap();
    for want in [
        "Lista de registro",
        "Bruno Díaz",
        "Tajo de Excalibur",
        "Rey Arturo",
        "NOTAS DEL JUEZ",
        hash,
    ] {
        assert!(text.contains(want), "`{want}` not on the sheet:\n{text}");
    }
}

/// One card line in a paste style: `style` picks the form, `name` is the
/// card's name in some locale, written in some case.
fn styled(style: usize, n: u32, name: &str) -> String {
    match style % 16 {
        0 => format!("{n} {name}"),
        1 => format!("{n}x {name}"),
        2 => format!("{n} x {name}"),
        3 => format!("{name} x{n}"),
        4 => format!("{name} ×{n}"),
        5 => format!("x{n} {name}"),
        6 => format!("- {name} x{n}"),
        7 => format!("* {n} {name}"),
        8 => format!("{name} ({n})"),
        9 => format!("{name}\t{n}"),
        10 => format!("{n};{name}"),
        11 => format!("\"{name}\",{n}"),
        12 => format!("{n} {name} (XTR) {}", 10 + n),
        13 => format!("{name} {n}"),
        14 => format!("1. {n}x [{name}](https://example.test/c/{n})"),
        _ => format!("{name}: {n}   # a comment"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    /// A legal list written line by line in random paste styles, locales,
    /// letter cases, with section headers, comments and CRLF, reads back as
    /// the same cards, and keeps its hash.
    #[test]
    fn any_mix_of_paste_styles_reads_the_same_cards(
        styles in proptest::collection::vec((0usize..16, 0usize..2, 0usize..3), 26),
        crlf in any::<bool>(),
        bom in any::<bool>(),
        headers in any::<bool>(),
    ) {
        let g = game("xterminio");
        let legal = legal_xt();
        let mut text = String::new();
        if bom {
            text.push('\u{feff}');
        }
        for (i, (id, n)) in legal.iter().enumerate() {
            let comp = g.components.values().flatten().find(|c| &c.id == id).unwrap();
            let (style, locale, case) = styles[i % styles.len()];
            let name = comp.name.get(["en", "es"][locale]);
            let name = match case {
                0 => name.to_string(),
                1 => name.to_uppercase(),
                _ => name.to_lowercase(),
            };
            if headers && i % 7 == 0 {
                text.push_str(["Characters (33)", "## Equipo", "Deck", "**Zonas**"][i % 4]);
                text.push_str(if crlf { "\r\n" } else { "\n" });
            }
            text.push_str(&styled(style, *n, &name));
            text.push_str(if crlf { "\r\n" } else { "\n" });
        }
        let report = check_list(g, Path::new("mix.txt"), Default::default(), &text, &Context::default()).unwrap();
        let got: BTreeSet<(String, u32)> = report.deck.entries.iter().map(|e| (e.id.clone(), e.count)).collect();
        let want: BTreeSet<(String, u32)> = legal.iter().cloned().collect();
        prop_assert!(report.is_legal(), "{}\n{:?}", text, report.diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>());
        prop_assert_eq!(got, want);
        let plain: String = legal.iter().map(|(id, n)| format!("{n} {id}\n")).collect();
        let base = check_list(g, Path::new("plain.txt"), Default::default(), &plain, &Context::default()).unwrap();
        prop_assert_eq!(report.hash, base.hash);
    }
}

/// Mythic players draft from one box (`pool: shared`): "points spent exactly
/// unless nothing more can be bought" (MB-D3) must not count a unit another
/// player already took as affordable (a legal three-player draft was refused).
#[test]
fn a_shared_pool_leaves_out_what_the_other_players_took() {
    let g = game("mythic");
    let c = g.construction.as_ref().unwrap();
    assert!(c.shared_pool);
    let mut deck = Deck::default();
    for (kind, id) in [
        ("character", "ares"),
        ("character", "odysseus"),
        ("character", "leonidas"),
        ("character", "minotaur"),
        ("troop", "hoplites"),
        ("troop", "spartans"),
    ] {
        deck.add(kind, id, 1, Default::default(), None);
    }
    let rules = |ctx: &Context| -> Vec<String> {
        validate(g, c, &deck, ctx)
            .violations
            .iter()
            .flat_map(|v| v.rules.clone())
            .collect()
    };
    // 11 of 12 points: four troops of 1 point are still in the box.
    let mut ctx = Context {
        mode: Some("duel".into()),
        ..Context::default()
    };
    assert_eq!(rules(&ctx), ["MB-D3"]);
    for id in ["amazons", "hell-hounds", "hell-warriors"] {
        ctx.taken.insert(id.into(), 1);
    }
    assert_eq!(rules(&ctx), ["MB-D3"], "the centaurs are still there");
    ctx.taken.insert("centaurs".into(), 1);
    assert!(rules(&ctx).is_empty(), "nothing left to buy: {:?}", rules(&ctx));
}
