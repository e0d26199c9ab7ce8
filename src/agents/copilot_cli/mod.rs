//! GitHub Copilot CLI: its session event logs read into deck's records
//! (`read`) and its tools' presenters (`present`).
//!
//! It keeps `$COPILOT_HOME` (default `~/.copilot`) `/session-state/<session
//! id>/events.jsonl`, beside it `workspace.yaml` (the session's `id`, `cwd`,
//! `name`, times); every run of the session (`--continue`, `--resume`)
//! appends to the same log. A session resumes with `copilot --resume=ID`.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::SystemTime;

use serde_json::Value;

use super::find::{NewestSince, dirs};
use super::read::Translate;
use super::{Agent, Format, Home, Resume};
use crate::session::SharedPresenters;

pub mod present;
pub mod read;

/// Its name.
pub const NAME: &str = "copilot-cli";

/// GitHub Copilot CLI.
#[derive(Debug, Clone, Copy, Default)]
pub struct CopilotCli;

impl Agent for CopilotCli {
    fn name(&self) -> &'static str {
        NAME
    }

    fn format(&self) -> Format {
        Format::CopilotCli
    }

    fn title(&self) -> &'static str {
        "Copilot CLI session"
    }

    fn claims(&self, v: &Value) -> bool {
        read::is_line(v)
    }

    fn reader(&self) -> Option<Box<dyn Translate>> {
        Some(Box::new(read::Reader::default()))
    }

    fn presenters(&self) -> Option<SharedPresenters> {
        static P: OnceLock<SharedPresenters> = OnceLock::new();
        Some(super::shared(&P, || std::sync::Arc::new(present::CopilotCli)))
    }

    fn mapping(&self) -> &'static [super::Mapping] {
        present::MAPPING
    }

    fn home(&self) -> Option<Home> {
        Some(Home {
            var: "COPILOT_HOME",
            dir: ".copilot",
            under_var: "",
        })
    }

    fn sessions(&self, root: &Path) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = dirs(&root.join("session-state"))
            .into_iter()
            .map(|d| d.join("events.jsonl"))
            .filter(|p| p.is_file())
            .collect();
        out.sort();
        out
    }

    fn latest_word(&self) -> Option<&'static str> {
        Some("copilot")
    }

    fn latest(&self, root: &Path, cwd: &Path, since: SystemTime) -> Result<PathBuf, String> {
        let state = root.join("session-state");
        self.sessions(root)
            .into_iter()
            .filter(|log| log.parent().and_then(workspace_cwd).is_some_and(|c| Path::new(&c) == cwd))
            .newest_since(since)
            .ok_or_else(|| format!("no Copilot CLI session for {} in {}", cwd.display(), state.display()))
    }

    fn resume(&self, id: &str, cwd: Option<&Path>) -> Option<Resume> {
        Some(Resume {
            program: "copilot",
            args: vec![format!("--resume={id}")],
            cwd: cwd.map(Path::to_path_buf),
        })
    }
}

/// The `cwd:` of a session folder's `workspace.yaml` (a plain scalar, or
/// one in single or double quotes).
fn workspace_cwd(dir: &Path) -> Option<String> {
    let text = std::fs::read_to_string(dir.join("workspace.yaml")).ok()?;
    let value = text.lines().find_map(|l| l.strip_prefix("cwd:"))?.trim();
    let unquoted = match value.as_bytes().first() {
        Some(b'\'') => value.strip_prefix('\'')?.strip_suffix('\'')?.replace("''", "'"),
        Some(b'"') => serde_json::from_str::<String>(value).ok()?,
        _ => value.to_string(),
    };
    Some(unquoted)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::find::touch;

    #[test]
    fn sessions_and_the_newest_of_a_directory() {
        let root = tempfile::tempdir().unwrap();
        let state = root.path().join("session-state");
        touch(&state.join("a/events.jsonl"), "", 200);
        touch(&state.join("a/workspace.yaml"), "id: a\ncwd: /workspace/demo\n", 200);
        touch(&state.join("b/events.jsonl"), "", 100);
        touch(&state.join("b/workspace.yaml"), "id: b\ncwd: '/workspace/demo'\n", 100);
        touch(&state.join("c/events.jsonl"), "", 10);
        touch(&state.join("c/workspace.yaml"), "id: c\ncwd: /elsewhere\n", 10);
        touch(&state.join(".session-operation-locks/c.lock"), "", 10);
        let c = CopilotCli;
        assert_eq!(c.sessions(root.path()).len(), 3);
        let all = SystemTime::UNIX_EPOCH;
        assert_eq!(c.latest(root.path(), Path::new("/workspace/demo"), all), Ok(state.join("b/events.jsonl")));
        assert!(c.latest(root.path(), Path::new("/nope"), all).is_err());
        assert_eq!(c.resume("x", None).unwrap().args, ["--resume=x"]);
    }
}
