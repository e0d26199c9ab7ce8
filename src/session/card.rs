//! A tool card and its parts: the call's status ([`Status`]), the views
//! attached to its two slots ([`AttachedView`], typed only when drawn), and
//! its settled result ([`ToolResult`], read from the event's data text).

use std::sync::Arc;

use serde_json::Value;

use super::attached::AttachedView;
use super::{Prompt, Todo};
use crate::wire::RawJson;

/// A tool card's outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    /// Call seen, no result yet.
    Pending,
    /// It ran and succeeded.
    Ok,
    /// `isError: true`.
    Error,
    /// A terminal result with a non-zero exit code or a signal.
    Failed,
    /// The turn ended with no result.
    Interrupted,
    /// Aborted by a cancel (`AbortError`, code `ABORTED` or
    /// `ABORTED_BEFORE_DISPATCH`): the user's doing, not an error.
    Cancelled,
    /// Its approval was refused (rejected, denied, timed out) and it did
    /// not run: the user's doing, not an error of the tool.
    Rejected,
    /// It ended, and nothing in the log says how (an agent's reader marks
    /// the result `outcome: "unknown"`): no glyph claims success or
    /// failure.
    Unknown,
}

impl Status {
    /// Its name in `deck inspect`'s lines (`pending`, `ok` …).
    pub fn name(self) -> &'static str {
        match self {
            Status::Pending => "pending",
            Status::Ok => "ok",
            Status::Error => "error",
            Status::Failed => "failed",
            Status::Interrupted => "interrupted",
            Status::Cancelled => "cancelled",
            Status::Rejected => "rejected",
            Status::Unknown => "unknown",
        }
    }

    /// Error-like: what `e`/`E` jump between and the status line counts.
    pub fn is_bad(self) -> bool {
        matches!(self, Status::Error | Status::Failed)
    }
}

/// What an agent's log records of a call's end besides `isError`: deck's
/// own keys on a `tool/result`'s data, which its readers of other agents'
/// logs write (DSH's results have none of them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Recorded {
    /// `exitCode`: how the call's process exited, whatever the view.
    pub exit_code: Option<i64>,
    /// `durationMs`: how long the log says the call ran.
    pub duration_ms: Option<i64>,
    /// `outcome`: what the log says of how it ended when `isError` cannot
    /// say it.
    pub outcome: Option<RecordedOutcome>,
}

/// A result's `outcome`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordedOutcome {
    /// `"unknown"`: nothing in the log says how the call ended.
    Unknown,
    /// `"rejected"`: the log says it was refused, and it did not run.
    Rejected,
}

impl Recorded {
    /// The keys of a `tool/result`'s data (absent or of another type: not
    /// said).
    pub fn of(exit_code: Option<i64>, duration_ms: Option<i64>, outcome: Option<&str>) -> Recorded {
        Recorded {
            exit_code,
            duration_ms: duration_ms.filter(|d| *d >= 0),
            outcome: match outcome {
                Some("unknown") => Some(RecordedOutcome::Unknown),
                Some("rejected") => Some(RecordedOutcome::Rejected),
                _ => None,
            },
        }
    }
}

/// `error: {name, code}` on a failed tool result.
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub struct ToolError {
    /// The error's name (`FsError` …).
    pub name: Option<String>,
    /// The error's code (`FS_EDIT_NOT_FOUND`, `REJECTED` …).
    pub code: Option<String>,
}

impl ToolError {
    /// An error of `name` and `code`.
    pub fn new(name: Option<String>, code: Option<String>) -> ToolError {
        ToolError { name, code }
    }
}

/// The settled result of a call. Content and meta are read from the
/// event's data (shared with the event, never copied), parsed on each read:
/// cards are drawn once per layout and then cached.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolResult {
    /// The `tool/result` event's seq.
    pub seq: u64,
    /// The `tool/result` event's data.
    data: RawJson,
    /// The result says the call failed (`isError`).
    pub is_error: bool,
    /// The error of a failed call, when the result names it.
    pub error: Option<ToolError>,
    /// What the log records of the call's end besides `isError`.
    pub recorded: Recorded,
}

