//! Deterministic mutation smoke test, part of every `cargo test`: a few
//! thousand mutated inputs per format (pack YAML, deck lists, game logs,
//! sheets, PO files) from a fixed seed, each seeded from the shipped data.
//! For every input: no panic; every failure comes with a diagnostic that
//! is located and renders; and the work is bounded, counted in allocations
//! (calls and bytes, all threads) against the input's size, never timed.
//! The coverage-guided fuzzers in `fuzz/` (docs/reliability.md) go deeper.

use crate::common;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::common::mutate::mutate;
use crate::common::root;
use pnpkit::diag::{Diagnostic, FileId, SourceMap, render_human, to_json};
use pnpkit::pack::yaml::{Limits, parse};

/// The fixed seed: the same inputs on every run and machine.
const SEED: u64 = 0x5eed_1500;

/// Work counting covers every thread, so the formats run one at a time.
static SERIAL: Mutex<()> = Mutex::new(());

thread_local! {
    static PEAK: std::cell::RefCell<Peak> = std::cell::RefCell::new(Peak::default());
}

/// Per input: at most this many allocation calls and bytes per input byte,
/// plus a fixed allowance. Measured peaks are far below (docs/reliability.md);
/// a path that turned quadratic in the input would cross them.
struct Budget {
    calls_per_byte: u64,
    bytes_per_byte: u64,
    fixed_calls: u64,
    fixed_bytes: u64,
}

/// The most work one input of a format cost (printed with `--nocapture`,
/// recorded in docs/reliability.md).
#[derive(Default)]
struct Peak {
    inputs: usize,
    calls: u64,
    bytes: u64,
    largest: usize,
}

impl Drop for Peak {
    fn drop(&mut self) {
        eprintln!(
            "{} inputs (largest {} bytes): at most {} allocations and {} bytes allocated for one input",
            self.inputs, self.largest, self.calls, self.bytes
        );
    }
}

impl Budget {
    fn check(&self, what: &str, input: &[u8], work: crate::common::alloc::Work) {
        PEAK.with(|p| {
            let mut p = p.borrow_mut();
            p.inputs += 1;
            p.calls = p.calls.max(work.calls);
            p.bytes = p.bytes.max(work.bytes);
            p.largest = p.largest.max(input.len());
        });
        let n = input.len() as u64;
        let (calls, bytes) = (
            self.fixed_calls + self.calls_per_byte * n,
            self.fixed_bytes + self.bytes_per_byte * n,
        );
        assert!(
            work.calls <= calls && work.bytes <= bytes,
            "{what}: {} bytes of input cost {} allocations and {} bytes (bound {calls} and {bytes}):\n{}",
            n,
            work.calls,
            work.bytes,
            String::from_utf8_lossy(&input[..input.len().min(2000)])
        );
    }
}

/// Every diagnostic is located (a span inside its file, or a file named)
/// and renders in both formats.
fn assert_reported(what: &str, diags: &[Diagnostic], sources: &SourceMap) {
    for d in diags {
        match d.span {
            Some(s) => {
                let text = &sources.get(s.file).text;
                assert!(
                    s.start <= s.end
                        && s.end <= text.len()
                        && text.is_char_boundary(s.start)
                        && text.is_char_boundary(s.end),
                    "{what}: {:?} has a span outside its file: {s:?}",
                    d.message
                );
            }
            None => assert!(d.file.is_some(), "{what}: {:?} has no location", d.message),
        }
        let _ = to_json(d, sources);
    }
    let _ = render_human(diags, sources, false);
}

/// Runs `f` on `input`, failing on a panic.
fn no_panic<T>(what: &str, input: &[u8], f: impl FnOnce() -> T) -> T {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(v) => v,
        Err(e) => {
            let msg = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            panic!(
                "{what}: panicked ({msg}) on input:\n{}",
                String::from_utf8_lossy(&input[..input.len().min(4000)])
            )
        }
    }
}

