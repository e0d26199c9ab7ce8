//! The fold: [`Transcript::apply`] takes one record at a time. Pairing is by
//! `callId` (or `sourceEventSeqs`), never by order; duplicates of an applied
//! seq are skipped; anything unknown becomes a diagnostic at its place.

use std::sync::Arc;

use serde_json::Value;

use super::known::KNOWN_EVENT_TYPES;
use super::seqs::SeqSet;
use super::{
    AssistantBlock, AssistantMessage, Blocks, Item, Status, Todo, Transcript, TurnEnd, TurnMarker,
    UserMessage,
};
use crate::wire::{Diagnostic, Origin, RawJson, Record, SessionEvent, ViewEnvelope};

/// Reducer bookkeeping. Persistent maps and sets, so cloning a transcript
/// stays O(1) however long the session.
#[derive(Debug, Clone, Default)]
pub(super) struct State {
    pub(super) by_call: imbl::HashMap<Arc<str>, usize>,
    seen: SeqSet,
    /// (turn, step) → item index of the assistant message.
    pub(super) assistant: imbl::HashMap<(u64, u64), usize>,
    /// Assistant items still streaming, by turn (closed at their turn's end).
    open_assistant: imbl::HashMap<u64, imbl::OrdSet<usize>>,
    /// Cards without a result yet, by the turn they belong to (`None`: not
    /// known yet); interrupted at that turn's end (turnless ones at any).
    /// Kept by turn so a turn's end costs what it closes, not every card
    /// still open in other turns.
    pending: imbl::HashMap<Option<u64>, imbl::OrdSet<usize>>,
    /// Cards in `pending` (a frame asks whether any card runs: O(1)).
    pub(super) pending_count: usize,
    /// call seq → call id (for `sourceEventSeqs` pairing).
    pub(super) call_by_seq: imbl::HashMap<u64, Arc<str>>,
    /// `approval:<id>` / `question:<rpc id>` → item index of the prompt.
    pub(super) prompts: imbl::HashMap<Arc<str>, usize>,
    /// call id → item index of the question it asked.
    pub(super) prompt_by_call: imbl::HashMap<Arc<str>, usize>,
    /// The newest question (for a resolution without an rpc id).
    pub(super) last_question: Option<usize>,
    pub(super) duplicates: usize,
    /// Cards whose status is bad (kept as statuses change: the status bar
    /// shows it every frame).
    pub(super) bad: usize,
}

impl State {
    /// Note a card without a result, in `turn`.
    pub(super) fn pending_add(&mut self, turn: Option<u64>, card: usize) {
        if self.pending.entry(turn).or_default().insert(card).is_none() {
            self.pending_count += 1;
        }
    }

    /// A card of `turn` is no longer pending (settled, or moved).
    pub(super) fn pending_remove(&mut self, turn: Option<u64>, card: usize) {
        if let Some(set) = self.pending.get_mut(&turn) {
            if set.remove(&card).is_some() {
                self.pending_count -= 1;
            }
            if set.is_empty() {
                self.pending.remove(&turn);
            }
        }
    }

    /// Take the cards a turn's end interrupts: its own and the turnless ones.
    fn pending_take(&mut self, turn: u64) -> Vec<usize> {
        let mut out: Vec<usize> = Vec::new();
        for key in [Some(turn), None] {
            if let Some(set) = self.pending.remove(&key) {
                out.extend(set.iter().copied());
            }
        }
        self.pending_count -= out.len();
        out.sort_unstable();
        out
    }

    fn open_add(&mut self, turn: u64, item: usize) {
        self.open_assistant.entry(turn).or_default().insert(item);
    }

    fn open_remove(&mut self, turn: u64, item: usize) {
        if let Some(set) = self.open_assistant.get_mut(&turn) {
            set.remove(&item);
            if set.is_empty() {
                self.open_assistant.remove(&turn);
            }
        }
    }

    pub(super) fn count_bad(&mut self, was: bool, now: bool) {
        match (was, now) {
            (false, true) => self.bad += 1,
            (true, false) => self.bad = self.bad.saturating_sub(1),
            _ => {}
        }
    }
}

/// Event kinds the fold reads (others only count, or are reported when unknown).
const FOLDED: &[&str] = &[
    "turn/start",
    "turn/end",
    "user/message",
    "assistant/chunk",
    "assistant/message",
    "tool/call",
    "tool/result",
    "todo/write",
    "session/title",
    "approval/asked",
    "approval/decided",
];

/// An event being folded, its data parsed once for the fold (the event
/// itself keeps the text).
/// An event as diagnostics show it: its data as the text it came as.
#[derive(serde::Serialize)]
struct EventText<'a> {
    #[serde(rename = "type")]
    kind: &'a str,
    seq: u64,
    time: i64,
    data: &'a crate::wire::RawJson,
}

