//! mini-swe-agent's trajectories and SWE-agent's `.traj` files read into
//! DSH-shaped records. Each is one JSON document: a mini-swe-agent one is
//! read as a stream (the loader hands its other members, then each message:
//! [`super::MiniSweAgent`]'s `document_entries`), the results of a batch
//! held until the message after them says how the batch ended; a SWE-agent
//! one is handed whole (its `document`).
//!
//! mini-swe-agent 2.x (`trajectory_format: "mini-swe-agent-1.1"`, `{info,
//! messages}`), message by message:
//!
//! * `user`: the task (the rendered instance template: the first user
//!   message) — a turn; a `UserNewTask` (typed when the agent submitted) — a
//!   new turn; a `UserRejection` or `UserInterruption` — the user's words in
//!   the turn; a `FormatError` — the harness's note to the model; a human
//!   mode command (`extra.actions`) — its calls; a text-based model's result
//!   (`extra.returncode`) — the oldest call without an id answered;
//! * `assistant`: its text (and `reasoning_content`), its actions
//!   (`extra.actions [{command, tool_call_id}]`) as `bash` calls, the
//!   response's usage (`extra.response.usage`), `extra.timestamp`;
//! * `tool`: an action's result — `extra.raw_output`, `returncode`,
//!   `exception_info`;
//! * `exit`: the end (`exit_status`, `submission`) — the turn ends.
//!
//! What this reader decides: an action that did not run still has a result
//! (`returncode: -1`, `exception_info: "action was not executed"`); the -1
//! is no exit code. The message after the batch says why it did not run: a
//! `UserRejection` — rejected; a `UserInterruption` — cancelled; an `exit`
//! with `Submitted` or a `UserNewTask` — the batch's first such action is
//! the command that submitted, which ran (mini-swe-agent submits only on
//! exit code 0) though its output was not kept: it is done, its exit code
//! unknown; anything else — an error. An action whose run raised (a
//! timeout: `exception_info` set, `returncode: -1`) is an error without an
//! exit code.
//!
//! SWE-agent (`{trajectory, history, info}`): the problem statement (the
//! history's first user message that is no demonstration) is the turn's
//! prompt; each `trajectory` step is its thought and one call (`action`,
//! id `step-N`) whose result is the observation, its duration the step's
//! `execution_time`; the log has no exit code, so how a step ended is
//! unknown; `info.exit_status` and `submission` end the run.

use serde_json::{Map, Value};

use crate::agents::read::{Out, Translate};
use crate::agents::turns::{self, Turns};
use crate::wire::payload::{
    Json, MessageSource, PartContent, ResultError, ResultPart,
    TextOrObjects, ToolCall, ToolResult, TurnEndReason, UserMessage,
};
use crate::wire::{EventKind, Origin};

/// The `exception_info` of an action that did not run.
pub const NOT_EXECUTED: &str = "action was not executed";

/// The tool of mini-swe-agent's actions (its one tool).
pub const BASH: &str = "bash";

/// The tool of SWE-agent's steps (the step's `action`: a command line).
pub const ACTION: &str = "action";

/// Whether `v` is a trajectory of either shape.
pub fn is_trajectory(v: &Value) -> bool {
    is_mini(v) || is_swe_agent(v)
}

/// mini-swe-agent's: `messages`, and its `trajectory_format` or
/// `info.mini_version`.
pub fn is_mini(v: &Value) -> bool {
    v.get("messages").is_some_and(Value::is_array) && is_mini_root(v)
}

/// A mini-swe-agent trajectory's members (its messages maybe apart): its
/// `trajectory_format` or `info.mini_version`.
fn is_mini_root(v: &Value) -> bool {
    let Some(o) = v.as_object() else {
        return false;
    };
    let format = o.get("trajectory_format").and_then(Value::as_str);
    let version = o.get("info").and_then(|i| i.get("mini_version")).and_then(Value::as_str);
    format.is_some_and(|f| f.starts_with("mini-swe-agent")) || version.is_some()
}

