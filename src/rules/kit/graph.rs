//! A board as a graph: spaces, cells, areas, squares or mat slots with their
//! adjacency, distances, what a move of N steps reaches, and lines along a
//! grid's rows and columns. At most [`MAX_NODES`] nodes, so a set of nodes is
//! one `u64` ([`Set`]).

use super::ids::IdTable;

/// Nodes per graph at most.
pub const MAX_NODES: usize = 64;
/// A set of nodes, bit `i` for node `i`.
pub type Set = u64;
/// [`Graph::distance`] between nodes with no path.
pub const UNREACHABLE: u8 = u8::MAX;

/// The set holding only node `i`.
pub fn one(i: u8) -> Set {
    1 << i
}

/// The nodes of a set, lowest first.
pub fn bits(mut m: Set) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(i)
        }
    })
}

#[derive(Clone, Debug)]
pub struct Graph {
    ids: IdTable,
    /// Neighbours in the order the pack lists them.
    lists: Vec<Vec<u8>>,
    adj: Vec<Set>,
    /// Steps between nodes (all pairs).
    dist: Vec<[u8; MAX_NODES]>,
    /// Grid coordinates (column, row), when the board is a grid.
    xy: Vec<(i16, i16)>,
}

impl Graph {
    /// A graph of `ids` where node `i` leads to `lists[i]` (in that order).
    /// With `symmetric`, every edge also leads back. Panics past
    /// [`MAX_NODES`] nodes: the table readers refuse such boards first.
    pub fn new(ids: IdTable, mut lists: Vec<Vec<u8>>, symmetric: bool) -> Graph {
        let n = ids.len();
        assert!(n <= MAX_NODES, "a graph has at most {MAX_NODES} nodes");
        lists.resize(n, Vec::new());
        if symmetric {
            for i in 0..n {
                for k in 0..lists[i].len() {
                    let j = lists[i][k] as usize;
                    if !lists[j].contains(&(i as u8)) {
                        lists[j].push(i as u8);
                    }
                }
            }
        }
        let adj: Vec<Set> = lists.iter().map(|l| l.iter().fold(0, |m, &j| m | one(j))).collect();
        let mut dist = vec![[UNREACHABLE; MAX_NODES]; n];
        for (s, row) in dist.iter_mut().enumerate() {
            row[s] = 0;
            let mut seen = one(s as u8);
            let mut frontier = seen;
            let mut d = 0u8;
            while frontier != 0 {
                d = d.saturating_add(1);
                let mut next = 0;
                for a in bits(frontier) {
                    next |= adj[a];
                }
                next &= !seen;
                for a in bits(next) {
                    row[a] = d;
                }
                seen |= next;
                frontier = next;
            }
        }
        Graph {
            ids,
            lists,
            adj,
            dist,
            xy: Vec::new(),
        }
    }

    /// Gives every node its grid coordinates (column, row).
    pub fn with_coordinates(mut self, xy: Vec<(i16, i16)>) -> Graph {
        self.xy = xy;
        self
    }

