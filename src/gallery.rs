//! The HTML gallery of a game: every component drawn as SVG (typst-svg, the
//! same designs as the kit) with its data, filterable by kind and
//! searchable, and the rules reference as HTML. Rendered with tera from
//! `templates/gallery/index.html`; static files only.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use tera::{Context, Tera};

use crate::diag::{Diagnostic, SourceMap};
use crate::fsx::read::ReadError;
use crate::model::{FieldSpec, Game, Shape};
use crate::render::pipeline::Pictures;
use crate::render::world::Shared;

/// The built-in page template, used when the project has none.
const TEMPLATE: &str = include_str!("../templates/gallery/index.html");

/// Interface strings of the page per locale.
fn strings(locale: &str) -> Value {
    match locale {
        "es" => json!({
            "pieces": "Componentes", "rules": "Reglamento", "search": "Buscar…", "glossary": "Glosario",
            "see": "Ver", "sample": "valores de muestra", "noimage": "Solo datos: no se imprime",
        }),
        _ => json!({
            "pieces": "Components", "rules": "Rules", "search": "Search…", "glossary": "Glossary",
            "see": "See", "sample": "sample values", "noimage": "Data only: not printed",
        }),
    }
}

/// A field value as text for the page.
/// A field's value as HTML: texts with their markup rendered, everything
/// else escaped; lists joined, records as `key: value` pairs.
fn show_html(v: &crate::model::FieldValue, spec: Option<&FieldSpec>, locale: &str) -> String {
    show(v, spec, locale, true)
}

/// A field's value as text (`html`: rendered and escaped for the page, else
/// plain for search). Enum values show their names in `locale` when the
/// field's declaration (`spec`) gives them.
fn show(v: &crate::model::FieldValue, spec: Option<&FieldSpec>, locale: &str, html: bool) -> String {
    use crate::markup::html_escape;
    use crate::model::{FieldType, FieldValue};
    let esc = |s: &str| if html { html_escape(s) } else { s.to_owned() };
    match v {
        FieldValue::Text(t) if html => crate::markup::html(t.get(locale)),
        FieldValue::Text(t) => crate::markup::parse(t.get(locale)).0.to_plain(),
        FieldValue::Str(s) => esc(spec.and_then(|f| f.labels.get(s)).map_or(s.as_str(), |t| t.get(locale))),
        FieldValue::Bool(b) => if *b { "✓" } else { "–" }.to_owned(),
        FieldValue::Int(i) => i.to_string(),
        FieldValue::Number(n) => n.to_string(),
        FieldValue::List(items) => {
            let of = spec.and_then(|f| match &f.ty {
                FieldType::List { of, .. } => Some(&**of),
                _ => None,
            });
            items
                .iter()
                .map(|i| show(i, of, locale, html))
                .collect::<Vec<_>>()
                .join(", ")
        }
        FieldValue::Record(r) => {
            let fields = spec.and_then(|f| match &f.ty {
                FieldType::Record { fields } => Some(fields),
                _ => None,
            });
            r.iter()
                .map(|(k, x)| format!("{}: {}", esc(k), show(x, fields.and_then(|f| f.get(k)), locale, html)))
                .collect::<Vec<_>>()
                .join("; ")
        }
        FieldValue::Effect(e) => esc(&crate::model::effects::summary(e)),
    }
}

/// Sections flattened with their depth (tera renders a list, not a tree).
fn flatten(sections: &Value, depth: usize, out: &mut Vec<Value>) {
    for s in sections.as_array().into_iter().flatten() {
        let mut flat = s.clone();
        flat["depth"] = json!(depth);
        flat["sections"] = json!([]);
        out.push(flat);
        flatten(&s["sections"], depth + 1, out);
    }
}

