//! pi (`@mariozechner/pi-coding-agent`): its session files read into deck's
//! records (`read`) and its tools' presenters (`present`).
//!
//! It keeps `~/.pi/agent/sessions/--<cwd>--/<timestamp>_<session id>.jsonl`
//! (`<cwd>` without its leading `/`, every `/`, `\` and `:` as `-`);
//! `PI_CODING_AGENT_DIR` moves `~/.pi/agent`. (`PI_CODING_AGENT_SESSION_DIR`
//! names a folder holding session files directly: not looked in.) The
//! file's header says the session's directory. A session resumes with
//! `pi --session ID` in its directory.

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
pub const NAME: &str = "pi";

/// pi.
#[derive(Debug, Clone, Copy, Default)]
pub struct Pi;

impl Agent for Pi {
    fn name(&self) -> &'static str {
        NAME
    }

    /// The path to the last entry is known at the end of the file.
    fn draws_at_end(&self) -> bool {
        true
    }

    fn format(&self) -> Format {
        Format::Pi
    }

    fn title(&self) -> &'static str {
        "pi session"
    }

    fn claims(&self, v: &Value) -> bool {
        read::is_line(v)
    }

    /// A `message` entry read from its text and held so ([`read::Line`]).
    fn reads_text(&self) -> bool {
        true
    }

    fn read_text(&self, line: &str) -> Option<Box<dyn super::read::Parsed>> {
        read::Line::parse(line).map(|l| Box::new(l) as Box<dyn super::read::Parsed>)
    }

    fn reader(&self) -> Option<Box<dyn Translate>> {
        Some(Box::new(read::Reader::default()))
    }

    fn presenters(&self) -> Option<SharedPresenters> {
        static P: OnceLock<SharedPresenters> = OnceLock::new();
        Some(super::shared(&P, || std::sync::Arc::new(present::Pi)))
    }

    fn mapping(&self) -> &'static [super::Mapping] {
        present::MAPPING
    }

    fn home(&self) -> Option<Home> {
        Some(Home {
            var: "PI_CODING_AGENT_DIR",
            dir: ".pi/agent",
            under_var: "",
        })
    }

    fn sessions(&self, root: &Path) -> Vec<PathBuf> {
        let Ok(dirs) = std::fs::read_dir(root.join("sessions")) else {
            return Vec::new();
        };
        let mut out: Vec<PathBuf> = dirs
            .flatten()
            .flat_map(|d| std::fs::read_dir(d.path()).into_iter().flatten().flatten())
            .map(|e| e.path())
            .filter(|p| name(p).ends_with(".jsonl"))
            .collect();
        out.sort();
        out
    }

    fn latest_word(&self) -> Option<&'static str> {
        Some("pi")
    }

    fn latest(&self, root: &Path, cwd: &Path, since: SystemTime) -> Result<PathBuf, String> {
        let dir = root.join("sessions").join(folder(cwd));
        std::fs::read_dir(&dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| name(p).ends_with(".jsonl"))
            .newest_since(since)
            .ok_or_else(|| format!("no pi session for {} in {}", cwd.display(), dir.display()))
    }

    fn resume(&self, id: &str, cwd: Option<&Path>) -> Option<Resume> {
        Some(Resume {
            program: "pi",
            args: vec!["--session".into(), id.into()],
            cwd: cwd.map(Path::to_path_buf),
        })
    }
}

/// A directory's session folder name, as pi's `getDefaultSessionDir`
/// makes it: `--`, the path without its leading separator, every `/`, `\`
/// and `:` as `-`, `--` (`/workspace/demo` → `--workspace-demo--`).
fn folder(cwd: &Path) -> String {
    let s = cwd.to_string_lossy();
    let s = s.strip_prefix(['/', '\\']).unwrap_or(&s);
    let body: String = s.chars().map(|c| if matches!(c, '/' | '\\' | ':') { '-' } else { c }).collect();
    format!("--{body}--")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::find::touch;

    #[test]
    fn sessions_and_the_newest_of_a_directory() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("sessions/--workspace-demo--");
        touch(&dir.join("a.jsonl"), "", 200);
        touch(&dir.join("b.jsonl"), "", 100);
        touch(&root.path().join("sessions/--other--/c.jsonl"), "", 10);
        let p = Pi;
        assert_eq!(p.sessions(root.path()).len(), 3);
        let all = SystemTime::UNIX_EPOCH;
        assert_eq!(p.latest(root.path(), Path::new("/workspace/demo"), all), Ok(dir.join("b.jsonl")));
        assert!(p.latest(root.path(), Path::new("/nope"), all).is_err());
        assert_eq!(p.resume("x", None).unwrap().args, ["--session", "x"]);
        assert_eq!(folder(Path::new("/a/b:c")), "--a-b-c--");
    }
}
