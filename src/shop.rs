//! Print-shop exports: the files each print-on-demand shop takes, laid out
//! at the shop's own trim, bleed and safe zone (the designs are drawn again
//! at that size, not scaled), one set of files per deck, every copy of a card
//! expanded, in the page order the shop asks for, with TrimBox and BleedBox
//! on every PDF page. No I/O here: the command writes what this returns.
//!
//! Shops and their card products (sizes in inches, as the shops publish them):
//! - `tgc` The Game Crafter: PNG per card face, 1/8" bleed, 1/8" safe zone.
//! - `mpc` MakePlayingCards: PNG per card face, 0.12" bleed (822×1122 px for
//!   poker at 300 dpi), 1/8" safe zone.
//! - `dtc` DriveThruCards: one PDF per deck, 1/8" bleed, 1/8" safe zone, the
//!   card back first and then the fronts.
//! - `pnp` any print shop that takes print-ready PDFs: one PDF per deck at the
//!   pack's own trim size with 3 mm bleed, each front followed by its back.

use std::collections::HashMap;
use std::path::PathBuf;

use indexmap::IndexMap;
use rayon::prelude::*;
use serde_json::{Value, json};

use crate::diag::{Code, Diagnostic, SourceMap};
use crate::model::{Component, Deck, Game, Shape, Size};
use crate::render::world::Shared;
use crate::render::{DocPlan, KitOptions, Part, chunk_path, compile, has_backs, pdf, plan_pieces};

const MM_PER_IN: f64 = 25.4;

/// What a shop takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// One PNG per card face at 300 dpi (trim + bleed).
    Png,
    /// One PDF per deck; `back_first`: the deck's back, then its fronts.
    Pdf { back_first: bool },
}

/// A card product of a shop: its name and trim size in inches.
#[derive(Clone, Copy, Debug)]
pub struct Product {
    pub name: &'static str,
    pub w_in: f64,
    pub h_in: f64,
}

/// A print shop.
#[derive(Clone, Copy, Debug)]
pub struct Shop {
    pub id: &'static str,
    pub name: &'static str,
    /// Bleed on each side, in inches; `None`: the pack's own bleed (3 mm).
    pub bleed_in: Option<f64>,
    /// Safe zone inside the trim, in inches.
    pub safe_in: f64,
    /// Card products; empty: the pack's own sizes.
    pub products: &'static [Product],
    pub format: Format,
}

const CARDS: &[Product] = &[
    Product {
        name: "poker",
        w_in: 2.5,
        h_in: 3.5,
    },
    Product {
        name: "bridge",
        w_in: 2.25,
        h_in: 3.5,
    },
    Product {
        name: "mini",
        w_in: 1.75,
        h_in: 2.5,
    },
    Product {
        name: "tarot",
        w_in: 2.75,
        h_in: 4.75,
    },
    Product {
        name: "jumbo",
        w_in: 3.5,
        h_in: 5.75,
    },
    Product {
        name: "square",
        w_in: 3.5,
        h_in: 3.5,
    },
    Product {
        name: "small square",
        w_in: 2.5,
        h_in: 2.5,
    },
];

pub const SHOPS: &[Shop] = &[
    Shop {
        id: "tgc",
        name: "The Game Crafter",
        bleed_in: Some(0.125),
        safe_in: 0.125,
        products: CARDS,
        format: Format::Png,
    },
    Shop {
        id: "mpc",
        name: "MakePlayingCards",
        bleed_in: Some(0.12),
        safe_in: 0.125,
        products: CARDS,
        format: Format::Png,
    },
    Shop {
        id: "dtc",
        name: "DriveThruCards",
        bleed_in: Some(0.125),
        safe_in: 0.125,
        products: CARDS,
        format: Format::Pdf { back_first: true },
    },
    Shop {
        id: "pnp",
        name: "any print shop (print-ready PDF)",
        bleed_in: None,
        safe_in: 3.0 / MM_PER_IN,
        products: &[],
        format: Format::Pdf { back_first: false },
    },
];

pub fn shop(id: &str) -> Option<&'static Shop> {
    SHOPS.iter().find(|s| s.id == id)
}

/// How far a pack's card size may be from a shop product and still print as
/// that product (the design is laid out again at the product's size).
const SIZE_TOLERANCE_MM: f64 = 2.6;

/// How much larger than a card (each side) a shop product may be for the
/// card to print on it when the shop sells no card of its size.
const LARGER_BY_MM: f64 = 25.0;

impl Shop {
    /// The bleed in mm.
    pub fn bleed_mm(&self, pack_bleed: f64) -> f64 {
        self.bleed_in.map_or(pack_bleed, |b| b * MM_PER_IN)
    }

