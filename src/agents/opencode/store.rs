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
//! they are stepped through, never all held.

use std::path::Path;

use rusqlite::types::ValueRef;
use rusqlite::{Connection, OpenFlags, Row, Statement};
use serde_json::{Map, Value};

/// The tables and columns a database must have to be OpenCode's.
const SHAPE: &[(&str, &[&str])] = &[
    ("session", &["id", "directory", "title", "time_created"]),
    ("message", &["id", "session_id", "time_created", "data"]),
    ("part", &["id", "message_id", "session_id", "data"]),
];

/// The rows of the database at `path`, each to `row`; `None`: it is not
/// OpenCode's (or not a database that opens).
pub(super) fn rows(path: &Path, row: &mut dyn FnMut(Value)) -> Option<Result<(), String>> {
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(path, flags).ok()?;
    // A writer holding the database a moment: wait for it rather than fail.
    conn.busy_timeout(std::time::Duration::from_secs(5)).ok()?;
    match is_opencodes(&conn) {
        Ok(true) => {}
        Ok(false) => return None,
        Err(e) => return Some(Err(format!("cannot read the database: {e}"))),
    }
    Some(read(&conn, row).map_err(|e| format!("cannot read OpenCode's database: {e}")))
}

/// Whether its schema has OpenCode's tables and columns.
fn is_opencodes(conn: &Connection) -> rusqlite::Result<bool> {
    for (table, columns) in SHAPE {
        let mut st = conn.prepare("SELECT name FROM pragma_table_info(?1)")?;
        let have: Vec<String> = st
            .query_map([table], |r| r.get::<_, String>(0))?
            .collect::<rusqlite::Result<_>>()?;
        if !columns.iter().all(|c| have.iter().any(|h| h == c)) {
            return Ok(false);
        }
    }
    Ok(true)
}

fn read(conn: &Connection, row: &mut dyn FnMut(Value)) -> rusqlite::Result<()> {
    // One read transaction: every query sees the same state.
    conn.execute_batch("BEGIN")?;
    let sessions: Vec<Map<String, Value>> = {
        let mut st = conn.prepare("SELECT * FROM session ORDER BY time_created, id")?;
        each(&mut st, (), "session", Ok)?
    };
    let mut messages = conn.prepare("SELECT * FROM message WHERE session_id = ?1 ORDER BY time_created, id")?;
    let mut parts = conn.prepare("SELECT * FROM part WHERE message_id = ?1 ORDER BY id")?;
    for session in sessions {
        let id = session.get("id").and_then(Value::as_str).unwrap_or_default().to_string();
        row(Value::Object(session));
        let mut ids = messages.query([&id])?;
        let names = columns(ids.as_ref());
        while let Some(r) = ids.next()? {
            let message = object(r, &names, "message");
            let mid = message.get("id").and_then(Value::as_str).unwrap_or_default().to_string();
            row(Value::Object(message));
            each(&mut parts, [&mid], "part", |o| {
                row(Value::Object(o));
                Ok(())
            })?;
        }
    }
    conn.execute_batch("COMMIT")?;
    Ok(())
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
    fn another_database_is_not_opencodes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("other.db");
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch("CREATE TABLE session (id TEXT); INSERT INTO session VALUES ('x');").unwrap();
        drop(conn);
        assert!(rows(&path, &mut |_| {}).is_none());
        assert!(rows(&dir.path().join("missing.db"), &mut |_| {}).is_none());
    }
}
