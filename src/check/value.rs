//! Validating one component against its kind's field declarations.

use indexmap::IndexMap;

use crate::diag::{Code, Diagnostic, Span};
use crate::model::{Component, FieldSpec, FieldType, FieldValue, Kind, Rule, Sample};
use crate::pack::decl::BUILTIN_FIELDS;
use crate::pack::reader::{MapReader, quote_list, read_int, read_slug, read_text, unknown_field, wrong_type};
use crate::pack::yaml::{Node, Value};

/// A reference to resolve once every component is known.
#[derive(Debug)]
pub struct PendingRef {
    pub span: Span,
    pub kind: String,
    pub id: String,
    pub what: String,
}

/// A member lookup: `value` must be the id of an item of `list` in the
/// component `owner_kind`/`owner_id`.
#[derive(Debug)]
pub struct PendingMember {
    pub span: Span,
    pub owner_kind: String,
    pub owner_id: String,
    pub list: String,
    pub value: String,
    pub what: String,
}

/// What validating a file's components leaves to check across files.
#[derive(Debug, Default)]
pub struct Pending {
    pub refs: Vec<PendingRef>,
    pub members: Vec<PendingMember>,
}

pub struct Ctx<'a> {
    pub kind: &'a Kind,
    pub locales: &'a [String],
    /// Where each top-level field of the kind was declared in game.yaml.
    pub decl_span: &'a dyn Fn(&str) -> Option<Span>,
}

struct MemberUse {
    span: Span,
    via: Option<String>,
    list: String,
    value: String,
    what: String,
}

/// Validates a component node. Returns the component when its identity
/// (`id`) could be read, even if some fields had problems, so references to
/// it still resolve; `diags` says whether it is valid.
pub fn component(node: &Node, ctx: &Ctx, diags: &mut Vec<Diagnostic>, pending: &mut Pending) -> Option<Component> {
    let kind = ctx.kind;
    let id_guess = node.get("id").and_then(Node::as_str).unwrap_or("?");
    let what = format!("{} `{id_guess}`", kind.id);
    let mut m = MapReader::new(node, what.clone(), diags)?;
    let id = m
        .require("id", "a unique id such as `amazon-archers`", diags)
        .and_then(|n| read_slug(n, &format!("the id of a {}", kind.id), diags));
    let name = m
        .require("name", "the name in every locale", diags)
        .and_then(|n| read_text(n, &format!("the name of {what}"), ctx.locales, diags));
    let copies = m.take("copies").and_then(|n| {
        let c = read_int(n, &format!("`copies` of {what}"), diags)?;
        if (1..=10_000).contains(&c) {
            Some(c as u32)
        } else {
            diags.push(
                Diagnostic::new(Code::OutOfRange, format!("`copies` of {what} is out of range"))
                    .at(n.span)
                    .label(format!("{c} copies"))
                    .found(c.to_string())
                    .expected("an integer from 1 to 10000"),
            );
            None
        }
    });
    let sample = m.take("sample").map(|n| read_sample(n, kind, &what, diags));
    let mut uses = Vec::new();
    let mut fields = IndexMap::new();
    let mut field_spans = IndexMap::new();
    if let Some(n) = node.get("copies") {
        field_spans.insert("copies".to_string(), n.span);
    }
    for (fname, spec) in &kind.fields {
        let fwhat = format!("field `{fname}` of {what}");
        match m.take(fname) {
            Some(v) => {
                field_spans.insert(fname.clone(), v.span);
                let mut vctx = VCtx {
                    locales: ctx.locales,
                    diags,
                    pending,
                    uses: &mut uses,
                    decl: (ctx.decl_span)(fname),
                };
                if let Some(val) = value(v, spec, &fwhat, &mut vctx) {
                    fields.insert(fname.clone(), val);
                }
            }
            None => {
                if let Some(d) = &spec.default {
                    fields.insert(fname.clone(), d.clone());
                } else if spec.required {
                    let mut d = Diagnostic::new(Code::MissingField, format!("{what} has no `{fname}`"))
                        .at(node.span)
                        .label(format!("`{fname}` is missing"))
                        .expected(format!("`{fname}`: {}", describe(spec)));
                    if let Some(span) = (ctx.decl_span)(fname) {
                        d = d.related(span, "required by this declaration");
                    }
                    diags.push(d);
                }
            }
        }
    }
    let known: Vec<&str> = BUILTIN_FIELDS
        .iter()
        .copied()
        .chain(kind.fields.keys().map(String::as_str))
        .collect();
    for (k, _) in m.rest() {
        let mut d = unknown_field(k, &what, &known);
        d.label = Some(format!("kind `{}` declares no such field", kind.id));
        diags.push(d);
    }
    let id = id?;
    // Member lookups in this component's own lists can be checked now.
    for u in uses {
        match u.via {
            None => {
                let ids = list_ids(fields.get(&u.list));
                if !ids.contains(&u.value.as_str()) {
                    diags.push(unknown_member(&u.span, &u.what, &u.value, &u.list, &what, &ids));
                }
            }
            Some(via) => {
                let owner_kind = match kind.fields.get(&via).map(|s| &s.ty) {
                    Some(FieldType::Ref { to, .. }) => to.clone(),
                    _ => continue,
                };
                if let Some(owner_id) = fields.get(&via).and_then(FieldValue::as_str) {
                    pending.members.push(PendingMember {
                        span: u.span,
                        owner_kind,
                        owner_id: owner_id.to_owned(),
                        list: u.list,
                        value: u.value,
                        what: u.what,
                    });
                }
            }
        }
    }
    let c = Component {
        id,
        kind: kind.id.clone(),
        name: name.unwrap_or_default(),
        copies: copies.unwrap_or(1),
        sample: sample.unwrap_or_default(),
        fields,
        span: node.get("id").map_or(node.span, |n| n.span),
        field_spans,
    };
    local_rules(&c, kind, diags);
    Some(c)
}

