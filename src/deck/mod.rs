//! Deck and army validation: construction rules declared in each pack's
//! `game.yaml` (`construction:`, docs/decks.md), deck lists in YAML or the
//! plain `N Card name` format, and a validator that reports every broken
//! rule with its numbers and the lines involved.

pub mod list;
pub mod read;

use indexmap::IndexMap;
use serde::Serialize;

use crate::diag::Span;
use crate::model::{Component, FieldValue, Game};

/// The construction rules of a game.
#[derive(Clone, Debug, Serialize)]
pub struct Construction {
    /// What a list is called in messages: `deck` or `army`.
    pub noun: String,
    /// The kinds a list may name.
    pub kinds: Vec<String>,
    /// Fields a list's header may give (`hero: medusa`, `mode: duel`, `gold: 40`).
    pub header: IndexMap<String, HeaderField>,
    /// The kind whose components are the game modes (`--mode`), if any.
    pub modes: Option<String>,
    /// Roles a player may take (`--role`); the first is the default.
    pub roles: Vec<String>,
    pub rules: Vec<DeckRule>,
    #[serde(skip)]
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum HeaderField {
    /// Names a component of a kind (by id or name).
    Ref { kind: String, required: bool },
    /// A whole number (a budget).
    Int { required: bool },
}

/// One construction rule.
#[derive(Clone, Debug, Serialize)]
pub struct DeckRule {
    pub id: String,
    /// The rules-reference section it comes from.
    pub cite: Option<String>,
    /// What is counted, for messages (`characters`).
    pub label: String,
    /// Only in these modes / roles (`when: {mode: [duel], role: ally}`).
    pub when: IndexMap<String, Vec<String>>,
    /// Which cards the rule looks at.
    pub filter: Filter,
    pub check: Check,
    /// Finer counts reported together with this one (`basic: 11 of 12`).
    pub parts: Vec<DeckRule>,
    #[serde(skip)]
    pub span: Span,
}

/// Cards of some kinds whose fields have some values.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Filter {
    pub kinds: Vec<String>,
    pub fields: IndexMap<String, Vec<String>>,
}

impl Filter {
    pub fn matches(&self, c: &Component) -> bool {
        (self.kinds.is_empty() || self.kinds.contains(&c.kind))
            && self
                .fields
                .iter()
                .all(|(f, values)| c.key_of(f).is_some_and(|v| values.contains(&v)))
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Bound {
    Exactly(Amount),
    AtLeast(Amount),
    AtMost(Amount),
}

/// A number in a rule: literal, from the mode, from the list's header, or
/// per card from the kit (pieces printed).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Amount {
    Number(i64),
    Mode(String),
    Header(String),
    Kit { kind: String, by: String },
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Check {
    /// Copies of the filtered cards.
    Count(Bound),
    /// Sum of a field over the filtered cards (times copies).
    Sum { field: String, bound: Bound },
    /// A budget spent exactly, unless nothing more can be bought.
    Spend { field: String, budget: Amount },
    /// Copies of each filtered card.
    Copies(Bound),
    /// Each filtered card's `field` names a card that must be in the list.
    Requires { field: String },
    /// Each filtered card's `field` equals the component the header names.
    Belongs { field: String, header: String },
    /// The list equals a list of `{card, count}` records of the header's component.
    Matches {
        header: String,
        list: String,
        card: String,
        count: String,
    },
    /// Every unit in the header component's `list` has a kit piece left
    /// after the list's copies.
    Reserve {
        header: String,
        list: String,
        kit: String,
        by: String,
    },
}

/// A deck or army list, resolved to components.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Deck {
    /// Header fields as written: value and span.
    #[serde(skip)]
    pub header: IndexMap<String, (String, Span)>,
    pub entries: Vec<Entry>,
}

/// One card of a list: all its lines merged.
#[derive(Clone, Debug, Serialize)]
pub struct Entry {
    pub kind: String,
    pub id: String,
    pub count: u32,
    /// The lines naming it.
    #[serde(skip)]
    pub spans: Vec<Span>,
    pub section: Option<String>,
}

impl Deck {
    /// Adds copies of a card, merging with an earlier line.
    pub fn add(&mut self, kind: &str, id: &str, count: u32, span: Span, section: Option<String>) {
        match self.entries.iter_mut().find(|e| e.kind == kind && e.id == id) {
            Some(e) => {
                e.count += count;
                e.spans.push(span);
            }
            None => self.entries.push(Entry {
                kind: kind.to_string(),
                id: id.to_string(),
                count,
                spans: vec![span],
                section,
            }),
        }
    }