fn files_with(dir: &Path, exts: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(rd) = std::fs::read_dir(dir) else { return out };
    let mut entries: Vec<_> = rd.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            out.extend(files_with(&p, exts));
        } else if p.extension().is_some_and(|e| exts.iter().any(|x| e == *x)) {
            out.push(p);
        }
    }
    out
}

fn text(bytes: &[u8]) -> Arc<str> {
    Arc::from(String::from_utf8_lossy(bytes).as_ref())
}

#[test]
fn mutated_yaml_parses_or_is_reported() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let seeds = files_with(&root().join("data"), &["yaml"]);
    let mut rng = fastrand::Rng::with_seed(SEED);
    let budget = Budget {
        calls_per_byte: 40,
        bytes_per_byte: 2_000,
        fixed_calls: 20_000,
        fixed_bytes: 8 << 20,
    };
    for i in 0..3000 {
        let seed = std::fs::read(&seeds[i % seeds.len()]).unwrap();
        let input = mutate(&mut rng, &seed, crate::common::mutate::YAML_TOKENS);
        let mut sources = SourceMap::default();
        let file = sources.add("input.yaml".into(), text(&input));
        let src = sources.get(file).text.clone();
        let (result, work) =
            crate::common::alloc::measure_all(|| no_panic("yaml", &input, || parse(&src, file, &Limits::default())));
        budget.check("yaml", &input, work);
        if let Err(d) = result {
            assert_reported("yaml", &[*d], &sources);
        }
    }
}

#[test]
fn mutated_packs_check_or_are_reported() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let pack = dir.path().join("demo");
    common::copy_dir(&root().join("tests/fixtures/minimal/demo"), &pack);
    let seeds: Vec<PathBuf> = files_with(&pack, &["yaml"]);
    let originals: Vec<Vec<u8>> = seeds.iter().map(|p| std::fs::read(p).unwrap()).collect();
    let mut rng = fastrand::Rng::with_seed(SEED + 1);
    let budget = Budget {
        calls_per_byte: 400,
        bytes_per_byte: 40_000,
        fixed_calls: 400_000,
        fixed_bytes: 64 << 20,
    };
    for i in 0..1000 {
        let k = i % seeds.len();
        let input = mutate(&mut rng, &originals[k], crate::common::mutate::YAML_TOKENS);
        std::fs::write(&seeds[k], &input).unwrap();
        let (report, work) = crate::common::alloc::measure_all(|| {
            no_panic("pack", &input, || {
                pnpkit::check::check(dir.path(), &[], &Limits::default())
            })
        });
        let size: usize = originals.iter().map(Vec::len).sum::<usize>() + input.len();
        budget.check("pack", &vec![0; size], work);
        let report = report.unwrap_or_else(|e| panic!("pack: a mutated file is fatal: {e}"));
        if report.games.is_empty() || report.has_errors() {
            assert!(
                !report.diagnostics.items.is_empty(),
                "pack: refused without a diagnostic"
            );
        }
        assert_reported("pack", &report.diagnostics.items, &report.sources);
        std::fs::write(&seeds[k], &originals[k]).unwrap();
    }
}

#[test]
fn mutated_deck_lists_validate_or_are_reported() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let games = common::shipped();
    let mut seeds: Vec<(PathBuf, &pnpkit::model::Game)> = Vec::new();
    for g in games {
        for p in files_with(&root().join("data").join(&g.id).join("decks"), &["txt", "yaml"]) {
            seeds.push((p, g));
        }
        for p in files_with(&root().join("tests/fixtures/decks").join(&g.id), &["txt", "yaml"]) {
            seeds.push((p, g));
        }
    }
    assert!(seeds.len() > 10);
    let mut rng = fastrand::Rng::with_seed(SEED + 2);
    let budget = Budget {
        calls_per_byte: 60,
        bytes_per_byte: 4_000,
        fixed_calls: 50_000,
        fixed_bytes: 16 << 20,
    };
    for i in 0..2000 {
        let (path, game) = &seeds[i % seeds.len()];
        if game.construction.is_none() {
            continue;
        }
        let yaml = path.extension().is_some_and(|e| e == "yaml");
        let tokens = if yaml {
            crate::common::mutate::YAML_TOKENS
        } else {
            crate::common::mutate::DECK_TOKENS
        };
        let input = mutate(&mut rng, &std::fs::read(path).unwrap(), tokens);
        let mut sources = SourceMap::default();
        let file = sources.add(path.clone(), text(&input));
        let src = sources.get(file).text.clone();
        let (report, work) = crate::common::alloc::measure_all(|| {
            no_panic("deck", &input, || {
                pnpkit::deck::check_list(game, path, file, &src, &Default::default()).expect("construction rules")
            })
        });
        budget.check("deck", &input, work);
        if !report.is_legal() {
            assert!(!report.diagnostics.is_empty(), "deck: illegal without a diagnostic");
        }
        let diags = report.diagnostics;
        assert_reported("deck", &diags, &sources);
    }
}

