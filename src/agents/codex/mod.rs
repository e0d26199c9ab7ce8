//! Codex CLI: its rollouts read into deck's records (`read`) and its
//! tools' presenters (`present`).
//!
//! It keeps `$CODEX_HOME` (default `~/.codex`) `/sessions/YYYY/MM/DD/
//! rollout-*.jsonl[.zst]`, a session's directory in its first line; a
//! session resumes with `codex resume ID`.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::SystemTime;

use serde_json::Value;

use super::find::{DEPTH, files_under, has_ext, modified, name, walk};
use super::read::Translate;
use super::{Agent, Format, Home, Resume};
use crate::session::SharedPresenters;

pub mod present;
pub mod read;

/// Its name.
pub const NAME: &str = "codex";

/// Codex CLI.
#[derive(Debug, Clone, Copy, Default)]
pub struct Codex;

impl Agent for Codex {
    fn name(&self) -> &'static str {
        NAME
    }

    fn format(&self) -> Format {
        Format::Codex
    }

    fn title(&self) -> &'static str {
        "Codex rollout"
    }

    fn claims(&self, v: &Value) -> bool {
        read::is_line(v)
    }

    fn reader(&self) -> Option<Box<dyn Translate>> {
        Some(Box::new(read::Reader::default()))
    }

    fn presenters(&self) -> Option<SharedPresenters> {
        static P: OnceLock<SharedPresenters> = OnceLock::new();
        Some(super::shared(&P, || std::sync::Arc::new(present::Codex)))
    }

    fn mapping(&self) -> &'static [super::Mapping] {
        present::MAPPING
    }

    fn home(&self) -> Option<Home> {
        Some(Home {
            var: "CODEX_HOME",
            dir: ".codex",
            under_var: "",
        })
    }

    fn sessions(&self, root: &Path) -> Vec<PathBuf> {
        files_under(&root.join("sessions"), DEPTH)
            .into_iter()
            .filter(|p| is_rollout(name(p)))
            .collect()
    }

    fn latest_word(&self) -> Option<&'static str> {
        Some("codex")
    }

    fn latest(&self, root: &Path, cwd: &Path, since: SystemTime) -> Result<PathBuf, String> {
        let dir = root.join("sessions");
        let mut all = Vec::new();
        walk(&dir, 4, &mut all);
        all.retain(|p| is_rollout(name(p)));
        // Newest first; the first whose cwd is this one.
        let mut dated: Vec<(SystemTime, PathBuf)> = all
            .into_iter()
            .filter_map(|p| Some((modified(&p)?, p)))
            .filter(|(t, _)| *t >= since)
            .collect();
        dated.sort_by_key(|d| std::cmp::Reverse(d.0));
        dated
            .into_iter()
            .map(|(_, p)| p)
            .find(|p| rollout_cwd(p).is_some_and(|c| Path::new(&c) == cwd))
            .ok_or_else(|| {
                format!(
                    "no Codex session for {} in {}",
                    cwd.display(),
                    dir.display()
                )
            })
    }

    fn resume(&self, id: &str, _cwd: Option<&Path>) -> Option<Resume> {
        Some(Resume {
            program: "codex",
            args: vec!["resume".into(), id.into()],
            cwd: None,
        })
    }
}

/// Whether a file's name is a rollout's (`rollout-*.jsonl`, or `.jsonl.zst`).
fn is_rollout(name: &str) -> bool {
    name.starts_with("rollout-") && (name.ends_with(".jsonl") || name.ends_with(".jsonl.zst"))
}

/// The cwd a rollout's first line gives (`session_meta`'s payload, or the
/// oldest files' top level).
fn rollout_cwd(path: &Path) -> Option<String> {
    let file = std::fs::File::open(path).ok()?;
    let reader: Box<dyn Read> = if has_ext(path, "zst") {
        Box::new(zstd::Decoder::new(file).ok()?)
    } else {
        Box::new(file)
    };
    // The first line only, and at most 1 MB of it.
    let mut line = String::new();
    BufReader::new(reader.take(1 << 20))
        .read_line(&mut line)
        .ok()?;
    let v: Value = serde_json::from_str(line.trim()).ok()?;
    let payload = v.get("payload").unwrap_or(&v);
    payload
        .get("cwd")
        .or_else(|| payload.get("git").and_then(|g| g.get("cwd")))
        .and_then(|c| c.as_str())
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::find::touch;

    #[test]
    fn the_newest_session_of_this_directory() {
        let root = tempfile::tempdir().unwrap();
        let cwd = Path::new("/work/proj");
        let all = SystemTime::UNIX_EPOCH;
        let sessions = root.path().join("sessions/2026/12/01");
        let meta = |cwd: &str| format!("{{\"timestamp\":\"2026-12-01T10:00:00Z\",\"type\":\"session_meta\",\"payload\":{{\"id\":\"x\",\"cwd\":\"{cwd}\"}}}}\n");
        touch(&sessions.join("rollout-a.jsonl"), &meta("/work/proj"), 50);
        touch(&sessions.join("rollout-b.jsonl"), &meta("/work/other"), 5);
        touch(&sessions.join("notes.txt"), "x", 1);
        let got = Codex.latest(root.path(), cwd, all).unwrap();
        assert!(got.ends_with("rollout-a.jsonl"), "{got:?}");
        assert!(Codex.latest(root.path(), Path::new("/nowhere"), all).is_err());
        // Only files modified since: the older ones are not read again.
        let since = SystemTime::now() - std::time::Duration::from_secs(5);
        assert!(Codex.latest(root.path(), cwd, since).is_err());
        touch(&sessions.join("rollout-c.jsonl"), &meta("/work/proj"), 0);
        let got = Codex.latest(root.path(), cwd, since).unwrap();
        assert!(got.ends_with("rollout-c.jsonl"), "{got:?}");
    }
}
