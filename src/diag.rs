//! Diagnostics: one `Code` enum for every problem pnpkit reports, source
//! spans, and the human (rustc-style) and JSON renderings.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};
use serde::Serialize;

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

macro_rules! codes {
    ($($variant:ident = $id:literal, $name:literal, $sev:ident, $summary:literal;)*) => {
        /// Every diagnostic code pnpkit can emit. Codes are stable: never renumber.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code { $($variant,)* }

        impl Code {
            /// All codes, in numeric order.
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];

            /// The stable identifier, e.g. `E004`.
            pub fn id(self) -> &'static str {
                match self { $(Code::$variant => $id,)* }
            }

            /// The stable kebab-case name, e.g. `unknown-field`.
            pub fn name(self) -> &'static str {
                match self { $(Code::$variant => $name,)* }
            }

            /// The default severity of this code.
            pub fn severity(self) -> Severity {
                match self { $(Code::$variant => Severity::$sev,)* }
            }

            /// One line on what the code means (for `docs/diagnostics.md`).
            pub fn summary(self) -> &'static str {
                match self { $(Code::$variant => $summary,)* }
            }
        }
    };
}

codes! {
    YamlSyntax = "E001", "yaml-syntax", Error, "The file is not valid YAML.";
    YamlLimit = "E002", "yaml-limit", Error, "The YAML exceeds a safety budget (alias expansion, nesting depth, node count).";
    FileTooLarge = "E003", "file-too-large", Error, "A file is larger than the size limit for its kind (pack file, deck list, game log, sheet, PO file).";
    DuplicateKey = "E004", "duplicate-key", Error, "A mapping repeats a key.";
    UnknownField = "E005", "unknown-field", Error, "A field that the kind (or game.yaml format) does not declare.";
    MissingField = "E006", "missing-field", Error, "A required field is absent.";
    WrongType = "E007", "wrong-type", Error, "A value has the wrong type (a list where a number is expected, ...).";
    OutOfRange = "E008", "out-of-range", Error, "A number or list length is outside the range that game.yaml declares.";
    InvalidValue = "E009", "invalid-value", Error, "A value is not one of the allowed values or not in the expected form.";
    DuplicateId = "E010", "duplicate-id", Error, "Two components of the same kind (or two items of one list) share an id.";
    UnknownReference = "E011", "unknown-reference", Error, "A reference names a component that does not exist.";
    UnknownMember = "E012", "unknown-member", Error, "A value names an item that the referenced component's list does not have.";
    KitCountMismatch = "E013", "kit-count-mismatch", Error, "A declared kit count does not match the data.";
    MissingTranslation = "W014", "missing-translation", Warning, "A player-facing text lacks a locale of the pack, or is empty.";
    UnknownKind = "E015", "unknown-kind", Error, "A components file names a kind that game.yaml does not declare.";
    BadDeclaration = "E016", "bad-declaration", Error, "game.yaml declares something inconsistent (a ref to an unknown kind, an unknown size ...).";
    NotAPack = "E017", "not-a-pack", Error, "A folder in the data directory has no game.yaml.";
    RuleViolated = "E018", "rule-violated", Error, "A component breaks a cross-field rule that its kind declares in `rules:`.";
    TemplateError = "E019", "template-error", Error, "A typst layout in `templates/` failed while building a kit, or ran past its time or memory budget (`--layout-time-limit`, `--memory-limit`) (reported by `build`).";
    TemplateWarning = "W020", "template-warning", Warning, "typst warned while laying out a kit (reported by `build`).";
    TextTemplate = "E021", "text-template", Error, "A text that quotes values (`{{ damage }}`) fails to render in some locale: unknown value or bad syntax.";
    RuleNotCovered = "E022", "rule-not-covered", Error, "A rule id the pack declares (`rule_ids` in game.yaml) has no section in the rules reference.";
    GlossaryTerm = "W023", "glossary-term", Warning, "A translation does not use the glossary's word for a term its source text uses.";
    LogFormat = "E024", "log-format", Error, "A game log is malformed: a missing key, an unknown action or field, a value of the wrong type (reported by `log`).";
    IllegalAction = "E025", "log-illegal-action", Error, "A logged action, setup or turn end breaks a numbered rule of the game (reported by `log`).";
    CheckpointMismatch = "E026", "log-checkpoint", Error, "A log's `expect:` checkpoint differs from the replayed state (reported by `log`).";
    ResultMismatch = "E027", "log-result", Error, "A log's `result:` differs from how the replayed game ended (reported by `log`).";
    DeckFormat = "E028", "deck-format", Error, "A deck list cannot be read: a line is not `N Card name`, a count is not a number (reported by `deck`).";
    UnknownCard = "E029", "deck-unknown-card", Error, "A deck list names a card the game does not have (reported by `deck`).";
    DeckRule = "E030", "deck-rule", Error, "A deck or army breaks one of the game's construction rules (reported by `deck`).";
    FileRefused = "E031", "file-refused", Error, "A file is not read: a directory, FIFO or device, or a link (symbolic or hard) that leads outside the project.";
    SheetLimit = "E032", "sheet-limit", Error, "A sheet given to `import` is beyond a limit: a cell past the last row or column allowed, too many cells, a cell too long, a workbook that unzips to too much (reported by `import`).";
    TranslationImport = "E033", "i18n-import", Error, "A PO file cannot be imported: a line that is not PO, an entry given twice, a text id the pack lacks, a source changed since the export, a translation that cannot be placed (reported by `i18n import`).";
    PreflightTextSize = "W040", "preflight-text-size", Warning, "Printed text is smaller than the minimum size (6 pt unless `--min-text` says otherwise; reported by `preflight`).";
    PreflightSafeZone = "W041", "preflight-safe-zone", Warning, "Text or a key element of a piece reaches outside its safe zone, where a cut slightly off the line would touch it (reported by `preflight`).";
    PreflightClippedText = "W042", "preflight-clipped-text", Warning, "Text does not fit its box and is cut off where it is printed (reported by `preflight`).";
    PreflightImageResolution = "W043", "preflight-image-resolution", Warning, "A raster image prints below 300 pixels per inch at its size on the piece (reported by `preflight`).";
    ShopSize = "W044", "shop-size", Warning, "A print shop sells no card of this kind's size: its decks are left out of that shop's export (reported by `export --shop`).";
    MalformedMarkup = "E045", "malformed-markup", Error, "A text's markup is malformed: a `**` or `*` that opens bold or italic text is never closed.";
    UnknownIcon = "E046", "unknown-icon", Error, "A text names an icon (`:name:`) that game.yaml does not declare under `icons:`.";
    BadAsset = "E047", "bad-asset", Error, "An icon or artwork file of the pack cannot be used: missing (icons), not decodable, too large, a link, outside the pack, or an SVG naming a font that is not at hand.";
    MissingArt = "W048", "missing-art", Warning, "An image field names artwork that does not exist yet: the kit prints a labelled placeholder.";
    LowResolutionArt = "W049", "low-resolution-art", Warning, "Artwork has fewer than 300 pixels per inch at the size it prints.";
    UnknownFont = "E050", "unknown-font", Error, "A font family the pack or a layout asks for is neither in the project's `fonts/` nor among the built-in fonts: pnpkit never falls back to another font.";
    MissingGlyph = "W051", "missing-glyph", Warning, "A text has a character that no font in `fonts/` can draw (reported by `build` and `preflight`).";
    EngineData = "E052", "engine-data", Error, "A table the game's rules engine reads from the pack (boards, units, cards, facts its rules quote) is missing or inconsistent.";
    EffectInvalid = "E053", "effect-invalid", Error, "A card effect does not fit the game's effect vocabulary: an undeclared timing, target, condition, outcome, duration, limit or resource, or an amount outside its declared bounds.";
    EffectText = "E054", "effect-text", Error, "A text's numbers contradict the structured effect it describes: a number the effect does not state, or an amount of the effect the text never gives.";
    ProjectConfig = "E060", "project-config", Error, "`pnpkit.toml`, the project's settings, cannot be read: not TOML, an unknown setting, a value out of its range, a folder outside the project.";
    StatsMixedGames = "E075", "stats-mixed-games", Error, "Logs given to `stats` are of different games: statistics compare games of one game (reported by `stats`).";
    StatsLogSkipped = "W076", "stats-log-skipped", Warning, "A log does not replay clean (an illegal action, a checkpoint or result that differs) and is left out of the statistics (reported by `stats`).";
    DeckBacks = "E077", "deck-backs", Error, "A deck shuffles cards that do not look alike from behind (different backs or sizes), so every draw is known before it is made.";
    PreflightOverlap = "W078", "preflight-overlap", Warning, "Text is printed over other text, or a filled shape is drawn over text, hiding words a player needs (reported by `preflight`).";
    EffectUnexercised = "E085", "effect-unexercised", Error, "A checked card effect is not exercised by the logs `check --effects` replays: a clause no legal log uses, or no illegal log refused for breaking it (reported by `check --effects`).";
    FormatNewer = "E086", "format-newer", Error, "A file says it is in a format newer than this pnpkit reads (`format:`): update pnpkit, or write it in a format this version knows.";
    FormatOlder = "E087", "format-older", Error, "A file is in an older format (its `format:` says so, or it uses what that format had): what changed, and how to bring it up to date (`pnpkit log --upgrade FILE` for logs).";
    DeckUnreadable = "E090", "deck-unreadable", Error, "A deck list file cannot be read at all: not text in UTF-8 or UTF-16 with a byte-order mark, binary data, a spreadsheet that does not open (reported by `deck`; exit 2, and its own verdict in a batch).";
    MemoryLimit = "E098", "memory-limit", Error, "The run needed more memory than its limit (`--memory-limit`, 4096 MiB by default) outside any layout: an input too large to hold (a layout that does is E019).";
    DeckReading = "W091", "deck-reading", Warning, "A list could be read two ways (numbers at the start of lines as item numbers or copies, which column of a table is the count): says which reading was taken and what the other would give (reported by `deck`).";
}

