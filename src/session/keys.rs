//! [`Keys`]: a set of fixed-size keys (hashes of ids) held at about their
//! own size — for readers of long logs that must remember every id they
//! saw (the fold's retired calls and messages, the Claude Code reader's
//! calls and results) and nothing else of them.
//!
//! One sorted run and a small table of the newest keys, merged into the
//! run when it grows past a quarter of it (each key is copied O(1) times
//! per doubling). Keys are hashes, spread evenly: a directory of where
//! each slice of the key space starts in the run (4 bytes for about 4
//! keys) sends a lookup to the few keys it may be among, then halving
//! finds it there (a slice holding many keys — they were not hashes —
//! costs a longer halving, never a wrong answer).

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
    /// Where in `run` each of the `2^bits` slices of the key space (by its
    /// spread's top bits) starts, and its end: `2^bits + 1` entries.
    dir: Vec<u32>,
    bits: u32,
    /// The newest keys, not in `run`.
    table: HashSet<T, BuildHasherDefault<AsIs>>,
}

impl<T> Default for Keys<T> {
    fn default() -> Keys<T> {
        Keys {
            run: Vec::new(),
            dir: Vec::new(),
            bits: 0,
            table: HashSet::default(),
        }
    }
}

impl<T: Key> Keys<T> {
    /// Whether `key` is in.
    pub fn contains(&self, key: T) -> bool {
        self.table.contains(&key) || self.in_run(key)
    }

    /// Put `key` in; false when it was in already.
    pub fn insert(&mut self, key: T) -> bool {
        if self.in_run(key) || !self.table.insert(key) {
            return false;
        }
        if self.table.len() > (self.run.len() / 4).max(1024) {
            let mut new: Vec<T> = self.table.drain().collect();
            new.sort_unstable();
            self.run = merge(&self.run, &new);
            self.table.shrink_to(1024);
            self.index();
        }
        true
    }

    /// The run's directory made anew: about 4 keys a slice.
    fn index(&mut self) {
        let n = self.run.len();
        self.bits = (n / 4).max(1).ilog2().min(24);
        let slices = 1usize << self.bits;
        self.dir.clear();
        self.dir.reserve(slices + 1);
        let mut i = 0;
        for j in 0..slices {
            while i < n && self.slice(self.run[i]) < j {
                i += 1;
            }
            self.dir.push(i as u32);
        }
        self.dir.push(n as u32);
    }

    /// The slice of the key space `key` is in.
    fn slice(&self, key: T) -> usize {
        match self.bits {
            0 => 0,
            b => (key.spread() >> (64 - b)) as usize,
        }
    }

    /// Whether the run holds `key`.
    fn in_run(&self, key: T) -> bool {
        let j = self.slice(key);
        match (self.dir.get(j), self.dir.get(j + 1)) {
            (Some(&a), Some(&b)) => self.run[a as usize..b as usize].binary_search(&key).is_ok(),
            _ => false,
        }
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
    use super::Keys;
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
        // Squares (all in the lowest slices), and keys of one spread: a
        // slice holds many, halving finds them.
        let mut squares = Keys::default();
        for i in 0..5000u64 {
            assert!(squares.insert(i * i));
        }
        assert!((0..5000u64).all(|i| squares.contains(i * i)));
        assert!(!squares.contains(2) && !squares.contains(u64::MAX));
        let mut same = Keys::default();
        for i in 0..3000u128 {
            assert!(same.insert((5 << 64) | i));
        }
        assert!((0..3000u128).all(|i| same.contains((5 << 64) | i)));
        assert!(!same.contains(4 << 64) && !same.contains((5 << 64) | 3000));
        assert!(!same.run.is_empty(), "merged into the run");
    }
}
