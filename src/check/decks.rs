//! Decks look alike from behind: every card a deck shuffles together prints
//! the same back at the same size, or players know each card before they
//! draw it (`deck-backs`). A card belongs to one deck at most.

use crate::diag::{Code, Diagnostic};
use crate::model::{Component, Deck, Game};

/// A card as messages name it: its kind and its id.
fn card(c: &Component) -> String {
    format!("{} `{}`", c.kind, c.id)
}

pub fn check_decks(game: &Game) -> Vec<Diagnostic> {
    // Messages are in English: deck names too where the pack has them.
    let locale = if game.locales.iter().any(|l| l == "en") {
        "en"
    } else {
        game.locales.first().map_or("en", String::as_str)
    };
    let mut out = Vec::new();
    let decks = game.decks();
    for deck in decks.iter().filter(|d| d.shuffled()) {
        out.extend(mixed_backs(game, deck, locale));
        out.extend(mixed_sizes(game, deck));
    }
    // Exports name a deck's files by its id: two decks may not share one.
    for (n, deck) in decks.iter().enumerate() {
        if let Some(other) = decks[..n].iter().find(|d| d.id == deck.id) {
            let mut d = Diagnostic::new(
                Code::BadDeclaration,
                format!(
                    "two decks are called `{}` ({} and {}): their exported files would overwrite each other",
                    deck.id,
                    game.deck_name(other, locale),
                    game.deck_name(deck, locale)
                ),
            )
            .label("deck id used twice")
            .help("rename the deck in `decks:` of game.yaml");
            if let Some(span) = deck.decl.or(other.decl).and_then(|x| x.span) {
                d = d.at(span);
            }
            out.push(d);
        }
    }
    // A card two declarations take is shuffled into the first only.
    for (n, decl) in game.decks.iter().enumerate() {
        for kind in &decl.kinds {
            for c in game.components.get(kind).into_iter().flatten() {
                let passes = |d: &crate::model::DeckDecl| {
                    d.kinds.contains(kind)
                        && d.filter
                            .iter()
                            .all(|(f, v)| c.key_of(f).is_some_and(|x| v.contains(&x)))
                };
                if !passes(decl) {
                    continue;
                }
                if let Some(first) = game.decks[..n].iter().find(|d| passes(d)) {
                    let mut d = Diagnostic::new(
                        Code::BadDeclaration,
                        format!(
                            "{} is in deck `{}` and in deck `{}`: a card is shuffled into one deck",
                            card(c),
                            first.id,
                            decl.id
                        ),
                    )
                    .label(format!("deck `{}` takes it again", decl.id))
                    .help("narrow one deck's `where:` so that each card is in one deck");
                    if let Some(span) = decl.span {
                        d = d.at(span);
                    }
                    if let Some(span) = first.span {
                        d = d.related(span, format!("deck `{}` takes it first", first.id));
                    }
                    out.push(d);
                    break;
                }
            }
        }
    }
    out
}

fn mixed_backs(game: &Game, deck: &Deck, locale: &str) -> Option<Diagnostic> {
    let first = deck.cards.first()?;
    let back = game.back_of(first);
    let other = deck.cards.iter().find(|c| game.back_of(c) != back)?;
    let other_back = game.back_of(other);
    let backs: std::collections::HashSet<_> = deck.cards.iter().map(|c| game.back_of(c)).collect();
    let mut d = Diagnostic::new(
        Code::DeckBacks,
        format!(
            "deck `{}` ({}) shuffles {} with back {back} and {} with back {other_back}: \
             every draw is known before it is made",
            deck.id,
            game.deck_name(deck, locale),
            card(first),
            card(other),
        ),
    )
    .label(format!("{} backs in one deck", backs.len()))
    .expected("one back for every card of the deck")
    .help(
        "give the deck's kinds the same `back:` in game.yaml (and draw it in the layout's `back`), \
         or split the deck by the field the back varies by (`by:`)",
    );
    if let Some(span) = deck.decl.and_then(|x| x.span) {
        d = d.at(span);
    }
    for c in [first, other] {
        match game
            .kinds
            .get(&c.kind)
            .and_then(|k| k.back.as_ref())
            .and_then(|b| b.span)
        {
            Some(span) => d = d.related(span, format!("the back of {}", card(c))),
            None => {
                d = d.related(
                    c.span,
                    format!("{} prints its kind's own back (no `back:` declared)", card(c)),
                )
            }
        }
    }
    Some(d)
}

fn mixed_sizes(game: &Game, deck: &Deck) -> Option<Diagnostic> {
    let size = |c: &Component| game.kinds.get(&c.kind).and_then(|k| k.size.clone());
    let first = deck.cards.first()?;
    let other = deck.cards.iter().find(|c| size(c) != size(first))?;
    let show = |c: &Component| {
        size(c)
            .and_then(|s| game.sizes.get(&s).map(|z| format!("{} × {} mm", z.width, z.height)))
            .unwrap_or_else(|| "no size".into())
    };
    let mut d = Diagnostic::new(
        Code::DeckBacks,
        format!(
            "deck `{}` shuffles {} ({}) with {} ({}): cards of another size are known from behind",
            deck.id,
            card(first),
            show(first),
            card(other),
            show(other)
        ),
    )
    .label("two card sizes in one deck")
    .expected("one size for every card of the deck");
    if let Some(span) = deck.decl.and_then(|x| x.span) {
        d = d.at(span);
    }
    Some(d)
}
