//! `i18n import` loses nothing: translations written as block scalars are
//! replaced in place, duplicate PO entries are refused with their lines, a
//! translation that breaks the pack is refused before anything is written,
//! and random texts round-trip through PO export and import in every
//! scalar style, changing only the intended values.

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::common::{copy_dir, out, pnpkit_in, root};
use pnpkit::diag::FileId;
use pnpkit::i18n::{Edit, inventory, parse_po, rewrite, to_po};
use pnpkit::pack::yaml::{Limits, Node, parse};
use proptest::prelude::*;

/// A project with a copy of one shipped game, and the path of its PO file for `en`.
fn project(game: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&root().join("data").join(game), &dir.path().join("data").join(game));
    common::mark(dir.path());
    let po = dir.path().join("po").join(game).join("i18n/en.po");
    (dir, po)
}

fn run(dir: &Path, action: &str) -> std::process::Output {
    pnpkit_in(dir, &["i18n", action, "--locale", "en", "--out", "po"])
}

/// Every file of a folder, for "nothing was written".
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(snapshot(&p));
        } else {
            out.insert(p.clone(), std::fs::read(&p).unwrap());
        }
    }
    out
}

/// Replaces the translation of entry `ctx` in a PO file.
fn set_translation(po: &str, ctx: &str, translation: &str) -> String {
    let start = po
        .find(&format!("msgctxt \"{ctx}\""))
        .unwrap_or_else(|| panic!("no {ctx}"));
    let msgstr = start + po[start..].find("\nmsgstr ").unwrap() + 1;
    let end = msgstr + po[msgstr..].find("\n\n").unwrap_or(po.len() - msgstr);
    let quoted = translation
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n");
    format!("{}msgstr \"{quoted}\"{}", &po[..msgstr], &po[end..])
}

fn node_at<'a>(root: &'a Node, path: &str) -> &'a Node {
    pnpkit::i18n::locate(root, path).unwrap_or_else(|| panic!("no {path}"))
}

#[test]
fn a_block_scalar_translation_is_replaced_and_the_next_key_kept() {
    let (dir, po) = project("xterminio");
    let dir = dir.path();
    assert_eq!(run(dir, "export").status.code(), Some(0));
    let ctx = "rules/02-deck.yaml#sections.extra-cards.text";
    let text = std::fs::read_to_string(&po).unwrap();
    let new = "Each box has {{ fact(id=\"extra-cards\") }} spare cards beyond a deck: swap them in while building.";
    std::fs::write(&po, set_translation(&text, ctx, new)).unwrap();
    let yaml = dir.join("data/xterminio/rules/02-deck.yaml");
    let before = std::fs::read_to_string(&yaml).unwrap();
    let o = run(dir, "import");
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    let after = std::fs::read_to_string(&yaml).unwrap();
    let (b, a) = (
        parse(&before, FileId(0), &Limits::default()).unwrap(),
        parse(&after, FileId(0), &Limits::default()).unwrap(),
    );
    // The new text in the same folded style, and the section keeps its `see:`.
    assert_eq!(
        node_at(&a, "sections.extra-cards.text")
            .get("en")
            .and_then(Node::as_str),
        Some(new)
    );
    assert!(after.contains("      en: >-\n        Each box has"), "{after}");
    assert_eq!(
        pnpkit::sheet::without_spans(node_at(&a, "sections.extra-cards.see")),
        pnpkit::sheet::without_spans(node_at(&b, "sections.extra-cards.see"))
    );
    // Only that value changed in the whole file.
    let mut expected = b.clone();
    let want = pnpkit::sheet::without_spans(&a);
    if let Some(v) = find_mut(&mut expected, &["sections", "extra-cards", "text", "en"]) {
        v.value = pnpkit::pack::yaml::Value::Str(new.into());
    }
    assert_eq!(pnpkit::sheet::without_spans(&expected), want);
    let o = pnpkit_in(dir, &["check", "--deny-warnings"]);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
}

