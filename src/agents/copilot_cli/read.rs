//! GitHub Copilot CLI's session event logs
//! (`~/.copilot/session-state/<id>/events.jsonl`) read into DSH-shaped
//! records. One event a line, `{type, data, id, timestamp, parentId}`,
//! each chained to the one before by `parentId`; the types (its package's
//! `schemas/session-events.schema.json`) this reader takes:
//!
//! * `session.start` (`sessionId`, `copilotVersion`, `selectedModel`,
//!   `context.cwd`) and `session.resume` (a later run appending to the log:
//!   `--continue`, `--resume`), `session.model_change`;
//! * `user.message` (`content`, as typed): a prompt — a turn;
//! * `assistant.message`: `reasoningText`, `content`, and `toolRequests`
//!   (`toolCallId`, `name`, `arguments`); one model response — a step;
//! * `session.usage_record` (`usage.inputTokens`, `outputTokens`,
//!   `cacheReadTokens`): one model request's tokens;
//! * `tool.execution_start` / `tool.execution_complete` (`success`,
//!   `result.content`, `result.detailedContent` — a git-style diff for
//!   view, edit and create —, `error {message, code}`,
//!   `shellExecution.exitCode` for a shell command);
//! * `permission.completed` (`toolCallId`, `result.kind`: approved, a
//!   `denied-…` kind, `cancelled`), `abort` (`reason`), `session.error`,
//!   `session.shutdown` (a run ended).
//!
//! What this reader decides: a call's duration is its complete event's
//! time minus its start event's (how the CLI itself times a call); a shell
//! command keeps `success: true` whatever it exits with, its exit code is
//! `shellExecution.exitCode` (not 0: failed); `success: false` is an error,
//! a refused permission a rejection, a cancelled one or an `abort` before
//! the result a cancel; calls of a sub-agent (`parentToolCallId`) are not
//! drawn. Events of other types say nothing deck draws.

use std::collections::HashMap;

use serde_json::{Map, Value};

use crate::agents::read::{Out, Translate, epoch_ms};
use crate::agents::turns::{self, Turns};
use crate::wire::payload::{
    AssistantMessage, ContentBlock, Failure, Json, MessageContent, PartContent, ResultError, ResultPart, ToolCall,
    ToolResult, TurnEnd, TurnEndReason,
};
use crate::wire::{EventKind, Origin};

/// Whether `v` is a line of a Copilot CLI event log, from its shape alone.
pub fn is_line(v: &Value) -> bool {
    let Some(o) = v.as_object() else {
        return false;
    };
    let typed = o
        .get("type")
        .and_then(Value::as_str)
        .is_some_and(|t| t == "abort" || t.contains('.') && !t.contains('/'));
    typed
        && o.get("data").is_some_and(Value::is_object)
        && o.get("id").is_some_and(Value::is_string)
        && o.get("timestamp").is_some_and(Value::is_string)
        && o.contains_key("parentId")
        && !o.contains_key("seq")
}

/// What the reader knows of a call.
#[derive(Debug, Default)]
struct Call {
    /// Its result went out.
    settled: bool,
    /// When its execution started (epoch ms).
    started: Option<i64>,
    /// The permission's `result.kind`, when one was asked.
    permission: Option<String>,
}

/// Reads one event log's lines, in order, into records.
#[derive(Debug)]
pub struct Reader {
    /// The session's header, seqs, turns and usage.
    w: Turns,
    calls: HashMap<String, Call>,
}

impl Default for Reader {
    fn default() -> Reader {
        Reader {
            w: Turns::new(super::NAME),
            calls: HashMap::new(),
        }
    }
}

fn text<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

