use super::*;

#[test]
fn backfilled_events_are_put_in_seq_order_with_their_frames() {
    let text = [
        r#"{"type":"session/subscribed","sessionId":"s","lastSeq":0}"#,
        r#"{"type":"session/event","sessionId":"s","event":{"type":"turn/start","seq":0,"time":1,"data":{"turn":1}}}"#,
        r#"{"type":"session/event","sessionId":"s","event":{"type":"turn/start","seq":3,"time":4,"data":{"turn":1}}}"#,
        r#"{"type":"question/requested","sessionId":"s","questions":[]}"#,
        r#"{"type":"session/event","sessionId":"s","event":{"type":"turn/start","seq":1,"time":2,"data":{"turn":1}}}"#,
        r#"{"type":"session/event","sessionId":"s","event":{"type":"turn/start","seq":2,"time":3,"data":{"turn":1}}}"#,
    ]
    .join("\n");
    let loaded = load_bytes("t", text.as_bytes()).unwrap();
    let tags: Vec<String> = loaded.sessions[0]
        .records
        .iter()
        .map(|r| match r {
            Record::Event { event, .. } => event.seq.to_string(),
            Record::Frame { kind, .. } => kind.clone(),
            Record::Diagnostic(_) => "!".into(),
            Record::Nested { .. } => "n".into(),
        })
        .collect();
    assert_eq!(
        tags,
        vec![
            "session/subscribed",
            "0",
            "1",
            "2",
            "3",
            "question/requested"
        ]
    );
    // Lines keep their own numbers.
    assert_eq!(loaded.sessions[0].records[2].origin().line, 5);
}

/// Endless bytes, counting what was read.
struct Counting<R> {
    inner: R,
    read: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
        Ok(n)
    }
}

/// 8 MiB of pseudo-random bytes with a line of a real frame every 2 MiB
/// after the first (a program holding JSON, as deck's own binary holds its
/// demo session).
struct Noise {
    state: u64,
    at: usize,
}

impl Read for Noise {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.at >= 8 << 20 {
            return Ok(0);
        }
        let len = buf.len().min((8 << 20) - self.at);
        let buf = &mut buf[..len];
        let frame = b"\n{\"type\":\"session/event\",\"sessionId\":\"s\",\"event\":{\"type\":\"turn/start\",\"seq\":1,\"time\":1,\"data\":{\"turn\":1}}}\n";
        for b in buf.iter_mut() {
            self.at += 1;
            if self.at % (2 << 20) < frame.len() && self.at > DETECT {
                *b = frame[self.at % (2 << 20)];
                continue;
            }
            self.state ^= self.state << 13;
            self.state ^= self.state >> 7;
            self.state ^= self.state << 17;
            *b = (self.state >> 24) as u8;
        }
        Ok(buf.len())
    }
}

/// Binary data is refused from its first MiB, whatever its size: the
/// stream is read no further than that, though frames follow.
#[test]
fn binary_data_is_refused_from_its_first_mib() {
    let read = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let input = Counting {
        inner: Noise { state: 7, at: 0 },
        read: read.clone(),
    };
    let got = load_reader("noise.bin", input).unwrap();
    assert!(
        matches!(got, Err(LoadError::Binary(_))),
        "{:?}",
        got.map(|l| l.format)
    );
    let n = read.load(std::sync::atomic::Ordering::Relaxed);
    assert!(n <= DETECT + (128 << 10), "read {n} bytes");
    // A log behind a few bytes of garbage (a NUL-padded start) still loads.
    let log = "\0\0\u{1}garbage\n{\"type\":\"session/event\",\"sessionId\":\"s\",\"event\":{\"type\":\"turn/start\",\"seq\":1,\"time\":1,\"data\":{\"turn\":1}}}\n";
    assert!(load_bytes("padded", log.as_bytes()).is_ok());
}

