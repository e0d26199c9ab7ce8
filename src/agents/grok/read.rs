//! Grok Build's `updates.jsonl` read into deck's records, through the ACP
//! reader (`agents/acp/read.rs`): each line is an envelope `{"timestamp":
//! unix seconds, "method", "params"}` whose `params` is an ACP
//! `SessionNotification` (`method: "session/update"`) or xAI's own
//! (`"_x.ai/session/update"`); older lines are the bare notification. This
//! module turns the envelopes into the ACP trace lines that reader takes,
//! and adds what an ACP trace has no words for:
//!
//! * the session: its id (`params.sessionId`) and model (a user chunk's
//!   `_meta.modelId`) as a `session/new` answer;
//! * a prompt: the `user_message_chunk`s of one `_meta.promptIndex` (a run
//!   of them) as a `session/prompt` request, at the first chunk's time;
//! * a turn's end: xAI's `turn_completed` (`stop_reason`, `agent_result`,
//!   `usage`) as that request's answer — `error` and `rate_limit` as an
//!   error whose message is `agent_result` — with the turn's tokens;
//! * a call's name: Grok's tool name (`_meta["x.ai/tool"].name`), where
//!   the ACP reader is told to look first.
//!
//! Times are the line's `params._meta.agentTimestampMs` (epoch ms), else its
//! `timestamp` (seconds). What the file does not hold stays unknown: the
//! session's directory (in `summary.json` beside it), permission requests
//! and their answers (never written), and a rewind's effect (a
//! `rewind_marker` is appended; the turns it undid stay and are shown).

mod line;
#[cfg(test)]
mod tests;

use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

pub use line::Line;

use crate::agents::acp::read::Reader as AcpReader;
use crate::agents::read::{Foreign, Out, Translate};
use crate::wire::payload::TokenUsage;
use crate::wire::{Diagnostic, Origin, Record};

use super::NAME;

/// The envelope's methods.
const ACP: &str = "session/update";
const XAI: &str = "_x.ai/session/update";

/// Whether `v` is a line of `updates.jsonl`, from its shape: an envelope
/// of one of its two methods around a notification with an update, or
/// (older files) the bare ACP notification.
pub fn is_line(v: &Value) -> bool {
    let Some(o) = v.as_object() else {
        return false;
    };
    if o.contains_key("type") || o.contains_key("seq") || o.contains_key("dir") {
        return false;
    }
    let notification = match o.get("method").and_then(Value::as_str) {
        Some(ACP | XAI) => o.get("params"),
        Some(_) => return false,
        None => Some(v),
    };
    notification.is_some_and(|n| {
        n.get("sessionId").is_some_and(Value::is_string)
            && n.get("update").and_then(|u| u.get("sessionUpdate")).is_some_and(Value::is_string)
    })
}

/// A prompt being gathered from its chunks.
#[derive(Debug)]
struct Prompt {
    index: Option<i64>,
    blocks: Vec<Value>,
    time: i64,
    origin: Origin,
}

/// Reads one `updates.jsonl`.
#[derive(Debug)]
pub struct Reader {
    acp: AcpReader,
    opened: bool,
    prompt: Option<Prompt>,
    /// Prompts sent so far; the open one's id is `grok-prompt-<n>`.
    prompts: u64,
    turn_open: bool,
    time: i64,
}

impl Default for Reader {
    fn default() -> Reader {
        Reader {
            acp: AcpReader::named(NAME).tool_names_at("x.ai/tool", "name"),
            opened: false,
            prompt: None,
            prompts: 0,
            turn_open: false,
            time: 0,
        }
    }
}

impl Translate for Reader {
    fn line(&mut self, v: &Value, origin: Origin, out: &mut Out) {
        self.owned(v.clone(), None, origin, out);
    }

    /// The decoder's line, taken as it is: its update goes on to the ACP
    /// reader without a copy (a call's output as the line's text, when
    /// the decoder read it so: [`Line`]).
    fn foreign(&mut self, line: Foreign, origin: Origin, out: &mut Out) {
        match line {
            Foreign::Value(v) => self.owned(v, None, origin, out),
            Foreign::Read { line, .. } => {
                if let Some(l) = Foreign::take::<Line>(line) {
                    self.owned(l.value, l.raw_output, origin, out);
                }
            }
        }
    }

    fn finish(&mut self, out: &mut Out) {
        self.send_prompt(out);
        self.acp.finish(out);
    }
}

impl Reader {
    /// One line of the file: an envelope `{timestamp, method, params}`, or
    /// the notification's params alone; its update's `rawOutput` apart as
    /// text, when read so.
    fn owned(&mut self, mut v: Value, raw_output: Option<Box<RawValue>>, origin: Origin, out: &mut Out) {
        let method = v.get("method").and_then(Value::as_str).map(str::to_owned);
        let secs = v.get("timestamp").and_then(Value::as_i64).map(|s| s * 1000);
        let mut taken = match method {
            Some(_) => v.get_mut("params").map(Value::take).unwrap_or(Value::Null),
            None => Value::Null,
        };
        let params = if method.is_some() { &mut taken } else { &mut v };
        let method = method.as_deref().unwrap_or(ACP);
        let Some(update) = params.get("update").filter(|u| u.is_object()) else {
            let raw = if method == ACP && taken.is_null() {
                v.to_string()
            } else {
                let mut whole = v.clone();
                whole["params"] = taken;
                whole.to_string()
            };
            let d = Diagnostic::new(origin, "Grok Build: a line without its update".into(), raw);
            out.push((None, Record::Diagnostic(d)));
            return;
        };
        let ms = params.get("_meta").and_then(|m| m.get("agentTimestampMs")).and_then(Value::as_i64);
        if let Some(t) = ms.or(secs) {
            self.time = self.time.max(t);
        }
        if !self.opened {
            self.open(params, update, origin, out);
        }
        let kind = update.get("sessionUpdate").and_then(Value::as_str).unwrap_or_default();
        if method == ACP && kind == "user_message_chunk" {
            return self.user_chunk(update, origin, out);
        }
        self.send_prompt(out);
        match (method, kind) {
            (XAI, "turn_completed") => self.turn_completed(update, origin, out),
            (XAI, _) => {}
            _ => {
                let params = params.take();
                // Built, not `json!`: that would copy the update (serialize it
                // again) where it can move.
                let mut msg = Map::new();
                msg.insert("method".into(), ACP.into());
                msg.insert("params".into(), params);
                self.feed_raw("agent->client", Value::Object(msg), raw_output, origin, out);
            }
        }
    }

