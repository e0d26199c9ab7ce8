//! `deck follow` of OpenCode's database: a copy of the tour's
//! (`tests/fixtures/agents/opencode/tour/opencode.db`, put in WAL mode as
//! OpenCode keeps it) followed while rows are written into it — a new
//! prompt, a response with its text and a call, then the call's part
//! updated in place from `running` to `completed` — each change arriving as
//! a reset and the session again; `--latest opencode` finding the session
//! of a directory in a home's database, or waiting for the first.

use crate::common::follow::stop;
use std::path::{Path, PathBuf};
use std::time::Duration;

use deck::agents::opencode::OpenCode;
use deck::load::follow::{Follow, Latest};
use deck::session::{Status, Transcript};
use deck::source::live::{self, LiveEvent};
use deck::wire::Record;
use rusqlite::Connection;
use tokio::sync::mpsc::Receiver;

const LIMIT: Duration = Duration::from_secs(30);
const SESSION: &str = "ses_dbfc8bfceffeeyjpCqWspa9EcY";

fn copy_of_the_tour(dir: &Path) -> PathBuf {
    let db = dir.join("opencode.db");
    std::fs::copy(
        format!(
            "{}/tests/fixtures/agents/opencode/tour/opencode.db",
            env!("CARGO_MANIFEST_DIR")
        ),
        &db,
    )
    .unwrap();
    db
}

/// A writer as OpenCode is one: the database in WAL mode, held open.
fn writer(db: &Path) -> Connection {
    let conn = Connection::open(db).unwrap();
    let mode: String = conn
        .query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
    conn
}

/// What a follow sent: each reset starts a new transcript of the records
/// after it; the diagnostics, in order.
#[derive(Default)]
struct Seen {
    resets: Vec<Option<String>>,
    records: Vec<Record>,
    said: Vec<String>,
}

impl Seen {
    /// The session as the last reset and its records fold it.
    fn transcript(&self) -> Transcript {
        Transcript::from_records(
            self.resets.last().cloned().flatten(),
            &self.records,
            deck::stock(),
        )
    }

    fn card(&self, call: &str) -> Option<Status> {
        let t = self.transcript();
        t.cards()
            .iter()
            .find(|c| c.call_id == call)
            .map(|c| c.status)
    }
}

/// Take events until `done` holds of what was seen (fails after 30 s).
async fn until(rx: &mut Receiver<LiveEvent>, seen: &mut Seen, done: impl Fn(&Seen) -> bool) {
    let run = async {
        while !done(seen) {
            match rx.recv().await.expect("follow stopped") {
                LiveEvent::Reset { session_id } => {
                    seen.resets.push(session_id);
                    seen.records.clear();
                }
                LiveEvent::Records(rs) => seen.records.extend(rs),
                LiveEvent::Diagnostic(d) => seen.said.push(d.reason),
                _ => {}
            }
        }
    };
    tokio::time::timeout(LIMIT, run).await.expect("in time");
}

fn start(mut f: Follow) -> (Receiver<LiveEvent>, tokio::task::JoinHandle<()>) {
    f.poll = Duration::from_millis(10);
    let (tx, rx) = live::channel();
    let h = tokio::spawn(async move { f.run(None, tx).await.unwrap() });
    (rx, h)
}

const T: i64 = 1_796_373_800_000;

fn tool_part(status: &str) -> String {
    let done = match status {
        "completed" => {
            r#","output":"hello\n","metadata":{"exit":0},"time":{"start":1796373800300,"end":1796373800450}"#
        }
        _ => r#","time":{"start":1796373800300}"#,
    };
    format!(
        r#"{{"type":"tool","tool":"bash","callID":"call_follow","state":{{"status":"{status}","input":{{"command":"echo hello","description":"Say hello"}}{done}}}}}"#
    )
}

