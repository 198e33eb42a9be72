//! Writing a translation into a YAML file in place: the value of one locale
//! of a text map is replaced (or the locale added), whatever style the
//! scalar is written in — plain, single- or double-quoted, block literal
//! (`|`) or folded (`>`), inside a block or a flow mapping — and the rest of
//! the file keeps its bytes. The new value keeps the old style when the
//! text can be written in it, else it is double-quoted. Every rewritten
//! file is parsed back and compared with the intended tree: only the
//! intended values may differ, or nothing is written.

use std::ops::Range;

use crate::diag::FileId;
use crate::pack::yaml::{self, Limits, Node, Value};

/// How a scalar is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    Plain,
    Single,
    Double,
    /// `|`
    Literal,
    /// `>`
    Folded,
}

/// One translation to write: where the text map is, and the value.
#[derive(Clone, Debug)]
pub struct Edit {
    /// The path of the text map in the file (the part of a text id after `#`).
    pub path: String,
    pub locale: String,
    pub translation: String,
}

/// Why a file could not be rewritten.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EditError {
    /// The path of the text that could not be placed, if one is to blame.
    pub path: Option<String>,
    pub message: String,
}

fn error(path: Option<&str>, message: impl Into<String>) -> EditError {
    EditError {
        path: path.map(str::to_owned),
        message: message.into(),
    }
}

/// Where a scalar value sits in the source, and how it is written.
#[derive(Clone, Debug)]
struct Extent {
    /// From the scalar's first character (its quote or block indicator, after
    /// any anchor or tag) to the end of its last character or content line.
    range: Range<usize>,
    style: Style,
    /// Indentation of a block scalar's content lines.
    content_indent: Option<usize>,
}

/// The column (0-based, in bytes) of `at` in its line.
fn column(src: &str, at: usize) -> usize {
    at - src[..at].rfind('\n').map_or(0, |i| i + 1)
}

fn line_end(src: &str, at: usize) -> usize {
    src[at..].find('\n').map_or(src.len(), |i| at + i)
}

/// Finds how the value of entry `key: value` is written.
fn extent(src: &str, key: &Node, value: &Node) -> Option<Extent> {
    let b = src.as_bytes();
    let mut i = key.span.end.min(src.len());
    // The key may end before its closing quote in some spans: find the colon.
    while i < b.len() && b[i] != b':' {
        if b[i] == b'\n' {
            return None;
        }
        i += 1;
    }
    i += 1;
    // Whitespace, comments and properties (`&anchor`, `!tag`) before the value.
    loop {
        while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\n' | b'\r') {
            i += 1;
        }
        if i < b.len() && b[i] == b'#' {
            i = line_end(src, i);
            continue;
        }
        if i < b.len() && (b[i] == b'&' || b[i] == b'!') {
            while i < b.len() && !matches!(b[i], b' ' | b'\t' | b'\n') {
                i += 1;
            }
            continue;
        }
        break;
    }
    if i >= b.len() {
        return None;
    }
    match b[i] {
        b'*' => None, // an alias: its text lives elsewhere
        b'|' | b'>' => {
            let style = if b[i] == b'|' { Style::Literal } else { Style::Folded };
            let parent = column(src, key.span.start);
            let mut end = line_end(src, i);
            let mut at = end;
            let mut content_indent = None;
            // Content: lines that are blank or indented deeper than the key.
            while at < b.len() {
                let start = at + 1;
                let stop = line_end(src, start.min(src.len()));
                let line = &src[start.min(src.len())..stop];
                let indent = line.len() - line.trim_start_matches(' ').len();
                if line.trim().is_empty() {
                    at = stop;
                    continue;
                }
                if indent <= parent {
                    break;
                }
                content_indent.get_or_insert(indent);
                end = stop;
                at = stop;
            }
            Some(Extent {
                range: i..end,
                style,
                content_indent,
            })
        }
        c => {
            if value.span.start != i || value.span.end <= i {
                return None;
            }
            let style = match c {
                b'"' => Style::Double,
                b'\'' => Style::Single,
                _ => Style::Plain,
            };
            Some(Extent {
                range: i..value.span.end,
                style,
                content_indent: None,
            })
        }
    }
}

/// True when `src[at..]` has only spaces, tabs and a comment before the line ends.
fn rest_of_line_is_free(src: &str, at: usize) -> bool {
    let rest = &src[at..line_end(src, at)];
    let t = rest.trim_start_matches([' ', '\t']);
    t.is_empty() || t.starts_with('#')
}

