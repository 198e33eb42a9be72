//! Artwork and icons: the first byte picks how the rest is read — as an SVG
//! (art or icon, links refused, embedded rasters measured), as a raster file
//! (measured from its header, then decoded within the pixel budget), or as a
//! PNG wrapped in an SVG as a `data:` URL. Nothing may panic, and an SVG
//! that names a file outside itself is never accepted.
#![no_main]

use base64::Engine;
use libfuzzer_sys::fuzz_target;
use pnpkit::check::art;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, input)) = data.split_first() else { return };
    match pick % 3 {
        0 => {
            if art::svg(input).is_ok() {
                let text = String::from_utf8_lossy(input);
                for outside in ["href=\"/etc/", "href=\"/dev/", "href=\"../", "href=\"file:"] {
                    assert!(!text.contains(outside), "an SVG linking outside was accepted: {text}");
                }
            }
        }
        1 => {
            if art::measure(input).is_ok() {
                let _ = art::decodes(input);
            }
        }
        _ => {
            let b64 = base64::engine::general_purpose::STANDARD.encode(input);
            let svg = format!(
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\">\
                 <image width=\"10\" height=\"10\" href=\"data:image/png;base64,{b64}\"/></svg>"
            );
            // Accepted only when the raster inside is within the budget.
            if art::svg(svg.as_bytes()).is_ok() {
                assert!(art::measure(input).is_ok() || art::decoded_bytes(input).is_none());
            }
        }
    }
});
