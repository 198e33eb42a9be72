//! Pack YAML: the input replaces one file of the minimal pack (the first
//! byte picks which), and the whole pack is checked.
#![no_main]

#[path = "common.rs"]
mod common;

use std::path::PathBuf;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;

/// A copy of the minimal pack in a temporary folder, and its YAML files.
fn pack() -> &'static (tempfile_dir::Dir, Vec<(PathBuf, Vec<u8>)>) {
    static PACK: OnceLock<(tempfile_dir::Dir, Vec<(PathBuf, Vec<u8>)>)> = OnceLock::new();
    PACK.get_or_init(|| {
        let dir = tempfile_dir::Dir::new();
        let from = common::root().join("tests/fixtures/minimal/demo");
        let mut files = Vec::new();
        copy(&from, &dir.0.join("demo"), &mut files);
        files.sort();
        (dir, files)
    })
}

fn copy(from: &std::path::Path, to: &std::path::Path, files: &mut Vec<(PathBuf, Vec<u8>)>) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let (src, dst) = (e.path(), to.join(e.file_name()));
        if src.is_dir() {
            copy(&src, &dst, files);
        } else {
            let bytes = std::fs::read(&src).unwrap();
            std::fs::write(&dst, &bytes).unwrap();
            if dst.extension().is_some_and(|x| x == "yaml") {
                files.push((dst, bytes));
            }
        }
    }
}

mod tempfile_dir {
    /// A folder removed at exit (the fuzzer runs in one process).
    pub struct Dir(pub std::path::PathBuf);
    impl Dir {
        pub fn new() -> Dir {
            let p = std::env::temp_dir().join(format!("pnpkit-fuzz-pack-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&p);
            std::fs::create_dir_all(&p).unwrap();
            Dir(p)
        }
    }
    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, input)) = data.split_first() else { return };
    let (dir, files) = pack();
    let (path, original) = &files[pick as usize % files.len()];
    std::fs::write(path, input).unwrap();
    let report = pnpkit::check::check(&dir.0, &[], &Default::default()).expect("a pack file's content is never fatal");
    if report.has_errors() {
        assert!(!report.diagnostics.items.is_empty());
    }
    common::assert_reported(&report.diagnostics.items, &report.sources);
    std::fs::write(path, original).unwrap();
});
