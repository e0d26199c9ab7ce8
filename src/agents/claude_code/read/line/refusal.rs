//! A call the person refused or stopped, told from its result as Claude
//! Code writes it: not an error of the tool.
//!
//! * Refused at its permission prompt (or by a permission rule): `is_error`,
//!   content "The user doesn't want to proceed with this tool use. …",
//!   `toolUseResult` the string `User rejected tool use` (2.1.3x) or
//!   `Error: The user doesn't want to proceed …` (2.1.328), and since
//!   2.1.2xx a `toolDenialKind` beside it (`permission-rule`,
//!   `user-rejected`, …): [`Refusal::Rejected`].
//! * Stopped while it ran (the person interrupted the turn): the same words,
//!   then "Correction to the text above: this call was stopped while
//!   running, not refused before it ran" (2.1.328, `toolDenialKind:
//!   "user-rejected"`), or `toolDenialKind: "interrupted"`:
//!   [`Refusal::Interrupted`].
//! * `toolDenialKind: "cancelled"`: [`Refusal::Cancelled`].
//!
//! The result's words are addressed to the model; what the person typed
//! when refusing (`… the user said:\n<words>`) is kept, the rest is not
//! shown. The reader writes the refusal as the result's `error.code`
//! (`REJECTED`, `INTERRUPTED`, or DSH's `ABORTED`), which the fold reads.

use serde_json::Value;

use crate::wire::payload::ResultError;

/// The words a refusal's result starts with.
const REFUSED: &str = "The user doesn't want to proceed with this tool use";
/// What 2.1.328 adds when the call was stopped while it ran.
const STOPPED: &str = "this call was stopped while running";
/// What precedes the person's own words in a refusal's result.
const SAID: &str = "the user said:\n";

/// How a call was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Refusal {
    /// It did not run: the person (or a permission rule) said no.
    Rejected,
    /// It ran, and the person stopped it.
    Interrupted,
    /// Claude Code cancelled it.
    Cancelled,
}

impl Refusal {
    /// The result's `error`.
    pub(super) fn error(self) -> ResultError {
        let (name, code) = match self {
            Refusal::Rejected => (None, "REJECTED"),
            Refusal::Interrupted => (None, "INTERRUPTED"),
            Refusal::Cancelled => (Some("AbortError"), "ABORTED"),
        };
        ResultError {
            name: name.map(str::to_string),
            code: Some(code.to_string()),
        }
    }
}

/// What a line says of a refusal beside its result: its `toolDenialKind`,
/// and whether its `toolUseResult` is the refusal's string.
#[derive(Debug, Clone, Default)]
pub(super) struct Said {
    pub(super) kind: Option<String>,
    pub(super) result_says: bool,
}

impl Said {
    /// From a line's `toolDenialKind` and its `toolUseResult` when a string.
    pub(super) fn new(kind: Option<String>, tool_use_result: Option<&str>) -> Said {
        let result_says = tool_use_result.is_some_and(|r| {
            r == "User rejected tool use" || r.trim_start_matches("Error: ").starts_with(REFUSED)
        });
        Said { kind, result_says }
    }

    /// Whether this line may hold a refusal (else no result is looked at).
    pub(super) fn any(&self) -> bool {
        self.kind.is_some() || self.result_says
    }
}

/// The refusal a result is, if it is one: `text`, the result's text;
/// `is_error`, its flag.
pub(super) fn of(said: &Said, text: &str, is_error: bool) -> Option<Refusal> {
    let refused = text.trim_start().starts_with(REFUSED);
    // The line says so, or the result is flagged and says so itself.
    let says = said.any() || (is_error && refused);
    if !says {
        return None;
    }
    Some(match said.kind.as_deref() {
        Some("interrupted") => Refusal::Interrupted,
        Some("cancelled") => Refusal::Cancelled,
        _ if text.contains(STOPPED) => Refusal::Interrupted,
        _ => Refusal::Rejected,
    })
}

/// The person's own words in a refusal's result, if they typed any.
pub(super) fn words(text: &str) -> Option<&str> {
    let at = text.rfind(SAID)?;
    let words = text[at + SAID.len()..].trim();
    (!words.is_empty()).then_some(words)
}

/// A result's content as text: a string, or its text blocks joined.
pub(super) fn text_of(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .filter_map(|b| b.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MODEL: &str = "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";

    #[test]
    fn refusals_by_kind_and_words() {
        let none = Said::default();
        let kind = |k: &str| Said::new(Some(k.into()), None);
        let old = Said::new(None, Some("User rejected tool use"));
        let new = Said::new(Some("permission-rule".into()), Some(&format!("Error: {MODEL}")));
        assert!(new.result_says);
        assert_eq!(of(&old, MODEL, true), Some(Refusal::Rejected));
        assert_eq!(of(&new, MODEL, true), Some(Refusal::Rejected));
        let stopped = format!("{MODEL} Correction to the text above: {STOPPED}, not refused before it ran.");
        assert_eq!(of(&kind("user-rejected"), &stopped, true), Some(Refusal::Interrupted));
        assert_eq!(of(&kind("interrupted"), "", true), Some(Refusal::Interrupted));
        assert_eq!(of(&kind("cancelled"), "", true), Some(Refusal::Cancelled));
        // The words alone, on an error: a refusal; not on a success, and
        // no other error is one.
        assert_eq!(of(&none, MODEL, true), Some(Refusal::Rejected));
        assert_eq!(of(&none, MODEL, false), None);
        assert_eq!(of(&none, "Exit code 1", true), None);
    }

    #[test]
    fn the_persons_words_are_kept() {
        let said = format!("{MODEL} To tell you how to proceed, the user said:\nuse the staging folder");
        assert_eq!(words(&said), Some("use the staging folder"));
        assert_eq!(words(MODEL), None);
        assert_eq!(words("the user said:\n  "), None);
    }
}
