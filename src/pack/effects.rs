//! Reading card effects: the vocabulary of `effects:` in game.yaml, and the
//! value of every field of type `effect`, checked word by word against it
//! (E053 `effect-invalid`, with the span of the word or number at fault).
//! docs/effects.md describes the language.

use indexmap::IndexMap;

use super::reader::{MapReader, quote_list, read_bool, read_int, read_str, wrong_type};
use super::yaml::{Node, Value};
use crate::diag::{Code, Diagnostic};
use crate::model::effects::{
    Amount, Arg, ArgSpec, Clause, Cond, Count, Effect, Limit, Outcome, Target, Vocabulary, Word,
};

const CLAUSE_KEYS: &[&str] = &[
    "when",
    "auto",
    "may",
    "once",
    "limit",
    "cost",
    "if",
    "target",
    "do",
    "until",
    "unchecked",
];
const TARGET_KEYS: &[&str] = &["who", "where", "count"];

/// The one constructor of E053: an effect that does not fit the vocabulary.
pub fn invalid(node: &Node, message: impl Into<String>, expected: impl Into<String>) -> Diagnostic {
    Diagnostic::new(Code::EffectInvalid, message)
        .at(node.span)
        .expected(expected)
        .help("effects use the words declared under `effects:` in game.yaml (docs/effects.md)")
}

fn bad_decl(node: &Node, message: impl Into<String>, expected: impl Into<String>) -> Diagnostic {
    Diagnostic::new(Code::BadDeclaration, message)
        .at(node.span)
        .label("in `effects`")
        .expected(expected)
}

/// Reads `effects:` of game.yaml.
pub fn read_vocabulary(node: &Node, diags: &mut Vec<Diagnostic>) -> Vocabulary {
    let mut voc = Vocabulary {
        span: node.span,
        ..Vocabulary::default()
    };
    let Some(mut m) = MapReader::new(node, "`effects`", diags) else {
        return voc;
    };
    for part in Vocabulary::PARTS {
        let Some(n) = m.take(part) else { continue };
        let Some(mut pm) = MapReader::new(n, format!("`effects.{part}`"), diags) else {
            continue;
        };
        let entries: Vec<_> = pm.rest().collect();
        let mut words = IndexMap::new();
        for (k, v) in entries {
            let Some(name) = k.as_str() else {
                diags.push(wrong_type(k, "a word of the effect vocabulary", "a kebab-case word"));
                continue;
            };
            pm.take(name);
            if !is_word(name) {
                diags.push(bad_decl(
                    k,
                    format!("`{name}` is not a kebab-case word"),
                    "lowercase letters, digits and dashes, e.g. `own-character`",
                ));
                continue;
            }
            if let Some(w) = read_word(v, part, name, diags) {
                words.insert(name.to_owned(), w);
            }
        }
        match *part {
            "timings" => voc.timings = words,
            "targets" => voc.targets = words,
            "conditions" => voc.conditions = words,
            "outcomes" => voc.outcomes = words,
            "durations" => voc.durations = words,
            "limits" => voc.limits = words,
            _ => voc.resources = words,
        }
    }
    m.finish(Vocabulary::PARTS, diags);
    if voc.timings.is_empty() || voc.outcomes.is_empty() {
        diags.push(bad_decl(
            node,
            "`effects` declares no timings or no outcomes",
            "at least one word under `timings` and one under `outcomes`",
        ));
    }
    voc
}

fn is_word(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !s.starts_with('-')
}

