//! Preflight: reads the pages typst laid out (its frames, not the plan) and
//! reports what would print badly: text below the minimum size, text or a
//! key element of a piece outside its safe zone, text cut off by its box,
//! raster images below 300 ppi at their printed size. Every finding names the
//! piece, the locale and the template line that drew it.
//!
//! Positions are measured from the glyphs' own outlines (the font's bounding
//! box of each glyph), through every transform and clip of the page.

use std::collections::HashSet;

use typst::WorldExt;
use typst::layout::{Abs, Frame, FrameItem, Point, Transform};
use typst::syntax::Span;
use typst::text::TextItem;
use typst::visualize::ImageKind;
use typst_layout::PagedDocument;

use super::DocPlan;
use super::world::DocWorld;
use crate::diag::{Code, Diagnostic, SourceMap};
use crate::pack::yaml::span_of_offset;

/// What preflight checks against.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Smallest text size, in points.
    pub min_text_pt: f64,
    /// Smallest resolution of a raster image at its printed size.
    pub min_ppi: f64,
    /// Distance inside the trim that text and key elements keep, in mm.
    pub safe_mm: f64,
    /// Whether raster images are measured as laid out (W043). `build`
    /// leaves them to `check`, whose W049 measures each art file at the size
    /// its field declares (the size the art box prints at), so one image is
    /// reported once.
    pub images: bool,
}

impl Limits {
    /// What every `build` checks: what `preflight` does, images measured by
    /// `check` instead.
    pub fn build() -> Limits {
        Limits {
            images: false,
            ..Limits::default()
        }
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            min_text_pt: 6.0,
            min_ppi: 300.0,
            safe_mm: 3.0,
            images: true,
        }
    }
}

/// The label that marks a key element of a design (`box[…] <key>`): it
/// must stay inside the safe zone like text.
pub const KEY_LABEL: &str = "key";

/// The label of the metadata by which a text box names the data field it
/// shows (the shared `fit-text` helper writes it).
pub const FIELD_LABEL: &str = "pnpkit-field";

/// An axis-aligned rectangle in points.
#[derive(Clone, Copy, Debug)]
pub(super) struct Rect {
    pub(super) x0: f64,
    pub(super) y0: f64,
    pub(super) x1: f64,
    pub(super) y1: f64,
}

impl Rect {
    pub(super) fn area(&self) -> f64 {
        (self.x1 - self.x0).max(0.0) * (self.y1 - self.y0).max(0.0)
    }

    fn of_points(points: &[Point]) -> Rect {
        let mut r = Rect {
            x0: f64::INFINITY,
            y0: f64::INFINITY,
            x1: f64::NEG_INFINITY,
            y1: f64::NEG_INFINITY,
        };
        for p in points {
            r.x0 = r.x0.min(p.x.to_pt());
            r.y0 = r.y0.min(p.y.to_pt());
            r.x1 = r.x1.max(p.x.to_pt());
            r.y1 = r.y1.max(p.y.to_pt());
        }
        r
    }

    fn transformed(x0: f64, y0: f64, x1: f64, y1: f64, ts: Transform) -> Rect {
        let p = |x: f64, y: f64| Point::new(Abs::pt(x), Abs::pt(y)).transform(ts);
        Rect::of_points(&[p(x0, y0), p(x1, y0), p(x0, y1), p(x1, y1)])
    }

    fn union(self, o: Rect) -> Rect {
        Rect {
            x0: self.x0.min(o.x0),
            y0: self.y0.min(o.y0),
            x1: self.x1.max(o.x1),
            y1: self.y1.max(o.y1),
        }
    }

    pub(super) fn intersect(self, o: Rect) -> Rect {
        Rect {
            x0: self.x0.max(o.x0),
            y0: self.y0.max(o.y0),
            x1: self.x1.min(o.x1),
            y1: self.y1.min(o.y1),
        }
    }

    /// How far this rectangle reaches outside `o` (0 when inside), in points.
    fn outside(&self, o: &Rect) -> f64 {
        [o.x0 - self.x0, o.y0 - self.y0, self.x1 - o.x1, self.y1 - o.y1]
            .into_iter()
            .fold(0.0, f64::max)
    }
}

