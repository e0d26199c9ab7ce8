//! Cursor's agent (the IDE's Agent and the `cursor-agent` CLI): its agent
//! transcripts read into deck's records (`read`) and its tools'
//! presenters (`present`). Read from the documented format (the public
//! parsers of these transcripts), not from a run: no kit runs Cursor here.
//!
//! It keeps `$CURSOR_CONFIG_DIR` (default `~/.cursor`) `/projects/<project>/
//! agent-transcripts/<id>/<id>.jsonl` (a sub-agent's under `<id>/subagents/`,
//! part of its session), older versions `agent-transcripts/<id>.jsonl`
//! (and `<id>.txt`, plain text: not read); the project is the directory's
//! path without its first `/`, every other character but letters and
//! digits as `-` (lossy: the lines never say the directory). A session
//! resumes with `cursor-agent --resume ID`.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::SystemTime;

use serde_json::Value;

use super::find::{NewestSince, dirs, name};
use super::read::Translate;
use super::{Agent, Format, Home, Resume};
use crate::session::SharedPresenters;

pub mod present;
pub mod read;

/// Its name.
pub const NAME: &str = "cursor";

/// Cursor's agent.
#[derive(Debug, Clone, Copy, Default)]
pub struct Cursor;

impl Agent for Cursor {
    fn name(&self) -> &'static str {
        NAME
    }

    fn format(&self) -> Format {
        Format::Cursor
    }

    fn title(&self) -> &'static str {
        "Cursor agent transcript"
    }

    fn claims(&self, v: &Value) -> bool {
        read::is_line(v)
    }

    fn reader(&self) -> Option<Box<dyn Translate>> {
        Some(Box::new(read::Reader::default()))
    }

    fn presenters(&self) -> Option<SharedPresenters> {
        static P: OnceLock<SharedPresenters> = OnceLock::new();
        Some(super::shared(&P, || std::sync::Arc::new(present::Cursor)))
    }

    fn mapping(&self) -> &'static [super::Mapping] {
        present::MAPPING
    }

    fn home(&self) -> Option<Home> {
        Some(Home {
            var: "CURSOR_CONFIG_DIR",
            dir: ".cursor",
            under_var: "",
        })
    }

    fn sessions(&self, root: &Path) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = dirs(&root.join("projects"))
            .into_iter()
            .flat_map(|p| transcripts(&p.join("agent-transcripts")))
            .collect();
        out.sort();
        out
    }

    fn part_of_another(&self, path: &Path) -> bool {
        path.parent().is_some_and(|d| name(d) == "subagents")
    }

    fn latest_word(&self) -> Option<&'static str> {
        Some("cursor")
    }

    fn latest(&self, root: &Path, cwd: &Path, since: SystemTime) -> Result<PathBuf, String> {
        let dir = root.join("projects").join(project(cwd)).join("agent-transcripts");
        transcripts(&dir)
            .into_iter()
            .newest_since(since)
            .ok_or_else(|| format!("no Cursor agent transcript for {} in {}", cwd.display(), dir.display()))
    }

    fn resume(&self, id: &str, cwd: Option<&Path>) -> Option<Resume> {
        Some(Resume {
            program: "cursor-agent",
            args: vec!["--resume".into(), id.into()],
            cwd: cwd.map(Path::to_path_buf),
        })
    }
}

/// A project's transcripts: `<id>/<id>.jsonl`, and the older `<id>.jsonl`.
fn transcripts(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .flatten()
        .map(|e| e.path())
        .filter_map(|p| {
            if p.is_dir() {
                let inner = p.join(format!("{}.jsonl", name(&p)));
                inner.is_file().then_some(inner)
            } else {
                name(&p).ends_with(".jsonl").then_some(p)
            }
        })
        .collect()
}

/// A directory's project folder name: its path without the first `/`,
/// every other character but letters and digits as `-`
/// (`/workspace/demo` → `workspace-demo`).
fn project(cwd: &Path) -> String {
    let s = cwd.to_string_lossy();
    let s = s.strip_prefix('/').unwrap_or(&s);
    s.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::find::touch;

    #[test]
    fn sessions_and_the_newest_of_a_directory() {
        let root = tempfile::tempdir().unwrap();
        let t = root.path().join("projects/workspace-demo/agent-transcripts");
        touch(&t.join("a/a.jsonl"), "", 200);
        touch(&t.join("b/b.jsonl"), "", 100);
        touch(&t.join("b/subagents/s.jsonl"), "", 100);
        touch(&t.join("old.jsonl"), "", 300);
        touch(&t.join("older.txt"), "", 300);
        touch(&root.path().join("projects/other/agent-transcripts/c/c.jsonl"), "", 10);
        let c = Cursor;
        assert_eq!(c.sessions(root.path()).len(), 4);
        let all = SystemTime::UNIX_EPOCH;
        assert_eq!(c.latest(root.path(), Path::new("/workspace/demo"), all), Ok(t.join("b/b.jsonl")));
        assert!(c.latest(root.path(), Path::new("/nope"), all).is_err());
        assert!(c.part_of_another(&t.join("b/subagents/s.jsonl")));
        assert!(!c.part_of_another(&t.join("b/b.jsonl")));
        assert_eq!(c.resume("x", None).unwrap().args, ["--resume", "x"]);
    }
}