fn printable(c: char) -> bool {
    matches!(c, '\t' | '\n' | ' '..='~' | '\u{a0}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}' | '\u{10000}'..)
        && !matches!(c, '\u{feff}' | '\u{2028}' | '\u{2029}')
}

/// A YAML double-quoted scalar: escapes for quotes, backslashes, line
/// breaks and everything YAML does not allow raw.
pub fn double(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if !printable(c) || c == '\u{85}' => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn single(s: &str) -> Option<String> {
    (!s.contains(['\n', '\r']) && s.chars().all(|c| printable(c) && c != '\t'))
        .then(|| format!("'{}'", s.replace('\'', "''")))
}

/// A plain scalar, when `s` reads back as this same string.
fn plain(s: &str, flow: bool) -> Option<String> {
    const RESERVED: &[&str] = &["true", "false", "null", "yes", "no", "on", "off", "y", "n", "~"];
    let first = s.chars().next()?;
    let ok = !"-?:,[]{}#&*!|>'\"%@`".contains(first)
        && !first.is_whitespace()
        && !s.ends_with([' ', '\t', ':'])
        && !s.contains(": ")
        && !s.contains(" #")
        && !s.contains(['\n', '\r', '\t'])
        && !(flow && s.contains([',', '[', ']', '{', '}']))
        && s.chars().all(printable)
        && !RESERVED.contains(&s.to_lowercase().as_str())
        && s.parse::<f64>().is_err()
        && !s.starts_with('.')
        && !s.starts_with("0x")
        && !s.starts_with("0o");
    ok.then(|| s.to_owned())
}

/// A block literal (`|`, `|-`) with content lines at `indent`, `parent`
/// being the indentation of the key.
fn literal(s: &str, indent: usize, parent: usize) -> Option<String> {
    if s.is_empty() || s.ends_with("\n\n") || !s.chars().all(|c| printable(c) && c != '\r') {
        return None;
    }
    let (body, chomp) = match s.strip_suffix('\n') {
        Some(b) => (b, ""),
        None => (s, "-"),
    };
    let first = body.lines().find(|l| !l.is_empty())?;
    // Content starting with a space needs its indentation stated.
    let indicator = if first.starts_with(' ') || first.starts_with('\t') {
        let n = indent.checked_sub(parent).filter(|n| (1..=9).contains(n))?;
        n.to_string()
    } else {
        String::new()
    };
    let mut out = format!("|{indicator}{chomp}");
    for line in body.split('\n') {
        out.push('\n');
        if !line.is_empty() {
            out.push_str(&" ".repeat(indent));
            out.push_str(line);
        }
    }
    Some(out)
}

/// A folded block (`>-`, `>`) for one paragraph of words, wrapped.
fn folded(s: &str, indent: usize) -> Option<String> {
    let (body, chomp) = match s.strip_suffix('\n') {
        Some(b) => (b, ""),
        None => (s, "-"),
    };
    let simple = !body.is_empty()
        && !body.contains(['\n', '\r', '\t'])
        && !body.starts_with(' ')
        && !body.ends_with(' ')
        && !body.contains("  ")
        && body.chars().all(printable);
    if !simple {
        return None;
    }
    let width = 100usize.saturating_sub(indent).max(40);
    let mut out = format!(">{chomp}");
    let mut line = String::new();
    for word in body.split(' ') {
        if !line.is_empty() && line.len() + 1 + word.len() > width {
            out.push('\n');
            out.push_str(&" ".repeat(indent));
            out.push_str(&line);
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push('\n');
    out.push_str(&" ".repeat(indent));
    out.push_str(&line);
    Some(out)
}

/// Writes `text` in `style` if it can be, else double-quoted. Block styles
/// need a block context and a line of their own to end.
fn render(text: &str, style: Style, flow: bool, block_ok: bool, indent: usize, parent: usize) -> String {
    let styled = match style {
        Style::Plain => plain(text, flow),
        Style::Single => single(text),
        Style::Double => None,
        Style::Literal if block_ok && !flow => literal(text, indent, parent),
        Style::Folded if block_ok && !flow => folded(text, indent).or_else(|| literal(text, indent, parent)),
        _ => None,
    };
    styled.unwrap_or_else(|| double(text))
}

/// Finds a node by its path (the part of a text id after `#`).
pub fn locate<'a>(root: &'a Node, path: &str) -> Option<&'a Node> {
    let mut node = root;
    for seg in path.split('.').filter(|s| !s.is_empty()) {
        node = match &node.value {
            Value::Map(_) => node.get(seg)?,
            Value::Seq(items) => items
                .iter()
                .find(|i| i.get("id").and_then(Node::as_str) == Some(seg))
                .or_else(|| seg.parse::<usize>().ok().and_then(|i| items.get(i)))?,
            _ => return None,
        };
    }
    Some(node)
}

fn locate_mut<'a>(root: &'a mut Node, path: &str) -> Option<&'a mut Node> {
    let mut node = root;
    for seg in path.split('.').filter(|s| !s.is_empty()) {
        node = match &mut node.value {
            Value::Map(entries) => entries
                .iter_mut()
                .find(|(k, _)| k.as_str() == Some(seg))
                .map(|(_, v)| v)?,
            Value::Seq(items) => {
                let by_id = items
                    .iter()
                    .position(|i| i.get("id").and_then(Node::as_str) == Some(seg));
                let at = by_id.or_else(|| seg.parse::<usize>().ok().filter(|&i| i < items.len()))?;
                &mut items[at]
            }
            _ => return None,
        };
    }
    Some(node)
}

