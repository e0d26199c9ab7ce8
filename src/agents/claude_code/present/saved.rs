//! Output Claude Code saved to a file because it was too large for the log
//! (`tool-results/<name>.txt`). The result then holds an envelope with a
//! preview (`claude_code::read::side_files`); when the session was
//! loaded from a path with that file beside it, the loader put the file's
//! text in the result (a block marked `sideFile`). The card shows the whole
//! output and says where it was read from; without the file it shows the
//! preview and says the rest is in a file that is not there. Nothing is
//! made up: a size is the one Claude wrote.

use serde_json::Value;

use super::Outcome;
use crate::agents::claude_code::read::side_files::persisted;
use crate::wire::view::{Block, GenericView, View};

/// A result's output, as saved.
pub(super) struct Saved {
    /// The output to show: the file's text, or what the log holds of it.
    pub output: String,
    /// Where it came from, for the card to say.
    pub note: String,
    /// The text Claude's own words about the run start with (the preview:
    /// `Exit code N` is on its first line when the command failed).
    pub head: String,
}

/// The result's output when Claude saved it to a file; `stdout`: the
/// structured result's output, shown when it holds more than the preview.
pub(super) fn saved(out: &Outcome, stdout: Option<&str>) -> Option<Saved> {
    if let Some(block) = out.content.iter().find(|b| b.get("sideFile").is_some()) {
        let name = block.get("sideFile").and_then(Value::as_str).unwrap_or("?");
        let output = block.get("text").and_then(Value::as_str).unwrap_or("");
        let envelope = block.get("envelope").and_then(Value::as_str).unwrap_or("");
        let p = persisted(envelope);
        let size = p.as_ref().and_then(|p| p.size);
        let note = match block.get("sideFileCut").and_then(Value::as_u64) {
            Some(total) => format!(
                "output too large for the log: its first {} of {} read from {name} (the line limit, DECK_MAX_LINE)",
                human(output.len() as u64),
                human(total)
            ),
            None => format!("output too large for the log{}: read whole from {name}", of(size)),
        };
        return Some(Saved {
            output: output.to_string(),
            note,
            head: p.map(|p| p.preview.to_string()).unwrap_or_default(),
        });
    }
    let text = out.text();
    let p = persisted(&text)?;
    let file = p.file_name().unwrap_or(p.path);
    let whole = stdout.filter(|s| persisted(s).is_none() && s.len() > p.preview.len());
    let (output, note) = match whole {
        Some(s) => (
            s.to_string(),
            format!(
                "output too large{}: Claude Code saved it to tool-results/{file} (not beside this session); the log's structured result holds it whole",
                of(p.size)
            ),
        ),
        None => (
            p.preview.to_string(),
            format!(
                "output too large{}: Claude Code saved it to tool-results/{file}, which is not beside this session; the log holds only the start shown here",
                of(p.size)
            ),
        ),
    };
    Some(Saved {
        output,
        note,
        head: p.preview.to_string(),
    })
}

/// ` (48.2KB)`, when the size is known.
fn of(size: Option<&str>) -> String {
    size.map(|s| format!(" ({s})")).unwrap_or_default()
}

fn human(bytes: u64) -> String {
    crate::source::limits::human(bytes)
}

/// A generic card of saved output, for a tool whose card is its text.
pub(super) fn generic(out: &Outcome) -> Option<View> {
    let s = saved(out, None)?;
    let content = vec![Block::text(format!("*{}*", s.note)), Block::text(s.output)];
    Some(View::Generic(GenericView {
        content: Some(content),
        ..GenericView::default()
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const ENVELOPE: &str = "<persisted-output>\nOutput too large (48.2KB). Full output saved to: /h/p/s/tool-results/toolu_9.txt\n\nPreview (first 2KB):\nExit code 2\nfirst lines\n...\n</persisted-output>";

    fn outcome(content: &[Value]) -> Outcome<'_> {
        Outcome {
            content,
            is_error: false,
            meta: None,
        }
    }

    #[test]
    fn a_file_read_beside_the_session_is_shown_whole() {
        let content = [json!({"type": "text", "text": "all of it", "sideFile": "tool-results/toolu_9.txt",
            "savedAs": "/h/p/s/tool-results/toolu_9.txt", "envelope": ENVELOPE})];
        let s = saved(&outcome(&content), None).expect("saved");
        assert_eq!(s.output, "all of it");
        assert_eq!(
            s.note,
            "output too large for the log (48.2KB): read whole from tool-results/toolu_9.txt"
        );
        assert!(s.head.starts_with("Exit code 2"));
    }

    #[test]
    fn without_the_file_the_preview_is_said_to_be_a_preview() {
        let content = [json!({"type": "text", "text": ENVELOPE})];
        let s = saved(&outcome(&content), None).expect("saved");
        assert_eq!(s.output, "Exit code 2\nfirst lines");
        assert!(s.note.contains("which is not beside this session"), "{}", s.note);
        // A structured result that holds more than the preview is shown.
        let s = saved(&outcome(&content), Some("Exit code 2\nfirst lines\nand the rest")).expect("saved");
        assert!(s.output.ends_with("and the rest"));
        assert!(s.note.contains("holds it whole"));
        let plain = [json!({"type": "text", "text": "small output"})];
        assert!(saved(&outcome(&plain), None).is_none());
    }
}
