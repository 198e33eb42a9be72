//! Rendering: validated model → view models (JSON) → typst layouts in
//! `templates/` → PDF. No I/O here except through the typst World, which
//! reads templates and fonts from the project root.

mod boards;
pub mod book;
pub mod cache;
pub mod cover;
pub mod decklist;
pub mod impose;
pub mod manifest;
mod overlap;
pub mod pipeline;
pub mod preflight;
pub mod reprint;
pub mod runaway;
mod sheets;
pub mod world;

use std::path::PathBuf;

use indexmap::IndexMap;
use serde::Serialize;
use serde_json::{Map, Value, json};
use typst::WorldExt;
use typst::diag::SourceDiagnostic;
use typst::foundations::Smart;
use typst_layout::PagedDocument;

use crate::diag::{Code, Diagnostic, SourceMap};
use crate::model::{Component, Game, Kind, Shape};
use crate::pack::yaml::span_of_offset;
use impose::{Duplex, Line, Paper, Settings, Slot, printable};
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
    /// A designer's proof: invented (`sample`) values are marked on the pieces.
    pub proof: bool,
    pub settings: Settings,
    /// Inspect every laid-out page (`pnpkit preflight`) against these limits.
    pub preflight: Option<preflight::Limits>,
    /// A version printed small on the front of every piece, inside its safe zone.
    pub stamp: Option<String>,
    /// Print only part of each kit (a reprint pack); `None` prints everything.
    pub reprint: Option<std::sync::Arc<reprint::Reprint>>,
}

impl Default for KitOptions {
    fn default() -> Self {
        KitOptions {
            papers: vec![impose::A4, impose::LETTER],
            locales: None,
            duplex: Duplex::Long,
            layout: Layout::Duplex,
            ink_saver: false,
            proof: false,
            settings: Settings::default(),
            preflight: None,
            stamp: None,
            reprint: None,
        }
    }
}

impl KitOptions {
    /// What a reprint prints of a game in a locale; `None` for a full kit.
    fn pick(&self, game: &str, locale: &str) -> Option<Option<&reprint::Pick>> {
        self.reprint.as_ref().map(|r| r.pick(game, locale))
    }

    /// Whether a build prints anything of a game in a locale.
    pub fn prints(&self, game: &str, locale: &str) -> bool {
        match self.pick(game, locale) {
            None => true,
            Some(p) => p.is_some_and(|p| !p.is_empty()),
        }
    }

    /// The copies of a piece this build prints (0: left out).
    pub fn copies_of(&self, game: &str, locale: &str, c: &Component) -> u32 {
        match self.pick(game, locale) {
            None => c.copies,
            Some(p) => p
                .and_then(|p| p.copies.get(&(c.kind.clone(), c.id.clone())))
                .copied()
                .unwrap_or(0),
        }
    }

    /// Whether this build prints a board (in one of its variants, `None` for a board without).
    pub fn prints_board(&self, game: &str, locale: &str, c: &Component, variant: Option<&str>) -> bool {
        match self.pick(game, locale) {
            None => true,
            Some(None) => false,
            Some(Some(p)) => match variant {
                None => p.copies.get(&(c.kind.clone(), c.id.clone())).is_some_and(|n| *n > 0),
                Some(v) => p
                    .variants
                    .get(&(c.kind.clone(), c.id.clone()))
                    .is_some_and(|set| set.contains(v)),
            },
        }
    }

    /// Whether the rules reference (`quick`: the quick reference) is part of the build.
    fn prints_book(&self, game: &str, locale: &str, quick: bool) -> bool {
        match self.pick(game, locale) {
            None => true,
            Some(p) => p.is_some_and(|p| if quick { p.quickref } else { p.rules }),
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
    /// Two pages to print double-sided first: do fronts and backs line up?
    DuplexTest,
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
            Part::DuplexTest => "duplex-test",
        }
    }

