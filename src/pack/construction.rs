//! Reading `construction:` from game.yaml (docs/decks.md), checking every
//! kind, field and number it names against the pack's declarations.

use indexmap::IndexMap;

use super::decl::BUILTIN_FIELDS;
use super::reader::{MapReader, quote_list, read_bool, read_seq, read_str, read_text, wrong_type};
use super::yaml::{Node, Value};
use crate::diag::{Code, Diagnostic};
use crate::model::construction::{Amount, Bound, Check, Construction, DeckRule, Filter, HeaderField, HeaderType, Role};
use crate::model::{FieldType, Kind, Text};

const KEYS: &[&str] = &["noun", "kinds", "header", "modes", "roles", "rules", "draw", "pool"];
const CHECKS: &[&str] = &[
    "count", "distinct", "sum", "spend", "copies", "requires", "belongs", "matches", "reserve", "one_of",
];
const BOUNDS: &[&str] = &["exactly", "at_least", "at_most"];
/// Keys every rule may have, whatever its check.
const COMMON_KEYS: &[&str] = &["id", "cite", "label", "when", "where"];

pub(super) struct Ctx<'a> {
    pub(super) kinds: &'a IndexMap<String, Kind>,
    pub(super) construction_kinds: Vec<String>,
    pub(super) header: IndexMap<String, HeaderField>,
    pub(super) modes: Option<String>,
}

pub(super) fn bad(node: &Node, message: String, expected: impl Into<String>) -> Diagnostic {
    Diagnostic::new(Code::BadDeclaration, message)
        .at(node.span)
        .label("in `construction`")
        .expected(expected)
}

/// Reads the `construction:` section.
pub fn read_construction(
    node: &Node,
    kinds: &IndexMap<String, Kind>,
    locales: &[String],
    diags: &mut Vec<Diagnostic>,
) -> Option<Construction> {
    let mut m = MapReader::new(node, "`construction`", diags)?;
    let noun = m
        .take("noun")
        .and_then(|n| read_words(n, "`noun`", locales, diags))
        .unwrap_or_else(|| same_in_all(locales, "deck"));
    let kind_names: Vec<&str> = kinds.keys().map(String::as_str).collect();
    let mut ck = Vec::new();
    if let Some(kn) = m.require("kinds", "the kinds a list may name", diags)
        && let Some(seq) = read_seq(kn, "`kinds`", diags)
    {
        for k in seq {
            if let Some(s) = read_str(k, "a kind", diags) {
                if kinds.contains_key(s) {
                    ck.push(s.to_string());
                } else {
                    diags.push(
                        bad(
                            k,
                            format!("construction names unknown kind `{s}`"),
                            format!("one of {}", quote_list(&kind_names)),
                        )
                        .suggest(s, kind_names.iter().copied()),
                    );
                }
            }
        }
    }
    let modes = m.take("modes").and_then(|n| {
        let s = read_str(n, "`modes`", diags)?;
        if kinds.contains_key(s) {
            Some(s.to_string())
        } else {
            diags.push(bad(
                n,
                format!("`modes` names unknown kind `{s}`"),
                "the kind whose components are the game modes",
            ));
            None
        }
    });
    let mut header = IndexMap::new();
    if let Some(hn) = m.take("header")
        && let Some(mut hm) = MapReader::new(hn, "`header`", diags)
    {
        let entries: Vec<_> = hm.rest().collect();
        for (k, v) in entries {
            let Some(name) = k.as_str() else { continue };
            hm.take(name);
            if let Some(f) = read_header_field(name, v, kinds, locales, diags) {
                header.insert(name.to_string(), f);
            }
        }
    }
    if let Some(mk) = &modes {
        header.insert(
            "mode".into(),
            HeaderField {
                ty: HeaderType::Ref { kind: mk.clone() },
                required: false,
                names: Text::default(),
            },
        );
    }
    let roles: Vec<Role> = m
        .take("roles")
        .and_then(|n| read_seq(n, "`roles`", diags))
        .map(|seq| seq.iter().filter_map(|r| read_role(r, locales, diags)).collect())
        .unwrap_or_default();
    let role_ids: Vec<String> = roles.iter().map(|r| r.id.clone()).collect();
    let ctx = Ctx {
        kinds,
        construction_kinds: ck.clone(),
        header,
        modes,
    };
    let mut rules = Vec::new();
    if let Some(rn) = m.require("rules", "the construction rules", diags)
        && let Some(seq) = read_seq(rn, "`rules`", diags)
    {
        for r in seq {
            if let Some(rule) = read_rule(r, &ctx, &role_ids, locales, false, diags) {
                if rules
                    .iter()
                    .any(|x: &DeckRule| x.id == rule.id || x.parts.iter().any(|p| p.id == rule.id))
                {
                    diags.push(bad(
                        r,
                        format!("construction rule `{}` is declared twice", rule.id),
                        "unique rule ids",
                    ));
                }
                rules.push(rule);
            }
        }
    }
    let draw = m
        .take("draw")
        .and_then(|n| super::draw::read_draw(n, &ctx, locales, diags));
    let shared_pool = m
        .take("pool")
        .and_then(|n| match read_str(n, "`pool`", diags)? {
            "shared" => Some(true),
            "own" => Some(false),
            other => {
                diags.push(bad(
                    n,
                    format!("`pool: {other}` is not a pool"),
                    "`own` (each player has a whole box, the default) or `shared` (players draft from one box)",
                ));
                None
            }
        })
        .unwrap_or(false);
    m.finish(KEYS, diags);
    Some(Construction {
        noun,
        kinds: ck,
        header: ctx.header,
        modes: ctx.modes,
        roles,
        rules,
        draw,
        shared_pool,
        span: node.span,
    })
}

