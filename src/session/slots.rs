//! [`Slots`]: the transcript's items, cards and diagnostics — a persistent
//! vector whose indices never move, from which a reader that retires what
//! it is done with (the library's index) may let go of the oldest slots
//! for good. The viewer, the player and `deck inspect` never let go of
//! anything: for them `Slots` is the persistent vector it wraps, cloned in
//! O(1) and indexed as one.
//!
//! Letting go ([`Slots::let_go`]) moves the slots below an index out of the
//! vector: those the caller still wants are kept aside by index (a card
//! still running, a prompt told again later), the others are gone. An
//! index let go of reads as absent ([`Slots::get`] is `None`); the fold
//! notes when it comes back to one (see `retire`).

use std::ops::{Index, IndexMut};

/// Items (or cards, or diagnostics) by a stable index, the oldest of which
/// may be let go of.
#[derive(Clone)]
pub struct Slots<T: Clone> {
    /// Slots below `base` are gone, but those in `kept`.
    base: usize,
    /// The slots from `base` on.
    tail: imbl::Vector<T>,
    /// Slots below `base` still held, by index.
    kept: imbl::OrdMap<usize, T>,
}

impl<T: Clone> Default for Slots<T> {
    fn default() -> Slots<T> {
        Slots {
            base: 0,
            tail: imbl::Vector::new(),
            kept: imbl::OrdMap::new(),
        }
    }
}

impl<T: Clone + std::fmt::Debug> std::fmt::Debug for Slots<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T: Clone + PartialEq> PartialEq for Slots<T> {
    fn eq(&self, other: &Slots<T>) -> bool {
        self.base == other.base && self.kept == other.kept && self.tail == other.tail
    }
}

impl<T: Clone> Slots<T> {
    /// No slots.
    pub fn new() -> Slots<T> {
        Slots::default()
    }

    /// One past the highest index (slots let go of count).
    pub fn len(&self) -> usize {
        self.base + self.tail.len()
    }

    /// No slot was ever filled.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The slot at `index`; `None` past the end or when let go of.
    pub fn get(&self, index: usize) -> Option<&T> {
        match index.checked_sub(self.base) {
            Some(i) => self.tail.get(i),
            None => self.kept.get(&index),
        }
    }

    /// The first slot held.
    pub fn front(&self) -> Option<&T> {
        self.iter().next()
    }

    /// The last slot (the newest is never let go of while newer come).
    pub fn last(&self) -> Option<&T> {
        self.tail.last().or_else(|| self.kept.values().next_back())
    }

    /// The slots held, in index order.
    pub fn iter(&self) -> Iter<'_, T> {
        self.kept.values().chain(self.tail.iter())
    }

    /// The slots held with their indices, in order.
    pub fn indexed(&self) -> impl DoubleEndedIterator<Item = (usize, &T)> + '_ {
        let base = self.base;
        self.kept.iter().map(|(&i, v)| (i, v)).chain(
            self.tail
                .iter()
                .enumerate()
                .map(move |(i, v)| (base + i, v)),
        )
    }

    /// Whether the slot at `index` was let go of.
    pub fn gone(&self, index: usize) -> bool {
        index < self.base && !self.kept.contains_key(&index)
    }

    /// Add a slot at the end.
    pub(super) fn push_back(&mut self, value: T) {
        self.tail.push_back(value);
    }

    /// Replace the slot at `index`; false (and nothing changes) when it is
    /// past the end or let go of.
    pub(super) fn set(&mut self, index: usize, value: T) -> bool {
        match index.checked_sub(self.base) {
            Some(i) if i < self.tail.len() => {
                self.tail.set(i, value);
                true
            }
            Some(_) => false,
            None => match self.kept.get_mut(&index) {
                Some(slot) => {
                    *slot = value;
                    true
                }
                None => false,
            },
        }
    }

    /// The slot at `index`, to change in place.
    pub(super) fn get_mut(&mut self, index: usize) -> Option<&mut T> {
        match index.checked_sub(self.base) {
            Some(i) => self.tail.get_mut(i),
            None => self.kept.get_mut(&index),
        }
    }

    /// Let go of the slots below `upto`, but those `keep` asks for (kept
    /// aside by index); a kept slot `keep` no longer asks for goes too.
    pub(super) fn let_go(&mut self, upto: usize, mut keep: impl FnMut(usize, &T) -> bool) {
        let upto = upto.min(self.len());
        let going: Vec<usize> = (self.kept.iter())
            .filter(|&(&i, v)| !keep(i, v))
            .map(|(&i, _)| i)
            .collect();
        for i in going {
            self.kept.remove(&i);
        }
        if upto <= self.base {
            return;
        }
        let rest = self.tail.split_off(upto - self.base);
        let old = std::mem::replace(&mut self.tail, rest);
        for (i, v) in old.into_iter().enumerate() {
            let index = self.base + i;
            if keep(index, &v) {
                self.kept.insert(index, v);
            }
        }
        self.base = upto;
    }

    /// Slots held (kept aside and from `base` on): what letting go bounds.
    pub fn held(&self) -> usize {
        self.kept.len() + self.tail.len()
    }
}

