//! A game log (docs/log-format.md) read from spanned YAML: the header for the
//! engine's setup, turns of actions with their positions, checkpoints and the
//! claimed result. Game-specific parts stay JSON values here; the engine's
//! serde types give them meaning in [`super::replay`].

use serde_json::{Map, Value as Json};

use crate::diag::{Code, Diagnostic, Span};
use crate::pack::format::{self, Older, Spec, Version};
use crate::pack::reader::{MapReader, read_seq, read_str, wrong_type};
use crate::pack::yaml::{Node, Value};

/// A log, structurally valid; actions not yet interpreted.
#[derive(Clone, Debug)]
pub struct Log {
    pub game: String,
    pub game_span: Span,
    /// Everything but `game`, `turns` and `result`, for [`super::Engine::Setup`].
    pub header: Json,
    /// The header as written, to locate problems inside it.
    pub header_node: Node,
    pub players: Vec<Player>,
    pub turns: Vec<Turn>,
    pub result: Option<ClaimedResult>,
    /// The whole document.
    pub span: Span,
    /// The format the log says it is written in (`format:`; today's when absent).
    pub format: Version,
}

/// The formats of a game log (docs/log-format.md, "Formats").
pub const FORMAT: Spec = Spec {
    what: "game log",
    current: 2,
    older: &[Older {
        version: 1,
        changed: "card effects became data: automatic effects apply by themselves (a log no longer writes what they did as `ability` or `play` steps, it may only confirm it), `expire` is gone (a fixed action lasts as long as its effect says), and a choice an effect asks for has its own field (`target:`, `place:`, `answer:` …) where format 1 wrote free text",
    }],
    upgrade: Some("pnpkit log --upgrade FILE"),
    docs: "docs/log-format.md",
};

#[derive(Clone, Debug)]
pub struct Player {
    pub name: String,
    pub span: Span,
    /// The player's deck or army as written (a list, a mapping, or a text
    /// block in the plain deck-list format), if the log gives one.
    pub deck: Option<Node>,
}

#[derive(Clone, Debug)]
pub struct Turn {
    pub player: String,
    pub player_span: Span,
    pub span: Span,
    pub items: Vec<Item>,
    /// Checked after the turn has ended.
    pub expect: Option<Checkpoint>,
}

#[derive(Clone, Debug)]
pub enum Item {
    Action(ActionItem),
    Expect(Checkpoint),
}

#[derive(Clone, Debug)]
pub struct ActionItem {
    pub node: Node,
}

impl ActionItem {
    /// The action as plain JSON (made on demand: a replay reads the node directly).
    pub fn value(&self) -> Json {
        to_json(&self.node)
    }
}

/// `expect:` — values the state must have at this point.
#[derive(Clone, Debug)]
pub struct Checkpoint {
    pub value: Json,
    pub node: Node,
}

/// `result:` — who the log says won, and why.
#[derive(Clone, Debug)]
pub struct ClaimedResult {
    /// Player names; empty for a draw.
    pub winners: Vec<String>,
    pub reason: Option<String>,
    pub span: Span,
}

/// Parses a log's text: the fast reader of plain YAML
/// ([`crate::pack::plain_yaml`]) for what players and pnpkit write, the full
/// YAML parser (and its diagnostics) for anything else. Both give the same
/// tree, positions included.
pub fn parse(
    text: &str,
    file: crate::diag::FileId,
    limits: &crate::pack::yaml::Limits,
) -> Result<Node, Box<Diagnostic>> {
    crate::pack::parse_yaml(text, file, limits)
}

/// Reads a parsed log document, collecting every structural problem.
pub fn read(root: &Node) -> Result<Log, Vec<Diagnostic>> {
    read_checked(root, Vec::new())
}

/// [`read`], taking the tree: each action's node moves into the log instead
/// of being copied (what `pnpkit log` does with the tree it parsed).
pub fn read_owned(root: Node) -> Result<Log, Vec<Diagnostic>> {
    match read_owned_all(root) {
        (Some(log), diags) if diags.is_empty() => Ok(log),
        (_, diags) => Err(diags),
    }
}

