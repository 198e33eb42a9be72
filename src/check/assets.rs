//! Checks of what a pack prints besides its values: the markup of every
//! text (bold, italic, lists, `:icon:`), the icons it declares and names,
//! and the artwork its `image` fields name (present, decodable, sharp enough
//! at the size it prints). Returns the files the layouts may read, by the
//! virtual path typst sees (`/pack/icons/<name>.svg`, `/pack/art/…`).

use std::path::Path;
use std::sync::Arc;

use indexmap::IndexMap;

use crate::diag::{Code, Diagnostic, Span};
use crate::model::{Component, FieldSpec, FieldType, FieldValue, Kind, Size, Text};
use crate::pack::assets::{self, AssetError, MAX_ART, MAX_ICON};
use crate::pack::decl::Decl;

/// A file the layouts may read: its virtual path and bytes.
pub type Asset = (String, Arc<Vec<u8>>);

/// The smallest resolution of artwork at its printed size.
pub const MIN_PPI: f64 = 300.0;

/// The virtual path of an icon.
pub fn icon_path(name: &str) -> String {
    format!("/pack/icons/{name}.svg")
}

/// The virtual path of a pack file named by an image field.
pub fn art_path(rel: &str) -> String {
    format!("/pack/{rel}")
}

/// Reads and checks the declared icons.
pub fn icons(decl: &Decl, dir: &Path, fonts: &crate::fonts::Lazy, diags: &mut Vec<Diagnostic>) -> Vec<Asset> {
    let mut out = Vec::new();
    for (name, (_, span)) in &decl.icons {
        let rel = Path::new("icons").join(format!("{name}.svg"));
        match assets::read(dir, &rel, MAX_ICON) {
            Ok(bytes) => {
                if let Err(why) = super::art::svg(&bytes).and_then(|()| svg_fonts(&bytes, fonts)) {
                    diags.push(bad_asset(*span, &format!("icon `{name}`"), &rel, &why));
                } else {
                    out.push((icon_path(name), Arc::new(bytes)));
                }
            }
            Err(e) => diags.push(bad_asset(*span, &format!("icon `{name}`"), &rel, &describe(&e))),
        }
    }
    out
}

fn describe(e: &AssetError) -> String {
    match e {
        AssetError::Missing => "the file does not exist".into(),
        AssetError::NotAllowed(why) => format!("it is {why}"),
        AssetError::TooLarge(max) => format!("it is larger than {} MB", max / 1024 / 1024),
        AssetError::Io(e) => format!("it cannot be read: {e}"),
    }
}

/// One constructor for the unusable-file diagnostic.
fn bad_asset(span: Span, what: &str, rel: &Path, why: &str) -> Diagnostic {
    let icon = rel.starts_with("icons");
    Diagnostic::new(
        Code::BadAsset,
        format!("{what}: `{}` cannot be used: {why}", rel.display()),
    )
    .at(span)
    .label("named here")
    .expected(if icon {
        "an SVG file `icons/<name>.svg` inside the pack folder, drawn in #000000"
    } else {
        "a PNG, JPEG, GIF, WebP, SVG or PDF file inside the pack folder"
    })
}

