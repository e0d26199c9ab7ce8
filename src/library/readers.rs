//! The files of an update read on threads of their own (the loader and
//! the fold use the rayon pool themselves, and wait on it, so files are
//! not spread over the pool), two at once while they are small together:
//! a file is read only while the files being read with it and itself stay
//! under [`READ_TOGETHER`] bytes, else alone — what a read holds is a few
//! times its file, so two large files read at once would cost twice the
//! largest.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};

/// Files read at once at most.
const READERS: usize = 2;

/// Bytes of files read at once at most, unless one file alone is larger
/// (then it is read alone).
pub(super) const READ_TOGETHER: u64 = 128 << 20;

/// The bytes of the files being read.
struct Gate {
    reading: Mutex<u64>,
    left: Condvar,
}

/// A file's bytes counted in the [`Gate`] while it is read.
struct Entered<'a> {
    gate: &'a Gate,
    size: u64,
}

impl Gate {
    /// Wait until `size` more bytes may be read (at once if none are).
    fn enter(&self, size: u64) -> Entered<'_> {
        let mut reading = self.reading.lock().unwrap_or_else(|e| e.into_inner());
        while *reading > 0 && reading.saturating_add(size) > READ_TOGETHER {
            reading = self.left.wait(reading).unwrap_or_else(|e| e.into_inner());
        }
        *reading += size;
        Entered { gate: self, size }
    }
}

impl Drop for Entered<'_> {
    fn drop(&mut self) {
        let mut reading = self.gate.reading.lock().unwrap_or_else(|e| e.into_inner());
        *reading -= self.size;
        self.gate.left.notify_all();
    }
}

/// `f` on each of `items` (of `size_of` bytes), on [`READERS`] threads
/// taking the next item as they finish one, under [`READ_TOGETHER`]
/// together; the first error stops them.
pub(super) fn each_on_threads<T: Sync, E: Send>(
    items: &[T],
    size_of: impl Fn(&T) -> u64 + Sync,
    f: impl Fn(&T) -> Result<(), E> + Sync,
) -> Result<(), E> {
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let gate = Gate {
        reading: Mutex::new(0),
        left: Condvar::new(),
    };
    let work = || -> Result<(), E> {
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(item) = items.get(i) else {
                return Ok(());
            };
            let _reading = gate.enter(size_of(item));
            if failed.load(Ordering::Relaxed) {
                return Ok(());
            }
            if let Err(e) = f(item) {
                failed.store(true, Ordering::Relaxed);
                return Err(e);
            }
        }
    };
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..READERS.min(items.len()))
            .map(|_| s.spawn(work))
            .collect();
        let mut out = Ok(());
        for h in handles {
            match h.join() {
                Ok(Err(e)) if out.is_ok() => out = Err(e),
                Ok(_) => {}
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        out
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The most items `f` ran on at once, over `sizes`: each waits (up to
    /// `wait`) until two have run at once.
    fn most_at_once(sizes: &[u64], wait: std::time::Duration) -> usize {
        let now = AtomicUsize::new(0);
        let most = AtomicUsize::new(0);
        each_on_threads(
            sizes,
            |s| *s,
            |_| -> Result<(), ()> {
                let n = now.fetch_add(1, Ordering::SeqCst) + 1;
                most.fetch_max(n, Ordering::SeqCst);
                let start = std::time::Instant::now();
                while most.load(Ordering::SeqCst) < 2 && start.elapsed() < wait {
                    most.fetch_max(now.load(Ordering::SeqCst), Ordering::SeqCst);
                    std::thread::sleep(std::time::Duration::from_millis(1));
                }
                now.fetch_sub(1, Ordering::SeqCst);
                Ok(())
            },
        )
        .unwrap();
        most.into_inner()
    }

    #[test]
    fn large_files_are_read_alone_small_ones_two_at_once() {
        let (short, long) = (
            std::time::Duration::from_millis(100),
            std::time::Duration::from_secs(10),
        );
        let big = READ_TOGETHER / 2 + 1;
        assert_eq!(most_at_once(&[big, big, big], short), 1);
        assert_eq!(most_at_once(&[READ_TOGETHER * 3, 10], short), 1);
        assert_eq!(most_at_once(&[10, READ_TOGETHER * 3], short), 1);
        assert_eq!(most_at_once(&[10, 10, 10, 10], long), 2);
    }

    #[test]
    fn the_first_error_stops_the_readers() {
        let done = AtomicUsize::new(0);
        let r = each_on_threads(
            &[1u64; 50],
            |s| *s,
            |_| {
                if done.fetch_add(1, Ordering::SeqCst) == 3 {
                    return Err("no");
                }
                Ok(())
            },
        );
        assert_eq!(r, Err("no"));
        assert!(done.load(Ordering::SeqCst) < 50);
    }
}