fn read_word(node: &Node, part: &str, name: &str, diags: &mut Vec<Diagnostic>) -> Option<Word> {
    let what = format!("`{name}` in `effects.{part}`");
    if let Value::Str(help) = &node.value {
        return Some(Word {
            help: help.clone(),
            span: node.span,
            ..Word::default()
        });
    }
    let mut m = MapReader::new(node, what.clone(), diags)?;
    let help = m
        .require("help", "what the word means, in English", diags)
        .and_then(|n| read_str(n, &format!("`help` of {what}"), diags))
        .unwrap_or_default()
        .to_owned();
    let mut w = Word {
        help,
        span: node.span,
        ..Word::default()
    };
    let mut keys = vec!["help", "says"];
    if let Some(n) = m.take("says") {
        w.says = read_says(n, &what, diags);
    }
    match part {
        "timings" => {
            keys.push("auto");
            w.auto = m
                .take("auto")
                .and_then(|n| read_bool(n, &format!("`auto` of {what}"), diags))
                .unwrap_or(false);
        }
        "conditions" => {
            keys.extend(["values", "min", "max", "id"]);
            let values = m.take("values");
            let min = m
                .take("min")
                .and_then(|n| read_int(n, &format!("`min` of {what}"), diags));
            let max = m
                .take("max")
                .and_then(|n| read_int(n, &format!("`max` of {what}"), diags));
            let id = m
                .take("id")
                .and_then(|n| read_bool(n, &format!("`id` of {what}"), diags))
                .unwrap_or(false);
            w.arg = if let Some(vn) = values {
                let items = vn.as_seq().unwrap_or_default();
                let vals: Vec<String> = items.iter().filter_map(|i| i.as_str().map(str::to_owned)).collect();
                if vals.is_empty() || vals.len() != items.len() {
                    diags.push(bad_decl(
                        vn,
                        format!("`values` of {what} is not a list of words"),
                        "[a, b, c]",
                    ));
                }
                ArgSpec::Word { values: vals }
            } else if min.is_some() || max.is_some() {
                ArgSpec::Int {
                    min: min.unwrap_or(0),
                    max: max.unwrap_or(i64::from(u16::MAX)),
                }
            } else if id {
                ArgSpec::Id
            } else {
                ArgSpec::None
            };
        }
        "outcomes" | "resources" => {
            keys.extend(["min", "max"]);
            w.min = m
                .take("min")
                .and_then(|n| read_int(n, &format!("`min` of {what}"), diags));
            w.max = m
                .take("max")
                .and_then(|n| read_int(n, &format!("`max` of {what}"), diags));
            if let (Some(a), Some(b)) = (w.min, w.max)
                && a > b
            {
                diags.push(bad_decl(node, format!("{what} has min {a} above max {b}"), "min ≤ max"));
            }
        }
        _ => {}
    }
    m.finish(&keys, diags);
    Some(w)
}

/// Reads `says:` of a word: `{locale: [phrase, …]}`, each phrase lowercase
/// words (a trailing `*` on a word for any ending).
fn read_says(node: &Node, what: &str, diags: &mut Vec<Diagnostic>) -> IndexMap<String, Vec<String>> {
    let mut out = IndexMap::new();
    let Some(entries) = node.as_map() else {
        diags.push(wrong_type(
            node,
            &format!("`says` of {what}"),
            "a mapping of locales to lists of phrases",
        ));
        return out;
    };
    for (k, v) in entries {
        let Some(locale) = k.as_str() else {
            diags.push(wrong_type(k, "a locale", "a locale code such as `en`"));
            continue;
        };
        let items = v.as_seq().map(<[Node]>::to_vec).unwrap_or_else(|| vec![v.clone()]);
        let mut phrases = Vec::new();
        for i in &items {
            match i.as_str() {
                Some(p) if is_phrase(p) => phrases.push(p.to_owned()),
                _ => diags.push(bad_decl(
                    i,
                    format!("a phrase in `says.{locale}` of {what} is not lowercase words"),
                    "lowercase words separated by spaces, a word may end in `*` (`heal*`, `al empezar`)",
                )),
            }
        }
        out.insert(locale.to_owned(), phrases);
    }
    out
}

fn is_phrase(p: &str) -> bool {
    !p.trim().is_empty()
        && p.split(' ').all(|w| {
            let w = w.strip_suffix('*').unwrap_or(w);
            !w.is_empty() && w.chars().all(|c| c.is_alphanumeric() && !c.is_uppercase())
        })
}

