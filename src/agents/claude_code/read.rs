//! Claude Code session logs (`~/.claude/projects/<cwd>/<id>.jsonl`, and a
//! subagent's `<id>/subagents/agent-*.jsonl`) read into DSH-shaped records.
//!
//! * `user` lines: a prompt starts a turn (`turn/start`, `user/message`);
//!   `tool_result` blocks are `tool/result`s, their line's `toolUseResult`
//!   carried as `meta`; `<task-notification>` messages are context, not
//!   prompts, and name the call whose background task they report
//!   (`notification`); `[Request interrupted by user…]` ends the turn
//!   interrupted.
//! * `assistant` lines: one per content block in current versions, a whole
//!   message in older ones, one `message.id` throughout; each message is a
//!   step, its thinking and text an `assistant/message` (sent again as it
//!   grows), each `tool_use` a `tool/call`. Blocks, calls and results seen
//!   before are not counted again (old logs repeat a message as it streams).
//! * `summary` lines name the session (`session/title`).
//! * A message's token usage, and compactions (the `compact_boundary`
//!   `system` line, the summary after it): `turn_meta`.
//! * A Task subagent's own lines logged inline (`agent_progress`
//!   `progress` lines, 2.1.3x): read by a reader of their own and nested
//!   under the call (`inline`).
//! * Everything else (`api-request-blob`, which repeats message content,
//!   attachments, queue operations, other `progress`, …) is ignored
//!   quietly; a
//!   known line without its message is a diagnostic.
//!
//! Nothing here names a tool: the presenters (`claude_code::present`) do.

use std::collections::HashMap;

use serde_json::{Map, Value};

pub use line::Line;

pub use turn_meta::Usage;
use line::{Block, Body, Kind, Meta, Tasks};

use serde::Serialize;

use crate::agents::read::{Emitter, Foreign, Out, Translate, header};
use crate::session::Keys;
use crate::wire::payload::{
    ContentBlock, SessionTitle, TodoItem, TodoWrite, ToolCall,
    TurnEnd, TurnEndReason, TurnStart,
};
use crate::wire::{Diagnostic, EventKind, Origin, Record};

pub mod beside;
mod commands;
mod inline;
mod message;
pub mod live;
mod line;
mod notification;
pub mod side_files;
mod subagents;
mod turn_meta;

/// Whether `v` is a line of a Claude Code session log: an object typed by
/// a plain word (no `/`: DSH's kinds have one) that carries what Claude's
/// lines carry (`uuid`, `sessionId`, `leafUuid`, or `messageId` with a
/// `snapshot`) and none of DSH's `seq`.
pub fn is_line(v: &Value) -> bool {
    let Some(o) = v.as_object() else {
        return false;
    };
    let Some(kind) = o.get("type").and_then(Value::as_str) else {
        return false;
    };
    if kind.is_empty() || kind.contains('/') || kind == "session" || kind == "server-request" {
        return false;
    }
    // (`provenance`: a Qwen Code line, which has Claude Code's ids too.)
    if ["seq", "event", "seq0", "provenance"].iter().any(|k| o.contains_key(*k)) {
        return false;
    }
    ["uuid", "sessionId", "leafUuid"]
        .iter()
        .any(|k| o.get(*k).is_some_and(Value::is_string))
        // A snapshot of the files a message touched (it names no session).
        || (o.get("messageId").is_some_and(Value::is_string)
            && o.get("snapshot").is_some_and(Value::is_object))
}

