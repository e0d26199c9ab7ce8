//! `deck follow` of a pi session (`tests/fixtures/agents/pi/tour/`): its
//! tree is drawn as the path to its last entry, known only from the whole
//! file, so the follow reads the file again as it grows — the cards arrive
//! as pi writes them (not only when the file ends), and once it is all
//! there they are the cards `deck view` draws of the file, its branch said.

use std::io::Write;
use std::time::Duration;

use deck::load::follow::Follow;
use deck::source::live::{self, LiveEvent};
use deck::wire::Record;
use tokio::sync::mpsc::Receiver;

use crate::common::agent_tour::fixture;

const TOUR: &str = "pi/tour/2026-12-04T10-19-52-759Z_01a24091-4836-74ba-9643-b89fe1f6b26a.jsonl";

/// The records after the last reset, and what was said.
#[derive(Default)]
struct Seen {
    records: Vec<Record>,
    said: Vec<String>,
}

impl Seen {
    fn calls(&self) -> Vec<String> {
        let t = deck::session::Transcript::from_records(None, &self.records, deck::stock());
        t.cards().iter().map(|c| c.call_id.clone()).collect()
    }
}

async fn until(rx: &mut Receiver<LiveEvent>, seen: &mut Seen, done: impl Fn(&Seen) -> bool) {
    let run = async {
        while !done(seen) {
            match rx.recv().await.expect("follow stopped") {
                LiveEvent::Reset { .. } => seen.records.clear(),
                LiveEvent::Records(rs) => seen.records.extend(rs),
                LiveEvent::Diagnostic(d) => seen.said.push(d.reason),
                _ => {}
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(30), run)
        .await
        .expect("in time");
}

#[tokio::test]
async fn a_pi_session_is_drawn_as_it_grows_and_ends_as_view_draws_it() {
    let text = std::fs::read_to_string(fixture(TOUR)).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // What `deck view` draws of the whole file: its calls, in order.
    let whole = deck::load::load_path(&fixture(TOUR)).unwrap();
    let want: Vec<String> =
        deck::session::Transcript::from_records(None, &whole.sessions[0].records, deck::stock())
            .cards()
            .iter()
            .map(|c| c.call_id.clone())
            .collect();
    assert!(want.len() > 3, "{want:?}");

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("session.jsonl");
    // The first turn's lines: up to the first result.
    let first = lines
        .iter()
        .position(|l| l.contains("\"toolResult\""))
        .unwrap()
        + 1;
    std::fs::write(&path, lines[..first].join("\n") + "\n").unwrap();

    let mut f = Follow::new(&path);
    f.poll = Duration::from_millis(10);
    let (tx, mut rx) = live::channel();
    let h = tokio::spawn(async move { f.run(None, tx).await.unwrap() });
    let mut seen = Seen::default();
    // Drawn while the file is still being written.
    until(&mut rx, &mut seen, |s| !s.calls().is_empty()).await;
    assert_eq!(seen.calls()[0], want[0]);

    // The rest, appended as pi appends it.
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    for l in &lines[first..] {
        writeln!(file, "{l}").unwrap();
    }
    file.flush().unwrap();
    until(&mut rx, &mut seen, |s| s.calls() == want).await;
    assert_eq!(seen.calls(), want);
    // The branch pi left is said, as `deck view` says it.
    let branch = |r: &Record| matches!(r, Record::Diagnostic(d) if d.reason.contains("the session's tree branches"));
    assert!(seen.records.iter().any(branch), "{:?}", seen.said);

    drop(rx);
    tokio::time::timeout(Duration::from_secs(30), h)
        .await
        .expect("stops")
        .unwrap();
}
