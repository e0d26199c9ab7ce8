//! What a reader of prompt-and-answer logs keeps while it writes deck's
//! records (Gemini CLI's, Qwen Code's): the session's header (sent again
//! when it learns more), the events' seqs, the turn and step, and the
//! turn's token usage summed from its model responses.

use serde::Serialize;
use serde_json::{Map, Value};

use super::read::{Emitter, Out, header};
use crate::wire::payload::{
    AssistantMessage, ContentBlock, MessageContent, TextOrObjects, TokenUsage, TurnEnd, TurnEndReason, TurnStart,
    UserMessage,
};
use crate::wire::{Diagnostic, EventKind, Origin, Record};

/// A reader's writing state for one session.
#[derive(Debug, Default)]
pub struct Turns {
    /// The agent (its name, the header's `agent`).
    agent: &'static str,
    /// The session the records go to.
    pub session: Option<String>,
    fields: Map<String, Value>,
    header_sent: bool,
    header_stale: bool,
    emitter: Emitter,
    /// The latest time seen (epoch ms), so times never go back.
    pub time: i64,
    pub turn: u64,
    pub turn_open: bool,
    pub step: u64,
    usage: Option<TokenUsage>,
}

impl Turns {
    /// For the agent named `agent`.
    pub fn new(agent: &'static str) -> Turns {
        Turns {
            agent,
            ..Turns::default()
        }
    }

    /// A time a line carries (epoch ms).
    pub fn saw(&mut self, time: i64) {
        self.time = self.time.max(time);
    }

    /// Whether the header has `key` as `value`.
    pub fn knows(&self, key: &str, value: &str) -> bool {
        self.fields.get(key).and_then(Value::as_str) == Some(value)
    }

    /// A header field learnt (the header goes out again with it).
    pub fn learn(&mut self, key: &str, value: Value) {
        self.fields.insert(key.into(), value);
        self.header_stale = self.header_sent;
    }

    fn send_header(&mut self, origin: Origin, out: &mut Out) {
        if self.header_sent && !self.header_stale {
            return;
        }
        self.header_sent = true;
        self.header_stale = false;
        let record = header(self.agent, self.fields.clone(), origin);
        out.push((self.session.clone(), record));
    }

    /// An event at the latest time seen.
    pub fn emit(&mut self, kind: EventKind, data: impl Serialize, origin: Origin, out: &mut Out) {
        let time = self.time;
        self.emit_at(kind, data, time, origin, out);
    }

    /// An event at `time` (0: not known).
    pub fn emit_at(&mut self, kind: EventKind, data: impl Serialize, time: i64, origin: Origin, out: &mut Out) {
        self.send_header(origin, out);
        let r = self.emitter.event(kind, time, &data, origin);
        out.push((self.session.clone(), r));
    }

    /// A diagnostic of the session's.
    pub fn diagnostic(&mut self, reason: String, raw: &Value, origin: Origin, out: &mut Out) {
        let d = Diagnostic::new(origin, reason, raw.to_string());
        out.push((self.session.clone(), Record::Diagnostic(d)));
    }

    /// `v` as an object, or a diagnostic that the `what` it should be is
    /// not one.
    pub fn object<'v>(&mut self, v: &'v Value, what: &str, origin: Origin, out: &mut Out) -> Option<&'v Map<String, Value>> {
        let o = v.as_object();
        if o.is_none() {
            self.diagnostic(format!("a {what} that is not an object"), v, origin, out);
        }
        o
    }

    /// The model's words at the open step, as one assistant message (none
    /// when there are none).
    pub fn answer(&mut self, blocks: Vec<Option<ContentBlock>>, origin: Origin, out: &mut Out) {
        if blocks.is_empty() {
            return;
        }
        let data = AssistantMessage {
            turn: Some(self.turn),
            step: Some(self.step),
            message: Some(MessageContent {
                content: Some(blocks),
                ..MessageContent::default()
            }),
            ..AssistantMessage::default()
        };
        self.emit(EventKind::AssistantMessage, data, origin, out);
    }

    /// A prompt: the open turn ends, a new one starts with it.
    pub fn prompt(&mut self, text: String, origin: Origin, out: &mut Out) {
        if self.turn_open {
            self.end_turn(origin, out);
        }
        self.start_turn(origin, out);
        let data = UserMessage {
            turn: Some(self.turn),
            content: TextOrObjects::Objects(vec![Some(block("text", text))]),
            ..UserMessage::default()
        };
        self.emit(EventKind::UserMessage, data, origin, out);
    }

    /// A turn starts (a model answer before any prompt opens one too).
    pub fn start_turn(&mut self, origin: Origin, out: &mut Out) {
        self.turn += 1;
        self.turn_open = true;
        self.step = 0;
        self.emit(EventKind::TurnStart, TurnStart { turn: Some(self.turn) }, origin, out);
    }

    /// The open turn ends, completed, with its usage.
    pub fn end_turn(&mut self, origin: Origin, out: &mut Out) {
        let completed = TurnEndReason {
            kind: Some("completed".into()),
            ..TurnEndReason::default()
        };
        self.end_turn_for(completed, origin, out);
    }

    /// The open turn ends as `kind` says (`completed`, `aborted`, `error`),
    /// with the reason's message, and its usage.
    pub fn end_turn_as(&mut self, kind: &str, message: Option<String>, origin: Origin, out: &mut Out) {
        let reason = TurnEndReason {
            kind: Some(kind.into()),
            message,
            ..TurnEndReason::default()
        };
        self.end_turn_for(reason, origin, out);
    }

    /// The open turn ends, for `reason` (the log says how), with its usage.
    pub fn end_turn_for(&mut self, reason: TurnEndReason, origin: Origin, out: &mut Out) {
        self.turn_open = false;
        let data = TurnEnd {
            turn: Some(self.turn),
            reason: Some(reason),
            usage: self.usage.take(),
        };
        self.emit(EventKind::TurnEnd, data, origin, out);
    }

    /// A model response's tokens added to the turn's usage (input, output,
    /// read from the cache, reasoning; `None`: not said).
    pub fn count(&mut self, counts: [Option<u64>; 4]) {
        let u = self.usage.get_or_insert_with(TokenUsage::default);
        let sums = [
            &mut u.input_tokens,
            &mut u.output_tokens,
            &mut u.cache_read_tokens,
            &mut u.reasoning_tokens,
        ];
        for (sum, n) in sums.into_iter().zip(counts) {
            if let Some(n) = n {
                *sum = Some(sum.unwrap_or(0) + n);
            }
        }
    }

    /// The end of the input: the header, if it never went out.
    pub fn finish(&mut self, out: &mut Out) {
        self.send_header(Origin::default(), out);
    }
}

/// A content block of `kind` (`text`, `reasoning`).
pub fn block(kind: &str, text: String) -> ContentBlock {
    ContentBlock {
        kind: Some(kind.into()),
        text: Some(text),
    }
}
