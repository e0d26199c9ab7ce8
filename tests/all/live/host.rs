//! The host client against a local fake host serving the tour capture:
//! late join (history backfill), a dropped socket mid-stream (reconnect with
//! backoff, `lastSeq`, no replay), and the result folded with the same
//! reducer as `frames.jsonl` itself. Every loop is bounded; the tests stop
//! by themselves.

use std::collections::BTreeMap;
use std::time::Duration;

use deck::clients::dsh::{self as host, Backoff, HostOptions, SessionChoice};
use deck::session::Transcript;
use deck::source::live::{self, LinkStatus, LiveEvent};
use deck::wire::Record;

use crate::common;
use crate::common::fake_host::{Cmd, FakeHost, last_seq_before};

/// Upper bound for one test; a hang fails instead of blocking CI.
const LIMIT: Duration = Duration::from_secs(60);

fn direct() -> Transcript {
    common::fold(&common::capture_str("tour", "frames.jsonl"))
}

fn statuses(t: &Transcript) -> Vec<(String, &'static str)> {
    t.cards()
        .iter()
        .map(|c| (c.call_id.clone(), c.status.name()))
        .collect()
}

struct Seen {
    transcript: Transcript,
    seqs: BTreeMap<u64, usize>,
    links: Vec<LinkStatus>,
    sessions: usize,
    book: deck::source::sessions::SessionBook,
    diagnostics: Vec<String>,
    said: Vec<String>,
}

impl Seen {
    fn new() -> Seen {
        Seen {
            transcript: Transcript::new(None, deck::stock()),
            seqs: BTreeMap::new(),
            links: Vec::new(),
            sessions: 0,
            book: Default::default(),
            diagnostics: Vec::new(),
            said: Vec::new(),
        }
    }

    fn take(&mut self, ev: LiveEvent) {
        match ev {
            LiveEvent::Records(rs) => {
                for r in &rs {
                    if let Some(s) = r.seq() {
                        *self.seqs.entry(s).or_default() += 1;
                    }
                    self.transcript.apply(r);
                }
            }
            LiveEvent::Status(s) => self.links.push(s),
            LiveEvent::Sessions(l) => {
                self.book.replace(l);
                self.sessions = self.sessions.max(self.book.len());
            }
            LiveEvent::Session(change) => {
                self.book.apply(change);
                self.sessions = self.sessions.max(self.book.len());
            }
            LiveEvent::Reset { session_id } => {
                assert!(self.seqs.is_empty(), "reset after records");
                self.transcript = Transcript::new(session_id, deck::stock());
            }
            LiveEvent::Diagnostic(d) => self.diagnostics.push(d.reason),
            LiveEvent::Said(text) => self.said.push(text),
            LiveEvent::Ahead(_) | LiveEvent::CaughtUp => {
                panic!("a host's session has no end read first")
            }
        }
    }

    fn max_seq(&self) -> Option<u64> {
        self.seqs.keys().next_back().copied()
    }
}

fn opts(url: &str) -> HostOptions {
    let mut o = HostOptions::new(url, SessionChoice::Latest);
    o.backoff = Backoff {
        first: Duration::from_millis(20),
        cap: Duration::from_millis(200),
    };
    o
}