/// Whether a rule's `when` clause holds for a component.
pub fn rule_applies(rule: &Rule, c: &Component) -> bool {
    rule.when
        .iter()
        .all(|(f, values)| c.key_of(f).is_some_and(|v| values.contains(&v)))
}

/// "when powered = true" for messages.
pub fn rule_condition(rule: &Rule) -> String {
    if rule.when.is_empty() {
        return String::new();
    }
    let parts: Vec<String> = rule
        .when
        .iter()
        .map(|(f, v)| format!("{f} = {}", v.join(" | ")))
        .collect();
    format!(" when {}", parts.join(" and "))
}

pub fn rule_diag(rule: &Rule, c: &Component, span: Span, message: String, label: String) -> Diagnostic {
    let mut d = Diagnostic::new(
        Code::RuleViolated,
        format!("{} `{}` breaks rule `{}`: {message}", c.kind, c.id, rule.id),
    )
    .at(span)
    .label(label);
    if let Some(m) = &rule.message {
        d = d.note(m.clone());
    }
    if let Some(s) = rule.span {
        d = d.related(s, "rule declared here");
    }
    d
}

/// Checks the `require`, `forbid` and `expect` clauses of the kind's rules.
fn local_rules(c: &Component, kind: &Kind, diags: &mut Vec<Diagnostic>) {
    for rule in &kind.rules {
        if !rule_applies(rule, c) {
            continue;
        }
        let cond = rule_condition(rule);
        for f in &rule.require {
            if c.key_of(f).is_none() && c.field(f).is_none() {
                diags.push(rule_diag(
                    rule,
                    c,
                    c.span,
                    format!("`{f}` is required{cond}"),
                    format!("no `{f}`"),
                ));
            }
        }
        for f in &rule.forbid {
            if c.field(f).is_some() {
                diags.push(rule_diag(
                    rule,
                    c,
                    c.span_of(f),
                    format!("`{f}` must be absent{cond}"),
                    format!("`{f}` not allowed here"),
                ));
            }
        }
        for (f, values) in &rule.expect {
            let v = c.key_of(f);
            if !v.as_ref().is_some_and(|v| values.contains(v)) {
                let shown = v.map_or_else(|| "absent".to_string(), |v| format!("`{v}`"));
                let want = values.iter().map(|v| format!("`{v}`")).collect::<Vec<_>>().join(" or ");
                diags.push(
                    rule_diag(
                        rule,
                        c,
                        c.span_of(f),
                        format!("`{f}` must be {want}{cond}"),
                        format!("{f} is {shown}"),
                    )
                    .found(shown)
                    .expected(want),
                );
            }
        }
    }
}

/// The `id`s of the records of a list value.
pub fn list_ids(list: Option<&FieldValue>) -> Vec<&str> {
    list.and_then(FieldValue::as_list)
        .unwrap_or_default()
        .iter()
        .filter_map(|item| item.as_record()?.get("id")?.as_str())
        .collect()
}