impl ToolResult {
    /// A result over a `tool/result` event's data.
    pub fn from_event_data(
        seq: u64,
        data: RawJson,
        is_error: bool,
        error: Option<ToolError>,
        recorded: Recorded,
    ) -> ToolResult {
        ToolResult {
            seq,
            data,
            is_error,
            error,
            recorded,
        }
    }

    /// A result from its parts (tests, synthetic cards).
    pub fn new(
        seq: u64,
        content: Vec<Value>,
        is_error: bool,
        error: Option<ToolError>,
        meta: Option<Value>,
    ) -> ToolResult {
        let mut data = serde_json::json!({"message": {"content": [
            {"type": "tool-result", "content": content, "isError": is_error}
        ]}});
        if let Some(m) = meta {
            data["meta"] = m;
        }
        ToolResult {
            seq,
            data: RawJson::from_value(&data),
            is_error,
            error,
            recorded: Recorded::default(),
        }
    }

    /// The event's data, parsed.
    pub fn data(&self) -> Value {
        self.data.parse()
    }

    /// The `tool/result` event's data as its JSON text.
    pub fn raw_data(&self) -> &RawJson {
        &self.data
    }

    /// Bytes of JSON the result carries.
    pub fn size(&self) -> usize {
        self.data.len()
    }

    /// The raw result content blocks (`message.content[0].content`); a bare
    /// string content reads as one text block.
    pub fn content(&self) -> Vec<Value> {
        content_of(&self.data()).into_owned()
    }

    /// `tool/result.data.meta` (the tool's presentationMeta).
    pub fn meta(&self) -> Option<Value> {
        meta_of(&self.data())
    }

    /// The text of the result content blocks, joined with newlines.
    pub fn text(&self) -> String {
        text_of(&content_of(&self.data()))
    }
}

/// The `tool-result` part of a `tool/result` event's data.
fn part_of(data: &Value) -> Option<&Value> {
    data.get("message")
        .and_then(|m| m.get("content"))
        .and_then(Value::as_array)
        .and_then(|c| {
            c.iter()
                .find(|p| p.get("type").and_then(Value::as_str) == Some("tool-result"))
        })
}

/// [`ToolResult::content`] of parsed data (borrowed from it).
pub fn content_of(data: &Value) -> std::borrow::Cow<'_, [Value]> {
    match part_of(data).and_then(|p| p.get("content")) {
        Some(Value::Array(a)) => std::borrow::Cow::Borrowed(a.as_slice()),
        Some(Value::String(s)) => {
            std::borrow::Cow::Owned(vec![serde_json::json!({"type": "text", "text": s})])
        }
        _ => std::borrow::Cow::Borrowed(&[]),
    }
}

/// [`ToolResult::meta`] of parsed data.
pub fn meta_of(data: &Value) -> Option<Value> {
    data.get("meta").filter(|m| !m.is_null()).cloned()
}

/// The text blocks of result content, joined with newlines.
pub fn text_of(content: &[Value]) -> String {
    let mut out = String::new();
    for b in content {
        if let Some(t) = b.get("text").and_then(Value::as_str) {
            if !out.is_empty() {
                out.push('\n');
            }
            out.push_str(t);
        }
    }
    out
}

/// The end of a background task a call started (a command or an agent
/// run in the background), as a later message reported it.
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub struct TaskEnd {
    /// The task's id, as the agent named it.
    pub id: Option<String>,
    /// `completed`, `failed`, `killed` … (`None`: not said).
    pub status: Option<String>,
    /// The agent's one-line summary.
    pub summary: Option<String>,
    /// What the task handed back (an agent's report).
    pub result: Option<String>,
    /// Where its output went: a file the log does not hold.
    pub output_file: Option<String>,
    /// Seq of the report.
    pub seq: u64,
    /// Epoch ms of the report.
    pub time: i64,
}

impl TaskEnd {
    /// A task that failed: its card is failed too.
    pub fn failed(&self) -> bool {
        self.status.as_deref() == Some("failed")
    }
}

