//! One list checked end to end: read (plain text or YAML), validated, and
//! every problem turned into a diagnostic in the list's locale; the summary
//! table, the JSON form and the deck hash. Commands read the file and call
//! [`check_list`]; nothing here does I/O.

use std::path::{Path, PathBuf};

use serde::Serialize;
use sha2::{Digest, Sha256};

use super::layout::Choice;
use super::reading::{self, Hints};
use super::validate::{key_name, name};
use super::words::Lang;
use super::{Context, Deck, HeaderKeys, Problem, Verdict, Violation, validate, yaml};
use crate::diag::{Code, Diagnostic, FileId, JsonDiagnostic, SourceMap, render_human, to_json};
use crate::model::Game;
use crate::model::construction::Construction;
use crate::pack::yaml::Limits;

/// At most this many further lines are pointed at per violation.
const RELATED: usize = 6;

/// Everything a check of one list found.
#[derive(Debug)]
pub struct DeckReport {
    pub game: String,
    /// What the list is called (`deck`, `ejército`), in its locale.
    pub noun: String,
    pub file: PathBuf,
    /// Unreadable lines, unknown cards, and every broken rule.
    pub diagnostics: Vec<Diagnostic>,
    pub deck: Deck,
    pub verdict: Verdict,
    /// The short SHA-256 of the canonical list ([`deck_hash`]); empty for an unreadable file.
    pub hash: String,
    /// Which reading was taken where the list could be read two ways (W091).
    pub notes: Vec<Diagnostic>,
    /// The file is not a list at all (E090): not text, a broken workbook.
    pub unreadable: bool,
}

impl DeckReport {
    pub fn is_legal(&self) -> bool {
        !self.unreadable && self.diagnostics.is_empty() && self.verdict.is_legal()
    }

    /// The list's title: its `name:` line, or where a deck site puts one.
    pub fn title(&self) -> Option<&str> {
        self.deck.title.as_deref().filter(|t| !t.is_empty())
    }

    /// The rule ids the list breaks, in rule order, each once.
    pub fn broken_rules(&self) -> Vec<String> {
        self.verdict.broken_rules()
    }