impl Translate for Reader {
    fn line(&mut self, v: &Value, origin: Origin, out: &mut Out) {
        let Some(kind) = v.get("type").and_then(Value::as_str) else {
            return;
        };
        let Some(data) = v.get("data").filter(|d| d.is_object()) else {
            return;
        };
        let time = text(v, "timestamp").and_then(epoch_ms);
        if let Some(t) = time {
            self.w.saw(t);
        }
        // A sub-agent's work, under the call that started it: not drawn.
        if data.get("parentToolCallId").is_some_and(Value::is_string) {
            return;
        }
        match kind {
            "session.start" => self.start(data),
            "session.resume" => self.learn(data, "selectedModel"),
            "session.model_change" => self.learn(data, "newModel"),
            "user.message" => {
                let content = text(data, "content").unwrap_or_default();
                if !content.trim().is_empty() {
                    self.w.prompt(content.to_string(), origin, out);
                }
            }
            "session.usage_record" => {
                if let Some(u) = data.get("usage") {
                    let n = |k: &str| u.get(k).and_then(Value::as_u64);
                    self.w.count([n("inputTokens"), n("outputTokens"), n("cacheReadTokens"), None]);
                }
            }
            "assistant.message" => self.model(data, origin, out),
            "tool.execution_start" => {
                if let Some(id) = text(data, "toolCallId") {
                    self.calls.entry(id.to_string()).or_default().started = time;
                }
            }
            "tool.execution_complete" => self.result(data, time, origin, out),
            "permission.completed" => {
                if let (Some(id), Some(k)) = (text(data, "toolCallId"), data.get("result").and_then(|r| text(r, "kind")))
                {
                    self.calls.entry(id.to_string()).or_default().permission = Some(k.to_string());
                }
            }
            "abort" => self.abort(data, origin, out),
            "session.error" => self.error(data, origin, out),
            "session.shutdown" if self.w.turn_open && self.all_settled() => {
                self.w.end_turn(origin, out);
            }
            _ => {}
        }
    }

    fn finish(&mut self, out: &mut Out) {
        if self.w.turn_open && self.all_settled() {
            self.w.end_turn(Origin::default(), out);
        }
        self.w.finish(out);
    }
}

impl Reader {
    fn all_settled(&self) -> bool {
        self.calls.values().all(|c| c.settled)
    }

    /// The session's id, directory, version and model.
    fn start(&mut self, data: &Value) {
        if self.w.session.is_none()
            && let Some(id) = text(data, "sessionId")
        {
            self.w.session = Some(id.to_string());
            self.w.learn("id", Value::from(id));
        }
        if let Some(v) = text(data, "copilotVersion")
            && !self.w.knows("version", v)
        {
            self.w.learn("version", Value::from(v));
        }
        self.learn(data, "selectedModel");
    }

    /// The directory and model a run says (`model_key`: where it names
    /// the model).
    fn learn(&mut self, data: &Value, model_key: &str) {
        let cwd = data.get("context").and_then(|c| text(c, "cwd"));
        for (field, value) in [("cwd", cwd), ("model", text(data, model_key))] {
            if let Some(v) = value
                && !self.w.knows(field, v)
            {
                self.w.learn(field, Value::from(v));
            }
        }
    }

    /// A model response: its reasoning and text, then its calls.
    fn model(&mut self, data: &Value, origin: Origin, out: &mut Out) {
        if !self.w.turn_open {
            self.w.start_turn(origin, out);
        }
        self.w.step += 1;
        let blocks: Vec<Option<ContentBlock>> = [("reasoning", "reasoningText"), ("text", "content")]
            .into_iter()
            .filter_map(|(kind, key)| {
                let t = text(data, key).filter(|t| !t.trim().is_empty())?;
                Some(Some(turns::block(kind, t.to_string())))
            })
            .collect();
        if !blocks.is_empty() {
            let msg = AssistantMessage {
                turn: Some(self.w.turn),
                step: Some(self.w.step),
                message: Some(MessageContent {
                    content: Some(blocks),
                    ..MessageContent::default()
                }),
                ..AssistantMessage::default()
            };
            self.w.emit(EventKind::AssistantMessage, msg, origin, out);
        }
        let requests = data.get("toolRequests").and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
        for r in requests {
            let Some(id) = text(r, "toolCallId") else {
                continue;
            };
            self.calls.entry(id.to_string()).or_default();
            let arguments = match r.get("arguments") {
                Some(Value::String(s)) => s.clone(),
                Some(v) => v.to_string(),
                None => "{}".into(),
            };
            let call = ToolCall {
                turn: Some(self.w.turn),
                step: Some(self.w.step),
                call_id: Some(id.to_string()),
                name: Some(text(r, "name").unwrap_or_default().to_string()),
                arguments: Some(Value::String(arguments)),
            };
            self.w.emit(EventKind::ToolCall, call, origin, out);
        }
    }

