//! Reading `game.yaml`: the pack's locales, sizes, component kinds with
//! their field declarations, and kit counts. Every problem is collected.

use indexmap::IndexMap;

use super::format;
use super::reader::{
    MapReader, is_ident, quote_list, read_bool, read_int, read_number, read_seq, read_slug, read_str, read_text,
    wrong_type,
};
use super::yaml::{Node, Value};
use crate::diag::{Code, Diagnostic, Span};
use crate::model::{FieldSpec, FieldType, FieldValue, Kind, KitEntry, Rule, Shape, Size, Text};

/// Fields every component has, whatever its kind.
pub const BUILTIN_FIELDS: &[&str] = &["id", "name", "copies", "sample"];

const GAME_KEYS: &[&str] = &[
    "format",
    "id",
    "name",
    "locales",
    "sizes",
    "kinds",
    "kit",
    "rule_ids",
    "construction",
    "icons",
    "fonts",
    "effects",
    "decks",
    "cover",
];
const KIND_KEYS: &[&str] = &["name", "size", "shape", "fields", "rules", "variants", "back"];
const RULE_KEYS: &[&str] = &["id", "when", "require", "forbid", "expect", "match", "message"];
const KIT_KEYS: &[&str] = &["id", "name", "kinds", "where", "sum", "count"];

/// `game.yaml` as declared, before components are read.
#[derive(Debug)]
pub struct Decl {
    pub id: String,
    pub name: Text,
    pub locales: Vec<String>,
    pub sizes: IndexMap<String, Size>,
    pub kinds: IndexMap<String, Kind>,
    /// Where each field was declared: (kind, field) → span.
    pub field_spans: IndexMap<(String, String), Span>,
    pub kit: Vec<KitEntry>,
    /// The decks players shuffle.
    pub decks: Vec<crate::model::DeckDecl>,
    /// What the cover tells the table besides the files.
    pub cover: crate::model::Cover,
    /// The rule ids of the game (`OW-1` … `OW-16`), and where they are declared.
    pub rule_ids: Vec<String>,
    pub rule_ids_span: Option<Span>,
    /// Deck and army construction rules (docs/decks.md).
    pub construction: Option<crate::model::Construction>,
    /// Icons for texts (`:name:`): name → its name in every locale, and where each is declared.
    pub icons: IndexMap<String, (Text, Span)>,
    /// Font families the pack's layouts use, by role (`title: "DejaVu Sans"`), and where.
    pub fonts: IndexMap<String, (String, Span)>,
    /// The words card effects use (`effects:`, docs/effects.md).
    pub effects: crate::model::effects::Vocabulary,
}

/// Reads `rule_ids: {prefix: OW, count: 16}` into `OW-1` … `OW-16`.
fn read_rule_ids(node: &Node, diags: &mut Vec<Diagnostic>) -> Vec<String> {
    let Some(mut m) = MapReader::new(node, "`rule_ids`", diags) else {
        return Vec::new();
    };
    let prefix = m
        .require("prefix", "the rule ids' prefix, e.g. `OW`", diags)
        .and_then(|n| read_str(n, "the rule id prefix", diags).map(str::to_owned));
    let count = m
        .require("count", "how many numbered rules the game has", diags)
        .and_then(|n| read_int(n, "the rule count", diags));
    m.finish(&["prefix", "count"], diags);
    match (prefix, count) {
        (Some(p), Some(c))
            if (1..=500).contains(&c) && p.chars().all(|ch| ch.is_ascii_uppercase()) && !p.is_empty() =>
        {
            (1..=c).map(|i| format!("{p}-{i}")).collect()
        }
        (Some(_), Some(_)) => {
            diags.push(
                Diagnostic::new(Code::InvalidValue, "`rule_ids` is not a usable declaration")
                    .at(node.span)
                    .label("bad prefix or count")
                    .expected("`{prefix: OW, count: 16}`: capital letters and a count from 1 to 500"),
            );
            Vec::new()
        }
        _ => Vec::new(),
    }
}

