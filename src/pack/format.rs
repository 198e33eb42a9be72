//! Format versions of the files pnpkit reads: a top-level `format:
//! <integer>` key that says which version of a file format a file is
//! written in. A file without it is in today's format.
//!
//! Each kind of file (game logs, a pack's `game.yaml` ([`PACK`]), deck
//! lists in YAML ([`DECK`])) describes its formats in a [`Spec`]: today's
//! number and, for each older one, what changed since and how to bring a
//! file up to date.
//! [`read`] finds the key (with its span), [`check`] refuses a version this
//! pnpkit does not read: newer ([`newer`], E086) or older ([`older`], E087);
//! each refusal has one constructor. A reader that knows the older format
//! (a log upgrade) reads the [`Version`] itself instead of calling
//! [`check`].

use crate::diag::{Code, Diagnostic, Span};
use crate::pack::yaml::{Node, Value};

/// The formats of one kind of file.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    /// What the file is, in messages (`game log`).
    pub what: &'static str,
    /// Today's format.
    pub current: u32,
    /// Each format before today's, oldest first.
    pub older: &'static [Older],
    /// The command that brings a file of an older format up to date
    /// (`pnpkit log --upgrade FILE`, `FILE` standing for the file's path);
    /// `None` where the file is rewritten by hand as [`Spec::docs`] says.
    pub upgrade: Option<&'static str>,
    /// Where the formats are described (`docs/log-format.md`).
    pub docs: &'static str,
}

/// A format before today's.
#[derive(Clone, Copy, Debug)]
pub struct Older {
    pub version: u32,
    /// What changed after it, in one sentence.
    pub changed: &'static str,
}

/// The format a file says it is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Version {
    pub number: u32,
    /// The `format:` value, or the whole document when the key is absent.
    pub span: Span,
    /// Whether the file writes `format:` itself.
    pub written: bool,
}

/// The key every versioned file uses.
pub const KEY: &str = "format";

/// A pack's `game.yaml` (its other files follow the format it says).
pub const PACK: Spec = Spec {
    what: "game pack",
    current: 1,
    older: &[],
    upgrade: None,
    docs: "docs/game-packs.md",
};

/// A deck list written in YAML (a list pasted as text has no format).
pub const DECK: Spec = Spec {
    what: "deck list",
    current: 1,
    older: &[],
    upgrade: None,
    docs: "docs/decks.md",
};

/// Reads `format:` of a document and refuses a version this pnpkit does
/// not read as today's: the version, or the one problem.
pub fn read_checked(root: &Node, spec: &Spec, file: &str) -> Result<Version, Box<Diagnostic>> {
    let v = read(root, spec)?;
    check(&v, spec, file)?;
    Ok(v)
}

/// Reads `format:` from a document's top-level mapping: today's format when
/// absent; a value that is not a whole number from 1 up is refused
/// (`invalid-value`).
pub fn read(root: &Node, spec: &Spec) -> Result<Version, Box<Diagnostic>> {
    let Some(node) = root.get(KEY) else {
        return Ok(Version {
            number: spec.current,
            span: root.span,
            written: false,
        });
    };
    match node.value {
        Value::Int(n) if n >= 1 && n <= i64::from(u32::MAX) => Ok(Version {
            number: n as u32,
            span: node.span,
            written: true,
        }),
        _ => Err(Box::new(
            Diagnostic::new(
                Code::InvalidValue,
                format!("`{KEY}` of a {} is a format version", spec.what),
            )
            .at(node.span)
            .label("not a format version")
            .found(node.show())
            .expected(format!(
                "a whole number: {} for today's format (or leave `{KEY}` out)",
                spec.current
            ))
            .help(format!("{} describes the formats", spec.docs)),
        )),
    }
}

/// Refuses a version this pnpkit does not read as today's.
pub fn check(v: &Version, spec: &Spec, file: &str) -> Result<(), Box<Diagnostic>> {
    if v.number > spec.current {
        Err(Box::new(newer(v, spec)))
    } else if v.number < spec.current {
        Err(Box::new(older(v, spec, file)))
    } else {
        Ok(())
    }
}

