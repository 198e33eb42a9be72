//! Card effects in Unmatched: the words of the pack's effect vocabulary the
//! engine interprets, and the answers the interpreter asks for
//! ([`crate::rules::kit::effects`], docs/effects.md). Sources are the cards
//! revealed in a combat, the scheme played, and each hero's ability.

use super::Unmatched;
use super::actions::{Effect, Size};
use super::state::State;
use super::tables::{CardKind, OFF};
use crate::model::effects::Arg;
use crate::rules::kit::effects::{self as fx, Change, Host, Src, Vocab, Word, Written};
use crate::words;

words! {
    pub enum When {
        Scheme = "scheme",
        Immediately = "immediately",
        DuringCombat = "during-combat",
        AfterCombat = "after-combat",
        StartOfTurn = "start-of-turn",
        Attack = "attack",
        Setup = "setup",
        Continuous = "continuous",
    }
}

words! {
    pub enum Who {
        ThisFighter = "this-fighter",
        OwnHero = "own-hero",
        OwnFighter = "own-fighter",
        Attacker = "attacker",
        Defender = "defender",
        EnemyFighter = "enemy-fighter",
    }
}

words! {
    pub enum Out {
        Draw = "draw",
        Move = "move",
        MoveThrough = "move-through",
        Place = "place",
        Heal = "heal",
        Damage = "damage",
        Value = "value",
        Big = "big",
        Small = "small",
        Discard = "discard",
        Recover = "recover",
        Search = "search",
        Defeat = "defeat",
        Cancel = "cancel",
        Look = "look",
        ExtraCard = "extra-card",
        Attack = "attack",
        Defense = "defense",
        MoveBonus = "move-bonus",
    }
}

words! {
    pub enum Per { Turn = "turn" }
}

words! {
    pub enum Res { None = "none" }
}

words! {
    pub enum Until { EndOfTurn = "end-of-turn" }
}

/// The conditions the engine evaluates.
#[derive(Clone, Debug, PartialEq)]
pub enum Cond {
    Won,
    Defender(bool),
    Attacker(bool),
    Adjacent,
    AdjacentTo(String),
    InZone,
    Fighter(String),
    Big,
    Small,
    HarpiesAdjacentToDefender,
    AnotherHarpyAdjacent,
    SchemesInDiscard,
}

#[derive(Clone, Debug)]
pub struct Uv;

impl Vocab for Uv {
    crate::vocab_types!();

    fn cond(name: &str, arg: &Arg) -> Option<Cond> {
        let hero = |w: &str| match w {
            "hero" => Some(true),
            "sidekick" => Some(false),
            _ => None,
        };
        Some(match (name, arg) {
            ("won", Arg::None) => Cond::Won,
            ("defender", Arg::Word(w)) => Cond::Defender(hero(w)?),
            ("attacker", Arg::Word(w)) => Cond::Attacker(hero(w)?),
            ("adjacent", Arg::None) => Cond::Adjacent,
            ("adjacent-to", Arg::Word(w)) => Cond::AdjacentTo(w.clone()),
            ("in-zone", Arg::None) => Cond::InZone,
            ("fighter", Arg::Word(w)) => Cond::Fighter(w.clone()),
            ("big", Arg::None) => Cond::Big,
            ("small", Arg::None) => Cond::Small,
            ("harpies-adjacent-to-defender", Arg::None) => Cond::HarpiesAdjacentToDefender,
            ("another-harpy-adjacent", Arg::None) => Cond::AnotherHarpyAdjacent,
            ("schemes-in-discard", Arg::None) => Cond::SchemesInDiscard,
            _ => return None,
        })
    }

