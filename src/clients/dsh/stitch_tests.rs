//! Unit tests of [`Stitch`]: gaps, duplicates, events before
//! `session/subscribed`, pages in any order, reconnects with `lastSeq`.

use serde_json::json;

use super::*;
use crate::wire::SessionEvent;

fn ev(seq: u64) -> Record {
    Record::Event {
        event: SessionEvent {
            kind: "turn/start".into(),
            seq,
            time: seq as i64,
            data: crate::wire::RawJson::from_value(&json!({"turn": 1})),
            ignorable: false,
            source_event_seqs: Vec::new(),
        },
        view: None,
        origin: Origin::default(),
    }
}

fn frame(kind: &str) -> Record {
    Record::Frame {
        kind: kind.into(),
        rpc_id: None,
        payload: json!({"type": kind}),
        origin: Origin::default(),
    }
}

fn page(seqs: std::ops::RangeInclusive<u64>) -> Vec<Record> {
    seqs.map(ev).collect()
}

/// What a record is, compactly: `3` for an event, `q` for a frame, `!` for a diagnostic.
fn tags(out: &[Record]) -> Vec<String> {
    out.iter()
        .map(|r| match r {
            Record::Event { event, .. } => event.seq.to_string(),
            Record::Frame { kind, .. } => kind.clone(),
            Record::Diagnostic(_) => "!".into(),
            Record::Nested { .. } => "n".into(),
        })
        .collect()
}

/// A fake host history: events 0..=last, pages of `size` newest first.
fn serve(last: u64, size: u64, f: Fetch) -> (Vec<Record>, bool) {
    let end = f.before_seq.map_or(last, |b| b.saturating_sub(1).min(last));
    if f.before_seq == Some(0) {
        return (Vec::new(), false);
    }
    let start = end.saturating_sub(size - 1);
    (page(start..=end), start > 0)
}

#[test]
fn in_order_events_pass_at_once() {
    let mut s = Stitch::new();
    for i in 0..3 {
        let out = s.on_live(ev(i));
        assert_eq!(tags(&out.records), vec![i.to_string()]);
        assert_eq!(out.fetch, None);
    }
    assert_eq!(s.next_seq(), 3);
}

#[test]
fn events_before_subscribed_are_kept() {
    let mut s = Stitch::new();
    let mut got = Vec::new();
    for i in 0..3 {
        got.extend(tags(&s.on_live(ev(i)).records));
    }
    let out = s.on_live(frame("session/subscribed"));
    got.extend(tags(&out.records));
    let out2 = s.on_last_seq(2);
    assert_eq!(got, vec!["0", "1", "2", "session/subscribed"]);
    assert_eq!((out.fetch, out2.fetch), (None, None));
}

#[test]
fn duplicates_are_dropped() {
    let mut s = Stitch::new();
    s.on_live(ev(0));
    s.on_live(ev(1));
    assert!(s.on_live(ev(1)).records.is_empty());
    assert!(s.on_live(ev(0)).records.is_empty());
    assert_eq!(s.duplicates(), 2);
}

#[test]
fn a_gap_is_fetched_and_held_events_follow_it() {
    let mut s = Stitch::new();
    s.on_live(ev(0));
    s.on_live(ev(1));
    let out = s.on_live(ev(5));
    assert!(out.records.is_empty());
    assert_eq!(
        out.fetch,
        Some(Fetch {
            before_seq: Some(5)
        })
    );
    // More live events and a question while the gap is open: held, in order.
    assert!(s.on_live(ev(6)).fetch.is_none());
    assert!(s.on_live(frame("question/requested")).records.is_empty());
    let out = s.on_page(page(2..=4), true);
    assert_eq!(
        tags(&out.records),
        vec!["2", "3", "4", "5", "6", "question/requested"]
    );
    assert_eq!(out.fetch, None);
    assert!(!s.is_fetching());
}

#[test]
fn a_gap_wider_than_a_page_pages_back() {
    let mut s = Stitch::new();
    s.on_live(ev(0));
    let out = s.on_live(ev(10));
    let mut fetch = out.fetch;
    let mut got = Vec::new();
    let mut requests = Vec::new();
    while let Some(f) = fetch {
        requests.push(f.before_seq);
        let (events, more) = serve(20, 3, f);
        let out = s.on_page(events, more);
        got.extend(tags(&out.records));
        fetch = out.fetch;
    }
    assert_eq!(requests, vec![Some(10), Some(7), Some(4)]);
    let want: Vec<String> = (1..=10).map(|i| i.to_string()).collect();
    assert_eq!(got, want);
}

