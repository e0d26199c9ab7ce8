//! Cline: the sessions of its CLI (npm `cline` 3.0.x, the SDK-based CLI)
//! read into deck's records (`read`) and its tools' presenters (`present`).
//!
//! The CLI keeps `$CLINE_DIR` (default `~/.cline`) `/data/sessions/<id>/`:
//! `<id>.messages.json`, the conversation — one JSON document rewritten
//! whole as the session goes, which deck is pointed at and recognises
//! ([`Agent::document`]) — and `<id>.json`, its manifest (status, exit
//! code, provider, model, `cwd`, the first prompt), read only to find a
//! directory's newest session (its messages say everything deck draws; the
//! manifest's model is the one the session started on, not the one each
//! answer came from, which the messages say). One file per session is
//! listed: the messages. A session resumes with `cline --id ID` in its
//! directory. (`$CLINE_DATA_DIR` and `$CLINE_SESSION_DATA_DIR` move `data/`
//! and `data/sessions/` on their own; deck follows `$CLINE_DIR`.)
//!
//! The VS Code extension's task folders (`tasks/<id>/{api_conversation_
//! history,ui_messages,task_metadata}.json`, Roo Code's and Kilo Code's
//! too) are another format, read by `../cline_tasks/`.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::SystemTime;

use serde_json::Value;

use super::find::NewestSince;
use super::read::Translate;
use super::{Agent, Entries, Format, Home, Resume};
use crate::session::SharedPresenters;

pub mod present;
pub mod read;

/// Its name.
pub const NAME: &str = "cline";

/// Where it keeps its sessions.
const HOME: Home = Home {
    var: "CLINE_DIR",
    dir: ".cline",
    under_var: "",
};

/// Cline.
#[derive(Debug, Clone, Copy, Default)]
pub struct Cline;

impl Agent for Cline {
    fn name(&self) -> &'static str {
        NAME
    }

    fn format(&self) -> Format {
        Format::Cline
    }

    fn title(&self) -> &'static str {
        "Cline session"
    }

    fn claims(&self, v: &Value) -> bool {
        read::is_document(v)
    }

    fn reader(&self) -> Option<Box<dyn Translate>> {
        Some(Box::new(read::Reader::default()))
    }

    /// The session (its messages apart), then each message.
    fn document_entries(&self, shape: &Value) -> Option<Entries> {
        read::is_document(shape).then_some(Entries::Member("messages"))
    }

    fn presenters(&self) -> Option<SharedPresenters> {
        static P: OnceLock<SharedPresenters> = OnceLock::new();
        Some(super::shared(&P, || std::sync::Arc::new(present::Cline)))
    }

    fn mapping(&self) -> &'static [super::Mapping] {
        present::MAPPING
    }

    fn home(&self) -> Option<Home> {
        Some(HOME)
    }

    fn sessions(&self, root: &Path) -> Vec<PathBuf> {
        let Ok(dir) = std::fs::read_dir(root.join("data").join("sessions")) else {
            return Vec::new();
        };
        let mut out: Vec<PathBuf> = dir
            .flatten()
            .filter_map(|e| {
                let id = e.file_name().to_str()?.to_string();
                Some(e.path().join(format!("{id}.messages.json")))
            })
            .filter(|p| p.is_file())
            .collect();
        out.sort();
        out
    }

    fn latest_word(&self) -> Option<&'static str> {
        Some("cline")
    }

    fn latest(&self, root: &Path, cwd: &Path, since: SystemTime) -> Result<PathBuf, String> {
        let dir = root.join("data").join("sessions");
        self.sessions(root)
            .into_iter()
            .filter(|p| manifest_cwd(p).is_some_and(|c| Path::new(&c) == cwd))
            .newest_since(since)
            .ok_or_else(|| format!("no Cline session for {} in {}", cwd.display(), dir.display()))
    }

    fn side_cwd(&self, session_file: &Path) -> Option<String> {
        manifest_cwd(session_file)
    }

    fn resume(&self, id: &str, cwd: Option<&Path>) -> Option<Resume> {
        Some(Resume {
            program: "cline",
            args: vec!["--id".into(), id.into()],
            cwd: cwd.map(Path::to_path_buf),
        })
    }
}

/// The directory of the session whose messages are at `messages`: its
/// manifest's (`<id>.json` beside it) `cwd`.
fn manifest_cwd(messages: &Path) -> Option<String> {
    let name = messages.file_name()?.to_str()?;
    let id = name.strip_suffix(".messages.json")?;
    let text = std::fs::read_to_string(messages.with_file_name(format!("{id}.json"))).ok()?;
    let v: Value = serde_json::from_str(&text).ok()?;
    v.get("cwd")?.as_str().map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::find::touch;

    #[test]
    fn sessions_and_the_newest_of_a_directory() {
        let root = tempfile::tempdir().unwrap();
        let sessions = root.path().join("data/sessions");
        let all = SystemTime::UNIX_EPOCH;
        for (id, cwd, age) in [("1_aaaaa", "/workspace/demo", 200), ("2_bbbbb", "/workspace/demo", 100), ("3_ccccc", "/other", 10)] {
            touch(&sessions.join(id).join(format!("{id}.messages.json")), "{}", age);
            touch(&sessions.join(id).join(format!("{id}.json")), &format!("{{\"cwd\": \"{cwd}\"}}"), age);
        }
        touch(&sessions.join("4_ddddd/notes.json"), "{}", 10);
        let c = Cline;
        assert_eq!(c.sessions(root.path()).len(), 3);
        let newest = sessions.join("2_bbbbb/2_bbbbb.messages.json");
        assert_eq!(c.latest(root.path(), Path::new("/workspace/demo"), all), Ok(newest));
        let err = c.latest(root.path(), Path::new("/elsewhere"), all).unwrap_err();
        assert!(err.contains("no Cline session for /elsewhere"), "{err}");
        let r = c.resume("1_aaaaa", Some(Path::new("/workspace/demo"))).unwrap();
        assert_eq!((r.program, r.args), ("cline", vec!["--id".to_string(), "1_aaaaa".into()]));
    }
}