    fn show(c: &Cond) -> String {
        match c {
            Cond::Won => "after the card's owner won the combat".into(),
            Cond::Defender(h) => format!("when the defender is a {}", if *h { "hero" } else { "sidekick" }),
            Cond::Attacker(h) => format!("when the attacker is a {}", if *h { "hero" } else { "sidekick" }),
            Cond::Adjacent => "adjacent to the card's fighter".into(),
            Cond::AdjacentTo(id) => format!("adjacent to {id}"),
            Cond::InZone => "in the card's fighter's zone".into(),
            Cond::Fighter(id) => format!("a {id}"),
            Cond::Big => "while Alice is BIG".into(),
            Cond::Small => "while Alice is SMALL".into(),
            Cond::HarpiesAdjacentToDefender => "per harpy adjacent to the defender".into(),
            Cond::AnotherHarpyAdjacent => "when another harpy is adjacent to the defender".into(),
            Cond::SchemesInDiscard => "per scheme card in the discard pile".into(),
        }
    }
}

pub type Def = fx::Def<Uv>;
pub type Ch = Change<Out, u8>;

/// The combat under way, as the interpreter sees it.
#[derive(Clone, Copy, Debug)]
pub struct Combat {
    pub attacker: u8,
    pub defender: u8,
    /// Whether the attacker won (known after the damage).
    pub attacker_won: Option<bool>,
}

/// One moment for the interpreter.
pub struct Ctx<'a> {
    pub e: &'a Unmatched,
    pub open: u32,
    pub combat: Option<Combat>,
}

pub fn bit(w: When) -> u32 {
    1 << (w as u32)
}

impl<'a> Ctx<'a> {
    pub fn new(e: &'a Unmatched, open: &[When], combat: Option<Combat>) -> Self {
        Ctx {
            e,
            open: open.iter().fold(0, |b, w| b | bit(*w)),
            combat,
        }
    }

    /// The opponent of `p` an effect acts against: the other fighter's
    /// owner in a combat, else the next enemy player.
    pub fn foe(&self, s: &State, p: u8) -> u8 {
        match self.combat {
            Some(k) => {
                let (a, d) = (s.figs[k.attacker as usize].owner, s.figs[k.defender as usize].owner);
                if p == a { d } else { a }
            }
            None => self.e.opponent(s, p),
        }
    }
}

impl Unmatched {
    fn adjacent(&self, s: &State, a: u8, b: u8) -> bool {
        let (fa, fb) = (s.figs[a as usize], s.figs[b as usize]);
        fa.at != OFF && fb.at != OFF && self.board(s).graph.adjacent(fa.at, fb.at)
    }

    fn fighter_id(&self, s: &State, f: u8) -> &str {
        let x = s.figs[f as usize];
        &self.t.heroes[x.hero as usize].fighters[x.fighter as usize].id
    }