pub fn unknown_member(span: &Span, what: &str, value: &str, list: &str, owner: &str, ids: &[&str]) -> Diagnostic {
    let mut d = Diagnostic::new(
        Code::UnknownMember,
        format!("{what} names `{value}`, which is not in `{list}` of {owner}"),
    )
    .at(*span)
    .label(format!("no `{value}` in `{list}`"))
    .found(format!("`{value}`"))
    .expected(if ids.is_empty() {
        format!("an id from `{list}` of {owner}, which is empty")
    } else {
        format!("one of {}", quote_list(ids))
    });
    d = d.suggest(value, ids.iter().copied());
    d
}

fn read_sample(n: &Node, kind: &Kind, what: &str, diags: &mut Vec<Diagnostic>) -> Sample {
    match &n.value {
        Value::Bool(true) => Sample::All,
        Value::Bool(false) => Sample::None,
        Value::Seq(items) => {
            let known: Vec<&str> = kind
                .fields
                .keys()
                .map(String::as_str)
                .chain(["name", "copies"])
                .collect();
            let mut out = Vec::new();
            for i in items {
                match i.as_str() {
                    Some(s) if known.contains(&s) => out.push(s.to_owned()),
                    Some(_) => diags.push(
                        unknown_field(i, &format!("`sample` of {what}"), &known)
                            .note("`sample` lists the fields whose values are invented"),
                    ),
                    None => diags.push(wrong_type(i, &format!("`sample` of {what}"), "a field name")),
                }
            }
            Sample::Fields(out)
        }
        _ => {
            diags.push(wrong_type(
                n,
                &format!("`sample` of {what}"),
                "`true` or a list of field names",
            ));
            Sample::None
        }
    }
}

struct VCtx<'a, 'b> {
    locales: &'a [String],
    diags: &'b mut Vec<Diagnostic>,
    pending: &'b mut Pending,
    uses: &'b mut Vec<MemberUse>,
    decl: Option<Span>,
}

/// Describes what a field accepts, for "expected ..." notes.
pub fn describe(spec: &FieldSpec) -> String {
    match &spec.ty {
        FieldType::Int { min, max } => range_text("an integer", min.map(|x| x as f64), max.map(|x| x as f64)),
        FieldType::Number { min, max } => range_text("a number", *min, *max),
        FieldType::Bool => "`true` or `false`".into(),
        FieldType::String => "a string".into(),
        FieldType::Text => "a text in every locale, e.g. {es: …, en: …}".into(),
        FieldType::Enum { values } => format!("one of {}", quote_list(values)),
        FieldType::Color => "a colour `#rrggbb`".into(),
        FieldType::Image { .. } => "the path of an image inside the pack, such as `art/zeus.png`".into(),
        FieldType::Ref { to, also } if also.is_empty() => format!("the id of a `{to}`"),
        FieldType::Ref { to, also } => format!("the id of a `{to}` or one of {}", quote_list(also)),
        FieldType::Member { via, list, .. } => match via {
            Some(v) => format!("an id from `{list}` of the `{v}`"),
            None => format!("an id from this component's `{list}`"),
        },
        FieldType::Cell { cols, rows } => match (cols, rows) {
            (Some(c), Some(r)) => format!("a square from `A1` to `{}{r}`", col_name(*c)),
            _ => "a square such as `C4`".into(),
        },
        FieldType::List { of, min, max, .. } => {
            let n = match (min, max) {
                (Some(a), Some(b)) if a == b => format!("exactly {a} "),
                (Some(a), Some(b)) => format!("{a} to {b} "),
                (Some(a), None) => format!("at least {a} "),
                (None, Some(b)) => format!("at most {b} "),
                (None, None) => String::new(),
            };
            format!("a list of {n}items, each {}", describe(of))
        }
        FieldType::Record { fields } => format!(
            "a mapping with {}",
            quote_list(&fields.keys().map(String::as_str).collect::<Vec<_>>())
        ),
    }
}

fn range_text(base: &str, min: Option<f64>, max: Option<f64>) -> String {
    match (min, max) {
        (Some(a), Some(b)) => format!("{base} from {a} to {b}"),
        (Some(a), None) => format!("{base} of at least {a}"),
        (None, Some(b)) => format!("{base} of at most {b}"),
        (None, None) => base.to_owned(),
    }
}

fn col_name(mut c: u32) -> String {
    let mut s = Vec::new();
    while c > 0 {
        c -= 1;
        s.push(b'A' + (c % 26) as u8);
        c /= 26;
    }
    s.reverse();
    String::from_utf8(s).unwrap_or_default()
}

