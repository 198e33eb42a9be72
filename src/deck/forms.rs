//! The forms of one line of a pasted list, without any knowledge of the
//! game: counts in every common style (`3x Name`, `Name (3)`…), names with
//! their set codes and tags, table cells, list markers, Markdown emphasis,
//! header lines and section titles. [`super::text`] decides what a line is
//! from these forms and the game's names.

/// A horizontal rule or a Markdown table's separator row (`|---|:--:|`), or
/// a row of empty cells (`;;`).
pub fn is_rule(s: &str) -> bool {
    (s.len() >= 3
        && s.contains(['-', '=', '*', '_', '~'])
        && s.chars()
            .all(|c| matches!(c, '-' | '=' | '*' | '_' | '~' | ' ' | '|' | ':' | '+')))
        || (!s.is_empty() && s.chars().all(|c| matches!(c, ';' | ',' | '\t' | ' ' | '|')))
}

pub fn strip_ci<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    let head = s.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix).then(|| &s[prefix.len()..])
}

/// An ordered list's item number at the start of a line: `1. `, `12) `
/// (`punct`), or with `plain` also `1 ` — the number and the rest.
pub fn item_number(s: &str, plain: bool) -> Option<(u32, &str)> {
    let s = s.trim_start();
    let digits = s.len() - s.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 || digits > 4 {
        return None;
    }
    let n: u32 = s[..digits].parse().ok()?;
    let after = &s[digits..];
    let rest = match after.strip_prefix(['.', ')']) {
        Some(r) => r,
        None if plain => after,
        None => return None,
    };
    (rest.starts_with(char::is_whitespace) && !rest.trim().is_empty()).then(|| (n, rest.trim_start()))
}

/// Drops list markers (`- `, `* `, `+ `, `• `, `[ ] `), Markdown emphasis
/// and links (`[Name](url)` → `Name`), and table pipes. An ordered list's
/// number is dropped by the caller, who knows whether the list numbers its
/// items ([`item_number`]).
pub fn strip_markers(line: &str) -> String {
    let mut s = line.trim();
    loop {
        let before = s;
        for m in ["- ", "* ", "+ ", "• ", "· ", "– ", "— ", "[ ] ", "[x] ", "[X] "] {
            if let Some(rest) = s.strip_prefix(m) {
                s = rest.trim_start();
            }
        }
        if s == before {
            break;
        }
    }
    let mut out = String::with_capacity(s.len());
    // Markdown links: keep the text.
    let mut rest = s;
    while let Some(open) = rest.find('[') {
        let after = &rest[open + 1..];
        match after.find("](") {
            Some(close) if !after[..close].contains('[') => {
                let tail = &after[close + 2..];
                match tail.find(')') {
                    Some(end) => {
                        out.push_str(&rest[..open]);
                        out.push_str(&after[..close]);
                        rest = &tail[end + 1..];
                    }
                    None => break,
                }
            }
            _ => break,
        }
    }
    out.push_str(rest);
    // Bold anywhere (`**4x** Name`, `**Hero:** Sinbad`); card names never hold `**`.
    let mut t = out.replace("**", "").trim().to_string();
    if t.starts_with("__") && t.ends_with("__") && t.len() > 4 {
        t = t[2..t.len() - 2].trim().to_string();
    }
    if t.starts_with('|') || t.ends_with('|') {
        t = t.trim_matches('|').replace('|', "\t").trim().to_string();
    }
    t
}

/// `key: value`, `key = value`, `key<TAB>value` or `key;value` (a table row).
pub fn split_header(s: &str) -> Option<(&str, &str)> {
    for sep in [':', '=', '\t', ';', ','] {
        if let Some((k, v)) = s.split_once(sep) {
            let k = k.trim();
            if !k.is_empty() && !k.contains(['\t', ';', ':']) {
                let v = v.trim().trim_end_matches([';', ',', '\t']).trim();
                return Some((k, v));
            }
        }
    }
    None
}

