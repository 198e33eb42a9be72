//! The small markup of every data text (card texts, rules, glossary notes,
//! quick reference): `**bold**`, `*italic*` or `_italic_`, a line break per
//! newline, paragraphs separated by a blank line, bulleted (`- `, `* `, `• `)
//! and numbered (`1. `, `1) `) list items, `:icon:` for an icon of the pack,
//! and `\` before a character to print it as it is.
//!
//! One parser, three outputs: typst markup for the layouts (evaluated by the
//! shared `rich` helper of `templates/shared/style.typ`), HTML for the
//! gallery, and plain text (search, estimates). [`parse`] reports malformed
//! markup (an unclosed `**`) with its byte offset, so `check` can point at it.

use std::fmt::Write as _;

/// A parsed text: blocks of inline content.
#[derive(Clone, Debug, PartialEq)]
pub struct Doc {
    pub blocks: Vec<Block>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Block {
    /// Lines of one paragraph (a newline inside a paragraph is a line break).
    Para(Vec<Vec<Inline>>),
    /// A bulleted list: one entry per item (its lines).
    Bullets(Vec<Vec<Vec<Inline>>>),
    /// A numbered list and the number of its first item.
    Numbered(u32, Vec<Vec<Vec<Inline>>>),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Inline {
    Text(String),
    Strong(Vec<Inline>),
    Emph(Vec<Inline>),
    Icon(String),
}

/// Malformed markup: where (byte offset and length in the text) and what.
#[derive(Clone, Debug, PartialEq)]
pub struct MarkupError {
    pub offset: usize,
    pub len: usize,
    pub message: String,
}

/// Whether a text uses any markup at all (cheap pre-check).
pub fn has_markup(text: &str) -> bool {
    text.contains(['*', '_', '\n', ':', '\\', '•']) || text.trim_start().starts_with(|c: char| c.is_ascii_digit())
}

/// An icon name: a lowercase letter, then lowercase letters, digits and hyphens.
fn icon_name(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    if b.first().is_none_or(|c| !c.is_ascii_lowercase()) {
        return None;
    }
    let n = b
        .iter()
        .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || **c == b'-')
        .count();
    (b.get(n) == Some(&b':')).then_some(n)
}

/// Parses a text. Every problem is reported; the returned document is
/// usable either way (an unclosed marker stays literal text).
pub fn parse(text: &str) -> (Doc, Vec<MarkupError>) {
    let mut errors = Vec::new();
    let mut blocks: Vec<Block> = Vec::new();
    let mut para: Vec<Vec<Inline>> = Vec::new();
    let mut offset = 0;
    for raw in text.split('\n') {
        let line_start = offset;
        offset += raw.len() + 1;
        let line = raw.trim_end_matches('\r');
        if line.trim().is_empty() {
            if !para.is_empty() {
                blocks.push(Block::Para(std::mem::take(&mut para)));
            }
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        let body = &line[indent..];
        let start = line_start + indent;
        if let Some(rest) = bullet(body) {
            if !para.is_empty() {
                blocks.push(Block::Para(std::mem::take(&mut para)));
            }
            let at = start + (body.len() - rest.len());
            let item = vec![inline(rest, at, &mut errors)];
            match blocks.last_mut() {
                Some(Block::Bullets(items)) => items.push(item),
                _ => blocks.push(Block::Bullets(vec![item])),
            }
            continue;
        }
        if let Some((n, rest)) = numbered(body) {
            if !para.is_empty() {
                blocks.push(Block::Para(std::mem::take(&mut para)));
            }
            let at = start + (body.len() - rest.len());
            let item = vec![inline(rest, at, &mut errors)];
            match blocks.last_mut() {
                Some(Block::Numbered(_, items)) => items.push(item),
                _ => blocks.push(Block::Numbered(n, vec![item])),
            }
            continue;
        }
        // An indented line right after a list item continues that item.
        if indent >= 2
            && para.is_empty()
            && let Some(Block::Bullets(items) | Block::Numbered(_, items)) = blocks.last_mut()
            && let Some(item) = items.last_mut()
        {
            item.push(inline(body, start, &mut errors));
            continue;
        }
        para.push(inline(body, start, &mut errors));
    }
    if !para.is_empty() {
        blocks.push(Block::Para(para));
    }
    (Doc { blocks }, errors)
}

fn bullet(s: &str) -> Option<&str> {
    for m in ["- ", "* ", "• "] {
        if let Some(rest) = s.strip_prefix(m) {
            return Some(rest.trim_start());
        }
    }
    None
}

fn numbered(s: &str) -> Option<(u32, &str)> {
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 3 {
        return None;
    }
    let rest = &s[digits..];
    let rest = rest.strip_prefix(". ").or_else(|| rest.strip_prefix(") "))?;
    Some((s[..digits].parse().ok()?, rest.trim_start()))
}

/// One open emphasis marker while parsing a line.
struct Open {
    marker: &'static str,
    at: usize,
    /// Inlines before the marker.
    before: Vec<Inline>,
}

fn inline(s: &str, base: usize, errors: &mut Vec<MarkupError>) -> Vec<Inline> {
    let mut out: Vec<Inline> = Vec::new();
    let mut stack: Vec<Open> = Vec::new();
    let mut text = String::new();
    let chars: Vec<(usize, char)> = s.char_indices().collect();
    let prev_char = |i: usize| if i == 0 { None } else { Some(chars[i - 1].1) };
    let mut i = 0;
    let flush = |text: &mut String, out: &mut Vec<Inline>| {
        if !text.is_empty() {
            out.push(Inline::Text(std::mem::take(text)));
        }
    };
    while i < chars.len() {
        let (at, c) = chars[i];
        let next = chars.get(i + 1).map(|x| x.1);
        match c {
            '\\' if next.is_some() => {
                text.push(next.unwrap_or('\\'));
                i += 2;
                continue;
            }
            ':' => {
                if let Some(n) = icon_name(&s[at + 1..]) {
                    let before_ok = prev_char(i).is_none_or(|p| !p.is_alphanumeric());
                    let after = s[at + 1 + n + 1..].chars().next();
                    if before_ok && after.is_none_or(|a| !a.is_alphanumeric()) {
                        flush(&mut text, &mut out);
                        out.push(Inline::Icon(s[at + 1..at + 1 + n].to_owned()));
                        i += n + 2;
                        continue;
                    }
                }
            }
            '*' | '_' => {
                let double = c == '*' && next == Some('*');
                let marker: &'static str = match (c, double) {
                    ('*', true) => "**",
                    ('*', false) => "*",
                    _ => "_",
                };
                let width = marker.len();
                let after = chars.get(i + width).map(|x| x.1);
                let before = prev_char(i);
                let word = |ch: Option<char>| ch.is_some_and(char::is_alphanumeric);
                // Closing: an open marker of the same kind, and no space before.
                let can_close = before.is_some_and(|b| !b.is_whitespace()) && (c != '_' || !word(after));
                // `***` closing `*` then `**`: close the innermost marker of this character first.
                let (marker, width) = match stack.last().map(|o| o.marker) {
                    Some("*") if c == '*' && can_close => ("*", 1),
                    _ => (marker, width),
                };
                if can_close && let Some(pos) = stack.iter().rposition(|o| o.marker == marker) {
                    {
                        // Markers opened after this one are not closed: they stay literal.
                        while stack.len() > pos + 1 {
                            let o = stack.pop().expect("open marker");
                            unclosed(&o, base, errors);
                            let mut merged = o.before;
                            merged.push(Inline::Text(o.marker.to_owned()));
                            flush(&mut text, &mut out);
                            merged.append(&mut out);
                            out = merged;
                        }
                        flush(&mut text, &mut out);
                        let o = stack.pop().expect("open marker");
                        let inner = std::mem::replace(&mut out, o.before);
                        out.push(if marker == "**" {
                            Inline::Strong(inner)
                        } else {
                            Inline::Emph(inner)
                        });
                        i += width;
                        continue;
                    }
                }
                // Opening: followed by a non-space, and `_` not inside a word.
                let can_open = after.is_some_and(|a| !a.is_whitespace()) && (c != '_' || !word(before));
                if can_open {
                    flush(&mut text, &mut out);
                    stack.push(Open {
                        marker,
                        at,
                        before: std::mem::take(&mut out),
                    });
                    i += width;
                    continue;
                }
                text.push_str(marker);
                i += width;
                continue;
            }
            _ => {}
        }
        text.push(c);
        i += 1;
    }
    flush(&mut text, &mut out);
    // Whatever is still open was never closed: report it, keep it as text.
    while let Some(o) = stack.pop() {
        unclosed(&o, base, errors);
        let mut merged = o.before;
        merged.push(Inline::Text(o.marker.to_owned()));
        merged.append(&mut out);
        out = merged;
    }
    merge_text(out)
}

fn unclosed(o: &Open, base: usize, errors: &mut Vec<MarkupError>) {
    let what = if o.marker == "**" { "bold" } else { "italic" };
    errors.push(MarkupError {
        offset: base + o.at,
        len: o.marker.len(),
        message: format!("`{}` opens {what} text that is never closed", o.marker),
    });
}

/// Joins neighbouring text runs.
fn merge_text(items: Vec<Inline>) -> Vec<Inline> {
    let mut out: Vec<Inline> = Vec::new();
    for item in items {
        match (out.last_mut(), item) {
            (Some(Inline::Text(a)), Inline::Text(b)) => a.push_str(&b),
            (_, Inline::Strong(v)) => out.push(Inline::Strong(merge_text(v))),
            (_, Inline::Emph(v)) => out.push(Inline::Emph(merge_text(v))),
            (_, other) => out.push(other),
        }
    }
    out
}

/// The icons a text names, with the byte offset of each `:name:`.
pub fn icons(text: &str) -> Vec<(usize, String)> {
    let (doc, _) = parse(text);
    let mut names = Vec::new();
    doc.visit(&mut |i| {
        if let Inline::Icon(n) = i {
            names.push(n.clone());
        }
    });
    // Offsets: find each `:name:` in order.
    let mut out = Vec::new();
    let mut from = 0;
    for n in names {
        let pat = format!(":{n}:");
        if let Some(p) = text[from..].find(&pat) {
            out.push((from + p, n));
            from += p + pat.len();
        }
    }
    out
}

impl Doc {
    fn visit(&self, f: &mut impl FnMut(&Inline)) {
        fn walk(items: &[Inline], f: &mut impl FnMut(&Inline)) {
            for i in items {
                f(i);
                if let Inline::Strong(v) | Inline::Emph(v) = i {
                    walk(v, f);
                }
            }
        }
        for b in &self.blocks {
            match b {
                Block::Para(lines) => lines.iter().for_each(|l| walk(l, f)),
                Block::Bullets(items) | Block::Numbered(_, items) => {
                    items.iter().flatten().for_each(|l| walk(l, f));
                }
            }
        }
    }

