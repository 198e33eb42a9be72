//! Reading gettext PO files: entries with their line numbers, strict about
//! what pnpkit does not write (plural forms, unknown escapes), and the
//! duplicates a translator's tool or a merge can leave behind.

use std::collections::HashMap;

/// One entry read from a PO file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PoEntry {
    pub context: String,
    pub source: String,
    pub translation: String,
    pub fuzzy: bool,
    /// The 1-based line of the entry's first keyword (`msgctxt` or `msgid`).
    pub line: usize,
}

/// A line of a PO file that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PoProblem {
    /// 1-based line.
    pub line: usize,
    pub message: String,
    pub expected: String,
}

fn problem(line: usize, message: impl Into<String>, expected: impl Into<String>) -> PoProblem {
    PoProblem {
        line,
        message: message.into(),
        expected: expected.into(),
    }
}

/// The content of a C-style quoted string (`"…"`), escapes resolved.
fn unquote(s: &str, line: usize) -> Result<String, PoProblem> {
    let expected = "a string in double quotes, e.g. \"Strike\"";
    let s = s.trim();
    let inner = s
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .filter(|_| s.len() >= 2)
        .ok_or_else(|| problem(line, "not a quoted string", expected))?;
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push(match chars.next() {
                Some('n') => '\n',
                Some('t') => '\t',
                Some('r') => '\r',
                Some('a') => '\u{7}',
                Some('b') => '\u{8}',
                Some('f') => '\u{c}',
                Some('v') => '\u{b}',
                Some('\\') => '\\',
                Some('"') => '"',
                Some('\'') => '\'',
                Some('?') => '?',
                Some(other) => {
                    return Err(problem(
                        line,
                        format!("unknown escape `\\{other}` in a string"),
                        "one of \\n \\t \\r \\\" \\\\",
                    ));
                }
                None => return Err(problem(line, "a string ends with a lone `\\`", expected)),
            }),
            '"' => {
                return Err(problem(
                    line,
                    "a quote inside a string is not escaped",
                    "\\\" for a quote inside a string",
                ));
            }
            c => out.push(c),
        }
    }
    Ok(out)
}

/// A translation may hold line breaks and tabs, never another control
/// character: written into the pack, it would reach the kit, the terminal
/// and every file pnpkit writes from it.
fn refuse_controls(value: &str, line: usize, problems: &mut Vec<PoProblem>) {
    if let Some(c) = value.chars().find(|&c| c.is_control() && c != '\n' && c != '\t') {
        problems.push(problem(
            line,
            format!("the translation holds the control character {}", c.escape_unicode()),
            "text, line breaks (\\n) and tabs (\\t) only",
        ));
    }
}

/// Which string a continuation line adds to.
#[derive(Clone, Copy, PartialEq)]
enum Field {
    Context,
    Source,
    Translation,
}

/// Reads a PO file: entries with their context, source, translation, fuzzy
/// flag and line. The header entry (empty msgid) is skipped. Every line that
/// cannot be read is a problem; entries are returned only when there is none.
pub fn parse_po(text: &str) -> Result<Vec<PoEntry>, Vec<PoProblem>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut out = Vec::new();
    let mut problems = Vec::new();
    let mut cur = PoEntry::default();
    let mut field: Option<Field> = None;
    let mut started = false;
    let mut fuzzy_next = false;
    let flush = |cur: &mut PoEntry, out: &mut Vec<PoEntry>, started: &mut bool| {
        if *started && !cur.source.is_empty() {
            out.push(std::mem::take(cur));
        } else {
            *cur = PoEntry::default();
        }
        *started = false;
    };
    for (n, line) in text.lines().enumerate() {
        let no = n + 1;
        let line = line.trim_end();
        if line.trim().is_empty() {
            flush(&mut cur, &mut out, &mut started);
            field = None;
            continue;
        }
        if let Some(flags) = line.strip_prefix("#,") {
            if started && field == Some(Field::Translation) {
                flush(&mut cur, &mut out, &mut started);
                field = None;
            }
            fuzzy_next |= flags.split(',').any(|f| f.trim() == "fuzzy");
            continue;
        }
        if line.starts_with('#') {
            continue;
        }
        let line = line.trim_start();
        let (key, rest) = match line.split_once([' ', '\t']) {
            Some((k, r)) if k.starts_with("msg") => (Some(k), r),
            _ if line.starts_with('"') => (None, line),
            _ => {
                problems.push(problem(
                    no,
                    format!("`{}` is not a PO line", line.chars().take(40).collect::<String>()),
                    "`msgctxt`, `msgid`, `msgstr`, a continued \"string\", or a `#` comment",
                ));
                continue;
            }
        };
        let value = match unquote(rest, no) {
            Ok(v) => v,
            Err(p) => {
                problems.push(p);
                continue;
            }
        };
        match key {
            Some("msgctxt") | Some("msgid") => {
                let is_ctx = key == Some("msgctxt");
                // A new keyword after a complete entry starts the next one.
                if started && (field == Some(Field::Translation) || (is_ctx && field.is_some())) {
                    flush(&mut cur, &mut out, &mut started);
                }
                if !started {
                    cur.line = no;
                    cur.fuzzy = std::mem::take(&mut fuzzy_next);
                }
                started = true;
                if is_ctx {
                    cur.context = value;
                    field = Some(Field::Context);
                } else {
                    cur.source = value;
                    field = Some(Field::Source);
                }
            }
            Some("msgstr") => {
                if !started {
                    problems.push(problem(
                        no,
                        "`msgstr` without a `msgid` before it",
                        "`msgid \"…\"` first",
                    ));
                    continue;
                }
                refuse_controls(&value, no, &mut problems);
                cur.translation = value;
                field = Some(Field::Translation);
            }
            Some(k) if k.starts_with("msgid_plural") || k.starts_with("msgstr[") => problems.push(problem(
                no,
                format!("`{k}`: plural forms are not used by pnpkit's texts"),
                "one `msgstr` per entry",
            )),
            Some(k) => problems.push(problem(
                no,
                format!("unknown keyword `{k}`"),
                "`msgctxt`, `msgid` or `msgstr`",
            )),
            None => match field {
                Some(Field::Context) => cur.context.push_str(&value),
                Some(Field::Source) => cur.source.push_str(&value),
                Some(Field::Translation) => {
                    refuse_controls(&value, no, &mut problems);
                    cur.translation.push_str(&value)
                }
                None => problems.push(problem(no, "a string outside an entry", "`msgid \"…\"` before it")),
            },
        }
    }
    flush(&mut cur, &mut out, &mut started);
    if problems.is_empty() { Ok(out) } else { Err(problems) }
}

