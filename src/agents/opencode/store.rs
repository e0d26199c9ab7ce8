//! OpenCode's database (`opencode.db`, SQLite) read as rows, the lines its
//! reader takes: each session's `session` row, then its messages in the
//! order they were made, each followed by its parts. A row is its columns
//! as a JSON object, its `data` column (JSON text) parsed, tagged with its
//! table: `{"opencode": "message", "id", "session_id", "time_created",
//! "data": {…}}`.
//!
//! The database is opened read-only and read in one transaction (in WAL
//! mode, which OpenCode keeps while it runs, a reader never blocks the
//! agent's writes and sees one consistent state); rows are handed on as
//! they are stepped through, never all held. `deck follow` reads one
//! session at a time ([`session_rows`]), waiting on a writer a moment at
//! most: busy, it says so and looks again later.

use std::path::Path;
use std::time::Duration;

use rusqlite::types::ValueRef;
use rusqlite::{Connection, OpenFlags, Row, Statement};
use serde_json::{Map, Value};

use crate::agents::{DatabaseRead, SessionPick};

/// The tables and columns a database must have to be OpenCode's.
const SHAPE: &[(&str, &[&str])] = &[
    ("session", &["id", "directory", "title", "time_created"]),
    ("message", &["id", "session_id", "time_created", "data"]),
    ("part", &["id", "message_id", "session_id", "data"]),
];

/// How long a read waits on a writer holding the database, for a whole
/// read (`deck view`) and for a look while following (`deck follow`:
/// short, the next look tries again).
const WAIT_WHOLE: Duration = Duration::from_secs(5);
const WAIT_LOOK: Duration = Duration::from_millis(100);

/// The database at `path` opened read-only, waiting at most `wait` on a
/// writer; `None`: no database that opens.
fn open(path: &Path, wait: Duration) -> Option<Connection> {
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(path, flags).ok()?;
    conn.busy_timeout(wait).ok()?;
    Some(conn)
}

/// The rows of the database at `path`, each to `row`; `None`: it is not
/// OpenCode's (or not a database that opens).
pub(super) fn rows(path: &Path, row: &mut dyn FnMut(Value)) -> Option<Result<(), String>> {
    // A writer holding the database a moment: wait for it rather than fail.
    let conn = open(path, WAIT_WHOLE)?;
    match is_opencodes(&conn) {
        Ok(true) => {}
        Ok(false) => return None,
        Err(e) => return Some(Err(format!("cannot read the database: {e}"))),
    }
    Some(read(&conn, row).map_err(|e| format!("cannot read OpenCode's database: {e}")))
}

/// The rows of one session of the database at `path` (the one `pick`
/// names), each to `row`; `None`: it is not OpenCode's.
pub(super) fn session_rows(
    path: &Path,
    pick: SessionPick<'_>,
    row: &mut dyn FnMut(Value),
) -> Option<Result<DatabaseRead, String>> {
    let conn = open(path, WAIT_LOOK)?;
    let read = is_opencodes(&conn).and_then(|ours| match ours {
        true => read_one(&conn, pick, row).map(Some),
        false => Ok(None),
    });
    match read {
        Ok(None) => None,
        Ok(Some(r)) => Some(Ok(r)),
        Err(e) if is_busy(&e) => Some(Ok(DatabaseRead::Busy)),
        Err(e) => Some(Err(format!("cannot read OpenCode's database: {e}"))),
    }
}

/// Whether the database at `path` holds a session (not a subagent's)
/// whose directory is `cwd`: `Ok(false)` when it does not, or is not
/// OpenCode's; why it could not be read otherwise.
pub(super) fn has_session_of(path: &Path, cwd: &Path) -> Result<bool, String> {
    let conn = open(path, WAIT_LOOK).ok_or_else(|| format!("cannot open {}", path.display()))?;
    let look = || -> rusqlite::Result<bool> {
        if !is_opencodes(&conn)? {
            return Ok(false);
        }
        let top = if has_column(&conn, "session", "parent_id")? { " AND parent_id IS NULL" } else { "" };
        let sql = format!("SELECT 1 FROM session WHERE directory = ?1{top} LIMIT 1");
        conn.prepare(&sql)?.exists([cwd.to_string_lossy()])
    };
    look().map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// Whether SQLite said a writer held the database.
fn is_busy(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
    )
}

/// Whether its schema has OpenCode's tables and columns.
fn is_opencodes(conn: &Connection) -> rusqlite::Result<bool> {
    for (table, columns) in SHAPE {
        let have = columns_of(conn, table)?;
        if !columns.iter().all(|c| have.iter().any(|h| h == c)) {
            return Ok(false);
        }
    }
    Ok(true)
}

