//! A fast reader for the plain YAML that people and pnpkit write game logs
//! in: block mappings and sequences, flow mappings and sequences (over
//! several lines too), plain and quoted one-line scalars, comments. It
//! builds the same spanned tree as [`super::yaml::parse`], at a fraction of
//! its cost, and gives up (`None`) on everything else (anchors, aliases,
//! tags, block scalars, multi-line plain scalars, tabs, CR line ends, any
//! scalar whose type it is not sure of, duplicate keys, a budget reached),
//! so the caller parses the text again with the full parser, which also
//! reports every error. A differential test holds the two to the same trees.

use super::yaml::{Limits, Node, Value};
use crate::diag::{FileId, Span};

/// The text's tree, or `None` when the text is outside the plain subset.
pub fn parse(text: &str, file: FileId, limits: &Limits) -> Option<Node> {
    let mut p = Reader {
        b: text.as_bytes(),
        pos: 0,
        file,
        nodes: 0,
        limits,
        cursor: (0, 1, 1, 0),
        root: 0,
        flow_min: None,
    };
    let marker = |m: &str| text.starts_with(m) || text.contains(&format!("\n{m}"));
    if text.starts_with('\u{feff}') || text.bytes().any(|c| c == b'\t' || c == b'\r') || marker("---") || marker("...")
    {
        return None;
    }
    p.skip_lines();
    if p.pos >= p.b.len() {
        return Some(Node {
            value: Value::Null,
            span: super::yaml::span_of_offset(text, file, 0, 0),
        });
    }
    p.skip_spaces();
    let indent = p.column_of(p.pos);
    p.root = p.pos;
    let node = p.block(indent, 0)?;
    p.skip_lines();
    (p.pos >= p.b.len()).then_some(node)
}

struct Reader<'a> {
    b: &'a [u8],
    pos: usize,
    file: FileId,
    nodes: usize,
    limits: &'a Limits,
    /// Last located offset: (offset, line, column, start of its line).
    cursor: (usize, u32, u32, usize),
    /// Where the document's root node starts.
    root: usize,
    /// Inside a flow collection: the smallest column its lines may go on at.
    flow_min: Option<usize>,
}

