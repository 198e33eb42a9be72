//! The report of a run its budget stopped ([`crate::budget`]): a layout
//! that ran too long or needed too much memory is a template error (E019)
//! at the line it was running when that is known; memory outside any layout
//! is E098.

use crate::budget::{Exceeded, Over};
use crate::diag::{Code, Diagnostic, SourceMap};
use crate::pack::yaml::span_of_offset;

/// The diagnostic for a stopped run; `sources` receives the template text
/// it shows.
pub fn over_budget(e: &Exceeded, sources: &mut SourceMap) -> Diagnostic {
    let (message, label, expected) = match &e.over {
        Over::Memory { limit, asked } => (
            format!(
                "the run needed more than its memory limit of {} (one more allocation of {} was refused)",
                size(*limit),
                size(*asked)
            ),
            "running here when the memory ran out".to_owned(),
            "a layout that stays within `--memory-limit`: look for a `range(…)` or an array that grows with no \
             bound, or raise the limit (in MiB)"
                .to_owned(),
        ),
        Over::Time { limit } => (
            format!("the layout ran longer than {} s", limit.as_secs()),
            format!("still running here after {} s", limit.as_secs()),
            "a layout that ends within `--layout-time-limit`: look for a loop with no end or millions of steps, \
             or raise the limit (in seconds)"
                .to_owned(),
        ),
    };
    let code = match (&e.over, &e.what) {
        (Over::Memory { .. }, None) => Code::MemoryLimit,
        _ => Code::TemplateError,
    };
    let title = match code {
        Code::TemplateError => "template error: ",
        _ => "",
    };
    let expected = match code {
        Code::MemoryLimit => {
            "a run within `--memory-limit`: raise the limit (in MiB), or give it less to hold at once".to_owned()
        }
        _ => expected,
    };
    let mut d = Diagnostic::new(code, format!("{title}{message}")).expected(expected);
    if let Some(what) = &e.what {
        d = d.note(format!("while building {what}"));
    }
    match &e.place {
        Some(place) => {
            let file = sources.add(place.path.clone(), place.text.clone());
            let span = span_of_offset(&place.text, file, place.range.start, place.range.end);
            d.at(span).label(label)
        }
        None if e.what.is_some() => {
            d.note("no location: the layout stopped before typst could say which line it was running")
        }
        None => d.note("no location: no layout was running"),
    }
}

/// A byte count as people read it: `4096 MiB`, `29.8 GiB`.
fn size(bytes: u64) -> String {
    const MIB: f64 = (1u64 << 20) as f64;
    let mib = bytes as f64 / MIB;
    if mib >= 10_240.0 {
        format!("{:.1} GiB", mib / 1024.0)
    } else if mib >= 1.0 {
        format!("{mib:.0} MiB")
    } else {
        format!("{bytes} bytes")
    }
}

#[cfg(test)]
mod tests {
    use super::size;

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(size(4096 << 20), "4096 MiB");
        assert_eq!(size(32_000_000_000), "29.8 GiB");
        assert_eq!(size(512), "512 bytes");
    }
}
