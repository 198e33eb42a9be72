//! Rendering: validated model → view models (JSON) → typst layouts in
//! `templates/` → PDF. No I/O here except through the typst World, which
//! reads templates and fonts from the project root.

pub mod impose;
pub mod world;

use std::path::PathBuf;

use serde::Serialize;
use serde_json::{Map, Value, json};
use typst::WorldExt;
use typst::diag::SourceDiagnostic;
use typst::foundations::Smart;
use typst_layout::PagedDocument;

use crate::diag::{Code, Diagnostic, SourceMap};
use crate::model::{Component, FieldValue, Game, Kind, Shape};
use crate::pack::yaml::span_of_offset;
use impose::{
    Duplex, Grid, Line, Paper, Rect, Settings, Slot, choose_grid, fold_mirror, gutterfold_areas, mirror, mirror_line,
    printable,
};
use world::{DocWorld, Shared};

/// Where fronts and backs go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Layout {
    /// Each front page is followed by its back page, for duplex printing.
    Duplex,
    /// Fronts on the left half, backs on the right half, fold in the middle.
    Gutterfold,
}

/// What to build.
#[derive(Clone, Debug)]
pub struct KitOptions {
    pub papers: Vec<Paper>,
    /// Locales to build; `None` = every locale of each pack.
    pub locales: Option<Vec<String>>,
    pub duplex: Duplex,
    pub layout: Layout,
    pub ink_saver: bool,
    pub settings: Settings,
}

impl Default for KitOptions {
    fn default() -> Self {
        KitOptions {
            papers: vec![impose::A4, impose::LETTER],
            locales: None,
            duplex: Duplex::Long,
            layout: Layout::Duplex,
            ink_saver: false,
            settings: Settings::default(),
        }
    }
}

/// One part of a kit: one PDF per game, locale and paper.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Part {
    Cover,
    Cards,
    Tokens,
    Sheets,
    Boards,
}

impl Part {
    pub fn name(self) -> &'static str {
        match self {
            Part::Cover => "cover",
            Part::Cards => "cards",
            Part::Tokens => "tokens",
            Part::Sheets => "sheets",
            Part::Boards => "boards",
        }
    }

    fn of(shape: Shape) -> Option<Part> {
        match shape {
            Shape::Card => Some(Part::Cards),
            Shape::Token | Shape::Counter => Some(Part::Tokens),
            Shape::Sheet => Some(Part::Sheets),
            Shape::Board => Some(Part::Boards),
            Shape::None => None,
        }
    }
}

/// A document to compile: its data, the main file that lays it out, where it goes.
#[derive(Clone, Debug)]
pub struct DocPlan {
    pub game: String,
    pub locale: String,
    pub paper: Paper,
    pub part: Part,
    /// Relative output path: `<game>/<locale>/<game>-<part>-<paper>.pdf`.
    pub out: PathBuf,
    pub main: String,
    pub data: Value,
    /// Pages the plan lays out (known before compiling).
    pub pages: usize,
}

/// One placed piece.
#[derive(Clone, Debug, Serialize)]
struct Item {
    kind: String,
    id: String,
    copy: u32,
    /// `front` or `back`: which design the slot shows.
    face: &'static str,
    #[serde(flatten)]
    slot: Slot,
}

/// One page of a sheet document.
#[derive(Clone, Debug, Serialize)]
struct Page {
    side: &'static str,
    kind: String,
    items: Vec<Item>,
    marks: Vec<Line>,
    /// x of the fold line (gutterfold), if any.
    fold: Option<f64>,
    /// Board tiling: which tile of how many.
    #[serde(skip_serializing_if = "Option::is_none")]
    tile: Option<Value>,
}

/// Whether a kind prints backs: cards do, others do not.
pub fn has_backs(kind: &Kind) -> bool {
    kind.shape == Shape::Card
}

