//! A board as the replay page draws it, read from the pack: the component
//! the log's header names (a battlefield, a scenario map) or else the
//! game's first board, and in it the list of places with an `id` and a
//! position (`x`/`y`, or `col`/`row` on a grid), joined by their `adjacent`
//! lists. Pieces are found in each state the engine shows: a value naming a
//! place (`king-arthur: s16`) or a place naming what stands on it (`b3:
//! {amazon-warriors: 2}`).

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value as Json;

use crate::model::{Component, FieldValue, Game};

#[derive(Clone, Debug, Serialize)]
pub struct Node {
    pub id: String,
    pub x: f64,
    pub y: f64,
}

/// Places, links between them, and the drawing's size.
#[derive(Clone, Debug, Serialize)]
pub struct Board {
    /// `kind/id` of the component drawn.
    pub source: String,
    pub name: String,
    pub nodes: Vec<Node>,
    pub edges: Vec<(usize, usize)>,
    pub width: f64,
    pub height: f64,
}

/// A piece on the board in one state.
#[derive(Clone, Debug, Serialize)]
pub struct Token {
    pub node: String,
    pub label: String,
    /// The player it belongs to, when the state files it under a player's name.
    pub owner: Option<usize>,
}

fn num(v: Option<&FieldValue>) -> Option<f64> {
    match v? {
        FieldValue::Int(i) => Some(*i as f64),
        FieldValue::Number(n) => Some(*n),
        _ => None,
    }
}

/// Places and the links between them (indices into the places).
type Places = (Vec<Node>, Vec<(usize, usize)>);

/// Every list of records with ids and positions in a component.
fn place_lists(c: &Component) -> Vec<Places> {
    let mut out = Vec::new();
    for v in c.fields.values() {
        let Some(items) = v.as_list() else { continue };
        let mut nodes = Vec::new();
        let mut adjacent: Vec<Vec<String>> = Vec::new();
        for item in items {
            let Some(r) = item.as_record() else { break };
            let Some(id) = r.get("id").and_then(FieldValue::as_str) else {
                break;
            };
            let (x, y) = match (num(r.get("x")), num(r.get("y")), num(r.get("col")), num(r.get("row"))) {
                (Some(x), Some(y), _, _) => (x, y),
                (_, _, Some(c), Some(r)) => (c, r),
                _ => break,
            };
            nodes.push(Node {
                id: id.to_owned(),
                x,
                y,
            });
            adjacent.push(
                r.get("adjacent")
                    .and_then(FieldValue::as_list)
                    .map(|l| l.iter().filter_map(|a| a.as_str().map(str::to_owned)).collect())
                    .unwrap_or_default(),
            );
        }
        if nodes.len() == items.len() && nodes.len() > 1 {
            let mut edges = Vec::new();
            for (i, adj) in adjacent.iter().enumerate() {
                for a in adj {
                    if let Some(j) = nodes.iter().position(|n| &n.id == a)
                        && i < j
                    {
                        edges.push((i, j));
                    }
                }
            }
            out.push((nodes, edges));
        }
    }
    out
}

/// How often the states name places of a list (as values or as keys).
fn mentions(nodes: &[Node], states: &[&Json]) -> usize {
    fn count(v: &Json, ids: &std::collections::HashSet<&str>) -> usize {
        match v {
            Json::String(s) => usize::from(ids.contains(s.as_str())),
            Json::Array(a) => a.iter().map(|x| count(x, ids)).sum(),
            Json::Object(m) => m
                .iter()
                .map(|(k, x)| usize::from(ids.contains(k.as_str())) + count(x, ids))
                .sum(),
            _ => 0,
        }
    }
    let ids: std::collections::HashSet<&str> = nodes.iter().map(|n| n.id.as_str()).collect();
    states.iter().map(|s| count(s, &ids)).sum()
}

/// The board of a log: among the places lists of the components its header
/// names and of the game's boards, the one the replayed states name most
/// (the header's own choice first on a tie).
pub fn board(game: &Game, header: &Json, states: &[&Json]) -> Option<Board> {
    let mut named = Vec::new();
    collect_strings(header, &mut named);
    let mut best: Option<(usize, bool, &Component, Places)> = None;
    for c in game.components.values().flatten() {
        let in_header = named.contains(&c.id);
        let is_board = game
            .kinds
            .get(&c.kind)
            .is_some_and(|k| k.shape == crate::model::Shape::Board);
        if !in_header && !is_board {
            continue;
        }
        for (nodes, edges) in place_lists(c) {
            let score = mentions(&nodes, states);
            let better = match &best {
                None => true,
                Some((s, h, ..)) => score > *s || (score == *s && in_header && !h),
            };
            if better {
                best = Some((score, in_header, c, (nodes, edges)));
            }
        }
    }
    let (_, _, c, (mut nodes, edges)) = best?;
    let (minx, maxx) = nodes
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), n| (a.min(n.x), b.max(n.x)));
    let (miny, maxy) = nodes
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), n| (a.min(n.y), b.max(n.y)));
    // Into a drawing about 1000 units wide, keeping proportions, with room at the edges.
    let span = (maxx - minx).max(maxy - miny).max(1e-9);
    let scale = 900.0 / span;
    // Room at the sides for labels wider than a place.
    for n in &mut nodes {
        n.x = 110.0 + (n.x - minx) * scale;
        n.y = 60.0 + (n.y - miny) * scale;
    }
    Some(Board {
        source: format!("{}/{}", c.kind, c.id),
        name: c.name.get("en").to_owned(),
        width: 220.0 + (maxx - minx) * scale,
        height: 120.0 + (maxy - miny) * scale,
        nodes,
        edges,
    })
}