    pub(super) fn of(shape: Shape) -> Option<Part> {
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
    /// The pack's icon and art files the layouts may read (`/pack/…`).
    pub assets: Assets,
}

/// A pack's files by virtual path, shared by every document of a game.
pub type Assets = std::sync::Arc<Vec<(String, std::sync::Arc<Vec<u8>>)>>;

/// Pack file bytes handed to typst without a copy.
struct AssetBytes(std::sync::Arc<Vec<u8>>);

impl AsRef<[u8]> for AssetBytes {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

/// One placed piece: which design (a page of the pieces document) and where.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Item {
    kind: String,
    id: String,
    copy: u32,
    /// `front`, `back` or `board`: which design the slot shows.
    face: &'static str,
    /// The chunk document (virtual path) and its page (1-based) holding the design.
    file: String,
    piece: usize,
    /// Degrees clockwise the design is turned on the page (0 or 90; backs also 180, 270).
    rotate: u32,
    #[serde(flatten)]
    slot: Slot,
}

/// One page of a sheet document.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Page {
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

/// What a view needs besides the component: the locale, the text
/// environment, whether this is a proof, and the pack's files.
struct ViewCx<'a> {
    locale: &'a str,
    env: &'a crate::text::TextEnv,
    proof: bool,
    assets: &'a Assets,
}

fn component_view(c: &Component, kind: Option<&Kind>, cx: &ViewCx) -> Value {
    let fields: Map<String, Value> = c
        .fields
        .iter()
        .map(|(k, v)| {
            let spec = kind.and_then(|kd| kd.fields.get(k));
            (k.clone(), field_view(v, spec, cx, c))
        })
        .collect();
    // Invented values are marked only on proofs: a player's kit never shows them.
    let proof = cx.proof;
    let sample = proof && !c.sample.is_none();
    json!({
        "id": c.id,
        "kind": c.kind,
        "name": c.name.get(cx.locale),
        "copies": c.copies,
        "sample": sample,
        // Which values are invented: every field (`true`) or the listed ones.
        "sample_fields": match &c.sample {
            crate::model::Sample::Fields(f) if proof => json!(f),
            crate::model::Sample::All if proof => json!(true),
            _ => json!([]),
        },
        "fields": fields,
    })
}

/// A field as layouts see it: translatable texts in the locale, their
/// quoted values filled in (`check` rendered every one already) and their
/// markup turned into typst markup for the `rich` helper; artwork as
/// `(src: "/pack/art/…", name: "art/…", size: (width:, height:))`, `src` none
/// while the file is missing, `size` (mm) none when the field declares none.
fn field_view(
    v: &crate::model::FieldValue,
    spec: Option<&crate::model::FieldSpec>,
    cx: &ViewCx,
    c: &Component,
) -> Value {
    use crate::model::{FieldType, FieldValue};
    let sub = |name: &str| match spec.map(|s| &s.ty) {
        Some(FieldType::Record { fields }) => fields.get(name),
        _ => None,
    };
    match v {
        FieldValue::Text(t) => {
            let raw = t.get(cx.locale);
            let text = if crate::text::is_template(raw) {
                cx.env.render(raw, Some(c)).unwrap_or_else(|_| raw.to_owned())
            } else {
                raw.to_owned()
            };
            Value::String(crate::markup::typst(&text))
        }
        FieldValue::Str(path) if matches!(spec.map(|s| &s.ty), Some(FieldType::Image { .. })) => {
            let virt = crate::check::assets::art_path(path);
            let present = cx.assets.iter().any(|(p, _)| *p == virt);
            // The declared size is the art box `art()` draws: declared once,
            // measured by `check` (W049) at the size it prints.
            let size = match spec.map(|s| &s.ty) {
                Some(FieldType::Image { size: Some(s) }) => json!({"width": s.width, "height": s.height}),
                _ => Value::Null,
            };
            json!({"src": if present { Value::String(virt) } else { Value::Null }, "name": path, "size": size})
        }
        FieldValue::List(items) => {
            let of = match spec.map(|s| &s.ty) {
                Some(FieldType::List { of, .. }) => Some(of.as_ref()),
                _ => None,
            };
            Value::Array(items.iter().map(|i| field_view(i, of, cx, c)).collect())
        }
        FieldValue::Record(r) => Value::Object(
            r.iter()
                .map(|(k, x)| (k.clone(), field_view(x, sub(k), cx, c)))
                .collect(),
        ),
        other => other.localized(cx.locale),
    }
}

