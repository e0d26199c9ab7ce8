//! Output Claude Code saved beside the session because it was too large
//! for the log (`<session folder>/tool-results/<name>.txt`). The result in
//! the log holds only an envelope with a preview:
//!
//! ```text
//! <persisted-output>
//! Output too large (48.2KB). Full output saved to: /home/u/.claude/projects/-w/<id>/tool-results/toolu_….txt
//!
//! Preview (first 2KB):
//! …the first 2 KB…
//! ...
//! </persisted-output>
//! ```
//!
//! [`persisted`] reads such an envelope (the presenters use it to say what
//! was saved when the file is not there); [`Folder::fill`] puts a saved
//! file's text back into its result when the file is beside the session:
//! a text block marked `sideFile` (its name in the folder), `savedAs`
//! (the path the envelope gave) and `envelope` (the text it replaces, with
//! its size and preview). Only a plain file name inside the
//! session's own `tool-results/` is ever read, whatever path the log
//! names; a file over the line limit is read to the limit (`sideFileCut`
//! with its size).

use std::io::Read;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::source::limits;
use crate::wire::{EventKind, RawJson, Record};

/// The envelope's opening tag.
const TAG: &str = "<persisted-output>";

/// What an envelope says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Persisted<'a> {
    /// The output's size as Claude wrote it (`48.2KB`).
    pub size: Option<&'a str>,
    /// Where Claude saved it.
    pub path: &'a str,
    /// The part of the output the log holds.
    pub preview: &'a str,
}

impl Persisted<'_> {
    /// The saved file's name, when it is a plain name (no folder in it).
    pub fn file_name(&self) -> Option<&str> {
        let name = self.path.rsplit(['/', '\\']).next()?;
        (!name.is_empty() && name != "." && name != "..").then_some(name)
    }
}

/// The envelope `text` is, if it is one.
pub fn persisted(text: &str) -> Option<Persisted<'_>> {
    let body = text.trim_start().strip_prefix(TAG)?.trim_start_matches(['\r', '\n']);
    let (first, rest) = body.split_once('\n').unwrap_or((body, ""));
    let (head, path) = first.split_once("saved to: ")?;
    let path = path.trim();
    let size = head
        .split_once('(')
        .and_then(|(_, s)| s.split_once(')'))
        .map(|(s, _)| s.trim())
        .filter(|s| !s.is_empty());
    let rest = rest.trim_start_matches(['\r', '\n']);
    let preview = match rest.split_once('\n') {
        Some((label, p)) if label.starts_with("Preview") => p,
        _ => rest,
    };
    let preview = preview.trim_end();
    let preview = preview.strip_suffix("</persisted-output>").unwrap_or(preview).trim_end();
    let preview = preview.strip_suffix("...").unwrap_or(preview).trim_end_matches(['\r', '\n']);
    (!path.is_empty()).then_some(Persisted {
        size,
        path,
        preview,
    })
}

/// A session's `tool-results/` folder, when it has one.
pub struct Folder {
    dir: Option<PathBuf>,
}

impl Folder {
    /// The `tool-results/` of the session folder `folder`.
    pub fn new(folder: &Path) -> Folder {
        let dir = folder.join("tool-results");
        Folder {
            dir: dir.is_dir().then_some(dir),
        }
    }

    /// Put saved output back into the results of `records` whose content
    /// is an envelope naming a file of this folder.
    pub fn fill(&self, records: &mut [Record]) {
        let Some(dir) = &self.dir else {
            return;
        };
        for r in records {
            let Record::Event { event, .. } = r else {
                continue;
            };
            if event.kind != EventKind::ToolResult || !event.data.as_str().contains(TAG) {
                continue;
            }
            let mut data = event.data.parse();
            if fill_data(&mut data, dir) {
                event.data = RawJson::from_value(&data);
            }
        }
    }
}

/// The envelope blocks of a `tool/result`'s data replaced by their saved
/// files found in `dir`; false when none was.
fn fill_data(data: &mut Value, dir: &Path) -> bool {
    let Some(parts) = data
        .get_mut("message")
        .and_then(|m| m.get_mut("content"))
        .and_then(Value::as_array_mut)
    else {
        return false;
    };
    let mut filled = false;
    for part in parts
        .iter_mut()
        .filter(|p| p.get("type").and_then(Value::as_str) == Some("tool-result"))
    {
        let Some(blocks) = part.get_mut("content").and_then(Value::as_array_mut) else {
            continue;
        };
        for block in blocks.iter_mut() {
            if let Some(saved) = block
                .get("text")
                .and_then(Value::as_str)
                .and_then(|t| saved_block(t, dir))
            {
                *block = saved;
                filled = true;
            }
        }
    }
    filled
}