/// [`read_owned`], keeping what could be read next to the problems: the
/// log without its broken parts (a turn naming nobody, an item that is not
/// an action), so that the rest can still be checked in the same run.
pub fn read_owned_all(mut root: Node) -> (Option<Log>, Vec<Diagnostic>) {
    // Each turn's list of actions, taken out of the tree (an empty list stays).
    let mut taken = Vec::new();
    if let Value::Map(entries) = &mut root.value
        && let Some((_, turns)) = entries.iter_mut().find(|(k, _)| k.as_str() == Some("turns"))
        && let Value::Seq(turns) = &mut turns.value
    {
        for turn in turns {
            let actions = match &mut turn.value {
                Value::Map(e) => e
                    .iter_mut()
                    .find(|(k, _)| k.as_str() == Some("actions"))
                    .and_then(|(_, a)| match &mut a.value {
                        Value::Seq(list) => Some(std::mem::take(list)),
                        _ => None,
                    }),
                _ => None,
            };
            taken.push(actions);
        }
    }
    read_with(&root, taken)
}

/// [`read`] of a borrowed tree.
fn read_checked(root: &Node, taken: Vec<Option<Vec<Node>>>) -> Result<Log, Vec<Diagnostic>> {
    match read_with(root, taken) {
        (Some(log), diags) if diags.is_empty() => Ok(log),
        (_, diags) => Err(diags),
    }
}

/// Reads the log; `taken[i]` holds turn `i`'s actions when they were taken out of the tree.
fn read_with(root: &Node, mut taken: Vec<Option<Vec<Node>>>) -> (Option<Log>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let Some(entries) = root.as_map() else {
        return (
            None,
            vec![wrong_type(
                root,
                "a game log",
                "a mapping with `game`, `players` and `turns`",
            )],
        );
    };
    let mut r = MapReader::new(root, "the log", &mut diags).expect("checked to be a mapping");
    let game = r
        .require("game", "the pack id of the game (`unmatched`)", &mut diags)
        .and_then(|n| read_str(n, "`game`", &mut diags).map(|s| (s.to_string(), n.span)));
    let players = r
        .require("players", "a list of players, each with a `name`", &mut diags)
        .map(|n| read_players(n, &mut diags))
        .unwrap_or_default();
    let turns = r
        .require("turns", "a list of turns, each with `player` and `actions`", &mut diags)
        .and_then(|n| read_seq(n, "`turns`", &mut diags))
        .map(|seq| {
            seq.iter()
                .enumerate()
                .filter_map(|(i, t)| {
                    let own = taken.get_mut(i).and_then(Option::take);
                    read_turn(t, own, &players, &mut diags)
                })
                .collect()
        })
        .unwrap_or_default();
    let result = r.take("result").and_then(|n| read_result(n, &players, &mut diags));
    r.take(format::KEY);
    let version = format::read(root, &FORMAT).unwrap_or_else(|d| {
        diags.push(*d);
        Version {
            number: FORMAT.current,
            span: root.span,
            written: false,
        }
    });

    // The header is everything the engine sets up from.
    let mut header = Map::new();
    let mut header_entries = Vec::new();
    for (k, v) in entries {
        let key = k.as_str().map(str::to_string).unwrap_or_else(|| k.show());
        if matches!(key.as_str(), "game" | "turns" | "result" | format::KEY) {
            continue;
        }
        header.insert(key, to_json(v));
        header_entries.push((k.clone(), v.clone()));
    }
    let log = game.map(|(game, game_span)| Log {
        game,
        game_span,
        header: Json::Object(header),
        header_node: Node {
            value: Value::Map(header_entries),
            span: root.span,
        },
        players,
        turns,
        result,
        span: root.span,
        format: version,
    });
    (log, diags)
}

