//! Text templates inside data: a card text may quote its own values, e.g.
//! `"Deal {{ damage }} damage to a fighter in range {{ range }}."`, so the
//! number lives in one field and the text never drifts from it. Rendered
//! with tera, per locale, before layout; `check` renders every template in
//! every locale so mistakes are caught with a location.

use serde_json::{Map, Value};
use tera::{Context, Tera};

use crate::model::{Component, FieldValue};

/// True when a text uses template syntax.
pub fn is_template(s: &str) -> bool {
    s.contains("{{") || s.contains("{%")
}

/// The values a component's texts can quote: its fields (texts in `locale`),
/// `id`, `name`, `copies`.
pub fn context(c: &Component, locale: &str) -> Context {
    let mut map = Map::new();
    for (k, v) in &c.fields {
        map.insert(k.clone(), plain(v, locale));
    }
    map.insert("id".into(), Value::String(c.id.clone()));
    map.insert("name".into(), Value::String(c.name.get(locale).to_owned()));
    map.insert("copies".into(), Value::from(c.copies));
    Context::from_serialize(&Value::Object(map)).unwrap_or_default()
}

/// A value with texts resolved to `locale`, templates left as written.
fn plain(v: &FieldValue, locale: &str) -> Value {
    match v {
        FieldValue::Text(t) => Value::String(t.get(locale).to_owned()),
        FieldValue::List(items) => Value::Array(items.iter().map(|i| plain(i, locale)).collect()),
        FieldValue::Record(r) => Value::Object(r.iter().map(|(k, v)| (k.clone(), plain(v, locale))).collect()),
        other => serde_json::to_value(other).unwrap_or(Value::Null),
    }
}

/// Renders one text; plain texts come back unchanged.
pub fn render(tera: &Tera, text: &str, ctx: &Context) -> Result<String, String> {
    if !is_template(text) {
        return Ok(text.to_owned());
    }
    tera.render_str(text, ctx, false).map_err(|e| {
        // tera's report names its one-off template; keep the useful lines.
        let mut msg = e.to_string();
        let mut source = std::error::Error::source(&e);
        while let Some(s) = source {
            msg.push_str(": ");
            msg.push_str(&s.to_string());
            source = s.source();
        }
        msg.replace("__tera_one_off", "text")
    })
}

/// Every template text of a component that fails, as (field, locale, error).
pub fn check_component(tera: &Tera, c: &Component, locales: &[String]) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for locale in locales {
        let mut ctx = None;
        for (field, value) in &c.fields {
            visit_texts(value, &mut |t| {
                let Some(s) = t.0.get(locale) else { return };
                if !is_template(s) {
                    return;
                }
                let ctx = ctx.get_or_insert_with(|| context(c, locale));
                if let Err(e) = render(tera, s, ctx) {
                    out.push((field.clone(), locale.clone(), e));
                }
            });
        }
    }
    out
}

fn visit_texts(v: &FieldValue, f: &mut impl FnMut(&crate::model::Text)) {
    match v {
        FieldValue::Text(t) => f(t),
        FieldValue::List(items) => items.iter().for_each(|i| visit_texts(i, f)),
        FieldValue::Record(r) => r.values().for_each(|i| visit_texts(i, f)),
        _ => {}
    }
}

/// The tera instance used for data texts.
pub fn engine() -> Tera {
    Tera::default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::{FileId, Span};
    use crate::model::Text;
    use indexmap::IndexMap;

    fn card(text_en: &str) -> Component {
        let mut fields = IndexMap::new();
        fields.insert("damage".into(), FieldValue::Int(3));
        let mut t = IndexMap::new();
        t.insert("en".to_string(), text_en.to_string());
        fields.insert("text".into(), FieldValue::Text(Text(t)));
        let mut name = IndexMap::new();
        name.insert("en".to_string(), "Strike".to_string());
        Component {
            id: "strike".into(),
            kind: "card".into(),
            name: Text(name),
            copies: 2,
            sample: Default::default(),
            fields,
            span: Span {
                file: FileId(0),
                line: 1,
                column: 1,
                start: 0,
                end: 0,
            },
            field_spans: IndexMap::new(),
        }
    }

    #[test]
    fn quotes_values_and_reports_unknown_ones() {
        let tera = engine();
        let c = card("{{ name }} deals {{ damage }} damage.");
        let ctx = context(&c, "en");
        assert_eq!(
            render(&tera, "{{ name }} deals {{ damage }} damage.", &ctx).unwrap(),
            "Strike deals 3 damage."
        );
        assert!(check_component(&tera, &c, &["en".into()]).is_empty());
        let bad = card("Deals {{ damge }} damage.");
        let errors = check_component(&tera, &bad, &["en".into()]);
        assert_eq!(errors.len(), 1);
        assert!(errors[0].2.contains("damge"), "{}", errors[0].2);
    }
}