/// Reads and checks the artwork of every `image` field.
pub fn art(
    dir: &Path,
    kinds: &IndexMap<String, Kind>,
    sizes: &IndexMap<String, Size>,
    components: &IndexMap<String, Vec<Component>>,
    fonts: &crate::fonts::Lazy,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Asset> {
    let mut out: IndexMap<String, Arc<Vec<u8>>> = IndexMap::new();
    for (kind_id, list) in components {
        let Some(kind) = kinds.get(kind_id) else { continue };
        let trim = kind.size.as_ref().and_then(|s| sizes.get(s)).copied();
        for c in list {
            for (field, spec) in &kind.fields {
                let Some(value) = c.fields.get(field) else { continue };
                let span = c.span_of(field);
                visit_images(spec, value, &mut |printed, rel| {
                    let what = format!("the art of {} `{}` ({field})", kind_id, c.id);
                    let Some(path) = assets::relative_path(rel) else {
                        diags.push(
                            Diagnostic::new(
                                Code::InvalidValue,
                                format!("{what}: `{rel}` is not a path inside the pack"),
                            )
                            .at(span)
                            .label("not a relative path")
                            .expected("a path relative to the pack folder, such as `art/zeus.png`"),
                        );
                        return;
                    };
                    let virt = art_path(rel);
                    if out.contains_key(&virt) {
                        return;
                    }
                    match assets::read(dir, &path, MAX_ART) {
                        Ok(bytes) => match decode(&bytes, fonts) {
                            Ok(px) => {
                                if let (Some((w, h)), Some(size)) = (px, printed.or(trim)) {
                                    let ppi = (w as f64 / (size.width / 25.4)).min(h as f64 / (size.height / 25.4));
                                    if ppi < MIN_PPI - 0.5 {
                                        diags.push(low_resolution(span, &what, rel, ppi, (w, h), size));
                                    }
                                }
                                out.insert(virt, Arc::new(bytes));
                            }
                            Err(why) => diags.push(bad_asset(span, &what, &path, &why)),
                        },
                        Err(AssetError::Missing) => diags.push(
                            Diagnostic::new(Code::MissingArt, format!("{what}: `{rel}` does not exist yet"))
                                .at(span)
                                .label("named here")
                                .found(format!("no file `{}`", dir.join(&path).display()))
                                .expected("the artwork at that path; until then the kit prints a labelled placeholder"),
                        ),
                        Err(e) => diags.push(bad_asset(span, &what, &path, &describe(&e))),
                    }
                });
            }
        }
    }
    out.into_iter().collect()
}

/// [`super::art::svg_fonts`] with the families read only when the SVG names one.
fn svg_fonts(bytes: &[u8], fonts: &crate::fonts::Lazy) -> Result<(), String> {
    if !bytes.windows(11).any(|w| w == b"font-family") {
        return Ok(());
    }
    super::art::svg_fonts(bytes, &fonts.get().families)
}

/// Calls `f(printed size, path)` for every image value under `spec`.
fn visit_images(spec: &FieldSpec, value: &FieldValue, f: &mut impl FnMut(Option<Size>, &str)) {
    match (&spec.ty, value) {
        (FieldType::Image { size }, FieldValue::Str(s)) => f(*size, s),
        (FieldType::List { of, .. }, FieldValue::List(items)) => items.iter().for_each(|i| visit_images(of, i, f)),
        (FieldType::Record { fields }, FieldValue::Record(r)) => {
            for (k, s) in fields {
                if let Some(v) = r.get(k) {
                    visit_images(s, v, f);
                }
            }
        }
        _ => {}
    }
}

/// Reads an image the way typst will draw it, one at a time: a raster is
/// measured from its header against the pixel and decoded-size budget, then
/// decoded and dropped; an SVG is parsed with nothing read from outside it.
/// Its pixel size (`None` for vector art), or why it cannot be used.
fn decode(bytes: &[u8], fonts: &crate::fonts::Lazy) -> Result<Option<(u32, u32)>, String> {
    use typst::visualize::{ImageFormat, VectorFormat};
    match ImageFormat::detect(bytes) {
        Some(ImageFormat::Raster(_)) => {
            let px = super::art::measure(bytes).map_err(|b| b.describe())?;
            super::art::decodes(bytes).map_err(|b| b.describe())?;
            Ok(Some(px))
        }
        Some(ImageFormat::Vector(VectorFormat::Svg)) => super::art::svg(bytes)
            .and_then(|()| svg_fonts(bytes, fonts))
            .map(|()| None),
        Some(ImageFormat::Vector(_)) => Ok(None),
        None => Err("it does not decode (not an image format typst reads)".into()),
    }
}

fn low_resolution(span: Span, what: &str, rel: &str, ppi: f64, (w, h): (u32, u32), size: Size) -> Diagnostic {
    Diagnostic::new(
        Code::LowResolutionArt,
        format!("{what}: `{rel}` prints at {ppi:.0} ppi"),
    )
    .at(span)
    .label("named here")
    .found(format!(
        "{w} × {h} px printed at {} × {} mm: {ppi:.0} ppi",
        size.width, size.height
    ))
    .expected(format!(
        "at least {MIN_PPI:.0} ppi: {:.0} × {:.0} px or more",
        (size.width / 25.4 * MIN_PPI).ceil(),
        (size.height / 25.4 * MIN_PPI).ceil()
    ))
}

/// Checks the markup of a text in every locale: well formed, and every
/// `:icon:` declared. `what` names the text, `span` is where it is written.
pub fn markup(t: &Text, what: &str, span: Span, icons: &IndexMap<String, (Text, Span)>, diags: &mut Vec<Diagnostic>) {
    for (locale, s) in &t.0 {
        let (doc, errors) = crate::markup::parse(s);
        let _ = doc;
        for e in errors {
            diags.push(
                Diagnostic::new(
                    Code::MalformedMarkup,
                    format!("the `{locale}` text of {what} has malformed markup"),
                )
                .at(span)
                .label(format!("in `{locale}`"))
                .found(format!(
                    "{} at character {}: «{}»",
                    e.message,
                    char_index(s, e.offset) + 1,
                    context(s, e.offset)
                ))
                .expected("`**bold**`, `*italic*` or `_italic_` closed on the same line; `\\*` for a literal asterisk"),
            );
        }
        for (offset, name) in crate::markup::icons(s) {
            if !icons.contains_key(&name) {
                let names: Vec<&str> = icons.keys().map(String::as_str).collect();
                let mut d = Diagnostic::new(
                    Code::UnknownIcon,
                    format!("the `{locale}` text of {what} names an unknown icon `:{name}:`"),
                )
                .at(span)
                .label(format!("in `{locale}`"))
                .found(format!("`:{name}:` at character {}", char_index(s, offset) + 1))
                .expected(if names.is_empty() {
                    "an icon declared under `icons:` in game.yaml (this pack declares none)".to_owned()
                } else {
                    format!(
                        "an icon declared under `icons:` in game.yaml: {}",
                        crate::pack::reader::quote_list(&names)
                    )
                });
                d = d.suggest(&name, names.iter().copied());
                diags.push(d);
            }
        }
    }
}

fn char_index(s: &str, byte: usize) -> usize {
    s[..byte.min(s.len())].chars().count()
}

/// A few words around a byte offset, for the message.
fn context(s: &str, byte: usize) -> String {
    let start = s[..byte.min(s.len())]
        .char_indices()
        .rev()
        .nth(12)
        .map_or(0, |(i, _)| i);
    let end = s[byte.min(s.len())..]
        .char_indices()
        .nth(20)
        .map_or(s.len(), |(i, _)| byte + i);
    s[start..end].replace('\n', " ")
}

/// Every translatable text of a component, with a name for messages and its field's span.
pub fn component_texts(c: &Component) -> Vec<(String, &Text, Span)> {
    fn walk<'a>(v: &'a FieldValue, path: &str, span: Span, out: &mut Vec<(String, &'a Text, Span)>) {
        match v {
            FieldValue::Text(t) => out.push((path.to_owned(), t, span)),
            FieldValue::List(items) => items
                .iter()
                .enumerate()
                .for_each(|(i, x)| walk(x, &format!("{path}[{i}]"), span, out)),
            FieldValue::Record(r) => r.iter().for_each(|(k, x)| walk(x, &format!("{path}.{k}"), span, out)),
            _ => {}
        }
    }
    let mut out = vec![("name".to_owned(), &c.name, c.span)];
    for (k, v) in &c.fields {
        walk(v, k, c.span_of(k), &mut out);
    }
    out
}