/// Reads a parsed `game.yaml`. Returns a declaration whenever the basics
/// (locales and kinds) could be read, so components can still be checked.
pub fn read_decl(root: &Node, folder: &str, diags: &mut Vec<Diagnostic>) -> Option<Decl> {
    let mut m = MapReader::new(root, "game.yaml", diags)?;
    // A pack of a format this pnpkit does not read is not read further: its
    // fields would only add problems that are not the pack's.
    m.take(format::KEY);
    if let Err(d) = format::read_checked(root, &format::PACK, &format!("{folder}/game.yaml")) {
        let stop = d.code != Code::InvalidValue;
        diags.push(*d);
        if stop {
            return None;
        }
    }
    let id = m
        .require("id", "the pack id, same as its folder name", diags)
        .and_then(|n| read_slug(n, "the game id", diags));
    if let Some(idv) = &id
        && idv != folder
    {
        let span = root.get("id").map_or(root.span, |n| n.span);
        diags.push(
            Diagnostic::new(
                Code::BadDeclaration,
                format!("game id `{idv}` differs from its folder `{folder}`"),
            )
            .at(span)
            .label("id and folder must match")
            .expected(format!("`{folder}`"))
            .help("rename the folder or change the id, so `data/<id>/` always holds game `<id>`"),
        );
    }
    let locales = read_locales(m.require("locales", "a list of locales such as [es, en]", diags), diags);
    let name = m
        .require("name", "the game's name in every locale", diags)
        .and_then(|n| read_text(n, "the game name", &locales, diags));
    let sizes = m.take("sizes").map(|n| read_sizes(n, diags)).unwrap_or_default();
    let mut field_spans = IndexMap::new();
    let mut kinds = IndexMap::new();
    if let Some(kn) = m.require("kinds", "a mapping of component kinds", diags)
        && let Some(mut km) = MapReader::new(kn, "`kinds`", diags)
    {
        let entries: Vec<_> = km.rest().collect();
        for (k, v) in entries {
            let Some(kid) = k.as_str() else {
                diags.push(wrong_type(k, "a kind name", "a snake_case name"));
                continue;
            };
            km.take(kid);
            if !is_ident(kid) {
                diags.push(
                    Diagnostic::new(Code::InvalidValue, format!("kind name `{kid}` is not snake_case"))
                        .at(k.span)
                        .label("not a valid kind name")
                        .expected("lowercase letters, digits and underscores, e.g. `one_upgrade`"),
                );
                continue;
            }
            if let Some(kind) = read_kind(kid, v, &locales, &sizes, &mut field_spans, diags) {
                kinds.insert(kid.to_owned(), kind);
            }
        }
    }
    check_kind_links(&kinds, &field_spans, diags);
    let kit = m
        .take("kit")
        .map(|n| read_kit(n, &locales, &kinds, diags))
        .unwrap_or_default();
    let decks = m
        .take("decks")
        .map(|n| super::decks::read_decks(n, &locales, &kinds, diags))
        .unwrap_or_default();
    let rule_ids_node = m.take("rule_ids");
    let rule_ids = rule_ids_node.map(|n| read_rule_ids(n, diags)).unwrap_or_default();
    let cover = m
        .take("cover")
        .map(|n| super::cover::read_cover(n, &locales, &kinds, &rule_ids, diags))
        .unwrap_or_default();
    let construction = m
        .take("construction")
        .and_then(|n| super::construction::read_construction(n, &kinds, &locales, diags));
    let icons = m
        .take("icons")
        .map(|n| super::assets::read_icons(n, &locales, diags))
        .unwrap_or_default();
    let fonts = m
        .take("fonts")
        .map(|n| super::assets::read_fonts(n, diags))
        .unwrap_or_default();
    let effects = m
        .take("effects")
        .map(|n| super::effects::read_vocabulary(n, diags))
        .unwrap_or_default();
    m.finish(GAME_KEYS, diags);
    Some(Decl {
        id: id.unwrap_or_else(|| folder.to_owned()),
        name: name.unwrap_or_default(),
        locales,
        sizes,
        kinds,
        field_spans,
        kit,
        decks,
        cover,
        rule_ids,
        rule_ids_span: rule_ids_node.map(|n| n.span),
        construction,
        icons,
        fonts,
        effects,
    })
}

fn read_locales(node: Option<&Node>, diags: &mut Vec<Diagnostic>) -> Vec<String> {
    let Some(node) = node else {
        return Vec::new();
    };
    let Some(items) = read_seq(node, "`locales`", diags) else {
        return Vec::new();
    };
    let mut out: Vec<String> = Vec::new();
    for item in items {
        let Some(s) = read_str(item, "a locale", diags) else {
            continue;
        };
        let valid = (2..=3).contains(&s.len()) && s.chars().all(|c| c.is_ascii_lowercase());
        if !valid {
            diags.push(
                Diagnostic::new(Code::InvalidValue, format!("`{s}` is not a locale code"))
                    .at(item.span)
                    .label("not a locale")
                    .expected("a two- or three-letter lowercase language code such as `es`, `en`, `fr`"),
            );
        } else if out.iter().any(|l| l == s) {
            diags.push(
                Diagnostic::new(Code::DuplicateId, format!("locale `{s}` is listed twice"))
                    .at(item.span)
                    .label("repeated"),
            );
        } else {
            out.push(s.to_owned());
        }
    }
    if out.is_empty() {
        diags.push(
            Diagnostic::new(Code::OutOfRange, "the pack declares no locale")
                .at(node.span)
                .label("empty")
                .expected("at least one locale, the source language first: [es, en]"),
        );
    }
    out
}