    /// The codes of the problems that are not broken rules (`E028`, `E029`).
    pub fn problem_codes(&self) -> Vec<&'static str> {
        let mut out: Vec<&'static str> = Vec::new();
        for d in &self.diagnostics {
            if d.code != Code::DeckRule && !out.contains(&d.code.id()) {
                out.push(d.code.id());
            }
        }
        out
    }

    /// The player: the list's `player:` header, else the file's name.
    pub fn player(&self) -> String {
        self.deck
            .header
            .get("player")
            .map(|(v, _)| v.clone())
            .unwrap_or_else(|| {
                self.file
                    .file_stem()
                    .map_or_else(String::new, |s| s.to_string_lossy().into_owned())
            })
    }

    /// Diagnostics and notes, then the summary table.
    pub fn human(&self, game: &Game, sources: &SourceMap, color: bool) -> String {
        let mut out = render_human(&self.diagnostics, sources, color);
        out.push_str(&render_human(&self.notes, sources, color));
        out.push_str(&self.summary(game));
        out
    }

    /// The verdict line and the composition table, in the list's locale.
    pub fn summary(&self, game: &Game) -> String {
        let v = &self.verdict;
        let lang = Lang::of(&v.locale);
        if self.unreadable {
            return format!("{} {}: {}\n", self.game, self.noun, lang.unreadable_verdict());
        }
        let mut head = format!(
            "{} {}: {}",
            self.game,
            self.noun,
            if self.is_legal() {
                lang.legal().to_string()
            } else {
                lang.illegal(self.diagnostics.len())
            }
        );
        if let Some(t) = self.title() {
            head.push_str(&format!(" — {}", super::words::printable(t)));
        }
        if let Some(m) = &v.mode {
            let mode = game
                .construction
                .as_ref()
                .and_then(|c| c.modes.as_ref())
                .and_then(|k| game.component(k, m))
                .map_or_else(|| m.clone(), |c| name(c, &v.locale));
            let role = v.role.as_ref().map(|r| {
                game.construction
                    .as_ref()
                    .and_then(|c| c.role(r))
                    .map_or_else(|| r.clone(), |ro| ro.name.get(&v.locale).to_string())
            });
            head.push_str(&format!(" ({})", lang.mode_role(&mode, role.as_deref())));
        }
        let mut out = head;
        out.push('\n');
        let mut rows: Vec<(String, String)> = v
            .composition
            .rows
            .iter()
            .map(|(l, n)| (l.clone(), n.to_string()))
            .collect();
        rows.push((lang.total().into(), v.composition.total.to_string()));
        for (label, n) in &v.composition.sums {
            rows.push((label.clone(), n.to_string()));
        }
        if v.composition.side > 0 {
            rows.push((lang.sideboard().into(), v.composition.side.to_string()));
        }
        let width = rows.iter().map(|(l, _)| l.chars().count()).max().unwrap_or(0);
        for (l, n) in rows {
            let pad = width - l.chars().count();
            out.push_str(&format!("  {l}{}  {n:>4}\n", " ".repeat(pad)));
        }
        for s in &v.skipped {
            out.push_str(&format!("  {}: {s}\n", lang.not_checked()));
        }
        out.push_str(&format!("  hash {}\n", self.hash));
        out
    }

    /// The machine-readable report.
    pub fn json(&self, sources: &SourceMap) -> JsonDeck<'_> {
        JsonDeck {
            file: self.file.display().to_string(),
            game: &self.game,
            player: self.player(),
            title: self.title(),
            legal: self.is_legal(),
            unreadable: self.unreadable,
            hash: &self.hash,
            rules: self.broken_rules(),
            verdict: &self.verdict,
            cards: &self.deck.entries,
            sideboard: &self.deck.side,
            diagnostics: self.diagnostics.iter().map(|d| to_json(d, sources)).collect(),
            notes: self.notes.iter().map(|d| to_json(d, sources)).collect(),
        }
    }
}

#[derive(Serialize)]
pub struct JsonDeck<'a> {
    pub file: String,
    pub game: &'a str,
    pub player: String,
    pub title: Option<&'a str>,
    pub legal: bool,
    /// The file is not a list at all (its own verdict, exit 2).
    pub unreadable: bool,
    pub hash: &'a str,
    /// The rule ids broken.
    pub rules: Vec<String>,
    pub verdict: &'a Verdict,
    pub cards: &'a [super::Entry],
    pub sideboard: &'a [super::Entry],
    pub diagnostics: Vec<JsonDiagnostic>,
    pub notes: Vec<JsonDiagnostic>,
}

/// Whether a list file is YAML (by its extension); other files are pastes.
pub fn is_yaml_path(path: &Path) -> bool {
    matches!(path.extension().and_then(|e| e.to_str()), Some("yaml" | "yml"))
}

