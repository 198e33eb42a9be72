//! Bounds on text templates in data. tera has no budget of its own, so a
//! text like `{% for i in range(end=100000) %}{% for j in … %}` ran for ever
//! and `set_global` doubling grew to gigabytes. Before rendering, a text is
//! scanned: only `if` and `for` statements are allowed (no `set`, macros,
//! includes), no list comprehensions or spreads, few `~` concatenations, a
//! bounded length; every `for` body gets a step counter. While rendering,
//! the steps, the output and the time are counted, and the filters and
//! functions that build large values (`range`, `join`, `replace`, `indent`)
//! check their result size before building it.

use std::cell::{Cell, RefCell};
use std::io::{self, Write};
use std::time::{Duration, Instant};

use tera::{Context, Kwargs, State, Tera, TeraResult, Value};

/// Longest text template, in bytes.
pub const MAX_TEMPLATE_BYTES: usize = 20_000;
/// Loop iterations of one render, all loops together; also the longest `range`.
pub const MAX_LOOP_STEPS: u64 = 10_000;
/// Largest rendered text, and largest value `join`, `replace` or `indent` may build.
pub const MAX_OUTPUT_BYTES: usize = 256 * 1024;
/// Most `~` concatenations in one text.
pub const MAX_CONCATENATIONS: usize = 32;
/// Longest a render may run: a backstop, the counts above trip first.
pub const MAX_RENDER_TIME: Duration = Duration::from_secs(2);

/// The statements a data text may use.
const ALLOWED: &[&str] = &["if", "elif", "else", "endif", "for", "endfor", "break", "continue"];
/// The function called at the start of every loop body to count a step.
const STEP: &str = "__pnpkit_step";

/// Which bound a render crossed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tripped {
    Steps,
    Output,
    Time,
}

thread_local! {
    static STEPS: Cell<u64> = const { Cell::new(0) };
    static DEADLINE: Cell<Option<Instant>> = const { Cell::new(None) };
    /// What stopped the render, if a bound did.
    static TRIPPED: RefCell<Option<String>> = const { RefCell::new(None) };
}

fn set_tripped(message: String) {
    TRIPPED.with(|c| *c.borrow_mut() = Some(message));
}

fn trip(t: Tripped) -> tera::Error {
    set_tripped(describe(t));
    tera::Error::message(describe(t))
}

fn describe(t: Tripped) -> String {
    match t {
        Tripped::Steps => format!(
            "the text's loops run more than {} steps in all (a text template may repeat at most that many times)",
            MAX_LOOP_STEPS
        ),
        Tripped::Output => format!(
            "the text renders to more than {} KiB (the most a text template may produce)",
            MAX_OUTPUT_BYTES / 1024
        ),
        Tripped::Time => format!("the text takes more than {} s to render", MAX_RENDER_TIME.as_secs()),
    }
}

fn past_deadline() -> bool {
    DEADLINE.with(|d| d.get().is_some_and(|t| Instant::now() > t))
}

/// One loop step: counts it, and checks the clock now and then.
fn step() -> TeraResult<String> {
    let n = STEPS.with(|s| {
        s.set(s.get() + 1);
        s.get()
    });
    if n > MAX_LOOP_STEPS {
        return Err(trip(Tripped::Steps));
    }
    if n.is_multiple_of(64) && past_deadline() {
        return Err(trip(Tripped::Time));
    }
    Ok(String::new())
}

fn too_big(what: &str, size: usize) -> TeraResult<()> {
    if size > MAX_OUTPUT_BYTES {
        let msg = format!(
            "`{what}` would build {size} bytes, more than a text template may produce ({} KiB)",
            MAX_OUTPUT_BYTES / 1024
        );
        set_tripped(msg.clone());
        return Err(tera::Error::message(msg));
    }
    Ok(())
}

fn range(kwargs: Kwargs, _: &State) -> TeraResult<Vec<i64>> {
    let start = kwargs.get::<i64>("start")?.unwrap_or_default();
    let end = kwargs.must_get::<i64>("end")?;
    let step_by = kwargs.get::<i64>("step_by")?.unwrap_or(1);
    if step_by == 0 {
        return Err(tera::Error::message("`range` was called with a `step_by` of 0"));
    }
    let span = i128::from(end) - i128::from(start);
    let len = if (span > 0) == (step_by > 0) && span != 0 {
        (span.abs() + i128::from(step_by).abs() - 1) / i128::from(step_by).abs()
    } else {
        0
    };
    if len > i128::from(MAX_LOOP_STEPS) {
        return Err(tera::Error::message(format!(
            "`range` would produce {len} numbers; a text template may count to at most {MAX_LOOP_STEPS}"
        )));
    }
    Ok((0..len as i64).map(|i| start + i * step_by).collect())
}

fn join(val: &[Value], kwargs: Kwargs, _: &State) -> TeraResult<Value> {
    let sep = kwargs.get::<&str>("sep")?.unwrap_or("");
    let parts: Vec<String> = val.iter().map(|x| format!("{x}")).collect();
    let size = parts.iter().map(String::len).sum::<usize>() + sep.len() * parts.len().saturating_sub(1);
    too_big("join", size)?;
    Ok(Value::from(parts.join(sep)))
}

