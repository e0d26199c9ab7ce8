//! The history of messages sent with `deck connect`, kept between runs
//! like a shell's: one JSON string per line (so a message of several lines
//! stays one entry) in `$DECK_HISTORY`, else
//! `$XDG_STATE_HOME/deck/prompts.jsonl` (`~/.local/state/deck/…`).
//! `DECK_HISTORY=` (empty) keeps none. A file that cannot be read or
//! written costs the history, never the session.
//!
//! Sent messages can hold secrets: the file is created readable by its
//! owner only (0600, its directory 0700: `crate::private`), closed up when
//! it was not ([`Store::close_up`], said before the TUI starts), and kept
//! to the newest [`HISTORY_MAX`] entries.

use std::io::Write;
use std::path::PathBuf;

/// Most entries kept (in the file, and in the message field's history).
pub const HISTORY_MAX: usize = 500;

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

    /// The history file and its folder, when they are there and readable by
    /// other users, made private: what was closed up, for the caller to say
    /// (before the TUI starts).
    pub fn close_up(&self) -> Vec<crate::private::Tightened> {
        let Some(path) = self.path.as_ref().filter(|p| p.exists()) else {
            return Vec::new();
        };
        let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
        dir.into_iter()
            .chain([path.as_path()])
            .filter_map(|p| crate::private::tighten(p).ok().flatten())
            .collect()
    }

    /// Add one entry (the file and its directory are created as needed),
    /// then drop the oldest entries past [`HISTORY_MAX`].
    pub fn append(&self, text: &str) {
        let Some(path) = &self.path else { return };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            let _ = crate::private::dir(dir);
        }
        // A file made by an older deck (or by hand) is closed up too (the
        // TUI is on: said by `close_up` before it).
        let Ok((mut f, _)) =
            crate::private::keep(std::fs::OpenOptions::new().create(true).append(true), path)
        else {
            return;
        };
        if let Ok(line) = serde_json::to_string(text) {
            let _ = writeln!(f, "{line}");
        }
        drop(f);
        self.trim(path);
    }

    /// Keep the newest [`HISTORY_MAX`] lines: written to a new file (0600)
    /// beside it, then renamed over it, so a crash leaves one or the other.
    fn trim(&self, path: &std::path::Path) {
        let Ok(text) = std::fs::read_to_string(path) else {
            return;
        };
        let lines: Vec<&str> = text.lines().collect();
        if lines.len() <= HISTORY_MAX {
            return;
        }
        let keep = &lines[lines.len() - HISTORY_MAX..];
        let tmp = path.with_extension("jsonl.tmp");
        let written = crate::private::create(
            std::fs::OpenOptions::new()
                .create(true)
                .write(true)
                .truncate(true),
            &tmp,
        )
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
        // A file and folder someone opened up: closed up and said before
        // the TUI, and on the next append anyway.
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        let dir = path.parent().unwrap();
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        let said: Vec<_> = s.close_up().into_iter().map(|t| t.path).collect();
        assert_eq!(said, [dir.to_path_buf(), path.clone()]);
        assert_eq!((mode(&path), mode(dir)), (0o600, 0o700));
        assert!(s.close_up().is_empty());
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