    /// One JSON-RPC message to the ACP reader, at the latest time.
    fn feed(&mut self, dir: &str, msg: Value, origin: Origin, out: &mut Out) {
        self.feed_raw(dir, msg, None, origin, out);
    }

    /// [`Reader::feed`], its update's `rawOutput` apart as text.
    fn feed_raw(&mut self, dir: &str, mut msg: Value, raw_output: Option<Box<RawValue>>, origin: Origin, out: &mut Out) {
        if let Some(m) = msg.as_object_mut() {
            m.insert("jsonrpc".into(), "2.0".into());
        }
        let mut line = Map::new();
        line.insert("t".into(), self.time.into());
        line.insert("dir".into(), dir.into());
        line.insert("msg".into(), msg);
        let line = Value::Object(line);
        self.acp.owned_raw(line, raw_output, origin, out);
    }

    /// The session, from its first line: its id, and the model a user
    /// chunk names.
    fn open(&mut self, params: &Value, update: &Value, origin: Origin, out: &mut Out) {
        self.opened = true;
        let mut result = json!({});
        if let Some(id) = params.get("sessionId").filter(|s| s.is_string()) {
            result["sessionId"] = id.clone();
        }
        if let Some(m) = update.get("_meta").and_then(|m| m.get("modelId")).filter(|m| m.is_string()) {
            result["models"] = json!({"currentModelId": m});
        }
        let id = "grok-session";
        self.feed("client->agent", json!({"id": id, "method": "session/new", "params": {}}), origin, out);
        self.feed("agent->client", json!({"id": id, "result": result}), origin, out);
    }

    /// A user chunk: part of the prompt being gathered, or a new one's
    /// first (its `promptIndex` changed).
    fn user_chunk(&mut self, update: &Value, origin: Origin, out: &mut Out) {
        let index = update.get("_meta").and_then(|m| m.get("promptIndex")).and_then(Value::as_i64);
        if self.prompt.as_ref().is_some_and(|p| p.index != index) {
            self.send_prompt(out);
        }
        let time = self.time;
        let prompt = self.prompt.get_or_insert_with(|| Prompt {
            index,
            blocks: Vec::new(),
            time,
            origin,
        });
        match update.get("content") {
            Some(Value::Array(blocks)) => prompt.blocks.extend(blocks.iter().cloned()),
            Some(block) => prompt.blocks.push(block.clone()),
            None => {}
        }
    }

    /// The prompt gathered, as a `session/prompt` request.
    fn send_prompt(&mut self, out: &mut Out) {
        let Some(p) = self.prompt.take() else {
            return;
        };
        self.prompts += 1;
        self.turn_open = true;
        let now = self.time;
        self.time = p.time;
        let request = json!({"id": self.prompt_id(), "method": "session/prompt", "params": {"prompt": p.blocks}});
        self.feed("client->agent", request, p.origin, out);
        self.time = now;
    }

    fn prompt_id(&self) -> String {
        format!("grok-prompt-{}", self.prompts)
    }

    /// xAI's `turn_completed`: the open prompt's answer, with the turn's
    /// tokens.
    fn turn_completed(&mut self, update: &Value, origin: Origin, out: &mut Out) {
        if !self.turn_open {
            return;
        }
        self.turn_open = false;
        if let Some(u) = update.get("usage") {
            self.acp.usage(usage(u));
        }
        let stop = update.get("stop_reason").and_then(Value::as_str).unwrap_or_default();
        let id = self.prompt_id();
        let answer = match stop {
            "error" | "rate_limit" => {
                let message = update.get("agent_result").and_then(Value::as_str).unwrap_or(stop);
                json!({"id": id, "error": {"code": -32603, "message": message}})
            }
            "" => json!({"id": id, "result": {}}),
            s => json!({"id": id, "result": {"stopReason": s}}),
        };
        self.feed("agent->client", answer, origin, out);
    }
}

/// A turn's `usage` (`PromptUsage`: camelCase totals, `inputTokens` the
/// whole prompt, cache reads and writes in it) as deck's tokens (input
/// without them).
fn usage(u: &Value) -> TokenUsage {
    let n = |k: &str| u.get(k).and_then(Value::as_u64);
    let (read, write) = (n("cachedReadTokens"), n("cacheCreationTokens"));
    let input = n("inputTokens").and_then(|i| i.checked_sub(read.unwrap_or(0) + write.unwrap_or(0)));
    TokenUsage {
        input_tokens: input,
        output_tokens: n("outputTokens"),
        cache_read_tokens: read,
        cache_write_tokens: write,
        reasoning_tokens: n("reasoningTokens"),
    }
}