/// A text given once for every locale (`noun: deck`) or per locale
/// (`noun: {es: mazo, en: deck}`).
pub(super) fn read_words(node: &Node, what: &str, locales: &[String], diags: &mut Vec<Diagnostic>) -> Option<Text> {
    match &node.value {
        Value::Str(s) => Some(same_in_all(locales, s)),
        _ => read_text(node, what, locales, diags),
    }
}

fn same_in_all(locales: &[String], s: &str) -> Text {
    Text(locales.iter().map(|l| (l.clone(), s.to_string())).collect())
}

/// `ally` or `{id: ally, name: {es: aliado, en: ally}}`.
fn read_role(node: &Node, locales: &[String], diags: &mut Vec<Diagnostic>) -> Option<Role> {
    if let Value::Str(s) = &node.value {
        return Some(Role {
            id: s.clone(),
            name: same_in_all(locales, s),
        });
    }
    let mut m = MapReader::new(node, "a role", diags)?;
    let id = m
        .require("id", "the role's id (`ally`)", diags)
        .and_then(|n| read_str(n, "the role id", diags))
        .map(str::to_string);
    let name = m
        .take("name")
        .and_then(|n| read_words(n, "the role's name", locales, diags));
    m.finish(&["id", "name"], diags);
    let id = id?;
    Some(Role {
        name: name.unwrap_or_else(|| same_in_all(locales, &id)),
        id,
    })
}

fn read_header_field(
    name: &str,
    node: &Node,
    kinds: &IndexMap<String, Kind>,
    locales: &[String],
    diags: &mut Vec<Diagnostic>,
) -> Option<HeaderField> {
    let mut m = MapReader::new(node, format!("header field `{name}`"), diags)?;
    let ty = m
        .require("type", "`ref` or `int`", diags)
        .and_then(|n| read_str(n, "`type`", diags).map(|s| (s, n)));
    let to = m.take("to");
    let required = m
        .take("required")
        .and_then(|n| read_bool(n, "`required`", diags))
        .unwrap_or(false);
    let names = m
        .take("name")
        .and_then(|n| read_words(n, "the header key per locale", locales, diags))
        .unwrap_or_else(|| same_in_all(locales, name));
    m.finish(&["type", "to", "required", "name"], diags);
    let field = |ty| HeaderField { ty, required, names };
    match ty? {
        ("int", _) => Some(field(HeaderType::Int)),
        ("ref", n) => {
            let Some(to) = to.and_then(|t| read_str(t, "`to`", diags)) else {
                diags.push(bad(
                    n,
                    format!("header field `{name}` is a ref without `to`"),
                    "`to: <kind>`",
                ));
                return None;
            };
            if !kinds.contains_key(to) {
                diags.push(bad(
                    n,
                    format!("header field `{name}` refers to unknown kind `{to}`"),
                    "a declared kind",
                ));
                return None;
            }
            Some(field(HeaderType::Ref { kind: to.to_string() }))
        }
        (other, n) => {
            diags.push(bad(
                n,
                format!("header field `{name}` has unknown type `{other}`"),
                "`ref` or `int`",
            ));
            None
        }
    }
}

