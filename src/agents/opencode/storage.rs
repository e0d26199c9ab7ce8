//! OpenCode's older session store: the tree of JSON files it kept before
//! its database (up to 1.1.x; 1.2 copies the tree into `opencode.db` the
//! first time it runs and writes only the database after that), read as
//! the rows the database gives (`store.rs`), for the same reader.
//!
//! Under its data folder's `storage/` (`Storage.write(key)` writes
//! `storage/<key joined by />.json`, pretty-printed JSON):
//!
//! * `session/<project id>/<session id>.json` — a session's info: `id`
//!   (`ses_…`), `projectID`, `directory`, `title`, `version`, `parentID`,
//!   `time.created`; the file a user names (`deck view` takes its path);
//! * `message/<session id>/<message id>.json` — a message, the object the
//!   database's `message.data` holds (with its `id` and `sessionID`);
//! * `part/<message id>/<part id>.json` — a part, `part.data`'s object
//!   (with its `id`, `messageID` and `sessionID`);
//! * and what deck does not read: `project/`, `session_diff/` (a session's
//!   whole-file diffs), `todo/`, `share/`, `migration`.
//!
//! Older still (before its first storage migration), each project had its
//! own tree, `<data>/project/<dir>/storage/session/info/<session id>.json`,
//! `…/session/message/<session id>/<message id>.json`,
//! `…/session/part/<session id>/<message id>/<part id>.json`: read the same
//! way, from the documented layout (no such tree was recorded).
//!
//! A file is a session's info by its content (an object whose `id` starts
//! `ses_`, with a `title` and a `time.created`) in a `session/<folder>/`;
//! its messages are read in the order they were made (`time.created`, then
//! id), each followed by its parts (by id) — one file at a time, never the
//! tree held. A file that cannot be read is said (a row the reader makes a
//! diagnostic of) and the rest still read.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

/// The most an info file can weigh (a few kB in practice): larger, it is
/// not looked into.
const INFO_MAX: u64 = 1 << 20;

/// Where a session's messages and parts are.
#[derive(Debug, PartialEq, Eq)]
struct Layout {
    /// `<id>.json` of each message.
    messages: PathBuf,
    /// `<message id>/<part id>.json`.
    parts: PathBuf,
}

/// Where the messages and parts of session `id` are, its info file being
/// `info` — in a `session/<folder>/`; `None` elsewhere.
fn layout(info: &Path, id: &str) -> Option<Layout> {
    let folder = info.parent()?;
    let session = folder.parent()?;
    if session.file_name()? != "session" {
        return None;
    }
    if folder.file_name()? == "info" && session.join("message").is_dir() {
        // The oldest, per project: storage/session/{info,message,part}/….
        return Some(Layout {
            messages: session.join("message").join(id),
            parts: session.join("part").join(id),
        });
    }
    let storage = session.parent()?;
    Some(Layout {
        messages: storage.join("message").join(id),
        parts: storage.join("part"),
    })
}

/// Whether `v` is a session's info, by its shape.
fn is_info(v: &Value) -> bool {
    let Some(o) = v.as_object() else {
        return false;
    };
    o.get("id").and_then(Value::as_str).is_some_and(|id| id.starts_with("ses_"))
        && o.get("title").is_some_and(Value::is_string)
        && v.pointer("/time/created").is_some_and(Value::is_i64)
        && !o.contains_key("role")
        && !o.contains_key("type")
}

/// The session whose info file is at `path` as rows, each to `row`;
/// `None`: the file is no session's info of OpenCode's (or not in its
/// tree).
pub(super) fn rows(path: &Path, row: &mut dyn FnMut(Value)) -> Option<Result<(), String>> {
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() || meta.len() > INFO_MAX {
        return None;
    }
    let info: Value = serde_json::from_slice(&std::fs::read(path).ok()?).ok()?;
    if !is_info(&info) {
        return None;
    }
    let id = info["id"].as_str().unwrap_or_default().to_string();
    let layout = layout(path, &id)?;
    row(session_row(&info));
    Some(read_messages(&layout, &id, row))
}

/// The info as the database's `session` row.
fn session_row(info: &Value) -> Value {
    let mut o = Map::new();
    o.insert("opencode".into(), Value::from("session"));
    for (column, key) in [
        ("id", "/id"),
        ("project_id", "/projectID"),
        ("parent_id", "/parentID"),
        ("directory", "/directory"),
        ("title", "/title"),
        ("version", "/version"),
        ("time_created", "/time/created"),
        ("time_updated", "/time/updated"),
    ] {
        if let Some(v) = info.pointer(key).filter(|v| !v.is_null()) {
            o.insert(column.into(), v.clone());
        }
    }
    Value::Object(o)
}

