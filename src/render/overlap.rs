//! Nothing covers anything: what preflight reports when a laid-out page
//! prints text over other text, or draws a filled shape over text drawn
//! before it (a legend box over a label). Both hide words a player needs.
//! Measured on the same frames as the rest of preflight (glyph outlines and
//! shapes through every transform and clip), in drawing order.

use typst::layout::{Point, Transform};
use typst::syntax::Span;
use typst::visualize::{CurveItem, Geometry};

use super::preflight::{Rect, Seen};
use crate::diag::{Code, Diagnostic};

/// Share of a text's ink box another text or a later fill must cover to be
/// reported: a kerned letter touching its neighbour's box is not an overlap.
const COVERED: f64 = 0.3;

/// One overlap: the hidden text, where it was drawn, and what covers it.
pub(super) struct Overlap {
    pub text: String,
    pub span: Span,
    pub exact: bool,
    /// The other text, or `None` for a filled shape.
    pub over: Option<String>,
    pub share: f64,
}

/// Texts covered by another text or by a fill drawn after them.
pub(super) fn find(seen: &[Seen]) -> Vec<Overlap> {
    let mut out = Vec::new();
    let texts: Vec<(usize, &str, Span, bool, Rect)> = seen
        .iter()
        .enumerate()
        .filter_map(|(i, s)| match s {
            // Only what prints: the part of the text inside its clip.
            Seen::Text {
                span,
                exact,
                text,
                bbox,
                clip,
                ..
            } => {
                let visible = clip.map_or(*bbox, |c| bbox.intersect(c));
                (!text.trim().is_empty() && visible.area() > 0.0).then(|| (i, text.trim(), *span, *exact, visible))
            }
            _ => None,
        })
        .collect();
    for (n, &(i, text, span, exact, bbox)) in texts.iter().enumerate() {
        let area = bbox.area();
        // Text over text: two runs whose ink boxes share a good part of the
        // smaller one (punctuation hugging the word before it does not count).
        let words = |t: &str| t.chars().any(char::is_alphanumeric);
        if let Some(&(_, other, ..)) = texts[n + 1..].iter().find(|(_, o, _, _, b)| {
            let shared = bbox.intersect(*b).area();
            let smaller = if area < b.area() { text } else { o };
            shared > COVERED * area.min(b.area()) && words(smaller)
        }) {
            out.push(Overlap {
                text: text.to_owned(),
                span,
                exact,
                over: Some(other.to_owned()),
                share: 1.0,
            });
            continue;
        }
        // A fill drawn later over the text: the share of the text's box
        // inside the fill's outline (and its clip), sampled on a grid.
        let covered = seen[i + 1..].iter().find_map(|s| match s {
            Seen::Fill { bbox: f, rings, clip } if bbox.intersect(*f).area() > COVERED * area => {
                let share = inside_share(&bbox, rings, *clip);
                (share > COVERED).then_some(share)
            }
            _ => None,
        });
        if let Some(share) = covered {
            out.push(Overlap {
                text: text.to_owned(),
                span,
                exact,
                over: None,
                share,
            });
        }
    }
    out
}

/// The outline of a shape on the page: each subpath a ring of points, Bézier
/// segments flattened. Lines have no inside.
pub(super) fn rings(geometry: &Geometry, ts: Transform) -> Vec<Vec<(f64, f64)>> {
    let at = |p: Point| {
        let q = p.transform(ts);
        (q.x.to_pt(), q.y.to_pt())
    };
    match geometry {
        Geometry::Line(_) => Vec::new(),
        Geometry::Rect(size) => vec![
            [
                (0.0, 0.0),
                (size.x.to_pt(), 0.0),
                (size.x.to_pt(), size.y.to_pt()),
                (0.0, size.y.to_pt()),
            ]
            .iter()
            .map(|&(x, y)| at(Point::new(typst::layout::Abs::pt(x), typst::layout::Abs::pt(y))))
            .collect(),
        ],
        Geometry::Curve(curve) => {
            let mut out: Vec<Vec<(f64, f64)>> = Vec::new();
            let mut ring: Vec<(f64, f64)> = Vec::new();
            let mut last = Point::zero();
            for item in &curve.0 {
                match item {
                    CurveItem::Move(p) => {
                        if ring.len() > 2 {
                            out.push(std::mem::take(&mut ring));
                        }
                        ring.clear();
                        ring.push(at(*p));
                        last = *p;
                    }
                    CurveItem::Line(p) => {
                        ring.push(at(*p));
                        last = *p;
                    }
                    CurveItem::Cubic(a, b, p) => {
                        for k in 1..=8 {
                            let t = k as f64 / 8.0;
                            let u = 1.0 - t;
                            let mix = |p0: f64, p1: f64, p2: f64, p3: f64| {
                                u * u * u * p0 + 3.0 * u * u * t * p1 + 3.0 * u * t * t * p2 + t * t * t * p3
                            };
                            let x = mix(last.x.to_pt(), a.x.to_pt(), b.x.to_pt(), p.x.to_pt());
                            let y = mix(last.y.to_pt(), a.y.to_pt(), b.y.to_pt(), p.y.to_pt());
                            ring.push(at(Point::new(typst::layout::Abs::pt(x), typst::layout::Abs::pt(y))));
                        }
                        last = *p;
                    }
                    CurveItem::Close => {}
                }
            }
            if ring.len() > 2 {
                out.push(ring);
            }
            out
        }
    }
}

/// The share of a box's points (a 6 × 6 grid) inside the rings (even-odd)
/// and inside the clip.
fn inside_share(b: &Rect, rings: &[Vec<(f64, f64)>], clip: Option<Rect>) -> f64 {
    const N: usize = 6;
    let mut inside = 0;
    for i in 0..N {
        for j in 0..N {
            let x = b.x0 + (b.x1 - b.x0) * (i as f64 + 0.5) / N as f64;
            let y = b.y0 + (b.y1 - b.y0) * (j as f64 + 0.5) / N as f64;
            if clip.is_some_and(|c| x < c.x0 || x > c.x1 || y < c.y0 || y > c.y1) {
                continue;
            }
            let crossings: usize = rings
                .iter()
                .map(|r| {
                    (0..r.len())
                        .filter(|&k| {
                            let (a, c) = (r[k], r[(k + 1) % r.len()]);
                            (a.1 > y) != (c.1 > y) && x < a.0 + (y - a.1) * (c.0 - a.0) / (c.1 - a.1)
                        })
                        .count()
                })
                .sum();
            if crossings % 2 == 1 {
                inside += 1;
            }
        }
    }
    inside as f64 / (N * N) as f64
}

pub(super) fn diagnostic(what: &str, locale: &str, o: &Overlap) -> Diagnostic {
    let short = |s: &str| -> String {
        let t: String = s.chars().take(40).collect();
        if t.len() < s.len() { format!("{t}…") } else { t }
    };
    let (message, found) = match &o.over {
        Some(other) => (
            format!("text of {what} ({locale}) prints over other text"),
            format!("«{}» and «{}» on the same spot", short(&o.text), short(other)),
        ),
        None => (
            format!("text of {what} ({locale}) is covered by a shape drawn over it"),
            format!("«{}», {:.0} % of it hidden", short(&o.text), o.share * 100.0),
        ),
    };
    Diagnostic::new(Code::PreflightOverlap, message)
        .found(found)
        .expected("every text readable: nothing drawn over it")
}
