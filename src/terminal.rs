//! What pnpkit prints is made inert before it reaches a terminal: names of
//! players, decks and cards come from files anyone may write, and a control
//! character in them could set the window title, clear the screen, move
//! the cursor or hide text (a bidirectional override). Every control
//! character but newline and tab is shown as its escape (`\u{1b}`); the
//! colour sequences pnpkit writes itself (SGR, `ESC [ … m`) are kept only
//! when colour is on.

use std::borrow::Cow;

/// `text` with every control character escaped, except newlines, tabs and
/// (when `color`) colour sequences.
pub fn inert(text: &str, color: bool) -> Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if c == '\u{1b}'
            && color
            && let Some(n) = sgr_len(rest)
        {
            out.push_str(&rest[..n]);
            rest = &rest[n..];
            continue;
        }
        if needs_escape(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
        rest = &rest[c.len_utf8()..];
    }
    Cow::Owned(out)
}

/// The first character of a name (a player, a deck) that has no place in
/// one: a control character, a line break included (a tab is only space).
/// Names with one are refused where they are read, with their location.
pub fn control_in_name(name: &str) -> Option<char> {
    name.chars().find(|&c| c == '\n' || c == '\r' || needs_escape(c))
}

/// Control characters (C0 but newline and tab, DEL, C1) and the Unicode
/// controls that reorder or hide text.
fn needs_escape(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// The length of a colour sequence `ESC [ digits;… m` at the start of `s`.
fn sgr_len(s: &str) -> Option<usize> {
    let body = s.strip_prefix("\u{1b}[")?;
    let n = body.find(|c: char| !(c.is_ascii_digit() || c == ';'))?;
    (body[n..].starts_with('m') && n <= 32).then_some(2 + n + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_escaped_and_colour_kept_only_when_on() {
        let evil = "\u{1b}]0;pwned\u{7}\u{1b}[2J\u{1b}[31mEvil\u{202e}gpj.exe\r\n\tok";
        let off = inert(evil, false);
        assert!(!off.chars().any(needs_escape), "{off:?}");
        assert!(
            off.contains("\\u{1b}]0;pwned\\u{7}") && off.ends_with("\n\tok"),
            "{off}"
        );
        let on = inert(evil, true);
        assert!(
            on.contains("\u{1b}[31mEvil") && !on.contains("\u{1b}]0") && !on.contains("\u{1b}[2J"),
            "{on:?}"
        );
        assert!(matches!(inert("plain text, «acentos» ✓\n", false), Cow::Borrowed(_)));
    }
}