/// Identifies a file in a [`SourceMap`].
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct FileId(pub u32);

/// A byte range in one source file, with its 1-based line and column.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Span {
    pub file: FileId,
    pub line: u32,
    pub column: u32,
    pub start: usize,
    pub end: usize,
}

/// A source file as read from disk.
#[derive(Clone, Debug)]
pub struct SourceFile {
    pub path: PathBuf,
    pub text: Arc<str>,
    /// Byte offset of each line's start, built on first use.
    lines: OnceLock<Vec<usize>>,
}

impl SourceFile {
    /// Byte offsets where lines start (the first is 0).
    pub fn line_starts(&self) -> &[usize] {
        self.lines.get_or_init(|| {
            std::iter::once(0)
                .chain(self.text.match_indices('\n').map(|(i, _)| i + 1))
                .collect()
        })
    }

    /// The 0-based line holding byte `offset`.
    pub fn line_of(&self, offset: usize) -> usize {
        self.line_starts().partition_point(|&s| s <= offset).saturating_sub(1)
    }

    /// The byte range of 0-based line `line`, without its line break.
    pub fn line_range(&self, line: usize) -> std::ops::Range<usize> {
        let starts = self.line_starts();
        let start = starts.get(line).copied().unwrap_or(self.text.len());
        let end = starts.get(line + 1).map_or(self.text.len(), |&n| n - 1);
        start..end.max(start)
    }
}

