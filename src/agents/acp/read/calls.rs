//! The tool calls of an ACP session as the recording tells them: each
//! merged by `toolCallId` from its `tool_call` / `tool_call_update`s, and
//! what the client answered about the terminals and files they use — or,
//! better, what it saw of a terminal itself (a `seen` line of `deck acp`'s:
//! the output kept and how the command exited, whether or not the agent
//! asked). A terminal no call names (in a `terminal` content item) gets a
//! call of its own, `terminal:<id>` ([`Calls::own_call`]).

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use serde::Serialize;
use serde::ser::SerializeMap;
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

use crate::wire::payload::Json;

/// Who sent a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Peer {
    Client,
    Agent,
}

impl Peer {
    pub(super) fn other(self) -> Peer {
        match self {
            Peer::Client => Peer::Agent,
            Peer::Agent => Peer::Client,
        }
    }
}

/// Whether a `session/update`'s params announce a tool call (`tool_call`):
/// announcements of one call come in a row, so they do not flush it.
pub(super) fn is_announcement(params: &Value) -> bool {
    params.get("update").and_then(|u| u.get("sessionUpdate")).and_then(Value::as_str) == Some("tool_call")
}

#[derive(Debug, Default)]
struct Call {
    /// The merged ACP tool call (without `sessionUpdate`).
    state: Map<String, Value>,
    /// Its `rawOutput` as the line's text, when its reader kept it so (a
    /// large output not built as a tree to be written again: Grok
    /// Build's); the state then has none.
    raw_output: Option<Box<RawValue>>,
    /// Its `tool/call` went out.
    sent: bool,
    /// Its `tool/result` went out.
    done: bool,
    /// A `tool_call` announced it (an update may come first).
    announced: bool,
    /// When it was first heard of (the reader's time then): its
    /// `tool/call` carries it, however late it goes out.
    since: i64,
}

/// The calls, terminals and files of one session.
#[derive(Debug, Default)]
pub(super) struct Calls {
    calls: HashMap<String, Call>,
    /// Calls announced whose `tool/call` has not gone out, in order.
    waiting: Vec<String>,
    /// terminalId → what the client said of it.
    terminals: HashMap<String, Map<String, Value>>,
    /// Terminals created, in order.
    created: Vec<String>,
    /// Terminals a call names in its content.
    tied: HashSet<String>,
    /// Terminals deck saw end (a `seen` line).
    ended: HashSet<String>,
    /// Terminals given a call of their own.
    owned: HashSet<String>,
    /// path → `{read: {line, limit, content}, written}`.
    files: HashMap<String, Map<String, Value>>,
    /// Where in `_meta` the agent names its tool, first
    /// ([`super::Reader::tool_names_at`]).
    pub(super) name_at: Option<(&'static str, &'static str)>,
}

impl Calls {
    /// Merge a `tool_call` / `tool_call_update` (its `rawOutput` apart as
    /// text, when `raw_output`); the call's id when its `tool/call` can go
    /// out now (it has its input).
    pub(super) fn upsert(&mut self, u: Value, raw_output: Option<Box<RawValue>>, now: i64) -> Option<String> {
        let id = u.get("toolCallId").and_then(Value::as_str)?.to_string();
        let Value::Object(fields) = u else {
            return None;
        };
        let call = self.calls.entry(id.clone()).or_insert_with(|| Call {
            since: now,
            ..Call::default()
        });
        call.announced |= fields.get("sessionUpdate").and_then(Value::as_str) == Some("tool_call");
        if let Some(items) = fields.get("content").and_then(Value::as_array) {
            let named = items
                .iter()
                .filter(|i| i.get("type").and_then(Value::as_str) == Some("terminal"))
                .filter_map(|i| i.get("terminalId").and_then(Value::as_str));
            self.tied.extend(named.map(str::to_string));
        }
        // The update's fields move into the call's state (taken whole, not
        // copied: a result's output is most of a log's bytes).
        for (k, v) in fields {
            if k == "sessionUpdate" {
                continue;
            }
            match (call.state.get_mut(&k), v) {
                (Some(Value::Object(old)), Value::Object(new)) if k == "_meta" => {
                    for (mk, mv) in new {
                        old.insert(mk, mv);
                    }
                }
                (_, v) => {
                    if k == "rawOutput" {
                        call.raw_output = None;
                    }
                    call.state.insert(k, v);
                }
            }
        }
        if raw_output.is_some() {
            call.state.shift_remove("rawOutput");
            call.raw_output = raw_output;
        }
        if call.sent {
            return None;
        }
        let has_input = match call.state.get("rawInput") {
            Some(Value::Object(o)) => !o.is_empty(),
            Some(Value::Null) | None => false,
            Some(_) => true,
        };
        if has_input {
            return Some(id);
        }
        if !self.waiting.contains(&id) {
            self.waiting.push(id);
        }
        None
    }