fn find_mut<'a>(node: &'a mut Node, path: &[&str]) -> Option<&'a mut Node> {
    use pnpkit::pack::yaml::Value;
    let Some((first, rest)) = path.split_first() else {
        return Some(node);
    };
    let next = match &mut node.value {
        Value::Map(m) => m.iter_mut().find(|(k, _)| k.as_str() == Some(first)).map(|(_, v)| v)?,
        Value::Seq(items) => items
            .iter_mut()
            .find(|i| i.get("id").and_then(Node::as_str) == Some(first))?,
        _ => return None,
    };
    find_mut(next, rest)
}

#[test]
fn duplicate_and_conflicting_entries_are_refused_with_their_lines() {
    let (dir, po) = project("xterminio");
    let dir = dir.path();
    assert_eq!(run(dir, "export").status.code(), Some(0));
    let text = std::fs::read_to_string(&po).unwrap();
    // The last entry twice, both times with a new translation (this panicked:
    // the second edit's range no longer fit the file changed by the first).
    let start = text.rfind("\n\n#: ").unwrap() + 2;
    let entry = &text[start..];
    let msgstr = entry.rfind("msgstr ").unwrap();
    let twice = format!("{}msgstr \"x\"\n", &entry[..msgstr]);
    let doubled = format!("{}{twice}\n{twice}", &text[..start]);
    let ctx = entry.lines().find(|l| l.starts_with("msgctxt")).unwrap();
    let at: Vec<usize> = doubled
        .lines()
        .enumerate()
        .filter(|(_, l)| *l == ctx)
        .map(|(i, _)| i + 1)
        .collect();
    let (first, second) = (at[0], at[1]);
    std::fs::write(&po, &doubled).unwrap();
    let data = dir.join("data");
    let before = snapshot(&data);
    let o = run(dir, "import");
    let report = out(&o);
    assert_eq!(o.status.code(), Some(1), "{report}");
    assert!(report.contains("E033") && report.contains("appears twice"), "{report}");
    assert!(
        report.contains(&format!("en.po:{second}:")),
        "the second line {second}: {report}"
    );
    assert!(
        report.contains(&format!("{first} |")),
        "the first line {first}: {report}"
    );
    assert!(report.contains("nothing was written"), "{report}");
    // Conflicting: the same entry with another translation.
    let conflicting = format!(
        "{}{twice}\n{}msgstr \"Something else\"\n",
        &text[..start],
        &entry[..msgstr]
    );
    std::fs::write(&po, conflicting).unwrap();
    let o = run(dir, "import");
    let report = out(&o);
    assert_eq!(o.status.code(), Some(1), "{report}");
    assert!(report.contains("translated twice, differently"), "{report}");
    assert_eq!(snapshot(&data), before, "a refused import wrote something");
}

#[test]
fn a_translation_that_breaks_the_pack_is_refused_before_writing() {
    let (dir, po) = project("xterminio");
    let dir = dir.path();
    assert_eq!(run(dir, "export").status.code(), Some(0));
    let ctx = "rules/02-deck.yaml#sections.extra-cards.text";
    let text = std::fs::read_to_string(&po).unwrap();
    std::fs::write(
        &po,
        set_translation(&text, ctx, "Every box has {{ fact(id=\"extra-cards\" }} cards."),
    )
    .unwrap();
    let data = dir.join("data");
    let before = snapshot(&data);
    let o = run(dir, "import");
    let report = out(&o);
    assert_eq!(o.status.code(), Some(1), "{report}");
    assert!(report.contains("E021"), "{report}");
    assert!(report.contains("the translation comes from here"), "{report}");
    assert_eq!(snapshot(&data), before, "a refused import wrote something");
    // `build` would have refused the pack; `check` still passes.
    assert_eq!(pnpkit_in(dir, &["check"]).status.code(), Some(0));
}

// ---------------------------------------------------------------- property

