//! `deck follow`'s source on an agent's log being written: the first half
//! of a capture on disk, the rest appended once the first records came.

use std::io::Write as _;
use std::time::Duration;

use deck::load::follow::Follow;
use deck::source::live::{self, LiveEvent};

/// The seqs of the events `deck follow` delivers of the capture at `path`,
/// half written then the rest appended, until `want` have come (fails
/// after 30 s).
pub async fn follow_half_then_rest(path: &str, want: usize) -> Vec<u64> {
    let whole = std::fs::read_to_string(path).expect("capture");
    let lines: Vec<&str> = whole.split_inclusive('\n').collect();
    let (head, tail) = lines.split_at(lines.len() / 2);
    let dir = tempfile::tempdir().expect("dir");
    let file = dir.path().join("session.jsonl");
    std::fs::write(&file, head.concat()).expect("write");
    let mut f = Follow::new(&file);
    f.poll = Duration::from_millis(10);
    let (tx, mut rx) = live::channel();
    let h = tokio::spawn(async move {
        let _ = f.run(None, tx).await;
    });
    let mut seqs = Vec::new();
    let mut appended = false;
    let run = async {
        while seqs.len() < want {
            if let Some(LiveEvent::Records(rs)) = rx.recv().await {
                seqs.extend(rs.iter().filter_map(|r| r.seq()));
            }
            if !appended && !seqs.is_empty() {
                appended = true;
                let mut f = std::fs::OpenOptions::new()
                    .append(true)
                    .open(&file)
                    .expect("open");
                f.write_all(tail.concat().as_bytes()).expect("append");
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(30), run)
        .await
        .expect("in time");
    drop(rx);
    let _ = tokio::time::timeout(Duration::from_secs(30), h).await;
    seqs
}

/// The consumer of a follow gone: it stops (within 30 s, without an error).
pub async fn stop(rx: tokio::sync::mpsc::Receiver<LiveEvent>, h: tokio::task::JoinHandle<()>) {
    drop(rx);
    tokio::time::timeout(Duration::from_secs(30), h)
        .await
        .expect("stops")
        .unwrap();
}