    /// Calls whose `tool/call` has not gone out: those announced, or
    /// with `all` also those only updated so far.
    pub(super) fn waiting(&self, all: bool) -> Vec<String> {
        self.waiting
            .iter()
            .filter(|id| all || self.calls.get(*id).is_some_and(|c| c.announced))
            .cloned()
            .collect()
    }

    /// The call's name: the agent's own tool name when its `_meta` says
    /// one, else its kind.
    pub(super) fn name(&self, id: &str) -> Option<String> {
        let state = &self.calls.get(id)?.state;
        let meta = state.get("_meta").and_then(Value::as_object);
        let agents_own = self.name_at.and_then(|(key, field)| {
            meta?.get(key)?.get(field)?.as_str()
        });
        let own = agents_own.or_else(|| {
            meta?.values().find_map(|v| v.get("toolName").and_then(Value::as_str))
        });
        Some(
            own.or_else(|| state.get("kind").and_then(Value::as_str))
                .unwrap_or("other")
                .to_string(),
        )
    }

    /// Whether anything was heard of the call.
    pub(super) fn knows(&self, id: &str) -> bool {
        self.calls.contains_key(id)
    }

    /// The call's name, arguments (the merged tool call, as JSON text)
    /// and the time it was first heard of, once: `None` when its
    /// `tool/call` went out.
    pub(super) fn take_call(&mut self, id: &str) -> Option<(String, String, i64)> {
        let name = self.name(id)?;
        let call = self.calls.get_mut(id)?;
        if call.sent {
            return None;
        }
        call.sent = true;
        self.waiting.retain(|w| w != id);
        let args = serde_json::to_string(&WithRaw(&call.state, call.raw_output.as_deref())).unwrap_or_default();
        Some((name, args, call.since))
    }

