//! Exports for print-on-demand and virtual tabletops: one PNG per card
//! design at 300 dpi with bleed, and Tabletop Simulator deck sheets with the
//! deck's saved-object JSON. Pages of the pieces document go through
//! typst-svg and are rasterised by resvg. No I/O here.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::Arc;

use rayon::prelude::*;
use resvg::tiny_skia::{self, Pixmap, Transform};
use serde_json::{Value, json};
use typst_layout::{Page, PagedDocument};

use crate::model::{Component, Game, Shape};
use crate::render::{KitOptions, PiecesPlan, has_backs};

/// Pixel sizes of a poker card with bleed for print shops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// MakePlayingCards: 822×1122 px for poker cards.
    Mpc,
    /// The Game Crafter: 825×1125 px for poker cards.
    Tgc,
    /// The design's own size (trim + bleed) at 300 dpi.
    Exact,
}

pub const DPI: f64 = 300.0;

/// The pixel size of a piece page of `w`×`h` mm (trim + bleed) in a style.
/// Print-shop styles scale their poker template to the piece's proportions.
pub fn target_px(style: Style, w_mm: f64, h_mm: f64) -> (u32, u32) {
    let exact = ((w_mm / 25.4 * DPI).round() as u32, (h_mm / 25.4 * DPI).round() as u32);
    let (pw, ph) = match style {
        Style::Mpc => (822.0, 1122.0),
        Style::Tgc => (825.0, 1125.0),
        Style::Exact => return exact,
    };
    // A poker page with bleed is 69×94 mm: other sizes keep the shop's scale.
    let (sx, sy) = (pw / 69.0, ph / 94.0);
    ((w_mm * sx).round() as u32, (h_mm * sy).round() as u32)
}

/// Renders a page to exactly `w`×`h` pixels: scaled uniformly to cover the
/// target and centred, so a sliver of bleed may be cut, never the trim.
pub fn rasterize(page: &Page, w: u32, h: u32) -> Result<Pixmap, String> {
    let svg = typst_svg::svg(
        page,
        &typst_svg::SvgOptions {
            render_bleed: true,
            ..Default::default()
        },
    );
    let tree = resvg::usvg::Tree::from_str(&svg, &resvg::usvg::Options::default()).map_err(|e| e.to_string())?;
    let size = tree.size();
    let scale = (w as f32 / size.width()).max(h as f32 / size.height());
    let dx = (w as f32 - size.width() * scale) / 2.0;
    let dy = (h as f32 - size.height() * scale) / 2.0;
    let mut pixmap = Pixmap::new(w.max(1), h.max(1)).ok_or("empty image")?;
    pixmap.fill(tiny_skia::Color::WHITE);
    resvg::render(
        &tree,
        Transform::from_row(scale, 0.0, 0.0, scale, dx, dy),
        &mut pixmap.as_mut(),
    );
    Ok(pixmap)
}

pub fn png(p: &Pixmap) -> Result<Vec<u8>, String> {
    p.encode_png().map_err(|e| e.to_string())
}

/// Tabletop Simulator limits: at most 10×7 images per sheet, 4096 px a side.
pub const TTS_COLS: u32 = 10;
pub const TTS_ROWS: u32 = 7;
pub const TTS_MAX_PX: u32 = 4096;

/// The cell size of a TTS sheet for cards of aspect `w`:`h` (largest that fits).
pub fn tts_cell(w: u32, h: u32) -> (u32, u32) {
    let scale = (TTS_MAX_PX as f64 / (TTS_COLS * w) as f64).min(TTS_MAX_PX as f64 / (TTS_ROWS * h) as f64);
    let scale = scale.min(1.0);
    (((w as f64) * scale).floor() as u32, ((h as f64) * scale).floor() as u32)
}

/// A card for a TTS deck: its name, copies and front/back images at cell size.
pub struct TtsCard {
    pub name: String,
    pub copies: u32,
    pub front: Arc<Pixmap>,
    pub back: Arc<Pixmap>,
}

/// One sheet pair (faces and backs) and the cards it holds.
pub struct TtsSheet {
    pub faces: Pixmap,
    pub backs: Pixmap,
    pub count: usize,
}

/// Lays cards out on sheets of 10×7 cells; the last cell of each face sheet
/// is the hidden card (shown while a card is in a player's hand).
pub fn tts_sheets(cards: &[TtsCard], hidden: &Pixmap) -> Vec<TtsSheet> {
    let per_sheet = (TTS_COLS * TTS_ROWS - 1) as usize;
    let (cw, ch) = (hidden.width(), hidden.height());
    let mut out = Vec::new();
    for chunk in cards.chunks(per_sheet) {
        let n = chunk.len() as u32 + 1;
        let cols = n.min(TTS_COLS);
        let rows = n.div_ceil(TTS_COLS);
        let mut faces = Pixmap::new(cols * cw, rows * ch).expect("sheet size");
        let mut backs = Pixmap::new(cols * cw, rows * ch).expect("sheet size");
        let place =
            |sheet: &mut Pixmap, i: u32, img: &Pixmap| blit(sheet, (i % TTS_COLS) * cw, (i / TTS_COLS) * ch, img);
        for (i, c) in chunk.iter().enumerate() {
            place(&mut faces, i as u32, &c.front);
            place(&mut backs, i as u32, &c.back);
        }
        // TTS takes the grid's last cell as the hidden card.
        place(&mut faces, cols * rows - 1, hidden);
        place(&mut backs, cols * rows - 1, hidden);
        out.push(TtsSheet {
            faces,
            backs,
            count: chunk.len(),
        });
    }
    out
}