const PT_PER_MM: f64 = 72.0 / 25.4;

/// One thing seen on a page.
#[derive(Debug)]
pub(super) enum Seen {
    Text {
        span: Span,
        /// Whether the span is the text's own (else the element it sits in).
        exact: bool,
        /// The data field the text shows, when its box says (`fit-text(field: …)`).
        field: Option<String>,
        text: String,
        size: f64,
        bbox: Rect,
        clip: Option<Rect>,
    },
    Image {
        span: Span,
        ppi: f64,
        w_mm: f64,
        h_mm: f64,
    },
    Key {
        span: Span,
        bbox: Rect,
    },
    /// A filled shape: what it is drawn over is hidden. Its outline on the
    /// page (points, each subpath a ring), clipped to `clip` by the test.
    Fill {
        bbox: Rect,
        rings: Vec<Vec<(f64, f64)>>,
        clip: Option<Rect>,
    },
    /// Characters no font could draw (shaped as glyph 0).
    Missing {
        span: Span,
        exact: bool,
        chars: String,
        text: String,
    },
}

/// An open key element while walking: its location and the box of what it drew.
struct OpenKey {
    location: typst::introspection::Location,
    span: Span,
    bbox: Option<Rect>,
}

/// Walks a frame in drawing order. `last` is the template location of the
/// most recent element drawn before this point that has one: text that came
/// from the data (and so has no location of its own) is reported there.
#[allow(clippy::too_many_arguments)]
fn walk(
    frame: &Frame,
    ts: Transform,
    clip: Option<Rect>,
    field: Option<&str>,
    last: &mut Span,
    keys: &mut Vec<OpenKey>,
    out: &mut Vec<Seen>,
) {
    // A box that names the field it shows (`#metadata("text") <pnpkit-field>`).
    let named = frame.items().find_map(|(_, item)| match item {
        FrameItem::Tag(typst::introspection::Tag::Start(content, _))
            if content.label().is_some_and(|l| l.resolve().as_str() == FIELD_LABEL) =>
        {
            content
                .to_packed::<typst::introspection::MetadataElem>()
                .and_then(|m| m.value.clone().cast::<typst::foundations::Str>().ok())
                .map(|s| s.to_string())
        }
        _ => None,
    });
    let field = named.as_deref().or(field);
    for (pos, item) in frame.items() {
        let here = ts.pre_concat(Transform::translate(pos.x, pos.y));
        let drew = |bbox: Rect, keys: &mut Vec<OpenKey>| {
            for k in keys.iter_mut() {
                k.bbox = Some(k.bbox.map_or(bbox, |b| b.union(bbox)));
            }
        };
        match item {
            FrameItem::Group(g) => {
                let inner = here.pre_concat(g.transform);
                let clip = match &g.clip {
                    Some(_) => {
                        let s = g.frame.size();
                        let r = Rect::transformed(0.0, 0.0, s.x.to_pt(), s.y.to_pt(), inner);
                        Some(clip.map_or(r, |c| c.intersect(r)))
                    }
                    None => clip,
                };
                walk(&g.frame, inner, clip, field, last, keys, out);
            }
            FrameItem::Text(t) => {
                let bbox = text_bbox(t, here);
                let scale = (here.sx.get() * here.sy.get() - here.kx.get() * here.ky.get())
                    .abs()
                    .sqrt();
                if let Some(bbox) = bbox {
                    drew(bbox, keys);
                    let own = t.glyphs.iter().map(|g| g.span.0).find(|s| !s.is_detached());
                    if let Some(own) = own {
                        *last = own;
                    }
                    let missing: String = t
                        .glyphs
                        .iter()
                        .filter(|g| g.id == 0)
                        .filter_map(|g| t.text.get(g.range()))
                        .collect();
                    if !missing.trim().is_empty() {
                        out.push(Seen::Missing {
                            span: own.unwrap_or(*last),
                            exact: own.is_some(),
                            chars: missing,
                            text: t.text.to_string(),
                        });
                    }
                    out.push(Seen::Text {
                        span: own.unwrap_or(*last),
                        exact: own.is_some(),
                        field: field.map(str::to_owned),
                        text: t.text.to_string(),
                        size: t.size.to_pt() * scale,
                        bbox,
                        clip,
                    });
                }
            }
            FrameItem::Shape(shape, span) => {
                if !span.is_detached() {
                    *last = *span;
                }
                let b = shape.geometry.bbox(None);
                let r = Rect::transformed(b.min.x.to_pt(), b.min.y.to_pt(), b.max.x.to_pt(), b.max.y.to_pt(), here);
                drew(r, keys);
                if shape.fill.is_some() {
                    out.push(Seen::Fill {
                        bbox: clip.map_or(r, |c| c.intersect(r)),
                        rings: super::overlap::rings(&shape.geometry, here),
                        clip,
                    });
                }
            }
            FrameItem::Image(image, size, span) => {
                if !span.is_detached() {
                    *last = *span;
                }
                let r = Rect::transformed(0.0, 0.0, size.x.to_pt(), size.y.to_pt(), here);
                drew(r, keys);
                if let ImageKind::Raster(raster) = image.kind() {
                    let (w_mm, h_mm) = ((r.x1 - r.x0) / PT_PER_MM, (r.y1 - r.y0) / PT_PER_MM);
                    let ppi_x = raster.width() as f64 / (w_mm / 25.4);
                    let ppi_y = raster.height() as f64 / (h_mm / 25.4);
                    out.push(Seen::Image {
                        span: *span,
                        ppi: ppi_x.min(ppi_y),
                        w_mm,
                        h_mm,
                    });
                }
            }
            FrameItem::Tag(typst::introspection::Tag::Start(content, _)) => {
                if content.label().is_some_and(|l| l.resolve().as_str() == KEY_LABEL)
                    && let Some(location) = content.location()
                {
                    keys.push(OpenKey {
                        location,
                        span: content.span(),
                        bbox: None,
                    });
                }
            }
            FrameItem::Tag(typst::introspection::Tag::End(location, ..)) => {
                if let Some(i) = keys.iter().position(|k| k.location == *location) {
                    let k = keys.remove(i);
                    if let Some(bbox) = k.bbox {
                        out.push(Seen::Key { span: k.span, bbox });
                    }
                }
            }
            FrameItem::Link(..) => {}
        }
    }
}