/// SWE-agent's: `trajectory` and `history` lists, an `info` object.
fn is_swe_agent(v: &Value) -> bool {
    let Some(o) = v.as_object() else {
        return false;
    };
    o.get("trajectory").is_some_and(Value::is_array)
        && o.get("history").is_some_and(Value::is_array)
        && o.get("info").is_some_and(Value::is_object)
}

/// Reads a trajectory into records.
#[derive(Debug)]
pub struct Reader {
    w: Turns,
    /// Where a mini-swe-agent trajectory's messages are.
    m: Messages,
}

/// Where a mini-swe-agent trajectory's messages are.
#[derive(Debug, Default)]
struct Messages {
    /// The next message's index.
    next: usize,
    /// Calls without an id (a text-based model's, a human command's),
    /// answered in order by `user` results.
    unnamed: std::collections::VecDeque<String>,
    /// Whether the batch had an action that did not run yet.
    batch_not_run: bool,
    /// Results (with their index) not read yet: how their batch ended is
    /// known from the first message after them that is no result.
    results: Vec<(usize, Value)>,
}

impl Default for Reader {
    fn default() -> Reader {
        Reader {
            w: Turns::new(super::NAME),
            m: Messages::default(),
        }
    }
}

impl Translate for Reader {
    fn line(&mut self, v: &Value, origin: Origin, out: &mut Out) {
        if is_mini(v) {
            self.mini(v, origin, out);
        } else if is_mini_root(v) {
            // A trajectory read as a stream: its messages come next.
            self.mini_root(v);
        } else if is_swe_agent(v) {
            self.swe_agent(v, origin, out);
        } else {
            let why = "not a mini-swe-agent or SWE-agent trajectory".to_string();
            self.w.diagnostic(why, v, origin, out);
        }
    }

    /// A message of a mini-swe-agent trajectory read as a stream.
    fn entry(&mut self, m: Value, origin: Origin, out: &mut Out) {
        self.message(m, origin, out);
    }

    fn finish(&mut self, out: &mut Out) {
        self.results(After::Other, Origin::default(), out);
        self.w.finish(out);
    }
}

/// What follows a batch of actions (before the next one): why an action
/// of it did not run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum After {
    Rejection,
    Interruption,
    /// The agent submitted (an `exit` Submitted, or a new task typed then).
    Submitted,
    Other,
}

/// A message's text: a string, or its `{text}` parts.
fn text_of(content: Option<&Value>) -> String {
    match content {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts.iter().filter_map(|p| p.get("text")?.as_str()).collect(),
        _ => String::new(),
    }
}

fn str_at<'a>(o: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    o.get(key).and_then(Value::as_str)
}

impl Reader {
    fn learn(&mut self, key: &str, value: Option<&str>) {
        if let Some(v) = value.filter(|v| !v.is_empty())
            && !self.w.knows(key, v)
        {
            self.w.learn(key, Value::from(v));
        }
    }

    /// A message of the turn from the user (`source`: who else wrote it).
    fn said(&mut self, text: String, source: Option<&str>, origin: Origin, out: &mut Out) {
        if !self.w.turn_open {
            self.w.start_turn(origin, out);
        }
        let data = UserMessage {
            turn: Some(self.w.turn),
            content: TextOrObjects::Objects(vec![Some(turns::block("text", text))]),
            source: source.map(|s| MessageSource {
                kind: Some(s.into()),
                ..MessageSource::default()
            }),
            ..UserMessage::default()
        };
        self.w.emit(EventKind::UserMessage, data, origin, out);
    }

    fn call(&mut self, id: &str, tool: &str, command: &str, origin: Origin, out: &mut Out) {
        let data = ToolCall {
            turn: Some(self.w.turn),
            step: Some(self.w.step),
            call_id: Some(id.to_string()),
            name: Some(tool.to_string()),
            arguments: Some(Value::String(serde_json::json!({ "command": command }).to_string())),
        };
        self.w.emit(EventKind::ToolCall, data, origin, out);
    }

