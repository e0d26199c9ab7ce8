//! Line decoding, streamed and spread over the cores.
//!
//! A reader thread cuts the input into blocks of whole lines (a few MB
//! each), rayon's pool decodes the blocks' lines (with a [`DecodeLine`]:
//! the loader's, `load::decode::Lines`), and the calling thread gets the
//! decoded lines back in input order. Lines decode independently, so this
//! is the part of loading that scales; the fold that follows stays
//! ordered. Memory stays bounded: at most a few blocks are in flight, and
//! the input is never held whole.

use std::collections::BTreeMap;
use std::io::{self, Read};
use std::sync::mpsc::{channel, sync_channel};

use super::lines::{LineSplitter, Piece};
use crate::wire::Origin;

/// Bytes read per block (a longer line makes a longer block). 1 MiB, not
/// 4: what a block decodes to (an agent's lines as trees) is held until the
/// reader takes it, a few blocks at once — 4 MiB blocks held ~40 MB more
/// of them, no faster (measured on the 100 MB logs, 2026-12-04).
const BLOCK: usize = 1 << 20;
/// The first block's: the first lines are decoded (and shown) at once,
/// not after a whole block is read; each block after is 4× the one before,
/// up to [`BLOCK`].
const FIRST_BLOCK: usize = 64 << 10;

