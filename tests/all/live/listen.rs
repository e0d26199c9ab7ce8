//! `listen` over a unix socket and TCP: a 100k-frame burst arrives whole
//! (every seq once), in bounded batches on the bounded channel; several
//! writers at once; per-connection line numbers; stale socket files.

use std::collections::HashSet;
use std::time::Duration;

use deck::source::listen::{self, ListenError};
use deck::source::live::{self, CHANNEL_BATCHES, Endpoint, LinkStatus, LiveEvent, MAX_BATCH};
use deck::wire::Record;
use tokio::io::AsyncWriteExt;

const LIMIT: Duration = Duration::from_secs(120);
const BURST: u64 = 100_000;

fn lines(seqs: impl Iterator<Item = u64>) -> Vec<u8> {
    let mut out = Vec::new();
    for s in seqs {
        out.extend_from_slice(
            format!(
                "{{\"type\":\"turn/start\",\"seq\":{s},\"time\":{s},\"data\":{{\"turn\":1}}}}\n"
            )
            .as_bytes(),
        );
    }
    out
}

#[derive(Default)]
struct Tally {
    seqs: HashSet<u64>,
    records: usize,
    batches: usize,
    largest: usize,
    diagnostics: Vec<(usize, String)>,
    peak_queue: usize,
}

/// Receive until `want` event records arrived (bounded by LIMIT).
async fn tally(
    rx: &mut tokio::sync::mpsc::Receiver<LiveEvent>,
    want: usize,
    diags: usize,
) -> Tally {
    let mut t = Tally::default();
    let run = async {
        while t.records < want || t.diagnostics.len() < diags {
            t.peak_queue = t.peak_queue.max(rx.len());
            match rx.recv().await.expect("source stopped") {
                LiveEvent::Records(rs) => {
                    t.batches += 1;
                    t.largest = t.largest.max(rs.len());
                    for r in rs {
                        match r {
                            Record::Diagnostic(d) => t.diagnostics.push((d.origin.line, d.reason)),
                            r => {
                                t.records += 1;
                                assert!(t.seqs.insert(r.seq().unwrap()), "seq twice");
                            }
                        }
                    }
                }
                LiveEvent::Diagnostic(d) => panic!("{}", d.reason),
                _ => {}
            }
        }
    };
    tokio::time::timeout(LIMIT, run).await.expect("in time");
    t
}

