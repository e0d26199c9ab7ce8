//! Gemini CLI: its session files read into deck's records (`read`) and its
//! tools' presenters (`present`).
//!
//! It keeps `$GEMINI_CLI_HOME` (default: the home folder) `/.gemini/tmp/
//! <project>/chats/session-<time>-<id8>.jsonl`, the project's directory in
//! `tmp/<project>/.project_root`; a session resumes with `gemini --resume
//! ID` in that directory. Older versions (0.20) wrote one JSON document,
//! `session-*.json`, rewritten whole: its header fields and `messages`, read
//! as the lines of the newer log ([`Agent::document`]).

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::SystemTime;

use serde_json::Value;

use super::find::{NewestSince, name};
use super::read::Translate;
use super::{Agent, Entries, Format, Home, Resume};
use crate::session::SharedPresenters;

pub mod present;
pub mod read;

/// Its name.
pub const NAME: &str = "gemini-cli";

/// Where it keeps its sessions.
const HOME: Home = Home {
    var: "GEMINI_CLI_HOME",
    dir: ".gemini",
    under_var: ".gemini",
};

/// Gemini CLI.
#[derive(Debug, Clone, Copy, Default)]
pub struct GeminiCli;

impl Agent for GeminiCli {
    fn name(&self) -> &'static str {
        NAME
    }

    fn format(&self) -> Format {
        Format::GeminiCli
    }

    fn title(&self) -> &'static str {
        "Gemini CLI session"
    }

    fn claims(&self, v: &Value) -> bool {
        read::is_line(v)
    }

    fn reader(&self) -> Option<Box<dyn Translate>> {
        Some(Box::new(read::Reader::default()))
    }

    /// An older one-file chat: its header (the document but its
    /// messages), then each message.
    fn document_entries(&self, shape: &Value) -> Option<Entries> {
        let mut header = shape.as_object()?.clone();
        header.remove("messages")?;
        read::is_line(&Value::Object(header)).then_some(Entries::Member("messages"))
    }

    fn presenters(&self) -> Option<SharedPresenters> {
        static P: OnceLock<SharedPresenters> = OnceLock::new();
        Some(super::shared(&P, || std::sync::Arc::new(present::GeminiCli)))
    }

    fn mapping(&self) -> &'static [super::Mapping] {
        present::MAPPING
    }

    fn home(&self) -> Option<Home> {
        // `$GEMINI_CLI_HOME` stands for the home folder `.gemini` is in.
        Some(HOME)
    }

    fn sessions(&self, root: &Path) -> Vec<PathBuf> {
        projects(root).into_iter().flat_map(|p| chats(&p)).collect()
    }

    fn latest_word(&self) -> Option<&'static str> {
        Some("gemini")
    }

    fn latest(&self, root: &Path, cwd: &Path, since: SystemTime) -> Result<PathBuf, String> {
        let tmp = root.join("tmp");
        projects(root)
            .into_iter()
            .filter(|p| project_root(p).is_some_and(|r| Path::new(&r) == cwd))
            .flat_map(|p| chats(&p))
            .newest_since(since)
            .ok_or_else(|| format!("no Gemini CLI session for {} in {}", cwd.display(), tmp.display()))
    }

    fn resume(&self, id: &str, cwd: Option<&Path>) -> Option<Resume> {
        Some(Resume {
            program: "gemini",
            args: vec!["--resume".into(), id.into()],
            cwd: cwd.map(Path::to_path_buf),
        })
    }
}

/// The project folders under `tmp/` (one per directory the CLI ran in).
fn projects(root: &Path) -> Vec<PathBuf> {
    let Ok(dir) = std::fs::read_dir(root.join("tmp")) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = dir.flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect();
    out.sort();
    out
}

/// A project's session files (`chats/session-*.jsonl`, older `.json`).
fn chats(project: &Path) -> Vec<PathBuf> {
    let Ok(dir) = std::fs::read_dir(project.join("chats")) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = dir
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let n = name(p);
            n.starts_with("session-") && (n.ends_with(".jsonl") || n.ends_with(".json"))
        })
        .collect();
    out.sort();
    out
}

/// The directory a project folder stands for (its `.project_root`).
fn project_root(project: &Path) -> Option<String> {
    let text = std::fs::read_to_string(project.join(".project_root")).ok()?;
    Some(text.trim().to_string()).filter(|t| !t.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::find::touch;

    #[test]
    fn sessions_and_the_newest_of_a_directory() {
        let root = tempfile::tempdir().unwrap();
        let all = SystemTime::UNIX_EPOCH;
        let demo = root.path().join("tmp/demo");
        std::fs::create_dir_all(demo.join("chats")).unwrap();
        std::fs::write(demo.join(".project_root"), "/workspace/demo\n").unwrap();
        let old = demo.join("chats/session-2026-12-01T10-00-aaaaaaaa.jsonl");
        let new = demo.join("chats/session-2026-12-02T10-00-bbbbbbbb.jsonl");
        touch(&old, "", 200);
        touch(&new, "", 100);
        touch(&demo.join("chats/notes.txt"), "", 10);
        touch(&root.path().join("tmp/other/chats/session-2026-12-03T10-00-cccccccc.jsonl"), "", 10);
        let g = GeminiCli;
        assert_eq!(g.sessions(root.path()).len(), 3);
        assert_eq!(g.latest(root.path(), Path::new("/workspace/demo"), all), Ok(new));
        let err = g.latest(root.path(), Path::new("/elsewhere"), all).unwrap_err();
        assert!(err.contains("no Gemini CLI session for /elsewhere"), "{err}");
        let r = g.resume("b8660323-x", Some(Path::new("/workspace/demo"))).unwrap();
        assert_eq!((r.program, r.args), ("gemini", vec!["--resume".to_string(), "b8660323-x".into()]));
    }

    #[test]
    fn the_home_variable_names_the_home_folder() {
        let env = |_: &str| Some(std::ffi::OsString::from("/h"));
        assert_eq!(HOME.resolve(env, None), Some(PathBuf::from("/h/.gemini")));
        let home = Some(Path::new("/root"));
        assert_eq!(HOME.resolve(|_| None, home), Some(PathBuf::from("/root/.gemini")));
    }
}
