//! A small deterministic mutator for the smoke fuzz test: byte flips,
//! insertions, deletions, duplicated and swapped chunks, and tokens of the
//! format spliced in, from a fixed seed. The coverage-guided fuzzers in
//! `fuzz/` go further; this one runs in every `cargo test`.
#![allow(dead_code)]

/// Tokens worth splicing into YAML-based inputs (packs, logs, YAML decks).
pub const YAML_TOKENS: &[&str] = &[
    ": ",
    "- ",
    "{",
    "}",
    "[",
    "]",
    ",",
    "&a ",
    "*a",
    "!!str ",
    "!!binary ",
    "\"",
    "'",
    "\n",
    "\n  ",
    "|",
    ">-",
    "#",
    "---\n",
    "...\n",
    "~",
    "null",
    "true",
    "-1",
    "0x1F",
    "1e400",
    "99999999999999999999",
    ".nan",
    "<<: *a",
    "? ",
    "\t",
    "\u{feff}",
    "é",
    "💥",
    "{{",
    "}}",
    "{% for x in y %}",
    "\\",
    "%YAML 1.2\n",
    "id",
    "copies",
];

/// Tokens for deck lists.
pub const DECK_TOKENS: &[&str] = &[
    "\n",
    "3 ",
    "3x ",
    "x",
    "0 ",
    "-1 ",
    "99999999999999999999 ",
    "#",
    "//",
    ":",
    "hero: ",
    "mode: ",
    "(",
    ")",
    "[",
    "]",
    "\t",
    "\u{feff}",
    "é",
    "💥",
    "Sideboard\n",
    "---\n",
    "* ",
    "  ",
];

/// Tokens for CSV sheets.
pub const CSV_TOKENS: &[&str] = &[
    ",", "\"", "\"\"", "\n", "\r\n", "[", "]", "{", "}", ": ", "#", "id", "file", "count", "\u{feff}", "é", ";",
];

/// Tokens for PO files.
pub const PO_TOKENS: &[&str] = &[
    "msgid ",
    "msgstr ",
    "msgctxt ",
    "msgid_plural ",
    "msgstr[0] ",
    "\"",
    "\\",
    "\\n",
    "\\x",
    "\n",
    "\n\n",
    "#, fuzzy\n",
    "#~ ",
    "#: ",
    "{{",
    "é",
    "💥",
    "\u{feff}",
];

/// Tokens for SVG art and icons: links out (paths, devices, addresses),
/// embedded images and huge sizes.
pub const SVG_TOKENS: &[&str] = &[
    "<image href=\"",
    "<image xlink:href=\"",
    "/etc/hostname",
    "/dev/zero",
    "../outside/secret.txt",
    "https://example.com/a.png",
    "file:///etc/passwd",
    "data:image/png;base64,",
    "data:image/svg+xml;base64,",
    "data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg'/>",
    "width=\"100000\" height=\"100000\"",
    "<use href=\"#a\"/>",
    "<!ENTITY a \"&b;&b;&b;\">",
    "font-family=\"Comic Sans MS\"",
    "<text>",
    "\"",
    "<",
    ">",
    "/>",
];

/// A mutated copy of `seed`.
pub fn mutate(rng: &mut fastrand::Rng, seed: &[u8], tokens: &[&str]) -> Vec<u8> {
    let mut v = seed.to_vec();
    for _ in 0..rng.usize(1..=4) {
        let len = v.len();
        match rng.u8(0..8) {
            0 if len > 0 => {
                let i = rng.usize(0..len);
                v[i] ^= 1 << rng.u8(0..8);
            }
            1 => {
                let i = rng.usize(0..=len);
                v.insert(i, rng.u8(..));
            }
            2 if len > 0 => {
                let i = rng.usize(0..len);
                let n = rng.usize(1..=(len - i).min(64));
                v.drain(i..i + n);
            }
            3 if len > 0 => {
                // Duplicate a chunk somewhere else.
                let i = rng.usize(0..len);
                let n = rng.usize(1..=(len - i).min(256));
                let chunk = v[i..i + n].to_vec();
                let at = rng.usize(0..=v.len());
                v.splice(at..at, chunk);
            }
            4 if len > 1 => {
                // Swap two lines.
                let text = String::from_utf8_lossy(&v).into_owned();
                let mut lines: Vec<&str> = text.split('\n').collect();
                if lines.len() > 1 {
                    let (a, b) = (rng.usize(0..lines.len()), rng.usize(0..lines.len()));
                    lines.swap(a, b);
                    v = lines.join("\n").into_bytes();
                }
            }
            5 if len > 0 => v.truncate(rng.usize(0..len)),
            _ => {
                let t = tokens[rng.usize(0..tokens.len())];
                let at = rng.usize(0..=v.len());
                v.splice(at..at, t.bytes());
            }
        }
    }
    v
}
