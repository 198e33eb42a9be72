//! A pasted list read as a whole: its lines are read in every layout they
//! allow ([`super::layout`]); cards named without a count stay one copy
//! where the game allows only one ([`super::validate::copies_allowed`]);
//! the reading whose list makes sense (no unreadable lines, fewest broken
//! rules; the likeliest on a tie) is kept, with a note for each choice it
//! made between readings, saying what the other reading would have given.

use super::layout::{Choice, layouts};
use super::names::Names;
use super::text::{Line, lines, read_lines};
use super::validate::{Context, Verdict, copies_allowed, validate};
use super::vocab::Vocab;
use super::{Deck, HeaderKeys, Problem};
use crate::diag::{FileId, Span};
use crate::model::Game;
use crate::model::construction::Construction;

/// What the file's name says about a list's form.
#[derive(Clone, Copy, Debug, Default)]
pub struct Hints {
    /// Markdown (`.md`): `#` lines are headings, not comments.
    pub markdown: bool,
    /// A CSV file: every line with commas is a table row.
    pub csv: bool,
}

impl Hints {
    pub fn of(path: &std::path::Path) -> Hints {
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or_default()
            .to_ascii_lowercase();
        Hints {
            markdown: matches!(ext.as_str(), "md" | "markdown"),
            csv: ext == "csv",
        }
    }
}

/// How the other reading of a choice would have turned out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Other {
    /// Lines it could not read.
    pub unread: usize,
    /// The rules its list breaks.
    pub rules: Vec<String>,
}

/// A choice between two readings, and why it was made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    pub choice: Choice,
    /// Where the choice shows.
    pub span: Span,
    pub other: Other,
}

/// A list read and checked.
pub struct Reading {
    pub deck: Deck,
    pub problems: Vec<Problem>,
    pub verdict: Verdict,
    pub notes: Vec<Note>,
}

/// One layout's reading, scored.
struct Tried {
    deck: Deck,
    problems: Vec<Problem>,
    verdict: Verdict,
    choices: Vec<Choice>,
}

impl Tried {
    fn unread(&self) -> usize {
        self.problems
            .iter()
            .filter(|p| !matches!(p, Problem::More { .. }))
            .count()
    }

    /// Fewer unreadable lines first, then fewer broken rules.
    fn score(&self) -> (usize, usize) {
        (
            self.unread(),
            self.verdict.violations.len() + self.verdict.problems.len(),
        )
    }
}

/// Reads a pasted list in the layout that makes most sense, and checks it.
pub fn read(
    text: &str,
    file: FileId,
    game: &Game,
    c: &Construction,
    keys: &HeaderKeys,
    ctx: &Context,
    hints: Hints,
) -> Reading {
    let lines: Vec<Line> = lines(text, file, hints.markdown);
    let names = Names::new(game, &c.kinds);
    let vocab = Vocab::new(game, c);
    let mut tried: Vec<Tried> = layouts(&lines, &names, keys, &vocab, hints.csv)
        .into_iter()
        .map(|(layout, choices)| {
            let (mut deck, mut problems) = read_lines(&lines, &layout, game, c, keys, &names, &vocab);
            let verdict = settle(&mut deck, &mut problems, game, c, ctx);
            Tried {
                deck,
                problems,
                verdict,
                choices,
            }
        })
        .collect();
    let best = (0..tried.len()).min_by_key(|&i| (tried[i].score(), i)).unwrap_or(0);
    let mut notes = Vec::new();
    for choice in tried[best].choices.clone() {
        // The reading that differs from the kept one in this choice only.
        let other = tried.iter().enumerate().find(|(i, t)| {
            *i != best
                && t.choices.len() == tried[best].choices.len()
                && t.choices
                    .iter()
                    .zip(&tried[best].choices)
                    .all(|(a, b)| a == b || (*b == choice && same_kind(a, b)))
        });
        // A reading that leaves lines unread was never a possible one: no note.
        if let Some((_, t)) = other.filter(|(_, t)| t.unread() == 0) {
            let line = match &choice {
                Choice::Items { first, .. } => *first,
                Choice::CountColumn { line, .. } => *line,
            };
            let span = lines
                .iter()
                .find(|l| l.span.line == line)
                .map(|l| l.span)
                .unwrap_or_default();
            notes.push(Note {
                choice,
                span,
                other: Other {
                    unread: t.unread(),
                    rules: t.verdict.broken_rules(),
                },
            });
        }
    }
    let kept = tried.swap_remove(best);
    Reading {
        deck: kept.deck,
        problems: kept.problems,
        verdict: kept.verdict,
        notes,
    }
}

/// Two choices about the same lines.
fn same_kind(a: &Choice, b: &Choice) -> bool {
    match (a, b) {
        (Choice::Items { first: x, .. }, Choice::Items { first: y, .. }) => x == y,
        (Choice::CountColumn { line: x, .. }, Choice::CountColumn { line: y, .. }) => x == y,
        _ => false,
    }
}

/// Keeps each card named without a count as one copy where the game allows
/// only one of it (in the list's mode and role), else reports that the line
/// gives no count; returns the verdict of the list as it then stands.
pub fn settle(deck: &mut Deck, problems: &mut Vec<Problem>, game: &Game, c: &Construction, ctx: &Context) -> Verdict {
    let verdict = validate(game, c, deck, ctx);
    if deck.bare.is_empty() {
        return verdict;
    }
    let mut changed = false;
    for bare in std::mem::take(&mut deck.bare) {
        let one = game
            .component(&bare.kind, &bare.id)
            .is_some_and(|comp| copies_allowed(game, c, comp, &verdict) == Some(1));
        if one {
            deck.bare.push(bare);
        } else {
            deck.remove_copy(&bare.kind, &bare.id, bare.span);
            problems.push(Problem::NoCount {
                span: bare.span,
                written: bare.written,
            });
            changed = true;
        }
    }
    if !changed {
        return verdict;
    }
    problems.retain(|p| !matches!(p, Problem::Empty));
    problems.sort_by_key(Problem::line);
    validate(game, c, deck, ctx)
}
