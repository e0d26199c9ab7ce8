//! Ordered parallel map over a slice on scoped threads: the one place deck
//! spreads independent, CPU-bound work (files of a diff, cards of a
//! headless render) over the cores. Results come back in input order, so
//! callers stay deterministic.

use std::sync::atomic::{AtomicUsize, Ordering};

/// Threads to use: the cores available, at most 8. Asked of the system
/// once: the answer reads cgroup files, a quarter of a small card's layout.
pub fn threads() -> usize {
    static THREADS: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *THREADS.get_or_init(|| {
        std::thread::available_parallelism()
            .map_or(1, |t| t.get())
            .min(8)
    })
}

/// `items.iter().map(f).collect()`, on every core when there are at least
/// `min` items (else on this thread). Items are handed out one at a time,
/// so uneven items still balance.
pub fn map<T: Sync, R: Send>(items: &[T], min: usize, f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = threads().min(items.len());
    if threads < 2 || items.len() < min.max(2) {
        return items.iter().map(f).collect();
    }
    let next = AtomicUsize::new(0);
    let work = || {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(item) = items.get(i) else {
                return done;
            };
            done.push((i, f(item)));
        }
    };
    let mut all: Vec<(usize, R)> = std::thread::scope(|s| {
        let helpers: Vec<_> = (1..threads).map(|_| s.spawn(work)).collect();
        let mut all = work();
        for h in helpers {
            match h.join() {
                Ok(part) => all.extend(part),
                // A panic in `f` is a bug: surface it on the caller's thread.
                Err(e) => std::panic::resume_unwind(e),
            }
        }
        all
    });
    all.sort_unstable_by_key(|(i, _)| *i);
    all.into_iter().map(|(_, r)| r).collect()
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
}
