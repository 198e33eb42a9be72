//! The decklist sheet of a checked list: one A4 page in the list's locale
//! (`templates/shared/decklist.typ`) with the cards by kind, the
//! composition, the deck hash and space for judge notes. Compiled through
//! the same sandboxed typst world as the kits.

use serde_json::{Value, json};
use typst::foundations::Smart;

use super::world::{DocWorld, Shared};
use crate::deck::DeckReport;
use crate::deck::validate::{kind_label, name};
use crate::model::Game;
use crate::model::construction::HeaderType;

/// The layout file, inside the project root.
pub const TEMPLATE: &str = "/templates/shared/decklist.typ";

/// What the template receives.
pub fn data(game: &Game, report: &DeckReport) -> Value {
    let v = &report.verdict;
    let locale = v.locale.as_str();
    let c = game.construction.as_ref();
    let card = |e: &crate::deck::Entry| {
        json!({
            "count": e.count,
            "name": game.component(&e.kind, &e.id).map_or_else(|| e.id.clone(), |comp| name(comp, locale)),
        })
    };
    let mut groups = Vec::new();
    for kind in c.map(|c| c.kinds.clone()).unwrap_or_default() {
        let cards: Vec<&crate::deck::Entry> = report.deck.entries.iter().filter(|e| e.kind == kind).collect();
        if cards.is_empty() {
            continue;
        }
        groups.push(json!({
            "kind": kind_label(game, &kind, locale),
            "count": cards.iter().map(|e| e.count).sum::<u32>(),
            "cards": cards.iter().map(|e| card(e)).collect::<Vec<_>>(),
        }));
    }
    let mode = v.mode.as_ref().map(|m| {
        c.and_then(|c| c.modes.as_ref())
            .and_then(|k| game.component(k, m))
            .map_or_else(|| m.clone(), |comp| name(comp, locale))
    });
    let role = v
        .role
        .as_ref()
        .filter(|_| c.is_some_and(|c| !c.roles.is_empty()))
        .map(|r| {
            c.and_then(|c| c.role(r))
                .map_or_else(|| r.clone(), |ro| ro.name.get(locale).to_string())
        });
    // The header values the rules read, with keys in the list's locale.
    let mut fields = Vec::new();
    if let Some(c) = c {
        for (id, value) in &v.header {
            let shown = match (id.as_str(), c.header.get(id).map(|f| &f.ty)) {
                ("mode", _) => mode.clone().unwrap_or_else(|| value.clone()),
                ("role", _) => role.clone().unwrap_or_else(|| value.clone()),
                (_, Some(HeaderType::Ref { kind })) => game
                    .component(kind, value)
                    .map_or_else(|| value.clone(), |comp| name(comp, locale)),
                _ => value.clone(),
            };
            let key = crate::deck::report::header_key(c, id, locale);
            let mut label = key.chars();
            let label = label
                .next()
                .map(|f| f.to_uppercase().chain(label).collect::<String>())
                .unwrap_or_default();
            fields.push(json!([label, shown]));
        }
    }
    let mut rules = report.broken_rules();
    rules.extend(report.problem_codes().into_iter().map(str::to_string));
    // Each problem in words (rule, title, card), where it is, with no markup characters.
    let problems: Vec<Value> = report
        .diagnostics
        .iter()
        .take(MAX_PROBLEMS)
        .map(|d| {
            json!({
                "line": d.span.map(|s| s.line),
                "text": plain(&d.message),
            })
        })
        .collect();
    let more = report.diagnostics.len().saturating_sub(MAX_PROBLEMS);
    json!({
        "problems": problems,
        "more": more,
        "unreadable": report.unreadable,
        "locale": crate::deck::words::Lang::of(locale).code(),
        "game": game.name.get(locale),
        "noun": report.noun,
        "player": report.player(),
        "title": report.deck.title,
        "file": report.file.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default(),
        "hash": report.hash,
        "legal": report.is_legal(),
        "rules": rules,
        "fields": fields,
        "groups": groups,
        "side": report.deck.side.iter().map(card).collect::<Vec<_>>(),
        "rows": v.composition.rows,
        "sums": v.composition.sums,
        "total": v.composition.total,
        "skipped": v.skipped,
    })
}

/// Problems listed one by one on a sheet; past this, "… and N more".
const MAX_PROBLEMS: usize = 8;

/// A message as a sheet prints it: the backticks that set names apart on a
/// terminal become typographic quotes, control characters go.
pub fn plain(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut open = true;
    for c in message.chars() {
        match c {
            '`' => {
                out.push(if open { '“' } else { '”' });
                open = !open;
            }
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// The sheet as PDF bytes; the error is typst's message.
pub fn sheet(shared: &Shared, game: &Game, report: &DeckReport) -> Result<Vec<u8>, String> {
    let main = format!(
        "#import \"{TEMPLATE}\": sheet\n#sheet(json(\"{}\"))\n",
        super::world::DATA
    );
    let bytes = serde_json::to_vec(&data(game, report)).unwrap_or_default();
    let world = DocWorld::new(shared, main, bytes);
    let doc = super::typeset(&world, format!("the deck sheet of {}", report.hash))
        .output
        .map_err(|errs| {
            errs.iter()
                .map(|e| e.message.to_string())
                .collect::<Vec<_>>()
                .join("; ")
        })?;
    let options = typst_pdf::PdfOptions {
        ident: Smart::Custom(format!("pnpkit/decklist/{}", report.hash)),
        creator: Smart::Custom(Some(format!("pnpkit {}", env!("CARGO_PKG_VERSION")))),
        timestamp: Some(typst_pdf::Timestamp::new_utc(shared.now())),
        ..Default::default()
    };
    let pdf = typst_pdf::pdf(&doc, &options).map_err(|errs| {
        errs.iter()
            .map(|e| e.message.to_string())
            .collect::<Vec<_>>()
            .join("; ")
    });
    // A batch renders one sheet per list: typst's memo of the layouts of
    // earlier sheets is dropped (what every sheet shares is used again at
    // once and kept), so memory does not grow with the number of lists.
    comemo::evict(2);
    pdf
}

#[cfg(test)]
mod tests {
    #[test]
    fn sheets_print_no_backticks() {
        assert_eq!(
            super::plain("no card is called `Gorgons Blod` (did you mean `Gorgon's Blood`?)"),
            "no card is called “Gorgons Blod” (did you mean “Gorgon's Blood”?)"
        );
        assert_eq!(super::plain("a\u{1b}b"), "a b");
    }
}
