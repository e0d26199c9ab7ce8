//! `follow`: appended lines, a partial last line held until complete,
//! truncation (read again from the start, with a reset), rotation (the new
//! file read from its start). Polls every 10 ms; every wait is bounded.

use crate::common::follow::stop;
use std::io::Write;
use std::time::Duration;

use deck::load::follow::Follow;
use deck::source::live::{self, LiveEvent};
use deck::wire::Record;
use tokio::sync::mpsc::Receiver;

const LIMIT: Duration = Duration::from_secs(30);

fn line(seq: u64, turn: u64) -> String {
    format!(
        "{{\"type\":\"turn/start\",\"seq\":{seq},\"time\":{seq},\"data\":{{\"turn\":{turn}}}}}\n"
    )
}

fn append(path: &std::path::Path, text: &str) {
    let mut f = std::fs::OpenOptions::new().append(true).open(path).unwrap();
    f.write_all(text.as_bytes()).unwrap();
}

/// What arrived, compactly: `3` per event seq, `!reason` per diagnostic,
/// `reset` per reset.
#[derive(Default)]
struct Log(Vec<String>);

impl Log {
    fn seqs(&self) -> Vec<u64> {
        self.0.iter().filter_map(|s| s.parse().ok()).collect()
    }
    fn has(&self, prefix: &str) -> bool {
        self.0.iter().any(|s| s.starts_with(prefix))
    }
}

async fn until(rx: &mut Receiver<LiveEvent>, log: &mut Log, done: impl Fn(&Log) -> bool) {
    let run = async {
        while !done(log) {
            match rx.recv().await.expect("follow stopped") {
                LiveEvent::Records(rs) => {
                    for r in rs {
                        log.0.push(match r {
                            Record::Diagnostic(d) => format!("!{}", d.reason),
                            r => r.seq().map_or("frame".into(), |s| s.to_string()),
                        })
                    }
                }
                LiveEvent::Diagnostic(d) => log.0.push(format!("!{}", d.reason)),
                LiveEvent::Reset { .. } => log.0.push("reset".into()),
                _ => {}
            }
        }
    };
    tokio::time::timeout(LIMIT, run).await.expect("in time");
}

fn start(path: &std::path::Path) -> (Receiver<LiveEvent>, tokio::task::JoinHandle<()>) {
    let mut f = Follow::new(path);
    f.poll = Duration::from_millis(10);
    let (tx, rx) = live::channel();
    let h = tokio::spawn(async move {
        f.run(None, tx).await.unwrap();
    });
    (rx, h)
}

#[tokio::test]
async fn appends_and_partial_lines() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("frames.jsonl");
    std::fs::write(&path, [line(0, 1), line(1, 1)].concat()).unwrap();
    let (mut rx, h) = start(&path);
    let mut log = Log::default();
    until(&mut rx, &mut log, |l| l.seqs() == [0, 1]).await;
    // One write: a whole line and the first half of the next.
    let third = line(3, 1);
    let (head, tail) = third.split_at(20);
    append(&path, &format!("{}{head}", line(2, 1)));
    until(&mut rx, &mut log, |l| l.seqs() == [0, 1, 2]).await;
    append(&path, tail);
    until(&mut rx, &mut log, |l| l.seqs() == [0, 1, 2, 3]).await;
    assert!(
        !log.has("!"),
        "no diagnostic for a line written in two pieces: {:?}",
        log.0
    );
    stop(rx, h).await;
}

#[tokio::test]
async fn truncation_reads_again_from_the_start() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("session.jsonl");
    std::fs::write(&path, (0..5).map(|s| line(s, 1)).collect::<String>()).unwrap();
    let (mut rx, h) = start(&path);
    let mut log = Log::default();
    until(&mut rx, &mut log, |l| l.seqs().len() == 5).await;
    // Rewritten shorter: the follower sees the size drop.
    std::fs::write(&path, line(0, 9)).unwrap();
    until(&mut rx, &mut log, |l| l.seqs().len() == 6).await;
    let i = log
        .0
        .iter()
        .position(|s| s.contains("truncated"))
        .expect("a diagnostic");
    assert_eq!(log.0[i + 1], "reset");
    assert_eq!(log.0[i + 2], "0");
    stop(rx, h).await;
}

