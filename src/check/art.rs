//! Artwork and icons parsed as typst will draw them, with nothing read from
//! outside the file and every raster measured before it is decoded: a raster
//! file, or one embedded in an SVG as a `data:` URL, is refused when its
//! header declares more than [`MAX_ART_PIXELS`] or more than
//! [`MAX_DECODED_BYTES`] once decoded (bit depth and channels counted). An
//! SVG that links to anything outside itself (a path, a web address) is
//! refused at the link. Decoding, when it happens, keeps one image at a time.

use std::io::Cursor;
use std::sync::Mutex;

use image::ImageDecoder;
use resvg::usvg;

use crate::pack::assets::MAX_ART_PIXELS;

/// The most bytes a raster may take once decoded: 8000 × 8000 pixels of
/// 8-bit RGBA. A 16-bit image reaches it at half the pixels.
pub const MAX_DECODED_BYTES: u64 = 256 * 1024 * 1024;

/// Why a raster cannot be used, from its header alone.
#[derive(Debug, PartialEq)]
pub enum Budget {
    /// More pixels than [`MAX_ART_PIXELS`]: width and height.
    Pixels(u32, u32),
    /// More decoded bytes than [`MAX_DECODED_BYTES`]: width, height, bytes.
    Bytes(u32, u32, u64),
    /// The header does not read.
    Unreadable(String),
}

impl Budget {
    pub fn describe(&self) -> String {
        match self {
            Budget::Pixels(w, h) => format!(
                "it is {w} × {h} pixels ({:.0} megapixels), more than the {} megapixels artwork may have",
                f64::from(*w) * f64::from(*h) / 1e6,
                MAX_ART_PIXELS / 1_000_000
            ),
            Budget::Bytes(w, h, b) => format!(
                "it is {w} × {h} pixels that take {} MB decoded, more than the {} MB an image may take",
                b / 1024 / 1024,
                MAX_DECODED_BYTES / 1024 / 1024
            ),
            Budget::Unreadable(e) => format!("it does not decode ({e})"),
        }
    }
}

/// Measures a raster from its header, before anything is decoded.
pub fn measure(bytes: &[u8]) -> Result<(u32, u32), Budget> {
    let reader = image::ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| Budget::Unreadable(e.to_string()))?;
    let decoder = reader.into_decoder().map_err(|e| Budget::Unreadable(e.to_string()))?;
    let (w, h) = decoder.dimensions();
    if u64::from(w) * u64::from(h) > MAX_ART_PIXELS {
        return Err(Budget::Pixels(w, h));
    }
    let total = decoder.total_bytes();
    if total > MAX_DECODED_BYTES {
        return Err(Budget::Bytes(w, h, total));
    }
    Ok((w, h))
}

/// The bytes a raster file takes once decoded, from its header (`None`: not
/// a raster this reads, such as an SVG).
pub fn decoded_bytes(bytes: &[u8]) -> Option<u64> {
    let reader = image::ImageReader::new(Cursor::new(bytes)).with_guessed_format().ok()?;
    reader.format()?;
    Some(reader.into_decoder().ok()?.total_bytes())
}

/// Decodes a measured raster fully (and drops it): the file is whole and
/// typst will draw it.
pub fn decodes(bytes: &[u8]) -> Result<(), Budget> {
    let mut reader = image::ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| Budget::Unreadable(e.to_string()))?;
    let mut limits = image::Limits::default();
    limits.max_alloc = Some(MAX_DECODED_BYTES + 16 * 1024 * 1024);
    reader.limits(limits);
    reader.decode().map(drop).map_err(|e| Budget::Unreadable(e.to_string()))
}

/// Parses an SVG the way it will be drawn, refusing what it would read from
/// outside itself and embedded rasters over the budget. `Err` says why, with
/// the line and column of the offending `href` when there is one.
pub fn svg(bytes: &[u8]) -> Result<(), String> {
    parse(bytes).map(drop)
}

