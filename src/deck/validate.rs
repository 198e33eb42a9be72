//! Checking a list against the construction rules of the model: every
//! broken rule with its numbers, the lines involved and the rule id, worded
//! in the list's locale ([`super::words`]).

use indexmap::IndexMap;
use serde::Serialize;

use super::names::{Unresolved, resolve};
use super::words::{BoundKind, Lang};
use super::{Deck, Entry};
use crate::diag::Span;
use crate::model::construction::{Amount, Bound, Check, Construction, DeckRule, Filter, HeaderType};
use crate::model::{Component, FieldValue, Game};

/// What the list is checked against: mode, role and header choices.
#[derive(Clone, Debug, Default)]
pub struct Context {
    pub mode: Option<String>,
    pub role: Option<String>,
    /// Header values given on the command line (`--param gold=40`).
    pub params: IndexMap<String, String>,
    /// The language of messages; `None`: the list's own, else English.
    pub locale: Option<String>,
    /// Components the other players of the game took, by id, with copies:
    /// with a shared pool (`pool: shared`) they cannot be bought.
    pub taken: IndexMap<String, u32>,
}

/// A broken construction rule.
#[derive(Clone, Debug, Serialize)]
pub struct Violation {
    /// The rule ids involved (a group and its failing parts).
    pub rules: Vec<String>,
    pub cite: Option<String>,
    pub message: String,
    pub expected: String,
    pub found: String,
    /// A hint to fix the list (the header names the wrong hero).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
    /// The lines involved.
    #[serde(skip)]
    pub spans: Vec<Span>,
    /// Where the list names the header value involved, if any.
    #[serde(skip)]
    pub header_span: Option<Span>,
}

/// The composition of a list, for the summary table and the decklist sheet:
/// rows per kind and per part of the count rules, sums, and the sideboard.
#[derive(Clone, Debug, Serialize)]
pub struct Composition {
    pub rows: Vec<(String, u32)>,
    pub total: u32,
    pub sums: Vec<(String, i64)>,
    pub side: u32,
}

/// Problems with the header or context that stop some rules.
#[derive(Clone, Debug, Serialize)]
pub struct SetupProblem {
    pub message: String,
    pub expected: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
    #[serde(skip)]
    pub span: Option<Span>,
}

/// The outcome of validating a list.
#[derive(Clone, Debug, Serialize)]
pub struct Verdict {
    /// The language of the messages.
    pub locale: String,
    pub mode: Option<String>,
    pub role: Option<String>,
    pub violations: Vec<Violation>,
    pub problems: Vec<SetupProblem>,
    /// Rules skipped because their numbers are not given (`gold` absent).
    pub skipped: Vec<String>,
    pub composition: Composition,
    /// Header values resolved: field id → component id or number.
    pub header: IndexMap<String, String>,
}

impl Verdict {
    /// The rule ids the list breaks, in rule order, each once.
    pub fn broken_rules(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for v in &self.violations {
            for r in &v.rules {
                if !out.contains(r) {
                    out.push(r.clone());
                }
            }
        }
        out
    }

    pub fn is_legal(&self) -> bool {
        self.violations.is_empty() && self.problems.is_empty()
    }
}

/// The header values after resolution: component ids or numbers.
struct Resolved<'g> {
    game: &'g Game,
    mode: Option<&'g Component>,
    header: IndexMap<String, HeaderValue<'g>>,
    lang: Lang,
    locale: String,
    /// Header fields given with a value that names nothing.
    invalid: Vec<String>,
    /// Header keys as the list's locale writes them.
    key_names: IndexMap<String, String>,
}

enum HeaderValue<'g> {
    Component(&'g Component, Option<Span>),
    Int(i64, Option<Span>),
}

/// The key of a header field as the list's locale writes it.
pub fn key_name(c: &Construction, id: &str, lang: Lang) -> String {
    match (id, lang) {
        ("mode", Lang::Es) => "modo".into(),
        ("role", Lang::Es) => "rol".into(),
        ("players", Lang::Es) => "jugadores".into(),
        _ => c
            .header
            .get(id)
            .map(|f| f.names.get(lang.code()).to_string())
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| id.to_string()),
    }
}

/// The mode for `n` players (with a points budget when several are).
pub fn mode_for_players<'g>(game: &'g Game, c: &Construction, n: i64) -> Option<&'g Component> {
    let kind = c.modes.as_ref()?;
    let modes: Vec<&Component> = game
        .components
        .get(kind)
        .into_iter()
        .flatten()
        .filter(|m| m.field("players").and_then(FieldValue::as_int) == Some(n))
        .collect();
    modes
        .iter()
        .find(|m| m.field("points").is_some())
        .or(modes.first())
        .copied()
}