impl<'a> EventText<'a> {
    fn of(e: &'a SessionEvent) -> EventText<'a> {
        EventText {
            kind: &e.kind,
            seq: e.seq,
            time: e.time,
            data: &e.data,
        }
    }
}

pub(super) struct Ev<'a> {
    pub seq: u64,
    pub time: i64,
    pub data: Value,
    pub raw: &'a RawJson,
    pub source_event_seqs: &'a [u64],
}

impl Ev<'_> {
    /// `data.<key>` as a string.
    pub fn str(&self, key: &str) -> Option<&str> {
        self.data.get(key).and_then(Value::as_str)
    }

    /// `data.<key>` as an unsigned integer.
    pub fn u64(&self, key: &str) -> Option<u64> {
        self.data.get(key).and_then(Value::as_u64)
    }
}

fn text_of_content(content: Option<&Value>) -> String {
    let mut out = String::new();
    if let Some(Value::Array(blocks)) = content {
        for b in blocks {
            match b.get("type").and_then(Value::as_str) {
                Some("text") => {
                    if let Some(t) = b.get("text").and_then(Value::as_str) {
                        if !out.is_empty() {
                            out.push('\n');
                        }
                        out.push_str(t);
                    }
                }
                Some(other) => {
                    if !out.is_empty() {
                        out.push('\n');
                    }
                    out.push_str(&format!("[{other}]"));
                }
                None => {}
            }
        }
    } else if let Some(Value::String(s)) = content {
        out.push_str(s);
    }
    out
}

impl Transcript {
    /// Fold one record into the transcript.
    pub fn apply(&mut self, record: &Record) {
        match record {
            Record::Diagnostic(d) => self.push_diagnostic(d.clone()),
            Record::Frame {
                kind,
                rpc_id,
                payload,
                origin,
            } => self.apply_frame(kind, rpc_id.as_deref(), payload, *origin),
            Record::Event {
                event,
                view,
                origin,
            } => self.apply_event(event, view.as_ref(), *origin),
        }
    }

    /// Number of duplicate events skipped.
    pub fn duplicates(&self) -> usize {
        self.state.duplicates
    }

    fn push_diagnostic(&mut self, d: Diagnostic) {
        self.items
            .push_back(Item::Diagnostic(self.diagnostics.len()));
        self.diagnostics.push_back(d);
    }

    pub(super) fn diagnose(&mut self, origin: Origin, reason: String, raw: &impl serde::Serialize) {
        let raw = serde_json::to_string(raw).unwrap_or_default();
        self.push_diagnostic(Diagnostic {
            origin,
            reason,
            raw,
        });
    }

    fn apply_frame(&mut self, kind: &str, rpc_id: Option<&str>, payload: &Value, origin: Origin) {
        match kind {
            "approval/requested" => {
                self.approval_asked(payload, "approvalId", None, rpc_id);
            }
            // The latest list replaces the last one.
            "session/queue" => {
                let items = payload.get("items").and_then(Value::as_array);
                let count = |placement: &str| {
                    items.map_or(0, |i| {
                        i.iter()
                            .filter(|m| {
                                m.get("placement").and_then(Value::as_str) == Some(placement)
                            })
                            .count()
                    })
                };
                self.queued = count("queued");
                self.steering = count("steering");
            }
            "session/jobs" => {
                let jobs = payload.get("jobs").and_then(Value::as_array);
                let running = jobs.map_or(0, |j| {
                    j.iter()
                        .filter(|x| x.get("status").and_then(Value::as_str) == Some("running"))
                        .count()
                });
                self.jobs = (jobs.map_or(0, Vec::len), running);
            }
            "approval/resolved" => self.approval_decided(payload, "approvalId", None),
            "question/requested" => self.question_requested(payload, rpc_id),
            "question/resolved" => self.question_resolved(payload),
            "stream/error" => {
                let msg = payload
                    .get("message")
                    .or_else(|| payload.get("error").and_then(|e| e.get("message")))
                    .and_then(Value::as_str)
                    .unwrap_or("stream error");
                self.diagnose(
                    origin,
                    format!("stream error from the host: {msg}"),
                    payload,
                );
            }
            // Other frames belong to the live client, not to the transcript.
            _ => {}
        }
    }