/// The text block of the file an envelope names, when it is in `dir`.
fn saved_block(text: &str, dir: &Path) -> Option<Value> {
    let p = persisted(text)?;
    let name = p.file_name()?;
    let file = std::fs::File::open(dir.join(name)).ok()?;
    let size = file.metadata().ok()?.len();
    let limit = limits::max_line() as u64;
    let mut bytes = Vec::new();
    file.take(limit).read_to_end(&mut bytes).ok()?;
    let mut block = json!({
        "type": "text",
        "text": String::from_utf8_lossy(&bytes),
        "sideFile": format!("tool-results/{name}"),
        "savedAs": p.path,
        "envelope": text,
    });
    if size > limit
        && let Some(map) = block.as_object_mut()
    {
        map.insert("sideFileCut".into(), json!(size));
    }
    Some(block)
}

/// The folder of session `id` whose log is `log`: `<dir>/<id>/` beside a
/// session log, or, for a subagent's own log (`<dir>/<id>/subagents/…`),
/// the folder its `subagents/` is in.
pub fn session_folder(log: &Path, id: &str) -> Option<PathBuf> {
    let dir = log.parent()?;
    if dir.file_name().is_some_and(|n| n == "subagents") {
        return dir.parent().map(Path::to_path_buf);
    }
    if id.is_empty() || id.contains(['/', '\\']) || id == ".." || id == "." {
        return None;
    }
    Some(dir.join(id))
}

#[cfg(test)]
mod tests {
    use super::*;

    const ENVELOPE: &str = "<persisted-output>\nOutput too large (48.2KB). Full output saved to: /h/.claude/projects/-w/s/tool-results/toolu_9.txt\n\nPreview (first 2KB):\nline 1\nline 2\n...\n</persisted-output>";

    #[test]
    fn an_envelope_says_size_path_and_preview() {
        let p = persisted(ENVELOPE).expect("envelope");
        assert_eq!(p.size, Some("48.2KB"));
        assert_eq!(p.path, "/h/.claude/projects/-w/s/tool-results/toolu_9.txt");
        assert_eq!(p.preview, "line 1\nline 2");
        assert_eq!(p.file_name(), Some("toolu_9.txt"));
        assert!(persisted("plain output").is_none());
        assert!(persisted("<persisted-output>\nno path here").is_none());
        let up = persisted("<persisted-output>\nsaved to: /x/..\n").expect("envelope");
        assert_eq!(up.file_name(), None);
    }

    fn result(text: &str) -> Value {
        json!({"message": {"content": [{"type": "tool-result", "toolCallId": "toolu_9",
            "content": [{"type": "text", "text": text}], "isError": false}]}})
    }

    #[test]
    fn a_saved_file_beside_the_session_replaces_its_envelope() {
        let dir = tempfile::tempdir().expect("dir");
        let mut data = result(ENVELOPE);
        assert!(!fill_data(&mut data, dir.path()), "no file: left as it is");
        std::fs::write(dir.path().join("toolu_9.txt"), "all\nof\nit\n").expect("writes");
        assert!(fill_data(&mut data, dir.path()));
        let block = &data["message"]["content"][0]["content"][0];
        assert_eq!(block["text"], "all\nof\nit\n");
        assert_eq!(block["sideFile"], "tool-results/toolu_9.txt");
        assert!(block.get("sideFileCut").is_none());
    }

    #[test]
    fn only_a_file_of_the_folder_is_read() {
        let dir = tempfile::tempdir().expect("dir");
        let inner = dir.path().join("tool-results");
        std::fs::create_dir(&inner).expect("mkdir");
        std::fs::write(dir.path().join("secret.txt"), "no").expect("writes");
        let text = "<persisted-output>\nOutput too large (1KB). Full output saved to: ../secret.txt\n";
        let mut data = result(text);
        // `../secret.txt` is read as `secret.txt` of tool-results/: absent.
        assert!(!fill_data(&mut data, &inner));
    }
}