/// Reads the value of an `effect` field (`what` names it in messages).
pub fn read_effect(node: &Node, voc: &Vocabulary, what: &str, diags: &mut Vec<Diagnostic>) -> Option<Effect> {
    if voc.is_empty() {
        diags.push(
            invalid(
                node,
                format!("{what} is an effect, but game.yaml declares no effect vocabulary"),
                "an `effects:` section in game.yaml with timings and outcomes",
            )
            .label("no vocabulary to read it with"),
        );
        return None;
    }
    let before = diags.len();
    let items: Vec<&Node> = match &node.value {
        Value::Map(_) => vec![node],
        Value::Seq(items) if !items.is_empty() => items.iter().collect(),
        _ => {
            diags.push(wrong_type(
                node,
                what,
                "a clause (`when:` … `do:` …) or a list of clauses",
            ));
            return None;
        }
    };
    let mut effect = Effect {
        span: node.span,
        ..Effect::default()
    };
    for (i, item) in items.iter().enumerate() {
        let cwhat = if items.len() == 1 {
            what.to_owned()
        } else {
            format!("clause {} of {what}", i + 1)
        };
        if let Some((c, unchecked)) = read_clause(item, voc, &cwhat, diags) {
            effect.clauses.push(c);
            if unchecked.is_some() {
                effect.unchecked = unchecked;
            }
        }
    }
    (diags.len() == before).then_some(effect)
}

