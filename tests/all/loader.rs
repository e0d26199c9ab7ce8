//! Loader tests over the real captures and over broken input.

use deck::session::{Status, Transcript};
use deck::source::{Format, LoadError, load_bytes, load_path};
use deck::wire::Record;

use crate::common;

fn seqs(records: &[Record]) -> Vec<u64> {
    let mut s: Vec<u64> = records.iter().filter_map(Record::seq).collect();
    s.sort();
    s.dedup();
    s
}

#[test]
fn frame_log_is_detected_and_complete() {
    for cap in common::CAPTURES {
        let l = load_path(&common::capture_str(cap, "frames.jsonl")).unwrap();
        assert_eq!(l.format, Format::FrameLog);
        assert_eq!(l.sessions.len(), 1, "{cap}");
        let s = &l.sessions[0];
        assert!(s.id.as_deref().unwrap().starts_with("session-"));
        assert_eq!(s.diagnostics(), 0);
        let seqs = seqs(&s.records);
        assert_eq!(seqs.first(), Some(&0));
        assert_eq!(
            seqs.len() as u64,
            seqs.last().unwrap() + 1,
            "{cap}: contiguous seqs"
        );
    }
}

#[test]
fn session_log_plain_and_zstd_agree_with_frames() {
    for cap in common::CAPTURES {
        let plain = load_path(&common::capture_str(cap, "session.jsonl")).unwrap();
        let zst = load_path(&common::capture_str(cap, "session.jsonl.zstd")).unwrap();
        let frames = load_path(&common::capture_str(cap, "frames.jsonl")).unwrap();
        assert_eq!(plain.format, Format::SessionLog);
        assert!(!plain.compressed);
        assert!(zst.compressed);
        assert_eq!(zst.format, Format::SessionLog);
        assert!(plain.sessions[0].header.is_some());
        assert_eq!(plain.sessions[0].records, zst.sessions[0].records);
        // Packed chunk rows expand to exactly the events the host streamed.
        let log_events: Vec<_> = plain.sessions[0]
            .records
            .iter()
            .filter_map(|r| match r {
                Record::Event { event, .. } => Some(event.clone()),
                _ => None,
            })
            .collect();
        let frame_events: Vec<_> = frames.sessions[0]
            .records
            .iter()
            .filter_map(|r| match r {
                Record::Event { event, .. } => Some(event.clone()),
                _ => None,
            })
            .collect();
        let mut a = log_events.clone();
        let mut b = frame_events.clone();
        a.sort_by_key(|e| e.seq);
        b.sort_by_key(|e| e.seq);
        assert_eq!(a.len(), b.len(), "{cap}");
        for (x, y) in a.iter().zip(&b) {
            assert_eq!((x.seq, &x.kind, x.time), (y.seq, &y.kind, y.time), "{cap}");
            if x.kind == deck::wire::EventKind::AssistantChunk {
                assert_eq!(x.data, y.data, "{cap} seq {}", x.seq);
            }
        }
    }
}

#[test]
fn history_pages_in_any_order_are_merged() {
    for file in ["history.json", "history-default-page.json"] {
        let l = load_path(&common::capture_str("tour", file)).unwrap();
        assert_eq!(l.format, Format::History, "{file}");
        let s = &l.sessions[0];
        assert_eq!(s.diagnostics(), 0);
        let seq: Vec<u64> = s.records.iter().filter_map(Record::seq).collect();
        assert!(
            seq.windows(2).all(|w| w[0] < w[1]),
            "{file}: sorted, no repeats"
        );
        assert_eq!(seq.first(), Some(&0), "{file}");
    }
}