/// The most copies of `comp` the copy rules allow in the verdict's mode and
/// role (`copies: {at_most: 1}`, or the kit's pieces of the card), if any
/// rule bounds it. A card named without a count is one copy where this is 1.
pub fn copies_allowed(game: &Game, c: &Construction, comp: &Component, verdict: &Verdict) -> Option<i64> {
    let mode = verdict
        .mode
        .as_ref()
        .and_then(|m| c.modes.as_ref().and_then(|k| game.component(k, m)));
    let mut most: Option<i64> = None;
    for rule in &c.rules {
        let Check::Copies(b) = &rule.check else { continue };
        if !rule.filter.matches(comp) || !applies(rule, mode, verdict.role.as_deref()) {
            continue;
        }
        if matches!(b, Bound::AtLeast(_)) {
            continue;
        }
        let n = match b.amount() {
            Amount::Number(n) => Some(*n),
            Amount::Mode(f) => mode.and_then(|m| m.field(f)).and_then(FieldValue::as_int),
            Amount::Header(h) => verdict.header.get(h).and_then(|v| v.parse().ok()),
            Amount::Kit { kind, by } => Some(kit_pieces(game, kind, by, comp)),
        };
        if let Some(n) = n {
            most = Some(most.map_or(n, |m| m.min(n)));
        }
    }
    most
}

/// The pieces of `kind` the kit prints for a card (those whose `by` field names it).
fn kit_pieces(game: &Game, kind: &str, by: &str, card: &Component) -> i64 {
    game.components
        .get(kind)
        .map(|cs| {
            cs.iter()
                .filter(|p| p.key_of(by).as_deref() == Some(card.id.as_str()))
                .map(|p| i64::from(p.copies))
                .sum()
        })
        .unwrap_or(0)
}