/// The text edit for one translation: (byte range, replacement), in the
/// styles preferred (`force_double` when an earlier attempt did not read back).
pub fn plan_edit(root: &Node, src: &str, edit: &Edit, force_double: bool) -> Result<(Range<usize>, String), EditError> {
    let path = Some(edit.path.as_str());
    let map = locate(root, &edit.path).ok_or_else(|| error(path, "the text is no longer there"))?;
    let entries = map
        .as_map()
        .ok_or_else(|| error(path, "the text is not a mapping of locales"))?;
    let flow = src.as_bytes().get(map.span.start) == Some(&b'{');
    let text = edit.translation.as_str();
    if let Some((k, v)) = entries.iter().find(|(k, _)| k.as_str() == Some(edit.locale.as_str())) {
        let ext = extent(src, k, v)
            .ok_or_else(|| error(path, "the translation's value cannot be found in the file (an alias?)"))?;
        let parent = column(src, k.span.start);
        let indent = ext.content_indent.unwrap_or(parent + 2);
        let block_ok = rest_of_line_is_free(src, ext.range.end) && !flow;
        let style = if force_double { Style::Double } else { ext.style };
        return Ok((ext.range.clone(), render(text, style, flow, block_ok, indent, parent)));
    }
    // A new locale: after the last entry, in the style of the first (the source text).
    let (first_key, first_value) = entries.first().ok_or_else(|| error(path, "the text map is empty"))?;
    let (last_key, last_value) = entries.last().ok_or_else(|| error(path, "the text map is empty"))?;
    let source_style = extent(src, first_key, first_value).map_or(Style::Double, |e| e.style);
    let last = extent(src, last_key, last_value)
        .ok_or_else(|| error(path, "the last value of the text cannot be found in the file"))?;
    let style = if force_double { Style::Double } else { source_style };
    if flow {
        let value = render(text, style, true, false, 0, 0);
        return Ok((last.range.end..last.range.end, format!(", {}: {value}", edit.locale)));
    }
    // Block mapping: a new line at the keys' indentation, after the last value's line.
    let parent = column(src, first_key.span.start);
    let at = line_end(src, last.range.end);
    let indent = extent(src, first_key, first_value)
        .and_then(|e| e.content_indent)
        .unwrap_or(parent + 2);
    let value = render(text, style, false, true, indent, parent);
    Ok((at..at, format!("\n{}{}: {value}", " ".repeat(parent), edit.locale)))
}

/// The tree `root` should become: each edit's locale set (or appended).
fn intended(root: &Node, edits: &[Edit]) -> Option<Node> {
    let mut tree = root.clone();
    for e in edits {
        let map = locate_mut(&mut tree, &e.path)?;
        let Value::Map(entries) = &mut map.value else {
            return None;
        };
        let value = Node {
            value: Value::Str(e.translation.clone()),
            span: Default::default(),
        };
        match entries.iter_mut().find(|(k, _)| k.as_str() == Some(e.locale.as_str())) {
            Some((_, v)) => *v = value,
            None => entries.push((
                Node {
                    value: Value::Str(e.locale.clone()),
                    span: Default::default(),
                },
                value,
            )),
        }
    }
    Some(tree)
}

fn apply(src: &str, mut changes: Vec<(Range<usize>, String)>) -> Result<String, EditError> {
    changes.sort_by(|a, b| b.0.start.cmp(&a.0.start).then(b.0.end.cmp(&a.0.end)));
    for w in changes.windows(2) {
        // Sorted from the end: each range must end where the next (earlier) one may start.
        if w[1].0.end > w[0].0.start {
            return Err(error(None, "two translations overlap in the file"));
        }
    }
    let mut out = src.to_owned();
    for (r, s) in changes {
        if r.end > out.len() || !out.is_char_boundary(r.start) || !out.is_char_boundary(r.end) {
            return Err(error(None, "a translation's place in the file is out of range"));
        }
        out.replace_range(r, &s);
    }
    Ok(out)
}