/// Every file read during a run, so diagnostics can show snippets.
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    pub fn add(&mut self, path: PathBuf, text: Arc<str>) -> FileId {
        self.files.push(SourceFile {
            path,
            text,
            lines: OnceLock::new(),
        });
        FileId(self.files.len() as u32 - 1)
    }

    /// Renames files for messages (a revision's scratch copy shown as `v1:data/…`).
    pub fn rename(&mut self, f: impl Fn(&Path) -> Option<PathBuf>) {
        for file in &mut self.files {
            if let Some(p) = f(&file.path) {
                file.path = p;
            }
        }
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    pub fn get(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    pub fn path(&self, id: FileId) -> &Path {
        &self.get(id).path
    }

    /// Adds every file of `other`, its path rewritten by `path`; returns the
    /// offset its file ids move by (see [`Diagnostic::shifted`]).
    pub fn append(&mut self, other: &SourceMap, path: impl Fn(&Path) -> PathBuf) -> u32 {
        let offset = self.files.len() as u32;
        for f in &other.files {
            self.add(path(&f.path), f.text.clone());
        }
        offset
    }

    /// The span of a whole line (1-based), for diagnostics that point at a
    /// line. Past the last line, the last line.
    pub fn line_span(&self, file: FileId, line: u32) -> Span {
        let f = self.get(file);
        let index = (line.max(1) as usize - 1).min(f.line_starts().len() - 1);
        let r = f.line_range(index);
        Span {
            file,
            line: index as u32 + 1,
            column: 1,
            start: r.start,
            end: r.end,
        }
    }
}

/// A secondary location with its own message.
#[derive(Clone, Debug)]
pub struct Label {
    pub span: Span,
    pub message: String,
}

/// One problem found in the input.
#[derive(Clone, Debug)]
pub struct Diagnostic {
    pub code: Code,
    pub severity: Severity,
    pub message: String,
    /// Where the problem is; `None` only for problems with no source location.
    pub span: Option<Span>,
    /// A file named without a location (for example an unreadable file).
    pub file: Option<PathBuf>,
    /// What the primary label says (usually "found ...").
    pub label: Option<String>,
    pub found: Option<String>,
    pub expected: Option<String>,
    pub help: Option<String>,
    pub notes: Vec<String>,
    pub related: Vec<Label>,
}

impl Diagnostic {
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            severity: code.severity(),
            message: message.into(),
            span: None,
            file: None,
            label: None,
            found: None,
            expected: None,
            help: None,
            notes: Vec::new(),
            related: Vec::new(),
        }
    }

    pub fn at(mut self, span: Span) -> Self {
        self.span = Some(span);
        self
    }

    pub fn in_file(mut self, path: impl Into<PathBuf>) -> Self {
        self.file = Some(path.into());
        self
    }

    pub fn label(mut self, label: impl Into<String>) -> Self {
        self.label = Some(label.into());
        self
    }

    pub fn found(mut self, found: impl Into<String>) -> Self {
        self.found = Some(found.into());
        self
    }

    pub fn expected(mut self, expected: impl Into<String>) -> Self {
        self.expected = Some(expected.into());
        self
    }

    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Adds "did you mean `x`?" when a candidate is close to `word`.
    pub fn suggest<'a>(self, word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Self {
        match did_you_mean(word, candidates) {
            Some(s) => self.help(format!("did you mean `{s}`?")),
            None => self,
        }
    }

    pub fn note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    pub fn related(mut self, span: Span, message: impl Into<String>) -> Self {
        self.related.push(Label {
            span,
            message: message.into(),
        });
        self
    }

    /// The same diagnostic with its spans moved to files appended at `offset`.
    pub fn shifted(mut self, offset: u32) -> Self {
        if let Some(s) = &mut self.span {
            s.file.0 += offset;
        }
        for l in &mut self.related {
            l.span.file.0 += offset;
        }
        self
    }

    fn sort_key(&self, sources: &SourceMap) -> (PathBuf, u32, u32, Code) {
        let (path, line, col) = match self.span {
            Some(s) => (sources.path(s.file).to_path_buf(), s.line, s.column),
            None => (self.file.clone().unwrap_or_default(), 0, 0),
        };
        (path, line, col, self.code)
    }
}