/// Checks a list against the game's construction rules: every violation.
pub fn validate(game: &Game, c: &Construction, deck: &Deck, ctx: &Context) -> Verdict {
    let locale = ctx
        .locale
        .clone()
        .or_else(|| deck.header.get("locale").map(|(v, _)| v.trim().to_lowercase()))
        .or_else(|| deck.locale().map(str::to_string))
        .unwrap_or_else(|| "en".to_string());
    let lang = Lang::of(&locale);
    let mut problems = Vec::new();
    let mut r = Resolved {
        game,
        mode: None,
        header: IndexMap::new(),
        lang,
        locale: locale.clone(),
        invalid: Vec::new(),
        key_names: c.header.keys().map(|k| (k.clone(), key_name(c, k, lang))).collect(),
    };
    let noun = c.noun.get(&locale).to_string();
    // The mode: command line, then header, then the number of players.
    if let Some(kind) = &c.modes {
        let kinds = std::slice::from_ref(kind);
        let given = ctx
            .mode
            .clone()
            .map(|m| (m, None))
            .or_else(|| deck.header.get("mode").map(|(v, s)| (v.clone(), Some(*s))));
        match given {
            Some((m, span)) => match resolve(game, kinds, &m) {
                Ok(comp) => r.mode = Some(comp),
                Err(e) => problems.push(SetupProblem {
                    message: lang.unknown_mode(&m),
                    expected: lang.one_of(&names_of(game, kind, &locale)),
                    help: suggestion(lang, e),
                    span,
                }),
            },
            None => match deck.header.get("players") {
                Some((v, span)) => match v.trim().parse::<i64>().ok().and_then(|n| mode_for_players(game, c, n)) {
                    Some(m) => r.mode = Some(m),
                    None => problems.push(SetupProblem {
                        message: lang.no_mode_for(v.trim()),
                        expected: lang.mode_expected(&names_of(game, kind, &locale)),
                        help: None,
                        span: Some(*span),
                    }),
                },
                None => problems.push(SetupProblem {
                    message: lang.mode_missing().into(),
                    expected: lang.mode_expected(&names_of(game, kind, &locale)),
                    help: None,
                    span: None,
                }),
            },
        }
    }
    // The role, by id or by its name in any locale.
    let written_role = ctx
        .role
        .clone()
        .map(|v| (v, None))
        .or_else(|| deck.header.get("role").map(|(v, s)| (v.clone(), Some(*s))));
    let role = match written_role {
        Some((v, span)) if !c.roles.is_empty() => {
            let key = super::names::normalize(&v);
            let found = c.roles.iter().find(|ro| {
                super::names::normalize(&ro.id) == key || ro.name.0.values().any(|n| super::names::normalize(n) == key)
            });
            match found {
                Some(ro) => Some(ro.id.clone()),
                None => {
                    let all: Vec<String> = c
                        .roles
                        .iter()
                        .flat_map(|ro| std::iter::once(ro.id.clone()).chain(ro.name.0.values().cloned()))
                        .collect();
                    problems.push(SetupProblem {
                        message: lang.unknown_role(&v),
                        expected: lang.one_of(&quote(
                            lang,
                            &c.roles.iter().map(|ro| ro.name.get(&locale)).collect::<Vec<_>>(),
                        )),
                        help: crate::diag::did_you_mean(&v, all.iter().map(String::as_str))
                            .map(|s| lang.did_you_mean(s)),
                        span,
                    });
                    None
                }
            }
        }
        Some((v, _)) => Some(v),
        None => c.roles.first().map(|ro| ro.id.clone()),
    };
    for (name, field) in &c.header {
        if name == "mode" {
            continue;
        }
        let key = key_name(c, name, lang);
        let given = ctx
            .params
            .get(name)
            .map(|v| (v.clone(), None))
            .or_else(|| deck.header.get(name).map(|(v, s)| (v.clone(), Some(*s))));
        match (&field.ty, given) {
            (HeaderType::Ref { kind }, Some((v, span))) => match resolve(game, std::slice::from_ref(kind), &v) {
                Ok(comp) => {
                    r.header.insert(name.clone(), HeaderValue::Component(comp, span));
                }
                Err(e) => {
                    r.invalid.push(name.clone());
                    let kind_name = kind_label(game, kind, &locale);
                    let (message, help) = match e {
                        Unresolved::Several(cs) => (
                            lang.names_several(
                                &key,
                                &v,
                                &quote(lang, &cs.iter().map(|c| c.id.as_str()).collect::<Vec<_>>()),
                            ),
                            None,
                        ),
                        other => (lang.names_no(&key, &v, &kind_name), suggestion(lang, other)),
                    };
                    problems.push(SetupProblem {
                        message,
                        expected: lang.one_of(&names_of(game, kind, &locale)),
                        help,
                        span,
                    });
                }
            },
            (HeaderType::Int, Some((v, span))) => match v.trim().parse::<i64>() {
                Ok(n) => {
                    r.header.insert(name.clone(), HeaderValue::Int(n, span));
                }
                Err(_) => problems.push(SetupProblem {
                    message: {
                        r.invalid.push(name.clone());
                        lang.not_whole(&key, &v)
                    },
                    expected: lang.whole_number().into(),
                    help: None,
                    span,
                }),
            },
            (HeaderType::Ref { kind }, None) if field.required => problems.push(SetupProblem {
                message: lang.names_none(&key, &noun),
                expected: lang.line_naming(&key, &names_of(game, kind, &locale)),
                help: None,
                span: None,
            }),
            (HeaderType::Int, None) if field.required => problems.push(SetupProblem {
                message: lang.names_none(&key, &noun),
                expected: lang.line_or_param(&key, name),
                help: None,
                span: None,
            }),
            _ => {}
        }
    }
    let cards: Vec<(&Entry, &Component)> = deck
        .entries
        .iter()
        .filter_map(|e| game.component(&e.kind, &e.id).map(|comp| (e, comp)))
        .collect();
    let mut violations = Vec::new();
    let mut skipped = Vec::new();
    for rule in &c.rules {
        if !applies(rule, r.mode, role.as_deref()) {
            continue;
        }
        match check_group(rule, &cards, &r, c, ctx) {
            Outcome::Ok => {}
            Outcome::Skipped(why) => skipped.push(format!("{} ({why})", rule.id)),
            Outcome::Broken(v) => violations.extend(v),
        }
    }
    let mut composition = composition(game, c, &cards, &locale, |rule| applies(rule, r.mode, role.as_deref()));
    composition.side = deck.side.iter().map(|e| e.count).sum();
    let mut header = IndexMap::new();
    if let Some(m) = r.mode {
        header.insert("mode".to_string(), m.id.clone());
    }
    if let Some(ro) = &role
        && !c.roles.is_empty()
    {
        header.insert("role".to_string(), ro.clone());
    }
    for (k, v) in &r.header {
        header.insert(
            k.clone(),
            match v {
                HeaderValue::Component(c, _) => c.id.clone(),
                HeaderValue::Int(n, _) => n.to_string(),
            },
        );
    }
    Verdict {
        locale,
        mode: r.mode.map(|m| m.id.clone()),
        role,
        violations,
        problems,
        skipped,
        composition,
        header,
    }
}

/// Why a header value a rule needs is not there: absent, or naming nothing.
fn missing(r: &Resolved, id: &str) -> String {
    let key = match r.key_names.get(id) {
        Some(k) => k.clone(),
        None => id.to_string(),
    };
    if r.invalid.iter().any(|i| i == id) {
        r.lang.not_valid(&key)
    } else {
        r.lang.not_given(&key)
    }
}

