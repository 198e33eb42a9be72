//! What the printer receives, measured in pixels: PDFs rasterised by an
//! independent renderer (poppler's `pdftoppm`) and read back as grey levels.
//! Positions are in millimetres from the top-left corner of the page.
#![allow(dead_code)]

use std::path::Path;
use std::process::Command;

/// The renderer every raster test uses.
pub const RENDERER: &str = "pdftoppm";

/// Whether the renderer is installed. Without it a raster test cannot say
/// anything: in CI (`CI` set, as `.ci/run` does) that is a failure; on a
/// developer's machine the test says it was skipped and how to install it.
pub fn renderer_available(test: &str) -> bool {
    let found = Command::new(RENDERER).arg("-v").output().is_ok();
    if !found {
        let msg = format!(
            "{test}: `{RENDERER}` (poppler-utils) is not installed; install it with `apt-get install -y poppler-utils`"
        );
        if std::env::var_os("CI").is_some() {
            panic!("{msg} (required in CI)");
        }
        eprintln!("{msg}: skipped");
    }
    found
}

/// One rasterised page in grey levels (0 black … 255 paper white).
#[derive(Clone)]
pub struct Gray {
    pub w: usize,
    pub h: usize,
    pub dpi: f64,
    pub px: Vec<u8>,
}

/// Paper white: what no printed area may show.
pub const PAPER: u8 = 250;

impl Gray {
    pub fn px_of(&self, mm: f64) -> f64 {
        mm / 25.4 * self.dpi
    }

    pub fn mm_of(&self, px: f64) -> f64 {
        px * 25.4 / self.dpi
    }

    pub fn width_mm(&self) -> f64 {
        self.mm_of(self.w as f64)
    }

    pub fn height_mm(&self) -> f64 {
        self.mm_of(self.h as f64)
    }

    pub fn at(&self, x: usize, y: usize) -> u8 {
        self.px[y.min(self.h - 1) * self.w + x.min(self.w - 1)]
    }

    /// The pixel under a point in mm.
    pub fn at_mm(&self, x: f64, y: f64) -> u8 {
        let (x, y) = (self.px_of(x).max(0.0) as usize, self.px_of(y).max(0.0) as usize);
        self.at(x, y)
    }

    /// Centres (mm) of the dark runs crossed by the horizontal line at `y`
    /// between `x0` and `x1`: each run's darkness-weighted centroid, so a
    /// hairline is located to a fraction of a pixel.
    pub fn dark_along_row(&self, y: f64, x0: f64, x1: f64, dark: u8) -> Vec<f64> {
        let row = self.px_of(y).max(0.0) as usize;
        let (a, b) = (self.px_of(x0).max(0.0) as usize, (self.px_of(x1) as usize).min(self.w));
        runs((a..b).map(|x| (x, self.at(x, row))), dark)
            .into_iter()
            .map(|c| self.mm_of(c))
            .collect()
    }

    /// Like [`Gray::dark_along_row`], down the vertical line at `x`.
    pub fn dark_along_col(&self, x: f64, y0: f64, y1: f64, dark: u8) -> Vec<f64> {
        let col = self.px_of(x).max(0.0) as usize;
        let (a, b) = (self.px_of(y0).max(0.0) as usize, (self.px_of(y1) as usize).min(self.h));
        runs((a..b).map(|y| (y, self.at(col, y))), dark)
            .into_iter()
            .map(|c| self.mm_of(c))
            .collect()
    }

    /// The share of pixels inside a rectangle (mm) for which `pred` holds.
    pub fn share(&self, x: f64, y: f64, w: f64, h: f64, pred: impl Fn(u8) -> bool) -> f64 {
        let (x0, y0) = (
            self.px_of(x).round().max(0.0) as usize,
            self.px_of(y).round().max(0.0) as usize,
        );
        let (x1, y1) = (
            (self.px_of(x + w).round() as usize).min(self.w),
            (self.px_of(y + h).round() as usize).min(self.h),
        );
        let (mut n, mut yes) = (0usize, 0usize);
        for yy in y0..y1.max(y0 + 1).min(self.h) {
            for xx in x0..x1.max(x0 + 1).min(self.w) {
                n += 1;
                if pred(self.at(xx, yy)) {
                    yes += 1;
                }
            }
        }
        if n == 0 { 0.0 } else { yes as f64 / n as f64 }
    }

