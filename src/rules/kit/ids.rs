//! Id tables: the pack's string ids of one kind of thing (units, cards,
//! cells …) and the small indices an engine's state stores instead.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// FNV-1a: ids are short, and SipHash dominated id lookups in replay.
#[derive(Default)]
pub struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 { 0xcbf2_9ce4_8422_2325 } else { self.0 };
        for b in bytes {
            h = (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
}

/// Ids in order, each with its index. A repeated id keeps its first index.
#[derive(Clone, Debug, Default)]
pub struct IdTable {
    names: Vec<String>,
    index: HashMap<String, u16, BuildHasherDefault<Fnv>>,
}

impl IdTable {
    pub fn new() -> IdTable {
        IdTable::default()
    }

    /// Appends `id`; its index is the number of ids before it.
    pub fn push(&mut self, id: impl Into<String>) -> u16 {
        let id = id.into();
        let i = self.names.len() as u16;
        self.index.entry(id.clone()).or_insert(i);
        self.names.push(id);
        i
    }

    /// The index of `id`.
    pub fn get(&self, id: &str) -> Option<u16> {
        self.index.get(id).copied()
    }

    /// The id at `i` (`?` past the end).
    pub fn name(&self, i: usize) -> &str {
        self.names.get(i).map_or("?", String::as_str)
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The ids in index order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// `a, b, c`: every id, for messages.
    pub fn list(&self) -> String {
        self.names.join(", ")
    }
}

impl<S: Into<String>> FromIterator<S> for IdTable {
    fn from_iter<I: IntoIterator<Item = S>>(iter: I) -> IdTable {
        let mut t = IdTable::new();
        for id in iter {
            t.push(id);
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_index_wins_and_names_keep_order() {
        let t: IdTable = ["b", "a", "b"].into_iter().collect();
        assert_eq!(t.get("b"), Some(0));
        assert_eq!(t.get("a"), Some(1));
        assert_eq!(t.get("c"), None);
        assert_eq!(t.name(2), "b");
        assert_eq!(t.name(9), "?");
        assert_eq!(t.list(), "b, a, b");
    }
}