/// Copies `img` into `sheet` with its top left corner at (`x`, `y`), row by
/// row: a sheet cell is replaced, not composited (a card image is opaque).
fn blit(sheet: &mut Pixmap, x: u32, y: u32, img: &Pixmap) {
    let (sw, sh) = (sheet.width() as usize, sheet.height() as usize);
    let (x, y) = (x as usize, y as usize);
    if x >= sw || y >= sh {
        return;
    }
    let w = (img.width() as usize).min(sw - x);
    let h = (img.height() as usize).min(sh - y);
    let iw = img.width() as usize;
    let src = img.data();
    let dst = sheet.data_mut();
    for row in 0..h {
        let from = row * iw * 4;
        let to = ((y + row) * sw + x) * 4;
        dst[to..to + w * 4].copy_from_slice(&src[from..from + w * 4]);
    }
}

/// The TTS saved object of a deck. `urls` gives each sheet's (face, back)
/// image address; cards are numbered `<sheet><index>` as TTS expects.
pub fn tts_deck_json(name: &str, cards: &[TtsCard], sheets: &[TtsSheet], urls: &[(String, String)]) -> Value {
    let per_sheet = (TTS_COLS * TTS_ROWS - 1) as usize;
    let mut deck_ids = Vec::new();
    let mut contained = Vec::new();
    let mut custom = serde_json::Map::new();
    for (s, sheet) in sheets.iter().enumerate() {
        let n = sheet.count as u32 + 1;
        let entry = json!({
            "FaceURL": urls[s].0,
            "BackURL": urls[s].1,
            "NumWidth": n.min(TTS_COLS),
            "NumHeight": n.div_ceil(TTS_COLS),
            "BackIsHidden": true,
            "UniqueBack": true,
            "Type": 0,
        });
        custom.insert((s + 1).to_string(), entry);
    }
    for (i, card) in cards.iter().enumerate() {
        let sheet = i / per_sheet + 1;
        let id = sheet * 100 + i % per_sheet;
        let deck = json!({ sheet.to_string(): custom[&sheet.to_string()] });
        for _ in 0..card.copies {
            deck_ids.push(id);
            contained.push(json!({
                "Name": "Card",
                "Nickname": card.name,
                "CardID": id,
                "CustomDeck": deck,
                "Transform": {"posX": 0, "posY": 0, "posZ": 0, "rotX": 0, "rotY": 180, "rotZ": 180, "scaleX": 1, "scaleY": 1, "scaleZ": 1},
            }));
        }
    }
    json!({
        "ObjectStates": [{
            "Name": "DeckCustom",
            "Nickname": name,
            "Transform": {"posX": 0, "posY": 1, "posZ": 0, "rotX": 0, "rotY": 180, "rotZ": 180, "scaleX": 1, "scaleY": 1, "scaleZ": 1},
            "DeckIDs": deck_ids,
            "CustomDeck": custom,
            "ContainedObjects": contained,
        }]
    })
}

/// Files as (path relative to the export folder, bytes).
type Files = Vec<(PathBuf, Vec<u8>)>;