/// The gallery's files for `game`, relative to `<out>/<game>/`: `index.html`
/// and `gallery/<kind>/<id>.svg`, the pictures the build drew of its designs
/// (in the locale of `pictures`).
#[allow(clippy::type_complexity)]
pub fn gallery(
    shared: &Shared,
    game: &Game,
    pictures: &Pictures,
) -> Result<Vec<(PathBuf, Vec<u8>)>, Vec<(Diagnostic, SourceMap)>> {
    let locale = pictures.locale.as_str();
    let mut files: Vec<(PathBuf, Vec<u8>)> = Vec::new();
    let mut components = Vec::new();
    let mut kinds = Vec::new();
    for kind in game.kinds.values() {
        let list = game.components.get(&kind.id).map(Vec::as_slice).unwrap_or_default();
        if list.is_empty() {
            continue;
        }
        kinds.push(json!({"id": kind.id, "name": kind.name.get(locale), "count": list.len()}));
        for c in list {
            let printed = kind.shape != Shape::None && kind.size.is_some();
            let image = printed.then(|| {
                let rel = format!("gallery/{}/{}.svg", kind.id, c.id);
                if let Some(svg) = pictures.svgs.get(&(kind.id.clone(), c.id.clone())) {
                    files.push((PathBuf::from(&rel), svg.clone()));
                }
                rel
            });
            let shown: Vec<Value> = c
                .fields
                .iter()
                .map(|(k, v)| json!({"name": k.replace('_', " "), "value": show_html(v, kind.fields.get(k), locale)}))
                .collect();
            let name = c.name.get(locale);
            let search = format!(
                "{} {} {} {}",
                name,
                c.id,
                kind.name.get(locale),
                c.fields
                    .iter()
                    .map(|(k, v)| show(v, kind.fields.get(k), locale, false))
                    .collect::<Vec<_>>()
                    .join(" ")
            )
            .to_lowercase();
            components.push(json!({
                "kind": kind.id,
                "kind_name": kind.name.get(locale),
                "id": c.id,
                "name": name,
                "copies": c.copies,
                "sample": !c.sample.is_none(),
                "image": image,
                "fields": shown,
                "search": search,
            }));
        }
    }
    let rules = crate::render::book::rules_view(game, locale, crate::markup::TextOut::Html);
    let chapters: Vec<Value> = rules["chapters"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|ch| {
            let mut flat = Vec::new();
            flatten(&ch["sections"], 1, &mut flat);
            let mut ch = ch.clone();
            ch["sections"] = Value::Array(flat);
            ch
        })
        .collect();
    let page = json!({
        "locale": locale,
        "game": {"id": game.id, "name": game.name.get(locale)},
        "strings": strings(locale),
        "kinds": kinds,
        "components": components,
        "chapters": chapters,
        "glossary": rules["glossary"],
    });
    let template = Path::new("templates/gallery/index.html");
    let refused = |why: String| {
        vec![(
            Diagnostic::new(
                crate::diag::Code::TemplateError,
                format!("template error: the gallery template is not read: {why}"),
            )
            .in_file(template),
            SourceMap::default(),
        )]
    };
    let source = match shared.read(template) {
        Ok(bytes) => String::from_utf8(bytes).map_err(|_| refused("it is not UTF-8 text".into()))?,
        Err(ReadError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => TEMPLATE.to_owned(),
        Err(e) => return Err(refused(e.to_string())),
    };
    let html = render(&source, &page).map_err(|e| {
        vec![(
            Diagnostic::new(
                crate::diag::Code::TemplateError,
                format!("template error: the gallery page does not render: {e}"),
            )
            .in_file("templates/gallery/index.html"),
            SourceMap::default(),
        )]
    })?;
    files.push((PathBuf::from("index.html"), html.into_bytes()));
    Ok(files)
}

fn render(source: &str, page: &Value) -> Result<String, String> {
    let mut tera = Tera::default();
    let err = |e: tera::Error| {
        let mut msg = e.to_string();
        let mut s = std::error::Error::source(&e);
        while let Some(x) = s {
            msg.push_str(": ");
            msg.push_str(&x.to_string());
            s = x.source();
        }
        msg
    };
    tera.add_raw_template("index.html", source).map_err(err)?;
    let ctx = Context::from_serialize(page).map_err(err)?;
    tera.render("index.html", &ctx).map_err(err)
}

/// The files of every game's gallery, under `<out>/<game>/`, from the
/// pictures a build drew ([`crate::render::pipeline::Run::gallery`]).
#[allow(clippy::type_complexity)]
pub fn galleries(
    shared: &Shared,
    games: &[Game],
    pictures: &[Pictures],
    out: &Path,
) -> (Vec<(PathBuf, Vec<u8>)>, Vec<(Diagnostic, SourceMap)>) {
    let mut files = Vec::new();
    let mut problems = Vec::new();
    for game in games {
        let Some(p) = pictures.iter().find(|p| p.game == game.id) else {
            continue;
        };
        match gallery(shared, game, p) {
            Ok(f) => files.extend(f.into_iter().map(|(p, b)| (out.join(&game.id).join(p), b))),
            Err(p) => problems.extend(p),
        }
    }
    (files, problems)
}