    /// Figures of `owner`'s fighter `id` still in play.
    fn figures_of<'s>(&'s self, s: &'s State, owner: u8, id: &'s str) -> impl Iterator<Item = u8> + 's {
        (0..s.nfig).filter(move |&f| {
            let x = s.figs[f as usize];
            x.owner == owner && x.at != OFF && self.fighter_id(s, f) == id
        })
    }

    /// Scheme cards in player `p`'s discard pile.
    pub(super) fn schemes_in_discard(&self, s: &State, p: u8) -> i16 {
        let hero = self.hero(s, p);
        let pl = &s.players[p as usize];
        hero.cards
            .iter()
            .enumerate()
            .filter(|(_, c)| c.kind == CardKind::Scheme)
            .map(|(i, _)| i16::from(pl.discard.count(i)))
            .sum()
    }

    /// The source of card `c` of player `p` played by figure `by`.
    pub(super) fn card_src(&self, s: &State, p: u8, c: u8, by: u8) -> Option<Src<u8>> {
        let hero = s.players[p as usize].hero as usize;
        self.t.card_defs[hero][c as usize].map(|d| Src {
            card: d,
            owner: p,
            at: Some(by),
        })
    }

    /// The source of player `p`'s hero ability (at the hero figure).
    pub(super) fn ability_src(&self, s: &State, p: u8) -> Option<Src<u8>> {
        let hero = s.players[p as usize].hero as usize;
        let at = (0..s.nfig).find(|&f| s.figs[f as usize].owner == p && s.figs[f as usize].is_hero);
        self.t.hero_defs[hero].map(|d| Src { card: d, owner: p, at })
    }

    /// A continuous modifier of player `p`'s hero ability for figure `f`.
    pub(super) fn ability_mod(&self, s: &State, p: u8, out: Out, f: u8) -> i16 {
        let Some(src) = self.ability_src(s, p) else { return 0 };
        let ctx = Ctx::new(self, &[When::Continuous], None);
        fx::modifier(&ctx, s, &[src], &[], When::Continuous, out, Some(f))
    }

    /// A recorded outcome as the interpreter's changes: `move` is a `place`
    /// for a card that places, a `move-through` when no path avoids the
    /// enemies, else a `move` of the shortest path's length.
    pub(super) fn changes(&self, s: &State, src: &Src<u8>, e: &Effect, p: u8) -> Vec<Ch> {
        let places = self.t.defs[usize::from(src.card)]
            .clauses
            .iter()
            .any(|c| c.amount(Out::Place).is_some());
        let n = |v: usize| v.min(i16::MAX as usize) as i16;
        let mut out = Vec::new();
        if let Some(k) = e.value {
            out.push(Ch {
                out: Out::Value,
                obj: None,
                n: i16::from(k),
            });
        }
        if let Some(size) = e.size {
            out.push(Ch {
                out: if size == Size::Big { Out::Big } else { Out::Small },
                obj: None,
                n: 1,
            });
        }
        for (list, o) in [
            (&e.draw, Out::Draw),
            (&e.recover, Out::Recover),
            (&e.discard, Out::Discard),
            (&e.search, Out::Search),
        ] {
            if !list.is_empty() {
                out.push(Ch {
                    out: o,
                    obj: None,
                    n: n(list.len()),
                });
            }
        }
        let fig = |id: &str| {
            self.t.figures.get(id).and_then(|&(h, f, c)| {
                (0..s.nfig).find(|&i| {
                    let x = s.figs[i as usize];
                    x.hero == h && x.fighter == f && x.copy == c
                })
            })
        };
        for (id, &k) in &e.heal {
            out.push(Ch {
                out: Out::Heal,
                obj: fig(id),
                n: i16::from(k),
            });
        }
        for (id, &k) in &e.damage {
            out.push(Ch {
                out: Out::Damage,
                obj: fig(id),
                n: i16::from(k),
            });
        }
        let b = self.board(s);
        for (id, to) in &e.moves {
            let f = fig(id);
            let (from, dest) = (f.map(|f| s.figs[f as usize].at), b.space(to));
            let ch = match (from, dest) {
                _ if places => Ch {
                    out: Out::Place,
                    obj: f,
                    n: 1,
                },
                // The path is the moved fighter's: it passes its own allies,
                // never its enemies (Croquet Match moves an opponent's fighter).
                (Some(a), Some(d)) if a != OFF => {
                    match b
                        .graph
                        .distance_through(a, d, !s.enemy_mask(f.map_or(p, |f| s.figs[f as usize].owner)))
                    {
                        Some(k) => Ch {
                            out: Out::Move,
                            obj: f,
                            n: i16::from(k),
                        },
                        None => Ch {
                            out: Out::MoveThrough,
                            obj: f,
                            n: b.graph.distance_through(a, d, u64::MAX).map_or(i16::MAX, i16::from),
                        },
                    }
                }
                _ => Ch {
                    out: Out::Move,
                    obj: f,
                    n: i16::MAX,
                },
            };
            out.push(ch);
        }
        out
    }
}