/// A list of diagnostics with the sources they point into.
#[derive(Debug, Default)]
pub struct Diagnostics {
    pub items: Vec<Diagnostic>,
}

impl Diagnostics {
    pub fn push(&mut self, d: Diagnostic) {
        self.items.push(d);
    }

    pub fn extend(&mut self, other: impl IntoIterator<Item = Diagnostic>) {
        self.items.extend(other);
    }

    pub fn errors(&self) -> usize {
        self.count(Severity::Error)
    }

    pub fn warnings(&self) -> usize {
        self.count(Severity::Warning)
    }

    fn count(&self, sev: Severity) -> usize {
        self.items.iter().filter(|d| d.severity == sev).count()
    }

    /// Orders diagnostics by file, line, column and code so output is stable.
    pub fn sort(&mut self, sources: &SourceMap) {
        self.items.sort_by_cached_key(|d| d.sort_key(sources));
    }
}

/// Renders diagnostics for a terminal or a log, rustc style.
pub fn render_human(diags: &[Diagnostic], sources: &SourceMap, color: bool) -> String {
    let renderer = if color { Renderer::styled() } else { Renderer::plain() };
    let mut out = String::new();
    for d in diags {
        out.push_str(&render_one(d, sources, &renderer));
        out.push_str("\n\n");
    }
    out
}

