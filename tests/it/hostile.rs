//! Hostile inputs, as an attacker or an unlucky user would give them: files
//! that never end, pipes, links out of the project, oversized and dense
//! sheets, runaway text templates. Each case must be answered with a located
//! diagnostic, without reading what it must not read and without printing
//! any of a refused file. Children run under a hang guard (a hung command is
//! a failure, not a wait) and an address-space cap, so a regression fails
//! the test instead of taking the machine down.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::root;

/// A secret that must never appear in any output.
const SECRET: &str = "root:x:0:0:SECRET-LINE";

/// Runs pnpkit in `dir` with a 2 GiB address-space cap; kills it and fails
/// when it has not finished after `guard` (a hang, not a slow run: the
/// commands here answer in well under a second).
fn run_guarded(dir: &Path, args: &[&str], guard: Duration) -> Output {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 2097152; exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_pnpkit"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run pnpkit");
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        if start.elapsed() > guard {
            let _ = child.kill();
            let o = child.wait_with_output().unwrap();
            panic!(
                "pnpkit {} did not finish within {guard:?}; output so far:\n{}",
                args.join(" "),
                common::out(&o)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

const GUARD: Duration = Duration::from_secs(60);

/// A project with a copy of the minimal pack as `data/demo`, and a secret file outside it.
struct Project {
    dir: tempfile::TempDir,
    outside: tempfile::TempDir,
}

impl Project {
    fn new() -> Project {
        let dir = tempfile::tempdir().unwrap();
        common::copy_dir(
            &root().join("tests/fixtures/minimal/demo"),
            &dir.path().join("data/demo"),
        );
        common::mark(dir.path());
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(
            outside.path().join("secret.txt"),
            format!("- id: leaked\n  name: {{es: {SECRET}, en: {SECRET}}}\n{SECRET}\n"),
        )
        .unwrap();
        Project { dir, outside }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    fn secret(&self) -> PathBuf {
        self.outside.path().join("secret.txt")
    }

    fn run(&self, args: &[&str]) -> Output {
        run_guarded(self.dir.path(), args, GUARD)
    }
}

fn assert_refused(o: &Output, what: &str) {
    assert_refused_exit(o, what, 1);
}

/// A refused file that is a deck list is an unreadable list: exit 2.
fn assert_refused_exit(o: &Output, what: &str, code: i32) {
    let text = common::out(o);
    assert!(
        !text.contains("SECRET-LINE"),
        "{what}: a refused file's content was printed:\n{text}"
    );
    assert!(text.contains("E031"), "{what}: no file-refused diagnostic:\n{text}");
    assert_eq!(o.status.code(), Some(code), "{what}:\n{text}");
}

#[test]
fn a_pack_file_linked_out_of_the_project_is_not_read() {
    let p = Project::new();
    let card = p.path("data/demo/components/card.yaml");
    std::fs::remove_file(&card).unwrap();
    std::os::unix::fs::symlink(p.secret(), &card).unwrap();
    let o = p.run(&["check"]);
    assert_refused(&o, "symlinked pack file");
    assert!(
        common::out(&o).contains("data/demo/components/card.yaml:1:1"),
        "{}",
        common::out(&o)
    );
}

#[test]
fn a_pack_file_hard_linked_from_outside_is_not_read() {
    let p = Project::new();
    let card = p.path("data/demo/components/card.yaml");
    std::fs::remove_file(&card).unwrap();
    if std::fs::hard_link(p.secret(), &card).is_err() {
        // Two temp dirs on different filesystems: a hard link cannot exist there.
        return;
    }
    assert_refused(&p.run(&["check"]), "hard-linked pack file");
}

#[test]
fn special_files_given_as_a_deck_or_log_are_refused_at_once() {
    let p = Project::new();
    let data = root().join("data");
    let data = data.to_str().unwrap();
    // /dev/zero says it is empty and never ends; reading it filled memory.
    let o = p.run(&["--data", data, "deck", "xterminio", "/dev/zero"]);
    let text = common::out(&o);
    // A list that cannot be read is its own verdict, exit 2 (issue 23).
    assert_eq!(o.status.code(), Some(2), "{text}");
    assert!(text.contains("E031") && text.contains("a character device"), "{text}");
    // A FIFO nobody writes to: opening it blocked for ever.
    let fifo = p.path("game.yaml");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let o = p.run(&["--data", data, "log", "game.yaml"]);
    let text = common::out(&o);
    assert_eq!(o.status.code(), Some(1), "{text}");
    assert!(text.contains("E031") && text.contains("a FIFO"), "{text}");
    assert!(text.contains("game.yaml"), "{text}");
}

#[test]
fn a_logs_deck_path_out_of_the_project_is_not_read() {
    let p = Project::new();
    let log = std::fs::read_to_string(root().join("data/unmatched/logs/sample-duel.yaml")).unwrap();
    let start = log.find("deck: {excalibur-cut").unwrap();
    let end = start + log[start..].find('}').unwrap() + 1;
    let log = format!("{}deck: ana.txt{}", &log[..start], &log[end..]);
    std::fs::create_dir_all(p.path("logs")).unwrap();
    std::fs::write(p.path("logs/duel.yaml"), log).unwrap();
    std::os::unix::fs::symlink(p.secret(), p.path("logs/ana.txt")).unwrap();
    let data = root().join("data");
    let o = p.run(&["--data", data.to_str().unwrap(), "log", "logs/duel.yaml"]);
    assert_refused(&o, "a log's deck file");
    // The same list as a plain file next to the log is read.
    std::fs::remove_file(p.path("logs/ana.txt")).unwrap();
    std::fs::write(p.path("logs/ana.txt"), "3 Excalibur's cut\n").unwrap();
    let o = p.run(&["--data", data.to_str().unwrap(), "log", "logs/duel.yaml"]);
    assert!(!common::out(&o).contains("E031"), "{}", common::out(&o));
}

#[test]
fn a_batch_folders_list_linked_out_of_it_is_not_read() {
    // `deck --batch DIR`: the user named the folder, pnpkit found the lists.
    let p = Project::new();
    // The decklist sheets are laid out with the project's fonts and layouts.
    common::copy_dir(&root().join("fonts"), &p.path("fonts"));
    common::copy_dir(&root().join("templates"), &p.path("templates"));
    std::fs::create_dir_all(p.path("lists")).unwrap();
    std::fs::copy(
        root().join("data/xterminio/decks/resistance-starter.txt"),
        p.path("lists/ana.txt"),
    )
    .unwrap();
    std::os::unix::fs::symlink(p.secret(), p.path("lists/ben.txt")).unwrap();
    let data = root().join("data");
    let o = p.run(&[
        "--data",
        data.to_str().unwrap(),
        "deck",
        "xterminio",
        "--batch",
        "lists",
        "--out",
        "out",
    ]);
    assert_refused_exit(&o, "a batch list linked out of its folder", 2);
    for f in ["verdicts.csv", "verdicts.json"] {
        let written = std::fs::read_to_string(p.path("out").join(f)).unwrap();
        assert!(
            !written.contains("SECRET-LINE"),
            "{f} holds a refused file's content:\n{written}"
        );
    }
}

#[test]
fn a_stats_folders_log_linked_out_of_it_is_not_read() {
    // `stats DIR`: the user named the folder, pnpkit found the logs in it.
    let p = Project::new();
    std::fs::create_dir_all(p.path("logs")).unwrap();
    std::fs::copy(
        root().join("data/unmatched/logs/sample-duel.yaml"),
        p.path("logs/a-duel.yaml"),
    )
    .unwrap();
    std::os::unix::fs::symlink(p.secret(), p.path("logs/b-leak.yaml")).unwrap();
    let data = root().join("data");
    let o = p.run(&["--data", data.to_str().unwrap(), "stats", "logs"]);
    let text = common::out(&o);
    assert!(
        !text.contains("SECRET-LINE"),
        "a refused file's content was printed:\n{text}"
    );
    // stats leaves a log it cannot use out, with the log's first problem (W076).
    assert!(
        text.contains("logs/b-leak.yaml") && text.contains("leads outside the project"),
        "{text}"
    );
}

/// A project root with `fonts/` and `templates/`, and a secret outside it.
fn layout_project() -> (tempfile::TempDir, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("fonts")).unwrap();
    std::fs::create_dir_all(dir.path().join("templates")).unwrap();
    common::mark(dir.path());
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.typ"), format!("{SECRET}\n")).unwrap();
    (dir, outside)
}

fn read_template(root: &Path, vpath: &str) -> Result<Vec<u8>, String> {
    use typst::World;
    let shared = pnpkit::render::world::Shared::new(root, 0).unwrap();
    let world = pnpkit::render::world::DocWorld::new(&shared, String::new(), Vec::new());
    world
        .file(pnpkit::render::world::file_id(vpath))
        .map(|b| b.to_vec())
        .map_err(|e| format!("{e:?}"))
}

#[test]
fn templates_linked_out_of_the_project_are_not_read() {
    let (dir, outside) = layout_project();
    let secret = outside.path().join("secret.typ");
    std::fs::write(dir.path().join("templates/own.typ"), "#let x = 1\n").unwrap();
    assert_eq!(
        read_template(dir.path(), "/templates/own.typ").unwrap(),
        b"#let x = 1\n"
    );
    std::os::unix::fs::symlink(&secret, dir.path().join("templates/soft.typ")).unwrap();
    let e = read_template(dir.path(), "/templates/soft.typ").unwrap_err();
    assert!(!e.contains("SECRET"), "{e}");
    if std::fs::hard_link(&secret, dir.path().join("templates/hard.typ")).is_ok() {
        let r = read_template(dir.path(), "/templates/hard.typ");
        assert!(r.is_err(), "a hard link to a file outside the project was read: {r:?}");
        assert!(r.unwrap_err().contains("hard link"));
    }
}

#[test]
fn fonts_linked_out_of_the_project_are_not_loaded() {
    let (dir, outside) = layout_project();
    let font = std::fs::read_dir(root().join("fonts"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "ttf" || e == "otf"))
        .unwrap();
    let elsewhere = outside.path().join(font.file_name().unwrap());
    std::fs::copy(&font, &elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, dir.path().join("fonts").join(font.file_name().unwrap())).unwrap();
    match pnpkit::render::world::Shared::new(dir.path(), 0) {
        Ok(s) => panic!("a font linked from outside was loaded ({} fonts)", s.font_count()),
        Err(e) => assert!(e.to_string().contains("leads outside the project"), "{e}"),
    }
    // `check` lists the families of `fonts/` to check a pack's fonts: the
    // linked file is refused there too, and named; so is a hard link.
    // Only the built-in families: nothing of the linked file.
    let built_in = pnpkit::fonts::families(&dir.path().join("no-fonts-here")).families;
    let fonts = pnpkit::fonts::families(&dir.path().join("fonts"));
    assert_eq!(fonts.families, built_in, "a font linked from outside was read");
    assert_eq!(fonts.refused.len(), 1, "{:?}", fonts.refused);
    std::fs::remove_file(dir.path().join("fonts").join(font.file_name().unwrap())).unwrap();
    if std::fs::hard_link(&elsewhere, dir.path().join("fonts").join(font.file_name().unwrap())).is_ok() {
        let fonts = pnpkit::fonts::families(&dir.path().join("fonts"));
        assert_eq!(fonts.families, built_in, "a font hard-linked from outside was read");
        assert_eq!(fonts.refused.len(), 1, "{:?}", fonts.refused);
    }
    let p = Project::new();
    common::copy_dir(
        &root().join("tests/fixtures/invalid/unknown-font/demo"),
        &p.path("data/demo"),
    );
    std::fs::create_dir_all(p.path("fonts")).unwrap();
    std::os::unix::fs::symlink(&elsewhere, p.path("fonts").join(font.file_name().unwrap())).unwrap();
    let o = p.run(&["check"]);
    let text = common::out(&o);
    assert!(
        text.contains("E031") && text.contains("leads outside the project"),
        "{text}"
    );
    assert!(
        text.contains(&format!("fonts/{}", font.file_name().unwrap().to_string_lossy())),
        "{text}"
    );
}

#[test]
fn art_linked_out_of_the_project_is_not_read() {
    // An image field's file is embedded in the kit: a hard link to a
    // picture outside the project would print it.
    let p = Project::new();
    common::copy_dir(
        &root().join("tests/fixtures/invalid/low-resolution-art/demo"),
        &p.path("data/demo"),
    );
    let art = p.path("data/demo/art/small.png");
    let elsewhere = p.outside.path().join("private.png");
    std::fs::rename(&art, &elsewhere).unwrap();
    if std::fs::hard_link(&elsewhere, &art).is_err() {
        return; // different filesystems: no hard link possible
    }
    let o = p.run(&["check"]);
    let text = common::out(&o);
    assert!(text.contains("E047") && text.contains("hard link"), "{text}");
    assert!(!text.contains("W049"), "the hard-linked art was read:\n{text}");
    assert_eq!(o.status.code(), Some(1), "{text}");
}

/// A PNG of `w` × `h` transparent pixels: a few hundred KB on disk, `4wh`
/// bytes once decoded.
fn huge_png(path: &Path, w: u32, h: u32) {
    std::fs::write(path, png_declaring(w, h, h)).unwrap();
}

/// A PNG whose header declares `w` × `h` pixels and whose data holds the
/// first `rows` of them (a pixel bomb need not carry its pixels).
fn png_declaring(w: u32, h: u32, rows: u32) -> Vec<u8> {
    common::rgba_png(w, h, rows, [0; 4])
}

#[test]
fn art_of_huge_pixel_size_is_refused_before_it_is_decoded() {
    // 11,000 × 11,000 pixels in under 1 MB: decoding took 484 MB, just under
    // the image decoder's own 512 MiB cap, and `check` said nothing.
    let p = Project::new();
    common::copy_dir(
        &root().join("tests/fixtures/invalid/low-resolution-art/demo"),
        &p.path("data/demo"),
    );
    huge_png(&p.path("data/demo/art/small.png"), 11_000, 11_000);
    let o = p.run(&["check"]);
    let text = common::out(&o);
    assert_eq!(o.status.code(), Some(1), "{text}");
    assert!(text.contains("E047") && text.contains("121 megapixels"), "{text}");
}

/// SVG art that reads outside itself or embeds a pixel bomb, as `check` and
/// `build` see it: both refuse it with E047 naming the link (or the embedded
/// image), neither reads the linked file, and a clean SVG passes both.
#[test]
fn hostile_svg_art_is_refused_alike_by_check_and_build() {
    use base64::Engine;
    let b64 = |bytes: &[u8]| base64::engine::general_purpose::STANDARD.encode(bytes);
    let image = |href: &str| {
        format!(
            "<svg xmlns='http://www.w3.org/2000/svg' width='63' height='88'>\n<rect width='63' height='88' fill='#ccc'/>\n<image href='{href}' width='63' height='88'/>\n</svg>\n"
        )
    };
    let small = png_declaring(8, 8, 8);
    let bomb = png_declaring(100_000, 100_000, 1);
    let p0 = Project::new();
    let secret = p0.secret();
    let fifo = p0.path("fifo");
    let _ = Command::new("mkfifo").arg(&fifo).status();
    let inner = image(&secret.display().to_string());
    let cases: Vec<(&str, String, bool)> = vec![
        ("an absolute path", image(&secret.display().to_string()), false),
        ("a path out of the pack", image("../../../outside/secret.txt"), false),
        ("/etc/hostname", image("/etc/hostname"), false),
        ("/dev/zero", image("/dev/zero"), false),
        ("a FIFO", image(&fifo.display().to_string()), false),
        ("a web address", image("https://example.com/a.png"), false),
        (
            "a 100,000² PNG embedded",
            image(&format!("data:image/png;base64,{}", b64(&bomb))),
            false,
        ),
        (
            "an embedded SVG that links out",
            image(&format!("data:image/svg+xml;base64,{}", b64(inner.as_bytes()))),
            false,
        ),
        (
            "a small PNG embedded",
            image(&format!("data:image/png;base64,{}", b64(&small))),
            true,
        ),
    ];
    for (what, svg, clean) in cases {
        let p = Project::new();
        common::copy_dir(
            &root().join("tests/fixtures/invalid/low-resolution-art/demo"),
            &p.path("data/demo"),
        );
        let card = p.path("data/demo/components/card.yaml");
        let yaml = std::fs::read_to_string(&card)
            .unwrap()
            .replace("art/small.png", "art/hostile.svg");
        std::fs::write(&card, yaml).unwrap();
        std::fs::write(p.path("data/demo/art/hostile.svg"), &svg).unwrap();
        for args in [&["check"][..], &["build", "--paper", "a4", "--locale", "en"][..]] {
            let o = run_guarded(p.dir.path(), args, Duration::from_secs(60));
            let text = common::out(&o);
            assert!(
                !text.contains("SECRET"),
                "{what}, {args:?}: the linked file was read:\n{text}"
            );
            if clean {
                assert!(
                    !text.contains("E047") && !text.contains("E019"),
                    "{what}, {args:?}:\n{text}"
                );
            } else {
                assert_eq!(o.status.code(), Some(1), "{what}, {args:?}:\n{text}");
                assert!(
                    text.contains("E047") && text.contains("art/hostile.svg") && !text.contains("E019"),
                    "{what}, {args:?}: not refused as bad art:\n{text}"
                );
            }
        }
    }
}

#[test]
fn a_long_glossary_word_does_not_stall_the_commands_that_check() {
    // Every command that checks a pack searches its texts for the glossary's
    // words. A word of 32,000 repeated letters took `check` 62 s (the search
    // automaton's build was quadratic in the word); at 320,000 letters that
    // is hours, so the hang guard fails it. Now 0.2 s.
    let p = Project::new();
    let word = "a".repeat(320_000);
    let glossary = p.path("data/demo/glossary.yaml");
    let mut text = std::fs::read_to_string(&glossary).unwrap();
    text.push_str(&format!("- id: long\n  es: {word}\n  en: {word}\n"));
    std::fs::write(&glossary, text).unwrap();
    let o = run_guarded(p.dir.path(), &["check"], GUARD);
    assert_eq!(o.status.code(), Some(0), "{}", common::out(&o));
}

#[test]
fn a_game_yaml_without_locales_is_reported_not_a_panic() {
    // Found by the pack_yaml fuzz target: with `locales` unreadable, the
    // kit-count message indexed the first locale of an empty list.
    let p = Project::new();
    let game = p.path("data/demo/game.yaml");
    let text = std::fs::read_to_string(&game).unwrap();
    let text = text
        .lines()
        .filter(|l| !l.starts_with("locales:"))
        .collect::<Vec<_>>()
        .join("\n")
        .replace("count: 4", "count: 5");
    std::fs::write(&game, text).unwrap();
    let o = p.run(&["check"]);
    let report = common::out(&o);
    assert_eq!(o.status.code(), Some(1), "{report}");
    assert!(report.contains("E006") && report.contains("locales"), "{report}");
}

#[test]
fn yaml_limits_are_the_documented_ones_in_plain_words() {
    use pnpkit::diag::{Code, FileId};
    use pnpkit::pack::yaml::{Limits, parse};
    // docs/reliability.md promises 2,000,000 nodes; the reader stopped at
    // 1,000,000 parser events, which 600,000 empty lists (two events each) exceed.
    let lists = format!("[{}[]]", "[],".repeat(599_999));
    let limits = Limits::default();
    assert!(
        parse(&lists, FileId(0), &limits).is_ok(),
        "600,000 nodes are within the limit"
    );
    // Over the limit, the message says which limit in words, not a parser value.
    let small = Limits {
        max_nodes: 1_000,
        ..Limits::default()
    };
    let d = parse(&format!("[{}1]", "1,".repeat(1_000)), FileId(0), &small).unwrap_err();
    assert_eq!(d.code, Code::YamlLimit);
    let label = d.label.clone().unwrap_or_default();
    assert!(!label.contains('{'), "a raw parser value in the message: {label}");
    assert!(label.contains("more than 1,000 YAML nodes"), "{label}");
}

// ---------------------------------------------------------------- sheets

/// A project with a copy of the Open Wars pack, for `import openwars spell`.
fn openwars_project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    common::copy_dir(&root().join("data/openwars"), &dir.path().join("data/openwars"));
    common::mark(dir.path());
    dir
}

fn zip_file(path: &Path, parts: &[(&str, String)]) {
    use std::io::Write;
    let mut z = zip::ZipWriter::new(std::fs::File::create(path).unwrap());
    let opts = zip::write::SimpleFileOptions::default();
    for (name, body) in parts {
        z.start_file(*name, opts).unwrap();
        z.write_all(body.as_bytes()).unwrap();
    }
    z.finish().unwrap();
}

/// An XLSX workbook with one sheet `spell` whose worksheet XML holds `cells`.
fn xlsx_with(path: &Path, cells: &str) {
    zip_file(
        path,
        &[
            ("[Content_Types].xml", r#"<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>"#.into()),
            ("_rels/.rels", r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>"#.into()),
            ("xl/workbook.xml", r#"<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="spell" sheetId="1" r:id="rId1"/></sheets></workbook>"#.into()),
            ("xl/_rels/workbook.xml.rels", r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>"#.into()),
            ("xl/worksheets/sheet1.xml", format!(r#"<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>{cells}</sheetData></worksheet>"#)),
        ],
    );
}

/// An ODS workbook with one table `spell` holding `rows` (content.xml markup).
fn ods_with(path: &Path, rows: &str) {
    zip_file(
        path,
        &[
            ("mimetype", "application/vnd.oasis.opendocument.spreadsheet".into()),
            ("META-INF/manifest.xml", r#"<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>"#.into()),
            ("content.xml", format!(r#"<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2"><office:body><office:spreadsheet><table:table table:name="spell">{rows}</table:table></office:spreadsheet></office:body></office:document-content>"#)),
        ],
    );
}

fn import(dir: &Path, file: &str) -> (Output, String) {
    let o = run_guarded(dir, &["import", "openwars", "spell", file, "--check"], GUARD);
    let text = common::out(&o);
    (o, text)
}

#[test]
fn a_sparse_xlsx_is_refused_by_its_far_cell() {
    // 1.5 KB: cells at A1 and XFD1048576. Its dense range is 17 billion cells
    // ("memory allocation of 549755813888 bytes failed", no message).
    let dir = openwars_project();
    let file = dir.path().join("far.xlsx");
    xlsx_with(
        &file,
        r#"<row r="1"><c r="A1" t="inlineStr"><is><t>id</t></is></c></row><row r="1048576"><c r="XFD1048576" t="inlineStr"><is><t>x</t></is></c></row>"#,
    );
    assert!(std::fs::metadata(&file).unwrap().len() < 2048);
    let (o, text) = import(dir.path(), "far.xlsx");
    assert_eq!(o.status.code(), Some(1), "{text}");
    assert!(text.contains("E032") && text.contains("cell XFD1048576"), "{text}");
}

#[test]
fn an_ods_that_repeats_a_cell_everywhere_is_refused() {
    let dir = openwars_project();
    // One filled cell repeated over every column of a million rows.
    let file = dir.path().join("repeat.ods");
    ods_with(
        &file,
        r#"<table:table-row table:number-rows-repeated="1048576"><table:table-cell table:number-columns-repeated="16384" office:value-type="string"><text:p>x</text:p></table:table-cell></table:table-row>"#,
    );
    let (o, text) = import(dir.path(), "repeat.ods");
    assert_eq!(o.status.code(), Some(1), "{text}");
    assert!(text.contains("E032"), "{text}");
    // A billion spaces in one cell (`<text:s text:c="…"/>`).
    ods_with(
        &file,
        r#"<table:table-row><table:table-cell office:value-type="string"><text:p>id<text:s text:c="1000000000"/></text:p></table:table-cell></table:table-row>"#,
    );
    let (o, text) = import(dir.path(), "repeat.ods");
    assert_eq!(o.status.code(), Some(1), "{text}");
    assert!(text.contains("E032") && text.contains("cell A1"), "{text}");
}

#[test]
fn a_workbook_that_unzips_to_too_much_is_refused() {
    let dir = openwars_project();
    let file = dir.path().join("bomb.xlsx");
    // 200 MiB of spaces inside the sheet: a few hundred KB zipped.
    xlsx_with(&file, &" ".repeat(200 * 1024 * 1024));
    let (o, text) = import(dir.path(), "bomb.xlsx");
    assert_eq!(o.status.code(), Some(1), "{text}");
    assert!(text.contains("E032") && text.contains("unzips to too much"), "{text}");
}

#[test]
fn oversized_and_overlong_csv_sheets_are_refused() {
    let dir = openwars_project();
    // Larger than the sheet limit: refused before it is parsed.
    let big = dir.path().join("big.csv");
    let line = format!("{}\n", "x,".repeat(50));
    std::fs::write(&big, line.repeat(33 * 1024 * 1024 / line.len() + 1)).unwrap();
    let (o, text) = import(dir.path(), "big.csv");
    assert_eq!(o.status.code(), Some(1), "{text}");
    assert!(text.contains("E003"), "{text}");
    // More rows than a sheet may have: refused at the first row beyond.
    let long = dir.path().join("long.csv");
    let mut csv = String::from("id,name.es,name.en\n");
    for i in 0..100_000 {
        csv.push_str(&format!("s{i},a,b\n"));
    }
    std::fs::write(&long, csv).unwrap();
    let (o, text) = import(dir.path(), "long.csv");
    assert_eq!(o.status.code(), Some(1), "{text}");
    assert!(text.contains("E032") && text.contains("cell A100001"), "{text}");
    // A FIFO given as the sheet.
    assert!(
        Command::new("mkfifo")
            .arg(dir.path().join("pipe.csv"))
            .status()
            .unwrap()
            .success()
    );
    let (o, text) = import(dir.path(), "pipe.csv");
    assert_eq!(o.status.code(), Some(1), "{text}");
    assert!(text.contains("E031") && text.contains("FIFO"), "{text}");
}

// ---------------------------------------------------------------- text templates

fn check_with_card_text(en: &str) -> (Output, String) {
    let p = Project::new();
    let card = p.path("data/demo/components/card.yaml");
    let text = std::fs::read_to_string(&card).unwrap();
    let text = text.replace(
        "en: \"If you win with {{ power }} or more, draw a card.\"",
        &format!("en: '{en}'"),
    );
    std::fs::write(&card, text).unwrap();
    let o = p.run(&["check"]);
    let out = common::out(&o);
    (o, out)
}

#[test]
fn runaway_text_templates_are_stopped_with_a_located_error() {
    // Nested loops over 100,000 × 100,000 steps: ran on and on, past 1 GB.
    let (o, out) = check_with_card_text(
        "{% for i in range(end=100000) %}{% for j in range(end=100000) %}{{ i }}{% endfor %}{% endfor %}",
    );
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("E021") && out.contains("card.yaml:7:"), "{out}");
    assert!(out.contains("range"), "{out}");
    // Doubling a string with `set_global`: aborted at 6 GB.
    let (o, out) = check_with_card_text(
        "{% set_global s = \"x\" %}{% for i in range(end=60) %}{% set_global s = s ~ s %}{% endfor %}{{ s }}",
    );
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("E021") && out.contains("set_global"), "{out}");
    // Within the range limit, loops still cannot run away.
    let (o, out) =
        check_with_card_text("{% for i in range(end=10000) %}{% for j in range(end=10000) %}{% endfor %}{% endfor %}");
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("more than 10000 steps"), "{out}");
}

// ---------------------------------------------------------------- messages

#[test]
fn oversized_decks_logs_and_po_files_are_refused_with_their_own_help() {
    let p = Project::new();
    let data = root().join("data");
    let data = data.to_str().unwrap();
    let big = "# a comment line of the file\n".repeat(17 * 1024 * 1024 / 29 + 1);
    std::fs::write(p.path("deck.txt"), &big).unwrap();
    let o = p.run(&["--data", data, "deck", "xterminio", "deck.txt"]);
    let text = common::out(&o);
    assert_eq!(o.status.code(), Some(2), "{text}");
    assert!(
        text.contains("E003") && text.contains("a deck list is too large"),
        "{text}"
    );
    assert!(!text.contains("components"), "the help speaks of pack files: {text}");
    std::fs::write(p.path("game.yaml"), &big).unwrap();
    let o = p.run(&["--data", data, "log", "game.yaml"]);
    let text = common::out(&o);
    assert_eq!(o.status.code(), Some(1), "{text}");
    assert!(
        text.contains("E003") && text.contains("a game log is too large") && !text.contains("components"),
        "{text}"
    );
    // A PO file: there was no limit at all.
    let po = p.path("po/demo/i18n/en.po");
    std::fs::create_dir_all(po.parent().unwrap()).unwrap();
    std::fs::write(&po, &big).unwrap();
    let o = p.run(&["i18n", "import", "--out", "po"]);
    let text = common::out(&o);
    assert_eq!(o.status.code(), Some(1), "{text}");
    assert!(
        text.contains("E003") && text.contains("a PO file is too large"),
        "{text}"
    );
}

#[test]
fn build_messages_name_real_files_and_real_options() {
    use pnpkit::render::{DocPlan, KitOptions, Part, compile, plan_pieces};
    let report = pnpkit::check::check(&root().join("tests/fixtures/minimal"), &[], &Default::default()).unwrap();
    let game = &report.games[0];
    let pieces = plan_pieces(game, "en", &KitOptions::default(), "/templates/shared/generic.typ");
    for c in &pieces.chunks {
        let name = c.out.file_name().unwrap().to_string_lossy().into_owned();
        assert!(name.ends_with(".pdf") && !name.ends_with(".pdf.pdf"), "{name}");
    }
    // A layout that reads outside the project: the hint must not name typst's `--root`.
    let shared = pnpkit::render::world::Shared::new(root(), 0).unwrap();
    let plan = DocPlan {
        game: "demo".into(),
        locale: "en".into(),
        paper: None,
        part: Part::Cover,
        out: "demo/en/x.pdf".into(),
        main: "#read(\"../../outside.txt\")\n".into(),
        data: serde_json::json!({}),
        pages: 1,
        assets: Default::default(),
    };
    let mut sources = pnpkit::diag::SourceMap::default();
    let Err(diags) = compile(&shared, &plan, &[], &mut sources, None) else {
        panic!("a read outside the project compiled")
    };
    let text = pnpkit::diag::render_human(&diags, &sources, false);
    assert!(!text.contains("--root"), "{text}");
    assert!(text.contains("inside the project folder"), "{text}");
}

#[test]
fn yaml_written_from_any_sheet_parses() {
    // Found by the smoke fuzz test: a header cell over 1024 characters became
    // an implicit key, and a control character in a `#` cell went raw into a
    // comment; either way `import` wrote YAML that does not parse.
    use pnpkit::diag::FileId;
    use pnpkit::pack::yaml::{Limits, parse};
    use pnpkit::sheet::{Entry, FileData, write_yaml};
    let game = common::game("openwars");
    let kind = &game.kinds["spell"];
    let long = "k".repeat(1500);
    let node = parse(&format!("id: x\n? {long}\n: 1\n"), FileId(0), &Limits::default()).unwrap();
    let file = FileData {
        name: None,
        entries: vec![Entry {
            comments: vec!["a\u{e}b\rc".into()],
            node,
            row: None,
        }],
    };
    let written = write_yaml(kind, &game.locales, &file, &[]);
    let back = parse(&written.text, FileId(0), &Limits::default());
    assert!(back.is_ok(), "{:?}\n{}", back.err(), written.text);
    let back = back.unwrap();
    assert_eq!(
        back.as_seq().unwrap()[0].get(&long).map(|n| n.value.clone()),
        Some(pnpkit::pack::yaml::Value::Int(1))
    );
}

// ---------------------------------------------------------------- measurements

/// Not a test: measures every hostile case of issue 15 with the binary this
/// test is built with (`cargo test --release --test hostile -- --ignored
/// measure --nocapture`) and prints the table of docs/reliability.md:
/// exit code, seconds and peak memory (`/usr/bin/time`).
#[test]
#[ignore = "a measurement for docs/reliability.md, run by hand in release mode"]
fn measure_every_hostile_case() {
    let p = Project::new();
    let dir = p.dir.path();
    let data = root().join("data");
    let data = data.to_str().unwrap();
    common::copy_dir(&root().join("data/openwars"), &dir.join("ow/openwars"));
    let write = |name: &str, bytes: &[u8]| std::fs::write(dir.join(name), bytes).unwrap();
    // Sheets.
    xlsx_with(
        &dir.join("far.xlsx"),
        r#"<row r="1"><c r="A1" t="inlineStr"><is><t>id</t></is></c></row><row r="1048576"><c r="XFD1048576" t="inlineStr"><is><t>x</t></is></c></row>"#,
    );
    let row = "call-of-the-jaguar,Llamado del Jaguar,Call of the Jaguar,,amazons,instant,3,a,b,,\n";
    write("big.csv", row.repeat(100 * 1024 * 1024 / row.len()).as_bytes());
    let mut csv = String::from("id,name.es,name.en\n");
    for i in 0..1_000_000 {
        csv.push_str(&format!("s{i},a,b\n"));
    }
    write("rows.csv", csv.as_bytes());
    ods_with(
        &dir.join("repeat.ods"),
        r#"<table:table-row table:number-rows-repeated="1048576"><table:table-cell table:number-columns-repeated="16384" office:value-type="string"><text:p>x</text:p></table:table-cell></table:table-row>"#,
    );
    ods_with(
        &dir.join("spaces.ods"),
        r#"<table:table-row><table:table-cell office:value-type="string"><text:p>id<text:s text:c="1000000000"/></text:p></table:table-cell></table:table-row>"#,
    );
    xlsx_with(&dir.join("bomb.xlsx"), &" ".repeat(200 * 1024 * 1024));
    Command::new("mkfifo").arg(dir.join("fifo.yaml")).status().unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.join("zero.csv")).unwrap();
    // 20,000 diagnostics in one file.
    let mut cards = String::new();
    for i in 0..20_000 {
        cards.push_str(&format!(
            "- id: c{i}\n  name: {{es: C, en: C}}\n  house: sun\n  power: 12\n  kind: attack\n"
        ));
    }
    common::copy_dir(&root().join("tests/fixtures/minimal/demo"), &dir.join("diags/demo"));
    std::fs::write(dir.join("diags/demo/components/card.yaml"), cards).unwrap();
    // A 10-million-character deck line; a deck of 1,000,000 lines is the deck reader's own case.
    write("long-line.txt", format!("1 {}\n", "x".repeat(10_000_000)).as_bytes());
    // Text templates.
    let with_text = |name: &str, en: &str| {
        common::copy_dir(
            &root().join("tests/fixtures/minimal/demo"),
            &dir.join(name).join("demo"),
        );
        let card = dir.join(name).join("demo/components/card.yaml");
        let t = std::fs::read_to_string(&card).unwrap();
        std::fs::write(
            &card,
            t.replace(
                "en: \"If you win with {{ power }} or more, draw a card.\"",
                &format!("en: '{en}'"),
            ),
        )
        .unwrap();
    };
    with_text(
        "loops",
        "{% for i in range(end=100000) %}{% for j in range(end=100000) %}{{ i }}{% endfor %}{% endfor %}",
    );
    with_text(
        "doubling",
        "{% set_global s = \"x\" %}{% for i in range(end=60) %}{% set_global s = s ~ s %}{% endfor %}{{ s }}",
    );
    // A pack file linked to /etc/passwd.
    common::copy_dir(&root().join("tests/fixtures/minimal/demo"), &dir.join("passwd/demo"));
    std::fs::remove_file(dir.join("passwd/demo/components/card.yaml")).unwrap();
    std::os::unix::fs::symlink("/etc/passwd", dir.join("passwd/demo/components/card.yaml")).unwrap();
    // A PO file of 100 MB, for a clean pack.
    common::copy_dir(&root().join("tests/fixtures/minimal/demo"), &dir.join("po-data/demo"));
    std::fs::create_dir_all(dir.join("po/demo/i18n")).unwrap();
    write(
        "po/demo/i18n/en.po",
        "# a comment line of the file\n"
            .repeat(100 * 1024 * 1024 / 29)
            .as_bytes(),
    );
    let cases: &[(&str, &[&str])] = &[
        (
            "XLSX, cells A1 and XFD1048576 (1.5 KB)",
            &["--data", "ow", "import", "openwars", "spell", "far.xlsx", "--check"],
        ),
        (
            "CSV of 100 MB",
            &["--data", "ow", "import", "openwars", "spell", "big.csv", "--check"],
        ),
        (
            "CSV of 1,000,000 rows",
            &["--data", "ow", "import", "openwars", "spell", "rows.csv", "--check"],
        ),
        (
            "ODS, one cell repeated over 16,384 columns × 1,048,576 rows",
            &["--data", "ow", "import", "openwars", "spell", "repeat.ods", "--check"],
        ),
        (
            "ODS, `<text:s text:c=\"1000000000\"/>`",
            &["--data", "ow", "import", "openwars", "spell", "spaces.ods", "--check"],
        ),
        (
            "XLSX that unzips to 200 MiB",
            &["--data", "ow", "import", "openwars", "spell", "bomb.xlsx", "--check"],
        ),
        (
            "`/dev/zero` as a deck",
            &["--data", data, "deck", "xterminio", "/dev/zero"],
        ),
        ("`/dev/zero` as a log", &["--data", data, "log", "/dev/zero"]),
        (
            "`/dev/zero` as a sheet (`zero.csv`, a link to it)",
            &["--data", "ow", "import", "openwars", "spell", "zero.csv"],
        ),
        ("a FIFO as a log", &["--data", data, "log", "fifo.yaml"]),
        (
            "20,000 diagnostics in one file, human format",
            &["--data", "diags", "check"],
        ),
        (
            "20,000 diagnostics in one file, JSON",
            &["--data", "diags", "check", "--format", "json"],
        ),
        (
            "a deck line of 10,000,000 characters (\"did you mean\")",
            &["--data", data, "deck", "xterminio", "long-line.txt"],
        ),
        ("nested `range` loops in a card text", &["--data", "loops", "check"]),
        ("`set_global` doubling in a card text", &["--data", "doubling", "check"]),
        ("a pack file linked to /etc/passwd", &["--data", "passwd", "check"]),
        (
            "a PO file of 100 MB",
            &["--data", "po-data", "i18n", "import", "--out", "po"],
        ),
    ];
    println!("| case | exit | time | peak memory |\n|---|---|---|---|");
    for (what, args) in cases {
        println!("{}", measured_row(dir, what, args));
    }
}

/// Runs the binary under `/usr/bin/time` and formats one table row: exit
/// code with the first error code, seconds and peak memory.
fn measured_row(dir: &Path, what: &str, args: &[&str]) -> String {
    let o = Command::new("/usr/bin/time")
        .args(["-f", "TIME %e %M"])
        .arg(env!("CARGO_BIN_EXE_pnpkit"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    let line = err.lines().rev().find(|l| l.starts_with("TIME ")).unwrap_or("TIME ? 0");
    let parts: Vec<&str> = line.split_whitespace().collect();
    let kb: f64 = parts[2].parse().unwrap_or(0.0);
    let stdout = String::from_utf8_lossy(&o.stdout);
    let code = stdout
        .lines()
        .find(|l| l.contains("error[E"))
        .unwrap_or("")
        .chars()
        .take(60)
        .collect::<String>();
    format!(
        "| {what} | {} `{}` | {} s | {:.0} MB |",
        o.status.code().map_or("killed".into(), |c| c.to_string()),
        code.trim(),
        parts[1],
        kb / 1024.0
    )
}

/// Not a test: `pnpkit log` on the longest random game each engine plays
/// within 200,000 actions (the log path belongs to the rules engines; this
/// measures it for docs/reliability.md). Run like the measurement above.
#[test]
#[ignore = "a measurement for docs/reliability.md, run by hand in release mode"]
fn measure_long_logs() {
    let dir = tempfile::tempdir().unwrap();
    let data = root().join("data");
    let data = data.to_str().unwrap();
    println!("| case | exit | time | peak memory |\n|---|---|---|---|");
    for game in common::shipped() {
        let Some(engine) = pnpkit::rules::engine_for(game) else {
            continue;
        };
        let engine = engine.unwrap();
        let (mut best, mut actions) = (String::new(), 0);
        for seed in 0..20 {
            let text = engine.random_log(seed, 200_000);
            let log = pnpkit::rules::random::parse_log(&text).unwrap();
            let n: usize = log
                .turns
                .iter()
                .map(|t| {
                    t.items
                        .iter()
                        .filter(|i| matches!(i, pnpkit::rules::log::Item::Action(_)))
                        .count()
                })
                .sum();
            if n > actions {
                (best, actions) = (text, n);
            }
            if n >= 200_000 {
                break;
            }
        }
        let file = format!("{}.yaml", game.id);
        std::fs::write(dir.path().join(&file), &best).unwrap();
        let what = format!(
            "a generated {} log of {actions} actions ({:.1} MB)",
            game.id,
            best.len() as f64 / 1e6
        );
        println!("{}", measured_row(dir.path(), &what, &["--data", data, "log", &file]));
        // 200,000 actions in the block style players write, the game's turns
        // over and over (the replay stops at the first action the state no
        // longer allows; every action is read first).
        let v: serde_json::Value = serde_json::from_str(&best).unwrap();
        let mut yaml = String::new();
        for (k, val) in v.as_object().unwrap() {
            if k != "turns" && k != "result" {
                yaml.push_str(&format!("{k}: {val}\n"));
            }
        }
        yaml.push_str("turns:\n");
        let turns = v["turns"].as_array().unwrap();
        let mut n = 0;
        'fill: loop {
            for t in turns {
                yaml.push_str(&format!("  - player: {}\n    actions:\n", t["player"]));
                for a in t["actions"].as_array().unwrap() {
                    yaml.push_str(&format!("      - {a}\n"));
                    n += 1;
                }
                if n >= 200_000 {
                    break 'fill;
                }
            }
        }
        let file = format!("{}-200k.yaml", game.id);
        std::fs::write(dir.path().join(&file), &yaml).unwrap();
        let what = format!(
            "a {} log of {n} actions, its turns repeated ({:.1} MB)",
            game.id,
            yaml.len() as f64 / 1e6
        );
        println!("{}", measured_row(dir.path(), &what, &["--data", data, "log", &file]));
    }
}

#[test]
fn names_with_control_characters_are_refused_where_they_are_written() {
    let dir = tempfile::tempdir().unwrap();
    // A text list with the raw character is no text list at all (E090, exit
    // 2, tests/it/pasted.rs); in a YAML list an escape in quotes makes one,
    // and the player would set the terminal's title.
    let list = std::fs::read_to_string(root().join("tests/fixtures/decks/batch/eva.yaml")).unwrap();
    let list = list.replacen("player: Eva", "player: \"Eva\\e]0;pwned\\a\"", 1);
    assert!(list.contains("\\e]0"), "the fixture's player line changed");
    std::fs::write(dir.path().join("list.yaml"), &list).unwrap();
    let o = common::pnpkit_in(dir.path(), &["deck", "unmatched", "list.yaml", "--color", "never"]);
    let text = common::out(&o);
    assert_eq!(o.status.code(), Some(1), "{text}");
    assert!(text.contains("`player` holds a control character (\\u{1b})"), "{text}");
    assert!(text.contains("list.yaml:1:"), "not located at the player line: {text}");
    assert!(!text.contains('\u{1b}'), "the escape reached the terminal: {text:?}");
    // A game log whose player's name holds one.
    let log = std::fs::read_to_string(root().join("data/unmatched/logs/sample-duel.yaml")).unwrap();
    let log = log.replacen("  - name: Ana ", "  - name: \"Ana\\e[2J\" ", 1);
    assert!(log.contains("\\e[2J"), "the sample log's first player changed");
    std::fs::write(dir.path().join("duel.yaml"), &log).unwrap();
    let o = common::pnpkit_in(dir.path(), &["log", "duel.yaml", "--color", "never"]);
    let text = common::out(&o);
    assert_eq!(o.status.code(), Some(1), "{text}");
    assert!(
        text.contains("a player's name holds a control character (\\u{1b})"),
        "{text}"
    );
    assert!(text.contains("duel.yaml:10:"), "not located at the name: {text}");
    assert!(!text.contains('\u{1b}'), "the escape reached the terminal: {text:?}");
}