/// The text of a value in one locale: texts become strings, the rest stays.
fn resolve(v: &FieldValue, locale: &str) -> Value {
    match v {
        FieldValue::Text(t) => Value::String(t.get(locale).to_owned()),
        FieldValue::List(items) => Value::Array(items.iter().map(|i| resolve(i, locale)).collect()),
        FieldValue::Record(r) => Value::Object(r.iter().map(|(k, v)| (k.clone(), resolve(v, locale))).collect()),
        other => serde_json::to_value(other).unwrap_or(Value::Null),
    }
}

fn component_view(c: &Component, locale: &str, tera: &tera::Tera) -> Value {
    let ctx = crate::text::context(c, locale);
    let mut fields: Map<String, Value> = c.fields.iter().map(|(k, v)| (k.clone(), resolve(v, locale))).collect();
    // Texts that quote values are rendered here, once per locale, before layout.
    for v in fields.values_mut() {
        render_texts(v, tera, &ctx);
    }
    json!({
        "id": c.id,
        "kind": c.kind,
        "name": c.name.get(locale),
        "copies": c.copies,
        "sample": !c.sample.is_none(),
        // Which values are invented: every field (`true`) or the listed ones.
        "sample_fields": match &c.sample {
            crate::model::Sample::Fields(f) => json!(f),
            crate::model::Sample::All => json!(true),
            crate::model::Sample::None => json!([]),
        },
        "fields": fields,
    })
}

