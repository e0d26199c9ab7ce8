//! The history of messages sent with `deck connect`, kept between runs
//! like a shell's: one JSON string per line (so a message of several lines
//! stays one entry) in `$DECK_HISTORY`, else
//! `$XDG_STATE_HOME/deck/prompts.jsonl` (`~/.local/state/deck/…`).
//! `DECK_HISTORY=` (empty) keeps none. A file that cannot be read or
//! written costs the history, never the session.
//!
//! Sent messages can hold secrets: the file is created readable by its
//! owner only (0600, its directory 0700) and kept to the newest
//! [`HISTORY_MAX`] entries.

use std::io::Write;
use std::path::PathBuf;

use super::composer::HISTORY_MAX;

/// Where the history lives (`None`: kept only while deck runs).
#[derive(Debug, Clone)]
pub struct Store {
    path: Option<PathBuf>,
}

impl Store {
    #[cfg(any(test, feature = "internals"))]
    pub fn at(path: Option<PathBuf>) -> Store {
        Store { path }
    }

    pub fn from_env() -> Store {
        let path = match std::env::var_os("DECK_HISTORY") {
            Some(p) if p.is_empty() => None,
            Some(p) => Some(PathBuf::from(p)),
            None => super::dirs::state().map(|d| d.join("prompts.jsonl")),
        };
        Store { path }
    }

    /// The newest [`HISTORY_MAX`] entries, oldest first; lines that are not
    /// a JSON string are skipped.
    pub fn load(&self) -> Vec<String> {
        let Some(text) = self
            .path
            .as_ref()
            .and_then(|p| std::fs::read_to_string(p).ok())
        else {
            return Vec::new();
        };
        let all: Vec<String> = text
            .lines()
            .filter_map(|l| serde_json::from_str::<String>(l).ok())
            .collect();
        let skip = all.len().saturating_sub(HISTORY_MAX);
        all.into_iter().skip(skip).collect()
    }

    /// Add one entry (the file and its directory are created as needed),
    /// then drop the oldest entries past [`HISTORY_MAX`].
    pub fn append(&self, text: &str) {
        use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
        let Some(path) = &self.path else { return };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            let _ = std::fs::DirBuilder::new()
                .recursive(true)
                .mode(0o700)
                .create(dir);
        }
        let Ok(mut f) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .mode(0o600)
            .open(path)
        else {
            return;
        };
        // A file made by an older deck (or by hand) is closed up too.
        let _ = f.set_permissions(std::fs::Permissions::from_mode(0o600));
        if let Ok(line) = serde_json::to_string(text) {
            let _ = writeln!(f, "{line}");
        }
        drop(f);
        self.trim(path);
    }

    /// Keep the newest [`HISTORY_MAX`] lines: written to a new file (0600)
    /// beside it, then renamed over it, so a crash leaves one or the other.
    fn trim(&self, path: &std::path::Path) {
        use std::os::unix::fs::OpenOptionsExt;
        let Ok(text) = std::fs::read_to_string(path) else {
            return;
        };
        let lines: Vec<&str> = text.lines().collect();
        if lines.len() <= HISTORY_MAX {
            return;
        }
        let keep = &lines[lines.len() - HISTORY_MAX..];
        let tmp = path.with_extension("jsonl.tmp");
        let written = std::fs::OpenOptions::new()
            .create(true)
            .write(true)
            .truncate(true)
            .mode(0o600)
            .open(&tmp)
            .and_then(|mut f| {
                for l in keep {
                    writeln!(f, "{l}")?;
                }
                f.sync_all()
            });
        if written.is_ok() {
            let _ = std::fs::rename(&tmp, path);
        } else {
            let _ = std::fs::remove_file(&tmp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_survive_a_restart_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/prompts.jsonl");
        let s = Store::at(Some(path.clone()));
        assert!(s.load().is_empty(), "no file yet");
        s.append("first");
        s.append("two\nlines \"quoted\"");
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap()
            .write_all(b"not json\n")
            .unwrap();
        s.append("third");
        assert_eq!(
            Store::at(Some(path)).load(),
            vec!["first", "two\nlines \"quoted\"", "third"]
        );
        let none = Store::at(None);
        none.append("x");
        assert!(none.load().is_empty());
    }

    #[test]
    fn the_file_is_private_and_kept_to_its_limit() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state/deck/prompts.jsonl");
        let s = Store::at(Some(path.clone()));
        s.append("secret token");
        let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&path), 0o600);
        assert_eq!(mode(path.parent().unwrap()), 0o700);
        // A file someone made world-readable is closed up on the next append.
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        for i in 0..HISTORY_MAX + 30 {
            s.append(&format!("message {i}"));
        }
        assert_eq!(mode(&path), 0o600);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), HISTORY_MAX);
        let loaded = s.load();
        assert_eq!(loaded.len(), HISTORY_MAX);
        assert_eq!(
            loaded.last().map(String::as_str),
            Some(format!("message {}", HISTORY_MAX + 29).as_str())
        );
        assert!(!path.with_extension("jsonl.tmp").exists());
    }
}
