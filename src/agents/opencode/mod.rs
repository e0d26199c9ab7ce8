//! OpenCode: its database read into deck's records (`store` reads the
//! rows, `read` makes the records) and its tools' presenters (`present`).
//!
//! OpenCode (1.x) keeps every session of every project in one SQLite
//! database, `opencode.db`, under its data folder
//! (`$XDG_DATA_HOME/opencode`, else `~/.local/share/opencode`): a file
//! deck reads from its path, each session in it a session of deck's. A
//! session resumes with `opencode --session ID` in its directory; `deck
//! follow` reads one session again whenever the database changes, and
//! `--latest opencode` picks the newest of a directory (`directory`).
//! Before the database (up to 1.1.x) OpenCode kept each session as a tree
//! of JSON files under `storage/` (`storage` reads it into the same rows,
//! from the path of the session's info file).

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::SystemTime;

use serde_json::Value;

use super::read::Translate;
use super::{Agent, DatabaseRead, Format, Home, Resume, SessionPick};
use crate::session::SharedPresenters;

pub mod present;
pub mod read;
mod storage;
mod store;

/// Its name.
pub const NAME: &str = "opencode";

/// OpenCode.
#[derive(Debug, Clone, Copy, Default)]
pub struct OpenCode;

impl Agent for OpenCode {
    fn name(&self) -> &'static str {
        NAME
    }

    fn format(&self) -> Format {
        Format::OpenCode
    }

    fn title(&self) -> &'static str {
        "OpenCode session store"
    }

    /// Its sessions are in a database, never in a log's lines.
    fn claims(&self, _v: &Value) -> bool {
        false
    }

    fn reader(&self) -> Option<Box<dyn Translate>> {
        Some(Box::new(read::Reader::default()))
    }

    fn database(&self, path: &Path, row: &mut dyn FnMut(Value)) -> Option<Result<(), String>> {
        store::rows(path, row)
    }

    fn database_session(
        &self,
        path: &Path,
        pick: SessionPick<'_>,
        row: &mut dyn FnMut(Value),
    ) -> Option<Result<DatabaseRead, String>> {
        store::session_rows(path, pick, row)
    }

    fn tree(&self, path: &Path, row: &mut dyn FnMut(Value)) -> Option<Result<(), String>> {
        storage::rows(path, row)
    }

    fn stamp(&self, path: &Path) -> Option<(u64, i64)> {
        storage::stamp(path)
    }

    fn presenters(&self) -> Option<SharedPresenters> {
        static P: OnceLock<SharedPresenters> = OnceLock::new();
        Some(super::shared(&P, || std::sync::Arc::new(present::OpenCode)))
    }

    fn mapping(&self) -> &'static [super::Mapping] {
        present::MAPPING
    }

    fn home(&self) -> Option<Home> {
        Some(Home {
            var: "XDG_DATA_HOME",
            dir: ".local/share/opencode",
            under_var: "opencode",
        })
    }

    fn sessions(&self, root: &Path) -> Vec<PathBuf> {
        let db = root.join("opencode.db");
        let mut found = if db.is_file() { vec![db] } else { Vec::new() };
        found.extend(storage::sessions(root));
        found
    }

    fn latest_word(&self) -> Option<&'static str> {
        Some(NAME)
    }

    /// Its database, when a session of `cwd` is in it (every session is
    /// in the one file: `since` spares nothing).
    fn latest(&self, root: &Path, cwd: &Path, _since: SystemTime) -> Result<PathBuf, String> {
        let db = root.join("opencode.db");
        if !db.is_file() {
            return Err(format!("no OpenCode database at {}", db.display()));
        }
        match store::has_session_of(&db, cwd)? {
            true => Ok(db),
            false => Err(format!("no OpenCode session for {} in {}", cwd.display(), db.display())),
        }
    }

    fn resume(&self, id: &str, cwd: Option<&Path>) -> Option<Resume> {
        Some(Resume {
            program: "opencode",
            args: vec!["--session".into(), id.into()],
            cwd: cwd.map(Path::to_path_buf),
        })
    }
}
