//! Print-shop exports, checked on the files a shop receives: page and image
//! sizes at the shop's trim and bleed, TrimBox and BleedBox on every PDF
//! page, page order (DriveThruCards: the back first), one file per deck,
//! every copy expanded, bleed on every edge (rasterised), sizes a shop does
//! not sell reported and left out.

use crate::common;

use crate::common::raster::{PAPER, rasterise, renderer_available};
use lopdf::{Document, Object};
use pnpkit::diag::Code;
use pnpkit::render::pipeline::template_for;
use pnpkit::render::world::Shared;
use pnpkit::shop::{self, Export};

fn export(game: &str, shop_id: &str) -> Export {
    let shared = Shared::new(common::root(), 1_767_225_600).unwrap();
    let g = common::game(game);
    shop::export(
        &shared,
        g,
        "en",
        shop::shop(shop_id).unwrap(),
        &template_for(&shared, g),
    )
    .unwrap_or_else(|p| {
        panic!(
            "{game} {shop_id}: {:?}",
            p.iter().map(|(d, _)| &d.message).collect::<Vec<_>>()
        )
    })
}

fn num(o: &Object) -> f64 {
    match o {
        Object::Integer(i) => *i as f64,
        Object::Real(r) => *r as f64,
        _ => f64::NAN,
    }
}

fn boxes(doc: &Document, id: lopdf::ObjectId) -> [Vec<f64>; 3] {
    let d = doc.get_dictionary(id).unwrap();
    let get = |k: &[u8]| -> Vec<f64> {
        d.get(k)
            .unwrap_or_else(|_| panic!("page has no {}", String::from_utf8_lossy(k)))
            .as_array()
            .unwrap()
            .iter()
            .map(num)
            .collect()
    };
    [get(b"MediaBox"), get(b"TrimBox"), get(b"BleedBox")]
}

#[test]
fn drivethrucards_gets_one_pdf_per_deck_back_first_at_poker_size() {
    let e = export("unmatched", "dtc");
    let pdfs: Vec<_> = e
        .files
        .iter()
        .filter(|(p, _)| p.extension().is_some_and(|x| x == "pdf"))
        .collect();
    // One file per hero deck, and one for the character cards (large cards, as jumbo).
    assert_eq!(pdfs.len(), 5, "{:?}", pdfs.iter().map(|(p, _)| p).collect::<Vec<_>>());
    let (path, bytes) = pdfs
        .iter()
        .find(|(p, _)| p.to_string_lossy().contains("alice-deck"))
        .unwrap();
    let doc = Document::load_mem(bytes).unwrap();
    let pages = doc.get_pages();
    // The back, then each of the 30 cards (copies expanded).
    assert_eq!(pages.len(), 31, "{}", path.display());
    for (n, id) in &pages {
        let [media, trim, bleed] = boxes(&doc, *id);
        // 2.75 × 3.75 in with bleed, 2.5 × 3.5 in trimmed (points).
        assert!(
            (media[2] - media[0] - 198.0).abs() < 0.1 && (media[3] - media[1] - 270.0).abs() < 0.1,
            "p{n} {media:?}"
        );
        assert!(
            (trim[2] - trim[0] - 180.0).abs() < 0.1 && (trim[3] - trim[1] - 252.0).abs() < 0.1,
            "p{n} {trim:?}"
        );
        assert!((trim[0] - media[0] - 9.0).abs() < 0.1, "1/8 in bleed");
        assert_eq!(bleed, media, "BleedBox is the whole page");
    }
    if !renderer_available("shop pages") {
        return;
    }
    // The first page is the back every card shares, unlike any of the fronts after it.
    let r = rasterise(bytes, 1, 31, 40.0);
    let diff = |a: usize, b: usize| {
        r[a].px
            .iter()
            .zip(&r[b].px)
            .filter(|(x, y)| x.abs_diff(**y) > 40)
            .count()
    };
    for k in 1..31 {
        assert!(diff(0, k) > 1000, "page {} looks like page 1 (the back)", k + 1);
    }
    // Bleed on every edge of every page: the outermost millimetre is printed, not paper.
    for (n, g) in r.iter().enumerate() {
        let (w, h) = (g.width_mm(), g.height_mm());
        for (x, y, bw, bh) in [
            (0.0, 0.0, w, 1.0),
            (0.0, h - 1.0, w, 1.0),
            (0.0, 0.0, 1.0, h),
            (w - 1.0, 0.0, 1.0, h),
        ] {
            assert!(
                g.share(x, y, bw, bh, |v| v >= PAPER) < 0.5,
                "page {} has blank bleed",
                n + 1
            );
        }
    }
}