    /// The product a card of `size` prints as: its trim size in mm (the
    /// pack's own orientation), or `None` when the shop has no such card.
    pub fn product_for(&self, size: &Size) -> Option<(&'static str, Size)> {
        if self.products.is_empty() {
            return Some(("", *size));
        }
        let (pw, ph) = (size.width.min(size.height), size.width.max(size.height));
        let sized = || {
            self.products
                .iter()
                .map(|p| (p, (p.w_in * MM_PER_IN, p.h_in * MM_PER_IN)))
        };
        let d = |(w, h): (f64, f64)| (w - pw).abs() + (h - ph).abs();
        // The product of the card's size; else the smallest that holds it
        // with at most LARGER_BY_MM more a side (a large card printed on the
        // shop's jumbo card, laid out again at that size).
        sized()
            .filter(|(_, (w, h))| (w - pw).abs() <= SIZE_TOLERANCE_MM && (h - ph).abs() <= SIZE_TOLERANCE_MM)
            .min_by(|a, b| d(a.1).total_cmp(&d(b.1)))
            .or_else(|| {
                sized()
                    .filter(|(_, (w, h))| {
                        *w >= pw - SIZE_TOLERANCE_MM
                            && *h >= ph - SIZE_TOLERANCE_MM
                            && w - pw <= LARGER_BY_MM
                            && h - ph <= LARGER_BY_MM
                    })
                    .min_by(|a, b| d(a.1).total_cmp(&d(b.1)))
            })
            .map(|(p, (w, h))| {
                let landscape = size.width > size.height;
                let s = if landscape {
                    Size { width: h, height: w }
                } else {
                    Size { width: w, height: h }
                };
                (p.name, s)
            })
    }

    fn nearest(&self, size: &Size) -> Option<String> {
        let (pw, ph) = (size.width.min(size.height), size.width.max(size.height));
        self.products
            .iter()
            .min_by(|a, b| {
                let d = |p: &Product| (p.w_in * MM_PER_IN - pw).abs() + (p.h_in * MM_PER_IN - ph).abs();
                d(a).total_cmp(&d(b))
            })
            .map(|p| format!("{} {:.1} × {:.1} mm", p.name, p.w_in * MM_PER_IN, p.h_in * MM_PER_IN))
    }
}

/// One file of an export: where it goes (relative to the output folder) and its bytes.
pub type File = (PathBuf, Vec<u8>);

/// A shop export of one game and locale: its files, and the warnings about
/// what the shop cannot print.
pub struct Export {
    pub files: Vec<File>,
    pub skipped: Vec<Diagnostic>,
}