    /// The mean grey level of a rectangle (mm).
    pub fn mean(&self, x: f64, y: f64, w: f64, h: f64) -> f64 {
        let (x0, y0) = (
            self.px_of(x).round().max(0.0) as usize,
            self.px_of(y).round().max(0.0) as usize,
        );
        let (x1, y1) = (
            (self.px_of(x + w).round() as usize).min(self.w),
            (self.px_of(y + h).round() as usize).min(self.h),
        );
        let mut sum = 0u64;
        let mut n = 0u64;
        for yy in y0..y1 {
            for xx in x0..x1 {
                sum += self.at(xx, yy) as u64;
                n += 1;
            }
        }
        if n == 0 { 255.0 } else { sum as f64 / n as f64 }
    }
}

/// Weighted centroids (in pixels, pixel centres at +0.5) of the runs of
/// values below `dark`.
fn runs(values: impl Iterator<Item = (usize, u8)>, dark: u8) -> Vec<f64> {
    let mut out = Vec::new();
    let (mut sw, mut sx) = (0.0f64, 0.0f64);
    for (i, v) in values {
        if v < dark {
            let w = (255 - v) as f64;
            sw += w;
            sx += w * (i as f64 + 0.5);
        } else if sw > 0.0 {
            out.push(sx / sw);
            sw = 0.0;
            sx = 0.0;
        }
    }
    if sw > 0.0 {
        out.push(sx / sw);
    }
    out
}

/// Rasterises pages `first..=last` (1-based) of a PDF in grey at `dpi`.
pub fn rasterise(pdf: &[u8], first: usize, last: usize, dpi: f64) -> Vec<Gray> {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("in.pdf");
    std::fs::write(&input, pdf).expect("write pdf");
    rasterise_file(&input, first, last, dpi, dir.path())
}

fn rasterise_file(input: &Path, first: usize, last: usize, dpi: f64, dir: &Path) -> Vec<Gray> {
    let prefix = dir.join("page");
    let status = Command::new(RENDERER)
        .args([
            "-gray",
            "-r",
            &format!("{dpi}"),
            "-f",
            &first.to_string(),
            "-l",
            &last.to_string(),
        ])
        .arg(input)
        .arg(&prefix)
        .output()
        .expect("run pdftoppm");
    assert!(
        status.status.success(),
        "pdftoppm failed: {}",
        String::from_utf8_lossy(&status.stderr)
    );
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "pgm"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|f| read_pgm(&std::fs::read(f).unwrap(), dpi))
        .collect()
}

/// Reads a binary PGM (P5, 8-bit) file.
fn read_pgm(bytes: &[u8], dpi: f64) -> Gray {
    let mut fields = Vec::new();
    let mut i = 0;
    while fields.len() < 4 {
        while bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if bytes[i] == b'#' {
            while bytes[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        let start = i;
        while !bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        fields.push(String::from_utf8_lossy(&bytes[start..i]).into_owned());
    }
    assert_eq!(fields[0], "P5", "pdftoppm -gray writes binary PGM");
    let (w, h): (usize, usize) = (fields[1].parse().unwrap(), fields[2].parse().unwrap());
    let px = bytes[i + 1..i + 1 + w * h].to_vec();
    Gray { w, h, dpi, px }
}

/// The text of a PDF as poppler's `pdftotext` reads it (text inside placed
/// pages included), in UTF-8.
pub fn pdf_text(pdf: &[u8]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.pdf");
    std::fs::write(&input, pdf).unwrap();
    let out = std::process::Command::new("pdftotext")
        .args(["-q", "-enc", "UTF-8"])
        .arg(&input)
        .arg("-")
        .output()
        .expect("run pdftotext");
    String::from_utf8_lossy(&out.stdout).into_owned()
}