    /// Typst markup that shows this text: evaluated by `rich` in the
    /// layouts, with `icon` in scope. Every character that typst markup
    /// would read as syntax is escaped.
    pub fn to_typst(&self) -> String {
        let mut out = String::new();
        for (n, b) in self.blocks.iter().enumerate() {
            if n > 0 {
                out.push_str("#parbreak()");
            }
            match b {
                Block::Para(lines) => typst_lines(lines, &mut out),
                Block::Bullets(items) => {
                    out.push_str("#list(tight: true");
                    for item in items {
                        out.push_str(", [");
                        typst_lines(item, &mut out);
                        out.push(']');
                    }
                    out.push(')');
                }
                Block::Numbered(start, items) => {
                    let _ = write!(out, "#enum(tight: true, start: {start}");
                    for item in items {
                        out.push_str(", [");
                        typst_lines(item, &mut out);
                        out.push(']');
                    }
                    out.push(')');
                }
            }
        }
        out
    }

    /// HTML (escaped) for the gallery.
    pub fn to_html(&self) -> String {
        let mut out = String::new();
        for b in &self.blocks {
            match b {
                Block::Para(lines) => {
                    out.push_str("<p>");
                    html_lines(lines, &mut out);
                    out.push_str("</p>");
                }
                Block::Bullets(items) => {
                    out.push_str("<ul>");
                    for item in items {
                        out.push_str("<li>");
                        html_lines(item, &mut out);
                        out.push_str("</li>");
                    }
                    out.push_str("</ul>");
                }
                Block::Numbered(start, items) => {
                    let _ = write!(out, "<ol start=\"{start}\">");
                    for item in items {
                        out.push_str("<li>");
                        html_lines(item, &mut out);
                        out.push_str("</li>");
                    }
                    out.push_str("</ol>");
                }
            }
        }
        out
    }

