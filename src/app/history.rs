//! The history of messages sent with `deck connect`, kept between runs
//! like a shell's: one JSON string per line (so a message of several lines
//! stays one entry) in `$DECK_HISTORY`, else
//! `$XDG_STATE_HOME/deck/prompts.jsonl` (`~/.local/state/deck/…`).
//! `DECK_HISTORY=` (empty) keeps none. A file that cannot be read or
//! written costs the history, never the session.

use std::io::Write;
use std::path::PathBuf;

use super::composer::HISTORY_MAX;

/// Where the history lives (`None`: kept only while deck runs).
#[derive(Debug, Clone)]
pub struct Store {
    path: Option<PathBuf>,
}

impl Store {
    pub fn at(path: Option<PathBuf>) -> Store {
        Store { path }
    }

    pub fn from_env() -> Store {
        let path = match std::env::var_os("DECK_HISTORY") {
            Some(p) if p.is_empty() => None,
            Some(p) => Some(PathBuf::from(p)),
            None => std::env::var_os("XDG_STATE_HOME")
                .filter(|d| !d.is_empty())
                .map(PathBuf::from)
                .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/state")))
                .map(|d| d.join("deck/prompts.jsonl")),
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

    /// Add one entry (the file and its directory are created as needed).
    pub fn append(&self, text: &str) {
        let Some(path) = &self.path else { return };
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let Ok(mut f) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
        else {
            return;
        };
        if let Ok(line) = serde_json::to_string(text) {
            let _ = writeln!(f, "{line}");
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
}
