//! The session model: a pure reducer folds records (events with their views,
//! other frames, diagnostics) into a [`Transcript`] of items and tool cards.
//!
//! Same records in, same transcript out: live, replay and headless all use
//! [`Transcript::apply`]. No I/O, no clocks, no terminal here.

mod messages;
mod presenter;
mod prompts;
mod reducer;
mod seqs;
mod state;
mod tools;

pub use presenter::{Presenters, SharedPresenters};
pub use prompts::{Answer, Ask, Choice, Prompt, Question, parse_answers};

use std::sync::Arc;

use serde_json::Value;

pub use crate::wire::Diagnostic;
use crate::wire::{RawJson, View, WireError};

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

/// A view attached to a card slot, as JSON text. It is typed when a card
/// is drawn (and the drawing cached), not kept typed: a session's views
/// would otherwise be held twice. Equal views are equal wherever they
/// were read (`origin` and the cache are not compared).
#[derive(Debug, Clone)]
pub struct AttachedView {
    pub source: ViewSource,
    pub raw: RawJson,
    /// Where the record that brought the view was read (line 0: not from a file).
    pub origin: crate::wire::Origin,
    /// A read view's shape once a head scan found it (shared by clones, so
    /// the layout thread's scan serves the UI thread's next one).
    shape: ShapeCache,
}

impl PartialEq for AttachedView {
    fn eq(&self, other: &AttachedView) -> bool {
        self.source == other.source && self.raw == other.raw
    }
}

/// See [`AttachedView::typed_head`]; `None` inside: not a read view with lines.
#[derive(Debug, Clone, Default)]
struct ShapeCache(std::sync::Arc<std::sync::OnceLock<Option<crate::wire::read_prefix::Shape>>>);

impl AttachedView {
    pub fn new(source: ViewSource, raw: Value) -> AttachedView {
        AttachedView {
            source,
            raw: RawJson::from_value(&raw),
            origin: crate::wire::Origin::default(),
            shape: ShapeCache::default(),
        }
    }

    /// A view sent by the host (shares the record's text).
    pub fn from_wire(env: &crate::wire::ViewEnvelope) -> AttachedView {
        AttachedView {
            source: ViewSource::Wire,
            raw: env.view.clone(),
            origin: crate::wire::Origin::default(),
            shape: ShapeCache::default(),
        }
    }

    /// The same view, read at `origin`.
    pub fn at(self, origin: crate::wire::Origin) -> AttachedView {
        AttachedView { origin, ..self }
    }

    /// `call view` / `result view` and where it was read, for messages.
    pub fn place(&self, slot: &str) -> String {
        if self.origin.line == 0 {
            format!("{slot} view")
        } else {
            format!(
                "{slot} view (line {}, byte {})",
                self.origin.line, self.origin.offset
            )
        }
    }

    /// The typed view, or why it did not type.
    pub fn typed(&self) -> Result<View, WireError> {
        View::from_json(self.raw.as_str())
    }

    /// The view typed only as far as `lines` lines of a `read` view (see
    /// [`crate::wire::read_prefix`]); other views are typed whole. The
    /// view's shape is found once (one pass over the text); after that a
    /// scan stops after its lines.
    pub fn typed_head(&self, lines: usize) -> Result<View, WireError> {
        use crate::wire::read_prefix::read_prefix;
        let head = self
            .shape()
            .and_then(|s| read_prefix(self.raw.as_str(), lines, Some(s)));
        match head {
            Some((v, _)) => Ok(View::Read(v)),
            None => self.typed(),
        }
    }

    /// Find a read view's shape now, so that a later
    /// [`typed_head`](Self::typed_head) reads only its head: for the layout
    /// thread, ahead of the pager.
    pub fn warm_head(&self) {
        self.shape();
    }

    /// The read view's shape, found on first use; `None`: not a read view
    /// with lines.
    fn shape(&self) -> Option<&crate::wire::read_prefix::Shape> {
        self.shape
            .0
            .get_or_init(|| {
                crate::wire::read_prefix::read_prefix(self.raw.as_str(), 1, None).map(|(_, s)| s)
            })
            .as_ref()
    }

