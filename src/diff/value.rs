//! Comparing one piece's two versions field by field: texts per locale as
//! printed (quoted values filled in), values as players read them (enum
//! names, the names of referenced components), list items matched by their
//! `id`, artwork by the bytes of its file.

use std::collections::HashMap;

use indexmap::IndexMap;
use serde::Serialize;
use serde_json::Value;
use sha2::{Digest, Sha256};

use super::IconChange;
use super::words;
use crate::model::{Component, FieldSpec, FieldType, FieldValue, Game, Kind, Size, Text};
use crate::text::TextEnv;

/// One changed value of a piece.
#[derive(Clone, Debug, Serialize)]
pub struct Change {
    /// Where, for programs: `cost`, `attacks[bite].damage`, `text`, `name`.
    pub path: String,
    /// Where, for people, in every locale: `Cost`, `Attacks › Bite › Damage`.
    pub label: Text,
    /// The locale whose text changed; `None` when the change shows in every locale.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub locale: Option<String>,
    pub what: What,
    pub old: Option<Shown>,
    pub new: Option<Shown>,
}

/// What kind of change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum What {
    /// A number, choice, reference, flag, list …
    Value,
    /// A text in one locale.
    Text,
    /// The piece's name in one locale.
    Name,
    /// The artwork file (its bytes, or which file).
    Art,
    /// An icon the piece's texts show was redrawn, added or removed.
    Icon,
    /// The kind's trim size.
    Size,
    /// A board printed once per component of another kind: that component changed.
    Variant,
}

/// A value as stored and as players read it in each locale.
#[derive(Clone, Debug, Serialize)]
pub struct Shown {
    pub value: Value,
    pub text: Text,
}

/// A side of the comparison: its game, text environments and art hashes.
pub struct Cx<'a> {
    pub game: &'a Game,
    envs: IndexMap<String, TextEnv>,
    hashes: HashMap<&'a str, String>,
}