impl<T: Clone> Index<usize> for Slots<T> {
    type Output = T;

    /// The slot at `index`. Panics past the end, as a vector does, and on
    /// a slot let go of: only a reader that lets go (the index's fold) can
    /// meet one, and it asks with [`Slots::get`].
    fn index(&self, index: usize) -> &T {
        match self.get(index) {
            Some(v) => v,
            None => panic!("slot {index} of {} is not held", self.len()),
        }
    }
}

impl<T: Clone> IndexMut<usize> for Slots<T> {
    fn index_mut(&mut self, index: usize) -> &mut T {
        let len = self.len();
        match self.get_mut(index) {
            Some(v) => v,
            None => panic!("slot {index} of {len} is not held"),
        }
    }
}

/// The slots held, in index order ([`Slots::iter`]).
pub type Iter<'a, T> = std::iter::Chain<
    imbl::ordmap::Values<'a, usize, T, imbl::shared_ptr::DefaultSharedPtr>,
    imbl::vector::Iter<'a, T, imbl::shared_ptr::DefaultSharedPtr>,
>;

impl<'a, T: Clone> IntoIterator for &'a Slots<T> {
    type Item = &'a T;
    type IntoIter = Iter<'a, T>;

    fn into_iter(self) -> Iter<'a, T> {
        self.iter()
    }
}

impl<T: Clone> FromIterator<T> for Slots<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Slots<T> {
        Slots {
            base: 0,
            tail: iter.into_iter().collect(),
            kept: imbl::OrdMap::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Slots;

    fn slots(n: usize) -> Slots<usize> {
        (0..n).collect()
    }

    #[test]
    fn indices_hold_after_letting_go() {
        let mut s = slots(10);
        s.let_go(6, |i, _| i == 2 || i == 5);
        assert_eq!(s.len(), 10);
        assert_eq!(s.held(), 6);
        assert_eq!(s.get(2), Some(&2));
        assert_eq!(s.get(3), None);
        assert!(s.gone(3) && !s.gone(2) && !s.gone(7));
        assert_eq!(s[7], 7);
        assert_eq!(s.iter().copied().collect::<Vec<_>>(), [2, 5, 6, 7, 8, 9]);
        assert_eq!(
            s.indexed().map(|(i, _)| i).collect::<Vec<_>>(),
            [2, 5, 6, 7, 8, 9]
        );
        assert!(s.set(5, 50) && !s.set(4, 40) && !s.set(10, 0));
        assert_eq!(s.get(5), Some(&50));
        s.push_back(10);
        assert_eq!(s.last(), Some(&10));
        // A kept slot goes once no longer asked for.
        s.let_go(8, |i, _| i == 2);
        assert_eq!(s.iter().copied().collect::<Vec<_>>(), [2, 8, 9, 10]);
        assert_eq!(s.front(), Some(&2));
    }

    #[test]
    fn letting_go_past_the_end_or_backwards_is_harmless() {
        let mut s = slots(3);
        s.let_go(1, |_, _| false);
        s.let_go(0, |_, _| true);
        s.let_go(99, |_, _| false);
        assert_eq!(s.len(), 3);
        assert_eq!(s.held(), 0);
        assert!(!s.is_empty() && s.last().is_none());
        s.push_back(3);
        assert_eq!(s.get(3), Some(&3));
    }

    #[test]
    #[should_panic(expected = "slot 0 of 2 is not held")]
    fn indexing_a_slot_let_go_of_panics_as_past_the_end_does() {
        let mut s = slots(2);
        s.let_go(1, |_, _| false);
        let _ = s[0];
    }
}