    /// The text without markup: lines joined by newlines, list items as lines.
    pub fn to_plain(&self) -> String {
        let mut out = String::new();
        for (n, b) in self.blocks.iter().enumerate() {
            if n > 0 {
                out.push_str("\n\n");
            }
            match b {
                Block::Para(lines) => plain_lines(lines, &mut out),
                Block::Bullets(items) => {
                    for (k, item) in items.iter().enumerate() {
                        if k > 0 {
                            out.push('\n');
                        }
                        out.push_str("• ");
                        plain_lines(item, &mut out);
                    }
                }
                Block::Numbered(start, items) => {
                    for (k, item) in items.iter().enumerate() {
                        if k > 0 {
                            out.push('\n');
                        }
                        let _ = write!(out, "{}. ", *start as usize + k);
                        plain_lines(item, &mut out);
                    }
                }
            }
        }
        out
    }
}

fn typst_lines(lines: &[Vec<Inline>], out: &mut String) {
    for (n, l) in lines.iter().enumerate() {
        if n > 0 {
            out.push_str("#linebreak()");
        }
        typst_inline(l, n == 0, out);
    }
}

/// `at_start`: the first item begins a block (the text, a list item, a bold run).
fn typst_inline(items: &[Inline], at_start: bool, out: &mut String) {
    for (k, i) in items.iter().enumerate() {
        let first = at_start && k == 0;
        match i {
            Inline::Text(t) => typst_text(t, first, out),
            Inline::Strong(v) => {
                out.push_str("#strong[");
                typst_inline(v, true, out);
                out.push(']');
            }
            Inline::Emph(v) => {
                out.push_str("#emph[");
                typst_inline(v, true, out);
                out.push(']');
            }
            Inline::Icon(n) => {
                let _ = write!(out, "#icon(\"{n}\")");
            }
        }
    }
}

/// Escapes what typst markup would read as syntax, and nothing else, so a
/// text without markup reads the same raw or evaluated: `\ * _ ` $ # @ < [ ] ~`
/// always, `//` and `/*` (comments), `--` and `-?` (dashes, soft hyphen), and
/// at the start of a block `- `, `+ `, `= ` (list, enum, heading) and a
/// leading digit (`2. ` would number a list). Quotes stay: typst makes them
/// typographic.
fn typst_text(t: &str, at_start: bool, out: &mut String) {
    let chars: Vec<char> = t.chars().collect();
    for (k, &c) in chars.iter().enumerate() {
        let next = chars.get(k + 1).copied();
        let first = at_start && k == 0;
        if first && c.is_ascii_digit() {
            out.push_str("#[]");
        }
        let escape = match c {
            '\\' | '*' | '_' | '`' | '$' | '#' | '@' | '<' | '[' | ']' | '~' => true,
            '/' => matches!(next, Some('/' | '*')),
            '-' => matches!(next, Some('-' | '?')) || (first && next.is_none_or(char::is_whitespace)),
            '+' | '=' => first && next.is_none_or(char::is_whitespace),
            _ => false,
        };
        if escape {
            out.push('\\');
        }
        out.push(c);
    }
}

fn html_lines(lines: &[Vec<Inline>], out: &mut String) {
    for (n, l) in lines.iter().enumerate() {
        if n > 0 {
            out.push_str("<br>");
        }
        html_inline(l, out);
    }
}

fn html_inline(items: &[Inline], out: &mut String) {
    for i in items {
        match i {
            Inline::Text(t) => out.push_str(&html_escape(t)),
            Inline::Strong(v) => {
                out.push_str("<strong>");
                html_inline(v, out);
                out.push_str("</strong>");
            }
            Inline::Emph(v) => {
                out.push_str("<em>");
                html_inline(v, out);
                out.push_str("</em>");
            }
            Inline::Icon(n) => {
                let _ = write!(
                    out,
                    "<span class=\"icon icon-{}\" data-icon=\"{}\"></span>",
                    html_escape(n),
                    html_escape(n)
                );
            }
        }
    }
}

pub fn html_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

fn plain_lines(lines: &[Vec<Inline>], out: &mut String) {
    for (n, l) in lines.iter().enumerate() {
        if n > 0 {
            out.push('\n');
        }
        plain_inline(l, out);
    }
}

fn plain_inline(items: &[Inline], out: &mut String) {
    for i in items {
        match i {
            Inline::Text(t) => out.push_str(t),
            Inline::Strong(v) | Inline::Emph(v) => plain_inline(v, out),
            Inline::Icon(n) => {
                let _ = write!(out, ":{n}:");
            }
        }
    }
}

/// Which output a view wants for its texts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextOut {
    /// Typst markup, for the `rich` helper of the layouts.
    Typst,
    /// HTML, for the gallery.
    Html,
}

