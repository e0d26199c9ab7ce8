//! The line diff of one file, in work linear in its size.
//!
//! Myers' diff costs (N+M)·D steps for D changes: fine for an edit, minutes
//! for two unrelated 60 KB files. So a region is diffed by Myers only when
//! a probe finds its D small enough for the steps left in the file's budget
//! ([`BUDGET_BASE`] plus [`BUDGET_PER_LINE`] a line); otherwise lines that
//! occur once on each side anchor it (patience: their longest increasing
//! run) and the regions between anchors are diffed the same way. A region
//! the budget cannot afford, or with no anchor, is shown removed and added
//! whole, and counted, so the card can say its diff is approximate. The
//! steps are counted, never timed: same texts, same diff, on any machine.

use std::collections::HashMap;
use std::ops::Range;

use similar::{Algorithm, DiffOp, capture_diff_slices};

/// Steps every file may spend, whatever its size.
pub const BUDGET_BASE: u64 = 2_000_000;
/// Steps more for each line (old and new).
pub const BUDGET_PER_LINE: u64 = 200;

/// A diff and how many regions in it were not compared line by line.
#[derive(Debug, Clone, PartialEq)]
pub struct Diffed {
    pub ops: Vec<DiffOp>,
    pub whole: usize,
}

/// The line diff of `old` and `new` (tokens compared as they are).
pub fn diff(old: &[&str], new: &[&str]) -> Diffed {
    let budget = BUDGET_BASE + BUDGET_PER_LINE * (old.len() + new.len()) as u64;
    diff_with_budget(old, new, budget)
}

/// [`diff`] with its budget given.
pub fn diff_with_budget<'s>(old: &[&'s str], new: &[&'s str], budget: u64) -> Diffed {
    // Lines as numbers: equal lines, equal numbers.
    let mut ids: HashMap<&'s str, u32> = HashMap::with_capacity(old.len() + new.len());
    let mut intern = |l: &&'s str| {
        let next = ids.len() as u32;
        *ids.entry(*l).or_insert(next)
    };
    let a: Vec<u32> = old.iter().map(&mut intern).collect();
    let b: Vec<u32> = new.iter().map(&mut intern).collect();
    let mut d = Differ {
        a: &a,
        b: &b,
        fuel: budget,
        ops: Vec::new(),
        whole: 0,
    };
    d.run();
    Diffed {
        ops: d.ops,
        whole: d.whole,
    }
}

struct Differ<'a> {
    a: &'a [u32],
    b: &'a [u32],
    fuel: u64,
    ops: Vec<DiffOp>,
    whole: usize,
}

/// What is left to do, in order.
enum Task {
    Diff(Range<usize>, Range<usize>),
    Equal { old: usize, new: usize, len: usize },
}

impl Differ<'_> {
    fn run(&mut self) {
        let mut todo = vec![Task::Diff(0..self.a.len(), 0..self.b.len())];
        while let Some(task) = todo.pop() {
            match task {
                Task::Equal { old, new, len } => self.push(DiffOp::Equal {
                    old_index: old,
                    new_index: new,
                    len,
                }),
                Task::Diff(a, b) => self.region(a, b, &mut todo),
            }
        }
    }

    /// Diff one region: by Myers when it is affordable, else split at
    /// anchors (pushed on `todo` in reverse order), else whole.
    fn region(&mut self, a: Range<usize>, b: Range<usize>, todo: &mut Vec<Task>) {
        let (x, y) = (&self.a[a.clone()], &self.b[b.clone()]);
        // The common start and end cost a comparison a line.
        let pre = x.iter().zip(y).take_while(|(p, q)| p == q).count();
        let suf = x[pre..]
            .iter()
            .rev()
            .zip(y[pre..].iter().rev())
            .take_while(|(p, q)| p == q)
            .count();
        self.fuel = self.fuel.saturating_sub((pre + suf) as u64);
        if pre > 0 {
            self.push(DiffOp::Equal {
                old_index: a.start,
                new_index: b.start,
                len: pre,
            });
        }
        if suf > 0 {
            todo.push(Task::Equal {
                old: a.end - suf,
                new: b.end - suf,
                len: suf,
            });
        }
        let a = a.start + pre..a.end - suf;
        let b = b.start + pre..b.end - suf;
        match (a.is_empty(), b.is_empty()) {
            (true, true) => return,
            (true, false) => {
                return self.push(DiffOp::Insert {
                    old_index: a.start,
                    new_index: b.start,
                    new_len: b.len(),
                });
            }
            (false, true) => {
                return self.push(DiffOp::Delete {
                    old_index: a.start,
                    old_len: a.len(),
                    new_index: b.start,
                });
            }
            (false, false) => {}
        }
        let (x, y) = (&self.a[a.clone()], &self.b[b.clone()]);
        let n = (x.len() + y.len()) as u64;
        // A probe, then the diff: each costs about n·(D+1) steps.
        let d_max = (self.fuel / n / 2).min(n) as usize;
        if let Some(d) = distance_at_most(x, y, d_max) {
            self.fuel = self.fuel.saturating_sub(2 * n * (d as u64 + 1));
            for op in capture_diff_slices(Algorithm::Myers, x, y) {
                self.push(shift(op, a.start, b.start));
            }
            return;
        }
        self.fuel = self.fuel.saturating_sub(n * (d_max as u64 + 1));
        let anchors = if self.fuel >= n {
            self.fuel -= n;
            anchors(x, y)
        } else {
            Vec::new()
        };
        if anchors.is_empty() {
            self.whole += 1;
            return self.push(DiffOp::Replace {
                old_index: a.start,
                old_len: a.len(),
                new_index: b.start,
                new_len: b.len(),
            });
        }
        // Regions between anchors, last first (the stack pops the first).
        let mut end = (a.end, b.end);
        for &(i, j) in anchors.iter().rev() {
            let (i, j) = (a.start + i, b.start + j);
            todo.push(Task::Diff(i + 1..end.0, j + 1..end.1));
            todo.push(Task::Equal {
                old: i,
                new: j,
                len: 1,
            });
            end = (i, j);
        }
        todo.push(Task::Diff(a.start..end.0, b.start..end.1));
    }

    /// Append an op, joining it to an equal run it continues.
    fn push(&mut self, op: DiffOp) {
        if let (
            Some(DiffOp::Equal {
                old_index,
                new_index,
                len,
            }),
            DiffOp::Equal {
                old_index: o,
                new_index: n,
                len: l,
            },
        ) = (self.ops.last_mut(), &op)
            && *old_index + *len == *o
            && *new_index + *len == *n
        {
            *len += l;
            return;
        }
        self.ops.push(op);
    }
}

