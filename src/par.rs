//! Ordered parallel map over a slice, on rayon's pool: the one place deck
//! spreads independent, CPU-bound work (files of a diff, cards of a
//! headless render) over the cores. Results come back in input order, so
//! callers stay deterministic; nested maps share the one pool (no thread
//! is started per call).

use rayon::prelude::*;

/// Threads to use: the size of rayon's pool (the cores available).
pub fn threads() -> usize {
    rayon::current_num_threads()
}

/// `items.iter().map(f).collect()`, on every core when there are at least
/// `min` items (else on this thread).
pub fn map<T: Sync, R: Send>(items: &[T], min: usize, f: impl Fn(&T) -> R + Sync + Send) -> Vec<R> {
    if threads() < 2 || items.len() < min.max(2) {
        return items.iter().map(f).collect();
    }
    // One item at a time, so uneven items still balance.
    items.par_iter().with_max_len(1).map(f).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_order_and_every_item() {
        let items: Vec<u64> = (0..1000).collect();
        let out = map(&items, 1, |&i| {
            // Uneven work, so threads finish out of order.
            (0..(i % 7) * 1000).fold(i, |a, b| a.wrapping_add(b % 3))
        });
        let want: Vec<u64> = items
            .iter()
            .map(|&i| (0..(i % 7) * 1000).fold(i, |a, b| a.wrapping_add(b % 3)))
            .collect();
        assert_eq!(out, want);
    }

    #[test]
    fn small_inputs_and_empty() {
        assert_eq!(map(&[] as &[u8], 0, |&b| b), Vec::<u8>::new());
        assert_eq!(map(&[3u8], 0, |&b| b * 2), vec![6]);
    }

    #[test]
    fn nested_maps_share_the_pool() {
        // A map inside a map (files of a diff inside items of a render).
        let outer: Vec<u64> = (0..8).collect();
        let got = map(&outer, 1, |&o| {
            let inner: Vec<u64> = (0..50).collect();
            map(&inner, 1, |&i| o * 100 + i).iter().sum::<u64>()
        });
        let want: Vec<u64> = outer
            .iter()
            .map(|&o| (0..50).map(|i| o * 100 + i).sum())
            .collect();
        assert_eq!(got, want);
    }
}