#[test]
fn mutated_logs_replay_or_are_reported() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let games = common::shipped();
    let mut seeds = files_with(&root().join("tests/fixtures/logs"), &["yaml"]);
    for g in games {
        seeds.extend(files_with(&root().join("data").join(&g.id).join("logs"), &["yaml"]));
    }
    // Few enough that each seed is mutated a few times.
    let seeds: Vec<PathBuf> = seeds.into_iter().step_by(3).collect();
    let engines: Vec<_> = games
        .iter()
        .filter_map(|g| pnpkit::rules::engine_for(g).map(|e| (g.id.clone(), e.expect("engine"))))
        .collect();
    let mut rng = fastrand::Rng::with_seed(SEED + 3);
    let budget = Budget {
        calls_per_byte: 400,
        bytes_per_byte: 40_000,
        fixed_calls: 400_000,
        fixed_bytes: 64 << 20,
    };
    let options = pnpkit::rules::Options::default();
    for i in 0..2000 {
        let input = mutate(
            &mut rng,
            &std::fs::read(&seeds[i % seeds.len()]).unwrap(),
            crate::common::mutate::YAML_TOKENS,
        );
        let mut sources = SourceMap::default();
        let file = sources.add("log.yaml".into(), text(&input));
        let src = sources.get(file).text.clone();
        let (diags, work) = crate::common::alloc::measure_all(|| {
            no_panic("log", &input, || -> Vec<Diagnostic> {
                let node = match parse(&src, file, &Limits::default()) {
                    Ok(n) => n,
                    Err(d) => return vec![*d],
                };
                let log = match pnpkit::rules::log::read(&node) {
                    Ok(l) => l,
                    Err(ds) => return ds,
                };
                let Some((_, engine)) = engines.iter().find(|(id, _)| *id == log.game) else {
                    return Vec::new(); // an unknown game: `pnpkit log` names it
                };
                match engine.replay(&log, &options) {
                    Err(ds) => ds,
                    Ok(r) => {
                        if let Some(f) = &r.failure {
                            assert!(!f.message.is_empty(), "log: a failure without a message");
                        }
                        Vec::new()
                    }
                }
            })
        });
        budget.check("log", &input, work);
        assert_reported("log", &diags, &sources);
    }
}

/// A CSV sheet of every kind of a game, as `export-sheet` writes them.
fn csv_seeds(game: &pnpkit::model::Game) -> Vec<(String, Vec<u8>)> {
    game.kinds
        .values()
        .filter_map(|k| {
            let files = pnpkit::cmd::sheet::read_kind(&game.dir, &k.id).ok()?.ok()?;
            let (header, rows) = pnpkit::sheet::to_rows(k, &game.locales, &files);
            Some((k.id.clone(), pnpkit::sheet::write_csv(&header, &rows).ok()?))
        })
        .collect()
}