fn suggestion(lang: Lang, e: Unresolved) -> Option<String> {
    match e {
        Unresolved::Unknown(Some(s)) => Some(lang.did_you_mean(&s)),
        _ => None,
    }
}

/// `a`, `b` and `c` in the list's language, "and N more" past twelve.
pub fn quote(lang: Lang, items: &[&str]) -> String {
    let quoted: Vec<String> = items.iter().map(|i| format!("`{i}`")).collect();
    lang.list(&quoted, 12)
}

/// The components of a kind by their names in `locale`.
fn names_of(game: &Game, kind: &str, locale: &str) -> String {
    let lang = Lang::of(locale);
    let v: Vec<String> = game
        .components
        .get(kind)
        .map(|cs| cs.iter().map(|c| name(c, locale)).collect())
        .unwrap_or_default();
    quote(lang, &v.iter().map(String::as_str).collect::<Vec<_>>())
}

/// A kind's name in `locale`, lower case (`hero card`).
pub fn kind_label(game: &Game, kind: &str, locale: &str) -> String {
    game.kinds
        .get(kind)
        .map(|k| k.name.get(locale).to_lowercase())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| kind.to_string())
}

fn applies(rule: &DeckRule, mode: Option<&Component>, role: Option<&str>) -> bool {
    rule.when.iter().all(|(k, values)| match k.as_str() {
        "mode" => mode.is_some_and(|m| values.contains(&m.id)),
        "role" => role.is_some_and(|r| values.iter().any(|v| v == r)),
        _ => false,
    })
}

/// `Ok` when no violation was found.
fn broken(out: Vec<Violation>) -> Outcome {
    if out.is_empty() {
        Outcome::Ok
    } else {
        Outcome::Broken(out)
    }
}

enum Outcome {
    Ok,
    Skipped(String),
    Broken(Vec<Violation>),
}

/// A number a rule needs, or why it is not known.
fn amount(a: &Amount, r: &Resolved, card: Option<&Component>) -> Result<(i64, Option<Span>), String> {
    match a {
        Amount::Number(n) => Ok((*n, None)),
        Amount::Mode(field) => {
            let m = r.mode.ok_or_else(|| r.lang.no_mode().to_string())?;
            m.field(field)
                .and_then(FieldValue::as_int)
                .map(|n| (n, None))
                .ok_or_else(|| r.lang.mode_lacks(&m.id, field))
        }
        Amount::Header(name) => match r.header.get(name) {
            Some(HeaderValue::Int(n, span)) => Ok((*n, *span)),
            _ => Err(missing(r, name)),
        },
        Amount::Kit { kind, by } => {
            let card = card.ok_or("a kit amount is per card")?;
            Ok((kit_pieces(r.game, kind, by, card), None))
        }
    }
}

/// `found` against a bound: `None` when it holds, else the bound's number.
fn compare(found: i64, b: &Bound, r: &Resolved, card: Option<&Component>) -> Result<Option<i64>, String> {
    let (n, _) = amount(b.amount(), r, card)?;
    let ok = match b {
        Bound::Exactly(_) => found == n,
        Bound::AtLeast(_) => found >= n,
        Bound::AtMost(_) => found <= n,
    };
    Ok((!ok).then_some(n))
}

fn bound_number(b: &Bound, r: &Resolved) -> Option<i64> {
    amount(b.amount(), r, None).ok().map(|(n, _)| n)
}

fn count_text(label: &str, found: i64, b: &Bound, r: &Resolved) -> String {
    r.lang.count_text(label, found, BoundKind::of(b), bound_number(b, r))
}

fn count_of(filter: &Filter, cards: &[(&Entry, &Component)]) -> (i64, Vec<Span>) {
    let mut n = 0;
    let mut spans = Vec::new();
    for (e, c) in cards {
        if filter.matches(c) {
            n += i64::from(e.count);
            spans.extend(e.spans.iter().copied());
        }
    }
    (n, spans)
}

fn header_span(r: &Resolved, name: &str) -> Option<Span> {
    match r.header.get(name) {
        Some(HeaderValue::Component(_, s)) | Some(HeaderValue::Int(_, s)) => *s,
        None => None,
    }
}

/// A value of a field as players read it: a component's name when the
/// value is an id, else the value.
fn show_value(r: &Resolved, value: &str) -> String {
    r.game
        .components
        .values()
        .flatten()
        .find(|x| x.id == value)
        .map_or_else(|| value.to_string(), |c| name(c, &r.locale))
}

/// The cards matching a filter, grouped by the value of `per` (one group
/// of every card when `per` is `None`).
/// Cards of a list grouped by a value (`None`: one group of all).
type Groups<'e> = Vec<(Option<String>, Vec<(&'e Entry, &'e Component)>)>;