fn read_clause(
    node: &Node,
    voc: &Vocabulary,
    what: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<(Clause, Option<String>)> {
    let mut m = MapReader::new(node, what.to_owned(), diags)?;
    let mut c = Clause {
        span: node.span,
        ..Clause::default()
    };
    let when = m.require("when", &format!("one of {}", keys(&voc.timings)), diags);
    let mut timing_auto = false;
    if let Some(n) = when
        && let Some(w) = word(n, &voc.timings, "timing", what, diags)
    {
        timing_auto = voc.timings[w.as_str()].auto;
        c.when = w;
    }
    c.auto = m
        .take("auto")
        .and_then(|n| read_bool(n, &format!("`auto` of {what}"), diags))
        .unwrap_or(timing_auto);
    c.optional = m
        .take("may")
        .and_then(|n| read_bool(n, &format!("`may` of {what}"), diags))
        .unwrap_or(false);
    if let Some(n) = m.take("once") {
        c.limit = word(n, &voc.limits, "limit period", what, diags).map(|per| Limit { per, times: 1 });
    }
    if let Some(n) = m.take("limit")
        && let Some(mut lm) = MapReader::new(n, format!("`limit` of {what}"), diags)
    {
        let per = lm
            .require("per", &format!("one of {}", keys(&voc.limits)), diags)
            .and_then(|p| word(p, &voc.limits, "limit period", what, diags));
        let times = lm.require("times", "how many uses per period", diags).and_then(|t| {
            let x = read_int(t, &format!("`times` of {what}"), diags)?;
            if (1..=20).contains(&x) {
                Some(x)
            } else {
                diags.push(invalid(t, format!("`times` of {what} is out of range"), "1 to 20").found(x.to_string()));
                None
            }
        });
        lm.finish(&["per", "times"], diags);
        if let (Some(per), Some(times)) = (per, times) {
            c.limit = Some(Limit { per, times });
        }
    }
    if let Some(n) = m.take("cost")
        && let Some(entries) = map_of(n, &format!("`cost` of {what}"), diags)
    {
        for (k, v) in entries {
            if let Some(res) = word(k, &voc.resources, "resource", what, diags)
                && let Some(x) = bounded(
                    v,
                    &voc.resources[res.as_str()],
                    &format!("the {res} cost of {what}"),
                    diags,
                )
            {
                c.cost.push((res, x));
            }
        }
    }
    if let Some(n) = m.take("if") {
        c.conditions = conditions(n, voc, &format!("`if` of {what}"), diags);
    }
    if let Some(n) = m.take("target") {
        c.target = target(n, voc, what, diags);
    }
    if let Some(n) = m.require("do", &format!("outcomes such as {}", keys(&voc.outcomes)), diags)
        && let Some(entries) = map_of(n, &format!("`do` of {what}"), diags)
    {
        for (k, v) in entries {
            if let Some(name) = word(k, &voc.outcomes, "outcome", what, diags)
                && let Some(amount) = amount(
                    v,
                    voc,
                    &voc.outcomes[name.as_str()],
                    &format!("`{name}` of {what}"),
                    diags,
                )
            {
                c.outcomes.push(Outcome {
                    name,
                    amount,
                    span: k.span,
                });
            }
        }
        if entries.is_empty() {
            diags.push(invalid(
                n,
                format!("{what} does nothing"),
                "at least one outcome under `do`",
            ));
        }
    }
    if let Some(n) = m.take("until") {
        c.until = word(n, &voc.durations, "duration", what, diags);
    }
    let unchecked = m.take("unchecked").and_then(|n| {
        let s = read_str(n, &format!("`unchecked` of {what}"), diags)?;
        if s.trim().len() < 10 {
            diags.push(invalid(
                n,
                format!("`unchecked` of {what} gives no reason"),
                "a sentence saying why the engine cannot check this effect",
            ));
        }
        Some(s.to_owned())
    });
    m.finish(CLAUSE_KEYS, diags);
    Some((c, unchecked))
}

fn keys(words: &IndexMap<String, Word>) -> String {
    let k: Vec<&str> = words.keys().map(String::as_str).collect();
    if k.is_empty() {
        "(none declared)".into()
    } else {
        quote_list(&k)
    }
}

/// A declared word, reported with a suggestion when unknown.
fn word(
    node: &Node,
    words: &IndexMap<String, Word>,
    kind: &str,
    what: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<String> {
    let s = read_str(node, &format!("a {kind} in {what}"), diags)?;
    if words.contains_key(s) {
        return Some(s.to_owned());
    }
    diags.push(
        invalid(
            node,
            format!("{what} names the {kind} `{s}`, which game.yaml does not declare"),
            format!("one of {}", keys(words)),
        )
        .label(format!("unknown {kind}"))
        .found(format!("`{s}`"))
        .suggest(s, words.keys().map(String::as_str)),
    );
    None
}

fn map_of<'a>(node: &'a Node, what: &str, diags: &mut Vec<Diagnostic>) -> Option<&'a [(Node, Node)]> {
    let m = node.as_map();
    if m.is_none() {
        diags.push(wrong_type(node, what, "a mapping of `word: value`"));
    }
    m
}

fn bounded(node: &Node, w: &Word, what: &str, diags: &mut Vec<Diagnostic>) -> Option<i64> {
    let x = read_int(node, what, diags)?;
    in_bounds(node, x, w, what, diags).then_some(x)
}

fn in_bounds(node: &Node, x: i64, w: &Word, what: &str, diags: &mut Vec<Diagnostic>) -> bool {
    let (lo, hi) = (w.min.unwrap_or(i64::MIN), w.max.unwrap_or(i64::MAX));
    if x == 0 || x < lo || x > hi {
        let range = match (w.min, w.max) {
            (Some(a), Some(b)) => format!("{a} to {b}"),
            (Some(a), None) => format!("at least {a}"),
            (None, Some(b)) => format!("at most {b}"),
            (None, None) => "any number".into(),
        };
        diags.push(
            invalid(
                node,
                format!("{what} is out of the vocabulary's bounds"),
                if x == 0 { format!("{range}, not 0") } else { range },
            )
            .label(format!("{x}"))
            .found(x.to_string())
            .related(w.span, "bounds declared here"),
        );
        return false;
    }
    true
}