#[tokio::test]
async fn rotation_reads_the_new_file_from_its_start() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("frames.jsonl");
    std::fs::write(&path, [line(0, 1), line(1, 1)].concat()).unwrap();
    let (mut rx, h) = start(&path);
    let mut log = Log::default();
    until(&mut rx, &mut log, |l| l.seqs() == [0, 1]).await;
    // The old file gets one more line, then is renamed away; a new file
    // takes its place.
    append(&path, &line(2, 1));
    std::fs::rename(&path, dir.path().join("frames.jsonl.1")).unwrap();
    std::fs::write(&path, [line(3, 1), line(4, 1)].concat()).unwrap();
    until(&mut rx, &mut log, |l| l.seqs() == [0, 1, 2, 3, 4]).await;
    assert!(
        log.has("!") && log.0.iter().any(|s| s.contains("rotated")),
        "{:?}",
        log.0
    );
    stop(rx, h).await;
}

#[tokio::test]
async fn a_missing_file_is_waited_for() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("later.jsonl");
    let (mut rx, h) = start(&path);
    let mut log = Log::default();
    until(&mut rx, &mut log, |l| l.has("!")).await;
    std::fs::write(&path, line(0, 1)).unwrap();
    until(&mut rx, &mut log, |l| l.seqs() == [0]).await;
    stop(rx, h).await;
}

#[tokio::test]
async fn follow_latest_waits_for_the_agents_first_session_of_the_directory() {
    use deck::agents::codex::Codex;
    use deck::load::follow::Latest;
    let root = tempfile::tempdir().unwrap();
    let day = root.path().join("sessions/2026/12/01");
    let meta = |cwd: &str| {
        format!(
            "{{\"timestamp\":\"2026-12-01T10:00:00Z\",\"ordinal\":0,\"type\":\"session_meta\",\"payload\":{{\"id\":\"x\",\"cwd\":\"{cwd}\"}}}}\n"
        )
    };
    let mut f = Follow::latest(Latest {
        agent: &Codex,
        root: root.path().to_path_buf(),
        cwd: "/work/proj".into(),
        since: std::time::SystemTime::now() - Duration::from_secs(1),
    });
    f.poll = Duration::from_millis(10);
    let (tx, mut rx) = live::channel();
    let h = tokio::spawn(async move { f.run(None, tx).await.unwrap() });
    let mut log = Log::default();
    // Nothing yet: deck says what it waits for, and where.
    until(&mut rx, &mut log, |l| {
        l.has("!no Codex session for /work/proj")
    })
    .await;
    assert!(
        log.has("!no Codex session for /work/proj in"),
        "{:?}",
        log.0
    );
    assert!(
        log.0[0].ends_with("waiting for one to appear"),
        "{:?}",
        log.0
    );
    // Another directory's session is not it; this directory's is.
    std::fs::create_dir_all(&day).unwrap();
    std::fs::write(day.join("rollout-other.jsonl"), meta("/work/other")).unwrap();
    let prompt = "{\"timestamp\":\"2026-12-01T10:00:01Z\",\"ordinal\":1,\"type\":\"response_item\",\"payload\":{\"type\":\"message\",\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"hi\"}]}}\n";
    std::fs::write(day.join("rollout-here.jsonl"), meta("/work/proj") + prompt).unwrap();
    until(&mut rx, &mut log, |l| l.has("!following")).await;
    let following = log.0.iter().find(|s| s.starts_with("!following")).unwrap();
    assert!(following.ends_with("rollout-here.jsonl"), "{following}");
    // Then it is followed as a file is: its lines come as records.
    until(&mut rx, &mut log, |l| {
        l.0.iter().any(|s| !s.starts_with('!'))
    })
    .await;
    stop(rx, h).await;
}