/// The SHA-256 of some bytes, in hex.
pub fn hash(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

impl<'a> Cx<'a> {
    pub fn new(game: &'a Game) -> Cx<'a> {
        let envs = game
            .locales
            .iter()
            .map(|l| {
                let env = TextEnv::new(&game.reference.glossary, &game.reference.facts, &game.components, l);
                (l.clone(), env)
            })
            .collect();
        let hashes = game.assets.iter().map(|(p, b)| (p.as_str(), hash(b))).collect();
        Cx { game, envs, hashes }
    }

    /// A text in `locale` as printed: its quoted values filled in (as written when it cannot render).
    pub fn render(&self, t: &Text, locale: &str, own: Option<&Component>) -> String {
        let raw = t.0.get(locale).map(String::as_str).unwrap_or_default();
        match self.envs.get(locale) {
            Some(env) => env.render(raw, own).unwrap_or_else(|_| raw.to_owned()),
            None => raw.to_owned(),
        }
    }

    /// The hash of an art file named by an image field (`None`: missing).
    fn art(&self, rel: &str) -> Option<&str> {
        self.hashes
            .get(crate::check::assets::art_path(rel).as_str())
            .map(String::as_str)
    }
}

/// How fields are named for people: the field's `label`, else the glossary
/// term of the same id, else the id in words.
pub struct Labels {
    terms: HashMap<String, Text>,
    pub locales: Vec<String>,
}

impl Labels {
    pub fn new(new: Option<&Game>, old: Option<&Game>) -> Labels {
        let mut terms = HashMap::new();
        for g in [old, new].into_iter().flatten() {
            for t in &g.reference.glossary {
                terms.insert(t.id.clone(), t.forms.clone());
            }
        }
        let locales = new.or(old).map(|g| g.locales.clone()).unwrap_or_default();
        Labels { terms, locales }
    }

    /// A field's name in every locale.
    pub fn field(&self, name: &str, spec: Option<&FieldSpec>) -> Text {
        if let Some(l) = spec.and_then(|s| s.label.as_ref()) {
            return self.complete(l.clone(), name);
        }
        let dashed = name.replace('_', "-");
        if let Some(t) = self.terms.get(name).or_else(|| self.terms.get(&dashed)) {
            return self.complete(capitalised(t), name);
        }
        self.same(&capitalise(&name.replace('_', " ")))
    }

    /// One of our own words in every locale.
    pub fn word(&self, w: fn(&str) -> &'static str) -> Text {
        Text(self.locales.iter().map(|l| (l.clone(), w(l).to_owned())).collect())
    }

    /// The same string in every locale.
    pub fn same(&self, s: &str) -> Text {
        Text(self.locales.iter().map(|l| (l.clone(), s.to_owned())).collect())
    }

    fn complete(&self, mut t: Text, fallback: &str) -> Text {
        for l in &self.locales {
            if t.0.get(l).is_none_or(|s| s.is_empty()) {
                t.0.insert(l.clone(), fallback.to_owned());
            }
        }
        t
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

fn capitalised(t: &Text) -> Text {
    Text(t.0.iter().map(|(l, s)| (l.clone(), capitalise(s))).collect())
}

/// `a › b` in every locale.
fn join(a: &Text, b: &Text) -> Text {
    if a.0.is_empty() {
        return b.clone();
    }
    Text(
        a.0.iter()
            .map(|(l, s)| (l.clone(), format!("{s} › {}", b.get(l))))
            .collect(),
    )
}

/// Both sides of one comparison.
struct Pair<'a> {
    o: &'a Cx<'a>,
    n: &'a Cx<'a>,
    oc: &'a Component,
    nc: &'a Component,
    labels: &'a Labels,
    locales: &'a [String],
}

/// Appends every difference between two versions of a piece.
#[allow(clippy::too_many_arguments)]
pub fn compare(
    oc: &Component,
    nc: &Component,
    ok: &Kind,
    nk: &Kind,
    o: &Cx,
    n: &Cx,
    labels: &Labels,
    locales: &[String],
    out: &mut Vec<Change>,
) {
    let p = Pair {
        o,
        n,
        oc,
        nc,
        labels,
        locales,
    };
    for l in locales {
        let (a, b) = (oc.name.get(l), nc.name.get(l));
        if a != b {
            out.push(Change {
                path: "name".into(),
                label: labels.word(words::name),
                locale: Some(l.clone()),
                what: What::Name,
                old: Some(text_shown(a, l)),
                new: Some(text_shown(b, l)),
            });
        }
    }
    let mut names: Vec<&String> = nk.fields.keys().collect();
    for k in ok.fields.keys() {
        if !names.contains(&k) {
            names.push(k);
        }
    }
    for name in names {
        let (os, ns) = (ok.fields.get(name), nk.fields.get(name));
        let label = labels.field(name, ns.or(os));
        let ov = oc.fields.get(name).map(|v| (v, os));
        let nv = nc.fields.get(name).map(|v| (v, ns));
        p.value(name.clone(), &label, ov, nv, out);
    }
}

type Side<'a> = Option<(&'a FieldValue, Option<&'a FieldSpec>)>;

fn text_shown(s: &str, locale: &str) -> Shown {
    let mut t = IndexMap::new();
    t.insert(locale.to_owned(), s.to_owned());
    Shown {
        value: Value::String(s.to_owned()),
        text: Text(t),
    }
}

/// The id of a list item (records with an `id` string), to match items across versions.
fn item_id(v: &FieldValue) -> Option<&str> {
    v.as_record()?.get("id")?.as_str()
}

fn by_id(items: &[FieldValue]) -> Option<IndexMap<&str, &FieldValue>> {
    let mut m = IndexMap::new();
    for i in items {
        if m.insert(item_id(i)?, i).is_some() {
            return None;
        }
    }
    Some(m)
}

fn is_texty(v: &FieldValue) -> bool {
    match v {
        FieldValue::Text(_) => true,
        FieldValue::Record(_) => true,
        FieldValue::List(items) => items.iter().any(is_texty),
        _ => false,
    }
}

impl Pair<'_> {
    fn value(&self, path: String, label: &Text, o: Side, n: Side, out: &mut Vec<Change>) {
        use FieldValue as F;
        match (o, n) {
            (None, None) => {}
            (Some((F::Text(a), _)), Some((F::Text(b), _))) => {
                for l in self.locales {
                    let (x, y) = (self.o.render(a, l, Some(self.oc)), self.n.render(b, l, Some(self.nc)));
                    if x != y {
                        out.push(Change {
                            path: path.clone(),
                            label: label.clone(),
                            locale: Some(l.clone()),
                            what: What::Text,
                            old: Some(text_shown(&x, l)),
                            new: Some(text_shown(&y, l)),
                        });
                    }
                }
            }
            // A text that appears or disappears changes the locales it has words in.
            (Some((F::Text(a), _)), None) | (None, Some((F::Text(a), _))) => {
                let gone = n.is_none();
                for l in self.locales {
                    let s = if gone {
                        self.o.render(a, l, Some(self.oc))
                    } else {
                        self.n.render(a, l, Some(self.nc))
                    };
                    if s.is_empty() {
                        continue;
                    }
                    let shown = Some(text_shown(&s, l));
                    out.push(Change {
                        path: path.clone(),
                        label: label.clone(),
                        locale: Some(l.clone()),
                        what: What::Text,
                        old: if gone { shown.clone() } else { None },
                        new: if gone { None } else { shown },
                    });
                }
            }
            (Some((F::Record(a), os)), Some((F::Record(b), ns))) => {
                fn sub<'s>(s: Option<&'s FieldSpec>, k: &str) -> Option<&'s FieldSpec> {
                    match s.map(|s| &s.ty) {
                        Some(FieldType::Record { fields }) => fields.get(k),
                        _ => None,
                    }
                }
                let mut keys: Vec<&String> = b.keys().collect();
                for k in a.keys() {
                    if !keys.contains(&k) {
                        keys.push(k);
                    }
                }
                for k in keys {
                    let (so, sn) = (sub(os, k), sub(ns, k));
                    let l = join(label, &self.labels.field(k, sn.or(so)));
                    self.value(
                        format!("{path}.{k}"),
                        &l,
                        a.get(k).map(|v| (v, so)),
                        b.get(k).map(|v| (v, sn)),
                        out,
                    );
                }
            }
            (Some((F::List(a), os)), Some((F::List(b), ns))) if a.iter().chain(b).any(is_texty) => {
                fn item(s: Option<&FieldSpec>) -> Option<&FieldSpec> {
                    match s.map(|s| &s.ty) {
                        Some(FieldType::List { of, .. }) => Some(of),
                        _ => None,
                    }
                }
                let (io, in_) = (item(os), item(ns));
                match (by_id(a), by_id(b)) {
                    (Some(ma), Some(mb)) => {
                        let mut ids: Vec<&str> = mb.keys().copied().collect();
                        for k in ma.keys() {
                            if !ids.contains(k) {
                                ids.push(k);
                            }
                        }
                        for id in ids {
                            let (x, y) = (ma.get(id).copied(), mb.get(id).copied());
                            let l = join(label, &self.item_label(y.or(x), id));
                            let p = format!("{path}[{id}]");
                            match (x, y) {
                                (Some(x), Some(y)) => self.value(p, &l, Some((x, io)), Some((y, in_)), out),
                                _ => self.whole(p, &l, x.map(|v| (v, io)), y.map(|v| (v, in_)), out),
                            }
                        }
                    }
                    _ => {
                        for i in 0..a.len().max(b.len()) {
                            let l = join(label, &self.labels.same(&format!("{}", i + 1)));
                            let p = format!("{path}[{i}]");
                            match (a.get(i), b.get(i)) {
                                (Some(x), Some(y)) => self.value(p, &l, Some((x, io)), Some((y, in_)), out),
                                (x, y) => self.whole(p, &l, x.map(|v| (v, io)), y.map(|v| (v, in_)), out),
                            }
                        }
                    }
                }
            }
            _ => self.whole(path, label, o, n, out),
        }
    }

    /// A list item's name: its `name` text when it has one, else its id.
    fn item_label(&self, v: Option<&FieldValue>, id: &str) -> Text {
        match v.and_then(|v| v.as_record()).and_then(|r| r.get("name")) {
            Some(FieldValue::Text(t)) => self.labels.complete(t.clone(), id),
            _ => self.labels.same(id),
        }
    }

    /// Compares two values as wholes: stored value, art bytes, and how each
    /// locale shows them (enum names, names of referenced components).
    fn whole(&self, path: String, label: &Text, o: Side, n: Side, out: &mut Vec<Change>) {
        let image = |s: Side| matches!(s.and_then(|(_, s)| s).map(|s| &s.ty), Some(FieldType::Image { .. }));
        let (ov, nv) = (o.map(|(v, _)| v), n.map(|(v, _)| v));
        let shown = |side: Side, cx: &Cx, c: &Component| {
            side.map(|(v, s)| Shown {
                value: serde_json::to_value(v).unwrap_or(Value::Null),
                text: Text(
                    self.locales
                        .iter()
                        .map(|l| (l.clone(), show(v, s, cx, c, l, self.labels)))
                        .collect(),
                ),
            })
        };
        let (so, sn) = (shown(o, self.o, self.oc), shown(n, self.n, self.nc));
        let art = image(o) || image(n);
        if ov != nv {
            out.push(Change {
                path,
                label: label.clone(),
                locale: None,
                what: if art { What::Art } else { What::Value },
                old: so,
                new: sn,
            });
            return;
        }
        let (Some(so), Some(sn)) = (so, sn) else { return };
        if art && let Some(rel) = ov.and_then(FieldValue::as_str) {
            let (a, b) = (self.o.art(rel), self.n.art(rel));
            if a != b {
                let mark = |h: Option<&str>, s: &Shown| Shown {
                    value: serde_json::json!({"file": rel, "sha256": h}),
                    text: s.text.clone(),
                };
                out.push(Change {
                    path,
                    label: label.clone(),
                    locale: None,
                    what: What::Art,
                    old: Some(mark(a, &so)),
                    new: Some(mark(b, &sn)),
                });
            }
            return;
        }
        for l in self.locales {
            let (a, b) = (so.text.get(l), sn.text.get(l));
            if a != b {
                out.push(Change {
                    path: path.clone(),
                    label: label.clone(),
                    locale: Some(l.clone()),
                    what: What::Value,
                    old: Some(text_shown(a, l)),
                    new: Some(text_shown(b, l)),
                });
            }
        }
    }
}

