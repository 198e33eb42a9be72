//! Sheets: the first byte picks CSV, the XML inside an XLSX or ODS
//! workbook, or a raw workbook; the sheet is read, turned into components
//! and written as YAML, which must always parse.
#![no_main]

#[path = "common.rs"]
mod common;

use std::io::Write;

use libfuzzer_sys::fuzz_target;
use pnpkit::diag::FileId;
use pnpkit::pack::yaml::{Limits, parse};

fn zipped(parts: &[(&str, &[u8])]) -> Vec<u8> {
    let mut z = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default();
    for (name, body) in parts {
        z.start_file(*name, opts).unwrap();
        z.write_all(body).unwrap();
    }
    z.finish().unwrap().into_inner()
}

const TYPES: &[u8] = br#"<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>"#;
const RELS: &[u8] = br#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>"#;
const WORKBOOK: &[u8] = br#"<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="unit" sheetId="1" r:id="rId1"/></sheets></workbook>"#;
const WORKBOOK_RELS: &[u8] = br#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>"#;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, input)) = data.split_first() else { return };
    let game = common::games().iter().find(|g| g.id == "openwars").expect("openwars");
    let kinds: Vec<&String> = game.kinds.keys().collect();
    let kind = &game.kinds[kinds[(pick >> 3) as usize % kinds.len()]];
    let (bytes, ext) = match pick & 7 {
        0..=2 => (input.to_vec(), "csv"),
        3 => (
            zipped(&[
                ("[Content_Types].xml", TYPES),
                ("_rels/.rels", RELS),
                ("xl/workbook.xml", WORKBOOK),
                ("xl/_rels/workbook.xml.rels", WORKBOOK_RELS),
                ("xl/worksheets/sheet1.xml", input),
            ]),
            "xlsx",
        ),
        4 => (zipped(&[("mimetype", b"application/vnd.oasis.opendocument.spreadsheet"), ("content.xml", input)]), "ods"),
        5 => (input.to_vec(), "xlsx"),
        _ => (input.to_vec(), "ods"),
    };
    let file = format!("{}.{ext}", kind.id);
    let sheet = match pnpkit::sheet::parse_sheet(bytes, &file, ext, None, &kind.id) {
        Ok(s) => s,
        Err(pnpkit::sheet::ReadSheetError::Unreadable(msg)) => return assert!(!msg.is_empty()),
        Err(pnpkit::sheet::ReadSheetError::Refused(d)) => {
            return common::assert_reported(&[*d], &Default::default());
        }
    };
    let (imported, problems) = pnpkit::sheet::from_sheet(&sheet, kind, &game.locales, true);
    for (f, c) in imported.files.iter().zip(&imported.cells) {
        let w = pnpkit::sheet::write_yaml(kind, &game.locales, f, c);
        if let Err(d) = parse(&w.text, FileId(0), &Limits::default()) {
            panic!("import wrote YAML that does not parse ({d:?}):\n{}", w.text);
        }
    }
    let diags: Vec<_> = problems.into_iter().map(|p| p.diagnostic.in_file("sheet")).collect();
    common::assert_reported(&diags, &Default::default());
});