impl Reader<'_> {
    fn at(&self, i: usize) -> u8 {
        self.b.get(i).copied().unwrap_or(b'\n')
    }

    fn peek(&self) -> u8 {
        self.at(self.pos)
    }

    /// Line and 1-based column (in characters) of a byte offset.
    fn locate(&mut self, at: usize) -> (u32, u32) {
        let (mut off, mut line, mut col, mut start) = self.cursor;
        if at < off {
            // Back to the start of the cursor's line, or of the text.
            if at >= start {
                off = start;
                col = 1;
            } else {
                (off, line, col, start) = (0, 1, 1, 0);
            }
        }
        for (i, &c) in self.b[off..at].iter().enumerate() {
            if c == b'\n' {
                line += 1;
                col = 1;
                start = off + i + 1;
            } else if c & 0xC0 != 0x80 {
                col += 1;
            }
        }
        self.cursor = (at, line, col, start);
        (line, col)
    }

    fn column_of(&mut self, at: usize) -> usize {
        self.locate(at).1 as usize - 1
    }

    fn span(&mut self, start: usize, end: usize) -> Span {
        let (line, column) = self.locate(start);
        Span {
            file: self.file,
            line,
            column,
            start,
            end,
        }
    }

    fn node(&mut self, value: Value, start: usize, end: usize) -> Option<Node> {
        let span = self.span(start, end);
        self.node_at(value, span)
    }

    /// A node whose span was located before its contents were read (a
    /// collection: locating is cheap only forwards).
    fn node_at(&mut self, value: Value, span: Span) -> Option<Node> {
        self.nodes += 1;
        if self.nodes > self.limits.max_nodes / 2 {
            return None;
        }
        Some(Node { value, span })
    }

    fn skip_spaces(&mut self) {
        while self.peek() == b' ' && self.pos < self.b.len() {
            self.pos += 1;
        }
    }

    /// Past the end of the line when only spaces and a comment remain on it.
    fn end_of_line(&mut self) -> Option<()> {
        let before = self.pos;
        self.skip_spaces();
        if self.pos >= self.b.len() {
            return Some(());
        }
        match self.peek() {
            b'\n' => {
                self.pos += 1;
                Some(())
            }
            b'#' if self.pos > before || self.pos == 0 || matches!(self.at(self.pos - 1), b' ' | b'\n') => {
                while self.pos < self.b.len() && self.peek() != b'\n' {
                    self.pos += 1;
                }
                self.pos = (self.pos + 1).min(self.b.len());
                Some(())
            }
            _ => None,
        }
    }

    /// Skips blank and comment lines; stops at the start of a line with content.
    fn skip_lines(&mut self) {
        loop {
            let line = self.pos;
            self.skip_spaces();
            if self.pos >= self.b.len() {
                return;
            }
            match self.peek() {
                b'\n' => self.pos += 1,
                b'#' => {
                    while self.pos < self.b.len() && self.peek() != b'\n' {
                        self.pos += 1;
                    }
                }
                _ => {
                    self.pos = line;
                    return;
                }
            }
        }
    }

    /// The indentation of the next line with content (the reader stays at its start).
    fn next_indent(&mut self) -> Option<usize> {
        self.skip_lines();
        if self.pos >= self.b.len() {
            return None;
        }
        let mut i = self.pos;
        while self.at(i) == b' ' {
            i += 1;
        }
        Some(i - self.pos)
    }

    fn is_dash(&self, i: usize) -> bool {
        self.at(i) == b'-' && matches!(self.at(i + 1), b' ' | b'\n')
    }

    /// A block node starting at the reader (at its first character, column `indent`).
    fn block(&mut self, indent: usize, depth: usize) -> Option<Node> {
        if depth + 2 > self.limits.max_depth {
            return None;
        }
        if self.is_dash(self.pos) {
            let start = self.pos;
            return self.sequence(start, depth);
        }
        match self.peek() {
            b'{' | b'[' => {
                let n = self.flow(depth)?;
                self.end_of_line()?;
                Some(n)
            }
            _ => {
                let start = self.pos;
                let (key, _) = self.scalar(false)?;
                self.skip_spaces();
                if self.peek() == b':' && matches!(self.at(self.pos + 1), b' ' | b'\n') {
                    self.mapping(indent, start, key, depth)
                } else {
                    self.end_of_line()?;
                    Some(key)
                }
            }
        }
    }

    /// A block mapping at column `indent`; its first key is read.
    fn mapping(&mut self, indent: usize, span_start: usize, first: Node, depth: usize) -> Option<Node> {
        // A block mapping's span is empty, where its first key starts.
        let span = Span {
            end: span_start,
            ..first.span
        };
        let mut entries: Vec<(Node, Node)> = Vec::new();
        let mut key = first;
        loop {
            if entries.iter().any(|(k, _)| same_key(k, &key)) {
                return None;
            }
            // At the colon.
            let colon = self.pos;
            self.pos += 1;
            self.skip_spaces();
            let value = if matches!(self.peek(), b'\n' | b'#') || self.pos >= self.b.len() {
                self.end_of_line()?;
                match self.next_indent() {
                    Some(n) if n > indent => {
                        self.pos += n;
                        self.block(n, depth + 1)?
                    }
                    Some(n) if n == indent && self.is_dash(self.pos + n) => {
                        self.pos += n;
                        // A sequence at the key's own indentation: its span is its first item's.
                        let dash = self.pos;
                        let mut item = dash + 1;
                        while self.at(item) == b' ' {
                            item += 1;
                        }
                        if self.at(item) == b'\n' {
                            return None;
                        }
                        self.sequence(item, depth + 1)?
                    }
                    _ => self.node(Value::Null, colon, colon)?,
                }
            } else {
                let v = self.inline(depth + 1)?;
                self.end_of_line()?;
                v
            };
            entries.push((key, value));
            match self.next_indent() {
                Some(n) if n == indent && !self.is_dash(self.pos + n) => {
                    self.pos += n;
                    let (k, _) = self.scalar(false)?;
                    self.skip_spaces();
                    if !(self.peek() == b':' && matches!(self.at(self.pos + 1), b' ' | b'\n')) {
                        return None;
                    }
                    key = k;
                }
                Some(n) if n > indent => return None,
                _ => break,
            }
        }
        self.node_at(Value::Map(entries), span)
    }

    /// A value on the rest of a line: a flow collection or a scalar.
    fn inline(&mut self, depth: usize) -> Option<Node> {
        match self.peek() {
            b'{' | b'[' => self.flow(depth),
            _ if self.is_dash(self.pos) => None,
            _ => {
                let (n, _) = self.scalar(false)?;
                Some(n)
            }
        }
    }

    /// A block sequence whose dashes are at column `indent`; its span starts at `span_at`.
    fn sequence(&mut self, span_at: usize, depth: usize) -> Option<Node> {
        let dash_col = self.column_of(self.pos);
        let span = self.span(span_at, span_at);
        let mut items = Vec::new();
        loop {
            // At a dash.
            self.pos += 1;
            self.skip_spaces();
            if matches!(self.peek(), b'\n' | b'#') {
                return None;
            }
            let col = self.column_of(self.pos);
            let item = self.block(col, depth + 1)?;
            items.push(item);
            match self.next_indent() {
                Some(n) if n == dash_col && self.is_dash(self.pos + n) => self.pos += n,
                Some(n) if n > dash_col => return None,
                _ => break,
            }
        }
        self.node_at(Value::Seq(items), span)
    }

    /// Skips spaces, line breaks and comments inside a flow collection; `None`
    /// when a line goes on left of where the collection's lines may.
    fn flow_space(&mut self) -> Option<()> {
        loop {
            let before = self.pos;
            let mut line_start = None;
            while matches!(self.peek(), b' ' | b'\n') && self.pos < self.b.len() {
                if self.peek() == b'\n' {
                    line_start = Some(self.pos + 1);
                }
                self.pos += 1;
            }
            if let (Some(ls), Some(min)) = (line_start, self.flow_min)
                && self.pos < self.b.len()
                && self.pos - ls < min
            {
                return None;
            }
            if self.peek() == b'#'
                && self.pos < self.b.len()
                && (self.pos > before || matches!(self.at(self.pos.wrapping_sub(1)), b' ' | b'\n'))
            {
                while self.pos < self.b.len() && self.peek() != b'\n' {
                    self.pos += 1;
                }
                continue;
            }
            return Some(());
        }
    }

    /// A flow mapping or sequence at the reader.
    fn flow(&mut self, depth: usize) -> Option<Node> {
        if depth + 2 > self.limits.max_depth {
            return None;
        }
        let start = self.pos;
        let outermost = self.flow_min.is_none();
        if outermost {
            // The lines of a collection in a block go on right of the block's line.
            self.locate(start);
            let line_start = self.cursor.3;
            let indent = self.b[line_start..].iter().take_while(|c| **c == b' ').count();
            self.flow_min = Some(if start == self.root { 0 } else { indent + 1 });
        }
        let n = self.flow_inner(depth, start);
        if outermost {
            self.flow_min = None;
        }
        n
    }

    fn flow_inner(&mut self, depth: usize, start: usize) -> Option<Node> {
        let span = self.span(start, start + 1);
        let open = self.peek();
        self.pos += 1;
        self.flow_space()?;
        if open == b'[' {
            let mut items = Vec::new();
            while self.peek() != b']' {
                let item = self.flow_node(depth + 1)?;
                self.flow_space()?;
                if self.peek() == b':' {
                    return None;
                }
                items.push(item);
                match self.peek() {
                    b',' => {
                        self.pos += 1;
                        self.flow_space()?;
                    }
                    b']' => {}
                    _ => return None,
                }
            }
            self.pos += 1;
            return self.node_at(Value::Seq(items), span);
        }
        let mut entries: Vec<(Node, Node)> = Vec::new();
        while self.peek() != b'}' {
            if self.pos >= self.b.len() {
                return None;
            }
            let quoted = matches!(self.peek(), b'"' | b'\'');
            let key = match self.peek() {
                b'{' | b'[' => return None,
                _ => self.scalar(true)?.0,
            };
            self.flow_space()?;
            if self.peek() != b':' {
                return None;
            }
            // A plain key's colon is followed by a space; a quoted key's may not be.
            if !quoted && !matches!(self.at(self.pos + 1), b' ' | b'\n') {
                return None;
            }
            self.pos += 1;
            self.flow_space()?;
            if matches!(self.peek(), b',' | b'}') {
                return None;
            }
            let value = self.flow_node(depth + 1)?;
            if entries.iter().any(|(k, _)| same_key(k, &key)) {
                return None;
            }
            entries.push((key, value));
            self.flow_space()?;
            match self.peek() {
                b',' => {
                    self.pos += 1;
                    self.flow_space()?;
                }
                b'}' => {}
                _ => return None,
            }
        }
        self.pos += 1;
        self.node_at(Value::Map(entries), span)
    }

    fn flow_node(&mut self, depth: usize) -> Option<Node> {
        match self.peek() {
            b'{' | b'[' => self.flow(depth),
            _ => Some(self.scalar(true)?.0),
        }
    }

    /// A one-line scalar at the reader; `flow`: inside a flow collection.
    /// Returns the node and where its text ends.
    fn scalar(&mut self, flow: bool) -> Option<(Node, usize)> {
        let start = self.pos;
        match self.peek() {
            b'"' => {
                let s = self.double_quoted()?;
                let end = self.pos;
                Some((self.node(Value::Str(s), start, end)?, end))
            }
            b'\'' => {
                let s = self.single_quoted()?;
                let end = self.pos;
                Some((self.node(Value::Str(s), start, end)?, end))
            }
            // A plain scalar may start with `-` when a character that can
            // go on a plain scalar follows (`-3`): not a space, nor in flow
            // context a flow indicator (`{a: -}` is not YAML).
            c if is_indicator(c)
                && (c != b'-' || {
                    let next = self.at(self.pos + 1);
                    matches!(next, b' ' | b'\n' | b'\t' | b'\r') || (flow && is_flow(next))
                }) =>
            {
                None
            }
            _ => {
                let mut end = self.pos;
                let mut i = self.pos;
                loop {
                    let c = self.at(i);
                    if i >= self.b.len() || c == b'\n' {
                        break;
                    }
                    if c == b':' && (matches!(self.at(i + 1), b' ' | b'\n') || (flow && is_flow(self.at(i + 1)))) {
                        break;
                    }
                    if c == b'#' && self.at(i.wrapping_sub(1)) == b' ' {
                        break;
                    }
                    if flow && is_flow(c) {
                        break;
                    }
                    i += 1;
                    if c != b' ' {
                        end = i;
                    }
                }
                if end == start {
                    return None;
                }
                // A plain scalar in a flow collection may go on on the next line: not handled.
                if flow && self.at(i) == b'\n' {
                    let mut j = i;
                    while matches!(self.at(j), b' ' | b'\n') && j < self.b.len() {
                        j += 1;
                    }
                    if !matches!(self.at(j), b',' | b']' | b'}' | b'#' | b':') {
                        return None;
                    }
                }
                self.pos = end;
                let text = std::str::from_utf8(&self.b[start..end]).ok()?;
                let value = resolve(text)?;
                Some((self.node(value, start, end)?, end))
            }
        }
    }

    fn double_quoted(&mut self) -> Option<String> {
        let mut out = String::new();
        let mut i = self.pos + 1;
        let mut run = i;
        loop {
            match self.at(i) {
                _ if i >= self.b.len() => return None,
                b'\n' => return None,
                b'"' => break,
                b'\\' => {
                    out.push_str(std::str::from_utf8(&self.b[run..i]).ok()?);
                    let (c, len) = match self.at(i + 1) {
                        b'"' => ('"', 2),
                        b'\\' => ('\\', 2),
                        b'/' => ('/', 2),
                        b'n' => ('\n', 2),
                        b't' => ('\t', 2),
                        b'r' => ('\r', 2),
                        b'u' => {
                            let hex = std::str::from_utf8(self.b.get(i + 2..i + 6)?).ok()?;
                            (char::from_u32(u32::from_str_radix(hex, 16).ok()?)?, 6)
                        }
                        _ => return None,
                    };
                    out.push(c);
                    i += len;
                    run = i;
                }
                _ => i += 1,
            }
        }
        out.push_str(std::str::from_utf8(&self.b[run..i]).ok()?);
        self.pos = i + 1;
        Some(out)
    }

    fn single_quoted(&mut self) -> Option<String> {
        let mut out = String::new();
        let mut i = self.pos + 1;
        let mut run = i;
        loop {
            match self.at(i) {
                _ if i >= self.b.len() => return None,
                b'\n' => return None,
                b'\'' if self.at(i + 1) == b'\'' => {
                    out.push_str(std::str::from_utf8(&self.b[run..=i]).ok()?);
                    i += 2;
                    run = i;
                }
                b'\'' => break,
                _ => i += 1,
            }
        }
        out.push_str(std::str::from_utf8(&self.b[run..i]).ok()?);
        self.pos = i + 1;
        Some(out)
    }
}

