//! Card effects as data: the effect vocabulary a pack declares in
//! `game.yaml` (`effects:`), and the structured effect of a card, spell,
//! power, talent, upgrade or location feature (a field of type `effect`).
//! Read and checked by [`crate::pack::effects`]; interpreted by the rules
//! engines through [`crate::rules::kit::effects`] (docs/effects.md).

use indexmap::IndexMap;
use serde::Serialize;

use crate::diag::Span;

/// The words a game's effects may use, declared in `game.yaml`.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Vocabulary {
    /// When a clause takes effect (`play`, `upkeep`, `after-combat`, `continuous` …).
    pub timings: IndexMap<String, Word>,
    /// Who or what an outcome lands on (`own-character`, `bearer`, `enemy-unit` …).
    pub targets: IndexMap<String, Word>,
    /// Conditions on the source, the state or a target (`in`, `adjacent`, `camp-at-most` …).
    pub conditions: IndexMap<String, Word>,
    /// Bounded outcomes (`heal`, `damage`, `draw`, `attack` ± …), each with its bounds.
    pub outcomes: IndexMap<String, Word>,
    /// How long a lasting outcome stays (`end-of-turn`, `this-combat` …).
    pub durations: IndexMap<String, Word>,
    /// The periods a limit counts in (`turn`, `round`, `game` …).
    pub limits: IndexMap<String, Word>,
    /// What a clause may cost (`energy`, `mana`, `actions` …), with bounds.
    pub resources: IndexMap<String, Word>,
    #[serde(skip)]
    pub span: Span,
}

impl Vocabulary {
    pub fn is_empty(&self) -> bool {
        self.timings.is_empty()
    }

    /// The declared words of one part, by its key in `effects:`.
    pub fn part(&self, key: &str) -> Option<&IndexMap<String, Word>> {
        Some(match key {
            "timings" => &self.timings,
            "targets" => &self.targets,
            "conditions" => &self.conditions,
            "outcomes" => &self.outcomes,
            "durations" => &self.durations,
            "limits" => &self.limits,
            "resources" => &self.resources,
            _ => return None,
        })
    }

    pub const PARTS: &'static [&'static str] = &[
        "timings",
        "targets",
        "conditions",
        "outcomes",
        "durations",
        "limits",
        "resources",
    ];
}

/// One declared word: what it means, and what it takes.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Word {
    pub help: String,
    /// Conditions: what follows the word (`in: cover`).
    pub arg: ArgSpec,
    /// Outcomes and resources: the amounts a card may write.
    pub min: Option<i64>,
    pub max: Option<i64>,
    /// Timings: clauses with this timing apply by themselves.
    pub auto: bool,
    /// How card texts say this word, per locale: phrases of lowercase
    /// words, a word ending in `*` standing for any ending (`heal*`). A text
    /// that describes an effect using this word says one of them, and a
    /// text that says one describes an effect using this word (E054).
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub says: IndexMap<String, Vec<String>>,
    #[serde(skip)]
    pub span: Span,
}

/// What a condition takes after its name.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ArgSpec {
    /// A flag: `adjacent: true`.
    #[default]
    None,
    /// A number in a range: `camp-at-most: 2`.
    Int { min: i64, max: i64 },
    /// One of some words: `in: cover`.
    Word { values: Vec<String> },
    /// Any id (a card, a unit type): checked by the engine.
    Id,
}

/// A structured effect: one or more clauses, each a complete rule of what
/// the card does.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Effect {
    pub clauses: Vec<Clause>,
    /// Why an engine cannot check this effect (it stays trusted), if so.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unchecked: Option<String>,
    #[serde(skip)]
    pub span: Span,
}

impl Effect {
    /// Every number the effect states, for checking its texts.
    pub fn numbers(&self) -> Vec<i64> {
        let mut out = Vec::new();
        for c in &self.clauses {
            if let Some(l) = &c.limit
                && l.times > 1
            {
                out.push(l.times);
            }
            out.extend(c.cost.iter().map(|(_, n)| n.abs()));
            for cond in c
                .conditions
                .iter()
                .chain(c.target.iter().flat_map(|t| t.conditions.iter()))
            {
                cond.arg.numbers(&mut out);
            }
            if let Some(t) = &c.target
                && let Count::UpTo(n) = t.count
                && n > 1
            {
                out.push(n);
            }
            for o in &c.outcomes {
                match &o.amount {
                    Amount::Exactly(n) | Amount::UpTo(n) => out.push(n.abs()),
                    Amount::Per { per, step, max } => {
                        out.push(step.abs());
                        out.extend(max.map(i64::abs));
                        // `per: {roll: [5, 6]}`: the faces are the text's too.
                        per.arg.numbers(&mut out);
                    }
                }
            }
        }
        out.retain(|n| *n != 0);
        out
    }
}

