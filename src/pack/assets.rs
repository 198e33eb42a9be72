//! A pack's own files besides YAML: the icons its texts name (`icons/<name>.svg`,
//! declared under `icons:` in game.yaml) and the artwork its `image` fields
//! name (`art/…`). Both are read here, bounded, from inside the pack folder;
//! the render step hands them to typst as in-memory files under `/pack/`.

use std::path::{Component as PathPart, Path, PathBuf};

use indexmap::IndexMap;

use super::reader::{MapReader, read_str, read_text};
use super::yaml::Node;
use crate::diag::{Code, Diagnostic, Span};
use crate::model::Text;

/// The largest icon file read (bytes).
pub const MAX_ICON: u64 = 256 * 1024;
/// The largest artwork file read (bytes).
pub const MAX_ART: u64 = 32 * 1024 * 1024;
/// The most pixels a raster artwork may have (8000 × 8000; 256 MB decoded).
/// Checked from the file's header before it is decoded: a small file can
/// declare a huge image.
pub const MAX_ART_PIXELS: u64 = 64_000_000;

/// `icons: {gold: {es: Oro, en: Gold}, …}`: each icon's name in every locale.
pub fn read_icons(node: &Node, locales: &[String], diags: &mut Vec<Diagnostic>) -> IndexMap<String, (Text, Span)> {
    let mut out = IndexMap::new();
    let Some(mut m) = MapReader::new(node, "`icons`", diags) else {
        return out;
    };
    let entries: Vec<_> = m.rest().collect();
    for (k, v) in entries {
        let Some(name) = k.as_str().map(str::to_owned) else {
            continue;
        };
        m.take(&name);
        if !is_icon_name(&name) {
            diags.push(
                Diagnostic::new(
                    Code::InvalidValue,
                    format!("icon name `{name}` cannot be written in a text"),
                )
                .at(k.span)
                .label("not an icon name")
                .expected("a lowercase letter, then lowercase letters, digits and hyphens, e.g. `gold` or `hit-2`"),
            );
            continue;
        }
        if let Some(t) = read_text(v, &format!("the name of icon `{name}`"), locales, diags) {
            out.insert(name, (t, k.span));
        }
    }
    out
}

/// An icon name as texts write it between colons (`:gold:`).
pub fn is_icon_name(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// `fonts: {title: "DejaVu Sans", body: "Libertinus Serif"}`: families by role.
pub fn read_fonts(node: &Node, diags: &mut Vec<Diagnostic>) -> IndexMap<String, (String, Span)> {
    let mut out = IndexMap::new();
    let Some(mut m) = MapReader::new(node, "`fonts`", diags) else {
        return out;
    };
    let entries: Vec<_> = m.rest().collect();
    for (k, v) in entries {
        let Some(role) = k.as_str().map(str::to_owned) else {
            continue;
        };
        m.take(&role);
        if let Some(family) = read_str(v, &format!("the font family for `{role}`"), diags) {
            out.insert(role, (family.to_owned(), v.span));
        }
    }
    out
}

/// Why a pack file could not be read.
#[derive(Debug)]
pub enum AssetError {
    Missing,
    /// Outside the pack folder, or not a plain file (a link, a device, a folder).
    NotAllowed(String),
    TooLarge(u64),
    Io(String),
}

/// A relative path inside the pack: no `..`, no root, no drive.
pub fn relative_path(s: &str) -> Option<PathBuf> {
    let p = Path::new(s);
    if s.is_empty() || p.components().any(|c| !matches!(c, PathPart::Normal(_))) {
        return None;
    }
    Some(p.to_path_buf())
}

/// Reads a file of the pack at `rel`, at most `max` bytes, refusing links and
/// anything that is not a plain file inside the pack folder. The file is
/// opened once and checked on the opened handle (`fsx::read`): a swap after
/// the link check, or a hard link to a file elsewhere, is refused too.
pub fn read(pack: &Path, rel: &Path, max: u64) -> Result<Vec<u8>, AssetError> {
    use crate::fsx::read::{ReadError, Refusal, Scope, read_bounded};
    let path = pack.join(rel);
    let meta = match std::fs::symlink_metadata(&path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(AssetError::Missing),
        Err(e) => return Err(AssetError::Io(e.to_string())),
    };
    if !meta.file_type().is_file() {
        return Err(AssetError::NotAllowed(
            "not a plain file (a link, a folder or a device)".into(),
        ));
    }
    let scope = Scope::within(pack).map_err(|e| AssetError::Io(e.to_string()))?;
    read_bounded(&path, max, &scope).map_err(|e| match e {
        ReadError::Io(e) if e.kind() == std::io::ErrorKind::NotFound => AssetError::Missing,
        ReadError::Io(e) => AssetError::Io(e.to_string()),
        ReadError::Refused(Refusal::TooLarge { limit }) => AssetError::TooLarge(limit),
        ReadError::Refused(Refusal::NotAFile { what }) => AssetError::NotAllowed(format!("{what}, not a plain file")),
        ReadError::Refused(Refusal::Outside { .. }) => AssetError::NotAllowed("outside the pack folder".into()),
        ReadError::Refused(Refusal::HardLinked { links }) => AssetError::NotAllowed(format!(
            "a hard link ({links} names for one file), which may be a file from outside the pack; use a copy"
        )),
    })
}