fn replace(val: &str, kwargs: Kwargs, _: &State) -> TeraResult<Value> {
    let from = kwargs.must_get::<&str>("from")?;
    let to = kwargs.must_get::<&str>("to")?;
    if !from.is_empty() {
        let n = val.matches(from).count();
        too_big("replace", val.len() - n * from.len() + n * to.len())?;
    } else {
        too_big("replace", val.len() + (val.chars().count() + 1) * to.len())?;
    }
    Ok(Value::from(val.replace(from, to)))
}

fn indent(val: &str, kwargs: Kwargs, _: &State) -> TeraResult<Value> {
    let width = kwargs.get::<usize>("width")?.unwrap_or(4).min(1000);
    let first = kwargs.get::<bool>("first")?.unwrap_or(false);
    let blank = kwargs.get::<bool>("blank")?.unwrap_or(false);
    let pad = match kwargs.get::<&str>("indentation")? {
        Some(i) if i.chars().count() != 1 => {
            return Err(tera::Error::message(
                "The `indentation` argument must contain exactly one character",
            ));
        }
        Some(i) => i.repeat(width),
        None => " ".repeat(width),
    };
    too_big("indent", val.len() + (val.lines().count() + 1) * pad.len())?;
    let mut out = String::with_capacity(val.len() * 2);
    for (i, line) in val.lines().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        if (i > 0 || first) && (!line.is_empty() || blank) {
            out.push_str(&pad);
        }
        out.push_str(line);
    }
    if val.ends_with('\n') {
        out.push('\n');
    }
    Ok(Value::from(out))
}

/// Puts the bounded `range`, `join`, `replace` and `indent` and the step
/// counter into a tera instance for data texts.
pub fn register(tera: &mut Tera) {
    tera.register_function(STEP, |_: Kwargs, _: &State| step());
    tera.register_function("range", range);
    tera.register_filter("join", join);
    tera.register_filter("replace", replace);
    tera.register_filter("indent", indent);
}

/// A writer that counts what it is given and refuses past the output limit.
struct Bounded {
    out: Vec<u8>,
}

impl Write for Bounded {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.out.len() + buf.len() > MAX_OUTPUT_BYTES {
            return Err(io::Error::other(trip(Tripped::Output).to_string()));
        }
        if past_deadline() {
            return Err(io::Error::other(trip(Tripped::Time).to_string()));
        }
        self.out.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A byte scanner over template source: skips string literals.
fn skip_string(b: &[u8], i: usize) -> usize {
    let q = b[i];
    let mut j = i + 1;
    while j < b.len() && b[j] != q {
        j += if b[j] == b'\\' { 2 } else { 1 };
    }
    (j + 1).min(b.len())
}

/// The end of a tag or expression opened at `i` (after its closing
/// delimiter), counting `~` and refusing comprehensions and spreads.
fn scan_code(b: &[u8], i: usize, close: &[u8], concat: &mut usize, skip_first_for: bool) -> Result<usize, String> {
    let mut j = i + 2;
    let mut first_word = true;
    while j < b.len() {
        let c = b[j];
        if b[j..].starts_with(close) {
            return Ok(j + 2);
        }
        if c == b'"' || c == b'\'' || c == b'`' {
            j = skip_string(b, j);
            continue;
        }
        if c == b'~' {
            *concat += 1;
        }
        if b[j..].starts_with(b"...") {
            return Err("spreads (`...`) are not allowed in a data text".into());
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            let start = j;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
                j += 1;
            }
            let word = &b[start..j];
            let was_first = std::mem::replace(&mut first_word, false);
            if word == b"for" && !(skip_first_for && was_first) {
                return Err("list comprehensions (`[… for … in …]`) are not allowed in a data text".into());
            }
            continue;
        }
        j += 1;
    }
    Ok(b.len())
}

/// The statement keyword of a tag starting at `i` (`{%-? keyword`).
fn keyword(b: &[u8], i: usize) -> &str {
    let mut j = i + 2;
    if b.get(j) == Some(&b'-') {
        j += 1;
    }
    while j < b.len() && b[j].is_ascii_whitespace() {
        j += 1;
    }
    let start = j;
    while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
        j += 1;
    }
    std::str::from_utf8(&b[start..j]).unwrap_or("")
}