#[tokio::test]
async fn the_database_followed_as_opencode_writes_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = copy_of_the_tour(dir.path());
    let w = writer(&db);
    let (mut rx, h) = start(Follow::new(&db));
    let mut seen = Seen::default();
    // The session there: read whole, its eleven calls.
    until(&mut rx, &mut seen, |s| s.transcript().cards().len() == 11).await;
    assert_eq!(seen.resets, [Some(SESSION.to_string())]);
    assert!(seen.said.is_empty(), "{:?}", seen.said);

    // A prompt, and a response calling a tool that is running (written at
    // once, as OpenCode writes a message and its parts: one change seen).
    w.execute_batch("BEGIN").unwrap();
    let add = |sql: &str, params: &[&dyn rusqlite::ToSql]| {
        w.execute(sql, params).unwrap();
    };
    let message = "INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?1, ?2, ?3, ?3, ?4)";
    let part = "INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?1, ?2, ?3, ?4, ?4, ?5)";
    add(
        message,
        &[
            &"msg_zz1",
            &SESSION,
            &T,
            &r#"{"role":"user","time":{"created":1796373800000}}"#,
        ],
    );
    add(
        part,
        &[
            &"prt_zz1",
            &"msg_zz1",
            &SESSION,
            &T,
            &r#"{"type":"text","text":"Say hello, please"}"#,
        ],
    );
    add(
        message,
        &[
            &"msg_zz2",
            &SESSION,
            &(T + 100),
            &r#"{"role":"assistant","providerID":"fake","modelID":"fake-model","time":{"created":1796373800100}}"#,
        ],
    );
    add(
        part,
        &[
            &"prt_zz2",
            &"msg_zz2",
            &SESSION,
            &(T + 200),
            &r#"{"type":"text","text":"Saying hello."}"#,
        ],
    );
    add(
        part,
        &[
            &"prt_zz3",
            &"msg_zz2",
            &SESSION,
            &(T + 300),
            &tool_part("running"),
        ],
    );
    w.execute_batch("COMMIT").unwrap();
    until(&mut rx, &mut seen, |s| s.card("call_follow").is_some()).await;
    assert_eq!(seen.card("call_follow"), Some(Status::Pending));
    let t = seen.transcript();
    assert_eq!(t.cards().len(), 12, "the new card, once");
    let items = format!("{:?}", t.items());
    assert!(items.contains("Say hello, please") && items.contains("Saying hello."));
    assert_eq!(seen.resets.len(), 2, "one reset per change seen");

    // The call completes: its part updated in place.
    w.execute(
        "UPDATE part SET data = ?1, time_updated = ?2 WHERE id = 'prt_zz3'",
        rusqlite::params![tool_part("completed"), T + 450],
    )
    .unwrap();
    until(&mut rx, &mut seen, |s| {
        s.card("call_follow") == Some(Status::Ok)
    })
    .await;
    let t = seen.transcript();
    let card = t
        .cards()
        .iter()
        .find(|c| c.call_id == "call_follow")
        .unwrap();
    assert_eq!(
        card.result.as_ref().and_then(|r| r.recorded.duration_ms),
        Some(150)
    );
    assert_eq!(t.cards().len(), 12);

    // Another session's writes change the file, not this session: nothing
    // is sent again.
    let resets = seen.resets.len();
    w.execute_batch(
        "INSERT INTO session (id, project_id, slug, directory, title, version, time_created, time_updated)
         SELECT 'ses_other', project_id, 'other', '/elsewhere', 'Other', version, time_created, time_updated
         FROM session LIMIT 1",
    )
    .unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    while let Ok(ev) = rx.try_recv() {
        assert!(
            !matches!(ev, LiveEvent::Reset { .. } | LiveEvent::Records(_)),
            "{ev:?}"
        );
    }
    assert_eq!(seen.resets.len(), resets);

    // The session deleted: the follow says so and ends.
    w.execute_batch(&format!(
        "DELETE FROM part WHERE session_id = '{SESSION}'; DELETE FROM message WHERE session_id = '{SESSION}'; DELETE FROM session WHERE id = '{SESSION}';"
    ))
    .unwrap();
    until(&mut rx, &mut seen, |s| {
        s.said.iter().any(|d| d.contains("no longer in"))
    })
    .await;
    tokio::time::timeout(LIMIT, h).await.expect("ends").unwrap();
    drop(w);
}