/// [`svg`], keeping the tree: an SVG embedded in an SVG is parsed once, by
/// the same rules.
fn parse(bytes: &[u8]) -> Result<usvg::Tree, String> {
    let refused: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let refuse = |why: String| refused.lock().unwrap_or_else(|e| e.into_inner()).push(why);
    let default_data = usvg::ImageHrefResolver::default_data_resolver();
    let mut opts = usvg::Options {
        resources_dir: None,
        ..usvg::Options::default()
    };
    opts.image_href_resolver = usvg::ImageHrefResolver {
        resolve_data: Box::new(|mime, data, o| {
            if mime == "image/svg+xml" {
                return match parse(&data) {
                    Ok(tree) => Some(usvg::ImageKind::SVG(tree)),
                    Err(why) => {
                        refuse(format!("an SVG embedded in it: {why}"));
                        None
                    }
                };
            }
            if let Err(b) = measure(&data) {
                refuse(format!("an image embedded in it ({mime}): {}", b.describe()));
                return None;
            }
            default_data(mime, data, o)
        }),
        resolve_string: Box::new(|href, _| {
            refuse(format!(
                "it links to `{}`{}, outside the file; embed the image in the SVG (a `data:` URL) or draw it there",
                printable(href),
                at(bytes, href)
            ));
            None
        }),
    };
    let parsed = usvg::Tree::from_data(bytes, &opts);
    drop(opts);
    let refused = refused.into_inner().unwrap_or_else(|e| e.into_inner());
    if let Some(first) = refused.into_iter().next() {
        return Err(first);
    }
    parsed.map_err(|e| format!("it is not a valid SVG ({e})"))
}

/// Generic families (CSS): no font of their own, left to whatever draws the SVG.
const GENERIC: &[&str] = &[
    "serif",
    "sans-serif",
    "monospace",
    "cursive",
    "fantasy",
    "system-ui",
    "inherit",
    "initial",
];

/// The first text of an SVG whose `font-family` (an attribute or a style
/// property) names no family in `families` (the project's `fonts/` and the
/// built-in fonts): typst would print it in another font, and pnpkit never
/// falls back silently. `Err` says which family and where.
pub fn svg_fonts(bytes: &[u8], families: &[String]) -> Result<(), String> {
    let text = String::from_utf8_lossy(bytes);
    let mut from = 0;
    while let Some(i) = text[from..].find("font-family") {
        let at = from + i;
        from = at + "font-family".len();
        let rest = text[from..].trim_start();
        let value = if let Some(r) = rest.strip_prefix('=') {
            // An attribute: `font-family="A, 'B'"`.
            let r = r.trim_start();
            let Some(q) = r.chars().next().filter(|c| *c == '"' || *c == '\'') else {
                continue;
            };
            let v = &r[1..];
            &v[..v.find(q).unwrap_or(v.len())]
        } else if let Some(r) = rest.strip_prefix(':') {
            // A style property: `font-family: A, 'B';` inside `style="…"` or a `<style>`.
            r
        } else {
            continue;
        };
        let listed: Vec<String> = css_families(value)
            .into_iter()
            .filter(|f| !f.is_empty() && !GENERIC.iter().any(|g| g.eq_ignore_ascii_case(f)))
            .collect();
        let Some(first) = listed.first() else { continue };
        if listed
            .iter()
            .any(|f| families.iter().any(|h| h.eq_ignore_ascii_case(f)))
        {
            continue;
        }
        let before = &text[..at];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        return Err(format!(
            "its text asks for font family `{}` (line {line}, column {column}), which is not in `fonts/` nor among the built-in fonts: it would print in another font; add the font to `fonts/`, name a family that is there, or turn the text into paths",
            printable(first)
        ));
    }
    Ok(())
}

/// The families of a CSS `font-family` value, up to where the value ends
/// (`;`, `}`, the end of the attribute or line): quoted names whole, `&quot;`
/// and `&apos;` read as quotes.
fn css_families(value: &str) -> Vec<String> {
    let value = value.replace("&quot;", "\"").replace("&apos;", "'");
    let mut out = Vec::new();
    let mut rest = value.trim_start();
    loop {
        let (name, after) = match rest.chars().next() {
            Some(q @ ('"' | '\'')) => {
                let v = &rest[1..];
                match v.find(q) {
                    Some(e) => (&v[..e], &v[e + 1..]),
                    None => (v, ""),
                }
            }
            _ => {
                let e = rest.find([',', ';', '"', '\'', '}', '\n', '>']).unwrap_or(rest.len());
                (&rest[..e], &rest[e..])
            }
        };
        out.push(name.trim().to_owned());
        match after.trim_start().strip_prefix(',') {
            Some(next) => rest = next.trim_start(),
            None => break,
        }
    }
    out
}

/// A link as it may be shown: at most 80 characters, controls escaped.
fn printable(s: &str) -> String {
    let mut out: String = s.chars().take(80).flat_map(char::escape_debug).collect();
    if s.chars().count() > 80 {
        out.push('…');
    }
    out
}

