//! What the answers of an ACP trace tell the reader: the agent's name and
//! version (`initialize`), the session, model and modes (`session/new`),
//! a turn's end (`session/prompt`), the decision on a permission request,
//! and what the client answered about terminals and files (kept for the
//! calls that use them).

use serde_json::Value;

use super::calls::Peer;
use super::{Asked, Reader};
use crate::agents::read::Out;
use crate::wire::payload::ApprovalDecided;
use crate::wire::{EventKind, Origin};

impl Reader {
    /// The answer to a request `asker` sent.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn answer(
        &mut self,
        asker: Peer,
        id: &str,
        asked: &Asked,
        result: Option<&Value>,
        error: Option<&Value>,
        origin: Origin,
        out: &mut Out,
    ) {
        let result = result.filter(|_| error.is_none());
        match (asker, asked.method.as_str(), result) {
            (Peer::Client, "initialize", Some(r)) => {
                let info = r.get("agentInfo");
                let mut put = |key: &str, v: Option<&Value>| {
                    if let Some(v) = v.filter(|v| !v.is_null()) {
                        self.fields.insert(key.into(), v.clone());
                    }
                };
                put("agentName", info.and_then(|i| i.get("name")));
                put("agentTitle", info.and_then(|i| i.get("title")));
                put("version", info.and_then(|i| i.get("version")));
                put("protocolVersion", r.get("protocolVersion"));
            }
            (Peer::Client, "session/new", Some(r)) => {
                let sid = r.get("sessionId").and_then(Value::as_str).map(str::to_string);
                if self.session.is_none() {
                    self.session = sid.clone();
                }
                if let Some(s) = sid {
                    self.fields.insert("id".into(), s.into());
                }
                let models = r.get("models");
                if let Some(m) = models.and_then(|m| m.get("currentModelId")) {
                    self.fields.insert("model".into(), m.clone());
                }
                let modes = r.get("modes");
                if let Some(m) = modes.and_then(|m| m.get("currentModeId")) {
                    self.fields.insert("mode".into(), m.clone());
                }
                if let Some(list) = modes.and_then(|m| m.get("availableModes")).and_then(Value::as_array) {
                    let ids: Vec<Value> = list.iter().filter_map(|m| m.get("id").cloned()).collect();
                    self.fields.insert("modes".into(), ids.into());
                }
            }
            (Peer::Client, "session/prompt", _) => {
                let Some(turn) = self.prompts.remove(id) else {
                    return;
                };
                self.flush_text(origin, out);
                let reason = match result.and_then(|r| r.get("stopReason")).and_then(Value::as_str) {
                    Some("end_turn") => "completed".to_string(),
                    Some(other) => other.to_string(),
                    None if error.is_some() => "error".to_string(),
                    None => "completed".to_string(),
                };
                if turn == self.turn {
                    let message = error.and_then(|e| e.get("message")).and_then(Value::as_str);
                    self.end_turn_with(&reason, message, origin, out);
                }
            }
            (Peer::Agent, "session/request_permission", _) => {
                let outcome = result.and_then(|r| r.get("outcome"));
                let decision = match outcome.and_then(|o| o.get("outcome")).and_then(Value::as_str) {
                    Some("selected") => {
                        let chosen = outcome.and_then(|o| o.get("optionId")).and_then(Value::as_str);
                        let kind = asked
                            .params
                            .get("options")
                            .and_then(Value::as_array)
                            .and_then(|opts| {
                                opts.iter().find(|o| o.get("optionId").and_then(Value::as_str) == chosen)
                            })
                            .and_then(|o| o.get("kind"))
                            .and_then(Value::as_str);
                        match kind {
                            Some(k) => crate::session::option_outcome(k),
                            None => format!("selected {}", chosen.unwrap_or("?")),
                        }
                    }
                    Some("cancelled") => "cancelled".to_string(),
                    _ if error.is_some() => "error".to_string(),
                    _ => "decided".to_string(),
                };
                let data = ApprovalDecided {
                    id: Some(format!("permission-{id}")),
                    outcome: Some(decision),
                };
                self.emit(EventKind::ApprovalDecided, data, origin, out);
            }
            (Peer::Agent, "terminal/create", Some(r)) => self.calls.terminal_created(&asked.params, r),
            (Peer::Agent, "terminal/output", Some(r)) => self.calls.terminal_output(&asked.params, r),
            (Peer::Agent, "terminal/wait_for_exit", Some(r)) => self.calls.terminal_exit(&asked.params, r),
            (Peer::Agent, "fs/read_text_file", Some(r)) => self.calls.read(&asked.params, r),
            _ => {}
        }
    }
}
