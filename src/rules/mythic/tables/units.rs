//! Units: character sheets (Gods, heroes, monsters, with ladders, talents
//! and powers) and troop cards.

use super::{Cat, PowerDef, PowerKind, Row, UnitDef, rec_int, small, talent};
use crate::model::{Component, FieldValue};
use crate::rules::kit::Reader;

/// `Achilles' Prowess` → `achilles-prowess`.
pub fn slug(name: &str) -> String {
    let mut out = String::new();
    for ch in name.chars().filter(|c| *c != '\'' && *c != '’') {
        if ch.is_alphanumeric() {
            out.extend(ch.to_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

fn talents(c: &Component) -> u32 {
    let mut bits = 0;
    for t in c.field("talents").and_then(FieldValue::as_list).unwrap_or(&[]) {
        if let Some(&(_, b)) = t.as_str().and_then(|id| talent::NAMES.iter().find(|(n, _)| *n == id)) {
            bits |= b;
        }
    }
    bits
}

/// A character sheet: God, hero or monster, with its ladder and powers.
pub(super) fn character(r: &mut Reader, c: &Component) -> UnitDef {
    let cat = match c.field("category").and_then(FieldValue::as_str) {
        Some("god") => Cat::God,
        Some("monster") => Cat::Monster,
        Some("hero") => Cat::Hero,
        other => {
            r.error(
                c,
                "category",
                format!("character `{}` has no category the engine knows", c.id),
                "god, hero or monster",
                format!("{other:?}"),
            );
            Cat::Hero
        }
    };
    let mut rows = Vec::new();
    for row in r.list(c, "ladder") {
        let Some(row) = row.as_record() else { continue };
        rows.push(Row {
            attack: small(rec_int(row, "attack").unwrap_or(0)),
            defense: small(rec_int(row, "defense").unwrap_or(0)),
            range: small(rec_int(row, "range").unwrap_or(0)),
            movement: small(rec_int(row, "movement").unwrap_or(0)),
            power: small(rec_int(row, "power").unwrap_or(0)),
        });
    }
    if rows.is_empty() {
        r.error(
            c,
            "ladder",
            format!("character `{}` has no ladder", c.id),
            "at least one ladder row",
            "none",
        );
        rows.push(Row::default());
    }
    let dice = c.field("power_column").and_then(FieldValue::as_str) == Some("dice");
    let mut powers = Vec::new();
    for p in r.list(c, "powers") {
        let Some(p) = p.as_record() else { continue };
        let name = match p.get("name") {
            Some(FieldValue::Text(t)) => t.get("en").to_string(),
            Some(FieldValue::Str(s)) => s.clone(),
            _ => String::from("power"),
        };
        let kind = match p.get("kind").and_then(FieldValue::as_str) {
            Some("special_attack") if dice => PowerKind::Special,
            Some("special_attack") => PowerKind::Active,
            Some("active") => PowerKind::Active,
            Some("passive") => PowerKind::Passive,
            _ => PowerKind::Permanent,
        };
        powers.push(PowerDef {
            slug: slug(&name),
            kind,
            cost: small(rec_int(p, "cost").unwrap_or(0)),
            range: rec_int(p, "range").map(small),
            sight: !matches!(p.get("sight"), Some(FieldValue::Bool(false))),
            attacks: small(rec_int(p, "attacks").unwrap_or(1)).max(1),
            activations: small(rec_int(p, "activations").unwrap_or(0)),
        });
    }
    if powers.len() > 4 {
        r.error(
            c,
            "powers",
            format!("character `{}` has {} powers", c.id, powers.len()),
            "at most 4 powers (the engine records their use per unit)",
            powers.len(),
        );
        powers.truncate(4);
    }
    UnitDef {
        id: c.id.clone(),
        cat,
        figures: rows.len() as u8,
        rows,
        bonus: Vec::new(),
        talents: talents(c),
        powers,
        activation: small(r.int(c, "activation").unwrap_or(0)),
        strategy: small(r.opt_int(c, "strategy").unwrap_or(0)),
        cost: small(r.opt_int(c, "cost").unwrap_or(0)),
        flying: c.field("unit_type").and_then(FieldValue::as_str) == Some("flying"),
        card: 0,
    }
}

/// A troop card.
pub(super) fn troop(r: &mut Reader, c: &Component) -> UnitDef {
    let mut bonus = Vec::new();
    for b in r.list(c, "bonus") {
        let Some(b) = b.as_record() else { continue };
        bonus.push((
            small(rec_int(b, "figures").unwrap_or(1)),
            rec_int(b, "attack").unwrap_or(0).clamp(-9, 9) as i8,
            rec_int(b, "defense").unwrap_or(0).clamp(-9, 9) as i8,
        ));
    }
    UnitDef {
        id: c.id.clone(),
        cat: Cat::Troop,
        rows: vec![Row {
            attack: small(r.int(c, "attack").unwrap_or(0)),
            defense: small(r.int(c, "defense").unwrap_or(0)),
            range: small(r.int(c, "range").unwrap_or(0)),
            movement: small(r.int(c, "movement").unwrap_or(0)),
            power: 0,
        }],
        figures: small(r.int(c, "figures").unwrap_or(1)).max(1),
        bonus,
        talents: talents(c),
        powers: Vec::new(),
        activation: small(r.int(c, "activation").unwrap_or(0)),
        strategy: 0,
        cost: small(r.opt_int(c, "cost").unwrap_or(1)),
        flying: c.field("unit_type").and_then(FieldValue::as_str) == Some("flying"),
        card: 0,
    }
}