/// Checks a template's source against the bounds and returns the text to
/// render: the same, with a step counter at the start of every `for` body.
pub fn prepare(text: &str) -> Result<String, String> {
    if text.len() > MAX_TEMPLATE_BYTES {
        return Err(format!(
            "the text template is {} bytes long; a text template may be at most {MAX_TEMPLATE_BYTES}",
            text.len()
        ));
    }
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len() + 64);
    let mut concat = 0;
    let (mut i, mut copied) = (0, 0);
    while i + 1 < b.len() {
        if b[i] != b'{' {
            i += 1;
            continue;
        }
        match b[i + 1] {
            b'#' => {
                i = text[i..].find("#}").map_or(b.len(), |k| i + k + 2);
            }
            b'{' => i = scan_code(b, i, b"}}", &mut concat, false)?,
            b'%' => {
                let kw = keyword(b, i);
                if kw == "raw" {
                    // Raw content is text, not template: skip to the end of the block.
                    let end = scan_code(b, i, b"%}", &mut concat, false)?;
                    i = match text[end..]
                        .match_indices("{%")
                        .find(|(k, _)| keyword(b, end + k) == "endraw")
                    {
                        Some((k, _)) => scan_code(b, end + k, b"%}", &mut concat, false)?,
                        None => b.len(),
                    };
                    continue;
                }
                if !ALLOWED.contains(&kw) {
                    return Err(format!(
                        "`{{% {kw} %}}` is not allowed in a data text: texts may quote values with `{{{{ … }}}}` \
                         and use `if` and `for`"
                    ));
                }
                let end = scan_code(b, i, b"%}", &mut concat, kw == "for")?;
                if kw == "for" {
                    // `-%}` trims the whitespace after the tag: keep it before the counter so it still is.
                    let mut at = end;
                    if text[..end].ends_with("-%}") {
                        while at < b.len() && b[at].is_ascii_whitespace() {
                            at += 1;
                        }
                    }
                    out.push_str(&text[copied..at]);
                    out.push_str("{{ ");
                    out.push_str(STEP);
                    out.push_str("() }}");
                    copied = at;
                    i = at;
                    continue;
                }
                i = end;
            }
            _ => i += 1,
        }
    }
    if concat > MAX_CONCATENATIONS {
        return Err(format!(
            "the text template joins values with `~` {concat} times; a text template may do so at most {MAX_CONCATENATIONS} times"
        ));
    }
    out.push_str(&text[copied..]);
    Ok(out)
}

/// Renders a prepared template within the bounds. Errors are tera's report
/// (of `original`, so the counter inserted into loops is never shown), or
/// the bound that was crossed.
pub fn render(tera: &Tera, prepared: &str, original: &str, ctx: &Context) -> Result<String, tera::Error> {
    let run = |source: &str| {
        STEPS.with(|s| s.set(0));
        TRIPPED.with(|t| *t.borrow_mut() = None);
        DEADLINE.with(|d| d.set(Some(Instant::now() + MAX_RENDER_TIME)));
        let mut w = Bounded { out: Vec::new() };
        let r = tera.render_str_to(source, ctx, false, &mut w);
        DEADLINE.with(|d| d.set(None));
        r.map(|()| w.out)
    };
    match run(prepared) {
        Ok(out) => Ok(String::from_utf8_lossy(&out).into_owned()),
        Err(e) => match TRIPPED.with(|t| t.borrow_mut().take()) {
            Some(msg) => Err(tera::Error::message(msg)),
            // The same render without counters stops at the same place, in
            // the same or fewer steps: its report shows the text as written.
            None if prepared != original => Err(run(original).err().unwrap_or(e)),
            None => Err(e),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str) -> Result<String, String> {
        let mut tera = Tera::default();
        register(&mut tera);
        let mut ctx = Context::new();
        ctx.insert("items", &vec!["a", "b", "c"]);
        let p = prepare(text)?;
        render(&tera, &p, text, &ctx).map_err(|e| e.to_string())
    }

    #[test]
    fn loops_keep_their_output_and_whitespace() {
        assert_eq!(run("{% for x in items %}{{ x }},{% endfor %}").unwrap(), "a,b,c,");
        assert_eq!(run("{%- for x in items -%}  {{ x }} {%- endfor %}").unwrap(), "abc");
        assert_eq!(run("{% raw %}{% set x = 1 %}{% endraw %}").unwrap(), "{% set x = 1 %}");
        assert_eq!(run("{{ range(end=3) | join(sep=\"-\") }}").unwrap(), "0-1-2");
        assert_eq!(run("{{ \"a-b\" | replace(from=\"-\", to=\"+\") }}").unwrap(), "a+b");
    }

    #[test]
    fn runaway_templates_stop_at_a_bound() {
        let nested = "{% for i in range(end=10000) %}{% for j in range(end=10000) %}{% endfor %}{% endfor %}";
        assert!(run(nested).unwrap_err().contains("more than 10000 steps"));
        assert!(
            run("{% set_global s = \"x\" %}")
                .unwrap_err()
                .contains("`{% set_global %}` is not allowed")
        );
        assert!(run("{{ [x for x in items] }}").unwrap_err().contains("comprehensions"));
        let wide = format!("{{{{ range(end=9999) | join(sep=\"{}\") }}}}", "x".repeat(100));
        assert!(run(&wide).unwrap_err().contains("`join` would build"));
        let out = "{% for i in range(end=9000) %}{{ \"0123456789012345678901234567890123456789\" }}{% endfor %}";
        assert!(run(out).unwrap_err().contains("renders to more than 256 KiB"));
    }
}
