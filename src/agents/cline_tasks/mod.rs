//! The task folders of the VS Code extensions that share Cline's format —
//! Cline (`saoudrizwan.claude-dev`), Roo Code (`rooveterinaryinc.roo-cline`)
//! and Kilo Code (`kilocode.kilo-code`) — read into deck's records (`read`)
//! and their tools' presenters (`present`). (The Cline *CLI*'s sessions are
//! another format: `../cline/`.)
//!
//! Each extension keeps `<VS Code user dir>/globalStorage/<extension id>/
//! tasks/<task id>/`: `api_conversation_history.json` (the messages sent to
//! the model and its answers), `ui_messages.json` (the `ClineMessage`s its
//! panel draws) and `task_metadata.json` (files in context, models used).
//! deck reads the first (why: `read`'s docs) and lists one file per task,
//! that one. The user dirs are `$XDG_CONFIG_HOME` (default `~/.config`)
//! `/<editor>/User` for VS Code (`Code`), `Code - Insiders`, `VSCodium`,
//! `Cursor` and `Windsurf`; an extension's folder is matched whatever its
//! case (VS Code lowercases the id; some installs keep
//! `RooVeterinaryInc.roo-cline`). Not looked in: macOS's `~/Library/
//! Application Support/` and Windows' `%APPDATA%`, a custom storage path
//! the extension's settings name, and the SDK-based Cline extension's
//! migrated `~/.cline/data/tasks/` (its new sessions are the CLI's format).
//!
//! One agent reads the three: their files have one format, and which
//! extension wrote a task is said by its folder only, not by its content
//! (the agent is told by content) — a task's path names it. A task cannot
//! be resumed from a shell (it lives in the editor).

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde_json::Value;

use super::read::Translate;
use super::{Agent, Entries, Format, Home};
use crate::session::SharedPresenters;

pub mod present;
pub mod read;

/// Its name.
pub const NAME: &str = "cline-tasks";

/// The file of a task folder deck reads.
pub const HISTORY: &str = "api_conversation_history.json";

/// The folder the editors' user dirs are in.
const HOME: Home = Home {
    var: "XDG_CONFIG_HOME",
    dir: ".config",
    under_var: "",
};

/// The editors (VS Code and its forks) whose user dirs are looked in.
pub const EDITORS: &[&str] = &["Code", "Code - Insiders", "VSCodium", "Cursor", "Windsurf"];

/// The extensions that write task folders, by their id.
pub const EXTENSIONS: &[&str] = &["saoudrizwan.claude-dev", "rooveterinaryinc.roo-cline", "kilocode.kilo-code"];

/// Cline's, Roo Code's and Kilo Code's task folders.
#[derive(Debug, Clone, Copy, Default)]
pub struct ClineTasks;

impl Agent for ClineTasks {
    fn name(&self) -> &'static str {
        NAME
    }

    fn format(&self) -> Format {
        Format::ClineTasks
    }

    fn title(&self) -> &'static str {
        "Cline (VS Code) task"
    }

    fn claims(&self, _v: &Value) -> bool {
        // One document, never a line of a log: `document` says.
        false
    }

    fn reader(&self) -> Option<Box<dyn Translate>> {
        Some(Box::new(read::Reader::default()))
    }

    /// The history is the list of messages.
    fn document_entries(&self, shape: &Value) -> Option<Entries> {
        read::is_history(shape).then_some(Entries::Whole)
    }

    fn presenters(&self) -> Option<SharedPresenters> {
        static P: OnceLock<SharedPresenters> = OnceLock::new();
        Some(super::shared(&P, || std::sync::Arc::new(present::ClineTasks)))
    }

    fn mapping(&self) -> &'static [super::Mapping] {
        present::MAPPING
    }

    fn home(&self) -> Option<Home> {
        Some(HOME)
    }

    fn sessions(&self, root: &Path) -> Vec<PathBuf> {
        let mut out = Vec::new();
        for editor in EDITORS {
            let storage = root.join(editor).join("User").join("globalStorage");
            let Ok(exts) = std::fs::read_dir(&storage) else {
                continue;
            };
            for ext in exts.flatten() {
                let name = ext.file_name().to_string_lossy().to_lowercase();
                if !EXTENSIONS.contains(&name.as_str()) {
                    continue;
                }
                let Ok(tasks) = std::fs::read_dir(ext.path().join("tasks")) else {
                    continue;
                };
                out.extend(tasks.flatten().map(|t| t.path().join(HISTORY)).filter(|p| p.is_file()));
            }
        }
        out.sort();
        out
    }

    fn session_file_name(&self, name: &str) -> bool {
        name == HISTORY
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::find::touch;

    #[test]
    fn every_editors_task_folders_of_the_three_extensions() {
        let root = tempfile::tempdir().unwrap();
        let r = root.path();
        let task = |editor: &str, ext: &str, id: &str| {
            r.join(editor).join("User/globalStorage").join(ext).join("tasks").join(id).join(HISTORY)
        };
        let want = [
            task("Code", "saoudrizwan.claude-dev", "1750000000000"),
            task("Code - Insiders", "rooveterinaryinc.roo-cline", "0b9c"),
            task("Cursor", "RooVeterinaryInc.roo-cline", "1f2e"),
            task("VSCodium", "kilocode.kilo-code", "3a4b"),
            task("Windsurf", "saoudrizwan.claude-dev", "1750000000001"),
        ];
        for p in &want {
            touch(p, "[]", 10);
        }
        // Not a task's history: another extension's, a task's other files,
        // an editor not looked in.
        touch(&task("Code", "github.copilot-chat", "x"), "[]", 10);
        touch(&task("Code", "saoudrizwan.claude-dev", "1750000000000").with_file_name("ui_messages.json"), "[]", 10);
        touch(&task("Zed", "saoudrizwan.claude-dev", "1"), "[]", 10);
        let mut want = want.to_vec();
        want.sort();
        assert_eq!(ClineTasks.sessions(r), want);
        assert!(ClineTasks.session_file_name(HISTORY) && !ClineTasks.session_file_name("ui_messages.json"));
        assert!(ClineTasks.resume("1750000000000", None).is_none());
    }
}