/// The ink box of a run of text: each glyph's outline box in the font,
/// placed along the baseline, through the transform.
fn text_bbox(t: &TextItem, ts: Transform) -> Option<Rect> {
    let face = t.font.ttf();
    let upem = t.font.units_per_em();
    let size = t.size.to_pt();
    let mut x = 0.0;
    let mut bbox: Option<Rect> = None;
    for g in &t.glyphs {
        let ox = x + g.x_offset.get() * size;
        let oy = -g.y_offset.get() * size;
        if let Some(b) = face.glyph_bounding_box(ttf_parser::GlyphId(g.id)) {
            let s = size / upem;
            // Font units are y-up; the frame is y-down from the baseline.
            let r = Rect::transformed(
                ox + b.x_min as f64 * s,
                oy - b.y_max as f64 * s,
                ox + b.x_max as f64 * s,
                oy - b.y_min as f64 * s,
                ts,
            );
            bbox = Some(bbox.map_or(r, |a| a.union(r)));
        }
        x += g.x_advance.get() * size;
    }
    bbox
}

/// A box whose text is cut off: its key, its first cut text, that text's
/// location, how many more lines are cut, the farthest overflow (pt), and
/// the data field it shows when known.
type CutBox = (String, String, (Span, bool), usize, f64, Option<String>);

/// Where a design page sits: which piece, and whether the safe zone applies.
pub struct PieceInfo {
    pub what: String,
    /// The trim size in mm (the page frame is the trim box).
    pub w: f64,
    pub h: f64,
}

/// Everything a laid-out page draws, in drawing order.
fn seen_on(page: &typst_layout::Page) -> Vec<Seen> {
    let mut seen = Vec::new();
    walk(
        &page.frame,
        Transform::identity(),
        None,
        None,
        &mut Span::detached(),
        &mut Vec::new(),
        &mut seen,
    );
    seen
}