/// A value as a player reads it in `locale`.
fn show(v: &FieldValue, spec: Option<&FieldSpec>, cx: &Cx, own: &Component, locale: &str, labels: &Labels) -> String {
    let ty = spec.map(|s| &s.ty);
    match v {
        FieldValue::Text(t) => cx.render(t, locale, Some(own)),
        FieldValue::Bool(b) => words::yes_no(locale, *b).to_owned(),
        FieldValue::Int(i) => i.to_string(),
        FieldValue::Number(n) => n.to_string(),
        FieldValue::Str(s) => match ty {
            Some(FieldType::Enum { .. }) => spec
                .and_then(|sp| sp.labels.get(s))
                .map_or_else(|| s.clone(), |t| t.get(locale).to_owned()),
            Some(FieldType::Ref { to, .. }) => cx
                .game
                .component(to, s)
                .map_or_else(|| s.clone(), |c| c.name.get(locale).to_owned()),
            _ => s.clone(),
        },
        FieldValue::List(items) => {
            let of = match ty {
                Some(FieldType::List { of, .. }) => Some(of.as_ref()),
                _ => None,
            };
            items
                .iter()
                .map(|i| show(i, of, cx, own, locale, labels))
                .collect::<Vec<_>>()
                .join(", ")
        }
        FieldValue::Record(r) => {
            let fields = match ty {
                Some(FieldType::Record { fields }) => Some(fields),
                _ => None,
            };
            r.iter()
                .map(|(k, x)| {
                    let s = fields.and_then(|f| f.get(k));
                    format!(
                        "{}: {}",
                        labels.field(k, s).get(locale),
                        show(x, s, cx, own, locale, labels)
                    )
                })
                .collect::<Vec<_>>()
                .join("; ")
        }
        FieldValue::Effect(e) => crate::model::effects::summary(e),
    }
}

