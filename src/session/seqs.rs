//! The seqs a transcript has applied, to skip an event seen twice.

use std::collections::HashSet;

/// Seqs applied: a bitset for the dense range every session uses, a set for
/// anything beyond (cheap to clone either way).
#[derive(Debug, Clone, Default)]
pub(super) struct SeqSet {
    bits: Vec<u64>,
    far: HashSet<u64>,
}

impl SeqSet {
    const DENSE: u64 = 1 << 24;

    /// Insert; false when already present.
    pub(super) fn insert(&mut self, seq: u64) -> bool {
        if seq >= Self::DENSE {
            return self.far.insert(seq);
        }
        let (w, b) = ((seq / 64) as usize, seq % 64);
        if self.bits.len() <= w {
            self.bits.resize(w + 1, 0);
        }
        let had = self.bits[w] & (1 << b) != 0;
        self.bits[w] |= 1 << b;
        !had
    }
}