/// What turns the lines of a block into what they stand for, on the
/// pool's threads.
pub trait DecodeLine: Sync {
    /// What a line decodes to.
    type Line: Send;
    /// What a block's lines share as they are decoded in order (what the
    /// line before was), fresh for each block.
    type State: Default;
    /// Decode `piece` (`last`: it ends the input without a newline; a
    /// piece cut at `limit` bytes has its whole length in `cut`).
    fn decode(&self, piece: &Piece<'_>, last: bool, limit: usize, state: &mut Self::State) -> Self::Line;
}

struct Job {
    index: usize,
    bytes: Vec<u8>,
    /// Lines before this block, and its byte offset in the input.
    line: usize,
    offset: u64,
    /// The input ended with this block (its last line may lack a newline).
    last: bool,
    /// One line over the limit: `bytes` is its head, this its length.
    cut: Option<u64>,
}

/// What the reader saw: lines in all, and the read error that ended the
/// input early, with the bytes read before it.
pub struct Outcome {
    pub lines: usize,
    pub error: Option<(u64, io::Error)>,
}

/// Decode the lines of a job.
fn decode_job<D: DecodeLine>(job: &Job, limit: usize, decoder: &D) -> Vec<D::Line> {
    let origin = Origin {
        line: job.line + 1,
        offset: job.offset,
    };
    let mut state = D::State::default();
    if let Some(len) = job.cut {
        let piece = Piece {
            raw: &job.bytes,
            origin,
            cut: Some(len),
        };
        return vec![decoder.decode(&piece, job.last, limit, &mut state)];
    }
    // Room for every line at once: growing by doubling would move (and
    // fault in) the decoded lines again and again.
    let mut out = Vec::with_capacity(count_lines(&job.bytes, job.last));
    let mut lines = LineSplitter::starting_at(job.line, job.offset, limit);
    lines.feed(&job.bytes, |p| out.push(decoder.decode(&p, false, limit, &mut state)));
    if job.last {
        lines.finish(|p| out.push(decoder.decode(&p, true, limit, &mut state)));
    }
    out
}

/// Lines in a block (a last line without a newline counts).
fn count_lines(bytes: &[u8], last: bool) -> usize {
    let n = memchr::memchr_iter(b'\n', bytes).count();
    n + usize::from(last && !bytes.is_empty() && bytes.last() != Some(&b'\n'))
}

/// Read `input` to its end (after `head`, bytes already read from it),
/// decoding every line with `decoder`; `sink` gets them in input order.
/// Lines over the limit ([`max_line`](super::limits::max_line)) are cut.
pub fn decode_stream<D: DecodeLine>(
    head: Vec<u8>,
    input: impl Read + Send,
    decoder: &D,
    sink: impl FnMut(D::Line),
) -> Outcome {
    decode_stream_limited(head, input, super::limits::max_line(), decoder, sink)
}

/// [`decode_stream`] with its own line limit (bytes).
pub fn decode_stream_limited<D: DecodeLine>(
    head: Vec<u8>,
    input: impl Read + Send,
    limit: usize,
    decoder: &D,
    mut sink: impl FnMut(D::Line),
) -> Outcome {
    // Blocks decoded at once at most: memory stays a few blocks.
    let most = 2 * crate::par::threads().max(1);
    let (job_tx, job_rx) = sync_channel::<Job>(most);
    let (res_tx, res_rx) = channel::<(usize, Vec<D::Line>)>();
    // Blocks decoded go back to the reader to be filled again: fresh memory
    // costs the kernel's zeroing of every page, block after block.
    let (free_tx, free_rx) = channel::<Vec<u8>>();
    std::thread::scope(|scope| {
        // Reading blocks on I/O: a thread of its own, not one of the pool's.
        let reader = scope.spawn(move || {
            let spare = || free_rx.try_recv().ok();
            read_blocks(head, input, limit, spare, |job| job_tx.send(job).is_ok())
        });
        rayon::in_place_scope(|pool| {
            let (mut next, mut in_flight, mut read_all) = (0usize, 0usize, false);
            let mut early: BTreeMap<usize, Vec<D::Line>> = BTreeMap::new();
            loop {
                while !read_all && in_flight < most {
                    match job_rx.recv() {
                        Ok(job) => {
                            let (tx, free) = (res_tx.clone(), free_tx.clone());
                            pool.spawn(move |_| {
                                let lines = decode_job(&job, limit, decoder);
                                // (A buffer grown for one long line is let go.)
                                if job.cut.is_none() && job.bytes.capacity() <= 2 * BLOCK {
                                    let _ = free.send(job.bytes);
                                }
                                let _ = tx.send((job.index, lines));
                            });
                            in_flight += 1;
                        }
                        Err(_) => read_all = true,
                    }
                }
                if in_flight == 0 {
                    break;
                }
                // Put blocks back in order as they come.
                let Ok((index, lines)) = res_rx.recv() else {
                    break;
                };
                in_flight -= 1;
                early.insert(index, lines);
                while let Some(lines) = early.remove(&next) {
                    lines.into_iter().for_each(&mut sink);
                    next += 1;
                }
            }
        });
        reader.join().unwrap_or(Outcome {
            lines: 0,
            error: Some((0, io::Error::other("the reader thread panicked"))),
        })
    })
}

/// Read until `buf` holds `want` bytes; true at the end of the input (or
/// at a read error, which goes to `error` with the input offset it hit).
pub(crate) fn fill(
    input: &mut impl Read,
    buf: &mut Vec<u8>,
    want: usize,
    offset: u64,
    error: &mut Option<(u64, io::Error)>,
) -> bool {
    // Exactly what is wanted: a line growing towards the limit must not
    // double its buffer past it.
    buf.reserve_exact(want.saturating_sub(buf.len()));
    while buf.len() < want {
        let start = buf.len();
        buf.resize(want, 0);
        match input.read(&mut buf[start..]) {
            Ok(0) => {
                buf.truncate(start);
                return true;
            }
            Ok(n) => buf.truncate(start + n),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => buf.truncate(start),
            Err(e) => {
                buf.truncate(start);
                *error = Some((offset + start as u64, e));
                return true;
            }
        }
    }
    false
}

/// Cut the input into blocks of whole lines; `send` returns false to stop.
/// A line that grows past `limit` without a newline is not held: its head
/// goes out as a job of its own and the rest is read and dropped.
///
/// `spare` lends a buffer of a block already decoded, to read the next
/// block into (`None`: a new one is made).
fn read_blocks(
    mut buf: Vec<u8>,
    mut input: impl Read,
    limit: usize,
    spare: impl Fn() -> Option<Vec<u8>>,
    mut send: impl FnMut(Job) -> bool,
) -> Outcome {
    let (mut index, mut line, mut offset) = (0, 0, 0u64);
    let mut error = None;
    let mut scan_from = 0;
    let mut block = FIRST_BLOCK;
    let mut want = block;
    loop {
        let eof = fill(&mut input, &mut buf, want, offset, &mut error);
        let newline = memchr::memrchr(b'\n', &buf[scan_from..]).map(|i| scan_from + i + 1);
        let cut = match (eof, newline) {
            (true, _) => buf.len(),
            (false, Some(c)) => c,
            (false, None) if buf.len() > limit => {
                // All of `buf` is one line, over the limit.
                let skipped = skip_line(&mut input, buf, limit, offset, &mut error);
                let job = Job {
                    index,
                    bytes: skipped.head,
                    line,
                    offset,
                    last: skipped.ended,
                    cut: Some(skipped.len),
                };
                index += 1;
                line += 1;
                offset += skipped.len + u64::from(!skipped.ended);
                if !send(job) || skipped.ended {
                    return Outcome { lines: line, error };
                }
                buf = skipped.rest;
                scan_from = 0;
                want = BLOCK.max(buf.len() + (64 << 10));
                continue;
            }
            (false, None) => {
                // One line longer than a block (but within the limit): read
                // on, into room for the whole limit reserved once (memory is
                // only used as it is read), so the buffer is never copied
                // to grow.
                scan_from = buf.len();
                want = buf.len() + BLOCK;
                let room = limit.saturating_add(BLOCK);
                if buf.capacity() < room {
                    buf.reserve_exact(room - buf.len());
                }
                continue;
            }
        };
        // What follows the block's last newline starts the next buffer.
        let rest = match spare() {
            Some(mut next) => {
                next.clear();
                next.extend_from_slice(&buf[cut..]);
                buf.truncate(cut);
                next
            }
            None => buf.split_off(cut),
        };
        let n = count_lines(&buf, eof);
        let len = buf.len() as u64;
        let job = Job {
            index,
            bytes: std::mem::replace(&mut buf, rest),
            line,
            offset,
            last: eof,
            cut: None,
        };
        index += 1;
        line += n;
        offset += len;
        if !send(job) || eof {
            return Outcome { lines: line, error };
        }
        scan_from = buf.len();
        block = (block * 4).min(BLOCK);
        want = block.max(buf.len() + (64 << 10));
    }
}

/// A line skipped past the limit.
struct Skipped {
    /// Its first bytes, for the diagnostic.
    head: Vec<u8>,
    /// Its length, without the newline.
    len: u64,
    /// The input ended inside it.
    ended: bool,
    /// What was read after its newline.
    rest: Vec<u8>,
}

/// Read and drop the rest of a line whose first `buf.len()` bytes are read
/// (it started at input `offset`), a block at a time.
fn skip_line(
    input: &mut impl Read,
    mut buf: Vec<u8>,
    limit: usize,
    offset: u64,
    error: &mut Option<(u64, io::Error)>,
) -> Skipped {
    let head = buf[..super::limits::CUT_HEAD.min(limit).min(buf.len())].to_vec();
    let mut len = buf.len() as u64;
    loop {
        buf.clear();
        let eof = fill(input, &mut buf, BLOCK, offset + len, error);
        if let Some(i) = memchr::memchr(b'\n', &buf) {
            len += i as u64;
            return Skipped {
                head,
                len,
                ended: false,
                rest: buf.split_off(i + 1),
            };
        }
        len += buf.len() as u64;
        if eof {
            return Skipped {
                head,
                len,
                ended: true,
                rest: Vec::new(),
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines as these tests see them: a JSON one is `ok`, any other is its
    /// text, one cut at the limit the reason it was cut; with its origin.
    struct Texts;

    impl DecodeLine for Texts {
        type Line = (String, usize, u64);
        type State = ();

        fn decode(&self, p: &Piece<'_>, last: bool, limit: usize, _: &mut ()) -> Self::Line {
            let text = match p.cut {
                Some(len) => super::super::limits::cut_reason(len, limit, last),
                None if serde_json::from_slice::<serde::de::IgnoredAny>(p.raw).is_ok() => "ok".into(),
                None => String::from_utf8_lossy(p.raw).into_owned(),
            };
            (text, p.origin.line, p.origin.offset)
        }
    }

    fn lines_of(input: &[u8]) -> (Vec<(usize, u64)>, Outcome) {
        let (lines, out) = texts_of(input);
        (lines.into_iter().map(|(l, o, _)| (l, o)).collect(), out)
    }

    /// The origin and text of each line.
    fn texts_of(input: &[u8]) -> (Vec<(usize, u64, String)>, Outcome) {
        let mut lines = Vec::new();
        let out = decode_stream_limited(Vec::new(), input, 64 << 20, &Texts, |(text, line, offset)| {
            lines.push((line, offset, text));
        });
        (lines, out)
    }

    #[test]
    fn lines_keep_their_numbers_offsets_and_text_across_blocks() {
        // Lines that do not decode report their origin and keep their
        // text: check every one, over blocks read into buffers used again.
        let mut input = Vec::new();
        let mut want = Vec::new();
        for i in 0..60_000usize {
            let text = format!("not json {i} {}", "x".repeat((i * 7919) % 700));
            want.push((i + 1, input.len() as u64, text.clone()));
            input.extend_from_slice(text.as_bytes());
            input.push(b'\n');
        }
        assert!(input.len() > 4 * BLOCK);
        let (got, out) = texts_of(&input);
        assert_eq!(got.len(), want.len());
        for (g, w) in got.iter().zip(&want) {
            assert_eq!(g, w);
        }
        assert_eq!(out.lines, 60_000);
        assert!(out.error.is_none());
    }

    #[test]
    fn a_line_longer_than_a_block_and_a_last_line_without_newline() {
        let long = format!("{}\n", "y".repeat(BLOCK * 2 + 5));
        let input = format!("a\n{long}b");
        let (got, out) = lines_of(input.as_bytes());
        assert_eq!(got, vec![(1, 0), (2, 2), (3, 2 + long.len() as u64)]);
        assert_eq!(out.lines, 3);
    }

    #[test]
    fn a_line_over_the_limit_is_cut_and_reading_goes_on() {
        // A 20 MB line under a 5 MB limit, between two good lines, and a
        // last line over the limit without a newline: each cut line is one
        // diagnostic at its place; the reader never holds a whole one.
        struct Gen(Vec<u8>, usize);
        impl Read for Gen {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                let n = buf.len().min(self.0.len() - self.1).min(1 << 16);
                buf[..n].copy_from_slice(&self.0[self.1..self.1 + n]);
                self.1 += n;
                Ok(n)
            }
        }
        let mut input = b"{\"type\":\"turn/start\",\"seq\":0,\"time\":1,\"data\":{}}\n".to_vec();
        let first = input.len() as u64;
        input.extend(std::iter::repeat_n(b'x', 20 << 20));
        input.push(b'\n');
        let third = input.len() as u64;
        input.extend_from_slice(b"{\"type\":\"turn/start\",\"seq\":1,\"time\":1,\"data\":{}}\n");
        let fourth = input.len() as u64;
        input.extend(std::iter::repeat_n(b'y', 6 << 20));
        let mut got = Vec::new();
        let out = decode_stream_limited(Vec::new(), Gen(input, 0), 5 << 20, &Texts, |line| {
            got.push(line)
        });
        assert_eq!(out.lines, 4);
        assert_eq!(got.len(), 4);
        assert_eq!(got[0].0, "ok");
        assert!(
            got[1].0.contains("20.0 MiB is over the 5.0 MiB line limit"),
            "{}",
            got[1].0
        );
        assert_eq!((got[1].1, got[1].2), (2, first));
        assert_eq!(got[2], ("ok".to_string(), 3, third));
        assert!(got[3].0.contains("ends the input"), "{}", got[3].0);
        assert_eq!((got[3].1, got[3].2), (4, fourth));
    }

    #[test]
    fn a_read_error_ends_the_input_with_what_was_read() {
        struct Failing(usize);
        impl Read for Failing {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                if self.0 == 0 {
                    return Err(io::Error::other("disk on fire"));
                }
                let n = buf.len().min(self.0);
                for (i, b) in buf[..n].iter_mut().enumerate() {
                    *b = if i % 10 == 9 { b'\n' } else { b'z' };
                }
                self.0 -= n;
                Ok(n)
            }
        }
        let mut n = 0;
        let out = decode_stream(Vec::new(), Failing(1000), &Texts, |_| n += 1);
        assert_eq!(n, 100);
        assert_eq!(out.lines, 100);
        let (at, e) = out.error.unwrap();
        assert_eq!(at, 1000);
        assert!(e.to_string().contains("disk on fire"));
    }
}