/// Parses `C4` into (column, row), both 1-based.
pub fn parse_cell(s: &str) -> Option<(u32, u32)> {
    let split = s.find(|c: char| !c.is_ascii_uppercase())?;
    let (letters, digits) = s.split_at(split);
    if letters.is_empty() || digits.is_empty() || digits.starts_with('0') || !digits.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let col = letters
        .bytes()
        .try_fold(0u32, |acc, b| acc.checked_mul(26)?.checked_add((b - b'A' + 1) as u32))?;
    Some((col, digits.parse().ok()?))
}

fn range_diag(node: &Node, what: &str, spec: &FieldSpec, label: String, decl: Option<Span>) -> Diagnostic {
    let mut d = Diagnostic::new(Code::OutOfRange, format!("{what} is out of range"))
        .at(node.span)
        .label(label)
        .found(node.show())
        .expected(describe(spec));
    if let Some(h) = &spec.help {
        d = d.note(h.clone());
    }
    if let Some(span) = decl {
        d = d.related(span, "range declared here");
    }
    d
}

fn scalar_string(node: &Node) -> Option<String> {
    match &node.value {
        Value::Str(s) => Some(s.clone()),
        Value::Int(i) => Some(i.to_string()),
        _ => None,
    }
}

fn value(node: &Node, spec: &FieldSpec, what: &str, cx: &mut VCtx) -> Option<FieldValue> {
    if matches!(node.value, Value::Null) && !spec.required {
        return spec.default.clone();
    }
    let typed = |cx: &mut VCtx, expected: &str| {
        let mut d = wrong_type(node, what, expected);
        if let Some(h) = &spec.help {
            d = d.note(h.clone());
        }
        cx.diags.push(d);
        None
    };
    match &spec.ty {
        FieldType::Int { min, max } => {
            let Value::Int(i) = node.value else {
                return typed(cx, &describe(spec));
            };
            if min.is_some_and(|m| i < m) || max.is_some_and(|m| i > m) {
                let label = match (min, max) {
                    (Some(m), _) if i < *m => format!("{i} is below the minimum {m}"),
                    (_, Some(m)) => format!("{i} is above the maximum {m}"),
                    _ => String::new(),
                };
                cx.diags.push(range_diag(node, what, spec, label, cx.decl));
                return None;
            }
            Some(FieldValue::Int(i))
        }
        FieldType::Number { min, max } => {
            let x = match node.value {
                Value::Int(i) => i as f64,
                Value::Float(f) if f.is_finite() => f,
                _ => return typed(cx, &describe(spec)),
            };
            if min.is_some_and(|m| x < m) || max.is_some_and(|m| x > m) {
                cx.diags
                    .push(range_diag(node, what, spec, format!("{x} is out of range"), cx.decl));
                return None;
            }
            Some(FieldValue::Number(x))
        }
        FieldType::Bool => match node.value {
            Value::Bool(b) => Some(FieldValue::Bool(b)),
            _ => typed(cx, "`true` or `false`"),
        },
        FieldType::String => match scalar_string(node) {
            Some(s) => Some(FieldValue::Str(s)),
            None => typed(cx, "a string"),
        },
        // The file itself is checked with the pack's other files (check/assets.rs).
        FieldType::Image { .. } => match node.as_str() {
            Some(s) => Some(FieldValue::Str(s.to_owned())),
            None => typed(cx, "the path of an image inside the pack, such as `art/zeus.png`"),
        },
        FieldType::Text => read_text(node, what, cx.locales, cx.diags).map(FieldValue::Text),
        FieldType::Enum { values } => {
            let Some(s) = scalar_string(node) else {
                return typed(cx, &describe(spec));
            };
            if values.contains(&s) {
                return Some(FieldValue::Str(s));
            }
            let mut d = Diagnostic::new(Code::InvalidValue, format!("{what} is not an allowed value"))
                .at(node.span)
                .label(format!("`{s}` is not allowed here"))
                .found(format!("`{s}`"))
                .expected(describe(spec));
            d = d.suggest(&s, values.iter().map(String::as_str));
            if let Some(span) = cx.decl {
                d = d.related(span, "values declared here");
            }
            cx.diags.push(d);
            None
        }
        FieldType::Color => {
            let Some(s) = node.as_str() else {
                return typed(cx, "a colour `#rrggbb`");
            };
            let ok = s.len() == 7 && s.starts_with('#') && s[1..].chars().all(|c| c.is_ascii_hexdigit());
            if !ok {
                cx.diags.push(
                    Diagnostic::new(Code::InvalidValue, format!("{what} is not a colour"))
                        .at(node.span)
                        .label("not `#rrggbb`")
                        .found(node.show())
                        .expected("a colour written `#rrggbb`, e.g. `\"#2e7d32\"` (quoted: `#` starts a YAML comment)"),
                );
                return None;
            }
            Some(FieldValue::Str(s.to_ascii_lowercase()))
        }
        FieldType::Ref { to, also } => {
            let Some(s) = scalar_string(node) else {
                return typed(cx, &describe(spec));
            };
            if !also.contains(&s) {
                cx.pending.refs.push(PendingRef {
                    span: node.span,
                    kind: to.clone(),
                    id: s.clone(),
                    what: what.to_owned(),
                });
            }
            Some(FieldValue::Str(s))
        }
        FieldType::Member { via, list, also } => {
            let Some(s) = scalar_string(node) else {
                return typed(cx, &describe(spec));
            };
            if !also.contains(&s) {
                cx.uses.push(MemberUse {
                    span: node.span,
                    via: via.clone(),
                    list: list.clone(),
                    value: s.clone(),
                    what: what.to_owned(),
                });
            }
            Some(FieldValue::Str(s))
        }
        FieldType::Cell { cols, rows } => {
            let Some(s) = node.as_str() else {
                return typed(cx, &describe(spec));
            };
            let Some((c, r)) = parse_cell(s) else {
                cx.diags.push(
                    Diagnostic::new(Code::InvalidValue, format!("{what} is not a board square"))
                        .at(node.span)
                        .label("not a square")
                        .found(node.show())
                        .expected("a column letter and a row number, e.g. `C4`"),
                );
                return None;
            };
            if cols.is_some_and(|m| c > m) || rows.is_some_and(|m| r > m) {
                cx.diags
                    .push(range_diag(node, what, spec, format!("`{s}` is off the board"), cx.decl));
                return None;
            }
            Some(FieldValue::Str(s.to_owned()))
        }
        FieldType::List { of, min, max, unique } => {
            let Value::Seq(items) = &node.value else {
                return typed(cx, &describe(spec));
            };
            let n = items.len();
            if min.is_some_and(|m| n < m) || max.is_some_and(|m| n > m) {
                cx.diags
                    .push(range_diag(node, what, spec, format!("{n} items"), cx.decl));
            }
            let mut out = Vec::with_capacity(n);
            let mut seen: Vec<(String, Span)> = Vec::new();
            for (i, item) in items.iter().enumerate() {
                let iwhat = format!("{what}[{i}]");
                let Some(v) = value(item, of, &iwhat, cx) else {
                    continue;
                };
                // Items with an `id` (records) or scalar items of a `unique` list must not repeat.
                let key = match &v {
                    FieldValue::Record(r) => r.get("id").and_then(FieldValue::key),
                    other if *unique => other.key(),
                    _ => None,
                };
                if let Some(key) = key {
                    let at = item.get("id").map_or(item.span, |n| n.span);
                    if let Some((_, first)) = seen.iter().find(|(k, _)| *k == key) {
                        cx.diags.push(
                            Diagnostic::new(Code::DuplicateId, format!("`{key}` appears twice in {what}"))
                                .at(at)
                                .label("repeated here")
                                .related(*first, "first here")
                                .expected("each item of the list once"),
                        );
                    } else {
                        seen.push((key, at));
                    }
                }
                out.push(v);
            }
            Some(FieldValue::List(out))
        }
        FieldType::Record { fields } => {
            let mut m = MapReader::new(node, what.to_owned(), cx.diags)?;
            let mut out = IndexMap::new();
            for (fname, fspec) in fields {
                let fwhat = format!("{what}.{fname}");
                match m.take(fname) {
                    Some(v) => {
                        if let Some(val) = value(v, fspec, &fwhat, cx) {
                            out.insert(fname.clone(), val);
                        }
                    }
                    None => {
                        if let Some(d) = &fspec.default {
                            out.insert(fname.clone(), d.clone());
                        } else if fspec.required {
                            cx.diags.push(
                                Diagnostic::new(Code::MissingField, format!("{what} has no `{fname}`"))
                                    .at(node.span)
                                    .label(format!("`{fname}` is missing"))
                                    .expected(format!("`{fname}`: {}", describe(fspec))),
                            );
                        }
                    }
                }
            }
            let known: Vec<&str> = fields.keys().map(String::as_str).collect();
            m.finish(&known, cx.diags);
            Some(FieldValue::Record(out))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells() {
        assert_eq!(parse_cell("C4"), Some((3, 4)));
        assert_eq!(parse_cell("AA10"), Some((27, 10)));
        assert_eq!(parse_cell("c4"), None);
        assert_eq!(parse_cell("C0"), None);
        assert_eq!(parse_cell("C"), None);
        assert_eq!(col_name(27), "AA");
    }
}