fn read_sizes(node: &Node, diags: &mut Vec<Diagnostic>) -> IndexMap<String, Size> {
    let mut out = IndexMap::new();
    let Some(entries) = node.as_map() else {
        diags.push(wrong_type(
            node,
            "`sizes`",
            "a mapping of size names to {width, height} in mm",
        ));
        return out;
    };
    for (k, v) in entries {
        let Some(name) = read_str(k, "a size name", diags) else {
            continue;
        };
        let what = format!("size `{name}`");
        let Some(mut m) = MapReader::new(v, what.clone(), diags) else {
            continue;
        };
        let dim = |key: &str, m: &mut MapReader, diags: &mut Vec<Diagnostic>| {
            let n = m.require(key, "millimetres, greater than 0", diags)?;
            let x = read_number(n, &format!("{key} of {what}"), diags)?;
            if x <= 0.0 || x > 2000.0 {
                diags.push(out_of_range(
                    n,
                    &format!("{key} of {what}"),
                    "a length in mm from 0 (excluded) to 2000",
                ));
                return None;
            }
            Some(x)
        };
        let w = dim("width", &mut m, diags);
        let h = dim("height", &mut m, diags);
        m.finish(&["width", "height"], diags);
        if let (Some(width), Some(height)) = (w, h) {
            out.insert(name.to_owned(), Size { width, height });
        }
    }
    out
}

fn out_of_range(node: &Node, what: &str, expected: &str) -> Diagnostic {
    Diagnostic::new(Code::OutOfRange, format!("{what} is out of range"))
        .at(node.span)
        .label(format!("{} is out of range", node.show()))
        .found(node.show())
        .expected(expected.to_owned())
}

fn read_kind(
    kid: &str,
    node: &Node,
    locales: &[String],
    sizes: &IndexMap<String, Size>,
    field_spans: &mut IndexMap<(String, String), Span>,
    diags: &mut Vec<Diagnostic>,
) -> Option<Kind> {
    let what = format!("kind `{kid}`");
    let mut m = MapReader::new(node, what.clone(), diags)?;
    let name = m
        .require("name", "the kind's name in every locale", diags)
        .and_then(|n| read_text(n, &format!("the name of {what}"), locales, diags));
    let size = m.take("size").and_then(|n| {
        let s = read_str(n, &format!("the size of {what}"), diags)?;
        if sizes.contains_key(s) {
            Some(s.to_owned())
        } else {
            let names: Vec<&str> = sizes.keys().map(String::as_str).collect();
            let mut d = Diagnostic::new(Code::BadDeclaration, format!("{what} uses undeclared size `{s}`"))
                .at(n.span)
                .label("not in `sizes`")
                .expected(format!("one of the sizes: {}", quote_list(&names)));
            d = d.suggest(s, names.iter().copied());
            diags.push(d);
            None
        }
    });
    let shape = m.take("shape").map_or(Some(Shape::Card), |n| {
        let s = read_str(n, &format!("the shape of {what}"), diags)?;
        let shape = Shape::parse(s);
        if shape.is_none() {
            diags.push(
                Diagnostic::new(Code::InvalidValue, format!("{what} has an unknown shape `{s}`"))
                    .at(n.span)
                    .label("unknown shape")
                    .expected(format!("one of {}", quote_list(Shape::NAMES))),
            );
        }
        shape
    });
    let mut fields = IndexMap::new();
    if let Some(fnode) = m.take("fields") {
        fields = read_fields(fnode, &what, kid, locales, field_spans, diags);
    }
    let variants = m
        .take("variants")
        .and_then(|n| read_str(n, &format!("`variants` of {what}"), diags).map(|s| (s.to_owned(), n.span)));
    let rules = m
        .take("rules")
        .map(|n| read_rules(n, kid, &fields, diags))
        .unwrap_or_default();
    let back = m
        .take("back")
        .and_then(|n| super::decks::read_back(n, &what, &fields, diags));
    m.finish(KIND_KEYS, diags);
    Some(Kind {
        id: kid.to_owned(),
        name: name.unwrap_or_default(),
        size,
        shape: shape.unwrap_or(Shape::Card),
        fields,
        rules,
        variants: variants.map(|(v, _)| v),
        back,
    })
}