/// A workbook's bytes: `parts` zipped.
fn zipped(parts: &[(&str, &[u8])]) -> Vec<u8> {
    use std::io::Write;
    let mut z = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default();
    for (name, body) in parts {
        z.start_file(*name, opts).unwrap();
        z.write_all(body).unwrap();
    }
    z.finish().unwrap().into_inner()
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// The worksheet XML of an XLSX holding `rows`, and the workbook around it.
fn xlsx_parts(rows: &[Vec<String>]) -> (String, impl Fn(&[u8]) -> Vec<u8>) {
    let mut data = String::new();
    for (r, row) in rows.iter().enumerate() {
        data.push_str(&format!("<row r=\"{}\">", r + 1));
        for (c, v) in row.iter().enumerate() {
            let at = format!("{}{}", pnpkit::sheet::column_letter(c), r + 1);
            data.push_str(&format!(
                "<c r=\"{at}\" t=\"inlineStr\"><is><t>{}</t></is></c>",
                xml_escape(v)
            ));
        }
        data.push_str("</row>");
    }
    let sheet = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><worksheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\"><sheetData>{data}</sheetData></worksheet>"
    );
    let wrap = |sheet: &[u8]| {
        zipped(&[
            ("[Content_Types].xml", br#"<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>"#),
            ("_rels/.rels", br#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>"#),
            ("xl/workbook.xml", br#"<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="sheet" sheetId="1" r:id="rId1"/></sheets></workbook>"#),
            ("xl/_rels/workbook.xml.rels", br#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>"#),
            ("xl/worksheets/sheet1.xml", sheet),
        ])
    };
    (sheet, wrap)
}

/// The content.xml of an ODS holding `rows`, and the workbook around it.
fn ods_parts(rows: &[Vec<String>]) -> (String, impl Fn(&[u8]) -> Vec<u8>) {
    let mut body = String::new();
    for row in rows {
        body.push_str("<table:table-row>");
        for v in row {
            body.push_str(&format!(
                "<table:table-cell office:value-type=\"string\"><text:p>{}</text:p></table:table-cell>",
                xml_escape(v)
            ));
        }
        body.push_str("</table:table-row>");
    }
    let content = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><office:document-content xmlns:office=\"urn:oasis:names:tc:opendocument:xmlns:office:1.0\" xmlns:table=\"urn:oasis:names:tc:opendocument:xmlns:table:1.0\" xmlns:text=\"urn:oasis:names:tc:opendocument:xmlns:text:1.0\" office:version=\"1.2\"><office:body><office:spreadsheet><table:table table:name=\"sheet\">{body}</table:table></office:spreadsheet></office:body></office:document-content>"
    );
    let wrap = |content: &[u8]| {
        zipped(&[
            ("mimetype", b"application/vnd.oasis.opendocument.spreadsheet"),
            ("content.xml", content),
        ])
    };
    (content, wrap)
}

/// Tokens for sheet XML.
const XML_TOKENS: &[&str] = &[
    "<",
    ">",
    "</",
    "/>",
    "\"",
    "&amp;",
    "&#0;",
    "&#x10FFFF;",
    "&bogus;",
    "<row r=\"1048576\">",
    "<c r=\"XFD1\">",
    " table:number-columns-repeated=\"16384\"",
    " table:number-rows-repeated=\"1000000\"",
    "<text:s text:c=\"999999999\"/>",
    "<table:table-row>",
    "<table:table-cell office:value-type=\"float\" office:value=\"1e308\"/>",
    "<![CDATA[",
    "]]>",
    "é",
    "\n",
];

#[test]
fn mutated_sheets_import_or_are_reported() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let game = common::game("openwars");
    let seeds = csv_seeds(game);
    let mut rng = fastrand::Rng::with_seed(SEED + 4);
    let budget = Budget {
        calls_per_byte: 300,
        bytes_per_byte: 20_000,
        fixed_calls: 200_000,
        fixed_bytes: 64 << 20,
    };
    for i in 0..1600 {
        let (kind_id, seed) = &seeds[i % seeds.len()];
        let kind = &game.kinds[kind_id];
        // Mostly CSV; every fourth input a workbook whose inner XML is mutated.
        let (input, ext) = match i % 4 {
            0..=2 => (mutate(&mut rng, seed, crate::common::mutate::CSV_TOKENS), "csv"),
            _ => {
                let rows: Vec<Vec<String>> = csv::ReaderBuilder::new()
                    .has_headers(false)
                    .flexible(true)
                    .from_reader(seed.as_slice())
                    .records()
                    .flatten()
                    .map(|r| r.iter().map(str::to_owned).collect())
                    .collect();
                if i % 8 == 3 {
                    let (xml, wrap) = xlsx_parts(&rows);
                    (wrap(&mutate(&mut rng, xml.as_bytes(), XML_TOKENS)), "xlsx")
                } else {
                    let (xml, wrap) = ods_parts(&rows);
                    (wrap(&mutate(&mut rng, xml.as_bytes(), XML_TOKENS)), "ods")
                }
            }
        };
        let file = format!("{kind_id}.{ext}");
        let (problems, work) = crate::common::alloc::measure_all(|| {
            no_panic("sheet", &input, || {
                match pnpkit::sheet::parse_sheet(input.clone(), &file, ext, None, kind_id) {
                    Err(pnpkit::sheet::ReadSheetError::Unreadable(msg)) => {
                        assert!(!msg.is_empty());
                        Vec::new()
                    }
                    Err(pnpkit::sheet::ReadSheetError::Refused(d)) => vec![*d],
                    Ok(sheet) => {
                        let (imported, problems) = pnpkit::sheet::from_sheet(&sheet, kind, &game.locales, true);
                        for (f, c) in imported.files.iter().zip(&imported.cells) {
                            let w = pnpkit::sheet::write_yaml(kind, &game.locales, f, c);
                            // The written YAML always parses.
                            if let Err(d) = parse(&w.text, FileId(0), &Limits::default()) {
                                panic!("import writes invalid YAML ({d:?}):\n{}", w.text);
                            }
                        }
                        problems.into_iter().map(|p| p.diagnostic.in_file("sheet")).collect()
                    }
                }
            })
        });
        budget.check("sheet", &input, work);
        assert_reported("sheet", &problems, &SourceMap::default());
    }
}

#[test]
fn mutated_po_files_import_or_are_reported() {
    use pnpkit::i18n::{Edit, parse_po, rewrite, to_po};
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let game = common::game("xterminio");
    let entries = pnpkit::cmd::i18n::game_entries(game, &Limits::default()).unwrap();
    // One PO file per YAML file of the pack, as small seeds.
    let mut by_file: std::collections::BTreeMap<String, Vec<pnpkit::i18n::Entry>> = Default::default();
    for e in entries {
        by_file.entry(e.file.clone()).or_default().push(e);
    }
    let seeds: Vec<(String, String, String)> = by_file
        .iter()
        .map(|(file, es)| {
            let yaml = std::fs::read_to_string(game.dir.join(file)).unwrap();
            (file.clone(), yaml, to_po(&game.id, "es", "en", es, &Default::default()))
        })
        .collect();
    let mut rng = fastrand::Rng::with_seed(SEED + 5);
    let budget = Budget {
        calls_per_byte: 300,
        bytes_per_byte: 20_000,
        fixed_calls: 200_000,
        fixed_bytes: 64 << 20,
    };
    for i in 0..2000 {
        let (file, yaml, po) = &seeds[i % seeds.len()];
        let input = mutate(&mut rng, po.as_bytes(), crate::common::mutate::PO_TOKENS);
        let po_text = String::from_utf8_lossy(&input).into_owned();
        let ((), work) = crate::common::alloc::measure_all(|| {
            no_panic("po", &input, || match parse_po(&po_text) {
                Err(problems) => {
                    assert!(!problems.is_empty());
                    for p in problems {
                        assert!(
                            p.line >= 1 && p.line <= po_text.lines().count().max(1),
                            "po: line {} of {:?}",
                            p.line,
                            p.message
                        );
                    }
                }
                Ok(po) => {
                    let _ = pnpkit::i18n::duplicates(&po);
                    let root = parse(yaml, FileId(0), &Limits::default()).unwrap();
                    let mut seen = std::collections::HashSet::new();
                    let edits: Vec<Edit> = po
                        .iter()
                        .filter(|p| !p.translation.is_empty())
                        .filter_map(|p| Some(p.context.strip_prefix(&format!("{file}#"))?.to_owned()).zip(Some(p)))
                        .filter(|(path, _)| seen.insert(path.clone()))
                        .map(|(path, p)| Edit {
                            path,
                            locale: "en".into(),
                            translation: p.translation.clone(),
                        })
                        .collect();
                    match rewrite(yaml, &root, &edits) {
                        Ok(out) => {
                            parse(&out, FileId(0), &Limits::default()).expect("a rewritten file parses");
                        }
                        Err(e) => assert!(!e.message.is_empty()),
                    }
                }
            })
        });
        budget.check("po", &input, work);
    }
}

/// Small PNGs of every colour type and bit depth, made here.
fn png_seeds() -> Vec<Vec<u8>> {
    use image::{DynamicImage, ImageFormat};
    let images = [
        DynamicImage::new_luma8(7, 5),
        DynamicImage::new_luma_a8(4, 9),
        DynamicImage::new_rgb8(16, 16),
        DynamicImage::new_rgba8(3, 3),
        DynamicImage::new_rgb16(5, 4),
        DynamicImage::new_rgba16(8, 2),
    ];
    images
        .iter()
        .map(|img| {
            let mut out = std::io::Cursor::new(Vec::new());
            img.write_to(&mut out, ImageFormat::Png).unwrap();
            out.into_inner()
        })
        .collect()
}

#[test]
fn mutated_art_and_icons_are_measured_or_refused() {
    use base64::Engine;
    use pnpkit::check::art;
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let pngs = png_seeds();
    // Every shipped icon, the scaffold's art, and SVGs embedding the PNGs
    // and an SVG as `data:` URLs: the shapes art arrives in.
    let mut svgs: Vec<Vec<u8>> = files_with(&root().join("data"), &["svg"])
        .iter()
        .chain(&files_with(&root().join("templates"), &["svg"]))
        .map(|p| std::fs::read(p).unwrap())
        .collect();
    for png in &pngs {
        let b64 = base64::engine::general_purpose::STANDARD.encode(png);
        svgs.push(
            format!(
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\">\
                 <image width=\"10\" height=\"10\" href=\"data:image/png;base64,{b64}\"/></svg>"
            )
            .into_bytes(),
        );
    }
    svgs.push(
        b"<svg xmlns=\"http://www.w3.org/2000/svg\"><image href=\"data:image/svg+xml;base64,\
          PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=\"/></svg>"
            .to_vec(),
    );
    assert!(svgs.len() > 20, "too few SVG seeds: {}", svgs.len());
    let mut rng = fastrand::Rng::with_seed(SEED + 6);
    let budget = Budget {
        calls_per_byte: 400,
        bytes_per_byte: 20_000,
        fixed_calls: 200_000,
        // One raster at the decoded limit, and its decoder's buffers.
        fixed_bytes: art::MAX_DECODED_BYTES + (64 << 20),
    };
    for i in 0..1500 {
        let (input, is_svg) = if i % 3 == 0 {
            (
                mutate(
                    &mut rng,
                    &pngs[i % pngs.len()],
                    &["IHDR", "IDAT", "IEND", "PLTE", "tRNS", "\u{ff}\u{ff}"],
                ),
                false,
            )
        } else {
            (
                mutate(&mut rng, &svgs[i % svgs.len()], crate::common::mutate::SVG_TOKENS),
                true,
            )
        };
        let ((), work) = crate::common::alloc::measure_all(|| {
            no_panic("art", &input, || {
                if is_svg {
                    if let Err(why) = art::svg(&input) {
                        assert!(!why.is_empty(), "art: a refusal without a reason");
                    }
                } else if art::measure(&input).is_ok() {
                    let _ = art::decodes(&input);
                }
            })
        });
        budget.check("art", &input, work);
    }
}