fn amount(node: &Node, voc: &Vocabulary, w: &Word, what: &str, diags: &mut Vec<Diagnostic>) -> Option<Amount> {
    match &node.value {
        Value::Int(x) => in_bounds(node, *x, w, what, diags).then_some(Amount::Exactly(*x)),
        Value::Map(_) => {
            let mut m = MapReader::new(node, what.to_owned(), diags)?;
            let out = if let Some(n) = m.take("up_to") {
                let x = read_int(n, &format!("`up_to` of {what}"), diags)?;
                in_bounds(n, x, w, what, diags).then_some(Amount::UpTo(x))
            } else if let Some(n) = m.take("per") {
                let per = condition_of(n, voc, &format!("`per` of {what}"), diags)?;
                let step = match m.take("step") {
                    Some(s) => {
                        let x = read_int(s, &format!("`step` of {what}"), diags)?;
                        in_bounds(s, x, w, what, diags).then_some(x)?
                    }
                    None => 1,
                };
                let max = match m.take("max") {
                    Some(s) => {
                        let x = read_int(s, &format!("`max` of {what}"), diags)?;
                        Some(in_bounds(s, x, w, what, diags).then_some(x)?)
                    }
                    None => None,
                };
                Some(Amount::Per { per, step, max })
            } else {
                diags.push(invalid(
                    node,
                    format!("{what} is neither a number, `up_to` nor `per`"),
                    "3, {up_to: 3} or {per: <condition>, max: 3}",
                ));
                None
            };
            m.finish(&["up_to", "per", "step", "max"], diags);
            out
        }
        _ => {
            diags.push(wrong_type(
                node,
                what,
                "a number, {up_to: N} or {per: <condition>, max: N}",
            ));
            None
        }
    }
}

fn target(node: &Node, voc: &Vocabulary, what: &str, diags: &mut Vec<Diagnostic>) -> Option<Target> {
    let twhat = format!("the target of {what}");
    if node.as_str().is_some() {
        let who = word(node, &voc.targets, "target", what, diags)?;
        return Some(Target {
            who,
            conditions: Vec::new(),
            count: Count::UpTo(1),
            span: node.span,
        });
    }
    let mut m = MapReader::new(node, twhat.clone(), diags)?;
    let who = m
        .require("who", &format!("one of {}", keys(&voc.targets)), diags)
        .and_then(|n| word(n, &voc.targets, "target", what, diags));
    let conds = m
        .take("where")
        .map(|n| conditions(n, voc, &format!("`where` of {twhat}"), diags))
        .unwrap_or_default();
    let count = match m.take("count") {
        None => Count::UpTo(1),
        Some(n) if n.as_str() == Some("all") => Count::All,
        Some(n) => match read_int(n, &format!("`count` of {twhat}"), diags) {
            Some(x) if (1..=20).contains(&x) => Count::UpTo(x),
            Some(x) => {
                diags.push(
                    invalid(n, format!("`count` of {twhat} is out of range"), "1 to 20, or `all`").found(x.to_string()),
                );
                Count::UpTo(1)
            }
            None => Count::UpTo(1),
        },
    };
    m.finish(TARGET_KEYS, diags);
    Some(Target {
        who: who?,
        conditions: conds,
        count,
        span: node.span,
    })
}

/// `if:` / `where:`: a mapping of conditions, or a list of bare ones.
fn conditions(node: &Node, voc: &Vocabulary, what: &str, diags: &mut Vec<Diagnostic>) -> Vec<Cond> {
    let mut out = Vec::new();
    match &node.value {
        Value::Map(entries) => {
            for (k, v) in entries {
                if let Some(c) = condition(k, Some(v), voc, what, diags) {
                    out.push(c);
                }
            }
        }
        Value::Seq(items) => {
            for i in items {
                if let Some(c) = condition_of(i, voc, what, diags) {
                    out.push(c);
                }
            }
        }
        Value::Str(_) => out.extend(condition(node, None, voc, what, diags)),
        _ => diags.push(wrong_type(node, what, "a mapping of `condition: value`")),
    }
    out
}

