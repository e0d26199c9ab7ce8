//! aider: its chat history read into deck's records (`read`) and the calls
//! read from it as cards (`present`).
//!
//! aider keeps no sessions folder of its own: it appends to
//! `.aider.chat.history.md` in the git repository it works in (or where
//! `--chat-history-file` / `$AIDER_CHAT_HISTORY_FILE` says), a markdown
//! file, each run starting with `# aider chat started at …`. deck reads it
//! as text lines (`Agent::text_lines`: the loader hands every line to the
//! reader as a JSON string). The file is one session — the runs in it are
//! groups of its turns —, as aider itself sees it: `aider
//! --restore-chat-history` in that directory reads the whole file back
//! into the chat, and that is the only resume there is (by directory, no
//! id). The library finds these files in the folders the user adds
//! (`Agent::session_file_name`).

use std::path::Path;
use std::sync::OnceLock;

use serde_json::Value;

use super::read::Translate;
use super::{Agent, Format, Resume};
use crate::session::SharedPresenters;

pub mod present;
pub mod read;

/// Its name.
pub const NAME: &str = "aider";

/// aider.
#[derive(Debug, Clone, Copy, Default)]
pub struct Aider;

impl Agent for Aider {
    fn name(&self) -> &'static str {
        NAME
    }

    fn format(&self) -> Format {
        Format::Aider
    }

    fn title(&self) -> &'static str {
        "aider chat history"
    }

    /// No JSON line is aider's.
    fn claims(&self, _v: &Value) -> bool {
        false
    }

    fn text_lines(&self, first: &str) -> bool {
        read::run_started(first).is_some()
    }

    fn session_file_name(&self, name: &str) -> bool {
        name == ".aider.chat.history.md"
    }

    fn reader(&self) -> Option<Box<dyn Translate>> {
        Some(Box::new(read::Reader::default()))
    }

    fn presenters(&self) -> Option<SharedPresenters> {
        static P: OnceLock<SharedPresenters> = OnceLock::new();
        Some(super::shared(&P, || std::sync::Arc::new(present::Aider)))
    }

    fn mapping(&self) -> &'static [super::Mapping] {
        present::MAPPING
    }

    /// `aider --restore-chat-history` in the repository: the whole file
    /// back in the chat (there is no id to name).
    fn resume(&self, _id: &str, cwd: Option<&Path>) -> Option<Resume> {
        Some(Resume {
            program: "aider",
            args: vec!["--restore-chat-history".into()],
            cwd: cwd.map(Path::to_path_buf),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn its_files_are_told_by_their_first_line() {
        let a = Aider;
        assert!(a.text_lines("# aider chat started at 2026-12-04 10:21:39"));
        assert!(!a.text_lines("# aider chat"));
        assert!(!a.text_lines("{\"type\":\"user\"}"));
        assert!(a.recognise(b"\n# aider chat started at 2026-12-04 10:21:39\n\n"));
        assert!(!a.recognise(b"{\"type\":\"session\"}\n"));
        let r = a.resume("x", Some(Path::new("/w"))).unwrap();
        assert_eq!(r.args, ["--restore-chat-history"]);
        assert_eq!(r.cwd.as_deref(), Some(Path::new("/w")));
    }
}
