//! What the client does with each message of the agent's: the answer to a
//! prompt ends the turn; requests are served (files beneath the cwd, on a
//! blocking thread within a time limit; terminals; permissions by the
//! policy or the user; once the turn is being cancelled, permission
//! requests are answered `cancelled`, as the protocol asks of a client that
//! sent `session/cancel`); anything else is answered "method not found".
//! JSON-RPC ids are compared as typed JSON values (`7` and `"7"` are two
//! requests): a request reusing the id of one still waiting for deck's
//! answer is refused ("invalid request"), and the waiting one keeps it.
//! Refusals are said to the user.

use agent_client_protocol_schema::v1 as acp;
use serde_json::{Value, json};

use super::files;
use super::protocol::Refused;
use super::protocol::{self, params as typed};
use super::terminals::{self, Spec};
use super::{AcpError, Client, Later, Policy};

/// JSON-RPC "method not found".
const NO_METHOD: i64 = -32601;
/// ACP "resource not found" (an unknown terminal), as the capture's client said it.
const NOT_FOUND: i64 = -32002;
/// JSON-RPC "invalid request": an id already in use.
const INVALID_REQUEST: i64 = -32600;

impl Client {
    /// One message of the agent's (already traced).
    pub(super) async fn handle(&mut self, v: Value) -> Result<(), AcpError> {
        let id = v.get("id").filter(|i| !i.is_null()).cloned();
        let Some(method) = v.get("method").and_then(Value::as_str).map(str::to_string) else {
            // An answer: the prompt's ends the turn.
            if let (Some(p), Some(i)) = (self.prompt, id.as_ref().and_then(Value::as_u64))
                && p == i
            {
                self.prompt = None;
                let stop = v.pointer("/result/stopReason").and_then(Value::as_str);
                let stop = match (stop, v.pointer("/error/message").and_then(Value::as_str)) {
                    (Some(s), _) => s.to_string(),
                    (None, Some(e)) => format!("error: {e}"),
                    (None, None) => "?".to_string(),
                };
                // Permission requests of the turn are moot now.
                self.cancel_permissions().await?;
                self.ended.stops.push(stop);
            }
            return Ok(());
        };
        let params = v.get("params").cloned().unwrap_or(Value::Null);
        let Some(id) = id else {
            // A notification (session/update): the trace has drawn it.
            return Ok(());
        };
        let key = id_key(&id);
        if !self.pending.insert(key.clone()) {
            // The id of a request still waiting: the waiting one keeps it.
            let message = format!("duplicate id {key}: a request with this id is still waiting for an answer");
            self.notice(&format!("refused {method}: {message}")).await;
            let error = json!({"code": INVALID_REQUEST, "message": message});
            return self.send(json!({"jsonrpc": "2.0", "id": id, "error": error})).await;
        }
        let m = method.as_str();
        let answer = match m {
            "fs/read_text_file" => {
                let r = match typed::<acp::ReadTextFileRequest>(m, &params) {
                    Ok(p) => {
                        let root = self.root.clone();
                        files::within(files::FILE_TIME, move || files::read(&root, &p)).await
                    }
                    Err(e) => Err(e),
                };
                self.file(m, r).await
            }
            "fs/write_text_file" => {
                let r = match typed::<acp::WriteTextFileRequest>(m, &params) {
                    Ok(p) => {
                        let root = self.root.clone();
                        files::within(files::FILE_TIME, move || files::write(&root, &p)).await
                    }
                    Err(e) => Err(e),
                };
                self.file(m, r).await
            }
            "terminal/create" => match typed::<acp::CreateTerminalRequest>(m, &params) {
                Ok(p) => self.create_terminal(p).await,
                Err(e) => Err(e),
            },
            "terminal/output" => typed::<acp::TerminalOutputRequest>(m, &params).and_then(|p| {
                let t = &*p.terminal_id.0;
                self.terminals.output(t).ok_or_else(|| unknown(t))
            }),
            "terminal/wait_for_exit" => match typed::<acp::WaitForTerminalExitRequest>(m, &params) {
                Ok(p) => match self.terminals.exit(&p.terminal_id.0) {
                    Some(exit) => {
                        // Answered when it exits, without holding the session up.
                        let tx = self.later_tx.clone();
                        tokio::spawn(async move {
                            let e = protocol::exited(terminals::wait(exit).await);
                            let msg = json!({"jsonrpc": "2.0", "id": id, "result": e});
                            let _ = tx.send(Later::Answer { id, msg }).await;
                        });
                        return Ok(());
                    }
                    None => Err(unknown(&p.terminal_id.0)),
                },
                Err(e) => Err(e),
            },
            "terminal/kill" => typed::<acp::KillTerminalRequest>(m, &params).and_then(|p| {
                let t = &*p.terminal_id.0;
                if self.terminals.kill(t) { Ok(protocol::killed()) } else { Err(unknown(t)) }
            }),
            "terminal/release" => typed::<acp::ReleaseTerminalRequest>(m, &params).and_then(|p| {
                let t = &*p.terminal_id.0;
                if self.terminals.release(t) { Ok(protocol::released()) } else { Err(unknown(t)) }
            }),
            "session/request_permission" => return self.permission(id, &params).await,
            other => Err(Refused {
                code: NO_METHOD,
                message: format!("Method not found: {other}"),
            }),
        };
        self.answer(&id, answer).await
    }

    /// A file request's answer, its refusal said to the user.
    async fn file(&mut self, method: &str, r: Result<Value, Refused>) -> Result<Value, Refused> {
        if let Err(e) = &r {
            self.notice(&format!("refused {method}: {}", e.message)).await;
        }
        r
    }

