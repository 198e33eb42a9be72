//! Rendering: validated model → view models (JSON) → typst layouts in
//! `templates/` → PDF. No I/O here except through the typst World, which
//! reads templates and fonts from the project root.

pub mod book;
pub mod impose;
pub mod pipeline;
pub mod world;

use std::path::PathBuf;

use serde::Serialize;
use serde_json::{Map, Value, json};
use typst::WorldExt;
use typst::diag::SourceDiagnostic;
use typst::foundations::Smart;
use typst_layout::PagedDocument;

use crate::diag::{Code, Diagnostic, SourceMap};
use crate::model::{Component, Game, Kind, Shape};
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
    /// Every design once, at trim size with bleed: laid out once per locale,
    /// placed by the sheet documents, and written for print shops.
    Pieces,
    /// The full rules reference.
    Rules,
    /// The 1–2 page quick reference.
    Quickref,
}

impl Part {
    pub fn name(self) -> &'static str {
        match self {
            Part::Cover => "cover",
            Part::Cards => "cards",
            Part::Tokens => "tokens",
            Part::Sheets => "sheets",
            Part::Boards => "boards",
            Part::Pieces => "pieces",
            Part::Rules => "rules",
            Part::Quickref => "quickref",
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
    /// The paper of a sheet document; `None` for the pieces document.
    pub paper: Option<Paper>,
    pub part: Part,
    /// Relative output path: `<game>/<locale>/<game>-<part>-<paper>.pdf`.
    pub out: PathBuf,
    pub main: String,
    pub data: Value,
    /// Pages the plan lays out (known before compiling).
    pub pages: usize,
}

/// One placed piece: which design (a page of the pieces document) and where.
#[derive(Clone, Debug, Serialize)]
struct Item {
    kind: String,
    id: String,
    copy: u32,
    /// `front`, `back` or `board`: which design the slot shows.
    face: &'static str,
    /// The chunk document (virtual path) and its page (1-based) holding the design.
    file: String,
    piece: usize,
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

fn component_view(c: &Component, locale: &str, env: &crate::text::TextEnv) -> Value {
    let mut fields: Map<String, Value> = c.fields.iter().map(|(k, v)| (k.clone(), v.localized(locale))).collect();
    // Texts that quote values are rendered here, once per locale, before layout.
    for v in fields.values_mut() {
        render_texts(v, env, c);
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

fn render_texts(v: &mut Value, env: &crate::text::TextEnv, c: &Component) {
    match v {
        Value::String(s) if crate::text::is_template(s) => {
            // `check` has rendered every template already; a failure here cannot happen.
            if let Ok(r) = env.render(s, Some(c)) {
                *s = r;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|i| render_texts(i, env, c)),
        Value::Object(m) => m.values_mut().for_each(|i| render_texts(i, env, c)),
        _ => {}
    }
}

/// The game as templates see it in one locale: kinds with their sizes, and
/// every component by kind and id, texts resolved.
pub fn game_view(game: &Game, locale: &str) -> Value {
    let env = crate::text::TextEnv::new(
        &game.reference.glossary,
        &game.reference.facts,
        &game.components,
        locale,
    );
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
                .map(|c| (c.id.clone(), component_view(c, locale, &env)))
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

/// Every distinct design of a game in one locale, one page each, laid out
/// once and placed by the sheet documents of every paper. Designs are split
/// into chunk documents of at most [`CHUNK`] pages: typst's cost of placing a
/// page of a PDF grows with that PDF's size, and chunks compile in parallel.
pub struct PiecesPlan {
    pub locale: String,
    /// One document per chunk of designs; compiled, placed, never written.
    pub chunks: Vec<DocPlan>,
    /// The print-shop file: every design on its own page with a TrimBox,
    /// assembled from the chunks.
    pub merged: DocPlan,
    index: std::collections::HashMap<String, (usize, usize)>,
}

/// Designs per chunk document.
pub const CHUNK: usize = 100;

/// The virtual path of a chunk document inside the documents that place it.
pub fn chunk_path(chunk: usize) -> String {
    format!("/pieces-{}.pdf", chunk + 1)
}

fn piece_key(kind: &str, id: &str, face: &str, variant: Option<&str>) -> String {
    format!("{kind}\u{1f}{id}\u{1f}{face}\u{1f}{}", variant.unwrap_or(""))
}

impl PiecesPlan {
    /// The chunk (0-based) and page (1-based) of a design.
    pub fn locate(&self, kind: &str, id: &str, face: &str, variant: Option<&str>) -> (usize, usize) {
        self.index
            .get(&piece_key(kind, id, face, variant))
            .copied()
            .unwrap_or((0, 1))
    }
}

/// The variants a board prints: one per component of its `variants` kind, or none.
fn variants<'a>(game: &'a Game, kind: &'a Kind) -> Vec<Option<&'a str>> {
    match &kind.variants {
        Some(v) => game
            .components
            .get(v)
            .into_iter()
            .flatten()
            .map(|c| Some(c.id.as_str()))
            .collect(),
        None => vec![None],
    }
}

/// Plans the pieces documents of a game in one locale. Each page is one design
/// at its trim size with the full bleed around it (a PDF TrimBox); boards have no bleed.
pub fn plan_pieces(game: &Game, locale: &str, opts: &KitOptions, template: &str) -> PiecesPlan {
    let bleed = opts.settings.bleed;
    let mut pieces = Vec::new();
    let mut index = std::collections::HashMap::new();
    for kind in game.kinds.values().filter(|k| k.shape != Shape::None) {
        let Some(size) = kind.size.as_ref().and_then(|s| game.sizes.get(s)) else {
            continue;
        };
        let board = kind.shape == Shape::Board;
        for c in game.components.get(&kind.id).into_iter().flatten() {
            let faces: &[&str] = if board {
                &["board"]
            } else if has_backs(kind) {
                &["front", "back"]
            } else {
                &["front"]
            };
            let vars = if board { variants(game, kind) } else { vec![None] };
            for face in faces {
                for variant in &vars {
                    let n = pieces.len();
                    index.insert(piece_key(&kind.id, &c.id, face, *variant), (n / CHUNK, n % CHUNK + 1));
                    pieces.push(json!({
                        "kind": kind.id,
                        "id": c.id,
                        "face": face,
                        "variant": variant.map(|v| json!({"kind": kind.variants, "id": v})),
                        "w": size.width,
                        "h": size.height,
                        "bleed": if board { 0.0 } else { bleed },
                    }));
                }
            }
        }
    }
    let view = game_view(game, locale);
    let dir = PathBuf::from(&game.id).join(locale);
    let main = format!(
        "#import \"/templates/shared/kit.typ\": render-pieces\n#import \"{template}\" as game\n#render-pieces(json(\"/data.json\"), game)\n"
    );
    let chunks: Vec<DocPlan> = pieces
        .chunks(CHUNK)
        .enumerate()
        .map(|(i, chunk)| DocPlan {
            game: game.id.clone(),
            locale: locale.to_owned(),
            paper: None,
            part: Part::Pieces,
            // `demo-pieces-1.pdf`: the chunk's own number, one extension.
            out: dir.join(format!("{}{}", game.id, chunk_path(i).trim_start_matches('/').replacen("pieces", "-pieces", 1))),
            main: main.clone(),
            data: json!({
                "locale": locale,
                "part": "pieces",
                "settings": settings_view(opts),
                "game": view,
                "pieces": chunk,
            }),
            pages: chunk.len(),
        })
        .collect();
    let merged_pages: Vec<Value> = pieces
        .iter()
        .enumerate()
        .map(|(n, p)| {
            json!({
                "file": chunk_path(n / CHUNK),
                "page": n % CHUNK + 1,
                "w": p["w"], "h": p["h"], "bleed": p["bleed"],
            })
        })
        .collect();
    let merged = DocPlan {
        game: game.id.clone(),
        locale: locale.to_owned(),
        paper: None,
        part: Part::Pieces,
        out: dir.join(format!("{}-pieces.pdf", game.id)),
        main: "#import \"/templates/shared/kit.typ\": render-merged\n#render-merged(json(\"/data.json\"))\n".into(),
        data: json!({
            "locale": locale,
            "game": {"id": game.id, "name": game.name.get(locale)},
            "pages": merged_pages,
        }),
        pages: pieces.len(),
    };
    PiecesPlan {
        locale: locale.to_owned(),
        chunks,
        merged,
        index,
    }
}

fn settings_view(opts: &KitOptions) -> Value {
    json!({
        "margin": opts.settings.margin,
        "bleed": opts.settings.bleed,
        "duplex": opts.duplex,
        "layout": opts.layout,
        "ink_saver": opts.ink_saver,
    })
}

/// Plans the sheet documents of one game's kit in one locale and paper:
/// the cover, then cards, tokens, sheets and boards placing the designs of `pieces`.
pub fn plan_game(game: &Game, locale: &str, paper: Paper, opts: &KitOptions, pieces: &PiecesPlan) -> Vec<DocPlan> {
    let mut docs = Vec::new();
    for part in [Part::Cards, Part::Tokens, Part::Sheets, Part::Boards] {
        let pages = match part {
            Part::Boards => board_pages(game, locale, paper, opts, pieces),
            _ => sheet_pages(game, locale, part, paper, opts, pieces),
        };
        if pages.is_empty() {
            continue;
        }
        docs.push(doc(game, locale, paper, part, opts, pages));
    }
    if !game.reference.chapters.is_empty() {
        let mut d = doc(game, locale, paper, Part::Rules, opts, Vec::new());
        d.data["rules"] = book::rules_view(game, locale);
        d.main = "#import \"/templates/shared/rules.typ\": render-rules\n#render-rules(json(\"/data.json\"))\n".into();
        d.pages = 0;
        docs.push(d);
    }
    if let Some(q) = book::quickref_view(game, locale) {
        let mut d = doc(game, locale, paper, Part::Quickref, opts, Vec::new());
        d.data["quickref"] = q;
        d.main =
            "#import \"/templates/shared/quickref.typ\": render-quickref\n#render-quickref(json(\"/data.json\"))\n"
                .into();
        d.pages = 0;
        docs.push(d);
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
    let mut cover = doc(game, locale, paper, Part::Cover, opts, Vec::new());
    cover.data["pages"] = json!([{"side": "cover"}, {"side": "duplex-test"}, {"side": "duplex-test-back"}]);
    cover.data["documents"] = Value::Array(summary);
    cover.data["kit"] = Value::Array(kit);
    cover.pages = 3;
    docs.insert(0, cover);
    docs
}

fn doc(game: &Game, locale: &str, paper: Paper, part: Part, opts: &KitOptions, pages: Vec<Page>) -> DocPlan {
    let n = pages.len();
    let data = json!({
        "locale": locale,
        "part": part,
        "paper": paper,
        "printable": printable(&paper, &opts.settings),
        "settings": settings_view(opts),
        "game": {"id": game.id, "name": game.name.get(locale)},
        "pages": pages,
    });
    DocPlan {
        game: game.id.clone(),
        locale: locale.to_owned(),
        paper: Some(paper),
        part,
        out: PathBuf::from(&game.id)
            .join(locale)
            .join(format!("{}-{}-{}.pdf", game.id, part.name(), paper.name)),
        main: "#import \"/templates/shared/kit.typ\": render-kit\n#render-kit(json(\"/data.json\"))\n".to_string(),
        data,
        pages: n,
    }
}

/// Pages of fronts (and backs) for the kinds of one part.
fn sheet_pages(
    game: &Game,
    locale: &str,
    part: Part,
    paper: Paper,
    opts: &KitOptions,
    pieces: &PiecesPlan,
) -> Vec<Page> {
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
                let piece = pieces.locate(&kind.id, &c.id, "front", None);
                pages.extend(tiled_pages(
                    kind,
                    c,
                    locale,
                    "front",
                    piece,
                    size.width,
                    size.height,
                    paper,
                    s,
                ));
            }
            continue;
        };
        let full = printable(&paper, s);
        let item = |c: &Component, copy: u32, face: &'static str, slot: Slot| {
            let (chunk, piece) = pieces.locate(&kind.id, &c.id, face, None);
            Item {
                kind: kind.id.clone(),
                id: c.id.clone(),
                copy,
                face,
                file: chunk_path(chunk),
                piece,
                slot,
            }
        };
        for chunk in copies.chunks(grid.capacity()) {
            let slots = grid.slots(chunk.len());
            let fronts: Vec<Item> = chunk
                .iter()
                .zip(&slots)
                .map(|((c, copy), slot)| item(c, *copy, "front", *slot))
                .collect();
            let marks = grid_marks(&grid, &area, full, fold);
            if let Some(fold) = fold {
                let mut all = fronts.clone();
                all.extend(
                    chunk
                        .iter()
                        .zip(&slots)
                        .map(|((c, copy), slot)| item(c, *copy, "back", fold_mirror(slot, fold))),
                );
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
                items: fronts,
                marks: marks.clone(),
                fold: None,
                tile: None,
            });
            if has_backs(kind) {
                pages.push(Page {
                    side: "back",
                    kind: kind.id.clone(),
                    items: chunk
                        .iter()
                        .zip(&slots)
                        .map(|((c, copy), slot)| item(c, *copy, "back", mirror(slot, &paper, opts.duplex)))
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

/// Board pages: each board (once per variant) tiled over as many pages as it needs.
fn board_pages(game: &Game, locale: &str, paper: Paper, opts: &KitOptions, pieces: &PiecesPlan) -> Vec<Page> {
    let mut pages = Vec::new();
    for kind in game.kinds.values().filter(|k| k.shape == Shape::Board) {
        let Some(size) = kind.size.as_ref().and_then(|s| game.sizes.get(s)) else {
            continue;
        };
        for c in game.components.get(&kind.id).into_iter().flatten() {
            for variant in variants(game, kind) {
                let piece = pieces.locate(&kind.id, &c.id, "board", variant);
                let mut tiles = tiled_pages(
                    kind,
                    c,
                    locale,
                    "board",
                    piece,
                    size.width,
                    size.height,
                    paper,
                    &opts.settings,
                );
                if let Some(v) = variant {
                    let name = kind
                        .variants
                        .as_ref()
                        .and_then(|k| game.component(k, v))
                        .map(|vc| vc.name.get(locale).to_owned());
                    for t in &mut tiles {
                        if let Some(tile) = &mut t.tile {
                            tile["variant"] = json!({"kind": kind.variants, "id": v, "name": name});
                        }
                    }
                }
                pages.extend(tiles);
            }
        }
    }
    pages
}

/// The pages of one piece too large for one page, tiled with overlap.
#[allow(clippy::too_many_arguments)]
fn tiled_pages(
    kind: &Kind,
    c: &Component,
    locale: &str,
    face: &'static str,
    (chunk, piece): (usize, usize),
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
                face,
                file: chunk_path(chunk),
                piece,
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
                "name": c.name.get(locale),
                // Pieces (not boards) carry a bleed in the pieces document.
                "bleed": if face == "board" { 0.0 } else { s.bleed },
                "variant": Value::Null,
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
/// `files` are in-memory files the document reads: the compiled chunk
/// documents (`/pieces-<n>.pdf`) that sheet documents place.
pub fn compile(
    shared: &Shared,
    plan: &DocPlan,
    files: &[(String, typst::foundations::Bytes)],
    sources: &mut SourceMap,
) -> Result<Compiled, Vec<Diagnostic>> {
    let data = serde_json::to_vec(&plan.data).unwrap_or_default();
    let mut world = DocWorld::new(shared, plan.main.clone(), data);
    for (path, bytes) in files {
        world.add_file(path, bytes.clone());
    }
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

/// Finds the first design that fails on its own, by compiling the pieces
/// document one piece at a time. Runs only after a document failed.
fn culprit(shared: &Shared, plan: &DocPlan) -> Option<String> {
    let pieces = plan.data["pieces"].as_array()?;
    for piece in pieces.iter().take(600) {
        let mut data = plan.data.clone();
        data["pieces"] = json!([piece]);
        let world = DocWorld::new(shared, plan.main.clone(), serde_json::to_vec(&data).unwrap_or_default());
        if typst::compile::<PagedDocument>(&world).output.is_err() {
            let (kind, id) = (piece["kind"].as_str()?, piece["id"].as_str()?);
            let name = plan.data["game"]["components"][kind][id]["name"].as_str().unwrap_or(id);
            return Some(format!(
                "the {} of {kind} `{id}` ({name})",
                piece["face"].as_str().unwrap_or("front")
            ));
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
        "{} ({} {}{})",
        plan.out.display(),
        plan.part.name(),
        plan.locale,
        plan.paper.map(|p| format!(", {}", p.name)).unwrap_or_default()
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
        diag = diag.help(hint_for_pnpkit(&hint.v));
    }
    diag
}

/// A typst hint in pnpkit's terms: typst's CLI options do not exist here.
fn hint_for_pnpkit(hint: &str) -> String {
    if hint.contains("--root") {
        "pnpkit reads only files inside the project folder (where it runs, with `data/`, `templates/` \
         and `fonts/`): move the file there"
            .to_owned()
    } else {
        hint.to_owned()
    }
}

fn code_title(code: Code) -> &'static str {
    match code {
        Code::TemplateWarning => "template warning",
        _ => "template error",
    }
}