/// An op of a region, in the whole file's line numbers.
fn shift(op: DiffOp, old: usize, new: usize) -> DiffOp {
    match op {
        DiffOp::Equal {
            old_index,
            new_index,
            len,
        } => DiffOp::Equal {
            old_index: old_index + old,
            new_index: new_index + new,
            len,
        },
        DiffOp::Delete {
            old_index,
            old_len,
            new_index,
        } => DiffOp::Delete {
            old_index: old_index + old,
            old_len,
            new_index: new_index + new,
        },
        DiffOp::Insert {
            old_index,
            new_index,
            new_len,
        } => DiffOp::Insert {
            old_index: old_index + old,
            new_index: new_index + new,
            new_len,
        },
        DiffOp::Replace {
            old_index,
            old_len,
            new_index,
            new_len,
        } => DiffOp::Replace {
            old_index: old_index + old,
            old_len,
            new_index: new_index + new,
            new_len,
        },
    }
}

/// The edit distance D of `a` and `b` when it is at most `d_max` (Myers'
/// greedy forward search: at most (N+M)·(d_max+1) steps, O(d_max) memory).
pub fn distance_at_most(a: &[u32], b: &[u32], d_max: usize) -> Option<usize> {
    let (n, m) = (a.len() as isize, b.len() as isize);
    let off = d_max as isize + 1;
    let mut v = vec![0isize; 2 * d_max + 3];
    for d in 0..=d_max as isize {
        let mut k = -d;
        while k <= d {
            let at = |k: isize| (k + off) as usize;
            let mut x = if k == -d || (k != d && v[at(k - 1)] < v[at(k + 1)]) {
                v[at(k + 1)]
            } else {
                v[at(k - 1)] + 1
            };
            let mut y = x - k;
            while x < n && y < m && a[x as usize] == b[y as usize] {
                x += 1;
                y += 1;
            }
            v[at(k)] = x;
            if x >= n && y >= m {
                return Some(d as usize);
            }
            k += 2;
        }
    }
    None
}

/// Lines that occur exactly once in `a` and once in `b`, as (i, j) pairs,
/// their longest run increasing on both sides (patience anchors).
fn anchors(a: &[u32], b: &[u32]) -> Vec<(usize, usize)> {
    // line → (count in a, index in a, count in b, index in b)
    let mut seen: HashMap<u32, (u32, usize, u32, usize)> = HashMap::new();
    for (i, &l) in a.iter().enumerate() {
        let e = seen.entry(l).or_insert((0, i, 0, 0));
        e.0 += 1;
        e.1 = i;
    }
    for (j, &l) in b.iter().enumerate() {
        if let Some(e) = seen.get_mut(&l) {
            e.2 += 1;
            e.3 = j;
        }
    }
    let mut pairs: Vec<(usize, usize)> = seen
        .values()
        .filter(|e| e.0 == 1 && e.2 == 1)
        .map(|e| (e.1, e.3))
        .collect();
    pairs.sort_unstable();
    longest_increasing(&pairs)
}