pub(super) fn read_filter(node: &Node, ctx: &Ctx, diags: &mut Vec<Diagnostic>) -> Filter {
    let mut f = Filter::default();
    let Some(entries) = node.as_map() else {
        diags.push(wrong_type(
            node,
            "a filter",
            "a mapping of field: value (`{kind: character, rank: basic}`)",
        ));
        return f;
    };
    for (k, v) in entries {
        let Some(field) = read_str(k, "a filter field", diags) else {
            continue;
        };
        let values: Vec<String> = match &v.value {
            Value::Seq(items) => items.iter().filter_map(scalar).collect(),
            _ => scalar(v).into_iter().collect(),
        };
        if field == "kind" {
            for kind in &values {
                if !ctx.construction_kinds.contains(kind) {
                    diags.push(bad(
                        v,
                        format!("filter names kind `{kind}`, which lists cannot hold"),
                        format!("one of {}", quote_list(&ctx.construction_kinds)),
                    ));
                }
            }
            f.kinds = values;
        } else {
            f.fields.insert(field.to_string(), values);
        }
    }
    let kinds = if f.kinds.is_empty() {
        &ctx.construction_kinds
    } else {
        &f.kinds
    };
    for field in f.fields.keys() {
        let known = kinds
            .iter()
            .any(|k| ctx.kinds.get(k).is_some_and(|kd| kd.fields.contains_key(field)))
            || BUILTIN_FIELDS.contains(&field.as_str());
        if !known {
            diags.push(bad(
                node,
                format!("filter field `{field}` is not declared by the filtered kinds"),
                format!("a field of {}", quote_list(kinds)),
            ));
        }
    }
    f
}

