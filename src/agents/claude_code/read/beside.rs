//! What Claude Code keeps beside a session log, read when the log is
//! loaded from a path: the session's folder `<dir>/<session-id>/` holds
//! `subagents/agent-<id>.jsonl` (each subagent's own log, with an
//! `agent-<id>.meta.json` naming the call that started it) and
//! `tool-results/<name>.txt` (output too large for the log, saved whole).
//!
//! This file finds the folder and hands each part to its reader:
//! [`super::subagents`] nests the subagents' records under their calls,
//! [`super::side_files`] puts saved output back into its result. A log read
//! from stdin has no folder: its results say what was saved and where, and
//! nothing is read.

use std::path::{Path, PathBuf};

use crate::source::load::Loaded;

/// The folder of session `id` whose log is `log`: `<dir>/<id>/` beside a
/// session log, or, for a subagent's own log (`<dir>/<id>/subagents/…`),
/// the folder its `subagents/` is in.
pub fn session_folder(log: &Path, id: &str) -> Option<PathBuf> {
    let dir = log.parent()?;
    if dir.file_name().is_some_and(|n| n == "subagents") {
        return dir.parent().map(Path::to_path_buf);
    }
    if id.is_empty() || id.contains(['/', '\\']) || id == ".." || id == "." {
        return None;
    }
    Some(dir.join(id))
}

/// Read what is beside each Claude Code session of `loaded` (read from
/// `log`): saved output into its results, subagents under their calls.
pub fn attach(log: &Path, loaded: &mut Loaded) {
    for session in &mut loaded.sessions {
        let Some(folder) = session.id.as_deref().and_then(|id| session_folder(log, id)) else {
            continue;
        };
        if !folder.is_dir() {
            continue;
        }
        let results = super::side_files::Folder::new(&folder);
        results.fill(&mut session.records);
        super::subagents::nest(log, &folder, &results, &mut session.records);
    }
}

/// What is beside a session, for a reader that takes its records as they
/// are read rather than all at once (the library's index).
pub enum Beside {
    Nothing,
    /// Saved output, to put back into each result as it comes
    /// ([`Folder::fill`](super::side_files::Folder::fill)).
    Results(super::side_files::Folder),
    /// Subagents' logs: placed among the session's records by time, so
    /// the session is read whole ([`attach`]).
    Subagents,
}

/// What is beside session `id` of the log `log` ([`attach`] reads it).
pub fn beside(log: &Path, id: &str) -> Beside {
    let Some(folder) = session_folder(log, id).filter(|f| f.is_dir()) else {
        return Beside::Nothing;
    };
    if folder.join("subagents").is_dir() {
        return Beside::Subagents;
    }
    Beside::Results(super::side_files::Folder::new(&folder))
}

#[cfg(test)]
mod tests {
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
