//! Card piles (hands, decks, discard piles) as counts per card index: the
//! order of a face-down deck is chance, recorded in the log when a card is
//! drawn, so a pile is a multiset of the pack's cards.

/// Copies of each of at most `N` card designs, with their total.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pile<const N: usize> {
    counts: [u8; N],
    total: u16,
}

impl<const N: usize> Default for Pile<N> {
    fn default() -> Self {
        Pile {
            counts: [0; N],
            total: 0,
        }
    }
}

impl<const N: usize> Pile<N> {
    /// A pile holding `counts[c]` copies of card `c`.
    pub fn of(counts: [u8; N]) -> Self {
        Pile {
            counts,
            total: counts.iter().map(|&k| u16::from(k)).sum(),
        }
    }

    /// Copies of card `c`.
    pub fn count(&self, c: usize) -> u8 {
        self.counts[c]
    }

    /// Cards in the pile.
    pub fn total(&self) -> u16 {
        self.total
    }

    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    pub fn counts(&self) -> &[u8; N] {
        &self.counts
    }

    /// Adds `k` copies of card `c` (saturating at 255).
    pub fn add(&mut self, c: usize, k: u8) {
        let before = self.counts[c];
        self.counts[c] = before.saturating_add(k);
        self.total += u16::from(self.counts[c] - before);
    }

    /// Removes up to `k` copies of card `c`; returns how many it removed.
    pub fn take(&mut self, c: usize, k: u8) -> u8 {
        let k = k.min(self.counts[c]);
        self.counts[c] -= k;
        self.total -= u16::from(k);
        k
    }

    /// Sets the copies of card `c`.
    pub fn set(&mut self, c: usize, k: u8) {
        self.total = self.total - u16::from(self.counts[c]) + u16::from(k);
        self.counts[c] = k;
    }

    /// Moves one copy of card `c` to `other`, if there is one.
    pub fn move_to(&mut self, c: usize, other: &mut Self) -> bool {
        if self.take(c, 1) == 1 {
            other.add(c, 1);
            true
        } else {
            false
        }
    }

    /// Whether every card of `other` is here, as many times.
    pub fn holds(&self, other: &Self) -> bool {
        self.counts.iter().zip(&other.counts).all(|(a, b)| a >= b)
    }

    /// The first card of which `other` has more copies than this pile.
    pub fn first_short(&self, other: &Self) -> Option<usize> {
        (0..N).find(|&c| other.counts[c] > self.counts[c])
    }

    /// The cards present, lowest index first.
    pub fn cards(&self) -> impl Iterator<Item = usize> + '_ {
        (0..N).filter(|&c| self.counts[c] > 0)
    }

    /// The `k`-th card (0-based) in index order, counting copies: a draw
    /// when `k` is random below [`Pile::total`].
    pub fn nth(&self, mut k: u16) -> Option<usize> {
        for (c, &n) in self.counts.iter().enumerate() {
            if k < u16::from(n) {
                return Some(c);
            }
            k -= u16::from(n);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_follow_every_change() {
        let mut p: Pile<4> = Pile::of([2, 0, 1, 0]);
        assert_eq!(p.total(), 3);
        p.add(1, 2);
        assert_eq!(p.take(0, 5), 2);
        p.set(2, 4);
        assert_eq!((p.counts(), p.total()), (&[0, 2, 4, 0], 6));
        let mut q = Pile::default();
        assert!(p.move_to(1, &mut q));
        assert!(!q.move_to(3, &mut p));
        assert_eq!((p.total(), q.total()), (5, 1));
        assert!(p.holds(&q));
        assert_eq!(q.first_short(&p), Some(2));
        assert_eq!(p.cards().collect::<Vec<_>>(), [1, 2]);
        assert_eq!(
            (p.nth(0), p.nth(1), p.nth(4), p.nth(5)),
            (Some(1), Some(2), Some(2), None)
        );
    }
}