/// Every way a text map's English value can be written, as YAML lines under
/// `t<i>:` (`{}` is where the value goes, in the style named).
const STYLES: &[&str] = &[
    "  {es: Uno, en: uno}",
    "  {es: Uno, en: 'uno'}",
    "  {es: Uno, en: \"uno\"}",
    "  {es: Uno}",
    "\n    es: Uno\n    en: uno",
    "\n    es: Uno\n    en: 'uno # no'",
    "\n    es: Uno\n    en: \"uno\"   # comment",
    "\n    es: |\n      Uno\n    en: |\n      uno\n      dos",
    "\n    es: >-\n      Uno dos\n      tres\n    en: >-\n      uno dos\n      tres",
    "\n    es: >-\n      Uno\n",
    "\n    es: Uno",
    "\n    es: >\n      Uno\n    en: >\n      uno\n      dos",
    "\n    es: |-\n      Uno\n    en: |-\n      uno",
    "\n    es: |+\n      Uno\n\n    en: |+\n      uno\n",
    "  {es: Uno,\n    en: uno}",
    "\n    es: Uno\n    en: uno\n      dos",
    "\n    es: Uno\n    en: \"uno\n      dos\"",
];

fn document() -> String {
    let mut s = String::from("# a file of texts\n");
    for (i, style) in STYLES.iter().enumerate() {
        s.push_str(&format!("t{i}:{style}\nafter{i}: [keep, {i}]\n"));
    }
    s
}

fn text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("\n".to_string()),
        Just("\"".to_string()),
        Just("'".to_string()),
        Just(": ".to_string()),
        Just(" #".to_string()),
        Just("#".to_string()),
        Just("{{".to_string()),
        Just("}}".to_string()),
        Just("- ".to_string()),
        Just("  ".to_string()),
        Just("\t".to_string()),
        Just("\\".to_string()),
        Just("ñ¿¡ — 💥".to_string()),
        Just("|".to_string()),
        Just(">".to_string()),
        Just("12".to_string()),
        Just("true".to_string()),
        "[a-zA-Z ]{1,12}",
    ];
    proptest::collection::vec(piece, 1..8).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn random_texts_round_trip_in_every_scalar_style(texts in proptest::collection::vec(text(), STYLES.len())) {
        let src = document();
        let root = parse(&src, FileId(0), &Limits::default()).unwrap();
        let locales = vec!["es".to_string(), "en".to_string()];
        // Export: the PO file a translator receives; they fill in every text.
        let entries = inventory(&root, "texts.yaml", &locales);
        prop_assert_eq!(entries.len(), STYLES.len());
        let mut po = to_po("demo", "es", "en", &entries, &BTreeMap::new());
        for (e, t) in entries.iter().zip(&texts) {
            po = set_translation(&po, &e.id, t);
        }
        // Import: read the PO file back and write every translation.
        let back = parse_po(&po).unwrap();
        let edits: Vec<Edit> = back
            .iter()
            .map(|p| Edit {
                path: p.context.split_once('#').unwrap().1.to_string(),
                locale: "en".into(),
                translation: p.translation.clone(),
            })
            .collect();
        for (e, t) in edits.iter().zip(&texts) {
            prop_assert_eq!(&e.translation, t);
        }
        let out = rewrite(&src, &root, &edits).unwrap();
        // Diff: the new file reads back with exactly those values changed.
        let new = parse(&out, FileId(0), &Limits::default()).unwrap();
        for (i, t) in texts.iter().enumerate() {
            let map = node_at(&new, &format!("t{i}"));
            prop_assert_eq!(map.get("en").and_then(Node::as_str), Some(t.as_str()), "t{}:\n{}", i, out);
            prop_assert_eq!(map.get("es").and_then(Node::as_str), node_at(&root, &format!("t{i}")).get("es").and_then(Node::as_str));
            prop_assert_eq!(
                pnpkit::sheet::without_spans(node_at(&new, &format!("after{i}"))),
                pnpkit::sheet::without_spans(node_at(&root, &format!("after{i}")))
            );
        }
        prop_assert!(out.starts_with("# a file of texts\n"));
    }
}