/// Reads and checks a list whose text is already in the source map as
/// `file`. Fails only when the game has no construction rules.
pub fn check_list(game: &Game, path: &Path, file: FileId, text: &str, ctx: &Context) -> Result<DeckReport, String> {
    let Some(c) = &game.construction else {
        return Err(format!(
            "`{}` declares no construction rules (`construction:` in game.yaml)",
            game.id
        ));
    };
    let keys = HeaderKeys::new(c);
    let mut early = Vec::new();
    let (deck, problems, mut verdict, notes) = if is_yaml_path(path) {
        let (deck, problems) = match crate::pack::parse_yaml(text, file, &Limits::default()) {
            Ok(node) => yaml::read(&node, game, c, &keys, true),
            Err(d) => {
                early.push(*d);
                (Deck::default(), Vec::new())
            }
        };
        let verdict = validate(game, c, &deck, ctx);
        (deck, problems, verdict, Vec::new())
    } else {
        let r = reading::read(text, file, game, c, &keys, ctx, Hints::of(path));
        (r.deck, r.problems, r.verdict, r.notes)
    };
    // An empty list is one problem, not every rule broken.
    if problems.iter().any(|p| matches!(p, Problem::Empty)) {
        verdict.violations.clear();
    }
    // A list in a format this pnpkit does not read was not read: nothing else to say.
    if problems
        .iter()
        .any(|p| matches!(p, Problem::Yaml(d) if matches!(d.code, Code::FormatNewer | Code::FormatOlder)))
    {
        verdict.violations.clear();
        verdict.problems.clear();
    }
    let lang = Lang::of(&verdict.locale);
    let noun = c.noun.get(&verdict.locale).to_string();
    let mut diags = early;
    if let Some((g, span)) = deck.header.get("game")
        && super::names::normalize(g) != super::names::normalize(&game.id)
    {
        diags.push(
            Diagnostic::new(Code::DeckFormat, lang.other_game(&noun, g, &game.id))
                .at(*span)
                .expected(format!(
                    "`{}: {}`",
                    if lang == Lang::Es { "juego" } else { "game" },
                    game.id
                )),
        );
    }
    diags.extend(problem_diagnostics(&problems, lang, &noun, &keys, path));
    for p in &verdict.problems {
        let mut d = Diagnostic::new(Code::DeckFormat, p.message.clone()).expected(p.expected.clone());
        if let Some(h) = &p.help {
            d = d.help(h.clone());
        }
        d = match p.span {
            Some(s) => d.at(s),
            None => d.in_file(path),
        };
        diags.push(d);
    }
    for v in &verdict.violations {
        diags.push(violation_diagnostic(v, game, path, lang, &verdict.locale));
    }
    let hash = deck_hash(game, c, &deck, &verdict);
    let notes = notes.iter().map(|n| note_diagnostic(n, lang, &noun)).collect();
    Ok(DeckReport {
        game: game.id.clone(),
        noun,
        file: path.to_path_buf(),
        diagnostics: diags,
        deck,
        verdict,
        hash,
        notes,
        unreadable: false,
    })
}

/// Decodes a list file's bytes ([`super::decode`]), registers its text in
/// `sources` and checks it; a file that is not a list is reported as
/// unreadable (E090) with the line and the reason.
pub fn check_bytes(
    game: &Game,
    path: &Path,
    bytes: Vec<u8>,
    ctx: &Context,
    sources: &mut SourceMap,
) -> Result<DeckReport, String> {
    match super::decode::decode(bytes, path) {
        Ok(text) => {
            let text: std::sync::Arc<str> = text.into();
            let file = sources.add(path.to_path_buf(), text.clone());
            check_list(game, path, file, &text, ctx)
        }
        Err(u) => {
            sources.add(path.to_path_buf(), std::sync::Arc::from(""));
            let lang = Lang::of(ctx.locale.as_deref().unwrap_or("en"));
            let d = Diagnostic::new(Code::DeckUnreadable, lang.unreadable_file(u.line, u.column, &u.reason))
                .in_file(path)
                .help(u.help);
            unreadable(game, path, ctx, d)
        }
    }
}

/// The report of a file that is not a list: its one diagnostic (E090, or
/// the refusal of a file too large or not a file).
pub fn unreadable(game: &Game, path: &Path, ctx: &Context, d: Diagnostic) -> Result<DeckReport, String> {
    let Some(c) = &game.construction else {
        return Err(format!(
            "`{}` declares no construction rules (`construction:` in game.yaml)",
            game.id
        ));
    };
    let mut verdict = validate(game, c, &Deck::default(), ctx);
    verdict.violations.clear();
    verdict.problems.clear();
    let noun = c.noun.get(&verdict.locale).to_string();
    Ok(DeckReport {
        game: game.id.clone(),
        noun,
        file: path.to_path_buf(),
        diagnostics: vec![d],
        deck: Deck::default(),
        verdict,
        hash: String::new(),
        notes: Vec::new(),
        unreadable: true,
    })
}