/// Everything a shop needs for one game in one locale.
pub fn export(
    shared: &Shared,
    game: &Game,
    locale: &str,
    shop: &Shop,
    template: &str,
) -> Result<Export, Vec<(Diagnostic, SourceMap)>> {
    let pack_bleed = KitOptions::default().settings.bleed;
    let bleed = shop.bleed_mm(pack_bleed);
    // The game as the shop prints it: each card kind at its product's size.
    let mut sized = game.clone();
    let mut problems = Vec::new();
    let mut skipped = Vec::new();
    let mut products: IndexMap<String, &'static str> = IndexMap::new();
    for kind in game.kinds.values().filter(|k| k.shape == Shape::Card) {
        let Some(size) = kind.size.as_ref().and_then(|s| game.sizes.get(s)) else {
            continue;
        };
        if game.components.get(&kind.id).is_none_or(|l| l.is_empty()) {
            continue;
        }
        match shop.product_for(size) {
            Some((name, s)) => {
                let key = format!("{}@{}", kind.id, shop.id);
                sized.sizes.insert(key.clone(), s);
                if let Some(k) = sized.kinds.get_mut(&kind.id) {
                    k.size = Some(key);
                }
                products.insert(kind.id.clone(), name);
            }
            None => skipped.push(
                Diagnostic::new(
                    Code::ShopSize,
                    format!(
                        "{} sells no card of {} × {} mm: {} `{}` is left out",
                        shop.name,
                        size.width,
                        size.height,
                        kind.name.get(locale).to_lowercase(),
                        kind.id
                    ),
                )
                .note(format!(
                    "nearest product: {}",
                    shop.nearest(size).unwrap_or_else(|| "none".into())
                ))
                .help("choose a card size the shop sells (docs/print.md lists them), or export with `--shop pnp`")
                .in_file(game.dir.join("game.yaml")),
            ),
        }
    }
    let mut opts = KitOptions::default();
    opts.settings.bleed = bleed;
    let pieces = plan_pieces(&sized, locale, &opts, template);
    let mut docs = Vec::new();
    let mut files_in: Vec<(String, typst::foundations::Bytes)> = Vec::new();
    for (n, chunk) in pieces.chunks.iter().enumerate() {
        let mut sources = SourceMap::default();
        match compile(shared, chunk, &[], &mut sources, None) {
            Ok(c) => {
                if matches!(shop.format, Format::Pdf { .. }) {
                    let bytes = pdf(shared, chunk, &c.document).map_err(|e| {
                        vec![(
                            Diagnostic::new(Code::TemplateError, format!("PDF export failed: {e}")),
                            SourceMap::default(),
                        )]
                    })?;
                    files_in.push((chunk_path(n), typst::foundations::Bytes::new(bytes)));
                }
                docs.push(c.document);
            }
            Err(d) => problems.extend(d.into_iter().map(|d| (d, sources.clone()))),
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let base = PathBuf::from(&game.id).join("shop").join(shop.id).join(locale);
    let mut out: Vec<File> = Vec::new();
    let mut manifest = format!(
        "{} — {} ({locale})\nFiles for {}: trim at the shop's card size, {:.3} in ({bleed:.2} mm) of bleed, \
         keep text {:.3} in ({:.2} mm) inside the trim. Every copy of every card is its own file or page.\n\n",
        game.name.get(locale),
        shop.name,
        shop.name,
        bleed / MM_PER_IN,
        shop.safe_in,
        shop.safe_in * MM_PER_IN
    );
    let err = |message: String| vec![(Diagnostic::new(Code::TemplateError, message), SourceMap::default())];
    for deck in sized.decks() {
        let kind = &sized.kinds[&deck.cards[0].kind];
        if !products.contains_key(&kind.id) {
            continue;
        }
        let Some(size) = kind.size.as_ref().and_then(|s| sized.sizes.get(s)) else {
            continue;
        };
        let backs = has_backs(kind);
        // Each copy of each card, in deck order.
        let copies: Vec<&Component> = deck.cards.iter().flat_map(|c| (0..c.copies).map(move |_| *c)).collect();
        let page = |c: &Component, face: &str| pieces.locate(&c.kind, &c.id, face, None);
        // One back for the deck when every card's back looks the same (its drawing, not its page).
        let look = |(chunk, p): (usize, usize)| typst_svg::svg(&docs[chunk].pages()[p - 1], &Default::default());
        let distinct = if backs {
            let mut seen: Vec<String> = deck.cards.par_iter().map(|c| look(page(c, "back"))).collect();
            seen.sort_unstable();
            seen.dedup();
            seen.len()
        } else {
            0
        };
        let one_back = backs && distinct == 1;
        // A shuffled deck printed with several backs would show every draw.
        if deck.shuffled() && distinct > 1 {
            return Err(vec![(
                Diagnostic::new(
                    Code::DeckBacks,
                    format!(
                        "deck `{}` of {} prints {distinct} different backs: the layout's `back` must draw \
                         from `ctx.back` (the design game.yaml declares), not from the card",
                        deck.id, game.id
                    ),
                ),
                SourceMap::default(),
            )]);
        }
        let product = products.get(&kind.id).copied().unwrap_or("");
        manifest.push_str(&format!(
            "{} ({}): {} cards{}, {:.1} × {:.1} mm{}\n",
            sized.deck_name(&deck, locale),
            deck.id,
            copies.len(),
            match (backs, one_back) {
                (false, _) => "",
                (true, true) => ", one back for all",
                (true, false) => ", a back per card",
            },
            size.width,
            size.height,
            if product.is_empty() {
                String::new()
            } else {
                format!(" ({product})")
            },
        ));
        match shop.format {
            Format::Png => {
                let (w, h) = (
                    ((size.width + 2.0 * bleed) / MM_PER_IN * crate::export::DPI).round() as u32,
                    ((size.height + 2.0 * bleed) / MM_PER_IN * crate::export::DPI).round() as u32,
                );
                // Each face of each card drawn once, in parallel; its copies share the bytes.
                let mut faces: Vec<(&Component, &str)> = deck.cards.iter().map(|c| (*c, "front")).collect();
                if backs && !one_back {
                    faces.extend(deck.cards.iter().map(|c| (*c, "back")));
                } else if one_back {
                    faces.push((deck.cards[0], "back"));
                }
                let drawn: Vec<Result<Vec<u8>, String>> = faces
                    .par_iter()
                    .map(|(c, face)| {
                        let (chunk, p) = page(c, face);
                        crate::export::png(&crate::export::rasterize(&docs[chunk].pages()[p - 1], w, h)?)
                    })
                    .collect();
                let mut png: HashMap<(&str, &str), Vec<u8>> = HashMap::new();
                for ((c, face), bytes) in faces.iter().zip(drawn) {
                    png.insert(
                        (c.id.as_str(), face),
                        bytes.map_err(|e| err(format!("cannot rasterise: {e}")))?,
                    );
                }
                let dir = base.join(&deck.id);
                for (n, c) in copies.iter().enumerate() {
                    out.push((
                        dir.join(format!("{:03}-{}.png", n + 1, c.id)),
                        png[&(c.id.as_str(), "front")].clone(),
                    ));
                    if backs && !one_back {
                        out.push((
                            dir.join(format!("{:03}-{}-back.png", n + 1, c.id)),
                            png[&(c.id.as_str(), "back")].clone(),
                        ));
                    }
                }
                if one_back {
                    out.push((dir.join("back.png"), png[&(deck.cards[0].id.as_str(), "back")].clone()));
                }
            }
            Format::Pdf { back_first } => {
                // The order of the deck's pages: (chunk, page) of each face.
                let mut order: Vec<(usize, usize)> = Vec::new();
                if back_first && one_back {
                    order.push(page(deck.cards[0], "back"));
                    order.extend(copies.iter().map(|c| page(c, "front")));
                } else {
                    for c in &copies {
                        if back_first && backs {
                            order.push(page(c, "back"));
                        }
                        order.push(page(c, "front"));
                        if !back_first && backs {
                            order.push(page(c, "back"));
                        }
                    }
                }
                let plan = deck_plan(&sized, locale, &deck, size, bleed, &order, &base, shop);
                let mut sources = SourceMap::default();
                let doc = compile(shared, &plan, &files_in, &mut sources, None)
                    .map_err(|d| d.into_iter().map(|d| (d, sources.clone())).collect::<Vec<_>>())?;
                let bytes = pdf(shared, &plan, &doc.document).map_err(|e| err(format!("PDF export failed: {e}")))?;
                let boxed = with_bleed_box(&bytes).map_err(|e| err(format!("cannot set the BleedBox: {e}")))?;
                out.push((plan.out.clone(), boxed));
            }
        }
    }
    for d in &skipped {
        manifest.push_str(&format!("Left out: {}\n", d.message));
    }
    out.push((base.join("README.txt"), manifest.into_bytes()));
    Ok(Export { files: out, skipped })
}

/// The document of one deck for a PDF shop: each page one face at trim size
/// with the bleed around it (typst writes the TrimBox).
#[allow(clippy::too_many_arguments)]
fn deck_plan(
    game: &Game,
    locale: &str,
    deck: &Deck,
    size: &Size,
    bleed: f64,
    order: &[(usize, usize)],
    base: &std::path::Path,
    shop: &Shop,
) -> DocPlan {
    let pages: Vec<Value> = order
        .iter()
        .map(|(chunk, page)| json!({"file": chunk_path(*chunk), "page": page, "w": size.width, "h": size.height, "bleed": bleed}))
        .collect();
    DocPlan {
        game: game.id.clone(),
        locale: locale.to_owned(),
        paper: None,
        part: Part::Pieces,
        out: base.join(format!("{}-{}-{}.pdf", game.id, deck.id, shop.id)),
        main: "#import \"/templates/shared/kit.typ\": render-merged\n#render-merged(json(\"/data.json\"))\n".into(),
        data: json!({
            "locale": locale,
            "game": {"id": game.id, "name": format!("{} — {}", game.name.get(locale), game.deck_name(deck, locale))},
            "pages": pages,
        }),
        pages: order.len(),
        assets: game.assets.clone(),
    }
}

/// Adds a BleedBox (the whole page: trim and bleed) to every page that has a
/// TrimBox. typst writes the TrimBox but not the BleedBox.
pub fn with_bleed_box(pdf: &[u8]) -> Result<Vec<u8>, String> {
    let mut doc = lopdf::Document::load_mem(pdf).map_err(|e| e.to_string())?;
    let ids: Vec<_> = doc.get_pages().values().copied().collect();
    for id in ids {
        let dict = doc.get_dictionary_mut(id).map_err(|e| e.to_string())?;
        if dict.has(b"TrimBox") && !dict.has(b"BleedBox") {
            let media = dict.get(b"MediaBox").map_err(|e| e.to_string())?.clone();
            dict.set("BleedBox", media);
        }
    }
    let mut out = Vec::new();
    doc.save_to(&mut out).map_err(|e| e.to_string())?;
    Ok(out)
}
