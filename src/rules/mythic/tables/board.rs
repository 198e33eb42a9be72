//! Battlefields: areas (a graph with capacities and terrain), the areas a
//! line of sight between two centres crosses, borders, deployment areas and
//! omphalos spots per mode.

use std::collections::BTreeMap;

use super::{Area, Board, MAXA, ModeDef, rec_int, small, terrain};
use crate::model::{Component, FieldValue};
use crate::rules::kit::{Graph, IdTable, Reader, Set, bits};

fn num(v: Option<&FieldValue>) -> f64 {
    match v {
        Some(FieldValue::Int(i)) => *i as f64,
        Some(FieldValue::Number(n)) => *n,
        _ => 0.0,
    }
}

/// Each `terrain` component by id: its flags (sight) and its bit among
/// the terrain types (whose effects say the rest).
pub(super) fn terrain_flags(r: &Reader, fx: &super::fx::Fx) -> BTreeMap<String, (u8, u16)> {
    let mut out = BTreeMap::new();
    for t in r.all("terrain") {
        let mut flags = 0;
        if r.flag(t, "three_d") || r.flag(t, "blocks_sight") {
            flags |= terrain::SIGHT;
        }
        let bit = fx.terrain_ids.get(&t.id).map_or(0, |i| 1u16 << i);
        out.insert(t.id.clone(), (flags, bit));
    }
    out
}

pub(super) fn read<'g>(
    r: &mut Reader<'g>,
    c: &'g Component,
    terrain_flags: &BTreeMap<String, (u8, u16)>,
    modes: &[ModeDef],
) -> Option<Board> {
    let list = r.list(c, "areas");
    if list.is_empty() || list.len() > MAXA {
        r.error(
            c,
            "areas",
            format!("battlefield `{}` has {} areas", c.id, list.len()),
            format!("1 to {MAXA} areas"),
            list.len(),
        );
        return None;
    }
    let mut areas = Vec::new();
    let mut ids = IdTable::new();
    for a in list {
        let a = a.as_record();
        let get = |f: &str| a.and_then(|x| x.get(f));
        let id = get("id").and_then(FieldValue::as_str).unwrap_or("?").to_string();
        let (mut t, mut types) = (0, 0);
        for tr in get("terrain").and_then(FieldValue::as_list).unwrap_or(&[]) {
            let (f, b) = tr
                .as_str()
                .and_then(|s| terrain_flags.get(s))
                .copied()
                .unwrap_or((0, 0));
            t |= f;
            types |= b;
        }
        areas.push(Area {
            id: id.clone(),
            x: num(get("x")),
            y: num(get("y")),
            capacity: small(a.and_then(|x| rec_int(x, "capacity")).unwrap_or(1)),
            terrain: t,
            terrains: types,
        });
        ids.push(id);
    }
    let mut lists = vec![Vec::new(); areas.len()];
    for (i, a) in list.iter().enumerate() {
        let adjacent = a
            .as_record()
            .and_then(|x| x.get("adjacent"))
            .and_then(FieldValue::as_list);
        for id in adjacent.unwrap_or(&[]) {
            match id.as_str().and_then(|id| ids.get(id)) {
                Some(j) => lists[i].push(j as u8),
                None => r.error(
                    c,
                    "areas",
                    format!(
                        "area `{}` of battlefield `{}` lists an unknown adjacent area",
                        areas[i].id, c.id
                    ),
                    "ids of the battlefield's areas",
                    format!("{id:?}"),
                ),
            }
        }
    }
    let graph = Graph::new(ids, lists, true);
    let n = areas.len();
    // Areas as the cells of their centres: a line crosses the areas whose
    // centre is nearest to some point of it.
    let mut between = vec![[0 as Set; MAXA]; n];
    for a in 0..n {
        for b in (a + 1)..n {
            let (ax, ay, bx, by) = (areas[a].x, areas[a].y, areas[b].x, areas[b].y);
            let len = ((bx - ax).powi(2) + (by - ay).powi(2)).sqrt();
            let steps = (len / 2.0).ceil().max(1.0) as usize;
            let mut mask: Set = 0;
            for k in 1..steps {
                let t = k as f64 / steps as f64;
                let (x, y) = (ax + (bx - ax) * t, ay + (by - ay) * t);
                let mut best = (f64::MAX, 0usize);
                for (i, ar) in areas.iter().enumerate() {
                    let d = (ar.x - x).powi(2) + (ar.y - y).powi(2);
                    if d < best.0 - 1e-9 {
                        best = (d, i);
                    }
                }
                if best.1 != a && best.1 != b {
                    mask |= 1 << best.1;
                }
            }
            between[a][b] = mask;
            between[b][a] = mask;
        }
    }
    let mut wall = vec![0 as Set; n];
    let mut escarpment = vec![0 as Set; n];
    let mut high = vec![0 as Set; n];
    for b in r.list(c, "borders") {
        let b = b.as_record();
        let get = |f: &str| b.and_then(|x| x.get(f)).and_then(FieldValue::as_str);
        let from = get("from").and_then(|id| graph.index(id)).map(usize::from);
        let to = get("to").and_then(|id| graph.index(id)).map(usize::from);
        let (Some(f), Some(t)) = (from, to) else { continue };
        match get("line") {
            Some("impassable") => {
                wall[f] |= 1 << t;
                wall[t] |= 1 << f;
            }
            Some("escarpment") => {
                escarpment[f] |= 1 << t;
                escarpment[t] |= 1 << f;
            }
            Some("altitude") => high[f] |= 1 << t,
            _ => {}
        }
    }
    let mut deploy = [0 as Set; 4];
    for d in r.list(c, "deployment") {
        let d = d.as_record();
        let side = d.and_then(|x| rec_int(x, "side")).unwrap_or(0);
        if !(1..=4).contains(&side) {
            continue;
        }
        for a in d
            .and_then(|x| x.get("areas"))
            .and_then(FieldValue::as_list)
            .unwrap_or(&[])
        {
            if let Some(i) = a.as_str().and_then(|id| graph.index(id)) {
                deploy[side as usize - 1] |= 1 << i;
            }
        }
    }
    let mut omphalos = Vec::new();
    for o in r.list(c, "omphalos") {
        let o = o.as_record();
        let Some(m) = o
            .and_then(|x| x.get("mode"))
            .and_then(FieldValue::as_str)
            .and_then(|id| modes.iter().position(|m| m.id == id))
        else {
            continue;
        };
        let spots = o
            .and_then(|x| x.get("areas"))
            .and_then(FieldValue::as_list)
            .unwrap_or(&[])
            .iter()
            .filter_map(|a| a.as_str().and_then(|id| graph.index(id)))
            .collect();
        omphalos.push((m, spots));
    }
    let edge = deploy.iter().fold(0, |m, d| m | d);
    debug_assert!(bits(edge).all(|a| a < n));
    Some(Board {
        id: c.id.clone(),
        graph,
        areas,
        between,
        wall,
        escarpment,
        high,
        deploy,
        omphalos,
        edge,
    })
}