    pub fn total(&self) -> u32 {
        self.entries.iter().map(|e| e.count).sum()
    }

    /// Copies per card id, as logs and engines take them.
    pub fn copies(&self) -> IndexMap<String, u32> {
        self.entries.iter().map(|e| (e.id.clone(), e.count)).collect()
    }
}

/// What the list is checked against: mode, role and header choices.
#[derive(Clone, Debug, Default)]
pub struct Context {
    pub mode: Option<String>,
    pub role: Option<String>,
    /// Header values given on the command line (`--param gold=40`).
    pub params: IndexMap<String, String>,
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
    /// The lines involved.
    #[serde(skip)]
    pub spans: Vec<Span>,
    /// Where the list names the header value involved, if any.
    #[serde(skip)]
    pub header_span: Option<Span>,
}

/// The composition of a list: per kind (and the first filter fields of the
/// count rules), for the summary table.
#[derive(Clone, Debug, Serialize)]
pub struct Composition {
    pub rows: Vec<(String, u32)>,
    pub total: u32,
    pub sums: Vec<(String, i64)>,
}

/// The header values after resolution: component ids or numbers.
struct Resolved<'g> {
    game: &'g Game,
    mode: Option<&'g Component>,
    header: IndexMap<String, HeaderValue<'g>>,
}

enum HeaderValue<'g> {
    Component(&'g Component, Option<Span>),
    Int(i64, Option<Span>),
}

/// Problems with the header or context that stop some rules.
#[derive(Clone, Debug, Serialize)]
pub struct SetupProblem {
    pub message: String,
    pub expected: String,
    #[serde(skip)]
    pub span: Option<Span>,
}

/// The outcome of validating a list.
#[derive(Clone, Debug, Serialize)]
pub struct Verdict {
    pub mode: Option<String>,
    pub role: Option<String>,
    pub violations: Vec<Violation>,
    pub problems: Vec<SetupProblem>,
    /// Rules skipped because their numbers are not given (`gold` absent).
    pub skipped: Vec<String>,
    pub composition: Composition,
}

impl Verdict {
    pub fn is_legal(&self) -> bool {
        self.violations.is_empty() && self.problems.is_empty()
    }
}

