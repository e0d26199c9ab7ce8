//! What `deck record` writes: every message a source receives, to the
//! output verbatim, one per line, straight to the file with one `write`
//! per message (no user-space buffer), so a SIGKILL loses nothing already
//! received ([`FileSink`], a tap: `live::RawSink`). The recorder that
//! drives a source into it is the command's (`commands::record`).

use std::io::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use super::live::RawSink;

/// Writes messages to a file, one per line.
pub struct FileSink {
    file: Mutex<std::fs::File>,
    messages: AtomicU64,
}

impl FileSink {
    /// Create (or truncate) `path`: created 0600 (a recording holds the
    /// session's text); a file that was there keeps its mode.
    pub fn create(path: &std::path::Path) -> std::io::Result<FileSink> {
        let file = crate::private::create(
            std::fs::OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(true),
            path,
        )?;
        Ok(FileSink {
            file: Mutex::new(file),
            messages: AtomicU64::new(0),
        })
    }

    /// Messages written so far.
    pub fn messages(&self) -> u64 {
        self.messages.load(Ordering::Relaxed)
    }
}

impl RawSink for FileSink {
    fn message(&self, bytes: &[u8]) -> std::io::Result<()> {
        let mut line = if bytes.contains(&b'\n') || bytes.contains(&b'\r') {
            // One message, one line: a pretty-printed message is compacted
            // (a message that is not JSON keeps its text, newlines escaped).
            match serde_json::from_slice::<serde_json::Value>(bytes) {
                Ok(v) => v.to_string().into_bytes(),
                Err(_) => String::from_utf8_lossy(bytes)
                    .replace('\r', "\\r")
                    .replace('\n', "\\n")
                    .into_bytes(),
            }
        } else {
            bytes.to_vec()
        };
        line.push(b'\n');
        let mut f = self.file.lock().unwrap_or_else(|p| p.into_inner());
        f.write_all(&line)?;
        self.messages.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }
}