fn groups<'e>(per: Option<&str>, filter: &Filter, cards: &[(&'e Entry, &'e Component)]) -> Groups<'e> {
    let mut out: Groups = Vec::new();
    for (e, c) in cards.iter().filter(|(_, c)| filter.matches(c)) {
        let key = per.map(|f| c.key_of(f).unwrap_or_default());
        match out.iter_mut().find(|(k, _)| *k == key) {
            Some((_, v)) => v.push((e, c)),
            None => out.push((key, vec![(e, c)])),
        }
    }
    if per.is_none() && out.is_empty() {
        out.push((None, Vec::new()));
    }
    out
}

fn check_group(
    rule: &DeckRule,
    cards: &[(&Entry, &Component)],
    r: &Resolved,
    c: &Construction,
    ctx: &Context,
) -> Outcome {
    let lang = r.lang;
    let label = rule.label.get(&r.locale).to_string();
    let noun = c.noun.get(&r.locale).to_string();
    let v = |message: String, expected: String, found: String, spans: Vec<Span>| Violation {
        rules: vec![rule.id.clone()],
        cite: rule.cite.clone(),
        message,
        expected,
        found,
        help: None,
        spans,
        header_span: None,
    };
    let expect = |label: &str, b: &Bound| match bound_number(b, r) {
        Some(n) => format!("{label}: {}", lang.bound(BoundKind::of(b), n)),
        None => label.to_string(),
    };
    match &rule.check {
        Check::Count(b) if rule.per.is_some() => {
            let mut out = Vec::new();
            for (value, group) in groups(rule.per.as_deref(), &rule.filter, cards) {
                let (found, spans) = count_of(&Filter::default(), &group);
                match compare(found, b, r, None) {
                    Err(why) => return Outcome::Skipped(why),
                    Ok(None) => {}
                    Ok(Some(_)) => {
                        let shown = format!("{label} ({})", show_value(r, value.as_deref().unwrap_or("")));
                        out.push(v(
                            count_text(&shown, found, b, r),
                            expect(&shown, b),
                            found.to_string(),
                            spans,
                        ));
                    }
                }
            }
            broken(out)
        }
        Check::Count(b) => {
            let (found, spans) = count_of(&rule.filter, cards);
            let own = match compare(found, b, r, None) {
                Ok(x) => x,
                Err(why) => return Outcome::Skipped(why),
            };
            // Parts are counted even when the total is right: a swap breaks two parts.
            let mut failing = Vec::new();
            let mut expected = Vec::new();
            let mut part_ids = Vec::new();
            let mut part_spans = Vec::new();
            for p in &rule.parts {
                if let Check::Count(pb) = &p.check {
                    let (pf, ps) = count_of(&p.filter, cards);
                    if let Ok(Some(_)) = compare(pf, pb, r, None) {
                        let pl = p.label.get(&r.locale);
                        failing.push(count_text(pl, pf, pb, r));
                        expected.push(expect(pl, pb));
                        part_ids.push(p.id.clone());
                        part_spans.extend(ps);
                    }
                }
            }
            if own.is_none() && failing.is_empty() {
                return Outcome::Ok;
            }
            let mut message = count_text(&label, found, b, r);
            if !failing.is_empty() {
                message = format!("{message} — {}", failing.join("; "));
            }
            let mut ids = Vec::new();
            if own.is_some() {
                ids.push(rule.id.clone());
                expected.insert(0, expect(&label, b));
            }
            ids.extend(part_ids);
            // The failing parts' lines say more than every line of the group.
            let shown_spans = if part_spans.is_empty() { spans } else { part_spans };
            let mut viol = v(message, expected.join("; "), found.to_string(), shown_spans);
            viol.rules = ids;
            Outcome::Broken(vec![viol])
        }
        Check::Distinct { field, bound } => {
            let mut out = Vec::new();
            for (value, group) in groups(rule.per.as_deref(), &rule.filter, cards) {
                let mut values: Vec<String> = Vec::new();
                let mut spans = Vec::new();
                for (e, comp) in &group {
                    if let Some(k) = comp.key_of(field) {
                        if !values.contains(&k) {
                            values.push(k);
                        }
                        spans.extend(e.spans.iter().copied());
                    }
                }
                let n = values.len() as i64;
                match compare(n, bound, r, None) {
                    Err(why) => return Outcome::Skipped(why),
                    Ok(None) => {}
                    Ok(Some(_)) => {
                        let shown: Vec<String> = values.iter().map(|x| show_value(r, x)).collect();
                        let head = match &value {
                            Some(x) => format!("{label} ({})", show_value(r, x)),
                            None => label.clone(),
                        };
                        out.push(v(
                            lang.distinct(&head, n, BoundKind::of(bound), bound_number(bound, r), &shown),
                            expect(&head, bound),
                            n.to_string(),
                            spans,
                        ));
                    }
                }
            }
            broken(out)
        }
        Check::Sum { field, bound } => {
            let (total, spans) = sum_of(field, &rule.filter, cards);
            match compare(total, bound, r, None) {
                Err(why) => Outcome::Skipped(why),
                Ok(None) => Outcome::Ok,
                Ok(Some(_)) => {
                    let mut viol = v(
                        count_text(&label, total, bound, r),
                        expect(&label, bound),
                        total.to_string(),
                        spans,
                    );
                    if let Amount::Header(h) = bound.amount() {
                        viol.header_span = header_span(r, h);
                    }
                    Outcome::Broken(vec![viol])
                }
            }
        }
        Check::Spend { field, budget } => {
            let (budget_n, _) = match amount(budget, r, None) {
                Ok(x) => x,
                Err(why) => return Outcome::Skipped(why),
            };
            let (spent, spans) = sum_of(field, &rule.filter, cards);
            if spent == budget_n {
                return Outcome::Ok;
            }
            if spent > budget_n {
                return Outcome::Broken(vec![v(
                    lang.spent(&label, spent, budget_n),
                    lang.bound(BoundKind::Exactly, budget_n),
                    spent.to_string(),
                    spans,
                )]);
            }
            // Under budget: legal only if nothing affordable is left to buy.
            let left = budget_n - spent;
            let affordable = affordable(rule, field, left, cards, r, c, ctx);
            if affordable.is_empty() {
                return Outcome::Ok;
            }
            let mut viol = v(
                format!(
                    "{} — {}",
                    lang.spent(&label, spent, budget_n),
                    lang.left_affordable(left, affordable.len())
                ),
                lang.spend_expected(budget_n),
                spent.to_string(),
                spans,
            );
            viol.found = format!("{} ({})", viol.found, lang.affordable(&affordable));
            Outcome::Broken(vec![viol])
        }
        Check::Copies(b) => {
            let mut out = Vec::new();
            for (e, comp) in cards {
                if !rule.filter.matches(comp) {
                    continue;
                }
                match compare(i64::from(e.count), b, r, Some(comp)) {
                    Err(why) => return Outcome::Skipped(why),
                    Ok(None) => {}
                    Ok(Some(n)) => {
                        let bound = lang.bound_copies(BoundKind::of(b), n);
                        out.push(v(
                            lang.copies_of(&label, i64::from(e.count), &name(comp, &r.locale), &bound),
                            bound,
                            e.count.to_string(),
                            e.spans.clone(),
                        ));
                    }
                }
            }
            broken(out)
        }
        Check::Requires { field } => {
            let mut out = Vec::new();
            for (e, comp) in cards {
                if !rule.filter.matches(comp) {
                    continue;
                }
                let Some(target) = comp.field(field).and_then(FieldValue::as_str) else {
                    continue;
                };
                if !cards.iter().any(|(_, other)| other.id == target) {
                    let base = show_value(r, target);
                    out.push(v(
                        lang.needs(&label, &name(comp, &r.locale), &base, &noun),
                        lang.in_the_list(&base, &noun),
                        lang.missing().into(),
                        e.spans.clone(),
                    ));
                }
            }
            broken(out)
        }
        Check::Belongs { field, header } => {
            let Some(HeaderValue::Component(owner, hspan)) = r.header.get(header) else {
                return Outcome::Skipped(missing(r, header));
            };
            // Cards of other owners, grouped by owner.
            let mut by_owner: Groups = Vec::new();
            let mut total = 0u32;
            for (e, comp) in cards {
                if !rule.filter.matches(comp) {
                    continue;
                }
                total += e.count;
                let value = comp.key_of(field);
                if value.as_deref() != Some(owner.id.as_str()) {
                    match by_owner.iter_mut().find(|(k, _)| *k == value) {
                        Some((_, v)) => v.push((e, comp)),
                        None => by_owner.push((value, vec![(e, comp)])),
                    }
                }
            }
            let mut out = Vec::new();
            for (value, group) in by_owner {
                let other = value
                    .as_deref()
                    .map_or_else(|| lang.nobody().to_string(), |id| show_value(r, id));
                let names: Vec<String> = group.iter().map(|(_, c)| name(c, &r.locale)).collect();
                let copies: u32 = group.iter().map(|(e, _)| e.count).sum();
                let mut viol = v(
                    lang.belongs(&label, &names, names.len(), &other, &name(owner, &r.locale)),
                    lang.cards_of(&name(owner, &r.locale)),
                    other.clone(),
                    group.iter().flat_map(|(e, _)| e.spans.iter().copied()).collect(),
                );
                viol.header_span = *hspan;
                // Most of the list is another owner's: the header is wrong.
                if value.is_some() && copies * 2 > total {
                    viol.help = Some(lang.wrong_header(
                        copies as usize,
                        total as usize,
                        &other,
                        &key_name(c, header, lang),
                        &noun,
                    ));
                }
                out.push(viol);
            }
            broken(out)
        }
        Check::Matches {
            header,
            list,
            card,
            count,
        } => {
            let Some(HeaderValue::Component(owner, hspan)) = r.header.get(header) else {
                return Outcome::Skipped(missing(r, header));
            };
            let owner_name = name(owner, &r.locale);
            let wanted: Vec<(String, i64)> = owner
                .field(list)
                .and_then(FieldValue::as_list)
                .unwrap_or_default()
                .iter()
                .filter_map(|item| {
                    let rec = item.as_record()?;
                    Some((rec.get(card)?.as_str()?.to_string(), rec.get(count)?.as_int()?))
                })
                .collect();
            let mut out = Vec::new();
            for (id, n) in &wanted {
                let have = cards
                    .iter()
                    .filter(|(_, comp)| &comp.id == id)
                    .map(|(e, _)| i64::from(e.count))
                    .sum::<i64>();
                if have != *n {
                    let spans = cards
                        .iter()
                        .filter(|(_, x)| &x.id == id)
                        .flat_map(|(e, _)| e.spans.clone())
                        .collect();
                    let mut viol = v(
                        lang.lists(&label, have, &show_value(r, id), &owner_name, *n),
                        lang.as_listed(*n, &owner_name),
                        have.to_string(),
                        spans,
                    );
                    viol.header_span = *hspan;
                    out.push(viol);
                }
            }
            for (e, comp) in cards {
                if rule.filter.matches(comp) && !wanted.iter().any(|(id, _)| id == &comp.id) {
                    let mut viol = v(
                        lang.not_listed(&label, &name(comp, &r.locale), &owner_name),
                        lang.only_listed(&owner_name),
                        e.count.to_string(),
                        e.spans.clone(),
                    );
                    viol.header_span = *hspan;
                    out.push(viol);
                }
            }
            broken(out)
        }
        Check::OneOf { list } => {
            let Some(mode) = r.mode else {
                return Outcome::Skipped(lang.no_mode().into());
            };
            // Each allowed list: the card ids its record names, one copy each.
            let allowed: Vec<Vec<String>> = mode
                .field(list)
                .and_then(FieldValue::as_list)
                .unwrap_or_default()
                .iter()
                .filter_map(FieldValue::as_record)
                .map(|rec| {
                    let mut ids: Vec<String> = Vec::new();
                    for v in rec.values() {
                        match v {
                            FieldValue::Str(id) => ids.push(id.clone()),
                            FieldValue::List(items) => {
                                ids.extend(items.iter().filter_map(|x| x.as_str().map(str::to_string)))
                            }
                            _ => {}
                        }
                    }
                    ids
                })
                .collect();
            let listed: Vec<&(&Entry, &Component)> = cards.iter().filter(|(_, c)| rule.filter.matches(c)).collect();
            let is = |ids: &Vec<String>| {
                listed.len() == ids.len() && listed.iter().all(|(e, c)| e.count == 1 && ids.contains(&c.id))
            };
            if allowed.iter().any(is) {
                return Outcome::Ok;
            }
            let have: Vec<String> = listed
                .iter()
                .map(|(e, c)| match e.count {
                    1 => name(c, &r.locale),
                    n => format!("{n} {}", name(c, &r.locale)),
                })
                .collect();
            let options: Vec<String> = allowed
                .iter()
                .map(|ids| lang.list(&ids.iter().map(|id| show_value(r, id)).collect::<Vec<_>>(), 8))
                .collect();
            let mode_name = name(mode, &r.locale);
            Outcome::Broken(vec![v(
                lang.none_of(&label, &lang.list(&have, 8), &mode_name),
                lang.one_of_lists(&options),
                lang.list(&have, 8),
                listed.iter().flat_map(|(e, _)| e.spans.iter().copied()).collect(),
            )])
        }
        Check::Reserve { header, list, kit, by } => {
            let Some(HeaderValue::Component(owner, hspan)) = r.header.get(header) else {
                return Outcome::Skipped(missing(r, header));
            };
            let mut out = Vec::new();
            for item in owner.field(list).and_then(FieldValue::as_list).unwrap_or_default() {
                let Some(unit) = item.as_str() else { continue };
                let pieces: i64 = r
                    .game
                    .components
                    .get(kit)
                    .map(|cs| {
                        cs.iter()
                            .filter(|p| p.key_of(by).as_deref() == Some(unit))
                            .map(|p| i64::from(p.copies))
                            .sum()
                    })
                    .unwrap_or(0);
                let used: i64 = cards
                    .iter()
                    .filter(|(_, x)| x.id == unit)
                    .map(|(e, _)| i64::from(e.count))
                    .sum();
                if pieces - used < 1 {
                    let spans = cards
                        .iter()
                        .filter(|(_, x)| x.id == unit)
                        .flat_map(|(e, _)| e.spans.clone())
                        .collect();
                    let mut viol = v(
                        lang.no_reserve(
                            &label,
                            &show_value(r, unit),
                            &kind_label(r.game, kit, &r.locale),
                            pieces,
                            used,
                        ),
                        lang.one_left().into(),
                        (pieces - used).to_string(),
                        spans,
                    );
                    viol.header_span = *hspan;
                    out.push(viol);
                }
            }
            broken(out)
        }
    }
}