/// The size (points, as printed) of every run of text on a laid-out page:
/// what `docs/benchmarks.md` reports per game for card texts.
pub fn text_sizes(page: &typst_layout::Page) -> Vec<f64> {
    seen_on(page)
        .iter()
        .filter_map(|s| match s {
            Seen::Text { text, size, .. } if !text.trim().is_empty() => Some(*size),
            _ => None,
        })
        .collect()
}

/// Inspects one laid-out document. `pieces` names the design on each page
/// (pieces documents); other documents (sheets, rules, cover) are checked for
/// text size only.
pub fn inspect(
    world: &DocWorld,
    plan: &DocPlan,
    doc: &PagedDocument,
    pieces: Option<&[PieceInfo]>,
    limits: &Limits,
    sources: &mut SourceMap,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut reported: HashSet<(Code, String, Span, String)> = HashSet::new();
    let safe = limits.safe_mm * PT_PER_MM;
    for (n, page) in doc.pages().iter().enumerate() {
        let piece = pieces.and_then(|p| p.get(n));
        let what = match piece {
            Some(p) => p.what.clone(),
            None => format!("page {} of {}", n + 1, plan.out.display()),
        };
        let seen = seen_on(page);
        // Boxes whose text is cut off: the box, its first cut text, where, how many more lines, how far.
        let mut cut: Vec<CutBox> = Vec::new();
        // Boxes with text below the minimum size: the same, with the smallest size.
        let mut small: Vec<CutBox> = Vec::new();
        let zone = piece.map(|p| Rect {
            x0: safe,
            y0: safe,
            x1: p.w * PT_PER_MM - safe,
            y1: p.h * PT_PER_MM - safe,
        });
        for s in &seen {
            let (code, span, text, diag) = match s {
                Seen::Missing {
                    span,
                    exact,
                    chars,
                    text,
                } => {
                    let d = missing_glyph(&what, &plan.locale, chars, text);
                    push(
                        &mut out,
                        &mut reported,
                        world,
                        sources,
                        Code::MissingGlyph,
                        (&what, chars),
                        (*span, *exact),
                        d,
                    );
                    continue;
                }
                Seen::Text {
                    span,
                    exact,
                    field,
                    text,
                    size,
                    bbox,
                    clip,
                } => {
                    let text = text.trim();
                    if text.is_empty() {
                        continue;
                    }
                    // Cut off by its box: one finding per box (its first cut line, and
                    // how many follow), and the position of hidden text is then moot.
                    if let Some(c) = clip
                        && bbox.outside(c) > 0.3
                    {
                        let key = format!("{:.0},{:.0},{:.0},{:.0}", c.x0, c.y0, c.x1, c.y1);
                        match cut.iter_mut().find(|(k, ..)| *k == key) {
                            Some((_, _, _, more, worst, _)) => {
                                *more += 1;
                                *worst = worst.max(bbox.outside(c));
                            }
                            None => {
                                cut.push((key, text.to_owned(), (*span, *exact), 0, bbox.outside(c), field.clone()))
                            }
                        }
                        continue;
                    }
                    // Too small: one finding per box (a fitted box by its
                    // rectangle, other text by the template call that drew it).
                    if *size < limits.min_text_pt - 0.05 {
                        let key = match (field, clip) {
                            (Some(_), Some(c)) => format!("{:.0},{:.0},{:.0},{:.0}", c.x0, c.y0, c.x1, c.y1),
                            _ => format!("{span:?}"),
                        };
                        match small.iter_mut().find(|(k, ..)| *k == key) {
                            Some((_, _, _, more, smallest, _)) => {
                                *more += 1;
                                *smallest = smallest.min(*size);
                            }
                            None => small.push((key, text.to_owned(), (*span, *exact), 0, *size, field.clone())),
                        }
                    }
                    match zone {
                        Some(z) if bbox.outside(&z) > 0.1 => (
                            Code::PreflightSafeZone,
                            (*span, *exact),
                            text.to_owned(),
                            outside_safe(
                                &what,
                                &plan.locale,
                                &format!("«{text}»"),
                                bbox.outside(&z) / PT_PER_MM,
                                limits.safe_mm,
                            ),
                        ),
                        _ => continue,
                    }
                }
                Seen::Fill { .. } => continue,
                Seen::Image { .. } if !limits.images => continue,
                Seen::Key { span, bbox } => match zone {
                    Some(z) if bbox.outside(&z) > 0.1 => (
                        Code::PreflightSafeZone,
                        (*span, true),
                        String::new(),
                        outside_safe(
                            &what,
                            &plan.locale,
                            "a key element (labelled <key>)",
                            bbox.outside(&z) / PT_PER_MM,
                            limits.safe_mm,
                        ),
                    ),
                    _ => continue,
                },
                Seen::Image { span, ppi, w_mm, h_mm } => {
                    if *ppi >= limits.min_ppi - 0.5 {
                        continue;
                    }
                    (
                        Code::PreflightImageResolution,
                        (*span, true),
                        String::new(),
                        low_resolution(&what, &plan.locale, *ppi, *w_mm, *h_mm, limits.min_ppi),
                    )
                }
            };
            push(
                &mut out,
                &mut reported,
                world,
                sources,
                code,
                (&what, &text),
                span,
                diag,
            );
        }
        for o in super::overlap::find(&seen) {
            let d = super::overlap::diagnostic(&what, &plan.locale, &o);
            push(
                &mut out,
                &mut reported,
                world,
                sources,
                Code::PreflightOverlap,
                (&what, &o.text),
                (o.span, o.exact),
                d,
            );
        }
        // One finding per box, too small or cut off. A fitted box names its
        // field: point at the layout's call that made it rather than at the
        // shared helper that drew the text.
        let boxes = small.into_iter().map(|b| (Code::PreflightTextSize, b));
        for (code, (key, text, span, more, measure, field)) in
            boxes.chain(cut.into_iter().map(|b| (Code::PreflightClippedText, b)))
        {
            let whose = match &field {
                Some(f) => format!("field `{f}` of {what}"),
                None => what.clone(),
            };
            let d = if code == Code::PreflightTextSize {
                small_text(&whose, &plan.locale, &text, more, measure, limits.min_text_pt)
            } else {
                clipped_text(&whose, &plan.locale, &text, more, measure / PT_PER_MM)
            };
            let span = field
                .as_deref()
                .and_then(|f| fit_call(world, f))
                .map_or(span, |s| (s, true));
            push(&mut out, &mut reported, world, sources, code, (&what, &key), span, d);
        }
    }
    out
}