    /// The run's end: what it says (a context line), and the turn's end.
    fn exit(&mut self, status: &str, submission: &str, completed: bool, origin: Origin, out: &mut Out) {
        let mut text = status.to_string();
        if !submission.trim().is_empty() {
            text = format!("{text}\n{}", submission.trim_end());
        }
        self.said(text, Some("exit"), origin, out);
        let kind = match status {
            _ if completed => "completed",
            "KeyboardInterrupt" => "aborted",
            _ => "error",
        };
        let reason = TurnEndReason {
            kind: Some(kind.into()),
            message: Some(status.to_string()),
            ..TurnEndReason::default()
        };
        self.w.end_turn_for(reason, origin, out);
    }

    // ---- mini-swe-agent ----

    /// A whole trajectory: its members, then each message.
    fn mini(&mut self, doc: &Value, origin: Origin, out: &mut Out) {
        self.mini_root(doc);
        for m in doc.get("messages").and_then(Value::as_array).map_or(&[][..], Vec::as_slice) {
            self.message(m.clone(), origin, out);
        }
        self.results(After::Other, origin, out);
    }

    /// What a trajectory's members say: the version, model and directory.
    fn mini_root(&mut self, doc: &Value) {
        let info = doc.get("info");
        let config = info.and_then(|i| i.get("config"));
        let at = |v: Option<&Value>, k: &str| v.and_then(|v| v.get(k)).and_then(Value::as_str).map(str::to_string);
        self.learn("version", at(info, "mini_version").as_deref());
        self.learn("model", at(config.and_then(|c| c.get("model")), "model_name").as_deref());
        self.learn("cwd", at(config.and_then(|c| c.get("environment")), "cwd").as_deref());
    }

    /// One message: a result is held until the message after its batch;
    /// any other reads the results held (it says how their batch ended),
    /// then itself.
    fn message(&mut self, m: Value, origin: Origin, out: &mut Out) {
        let i = self.m.next;
        self.m.next += 1;
        if is_result(&m) {
            self.m.results.push((i, m));
            return;
        }
        self.results(after(&m), origin, out);
        let Some(o) = m.as_object() else {
            self.w.diagnostic(format!("message {i} is not an object"), &m, origin, out);
            return;
        };
        let empty = Map::new();
        let extra = o.get("extra").and_then(Value::as_object).unwrap_or(&empty);
        if let Some(t) = extra.get("timestamp").and_then(Value::as_f64) {
            self.w.saw((t * 1000.0) as i64);
        }
        let actions = extra.get("actions").and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
        match str_at(o, "role") {
            Some("system") => {}
            Some("assistant") => {
                if !self.w.turn_open {
                    self.w.start_turn(origin, out);
                }
                self.w.step += 1;
                if let Some(u) = extra.get("response").and_then(|r| r.get("usage")) {
                    self.count(u);
                }
                let mut blocks = Vec::new();
                if let Some(r) = str_at(o, "reasoning_content").filter(|r| !r.is_empty()) {
                    blocks.push(Some(turns::block("reasoning", r.to_string())));
                }
                let text = text_of(o.get("content"));
                if !text.is_empty() {
                    blocks.push(Some(turns::block("text", text)));
                }
                self.w.answer(blocks, origin, out);
                self.m.batch_not_run = false;
                self.actions(i, actions, origin, out);
            }
            Some("user") => {
                let text = text_of(o.get("content"));
                match str_at(extra, "interrupt_type") {
                    None if self.w.turn == 0 => self.w.prompt(text, origin, out),
                    Some("UserNewTask") => self.w.prompt(text, origin, out),
                    Some("FormatError") => self.said(text, Some("format error"), origin, out),
                    _ => self.said(text, None, origin, out),
                }
                if !actions.is_empty() {
                    self.m.batch_not_run = false;
                    self.actions(i, actions, origin, out);
                }
            }
            Some("exit") => {
                let status = str_at(extra, "exit_status").unwrap_or_default();
                let submission = str_at(extra, "submission").map_or_else(|| text_of(o.get("content")), str::to_string);
                self.exit(status, &submission, status == "Submitted", origin, out);
            }
            _ => self.w.diagnostic(format!("message {i} has no role deck knows"), &m, origin, out),
        }
    }