    /// The call's result, once it reached `completed` or `failed`: its
    /// content's text (else `rawOutput` when that is text), whether it
    /// failed, and the meta the presenters read (`{acp: {toolCall,
    /// terminals, files}}`).
    pub(super) fn settled(&mut self, id: &str) -> Option<(String, bool, Json<'static>)> {
        let call = self.calls.get_mut(id)?;
        let status = call.state.get("status").and_then(Value::as_str);
        if call.done || !matches!(status, Some("completed" | "failed")) {
            return None;
        }
        call.done = true;
        let is_error = status == Some("failed");
        let state = &call.state;
        let items = state.get("content").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
        let texts: Vec<&str> = items
            .iter()
            .filter(|i| i.get("type").and_then(Value::as_str) == Some("content"))
            .filter_map(|i| i.get("content").and_then(|c| c.get("text")).and_then(Value::as_str))
            .collect();
        let mut text = texts.join("\n");
        if text.is_empty() {
            if let Some(raw) = state.get("rawOutput").and_then(Value::as_str) {
                text = raw.to_string();
            } else if let Some(raw) = call.raw_output.as_deref().filter(|r| r.get().starts_with('"')) {
                text = serde_json::from_str(raw.get()).unwrap_or_default();
            }
        }
        let terminals: Vec<Value> = items
            .iter()
            .filter(|i| i.get("type").and_then(Value::as_str) == Some("terminal"))
            .filter_map(|i| i.get("terminalId").and_then(Value::as_str))
            .map(|t| {
                let mut info = self.terminals.get(t).cloned().unwrap_or_default();
                info.insert("terminalId".into(), t.into());
                Value::Object(info)
            })
            .collect();
        let mut paths: Vec<&str> = items
            .iter()
            .filter(|i| i.get("type").and_then(Value::as_str) == Some("diff"))
            .filter_map(|i| i.get("path").and_then(Value::as_str))
            .collect();
        if let Some(locs) = state.get("locations").and_then(Value::as_array) {
            paths.extend(locs.iter().filter_map(|l| l.get("path").and_then(Value::as_str)));
        }
        let files: Map<String, Value> = paths
            .iter()
            .filter_map(|p| Some((p.to_string(), Value::Object(self.files.get(*p)?.clone()))))
            .collect();
        // The call is done: its state goes into the result whole (not
        // copied), and what is asked of it later (its name) stays.
        let call = self.calls.get_mut(id)?;
        let mut state = std::mem::take(&mut call.state);
        for key in ["kind", "title", "status", "_meta"] {
            if let Some(v) = state.get(key) {
                call.state.insert(key.into(), v.clone());
            }
        }
        // Its text blocks are the result's content (joined as above): not
        // kept twice. The presenters read the text from the result.
        if let Some(Value::Array(items)) = state.get_mut("content") {
            items.retain(|i| i.get("type").and_then(Value::as_str) != Some("content") || i.get("content").and_then(|c| c.get("text")).is_none());
        }
        let meta = match call.raw_output.take() {
            None => {
                let mut acp = Map::new();
                acp.insert("toolCall".into(), Value::Object(state));
                acp.insert("terminals".into(), Value::Array(terminals));
                acp.insert("files".into(), Value::Object(files));
                let mut meta = Map::new();
                meta.insert("acp".into(), Value::Object(acp));
                Json::Tree(Value::Object(meta))
            }
            // The output written as it was read, not built and escaped again.
            Some(raw) => {
                let meta = Meta {
                    acp: AcpMeta {
                        tool_call: WithRaw(&state, Some(&raw)),
                        terminals,
                        files,
                    },
                };
                // Written by serde_json: not checked again.
                Json::Text(Cow::Owned(serde_json::value::to_raw_value(&meta).ok()?))
            }
        };
        Some((text, is_error, meta))
    }

    /// `terminal/create` answered: the command it runs, by its terminal id.
    pub(super) fn terminal_created(&mut self, params: &Value, result: &Value) {
        let Some(t) = result.get("terminalId").and_then(Value::as_str) else {
            return;
        };
        if !self.created.iter().any(|c| c == t) {
            self.created.push(t.to_string());
        }
        let info = self.terminals.entry(t.to_string()).or_default();
        for key in ["command", "args", "cwd"] {
            if let Some(v) = params.get(key).filter(|v| !v.is_null()) {
                info.insert(key.into(), v.clone());
            }
        }
    }

    /// What the client saw of a terminal that ended (`{terminalId, output,
    /// truncated, exitStatus}`): it stands over what it answered before.
    /// The terminal's id.
    pub(super) fn terminal_seen(&mut self, seen: &Value) -> Option<String> {
        let t = seen.get("terminalId").and_then(Value::as_str)?;
        let info = self.terminals.entry(t.to_string()).or_default();
        for key in ["output", "truncated", "exitStatus"] {
            match seen.get(key).filter(|v| !v.is_null()) {
                Some(v) => info.insert(key.into(), v.clone()),
                None => info.remove(key),
            };
        }
        self.ended.insert(t.to_string());
        Some(t.to_string())
    }

    /// The terminals created that no call names and that have no call of
    /// their own yet.
    pub(super) fn untied(&self) -> Vec<String> {
        self.created
            .iter()
            .filter(|t| !self.tied.contains(*t) && !self.owned.contains(*t))
            .cloned()
            .collect()
    }

