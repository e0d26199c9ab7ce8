//! What Claude Code keeps beside a session log, read when the log is
//! loaded from a path: the session's folder `<dir>/<session-id>/` holds
//! `subagents/agent-<id>.jsonl` (each subagent's own log, with an
//! `agent-<id>.meta.json` naming the call that started it) and
//! `tool-results/<name>.txt` (output too large for the log, saved whole).
//!
//! This file is Claude Code's side-file hook ([`SessionFolder`], its
//! `agents::Beside`): it finds the folder and hands each part to its
//! reader — [`super::subagents`] nests the subagents' records under their
//! calls, [`super::side_files`] puts saved output back into its result,
//! and [`super::live`] does both as a followed log grows. A log read from
//! stdin has no folder: its results say what was saved and where, and
//! nothing is read.

use std::path::Path;

use super::live::Following;
use super::side_files::session_folder;
use super::side_files::Folder;
use crate::agents::{Beside, ReadLog, Streaming};
use crate::source::feed::MakeLines;
use crate::source::follow::Aside;
use crate::wire::Record;

/// What Claude Code keeps beside its sessions, read by the loader.
#[derive(Debug, Clone, Copy, Default)]
pub struct SessionFolder;

impl Beside for SessionFolder {
    /// Saved output into its results, subagents under their calls.
    fn attach(&self, log: &Path, id: &str, records: &mut Vec<Record>, read: &ReadLog<'_>) {
        let Some(folder) = session_folder(log, id) else {
            return;
        };
        if !folder.is_dir() {
            return;
        }
        let results = Folder::new(&folder);
        results.fill(records);
        super::subagents::nest(log, &folder, &results, records, read);
    }

    /// Saved output is put back into each result as it comes; subagents'
    /// logs are placed among the session's records by time, so a session
    /// with them is read whole.
    fn streaming(&self, log: &Path, id: &str) -> Streaming {
        let Some(folder) = session_folder(log, id).filter(|f| f.is_dir()) else {
            return Streaming::Nothing;
        };
        if folder.join("subagents").is_dir() {
            return Streaming::Whole("a Claude Code session with subagents beside it".into());
        }
        let results = Folder::new(&folder);
        Streaming::Fill(Box::new(move |records| results.fill(records)))
    }

    fn follow(&self, log: &Path, lines: MakeLines) -> Box<dyn Aside> {
        Box::new(Following::new(log, lines))
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    #[test]
    fn the_folder_of_a_session_and_of_a_subagents_log() {
        let p = Path::new("/p/-w/abc.jsonl");
        assert_eq!(session_folder(p, "abc"), Some(PathBuf::from("/p/-w/abc")));
        let sub = Path::new("/p/-w/abc/subagents/agent-1.jsonl");
        assert_eq!(session_folder(sub, "abc"), Some(PathBuf::from("/p/-w/abc")));
        // An id is a name, never a way out of the log's folder.
        assert_eq!(session_folder(p, "../x"), None);
        assert_eq!(session_folder(p, ".."), None);
        assert_eq!(session_folder(p, ""), None);
    }
}