    /// A call's end: its text, whether it failed, and what the event says
    /// beside (a shell's exit code, the diff of a view or an edit).
    fn result(&mut self, data: &Value, time: Option<i64>, origin: Origin, out: &mut Out) {
        let Some(id) = text(data, "toolCallId") else {
            return;
        };
        let call = self.calls.entry(id.to_string()).or_default();
        if call.settled {
            return;
        }
        call.settled = true;
        let success = data.get("success").and_then(Value::as_bool);
        let result = data.get("result");
        let error = data.get("error");
        let body = match success {
            Some(false) => error.and_then(|e| text(e, "message")),
            _ => result.and_then(|r| text(r, "content")),
        };
        let part = ResultPart::answering(id, PartContent::Text(body.unwrap_or_default().to_string().into()), success == Some(false));
        let mut res = ToolResult::of(self.w.turn, self.w.step, part);
        match call.permission.as_deref() {
            Some("cancelled") if success == Some(false) => res.error = Some(aborted()),
            Some(k) if success == Some(false) && (k.starts_with("denied") || k == "reject") => {
                res.outcome = Some("rejected".into());
            }
            _ if success.is_none() => res.outcome = Some("unknown".into()),
            _ => {}
        }
        if res.error.is_none() && success == Some(false) {
            res.error = error.and_then(|e| text(e, "code")).map(|code| ResultError {
                code: Some(code.to_string()),
                ..ResultError::default()
            });
        }
        let shell = data.get("shellExecution").filter(|s| s.is_object());
        res.exit_code = shell.and_then(|s| s.get("exitCode")).and_then(Value::as_i64);
        res.duration_ms = match (call.started, time) {
            (Some(a), Some(b)) if b >= a => Some(b - a),
            _ => None,
        };
        let mut meta = Map::new();
        if let Some(d) = result.and_then(|r| r.get("detailedContent")).filter(|d| d.is_string()) {
            meta.insert("detailedContent".into(), d.clone());
        }
        if let Some(s) = shell {
            meta.insert("shellExecution".into(), s.clone());
        }
        let view = data.get("toolTelemetry").and_then(|t| t.get("properties")).and_then(|p| p.get("viewType"));
        if let Some(v) = view.filter(|v| v.is_string()) {
            meta.insert("viewType".into(), v.clone());
        }
        res.meta = (!meta.is_empty()).then(|| Json::Tree(Value::Object(meta)));
        match time {
            Some(t) => self.w.emit_at(EventKind::ToolResult, res, t, origin, out),
            None => self.w.emit(EventKind::ToolResult, res, origin, out),
        }
    }

    /// The turn was stopped: calls still running are cancelled, the turn
    /// ends aborted.
    fn abort(&mut self, data: &Value, origin: Origin, out: &mut Out) {
        let mut open: Vec<String> = self.calls.iter().filter(|(_, c)| !c.settled).map(|(id, _)| id.clone()).collect();
        open.sort();
        for id in open {
            if let Some(c) = self.calls.get_mut(&id) {
                c.settled = true;
            }
            let part = ResultPart::answering(&id, PartContent::Text(String::new().into()), true);
            let mut res = ToolResult::of(self.w.turn, self.w.step, part);
            res.error = Some(aborted());
            self.w.emit(EventKind::ToolResult, res, origin, out);
        }
        let reason = text(data, "reason").map(str::to_string);
        self.end(TurnEndReason { kind: Some("aborted".into()), message: reason, ..TurnEndReason::default() }, origin, out);
    }

    /// An error of the session (a model request failed): the open turn
    /// ends with it.
    fn error(&mut self, data: &Value, origin: Origin, out: &mut Out) {
        let failure = Failure {
            message: Some(text(data, "message").map(str::to_string)),
            code: text(data, "errorType").map(str::to_string),
        };
        let reason = TurnEndReason { kind: Some("error".into()), error: Some(Some(failure)), ..TurnEndReason::default() };
        self.end(reason, origin, out);
    }

    /// The open turn ends for `reason` (nothing when none is open).
    fn end(&mut self, reason: TurnEndReason, origin: Origin, out: &mut Out) {
        if !self.w.turn_open {
            return;
        }
        self.w.turn_open = false;
        let data = TurnEnd { turn: Some(self.w.turn), reason: Some(reason), usage: None };
        self.w.emit(EventKind::TurnEnd, data, origin, out);
    }
}

/// A cancel's error: the user's doing, not the tool's.
fn aborted() -> ResultError {
    ResultError {
        code: Some("ABORTED".into()),
        ..ResultError::default()
    }
}

#[cfg(test)]
mod tests;
