//! The fold: [`Transcript::apply`] takes one record at a time. Pairing is by
//! `callId` (or `sourceEventSeqs`), never by order; duplicates of an applied
//! seq are skipped; anything unknown becomes a diagnostic at its place.
//!
//! Events are matched by [`EventKind`]; each folded kind's data is read as
//! its typed payload ([`crate::wire::payload`]), by the parts of the session
//! that own what it builds (messages.rs, tools.rs, prompts.rs).

use serde_json::Value;

use super::compaction::Phase;
use super::{Ev, Item, Transcript};

/// Command names kept of a session's header.
pub const MAX_COMMANDS: usize = 256;
use crate::wire::payload::{self, SessionTitle};
use crate::wire::{Diagnostic, EventKind, Origin, RawJson, Record, SessionEvent, ViewEnvelope};

/// An event as diagnostics show it: its data as the text it came as.
#[derive(serde::Serialize)]
struct EventText<'a> {
    #[serde(rename = "type")]
    kind: &'a str,
    seq: u64,
    time: i64,
    data: &'a RawJson,
}

impl<'a> EventText<'a> {
    fn of(e: &'a SessionEvent) -> EventText<'a> {
        EventText {
            kind: e.kind.as_str(),
            seq: e.seq,
            time: e.time,
            data: &e.data,
        }
    }
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
            Record::Nested {
                parent_call,
                record,
            } => self.nested_record(parent_call, record),
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
        self.push_diagnostic(Diagnostic::new(origin, reason, raw));
    }