    /// Whether `t` was created and no call names it (yet).
    pub(super) fn is_untied(&self, t: &str) -> bool {
        self.created.iter().any(|c| c == t) && !self.tied.contains(t) && !self.owned.contains(t)
    }

    /// A call of its own for the terminal `t`, as a `tool_call` update
    /// (the command as its title and input, the terminal as its content;
    /// `completed` once deck saw it end).
    pub(super) fn own_call(&mut self, t: &str) -> Value {
        self.owned.insert(t.to_string());
        let info = self.terminals.get(t).cloned().unwrap_or_default();
        let command = info.get("command").and_then(Value::as_str).unwrap_or_default();
        let args: Vec<&str> = info
            .get("args")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let title = std::iter::once(command).chain(args).collect::<Vec<_>>().join(" ");
        let mut input = Map::new();
        for key in ["command", "args", "cwd"] {
            if let Some(v) = info.get(key) {
                input.insert(key.into(), v.clone());
            }
        }
        let id = format!("terminal:{t}");
        let status = if self.ended.contains(t) { "completed" } else { "in_progress" };
        json!({
            "sessionUpdate": "tool_call", "toolCallId": id, "title": title, "kind": "execute",
            "status": status, "rawInput": input, "content": [{"type": "terminal", "terminalId": t}],
        })
    }


    /// `terminal/output` answered: the output so far, and the exit status
    /// when it has one.
    pub(super) fn terminal_output(&mut self, params: &Value, result: &Value) {
        let Some(t) = params.get("terminalId").and_then(Value::as_str) else {
            return;
        };
        let info = self.terminals.entry(t.to_string()).or_default();
        for key in ["output", "truncated", "exitStatus"] {
            if let Some(v) = result.get(key).filter(|v| !v.is_null()) {
                info.insert(key.into(), v.clone());
            }
        }
    }

    /// `terminal/wait_for_exit` answered: how the command ended.
    pub(super) fn terminal_exit(&mut self, params: &Value, result: &Value) {
        let Some(t) = params.get("terminalId").and_then(Value::as_str) else {
            return;
        };
        let status = json!({"exitCode": result.get("exitCode"), "signal": result.get("signal")});
        self.terminals
            .entry(t.to_string())
            .or_default()
            .insert("exitStatus".into(), status);
    }

    /// `fs/read_text_file` answered: what the file held, from `line` on.
    pub(super) fn read(&mut self, params: &Value, result: &Value) {
        let (Some(path), Some(content)) = (
            params.get("path").and_then(Value::as_str),
            result.get("content").filter(|c| c.is_string()),
        ) else {
            return;
        };
        let read = json!({"line": params.get("line"), "limit": params.get("limit"), "content": content});
        let file = self.files.entry(path.to_string()).or_default();
        // A write before this read is older than what it read.
        file.remove("written");
        file.insert("read".into(), read);
    }

    /// `fs/write_text_file`: what the file holds now.
    pub(super) fn wrote(&mut self, params: &Value) {
        if let (Some(path), Some(content)) = (
            params.get("path").and_then(Value::as_str),
            params.get("content").filter(|c| c.is_string()),
        ) {
            self.files
                .entry(path.to_string())
                .or_default()
                .insert("written".into(), content.clone());
        }
    }
}

/// A call's state with its `rawOutput` kept as text, written as one object.
struct WithRaw<'a>(&'a Map<String, Value>, Option<&'a RawValue>);

impl Serialize for WithRaw<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len() + usize::from(self.1.is_some())))?;
        for (k, v) in self.0 {
            m.serialize_entry(k, v)?;
        }
        if let Some(raw) = self.1 {
            m.serialize_entry("rawOutput", raw)?;
        }
        m.end()
    }
}

/// A result's meta (`{acp: {toolCall, terminals, files}}`) whose call
/// keeps its output as text.
#[derive(Serialize)]
struct Meta<'a> {
    acp: AcpMeta<'a>,
}

#[derive(Serialize)]
struct AcpMeta<'a> {
    #[serde(rename = "toolCall")]
    tool_call: WithRaw<'a>,
    terminals: Vec<Value>,
    files: Map<String, Value>,
}