#[test]
fn game_crafter_and_mpc_get_a_png_per_card_at_their_pixel_sizes() {
    for (shop_id, w, h) in [("tgc", 825, 1125), ("mpc", 822, 1122)] {
        let e = export("unmatched", shop_id);
        let deck: Vec<_> = e
            .files
            .iter()
            .filter(|(p, _)| p.to_string_lossy().contains("/alice-deck/"))
            .collect();
        // 30 fronts and the deck's one back.
        assert_eq!(deck.len(), 31, "{shop_id}");
        assert!(deck.iter().any(|(p, _)| p.ends_with("back.png")), "{shop_id}");
        for (p, bytes) in &deck {
            let png = png_size(bytes);
            assert_eq!(png, (w, h), "{shop_id} {}", p.display());
        }
    }
}

/// Width and height of a PNG from its header.
fn png_size(b: &[u8]) -> (u32, u32) {
    assert_eq!(&b[1..4], b"PNG");
    (
        u32::from_be_bytes([b[16], b[17], b[18], b[19]]),
        u32::from_be_bytes([b[20], b[21], b[22], b[23]]),
    )
}

#[test]
fn large_cards_print_on_the_shops_jumbo_cards_and_sizes_no_product_holds_are_left_out() {
    // Unmatched character cards (88 × 126 mm) have no product of their size:
    // they print on The Game Crafter's jumbo cards (3.5 × 5.75 in), laid out again.
    let e = export("unmatched", "tgc");
    assert!(e.skipped.is_empty(), "{:?}", e.skipped);
    let heroes: Vec<_> = e
        .files
        .iter()
        .filter(|(p, _)| p.to_string_lossy().contains("/hero/"))
        .collect();
    assert_eq!(heroes.len(), 8, "4 fronts and 4 backs (a back per hero)");
    for (p, bytes) in &heroes {
        assert_eq!(png_size(bytes), (1125, 1800), "{}", p.display());
    }
    // A card no product holds (200 × 300 mm) is reported and left out.
    let shared = Shared::new(common::root(), 1_767_225_600).unwrap();
    let mut g = common::game("unmatched").clone();
    g.sizes.insert(
        "character".into(),
        pnpkit::model::Size {
            width: 200.0,
            height: 300.0,
        },
    );
    let e = shop::export(
        &shared,
        &g,
        "en",
        shop::shop("tgc").unwrap(),
        &template_for(&shared, &g),
    )
    .unwrap_or_else(|p| panic!("{:?}", p.iter().map(|(d, _)| &d.message).collect::<Vec<_>>()));
    assert!(
        e.skipped
            .iter()
            .any(|d| d.code == Code::ShopSize && d.message.contains("200 × 300")),
        "{:?}",
        e.skipped
    );
    assert!(!e.files.iter().any(|(p, _)| p.to_string_lossy().contains("/hero/")));
    // The print-ready PDF takes every size as it is, front then back.
    let e = export("unmatched", "pnp");
    assert!(e.skipped.is_empty());
    let (_, bytes) = e
        .files
        .iter()
        .find(|(p, _)| p.to_string_lossy().ends_with("hero-pnp.pdf"))
        .unwrap();
    let doc = Document::load_mem(bytes).unwrap();
    let pages = doc.get_pages();
    assert_eq!(pages.len(), 8, "four heroes, front and back each");
    let [media, trim, _] = boxes(&doc, *pages.values().next().unwrap());
    let mm = |pt: f64| pt * 25.4 / 72.0;
    assert!((mm(trim[2] - trim[0]) - 88.0).abs() < 0.05 && (mm(trim[3] - trim[1]) - 126.0).abs() < 0.05);
    assert!((mm(media[2] - media[0]) - 94.0).abs() < 0.05, "3 mm bleed");
}

#[test]
fn shop_files_are_byte_identical_across_runs() {
    let a = export("xterminio", "dtc");
    let b = export("xterminio", "dtc");
    assert_eq!(a.files.len(), b.files.len());
    for ((pa, ba), (pb, bb)) in a.files.iter().zip(&b.files) {
        assert_eq!(pa, pb);
        assert!(ba == bb, "{} differs between runs", pa.display());
    }
}