    /// True when folding `record` can change what the transcript shows: a
    /// folded event, an event deck must report (unknown, not ignorable), a
    /// frame the fold reads, a diagnostic. False for the rest (`step/start`,
    /// `request/header`, the live client's frames …): the player's steps go
    /// past them.
    pub fn shows(record: &Record) -> bool {
        match record {
            Record::Event { event, .. } => match &event.kind {
                EventKind::Declared(_) => false,
                EventKind::Other(_) => !event.ignorable,
                _ => true,
            },
            Record::Frame { kind, .. } => matches!(
                kind.as_str(),
                "approval/requested"
                    | "approval/resolved"
                    | "question/requested"
                    | "question/resolved"
                    | "session/queue"
                    | "session/jobs"
                    | "stream/error"
            ),
            Record::Diagnostic(_) => true,
            Record::Nested { record, .. } => Transcript::shows(record),
        }
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
            // A session log's header (another agent's names it: its
            // presenters draw the calls from now on).
            "session" => {
                super::presenter::follow_header(payload, &mut self.agent, &mut self.presenters);
                self.follow_status(payload);
                // When the session started, as its log says (an agent's
                // header; the oldest Codex rollouts hold no other time).
                if let Some(t) = payload
                    .get("startedMs")
                    .and_then(Value::as_i64)
                    .filter(|t| *t > 0)
                {
                    self.first_time = Some(self.first_time.map_or(t, |f| f.min(t)));
                }
                if let Some(cwd) = payload.get("cwd").and_then(Value::as_str)
                    && cwd.starts_with('/')
                {
                    self.cwd =
                        Some(cwd.trim_end_matches('/').to_string()).filter(|c| !c.is_empty());
                }
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

    /// An event's data read as `T`; when it cannot be (nested past the
    /// recursion limit), reported and folded as empty.
    fn payload<T: serde::de::DeserializeOwned + Default>(
        &mut self,
        event: &SessionEvent,
        origin: Origin,
    ) -> T {
        match payload::read(&event.data) {
            Ok(p) => p,
            Err(e) => {
                let reason = format!(
                    "data of {:?} (seq {}) not readable ({e}): folded as empty",
                    event.kind.as_str(),
                    event.seq
                );
                self.diagnose(origin, reason, &EventText::of(event));
                T::default()
            }
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
        let ev = &Ev {
            seq,
            time,
            raw: &event.data,
            source_event_seqs: &event.source_event_seqs,
        };
        match &event.kind {
            EventKind::TurnStart => {
                let p = self.payload(event, origin);
                self.turn_start(ev, p);
            }
            EventKind::TurnEnd => {
                let p = self.payload(event, origin);
                self.turn_end(ev, p);
            }
            EventKind::UserMessage => {
                let p = self.payload(event, origin);
                self.user_message(ev, p);
            }
            EventKind::AssistantChunk => {
                let p = self.payload(event, origin);
                self.assistant_chunk(ev, p);
            }
            EventKind::AssistantMessage => {
                let p = self.payload(event, origin);
                self.assistant_message(ev, p);
            }
            EventKind::ToolCall => {
                // Read ahead on the loader's threads, when it was.
                let p = match self.ahead.calls.get(&event.seq) {
                    Some(d) if d.data.is(&event.data) => d.payload.clone(),
                    _ => self.payload(event, origin),
                };
                self.tool_call(ev, p, view, origin);
            }
            EventKind::ToolResult => {
                // Read ahead on the loader's threads, when it was.
                let p = match self.ahead.results.get(&event.seq) {
                    Some(d) if d.data.is(&event.data) => d.payload.clone(),
                    _ => self.payload(event, origin),
                };
                self.tool_result(ev, p, view, origin);
            }
            EventKind::TodoWrite => {
                let p = self.payload(event, origin);
                self.todo_write(ev, p);
            }
            EventKind::SessionTitle => {
                let p: SessionTitle = self.payload(event, origin);
                if let Some(t) = p.title {
                    self.title = Some(t);
                }
            }
            EventKind::LlmRetry => {
                let p = self.payload(event, origin);
                self.llm_retry(ev, p);
            }
            // Approvals share their reading with the mux frames (trees).
            EventKind::ApprovalAsked => {
                let data: Value = self.payload(event, origin);
                // An ACP permission request names the JSON-RPC request to answer.
                let rpc_id = data
                    .get("rpcId")
                    .and_then(Value::as_str)
                    .map(str::to_string);
                self.approval_asked(&data, "id", Some(seq), rpc_id.as_deref());
            }
            EventKind::ApprovalDecided => {
                let data: Value = self.payload(event, origin);
                self.approval_decided(&data, "id", Some(seq));
            }
            EventKind::CompactionStart => {
                let p = self.payload(event, origin);
                self.compaction(ev, Phase::Start, p);
            }
            EventKind::CompactionSummary => {
                let p = self.payload(event, origin);
                self.compaction(ev, Phase::Summary, p);
            }
            EventKind::CompactionEnd => {
                let p = self.payload(event, origin);
                self.compaction(ev, Phase::End, p);
            }
            // Declared or ignorable, and nothing the transcript shows: not
            // even read.
            EventKind::Declared(_) => {}
            EventKind::Other(_) if event.ignorable => {}
            EventKind::Other(k) => {
                // Read through, so that data no tree could hold is said too.
                let _: crate::wire::payload::Unread = self.payload(event, origin);
                let reason = format!("unknown event type {k:?} (seq {seq}) without \"ignorable\"");
                // The event's own data text, not a tree (which may be empty).
                self.diagnose(origin, reason, &EventText::of(event));
            }
        }
    }

    /// The mode and the commands a header says (an ACP session's, sent
    /// again as they change); at most `MAX_COMMANDS` names kept.
    fn follow_status(&mut self, payload: &Value) {
        if let Some(m) = payload.get("mode").and_then(Value::as_str) {
            self.mode = Some(m.chars().take(80).collect());
        }
        if let Some(list) = payload.get("commands").and_then(Value::as_array) {
            let names: Vec<String> = list
                .iter()
                .filter_map(Value::as_str)
                .take(MAX_COMMANDS)
                .map(|n| n.chars().take(80).collect())
                .collect();
            self.commands = Some(names.into());
        }
    }
}