/// Reads one Claude Code session log, line by line.
#[derive(Debug, Default)]
pub struct Reader {
    /// The session the records go to (`sessionId` of the lines).
    session: Option<String>,
    /// What the header says; sent again when it learns more.
    fields: Map<String, Value>,
    header_sent: bool,
    header_stale: bool,
    /// Numbers the events given (seqs start at 1).
    emitter: Emitter,
    time: i64,
    turn: u64,
    turn_open: bool,
    step: u64,
    /// The message the current step is.
    message_id: Option<String>,
    /// Its thinking (`true`) and text blocks so far, and where each is
    /// (by a hash of the pair), so a block told again is known at once.
    blocks: Vec<Option<ContentBlock>>,
    block_at: HashMap<u64, Vec<usize>>,
    /// The message has changed (a block, its usage) since it last went out
    /// whole.
    unsent: bool,
    /// The calls and results read (by [`id_key`]: a long log's ids are
    /// not held as strings).
    calls: Keys<u128>,
    results: Keys<u128>,
    /// The task list that task-shaped results built (id, subject, status).
    tasks: Vec<(String, String, String)>,
    /// Whether this log is a subagent's (its lines are all `isSidechain`);
    /// `None` until the first message says.
    sidechain: Option<bool>,
    /// The current message's token usage (DSH's shape).
    usage: Option<Usage>,
    /// The compaction whose summary is still to come.
    compaction: Option<String>,
    /// Tasks started in the background: task id → the call that started
    /// it (for a notification that does not name its call).
    background: HashMap<String, String>,
    /// A local command's caveat was read: the command that follows is no
    /// request (`commands`).
    local_next: bool,
    /// Subagents whose lines are logged inline: the call that started
    /// each, and its reader (`inline`).
    inline: Vec<(String, Reader)>,
}

/// A call id as the reader keeps it: 128 bits of two keyed hashes (two
/// ids of one log alike by chance: about 2^-100 for a million calls).
fn id_key(id: &str) -> u128 {
    use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
    let h = BuildHasherDefault::<DefaultHasher>::default();
    (u128::from(h.hash_one(id)) << 64) | u128::from(h.hash_one((0xdec_u16, id)))
}

impl Translate for Reader {
    fn line(&mut self, v: &Value, origin: Origin, out: &mut Out) {
        if let Some(line) = Line::from_value(v) {
            self.read(line, origin, out);
        }
    }

    fn foreign(&mut self, line: Foreign, origin: Origin, out: &mut Out) {
        match line {
            Foreign::Read { line, .. } => {
                if let Some(line) = Foreign::take::<Line>(line) {
                    self.read(line, origin, out);
                }
            }
            Foreign::Value(v) => self.line(&v, origin, out),
        }
    }

    fn finish(&mut self, out: &mut Out) {
        self.finish_inline(None, out);
        self.flush_message(out, Origin::default());
        self.end_turn(out, Origin::default(), "completed");
    }
}

impl Reader {
    /// One line, read ([`Line::parse`]).
    fn read(&mut self, line: Line, origin: Origin, out: &mut Out) {
        if line.kind == Kind::Other {
            return;
        }
        if let Some(id) = line.session_id.as_deref()
            && self.session.as_deref() != Some(id)
        {
            // The session before it ends here.
            self.finish_inline(None, out);
            self.end_turn(out, origin, "completed");
            self.switch_session(id);
        }
        if line.kind == Kind::Progress {
            return self.progress(line, origin, out);
        }
        if line.kind == Kind::Summary {
            if let Some(title) = line.summary {
                let data = SessionTitle { title: Some(title) };
                self.emit(out, origin, EventKind::SessionTitle, &data);
            }
            return;
        }
        if line.kind == Kind::System {
            return self.system(&line, origin, out);
        }
        if *self.sidechain.get_or_insert(line.sidechain) != line.sidechain {
            // An old log's subagent lines, interleaved with the main ones.
            return;
        }
        if line.is_meta {
            // Says the command that follows is a local one.
            if line.kind == Kind::User && commands::is_caveat(&line.text()) {
                self.local_next = true;
            }
            return;
        }
        self.learn(&line);
        if let Some(ms) = line.time {
            self.time = self.time.max(ms);
        }
        if line.kind == Kind::User && self.is_compact_summary(&line) {
            return self.compact_summary(&line, origin, out);
        }
        if line.synthetic {
            return self.synthetic(line, origin, out);
        }
        let kind = if line.kind == Kind::User {
            "user"
        } else {
            "assistant"
        };
        match (line.kind, line.body) {
            (_, Body::NoMessage) => {
                self.malformed(out, origin, line.raw, kind, "no message object")
            }
            (_, Body::NoContent) => {
                self.malformed(out, origin, line.raw, kind, "message without content")
            }
            (Kind::User, Body::Text(text)) => self.user_text(out, origin, &text),
            (Kind::User, Body::Blocks(blocks)) => {
                self.user_blocks(out, origin, blocks, line.meta)
            }
            (_, Body::Text(text)) => {
                let blocks = vec![Block::Text(Some(text))];
                self.assistant(out, origin, line.message_id, line.usage, blocks)
            }
            (_, Body::Blocks(blocks)) => {
                self.assistant(out, origin, line.message_id, line.usage, blocks)
            }
        }
    }

