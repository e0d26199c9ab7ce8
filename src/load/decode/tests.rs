//! The line decoder: every kind of line, the readers' order, lines cut at
//! the limit, and other agents' lines handed on (read from their text, or
//! whole).

use super::*;

#[test]
fn a_line_cut_at_the_limit_is_a_diagnostic() {
    let piece = Piece {
        raw: b"zz",
        origin: Origin::default(),
        cut: Some(10_000),
    };
    match decode_piece(&piece, false, 4096).0 {
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

/// An ACP recording's line is handed on whole, though it names a
/// sessionId.
#[test]
fn an_acp_line_is_handed_on_whole() {
    let text = r#"{"t": 9, "dir": "agent->client", "msg": {"jsonrpc": "2.0", "method": "session/update", "params": {"sessionId": "s", "update": {"sessionUpdate": "plan", "entries": []}}}}"#;
    let (d, _) = decode_line(text.as_bytes(), Origin::default(), false);
    assert!(
        matches!(d, Decoded::Foreign { ref line, .. } if line.agent().map(|a| a.name()) == Some("acp")),
        "{d:?}"
    );
}

/// A Claude Code line is read from its text on the decoder's threads; one
/// that typed reading refuses (a key twice) is handed on as JSON. (That
/// both read the same: the Claude Code reader's tests.)
#[test]
fn a_claude_line_is_read_from_its_text_or_handed_on_as_json() {
    let origin = Origin { line: 1, offset: 0 };
    let typed = r#"{"type":"user","uuid":"u","sessionId":"s","cwd":"/w","message":{"role":"user","content":"hi \u00e9"}}"#;
    let twice = r#"{"type":"user","uuid":"u","sessionId":"s","cwd":"/old","cwd":"/w","message":{"role":"user","content":"hi \u00e9"}}"#;
    let (Decoded::Foreign { line: a, .. }, None) = decode_line(typed.as_bytes(), origin, false) else {
        panic!("not a Claude line")
    };
    assert!(matches!(a, Foreign::Read { agent, .. } if agent.name() == "claude-code"));
    let (Decoded::Foreign { line: b, .. }, None) = decode_line(twice.as_bytes(), origin, false) else {
        panic!("not a Claude line")
    };
    assert!(matches!(b, Foreign::Value(_)));
    assert_eq!(b.agent().map(|a| a.name()), Some("claude-code"));
}
