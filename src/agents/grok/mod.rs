//! Grok Build (xAI's `grok` CLI): its session files read into deck's
//! records (`read`, through the ACP reader) and its tools' presenters
//! (`present`, over the ACP ones).
//!
//! It keeps `~/.grok/sessions/<cwd, URL-encoded>/<session id>/` (`$GROK_HOME`
//! instead of `~/.grok`): `updates.jsonl`, the session's ACP update stream,
//! is what deck reads; `summary.json` beside it holds the directory and the
//! title. A directory whose encoded name is over 255 bytes is kept under a
//! slug and a hash instead (`.cwd` names it): `deck follow --latest` does
//! not find those. A session resumes with `grok --resume ID`.
//!
//! Read from the documented format (xai-org/grok-build's source), not yet
//! verified against a run.

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
pub const NAME: &str = "grok";

/// The session's log in its folder.
const LOG: &str = "updates.jsonl";

/// Grok Build.
#[derive(Debug, Clone, Copy, Default)]
pub struct Grok;

impl Agent for Grok {
    fn name(&self) -> &'static str {
        NAME
    }

    fn format(&self) -> Format {
        Format::Grok
    }

    fn title(&self) -> &'static str {
        "Grok Build session"
    }

    fn claims(&self, v: &Value) -> bool {
        read::is_line(v)
    }

    /// A line read with its calls' outputs kept as text ([`read::Line`]).
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
        Some(super::shared(&P, || std::sync::Arc::new(present::Grok)))
    }

    fn mapping(&self) -> &'static [super::Mapping] {
        present::MAPPING
    }

    fn home(&self) -> Option<Home> {
        Some(Home {
            var: "GROK_HOME",
            dir: ".grok",
            under_var: "",
        })
    }

    fn sessions(&self, root: &Path) -> Vec<PathBuf> {
        let Ok(groups) = std::fs::read_dir(root.join("sessions")) else {
            return Vec::new();
        };
        let mut out: Vec<PathBuf> = groups
            .flatten()
            .flat_map(|g| std::fs::read_dir(g.path()).into_iter().flatten().flatten())
            .map(|s| s.path().join(LOG))
            .filter(|p| p.is_file())
            .collect();
        out.sort();
        out
    }

    fn latest_word(&self) -> Option<&'static str> {
        Some("grok")
    }

    fn latest(&self, root: &Path, cwd: &Path, since: SystemTime) -> Result<PathBuf, String> {
        let dir = root.join("sessions").join(encode(cwd));
        std::fs::read_dir(&dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path().join(LOG))
            .filter(|p| name(p) == LOG)
            .newest_since(since)
            .ok_or_else(|| format!("no Grok Build session for {} in {}", cwd.display(), dir.display()))
    }

    /// `summary.json` beside `updates.jsonl`: `info.cwd`.
    fn side_cwd(&self, session_file: &Path) -> Option<String> {
        let text = std::fs::read_to_string(session_file.parent()?.join("summary.json")).ok()?;
        let v: serde_json::Value = serde_json::from_str(&text).ok()?;
        v.pointer("/info/cwd")?.as_str().map(str::to_string)
    }

    fn resume(&self, id: &str, cwd: Option<&Path>) -> Option<Resume> {
        Some(Resume {
            program: "grok",
            args: vec!["--resume".into(), id.into()],
            cwd: cwd.map(Path::to_path_buf),
        })
    }
}

/// A directory as its group's folder name: URL-encoded, every byte but
/// letters, digits and `-_.~` as `%XX` (`/workspace/demo` →
/// `%2Fworkspace%2Fdemo`).
fn encode(cwd: &Path) -> String {
    let s = cwd.to_string_lossy();
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::find::touch;

    #[test]
    fn sessions_and_the_newest_of_a_directory() {
        let root = tempfile::tempdir().unwrap();
        let group = root.path().join("sessions/%2Fworkspace%2Fdemo");
        touch(&group.join("a/updates.jsonl"), "", 200);
        touch(&group.join("b/updates.jsonl"), "", 100);
        touch(&group.join("b/summary.json"), "", 100);
        touch(&root.path().join("sessions/%2Fother/c/updates.jsonl"), "", 10);
        let g = Grok;
        assert_eq!(g.sessions(root.path()).len(), 3);
        let all = SystemTime::UNIX_EPOCH;
        let want = group.join("b/updates.jsonl");
        assert_eq!(g.latest(root.path(), Path::new("/workspace/demo"), all), Ok(want));
        assert!(g.latest(root.path(), Path::new("/nope"), all).is_err());
        assert_eq!(g.resume("x", None).unwrap().args, ["--resume", "x"]);
    }
}