/// A text with its markup rendered for `out`.
pub fn render(text: &str, out: TextOut) -> String {
    let doc = parse(text).0;
    match out {
        TextOut::Typst => doc.to_typst(),
        TextOut::Html => doc.to_html(),
    }
}

/// Typst markup of a text (its markup parsed, the rest escaped).
pub fn typst(text: &str) -> String {
    parse(text).0.to_typst()
}

/// HTML of a text.
pub fn html(text: &str) -> String {
    parse(text).0.to_html()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> String {
        typst(s)
    }

    #[test]
    fn bold_italic_and_icons() {
        assert_eq!(t("a **b** c"), "a #strong[b] c");
        assert_eq!(t("*x* and _y_"), "#emph[x] and #emph[y]");
        assert_eq!(t("pay :gold: now"), "pay #icon(\"gold\") now");
        assert_eq!(t("***x***"), "#strong[#emph[x]]");
    }

    #[test]
    fn ordinary_text_is_left_alone() {
        // Spaces around `*`, `_` inside a word, a time, a colon.
        assert_eq!(parse("3 * 4 = 12").1, vec![]);
        assert_eq!(t("snake_case_id"), "snake\\_case\\_id");
        assert_eq!(parse("at 10:30: go").0.to_plain(), "at 10:30: go");
        assert_eq!(parse("Coste: 2").0.to_plain(), "Coste: 2");
        assert_eq!(t("http://x"), "http:\\//x");
        assert_eq!(
            t("+1 -2 #3 $4 @5 <6> [7] ~8 =9 a--b"),
            "+1 -2 \\#3 \\$4 \\@5 \\<6> \\[7\\] \\~8 =9 a\\--b"
        );
        assert_eq!(t("= x"), "\\= x");
        assert_eq!(t("Cañón-láser"), "Cañón-láser");
        assert_eq!(
            t("2. not a list inside"),
            "#enum(tight: true, start: 2, [not a list inside])"
        );
        assert_eq!(t("2.5 cm"), "#[]2.5 cm");
    }

    #[test]
    fn lists_paragraphs_and_line_breaks() {
        let d = parse("Intro\n\n- one\n- **two**\n\n1. a\n2) b\nline\nnext").0;
        assert_eq!(d.blocks.len(), 4);
        assert_eq!(
            d.to_typst(),
            "Intro#parbreak()#list(tight: true, [one], [#strong[two]])#parbreak()#enum(tight: true, start: 1, [a], [b])#parbreak()line#linebreak()next"
        );
        assert_eq!(d.to_plain(), "Intro\n\n• one\n• two\n\n1. a\n2. b\n\nline\nnext");
        assert_eq!(
            d.to_html(),
            "<p>Intro</p><ul><li>one</li><li><strong>two</strong></li></ul><ol start=\"1\"><li>a</li><li>b</li></ol><p>line<br>next</p>"
        );
    }

    #[test]
    fn unclosed_markers_are_errors_at_their_offset() {
        let (d, e) = parse("a **b c");
        assert_eq!(e.len(), 1);
        assert_eq!((e[0].offset, e[0].len), (2, 2));
        assert_eq!(d.to_plain(), "a **b c");
        let (_, e) = parse("line\n- x *y");
        assert_eq!(e[0].offset, 9);
        // An escaped marker is text.
        assert_eq!(parse("\\*\\*not bold").1, vec![]);
        assert_eq!(parse("\\*\\*not bold").0.to_plain(), "**not bold");
    }

    #[test]
    fn icon_offsets() {
        assert_eq!(icons("a :x: b :y-2:"), vec![(2, "x".into()), (8, "y-2".into())]);
    }
}