async fn until(
    rx: &mut tokio::sync::mpsc::Receiver<LiveEvent>,
    seen: &mut Seen,
    done: impl Fn(&Seen) -> bool,
) {
    let wait = async {
        while !done(seen) {
            match rx.recv().await {
                Some(ev) => seen.take(ev),
                None => panic!("the client stopped"),
            }
        }
    };
    tokio::time::timeout(LIMIT, wait)
        .await
        .expect("the client did not get there in time");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reconnects_and_ends_with_every_seq_exactly_once() {
    // Join at message 100 (history has what came before), pause at 300,
    // drop the socket there and lose 100 messages while the client is away.
    let fake = FakeHost::start(100, Some(300)).await;
    let before_drop = last_seq_before(&fake.state.mux, 300).unwrap();
    let (tx, mut rx) = live::channel();
    let client = tokio::spawn(host::run(opts(&fake.url), None, tx, None));
    let mut seen = Seen::new();
    until(&mut rx, &mut seen, |s| s.max_seq() == Some(before_drop)).await;
    fake.cmd.send(Cmd::Drop { skip: 100 }).unwrap();
    // Everything, and the link back to live once the backfill is done.
    until(&mut rx, &mut seen, |s| {
        s.max_seq() == Some(358) && s.links.last() == Some(&LinkStatus::Live)
    })
    .await;

    let want: Vec<u64> = (0..=358).collect();
    assert_eq!(seen.seqs.keys().copied().collect::<Vec<_>>(), want);
    assert_eq!(seen.diagnostics, Vec::<String>::new());
    assert!(
        seen.seqs.values().all(|&n| n == 1),
        "a seq was delivered twice"
    );
    assert_eq!(seen.transcript.duplicates(), 0);
    let d = direct();
    assert_eq!(seen.transcript.events(), d.events());
    assert_eq!(seen.transcript.cards().len(), d.cards().len());
    assert_eq!(statuses(&seen.transcript), statuses(&d));
    assert_eq!(seen.transcript.items().len(), d.items().len());
    assert_eq!(seen.transcript.title(), d.title());

    // The link went: connecting, backfilling, live, disconnected, connecting again.
    assert!(matches!(
        seen.links.first(),
        Some(LinkStatus::Connecting { attempt: 1 })
    ));
    assert!(
        seen.links
            .iter()
            .any(|l| matches!(l, LinkStatus::Backfilling { from_seq: 0 }))
    );
    let drop_at = seen
        .links
        .iter()
        .position(|l| matches!(l, LinkStatus::Disconnected { .. }))
        .expect("a Disconnected status");
    assert!(seen.links[drop_at..].contains(&LinkStatus::Live));
    assert!(
        fake.state
            .mux_connections
            .load(std::sync::atomic::Ordering::SeqCst)
            >= 2
    );
    let methods = fake.methods();
    assert!(methods.iter().filter(|m| *m == "session.history").count() >= 2);
    assert!(methods.contains(&"session.list".to_string()));
    assert_eq!(methods[0], "host.describe");
    assert_eq!(seen.sessions, 1);
    drop(rx);
    tokio::time::timeout(LIMIT, client)
        .await
        .expect("the client stops when its consumer goes")
        .unwrap()
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn question_frames_reach_the_reducer_and_small_pages_stitch() {
    let fake = FakeHost::start(400, None).await;
    let mut o = opts(&fake.url);
    o.max_messages = Some(2); // 40-event pages: many pages, newest first
    o.session = SessionChoice::Id(fake.state.session_id.clone());
    let (tx, mut rx) = live::channel();
    let client = tokio::spawn(host::run(o, None, tx, None));
    let mut seen = Seen::new();
    let mut frames = Vec::new();
    let wait = async {
        while seen.max_seq() != Some(358) {
            match rx.recv().await {
                Some(LiveEvent::Records(rs)) => {
                    for r in &rs {
                        if let Record::Frame { kind, .. } = r {
                            frames.push(kind.clone());
                        }
                    }
                    seen.take(LiveEvent::Records(rs));
                }
                Some(ev) => seen.take(ev),
                None => panic!("the client stopped"),
            }
        }
    };
    tokio::time::timeout(LIMIT, wait).await.expect("in time");
    assert_eq!(seen.seqs.len(), 359);
    assert!(seen.seqs.values().all(|&n| n == 1));
    let d = direct();
    assert_eq!(statuses(&seen.transcript), statuses(&d));
    // The question frames came after message 400? Then they are live frames.
    let q = fake
        .state
        .mux
        .iter()
        .position(|l| l.contains("\"question/requested\""))
        .unwrap();
    if q >= 400 {
        assert!(frames.iter().any(|k| k == "question/requested"));
    }
    let pages = fake
        .methods()
        .iter()
        .filter(|m| *m == "session.history")
        .count();
    assert!(pages >= 3, "{pages} history pages");
    drop(rx);
    let _ = tokio::time::timeout(LIMIT, client).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_session_is_an_error() {
    let fake = FakeHost::start(0, None).await;
    let mut o = opts(&fake.url);
    o.session = SessionChoice::Id("session-nope".into());
    let (tx, _rx) = live::channel();
    let r = tokio::time::timeout(LIMIT, host::run(o, None, tx, None))
        .await
        .expect("in time");
    let e = r.unwrap_err().to_string();
    assert!(e.contains("session-nope"), "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_host_that_is_not_there_is_retried_with_backoff() {
    // A port nobody listens on (bound, then closed).
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let (tx, mut rx) = live::channel();
    let client = tokio::spawn(host::run(
        opts(&format!("http://127.0.0.1:{port}")),
        None,
        tx,
        None,
    ));
    let mut waits = Vec::new();
    let wait = async {
        while waits.len() < 5 {
            if let Some(LiveEvent::Status(LinkStatus::Disconnected { retry_in_ms, .. })) =
                rx.recv().await
            {
                waits.push(retry_in_ms);
            }
        }
    };
    tokio::time::timeout(LIMIT, wait).await.expect("in time");
    assert_eq!(waits, vec![20, 40, 80, 160, 200]);
    drop(rx);
    let _ = tokio::time::timeout(LIMIT, client).await;
}

/// A client of a fake host that joins at message 100 and pauses at 300,
/// run until it has everything before the pause.
async fn paused_at_300(
    tune: impl FnOnce(&mut HostOptions),
) -> (FakeHost, tokio::sync::mpsc::Receiver<LiveEvent>, Seen) {
    let fake = FakeHost::start(100, Some(300)).await;
    let before = last_seq_before(&fake.state.mux, 300).unwrap();
    let mut o = opts(&fake.url);
    tune(&mut o);
    let (tx, mut rx) = live::channel();
    tokio::spawn(host::run(o, None, tx, None));
    let mut seen = Seen::new();
    until(&mut rx, &mut seen, |s| s.max_seq() == Some(before)).await;
    (fake, rx, seen)
}

/// After a fault mid-session: every seq exactly once, the same transcript
/// as folding the capture directly, and the link back to live.
fn assert_whole(seen: &Seen) {
    let want: Vec<u64> = (0..=358).collect();
    assert_eq!(seen.seqs.keys().copied().collect::<Vec<_>>(), want);
    assert!(
        seen.seqs.values().all(|&n| n == 1),
        "a seq was delivered twice"
    );
    let d = direct();
    assert_eq!(seen.transcript.cards().len(), d.cards().len());
    assert_eq!(statuses(&seen.transcript), statuses(&d));
    assert_eq!(seen.transcript.items().len(), d.items().len());
    assert_eq!(seen.links.last(), Some(&LinkStatus::Live));
}

/// Wait for every event and the link back to live, then check all arrived
/// once and the link was lost for `why` on the way.
async fn reconnected_whole(
    rx: &mut tokio::sync::mpsc::Receiver<LiveEvent>,
    seen: &mut Seen,
    why: &str,
) {
    until(rx, seen, |s| {
        s.max_seq() == Some(358) && s.links.last() == Some(&LinkStatus::Live)
    })
    .await;
    assert_whole(seen);
    assert!(
        seen.links.iter().any(|l| matches!(l,
        LinkStatus::Disconnected { reason, .. } if reason.contains(why))),
        "{:?}",
        seen.links
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_close_frame_mid_turn_reconnects_and_backfills() {
    let (fake, mut rx, mut seen) = paused_at_300(|_| {}).await;
    fake.cmd.send(Cmd::Close { skip: 50 }).unwrap();
    reconnected_whole(&mut rx, &mut seen, "closed the event stream").await;
    assert_eq!(seen.diagnostics, Vec::<String>::new());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_half_written_frame_is_diagnosed_and_its_events_backfilled() {
    let (fake, mut rx, mut seen) = paused_at_300(|_| {}).await;
    fake.cmd.send(Cmd::Garble).unwrap();
    until(&mut rx, &mut seen, |s| {
        s.max_seq() == Some(358) && s.seqs.len() == 359
    })
    .await;
    assert_whole(&seen);
    assert_eq!(seen.diagnostics.len(), 1, "{:?}", seen.diagnostics);
    assert!(
        seen.diagnostics[0].contains("not JSON"),
        "{:?}",
        seen.diagnostics
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_silent_host_is_pinged_then_left_and_reconnected() {
    let (fake, mut rx, mut seen) =
        paused_at_300(|o| o.keepalive = Duration::from_millis(300)).await;
    // A quiet host that answers pings is not left…
    tokio::time::sleep(Duration::from_millis(1000)).await;
    while let Ok(ev) = rx.try_recv() {
        seen.take(ev);
    }
    assert_eq!(
        seen.links.last(),
        Some(&LinkStatus::Live),
        "{:?}",
        seen.links
    );
    assert_eq!(
        fake.state
            .mux_connections
            .load(std::sync::atomic::Ordering::SeqCst),
        1
    );
    // …a hung one is.
    fake.cmd.send(Cmd::Hang).unwrap();
    reconnected_whole(&mut rx, &mut seen, "no answer from the host").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn prompts_cancels_answers_and_new_sessions_reach_the_host() {
    let fake = FakeHost::start(400, None).await;
    let (tx, mut rx) = live::channel();
    let (ctl, ctl_rx) = tokio::sync::mpsc::channel(8);
    let _client = tokio::spawn(host::run(opts(&fake.url), None, tx, Some(ctl_rx)));
    let mut seen = Seen::new();
    until(&mut rx, &mut seen, |s| {
        s.links.last() == Some(&LinkStatus::Live)
    })
    .await;
    let send = |c: host::Control| ctl.try_send(c).unwrap();
    send(host::Control::Prompt {
        text: "hello".into(),
        steer: false,
    });
    until(&mut rx, &mut seen, |s| s.said.len() == 1).await;
    send(host::Control::Prompt {
        text: "also this".into(),
        steer: true,
    });
    until(&mut rx, &mut seen, |s| s.said.len() == 2).await;
    send(host::Control::Cancel);
    until(&mut rx, &mut seen, |s| s.said.len() == 3).await;
    let answer = serde_json::json!({"sessionId": fake.state.session_id, "approvalId": "a1", "outcome": "allowed-once"});
    send(host::Control::Respond {
        rpc_id: "r-approval".into(),
        value: answer.clone(),
        what: "allowed once".into(),
    });
    until(&mut rx, &mut seen, |s| s.said.len() == 4).await;
    send(host::Control::Respond {
        rpc_id: "unknown".into(),
        value: answer.clone(),
        what: "rejected".into(),
    });
    until(&mut rx, &mut seen, |s| s.said.len() == 5).await;
    assert_eq!(
        seen.said,
        [
            "prompt sent",
            "sent into the running turn",
            "cancel sent",
            "allowed once: sent",
            "rejected: not sent: respond: NOT_ACCEPTED: {\"accepted\":false}",
        ],
        "{:?}",
        seen.said
    );
    let of = |m: &str| fake.requests(m);
    let sid = fake.state.session_id.as_str();
    assert_eq!(
        of("session.prompt"),
        [
            serde_json::json!({"sessionId": sid, "mode": "queue", "content": [{"type": "text", "text": "hello"}]}),
            serde_json::json!({"sessionId": sid, "mode": "steer", "content": [{"type": "text", "text": "also this"}]}),
        ]
    );
    assert_eq!(
        of("session.cancel"),
        [serde_json::json!({"sessionId": sid})]
    );
    assert_eq!(
        of("respond")[0],
        serde_json::json!({"type": "client-response", "rpcId": "r-approval", "result": {"ok": true, "value": answer}})
    );
    // A new session: created, then shown (a reset to it), then said — after
    // the reset, which clears the status line.
    send(host::Control::Create {
        cwd: Some("/work/x".into()),
        preset: Some("capture".into()),
    });
    let (mut said, mut reset) = (None, None);
    let wait = async {
        while said.is_none() || reset.is_none() {
            match rx.recv().await {
                Some(LiveEvent::Said(t)) => {
                    assert!(reset.is_some(), "said before the reset: {t}");
                    said = Some(t)
                }
                Some(LiveEvent::Reset { session_id }) => reset = Some(session_id),
                Some(_) => {}
                None => panic!("the client stopped"),
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(20), wait)
        .await
        .expect("created and shown");
    assert_eq!(said.as_deref(), Some("created session-created-by-deck"));
    assert_eq!(reset, Some(Some("session-created-by-deck".to_string())));
    assert_eq!(
        fake.requests("session.create"),
        [serde_json::json!({"cwd": "/work/x", "agentPreset": "capture"})]
    );
}