/// A line without its decoration: `Name:`, `[Name]`, `== Name ==`, `**Name**`.
pub fn strip_decoration(s: &str) -> String {
    s.trim_matches(|c: char| {
        matches!(c, '=' | '[' | ']' | '*' | ':' | '_' | '<' | '>' | '~' | '#') || c.is_whitespace()
    })
    .to_string()
}

pub fn is_decorated(s: &str) -> bool {
    let s = s.trim();
    s.ends_with(':')
        || (s.starts_with('[') && s.ends_with(']'))
        || (s.starts_with('=') && s.ends_with('='))
        || (s.starts_with("**") && s.ends_with("**"))
        || (s.starts_with("__") && s.ends_with("__"))
}

/// A section header's title and count: decoration and a count dropped
/// (`Characters (33)`, `God: 1`, `Zonas - 4`).
pub fn section_title(s: &str) -> (String, Option<u32>) {
    let t = strip_decoration(s);
    match trailing_counts(&t).first() {
        Some((n, name)) => (strip_decoration(name), Some(*n)),
        None => (t, None),
    }
}

/// A count as players write it: `3`, `3x`, `x3`, `×3`, `(3)`.
pub fn parse_count(s: &str) -> Option<u32> {
    let t = s
        .trim()
        .trim_matches(|c| c == '(' || c == ')' || c == '[' || c == ']')
        .trim();
    let t = t
        .strip_prefix(['x', 'X', '×'])
        .or_else(|| t.strip_suffix(['x', 'X', '×']))
        .unwrap_or(t)
        .trim();
    if t.is_empty() || t.len() > 9 || !t.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    t.parse().ok()
}

/// `3 Name`, `3x Name`, `3 x Name`, `3× Name`, `3xName`, `x3 Name`, `3. Name`.
pub fn leading_count(s: &str) -> Option<(u32, &str)> {
    let s = s.trim();
    let (digits_from, x_first) = match s.strip_prefix(['x', 'X', '×']) {
        Some(rest) if rest.starts_with(|c: char| c.is_ascii_digit()) => (s.len() - rest.len(), true),
        _ => (0, false),
    };
    let body = &s[digits_from..];
    let digits = body.len() - body.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 || digits > 9 {
        return None;
    }
    let n: u32 = body[..digits].parse().ok()?;
    let mut rest = &body[digits..];
    if !x_first {
        let t = rest.trim_start();
        if let Some(after) = t.strip_prefix(['x', 'X', '×', '*'])
            && (after.starts_with(char::is_whitespace) || rest.starts_with(['x', 'X', '×']))
        {
            rest = after;
        } else if !rest.starts_with(char::is_whitespace) && !rest.starts_with(['.', ')']) {
            return None;
        }
    } else if !rest.starts_with(char::is_whitespace) {
        return None;
    }
    let rest = rest.trim_start_matches(['.', ')']).trim();
    (!rest.is_empty()).then_some((n, rest))
}