    fn switch_session(&mut self, id: &str) {
        if self.session.is_some() {
            // Another session in the same input: its own seqs and turns.
            *self = Reader {
                sidechain: self.sidechain,
                ..Reader::default()
            };
        }
        self.session = Some(id.to_string());
        self.fields.insert("id".into(), Value::from(id));
    }

    /// What a message line says of the session, for the header.
    fn learn(&mut self, line: &Line) {
        for (key, value) in &line.facts {
            if !self.fields.contains_key(*key) {
                self.fields.insert((*key).into(), Value::from(value.as_str()));
                self.header_stale = self.header_sent;
            }
        }
        if let Some(m) = line.model.as_deref().filter(|m| !m.starts_with('<'))
            && !self.fields.contains_key("model")
        {
            self.fields.insert("model".into(), Value::from(m));
            self.header_stale = self.header_sent;
        }
    }

    /// The header, when it has not gone out or has learnt more since.
    fn header(&mut self, out: &mut Out) {
        if self.header_sent && !self.header_stale {
            return;
        }
        self.header_sent = true;
        self.header_stale = false;
        let record = header(super::NAME, self.fields.clone(), Origin::default());
        out.push((self.session.clone(), record));
    }

    fn emit(&mut self, out: &mut Out, origin: Origin, kind: EventKind, data: &impl Serialize) {
        self.header(out);
        let r = self.emitter.event(kind, self.time, data, origin);
        out.push((self.session.clone(), r));
    }

    /// [`Reader::emit`] of data already written as JSON text.
    fn emit_json(&mut self, out: &mut Out, origin: Origin, kind: EventKind, data: String) {
        self.header(out);
        let r = self.emitter.event_text(kind, self.time, data, origin);
        out.push((self.session.clone(), r));
    }

    fn diagnostic(&mut self, out: &mut Out, origin: Origin, reason: String, raw: Option<String>) {
        let d = Diagnostic {
            origin,
            reason,
            raw: raw.unwrap_or_default(),
        };
        out.push((self.session.clone(), Record::Diagnostic(d)));
    }

    fn malformed(&mut self, out: &mut Out, origin: Origin, raw: Option<String>, kind: &str, why: &str) {
        self.diagnostic(out, origin, format!("Claude Code {kind:?} line: {why}"), raw);
    }

    fn start_turn(&mut self, out: &mut Out, origin: Origin) {
        self.end_turn(out, origin, "completed");
        self.turn += 1;
        self.turn_open = true;
        self.message_id = None;
        self.clear_message();
        let data = TurnStart {
            turn: Some(self.turn),
        };
        self.emit(out, origin, EventKind::TurnStart, &data);
    }

    fn end_turn(&mut self, out: &mut Out, origin: Origin, kind: &str) {
        self.end_turn_saying(out, origin, kind, None);
    }