/// The most source text one snippet shows; a longer line is named, not shown.
const MAX_SNIPPET_BYTES: usize = 16 * 1024;
/// Related labels in the primary's file share its snippet (the lines between
/// folded away) when they are at most this many lines from it; farther ones,
/// or a shared snippet over [`MAX_SNIPPET_BYTES`], get snippets of their own.
/// Either way a diagnostic costs a bounded number of lines.
const NEAR_LINES: usize = 200;

/// The part of a file one snippet shows: whole lines around some spans.
struct Window<'a> {
    path: String,
    text: &'a str,
    /// The first line of `text` (1-based).
    first_line: usize,
    /// Annotations as (range in `text`, label, primary?).
    marks: Vec<Mark<'a>>,
}

/// The whole lines holding `ranges` of `file`, or `None` when they are too
/// long to show. Cost: the length of those lines, never the whole file.
fn window<'a>(file: &'a SourceFile, marks: Vec<Mark<'a>>) -> Option<Window<'a>> {
    let text: &str = &file.text;
    let clamp = |i: usize| {
        let mut i = i.min(text.len());
        while !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let marks: Vec<_> = marks
        .into_iter()
        .map(|(r, l, p)| {
            let start = clamp(r.start);
            (start..clamp(r.end).max(start), l, p)
        })
        .collect();
    let lo = marks.iter().map(|m| m.0.start).min()?;
    let hi = marks.iter().map(|m| m.0.end).max()?;
    let (first, last) = (file.line_of(lo), file.line_of(hi.saturating_sub(1).max(lo)));
    let (start, end) = (file.line_range(first).start, file.line_range(last).end.max(hi));
    if end - start > MAX_SNIPPET_BYTES {
        return None;
    }
    Some(Window {
        path: file.path.display().to_string(),
        text: &text[start..end],
        first_line: first + 1,
        marks: marks
            .into_iter()
            .map(|(r, l, p)| (r.start - start..r.end - start, l, p))
            .collect(),
    })
}

type Mark<'a> = (std::ops::Range<usize>, Option<&'a str>, bool);

fn place_window<'a>(
    windows: &mut Vec<Window<'a>>,
    too_long: &mut Vec<String>,
    file: &'a SourceFile,
    span: Span,
    marks: Vec<Mark<'a>>,
) {
    match window(file, marks) {
        Some(w) => windows.push(w),
        None => too_long.push(format!(
            "at {}:{}:{} (the line is too long to show)",
            file.path.display(),
            span.line,
            span.column
        )),
    }
}

fn render_one<'a>(d: &'a Diagnostic, sources: &'a SourceMap, renderer: &Renderer) -> String {
    let level = match d.severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
    };
    let title = format!("{} ({})", d.message, d.code.name());
    let mut group = Group::with_title(level.primary_title(title.as_str()).id(d.code.id()));
    // Snippets show only the lines around each span, so a diagnostic costs
    // the length of those lines, not of the file: printing is linear in the
    // number of diagnostics.
    let mut windows: Vec<Window> = Vec::new();
    let mut too_long: Vec<String> = Vec::new();
    let mut place = |file, span, marks| place_window(&mut windows, &mut too_long, file, span, marks);
    if let Some(span) = d.span {
        let file = sources.get(span.file);
        let primary_line = file.line_of(span.start);
        let primary = (span.start..span.end.max(span.start), d.label.as_deref(), true);
        let mark = |l: &'a Label| {
            (
                l.span.start..l.span.end.max(l.span.start),
                Some(l.message.as_str()),
                false,
            )
        };
        let near =
            |l: &Label| l.span.file == span.file && file.line_of(l.span.start).abs_diff(primary_line) <= NEAR_LINES;
        let mut marks: Vec<Mark> = std::iter::once(primary.clone())
            .chain(d.related.iter().filter(|l| near(l)).map(mark))
            .collect();
        let mut others: Vec<&Label> = d.related.iter().filter(|l| !near(l)).collect();
        if marks.len() > 1 && window(file, marks.clone()).is_none() {
            // Too much text between them: every label gets a snippet of its own.
            marks = vec![primary];
            others = d.related.iter().collect();
        }
        place(file, span, marks);
        for l in others {
            let range = l.span.start..l.span.end.max(l.span.start);
            place(
                sources.get(l.span.file),
                l.span,
                vec![(range, Some(l.message.as_str()), false)],
            );
        }
    }
    let in_file = match (&d.span, &d.file) {
        (None, Some(file)) => Some(format!("in {}", file.display())),
        _ => None,
    };
    for w in &windows {
        let mut snippet = Snippet::source(w.text)
            .line_start(w.first_line)
            .path(w.path.as_str())
            .fold(true);
        for (range, label, primary) in &w.marks {
            let kind = if *primary {
                AnnotationKind::Primary
            } else {
                AnnotationKind::Context
            };
            let a = kind.span(range.clone());
            snippet = snippet.annotation(match label {
                Some(l) => a.label(*l),
                None => a,
            });
        }
        group = group.element(snippet);
    }
    for t in &too_long {
        group = group.element(Level::NOTE.message(t.as_str()));
    }
    if let Some(f) = &in_file {
        group = group.element(Level::NOTE.message(f.as_str()));
    }
    let found = d.found.as_ref().map(|f| format!("found: {f}"));
    let expected = d.expected.as_ref().map(|e| format!("expected: {e}"));
    if let Some(f) = &found {
        group = group.element(Level::NOTE.message(f.as_str()));
    }
    if let Some(e) = &expected {
        group = group.element(Level::NOTE.message(e.as_str()));
    }
    for n in &d.notes {
        group = group.element(Level::NOTE.message(n.as_str()));
    }
    let mut report = vec![group];
    if let Some(h) = &d.help {
        report.push(Group::with_title(Level::HELP.secondary_title(h.as_str())));
    }
    renderer.render(&report)
}