impl Host for Ctx<'_> {
    type V = Uv;
    type State = State;
    type Obj = u8;

    fn def(&self, src: &Src<u8>) -> &Def {
        &self.e.t.defs[usize::from(src.card)]
    }

    fn card_id(&self, src: &Src<u8>) -> String {
        self.e.t.def_names[usize::from(src.card)].clone()
    }

    fn open(&self, _s: &State, _src: &Src<u8>, when: When) -> bool {
        self.open & bit(when) != 0
    }

    fn now(&self, s: &State) -> String {
        let open: Vec<&str> = When::ALL
            .iter()
            .filter(|(_, w)| self.open & bit(*w) != 0)
            .map(|(n, _)| *n)
            .collect();
        format!(
            "{}'s turn, action {}{}",
            s.name(s.to_move),
            s.actions,
            if open.is_empty() {
                String::new()
            } else {
                format!(" ({})", open.join(", "))
            }
        )
    }

    fn holds(&self, s: &State, src: &Src<u8>, c: &Cond, obj: Option<u8>) -> bool {
        let e = self.e;
        let o = obj.or(src.at);
        let owner = src.owner;
        match c {
            Cond::Won => self.combat.and_then(|k| k.attacker_won).is_some_and(|aw| {
                let attacker_side = s.figs[self.combat.map_or(0, |k| k.attacker) as usize].owner;
                (owner == attacker_side) == aw
            }),
            Cond::Defender(h) => self.combat.is_some_and(|k| s.figs[k.defender as usize].is_hero == *h),
            Cond::Attacker(h) => self.combat.is_some_and(|k| s.figs[k.attacker as usize].is_hero == *h),
            Cond::Adjacent => match (obj, src.at) {
                (Some(o), Some(a)) => e.adjacent(s, o, a),
                _ => false,
            },
            Cond::AdjacentTo(id) => {
                o.is_some_and(|o| e.figures_of(s, owner, id).any(|x| x != o && e.adjacent(s, x, o)))
            }
            Cond::InZone => match (obj, src.at) {
                (Some(o), Some(a)) => {
                    let (fo, fa) = (s.figs[o as usize], s.figs[a as usize]);
                    let b = e.board(s);
                    fo.at != OFF && fa.at != OFF && b.zones[fo.at as usize] & b.zones[fa.at as usize] != 0
                }
                _ => false,
            },
            Cond::Fighter(id) => o.is_some_and(|o| e.fighter_id(s, o) == id),
            Cond::Big => s.players[owner as usize].big,
            Cond::Small => !s.players[owner as usize].big,
            Cond::HarpiesAdjacentToDefender => self.count(s, src, c, obj) > 0,
            Cond::AnotherHarpyAdjacent => self.combat.is_some_and(|k| {
                e.figures_of(s, owner, "harpy")
                    .any(|x| x != k.attacker && e.adjacent(s, x, k.defender))
            }),
            Cond::SchemesInDiscard => e.schemes_in_discard(s, owner) > 0,
        }
    }

    fn count(&self, s: &State, src: &Src<u8>, c: &Cond, _obj: Option<u8>) -> i16 {
        match c {
            Cond::HarpiesAdjacentToDefender => self.combat.map_or(0, |k| {
                self.e
                    .figures_of(s, src.owner, "harpy")
                    .filter(|&x| self.e.adjacent(s, x, k.defender))
                    .count() as i16
            }),
            Cond::SchemesInDiscard => self.e.schemes_in_discard(s, src.owner),
            _ => 0,
        }
    }

    fn is(&self, s: &State, src: &Src<u8>, who: Who, o: u8) -> bool {
        let f = s.figs[o as usize];
        let alive = f.at != OFF;
        match who {
            Who::ThisFighter => Some(o) == src.at,
            Who::OwnHero => f.owner == src.owner && f.is_hero && alive,
            Who::OwnFighter => f.owner == src.owner && alive,
            Who::Attacker => self.combat.is_some_and(|k| k.attacker == o),
            Who::Defender => self.combat.is_some_and(|k| k.defender == o),
            Who::EnemyFighter => alive && s.team_of(f.owner) != s.team_of(src.owner),
        }
    }

    fn candidates(&self, s: &State, src: &Src<u8>, who: Who) -> Vec<u8> {
        (0..s.nfig).filter(|&f| self.is(s, src, who, f)).collect()
    }

    fn cap(&self, s: &State, src: &Src<u8>, out: Out, obj: Option<u8>) -> Option<i16> {
        let p = src.owner as usize;
        let opp = self.foe(s, src.owner) as usize;
        let hero = self.e.hero(s, src.owner);
        let f = obj.map(|o| s.figs[o as usize]);
        match out {
            Out::Heal => f.map(|f| i16::from(f.max.saturating_sub(f.hp))),
            Out::Damage => f.filter(|f| f.at == OFF).map(|_| 0),
            Out::Defeat => f.map(|f| i16::from(f.at != OFF)),
            Out::Draw => Some(s.players[p].deck.total() as i16),
            Out::Discard => Some(s.players[opp].hand.total() as i16),
            Out::Recover => Some(
                hero.cards
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| c.kind != CardKind::Scheme)
                    .map(|(i, _)| i16::from(s.players[p].discard.count(i)))
                    .sum(),
            ),
            Out::Search => Some(
                hero.cards
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| matches!(c.kind, CardKind::Attack | CardKind::Versatile))
                    .map(|(i, _)| i16::from(s.players[p].deck.count(i)))
                    .sum::<i16>()
                    .min(1),
            ),
            Out::Big => Some(i16::from(!s.players[p].big)),
            Out::Small => Some(i16::from(s.players[p].big)),
            _ => None,
        }
    }

    fn used(&self, _s: &State, _src: &Src<u8>, _clause: u8, _per: Per) -> u8 {
        0
    }

    fn afford(&self, _s: &State, _src: &Src<u8>, _res: Res, _n: i16) -> bool {
        true
    }

    fn show(&self, s: &State, o: u8) -> String {
        let f = s.figs[o as usize];
        format!("{} ({})", self.e.fig_name(&f), s.name(f.owner))
    }

    fn write(&self, s: &State, src: &Src<u8>, out: Out, obj: Option<u8>, n: i16) -> Option<Written> {
        let owner = usize::from(src.owner).min(s.players.len() - 1);
        let p = &s.players[owner];
        let hero = &self.e.t.heroes[usize::from(p.hero)];
        let card_in = |pile: &crate::rules::kit::Pile<{ super::tables::MAX_CARDS }>| {
            pile.cards()
                .next()
                .and_then(|c| hero.cards.get(c))
                .map_or_else(|| "a-card-id".to_owned(), |c| c.id.clone())
        };
        let fig = obj.map(|o| s.figs[usize::from(o)]);
        let who = fig.map_or_else(|| "alice".to_owned(), |f| self.e.fig_name(&f).to_owned());
        let part = match out {
            Out::Draw => format!("draw: [{}]", card_in(&p.deck)),
            Out::Search => format!("search: [{}]", card_in(&p.deck)),
            Out::Recover => format!("recover: [{}]", card_in(&p.discard)),
            Out::Discard => "discard: [a-card-of-the-opponent]".to_owned(),
            Out::Heal => format!("heal: {{{who}: {n}}}"),
            Out::Damage => format!("damage: {{{who}: {n}}}"),
            Out::Value => format!("value: {n}"),
            Out::Big => "size: big".to_owned(),
            Out::Small => "size: small".to_owned(),
            Out::Move | Out::MoveThrough | Out::Place => {
                let at = fig.map_or("s1", |f| self.e.board(s).name(f.at));
                format!("move: {{{who}: {at}}}")
            }
            _ => return None,
        };
        let key = part.split(':').next().unwrap_or_default().to_owned();
        Some(match self.combat {
            Some(_) => Written {
                field: format!("effects[].{key}"),
                example: format!("effects: [{{card: {}, {part}}}]", self.card_id(src)),
            },
            None => Written {
                field: format!("effect.{key}"),
                example: format!("effect: {{{part}}}"),
            },
        })
    }
}
