//! Qwen Code: its session files read into deck's records (`read`) and its
//! tools' presenters (`present`).
//!
//! It keeps `~/.qwen/projects/<project>/chats/<session id>.jsonl`, the
//! project named after its directory (every character but letters and
//! digits as `-`); the lines say the session's directory (`cwd`). A
//! session resumes with `qwen --resume ID` in its directory.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::SystemTime;

use serde_json::Value;

use super::find::{NewestSince, name};
use super::read::Translate;
use super::{Agent, Format, Home, Resume};
use crate::session::SharedPresenters;

pub mod present;
pub mod read;

/// Its name.
pub const NAME: &str = "qwen-code";

/// Qwen Code.
#[derive(Debug, Clone, Copy, Default)]
pub struct QwenCode;

impl Agent for QwenCode {
    fn name(&self) -> &'static str {
        NAME
    }

    fn format(&self) -> Format {
        Format::QwenCode
    }

    fn title(&self) -> &'static str {
        "Qwen Code session"
    }

    fn claims(&self, v: &Value) -> bool {
        read::is_line(v)
    }

    fn reader(&self) -> Option<Box<dyn Translate>> {
        Some(Box::new(read::Reader::default()))
    }

    fn presenters(&self) -> Option<SharedPresenters> {
        static P: OnceLock<SharedPresenters> = OnceLock::new();
        Some(super::shared(&P, || std::sync::Arc::new(present::QwenCode)))
    }

    fn mapping(&self) -> &'static [super::Mapping] {
        present::MAPPING
    }

    fn home(&self) -> Option<Home> {
        Some(Home {
            var: "QWEN_HOME",
            dir: ".qwen",
            under_var: "",
        })
    }

    fn sessions(&self, root: &Path) -> Vec<PathBuf> {
        let Ok(projects) = std::fs::read_dir(root.join("projects")) else {
            return Vec::new();
        };
        let mut out: Vec<PathBuf> = projects
            .flatten()
            .flat_map(|p| std::fs::read_dir(p.path().join("chats")).into_iter().flatten().flatten())
            .map(|e| e.path())
            .filter(|p| name(p).ends_with(".jsonl"))
            .collect();
        out.sort();
        out
    }

    fn latest_word(&self) -> Option<&'static str> {
        Some("qwen")
    }

    fn latest(&self, root: &Path, cwd: &Path, since: SystemTime) -> Result<PathBuf, String> {
        let dir = root.join("projects").join(project(cwd)).join("chats");
        std::fs::read_dir(&dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| name(p).ends_with(".jsonl"))
            .newest_since(since)
            .ok_or_else(|| format!("no Qwen Code session for {} in {}", cwd.display(), dir.display()))
    }

    fn resume(&self, id: &str, cwd: Option<&Path>) -> Option<Resume> {
        Some(Resume {
            program: "qwen",
            args: vec!["--resume".into(), id.into()],
            cwd: cwd.map(Path::to_path_buf),
        })
    }
}

/// A directory's project folder name: every character but letters and
/// digits as `-` (`/workspace/demo` → `-workspace-demo`).
fn project(cwd: &Path) -> String {
    let s = cwd.to_string_lossy();
    s.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::find::touch;

    #[test]
    fn sessions_and_the_newest_of_a_directory() {
        let root = tempfile::tempdir().unwrap();
        let chats = root.path().join("projects/-workspace-demo/chats");
        touch(&chats.join("a.jsonl"), "", 200);
        touch(&chats.join("b.jsonl"), "", 100);
        touch(&root.path().join("projects/-other/chats/c.jsonl"), "", 10);
        let q = QwenCode;
        assert_eq!(q.sessions(root.path()).len(), 3);
        let all = SystemTime::UNIX_EPOCH;
        assert_eq!(q.latest(root.path(), Path::new("/workspace/demo"), all), Ok(chats.join("b.jsonl")));
        assert!(q.latest(root.path(), Path::new("/nope"), all).is_err());
        assert_eq!(q.resume("x", None).unwrap().args, ["--resume", "x"]);
    }
}