/// The machine-readable form of one diagnostic.
#[derive(Serialize)]
pub struct JsonDiagnostic {
    pub code: &'static str,
    pub name: &'static str,
    pub severity: Severity,
    pub message: String,
    pub file: Option<String>,
    pub line: Option<u32>,
    pub column: Option<u32>,
    pub found: Option<String>,
    pub expected: Option<String>,
    pub help: Option<String>,
    pub notes: Vec<String>,
    pub related: Vec<JsonLabel>,
}

#[derive(Serialize)]
pub struct JsonLabel {
    pub file: String,
    pub line: u32,
    pub column: u32,
    pub message: String,
}

pub fn to_json(d: &Diagnostic, sources: &SourceMap) -> JsonDiagnostic {
    let file = match d.span {
        Some(s) => Some(sources.path(s.file).display().to_string()),
        None => d.file.as_ref().map(|f| f.display().to_string()),
    };
    JsonDiagnostic {
        code: d.code.id(),
        name: d.code.name(),
        severity: d.severity,
        message: d.message.clone(),
        file,
        line: d.span.map(|s| s.line),
        column: d.span.map(|s| s.column),
        found: d.found.clone(),
        expected: d.expected.clone(),
        help: d.help.clone(),
        notes: d.notes.clone(),
        related: d
            .related
            .iter()
            .map(|l| JsonLabel {
                file: sources.path(l.span.file).display().to_string(),
                line: l.span.line,
                column: l.span.column,
                message: l.message.clone(),
            })
            .collect(),
    }
}

/// Words longer than this get no "did you mean": comparing costs the
/// product of the lengths, and nobody mistypes a 65-character name.
pub const MAX_SUGGEST_CHARS: usize = 64;

/// Suggests the closest candidate to `word` if one is close enough. Words
/// and candidates longer than [`MAX_SUGGEST_CHARS`] are not compared.
pub fn did_you_mean<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let short = |s: &str| s.len() <= MAX_SUGGEST_CHARS * 4 && s.chars().count() <= MAX_SUGGEST_CHARS;
    if !short(word) {
        return None;
    }
    candidates
        .into_iter()
        .filter(|c| short(c))
        .map(|c| (strsim::damerau_levenshtein(word, c), c))
        .filter(|(d, c)| *d <= (c.len().max(word.len()) / 3).max(1))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_ordered() {
        let mut ids: Vec<_> = Code::ALL.iter().map(|c| &c.id()[1..]).collect();
        let sorted = ids.clone();
        ids.dedup();
        assert_eq!(ids, sorted);
        let mut names: Vec<_> = Code::ALL.iter().map(|c| c.name()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), Code::ALL.len());
    }

    #[test]
    fn suggestions() {
        assert_eq!(did_you_mean("atack", ["attack", "cost"]), Some("attack"));
        assert_eq!(did_you_mean("zzz", ["attack", "cost"]), None);
    }
}
