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
