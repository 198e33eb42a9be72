//! Units: character sheets (Gods, heroes, monsters, with ladders, talents
//! and powers) and troop cards.

use super::super::effects::{Cond, Mv, Out, When};
use super::fx::Fx;
use super::{Cat, PowerDef, PowerKind, Row, UnitDef, rec_int, small};
use crate::model::{Component, FieldValue};
use crate::rules::kit::Reader;
use crate::rules::kit::effects::Amount;

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

/// The unit's talents: their indices and compiled effects.
fn talents(r: &mut Reader, c: &Component, fx: &Fx) -> (Vec<u8>, Vec<u16>) {
    let (mut ids, mut defs) = (Vec::new(), Vec::new());
    for t in c.field("talents").and_then(FieldValue::as_list).unwrap_or(&[]) {
        let Some(id) = t.as_str() else { continue };
        match fx.talent_ids.get(id) {
            Some(i) => {
                ids.push(i as u8);
                defs.extend(fx.talent_fx[usize::from(i)]);
            }
            None => r.error(
                c,
                "talents",
                format!("`{}` has a talent with no `talent` component", c.id),
                "talent ids",
                format!("`{id}`"),
            ),
        }
    }
    (ids, defs)
}

/// Unit types beyond ground: (flying, aquatic, fireproof).
fn unit_type(c: &Component) -> (bool, bool, bool) {
    let t = c.field("unit_type").and_then(FieldValue::as_str);
    (t == Some("flying"), t == Some("aquatic"), t == Some("fireproof"))
}

/// A field's number and the effect's must agree (`engine-data`).
fn agree(r: &mut Reader, c: &Component, field: &str, what: &str, given: Option<i64>, effect: Option<i64>) {
    if given.is_some() && given != effect {
        r.error(
            c,
            field,
            format!("`{what}` of `{}` and its effect disagree", c.id),
            match effect {
                Some(n) => format!("{what}: {n}, as the effect gives"),
                None => format!("no `{what}`: the effect gives none"),
            },
            format!("{what}: {}", given.unwrap_or(0)),
        );
    }
}

/// A character sheet: God, hero or monster, with its ladder and powers.
pub(super) fn character(r: &mut Reader, c: &Component, fx: &mut Fx) -> UnitDef {
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
    let mut power_fx = Vec::new();
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
        // Reach, sight, attacks and activations come from the effect; the
        // sheet's fields, when given, must say the same.
        let d = r.effect::<Mv>(c, "powers", p.get("effect"));
        let checked = d.checked;
        let id = fx.add(d, slug(&name));
        let def = id.map(|i| &fx.defs[usize::from(i)]);
        let clause = def.and_then(|d| d.clauses.iter().find(|c| c.when != When::Continuous));
        let exact = |out: Out| match clause.and_then(|c| c.amount(out)) {
            Some(Amount::Exactly(n)) => Some(i64::from(*n)),
            _ => None,
        };
        let here = clause
            .and_then(|c| c.target.as_ref())
            .is_some_and(|t| t.cond.contains(&Cond::Here));
        let reach = if here { Some(0) } else { exact(Out::Reach) };
        let no_sight = exact(Out::NoSight).is_some();
        let attacks = exact(Out::Attacks);
        let activations = exact(Out::Activations);
        if checked {
            agree(r, c, "powers", "range", rec_int(p, "range"), reach);
            agree(r, c, "powers", "attacks", rec_int(p, "attacks"), attacks);
            agree(r, c, "powers", "activations", rec_int(p, "activations"), activations);
            let sight = !matches!(p.get("sight"), Some(FieldValue::Bool(false)));
            if p.get("sight").is_some() && sight == no_sight {
                agree(
                    r,
                    c,
                    "powers",
                    "sight",
                    Some(i64::from(sight)),
                    Some(i64::from(!no_sight)),
                );
            }
        }
        powers.push(PowerDef {
            slug: slug(&name),
            kind,
            cost: small(rec_int(p, "cost").unwrap_or(0)),
            range: if checked { reach } else { rec_int(p, "range") }.map(small),
            sight: if checked {
                !no_sight
            } else {
                !matches!(p.get("sight"), Some(FieldValue::Bool(false)))
            },
            attacks: small(if checked { attacks } else { rec_int(p, "attacks") }.unwrap_or(1)).max(1),
            activations: small(
                if checked {
                    activations
                } else {
                    rec_int(p, "activations")
                }
                .unwrap_or(0),
            ),
        });
        power_fx.push(id);
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
        power_fx.truncate(4);
    }
    let (talent_ids, talent_fx) = talents(r, c, fx);
    let (flying, aquatic, fireproof) = unit_type(c);
    UnitDef {
        id: c.id.clone(),
        cat,
        figures: rows.len() as u8,
        rows,
        bonus: Vec::new(),
        talent_ids,
        talent_fx,
        power_fx,
        powers,
        activation: small(r.int(c, "activation").unwrap_or(0)),
        strategy: small(r.opt_int(c, "strategy").unwrap_or(0)),
        cost: small(r.opt_int(c, "cost").unwrap_or(0)),
        flying,
        aquatic,
        fireproof,
        card: 0,
    }
}

/// A troop card.
pub(super) fn troop(r: &mut Reader, c: &Component, fx: &mut Fx) -> UnitDef {
    // Each bonus is read from its effect: while the troop keeps at least
    // `figures-at-least` figures, `attack` and `defense` change; the
    // record's numbers, when given, must say the same.
    let mut bonus = Vec::new();
    for (k, b) in r.list(c, "bonus").iter().enumerate() {
        let Some(b) = b.as_record() else { continue };
        let d = r.effect::<Mv>(c, "bonus", b.get("effect"));
        let checked = d.checked;
        let Some(id) = fx.add(d, format!("{} (bonus {})", c.id, k + 1)) else {
            continue;
        };
        let def = &fx.defs[usize::from(id)];
        let k = def.clauses.iter().position(|c| c.when == When::Continuous);
        let clause = k.map(|k| &def.clauses[k]);
        let figures = clause.and_then(|c| {
            c.cond.iter().find_map(|x| match x {
                Cond::FiguresAtLeast(n) => Some(i64::from(*n)),
                _ => None,
            })
        });
        let exact = |out: Out| match clause.and_then(|c| c.amount(out)) {
            Some(Amount::Exactly(n)) => Some(i64::from(*n)),
            _ => None,
        };
        let (att, def_) = (exact(Out::Attack), exact(Out::Defense));
        if checked {
            agree(r, c, "bonus", "figures", rec_int(b, "figures"), figures);
            agree(r, c, "bonus", "attack", rec_int(b, "attack").filter(|n| *n != 0), att);
            agree(
                r,
                c,
                "bonus",
                "defense",
                rec_int(b, "defense").filter(|n| *n != 0),
                def_,
            );
        }
        bonus.push((
            small(figures.unwrap_or(1)),
            att.unwrap_or(0).clamp(-9, 9) as i8,
            def_.unwrap_or(0).clamp(-9, 9) as i8,
            id,
            k.unwrap_or(0) as u8,
        ));
    }
    let (talent_ids, talent_fx) = talents(r, c, fx);
    let (flying, aquatic, fireproof) = unit_type(c);
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
        talent_ids,
        talent_fx,
        power_fx: Vec::new(),
        powers: Vec::new(),
        activation: small(r.int(c, "activation").unwrap_or(0)),
        strategy: 0,
        cost: small(r.opt_int(c, "cost").unwrap_or(1)),
        flying,
        aquatic,
        fireproof,
        card: 0,
    }
}