fn scalar(n: &Node) -> Option<String> {
    match &n.value {
        Value::Str(s) => Some(s.clone()),
        Value::Int(i) => Some(i.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Float(x) => Some(x.to_string()),
        _ => None,
    }
}

fn read_amount(node: &Node, ctx: &Ctx, diags: &mut Vec<Diagnostic>) -> Option<Amount> {
    if let Value::Int(n) = node.value {
        return Some(Amount::Number(n));
    }
    let mut m = MapReader::new(node, "an amount", diags)?;
    let out = if let Some(f) = m.take("mode") {
        let f = read_str(f, "`mode`", diags)?;
        let ok = ctx
            .modes
            .as_ref()
            .is_some_and(|mk| matches!(ctx.kinds[mk].fields.get(f).map(|s| &s.ty), Some(FieldType::Int { .. })));
        if !ok {
            diags.push(bad(
                node,
                format!("amount `{{mode: {f}}}` is not an int field of the modes kind"),
                "`modes:` declared and an int field of it",
            ));
            return None;
        }
        Some(Amount::Mode(f.to_string()))
    } else if let Some(h) = m.take("header") {
        let h = read_str(h, "`header`", diags)?;
        if !matches!(ctx.header.get(h).map(|f| &f.ty), Some(HeaderType::Int)) {
            diags.push(bad(
                node,
                format!("amount `{{header: {h}}}` names no int header field"),
                "an int field under `header:`",
            ));
            return None;
        }
        Some(Amount::Header(h.to_string()))
    } else if let Some(k) = m.take("kit") {
        let k = read_str(k, "`kit`", diags)?;
        let by = m
            .require("by", "the field of the kit pieces that names the card", diags)
            .and_then(|n| read_str(n, "`by`", diags))?;
        // `by: id`: the card's own copies (`{kit: card, by: id}`).
        if !ctx
            .kinds
            .get(k)
            .is_some_and(|kd| by == "id" || kd.fields.contains_key(by))
        {
            diags.push(bad(
                node,
                format!("amount `{{kit: {k}, by: {by}}}` names no such kind and field"),
                "a kind whose `by` field names the card",
            ));
            return None;
        }
        Some(Amount::Kit {
            kind: k.to_string(),
            by: by.to_string(),
        })
    } else {
        diags.push(bad(
            node,
            "an amount must be a number, `{mode: f}`, `{header: h}` or `{kit: k, by: f}`".into(),
            "one of those forms",
        ));
        None
    };
    m.finish(&["mode", "header", "kit", "by"], diags);
    out
}

fn read_bound(m: &mut MapReader, ctx: &Ctx, diags: &mut Vec<Diagnostic>) -> Option<Bound> {
    let mut found = Vec::new();
    for (key, make) in [
        ("exactly", Bound::Exactly as fn(Amount) -> Bound),
        ("at_least", Bound::AtLeast),
        ("at_most", Bound::AtMost),
    ] {
        if let Some(n) = m.take(key)
            && let Some(a) = read_amount(n, ctx, diags)
        {
            found.push((make(a), n));
        }
    }
    match found.len() {
        0 => None,
        1 => found.pop().map(|(b, _)| b),
        _ => {
            diags.push(bad(
                found[1].1,
                "a rule gives more than one of `exactly`, `at_least`, `at_most`".into(),
                "one bound",
            ));
            None
        }
    }
}

fn field_of_filtered(field: &str, filter: &Filter, ctx: &Ctx, want: fn(&FieldType) -> bool) -> bool {
    let kinds = if filter.kinds.is_empty() {
        &ctx.construction_kinds
    } else {
        &filter.kinds
    };
    kinds.iter().any(|k| {
        ctx.kinds
            .get(k)
            .and_then(|kd| kd.fields.get(field))
            .is_some_and(|s| want(&s.ty))
    })
}

/// Reads the check of a rule (`key` is its check's key).
fn read_check(
    key: &str,
    node: &Node,
    m: &mut MapReader,
    filter: &mut Filter,
    ctx: &Ctx,
    diags: &mut Vec<Diagnostic>,
) -> Option<Check> {
    Some(match key {
        "count" => {
            let f = m.take("count")?;
            if f.as_map().is_some_and(|e| !e.is_empty()) {
                *filter = read_filter(f, ctx, diags);
            }
            let Some(b) = read_bound(m, ctx, diags) else {
                diags.push(bad(
                    node,
                    "a `count` rule needs `exactly`, `at_least` or `at_most`".into(),
                    "a bound",
                ));
                return None;
            };
            Check::Count(b)
        }
        "distinct" => {
            let f = m
                .take("distinct")
                .and_then(|n| read_str(n, "`distinct`", diags))?
                .to_string();
            if !field_of_filtered(&f, filter, ctx, |_| true) && !BUILTIN_FIELDS.contains(&f.as_str()) {
                diags.push(bad(
                    node,
                    format!("`distinct: {f}` is not a field of the filtered kinds"),
                    "a field such as `faction`",
                ));
            }
            let Some(b) = read_bound(m, ctx, diags) else {
                diags.push(bad(
                    node,
                    "a `distinct` rule needs a bound".into(),
                    "`exactly`, `at_least` or `at_most`",
                ));
                return None;
            };
            Check::Distinct { field: f, bound: b }
        }
        "sum" => {
            let f = m.take("sum").and_then(|n| read_str(n, "`sum`", diags))?.to_string();
            if !field_of_filtered(&f, filter, ctx, |t| matches!(t, FieldType::Int { .. })) {
                diags.push(bad(
                    node,
                    format!("`sum: {f}` is not an int field of the filtered kinds"),
                    "an int field",
                ));
            }
            let Some(b) = read_bound(m, ctx, diags) else {
                diags.push(bad(
                    node,
                    "a `sum` rule needs a bound".into(),
                    "`exactly`, `at_least` or `at_most`",
                ));
                return None;
            };
            Check::Sum { field: f, bound: b }
        }
        "spend" => {
            let s = m.take("spend")?;
            let mut sm = MapReader::new(s, "`spend`", diags)?;
            let f = sm
                .require("field", "the cost field", diags)
                .and_then(|n| read_str(n, "`field`", diags))
                .map(str::to_string);
            let budget = sm
                .require("budget", "the budget", diags)
                .and_then(|n| read_amount(n, ctx, diags));
            sm.finish(&["field", "budget"], diags);
            Check::Spend {
                field: f?,
                budget: budget?,
            }
        }
        "copies" => {
            let c = m.take("copies")?;
            let mut cm = MapReader::new(c, "`copies`", diags)?;
            let b = read_bound(&mut cm, ctx, diags);
            cm.finish(&["exactly", "at_least", "at_most"], diags);
            if b.is_none() {
                diags.push(bad(
                    c,
                    "a `copies` rule needs a bound inside it".into(),
                    "`copies: {at_most: N}` (or `exactly`, `at_least`)",
                ));
            }
            Check::Copies(b?)
        }
        "requires" => {
            let f = m
                .take("requires")
                .and_then(|n| read_str(n, "`requires`", diags))?
                .to_string();
            if !field_of_filtered(&f, filter, ctx, |t| matches!(t, FieldType::Ref { .. })) {
                diags.push(bad(
                    node,
                    format!("`requires: {f}` is not a ref field of the filtered kinds"),
                    "a ref field",
                ));
            }
            Check::Requires { field: f }
        }
        "belongs" => {
            let b = m.take("belongs")?;
            let mut bm = MapReader::new(b, "`belongs`", diags)?;
            let f = bm
                .require("field", "the card field", diags)
                .and_then(|n| read_str(n, "`field`", diags))
                .map(str::to_string);
            let h = bm
                .require("header", "the header field", diags)
                .and_then(|n| read_str(n, "`header`", diags))
                .map(str::to_string);
            bm.finish(&["field", "header"], diags);
            let (f, h) = (f?, h?);
            if !matches!(ctx.header.get(&h).map(|f| &f.ty), Some(HeaderType::Ref { .. })) {
                diags.push(bad(
                    b,
                    format!("`belongs` names header `{h}`, which is not a ref header field"),
                    "a ref field under `header:`",
                ));
            }
            Check::Belongs { field: f, header: h }
        }
        key @ ("matches" | "reserve") => {
            let n = m.take(key)?;
            let mut mm = MapReader::new(n, format!("`{key}`"), diags)?;
            let mut get = |k: &str| {
                mm.require(k, "a name", diags)
                    .and_then(|n| read_str(n, k, diags))
                    .map(str::to_string)
            };
            let header = get("header");
            let list = get("list");
            let (a, b) = if key == "matches" {
                (get("card"), get("count"))
            } else {
                (get("kit"), get("by"))
            };
            mm.finish(&["header", "list", "card", "count", "kit", "by"], diags);
            let (header, list, a, b) = (header?, list?, a?, b?);
            match ctx.header.get(&header).map(|f| &f.ty) {
                Some(HeaderType::Ref { kind }) if ctx.kinds[kind].fields.contains_key(&list) => {}
                _ => diags.push(bad(
                    n,
                    format!("`{key}` needs `header` to be a ref header field whose kind has a `{list}` field"),
                    "a declared list field",
                )),
            }
            if key == "matches" {
                Check::Matches {
                    header,
                    list,
                    card: a,
                    count: b,
                }
            } else {
                Check::Reserve {
                    header,
                    list,
                    kit: a,
                    by: b,
                }
            }
        }
        "one_of" => {
            let n = m.take("one_of")?;
            let mut om = MapReader::new(n, "`one_of`", diags)?;
            let list = om
                .require("mode", "the field of the mode that lists the allowed lists", diags)
                .and_then(|x| read_str(x, "`mode`", diags))
                .map(str::to_string);
            om.finish(&["mode"], diags);
            let list = list?;
            let ok = ctx.modes.as_ref().is_some_and(|mk| {
                matches!(
                    ctx.kinds[mk].fields.get(&list).map(|s| &s.ty),
                    Some(FieldType::List { .. })
                )
            });
            if !ok {
                diags.push(bad(
                    n,
                    format!("`one_of: {{mode: {list}}}` is not a list field of the modes kind"),
                    "`modes:` declared and a list field of it whose records name the cards",
                ));
                return None;
            }
            Check::OneOf { list }
        }
        _ => unreachable!("CHECKS"),
    })
}

/// The keys a rule with `check` may have besides [`COMMON_KEYS`].
fn keys_of(check: &str) -> Vec<&'static str> {
    let mut keys = COMMON_KEYS.to_vec();
    match check {
        "count" => keys.extend(["count", "per", "parts"].iter().chain(BOUNDS)),
        "distinct" => keys.extend(["distinct", "per"].iter().chain(BOUNDS)),
        "sum" => keys.extend(["sum"].iter().chain(BOUNDS)),
        "spend" => keys.push("spend"),
        "copies" => keys.push("copies"),
        "requires" => keys.push("requires"),
        "belongs" => keys.push("belongs"),
        "matches" => keys.push("matches"),
        "reserve" => keys.push("reserve"),
        "one_of" => keys.push("one_of"),
        _ => keys.extend(CHECKS.iter().chain(BOUNDS).chain(&["per", "parts"])),
    }
    keys
}