/// One clause: when, at what cost and under which conditions, what happens
/// to whom, and for how long.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Clause {
    pub when: String,
    /// Applies by itself (a continuous modifier, a triggered outcome with
    /// nothing to choose); otherwise a player's choice recorded in a log.
    pub auto: bool,
    /// A choice the player may decline (`may: true`).
    pub optional: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<Limit>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cost: Vec<(String, i64)>,
    #[serde(rename = "if", skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Cond>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<Target>,
    #[serde(rename = "do")]
    pub outcomes: Vec<Outcome>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub until: Option<String>,
    #[serde(skip)]
    pub span: Span,
}

/// At most `times` uses per `per` (`once: turn`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Limit {
    pub per: String,
    pub times: i64,
}

/// A condition and its argument.
#[derive(Clone, Debug, Serialize)]
pub struct Cond {
    pub name: String,
    pub arg: Arg,
    #[serde(skip)]
    pub span: Span,
}

/// A condition's argument as written.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Arg {
    None,
    Int(i64),
    Word(String),
    Words(Vec<String>),
    Ints(Vec<i64>),
}

impl Arg {
    fn numbers(&self, out: &mut Vec<i64>) {
        match self {
            Arg::Int(n) => out.push(*n),
            Arg::Ints(v) => out.extend(v),
            _ => {}
        }
    }

    pub fn as_int(&self) -> Option<i64> {
        match self {
            Arg::Int(n) => Some(*n),
            _ => None,
        }
    }

    pub fn as_word(&self) -> Option<&str> {
        match self {
            Arg::Word(w) => Some(w),
            _ => None,
        }
    }
}

/// Who an outcome lands on.
#[derive(Clone, Debug, Serialize)]
pub struct Target {
    pub who: String,
    #[serde(rename = "where", skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Cond>,
    pub count: Count,
    #[serde(skip)]
    pub span: Span,
}

/// How many targets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Count {
    /// Up to this many, chosen (default 1).
    UpTo(i64),
    /// Every one that qualifies.
    All,
}

/// A bounded outcome.
#[derive(Clone, Debug, Serialize)]
pub struct Outcome {
    pub name: String,
    pub amount: Amount,
    #[serde(skip)]
    pub span: Span,
}

/// How much: exactly (as far as the state allows), up to, or so much per
/// thing counted (`per: harpy-adjacent, step: 1, max: 3`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Amount {
    Exactly(i64),
    UpTo(i64),
    Per { per: Cond, step: i64, max: Option<i64> },
}

/// One line per effect for reports and the gallery:
/// `play → own-character: heal 3` ; `upkeep (auto) → bearer: heal 1`.
pub fn summary(e: &Effect) -> String {
    let mut parts = Vec::new();
    for c in &e.clauses {
        let mut s = c.when.clone();
        if c.auto {
            s.push_str(" (auto)");
        }
        if let Some(l) = &c.limit {
            s.push_str(&format!(", {}× per {}", l.times, l.per));
        }
        for (r, n) in &c.cost {
            s.push_str(&format!(", pay {n} {r}"));
        }
        for cond in &c.conditions {
            s.push_str(&format!(", if {}", show_cond(cond)));
        }
        if let Some(t) = &c.target {
            s.push_str(&format!(" → {}", t.who));
            if t.count == Count::All {
                s.push_str(" (all)");
            }
            for cond in &t.conditions {
                s.push_str(&format!(" where {}", show_cond(cond)));
            }
        }
        let outs: Vec<String> = c
            .outcomes
            .iter()
            .map(|o| match &o.amount {
                Amount::Exactly(n) => format!("{} {n}", o.name),
                Amount::UpTo(n) => format!("{} up to {n}", o.name),
                Amount::Per { per, step, max } => format!(
                    "{} {step} per {}{}",
                    o.name,
                    show_cond(per),
                    max.map(|m| format!(" (max {m})")).unwrap_or_default()
                ),
            })
            .collect();
        s.push_str(&format!(": {}", outs.join(", ")));
        if let Some(u) = &c.until {
            s.push_str(&format!(" until {u}"));
        }
        parts.push(s);
    }
    parts.join("; ")
}

fn show_cond(c: &Cond) -> String {
    match &c.arg {
        Arg::None => c.name.clone(),
        Arg::Int(n) => format!("{} {n}", c.name),
        Arg::Word(w) => format!("{} {w}", c.name),
        Arg::Words(w) => format!("{} {}", c.name, w.join("|")),
        Arg::Ints(v) => format!(
            "{} {}",
            c.name,
            v.iter().map(i64::to_string).collect::<Vec<_>>().join("|")
        ),
    }
}

/// Equality of values, not of where they were written: an effect moved to
/// another line (a regenerated file, a revision with a line added above) is
/// the same effect.
macro_rules! eq_without_span {
    ($($ty:ident { $($field:ident),* }),* $(,)?) => {
        $(impl PartialEq for $ty {
            fn eq(&self, other: &Self) -> bool {
                $(self.$field == other.$field)&&*
            }
        })*
    };
}

eq_without_span! {
    Effect { clauses, unchecked },
    Clause { when, auto, optional, limit, cost, conditions, target, outcomes, until },
    Cond { name, arg },
    Target { who, conditions, count },
    Outcome { name, amount },
}