/// `Name x3`, `Name x 3`, `Name ×3`, `Name (3)`, `Name (x3)`, `Name [3]`,
/// `Name: 3`, `Name = 3`, `Name - 3`, `Name, 3`, `Name<TAB>3`, `Name 3`. The
/// count stands apart from the name: `Deck v2` has none.
pub fn trailing_counts(s: &str) -> Vec<(u32, &str)> {
    let s = s.trim();
    let mut out = Vec::new();
    let digits_end = s.trim_end_matches([')', ']']).trim_end();
    let body_end = digits_end.trim_end_matches(['x', 'X', '×']);
    let digits = body_end.len() - body_end.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 || digits > 9 {
        return out;
    }
    let Ok(n) = body_end[body_end.len() - digits..].parse::<u32>() else {
        return out;
    };
    let before = &body_end[..body_end.len() - digits];
    // What stands right before the digits: a space, `x`/`×` after a space, a bracket or a separator.
    let apart = match before.chars().next_back() {
        None => false,
        Some(c) if c.is_whitespace() || matches!(c, '(' | '[' | ':' | '=' | ',' | ';' | '-' | '–') => true,
        Some(c @ ('x' | 'X' | '×')) => before[..before.len() - c.len_utf8()]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_whitespace() || matches!(c, '(' | '[')),
        _ => false,
    };
    if !apart {
        return out;
    }
    let mut head = before.trim_end();
    head = head.strip_suffix(['x', 'X', '×']).map_or(head, str::trim_end);
    let closed = s.len() != digits_end.len();
    if closed {
        match head.strip_suffix(['(', '[']) {
            Some(h) => head = h.trim_end(),
            None => return out,
        }
    }
    let head = head.trim_end_matches([':', '=', ',', ';', '\t']).trim_end();
    let head = head
        .strip_suffix(" -")
        .or_else(|| head.strip_suffix(" –"))
        .unwrap_or(head)
        .trim_end();
    if !head.is_empty() {
        out.push((n, head));
    }
    out
}

/// Every (count, name) reading of a line, most common first.
pub fn count_forms(s: &str) -> Vec<(u32, &str)> {
    let mut out = Vec::new();
    if let Some(x) = leading_count(s) {
        out.push(x);
    }
    out.extend(trailing_counts(s));
    out
}

/// The name of a line that has a count, for "no card is called …".
pub fn counted_name(s: &str) -> Option<String> {
    let cells = if s.contains(['\t', ';', ',']) {
        split_cells(s)
    } else {
        Vec::new()
    };
    if cells.len() > 1
        && cells.iter().any(|c| parse_count(c).is_some())
        && let Some(name) = cells.iter().find(|c| parse_count(c).is_none() && !c.trim().is_empty())
    {
        return Some(name.trim().to_string());
    }
    count_forms(s)
        .first()
        .map(|(_, name)| name_forms(name).last().copied().unwrap_or(name).to_string())
}

/// A name as written, then without trailing set codes, collector numbers,
/// foil marks and tags: `Name (SET) 12`, `Name [SET]`, `Name *F*`, `Name #tag`.
pub fn name_forms(name: &str) -> Vec<&str> {
    let mut out = vec![name.trim()];
    let mut s = name.trim();
    for _ in 0..4 {
        let before = s;
        // A collector number after a set code.
        if let Some((head, tail)) = s.rsplit_once(' ')
            && !tail.is_empty()
            && tail.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
            && tail.chars().any(|c| c.is_ascii_digit())
            && head.trim_end().ends_with([')', ']'])
        {
            s = head.trim_end();
        }
        if s.ends_with('*')
            && let Some(i) = s[..s.len() - 1].rfind(" *")
        {
            s = s[..i].trim_end();
        }
        for (open, close) in [('(', ')'), ('[', ']'), ('{', '}')] {
            if s.ends_with(close)
                && let Some(i) = s.rfind(open)
                && i > 0
            {
                s = s[..i].trim_end();
            }
        }
        if let Some(i) = s.rfind(" #") {
            s = s[..i].trim_end();
        }
        if s == before {
            break;
        }
        if !s.is_empty() {
            out.push(s);
        }
    }
    out
}

/// The separator of a table row: a tab, else a semicolon, else a comma.
pub fn cell_separator(s: &str) -> Option<char> {
    ['\t', ';', ','].into_iter().find(|c| s.contains(*c))
}

/// Splits a table row on tabs, else semicolons, else commas (with quotes).
pub fn split_cells(s: &str) -> Vec<String> {
    let Some(sep) = cell_separator(s) else {
        return vec![s.to_string()];
    };
    let mut cells = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut chars = s.chars().peekable();
    while let Some(ch) = chars.next() {
        match ch {
            '"' if quoted && chars.peek() == Some(&'"') => {
                cur.push('"');
                chars.next();
            }
            '"' => quoted = !quoted,
            c if c == sep && !quoted => cells.push(std::mem::take(&mut cur).trim().to_string()),
            c => cur.push(c),
        }
    }
    cells.push(cur.trim().to_string());
    while cells.last().is_some_and(String::is_empty) {
        cells.pop();
    }
    cells
}

