//! [`Keys`]: a set of fixed-size keys (hashes of ids) held at about their
//! own size — for readers of long logs that must remember every id they
//! saw (the fold's retired calls and messages, the Claude Code reader's
//! calls and results) and nothing else of them.
//!
//! One sorted run and a small table of the newest keys, merged into the
//! run when it grows past a quarter of it (each key is copied O(1) times
//! per doubling). Keys are hashes, spread evenly: a lookup in the run
//! guesses where its key sits (interpolation search, a few probes) and
//! falls back to halving if the guesses do not close in.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hash, Hasher};

/// A key [`Keys`] holds: ordered, and spread evenly over `u64` by
/// [`Key::spread`] (the keys are hashes).
pub trait Key: Ord + Copy + Hash + Eq {
    /// Where the key sits among all keys, scaled to `u64`.
    fn spread(self) -> u64;
}

impl Key for u64 {
    fn spread(self) -> u64 {
        self
    }
}

impl Key for u128 {
    fn spread(self) -> u64 {
        (self >> 64) as u64
    }
}

/// The keys are hashes already: the table uses their bits as they are.
#[derive(Default)]
struct AsIs(u64);

impl Hasher for AsIs {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 ^= n;
    }

    fn write_u128(&mut self, n: u128) {
        self.0 ^= (n >> 64) as u64 ^ n as u64;
    }
}

/// A set of keys, each held at about its size (8 bytes for a `u64`).
#[derive(Debug, Clone)]
pub struct Keys<T> {
    /// Sorted.
    run: Vec<T>,
    /// The newest keys, not in `run`.
    table: HashSet<T, BuildHasherDefault<AsIs>>,
}

impl<T> Default for Keys<T> {
    fn default() -> Keys<T> {
        Keys {
            run: Vec::new(),
            table: HashSet::default(),
        }
    }
}

impl<T: Key> Keys<T> {
    /// Whether `key` is in.
    pub fn contains(&self, key: T) -> bool {
        self.table.contains(&key) || find(&self.run, key)
    }

    /// Put `key` in; false when it was in already.
    pub fn insert(&mut self, key: T) -> bool {
        if find(&self.run, key) || !self.table.insert(key) {
            return false;
        }
        if self.table.len() > (self.run.len() / 4).max(1024) {
            let mut new: Vec<T> = self.table.drain().collect();
            new.sort_unstable();
            self.run = merge(&self.run, &new);
            self.table.shrink_to(1024);
        }
        true
    }

    /// No key is in.
    pub fn is_empty(&self) -> bool {
        self.run.is_empty() && self.table.is_empty()
    }

    /// How many keys are in.
    pub fn len(&self) -> usize {
        self.run.len() + self.table.len()
    }
}

/// Whether sorted `run` holds `key`: a few guesses where it sits, then
/// halving.
fn find<T: Key>(run: &[T], key: T) -> bool {
    let (mut lo, mut hi) = (0, run.len());
    for _ in 0..4 {
        if lo >= hi {
            return false;
        }
        let (first, last) = (run[lo], run[hi - 1]);
        if key < first || key > last {
            return false;
        }
        let (a, b, k) = (first.spread(), last.spread(), key.spread());
        let width = (hi - 1 - lo) as u128;
        let at = match b - a {
            0 => lo,
            span => lo + (u128::from(k - a) * width / u128::from(span)) as usize,
        };
        match run[at].cmp(&key) {
            std::cmp::Ordering::Equal => return true,
            std::cmp::Ordering::Less => lo = at + 1,
            std::cmp::Ordering::Greater => hi = at,
        }
    }
    run[lo..hi].binary_search(&key).is_ok()
}

fn merge<T: Ord + Copy>(a: &[T], b: &[T]) -> Vec<T> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if a[i] <= b[j] {
            out.push(a[i]);
            i += 1;
        } else {
            out.push(b[j]);
            j += 1;
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

#[cfg(test)]
mod tests {
    use super::{Keys, find};
    use std::collections::HashSet;
    use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};

    fn hash(i: u64) -> u64 {
        BuildHasherDefault::<DefaultHasher>::default().hash_one(i)
    }

    #[test]
    fn holds_what_a_set_holds() {
        let mut keys = Keys::default();
        let mut set = HashSet::new();
        // Hashes with repeats, past several merges.
        for i in 0u64..20_000 {
            let k = hash(i % 9001);
            assert_eq!(keys.insert(k), set.insert(k), "{i}");
        }
        assert_eq!(keys.len(), set.len());
        assert!(keys.run.len() > 4000 && keys.run.is_sorted());
        for i in 0..10_000 {
            assert_eq!(keys.contains(hash(i)), i < 9001, "{i}");
        }
        // 128-bit keys.
        let mut wide = Keys::default();
        for i in 0u128..5000 {
            assert!(wide.insert((u128::from(hash(i as u64)) << 64) | i));
        }
        assert!(wide.contains((u128::from(hash(7)) << 64) | 7));
        assert!(!wide.contains((u128::from(hash(7)) << 64) | 8));
    }

    #[test]
    fn keys_not_spread_evenly_are_still_found() {
        // Squares, and runs of equal spreads: the guesses miss, halving finds.
        let run: Vec<u64> = (0..5000u64).map(|i| i * i).collect();
        assert!((0..5000u64).all(|i| find(&run, i * i)));
        assert!(!find(&run, 2) && !find(&run, u64::MAX));
        let same: Vec<u128> = (0..300u128).map(|i| (5 << 64) | i).collect();
        assert!(same.iter().all(|&k| find(&same, k)) && !find(&same, 4 << 64));
    }
}