/// A note on a reading choice, in the list's language.
fn note_diagnostic(n: &reading::Note, lang: Lang, noun: &str) -> Diagnostic {
    let other = lang.other_reading(n.other.unread, &n.other.rules, noun);
    let message = match &n.choice {
        Choice::Items { first, last, numbered } => lang.items_note(*first, *last, *numbered, &other),
        Choice::CountColumn { column, of, .. } => {
            let others: Vec<usize> = of.iter().copied().filter(|c| c != column).collect();
            lang.column_note(*column, &others, &other)
        }
    };
    Diagnostic::new(Code::DeckReading, message).at(n.span)
}

/// Reading problems as diagnostics, in the list's language.
pub fn problem_diagnostics(
    problems: &[Problem],
    lang: Lang,
    noun: &str,
    keys: &HeaderKeys,
    path: &Path,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for p in problems {
        let d = match p {
            Problem::BadCount { span, count } => {
                let (m, label, expected) = lang.bad_count(*count, super::text::MAX_COUNT);
                Diagnostic::new(Code::DeckFormat, m)
                    .at(*span)
                    .label(label)
                    .expected(expected)
            }
            Problem::Unknown { span, name, suggestion } => {
                let (m, label) = lang.unknown_card(name);
                let d = Diagnostic::new(Code::UnknownCard, m).at(*span).label(label);
                match suggestion {
                    Some(s) => d.help(lang.did_you_mean(s)),
                    None => d,
                }
            }
            Problem::Ambiguous { span, name, ids } => {
                let ids: Vec<String> = ids.iter().map(|(id, kind)| format!("`{id}` ({kind})")).collect();
                Diagnostic::new(Code::UnknownCard, lang.ambiguous(name, &lang.list(&ids, 6))).at(*span)
            }
            Problem::NoCount { span, written } => {
                let (m, label, expected) = lang.no_count(written);
                Diagnostic::new(Code::DeckFormat, m)
                    .at(*span)
                    .label(label)
                    .expected(expected)
            }
            Problem::Unreadable { span, suggestion, .. } => {
                let (m, label, expected) = lang.unreadable();
                let d = Diagnostic::new(Code::DeckFormat, m)
                    .at(*span)
                    .label(label)
                    .expected(expected);
                match suggestion {
                    Some(s) => d.help(lang.did_you_mean_line(s)),
                    None => d,
                }
            }
            Problem::UnknownKey { span, key, suggestion } => {
                let (m, label) = lang.unknown_key(key);
                let known = keys.shown(lang.code());
                let d = Diagnostic::new(Code::DeckFormat, m)
                    .at(*span)
                    .label(label)
                    .expected(lang.one_of(&super::validate::quote(lang, &known)));
                match suggestion {
                    Some(s) => d.help(lang.did_you_mean(s)),
                    None => d,
                }
            }
            Problem::HeaderTwice { span, key, first } => {
                let (m, label) = lang.header_twice(key);
                Diagnostic::new(Code::DeckFormat, m).at(*span).related(*first, label)
            }
            Problem::HeaderControl { span, key, found } => {
                let (m, label, expected) = lang.header_control(key, *found);
                Diagnostic::new(Code::DeckFormat, m)
                    .at(*span)
                    .label(label)
                    .expected(expected)
            }
            Problem::Yaml(d) => (**d).clone(),
            Problem::Empty => {
                let (m, expected) = lang.empty(noun);
                Diagnostic::new(Code::DeckFormat, m).in_file(path).expected(expected)
            }
            Problem::More { count } => Diagnostic::new(Code::DeckFormat, lang.more_lines(*count)).in_file(path),
        };
        out.push(d);
    }
    out
}