fn collect_strings(v: &Json, out: &mut Vec<String>) {
    match v {
        Json::String(s) => out.push(s.clone()),
        Json::Array(a) => a.iter().for_each(|x| collect_strings(x, out)),
        Json::Object(m) => m.values().for_each(|x| collect_strings(x, out)),
        _ => {}
    }
}

/// A short text for what stands somewhere (`amazon-warriors ×2`).
fn describe(v: &Json) -> String {
    match v {
        Json::String(s) => s.clone(),
        Json::Number(n) => n.to_string(),
        Json::Object(m) => m
            .iter()
            .map(|(k, x)| match x {
                Json::Number(n) if n.as_u64() == Some(1) => k.clone(),
                Json::Number(n) => format!("{k} ×{n}"),
                other => format!("{k} {}", describe(other)),
            })
            .collect::<Vec<_>>()
            .join(", "),
        Json::Array(a) => a.iter().map(describe).collect::<Vec<_>>().join(", "),
        _ => String::new(),
    }
}

/// The pieces a state shows on the board's places. A piece not filed under
/// a player's name belongs to the player whose header entry names it (its
/// hero, a sidekick, a unit of its army) or names what holds it (`side: many`).
pub fn tokens(board: &Board, state: &Json, players: &[String], header: &Json) -> Vec<Token> {
    let ids: BTreeMap<&str, ()> = board.nodes.iter().map(|n| (n.id.as_str(), ())).collect();
    let mut found = Vec::new();
    walk(state, &ids, players, &mut Vec::new(), None, &mut found);
    let entries = header
        .get("players")
        .and_then(Json::as_array)
        .cloned()
        .unwrap_or_default();
    found
        .into_iter()
        .map(|(mut t, path)| {
            if t.owner.is_none() {
                t.owner = entries
                    .iter()
                    .position(|e| names(e, &t.label))
                    .or_else(|| path.iter().rev().find_map(|k| entries.iter().position(|e| names(e, k))));
            }
            t
        })
        .collect()
}

/// Whether a player's header entry names `piece` (as a value or a key), its own name aside.
fn names(v: &Json, piece: &str) -> bool {
    match v {
        Json::String(s) => s == piece,
        Json::Array(a) => a.iter().any(|x| names(x, piece)),
        Json::Object(m) => m.iter().any(|(k, x)| k != "name" && (k == piece || names(x, piece))),
        _ => false,
    }
}

/// Keys that say where something is, not what: the piece is their parent (`one: {at: A7}`).
const WHERE: &[&str] = &[
    "at", "square", "cell", "sq", "to", "from", "where", "position", "pos", "area", "space",
];

/// What a path names: its innermost key that is neither a player's name
/// nor a word for a position (`damage` in `damage · Ana · cover-left`).
fn what(path: &[String], players: &[String]) -> Option<String> {
    path.iter()
        .rev()
        .find(|k| !WHERE.contains(&k.as_str()) && !players.contains(k))
        .cloned()
}

fn walk(
    v: &Json,
    ids: &BTreeMap<&str, ()>,
    players: &[String],
    path: &mut Vec<String>,
    owner: Option<usize>,
    out: &mut Vec<(Token, Vec<String>)>,
) {
    match v {
        Json::String(s) if ids.contains_key(s.as_str()) => {
            let label = match path.last().map(String::as_str) {
                Some("player" | "phase") | None => None,
                _ => what(path, players),
            };
            if let Some(label) = label {
                out.push((
                    Token {
                        node: s.clone(),
                        label,
                        owner,
                    },
                    path.clone(),
                ));
            }
        }
        Json::Object(m) => {
            for (k, x) in m {
                let owner = players.iter().position(|p| p == k).or(owner);
                if ids.contains_key(k.as_str()) {
                    // A count on a place is a count of what its key holds (`omphalos: {b2: 1}`).
                    let label = match (x, what(path, players)) {
                        (Json::Number(n), Some(w)) => format!("{w} ×{n}"),
                        _ => describe(x),
                    };
                    if !label.is_empty() && label != "0" {
                        out.push((
                            Token {
                                node: k.clone(),
                                label,
                                owner,
                            },
                            path.clone(),
                        ));
                    }
                } else {
                    path.push(k.clone());
                    walk(x, ids, players, path, owner, out);
                    path.pop();
                }
            }
        }
        Json::Array(a) => a.iter().for_each(|x| walk(x, ids, players, path, owner, out)),
        _ => {}
    }
}