/// The span of the `fit-text(…, field: "<field>")` call in the layouts this
/// document loaded (shared helpers excluded), the first by path and position.
fn fit_call(world: &DocWorld, field: &str) -> Option<Span> {
    use typst::syntax::{LinkedNode, ast};
    fn find(node: &LinkedNode, field: &str) -> Option<Span> {
        if let Some(call) = node.cast::<ast::FuncCall>()
            && let ast::Expr::Ident(name) = call.callee()
            && name.as_str() == "fit-text"
            && call.args().items().any(|arg| {
                matches!(arg, ast::Arg::Named(n)
                    if n.name().as_str() == "field"
                        && matches!(n.expr(), ast::Expr::Str(s) if s.get().as_str() == field))
            })
        {
            return Some(node.span());
        }
        node.children().find_map(|c| find(&c, field))
    }
    world
        .loaded_sources()
        .iter()
        .filter(|s| !world.path_of(s.id()).starts_with("templates/shared"))
        .find_map(|s| find(&LinkedNode::new(s.root()), field))
}

/// Adds a finding at its template line, once per piece, code, line and text.
#[allow(clippy::too_many_arguments)]
fn push(
    out: &mut Vec<Diagnostic>,
    reported: &mut HashSet<(Code, String, Span, String)>,
    world: &DocWorld,
    sources: &mut SourceMap,
    code: Code,
    (what, text): (&str, &str),
    (span, exact): (Span, bool),
    diag: Diagnostic,
) {
    if !reported.insert((code, what.to_owned(), span, text.to_owned())) {
        return;
    }
    out.push(locate(world, sources, span, exact, diag));
}