    /// The view's `card` tag, read without typing the view.
    pub fn tag(&self) -> Option<String> {
        View::tag_of(self.raw.as_str())
    }
}

/// `error: {name, code}` on a failed tool result.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ToolError {
    pub name: Option<String>,
    pub code: Option<String>,
}

/// The settled result of a call. Content and meta are read from the
/// event's data (shared with the event, never copied), parsed on each read:
/// cards are drawn once per layout and then cached.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolResult {
    pub seq: u64,
    /// The `tool/result` event's data.
    data: RawJson,
    pub is_error: bool,
    pub error: Option<ToolError>,
}

impl ToolResult {
    /// A result over a `tool/result` event's data.
    pub fn from_event_data(
        seq: u64,
        data: RawJson,
        is_error: bool,
        error: Option<ToolError>,
    ) -> ToolResult {
        ToolResult {
            seq,
            data,
            is_error,
            error,
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
        }
    }

    /// The event's data, parsed.
    pub fn data(&self) -> Value {
        self.data.parse()
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

/// The blocks of an assistant message by stream index: a chunk finds its
/// block in O(log n) whatever order the indices come in.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Blocks(std::collections::BTreeMap<u64, AssistantBlock>);

impl Blocks {
    /// Blocks in index order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &AssistantBlock> + ExactSizeIterator {
        self.0.values()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The block of stream index `index`, made (empty) when new.
    pub fn entry(&mut self, index: u64, reasoning: bool) -> &mut AssistantBlock {
        self.0.entry(index).or_insert_with(|| AssistantBlock {
            index,
            reasoning,
            text: String::new(),
        })
    }
}

/// Blocks in any order; a repeated index keeps the last.
impl FromIterator<AssistantBlock> for Blocks {
    fn from_iter<I: IntoIterator<Item = AssistantBlock>>(iter: I) -> Blocks {
        Blocks(iter.into_iter().map(|b| (b.index, b)).collect())
    }
}

impl<'a> IntoIterator for &'a Blocks {
    type Item = &'a AssistantBlock;
    type IntoIter = std::collections::btree_map::Values<'a, u64, AssistantBlock>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.values()
    }
}

/// The `i`-th block in index order (O(i); for tests and small messages).
impl std::ops::Index<usize> for Blocks {
    type Output = AssistantBlock;
    fn index(&self, i: usize) -> &AssistantBlock {
        self.0
            .values()
            .nth(i)
            .unwrap_or_else(|| panic!("block {i} of {}", self.0.len()))
    }
}

/// An assistant message of one (turn, step), assembled from chunks or taken
/// from the final `assistant/message`.
#[derive(Debug, Clone, PartialEq)]
pub struct AssistantMessage {
    pub turn: u64,
    pub step: u64,
    pub blocks: Blocks,
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

/// One entry of the transcript, in order. Heavy payloads sit behind `Arc`,
/// so cloning a transcript (the player's seek snapshots) copies pointers,
/// not text.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    User(Arc<UserMessage>),
    Assistant(Arc<AssistantMessage>),
    Turn(TurnMarker),
    Todo {
        seq: u64,
        todos: Arc<Vec<Todo>>,
    },
    /// Index into [`Transcript::cards`].
    Tool(usize),
    /// An approval or a question, updated in place when it is answered.
    Prompt(Arc<Prompt>),
    /// Index into [`Transcript::diagnostics`].
    Diagnostic(usize),
}

/// The reducer's state: everything drawn for one session.
#[derive(Debug, Clone)]
pub struct Transcript {
    session_id: Option<String>,
    title: Option<String>,
    /// Persistent vectors: cloning a transcript (the player keeps snapshots
    /// for seeking) is O(1) and shares everything until it changes.
    items: imbl::Vector<Item>,
    /// Cards are shared between snapshots and copied only when they change.
    cards: imbl::Vector<Arc<ToolCard>>,
    diagnostics: imbl::Vector<Diagnostic>,
    /// Highest seq applied.
    last_seq: Option<u64>,
    /// Number of events applied (duplicates not counted).
    events: usize,
    first_time: Option<i64>,
    last_time: Option<i64>,
    /// Messages waiting for the next turn (`session/queue`, placement `queued`).
    queued: usize,
    /// Messages sent into the running turn, not taken in yet (placement `steering`).
    steering: usize,
    /// Background jobs (`session/jobs`): how many, and how many still run.
    jobs: (usize, usize),
    /// The turn started and not ended yet (a prompt sent now steers it).
    running: Option<u64>,
    state: state::State,
    /// Views for calls and results the host sent none for.
    presenters: SharedPresenters,
}

impl Transcript {
    /// An empty transcript whose cards get their missing views from
    /// `presenters`.
    pub fn new(session_id: Option<String>, presenters: SharedPresenters) -> Transcript {
        Transcript {
            session_id,
            title: None,
            items: imbl::Vector::new(),
            cards: imbl::Vector::new(),
            diagnostics: imbl::Vector::new(),
            last_seq: None,
            events: 0,
            first_time: None,
            last_time: None,
            queued: 0,
            steering: 0,
            jobs: (0, 0),
            running: None,
            state: state::State::default(),
            presenters,
        }
    }