fn read_players(node: &Node, diags: &mut Vec<Diagnostic>) -> Vec<Player> {
    let Some(seq) = read_seq(node, "`players`", diags) else {
        return Vec::new();
    };
    if seq.is_empty() {
        diags.push(
            Diagnostic::new(Code::LogFormat, "the log has no players")
                .at(node.span)
                .expected("at least one player with a `name`"),
        );
    }
    let mut out: Vec<Player> = Vec::new();
    for p in seq {
        let Some(name_node) = p.as_map().and(p.get("name")) else {
            diags.push(wrong_type(p, "a player", "a mapping with at least `name`"));
            continue;
        };
        let Some(name) = read_str(name_node, "a player's `name`", diags) else {
            continue;
        };
        if let Some(c) = crate::terminal::control_in_name(name) {
            diags.push(
                Diagnostic::new(
                    Code::LogFormat,
                    format!("a player's name holds a control character ({})", c.escape_unicode()),
                )
                .at(name_node.span)
                .label("this name")
                .expected("a name of printable characters on one line"),
            );
        }
        if let Some(prev) = out.iter().find(|q| q.name == name) {
            diags.push(
                Diagnostic::new(Code::LogFormat, format!("two players are called `{name}`"))
                    .at(name_node.span)
                    .label("second player with this name")
                    .related(prev.span, "first one")
                    .help("turns and results name players, so names must be unique"),
            );
            continue;
        }
        out.push(Player {
            name: name.to_string(),
            span: name_node.span,
            deck: p.get("deck").cloned(),
        });
    }
    out
}

fn player_known(name: &str, span: Span, players: &[Player], what: &str, diags: &mut Vec<Diagnostic>) -> bool {
    if players.iter().any(|p| p.name == name) || players.is_empty() {
        return true;
    }
    diags.push(
        Diagnostic::new(Code::LogFormat, format!("{what} names an unknown player `{name}`"))
            .at(span)
            .label("not in `players`")
            .expected(format!(
                "one of {}",
                crate::pack::reader::quote_list(&players.iter().map(|p| p.name.as_str()).collect::<Vec<_>>())
            ))
            .suggest(name, players.iter().map(|p| p.name.as_str())),
    );
    false
}

fn read_turn(node: &Node, own: Option<Vec<Node>>, players: &[Player], diags: &mut Vec<Diagnostic>) -> Option<Turn> {
    let mut r = MapReader::new(node, "a turn", diags)?;
    let player_node = r.require("player", "the name of the player whose turn it is", diags);
    let actions = r.take("actions");
    let expect = r.take("expect").map(|n| checkpoint(n, diags));
    r.finish(&["player", "actions", "expect"], diags);
    let player_node = player_node?;
    let player = read_str(player_node, "a turn's `player`", diags)?.to_string();
    if !player_known(&player, player_node.span, players, "a turn", diags) {
        return None;
    }
    let mut items = Vec::new();
    if let Some(actions) = actions {
        match &actions.value {
            Value::Null => {}
            Value::Seq(seq) => match own {
                Some(list) => {
                    for a in list {
                        items.push(read_item(a, diags)?);
                    }
                }
                None => {
                    for a in seq {
                        items.push(read_item(a.clone(), diags)?);
                    }
                }
            },
            _ => {
                diags.push(wrong_type(
                    actions,
                    "`actions`",
                    "a list of actions, each a mapping with `do:`",
                ));
                return None;
            }
        }
    }
    Some(Turn {
        player,
        player_span: player_node.span,
        span: node.span,
        items,
        expect: expect.flatten(),
    })
}

fn checkpoint(node: &Node, diags: &mut Vec<Diagnostic>) -> Option<Checkpoint> {
    if node.as_map().is_none() {
        diags.push(wrong_type(
            node,
            "`expect`",
            "a mapping of observed values (`life: {Ana: 10}`)",
        ));
        return None;
    }
    Some(Checkpoint {
        value: to_json(node),
        node: node.clone(),
    })
}

