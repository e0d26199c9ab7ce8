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
    let (d, _) = Piece {
        raw: b"zz",
        origin: Origin::default(),
        cut: Some(10_000),
    }
    .decode(false, 4096);
    match d {
        Decoded::Bad(d) => assert!(d.reason.contains("line limit"), "{}", d.reason),
        d => panic!("{d:?}"),
    }
}

#[test]
fn decodes_every_kind_of_line() {
    let o = Origin::default();
    assert_eq!(decode_line(b"  ", o, false).0, Decoded::Blank);
    assert!(matches!(
        decode_line(br#"{"type":"session","version":0,"id":"s1"}"#, o, false).0,
        Decoded::Header { id, .. } if id == "s1"
    ));
    assert!(matches!(
        decode_line(
            br#"{"type":"host/session-status","sessionId":"s","running":true}"#,
            o,
            false
        )
        .0,
        Decoded::Host(_)
    ));
    match decode_line(
        br#"{"type":"text-chunks","seq0":3,"time0":1,"data":{"turn":1,"step":1,"index":0,"dt":[1],"texts":["a","b"]}}"#,
        o,
        false,
    )
    .0
    {
        Decoded::Packed(records) => assert_eq!(records.len(), 2),
        d => panic!("{d:?}"),
    }
    match decode_line(br#"{"type":"session/event","sessionId":"s","event":{"type":"turn/start","seq":4,"time":1,"data":{}}}"#, o, false).0 {
        Decoded::Records { session, records } => {
            assert_eq!(session.as_deref(), Some("s"));
            assert_eq!(records[0].seq(), Some(4));
        }
        d => panic!("{d:?}"),
    }
    assert!(matches!(decode_line(b"{nope", o, false).0, Decoded::Bad(_)));
    match decode_line(b"{\"type\":\"x\"", o, true).0 {
        Decoded::Bad(d) => assert!(d.reason.contains("truncated"), "{}", d.reason),
        d => panic!("{d:?}"),
    }
    let (d, lossy) = decode_line(b"\xff{}", o, false);
    assert!(matches!(d, Decoded::Bad(_)));
    assert!(lossy.is_some());
}

/// Whichever reader a decoder tries first, a line decodes the same: a
/// Claude Code line after frames, frames after Claude lines, and lines
/// both readers refuse, through one hint as through a fresh one each.
#[test]
fn the_order_readers_are_tried_in_changes_nothing() {
    let lines: [&[u8]; 9] = [
        br#"{"type":"session/event","sessionId":"s","event":{"type":"turn/start","seq":4,"time":1,"data":{}}}"#,
        br#"{"type":"user","uuid":"u","sessionId":"s","message":{"role":"user","content":"hi"}}"#,
        br#"{"type":"assistant","uuid":"a","sessionId":"s","message":{"id":"m","content":[{"type":"text","text":"x"}]}}"#,
        br#"{"type":"tool/call","seq":5,"time":1,"data":{"callId":"c","sessionId":"s"},"uuid":"u2"}"#,
        br#"{"type":"server-request","rpcId":"r","uuid":"u3","sessionId":"s","payload":{"type":"session/event","sessionId":"s","event":{"type":"turn/end","seq":6,"time":2,"data":{}}}}"#,
        br#"{"type":"user","uuid":"u4","sessionId":"s","message":{"role":"user","content":"again"}}"#,
        br#"{"type":"user","uuid":"u5","sessionId":"s","seq":7,"message":{}}"#,
        br#"{"type":"session","version":0,"id":"s1"}"#,
        b"{nope",
    ];
    let o = Origin::default();
    let mut hint = Hint::default();
    for (i, line) in lines.iter().enumerate() {
        let fresh = decode_line(line, o, false);
        let hinted = decode_line_hinted(line, o, false, &mut hint);
        assert_eq!(fresh, hinted, "line {i}");
    }
    // And from a hint set by a Claude line, every one again.
    for (i, line) in lines.iter().enumerate() {
        let mut claude = Hint::default();
        decode_line_hinted(lines[1], o, false, &mut claude);
        assert_eq!(
            decode_line(line, o, false),
            decode_line_hinted(line, o, false, &mut claude),
            "line {i}"
        );
    }
}