/// The names of enum values in a locale, by field: `{field: {value: name}}`
/// (record fields by their own names, a list of enum values by the list's).
fn enum_labels(fields: &IndexMap<String, crate::model::FieldSpec>, locale: &str, out: &mut Map<String, Value>) {
    let names = |spec: &crate::model::FieldSpec| -> Map<String, Value> {
        spec.labels
            .iter()
            .map(|(v, t)| (v.clone(), Value::String(t.get(locale).to_owned())))
            .collect()
    };
    for (name, spec) in fields {
        if !spec.labels.is_empty() {
            out.insert(name.clone(), Value::Object(names(spec)));
        }
        match &spec.ty {
            crate::model::FieldType::Record { fields } => enum_labels(fields, locale, out),
            crate::model::FieldType::List { of, .. } => {
                if !of.labels.is_empty() {
                    out.insert(name.clone(), Value::Object(names(of)));
                }
                if let crate::model::FieldType::Record { fields } = &of.ty {
                    enum_labels(fields, locale, out);
                }
            }
            _ => {}
        }
    }
}

/// The game as templates see it in one locale: kinds with their sizes, and
/// every component by kind and id, texts resolved.
pub fn game_view(game: &Game, locale: &str, proof: bool) -> Value {
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
            let mut labels = Map::new();
            enum_labels(&k.fields, locale, &mut labels);
            (
                k.id.clone(),
                json!({
                    "name": k.name.get(locale),
                    "shape": k.shape,
                    "size": size,
                    "backs": has_backs(k),
                    "labels": labels,
                }),
            )
        })
        .collect();
    let cx = ViewCx {
        locale,
        env: &env,
        proof,
        assets: &game.assets,
    };
    let components: Map<String, Value> = game
        .components
        .iter()
        .map(|(kind, list)| {
            let k = game.kinds.get(kind);
            let by_id: Map<String, Value> = list.iter().map(|c| (c.id.clone(), component_view(c, k, &cx))).collect();
            (kind.clone(), Value::Object(by_id))
        })
        .collect();
    let icons: Map<String, Value> = game
        .icons
        .iter()
        .map(|(n, t)| (n.clone(), Value::String(t.get(locale).to_owned())))
        .collect();
    json!({
        "id": game.id,
        "name": game.name.get(locale),
        "kinds": kinds,
        "components": components,
        "icons": icons,
        "fonts": game.fonts,
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
    /// Each design's position among all designs.
    index: std::collections::HashMap<String, usize>,
    /// The position of each chunk's first design ([`chunk_starts`]).
    starts: Vec<usize>,
    /// The raster art each chunk lays out, in bytes once decoded.
    pub art: Vec<u64>,
    /// The rules reference of this game and locale, made once for every paper.
    rules: std::sync::OnceLock<Value>,
}

/// The most designs in one chunk document.
pub const CHUNK: usize = 100;

/// Designs per chunk for `total` designs: an even number of chunks (two
/// cores lay out two at a time; 100 + 30 would leave one idle most of the
/// stage), each at most [`CHUNK`], the same size but for the last. Fixed by
/// the count alone, so the output does not depend on the machine.
pub fn chunk_size(total: usize) -> usize {
    let chunks = total.div_ceil(CHUNK).max(1);
    let chunks = chunks + chunks % 2;
    total.div_ceil(chunks).max(1)
}

/// The most raster art, in bytes once decoded, one chunk document lays
/// out: typst holds every image of a document decoded while it lays it out,
/// so a pack of many large pictures is split into more chunks, and each
/// chunk's images are let go once it is done (`pipeline`). Writing the PDF
/// holds each image about twice more (re-encoded): 256 MiB, one picture at
/// the largest size art may have, keeps a chunk under about 700 MB.
pub const ART_PER_CHUNK: u64 = 256 << 20;

/// Where each chunk starts, for designs showing the raster art `arts`
/// (virtual path and decoded bytes, per design): [`chunk_size`] designs a
/// chunk, and a new chunk wherever the distinct art of the current one would
/// pass [`ART_PER_CHUNK`]. Fixed by the data alone, as the output must be.
pub fn chunk_starts(arts: &[Vec<(String, u64)>]) -> (Vec<usize>, Vec<u64>) {
    let size = chunk_size(arts.len());
    let (mut starts, mut weights) = (Vec::new(), Vec::new());
    let mut seen: std::collections::BTreeSet<&str> = std::collections::BTreeSet::new();
    let mut weight = 0u64;
    for (i, art) in arts.iter().enumerate() {
        let added = |seen: &std::collections::BTreeSet<&str>| -> u64 {
            let mut new: Vec<&(String, u64)> = art.iter().filter(|(p, _)| !seen.contains(p.as_str())).collect();
            new.dedup_by(|a, b| a.0 == b.0);
            new.iter().map(|(_, b)| b).sum()
        };
        let in_chunk = i - starts.last().copied().unwrap_or(0);
        if starts.is_empty() || in_chunk == size || weight + added(&seen) > ART_PER_CHUNK && in_chunk > 0 {
            if !starts.is_empty() {
                weights.push(weight);
            }
            starts.push(i);
            seen.clear();
            weight = 0;
        }
        weight += added(&seen);
        seen.extend(art.iter().map(|(p, _)| p.as_str()));
    }
    weights.push(weight);
    (starts, weights)
}

/// The raster art a component shows: every string field naming one of the
/// pack's raster files, with its size once decoded (from the file's header).
fn raster_art(c: &crate::model::Component, sizes: &std::collections::HashMap<&str, u64>) -> Vec<(String, u64)> {
    fn walk(v: &crate::model::FieldValue, sizes: &std::collections::HashMap<&str, u64>, out: &mut Vec<(String, u64)>) {
        use crate::model::FieldValue;
        match v {
            FieldValue::Str(path) => {
                let virt = crate::check::assets::art_path(path);
                if let Some(&bytes) = sizes.get(virt.as_str()) {
                    out.push((virt, bytes));
                }
            }
            FieldValue::List(items) => items.iter().for_each(|i| walk(i, sizes, out)),
            FieldValue::Record(r) => r.values().for_each(|i| walk(i, sizes, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    c.fields.values().for_each(|v| walk(v, sizes, &mut out));
    out.sort();
    out.dedup();
    out
}

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
            .map_or((0, 1), |&n| {
                let chunk = self.starts.partition_point(|&s| s <= n).saturating_sub(1);
                (chunk, n - self.starts.get(chunk).copied().unwrap_or(0) + 1)
            })
    }
}

/// The design the gallery shows of each printed component, as (kind, id,
/// chunk, page): its front, a board with its first variant.
pub fn gallery_designs(game: &Game, pieces: &PiecesPlan) -> Vec<(String, String, usize, usize)> {
    let mut out = Vec::new();
    for kind in game.kinds.values() {
        if kind.shape == Shape::None || kind.size.is_none() {
            continue;
        }
        let face = if kind.shape == Shape::Board { "board" } else { "front" };
        let variant = kind
            .variants
            .as_ref()
            .and_then(|v| game.components.get(v))
            .and_then(|l| l.first())
            .map(|v| v.id.as_str());
        for c in game.components.get(&kind.id).into_iter().flatten() {
            let (chunk, page) = pieces.locate(&kind.id, &c.id, face, variant);
            out.push((kind.id.clone(), c.id.clone(), chunk, page));
        }
    }
    out
}

/// The locale of a game's gallery: the first of `locales` the game has, else its first.
pub fn gallery_locale(game: &Game, locales: &[String]) -> String {
    locales
        .iter()
        .find(|l| game.locales.contains(l))
        .or(game.locales.first())
        .cloned()
        .unwrap_or_default()
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
    let mut arts: Vec<Vec<(String, u64)>> = Vec::new();
    let sizes: std::collections::HashMap<&str, u64> = game
        .assets
        .iter()
        .filter_map(|(p, b)| Some((p.as_str(), crate::check::art::decoded_bytes(b)?)))
        .collect();
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
            let vars: Vec<Option<&str>> = if board {
                variants(game, kind)
                    .into_iter()
                    .filter(|v| opts.prints_board(&game.id, locale, c, *v))
                    .collect()
            } else if opts.copies_of(&game.id, locale, c) > 0 {
                vec![None]
            } else {
                Vec::new()
            };
            for face in faces {
                for variant in &vars {
                    let n = pieces.len();
                    index.insert(piece_key(&kind.id, &c.id, face, *variant), n);
                    arts.push(raster_art(c, &sizes));
                    pieces.push(json!({
                        "kind": kind.id,
                        "id": c.id,
                        "face": face,
                        // Backs are drawn by their declared design (model/decks.rs), so
                        // every card a deck shuffles prints the same one.
                        "back": (*face == "back").then(|| game.back_of(c)),
                        "variant": variant.map(|v| json!({"kind": kind.variants, "id": v})),
                        "w": size.width,
                        "h": size.height,
                        "bleed": if board { 0.0 } else { bleed },
                    }));
                }
            }
        }
    }
    let (starts, art) = chunk_starts(&arts);
    let chunk_of = |n: usize| starts.partition_point(|&s| s <= n).saturating_sub(1);
    let view = game_view(game, locale, opts.proof);
    let dir = PathBuf::from(&game.id).join(locale);
    let main = format!(
        "#import \"/templates/shared/kit.typ\": render-pieces\n#import \"{template}\" as game\n#render-pieces(json(\"/data.json\"), game)\n"
    );
    let ends: Vec<usize> = starts.iter().skip(1).copied().chain([pieces.len()]).collect();
    let chunks: Vec<DocPlan> = starts
        .iter()
        .zip(&ends)
        .map(|(&a, &b)| &pieces[a..b])
        .enumerate()
        .map(|(i, chunk)| DocPlan {
            game: game.id.clone(),
            locale: locale.to_owned(),
            paper: None,
            part: Part::Pieces,
            // `demo-pieces-1.pdf`: the chunk's own number, one extension.
            out: dir.join(format!(
                "{}{}",
                game.id,
                chunk_path(i).trim_start_matches('/').replacen("pieces", "-pieces", 1)
            )),
            main: main.clone(),
            data: json!({
                "locale": locale,
                "part": "pieces",
                "settings": settings_view(opts),
                "game": view,
                "pieces": chunk,
            }),
            pages: chunk.len(),
            assets: game.assets.clone(),
        })
        .collect();
    let merged_pages: Vec<Value> = pieces
        .iter()
        .enumerate()
        .map(|(n, p)| {
            json!({
                "file": chunk_path(chunk_of(n)),
                "page": n - starts[chunk_of(n)] + 1,
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
        assets: game.assets.clone(),
    };
    PiecesPlan {
        locale: locale.to_owned(),
        chunks,
        merged,
        index,
        starts,
        art,
        rules: std::sync::OnceLock::new(),
    }
}

fn settings_view(opts: &KitOptions) -> Value {
    json!({
        "margin": opts.settings.margin,
        "bleed": opts.settings.bleed,
        "cuts": opts.settings.cuts,
        "duplex": opts.duplex,
        "layout": opts.layout,
        "ink_saver": opts.ink_saver,
        "proof": opts.proof,
        "stamp": opts.stamp,
    })
}

/// Plans the sheet documents of one game's kit in one locale and paper:
/// the cover, then cards, tokens, sheets and boards placing the designs of `pieces`.
pub fn plan_game(game: &Game, locale: &str, paper: Paper, opts: &KitOptions, pieces: &PiecesPlan) -> Vec<DocPlan> {
    let mut docs = Vec::new();
    for part in [Part::Cards, Part::Tokens, Part::Sheets, Part::Boards] {
        let pages = match part {
            Part::Boards => boards::board_pages(game, locale, paper, opts, pieces),
            _ => sheets::sheet_pages(game, locale, part, paper, opts, pieces),
        };
        if pages.is_empty() {
            continue;
        }
        docs.push(doc(game, locale, paper, part, opts, pages));
    }
    if !game.reference.chapters.is_empty() && opts.prints_book(&game.id, locale, false) {
        let mut d = doc(game, locale, paper, Part::Rules, opts, Vec::new());
        let view = || book::rules_view(game, locale, crate::markup::TextOut::Typst);
        d.data["rules"] = if pieces.locale == locale {
            pieces.rules.get_or_init(view).clone()
        } else {
            view()
        };
        d.main = "#import \"/templates/shared/rules.typ\": render-rules\n#render-rules(json(\"/data.json\"))\n".into();
        d.data["proposals"] = Value::Array(cover::proposals(game, locale));
        d.pages = 0;
        docs.push(d);
    }
    if let Some(q) = book::quickref_view(game, locale, crate::markup::TextOut::Typst)
        .filter(|_| opts.prints_book(&game.id, locale, true))
    {
        let mut d = doc(game, locale, paper, Part::Quickref, opts, Vec::new());
        d.data["quickref"] = q;
        d.main =
            "#import \"/templates/shared/quickref.typ\": render-quickref\n#render-quickref(json(\"/data.json\"))\n"
                .into();
        d.pages = 0;
        docs.push(d);
    }
    let backs = game.kinds.values().any(|k| {
        has_backs(k)
            && game
                .components
                .get(&k.id)
                .is_some_and(|l| l.iter().any(|c| opts.copies_of(&game.id, locale, c) > 0))
    });
    if backs && opts.layout == Layout::Duplex {
        let mut d = doc(game, locale, paper, Part::DuplexTest, opts, Vec::new());
        d.data["pages"] = json!([{"side": "duplex-test"}, {"side": "duplex-test-back"}]);
        d.pages = 2;
        docs.insert(0, d);
    }
    let cover = cover::plan(game, locale, paper, opts, &docs);
    docs.insert(0, cover);
    docs
}

pub(crate) fn doc(game: &Game, locale: &str, paper: Paper, part: Part, opts: &KitOptions, pages: Vec<Page>) -> DocPlan {
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
        assets: game.assets.clone(),
    }
}

/// A compiled document.
pub struct Compiled {
    pub document: PagedDocument,
    pub warnings: Vec<Diagnostic>,
    /// What preflight found on its pages (when asked for).
    pub findings: Vec<Diagnostic>,
    /// Every file typst read besides the main source and data (see
    /// [`world::DocWorld::read_files`]): what the build cache checks.
    pub read: Vec<(String, Option<typst::foundations::Bytes>)>,
}

/// Compiles a plan with typst. Errors come back as diagnostics that point
/// into the templates; `sources` receives the template texts they show.
/// `files` are in-memory files the document reads: the compiled chunk
/// documents (`/pieces-<n>.pdf`) that sheet documents place. With `limits`,
/// the laid-out pages are inspected too (preflight).
pub fn compile(
    shared: &Shared,
    plan: &DocPlan,
    files: &[(String, typst::foundations::Bytes)],
    sources: &mut SourceMap,
    limits: Option<&preflight::Limits>,
) -> Result<Compiled, Vec<Diagnostic>> {
    let data = serde_json::to_vec(&plan.data).unwrap_or_default();
    let mut world = DocWorld::new(shared, plan.main.clone(), data);
    for (path, bytes) in plan.assets.iter() {
        world.add_file(path, typst::foundations::Bytes::new(AssetBytes(bytes.clone())));
    }
    for (path, bytes) in files {
        world.add_file(path, bytes.clone());
    }
    let warned = typeset(&world, describe(plan));
    // A font family that is not in `fonts/` is an error: typst would fall back silently.
    let (unknown_fonts, others): (Vec<_>, Vec<_>) = warned
        .warnings
        .iter()
        .partition(|w| w.message.contains("unknown font family"));
    if !unknown_fonts.is_empty() {
        return Err(unknown_fonts
            .iter()
            .map(|w| {
                let family = w.message.rsplit(':').next().unwrap_or_default().trim().to_owned();
                let families = crate::fonts::families(&shared.fonts_dir()).families;
                let d = typst_diagnostic(&world, w, plan, sources, Code::UnknownFont);
                let hint = crate::fonts::unknown(&family, &families);
                Diagnostic {
                    message: hint.message.clone(),
                    ..d
                }
                .expected(hint.expected.clone().unwrap_or_default())
            })
            .collect());
    }
    let warnings = others
        .iter()
        .map(|w| typst_diagnostic(&world, w, plan, sources, Code::TemplateWarning))
        .collect();
    match warned.output {
        Ok(document) => {
            let findings = match limits {
                Some(l) => {
                    let pieces = piece_infos(plan);
                    preflight::inspect(&world, plan, &document, pieces.as_deref(), l, sources)
                }
                None => Vec::new(),
            };
            Ok(Compiled {
                document,
                warnings,
                findings,
                read: world.read_files(),
            })
        }
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

/// The design on each page of a pieces (chunk) document, for preflight.
fn piece_infos(plan: &DocPlan) -> Option<Vec<preflight::PieceInfo>> {
    let pieces = plan.data["pieces"].as_array()?;
    Some(
        pieces
            .iter()
            .map(|p| {
                let (kind, id) = (
                    p["kind"].as_str().unwrap_or_default(),
                    p["id"].as_str().unwrap_or_default(),
                );
                let name = plan.data["game"]["components"][kind][id]["name"].as_str().unwrap_or(id);
                let kind_name = plan.data["game"]["kinds"][kind]["name"].as_str().unwrap_or(kind);
                let face = p["face"].as_str().unwrap_or("front");
                preflight::PieceInfo {
                    what: format!("the {face} of {} `{id}` ({name})", kind_name.to_lowercase()),
                    w: p["w"].as_f64().unwrap_or(0.0),
                    h: p["h"].as_f64().unwrap_or(0.0),
                }
            })
            .collect(),
    )
}

/// Finds the first design that fails on its own, by compiling the pieces
/// document one piece at a time. Runs only after a document failed.
fn culprit(shared: &Shared, plan: &DocPlan) -> Option<String> {
    let pieces = plan.data["pieces"].as_array()?;
    for piece in pieces.iter().take(600) {
        let mut data = plan.data.clone();
        data["pieces"] = json!([piece]);
        let mut world = DocWorld::new(shared, plan.main.clone(), serde_json::to_vec(&data).unwrap_or_default());
        for (path, bytes) in plan.assets.iter() {
            world.add_file(path, typst::foundations::Bytes::new(AssetBytes(bytes.clone())));
        }
        if typeset(&world, describe(plan)).output.is_err() {
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
    // Writing holds the document's images once more (re-encoded): part of
    // the document's budget, with no template line to point at.
    let _running = crate::budget::enter(describe(plan), std::sync::Arc::new(|_| None));
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

/// Runs typst on a document, registered with the run's budget while it
/// runs ([`crate::budget`]): a runaway layout is stopped and reported as
/// `what`.
pub fn typeset(world: &DocWorld, what: String) -> typst::diag::Warned<typst::diag::SourceResult<PagedDocument>> {
    let _running = crate::budget::enter(what, world.locator());
    typst::compile::<PagedDocument>(world)
}

/// A document as reports name it: `unmatched/en/unmatched-cards-a4.pdf (cards en, a4)`.
fn describe(plan: &DocPlan) -> String {
    format!(
        "{} ({} {}{})",
        plan.out.display(),
        plan.part.name(),
        plan.locale,
        plan.paper.map(|p| format!(", {}", p.name)).unwrap_or_default()
    )
}

fn typst_diagnostic(
    world: &DocWorld,
    d: &SourceDiagnostic,
    plan: &DocPlan,
    sources: &mut SourceMap,
    code: Code,
) -> Diagnostic {
    let what = describe(plan);
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

#[cfg(test)]
mod tests {
    use super::{CHUNK, chunk_size, chunk_starts};

    #[test]
    fn large_pictures_split_chunks_and_each_counts_once_per_chunk() {
        let big = |p: String| vec![(p, 250u64 << 20)];
        // Eight designs with a picture of 100 MiB each: two a chunk.
        let arts: Vec<_> = (0..8)
            .map(|i| vec![(format!("/pack/art/{i}.png"), 100u64 << 20)])
            .collect();
        let (starts, weights) = chunk_starts(&arts);
        assert_eq!(starts, [0, 2, 4, 6]);
        assert_eq!(weights, [200 << 20; 4]);
        // One picture on every design is decoded once a chunk.
        let same: Vec<_> = (0..8).map(|_| big("/pack/art/same.png".into())).collect();
        assert_eq!(chunk_starts(&same), (vec![0, 4], vec![250 << 20; 2]));
        // Without raster art, chunks are as many designs as before.
        let none = vec![Vec::new(); 130];
        assert_eq!(chunk_starts(&none), (vec![0, 65], vec![0, 0]));
    }

    #[test]
    fn designs_split_into_an_even_number_of_chunks_of_at_most_chunk_pages() {
        for total in 1..1000 {
            let size = chunk_size(total);
            let chunks = total.div_ceil(size);
            assert!(size <= CHUNK, "{total}: {size}");
            assert!(chunks == 1 || chunks % 2 == 0, "{total}: {chunks} chunks of {size}");
            // No chunk is much smaller than the others: two cores share the work.
            let last = total - (chunks - 1) * size;
            assert!(
                chunks == 1 || last * 2 >= size || total < 4,
                "{total}: last {last} of {size}"
            );
        }
        assert_eq!(chunk_size(130), 65);
        assert_eq!(chunk_size(100), 50);
    }
}