fn sum_of(field: &str, filter: &Filter, cards: &[(&Entry, &Component)]) -> (i64, Vec<Span>) {
    let mut total = 0i64;
    let mut spans = Vec::new();
    for (e, c) in cards {
        if filter.matches(c)
            && let Some(v) = c.field(field).and_then(FieldValue::as_int)
        {
            total = total.saturating_add(v.saturating_mul(i64::from(e.count)));
            if v != 0 {
                spans.extend(e.spans.iter().copied());
            }
        }
    }
    (total, spans)
}

/// Cards not yet in the list, allowed by every copy rule, costing at most `left`.
fn affordable(
    rule: &DeckRule,
    field: &str,
    left: i64,
    cards: &[(&Entry, &Component)],
    r: &Resolved,
    c: &Construction,
    ctx: &Context,
) -> Vec<String> {
    let mut out = Vec::new();
    for kind in &c.kinds {
        for comp in r.game.components.get(kind).into_iter().flatten() {
            if !rule.filter.matches(comp) {
                continue;
            }
            let Some(cost) = comp.field(field).and_then(FieldValue::as_int) else {
                continue;
            };
            if cost <= 0 || cost > left {
                continue;
            }
            let have = cards
                .iter()
                .filter(|(_, x)| x.id == comp.id)
                .map(|(e, _)| i64::from(e.count))
                .sum::<i64>();
            // From a shared box, the copies the other players took are gone.
            let gone = c.shared_pool
                && have + i64::from(ctx.taken.get(&comp.id).copied().unwrap_or(0)) >= i64::from(comp.copies);
            // Would one more copy break a copy rule?
            let blocked = gone
                || c.rules.iter().any(|cr| match &cr.check {
                    Check::Copies(b) if cr.filter.matches(comp) => {
                        matches!(compare(have + 1, b, r, Some(comp)), Ok(Some(_)))
                    }
                    _ => false,
                });
            if !blocked {
                out.push(r.lang.cost(&name(comp, &r.locale), cost));
            }
        }
    }
    out
}