fn render_texts(v: &mut Value, tera: &tera::Tera, ctx: &tera::Context) {
    match v {
        Value::String(s) if crate::text::is_template(s) => {
            // `check` has rendered every template already; a failure here cannot happen.
            if let Ok(r) = crate::text::render(tera, s, ctx) {
                *s = r;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|i| render_texts(i, tera, ctx)),
        Value::Object(m) => m.values_mut().for_each(|i| render_texts(i, tera, ctx)),
        _ => {}
    }
}

/// The game as templates see it in one locale: kinds with their sizes, and
/// every component by kind and id, texts resolved.
pub fn game_view(game: &Game, locale: &str) -> Value {
    let tera = crate::text::engine();
    let kinds: Map<String, Value> = game
        .kinds
        .values()
        .map(|k| {
            let size = k.size.as_ref().and_then(|s| game.sizes.get(s));
            (
                k.id.clone(),
                json!({
                    "name": k.name.get(locale),
                    "shape": k.shape,
                    "size": size,
                    "backs": has_backs(k),
                }),
            )
        })
        .collect();
    let components: Map<String, Value> = game
        .components
        .iter()
        .map(|(kind, list)| {
            let by_id: Map<String, Value> = list
                .iter()
                .map(|c| (c.id.clone(), component_view(c, locale, &tera)))
                .collect();
            (kind.clone(), Value::Object(by_id))
        })
        .collect();
    json!({
        "id": game.id,
        "name": game.name.get(locale),
        "kinds": kinds,
        "components": components,
    })
}

/// Plans every document of one game's kit in one locale and paper.
pub fn plan_game(game: &Game, locale: &str, paper: Paper, opts: &KitOptions, template: &str) -> Vec<DocPlan> {
    let view = game_view(game, locale);
    let mut docs = Vec::new();
    for part in [Part::Cards, Part::Tokens, Part::Sheets, Part::Boards] {
        let pages = match part {
            Part::Boards => board_pages(game, paper, opts),
            _ => sheet_pages(game, part, paper, opts),
        };
        if pages.is_empty() {
            continue;
        }
        docs.push(doc(game, locale, paper, part, opts, template, &view, pages));
    }
    let summary: Vec<Value> = docs
        .iter()
        .map(|d| {
            json!({
                "part": d.part,
                "file": d.out.file_name().map(|f| f.to_string_lossy().into_owned()),
                "pages": d.pages,
                "duplex": d.part == Part::Cards && opts.layout == Layout::Duplex,
            })
        })
        .collect();
    let kit: Vec<Value> = game
        .kit
        .iter()
        .map(|k| json!({"name": k.name.get(locale), "count": k.count}))
        .collect();
    let cover_pages = vec![
        json!({"side": "cover", "kind": "", "items": [], "marks": [], "fold": null}),
        json!({"side": "duplex-test", "kind": "", "items": [], "marks": [], "fold": null}),
        json!({"side": "duplex-test-back", "kind": "", "items": [], "marks": [], "fold": null}),
    ];
    let mut cover = doc(game, locale, paper, Part::Cover, opts, template, &view, Vec::new());
    cover.data["pages"] = Value::Array(cover_pages);
    cover.data["documents"] = Value::Array(summary);
    cover.data["kit"] = Value::Array(kit);
    cover.pages = 3;
    docs.insert(0, cover);
    docs
}

#[allow(clippy::too_many_arguments)]
fn doc(
    game: &Game,
    locale: &str,
    paper: Paper,
    part: Part,
    opts: &KitOptions,
    template: &str,
    view: &Value,
    pages: Vec<Page>,
) -> DocPlan {
    let n = pages.len();
    let data = json!({
        "locale": locale,
        "part": part,
        "paper": paper,
        "printable": printable(&paper, &opts.settings),
        "settings": {
            "margin": opts.settings.margin,
            "bleed": opts.settings.bleed,
            "duplex": opts.duplex,
            "layout": opts.layout,
            "ink_saver": opts.ink_saver,
        },
        "game": view,
        "pages": pages,
    });
    DocPlan {
        game: game.id.clone(),
        locale: locale.to_owned(),
        paper,
        part,
        out: PathBuf::from(&game.id)
            .join(locale)
            .join(format!("{}-{}-{}.pdf", game.id, part.name(), paper.name)),
        main: main_source(template),
        data,
        pages: n,
    }
}

/// The generated main file: import the shared kit layout and the game's templates.
pub fn main_source(template: &str) -> String {
    format!(
        "#import \"/templates/shared/kit.typ\": render-kit\n#import \"{template}\" as game\n#render-kit(json(\"/data.json\"), game)\n"
    )
}

/// Pages of fronts (and backs) for the kinds of one part.
fn sheet_pages(game: &Game, part: Part, paper: Paper, opts: &KitOptions) -> Vec<Page> {
    let s = &opts.settings;
    let mut pages = Vec::new();
    for kind in game.kinds.values().filter(|k| Part::of(k.shape) == Some(part)) {
        let Some(size) = kind.size.as_ref().and_then(|s| game.sizes.get(s)) else {
            continue;
        };
        let copies: Vec<(&Component, u32)> = game
            .components
            .get(&kind.id)
            .into_iter()
            .flatten()
            .flat_map(|c| (1..=c.copies).map(move |i| (c, i)))
            .collect();
        if copies.is_empty() {
            continue;
        }
        let gutter = opts.layout == Layout::Gutterfold && has_backs(kind);
        let (area, fold) = if gutter {
            let (a, f) = gutterfold_areas(&paper, s);
            (a, Some(f))
        } else {
            (printable(&paper, s), None)
        };
        let Some(grid) = choose_grid(area, size.width, size.height, s) else {
            // Larger than the printable area: print each piece tiled over pages,
            // like a board, rather than leave it out.
            for (c, _) in &copies {
                pages.extend(tiled_pages(kind, c, None, size.width, size.height, paper, s));
            }
            continue;
        };
        let full = printable(&paper, s);
        for chunk in copies.chunks(grid.capacity()) {
            let slots = grid.slots(chunk.len());
            let items: Vec<Item> = chunk
                .iter()
                .zip(&slots)
                .map(|((c, copy), slot)| Item {
                    kind: kind.id.clone(),
                    id: c.id.clone(),
                    copy: *copy,
                    face: "front",
                    slot: *slot,
                })
                .collect();
            let marks = grid_marks(&grid, &area, full, fold);
            if let Some(fold) = fold {
                let mut all = items.clone();
                all.extend(items.iter().map(|i| Item {
                    slot: fold_mirror(&i.slot, fold),
                    face: "back",
                    ..i.clone()
                }));
                let mut both = marks.clone();
                both.extend(marks.iter().map(|m| Line {
                    x1: 2.0 * fold - m.x1,
                    x2: 2.0 * fold - m.x2,
                    ..*m
                }));
                pages.push(Page {
                    side: "gutterfold",
                    kind: kind.id.clone(),
                    items: all,
                    marks: both,
                    fold: Some(fold),
                    tile: None,
                });
                continue;
            }
            pages.push(Page {
                side: "front",
                kind: kind.id.clone(),
                items: items.clone(),
                marks: marks.clone(),
                fold: None,
                tile: None,
            });
            if has_backs(kind) {
                pages.push(Page {
                    side: "back",
                    kind: kind.id.clone(),
                    items: items
                        .iter()
                        .map(|i| Item {
                            slot: mirror(&i.slot, &paper, opts.duplex),
                            face: "back",
                            ..i.clone()
                        })
                        .collect(),
                    marks: marks.iter().map(|m| mirror_line(m, &paper, opts.duplex)).collect(),
                    fold: None,
                    tile: None,
                });
            }
        }
    }
    pages
}

/// Crop marks of a grid. In gutterfold the marks stay in the left half.
fn grid_marks(grid: &Grid, area: &Rect, full: Rect, fold: Option<f64>) -> Vec<Line> {
    match fold {
        None => grid.marks(full),
        Some(_) => grid.marks(Rect {
            x: full.x,
            y: full.y,
            w: area.w,
            h: full.h,
        }),
    }
}

/// Board pages: a board that fits the paper (upright or turned) sits on one
/// page; a larger one is tiled with overlap.
fn board_pages(game: &Game, paper: Paper, opts: &KitOptions) -> Vec<Page> {
    let s = &opts.settings;
    let mut pages = Vec::new();
    for kind in game.kinds.values().filter(|k| k.shape == Shape::Board) {
        let Some(size) = kind.size.as_ref().and_then(|s| game.sizes.get(s)) else {
            continue;
        };
        // A board with variants prints once per variant (e.g. per scenario).
        let variants: Vec<Option<&str>> = match &kind.variants {
            Some(v) => game
                .components
                .get(v)
                .into_iter()
                .flatten()
                .map(|c| Some(c.id.as_str()))
                .collect(),
            None => vec![None],
        };
        for (c, variant) in game
            .components
            .get(&kind.id)
            .into_iter()
            .flatten()
            .flat_map(|c| variants.iter().map(move |v| (c, *v)))
        {
            pages.extend(tiled_pages(
                kind,
                c,
                variant.map(|v| (kind.variants.as_deref().unwrap_or(""), v)),
                size.width,
                size.height,
                paper,
                s,
            ));
        }
    }
    pages
}

/// The pages of one piece too large for one page, tiled with overlap.
fn tiled_pages(
    kind: &Kind,
    c: &Component,
    variant: Option<(&str, &str)>,
    width: f64,
    height: f64,
    paper: Paper,
    s: &Settings,
) -> Vec<Page> {
    let tiles = impose::tiles(width, height, &paper, s, 10.0);
    let cols = tiles.iter().map(|t| t.col).max().unwrap_or(0) + 1;
    let rows = tiles.iter().map(|t| t.row).max().unwrap_or(0) + 1;
    tiles
        .iter()
        .map(|t| Page {
            side: "board",
            kind: kind.id.clone(),
            items: vec![Item {
                kind: kind.id.clone(),
                id: c.id.clone(),
                copy: 1,
                face: if kind.shape == Shape::Board { "board" } else { "front" },
                slot: Slot {
                    x: t.dst.x,
                    y: t.dst.y,
                    w: t.dst.w,
                    h: t.dst.h,
                    bleed: [0.0; 4],
                },
            }],
            marks: Vec::new(),
            fold: None,
            tile: Some(json!({
                "col": t.col, "row": t.row, "cols": cols, "rows": rows,
                "src": t.src, "board": {"width": width, "height": height},
                "overlap": 10.0,
                "variant": variant.map(|(k, v)| json!({"kind": k, "id": v})),
            })),
        })
        .collect()
}

/// A compiled document.
pub struct Compiled {
    pub document: PagedDocument,
    pub warnings: Vec<Diagnostic>,
}

/// Compiles a plan with typst. Errors come back as diagnostics that point
/// into the templates; `sources` receives the template texts they show.
pub fn compile(shared: &Shared, plan: &DocPlan, sources: &mut SourceMap) -> Result<Compiled, Vec<Diagnostic>> {
    let data = serde_json::to_vec(&plan.data).unwrap_or_default();
    let world = DocWorld::new(shared, plan.main.clone(), data);
    let warned = typst::compile::<PagedDocument>(&world);
    let warnings = warned
        .warnings
        .iter()
        .map(|w| typst_diagnostic(&world, w, plan, sources, Code::TemplateWarning))
        .collect();
    match warned.output {
        Ok(document) => Ok(Compiled { document, warnings }),
        Err(errors) => {
            let piece = culprit(shared, plan);
            Err(errors
                .iter()
                .map(|e| {
                    let d = typst_diagnostic(&world, e, plan, sources, Code::TemplateError);
                    match &piece {
                        Some(p) => d.note(format!("while drawing {p}")),
                        None => d,
                    }
                })
                .collect())
        }
    }
}

/// Finds the first piece whose drawing fails on its own, by compiling one
/// piece at a time. Runs only after a document failed.
fn culprit(shared: &Shared, plan: &DocPlan) -> Option<String> {
    let pages = plan.data["pages"].as_array()?;
    let mut seen = std::collections::HashSet::new();
    for page in pages {
        for item in page["items"].as_array().into_iter().flatten() {
            let key = format!("{}/{}/{}", item["kind"], item["id"], item["face"]);
            if !seen.insert(key) || seen.len() > 400 {
                continue;
            }
            let mut data = plan.data.clone();
            let mut one = page.clone();
            one["items"] = json!([item]);
            one["marks"] = json!([]);
            data["pages"] = json!([one]);
            let world = DocWorld::new(shared, plan.main.clone(), serde_json::to_vec(&data).unwrap_or_default());
            if typst::compile::<PagedDocument>(&world).output.is_err() {
                let (kind, id) = (item["kind"].as_str()?, item["id"].as_str()?);
                let name = plan.data["game"]["components"][kind][id]["name"].as_str().unwrap_or(id);
                return Some(format!(
                    "the {} of {kind} `{id}` ({name})",
                    item["face"].as_str().unwrap_or("front")
                ));
            }
        }
    }
    None
}

/// Writes a compiled document as PDF bytes with fixed metadata.
pub fn pdf(shared: &Shared, plan: &DocPlan, doc: &PagedDocument) -> Result<Vec<u8>, String> {
    let dt = shared.now();
    let options = typst_pdf::PdfOptions {
        ident: Smart::Custom(format!("pnpkit/{}", plan.out.display())),
        creator: Smart::Custom(Some(format!("pnpkit {}", env!("CARGO_PKG_VERSION")))),
        timestamp: Some(typst_pdf::Timestamp::new_utc(dt)),
        ..Default::default()
    };
    typst_pdf::pdf(doc, &options).map_err(|errs| {
        errs.iter()
            .map(|e| e.message.to_string())
            .collect::<Vec<_>>()
            .join("; ")
    })
}

fn typst_diagnostic(
    world: &DocWorld,
    d: &SourceDiagnostic,
    plan: &DocPlan,
    sources: &mut SourceMap,
    code: Code,
) -> Diagnostic {
    let what = format!(
        "{} ({} {}, {})",
        plan.out.display(),
        plan.part.name(),
        plan.locale,
        plan.paper.name
    );
    let mut diag =
        Diagnostic::new(code, format!("{}: {}", code_title(code), d.message)).note(format!("while building {what}"));
    if let (Some(id), Some(range)) = (d.span.id(), world.range(d.span)) {
        use typst::World;
        if let Ok(src) = world.source(id) {
            let text: std::sync::Arc<str> = src.text().into();
            let path = world.path_of(id);
            let file = sources.add(path, text.clone());
            let span = span_of_offset(&text, file, range.start, range.end);
            diag = diag.at(span).label(d.message.to_string());
        }
    }
    for hint in &d.hints {
        diag = diag.help(hint.v.to_string());
    }
    diag
}

fn code_title(code: Code) -> &'static str {
    match code {
        Code::TemplateWarning => "template warning",
        _ => "template error",
    }
}