    /// The results held, their batch ended as `after` says.
    fn results(&mut self, after: After, origin: Origin, out: &mut Out) {
        for (i, m) in std::mem::take(&mut self.m.results) {
            let Some(o) = m.as_object() else {
                continue;
            };
            let empty = Map::new();
            let extra = o.get("extra").and_then(Value::as_object).unwrap_or(&empty);
            if let Some(t) = extra.get("timestamp").and_then(Value::as_f64) {
                self.w.saw((t * 1000.0) as i64);
            }
            let id = match str_at(o, "role") {
                Some("tool") => match str_at(o, "tool_call_id") {
                    Some(id) => id.to_string(),
                    None => {
                        self.w.diagnostic(format!("tool message {i} names no call"), &m, origin, out);
                        continue;
                    }
                },
                _ => match self.m.unnamed.pop_front() {
                    Some(id) => id,
                    None => {
                        self.w.diagnostic(format!("result {i} answers no action"), &m, origin, out);
                        continue;
                    }
                },
            };
            let mut batch_not_run = self.m.batch_not_run;
            self.result(&id, o, extra, after, &mut batch_not_run, origin, out);
            self.m.batch_not_run = batch_not_run;
        }
    }

    /// A message's actions, as `bash` calls.
    fn actions(&mut self, i: usize, actions: &[Value], origin: Origin, out: &mut Out) {
        for (j, a) in actions.iter().enumerate() {
            let command = a.get("command").and_then(Value::as_str).unwrap_or_default();
            let id = match a.get("tool_call_id").and_then(Value::as_str) {
                Some(id) => id.to_string(),
                None => {
                    let id = format!("m{i}.{j}");
                    self.m.unnamed.push_back(id.clone());
                    id
                }
            };
            self.call(&id, BASH, command, origin, out);
        }
    }

    /// An action's result (`after`: what follows its batch).
    #[allow(clippy::too_many_arguments)]
    fn result(
        &mut self,
        id: &str,
        o: &Map<String, Value>,
        extra: &Map<String, Value>,
        after: After,
        batch_not_run: &mut bool,
        origin: Origin,
        out: &mut Out,
    ) {
        let returncode = extra.get("returncode").and_then(Value::as_i64);
        let exception = str_at(extra, "exception_info").unwrap_or_default();
        let output = str_at(extra, "raw_output").map_or_else(|| text_of(o.get("content")), str::to_string);
        let mut exit_code = None;
        let mut outcome = None;
        let mut error = None;
        let mut ended = None;
        let (text, is_error) = if exception == NOT_EXECUTED {
            let first = !std::mem::replace(batch_not_run, true);
            let (how, is_error) = match after {
                After::Rejection => ("rejected", true),
                After::Interruption => ("interrupted", true),
                After::Submitted if first => ("submitted", false),
                _ => ("not run", true),
            };
            ended = Some(how);
            match how {
                "rejected" => outcome = Some("rejected".to_string()),
                "interrupted" => {
                    error = Some(ResultError {
                        code: Some("ABORTED".into()),
                        ..ResultError::default()
                    });
                }
                _ => {}
            }
            (if is_error { exception.to_string() } else { String::new() }, is_error)
        } else if !exception.is_empty() {
            let text = if output.is_empty() { exception.to_string() } else { format!("{output}\n{exception}") };
            (text, true)
        } else {
            exit_code = returncode;
            (output, false)
        };
        let part = ResultPart::answering(id, PartContent::Text(text.into()), is_error);
        let mut data = ToolResult::of(self.w.turn, self.w.step, part);
        data.exit_code = exit_code;
        data.outcome = outcome;
        data.error = error;
        let mut meta = Map::new();
        if let Some(code) = exit_code {
            meta.insert("exitCode".into(), code.into());
        }
        if let Some(how) = ended {
            meta.insert("ended".into(), how.into());
        }
        data.meta = (!meta.is_empty()).then_some(Json::Tree(Value::Object(meta)));
        // At no time: its `timestamp` is when the result was written, and
        // the call's when the model answered — the wait for the user's
        // confirmation between them is no run of the command.
        self.w.emit_at(EventKind::ToolResult, data, 0, origin, out);
    }