    fn apply_event(&mut self, event: &SessionEvent, view: Option<&ViewEnvelope>, origin: Origin) {
        let (seq, time) = (event.seq, event.time);
        if !self.state.seen.insert(seq) {
            // Counted, not reported: a recording whose gap was backfilled
            // from history may hold an event twice, and that is no fault.
            self.state.duplicates += 1;
            return;
        }
        self.events += 1;
        match self.last_seq {
            Some(last) if seq > last + 1 => {
                let missing = if seq == last + 2 {
                    format!("seq {}", last + 1)
                } else {
                    format!("seqs {}–{}", last + 1, seq - 1)
                };
                let reason = format!("{missing} missing before seq {seq}");
                self.diagnose(origin, reason, &EventText::of(event));
            }
            Some(last) if seq < last => {
                let reason =
                    format!("seq {seq} after seq {last}: out of order, applied where it came");
                self.diagnose(origin, reason, &EventText::of(event));
            }
            _ => {}
        }
        self.last_seq = Some(self.last_seq.map_or(seq, |s| s.max(seq)));
        if time > 0 {
            self.first_time = Some(self.first_time.map_or(time, |t| t.min(time)));
            self.last_time = Some(self.last_time.map_or(time, |t| t.max(time)));
        }
        let kind: &str = &event.kind;
        if !FOLDED.contains(&kind) && (KNOWN_EVENT_TYPES.contains(&kind) || event.ignorable) {
            // Known or ignorable, and nothing the transcript shows: not even parsed.
            return;
        }
        let data = match event.data.try_parse() {
            Ok(v) => v,
            Err(e) => {
                let reason =
                    format!("data of {kind:?} (seq {seq}) not readable ({e}): folded as empty");
                self.diagnose(origin, reason, &EventText::of(event));
                Value::Null
            }
        };
        let ev = &Ev {
            seq,
            time,
            data,
            raw: &event.data,
            source_event_seqs: &event.source_event_seqs,
        };
        match kind {
            "turn/start" => {
                let turn = ev.u64("turn").unwrap_or(0);
                self.running = Some(turn);
                self.items.push_back(Item::Turn(TurnMarker {
                    turn,
                    seq: ev.seq,
                    time: ev.time,
                    end: None,
                }));
            }
            "turn/end" => self.turn_end(ev),
            "user/message" => {
                let text = text_of_content(ev.data.get("content"));
                let source = ev
                    .data
                    .get("source")
                    .and_then(|s| s.get("kind"))
                    .and_then(Value::as_str)
                    .map(str::to_string);
                self.items.push_back(Item::User(Arc::new(UserMessage {
                    seq: ev.seq,
                    time: ev.time,
                    text,
                    source,
                })));
            }
            "assistant/chunk" => self.assistant_chunk(ev),
            "assistant/message" => self.assistant_message(ev),
            "tool/call" => self.tool_call(ev, view, origin),
            "tool/result" => self.tool_result(ev, view, origin),
            "todo/write" => {
                let todos = ev
                    .data
                    .get("todos")
                    .and_then(Value::as_array)
                    .map(|a| {
                        a.iter()
                            .map(|t| Todo {
                                content: t
                                    .get("content")
                                    .and_then(Value::as_str)
                                    .unwrap_or("")
                                    .to_string(),
                                status: t
                                    .get("status")
                                    .and_then(Value::as_str)
                                    .unwrap_or("pending")
                                    .to_string(),
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                self.items.push_back(Item::Todo {
                    seq: ev.seq,
                    todos: Arc::new(todos),
                });
            }
            "session/title" => {
                if let Some(t) = ev.str("title") {
                    self.title = Some(t.to_string());
                }
            }
            "approval/asked" | "approval/decided" => self.approval_event(kind, ev),
            k => {
                let reason = format!(
                    "unknown event type {k:?} (seq {}) without \"ignorable\"",
                    ev.seq
                );
                // The event's own data text, not the tree (which may be empty).
                self.diagnose(origin, reason, &EventText::of(event));
            }
        }
    }

    fn turn_end(&mut self, ev: &Ev<'_>) {
        let turn = ev.u64("turn").unwrap_or(0);
        if self.running.is_none_or(|r| r <= turn) {
            self.running = None;
        }
        let reason = ev.data.get("reason");
        let kind = reason
            .and_then(|r| r.get("kind"))
            .and_then(Value::as_str)
            .unwrap_or("completed");
        let err = reason.and_then(|r| r.get("error").or_else(|| r.get("failure")));
        let message = err
            .and_then(|e| e.get("message"))
            .or_else(|| reason.and_then(|r| r.get("message")))
            .and_then(Value::as_str)
            .map(str::to_string);
        let code = err.and_then(|e| e.get("code")).and_then(|c| match c {
            Value::String(s) => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        });
        for i in self.state.pending_take(turn) {
            let card = Arc::make_mut(&mut self.cards[i]);
            let was_bad = card.status.is_bad();
            card.status = Status::Interrupted;
            card.ended = Some(ev.time);
            card.rev += 1;
            let now_bad = card.status.is_bad();
            self.state.count_bad(was_bad, now_bad);
        }
        let closing = self.state.open_assistant.remove(&turn).unwrap_or_default();
        for i in closing {
            if let Item::Assistant(m) = &mut self.items[i] {
                let m = Arc::make_mut(m);
                m.complete = true;
                m.interrupted = kind != "completed";
                m.rev += 1;
            }
        }
        self.items.push_back(Item::Turn(TurnMarker {
            turn,
            seq: ev.seq,
            time: ev.time,
            end: Some(TurnEnd {
                reason: kind.to_string(),
                message,
                code,
            }),
        }));
    }

    fn assistant_item(&mut self, turn: u64, step: u64, time: i64) -> &mut AssistantMessage {
        let idx = match self.state.assistant.get(&(turn, step)) {
            Some(&i) => i,
            None => {
                self.items
                    .push_back(Item::Assistant(Arc::new(AssistantMessage {
                        turn,
                        step,
                        blocks: Blocks::default(),
                        complete: false,
                        interrupted: false,
                        time,
                        rev: 0,
                    })));
                let i = self.items.len() - 1;
                self.state.assistant.insert((turn, step), i);
                self.state.open_add(turn, i);
                i
            }
        };
        match &mut self.items[idx] {
            Item::Assistant(m) => Arc::make_mut(m),
            _ => unreachable!("assistant index points at an assistant item"),
        }
    }

    fn assistant_chunk(&mut self, ev: &Ev<'_>) {
        let (turn, step) = (ev.u64("turn").unwrap_or(0), ev.u64("step").unwrap_or(0));
        let Some(chunk) = ev.data.get("chunk") else {
            return;
        };
        let ty = chunk.get("type").and_then(Value::as_str).unwrap_or("");
        let index = chunk.get("index").and_then(Value::as_u64).unwrap_or(0);
        let (reasoning, text, replace) = match ty {
            "block-start" => match chunk.get("blockType").and_then(Value::as_str) {
                Some("text") => (false, "", false),
                Some("reasoning") => (true, "", false),
                _ => return,
            },
            "text-delta" => (
                false,
                chunk.get("text").and_then(Value::as_str).unwrap_or(""),
                false,
            ),
            "reasoning-delta" => (
                true,
                chunk.get("text").and_then(Value::as_str).unwrap_or(""),
                false,
            ),
            "block-end" => {
                let block = chunk.get("block");
                match block.and_then(|b| b.get("type")).and_then(Value::as_str) {
                    Some("text") => (
                        false,
                        block
                            .and_then(|b| b.get("text"))
                            .and_then(Value::as_str)
                            .unwrap_or(""),
                        true,
                    ),
                    Some("reasoning") => (
                        true,
                        block
                            .and_then(|b| b.get("text"))
                            .and_then(Value::as_str)
                            .unwrap_or(""),
                        true,
                    ),
                    _ => return,
                }
            }
            _ => return,
        };
        let msg = self.assistant_item(turn, step, ev.time);
        if msg.complete {
            return;
        }
        let block = msg.blocks.entry(index, reasoning);
        if replace {
            block.text = text.to_string();
        } else {
            block.text.push_str(text);
        }
        msg.rev += 1;
    }

    fn assistant_message(&mut self, ev: &Ev<'_>) {
        let (turn, step) = (ev.u64("turn").unwrap_or(0), ev.u64("step").unwrap_or(0));
        let content = ev
            .data
            .get("message")
            .and_then(|m| m.get("content"))
            .and_then(Value::as_array);
        let mut blocks = Vec::new();
        for (i, part) in content.into_iter().flatten().enumerate() {
            let reasoning = match part.get("type").and_then(Value::as_str) {
                Some("text") => false,
                Some("reasoning") => true,
                _ => continue,
            };
            let text = part
                .get("text")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            blocks.push(AssistantBlock {
                index: i as u64,
                reasoning,
                text,
            });
        }
        let interrupted = ev
            .data
            .get("interrupted")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        if blocks.is_empty() && !self.state.assistant.contains_key(&(turn, step)) {
            return;
        }
        let msg = self.assistant_item(turn, step, ev.time);
        if !blocks.is_empty() || msg.blocks.is_empty() {
            msg.blocks = blocks.into_iter().collect();
        }
        msg.complete = true;
        msg.interrupted = interrupted;
        msg.rev += 1;
        if let Some(&i) = self.state.assistant.get(&(turn, step)) {
            self.state.open_remove(turn, i);
        }
    }
}