/// aider's history: markdown, its lines handed to its reader as text, read
/// whole (streamed through the block decoder) and followed line by line
/// (`stream::LineStream`) alike.
#[test]
fn a_text_line_session_is_read_whole_and_followed_the_same() {
    let text = include_str!("../../tests/fixtures/agents/aider/tour/.aider.chat.history.md");
    let kinds = |records: &[Record]| -> Vec<String> {
        records
            .iter()
            .map(|r| match r {
                Record::Event { event, .. } => event.kind.as_str().to_string(),
                Record::Frame { kind, .. } => kind.clone(),
                Record::Diagnostic(d) => format!("! {}", d.reason),
                Record::Nested { .. } => "n".into(),
            })
            .collect()
    };
    let loaded = load_bytes("h", text.as_bytes()).unwrap();
    assert_eq!(loaded.format, Format::Aider);
    assert_eq!(loaded.sessions.len(), 1);
    assert_eq!(loaded.sessions[0].id.as_deref(), Some("aider-20261204-102139"));
    let whole = kinds(&loaded.sessions[0].records);
    assert_eq!(whole.iter().filter(|k| *k == "tool/call").count(), 4, "{whole:?}");
    assert!(!whole.iter().any(|k| k.starts_with('!')), "{whole:?}");
    // Followed, fed in pieces that cut lines.
    let mut s = stream::LineStream::new(None, stream::Selection::new(None), None);
    let mut out = crate::source::feed::Output::default();
    for piece in text.as_bytes().chunks(97) {
        s.feed(piece, &mut out).unwrap();
    }
    s.finish(&mut out).unwrap();
    let followed = kinds(&out.records);
    // The same records (the header sent once more as it learns the model).
    let events = |k: &[String]| k.iter().filter(|k| *k != "session").cloned().collect::<Vec<_>>();
    assert_eq!(events(&followed), events(&whole));
    // A JSON log is not taken for one.
    let json = r#"{"type":"session/event","sessionId":"s","event":{"type":"turn/start","seq":0,"time":1,"data":{"turn":1}}}"#;
    assert_ne!(load_bytes("j", format!("\n{json}\n").as_bytes()).unwrap().format, Format::Aider);
}

/// Every file of the repo's fixtures and demo sessions that a session may
/// be (`.jsonl`, `.json`, `.zstd`, `.db`), in path order.
pub(crate) fn fixture_files() -> Vec<std::path::PathBuf> {
    fn under(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().collect();
        entries.sort_by_key(|e| e.path());
        for e in entries {
            let p = e.path();
            if p.is_dir() {
                under(&p, out);
            } else if p
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| [".jsonl", ".json", ".zstd", ".db"].iter().any(|e| n.ends_with(e)))
            {
                out.push(p);
            }
        }
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    under(&root.join("tests/fixtures"), &mut files);
    under(&root.join("demo-sessions"), &mut files);
    assert!(files.len() > 30, "{files:?}");
    files
}

/// Read `path` streamed, its pieces put together again: the end, and what
/// a whole load would return.
fn streamed(path: &str) -> (Option<String>, Result<Loaded, LoadError>) {
    let (tx, rx) = std::sync::mpsc::sync_channel(4);
    let name = path.to_string();
    let read = std::sync::Arc::default();
    let reader = std::thread::spawn(move || stream_path(&name, &read, tx));
    let mut held = Gathered::default();
    let end = rx.iter().find_map(|piece| held.put(piece)).expect("an end");
    reader.join().unwrap();
    let (read, inexact) = end;
    let loaded = read.map(|s| held.loaded(path, s, std::time::Duration::ZERO));
    (inexact, loaded)
}

#[test]
fn every_fixture_streamed_is_what_a_whole_load_gives_or_says_why_not() {
    let mut inexact = Vec::new();
    for f in fixture_files() {
        let path = f.to_str().unwrap();
        let whole = load_path(path);
        let (why, got) = streamed(path);
        if let Some(why) = why {
            inexact.push((path.to_string(), why));
            continue;
        }
        match (whole, got) {
            (Ok(w), Ok(g)) => {
                assert_eq!((g.format, g.compressed, g.lines), (w.format, w.compressed, w.lines), "{path}");
                assert_eq!(g.sessions.len(), w.sessions.len(), "{path}");
                for (a, b) in g.sessions.iter().zip(&w.sessions) {
                    assert_eq!((&a.id, &a.header), (&b.id, &b.header), "{path}");
                    assert_eq!(a.records, b.records, "{path}");
                }
            }
            (Err(w), Err(g)) => assert_eq!(g.to_string(), w.to_string(), "{path}"),
            (w, g) => panic!("{path}: whole {:?}, streamed {:?}", w.err(), g.err()),
        }
    }
    // Only Claude Code sessions whose subagents are beside them (placed
    // among the records by time) cannot be streamed as they are.
    assert!(
        inexact.iter().all(|(f, why)| f.contains("claude-code/") && why.contains("subagents")),
        "{inexact:#?}"
    );
}

#[test]
fn events_out_of_seq_order_are_streamed_as_they_come_and_said_inexact() {
    let text = [
        r#"{"type":"session/event","sessionId":"s","event":{"type":"turn/start","seq":3,"time":4,"data":{"turn":1}}}"#,
        r#"{"type":"session/event","sessionId":"s","event":{"type":"turn/start","seq":1,"time":2,"data":{"turn":1}}}"#,
    ]
    .join("\n");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.jsonl");
    std::fs::write(&path, text).unwrap();
    let (why, got) = streamed(path.to_str().unwrap());
    assert!(why.unwrap().contains("seq order"));
    // Put together again, they are in order as a whole load has them.
    let seqs: Vec<_> = got.unwrap().sessions[0].records.iter().filter_map(Record::seq).collect();
    assert_eq!(seqs, [1, 3]);
}