fn read_item(mut node: Node, diags: &mut Vec<Diagnostic>) -> Option<Item> {
    let Some(entries) = node.as_map() else {
        diags.push(wrong_type(&node, "an action", "a mapping such as `{do: move, …}`"));
        return None;
    };
    if entries.len() == 1 && entries[0].0.as_str() == Some("expect") {
        return checkpoint(&entries[0].1, diags).map(Item::Expect);
    }
    if node.get("do").is_none() {
        diags.push(
            Diagnostic::new(Code::LogFormat, "an action has no `do:`")
                .at(node.span)
                .label("which action is this?")
                .expected("`do:` naming the action (see the game's section of docs/log-format.md)"),
        );
        return None;
    }
    node.span.end = extent(&node);
    Some(Item::Action(ActionItem { node }))
}

fn read_result(node: &Node, players: &[Player], diags: &mut Vec<Diagnostic>) -> Option<ClaimedResult> {
    let mut r = MapReader::new(node, "`result`", diags)?;
    let winner = r.require(
        "winner",
        "the winning player (a name, a list of names, or `none`)",
        diags,
    );
    let reason = r
        .take("reason")
        .and_then(|n| read_str(n, "`reason`", diags))
        .map(str::to_string);
    r.finish(&["winner", "reason"], diags);
    let winner = winner?;
    let winners: Vec<(String, Span)> = match &winner.value {
        Value::Null => Vec::new(),
        Value::Str(s) if s == "none" => Vec::new(),
        Value::Str(s) => vec![(s.clone(), winner.span)],
        Value::Seq(seq) => seq
            .iter()
            .filter_map(|n| read_str(n, "a winner", diags).map(|s| (s.to_string(), n.span)))
            .collect(),
        _ => {
            diags.push(wrong_type(winner, "`winner`", "a player name or a list of names"));
            return None;
        }
    };
    let mut ok = true;
    for (w, span) in &winners {
        ok &= player_known(w, *span, players, "`result`", diags);
    }
    ok.then(|| ClaimedResult {
        winners: winners.into_iter().map(|(w, _)| w).collect(),
        reason,
        span: node.span,
    })
}

/// Where a node's text ends: the end of its last descendant (a flow
/// mapping's own span covers only its opening brace).
fn extent(node: &Node) -> usize {
    let inner = match &node.value {
        Value::Seq(items) => items.iter().map(extent).max(),
        Value::Map(entries) => entries.iter().map(|(k, v)| extent(k).max(extent(v))).max(),
        _ => None,
    };
    inner.unwrap_or(node.span.end).max(node.span.end)
}

/// The node as plain JSON (spans dropped; non-string keys written as text).
pub fn to_json(node: &Node) -> Json {
    match &node.value {
        Value::Null => Json::Null,
        Value::Bool(b) => Json::Bool(*b),
        Value::Int(i) => Json::from(*i),
        Value::Float(f) => serde_json::Number::from_f64(*f).map_or(Json::Null, Json::Number),
        Value::Str(s) => Json::String(s.clone()),
        Value::Seq(seq) => Json::Array(seq.iter().map(to_json).collect()),
        Value::Map(entries) => Json::Object(
            entries
                .iter()
                .map(|(k, v)| (k.as_str().map(str::to_string).unwrap_or_else(|| k.show()), to_json(v)))
                .collect(),
        ),
    }
}

/// The innermost node that a serde path (`players[1].hero`) reaches.
pub fn locate<'a>(node: &'a Node, path: &serde_path_to_error::Path) -> &'a Node {
    use serde_path_to_error::Segment;
    let mut at = node;
    for seg in path.iter() {
        let next = match seg {
            Segment::Seq { index } => at.as_seq().and_then(|s| s.get(*index)),
            Segment::Map { key } => at.get(key),
            _ => None,
        };
        match next {
            Some(n) => at = n,
            None => break,
        }
    }
    at
}