/// One condition written alone: `adjacent` or `{in: cover}`.
fn condition_of(node: &Node, voc: &Vocabulary, what: &str, diags: &mut Vec<Diagnostic>) -> Option<Cond> {
    match &node.value {
        Value::Str(_) => condition(node, None, voc, what, diags),
        Value::Map(entries) if entries.len() == 1 => condition(&entries[0].0, Some(&entries[0].1), voc, what, diags),
        _ => {
            diags.push(wrong_type(node, what, "a condition: `word` or `{word: value}`"));
            None
        }
    }
}

fn condition(
    key: &Node,
    val: Option<&Node>,
    voc: &Vocabulary,
    what: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<Cond> {
    let name = word(key, &voc.conditions, "condition", what, diags)?;
    let spec = &voc.conditions[name.as_str()];
    let cwhat = format!("`{name}` in {what}");
    let arg = match (&spec.arg, val.map(|v| &v.value)) {
        (ArgSpec::None, None | Some(Value::Bool(true))) => Arg::None,
        (ArgSpec::Int { min, max }, Some(Value::Int(x))) => {
            if x < min || x > max {
                diags.push(
                    invalid(val?, format!("{cwhat} is out of range"), format!("{min} to {max}"))
                        .found(x.to_string())
                        .related(spec.span, "declared here"),
                );
                return None;
            }
            Arg::Int(*x)
        }
        (ArgSpec::Int { min, max }, Some(Value::Seq(items))) if !items.is_empty() => {
            let mut v = Vec::new();
            for i in items {
                match i.value {
                    Value::Int(x) if x >= *min && x <= *max => v.push(x),
                    _ => {
                        diags.push(
                            invalid(
                                i,
                                format!("{cwhat} lists a value out of range"),
                                format!("numbers from {min} to {max}"),
                            )
                            .found(i.show()),
                        );
                        return None;
                    }
                }
            }
            Arg::Ints(v)
        }
        (ArgSpec::Word { values }, Some(Value::Str(s))) => {
            if !values.contains(s) {
                diags.push(
                    invalid(
                        val?,
                        format!("{cwhat} is `{s}`, not a declared value"),
                        format!("one of {}", quote_list(values)),
                    )
                    .found(format!("`{s}`"))
                    .suggest(s, values.iter().map(String::as_str)),
                );
                return None;
            }
            Arg::Word(s.clone())
        }
        (ArgSpec::Word { values }, Some(Value::Seq(items))) if !items.is_empty() => {
            let mut v = Vec::new();
            for i in items {
                match i.as_str() {
                    Some(s) if values.iter().any(|x| x == s) => v.push(s.to_owned()),
                    _ => {
                        diags.push(
                            invalid(
                                i,
                                format!("{cwhat} lists a value that is not declared"),
                                format!("values from {}", quote_list(values)),
                            )
                            .found(i.show()),
                        );
                        return None;
                    }
                }
            }
            Arg::Words(v)
        }
        (ArgSpec::Id, Some(Value::Str(s))) => Arg::Word(s.clone()),
        (ArgSpec::Id, Some(Value::Seq(items))) if !items.is_empty() && items.iter().all(|i| i.as_str().is_some()) => {
            Arg::Words(items.iter().filter_map(|i| i.as_str().map(str::to_owned)).collect())
        }
        (spec_arg, _) => {
            let expected = match spec_arg {
                ArgSpec::None => "`true` (it takes no value)".to_string(),
                ArgSpec::Int { min, max } => format!("a number from {min} to {max}"),
                ArgSpec::Word { values } => format!("one of {}", quote_list(values)),
                ArgSpec::Id => "an id".to_string(),
            };
            diags.push(
                invalid(val.unwrap_or(key), format!("{cwhat} has the wrong value"), expected)
                    .found(val.map_or_else(|| "nothing".into(), Node::show)),
            );
            return None;
        }
    };
    Some(Cond {
        name,
        arg,
        span: key.span,
    })
}