/// The files of `export` for one game and locale, relative to its export
/// folder: a PNG of every card design (`png/<kind>/<id>.png`, and its back),
/// and a Tabletop Simulator deck per deck of the game (model/decks.rs), with
/// its sheets (`tts/<deck>-faces-1.png` …) and saved object (`tts/<deck>.json`).
/// `docs` are the compiled chunk documents of `pieces`.
pub fn game_files(
    game: &Game,
    locale: &str,
    pieces: &PiecesPlan,
    docs: &[PagedDocument],
    style: Style,
    url_prefix: &str,
) -> Result<Files, String> {
    let bleed = KitOptions::default().settings.bleed;
    let mut files = Vec::new();
    let face = |c: &Component, f: &str| pieces.locate(&c.kind, &c.id, f, None);
    let px_of = |c: &Component| {
        let size = game.kinds[&c.kind].size.as_ref().and_then(|s| game.sizes.get(s))?;
        Some(target_px(style, size.width + 2.0 * bleed, size.height + 2.0 * bleed))
    };
    // Every page at every size the files need, drawn once: a deck's backs are
    // mostly one design, and a TTS sheet cell is smaller than a design's PNG.
    let mut wanted = BTreeSet::new();
    for kind in game.kinds.values().filter(|k| k.shape == Shape::Card) {
        for c in game.components.get(&kind.id).into_iter().flatten() {
            let Some((w, h)) = px_of(c) else { continue };
            wanted.insert((face(c, "front"), (w, h)));
            if has_backs(kind) {
                wanted.insert((face(c, "back"), (w, h)));
            }
        }
    }
    for deck in game.decks() {
        let Some((w, h)) = px_of(deck.cards[0]) else { continue };
        let cell = tts_cell(w, h);
        let backs = has_backs(&game.kinds[&deck.cards[0].kind]);
        for c in &deck.cards {
            wanted.insert((face(c, "front"), cell));
            if backs {
                wanted.insert((face(c, "back"), cell));
            }
        }
    }
    let drawn: Vec<Result<Arc<Pixmap>, String>> = wanted
        .par_iter()
        .map(|&((chunk, page), (w, h))| rasterize(&docs[chunk].pages()[page - 1], w, h).map(Arc::new))
        .collect();
    let mut raster = BTreeMap::new();
    for (key, pixmap) in wanted.into_iter().zip(drawn) {
        raster.insert(key, pixmap?);
    }
    let drawn = |c: &Component, f: &str, size: (u32, u32)| Arc::clone(&raster[&(face(c, f), size)]);
    // Every design once, at full size.
    for kind in game.kinds.values().filter(|k| k.shape == Shape::Card) {
        let comps = game.components.get(&kind.id).map(Vec::as_slice).unwrap_or_default();
        let encoded: Vec<Result<Files, String>> = comps
            .par_iter()
            .map(|c| {
                let Some(size) = px_of(c) else { return Ok(Vec::new()) };
                let dir = PathBuf::from("png").join(&kind.id);
                let mut out = vec![(dir.join(format!("{}.png", c.id)), png(&drawn(c, "front", size))?)];
                if has_backs(kind) {
                    out.push((dir.join(format!("{}-back.png", c.id)), png(&drawn(c, "back", size))?));
                }
                Ok(out)
            })
            .collect();
        for r in encoded {
            files.extend(r?);
        }
    }
    // A TTS deck object per deck, as players shuffle them.
    for deck in game.decks() {
        let Some((w, h)) = px_of(deck.cards[0]) else { continue };
        let cell = tts_cell(w, h);
        let backs = has_backs(&game.kinds[&deck.cards[0].kind]);
        let cards: Vec<TtsCard> = deck
            .cards
            .iter()
            .map(|c| {
                let front = drawn(c, "front", cell);
                TtsCard {
                    name: c.name.get(locale).to_owned(),
                    copies: c.copies,
                    back: if backs {
                        drawn(c, "back", cell)
                    } else {
                        Arc::clone(&front)
                    },
                    front,
                }
            })
            .collect();
        let hidden = Arc::clone(&cards[0].back);
        let sheets = tts_sheets(&cards, &hidden);
        let mut urls = Vec::new();
        for (i, sheet) in sheets.iter().enumerate() {
            let (f, b) = (
                format!("{}-faces-{}.png", deck.id, i + 1),
                format!("{}-backs-{}.png", deck.id, i + 1),
            );
            files.push((PathBuf::from("tts").join(&f), png(&sheet.faces)?));
            files.push((PathBuf::from("tts").join(&b), png(&sheet.backs)?));
            urls.push((format!("{url_prefix}{f}"), format!("{url_prefix}{b}")));
        }
        let name = format!("{} — {}", game.name.get(locale), game.deck_name(&deck, locale));
        let json = tts_deck_json(&name, &cards, &sheets, &urls);
        let mut text = serde_json::to_string_pretty(&json).unwrap_or_default();
        text.push('\n');
        files.push((
            PathBuf::from("tts").join(format!("{}.json", deck.id)),
            text.into_bytes(),
        ));
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn print_shop_sizes_for_poker_cards() {
        assert_eq!(target_px(Style::Mpc, 69.0, 94.0), (822, 1122));
        assert_eq!(target_px(Style::Tgc, 69.0, 94.0), (825, 1125));
        assert_eq!(target_px(Style::Exact, 69.0, 94.0), (815, 1110));
    }

    #[test]
    fn tts_sheets_fit_the_limits() {
        let (w, h) = tts_cell(822, 1122);
        assert!(w * TTS_COLS <= TTS_MAX_PX && h * TTS_ROWS <= TTS_MAX_PX);
        let img = Pixmap::new(w, h).unwrap();
        let cards: Vec<TtsCard> = (0..75)
            .map(|i| TtsCard {
                name: format!("c{i}"),
                copies: 2,
                front: Arc::new(img.clone()),
                back: Arc::new(img.clone()),
            })
            .collect();
        let sheets = tts_sheets(&cards, &img);
        assert_eq!(sheets.len(), 2);
        assert_eq!(sheets[0].count, 69);
        assert_eq!(sheets[0].faces.width(), 10 * w);
        assert_eq!(sheets[0].faces.height(), 7 * h);
        let urls = vec![("f1".into(), "b1".into()), ("f2".into(), "b2".into())];
        let deck = tts_deck_json("d", &cards, &sheets, &urls);
        let ids = deck["ObjectStates"][0]["DeckIDs"].as_array().unwrap();
        assert_eq!(ids.len(), 150);
        assert_eq!(ids[0], 100);
        assert_eq!(ids[149], 205);
        assert_eq!(deck["ObjectStates"][0]["CustomDeck"]["2"]["NumWidth"], 7);
    }
}