/// The longest run of `pairs` (sorted by their first) whose seconds increase
/// (patience sorting, O(n log n)).
fn longest_increasing(pairs: &[(usize, usize)]) -> Vec<(usize, usize)> {
    // tails[k]: index of the pair ending the best run of length k+1.
    let mut tails: Vec<usize> = Vec::new();
    let mut prev: Vec<Option<usize>> = vec![None; pairs.len()];
    for (i, &(_, j)) in pairs.iter().enumerate() {
        let k = tails.partition_point(|&t| pairs[t].1 < j);
        if k > 0 {
            prev[i] = Some(tails[k - 1]);
        }
        if k == tails.len() {
            tails.push(i);
        } else {
            tails[k] = i;
        }
    }
    let mut out = Vec::with_capacity(tails.len());
    let mut at = tails.last().copied();
    while let Some(i) = at {
        out.push(pairs[i]);
        at = prev[i];
    }
    out.reverse();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Apply `ops` to `old`, taking inserted lines from `new`: a diff is
    /// correct when this gives `new` back.
    fn apply<'s>(ops: &[DiffOp], old: &[&'s str], new: &[&'s str]) -> Vec<&'s str> {
        let mut out = Vec::new();
        let (mut o, mut n) = (0, 0);
        for op in ops {
            assert_eq!(op.old_range().start, o, "ops are in order: {ops:?}");
            assert_eq!(op.new_range().start, n, "ops are in order: {ops:?}");
            match op {
                DiffOp::Equal { len, .. } => {
                    assert_eq!(old[o..o + len], new[n..n + len]);
                    out.extend(&old[o..o + len]);
                }
                _ => out.extend(&new[op.new_range()]),
            }
            o = op.old_range().end;
            n = op.new_range().end;
        }
        assert_eq!((o, n), (old.len(), new.len()));
        out
    }

    fn lines(s: &str) -> Vec<&str> {
        s.lines().collect()
    }

    #[test]
    fn small_diffs_are_myers_exactly() {
        let old = lines("a\nb\nc\nd\ne\nf");
        let new = lines("a\nc\nd\nX\ne\nf\ng");
        let got = diff(&old, &new);
        let want = capture_diff_slices(Algorithm::Myers, &old, &new);
        assert_eq!(got.whole, 0);
        assert_eq!(apply(&got.ops, &old, &new), new);
        // Same changes as similar's Myers.
        let changed = |ops: &[DiffOp]| {
            ops.iter()
                .filter(|o| !matches!(o, DiffOp::Equal { .. }))
                .map(|o| (o.old_range().len(), o.new_range().len()))
                .fold((0, 0), |s, c| (s.0 + c.0, s.1 + c.1))
        };
        assert_eq!(changed(&got.ops), changed(&want));
    }

    #[test]
    fn unrelated_texts_cost_the_budget_not_the_square() {
        // Lines from a small alphabet, in random orders: Myers would take
        // (N+M)·D ≈ 3·10^8 steps here.
        let alpha = ["}", "", "    }", "x += 1;", "{", "end", "// -", "return;"];
        let mut seed = 7u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            alpha[(seed >> 33) as usize % alpha.len()]
        };
        let old: Vec<&str> = (0..9_000).map(|_| next()).collect();
        let new: Vec<&str> = (0..9_000).map(|_| next()).collect();
        let got = diff_with_budget(&old, &new, 1_000_000);
        assert!(got.whole > 0, "no anchors, no budget: shown whole");
        assert_eq!(apply(&got.ops, &old, &new), new);
        // The same again: counted steps, not time.
        assert_eq!(diff_with_budget(&old, &new, 1_000_000), got);
    }

    #[test]
    fn unique_lines_anchor_a_big_rewrite() {
        // Every line unique, a change every 7 lines, shuffled blocks: the
        // budget forbids Myers on the whole, anchors split it.
        let old: Vec<String> = (0..20_000).map(|i| format!("line {i}")).collect();
        let mut new = old.clone();
        for i in (0..new.len()).step_by(7) {
            new[i] = format!("changed {i}");
        }
        let old: Vec<&str> = old.iter().map(String::as_str).collect();
        let new: Vec<&str> = new.iter().map(String::as_str).collect();
        let got = diff_with_budget(&old, &new, 200_000);
        assert_eq!(got.whole, 0);
        assert_eq!(apply(&got.ops, &old, &new), new);
        let removed: usize = got
            .ops
            .iter()
            .filter(|o| !matches!(o, DiffOp::Equal { .. }))
            .map(|o| o.old_range().len())
            .sum();
        assert_eq!(removed, 20_000 / 7 + 1, "exactly the changed lines");
    }

    #[test]
    fn distance_probe_and_increasing_runs() {
        assert_eq!(distance_at_most(&[1, 2, 3], &[1, 2, 3], 0), Some(0));
        assert_eq!(distance_at_most(&[1, 2, 3], &[1, 3], 5), Some(1));
        assert_eq!(distance_at_most(&[1, 2], &[3, 4], 3), None);
        assert_eq!(distance_at_most(&[1, 2], &[3, 4], 4), Some(4));
        assert_eq!(
            longest_increasing(&[(0, 5), (1, 1), (2, 2), (3, 9), (4, 3)]),
            vec![(1, 1), (2, 2), (4, 3)]
        );
    }
}