fn columns_of(conn: &Connection, table: &str) -> rusqlite::Result<Vec<String>> {
    let mut st = conn.prepare("SELECT name FROM pragma_table_info(?1)")?;
    st.query_map([table], |r| r.get::<_, String>(0))?.collect()
}

fn has_column(conn: &Connection, table: &str, column: &str) -> rusqlite::Result<bool> {
    Ok(columns_of(conn, table)?.iter().any(|c| c == column))
}

/// A session's messages, each followed by its parts.
struct Children<'c> {
    messages: Statement<'c>,
    parts: Statement<'c>,
}

impl<'c> Children<'c> {
    fn new(conn: &'c Connection) -> rusqlite::Result<Children<'c>> {
        Ok(Children {
            messages: conn.prepare("SELECT * FROM message WHERE session_id = ?1 ORDER BY time_created, id")?,
            parts: conn.prepare("SELECT * FROM part WHERE message_id = ?1 ORDER BY id")?,
        })
    }

    /// The session `session`'s row, then its messages and parts, to `row`.
    fn read(&mut self, session: Map<String, Value>, row: &mut dyn FnMut(Value)) -> rusqlite::Result<()> {
        let id = session.get("id").and_then(Value::as_str).unwrap_or_default().to_string();
        row(Value::Object(session));
        let mut ids = self.messages.query([&id])?;
        let names = columns(ids.as_ref());
        while let Some(r) = ids.next()? {
            let message = object(r, &names, "message");
            let mid = message.get("id").and_then(Value::as_str).unwrap_or_default().to_string();
            row(Value::Object(message));
            each(&mut self.parts, [&mid], "part", |o| {
                row(Value::Object(o));
                Ok(())
            })?;
        }
        Ok(())
    }
}

fn read(conn: &Connection, row: &mut dyn FnMut(Value)) -> rusqlite::Result<()> {
    // One read transaction: every query sees the same state.
    conn.execute_batch("BEGIN")?;
    let sessions: Vec<Map<String, Value>> = {
        let mut st = conn.prepare("SELECT * FROM session ORDER BY time_created, id")?;
        each(&mut st, (), "session", Ok)?
    };
    let mut children = Children::new(conn)?;
    for session in sessions {
        children.read(session, row)?;
    }
    conn.execute_batch("COMMIT")?;
    Ok(())
}

/// The session `pick` names and its rows, in one read transaction (ended
/// when the connection closes, whatever happens).
fn read_one(conn: &Connection, pick: SessionPick<'_>, row: &mut dyn FnMut(Value)) -> rusqlite::Result<DatabaseRead> {
    conn.execute_batch("BEGIN")?;
    let newest = if has_column(conn, "session", "time_updated")? { "time_updated" } else { "time_created" };
    let top = if has_column(conn, "session", "parent_id")? { "parent_id IS NULL" } else { "1" };
    let (sql, arg) = match pick {
        SessionPick::Id(id) => ("SELECT * FROM session WHERE id = ?1".to_string(), Some(id.to_string())),
        SessionPick::Newest(Some(cwd)) => (
            format!("SELECT * FROM session WHERE directory = ?1 AND {top} ORDER BY {newest} DESC, id DESC LIMIT 1"),
            Some(cwd.to_string_lossy().into_owned()),
        ),
        SessionPick::Newest(None) => (
            format!("SELECT * FROM session WHERE {top} ORDER BY {newest} DESC, id DESC LIMIT 1"),
            None,
        ),
    };
    let mut st = conn.prepare(&sql)?;
    let found = match arg {
        Some(a) => each(&mut st, [a], "session", Ok)?,
        None => each(&mut st, (), "session", Ok)?,
    };
    let Some(session) = found.into_iter().next() else {
        conn.execute_batch("COMMIT")?;
        return Ok(DatabaseRead::Missing);
    };
    let id = session.get("id").and_then(Value::as_str).unwrap_or_default().to_string();
    Children::new(conn)?.read(session, row)?;
    conn.execute_batch("COMMIT")?;
    Ok(DatabaseRead::Read(id))
}

/// `st`'s rows as objects tagged `table`, each to `f`; what `f` returns,
/// gathered.
fn each<P: rusqlite::Params, T>(
    st: &mut Statement<'_>,
    params: P,
    table: &str,
    mut f: impl FnMut(Map<String, Value>) -> rusqlite::Result<T>,
) -> rusqlite::Result<Vec<T>> {
    let names: Vec<String> = st.column_names().into_iter().map(str::to_string).collect();
    let mut rows = st.query(params)?;
    let mut out = Vec::new();
    while let Some(r) = rows.next()? {
        out.push(f(object(r, &names, table))?);
    }
    Ok(out)
}

fn columns(st: Option<&Statement<'_>>) -> Vec<String> {
    st.map(|s| s.column_names().into_iter().map(str::to_string).collect()).unwrap_or_default()
}

/// A row as an object: its columns by name (a `data` column's JSON text
/// parsed; blobs left out), and `opencode`: its table.
fn object(r: &Row<'_>, names: &[String], table: &str) -> Map<String, Value> {
    let mut o = Map::new();
    o.insert("opencode".into(), Value::from(table));
    for (i, name) in names.iter().enumerate() {
        let v = match r.get_ref(i) {
            Ok(ValueRef::Integer(n)) => Value::from(n),
            Ok(ValueRef::Real(x)) => Value::from(x),
            Ok(ValueRef::Text(t)) => {
                let text = String::from_utf8_lossy(t);
                match name.as_str() {
                    "data" => serde_json::from_str(&text).unwrap_or(Value::String(text.into_owned())),
                    _ => Value::String(text.into_owned()),
                }
            }
            Ok(ValueRef::Null) => Value::Null,
            Ok(ValueRef::Blob(_)) | Err(_) => continue,
        };
        o.insert(name.clone(), v);
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture() -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/agents/opencode/tour/opencode.db")
    }

    #[test]
    fn the_tour_as_rows_in_order() {
        let mut got: Vec<Value> = Vec::new();
        rows(&fixture(), &mut |v| got.push(v)).unwrap().unwrap();
        let tables: Vec<&str> = got.iter().map(|v| v["opencode"].as_str().unwrap()).collect();
        assert_eq!(tables.iter().filter(|t| **t == "session").count(), 1);
        assert_eq!(tables.iter().filter(|t| **t == "message").count(), 16);
        assert_eq!(tables.iter().filter(|t| **t == "part").count(), 50);
        assert_eq!(tables[0], "session");
        // Each part after its message, its data parsed.
        let mut message = None;
        for v in &got {
            match v["opencode"].as_str() {
                Some("message") => message = v["id"].as_str(),
                Some("part") => {
                    assert_eq!(v["message_id"].as_str(), message);
                    assert!(v["data"]["type"].is_string());
                }
                _ => {}
            }
        }
    }

    #[test]
    fn one_session_by_id_or_the_newest_of_a_directory() {
        let tour = "ses_dbfc8bfceffeeyjpCqWspa9EcY";
        let one = |pick| {
            let mut got: Vec<Value> = Vec::new();
            let read = session_rows(&fixture(), pick, &mut |v| got.push(v)).unwrap().unwrap();
            (read, got.len())
        };
        assert_eq!(one(SessionPick::Id(tour)), (DatabaseRead::Read(tour.into()), 67));
        assert_eq!(one(SessionPick::Newest(None)), (DatabaseRead::Read(tour.into()), 67));
        let demo = Path::new("/workspace/demo");
        assert_eq!(one(SessionPick::Newest(Some(demo))), (DatabaseRead::Read(tour.into()), 67));
        assert_eq!(one(SessionPick::Newest(Some(Path::new("/nope")))), (DatabaseRead::Missing, 0));
        assert_eq!(one(SessionPick::Id("ses_nope")), (DatabaseRead::Missing, 0));
        assert_eq!(has_session_of(&fixture(), demo), Ok(true));
        assert_eq!(has_session_of(&fixture(), Path::new("/nope")), Ok(false));
    }

    #[test]
    fn a_writer_holding_the_database_is_busy_not_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("opencode.db");
        std::fs::copy(fixture(), &path).unwrap();
        // (The copy keeps a rollback journal: an exclusive lock shuts readers out.)
        let w = Connection::open(&path).unwrap();
        w.execute_batch("BEGIN EXCLUSIVE; UPDATE session SET title = 'x';").unwrap();
        let read = session_rows(&path, SessionPick::Newest(None), &mut |_| {});
        assert_eq!(read, Some(Ok(DatabaseRead::Busy)));
        w.execute_batch("ROLLBACK").unwrap();
        let read = session_rows(&path, SessionPick::Newest(None), &mut |_| {});
        assert!(matches!(read, Some(Ok(DatabaseRead::Read(_)))), "{read:?}");
    }

    #[test]
    fn another_database_is_not_opencodes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("other.db");
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch("CREATE TABLE session (id TEXT); INSERT INTO session VALUES ('x');").unwrap();
        drop(conn);
        assert!(rows(&path, &mut |_| {}).is_none());
        assert!(rows(&dir.path().join("missing.db"), &mut |_| {}).is_none());
        assert!(session_rows(&path, SessionPick::Newest(None), &mut |_| {}).is_none());
    }
}
