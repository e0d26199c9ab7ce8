//! Slash commands in a Claude Code log, read as what the person typed.
//!
//! * A command is written as markup: `<command-message>review</command-message>
//!   <command-name>/review</command-name><command-args>src/</command-args>`
//!   (tags in any order). Read as its command line, `/review src/`.
//! * A command Claude Code runs itself (`/model`, `/mcp`, …: a *local*
//!   command) is no request to the model, so no turn: 2.1.328 writes an
//!   `isMeta` `<local-command-caveat>` line, the command as a user line,
//!   then its output as a `system` line of subtype `local_command`
//!   (`<local-command-stdout>…</local-command-stdout>`); 2.1.38 wrote the
//!   command and its output both as `local_command` lines. The command is a
//!   `user/message` of source `command`, its output one of source
//!   `output`, its escape sequences taken out.
//! * A custom command or a skill (`/review src/`) is a prompt: its turn
//!   starts with the command line (the expansion Claude Code sends the
//!   model is an `isMeta` line, not drawn).


use super::{Out, Reader};
use crate::wire::payload::{ContentBlock, MessageSource, TextOrObjects, UserMessage};
use crate::wire::{EventKind, Origin};

/// The words of a local command's caveat line.
const CAVEAT: &str = "<local-command-caveat>";

/// The inner text of `<tag>…</tag>` in `text`.
fn tag<'a>(text: &'a str, tag: &str) -> Option<&'a str> {
    let open = format!("<{tag}>");
    let close = format!("</{tag}>");
    let from = text.find(&open)? + open.len();
    let to = from + text[from..].find(&close)?;
    Some(&text[from..to])
}

/// The command line a command's markup stands for (`/review src/`), when
/// `text` is nothing but that markup.
pub(super) fn command(text: &str) -> Option<String> {
    let t = text.trim();
    if !t.starts_with('<') || !t.contains("<command-name>") {
        return None;
    }
    let name = tag(t, "command-name")?.trim();
    if name.is_empty() {
        return None;
    }
    // Nothing else but the command's own tags.
    let mut rest = t.to_string();
    for k in ["command-name", "command-message", "command-args", "command-contents"] {
        if let Some(inner) = tag(&rest, k) {
            let whole = format!("<{k}>{inner}</{k}>");
            rest = rest.replacen(&whole, "", 1);
        }
    }
    if !rest.trim().is_empty() {
        return None;
    }
    let slash = if name.starts_with('/') { "" } else { "/" };
    let args = tag(t, "command-args").map(str::trim).unwrap_or("");
    Some(if args.is_empty() {
        format!("{slash}{name}")
    } else {
        format!("{slash}{name} {args}")
    })
}

/// A local command's output (`<local-command-stdout>` or `-stderr>`), its
/// escape sequences taken out, when `text` is one.
pub(super) fn output(text: &str) -> Option<String> {
    let t = text.trim();
    let inner = tag(t, "local-command-stdout").or_else(|| tag(t, "local-command-stderr"))?;
    Some(crate::text::sanitize::strip_sequences(inner).trim().to_string())
}

/// Whether an `isMeta` line says the next command is a local one.
pub(super) fn is_caveat(text: &str) -> bool {
    text.trim_start().starts_with(CAVEAT)
}

/// A user message of one text, from `kind` (`user`, `notification`,
/// `command`, `output`), of no turn.
pub(super) fn said(text: &str, kind: &str) -> UserMessage {
    UserMessage {
        content: TextOrObjects::Objects(vec![Some(ContentBlock {
            kind: Some("text".into()),
            text: Some(text.to_string()),
        })]),
        source: Some(MessageSource {
            kind: Some(kind.to_string()),
            ..MessageSource::default()
        }),
        ..UserMessage::default()
    }
}

impl Reader {
    /// A command the person ran that Claude Code ran itself: no turn (the
    /// one before it has ended), the command line as they typed it.
    pub(super) fn local_command(&mut self, out: &mut Out, origin: Origin, line: &str) {
        self.end_turn(out, origin, "completed");
        let data = said(line, "command");
        self.emit(out, origin, EventKind::UserMessage, &data);
    }

    /// What a local command printed.
    pub(super) fn command_output(&mut self, out: &mut Out, origin: Origin, text: &str) {
        if text.is_empty() {
            return;
        }
        let data = said(text, "output");
        self.emit(out, origin, EventKind::UserMessage, &data);
    }

    /// A `system` line of subtype `local_command`: the command (2.1.38) or
    /// its output.
    pub(super) fn local_command_line(&mut self, out: &mut Out, origin: Origin, content: &str) {
        if let Some(text) = output(content) {
            self.command_output(out, origin, &text);
        } else if let Some(line) = command(content) {
            self.local_command(out, origin, &line);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_read_as_typed() {
        let review = "<command-message>review</command-message>\n<command-name>/review</command-name>\n<command-args>src/</command-args>";
        assert_eq!(command(review).as_deref(), Some("/review src/"));
        let model = "<command-name>/model</command-name>\n            <command-message>model</command-message>\n            <command-args></command-args>";
        assert_eq!(command(model).as_deref(), Some("/model"));
        let old = "<command-name>test-command</command-name><command-args>--verbose</command-args><command-message>Running</command-message><command-contents>{}</command-contents>";
        assert_eq!(command(old).as_deref(), Some("/test-command --verbose"));
        // Markup inside a prompt is the prompt's.
        assert_eq!(command("look: <command-name>/x</command-name>"), None);
        assert_eq!(command("<command-name>/x</command-name> and more"), None);
        assert_eq!(command("<command-name></command-name>"), None);
        assert_eq!(command("plain"), None);
    }

    #[test]
    fn output_without_escapes() {
        let o = "<local-command-stdout>Kept model as \u{1b}[1mDefault (recommended)\u{1b}[22m</local-command-stdout>";
        assert_eq!(output(o).as_deref(), Some("Kept model as Default (recommended)"));
        assert_eq!(output("<local-command-stderr>no</local-command-stderr>").as_deref(), Some("no"));
        assert_eq!(output("Set model"), None);
        assert!(is_caveat("<local-command-caveat>The command below was run directly</local-command-caveat>"));
    }
}
