//! Sheets: YAML → CSV → YAML round trips for every kind of every shipped
//! game, and `import` / `export-sheet` as a designer uses them.

use std::path::Path;

use pnpkit::check::check;
use pnpkit::cmd::sheet::read_kind;
use pnpkit::pack::yaml::Limits;
use pnpkit::sheet;

use crate::common;
use crate::common::{copy_dir, out, pnpkit_in, root};

/// Every kind of every shipped game: the canonical YAML written from the
/// sheet equals the canonical YAML written from the original file, byte for
/// byte, and the pack rebuilt from the sheets checks to the same components.
#[test]
fn every_kind_of_every_game_round_trips_through_csv() {
    let data = root().join("data");
    let original = check(&data, &[], &Limits::default()).unwrap();
    assert_eq!(original.diagnostics.items.len(), 0);
    let tmp = tempfile::tempdir().unwrap();
    let mut kinds_done = 0;
    for game in &original.games {
        let pack = tmp.path().join("data").join(&game.id);
        copy_dir(&game.dir, &pack);
        for kind in game.kinds.values() {
            let files = read_kind(&game.dir, &kind.id).unwrap().unwrap();
            if files.is_empty() {
                continue;
            }
            let (header, rows) = sheet::to_rows(kind, &game.locales, &files);
            let csv = sheet::write_csv(&header, &rows).unwrap();
            let csv_path = tmp.path().join(format!("{}-{}.csv", game.id, kind.id));
            std::fs::write(&csv_path, &csv).unwrap();
            let read = sheet::read_sheet(&csv_path, None, &kind.id).unwrap();
            let in_folder = files.iter().any(|f| f.name.is_some());
            let (imported, problems) = sheet::from_sheet(&read, kind, &game.locales, in_folder);
            assert!(problems.is_empty(), "{}/{}: sheet problems", game.id, kind.id);
            assert_eq!(
                imported.files.iter().map(|f| &f.name).collect::<Vec<_>>(),
                files.iter().map(|f| &f.name).collect::<Vec<_>>(),
                "{}/{}: files",
                game.id,
                kind.id
            );
            for (orig, (back, cells)) in files.iter().zip(imported.files.iter().zip(&imported.cells)) {
                let a = sheet::write_yaml(kind, &game.locales, orig, &[]).text;
                let b = sheet::write_yaml(kind, &game.locales, back, cells).text;
                assert_eq!(a, b, "{}/{} {:?}: canonical YAML differs", game.id, kind.id, orig.name);
                // Comments survive (moved above their component when written inside it).
                let comments = |f: &sheet::FileData| -> Vec<String> {
                    f.entries.iter().flat_map(|e| e.comments.clone()).collect()
                };
                assert_eq!(comments(orig), comments(back));
                // The pack copy gets the regenerated file.
                let path = match &back.name {
                    Some(n) => pack.join("components").join(&kind.id).join(n),
                    None => pack.join("components").join(format!("{}.yaml", kind.id)),
                };
                std::fs::write(path, b).unwrap();
            }
            kinds_done += 1;
        }
    }
    assert!(kinds_done >= 30, "only {kinds_done} kinds");
    // The regenerated packs check clean and hold the same components.
    let again = check(&tmp.path().join("data"), &[], &Limits::default()).unwrap();
    let diags = pnpkit::diag::render_human(&again.diagnostics.items, &again.sources, false);
    assert_eq!(again.diagnostics.items.len(), 0, "{diags}");
    for (g1, g2) in original.games.iter().zip(&again.games) {
        for (kind, comps) in &g1.components {
            let back = &g2.components[kind];
            assert_eq!(comps.len(), back.len(), "{}/{kind}", g1.id);
            for (c1, c2) in comps.iter().zip(back) {
                // Effects keep their source spans; a regenerated file puts
                // them on other lines, so spans are left out.
                assert_eq!(
                    unspanned(&(&c1.id, &c1.name, c1.copies, &c1.sample, &c1.fields)),
                    unspanned(&(&c2.id, &c2.name, c2.copies, &c2.sample, &c2.fields)),
                    "{}/{kind}",
                    g1.id
                );
            }
        }
    }
}