/// The session's messages in the order they were made, each followed by
/// its parts.
fn read_messages(layout: &Layout, session: &str, row: &mut dyn FnMut(Value)) -> Result<(), String> {
    // First their times (each file read and let go of), then each again in
    // order: never more held than names and times.
    let mut order: Vec<(i64, String)> = Vec::new();
    for (id, file) in json_files(&layout.messages)? {
        match read(&file) {
            // No time: last, as the database's copy would have it (made now).
            Ok(v) => order.push((v.pointer("/time/created").and_then(Value::as_i64).unwrap_or(i64::MAX), id)),
            Err(reason) => row(unreadable(&file, &reason)),
        }
    }
    order.sort();
    for (created, id) in order {
        let file = layout.messages.join(format!("{id}.json"));
        let data = match read(&file) {
            Ok(v) => v,
            Err(reason) => {
                row(unreadable(&file, &reason));
                continue;
            }
        };
        let mut message = json!({"opencode": "message", "id": id, "session_id": session, "data": data});
        if created != i64::MAX {
            message["time_created"] = Value::from(created);
        }
        row(message);
        for (part, file) in json_files(&layout.parts.join(&id))? {
            match read(&file) {
                Ok(data) => row(json!({"opencode": "part", "id": part, "message_id": id,
                                       "session_id": session, "data": data})),
                Err(reason) => row(unreadable(&file, &reason)),
            }
        }
    }
    Ok(())
}

/// The `<id>.json` files of folder `dir`, by id (none when it is not
/// there: a session without messages, a message without parts). OpenCode's
/// files being written (`.…tmp`) and other names are not its records.
fn json_files(dir: &Path) -> Result<Vec<(String, PathBuf)>, String> {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("cannot list {}: {e}", dir.display())),
    };
    let mut files: Vec<(String, PathBuf)> = entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let id = name.strip_suffix(".json").filter(|id| !id.is_empty() && !id.starts_with('.'))?;
            Some((id.to_string(), e.path()))
        })
        .collect();
    files.sort();
    Ok(files)
}

fn read(file: &Path) -> Result<Value, String> {
    let bytes = std::fs::read(file).map_err(|e| e.to_string())?;
    let v: Value = serde_json::from_slice(&bytes).map_err(|e| e.to_string())?;
    if v.is_object() { Ok(v) } else { Err("not a JSON object".into()) }
}

/// A file of the session that cannot be read, as a row.
fn unreadable(file: &Path, reason: &str) -> Value {
    json!({"opencode": "unreadable", "file": file.display().to_string(), "reason": reason})
}

/// The info files of the sessions under OpenCode's data folder `root`
/// (names and metadata only): `storage/session/<project>/*.json`, and the
/// oldest per-project trees' `project/<dir>/storage/session/info/*.json`
/// while no storage migration has copied them (`storage/migration`). None
/// when `opencode.db` is there: OpenCode copied the tree into the database
/// when it made it, and deck lists its sessions from there (a path given
/// still opens a tree's session).
pub(super) fn sessions(root: &Path) -> Vec<PathBuf> {
    if root.join("opencode.db").exists() {
        return Vec::new();
    }
    let storage = root.join("storage");
    let mut out = Vec::new();
    for folder in dirs(&storage.join("session")) {
        out.extend(info_files(&folder));
    }
    if !storage.join("migration").exists() {
        for project in dirs(&root.join("project")) {
            out.extend(info_files(&project.join("storage/session/info")));
        }
    }
    out
}

fn dirs(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> =
        entries.filter_map(Result::ok).filter(|e| e.file_type().is_ok_and(|t| t.is_dir())).map(|e| e.path()).collect();
    out.sort();
    out
}

fn info_files(dir: &Path) -> Vec<PathBuf> {
    json_files(dir)
        .unwrap_or_default()
        .into_iter()
        .filter(|(id, p)| id.starts_with("ses_") && p.is_file())
        .map(|(_, p)| p)
        .collect()
}

/// The size and last change (ns since the epoch) of the session whose
/// info file is `path`: every file of it summed and the newest of them
/// and of their folders, so that a part added or written again is a
/// change; `None`: `path` is in no `session/<folder>/` (names and metadata
/// only: its session id is its file's name, as OpenCode names it).
pub(super) fn stamp(path: &Path) -> Option<(u64, i64)> {
    let id = path.file_name()?.to_str()?.strip_suffix(".json").filter(|id| id.starts_with("ses_"))?;
    let layout = layout(path, id)?;
    let meta = std::fs::metadata(path).ok()?;
    let mut size = meta.len();
    let mut newest = mtime_ns(&meta);
    let mut add = |p: &Path| -> bool {
        let Ok(m) = std::fs::metadata(p) else {
            return false;
        };
        newest = newest.max(mtime_ns(&m));
        if m.is_file() {
            size += m.len();
        }
        true
    };
    if add(&layout.messages) {
        for (message, file) in json_files(&layout.messages).unwrap_or_default() {
            add(&file);
            let parts = layout.parts.join(&message);
            if add(&parts) {
                for (_, part) in json_files(&parts).unwrap_or_default() {
                    add(&part);
                }
            }
        }
    }
    Some((size, newest))
}

fn mtime_ns(meta: &std::fs::Metadata) -> i64 {
    meta.modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| i64::try_from(d.as_nanos()).unwrap_or(i64::MAX))
}

#[cfg(test)]
mod tests;