/// Checks a list against the game's construction rules: every violation.
pub fn validate(game: &Game, c: &Construction, deck: &Deck, ctx: &Context) -> Verdict {
    let mut problems = Vec::new();
    let mut resolved = Resolved {
        game,
        mode: None,
        header: IndexMap::new(),
    };
    // The mode: command line, then header.
    let mode_id = ctx
        .mode
        .clone()
        .or_else(|| deck.header.get("mode").map(|(v, _)| v.clone()));
    if let Some(kind) = &c.modes {
        match &mode_id {
            Some(m) => match list::find_component(game, std::slice::from_ref(kind), m) {
                Ok(comp) => resolved.mode = Some(comp),
                Err(_) => problems.push(SetupProblem {
                    message: format!("unknown mode `{m}`"),
                    expected: format!("one of {}", ids(game, kind)),
                    span: deck.header.get("mode").map(|(_, s)| *s),
                }),
            },
            None => problems.push(SetupProblem {
                message: "no mode given".into(),
                expected: format!(
                    "`--mode` (or `--players`) or a `mode:` header line; modes: {}",
                    ids(game, kind)
                ),
                span: None,
            }),
        }
    }
    let role = ctx
        .role
        .clone()
        .or_else(|| deck.header.get("role").map(|(v, _)| v.clone()))
        .or_else(|| c.roles.first().cloned());
    if let Some(r) = &role
        && !c.roles.is_empty()
        && !c.roles.contains(r)
    {
        problems.push(SetupProblem {
            message: format!("unknown role `{r}`"),
            expected: format!("one of {}", c.roles.join(", ")),
            span: deck.header.get("role").map(|(_, s)| *s),
        });
    }
    for (name, field) in &c.header {
        if name == "mode" {
            continue;
        }
        let given = ctx
            .params
            .get(name)
            .map(|v| (v.clone(), None))
            .or_else(|| deck.header.get(name).map(|(v, s)| (v.clone(), Some(*s))));
        match (field, given) {
            (HeaderField::Ref { kind, .. }, Some((v, span))) => {
                match list::find_component(game, std::slice::from_ref(kind), &v) {
                    Ok(comp) => {
                        resolved.header.insert(name.clone(), HeaderValue::Component(comp, span));
                    }
                    Err(e) => problems.push(SetupProblem {
                        message: format!("`{name}: {v}` names no {kind}: {e}"),
                        expected: format!("one of {}", ids(game, kind)),
                        span,
                    }),
                }
            }
            (HeaderField::Int { .. }, Some((v, span))) => match v.trim().parse::<i64>() {
                Ok(n) => {
                    resolved.header.insert(name.clone(), HeaderValue::Int(n, span));
                }
                Err(_) => problems.push(SetupProblem {
                    message: format!("`{name}: {v}` is not a whole number"),
                    expected: "a whole number".into(),
                    span,
                }),
            },
            (HeaderField::Ref { required: true, kind }, None) => problems.push(SetupProblem {
                message: format!("the {} names no {name}", c.noun),
                expected: format!("a `{name}:` line naming one of {}", ids(game, kind)),
                span: None,
            }),
            (HeaderField::Int { required: true }, None) => problems.push(SetupProblem {
                message: format!("the {} gives no {name}", c.noun),
                expected: format!("a `{name}:` line or `--param {name}=N`"),
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
        if !applies(rule, resolved.mode, role.as_deref()) {
            continue;
        }
        match check_group(rule, &cards, &resolved, c) {
            Outcome::Ok => {}
            Outcome::Skipped(why) => skipped.push(format!("{} ({why})", rule.id)),
            Outcome::Broken(v) => violations.extend(v),
        }
    }
    let composition = composition(c, &cards, |rule| applies(rule, resolved.mode, role.as_deref()));
    Verdict {
        mode: resolved.mode.map(|m| m.id.clone()),
        role,
        violations,
        problems,
        skipped,
        composition,
    }
}

fn ids(game: &Game, kind: &str) -> String {
    let v: Vec<&str> = game
        .components
        .get(kind)
        .map(|cs| cs.iter().map(|c| c.id.as_str()).collect())
        .unwrap_or_default();
    crate::pack::reader::quote_list(&v)
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
            let m = r.mode.ok_or("no mode")?;
            m.field(field)
                .and_then(FieldValue::as_int)
                .map(|n| (n, None))
                .ok_or_else(|| format!("mode `{}` has no `{field}`", m.id))
        }
        Amount::Header(name) => match r.header.get(name) {
            Some(HeaderValue::Int(n, span)) => Ok((*n, *span)),
            _ => Err(format!("no `{name}` given")),
        },
        Amount::Kit { kind, by } => {
            let card = card.ok_or("a kit amount is per card")?;
            let pieces: u32 = r
                .game
                .components
                .get(kind)
                .map(|cs| {
                    cs.iter()
                        .filter(|p| p.key_of(by).as_deref() == Some(card.id.as_str()))
                        .map(|p| p.copies)
                        .sum()
                })
                .unwrap_or(0);
            Ok((i64::from(pieces), None))
        }
    }
}

/// `found` against a bound: `None` when it holds, else (expected, relation).
fn compare(found: i64, b: &Bound, r: &Resolved, card: Option<&Component>) -> Result<Option<String>, String> {
    let (kind, a) = match b {
        Bound::Exactly(a) => ("exactly", a),
        Bound::AtLeast(a) => ("at least", a),
        Bound::AtMost(a) => ("at most", a),
    };
    let (n, _) = amount(a, r, card)?;
    let ok = match b {
        Bound::Exactly(_) => found == n,
        Bound::AtLeast(_) => found >= n,
        Bound::AtMost(_) => found <= n,
    };
    Ok((!ok).then(|| format!("{kind} {n}")))
}

fn bound_number(b: &Bound, r: &Resolved) -> Option<i64> {
    let a = match b {
        Bound::Exactly(a) | Bound::AtLeast(a) | Bound::AtMost(a) => a,
    };
    amount(a, r, None).ok().map(|(n, _)| n)
}

/// "basic: 11 of 12" / "cards: 61 (at most 60)".
fn count_text(label: &str, found: i64, b: &Bound, r: &Resolved) -> String {
    match (b, bound_number(b, r)) {
        (Bound::Exactly(_), Some(0)) => format!("{label}: {found} (none allowed)"),
        (Bound::Exactly(_), Some(n)) => format!("{label}: {found} of {n}"),
        (Bound::AtMost(_), Some(n)) => format!("{label}: {found} (at most {n})"),
        (Bound::AtLeast(_), Some(n)) => format!("{label}: {found} (at least {n})"),
        _ => format!("{label}: {found}"),
    }
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

fn check_group(rule: &DeckRule, cards: &[(&Entry, &Component)], r: &Resolved, c: &Construction) -> Outcome {
    let v = |message: String, expected: String, found: String, spans: Vec<Span>| Violation {
        rules: vec![rule.id.clone()],
        cite: rule.cite.clone(),
        message,
        expected,
        found,
        spans,
        header_span: None,
    };
    match &rule.check {
        Check::Count(b) => {
            let (found, spans) = count_of(&rule.filter, cards);
            let own = match compare(found, b, r, None) {
                Ok(x) => x,
                Err(why) => return Outcome::Skipped(why),
            };
            // Parts are counted even when the total is right: a swap breaks two parts.
            let mut failing = Vec::new();
            let mut part_ids = Vec::new();
            let mut part_spans = Vec::new();
            for p in &rule.parts {
                if let Check::Count(pb) = &p.check {
                    let (pf, ps) = count_of(&p.filter, cards);
                    if let Ok(Some(_)) = compare(pf, pb, r, None) {
                        failing.push(count_text(&p.label, pf, pb, r));
                        part_ids.push(p.id.clone());
                        part_spans.extend(ps);
                    }
                }
            }
            if own.is_none() && failing.is_empty() {
                return Outcome::Ok;
            }
            let mut message = count_text(&rule.label, found, b, r);
            if !failing.is_empty() {
                message = format!("{message} — {}", failing.join("; "));
            }
            let mut ids = Vec::new();
            if own.is_some() {
                ids.push(rule.id.clone());
            }
            ids.extend(part_ids);
            let expected = match &own {
                Some(e) => format!("{e} {}", rule.label),
                None => format!("the parts of {} as declared", rule.label),
            };
            // The failing parts' lines say more than every line of the group.
            let shown_spans = if part_spans.is_empty() { spans } else { part_spans };
            let mut viol = v(message, expected, found.to_string(), shown_spans);
            viol.rules = ids;
            Outcome::Broken(vec![viol])
        }
        Check::Sum { field, bound } => {
            let (total, spans) = sum_of(field, &rule.filter, cards);
            match compare(total, bound, r, None) {
                Err(why) => Outcome::Skipped(why),
                Ok(None) => Outcome::Ok,
                Ok(Some(expected)) => {
                    let mut viol = v(
                        count_text(&rule.label, total, bound, r),
                        expected,
                        total.to_string(),
                        spans,
                    );
                    if let Bound::Exactly(Amount::Header(h))
                    | Bound::AtMost(Amount::Header(h))
                    | Bound::AtLeast(Amount::Header(h)) = bound
                    {
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
                    format!("{}: {spent} spent of {budget_n}", rule.label),
                    format!("exactly {budget_n}"),
                    spent.to_string(),
                    spans,
                )]);
            }
            // Under budget: legal only if nothing affordable is left to buy.
            let left = budget_n - spent;
            let affordable = affordable(rule, field, left, cards, r, c);
            if affordable.is_empty() {
                return Outcome::Ok;
            }
            let shown: Vec<String> = affordable.iter().take(3).cloned().collect();
            Outcome::Broken(vec![
                v(
                    format!(
                        "{}: {spent} spent of {budget_n} — {left} left while {} still affordable",
                        rule.label,
                        if affordable.len() == 1 {
                            "this is".to_string()
                        } else {
                            format!("{} cards are", affordable.len())
                        },
                    ),
                    format!("exactly {budget_n} (unspent points only when nothing more can be bought)"),
                    spent.to_string(),
                    spans,
                )
                .with_note(format!("affordable: {}", shown.join(", "))),
            ])
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
                    Ok(Some(expected)) => out.push(v(
                        format!("{}: {} copies of {} ({expected})", rule.label, e.count, name(comp)),
                        format!("{expected} copies"),
                        e.count.to_string(),
                        e.spans.clone(),
                    )),
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
                    let base = r.game.components.values().flatten().find(|x| x.id == target);
                    out.push(v(
                        format!(
                            "{}: {} needs {} in the {}",
                            rule.label,
                            name(comp),
                            base.map_or(target.to_string(), name),
                            c.noun
                        ),
                        format!("{} in the {}", base.map_or(target.to_string(), name), c.noun),
                        "missing".into(),
                        e.spans.clone(),
                    ));
                }
            }
            broken(out)
        }
        Check::Belongs { field, header } => {
            let Some(HeaderValue::Component(owner, hspan)) = r.header.get(header) else {
                return Outcome::Skipped(format!("no `{header}` given"));
            };
            let mut out = Vec::new();
            for (e, comp) in cards {
                if !rule.filter.matches(comp) {
                    continue;
                }
                let value = comp.key_of(field);
                if value.as_deref() != Some(owner.id.as_str()) {
                    let other = value
                        .as_deref()
                        .map(|id| {
                            r.game
                                .components
                                .values()
                                .flatten()
                                .find(|x| x.id == id)
                                .map_or(id.to_string(), name)
                        })
                        .unwrap_or_else(|| "nobody".into());
                    let mut viol = v(
                        format!("{}: {} belongs to {other}, not {}", rule.label, name(comp), name(owner)),
                        format!("cards of {}", name(owner)),
                        value.unwrap_or_default(),
                        e.spans.clone(),
                    );
                    viol.header_span = *hspan;
                    out.push(viol);
                }
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
                return Outcome::Skipped(format!("no `{header}` given"));
            };
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
                    let comp = r.game.components.values().flatten().find(|x| &x.id == id);
                    let spans = cards
                        .iter()
                        .filter(|(_, x)| &x.id == id)
                        .flat_map(|(e, _)| e.spans.clone())
                        .collect();
                    let mut viol = v(
                        format!(
                            "{}: {have} {} where {} lists {n}",
                            rule.label,
                            comp.map_or(id.clone(), name),
                            name(owner)
                        ),
                        format!("{n}, as {} lists", name(owner)),
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
                        format!("{}: {} is not among {}'s {list}", rule.label, name(comp), name(owner)),
                        format!("only the units {} lists", name(owner)),
                        e.count.to_string(),
                        e.spans.clone(),
                    );
                    viol.header_span = *hspan;
                    out.push(viol);
                }
            }
            broken(out)
        }
        Check::Reserve { header, list, kit, by } => {
            let Some(HeaderValue::Component(owner, hspan)) = r.header.get(header) else {
                return Outcome::Skipped(format!("no `{header}` given"));
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
                    let comp = r.game.components.values().flatten().find(|x| x.id == unit);
                    let mut viol = v(
                        format!(
                            "{}: {} has no {kit} left for the reserve ({pieces} in the kit, {used} in play)",
                            rule.label,
                            comp.map_or(unit.to_string(), name)
                        ),
                        "at least 1 left".into(),
                        (pieces - used).to_string(),
                        Vec::new(),
                    );
                    viol.header_span = *hspan;
                    out.push(viol);
                }
            }
            broken(out)
        }
    }
}