/// Debug text of a value with every `Span { … }` left out.
fn unspanned(x: &impl std::fmt::Debug) -> String {
    let text = format!("{x:?}");
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(i) = rest.find("Span {") {
        out.push_str(&rest[..i]);
        rest = rest[i..].split_once('}').map_or("", |(_, after)| after);
    }
    out.push_str(rest);
    out
}

/// A scratch project with a copy of one shipped game.
fn project(game: &str) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    copy_dir(&root().join("data").join(game), &tmp.path().join("data").join(game));
    common::mark(tmp.path());
    tmp
}

#[test]
fn export_then_import_through_the_cli_keeps_the_data() {
    let tmp = project("openwars");
    let dir = tmp.path();
    let o = pnpkit_in(dir, &["export-sheet", "openwars", "unit", "-o", "units.csv"]);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    let csv = std::fs::read_to_string(dir.join("units.csv")).unwrap();
    assert!(csv.starts_with("file,id,name.es,name.en,count,"), "{csv}");
    assert!(csv.contains("amazons.yaml,amazon-warriors,"));
    let o = pnpkit_in(dir, &["import", "openwars", "unit", "units.csv"]);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    assert!(out(&o).contains("imported 46 unit components"), "{}", out(&o));
    let o = pnpkit_in(dir, &["check", "--deny-warnings"]);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    // Same files, and exporting again gives the same sheet.
    assert!(dir.join("data/openwars/components/unit/amazons.yaml").is_file());
    let o = pnpkit_in(dir, &["export-sheet", "openwars", "unit"]);
    assert_eq!(String::from_utf8_lossy(&o.stdout), csv);
}

#[test]
fn import_errors_name_the_row_and_column_and_write_nothing() {
    let tmp = project("openwars");
    let dir = tmp.path();
    let before = std::fs::read_to_string(dir.join("data/openwars/components/spell.yaml")).unwrap();
    let o = pnpkit_in(dir, &["export-sheet", "openwars", "spell", "-o", "spells.csv"]);
    assert_eq!(o.status.code(), Some(0));
    let csv = std::fs::read_to_string(dir.join("spells.csv")).unwrap();
    // Row 3 of the sheet is the second spell: set its mana cost out of range
    // and give it an unknown faction.
    let mut r = csv::ReaderBuilder::new().has_headers(false).from_reader(csv.as_bytes());
    let mut rows: Vec<Vec<String>> = r
        .records()
        .map(|x| x.unwrap().iter().map(String::from).collect())
        .collect();
    let cost = rows[0].iter().position(|h| h == "mana_cost").unwrap();
    let faction = rows[0].iter().position(|h| h == "faction").unwrap();
    rows[2][cost] = "99".into();
    rows[2][faction] = "martians".into();
    let mut w = csv::Writer::from_writer(Vec::new());
    for row in &rows {
        w.write_record(row).unwrap();
    }
    std::fs::write(dir.join("spells.csv"), w.into_inner().unwrap()).unwrap();
    let o = pnpkit_in(dir, &["import", "openwars", "spell", "spells.csv", "--color", "never"]);
    let text = out(&o);
    assert_eq!(o.status.code(), Some(1), "{text}");
    let col = |i: usize| sheet::column_letter(i);
    assert!(text.contains("error[E008]"), "{text}");
    assert!(
        text.contains(&format!("spells.csv: row 3, column {} (mana_cost)", col(cost))),
        "{text}"
    );
    assert!(text.contains("error[E011]"), "{text}");
    assert!(
        text.contains(&format!("spells.csv: row 3, column {} (faction)", col(faction))),
        "{text}"
    );
    assert!(text.contains("import refused"), "{text}");
    let after = std::fs::read_to_string(dir.join("data/openwars/components/spell.yaml")).unwrap();
    assert_eq!(before, after);
}

#[test]
fn check_flag_validates_without_writing() {
    let tmp = project("mythic");
    let dir = tmp.path();
    std::fs::write(
        dir.join("talents.csv"),
        "id,name.es,name.en,modifies_own_stats,text.es,text.en\n\
         flight,Vuelo,Flight,false,Vuela.,Flies.\n",
    )
    .unwrap();
    let path = dir.join("data/mythic/components/talent.yaml");
    let before = std::fs::read_to_string(&path).unwrap();
    let o = pnpkit_in(dir, &["import", "mythic", "talent", "talents.csv", "--check"]);
    let text = out(&o);
    // Characters name talents that the sheet no longer has: reported in their own files.
    assert_eq!(o.status.code(), Some(1), "{text}");
    assert!(text.contains("E011"), "{text}");
    assert!(text.contains("data/mythic/components/character.yaml:"), "{text}");
    assert_eq!(before, std::fs::read_to_string(&path).unwrap());
}

