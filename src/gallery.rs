//! The HTML gallery of a game: every component drawn as SVG (typst-svg, the
//! same designs as the kit) with its data, filterable by kind and
//! searchable, and the rules reference as HTML. Rendered with tera from
//! `templates/gallery/index.html`; static files only.

use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde_json::{Value, json};
use tera::{Context, Tera};

use crate::diag::{Diagnostic, SourceMap};
use crate::fsx::read::ReadError;
use crate::model::{FieldSpec, Game, Shape};
use crate::render::world::Shared;
use crate::render::{KitOptions, compile, plan_pieces};

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

/// The gallery's files for `game` in `locale`, relative to `<out>/<game>/`:
/// `index.html` and `gallery/<kind>/<id>.svg`. Typst errors come back as
/// diagnostics.
#[allow(clippy::type_complexity)]
pub fn gallery(
    shared: &Shared,
    game: &Game,
    locale: &str,
    template: &str,
) -> Result<Vec<(PathBuf, Vec<u8>)>, Vec<(Diagnostic, SourceMap)>> {
    let opts = KitOptions::default();
    let pieces = plan_pieces(game, locale, &opts, template);
    // The designs, laid out as the kit lays them out (memoized when `build` just did).
    let docs: Vec<_> = pieces
        .chunks
        .par_iter()
        .map(|c| {
            let mut sources = SourceMap::default();
            compile(shared, c, &[], &mut sources, None).map_err(|d| (d, sources))
        })
        .collect();
    let mut compiled = Vec::new();
    let mut problems = Vec::new();
    for d in docs {
        match d {
            Ok(c) => compiled.push(c.document),
            Err((diags, sources)) => {
                for d in diags {
                    let mut s = SourceMap::default();
                    for i in 0..sources.len() {
                        let f = sources.get(crate::diag::FileId(i as u32));
                        s.add(f.path.clone(), f.text.clone());
                    }
                    problems.push((d, s));
                }
            }
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let mut jobs = Vec::new();
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
                let face = if kind.shape == Shape::Board { "board" } else { "front" };
                let variant = kind
                    .variants
                    .as_ref()
                    .and_then(|v| game.components.get(v))
                    .and_then(|l| l.first())
                    .map(|v| v.id.as_str());
                let (chunk, page) = pieces.locate(&kind.id, &c.id, face, variant);
                let rel = format!("gallery/{}/{}.svg", kind.id, c.id);
                jobs.push((chunk, page, rel.clone()));
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
    let mut files: Vec<(PathBuf, Vec<u8>)> = jobs
        .par_iter()
        .filter_map(|(chunk, page, rel)| {
            let p = compiled.get(*chunk)?.pages().get(page.checked_sub(1)?)?;
            let svg = typst_svg::svg(p, &typst_svg::SvgOptions::default());
            Some((PathBuf::from(rel), svg.into_bytes()))
        })
        .collect();
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

/// The files of every game's gallery, under `<out>/<game>/`.
#[allow(clippy::type_complexity)]
pub fn galleries(
    shared: &Shared,
    games: &[Game],
    locales: &[String],
    out: &Path,
) -> (Vec<(PathBuf, Vec<u8>)>, Vec<(Diagnostic, SourceMap)>) {
    let mut files = Vec::new();
    let mut problems = Vec::new();
    for game in games {
        let locale = locales
            .iter()
            .find(|l| game.locales.contains(l))
            .or(game.locales.first())
            .cloned()
            .unwrap_or_default();
        let template = crate::render::pipeline::template_for(shared.root(), &game.id);
        match gallery(shared, game, &locale, &template) {
            Ok(f) => files.extend(f.into_iter().map(|(p, b)| (out.join(&game.id).join(p), b))),
            Err(p) => problems.extend(p),
        }
    }
    (files, problems)
}