    /// Fold a whole sequence of records.
    pub fn from_records<'a>(
        session_id: Option<String>,
        records: impl IntoIterator<Item = &'a crate::wire::Record>,
        presenters: SharedPresenters,
    ) -> Transcript {
        let mut t = Transcript::new(session_id, presenters);
        for r in records {
            t.apply(r);
        }
        t
    }

    /// The session's id, when known.
    pub fn session_id(&self) -> Option<&str> {
        self.session_id.as_deref()
    }

    /// The session's title (`session/title`).
    pub fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    /// The entries, in order. Persistent: cloning is O(1).
    pub fn items(&self) -> &imbl::Vector<Item> {
        &self.items
    }

    /// The tool cards, in the order their calls (or results) came;
    /// [`Item::Tool`] indexes them.
    pub fn cards(&self) -> &imbl::Vector<Arc<ToolCard>> {
        &self.cards
    }

    /// What was skipped or repaired; [`Item::Diagnostic`] indexes them.
    pub fn diagnostics(&self) -> &imbl::Vector<Diagnostic> {
        &self.diagnostics
    }

    /// Highest seq applied.
    pub fn last_seq(&self) -> Option<u64> {
        self.last_seq
    }

    /// Number of events applied (duplicates not counted).
    pub fn events(&self) -> usize {
        self.events
    }

    /// Epoch ms of the earliest and the latest event with a time.
    pub fn first_time(&self) -> Option<i64> {
        self.first_time
    }

    pub fn last_time(&self) -> Option<i64> {
        self.last_time
    }

    /// Messages waiting for the next turn (`session/queue`, placement `queued`).
    pub fn queued(&self) -> usize {
        self.queued
    }

    /// Messages sent into the running turn, not taken in yet.
    pub fn steering(&self) -> usize {
        self.steering
    }

    /// Background jobs (`session/jobs`): how many, and how many still run.
    pub fn jobs(&self) -> (usize, usize) {
        self.jobs
    }

    /// The turn started and not ended yet (a prompt sent now steers it).
    pub fn running(&self) -> Option<u64> {
        self.running
    }

    /// The card for a call id.
    pub fn card(&self, call_id: &str) -> Option<&ToolCard> {
        self.state.by_call.get(call_id).map(|&i| &*self.cards[i])
    }

    /// Cards still running (no result, turn not ended). O(1).
    pub fn running_cards(&self) -> usize {
        debug_assert_eq!(
            self.state.pending_count,
            self.cards
                .iter()
                .filter(|c| c.status == Status::Pending)
                .count()
        );
        self.state.pending_count
    }

    /// Cards that ended badly (error or failed). O(1).
    pub fn error_count(&self) -> usize {
        debug_assert_eq!(
            self.state.bad,
            self.cards.iter().filter(|c| c.status.is_bad()).count()
        );
        self.state.bad
    }
}
