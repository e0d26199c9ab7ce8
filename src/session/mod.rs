//! The session model: a pure reducer folds records (events with their views,
//! other frames, diagnostics) into a [`Transcript`] of items and tool cards.
//!
//! Same records in, same transcript out: live, replay and headless all use
//! [`Transcript::apply`]. No I/O, no clocks, no terminal here.

mod reducer;

use serde_json::Value;

pub use crate::wire::Diagnostic;
use crate::wire::View;

/// A tool card's outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    /// Call seen, no result yet.
    Pending,
    Ok,
    /// `isError: true`.
    Error,
    /// A terminal result with a non-zero exit code or a signal.
    Failed,
    /// The turn ended with no result.
    Interrupted,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Pending => "pending",
            Status::Ok => "ok",
            Status::Error => "error",
            Status::Failed => "failed",
            Status::Interrupted => "interrupted",
        }
    }

    /// Error-like: what `e`/`E` jump between and the status line counts.
    pub fn is_bad(self) -> bool {
        matches!(self, Status::Error | Status::Failed)
    }
}

/// Where a card's view came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ViewSource {
    /// Sent by the host with the frame.
    Wire,
    /// Derived by deck's built-in presenters (logs, old hosts).
    Presenter,
}

/// A view attached to a card slot: raw JSON and its typed form (or why it did not type).
#[derive(Debug, Clone, PartialEq)]
pub struct AttachedView {
    pub source: ViewSource,
    pub raw: Value,
    pub parsed: Result<View, String>,
}

impl AttachedView {
    pub fn new(source: ViewSource, raw: Value) -> AttachedView {
        let parsed = View::parse(&raw);
        AttachedView {
            source,
            raw,
            parsed,
        }
    }
}

/// `error: {name, code}` on a failed tool result.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ToolError {
    pub name: Option<String>,
    pub code: Option<String>,
}

/// The settled result of a call.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolResult {
    pub seq: u64,
    /// The raw result content blocks (`message.content[0].content`).
    pub content: Vec<Value>,
    pub is_error: bool,
    pub error: Option<ToolError>,
    pub meta: Option<Value>,
}

impl ToolResult {
    /// The text of the result content blocks, joined with newlines.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for b in &self.content {
            if let Some(t) = b.get("text").and_then(Value::as_str) {
                if !out.is_empty() {
                    out.push('\n');
                }
                out.push_str(t);
            }
        }
        out
    }
}

/// One tool call and everything known about it.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCard {
    pub call_id: String,
    /// The tool name; `None` for a result whose call was never seen.
    pub tool: Option<String>,
    /// The model's raw JSON arguments string.
    pub arguments: String,
    pub turn: Option<u64>,
    pub step: Option<u64>,
    pub call_seq: Option<u64>,
    /// Epoch ms of the call and of the result.
    pub started: Option<i64>,
    pub ended: Option<i64>,
    pub call_view: Option<AttachedView>,
    pub result_view: Option<AttachedView>,
    pub result: Option<ToolResult>,
    pub status: Status,
    /// Bumped on every change (for render caches).
    pub rev: u64,
}

impl ToolCard {
    pub fn tool_name(&self) -> &str {
        self.tool.as_deref().unwrap_or("(unknown tool)")
    }

    /// Duration in ms, when both ends are known.
    pub fn duration_ms(&self) -> Option<i64> {
        Some(self.ended? - self.started?).filter(|d| *d >= 0)
    }
}

/// One block of an assistant message, in stream index order.
#[derive(Debug, Clone, PartialEq)]
pub struct AssistantBlock {
    pub index: u64,
    pub reasoning: bool,
    pub text: String,
}

/// An assistant message of one (turn, step), assembled from chunks or taken
/// from the final `assistant/message`.
#[derive(Debug, Clone, PartialEq)]
pub struct AssistantMessage {
    pub turn: u64,
    pub step: u64,
    pub blocks: Vec<AssistantBlock>,
    /// True once the final `assistant/message` arrived.
    pub complete: bool,
    pub interrupted: bool,
    pub time: i64,
    pub rev: u64,
}

/// A user (or injected) message.
#[derive(Debug, Clone, PartialEq)]
pub struct UserMessage {
    pub seq: u64,
    pub time: i64,
    pub text: String,
    /// `source.kind` (`user`, `plugin`, `job` …); anything but `user` is context
    /// the host injected rather than something the person typed.
    pub source: Option<String>,
}

/// How a turn ended.
#[derive(Debug, Clone, PartialEq)]
pub struct TurnEnd {
    /// completed | aborted | blocked | error | max-tokens | …
    pub reason: String,
    pub message: Option<String>,
    pub code: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct TurnMarker {
    pub turn: u64,
    pub seq: u64,
    pub time: i64,
    /// `None` for a turn start.
    pub end: Option<TurnEnd>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Todo {
    pub content: String,
    /// pending | in_progress | completed | …
    pub status: String,
}

/// A one-line note: approvals, questions, and other outcomes worth a line.
#[derive(Debug, Clone, PartialEq)]
pub struct Note {
    pub seq: Option<u64>,
    pub kind: NoteKind,
    pub text: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoteKind {
    Approval,
    Question,
    Info,
}

/// One entry of the transcript, in order.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    User(UserMessage),
    Assistant(AssistantMessage),
    Turn(TurnMarker),
    Todo {
        seq: u64,
        todos: Vec<Todo>,
    },
    /// Index into [`Transcript::cards`].
    Tool(usize),
    Note(Note),
    /// Index into [`Transcript::diagnostics`].
    Diagnostic(usize),
}

/// The reducer's state: everything drawn for one session.
#[derive(Debug, Clone, Default)]
pub struct Transcript {
    pub session_id: Option<String>,
    pub title: Option<String>,
    pub items: Vec<Item>,
    pub cards: Vec<ToolCard>,
    pub diagnostics: Vec<Diagnostic>,
    /// Highest seq applied.
    pub last_seq: Option<u64>,
    /// Number of events applied (duplicates not counted).
    pub events: usize,
    pub first_time: Option<i64>,
    pub last_time: Option<i64>,
    state: reducer::State,
}

impl Transcript {
    pub fn new(session_id: Option<String>) -> Transcript {
        Transcript {
            session_id,
            ..Transcript::default()
        }
    }

    /// Fold a whole sequence of records.
    pub fn from_records<'a>(
        session_id: Option<String>,
        records: impl IntoIterator<Item = &'a crate::wire::Record>,
    ) -> Transcript {
        let mut t = Transcript::new(session_id);
        for r in records {
            t.apply(r);
        }
        t
    }

    /// The card for a call id.
    pub fn card(&self, call_id: &str) -> Option<&ToolCard> {
        self.state.by_call.get(call_id).map(|&i| &self.cards[i])
    }

    /// Cards whose status is error or failed.
    pub fn error_count(&self) -> usize {
        self.cards.iter().filter(|c| c.status.is_bad()).count()
    }
}