/// A big file followed: its end comes first (the last lines' records,
/// decoded as the whole read decodes them), then the whole from its start,
/// then `CaughtUp` once the read is at the end, then what is appended.
#[tokio::test]
async fn a_big_file_shows_its_end_first_then_the_whole_from_its_start() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("frames.jsonl");
    // ~2.5 MB: more than the first window read from the end (1 MiB).
    let n = 40_000u64;
    std::fs::write(
        &path,
        (0..n).map(|s| line(s, s / 10 + 1)).collect::<String>(),
    )
    .unwrap();
    let mut f = Follow::new(&path);
    f.poll = Duration::from_millis(10);
    f.ahead_from = Some(1 << 20);
    let (tx, mut rx) = live::channel();
    let h = tokio::spawn(async move {
        f.run(None, tx).await.unwrap();
    });
    let (mut end, mut whole, mut caught) = (Vec::new(), Vec::new(), None);
    let run = async {
        loop {
            match rx.recv().await.expect("follow stopped") {
                LiveEvent::Ahead(a) => {
                    assert!(
                        whole.is_empty() && end.is_empty(),
                        "the end comes first, once"
                    );
                    assert_eq!(a.size, std::fs::metadata(&path).unwrap().len());
                    end.extend(a.records.iter().filter_map(Record::seq));
                }
                LiveEvent::Records(rs) => whole.extend(rs.iter().filter_map(Record::seq)),
                LiveEvent::CaughtUp => {
                    caught = Some(whole.len());
                    append(&path, &line(n, n / 10 + 1));
                }
                _ => {}
            }
            if caught.is_some() && whole.last() == Some(&n) {
                break;
            }
        }
    };
    tokio::time::timeout(LIMIT, run).await.expect("in time");
    assert!(
        end.len() >= 200,
        "a screen of records from the end: {}",
        end.len()
    );
    let first = n - end.len() as u64;
    assert_eq!(
        end,
        (first..n).collect::<Vec<_>>(),
        "the end is the file's last lines"
    );
    assert_eq!(
        caught,
        Some(n as usize),
        "caught up when the whole was read"
    );
    assert_eq!(
        whole,
        (0..=n).collect::<Vec<_>>(),
        "then the whole from its start"
    );
    stop(rx, h).await;
}

/// A file under the size, or compressed: read from its start only.
#[tokio::test]
async fn a_small_or_compressed_file_has_no_end_first() {
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes) in [
        (
            "small.jsonl",
            (0..100u64)
                .map(|s| line(s, 1))
                .collect::<String>()
                .into_bytes(),
        ),
        ("big.jsonl.zst", {
            let text: String = (0..40_000u64).map(|s| line(s, 1)).collect();
            // Stored, not compressed: as long as the text, still zstd's.
            let mut z = zstd::bulk::compress(text.as_bytes(), 1).unwrap();
            z.resize(text.len(), 0);
            z
        }),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let mut f = Follow::new(&path);
        f.poll = Duration::from_millis(10);
        f.ahead_from = Some(0);
        let (tx, mut rx) = live::channel();
        let h = tokio::spawn(async move {
            let _ = f.run(None, tx).await;
        });
        let first = tokio::time::timeout(LIMIT, async {
            loop {
                match rx.recv().await {
                    Some(LiveEvent::Ahead(_)) => return "ahead",
                    Some(LiveEvent::CaughtUp) => return "caught up",
                    Some(LiveEvent::Records(_) | LiveEvent::Diagnostic(_)) | None => return "read",
                    Some(_) => {}
                }
            }
        })
        .await
        .expect("in time");
        assert_eq!(first, "read", "{name}");
        drop(rx);
        let _ = tokio::time::timeout(LIMIT, h).await;
    }
}