/// A component's name in `locale` (else its first), or its id.
pub fn name(c: &Component, locale: &str) -> String {
    let n = c.name.get(locale);
    if n.is_empty() { c.id.clone() } else { n.to_string() }
}

fn composition(
    game: &Game,
    c: &Construction,
    cards: &[(&Entry, &Component)],
    locale: &str,
    applicable: impl Fn(&DeckRule) -> bool,
) -> Composition {
    let mut rows: Vec<(String, u32)> = Vec::new();
    for kind in &c.kinds {
        let n: u32 = cards
            .iter()
            .filter(|(_, x)| &x.kind == kind)
            .map(|(e, _)| e.count)
            .sum();
        if n > 0 {
            rows.push((kind_label(game, kind, locale), n));
        }
    }
    // The parts of count rules give finer rows (`characters / basic`).
    for rule in c.rules.iter().filter(|r| applicable(r)) {
        for p in &rule.parts {
            let (n, _) = count_of(&p.filter, cards);
            rows.push((
                format!("{} / {}", rule.label.get(locale), p.label.get(locale)),
                n as u32,
            ));
        }
    }
    let mut sums = Vec::new();
    for rule in c.rules.iter().filter(|r| applicable(r)) {
        if let Check::Sum { field, .. } | Check::Spend { field, .. } = &rule.check {
            let (n, _) = sum_of(field, &rule.filter, cards);
            let label = rule.label.get(locale).to_string();
            if !sums.iter().any(|(l, _)| *l == label) {
                sums.push((label, n));
            }
        }
    }
    Composition {
        rows,
        total: cards.iter().map(|(e, _)| e.count).sum(),
        sums,
        side: 0,
    }
}