/// The items of an inline list: `Odysseus, Achilles`, `Hoplitas y Espartanos`.
pub fn inline_items(s: &str) -> Vec<&str> {
    s.split([',', ';', '/', '+'])
        .flat_map(|p| p.split(" and ").flat_map(|q| q.split(" y ")))
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn count_forms_read_every_style() {
        let cases = [
            ("3 Name", Some((3, "Name"))),
            ("3x Name", Some((3, "Name"))),
            ("3 x Name", Some((3, "Name"))),
            ("3× Name", Some((3, "Name"))),
            ("x3 Name", Some((3, "Name"))),
            ("3xName", Some((3, "Name"))),
            ("1. Name", Some((1, "Name"))),
            ("Name", None),
            ("3", None),
        ];
        for (s, want) in cases {
            assert_eq!(leading_count(s), want, "{s}");
        }
        let trailing = [
            ("Name x3", (3, "Name")),
            ("Name x 3", (3, "Name")),
            ("Name ×3", (3, "Name")),
            ("Name (3)", (3, "Name")),
            ("Name (x3)", (3, "Name")),
            ("Name [3]", (3, "Name")),
            ("Name: 3", (3, "Name")),
            ("Name - 3", (3, "Name")),
            ("Name\t3", (3, "Name")),
            ("Name 3", (3, "Name")),
            ("Characters (33)", (33, "Characters")),
        ];
        for (s, want) in trailing {
            assert_eq!(trailing_counts(s).first().copied(), Some(want), "{s}");
        }
        assert!(trailing_counts("Name").is_empty());
        // A number glued to a word is part of the name.
        assert!(trailing_counts("Resistencia XTerminar v2").is_empty());
        assert!(trailing_counts("Deck2").is_empty());
    }

    #[test]
    fn item_numbers() {
        assert_eq!(item_number("1. Zeus", false), Some((1, "Zeus")));
        assert_eq!(item_number("12) Larva x4", false), Some((12, "Larva x4")));
        assert_eq!(item_number("3 Zeus", false), None);
        assert_eq!(item_number("3 Zeus", true), Some((3, "Zeus")));
        assert_eq!(item_number("3x Zeus", true), None);
    }

    #[test]
    fn names_lose_set_codes_and_tags() {
        assert!(name_forms("Lightning Bolt (M11) 146").contains(&"Lightning Bolt"));
        assert!(name_forms("Sol Ring (C21) 263 *F*").contains(&"Sol Ring"));
        assert!(name_forms("Machete [Core]").contains(&"Machete"));
        assert!(name_forms("Machete #removal").contains(&"Machete"));
    }

    #[test]
    fn markers_and_links_go() {
        assert_eq!(
            strip_markers("- [ ] 2x [Machete](https://x.test/1) (Core)"),
            "2x Machete (Core)"
        );
        assert_eq!(strip_markers("**Equipo (14)**"), "Equipo (14)");
        assert_eq!(strip_markers("**4x** Amazon Warriors"), "4x Amazon Warriors");
        assert_eq!(strip_markers("| 3 | Name |"), "3 \t Name");
    }

    #[test]
    fn cells_split_with_quotes() {
        assert_eq!(split_cells("\"Name, the Brave\",3"), vec!["Name, the Brave", "3"]);
        assert_eq!(split_cells("3;Name;"), vec!["3", "Name"]);
    }

    #[test]
    fn inline_lists() {
        assert_eq!(inline_items("Odysseus, Achilles"), vec!["Odysseus", "Achilles"]);
        assert_eq!(inline_items("Hoplitas y Espartanos"), vec!["Hoplitas", "Espartanos"]);
    }
}