#[test]
fn the_three_formats_fold_to_the_same_cards() {
    let fold = |file: &str| common::fold(&common::capture_str("tour", file));
    let frames = fold("frames.jsonl");
    let history = fold("history-default-page.json");
    assert_eq!(frames.cards().len(), 31);
    assert_eq!(history.cards().len(), 31);
    for (a, b) in frames.cards().iter().zip(history.cards()) {
        assert_eq!(a.call_id, b.call_id);
        assert_eq!(a.status, b.status, "{}", a.call_id);
        assert_eq!(a.call_view, b.call_view, "{}", a.call_id);
        assert_eq!(a.result_view, b.result_view, "{}", a.call_id);
    }
    let log = fold("session.jsonl.zstd");
    assert_eq!(log.cards().len(), 31);
    let statuses = |t: &Transcript| t.cards().iter().map(|c| c.status).collect::<Vec<_>>();
    assert_eq!(
        statuses(&log)
            .iter()
            .filter(|s| **s == Status::Error)
            .count(),
        statuses(&frames)
            .iter()
            .filter(|s| **s == Status::Error)
            .count()
    );
}

#[test]
fn bad_lines_become_diagnostics_with_line_and_offset() {
    let input = b"{\"type\":\"turn/start\",\"seq\":0,\"time\":1,\"data\":{\"turn\":1}}\nnot json at all\n{\"type\":\"x\"}\n\xff\xfe{}\n{\"type\":\"turn/end\",\"seq\":1,\"time\":2,\"data\":{\"turn\":1,\"reason\":{\"kind\":\"completed\"}}}\n{\"type\":\"user/mess";
    let l = load_bytes("mem", input).unwrap();
    let s = &l.sessions[0];
    let diags: Vec<_> = s
        .records
        .iter()
        .filter_map(|r| match r {
            Record::Diagnostic(d) => Some(d),
            _ => None,
        })
        .collect();
    let lines: Vec<usize> = diags.iter().map(|d| d.origin.line).collect();
    assert_eq!(lines, vec![2, 3, 4, 4, 6]);
    assert_eq!(diags[0].origin.offset, 57);
    assert_eq!(diags[0].raw, "not json at all");
    assert!(diags[0].reason.starts_with("not JSON"));
    assert!(
        diags[1].reason.contains("unknown frame type"),
        "{}",
        diags[1].reason
    );
    assert!(diags[2].reason.contains("UTF-8"));
    assert!(
        diags[4].reason.contains("truncated last line"),
        "{}",
        diags[4].reason
    );
    assert_eq!(s.records.iter().filter_map(Record::seq).count(), 2);
}

#[test]
fn empty_and_unknown_inputs_are_errors() {
    assert!(matches!(load_bytes("e", b""), Err(LoadError::Empty(_))));
    assert!(matches!(
        load_bytes("e", b"\n  \n\n"),
        Err(LoadError::Empty(_))
    ));
    let err = load_bytes("u", b"hello\nworld\n").unwrap_err();
    assert!(matches!(err, LoadError::UnknownFormat { .. }));
    assert!(err.to_string().starts_with("u: unknown format"), "{err}");
    assert!(matches!(
        load_path("/nonexistent/deck/file"),
        Err(LoadError::Io { .. })
    ));
}

#[test]
fn several_sessions_are_kept_apart() {
    let ev = |sid: &str, seq: u64, turn: u64| {
        format!(
            r#"{{"type":"session/event","sessionId":"{sid}","event":{{"type":"turn/start","seq":{seq},"time":1,"data":{{"turn":{turn}}}}}}}"#
        )
    };
    let input = [ev("a", 0, 1), ev("b", 0, 7), ev("a", 1, 2), ev("b", 1, 8)].join("\n");
    let l = load_bytes("multi", input.as_bytes()).unwrap();
    assert_eq!(l.sessions.len(), 2);
    assert_eq!(l.session(None).unwrap().id.as_deref(), Some("a"));
    let b = l.session(Some("b")).unwrap();
    assert_eq!(b.records.len(), 2);
    let err = l.session(Some("zzz")).unwrap_err().to_string();
    assert!(err.contains("a, b"), "{err}");
}

#[test]
fn damaged_zstd_keeps_what_decoded() {
    let bytes = std::fs::read(common::capture("tour", "session.jsonl.zstd")).unwrap();
    let cut = &bytes[..bytes.len() * 2 / 3];
    let l = load_bytes("cut.zstd", cut).unwrap();
    let s = &l.sessions[0];
    assert!(s.records.iter().filter_map(Record::seq).count() > 50);
    assert!(
        s.records
            .iter()
            .any(|r| matches!(r, Record::Diagnostic(d) if d.reason.contains("zstd")))
    );
}