/// Points a diagnostic at the template line that made the element (or, for
/// text from the data, the element it sits in), or says plainly that it has
/// no location.
fn locate(world: &DocWorld, sources: &mut SourceMap, span: Span, exact: bool, diag: Diagnostic) -> Diagnostic {
    use typst::World;
    if let (Some(id), Some(range)) = (span.id(), world.range(span))
        && let Ok(src) = world.source(id)
    {
        let text: std::sync::Arc<str> = src.text().into();
        let file = sources.add(world.path_of(id), text.clone());
        return diag
            .at(span_of_offset(&text, file, range.start, range.end))
            .label(if exact {
                "drawn here"
            } else {
                "the text is drawn after this (its words come from the data)"
            });
    }
    diag.note("no location: typst gives no template line for this element")
}

fn small_text(what: &str, locale: &str, text: &str, more: usize, size: f64, min: f64) -> Diagnostic {
    Diagnostic::new(
        Code::PreflightTextSize,
        format!("text of {what} ({locale}) prints at {size:.1} pt, below {min} pt"),
    )
    .found(format!(
        "«{}»{} at {size:.1} pt",
        short(text),
        match more {
            0 => String::new(),
            1 => " and 1 more line".to_owned(),
            n => format!(" and {n} more lines"),
        }
    ))
    .expected(format!("text of at least {min} pt, readable when printed"))
}

fn outside_safe(what: &str, locale: &str, thing: &str, by_mm: f64, safe_mm: f64) -> Diagnostic {
    Diagnostic::new(
        Code::PreflightSafeZone,
        format!(
            "{} of {what} ({locale}) reaches {by_mm:.1} mm outside the safe zone",
            short(thing)
        ),
    )
    .found(format!("{by_mm:.1} mm past the line {safe_mm} mm inside the trim"))
    .expected(format!(
        "text and key elements at least {safe_mm} mm inside the cut line"
    ))
}

fn clipped_text(what: &str, locale: &str, text: &str, more: usize, by_mm: f64) -> Diagnostic {
    Diagnostic::new(
        Code::PreflightClippedText,
        format!("text of {what} ({locale}) does not fit its box"),
    )
    .found(format!(
        "«{}»{} cut off, up to {by_mm:.1} mm past the edge of the box",
        short(text),
        match more {
            0 => String::new(),
            1 => " and 1 more line".to_owned(),
            n => format!(" and {n} more lines"),
        }
    ))
    .expected("text that fits its box: shorten it, or let the layout shrink it (a fitted text box)")
}

fn missing_glyph(what: &str, locale: &str, chars: &str, text: &str) -> Diagnostic {
    let codes: Vec<String> = chars
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| format!("U+{:04X}", c as u32))
        .collect();
    Diagnostic::new(
        Code::MissingGlyph,
        format!("text of {what} ({locale}) has characters no font in `fonts/` can draw"),
    )
    .found(if chars.trim() == text.trim() {
        format!("«{}» ({})", chars.trim(), codes.join(", "))
    } else {
        format!("«{}» in «{}» ({})", chars.trim(), short(text), codes.join(", "))
    })
    .expected("characters the project's fonts have: add a font that has them to `fonts/`, or change the text")
}

fn low_resolution(what: &str, locale: &str, ppi: f64, w_mm: f64, h_mm: f64, min: f64) -> Diagnostic {
    Diagnostic::new(
        Code::PreflightImageResolution,
        format!("an image of {what} ({locale}) prints at {ppi:.0} ppi"),
    )
    .found(format!("{ppi:.0} ppi at {w_mm:.1} × {h_mm:.1} mm"))
    .expected(format!(
        "at least {min:.0} ppi: {:.0} × {:.0} pixels or more for this size",
        (w_mm / 25.4 * min).ceil(),
        (h_mm / 25.4 * min).ceil()
    ))
}

fn short(s: &str) -> String {
    let s: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if s.chars().count() > 60 {
        format!("{}…", s.chars().take(59).collect::<String>())
    } else {
        s
    }
}