    pub fn len(&self) -> usize {
        self.ids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// The node called `id`.
    pub fn index(&self, id: &str) -> Option<u8> {
        self.ids.get(id).map(|i| i as u8)
    }

    /// The id of node `i` (`?` for no node).
    pub fn name(&self, i: u8) -> &str {
        self.ids.name(i as usize)
    }

    pub fn ids(&self) -> &IdTable {
        &self.ids
    }

    /// The ids of a set's nodes, in node order.
    pub fn names(&self, set: Set) -> Vec<&str> {
        bits(set).map(|i| self.ids.name(i)).collect()
    }

    /// Node `i`'s neighbours in the pack's order.
    pub fn neighbours(&self, i: u8) -> &[u8] {
        &self.lists[i as usize]
    }

    /// Node `i`'s neighbours as a set.
    pub fn adjacent_set(&self, i: u8) -> Set {
        self.adj[i as usize]
    }

    /// Whether `b` is a neighbour of `a`.
    pub fn adjacent(&self, a: u8, b: u8) -> bool {
        self.adj[a as usize] & one(b) != 0
    }

    /// Steps from `a` to `b` through any nodes ([`UNREACHABLE`] without a path).
    pub fn distance(&self, a: u8, b: u8) -> u8 {
        self.dist[a as usize][b as usize]
    }

    /// Steps from `from` to `to` through nodes of `passable` (`to` must be
    /// in it, `from` need not), or `None` when no such path exists.
    pub fn distance_through(&self, from: u8, to: u8, passable: Set) -> Option<u8> {
        let target = one(to);
        let mut seen = one(from);
        let mut frontier = seen;
        let mut d = 0u8;
        while frontier != 0 {
            if frontier & target != 0 {
                return Some(d);
            }
            let mut next = 0;
            for i in bits(frontier) {
                next |= self.adj[i];
            }
            next &= passable & !seen;
            seen |= next;
            frontier = next;
            d = d.saturating_add(1);
        }
        None
    }

    /// Nodes reached from `from` in 1 to `steps` steps through `passable`.
    pub fn reach(&self, from: u8, steps: u8, passable: Set) -> Set {
        let mut seen = one(from);
        let mut frontier = seen;
        for _ in 0..steps {
            let mut next = 0;
            for i in bits(frontier) {
                next |= self.adj[i];
            }
            next &= passable & !seen;
            if next == 0 {
                break;
            }
            seen |= next;
            frontier = next;
        }
        seen & !one(from)
    }

    /// Grid coordinates (column, row) of node `i`.
    pub fn coordinates(&self, i: u8) -> (i16, i16) {
        self.xy.get(i as usize).copied().unwrap_or_default()
    }

    /// The node at grid coordinates (column, row).
    pub fn at(&self, xy: (i16, i16)) -> Option<u8> {
        self.xy.iter().position(|&p| p == xy).map(|i| i as u8)
    }

    /// Squares between `a` and `b` along their shared row or column, or
    /// `None` when they share neither (a diagonal). Needs coordinates.
    pub fn line(&self, a: u8, b: u8) -> Option<u8> {
        let (ax, ay) = self.coordinates(a);
        let (bx, by) = self.coordinates(b);
        let d = if ax == bx {
            (ay - by).abs()
        } else if ay == by {
            (ax - bx).abs()
        } else {
            return None;
        };
        Some(d.clamp(0, 254) as u8)
    }

    /// Steps from `a` to `b` straight along a row or column, every step to
    /// an adjacent node: `None` for a diagonal, or when the straight way
    /// is broken (a missing cell, a missing adjacency).
    pub fn straight(&self, a: u8, b: u8) -> Option<u8> {
        let d = self.line(a, b)?;
        // A path as short as the grid distance along a row or column is
        // that row or column itself.
        (self.distance(a, b) == d).then_some(d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 3×3 grid (a1 … c3, column letter, row digit) with orthogonal steps.
    fn grid() -> Graph {
        let mut ids = IdTable::new();
        let mut xy = Vec::new();
        for r in 1..=3i16 {
            for c in 0..3i16 {
                ids.push(format!("{}{r}", (b'a' + c as u8) as char));
                xy.push((c + 1, r));
            }
        }
        let mut lists = vec![Vec::new(); 9];
        for i in 0..9u8 {
            for j in 0..9u8 {
                let (a, b) = (xy[i as usize], xy[j as usize]);
                if (a.0 - b.0).abs() + (a.1 - b.1).abs() == 1 {
                    lists[i as usize].push(j);
                }
            }
        }
        Graph::new(ids, lists, false).with_coordinates(xy)
    }

    #[test]
    fn distances_reach_and_lines() {
        let g = grid();
        let (a1, b2, c1, c3) = (0, 4, 2, 8);
        assert_eq!(g.index("b2"), Some(b2));
        assert_eq!(g.distance(a1, c3), 4);
        assert_eq!(g.line(a1, c1), Some(2));
        assert_eq!(g.straight(a1, c1), Some(2));
        // Diagonal: two orthogonal steps away, but not in a line.
        assert_eq!(g.distance(a1, b2), 2);
        assert_eq!(g.line(a1, b2), None);
        assert_eq!(g.straight(a1, b2), None);
        assert_eq!(g.reach(a1, 1, !0), one(1) | one(3));
        // Around a blocked centre.
        let passable = !one(b2);
        assert_eq!(g.distance_through(1, 7, passable), Some(4));
        assert_eq!(g.distance_through(1, 7, !0), Some(2));
        assert_eq!(g.names(one(a1) | one(c3)), ["a1", "c3"]);
    }

    #[test]
    fn a_broken_row_is_not_straight() {
        let mut ids = IdTable::new();
        for id in ["a1", "b1", "c1"] {
            ids.push(id);
        }
        // a1 – b1 only: c1 is cut off.
        let g = Graph::new(ids, vec![vec![1], vec![0], vec![]], false).with_coordinates(vec![(1, 1), (2, 1), (3, 1)]);
        assert_eq!(g.line(0, 2), Some(2));
        assert_eq!(g.straight(0, 2), None);
        assert_eq!(g.distance(0, 2), UNREACHABLE);
    }

    #[test]
    fn symmetric_graphs_lead_back() {
        let ids: IdTable = ["x", "y"].into_iter().collect();
        let g = Graph::new(ids, vec![vec![1], vec![]], true);
        assert!(g.adjacent(1, 0));
        assert_eq!(g.neighbours(1), [0]);
    }
}