/// Reads a kind's `rules:` list, checking that every field it names exists.
fn read_rules(node: &Node, kid: &str, fields: &IndexMap<String, FieldSpec>, diags: &mut Vec<Diagnostic>) -> Vec<Rule> {
    let mut out = Vec::new();
    let Some(items) = read_seq(node, &format!("`rules` of kind `{kid}`"), diags) else {
        return out;
    };
    let known: Vec<&str> = fields.keys().map(String::as_str).chain(["id", "copies"]).collect();
    let check_field = |n: &Node, diags: &mut Vec<Diagnostic>| -> Option<String> {
        let f = read_str(n, "a field name", diags)?;
        if known.contains(&f) {
            Some(f.to_owned())
        } else {
            let mut d = Diagnostic::new(
                Code::BadDeclaration,
                format!("a rule of kind `{kid}` names unknown field `{f}`"),
            )
            .at(n.span)
            .label("not a field of the kind")
            .expected(format!("one of {}", quote_list(&known)));
            d = d.suggest(f, known.iter().copied());
            diags.push(d);
            None
        }
    };
    let values_map = |n: &Node, what: &str, diags: &mut Vec<Diagnostic>| -> IndexMap<String, Vec<String>> {
        let mut out = IndexMap::new();
        let Some(entries) = n.as_map() else {
            diags.push(wrong_type(n, what, "a mapping of field: value (or a list of values)"));
            return out;
        };
        for (k, v) in entries {
            let Some(f) = check_field(k, diags) else { continue };
            let values: Vec<String> = match &v.value {
                Value::Seq(items) => items.iter().filter_map(scalar_key).collect(),
                _ => scalar_key(v).into_iter().collect(),
            };
            out.insert(f, values);
        }
        out
    };
    let field_list = |n: &Node, what: &str, diags: &mut Vec<Diagnostic>| -> Vec<String> {
        read_seq(n, what, diags)
            .map(|items| items.iter().filter_map(|i| check_field(i, diags)).collect())
            .unwrap_or_default()
    };
    for (i, item) in items.iter().enumerate() {
        let Some(mut m) = MapReader::new(item, format!("rule {} of kind `{kid}`", i + 1), diags) else {
            continue;
        };
        let id = m
            .take("id")
            .and_then(|n| read_slug(n, "a rule id", diags))
            .unwrap_or_else(|| format!("{kid}-rule-{}", i + 1));
        let what = format!("rule `{id}` of kind `{kid}`");
        let when = m.take("when").map(|n| values_map(n, &what, diags)).unwrap_or_default();
        let require = m
            .take("require")
            .map(|n| field_list(n, &what, diags))
            .unwrap_or_default();
        let forbid = m
            .take("forbid")
            .map(|n| field_list(n, &what, diags))
            .unwrap_or_default();
        let expect = m
            .take("expect")
            .map(|n| values_map(n, &what, diags))
            .unwrap_or_default();
        let matches = m.take("match").and_then(|n| {
            let mut mm = MapReader::new(n, format!("`match` of {what}"), diags)?;
            let via_node = mm.require("ref", "the ref field naming the other component", diags)?;
            let via = check_field(via_node, diags)?;
            let target = match fields.get(&via).map(|f| &f.ty) {
                Some(FieldType::Ref { to, .. }) => to.clone(),
                _ => {
                    diags.push(
                        Diagnostic::new(
                            Code::BadDeclaration,
                            format!("`match` of {what} uses `{via}`, which is not a ref field"),
                        )
                        .at(via_node.span)
                        .label("not a `ref` field")
                        .expected("the name of a `ref` field of the kind"),
                    );
                    return None;
                }
            };
            let _ = target;
            let pairs = match mm
                .require("fields", "the fields that must agree", diags)
                .map(|n| &n.value)
            {
                Some(Value::Seq(items)) => items
                    .iter()
                    .filter_map(|i| check_field(i, diags).map(|f| (f.clone(), f)))
                    .collect(),
                Some(Value::Map(entries)) => entries
                    .iter()
                    .filter_map(|(k, v)| Some((check_field(k, diags)?, read_str(v, "a field name", diags)?.to_owned())))
                    .collect(),
                _ => Vec::new(),
            };
            mm.finish(&["ref", "fields"], diags);
            Some((via, pairs))
        });
        let message = m
            .take("message")
            .and_then(|n| read_str(n, &format!("`message` of {what}"), diags).map(str::to_owned));
        m.finish(RULE_KEYS, diags);
        if require.is_empty() && forbid.is_empty() && expect.is_empty() && matches.is_none() {
            diags.push(
                Diagnostic::new(Code::BadDeclaration, format!("{what} asks for nothing"))
                    .at(item.span)
                    .label("no clause")
                    .expected("at least one of `require`, `forbid`, `expect`, `match`"),
            );
            continue;
        }
        out.push(Rule {
            id,
            when,
            require,
            forbid,
            expect,
            matches,
            message,
            span: Some(item.span),
        });
    }
    out
}

fn read_fields(
    node: &Node,
    what: &str,
    kid: &str,
    locales: &[String],
    field_spans: &mut IndexMap<(String, String), Span>,
    diags: &mut Vec<Diagnostic>,
) -> IndexMap<String, FieldSpec> {
    let mut out = IndexMap::new();
    let Some(entries) = node.as_map() else {
        diags.push(wrong_type(
            node,
            &format!("the fields of {what}"),
            "a mapping of field names to declarations",
        ));
        return out;
    };
    for (k, v) in entries {
        let Some(fname) = read_str(k, "a field name", diags) else {
            continue;
        };
        if !is_ident(fname) {
            diags.push(
                Diagnostic::new(Code::InvalidValue, format!("field name `{fname}` is not snake_case"))
                    .at(k.span)
                    .label("not a valid field name")
                    .expected("lowercase letters, digits and underscores, e.g. `entry_cost`"),
            );
            continue;
        }
        // Built-in fields are only reserved at the top level of a kind.
        if what.starts_with("kind ") && BUILTIN_FIELDS.contains(&fname) {
            diags.push(
                Diagnostic::new(Code::BadDeclaration, format!("field `{fname}` of {what} is built in"))
                    .at(k.span)
                    .label("reserved name")
                    .expected(format!("a name other than {}", quote_list(BUILTIN_FIELDS)))
                    .help("every component already has `id`, `name`, `copies` and `sample`"),
            );
            continue;
        }
        let fwhat = format!("field `{fname}` of {what}");
        if let Some(spec) = read_field_spec(v, &fwhat, kid, locales, field_spans, diags) {
            if what.starts_with("kind ") {
                field_spans.insert((kid.to_owned(), fname.to_owned()), k.span);
            }
            out.insert(fname.to_owned(), spec);
        }
    }
    out
}