/// Rewrites the YAML `src` (parsed as `root`) with `edits`, and checks the
/// result: it parses, and it equals the original tree with exactly those
/// values changed. A text that does not read back in its style is written
/// double-quoted; if the file still differs, nothing is returned.
pub fn rewrite(src: &str, root: &Node, edits: &[Edit]) -> Result<String, EditError> {
    let want = intended(root, edits).ok_or_else(|| error(None, "a text is no longer in the file"))?;
    let want = crate::sheet::without_spans(&want);
    let mut doubled = vec![false; edits.len()];
    for _ in 0..2 {
        let changes = edits
            .iter()
            .zip(&doubled)
            .map(|(e, d)| plan_edit(root, src, e, *d))
            .collect::<Result<Vec<_>, _>>()?;
        let out = apply(src, changes)?;
        let Ok(back) = yaml::parse(&out, FileId(0), &Limits::default()) else {
            doubled.iter_mut().for_each(|d| *d = true);
            continue;
        };
        if crate::sheet::without_spans(&back) == want {
            return Ok(out);
        }
        // Write every text that did not read back as meant double-quoted; if
        // the rest of the file changed, all of them.
        let mut any = false;
        for (i, e) in edits.iter().enumerate() {
            let got = locate(&back, &e.path)
                .and_then(|m| m.get(&e.locale))
                .and_then(Node::as_str);
            if got != Some(e.translation.as_str()) {
                doubled[i] = true;
                any = true;
            }
        }
        if !any {
            doubled.iter_mut().for_each(|d| *d = true);
        }
    }
    let culprit = edits
        .iter()
        .zip(&doubled)
        .find(|(_, d)| **d)
        .map(|(e, _)| e.path.as_str());
    Err(error(
        culprit,
        "the file would not read back with only the translation changed",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(path: &str, text: &str) -> Edit {
        Edit {
            path: path.into(),
            locale: "en".into(),
            translation: text.into(),
        }
    }

    fn run(src: &str, edits: &[Edit]) -> String {
        let root = yaml::parse(src, FileId(0), &Limits::default()).unwrap();
        rewrite(src, &root, edits).unwrap()
    }

    #[test]
    fn block_scalars_keep_their_style_and_the_next_key() {
        let src = "text:\n  es: >-\n    Uno dos\n    tres.\n  en: >-\n    One two\n    three.\nsee: [a]\n";
        let out = run(src, &[edit("text", "Un deux trois.")]);
        assert_eq!(
            out,
            "text:\n  es: >-\n    Uno dos\n    tres.\n  en: >-\n    Un deux trois.\nsee: [a]\n"
        );
        let src = "text:\n  es: |\n    a\n    b\n  en: |\n    x\n\nnext: 1\n";
        let out = run(src, &[edit("text", "p\n  q\n")]);
        assert_eq!(
            out,
            "text:\n  es: |\n    a\n    b\n  en: |\n    p\n      q\n\nnext: 1\n"
        );
    }

    #[test]
    fn every_style_and_insertion() {
        let src = "- id: a\n  name: {es: Uno, en: One}\n- id: b\n  name: {es: 'Dos'}\n- id: c\n  name:\n    es: \"Tres\"\n- id: d\n  name:\n    es: >-\n      Cuatro\n";
        let out = run(
            src,
            &[
                edit("a.name", "First, \"1\""),
                edit("b.name", "It's two"),
                edit("c.name", "Three: 3 # no comment"),
                edit("d.name", "Four"),
            ],
        );
        assert_eq!(
            out,
            "- id: a\n  name: {es: Uno, en: \"First, \\\"1\\\"\"}\n- id: b\n  name: {es: 'Dos', en: 'It''s two'}\n- id: c\n  name:\n    es: \"Tres\"\n    en: \"Three: 3 # no comment\"\n- id: d\n  name:\n    es: >-\n      Cuatro\n    en: >-\n      Four\n"
        );
    }

    #[test]
    fn plain_texts_that_would_change_type_are_quoted() {
        let out = run("t: {es: uno, en: one}\n", &[edit("t", "12")]);
        assert_eq!(out, "t: {es: uno, en: \"12\"}\n");
        let out = run("t:\n  es: uno\n  en: one   # keep\n", &[edit("t", "yes")]);
        assert_eq!(out, "t:\n  es: uno\n  en: \"yes\"   # keep\n");
    }
}
