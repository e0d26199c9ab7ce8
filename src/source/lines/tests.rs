use super::*;

fn split(pieces: &[&str]) -> (Vec<(String, usize, u64)>, usize) {
    let mut s = LineSplitter::new();
    let mut out = Vec::new();
    for p in pieces {
        s.feed(p.as_bytes(), |l| {
            out.push((
                String::from_utf8_lossy(l.raw).into_owned(),
                l.origin.line,
                l.origin.offset,
            ))
        });
    }
    (out, s.pending())
}

#[test]
fn holds_partial_lines_until_complete() {
    let (lines, pending) = split(&["{\"a\"", ":1}\n{\"b\":2}\n{\"c\""]);
    assert_eq!(
        lines,
        vec![("{\"a\":1}".into(), 1, 0), ("{\"b\":2}".into(), 2, 8)]
    );
    assert_eq!(pending, 4);
}

#[test]
fn finish_flushes_the_last_line() {
    let mut s = LineSplitter::new();
    let mut n = 0;
    s.feed(b"x\ny", |_| n += 1);
    s.finish(|l| {
        assert_eq!((l.raw, l.origin.line, l.origin.offset), (&b"y"[..], 2, 2));
        n += 1;
    });
    assert_eq!(n, 2);
}

#[test]
fn a_line_over_the_limit_is_cut_not_held() {
    // 3 MB without a newline, in 64 KB pieces, under a 1 MB limit: the
    // splitter holds the head only, then reports the cut at the newline.
    let mut s = LineSplitter::with_limit(1 << 20);
    let mut got = Vec::new();
    let piece = vec![b'x'; 64 << 10];
    s.feed(b"{}\n", |l| got.push((l.raw.len(), l.origin, l.cut)));
    for _ in 0..48 {
        s.feed(&piece, |_| panic!("no line yet"));
        assert!(s.pending() <= 1 << 20);
    }
    assert_eq!(s.pending(), crate::source::limits::CUT_HEAD);
    s.feed(b"yy\n{\"a\":1}\n", |l| {
        got.push((l.raw.len(), l.origin, l.cut))
    });
    let long = 48 * (64 << 10) + 2;
    assert_eq!(
        got,
        vec![
            (2, Origin { line: 1, offset: 0 }, None),
            (
                crate::source::limits::CUT_HEAD,
                Origin { line: 2, offset: 3 },
                Some(long as u64)
            ),
            (
                7,
                Origin {
                    line: 3,
                    offset: 3 + long as u64 + 1
                },
                None
            ),
        ]
    );
    // Cut inside one piece, and a cut last line.
    let mut s = LineSplitter::with_limit(4096);
    let mut cuts = Vec::new();
    let mut big = vec![b'z'; 10_000];
    big.push(b'\n');
    big.extend_from_slice(&[b'w'; 5_000]);
    s.feed(&big, |l| cuts.push(l.cut));
    s.finish(|l| cuts.push(l.cut));
    assert_eq!(cuts, vec![Some(10_000), Some(5_000)]);
    let d = cut_diagnostic(b"zz", 10_000, Origin::default(), 4096, false);
    assert!(d.reason.contains("line limit"), "{}", d.reason);
}