fn read_field_spec(
    node: &Node,
    what: &str,
    kid: &str,
    locales: &[String],
    field_spans: &mut IndexMap<(String, String), Span>,
    diags: &mut Vec<Diagnostic>,
) -> Option<FieldSpec> {
    let mut m = MapReader::new(node, what.to_owned(), diags)?;
    let tnode = m.require("type", &format!("one of {}", quote_list(FieldType::NAMES)), diags)?;
    let tname = read_str(tnode, &format!("the type of {what}"), diags)?;
    let required = m
        .take("required")
        .and_then(|n| read_bool(n, &format!("`required` of {what}"), diags));
    let help = m
        .take("help")
        .and_then(|n| read_str(n, &format!("`help` of {what}"), diags).map(str::to_owned));
    // The field's name for players, per locale (changelogs and reports use it).
    let label = m
        .take("label")
        .and_then(|n| read_text(n, &format!("`label` of {what}"), locales, diags));
    let default_node = m.take("default");
    let mut keys: Vec<&str> = vec!["type", "required", "help", "label", "default"];
    let mut labels: IndexMap<String, Text> = IndexMap::new();
    let int_opt = |m: &mut MapReader, key: &str, diags: &mut Vec<Diagnostic>| {
        m.take(key)
            .and_then(|n| read_int(n, &format!("`{key}` of {what}"), diags))
    };
    let also = |m: &mut MapReader, diags: &mut Vec<Diagnostic>| -> Vec<String> {
        m.take("also")
            .and_then(|n| read_seq(n, &format!("`also` of {what}"), diags))
            .map(|items| {
                items
                    .iter()
                    .filter_map(|i| read_str(i, "an extra value", diags).map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    };
    let ty = match tname {
        "int" => {
            keys.extend(["min", "max"]);
            FieldType::Int {
                min: int_opt(&mut m, "min", diags),
                max: int_opt(&mut m, "max", diags),
            }
        }
        "number" => {
            keys.extend(["min", "max"]);
            let mut num = |key: &str| {
                m.take(key)
                    .and_then(|n| read_number(n, &format!("`{key}` of {what}"), diags))
            };
            let min = num("min");
            let max = num("max");
            FieldType::Number { min, max }
        }
        "bool" => FieldType::Bool,
        "string" => FieldType::String,
        "text" => FieldType::Text,
        "color" => FieldType::Color,
        "enum" => {
            keys.push("values");
            // `values: [a, b]`, or `values: {a: {es: …, en: …}, …}` naming each value per locale.
            let vnode = m.require("values", "the list of allowed values", diags);
            let values: Vec<String> = match vnode {
                Some(n) if matches!(n.value, Value::Map(_)) => {
                    let mut values = Vec::new();
                    if let Some(mut vm) = MapReader::new(n, format!("`values` of {what}"), diags) {
                        let entries: Vec<_> = vm.rest().collect();
                        for (k, v) in entries {
                            let Some(key) = scalar_key(k) else {
                                diags.push(wrong_type(k, "an enum value", "a string"));
                                continue;
                            };
                            vm.take(&key);
                            if let Some(t) = read_text(v, &format!("the name of `{key}` in {what}"), locales, diags) {
                                labels.insert(key.clone(), t);
                            }
                            values.push(key);
                        }
                    }
                    values
                }
                Some(n) => read_seq(n, &format!("`values` of {what}"), diags)
                    .map(|items| {
                        items
                            .iter()
                            .filter_map(|i| match &i.value {
                                Value::Str(s) => Some(s.clone()),
                                Value::Int(x) => Some(x.to_string()),
                                _ => {
                                    diags.push(wrong_type(i, "an enum value", "a string"));
                                    None
                                }
                            })
                            .collect()
                    })
                    .unwrap_or_default(),
                None => Vec::new(),
            };
            if values.is_empty() {
                diags.push(
                    Diagnostic::new(Code::BadDeclaration, format!("{what} is an enum without values"))
                        .at(node.span)
                        .label("no `values`")
                        .expected("`values: [a, b, c]`"),
                );
            }
            FieldType::Enum { values }
        }
        "ref" => {
            keys.extend(["to", "also"]);
            let to = m
                .require("to", "the kind the reference points to", diags)
                .and_then(|n| read_str(n, &format!("`to` of {what}"), diags))
                .unwrap_or_default()
                .to_owned();
            FieldType::Ref {
                to,
                also: also(&mut m, diags),
            }
        }
        "member" => {
            keys.extend(["of", "also"]);
            let of = m
                .require("of", "`<ref field>.<list field>` or `self.<list field>`", diags)
                .and_then(|n| read_str(n, &format!("`of` of {what}"), diags))
                .unwrap_or_default()
                .to_owned();
            let (via, list) = match of.split_once('.') {
                Some(("self", list)) => (None, list.to_owned()),
                Some((via, list)) => (Some(via.to_owned()), list.to_owned()),
                None => {
                    let span = node.get("of").map_or(node.span, |n| n.span);
                    diags.push(
                        Diagnostic::new(Code::BadDeclaration, format!("`of` of {what} has no dot"))
                            .at(span)
                            .label("expected two names joined by a dot")
                            .expected("`<ref field>.<list field>`, e.g. `hero.fighters`, or `self.spaces`"),
                    );
                    (None, String::new())
                }
            };
            FieldType::Member {
                via,
                list,
                also: also(&mut m, diags),
            }
        }
        "cell" => {
            keys.extend(["cols", "rows"]);
            let mut dim = |key: &str, diags: &mut Vec<Diagnostic>| {
                int_opt(&mut m, key, diags).and_then(|x| u32::try_from(x).ok().filter(|x| (1..=26 * 27).contains(x)))
            };
            let cols = dim("cols", diags);
            let rows = dim("rows", diags);
            FieldType::Cell { cols, rows }
        }
        "list" => {
            keys.extend(["of", "min", "max", "unique"]);
            let of = m
                .require("of", "the declaration of the list's items", diags)
                .and_then(|n| read_field_spec(n, &format!("the items of {what}"), kid, locales, field_spans, diags))?;
            let min = int_opt(&mut m, "min", diags).map(|x| x.max(0) as usize);
            let max = int_opt(&mut m, "max", diags).map(|x| x.max(0) as usize);
            let unique = m
                .take("unique")
                .and_then(|n| read_bool(n, &format!("`unique` of {what}"), diags))
                .unwrap_or(false);
            FieldType::List {
                of: Box::new(of),
                min,
                max,
                unique,
            }
        }
        "image" => {
            keys.push("size");
            // The size the art prints at, for the resolution check: `size: {width: 57, height: 40}` (mm).
            let size = m.take("size").and_then(|n| {
                let mut sm = MapReader::new(n, format!("`size` of {what}"), diags)?;
                let mut dim = |key: &str, diags: &mut Vec<Diagnostic>| {
                    sm.require(key, "millimetres", diags)
                        .and_then(|x| read_number(x, &format!("`{key}` of the size of {what}"), diags))
                        .filter(|x| *x > 0.0 && *x <= 2000.0)
                };
                let (width, height) = (dim("width", diags), dim("height", diags));
                sm.finish(&["width", "height"], diags);
                Some(Size {
                    width: width?,
                    height: height?,
                })
            });
            FieldType::Image { size }
        }
        "effect" => {
            keys.push("text");
            // `text: feature`: the sibling field whose text describes the effect.
            let text = m
                .take("text")
                .and_then(|n| read_str(n, &format!("`text` of {what}"), diags).map(str::to_owned));
            FieldType::Effect { text }
        }
        "record" => {
            keys.push("fields");
            let fields = m
                .require("fields", "the record's fields", diags)
                .map(|n| read_fields(n, what, kid, locales, field_spans, diags))
                .unwrap_or_default();
            FieldType::Record { fields }
        }
        other => {
            let mut d = Diagnostic::new(Code::BadDeclaration, format!("{what} has unknown type `{other}`"))
                .at(tnode.span)
                .label("unknown type")
                .expected(format!("one of {}", quote_list(FieldType::NAMES)));
            d = d.suggest(other, FieldType::NAMES.iter().copied());
            diags.push(d);
            return None;
        }
    };
    if let (
        FieldType::Int {
            min: Some(a),
            max: Some(b),
        },
        true,
    ) = (&ty, true)
        && a > b
    {
        diags.push(
            Diagnostic::new(Code::BadDeclaration, format!("{what} has min {a} above max {b}"))
                .at(node.span)
                .label("empty range"),
        );
    }
    let default = default_node.and_then(|n| read_default(n, &ty, what, diags));
    m.finish(&keys, diags);
    Some(FieldSpec {
        required: required.unwrap_or(default.is_none()),
        ty,
        default,
        help,
        label,
        labels,
    })
}

fn read_default(node: &Node, ty: &FieldType, what: &str, diags: &mut Vec<Diagnostic>) -> Option<FieldValue> {
    let what = format!("the default of {what}");
    let v = match (ty, &node.value) {
        (FieldType::Bool, Value::Bool(b)) => FieldValue::Bool(*b),
        (FieldType::Int { .. }, Value::Int(i)) => FieldValue::Int(*i),
        (FieldType::Number { .. }, Value::Int(i)) => FieldValue::Number(*i as f64),
        (FieldType::Number { .. }, Value::Float(f)) => FieldValue::Number(*f),
        (FieldType::String | FieldType::Color | FieldType::Cell { .. }, Value::Str(s)) => FieldValue::Str(s.clone()),
        (FieldType::Enum { values }, Value::Str(s)) if values.contains(s) => FieldValue::Str(s.clone()),
        (FieldType::Ref { also, .. } | FieldType::Member { also, .. }, Value::Str(s)) if also.contains(s) => {
            FieldValue::Str(s.clone())
        }
        (FieldType::List { .. }, Value::Seq(items)) if items.is_empty() => FieldValue::List(Vec::new()),
        _ => {
            diags.push(
                Diagnostic::new(Code::BadDeclaration, format!("{what} does not fit its type"))
                    .at(node.span)
                    .label(format!("not a valid `{}` default", ty.name()))
                    .found(node.show())
                    .expected(format!(
                        "a {} value (defaults are allowed for scalars, `also` values and empty lists)",
                        ty.name()
                    )),
            );
            return None;
        }
    };
    Some(v)
}

/// Checks declarations that name other kinds or fields: `ref.to`, `member.of`.
fn check_kind_links(
    kinds: &IndexMap<String, Kind>,
    field_spans: &IndexMap<(String, String), Span>,
    diags: &mut Vec<Diagnostic>,
) {
    let kind_names: Vec<&str> = kinds.keys().map(String::as_str).collect();
    for kind in kinds.values() {
        if let Some(v) = &kind.variants
            && !kinds.contains_key(v)
        {
            diags.push(
                Diagnostic::new(
                    Code::BadDeclaration,
                    format!("kind `{}` has variants of unknown kind `{v}`", kind.id),
                )
                .expected(format!("one of the kinds: {}", quote_list(&kind_names)))
                .suggest(v, kind_names.iter().copied()),
            );
        }
        for (fname, spec) in &kind.fields {
            let span = field_spans.get(&(kind.id.clone(), fname.clone())).copied();
            walk_spec(spec, &mut |s| match &s.ty {
                FieldType::Ref { to, .. } if !kinds.contains_key(to) => {
                    let mut d = Diagnostic::new(
                        Code::BadDeclaration,
                        format!("field `{fname}` of kind `{}` refers to unknown kind `{to}`", kind.id),
                    )
                    .label("declared here")
                    .expected(format!("one of the kinds: {}", quote_list(&kind_names)));
                    d = d.suggest(to, kind_names.iter().copied());
                    if let Some(span) = span {
                        d = d.at(span);
                    }
                    diags.push(d);
                }
                FieldType::Member { via, list, .. } if !list.is_empty() => {
                    let target = match via {
                        None => Some(kind),
                        Some(via) => match kind.fields.get(via).map(|f| &f.ty) {
                            Some(FieldType::Ref { to, .. }) => kinds.get(to),
                            _ => {
                                let mut d = Diagnostic::new(
                                    Code::BadDeclaration,
                                    format!(
                                        "field `{fname}` of kind `{}` looks up `{via}`, which is not a `ref` field of the kind",
                                        kind.id
                                    ),
                                )
                                .label("declared here")
                                .expected("`of: <ref field>.<list field>` naming a top-level `ref` field, or `self.<list field>`");
                                if let Some(span) = span {
                                    d = d.at(span);
                                }
                                diags.push(d);
                                return;
                            }
                        },
                    };
                    let Some(target) = target else { return };
                    let ok = matches!(
                        target.fields.get(list).map(|f| &f.ty),
                        Some(FieldType::List { of, .. })
                            if matches!(&of.ty, FieldType::Record { fields } if fields.contains_key("id"))
                    );
                    if !ok {
                        let mut d = Diagnostic::new(
                            Code::BadDeclaration,
                            format!(
                                "field `{fname}` of kind `{}` looks into `{list}` of kind `{}`, which is not a list of records with an `id`",
                                kind.id, target.id
                            ),
                        )
                        .label("declared here")
                        .expected(format!("a field `{list}: {{type: list, of: {{type: record, fields: {{id: …}}}}}}` in kind `{}`", target.id));
                        if let Some(span) = span {
                            d = d.at(span);
                        }
                        diags.push(d);
                    }
                }
                _ => {}
            });
        }
    }
}

/// Visits a spec and every spec nested in it.
pub fn walk_spec(spec: &FieldSpec, f: &mut impl FnMut(&FieldSpec)) {
    f(spec);
    match &spec.ty {
        FieldType::List { of, .. } => walk_spec(of, f),
        FieldType::Record { fields } => fields.values().for_each(|s| walk_spec(s, f)),
        _ => {}
    }
}

fn read_kit(
    node: &Node,
    locales: &[String],
    kinds: &IndexMap<String, Kind>,
    diags: &mut Vec<Diagnostic>,
) -> Vec<KitEntry> {
    let mut out: Vec<KitEntry> = Vec::new();
    let Some(items) = read_seq(node, "`kit`", diags) else {
        return out;
    };
    for item in items {
        let Some(mut m) = MapReader::new(item, "a kit entry", diags) else {
            continue;
        };
        let id = m
            .require("id", "an id for the entry", diags)
            .and_then(|n| read_slug(n, "the kit entry id", diags));
        let what = format!("kit entry `{}`", id.as_deref().unwrap_or("?"));
        if let Some(id) = &id
            && out.iter().any(|e| &e.id == id)
        {
            diags.push(
                Diagnostic::new(Code::DuplicateId, format!("{what} is declared twice"))
                    .at(item.span)
                    .label("second declaration"),
            );
        }
        let name = m
            .require("name", "the entry's name in every locale", diags)
            .and_then(|n| read_text(n, &format!("the name of {what}"), locales, diags));
        let entry_kinds = m
            .require("kinds", "the list of kinds counted", diags)
            .map(|kn| read_kind_list(kn, &what, kinds, diags))
            .unwrap_or_default();
        let filter = m
            .take("where")
            .map(|wn| read_filter(wn, &what, &entry_kinds, kinds, diags))
            .unwrap_or_default();
        let sum = m.take("sum").and_then(|n| {
            let s = read_str(n, &format!("`sum` of {what}"), diags)?;
            let ok = entry_kinds
                .iter()
                .all(|k| matches!(kinds[k].fields.get(s).map(|f| &f.ty), Some(FieldType::Int { .. })));
            if !ok {
                diags.push(
                    Diagnostic::new(
                        Code::BadDeclaration,
                        format!("{what} sums `{s}`, which is not an int field of every counted kind"),
                    )
                    .at(n.span)
                    .label("not an int field")
                    .expected("the name of an `int` field declared by every kind in `kinds`"),
                );
            }
            Some(s.to_owned())
        });
        let count_node = m.require("count", "the number of pieces the kit holds", diags);
        let count = count_node.and_then(|n| read_int(n, &format!("`count` of {what}"), diags));
        m.finish(KIT_KEYS, diags);
        if let (Some(id), Some(count)) = (id, count) {
            out.push(KitEntry {
                id,
                name: name.unwrap_or_default(),
                kinds: entry_kinds,
                filter,
                sum,
                count,
                span: count_node.map(|n| n.span),
            });
        }
    }
    out
}

/// A `where:` filter of a kit entry or a deck: field → accepted values, each
/// field declared by every kind the entry takes.
pub(super) fn read_filter(
    node: &Node,
    what: &str,
    entry_kinds: &[String],
    kinds: &IndexMap<String, Kind>,
    diags: &mut Vec<Diagnostic>,
) -> IndexMap<String, Vec<String>> {
    let mut filter = IndexMap::new();
    let Some(entries) = node.as_map() else {
        diags.push(wrong_type(
            node,
            &format!("`where` of {what}"),
            "a mapping of field: value",
        ));
        return filter;
    };
    for (k, v) in entries {
        let Some(field) = read_str(k, "a filter field", diags) else {
            continue;
        };
        let declared = entry_kinds
            .iter()
            .all(|kind| kinds[kind].fields.contains_key(field) || BUILTIN_FIELDS.contains(&field));
        if !declared {
            diags.push(
                Diagnostic::new(
                    Code::BadDeclaration,
                    format!("{what} filters on `{field}`, a field not every counted kind has"),
                )
                .at(k.span)
                .label("unknown field for the counted kinds")
                .expected("a field declared by every kind in `kinds`"),
            );
        }
        let values: Vec<String> = match &v.value {
            Value::Seq(items) => items.iter().filter_map(scalar_key).collect(),
            _ => scalar_key(v).into_iter().collect(),
        };
        filter.insert(field.to_owned(), values);
    }
    filter
}

/// The `kinds:` list of a kit entry or a deck: declared kinds only.
pub(super) fn read_kind_list(
    node: &Node,
    what: &str,
    kinds: &IndexMap<String, Kind>,
    diags: &mut Vec<Diagnostic>,
) -> Vec<String> {
    let kind_names: Vec<&str> = kinds.keys().map(String::as_str).collect();
    let mut out = Vec::new();
    for k in read_seq(node, &format!("`kinds` of {what}"), diags).unwrap_or_default() {
        let Some(s) = read_str(k, "a kind", diags) else {
            continue;
        };
        if kinds.contains_key(s) {
            out.push(s.to_owned());
        } else {
            let d = Diagnostic::new(Code::BadDeclaration, format!("{what} counts unknown kind `{s}`"))
                .at(k.span)
                .label("not a declared kind")
                .expected(format!("one of {}", quote_list(&kind_names)))
                .suggest(s, kind_names.iter().copied());
            diags.push(d);
        }
    }
    out
}

fn scalar_key(n: &Node) -> Option<String> {
    match &n.value {
        Value::Str(s) => Some(s.clone()),
        Value::Int(i) => Some(i.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Float(f) => Some(f.to_string()),
        _ => None,
    }
}