#[tokio::test]
async fn a_session_not_there_or_a_database_of_another_program_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let db = copy_of_the_tour(dir.path());
    let mut f = Follow::new(&db);
    f.session = Some("ses_nope".into());
    let (mut rx, h) = start(f);
    let mut seen = Seen::default();
    until(&mut rx, &mut seen, |s| !s.said.is_empty()).await;
    assert!(
        seen.said[0].starts_with("no session ses_nope in "),
        "{:?}",
        seen.said
    );
    tokio::time::timeout(LIMIT, h).await.expect("ends").unwrap();

    let other = dir.path().join("other.db");
    Connection::open(&other)
        .unwrap()
        .execute_batch("CREATE TABLE t (x); INSERT INTO t VALUES (1);")
        .unwrap();
    let (mut rx, h) = start(Follow::new(&other));
    let mut seen = Seen::default();
    until(&mut rx, &mut seen, |s| !s.said.is_empty()).await;
    assert!(
        seen.said[0].contains("no agent's session store"),
        "{:?}",
        seen.said
    );
    tokio::time::timeout(LIMIT, h).await.expect("ends").unwrap();
}

#[tokio::test]
async fn follow_latest_takes_the_directorys_session_or_waits_for_its_first() {
    let root = tempfile::tempdir().unwrap();
    let db = copy_of_the_tour(root.path());
    let latest = |cwd: &str| {
        Follow::latest(Latest {
            agent: &OpenCode,
            root: root.path().to_path_buf(),
            cwd: cwd.into(),
            since: std::time::SystemTime::now() - Duration::from_secs(1),
        })
    };
    // The tour's directory: its session, at once.
    let (mut rx, h) = start(latest("/workspace/demo"));
    let mut seen = Seen::default();
    until(&mut rx, &mut seen, |s| !s.records.is_empty()).await;
    assert_eq!(seen.resets, [Some(SESSION.to_string())]);
    stop(rx, h).await;

    // Another directory: waited for, then its session (not the tour's).
    let (mut rx, h) = start(latest("/work/proj"));
    let mut seen = Seen::default();
    until(&mut rx, &mut seen, |s| {
        s.said
            .iter()
            .any(|d| d.contains("no OpenCode session for /work/proj in"))
    })
    .await;
    writer(&db)
        .execute_batch(
            "INSERT INTO session (id, project_id, slug, directory, title, version, time_created, time_updated)
             SELECT 'ses_proj', project_id, 'proj', '/work/proj', 'Here', version, 1796373800000, 1796373800000
             FROM session LIMIT 1",
        )
        .unwrap();
    until(&mut rx, &mut seen, |s| !s.resets.is_empty()).await;
    assert_eq!(seen.resets, [Some("ses_proj".to_string())]);
    stop(rx, h).await;
}

#[test]
fn follow_latest_opencode_finds_the_session_of_this_directory_in_the_homes_database() {
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let data = home.path().join("data");
    let run = || {
        crate::common::deck_cmd()
            .args(["follow", "--latest", "opencode"])
            .current_dir(work.path())
            .env("HOME", home.path())
            .env("XDG_DATA_HOME", &data)
            .output()
            .unwrap()
    };
    // No database: where deck looked.
    let err = crate::common::stderr(&run());
    assert!(err.contains("no OpenCode database at"), "{err}");
    assert!(err.contains("data/opencode/opencode.db"), "{err}");
    // A database with no session of this directory.
    std::fs::create_dir_all(data.join("opencode")).unwrap();
    let db = copy_of_the_tour(&data.join("opencode"));
    let err = crate::common::stderr(&run());
    assert!(err.contains("no OpenCode session for"), "{err}");
    // The session's directory is this one: found, and then deck wants a
    // terminal (the tests have none), which it says.
    let cwd = std::fs::canonicalize(work.path()).unwrap();
    Connection::open(&db)
        .unwrap()
        .execute("UPDATE session SET directory = ?1", [cwd.to_string_lossy()])
        .unwrap();
    let err = crate::common::stderr(&run());
    assert!(err.contains("needs a terminal"), "{err}");
}
