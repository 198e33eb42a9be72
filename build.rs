//! Embeds what pnpkit needs at run time into the binary: the shared and
//! per-game templates, the scaffold, the gallery page, the default fonts with
//! their licences, and the shipped game packs. `src/builtin.rs` reads the
//! generated table.
//!
//! A build script rather than a directory-embedding macro: cargo reruns it
//! when any file below these folders is added, removed or edited (a macro on
//! stable Rust does not see a new file until something else recompiles).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The folders embedded, relative to the crate root.
const ROOTS: &[&str] = &["templates", "fonts", "data"];

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for root in ROOTS {
        println!("cargo:rerun-if-changed={root}");
        walk(&manifest, &manifest.join(root), &mut files);
    }
    files.sort();
    let mut out = String::from(
        "/// Every embedded file: its path from the crate root (`/`-separated) and bytes, sorted by path.\n",
    );
    out.push_str("pub static FILES: &[(&str, &[u8])] = &[\n");
    // Paths from the crate root at compile time, not absolute ones: a
    // checkout moved with its target folder (cargo keeps the build script's
    // output, whose inputs have not changed) still finds its files.
    for rel in &files {
        writeln!(
            out,
            "    ({rel:?}, include_bytes!(concat!(env!(\"CARGO_MANIFEST_DIR\"), {:?}))),",
            format!("/{rel}")
        )
        .expect("write to a string");
    }
    out.push_str("];\n");
    let dest = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("builtin_files.rs");
    std::fs::write(&dest, out).expect("write the embedded file table");
}

/// Regular files below `dir`, as `/`-separated paths relative to `base`;
/// hidden entries, editor leftovers and links are left out.
fn walk(base: &Path, dir: &Path, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || name.ends_with('~') || name.ends_with(".tmp") {
            continue;
        }
        let Ok(kind) = entry.file_type() else { continue };
        let path = entry.path();
        if kind.is_dir() {
            walk(base, &path, out);
        } else if kind.is_file() {
            let rel = path.strip_prefix(base).expect("below the crate root");
            let parts: Vec<_> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            out.push(parts.join("/"));
        }
    }
}