    /// Add a response's `usage` (OpenAI's names, as litellm keeps them).
    fn count(&mut self, u: &Value) {
        let n = |p: &str| u.pointer(p).and_then(Value::as_u64);
        self.w.count([
            n("/prompt_tokens"),
            n("/completion_tokens"),
            n("/prompt_tokens_details/cached_tokens"),
            n("/completion_tokens_details/reasoning_tokens"),
        ]);
    }

    // ---- SWE-agent ----

    fn swe_agent(&mut self, doc: &Value, origin: Origin, out: &mut Out) {
        let info = doc.get("info");
        let field = |k: &str| info.and_then(|i| i.get(k)).and_then(Value::as_str).unwrap_or_default();
        // `replay_config`: the run's config, as JSON text (older: an object).
        let replay = match doc.get("replay_config") {
            Some(Value::String(s)) => serde_json::from_str(s).unwrap_or(Value::Null),
            Some(v) => v.clone(),
            None => Value::Null,
        };
        let id = replay.pointer("/problem_statement/id").and_then(Value::as_str);
        if self.w.session.is_none()
            && let Some(id) = id
        {
            self.w.session = Some(id.to_string());
            self.w.learn("id", Value::from(id));
        }
        self.learn("version", Some(field("swe_agent_version")));
        self.learn("model", replay.pointer("/agent/model/name").and_then(Value::as_str));
        let history = doc.get("history").and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
        let task = history.iter().find(|h| {
            h.get("role").and_then(Value::as_str) == Some("user") && h.get("is_demo") != Some(&Value::Bool(true))
        });
        match task {
            Some(h) => self.w.prompt(text_of(h.get("content")), origin, out),
            None => self.w.start_turn(origin, out),
        }
        let steps = doc.get("trajectory").and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
        for (n, s) in steps.iter().enumerate() {
            self.w.step += 1;
            let get = |k: &str| s.get(k).and_then(Value::as_str).unwrap_or_default();
            let thought = if get("thought").is_empty() { get("response") } else { get("thought") };
            if !thought.is_empty() {
                self.w.answer(vec![Some(turns::block("text", thought.to_string()))], origin, out);
            }
            let id = format!("step-{}", n + 1);
            self.call(&id, ACTION, get("action"), origin, out);
            let part = ResultPart::answering(&id, PartContent::Text(get("observation").to_string().into()), false);
            let mut data = ToolResult::of(self.w.turn, self.w.step, part);
            data.outcome = Some("unknown".into());
            data.duration_ms = s.get("execution_time").and_then(Value::as_f64).map(|t| (t * 1000.0).round() as i64);
            self.w.emit(EventKind::ToolResult, data, origin, out);
        }
        if let Some(stats) = info.and_then(|i| i.get("model_stats")) {
            let n = |k: &str| stats.get(k).and_then(Value::as_u64);
            self.w.count([n("tokens_sent"), n("tokens_received"), None, None]);
        }
        let status = field("exit_status");
        if status.is_empty() {
            return;
        }
        self.exit(status, field("submission"), status.starts_with("submitted"), origin, out);
    }
}

/// Whether a message is an action's result (`tool`, or a text-based
/// model's `user` result with its `returncode`).
fn is_result(m: &Value) -> bool {
    let role = m.get("role").and_then(Value::as_str);
    let extra = m.get("extra");
    role == Some("tool") || role == Some("user") && extra.is_some_and(|e| e.get("returncode").is_some())
}

/// How the batch before `m` (the first message after it that is no result)
/// ended, as `m` says.
fn after(m: &Value) -> After {
    let role = m.get("role").and_then(Value::as_str);
    let extra = m.get("extra");
    match (role, extra.and_then(|e| e.get("interrupt_type")).and_then(Value::as_str)) {
        (Some("user"), Some("UserRejection")) => After::Rejection,
        (Some("user"), Some("UserInterruption")) => After::Interruption,
        (Some("user"), Some("UserNewTask")) => After::Submitted,
        (Some("exit"), _) if extra.and_then(|e| e.get("exit_status")).and_then(Value::as_str) == Some("Submitted") => {
            After::Submitted
        }
        _ => After::Other,
    }
}

#[cfg(test)]
mod tests;
