//! Helpers shared by the integration tests: the crate root, running the
//! binary, copying a pack, and one checked load of the shipped games.
#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, Output};
use std::sync::OnceLock;

use pnpkit::check::check;
use pnpkit::model::Game;
use pnpkit::pack::yaml::Limits;

pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs the binary in `dir`.
pub fn pnpkit_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pnpkit"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run pnpkit")
}

/// Standard output and error together.
pub fn out(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Makes `dir` a pnpkit project (an empty `pnpkit.toml`: every setting at its default).
pub fn mark(dir: &Path) {
    std::fs::write(dir.join("pnpkit.toml"), "").unwrap();
}

pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

/// The shipped games, checked once per test binary.
pub fn shipped() -> &'static Vec<Game> {
    static GAMES: OnceLock<Vec<Game>> = OnceLock::new();
    GAMES.get_or_init(|| {
        let report = check(&root().join("data"), &[], &Limits::default()).expect("data readable");
        assert!(!report.has_errors(), "shipped data has errors");
        report.games
    })
}

/// The date every test build is stamped with (SOURCE_DATE_EPOCH).
pub const EPOCH: i64 = 1_767_225_600;

/// The shipped kits as `pnpkit build` makes them by default (A4 and Letter,
/// every locale), with preflight findings, built once per test binary: the
/// raster, assembly, preflight and render tests all read this one build.
pub fn shipped_kits() -> &'static [pnpkit::render::pipeline::Built] {
    static BUILT: OnceLock<Vec<pnpkit::render::pipeline::Built>> = OnceLock::new();
    BUILT.get_or_init(|| {
        let shared = pnpkit::render::world::Shared::new(root(), EPOCH).expect("templates and fonts");
        let opts = pnpkit::render::KitOptions {
            preflight: Some(pnpkit::render::preflight::Limits::default()),
            ..Default::default()
        };
        let (built, problems) =
            pnpkit::render::pipeline::build_all(&shared, shipped(), &opts, &pnpkit::progress::Quiet);
        assert!(
            problems.is_empty(),
            "{:?}",
            problems.iter().map(|(d, _)| &d.message).collect::<Vec<_>>()
        );
        built
    })
}

pub fn game(id: &str) -> &'static Game {
    shipped().iter().find(|g| g.id == id).expect("shipped game")
}

/// A project copy in a temp dir: the shared templates and fonts, plus a
/// fixture's own `data/` and `templates/` (tests/fixtures/<fixture>/).
pub fn fixture_project(fixture: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&root().join("fonts"), &dir.path().join("fonts"));
    copy_dir(&root().join("templates"), &dir.path().join("templates"));
    let fixture = root().join("tests/fixtures").join(fixture);
    copy_dir(&fixture.join("templates"), &dir.path().join("templates"));
    copy_dir(&fixture.join("data"), &dir.path().join("data"));
    mark(dir.path());
    dir
}

/// The lines a child writes to its standard output, as they come.
pub fn lines_of(stdout: std::process::ChildStdout) -> std::sync::mpsc::Receiver<String> {
    use std::io::{BufRead, BufReader};
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if tx.send(line.unwrap_or_default()).is_err() {
                break;
            }
        }
    });
    rx
}

/// Waits (at most 120 s) for a line holding `want`, keeping every line read meanwhile in `seen`.
pub fn wait_for(rx: &std::sync::mpsc::Receiver<String>, want: &str, seen: &mut Vec<String>) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while std::time::Instant::now() < deadline {
        if let Ok(line) = rx.recv_timeout(std::time::Duration::from_millis(200)) {
            let hit = line.contains(want);
            seen.push(line);
            if hit {
                return;
            }
        }
    }
    panic!("no line with `{want}` within 120 s; got:\n{}", seen.join("\n"));
}

/// Fails with every problem found, one a line, when there is any.
pub fn assert_no_problems(problems: &[String]) {
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

pub mod alloc;
pub mod chromium;
pub mod mutate;
pub mod raster;
pub mod registration;

/// An 8-bit RGBA PNG whose header declares `w` × `h` pixels and whose data
/// holds the first `rows` rows, every pixel `pixel` (a pixel bomb need not
/// carry its pixels; a flat picture compresses to almost nothing).
pub fn rgba_png(w: u32, h: u32, rows: u32, pixel: [u8; 4]) -> Vec<u8> {
    use std::io::Write;
    fn chunk(out: &mut Vec<u8>, kind: &[u8], data: &[u8]) {
        let mut crc = flate2::Crc::new();
        crc.update(kind);
        crc.update(data);
        out.extend((data.len() as u32).to_be_bytes());
        out.extend(kind);
        out.extend(data);
        out.extend(crc.sum().to_be_bytes());
    }
    let mut row = vec![0u8];
    for _ in 0..w {
        row.extend(pixel);
    }
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    for _ in 0..rows {
        z.write_all(&row).unwrap();
    }
    let idat = z.finish().unwrap();
    let mut ihdr = Vec::new();
    ihdr.extend(w.to_be_bytes());
    ihdr.extend(h.to_be_bytes());
    ihdr.extend([8, 6, 0, 0, 0]); // 8 bits, RGBA, deflate, no filter, no interlace
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    chunk(&mut png, b"IHDR", &ihdr);
    chunk(&mut png, b"IDAT", &idat);
    chunk(&mut png, b"IEND", &[]);
    png
}
