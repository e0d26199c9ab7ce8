//! A subagent's line logged inline: Claude Code 2.1.3x writes each line of
//! a Task subagent's own conversation into the session's log as a
//! `progress` line, `data.type: "agent_progress"`, `data.message` the
//! subagent's whole user or assistant line (its prompt, each tool_use and
//! each tool_result), `data.agentId` the subagent, `parentToolUseID` the
//! call that started it. Other `progress` lines (hooks, a command's
//! output as it runs) are no line of anyone's and stay ignored.
//!
//! Read here in the line's pass; the reader nests what it holds under the
//! call (`claude/inline.rs`).

use serde::Deserialize;

use super::wire::Raw;
use super::{Line, owned, string};

/// What an `agent_progress` line holds.
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    /// The call that started the subagent (`parentToolUseID`).
    pub parent_call: Option<String>,
    /// `data.agentId`.
    pub agent_id: Option<String>,
    /// The subagent's line, read as a line of its own; why not, when it
    /// cannot be.
    pub line: Result<Line, String>,
}

#[derive(Deserialize)]
struct Data<'a> {
    #[serde(rename = "type", borrow, default)]
    kind: Raw<'a>,
    #[serde(borrow, default)]
    message: Raw<'a>,
    #[serde(rename = "agentId", borrow, default)]
    agent_id: Raw<'a>,
}

/// The `agent_progress` a `progress` line's `data` is, if it is one.
pub(super) fn of(data: Raw<'_>, parent: Raw<'_>) -> Option<Progress> {
    let text = data?.get();
    // Most progress lines are hooks' and commands': a byte search spares
    // them a parse.
    memchr::memmem::find(text.as_bytes(), b"\"agent_progress\"")?;
    let d: Data<'_> = serde_json::from_str(text).ok()?;
    if string(d.kind).as_deref() != Some("agent_progress") {
        return None;
    }
    let line = match d.message {
        Some(m) if m.get().starts_with('{') => Line::inner(m.get()),
        Some(_) => Err("its message is not an object".into()),
        None => Err("it has no message".into()),
    };
    Some(Progress {
        parent_call: owned(parent),
        agent_id: owned(d.agent_id),
        line,
    })
}

#[cfg(test)]
mod tests {
    use super::super::{Body, Kind};
    use super::*;

    fn progress(data: &str) -> Option<Line> {
        let text = format!(
            r#"{{"type":"progress","sessionId":"s","uuid":"u","parentToolUseID":"toolu_1","data":{data}}}"#
        );
        Line::parse(&text)
    }

    #[test]
    fn an_agent_progress_line_holds_the_subagents_line() {
        let line = progress(
            r#"{"type":"agent_progress","agentId":"a1","message":{"type":"assistant","timestamp":"2026-02-12T16:00:43.000Z","message":{"id":"m","role":"assistant","content":[{"type":"tool_use","id":"toolu_2","name":"Read","input":{}}]}}}"#,
        )
        .expect("line");
        assert_eq!(line.kind, Kind::Progress);
        assert!(line.raw.is_none());
        let p = line.progress.expect("progress");
        assert_eq!(p.parent_call.as_deref(), Some("toolu_1"));
        assert_eq!(p.agent_id.as_deref(), Some("a1"));
        let inner = p.line.expect("inner");
        assert_eq!(inner.kind, Kind::Assistant);
        assert!(inner.time.is_some());
        assert!(matches!(inner.body, Body::Blocks(ref b) if b.len() == 1));
    }

    #[test]
    fn other_progress_is_nothing_and_a_broken_one_says_why() {
        let hook = progress(r#"{"type":"hook_progress","hookEvent":"PreToolUse"}"#).expect("line");
        assert_eq!(hook.kind, Kind::Other);
        assert!(hook.progress.is_none());
        for (data, why) in [
            (r#"{"type":"agent_progress","agentId":"a1"}"#, "it has no message"),
            (
                r#"{"type":"agent_progress","message":"text"}"#,
                "its message is not an object",
            ),
            (
                r#"{"type":"agent_progress","message":{"type":"attachment"}}"#,
                "its message is a \"attachment\" line",
            ),
        ] {
            let line = progress(data).expect("line");
            assert_eq!(line.kind, Kind::Progress);
            assert!(line.raw.is_some(), "kept to be quoted");
            assert_eq!(line.progress.expect("progress").line.err().as_deref(), Some(why));
        }
    }
}