#[test]
fn pages_newest_first_from_catch_up_cover_the_whole_session() {
    let mut s = Stitch::new();
    let mut fetch = s.catch_up().fetch;
    let mut got = Vec::new();
    // A live event arrives while the first page is on its way.
    got.extend(tags(&s.on_live(ev(30)).records));
    while let Some(f) = fetch {
        let (events, more) = serve(29, 7, f);
        let out = s.on_page(events, more);
        got.extend(tags(&out.records));
        fetch = out.fetch;
    }
    let want: Vec<String> = (0..=30).map(|i| i.to_string()).collect();
    assert_eq!(got, want);
    assert_eq!(s.duplicates(), 0);
}

#[test]
fn pages_in_reverse_and_shuffled_order_give_each_seq_once() {
    let mut s = Stitch::new();
    let mut got = Vec::new();
    // Older pages first, overlapping, then the newest.
    for (r, more) in [
        (0..=9, false),
        (5..=14, true),
        (20..=29, true),
        (12..=22, true),
    ] {
        got.extend(tags(&s.on_page(page(r), more).records));
    }
    let want: Vec<String> = (0..=29).map(|i| i.to_string()).collect();
    assert_eq!(got, want);
    assert_eq!(s.duplicates(), 5 + 3 + 3);
}

#[test]
fn reconnect_with_last_seq_backfills_without_duplicates() {
    let mut s = Stitch::new();
    for i in 0..=10 {
        s.on_live(ev(i));
    }
    s.link_lost();
    // Events 11..=20 happened while no socket was open. On reconnect the
    // client asks for the newest page; the host says lastSeq 20, and two
    // new live events arrive before the page does.
    let mut fetch = s.catch_up().fetch;
    assert_eq!(fetch, Some(Fetch { before_seq: None }));
    let sub = s.on_live(frame("session/subscribed"));
    assert_eq!(tags(&sub.records), vec!["session/subscribed"]);
    assert!(s.on_last_seq(20).fetch.is_none());
    let mut got = Vec::new();
    got.extend(tags(&s.on_live(ev(21)).records));
    got.extend(tags(&s.on_live(ev(22)).records));
    assert!(got.is_empty(), "held until the gap is filled");
    while let Some(f) = fetch {
        let (events, more) = serve(22, 6, f);
        let out = s.on_page(events, more);
        got.extend(tags(&out.records));
        fetch = out.fetch;
    }
    let want: Vec<String> = (11..=22).map(|i| i.to_string()).collect();
    assert_eq!(got, want);
    assert_eq!(s.next_seq(), 23);
}

#[test]
fn last_seq_beyond_what_arrived_fetches_the_tail() {
    let mut s = Stitch::new();
    s.on_live(ev(0));
    let out = s.on_last_seq(4);
    assert_eq!(out.fetch, Some(Fetch { before_seq: None }));
    let out = s.on_page(page(0..=4), false);
    assert_eq!(tags(&out.records), vec!["1", "2", "3", "4"]);
    assert_eq!(out.fetch, None);
}

#[test]
fn history_that_cannot_cover_a_gap_says_so_and_goes_on() {
    let mut s = Stitch::new();
    s.on_live(ev(0));
    assert!(s.on_live(ev(5)).fetch.is_some());
    // History starts at 3 (older events are gone).
    let out = s.on_page(page(3..=4), false);
    assert_eq!(tags(&out.records), vec!["!", "3", "4", "5"]);
    match &out.records[0] {
        Record::Diagnostic(d) => assert!(d.reason.contains("1..=2"), "{}", d.reason),
        r => panic!("{r:?}"),
    }
}

#[test]
fn a_failed_fetch_is_asked_again() {
    let mut s = Stitch::new();
    s.on_live(ev(0));
    assert!(s.on_live(ev(3)).fetch.is_some());
    s.fetch_failed();
    assert!(!s.is_fetching());
    assert_eq!(
        s.plan_now().fetch,
        Some(Fetch {
            before_seq: Some(3)
        })
    );
}
