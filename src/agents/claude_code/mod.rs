//! Claude Code: its session logs read into deck's records (`read`, with
//! what it keeps beside a session: subagents' logs, saved output) and its
//! tools' presenters (`present`).
//!
//! It keeps `$CLAUDE_CONFIG_DIR` (default `~/.claude`) `/projects/<cwd
//! with every character but letters and digits as '-'>/<session>.jsonl`
//! (a subagent's own log, under `<session>/subagents/`, is read with its
//! parent's, so it is not listed); a session resumes with `claude --resume
//! ID`, run in the session's directory.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::SystemTime;

use serde_json::Value;

use super::find::{dirs, files, files_under, has_ext, modified, name, newest};
use super::read::{Parsed, Translate};
use super::{Agent, Beside, Format, Home, Resume};
use crate::session::SharedPresenters;

pub mod present;
pub mod read;

/// Its name.
pub const NAME: &str = "claude-code";

/// Claude Code.
#[derive(Debug, Clone, Copy, Default)]
pub struct ClaudeCode;

impl Agent for ClaudeCode {
    fn name(&self) -> &'static str {
        NAME
    }

    fn format(&self) -> Format {
        Format::ClaudeCode
    }

    fn title(&self) -> &'static str {
        "Claude Code session"
    }

    fn claims(&self, v: &Value) -> bool {
        read::is_line(v)
    }

    /// A line read without a JSON tree ([`read::Line::parse`]), when it
    /// can be a Claude Code one: every such line names its session,
    /// message or leaf (judged without parsing it).
    fn reads_text(&self) -> bool {
        true
    }

    fn read_text(&self, line: &str) -> Option<Box<dyn Parsed>> {
        let b = line.as_bytes();
        let might = ["\"sessionId\"", "\"uuid\"", "\"leafUuid\"", "\"messageId\""]
            .iter()
            .any(|k| memchr::memmem::find(b, k.as_bytes()).is_some());
        let line = might.then(|| read::Line::parse(line)).flatten()?;
        Some(Box::new(line))
    }

    fn reader(&self) -> Option<Box<dyn Translate>> {
        Some(Box::new(read::Reader::default()))
    }

    fn presenters(&self) -> Option<SharedPresenters> {
        static P: OnceLock<SharedPresenters> = OnceLock::new();
        Some(super::shared(&P, || std::sync::Arc::new(present::ClaudeCode)))
    }

    fn mapping(&self) -> &'static [super::Mapping] {
        present::MAPPING
    }

    fn home(&self) -> Option<Home> {
        Some(Home {
            var: "CLAUDE_CONFIG_DIR",
            dir: ".claude",
            under_var: "",
        })
    }

    fn sessions(&self, root: &Path) -> Vec<PathBuf> {
        dirs(&root.join("projects"))
            .iter()
            .flat_map(|project| files_under(project, 0))
            .filter(|p| name(p).ends_with(".jsonl"))
            .collect()
    }

    fn part_of_another(&self, path: &Path) -> bool {
        path.parent()
            .and_then(Path::file_name)
            .is_some_and(|d| d == "subagents")
    }

    fn latest_word(&self) -> Option<&'static str> {
        Some("claude")
    }

    fn latest(&self, root: &Path, cwd: &Path, since: SystemTime) -> Result<PathBuf, String> {
        let recent = |p: &PathBuf| modified(p).is_some_and(|t| t >= since);
        let dir = root.join("projects").join(project(cwd));
        newest(
            files(&dir)
                .into_iter()
                .filter(|p| has_ext(p, "jsonl") && recent(p)),
        )
        .ok_or_else(|| {
            format!(
                "no Claude Code session for {} in {}",
                cwd.display(),
                dir.display()
            )
        })
    }

    fn beside(&self) -> Option<&'static dyn Beside> {
        Some(&read::beside::SessionFolder)
    }

    fn resume(&self, id: &str, cwd: Option<&Path>) -> Option<Resume> {
        Some(Resume {
            program: "claude",
            args: vec!["--resume".into(), id.into()],
            cwd: cwd.map(Path::to_path_buf),
        })
    }
}

/// Claude Code's name for a project folder: the path with every character
/// but ASCII letters and digits replaced by `-`.
pub fn project(cwd: &Path) -> String {
    cwd.to_string_lossy()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::find::touch;

    #[test]
    fn projects_are_named_after_the_directory() {
        assert_eq!(
            project(Path::new("/home/me/my_proj.v2")),
            "-home-me-my-proj-v2"
        );
    }

    #[test]
    fn the_newest_session_of_this_directory() {
        let root = tempfile::tempdir().unwrap();
        let cwd = Path::new("/work/proj");
        let project = root.path().join("projects/-work-proj");
        touch(&project.join("old.jsonl"), "{}\n", 100);
        touch(&project.join("new.jsonl"), "{}\n", 10);
        touch(
            &root.path().join("projects/-work-other/newest.jsonl"),
            "{}\n",
            1,
        );
        let all = SystemTime::UNIX_EPOCH;
        let got = ClaudeCode.latest(root.path(), cwd, all).unwrap();
        assert!(got.ends_with("new.jsonl"), "{got:?}");
        let none = ClaudeCode
            .latest(root.path(), Path::new("/nowhere"), all)
            .unwrap_err();
        assert!(
            none.contains("no Claude Code session for /nowhere"),
            "{none}"
        );
        // Only files modified since: the older ones are not read again.
        let since = SystemTime::now() - std::time::Duration::from_secs(5);
        assert!(ClaudeCode.latest(root.path(), cwd, since).is_err());
    }
}
