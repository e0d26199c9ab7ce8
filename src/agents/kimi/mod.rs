//! Kimi Code CLI (MoonshotAI's `kimi-cli`): its sessions' wire logs read
//! into deck's records (`read`) and its tools' presenters (`present`).
//! Read from a real run (`tests/e2e/agents/kimi/`, kimi-cli 1.49.0) and
//! its source (`src/kimi_cli/wire/`, `src/kimi_cli/metadata.py`).
//!
//! It keeps `$KIMI_SHARE_DIR` (default `~/.kimi`) `/sessions/<md5 of the
//! work dir's path>/<session id>/wire.jsonl` (the UI's events, read here),
//! beside `context.jsonl` (the model's messages: not read) and
//! `state.json`; older versions kept only `<session id>.jsonl` (a context
//! file: not read). A work dir on another KAOS (over SSH) is
//! `<kaos>_<md5>`. The lines say neither the session's id nor its
//! directory (its folders do, the directory as a hash). A session resumes
//! with `kimi --resume ID` in its directory.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::SystemTime;

use md5::{Digest, Md5};
use serde_json::Value;

use super::find::{NewestSince, dirs};
use super::read::Translate;
use super::{Agent, Format, Home, Resume};
use crate::session::SharedPresenters;

pub mod present;
pub mod read;

/// Its name.
pub const NAME: &str = "kimi";

/// Kimi Code CLI.
#[derive(Debug, Clone, Copy, Default)]
pub struct Kimi;

impl Agent for Kimi {
    fn name(&self) -> &'static str {
        NAME
    }

    fn format(&self) -> Format {
        Format::Kimi
    }

    fn title(&self) -> &'static str {
        "Kimi Code session"
    }

    fn claims(&self, v: &Value) -> bool {
        read::is_line(v)
    }

    fn reader(&self) -> Option<Box<dyn Translate>> {
        Some(Box::new(read::Reader::default()))
    }

    fn presenters(&self) -> Option<SharedPresenters> {
        static P: OnceLock<SharedPresenters> = OnceLock::new();
        Some(super::shared(&P, || std::sync::Arc::new(present::Kimi)))
    }

    fn mapping(&self) -> &'static [super::Mapping] {
        present::MAPPING
    }

    fn home(&self) -> Option<Home> {
        Some(Home {
            var: "KIMI_SHARE_DIR",
            dir: ".kimi",
            under_var: "",
        })
    }

    fn sessions(&self, root: &Path) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = dirs(&root.join("sessions")).iter().flat_map(|d| wires(d)).collect();
        out.sort();
        out
    }

    fn latest_word(&self) -> Option<&'static str> {
        Some("kimi")
    }

    fn latest(&self, root: &Path, cwd: &Path, since: SystemTime) -> Result<PathBuf, String> {
        let dir = root.join("sessions").join(work_dir(cwd));
        wires(&dir)
            .into_iter()
            .newest_since(since)
            .ok_or_else(|| format!("no Kimi Code session for {} in {}", cwd.display(), dir.display()))
    }

    fn resume(&self, id: &str, cwd: Option<&Path>) -> Option<Resume> {
        Some(Resume {
            program: "kimi",
            args: vec!["--resume".into(), id.into()],
            cwd: cwd.map(Path::to_path_buf),
        })
    }
}

/// A work dir's sessions: `<session id>/wire.jsonl`.
fn wires(dir: &Path) -> Vec<PathBuf> {
    dirs(dir).into_iter().map(|d| d.join("wire.jsonl")).filter(|p| p.is_file()).collect()
}

/// A directory's sessions folder name: the md5 of its path, in hex
/// (`/workspace/demo` → `2f108d9d78a2ccf520e99c4d45c05ab0`).
fn work_dir(cwd: &Path) -> String {
    let digest = Md5::digest(cwd.to_string_lossy().as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::find::touch;

    #[test]
    fn sessions_and_the_newest_of_a_directory() {
        let root = tempfile::tempdir().unwrap();
        let demo = root.path().join("sessions/2f108d9d78a2ccf520e99c4d45c05ab0");
        touch(&demo.join("a/wire.jsonl"), "", 200);
        touch(&demo.join("b/wire.jsonl"), "", 100);
        touch(&demo.join("b/context.jsonl"), "", 50);
        touch(&demo.join("old.jsonl"), "", 10);
        touch(&root.path().join("sessions/0123/c/wire.jsonl"), "", 10);
        let k = Kimi;
        assert_eq!(k.sessions(root.path()).len(), 3);
        let all = SystemTime::UNIX_EPOCH;
        assert_eq!(k.latest(root.path(), Path::new("/workspace/demo"), all), Ok(demo.join("b/wire.jsonl")));
        assert!(k.latest(root.path(), Path::new("/nope"), all).is_err());
        assert_eq!(k.resume("x", None).unwrap().args, ["--resume", "x"]);
    }
}
