//! `deck --batch` on a folder players filled: the input is split at 0xFF
//! bytes into files; each file's first byte picks its name from names
//! organisers meet (hostile ones included: formulas, escape sequences, no
//! extension, a folder), the rest is its content. The whole command runs in
//! process, as `pnpkit deck unmatched --batch DIR --out OUT`: it returns an
//! outcome or a located error, and every cell of `verdicts.csv` is inert.
#![no_main]

use clap::Parser;
use libfuzzer_sys::fuzz_target;

const NAMES: &[&str] = &[
    "ana.txt",
    "bruno.tsv",
    "carla.csv",
    "eva.yaml",
    "=HYPERLINK(1).txt",
    "+cmd.txt",
    "-2+3.md",
    "@SUM(1).list",
    "c\u{1b}]0;owned\u{7}.txt",
    "photo.txt",
    "rules.pdf",
    "notes",
    ".hidden.txt",
    "sheet.xlsx",
    "sheet.ods",
    "dir",
];

fuzz_target!(|data: &[u8]| {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let lists = dir.path().join("lists");
    std::fs::create_dir(&lists).expect("the lists folder");
    for part in data.split(|&b| b == 0xff).take(12) {
        let Some((&pick, content)) = part.split_first() else { continue };
        let name = NAMES[pick as usize % NAMES.len()];
        if name == "dir" {
            let _ = std::fs::create_dir(lists.join(name));
        } else {
            std::fs::write(lists.join(name), content).expect("a list file");
        }
    }
    let out = dir.path().join("out");
    let cli = pnpkit::cli::Cli::try_parse_from([
        "pnpkit".as_ref(),
        "--color".as_ref(),
        "never".as_ref(),
        "deck".as_ref(),
        "unmatched".as_ref(),
        "--batch".as_ref(),
        lists.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
    ])
    .expect("the command line");
    match pnpkit::cmd::run(&cli, Ok(None), &pnpkit::cmd::Quiet) {
        Ok(outcome) => {
            assert!(!outcome.stdout.contains('\u{1b}'), "an escape in the report");
            if let Ok(csv) = std::fs::read_to_string(out.join("verdicts.csv")) {
                for record in csv::Reader::from_reader(csv.as_bytes()).records() {
                    for cell in record.expect("verdicts.csv reads as CSV").iter() {
                        assert!(
                            !cell.starts_with(['=', '+', '-', '@', '\t', '\r']),
                            "a cell a spreadsheet evaluates: {cell:?} in {csv}"
                        );
                    }
                }
            }
        }
        Err(fatal) => assert!(!fatal.to_string().is_empty()),
    }
});