    /// [`Reader::end_turn`], with the reason's message.
    fn end_turn_saying(&mut self, out: &mut Out, origin: Origin, kind: &str, message: Option<String>) {
        self.flush_message(out, origin);
        if std::mem::take(&mut self.turn_open) {
            let reason = TurnEndReason {
                kind: Some(kind.to_string()),
                message,
                ..TurnEndReason::default()
            };
            let data = TurnEnd {
                turn: Some(self.turn),
                reason: Some(reason),
                ..TurnEnd::default()
            };
            self.emit(out, origin, EventKind::TurnEnd, &data);
        }
    }

    /// A message Claude Code wrote itself (`<synthetic>`): no model spoke,
    /// no turn starts, its zero usage is no usage. "No response requested."
    /// (after an interrupt, a resume) is nothing; an API error's report
    /// ends the running turn as an error, with its words.
    fn synthetic(&mut self, line: Line, origin: Origin, out: &mut Out) {
        if line.api_error && self.turn_open {
            let text = line.text();
            let message = (!text.trim().is_empty()).then_some(text);
            self.end_turn_saying(out, origin, "error", message);
        }
    }

    fn user_text(&mut self, out: &mut Out, origin: Origin, text: &str) {
        let local = std::mem::take(&mut self.local_next);
        // A slash command, as typed; one Claude Code runs itself is no
        // request, and so no turn; what it printed is its output.
        let command = commands::command(text);
        if let (true, Some(line)) = (local, &command) {
            return self.local_command(out, origin, line);
        }
        if let Some(output) = commands::output(text) {
            return self.command_output(out, origin, &output);
        }
        let text = command.as_deref().unwrap_or(text);
        if text.starts_with("[Request interrupted by user") {
            self.end_turn(out, origin, "interrupted");
            return;
        }
        // A background task's report comes back as a user message the
        // person did not type: context inside the running turn.
        let context = text.starts_with("<task-notification>");
        if !context || !self.turn_open {
            self.start_turn(out, origin);
        }
        let source = if context { "notification" } else { "user" };
        let mut data = commands::said(text, source);
        data.turn = Some(self.turn);
        // A task's report goes on the card of the call that started it.
        if context && let Some((call, task)) = notification::report(text, &self.background) {
            if let Some(s) = data.source.as_mut() {
                s.call_id = Some(call);
            }
            data.task = Some(task);
        }
        self.emit(out, origin, EventKind::UserMessage, &data);
    }

    fn user_blocks(&mut self, out: &mut Out, origin: Origin, blocks: Vec<Block>, meta: Option<Meta>) {
        // The results answer the message: it is whole now.
        self.flush_message(out, origin);
        let results = blocks
            .iter()
            .filter(|b| matches!(b, Block::ToolResult { .. }))
            .count();
        if results == 0 {
            let text: Vec<String> = blocks
                .into_iter()
                .filter_map(|b| match b {
                    Block::Text(t) => t,
                    _ => None,
                })
                .collect();
            if !text.is_empty() {
                self.user_text(out, origin, &text.join("\n"));
            }
            return;
        }
        // The structured result belongs to the line's one result.
        let mut meta = meta.filter(|_| results == 1);
        for b in blocks {
            if let Block::ToolResult { id, data, raw, .. } = b {
                self.tool_result(out, origin, id, data, raw, meta.take());
            }
        }
    }