fn violation_diagnostic(v: &Violation, game: &Game, path: &Path, lang: Lang, locale: &str) -> Diagnostic {
    let cite = v.cite.as_ref().and_then(|c| game.reference.section_title(c, locale));
    let head = match cite {
        Some(t) => format!("{} ({t})", v.rules.join(", ")),
        None => v.rules.join(", "),
    };
    let mut d = Diagnostic::new(Code::DeckRule, format!("{head}: {}", v.message))
        .expected(v.expected.clone())
        .found(v.found.clone());
    let mut spans = v.spans.iter();
    d = match (spans.next(), v.header_span) {
        (Some(s), _) => d.at(*s).label(lang.counted_here()),
        (None, Some(h)) => d.at(h).label(lang.named_here()),
        (None, None) => d.in_file(path),
    };
    let rest: Vec<_> = spans.collect();
    for s in rest.iter().take(RELATED) {
        d = d.related(**s, lang.and_here());
    }
    if rest.len() > RELATED {
        d = d.note(lang.more_lines_involved(rest.len() - RELATED));
    }
    if let (Some(h), false) = (v.header_span, v.spans.is_empty()) {
        d = d.related(h, lang.named_here());
    }
    if let Some(h) = &v.help {
        d = d.help(h.clone());
    }
    if let Some(c) = &v.cite {
        d = d.note(lang.rules_reference(c));
    }
    d
}

/// The canonical form of a list: the game, the header values that rules
/// read (resolved to ids), and every card as `kind/id count`, sorted. Two
/// lists that say the same thing in other words, order or locale share it.
pub fn canonical(game: &Game, c: &Construction, deck: &Deck, verdict: &Verdict) -> String {
    let _ = c;
    let mut out = format!("pnpkit-deck 1\ngame {}\n", game.id);
    let mut header: Vec<(&String, &String)> = verdict.header.iter().collect();
    header.sort();
    for (k, v) in header {
        out.push_str(&format!("{k} {v}\n"));
    }
    let mut cards: Vec<String> = deck
        .entries
        .iter()
        .map(|e| format!("{}/{} {}", e.kind, e.id, e.count))
        .collect();
    cards.sort();
    let mut side: Vec<String> = deck
        .side
        .iter()
        .map(|e| format!("side {}/{} {}", e.kind, e.id, e.count))
        .collect();
    side.sort();
    for l in cards.into_iter().chain(side) {
        out.push_str(&l);
        out.push('\n');
    }
    out
}

/// The deck hash: the first 12 hex digits of the SHA-256 of [`canonical`].
pub fn deck_hash(game: &Game, c: &Construction, deck: &Deck, verdict: &Verdict) -> String {
    let digest = Sha256::digest(canonical(game, c, deck, verdict).as_bytes());
    digest.iter().take(6).map(|b| format!("{b:02x}")).collect()
}

/// The key of a header field in the list's locale, for other modules.
pub fn header_key(c: &Construction, id: &str, locale: &str) -> String {
    key_name(c, id, Lang::of(locale))
}

/// Reads a list given as YAML (a log's `deck:`, `top_level` false; a list
/// file, true), with its reading problems as diagnostics in its locale.
pub fn read_yaml_list(
    node: &crate::pack::yaml::Node,
    game: &Game,
    c: &Construction,
    top_level: bool,
    path: &Path,
) -> (Deck, Vec<Diagnostic>) {
    let keys = HeaderKeys::new(c);
    let (deck, problems) = yaml::read(node, game, c, &keys, top_level);
    let locale = deck.locale().unwrap_or("en").to_string();
    let diags = problem_diagnostics(&problems, Lang::of(&locale), c.noun.get(&locale), &keys, path);
    (deck, diags)
}

/// Reads a pasted list, with its reading problems as diagnostics in its locale.
pub fn read_text_list(text: &str, file: FileId, game: &Game, c: &Construction, path: &Path) -> (Deck, Vec<Diagnostic>) {
    let keys = HeaderKeys::new(c);
    let r = reading::read(text, file, game, c, &keys, &Context::default(), Hints::of(path));
    let (deck, problems) = (r.deck, r.problems);
    let locale = deck.locale().unwrap_or("en").to_string();
    let diags = problem_diagnostics(&problems, Lang::of(&locale), c.noun.get(&locale), &keys, path);
    (deck, diags)
}