/// One tool call and everything known about it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ToolCard {
    /// The call's id (`callId`): what its result, approval and questions name.
    pub call_id: String,
    /// The tool name; `None` for a result whose call was never seen.
    pub tool: Option<String>,
    /// The model's raw JSON arguments string.
    pub arguments: String,
    /// The turn of the call.
    pub turn: Option<u64>,
    /// The step (model request) of the turn that made the call.
    pub step: Option<u64>,
    /// The `tool/call` event's seq; `None` before the call is seen.
    pub call_seq: Option<u64>,
    /// Epoch ms of the call.
    pub started: Option<i64>,
    /// Epoch ms of the call's end (its result, or the turn's end).
    pub ended: Option<i64>,
    /// The view of the call: sent by the host, else drawn by the presenters.
    pub call_view: Option<AttachedView>,
    /// The view of the result: sent by the host, else drawn by the presenters.
    pub result_view: Option<AttachedView>,
    /// The result, once it came.
    pub result: Option<ToolResult>,
    /// How the call stands or ended.
    pub status: Status,
    /// Where each file entry of the drawn diff view starts in its file
    /// (1-based), when the session shows it; empty for other cards.
    pub placements: Vec<Option<usize>>,
    /// The approval that gates the call, as asked and decided: its outcome
    /// is the card's pill (the same prompt as its [`Item::Prompt`]).
    ///
    /// [`Item::Prompt`]: super::Item::Prompt
    pub approval: Option<Arc<Prompt>>,
    /// The questions the call asks ([`CallRole::Asks`]), read from its
    /// arguments or from the host's `question/requested`, with the answers
    /// once its result came: the card is drawn as the question.
    ///
    /// [`CallRole::Asks`]: super::CallRole::Asks
    pub question: Option<Arc<Prompt>>,
    /// The plan the call wrote ([`CallRole::Plans`]: the `todo/write` that
    /// followed it): the card is drawn as the checklist.
    ///
    /// [`CallRole::Plans`]: super::CallRole::Plans
    pub todos: Option<Arc<Vec<Todo>>>,
    /// The transcript folded under the call: the log of the subagent it
    /// started ([`Record::Nested`](crate::wire::Record::Nested)).
    pub nested: Option<super::Nested>,
    /// How the background task the call started ended, as reported later
    /// (the latest report: a task may report more than once).
    pub task: Option<Arc<TaskEnd>>,
    /// Bumped on every change (for render caches).
    pub rev: u64,
}

impl ToolCard {
    /// The card of call `call_id` before anything is known of it: pending,
    /// no tool, no views, no result. Its parts are filled in as they come.
    pub fn new(call_id: impl Into<String>) -> ToolCard {
        ToolCard {
            call_id: call_id.into(),
            tool: None,
            arguments: String::new(),
            turn: None,
            step: None,
            call_seq: None,
            started: None,
            ended: None,
            call_view: None,
            result_view: None,
            result: None,
            status: Status::Pending,
            placements: Vec::new(),
            approval: None,
            question: None,
            todos: None,
            nested: None,
            task: None,
            rev: 0,
        }
    }

    /// A card that speaks to the person rather than shows a tool run (a
    /// question, a plan): shown with the conversation when tools are hidden.
    pub fn converses(&self) -> bool {
        self.question.is_some() || self.todos.is_some()
    }

    /// A prompt about this call waits for an answer here: the prompt's own
    /// card stands in for this one until it is answered.
    pub fn awaits_answer(&self) -> bool {
        [&self.approval, &self.question]
            .into_iter()
            .flatten()
            .any(|p| p.answerable())
    }

    /// The tool's name, or `(unknown tool)` when its call was never seen.
    pub fn tool_name(&self) -> &str {
        self.tool.as_deref().unwrap_or("(unknown tool)")
    }

    /// Duration in ms: from the call's time to its result's when both
    /// are known, else as long as the log records it ran (a log without
    /// times: Codex's oldest rollouts); `None` when neither is known.
    pub fn duration_ms(&self) -> Option<i64> {
        match (self.started, self.ended) {
            (Some(start), Some(end)) => Some(end - start).filter(|d| *d >= 0),
            _ => self.result.as_ref()?.recorded.duration_ms,
        }
    }
}