    async fn create_terminal(&mut self, p: acp::CreateTerminalRequest) -> Result<Value, Refused> {
        let env = p.env.into_iter().map(|v| (v.name, v.value)).collect();
        // A relative cwd is the session's.
        let cwd = p.cwd.map_or_else(|| self.opts.cwd.clone(), |c| self.opts.cwd.join(c));
        // The agent's limit, never past deck's own.
        let limit = terminals::limit(p.output_byte_limit);
        let spec = Spec {
            command: &p.command,
            args: p.args,
            env,
            cwd: &cwd,
            limit,
        };
        match self.terminals.create(spec) {
            Ok(id) => Ok(protocol::created(&id)),
            Err(message) => {
                self.notice(&format!("terminal/create: {message}")).await;
                Err(Refused { code: -32603, message })
            }
        }
    }

    /// Answer every permission request still waiting `cancelled`.
    pub(super) async fn cancel_permissions(&mut self) -> Result<(), AcpError> {
        for (asked, _) in std::mem::take(&mut self.asked).into_values() {
            self.answer(&asked, Ok(cancelled())).await?;
        }
        Ok(())
    }

    /// `session/request_permission`: answered by the policy, or held for
    /// the user; once the turn is being cancelled, `cancelled` at once.
    async fn permission(&mut self, id: Value, params: &Value) -> Result<(), AcpError> {
        let options = params.get("options").cloned().unwrap_or(Value::Null);
        if self.cancelling {
            return self.answer(&id, Ok(cancelled())).await;
        }
        match self.policy {
            Policy::Ask => {
                self.asked.insert(id_key(&id), (id, options));
                Ok(())
            }
            Policy::Allow | Policy::Reject => {
                let outcome = choose(&options, self.policy == Policy::Allow);
                self.answer(&id, Ok(outcome)).await
            }
        }
    }

    /// The user's answer to the permission request `id`: the option
    /// chosen (one of those offered: another is said, and the request
    /// still waits), or cancelled.
    pub(super) async fn answer_permission(&mut self, id: &str, option: Option<String>) -> Result<(), AcpError> {
        let Some((rpc_id, options)) = self.asked.remove(id) else {
            self.notice(&format!("no permission request {id} is waiting")).await;
            return Ok(());
        };
        let outcome = match option {
            Some(o) if offered(&options, &o) => protocol::selected(&o),
            Some(o) => {
                let shown: String = o.chars().take(40).collect();
                self.notice(&format!("the agent did not offer the option {shown}")).await;
                self.asked.insert(id.to_string(), (rpc_id, options));
                return Ok(());
            }
            None => protocol::cancelled(),
        };
        self.answer(&rpc_id, Ok(outcome)).await
    }

    /// Answer the agent's request `id` (no longer waiting, then).
    async fn answer(&mut self, id: &Value, r: Result<Value, Refused>) -> Result<(), AcpError> {
        self.pending.remove(&id_key(id));
        let msg = match r {
            Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
            Err(e) => json!({"jsonrpc": "2.0", "id": id, "error": {"code": e.code, "message": e.message}}),
        };
        self.send(msg).await
    }
}

/// The outcome choosing the agent's allow-once (or reject-once) option,
/// else the nearest of its kind; none of the kind: cancelled.
fn choose(options: &Value, allow: bool) -> Value {
    let opts = options.as_array().map(Vec::as_slice).unwrap_or_default();
    let kinds: &[&str] = if allow {
        &["allow_once", "allow_always"]
    } else {
        &["reject_once", "reject_always"]
    };
    let chosen = kinds.iter().find_map(|k| {
        opts.iter()
            .find(|o| o.get("kind").and_then(Value::as_str) == Some(k))
            .and_then(|o| o.get("optionId")?.as_str())
    });
    match chosen {
        Some(option) => protocol::selected(option),
        None => cancelled(),
    }
}

/// Whether `option` is the `optionId` of one of `options`.
fn offered(options: &Value, option: &str) -> bool {
    options
        .as_array()
        .is_some_and(|a| a.iter().any(|o| o.get("optionId").and_then(Value::as_str) == Some(option)))
}

/// The `cancelled` outcome of a permission request.
fn cancelled() -> Value {
    protocol::cancelled()
}

fn unknown(t: &str) -> Refused {
    Refused {
        code: NOT_FOUND,
        message: format!("Unknown terminal: {t}"),
    }
}

/// A JSON-RPC id as the key of a request: the id written as JSON, so
/// that ids are compared as typed values (`7` and `"7"` differ). The ACP
/// reader names a permission request by the same text.
pub(super) fn id_key(v: &Value) -> String {
    v.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choose_takes_the_kind_asked() {
        let opts = json!([
            {"kind": "allow_always", "optionId": "aa"},
            {"kind": "allow_once", "optionId": "a"},
            {"kind": "reject_once", "optionId": "r"},
        ]);
        assert_eq!(choose(&opts, true)["outcome"]["optionId"], "a");
        assert_eq!(choose(&opts, false)["outcome"]["optionId"], "r");
        assert_eq!(choose(&json!([]), true)["outcome"]["outcome"], "cancelled");
        assert!(offered(&opts, "aa") && !offered(&opts, "zz") && !offered(&json!({}), "a"));
    }

    /// Issue 28 §2: ids are keyed as typed JSON values.
    #[test]
    fn ids_7_and_string_7_are_two_keys() {
        assert_ne!(id_key(&json!(7)), id_key(&json!("7")));
        assert_eq!(id_key(&json!(7)), "7");
        assert_eq!(id_key(&json!("7")), "\"7\"");
        assert_eq!(id_key(&json!("a\"b")), "\"a\\\"b\"");
    }
}
