//! Text templates inside data: a card text may quote its own values, e.g.
//! `"Deal {{ damage }} damage to a fighter in range {{ range }}."`, so the
//! number lives in one field and the text never drifts from it. Rendered
//! with tera, per locale, before layout; `check` renders every template in
//! every locale so mistakes are caught with a location.

pub mod guard;

use indexmap::IndexMap;
use serde_json::{Map, Value};
use tera::{Context, Kwargs, State, Tera};

use crate::model::{Component, FieldValue};
use crate::reference::{Fact, Term};

/// True when a text uses template syntax.
pub fn is_template(s: &str) -> bool {
    s.contains("{{") || s.contains("{%")
}

/// The values a component's texts can quote: its fields (texts in `locale`),
/// `id`, `name`, `copies`.
pub fn context(c: &Component, locale: &str) -> Context {
    Context::from_serialize(&Value::Object(c.values(locale))).unwrap_or_default()
}

/// Renders one text within the bounds of [`guard`]; plain texts come back unchanged.
pub fn render(tera: &Tera, text: &str, ctx: &Context) -> Result<String, String> {
    if !is_template(text) {
        return Ok(text.to_owned());
    }
    let prepared = guard::prepare(text)?;
    guard::render(tera, &prepared, text, ctx).map_err(|e| {
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
pub fn check_component(envs: &[TextEnv], c: &Component) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for env in envs {
        for (field, value) in &c.fields {
            visit_texts(value, &mut |t| {
                let Some(s) = t.0.get(&env.locale) else { return };
                if let Err(e) = env.render(s, Some(c)) {
                    out.push((field.clone(), env.locale.clone(), e));
                }
            });
        }
    }
    out
}

/// Calls `f` on every text inside a value.
pub fn visit_texts(v: &FieldValue, f: &mut impl FnMut(&crate::model::Text)) {
    match v {
        FieldValue::Text(t) => f(t),
        FieldValue::List(items) => items.iter().for_each(|i| visit_texts(i, f)),
        FieldValue::Record(r) => r.values().for_each(|i| visit_texts(i, f)),
        _ => {}
    }
}

/// The tera instance used for data texts, without glossary or facts.
pub fn engine() -> Tera {
    let mut tera = Tera::default();
    guard::register(&mut tera);
    tera.register_filter("cap", cap);
    tera
}

/// Raises the first letter only (tera's `capitalize` lowercases the rest,
/// which would spoil "coste de Maná").
fn cap(v: &str, _: Kwargs, _: &State) -> String {
    let mut chars = v.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Everything a text of a pack can quote in one locale: glossary terms
/// (`term(id=…, plural=…)`), facts (`fact(id=…)`) and every component
/// (`components["kind"]["id"].field`).
pub struct TextEnv {
    pub locale: String,
    tera: Tera,
    /// Converted once: tera values share their maps, so each render clones a pointer.
    components: tera::Value,
}

impl TextEnv {
    pub fn new(
        glossary: &[Term],
        facts: &[Fact],
        components: &IndexMap<String, Vec<Component>>,
        locale: &str,
    ) -> TextEnv {
        let mut tera = engine();
        let terms: std::collections::HashMap<String, (String, String)> = glossary
            .iter()
            .map(|t| {
                let one = t.forms.get(locale).to_owned();
                let many = t
                    .plural
                    .as_ref()
                    .map_or_else(|| one.clone(), |p| p.get(locale).to_owned());
                (t.id.clone(), (one, many))
            })
            .collect();
        let term_ids: Vec<String> = terms.keys().cloned().collect();
        tera.register_function("term", move |kwargs: Kwargs, _: &State| -> tera::TeraResult<String> {
            let id: &str = kwargs.must_get("id")?;
            let plural: bool = kwargs.get("plural")?.unwrap_or(false);
            match terms.get(id) {
                Some((one, many)) => Ok(if plural { many.clone() } else { one.clone() }),
                None => Err(tera::Error::message(unknown("glossary term", id, &term_ids))),
            }
        });
        let values: std::collections::HashMap<String, Value> =
            facts.iter().map(|f| (f.id.clone(), f.value.clone())).collect();
        let fact_ids: Vec<String> = values.keys().cloned().collect();
        tera.register_function(
            "fact",
            move |kwargs: Kwargs, _: &State| -> tera::TeraResult<tera::Value> {
                let id: &str = kwargs.must_get("id")?;
                match values.get(id) {
                    Some(Value::Number(n)) if n.is_i64() => Ok(tera::Value::from(n.as_i64().unwrap_or_default())),
                    Some(Value::Number(n)) => Ok(tera::Value::from(n.as_f64().unwrap_or_default())),
                    Some(Value::Bool(b)) => Ok(tera::Value::from(*b)),
                    Some(other) => Ok(tera::Value::from(other.as_str().unwrap_or_default().to_owned())),
                    None => Err(tera::Error::message(unknown("fact", id, &fact_ids))),
                }
            },
        );
        let components = Value::Object(
            components
                .iter()
                .map(|(kind, list)| {
                    let by_id: Map<String, Value> = list
                        .iter()
                        .map(|c| (c.id.clone(), Value::Object(c.values(locale))))
                        .collect();
                    (kind.clone(), Value::Object(by_id))
                })
                .collect(),
        );
        TextEnv {
            locale: locale.to_owned(),
            tera,
            components: tera::Value::from_serializable(&components),
        }
    }

    /// Renders a text; `own` adds a component's own values (a card text).
    pub fn render(&self, text: &str, own: Option<&Component>) -> Result<String, String> {
        if !is_template(text) {
            return Ok(text.to_owned());
        }
        let mut ctx = match own {
            Some(c) => context(c, &self.locale),
            None => Context::new(),
        };
        ctx.insert_value("components", self.components.clone());
        render(&self.tera, text, &ctx)
    }
}

fn unknown(what: &str, id: &str, known: &[String]) -> String {
    match crate::diag::did_you_mean(id, known.iter().map(String::as_str)) {
        Some(s) => format!("no {what} `{id}`; did you mean `{s}`?"),
        None => format!("no {what} `{id}`"),
    }
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

    fn env(c: &Component) -> TextEnv {
        let mut comps = IndexMap::new();
        comps.insert("card".to_string(), vec![c.clone()]);
        let one = |s: &str| Text([("en".to_string(), s.to_string())].into_iter().collect());
        let span = c.span;
        let glossary = vec![Term {
            id: "token".into(),
            forms: one("token"),
            plural: Some(one("tokens")),
            note: None,
            check: true,
            span,
        }];
        let facts = vec![Fact {
            id: "hand".into(),
            value: serde_json::json!(7),
            label: crate::reference::SText {
                text: one("Hand size"),
                span,
            },
            rule: None,
            span,
        }];
        TextEnv::new(&glossary, &facts, &comps, "en")
    }

    #[test]
    fn quotes_values_terms_facts_and_components() {
        let c = card("{{ name }} deals {{ damage }} damage.");
        let env = env(&c);
        let own = env.render("{{ name }} deals {{ damage }} damage.", Some(&c)).unwrap();
        assert_eq!(own, "Strike deals 3 damage.");
        assert!(check_component(std::slice::from_ref(&env), &c).is_empty());
        let text = "{{ term(id=\"token\", plural=true) | cap }}: keep {{ fact(id=\"hand\") }}; \
                    {{ components[\"card\"][\"strike\"].damage }}.";
        assert_eq!(env.render(text, None).unwrap(), "Tokens: keep 7; 3.");
        let e = env.render("a {{ term(id=\"tokn\") }}", None).unwrap_err();
        assert!(e.contains("did you mean `token`"), "{e}");
        let bad = card("Deals {{ damge }} damage.");
        let errors = check_component(&[env], &bad);
        assert_eq!(errors.len(), 1);
        assert!(errors[0].2.contains("damge"), "{}", errors[0].2);
    }
}