/// The one constructor of E086: a file newer than this pnpkit reads.
pub fn newer(v: &Version, spec: &Spec) -> Diagnostic {
    Diagnostic::new(
        Code::FormatNewer,
        format!(
            "this {} is in format {}, newer than this pnpkit reads ({} {})",
            spec.what,
            v.number,
            env!("CARGO_PKG_NAME"),
            env!("CARGO_PKG_VERSION")
        ),
    )
    .at(v.span)
    .label(format!("format {}", v.number))
    .found(format!("format {}", v.number))
    .expected(format!("format {} or older", spec.current))
    .help(format!(
        "update pnpkit, or write the {} in format {} ({})",
        spec.what, spec.current, spec.docs
    ))
}

/// What changed since format `from`, oldest first, as one sentence each.
pub fn changes_since(from: u32, spec: &Spec) -> Vec<&'static str> {
    spec.older
        .iter()
        .filter(|o| o.version >= from)
        .map(|o| o.changed)
        .collect()
}

/// The one constructor of E087: a file in an older format (it says so, or
/// it is read as today's and uses what an older format had).
pub fn older(v: &Version, spec: &Spec, file: &str) -> Diagnostic {
    let said = if v.written {
        format!("this {} is in format {}", spec.what, v.number)
    } else {
        format!(
            "this {} has no `{KEY}:` and is read as format {}, but it is written in format {}",
            spec.what, spec.current, v.number
        )
    };
    let mut d = Diagnostic::new(Code::FormatOlder, format!("{said}; today's is {}", spec.current))
        .at(v.span)
        .label(format!("format {}", v.number))
        .found(format!("format {}", v.number))
        .expected(format!("format {}", spec.current));
    for c in changes_since(v.number, spec) {
        d = d.note(format!("changed since: {c}"));
    }
    match spec.upgrade {
        Some(how) => d.help(format!(
            "run `{}` to rewrite it in format {}",
            how.replace("FILE", file),
            spec.current
        )),
        None => d.help(format!(
            "rewrite it in format {} as {} describes",
            spec.current, spec.docs
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::FileId;
    use crate::pack::yaml::{Limits, parse};

    const SPEC: Spec = Spec {
        what: "game log",
        current: 2,
        older: &[Older {
            version: 1,
            changed: "automatic effects apply by themselves",
        }],
        upgrade: Some("pnpkit log --upgrade FILE"),
        docs: "docs/log-format.md",
    };

    fn doc(text: &str) -> Node {
        parse(text, FileId(0), &Limits::default()).unwrap()
    }

    #[test]
    fn a_missing_key_is_todays_format() {
        let v = read(&doc("game: x\n"), &SPEC).unwrap();
        assert_eq!((v.number, v.written), (2, false));
        assert!(check(&v, &SPEC, "a.yaml").is_ok());
    }

    #[test]
    fn newer_and_older_formats_are_refused_with_their_codes() {
        let v = read(&doc("format: 3\ngame: x\n"), &SPEC).unwrap();
        assert_eq!(v.span.line, 1);
        let d = check(&v, &SPEC, "a.yaml").unwrap_err();
        assert_eq!(d.code, Code::FormatNewer);
        let v = read(&doc("game: x\nformat: 1\n"), &SPEC).unwrap();
        let d = check(&v, &SPEC, "logs/a.yaml").unwrap_err();
        assert_eq!(d.code, Code::FormatOlder);
        assert!(d.help.as_deref().unwrap().contains("pnpkit log --upgrade logs/a.yaml"));
        assert!(d.notes.iter().any(|n| n.contains("automatic effects")));
    }

    #[test]
    fn a_format_is_a_whole_number() {
        for bad in ["format: two\n", "format: 0\n", "format: 1.5\n", "format: [2]\n"] {
            let d = read(&doc(bad), &SPEC).unwrap_err();
            assert_eq!(d.code, Code::InvalidValue, "{bad}");
        }
    }
}