impl Violation {
    fn with_note(mut self, note: String) -> Self {
        self.found = format!("{} ({note})", self.found);
        self
    }
}

fn sum_of(field: &str, filter: &Filter, cards: &[(&Entry, &Component)]) -> (i64, Vec<Span>) {
    let mut total = 0;
    let mut spans = Vec::new();
    for (e, c) in cards {
        if filter.matches(c)
            && let Some(v) = c.field(field).and_then(FieldValue::as_int)
        {
            total += v * i64::from(e.count);
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
            // Would one more copy break a copy rule?
            let blocked = c.rules.iter().any(|cr| match &cr.check {
                Check::Copies(b) if cr.filter.matches(comp) => {
                    matches!(compare(have + 1, b, r, Some(comp)), Ok(Some(_)))
                }
                _ => false,
            });
            if !blocked {
                out.push(format!("{} (cost {cost})", name(comp)));
            }
        }
    }
    out
}

/// A component's name for messages (English, else the first locale).
pub fn name(c: &Component) -> String {
    let n = c.name.get("en");
    if n.is_empty() { c.id.clone() } else { n.to_string() }
}

fn composition(
    c: &Construction,
    cards: &[(&Entry, &Component)],
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
            rows.push((kind.clone(), n));
        }
    }
    // The parts of count rules give finer rows (`character / basic`).
    for rule in c.rules.iter().filter(|r| applicable(r)) {
        for p in &rule.parts {
            let (n, _) = count_of(&p.filter, cards);
            rows.push((format!("{} / {}", rule.label, p.label), n as u32));
        }
    }
    let mut sums = Vec::new();
    for rule in c.rules.iter().filter(|r| applicable(r)) {
        if let Check::Sum { field, .. } | Check::Spend { field, .. } = &rule.check {
            let (n, _) = sum_of(field, &rule.filter, cards);
            if !sums.iter().any(|(l, _)| l == &rule.label) {
                sums.push((rule.label.clone(), n));
            }
        }
    }
    Composition {
        rows,
        total: cards.iter().map(|(e, _)| e.count).sum(),
        sums,
    }
}