/// Keys the full parser may take for the same key (`1` and `"1"`): the
/// reader gives up on them rather than guess.
fn same_key(a: &Node, b: &Node) -> bool {
    match (&a.value, &b.value) {
        (Value::Str(x), Value::Str(y)) => x == y,
        (x, y) => key_text(x) == key_text(y),
    }
}

fn key_text(v: &Value) -> std::borrow::Cow<'_, str> {
    match v {
        Value::Str(s) => s.as_str().into(),
        Value::Int(i) => i.to_string().into(),
        Value::Bool(b) => b.to_string().into(),
        Value::Null => "null".into(),
        _ => "".into(),
    }
}

fn is_flow(c: u8) -> bool {
    matches!(c, b',' | b'[' | b']' | b'{' | b'}')
}

fn is_indicator(c: u8) -> bool {
    matches!(
        c,
        b'-' | b'?'
            | b':'
            | b','
            | b'['
            | b']'
            | b'{'
            | b'}'
            | b'#'
            | b'&'
            | b'*'
            | b'!'
            | b'|'
            | b'>'
            | b'\''
            | b'"'
            | b'%'
            | b'@'
            | b'`'
    )
}

/// A plain scalar's value, when it is surely a string, an integer, `null`
/// or a boolean as the full parser reads it; `None` for anything else.
fn resolve(s: &str) -> Option<Value> {
    match s {
        "null" | "~" => return Some(Value::Null),
        "true" => return Some(Value::Bool(true)),
        "false" => return Some(Value::Bool(false)),
        _ => {}
    }
    // `True`, `NULL`: read by some YAML parsers as booleans and nulls.
    if ["null", "true", "false"].iter().any(|w| s.eq_ignore_ascii_case(w)) {
        return None;
    }
    let first = s.as_bytes()[0];
    let digits = s.strip_prefix('-').unwrap_or(s);
    if first.is_ascii_digit()
        || first == b'.'
        || first == b'+'
        || (first == b'-' && digits.starts_with(|c: char| c.is_ascii_digit() || c == '.'))
    {
        let plain_int = !digits.is_empty()
            && digits.bytes().all(|c| c.is_ascii_digit())
            && (digits == "0" || !digits.starts_with('0'))
            && !(first == b'-' && digits == "0");
        return if plain_int {
            s.parse().ok().map(Value::Int)
        } else {
            None
        };
    }
    Some(Value::Str(s.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pack::yaml;

    fn limits() -> Limits {
        Limits::default()
    }

    /// The fast reader agrees with the full parser whenever it answers;
    /// returns whether it answered.
    fn agrees(text: &str) -> bool {
        match parse(text, FileId(0), &limits()) {
            Some(fast) => {
                let full = yaml::parse(text, FileId(0), &limits()).unwrap_or_else(|d| {
                    let _ = std::fs::write("/tmp/plain-yaml-refused.yaml", text);
                    panic!(
                        "the fast reader accepted what the parser refuses ({} at {:?}):\n{text}",
                        d.message, d.span
                    )
                });
                assert_eq!(fast, full, "trees differ for:\n{text}");
                true
            }
            None => false,
        }
    }

    fn yaml_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        let Ok(rd) = std::fs::read_dir(dir) else { return };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                yaml_files(&p, out);
            } else if p.extension().is_some_and(|x| x == "yaml") {
                out.push(p);
            }
        }
    }

    #[test]
    fn plain_constructs_read_as_the_parser_reads_them() {
        let cases = [
            "# c\ngame: unmatched   # x\nn: -12\ne:\nf: ~\nq: \"a\\\"b é\"\ns: 'it''s'\n",
            "players:\n  - name: Ana\n    deck: {a: 3, b: [x, \"y\"],\n           c: 1}\n  - {name: Ben}\n",
            "turns:\n- player: Ana\n  actions:\n    - {do: maneuver, draw: royal-parry}\n    - do: defend\n      damage: 0\n      e: [{card: x, draw: [q]}]\n  expect: {life: {Ana: 10}}\nempty: []\nem: {}\n",
            "a:\n- {x: 1}\n- y\nb:\n- z\nc:   # com\n  d: 1\ng:    \nh: [1,\n  # inner comment\n  2]\ni:\n  - - 1\n    - 2\nj: \"é\" # x\nl: [a b, c]\n",
            "{\"game\": \"x\", \"turns\": [{\"player\":\"Ana\",\"actions\":[{\"do\":\"move\",\"to\":[1,2]}]}]}\n",
            "k: v\n",
            "",
            "# only a comment\n",
            "- 1\n- -2\n- 0\n- x y z\n- 'q'\n",
            "a: {b: \"\\u00e9\\n\"}\n",
            "a:\n  b:\n    c: [ ]\n  d: e\n",
            "x: 1 # c\n\n\n  # indented comment\ny: 2\n",
            "a: yes\nn: no\ny: 3\n",
            "{\n\"a\": [1,\n2]\n}\n",
        ];
        for text in cases {
            if !agrees(text) {
                // Which prefix of lines is the first the reader gives up on.
                let lines: Vec<&str> = text.split_inclusive('\n').collect();
                let first = (1..=lines.len()).find(|n| !agrees(&lines[..*n].concat()));
                panic!("the fast reader gave up on:\n{text}\nfirst at line {first:?}");
            }
        }
    }

    #[test]
    fn anything_unusual_goes_to_the_full_parser() {
        let cases = [
            "a: &x 1\nb: *x\n",
            "a: !tag 1\n",
            "a: |\n  text\n",
            "a: long\n  text\n",
            "a: 1\na: 2\n",
            "{a: 1, a: 2}\n",
            "a: 1.5\n",
            "a: 012\n",
            "a: True\n",
            "a: 0x1f\n",
            "---\na: 1\n",
            "a:\tb\n",
            "a: 1\r\n",
            "a: [b\n  c]\n",
            "? a\n: b\n",
            "a: {b}\n",
            "a: {b: }\n",
            "a: {b: -}\n",
            "a: [-, 1]\n",
            "[a: 1]\n",
            "a: b: c\n",
            "a: \"x\ny\"\n",
            "a: 'unterminated\n",
            "a:\n  - {b: 1,\nc: 2}\n",
            "a: [1,\n2]\n",
        ];
        for text in cases {
            assert!(
                parse(text, FileId(0), &limits()).is_none(),
                "should give up on:\n{text}"
            );
        }
    }

    #[test]
    fn every_log_in_the_repository_reads_the_same_and_fast() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = Vec::new();
        yaml_files(&root.join("tests/fixtures/logs"), &mut files);
        let mut shipped = Vec::new();
        for pack in std::fs::read_dir(root.join("data")).unwrap().flatten() {
            yaml_files(&pack.path().join("logs"), &mut shipped);
        }
        assert!(!shipped.is_empty());
        for f in files.iter().chain(&shipped) {
            let text = std::fs::read_to_string(f).unwrap();
            let fast = agrees(&text);
            // The shipped logs are written as players write them: all in the fast reader's reach.
            if shipped.contains(f) {
                assert!(fast, "the fast reader gave up on {}", f.display());
            }
        }
    }

    /// Packs are read with the fast reader first too (`pack::parse_yaml`):
    /// every YAML file of the repository — packs, fixtures (invalid ones
    /// included), the scaffold — reads as the parser reads it, or is left to
    /// it; and so does each after random edits.
    #[test]
    fn every_yaml_file_of_the_repository_reads_the_same_or_is_left_to_the_parser() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = Vec::new();
        for dir in ["data", "tests/fixtures", "templates/scaffold"] {
            yaml_files(&root.join(dir), &mut files);
        }
        assert!(files.len() > 300, "{} files", files.len());
        let mut fast = 0;
        let mut rng = fastrand::Rng::with_seed(29);
        let pieces = [
            ": ", "- ", "\n", "  ", "#", "{", "[", "\"", "'", "|", ">", "&a", "*a", "!", "%", "~", "é", "0x1",
        ];
        for f in &files {
            let Ok(text) = std::fs::read_to_string(f) else { continue };
            fast += usize::from(agrees(&text));
            for _ in 0..20 {
                let mut t = text.clone();
                let mut at = rng.usize(0..=t.len());
                while !t.is_char_boundary(at) {
                    at -= 1;
                }
                t.insert_str(at, pieces[rng.usize(0..pieces.len())]);
                agrees(&t);
            }
        }
        // Most pack files are plain YAML: the fast reader is what reads them.
        assert!(fast * 10 > files.len() * 8, "only {fast} of {} read fast", files.len());
    }

    #[test]
    fn mutated_logs_are_read_the_same_or_left_to_the_parser() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = Vec::new();
        for pack in std::fs::read_dir(root.join("data")).unwrap().flatten() {
            yaml_files(&pack.path().join("logs"), &mut files);
        }
        let pieces = [
            ":", "-", " ", "\n", "#", "{", "}", "[", "]", ",", "\"", "'", "a", "1", "- ", ": ", "  ", "é", "~", "0",
        ];
        let mut rng = fastrand::Rng::with_seed(16);
        let mut accepted = 0;
        for f in &files {
            let text = std::fs::read_to_string(f).unwrap();
            for _ in 0..400 {
                let mut t = text.clone();
                for _ in 0..rng.usize(1..4) {
                    let mut at = rng.usize(0..=t.len());
                    while !t.is_char_boundary(at) {
                        at -= 1;
                    }
                    match rng.u8(0..3) {
                        0 => t.insert_str(at, pieces[rng.usize(0..pieces.len())]),
                        1 => {
                            let mut end = (at + rng.usize(1..4)).min(t.len());
                            while !t.is_char_boundary(end) {
                                end += 1;
                            }
                            t.replace_range(at..end, "");
                        }
                        _ => {
                            let mut end = (at + 1).min(t.len());
                            while !t.is_char_boundary(end) {
                                end += 1;
                            }
                            t.replace_range(at..end, pieces[rng.usize(0..pieces.len())]);
                        }
                    }
                }
                accepted += usize::from(agrees(&t));
            }
        }
        // Most small edits leave a log the fast reader still reads.
        assert!(accepted > files.len() * 100, "only {accepted} mutated logs read fast");
    }

    #[test]
    fn generated_logs_read_the_same_and_fast() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let report = crate::check::check(&root.join("data"), &[], &Limits::default()).unwrap();
        for game in &report.games {
            let Some(Ok(engine)) = crate::rules::engine_for(game) else {
                continue;
            };
            for seed in 1..3 {
                let text = engine.random_log(seed, 2000);
                assert!(agrees(&text), "{}: the fast reader gave up on a generated log", game.id);
            }
        }
    }
}