    /// A result: `data` is its event's data but the turn and step
    /// ([`Block::ToolResult`]).
    fn tool_result(
        &mut self,
        out: &mut Out,
        origin: Origin,
        id: Option<String>,
        mut data: String,
        raw: Option<String>,
        meta: Option<Meta>,
    ) {
        let Some(id) = id else {
            let reason = "Claude Code tool_result without a tool_use_id".to_string();
            self.diagnostic(out, origin, reason, raw);
            return;
        };
        if !self.results.insert(id_key(&id)) {
            return;
        }
        // A subagent logged inline has ended when its call's result comes.
        self.finish_inline(Some(&id), out);
        if !self.turn_open {
            self.start_turn(out, origin);
        }
        // The payload written on the decoder's thread, left open (`line`):
        // closed here with its turn and step (`ToolResult`'s `turn` and
        // `step`), in the room left for it: the content and the structured
        // result are not copied again.
        use std::fmt::Write as _;
        let _ = write!(data, r#","turn":{},"step":{}}}"#, self.turn, self.step);
        self.emit_json(out, origin, EventKind::ToolResult, data);
        if let Some(task) = meta.as_ref().and_then(|m| m.background.clone()) {
            self.background.insert(task, id.clone());
        }
        if let Some(tasks) = meta.and_then(|m| m.tasks) {
            self.track_tasks(tasks);
            // The list as this call left it, on this call's card (calls
            // made together each show theirs).
            let todos = self
                .tasks
                .iter()
                .map(|(_, subject, status)| todo(subject.clone(), status.clone()))
                .collect();
            let data = TodoWrite {
                todos: Some(todos),
                call_id: Some(id),
            };
            self.emit(out, origin, EventKind::TodoWrite, &data);
        }
    }

    /// Follow the task list through a task-shaped structured result.
    fn track_tasks(&mut self, tasks: Tasks) {
        match tasks {
            Tasks::List(list) => self.tasks = list,
            Tasks::Created(id, subject) => {
                self.tasks.retain(|(i, _, _)| *i != id);
                self.tasks.push((id, subject, "pending".into()));
            }
            Tasks::Status(id, to) => {
                if to == "deleted" {
                    self.tasks.retain(|(i, _, _)| *i != id);
                } else if let Some(t) = self.tasks.iter_mut().find(|(i, _, _)| *i == id) {
                    t.2 = to;
                }
            }
        }
    }

    fn assistant(
        &mut self,
        out: &mut Out,
        origin: Origin,
        id: Option<String>,
        usage: Option<Usage>,
        blocks: Vec<Block>,
    ) {
        if !self.turn_open {
            self.start_turn(out, origin);
        }
        if id.is_none() || id != self.message_id {
            self.flush_message(out, origin);
            self.step += 1;
            self.message_id = id;
            self.clear_message();
        }
        if usage != self.usage {
            self.usage = usage;
            self.unsent = true;
        }
        for b in blocks {
            match b {
                Block::Thinking(t) => self.block(out, origin, true, t),
                Block::Text(t) => self.block(out, origin, false, t),
                Block::ToolUse {
                    id,
                    name,
                    input,
                    todos,
                    raw,
                } => self.tool_call(out, origin, id, name, input, todos, raw),
                Block::ToolResult { .. } | Block::Other => {}
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn tool_call(
        &mut self,
        out: &mut Out,
        origin: Origin,
        id: Option<String>,
        name: Option<String>,
        input: Option<String>,
        todos: Option<Vec<(String, String)>>,
        raw: Option<String>,
    ) {
        let (Some(id), Some(name)) = (id, name) else {
            let reason = "Claude Code tool_use without an id or a name".to_string();
            self.diagnostic(out, origin, reason, raw);
            return;
        };
        if !self.calls.insert(id_key(&id)) {
            return;
        }
        let mut data = ToolCall {
            turn: Some(self.turn),
            step: Some(self.step),
            call_id: Some(id),
            name: Some(name),
            arguments: Some(Value::String(input.unwrap_or_else(|| "{}".into()))),
        };
        self.emit(out, origin, EventKind::ToolCall, &data);
        // A call that writes a whole checklist: the plan, as DSH sends it.
        if let Some(todos) = todos {
            let data = TodoWrite {
                todos: Some(todos.into_iter().map(|(c, s)| todo(c, s)).collect()),
                call_id: data.call_id.take(),
            };
            self.emit(out, origin, EventKind::TodoWrite, &data);
        }
    }
}

/// A todo of a list, as `todo/write` holds it.
fn todo(content: String, status: String) -> Option<TodoItem> {
    Some(TodoItem {
        content: Some(content),
        status: Some(status),
    })
}

#[cfg(test)]
mod tests;