/// A change for every redrawn, added or removed icon that a piece's texts show.
pub fn icon_changes(
    oc: &Component,
    nc: &Component,
    icons: &[IconChange],
    labels: &Labels,
    locales: &[String],
    out: &mut Vec<Change>,
) {
    if icons.is_empty() {
        return;
    }
    let mut used = std::collections::BTreeSet::new();
    for c in [oc, nc] {
        for (_, t, _) in crate::check::assets::component_texts(c) {
            for l in locales {
                for (_, name) in crate::markup::icons(t.get(l)) {
                    used.insert(name);
                }
            }
        }
    }
    for icon in icons.iter().filter(|i| used.contains(&i.name)) {
        let s = labels.same(&format!(":{}:", icon.name));
        out.push(Change {
            path: format!("icon:{}", icon.name),
            label: join(&labels.word(words::icon), &s),
            locale: None,
            what: What::Icon,
            old: None,
            new: None,
        });
    }
}

/// Every piece of a kind prints anew when its trim size changes.
pub fn size_change(old: Option<Size>, new: Option<Size>, labels: &Labels) -> Change {
    let shown = |s: Option<Size>| {
        s.map(|s| {
            let t = format!("{} × {} mm", s.width, s.height);
            Shown {
                value: serde_json::json!({"width": s.width, "height": s.height}),
                text: labels.same(&t),
            }
        })
    };
    Change {
        path: "size".into(),
        label: labels.word(words::size),
        locale: None,
        what: What::Size,
        old: shown(old),
        new: shown(new),
    }
}