/// Reports the keys of a rule left unread: a bound or `per` that its check
/// does not take gets its own message; other keys a "did you mean" among
/// the keys this check takes.
fn finish_rule(m: MapReader, check: &str, diags: &mut Vec<Diagnostic>) {
    let known = keys_of(check);
    for (k, _) in m.rest() {
        let key = k.as_str().unwrap_or_default();
        if check.is_empty() && known.contains(&key) {
            // No check was found: that error says it all.
            continue;
        }
        if BOUNDS.contains(&key) || key == "per" || key == "parts" {
            let fix = match check {
                "copies" => format!("`copies: {{{key}: N}}`: the bound of a `copies` rule is inside it"),
                "spend" => "`spend: {field, budget}`: a `spend` rule's number is its budget".to_string(),
                _ => format!("a `count` rule (`count:` with `{key}`)"),
            };
            diags.push(
                Diagnostic::new(
                    Code::BadDeclaration,
                    format!("`{key}` does not apply to a `{check}` rule"),
                )
                .at(k.span)
                .label("in `construction`")
                .expected(fix),
            );
        } else {
            diags.push(crate::pack::reader::unknown_field(k, "a construction rule", &known));
        }
    }
}

fn read_rule(
    node: &Node,
    ctx: &Ctx,
    roles: &[String],
    locales: &[String],
    is_part: bool,
    diags: &mut Vec<Diagnostic>,
) -> Option<DeckRule> {
    let mut m = MapReader::new(node, "a construction rule", diags)?;
    let id = m
        .require("id", "a rule id such as `XT-D1`", diags)
        .and_then(|n| read_str(n, "the rule id", diags))
        .map(str::to_string);
    let cite = m
        .take("cite")
        .and_then(|n| read_str(n, "`cite`", diags))
        .map(str::to_string);
    let label = m
        .require("label", "what the rule counts, for messages (`characters`)", diags)
        .and_then(|n| read_words(n, "`label`", locales, diags));
    let mut when = IndexMap::new();
    if let Some(w) = m.take("when")
        && let Some(entries) = w.as_map()
    {
        for (k, v) in entries {
            let Some(key) = read_str(k, "a `when` key", diags) else {
                continue;
            };
            let values: Vec<String> = match &v.value {
                Value::Seq(items) => items.iter().filter_map(scalar).collect(),
                _ => scalar(v).into_iter().collect(),
            };
            match key {
                "mode" if ctx.modes.is_none() => diags.push(bad(
                    k,
                    "`when: {mode}` but no `modes:` kind is declared".into(),
                    "`modes: <kind>`",
                )),
                "role" => {
                    for r in &values {
                        if !roles.contains(r) {
                            diags.push(bad(
                                v,
                                format!("`when` names unknown role `{r}`"),
                                format!("one of {}", quote_list(roles)),
                            ));
                        }
                    }
                }
                "mode" => {}
                other => diags.push(bad(k, format!("`when` cannot test `{other}`"), "`mode` or `role`")),
            }
            when.insert(key.to_string(), values);
        }
    }
    let mut filter = m.take("where").map(|n| read_filter(n, ctx, diags)).unwrap_or_default();
    let present: Vec<&str> = CHECKS.iter().copied().filter(|k| node.get(k).is_some()).collect();
    if present.len() != 1 {
        diags.push(bad(
            node,
            format!("a construction rule needs exactly one check, found {}", present.len()),
            format!("one of {}", quote_list(CHECKS)),
        ));
        finish_rule(m, "", diags);
        return None;
    }
    let per = match present[0] {
        "count" | "distinct" => m.take("per").and_then(|n| read_str(n, "`per`", diags)).map(|f| {
            if !field_of_filtered(f, &filter, ctx, |_| true) && !BUILTIN_FIELDS.contains(&f) {
                diags.push(bad(
                    node,
                    format!("`per: {f}` is not a field of the filtered kinds"),
                    "a field whose values group the cards (`faction`)",
                ));
            }
            f.to_string()
        }),
        _ => None,
    };
    let check_key = present[0];
    let check = read_check(check_key, node, &mut m, &mut filter, ctx, diags);
    let mut parts = Vec::new();
    if let Some(pn) = m.take("parts") {
        if is_part || !matches!(check, Some(Check::Count(_))) {
            diags.push(bad(
                pn,
                "only top-level `count` rules have `parts`".into(),
                "parts under a count rule",
            ));
        } else if let Some(seq) = read_seq(pn, "`parts`", diags) {
            for p in seq {
                if let Some(part) = read_rule(p, ctx, roles, locales, true, diags) {
                    if !matches!(part.check, Check::Count(_)) {
                        diags.push(bad(p, "parts are `count` rules".into(), "`count:` with a bound"));
                        continue;
                    }
                    parts.push(part);
                }
            }
        }
    }
    finish_rule(m, check_key, diags);
    let check = check?;
    Some(DeckRule {
        id: id?,
        cite,
        label: label?,
        when,
        filter,
        per,
        check,
        parts,
        span: node.span,
    })
}