fn check_burst(t: &Tally) {
    assert_eq!(t.records as u64, BURST);
    assert_eq!(t.seqs.len() as u64, BURST);
    assert!(t.seqs.iter().all(|&s| s < BURST));
    // Batched: far fewer sends than frames, none above the cap, and the
    // queue never holds more than the channel's capacity.
    assert!(t.largest <= MAX_BATCH, "batch of {}", t.largest);
    assert!(t.batches as u64 <= BURST / 20, "{} batches", t.batches);
    assert!(t.peak_queue <= CHANNEL_BATCHES);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unix_socket_burst_arrives_whole_in_bounded_batches() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("deck.sock");
    let bound = listen::bind(&Endpoint::Unix(path.clone())).await.unwrap();
    let (tx, mut rx) = live::channel();
    assert_eq!(rx.max_capacity(), CHANNEL_BATCHES);
    // In flight at most CHANNEL_BATCHES × MAX_BATCH records: less than the
    // burst, so the burst can only get through by back-pressure.
    assert!(((CHANNEL_BATCHES * MAX_BATCH) as u64) < BURST);
    let server = tokio::spawn(bound.serve(None, None, tx));
    assert!(matches!(
        rx.recv().await,
        Some(LiveEvent::Status(LinkStatus::Listening { writers: 0, .. }))
    ));
    let p = path.clone();
    let writer = tokio::spawn(async move {
        let mut s = tokio::net::UnixStream::connect(&p).await.unwrap();
        s.write_all(&lines(0..BURST)).await.unwrap();
        s.shutdown().await.unwrap();
    });
    // Let the channel fill before reading anything.
    let fill = async {
        while rx.len() < CHANNEL_BATCHES {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    };
    tokio::time::timeout(LIMIT, fill)
        .await
        .expect("the channel fills");
    // Back-pressure: with the channel full, the writer cannot have finished.
    // deck holds at most CHANNEL_BATCHES × MAX_BATCH records (65,536) plus one
    // read (64 KiB, ~1,200 lines), the kernel a socket buffer (~4,000 lines):
    // short of the 100,000 the writer must get rid of.
    assert!(!writer.is_finished(), "the writer was not held back");
    let t = tally(&mut rx, BURST as usize, 0).await;
    check_burst(&t);
    writer.await.unwrap();
    drop(rx);
    let _ = tokio::time::timeout(LIMIT, server).await.expect("stops");
    assert!(!path.exists(), "the socket file is removed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tcp_burst_arrives_whole() {
    let bound = listen::bind(&Endpoint::parse("tcp:127.0.0.1:0"))
        .await
        .unwrap();
    let addr = bound.tcp_addr().unwrap();
    assert!(addr.ip().is_loopback());
    let (tx, mut rx) = live::channel();
    let server = tokio::spawn(bound.serve(None, None, tx));
    let writer = tokio::spawn(async move {
        let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
        s.write_all(&lines(0..BURST)).await.unwrap();
        s.shutdown().await.unwrap();
    });
    let t = tally(&mut rx, BURST as usize, 0).await;
    check_burst(&t);
    writer.await.unwrap();
    drop(rx);
    let _ = tokio::time::timeout(LIMIT, server).await.expect("stops");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_and_successive_writers_with_their_own_line_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("w.sock");
    let bound = listen::bind(&Endpoint::Unix(path.clone())).await.unwrap();
    let (tx, mut rx) = live::channel();
    let server = tokio::spawn(bound.serve(None, None, tx));
    let wpath = path.clone();
    let write = move |seqs: std::ops::Range<u64>, bad_at_line_2: bool| {
        let p = wpath.clone();
        async move {
            let mut s = tokio::net::UnixStream::connect(&p).await.unwrap();
            let mut body = lines(seqs);
            if bad_at_line_2 {
                let first = body.iter().position(|&b| b == b'\n').unwrap() + 1;
                body.splice(first..first, b"not json\n".iter().copied());
            }
            // In pieces, cutting lines in the middle.
            for piece in body.chunks(777) {
                s.write_all(piece).await.unwrap();
            }
            s.shutdown().await.unwrap();
        }
    };
    // Two writers at once, then a third one after them that ends in a
    // partial line. Read while they write: deck's channel is bounded, so a
    // writer nobody reads from would wait forever.
    let p = path.clone();
    let writers = tokio::spawn(async move {
        let a = tokio::spawn(write(0..20_000, true));
        let b = tokio::spawn(write(20_000..40_000, true));
        a.await.unwrap();
        b.await.unwrap();
        let mut s = tokio::net::UnixStream::connect(&p).await.unwrap();
        let mut body = lines(40_000..40_010);
        body.extend_from_slice(b"{\"type\":\"turn/st");
        s.write_all(&body).await.unwrap();
        s.shutdown().await.unwrap();
    });
    let t = tally(&mut rx, 40_010, 3).await;
    writers.await.unwrap();
    assert_eq!(t.seqs.len(), 40_010);
    let mut d = t.diagnostics.clone();
    d.sort();
    assert_eq!(d[0].0, 2);
    assert_eq!(d[1].0, 2);
    assert!(d[0].1.starts_with("connection ") && d[0].1.contains("not JSON"));
    assert_eq!(d[2].0, 11);
    assert!(
        d[2].1.contains("connection 3: truncated last line"),
        "{}",
        d[2].1
    );
    drop(rx);
    let _ = tokio::time::timeout(LIMIT, server).await.expect("stops");
}

#[tokio::test]
async fn stale_socket_files_are_replaced_and_live_ones_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.sock");
    // A stale file: bound once, the listener gone.
    drop(std::os::unix::net::UnixListener::bind(&path).unwrap());
    assert!(path.exists());
    let bound = listen::bind(&Endpoint::Unix(path.clone())).await.unwrap();
    // While it listens, a second deck is refused.
    match listen::bind(&Endpoint::Unix(path.clone())).await {
        Err(ListenError::InUse(_)) => {}
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("bound twice"),
    }
    drop(bound);
    let file = dir.path().join("plain");
    std::fs::write(&file, "x").unwrap();
    assert!(matches!(
        listen::bind(&Endpoint::Unix(file)).await,
        Err(ListenError::NotASocket(_))
    ));
}