#[test]
fn sheet_structure_problems_are_located() {
    let tmp = project("openwars");
    let dir = tmp.path();
    std::fs::write(
        dir.join("f.csv"),
        "id,name,count,color,text.es,text.en,text.fr\n\
         amazons,Amazonas,1,\"#aa3322\",Hola,Hello,Salut\n",
    )
    .unwrap();
    let o = pnpkit_in(dir, &["import", "openwars", "faction", "f.csv", "--color", "never"]);
    let text = out(&o);
    assert_eq!(o.status.code(), Some(1), "{text}");
    assert!(text.contains("f.csv: row 1, column B (name)"), "{text}");
    assert!(text.contains("`name.es`, `name.en`"), "{text}");
    // `text.fr` is not a locale of the pack: an unknown field at its cell.
    assert!(text.contains("f.csv: row 2, column G (text.fr)"), "{text}");
}

/// A minimal XLSX workbook (inline strings) with one sheet.
fn xlsx(path: &Path, sheet: &str, rows: &[&[&str]]) {
    use std::io::Write;
    let f = std::fs::File::create(path).unwrap();
    let mut z = zip::ZipWriter::new(f);
    let opts = zip::write::SimpleFileOptions::default();
    let mut put = |name: &str, body: String| {
        z.start_file(name, opts).unwrap();
        z.write_all(body.as_bytes()).unwrap();
    };
    put("[Content_Types].xml", r#"<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>"#.into());
    put("_rels/.rels", r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>"#.into());
    put(
        "xl/workbook.xml",
        format!(
            r#"<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="{sheet}" sheetId="1" r:id="rId1"/></sheets></workbook>"#
        ),
    );
    put("xl/_rels/workbook.xml.rels", r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>"#.into());
    let mut data = String::new();
    for (r, row) in rows.iter().enumerate() {
        data.push_str(&format!(r#"<row r="{}">"#, r + 1));
        for (c, v) in row.iter().enumerate() {
            let at = format!("{}{}", sheet::column_letter(c), r + 1);
            if let Ok(n) = v.parse::<f64>() {
                data.push_str(&format!(r#"<c r="{at}"><v>{n}</v></c>"#));
            } else {
                data.push_str(&format!(r#"<c r="{at}" t="inlineStr"><is><t>{v}</t></is></c>"#));
            }
        }
        data.push_str("</row>");
    }
    put(
        "xl/worksheets/sheet1.xml",
        format!(
            r#"<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>{data}</sheetData></worksheet>"#
        ),
    );
    z.finish().unwrap();
}

#[test]
fn xlsx_sheets_import_with_numbers_and_sheet_locations() {
    let tmp = project("openwars");
    let dir = tmp.path();
    let csv = pnpkit_in(dir, &["export-sheet", "openwars", "counter"]);
    let text = String::from_utf8_lossy(&csv.stdout).into_owned();
    let mut r = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(text.as_bytes());
    let rows: Vec<Vec<String>> = r
        .records()
        .map(|x| x.unwrap().iter().map(String::from).collect())
        .collect();
    let escaped: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            r.iter()
                .map(|c| c.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;"))
                .collect()
        })
        .collect();
    let refs: Vec<Vec<&str>> = escaped.iter().map(|r| r.iter().map(String::as_str).collect()).collect();
    let slices: Vec<&[&str]> = refs.iter().map(Vec::as_slice).collect();
    xlsx(&dir.join("counters.xlsx"), "Counters", &slices);
    let o = pnpkit_in(dir, &["import", "openwars", "counter", "counters.xlsx"]);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    assert!(out(&o).contains("from counters.xlsx: sheet Counters"), "{}", out(&o));
    // Numbers came back as integers: the pack still checks clean.
    let o = pnpkit_in(dir, &["check", "--deny-warnings"]);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    // A bad value is located by sheet, row and column.
    let mut bad = refs.clone();
    let copies = bad[0].iter().position(|h| *h == "count").unwrap();
    bad[1][copies] = "many";
    let slices: Vec<&[&str]> = bad.iter().map(Vec::as_slice).collect();
    xlsx(&dir.join("bad.xlsx"), "Counters", &slices);
    let o = pnpkit_in(dir, &["import", "openwars", "counter", "bad.xlsx", "--color", "never"]);
    assert_eq!(o.status.code(), Some(1), "{}", out(&o));
    let want = format!(
        "bad.xlsx: sheet Counters, row 2, column {} (count)",
        sheet::column_letter(copies)
    );
    assert!(out(&o).contains(&want), "{}", out(&o));
}

#[test]
fn unknown_kind_is_a_usage_error() {
    let tmp = project("openwars");
    let o = pnpkit_in(tmp.path(), &["export-sheet", "openwars", "wizard"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(out(&o).contains("no kind `wizard`"), "{}", out(&o));
}

/// A minimal ODS spreadsheet with one table.
fn ods(path: &Path, table: &str, rows: &[Vec<String>]) {
    use std::io::Write;
    let f = std::fs::File::create(path).unwrap();
    let mut z = zip::ZipWriter::new(f);
    let stored = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    z.start_file("mimetype", stored).unwrap();
    z.write_all(b"application/vnd.oasis.opendocument.spreadsheet").unwrap();
    let opts = zip::write::SimpleFileOptions::default();
    z.start_file("META-INF/manifest.xml", opts).unwrap();
    z.write_all(br#"<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>"#).unwrap();
    let esc = |c: &str| c.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    let mut body = String::new();
    for r in rows {
        body.push_str("<table:table-row>");
        for c in r {
            if let Ok(n) = c.parse::<f64>() {
                body.push_str(&format!(r#"<table:table-cell office:value-type="float" office:value="{n}"><text:p>{n}</text:p></table:table-cell>"#));
            } else if c.is_empty() {
                body.push_str("<table:table-cell/>");
            } else {
                body.push_str(&format!(
                    r#"<table:table-cell office:value-type="string"><text:p>{}</text:p></table:table-cell>"#,
                    esc(c)
                ));
            }
        }
        body.push_str("</table:table-row>");
    }
    z.start_file("content.xml", opts).unwrap();
    write!(z, r#"<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2"><office:body><office:spreadsheet><table:table table:name="{table}">{body}</table:table></office:spreadsheet></office:body></office:document-content>"#).unwrap();
    z.finish().unwrap();
}

#[test]
fn ods_sheets_import_too() {
    let tmp = project("mythic");
    let dir = tmp.path();
    let csv = pnpkit_in(dir, &["export-sheet", "mythic", "maneuver"]);
    let text = String::from_utf8_lossy(&csv.stdout).into_owned();
    let mut r = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(text.as_bytes());
    let mut rows: Vec<Vec<String>> = r
        .records()
        .map(|x| x.unwrap().iter().map(String::from).collect())
        .collect();
    let before = std::fs::read_to_string(dir.join("data/mythic/components/maneuver.yaml")).unwrap();
    ods(&dir.join("maneuvers.ods"), "maneuver", &rows);
    let o = pnpkit_in(dir, &["import", "mythic", "maneuver", "maneuvers.ods"]);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    assert!(out(&o).contains("from maneuvers.ods: sheet maneuver"), "{}", out(&o));
    let o = pnpkit_in(dir, &["check", "--deny-warnings"]);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    // An edited text arrives in the YAML.
    let col = rows[0].iter().position(|h| h == "text.en").unwrap();
    rows[1][col] = "In your turn, draw two cards. Edited in a spreadsheet.".into();
    ods(&dir.join("maneuvers.ods"), "maneuver", &rows);
    let o = pnpkit_in(dir, &["import", "mythic", "maneuver", "maneuvers.ods"]);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    let after = std::fs::read_to_string(dir.join("data/mythic/components/maneuver.yaml")).unwrap();
    assert!(after.contains("Edited in a spreadsheet."));
    assert!(!before.contains("Edited in a spreadsheet."));
}