/// " (line L, column C)" of the first `href` holding `value` in the file.
fn at(bytes: &[u8], value: &str) -> String {
    let text = String::from_utf8_lossy(bytes);
    let Some(i) = text.find(value).filter(|_| !value.is_empty()) else {
        return String::new();
    };
    let before = &text[..i];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    format!(" (line {line}, column {column})")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png(w: u32, h: u32, color: image::ExtendedColorType) -> Vec<u8> {
        let mut out = Vec::new();
        let px = (w * h) as usize * color.bits_per_pixel() as usize / 8;
        image::codecs::png::PngEncoder::new(&mut out)
            .write_image(&vec![0; px], w, h, color)
            .unwrap();
        out
    }

    use image::ImageEncoder;

    /// A PNG whose header declares `w` × `h` pixels (its IHDR checksum redone).
    fn declaring(mut png: Vec<u8>, w: u32, h: u32) -> Vec<u8> {
        png[16..20].copy_from_slice(&w.to_be_bytes());
        png[20..24].copy_from_slice(&h.to_be_bytes());
        let mut crc = flate2::Crc::new();
        crc.update(&png[12..29]);
        png[29..33].copy_from_slice(&crc.sum().to_be_bytes());
        png
    }

    #[test]
    fn fonts_an_svg_asks_for_must_be_at_hand() {
        let have = ["DejaVu Sans".to_string()];
        let svg = |attr: &str| format!("<svg xmlns=\"http://www.w3.org/2000/svg\">\n  <text {attr}>Hi</text>\n</svg>");
        assert_eq!(svg_fonts(svg("font-family=\"DejaVu Sans\"").as_bytes(), &have), Ok(()));
        assert_eq!(
            svg_fonts(svg("font-family='Comic Sans MS, dejavu sans'").as_bytes(), &have),
            Ok(())
        );
        assert_eq!(svg_fonts(svg("font-family=\"serif\"").as_bytes(), &have), Ok(()));
        let why = svg_fonts(svg("font-family=\"Comic Sans MS\"").as_bytes(), &have).unwrap_err();
        assert!(why.contains("`Comic Sans MS` (line 2, column 9)"), "{why}");
        let why = svg_fonts(
            svg("style=\"fill:#000;font-family:&quot;Papyrus&quot;,serif\"").as_bytes(),
            &have,
        )
        .unwrap_err();
        assert!(why.contains("`Papyrus`"), "{why}");
        let why = svg_fonts(
            svg("style=\"font-family:'Comic Sans MS'; fill: #000\"").as_bytes(),
            &have,
        )
        .unwrap_err();
        assert!(why.contains("`Comic Sans MS`"), "{why}");
        assert_eq!(
            svg_fonts(
                svg("style=\"font-family:Impact,'DejaVu Sans'\" x=\"2\"").as_bytes(),
                &have
            ),
            Ok(())
        );
        let css = "<svg xmlns=\"http://www.w3.org/2000/svg\"><style>text { font-family: Impact; }</style></svg>";
        assert!(svg_fonts(css.as_bytes(), &have).is_err());
    }

    #[test]
    fn links_out_of_the_file_are_refused_at_the_href() {
        for href in [
            "/etc/hostname",
            "../outside/secret.txt",
            "https://example.com/a.png",
            "/dev/zero",
        ] {
            let text = format!(
                "<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'>\n  <image href='{href}' width='10' height='10'/>\n</svg>"
            );
            let err = svg(text.as_bytes()).unwrap_err();
            assert!(err.contains(href) && err.contains("line 2, column 16"), "{err}");
        }
    }

    #[test]
    fn embedded_rasters_are_measured_before_decoding() {
        use base64::Engine;
        let small = png(4, 4, image::ExtendedColorType::Rgba8);
        let ok = format!(
            "<svg xmlns='http://www.w3.org/2000/svg' width='4' height='4'><image href='data:image/png;base64,{}' width='4' height='4'/></svg>",
            base64::engine::general_purpose::STANDARD.encode(&small)
        );
        assert_eq!(svg(ok.as_bytes()), Ok(()));
        // A PNG header that declares 100,000 × 100,000 pixels.
        let bomb = declaring(small.clone(), 100_000, 100_000);
        let bad = ok.replace(
            &base64::engine::general_purpose::STANDARD.encode(&small),
            &base64::engine::general_purpose::STANDARD.encode(&bomb),
        );
        let err = svg(bad.as_bytes()).unwrap_err();
        assert!(err.contains("100000 × 100000"), "{err}");
    }

    #[test]
    fn decoded_bytes_count_bit_depth_and_channels() {
        // 6000 × 6000 is under the pixel limit; 16-bit RGBA takes 275 MB.
        let header = |color| declaring(png(1, 1, color), 6000, 6000);
        assert!(matches!(
            measure(&header(image::ExtendedColorType::Rgba16)),
            Err(Budget::Bytes(6000, 6000, _))
        ));
        assert_eq!(measure(&header(image::ExtendedColorType::Rgba8)), Ok((6000, 6000)));
    }
}