/// An entry that appears twice: the earlier line, and whether the two
/// translations differ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Duplicate {
    pub first: usize,
    pub second: usize,
    pub key: String,
    pub conflicting: bool,
}

/// Entries with the same context and source as an earlier one.
pub fn duplicates(entries: &[PoEntry]) -> Vec<Duplicate> {
    let mut seen: HashMap<(&str, &str), &PoEntry> = HashMap::new();
    let mut out = Vec::new();
    for e in entries {
        match seen.get(&(e.context.as_str(), e.source.as_str())) {
            Some(first) => out.push(Duplicate {
                first: first.line,
                second: e.line,
                key: if e.context.is_empty() {
                    e.source.clone()
                } else {
                    e.context.clone()
                },
                conflicting: first.translation != e.translation || first.fuzzy != e.fuzzy,
            }),
            None => {
                seen.insert((&e.context, &e.source), e);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapped_strings_flags_and_lines() {
        let po = "msgid \"\"\nmsgstr \"\"\n\"Language: en\\n\"\n\n#, fuzzy\nmsgctxt \"a\"\nmsgid \"\"\n\"two \"\n\"lines\"\nmsgstr \"dos\"\n\nmsgctxt \"b\"\nmsgid \"x\"\nmsgstr \"y\"\n";
        let e = parse_po(po).unwrap();
        assert_eq!(e.len(), 2);
        assert_eq!((e[0].line, e[0].fuzzy, e[0].source.as_str()), (6, true, "two lines"));
        assert_eq!((e[1].line, e[1].fuzzy), (12, false));
    }

    #[test]
    fn unreadable_lines_are_all_reported() {
        let po = "msgctxt \"a\"\nmsgid \"x\\q\"\nmsgstr \"y\nmsgid_plural \"z\"\n";
        let p = parse_po(po).unwrap_err();
        let lines: Vec<usize> = p.iter().map(|p| p.line).collect();
        assert_eq!(lines, [2, 3, 4]);
    }

    #[test]
    fn translations_with_control_characters_are_refused_at_their_line() {
        let po = "msgid \"Strike\"\nmsgstr \"Golpe\\a\"\n\nmsgid \"Guard\"\nmsgstr \"\"\n\"Guardia\u{1b}[2J\"\n\nmsgid \"Two\\nlines\"\nmsgstr \"Dos\\nlíneas\\tya\"\n";
        let problems = parse_po(po).unwrap_err();
        let lines: Vec<usize> = problems.iter().map(|p| p.line).collect();
        assert_eq!(lines, [2, 6], "{problems:?}");
        assert!(problems[0].message.contains("\\u{7}") && problems[1].message.contains("\\u{1b}"));
    }

    #[test]
    fn duplicates_and_conflicts() {
        let po = "msgctxt \"a\"\nmsgid \"x\"\nmsgstr \"y\"\n\nmsgctxt \"a\"\nmsgid \"x\"\nmsgstr \"y\"\n\nmsgctxt \"a\"\nmsgid \"x\"\nmsgstr \"z\"\n";
        let d = duplicates(&parse_po(po).unwrap());
        assert_eq!(d.len(), 2);
        assert_eq!((d[0].first, d[0].second, d[0].conflicting), (1, 5, false));
        assert_eq!((d[1].first, d[1].second, d[1].conflicting), (1, 9, true));
    }
}
