//! The ACP messages deck writes, and the client requests it serves, in the
//! protocol's own types (`agent-client-protocol-schema`, the official
//! crate): every request, notification and answer deck sends is built from
//! them, and the agent's `fs/*` and `terminal/*` requests are read into
//! them — a request whose params do not fit is refused as invalid params
//! naming the field, never guessed at.
//!
//! What deck only reads and draws — `session/update` notifications,
//! permission requests, the extra fields of answers — stays lenient JSON
//! (the trace reader in `agents/acp/read` folds it): agents send
//! variants a given version of the crate does not know yet (a new
//! `sessionUpdate`, content type or option kind), and the official types
//! refuse a whole message for one of them. Answers deck needs a field of
//! (`initialize`'s version, `session/new`'s id) are read typed first, and
//! the one field from the JSON when the rest does not fit.

use std::path::Path;

use agent_client_protocol_schema::v1 as acp;
use agent_client_protocol_schema::ProtocolVersion;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;


/// JSON-RPC "invalid params".
const INVALID: i64 = -32602;

/// The protocol version deck speaks.
pub const VERSION: ProtocolVersion = ProtocolVersion::V1;

/// A typed message as JSON (these types always serialize).
fn json<T: Serialize>(t: &T) -> Value {
    serde_json::to_value(t).unwrap_or_else(|e| {
        tracing::error!(error = %e, "an ACP message did not serialize");
        Value::Null
    })
}

/// `initialize`'s params: the version, the client's capabilities (text
/// files read and written inside the session's directory, terminals) and
/// who it is.
pub fn initialize() -> Value {
    let fs = acp::FileSystemCapabilities::new()
        .read_text_file(true)
        .write_text_file(true);
    json(
        &acp::InitializeRequest::new(VERSION)
            .client_capabilities(acp::ClientCapabilities::new().fs(fs).terminal(true))
            .client_info(acp::Implementation::new("deck", env!("CARGO_PKG_VERSION")).title("deck".to_string())),
    )
}

/// `session/new`'s params: the session's directory, no MCP servers.
pub fn new_session(cwd: &Path) -> Value {
    json(&acp::NewSessionRequest::new(cwd))
}

/// `session/prompt`'s params: one text block.
pub fn prompt(session: &str, text: &str) -> Value {
    let block = acp::ContentBlock::Text(acp::TextContent::new(text));
    json(&acp::PromptRequest::new(session.to_string(), vec![block]))
}

/// `session/cancel`'s params.
pub fn cancel(session: &str) -> Value {
    json(&acp::CancelNotification::new(session.to_string()))
}

/// A permission request's answer: the option chosen.
pub fn selected(option: &str) -> Value {
    let outcome = acp::RequestPermissionOutcome::Selected(acp::SelectedPermissionOutcome::new(option.to_string()));
    json(&acp::RequestPermissionResponse::new(outcome))
}

/// A permission request's answer: the turn was cancelled.
pub fn cancelled() -> Value {
    json(&acp::RequestPermissionResponse::new(acp::RequestPermissionOutcome::Cancelled))
}

/// `fs/read_text_file`'s answer.
pub fn read_answer(content: String) -> Value {
    json(&acp::ReadTextFileResponse::new(content))
}

/// `fs/write_text_file`'s answer.
pub fn write_answer() -> Value {
    json(&acp::WriteTextFileResponse::new())
}

/// `terminal/create`'s answer.
pub fn created(id: &str) -> Value {
    json(&acp::CreateTerminalResponse::new(id.to_string()))
}

/// `terminal/output`'s answer: the output kept, whether some was dropped,
/// and how the process ended once it did.
pub fn output(text: String, truncated: bool, exit: Option<Exit>) -> Value {
    json(&acp::TerminalOutputResponse::new(text, truncated).exit_status(exit))
}

/// `terminal/wait_for_exit`'s answer.
pub fn exited(exit: Exit) -> Value {
    json(&acp::WaitForTerminalExitResponse::new(exit))
}

/// `terminal/kill`'s answer.
pub fn killed() -> Value {
    json(&acp::KillTerminalResponse::new())
}

/// `terminal/release`'s answer.
pub fn released() -> Value {
    json(&acp::ReleaseTerminalResponse::new())
}

/// How a terminal's process ended, as the protocol says it.
pub type Exit = acp::TerminalExitStatus;

/// An exit: its code (a negative one is no exit code), or the signal
/// that ended it.
pub fn exit(code: Option<i32>, signal: Option<String>) -> Exit {
    acp::TerminalExitStatus::new()
        .exit_code(code.and_then(|c| u32::try_from(c).ok()))
        .signal(signal)
}

/// Why a file request is not served: the JSON-RPC error's code and message.
#[derive(Debug, Clone, PartialEq)]
pub struct Refused {
    pub code: i64,
    pub message: String,
}

impl Refused {
    pub(super) fn new(code: i64, message: impl Into<String>) -> Refused {
        Refused {
            code,
            message: message.into(),
        }
    }
}

/// A client request's params in its official type, or "invalid params"
/// naming the field that does not fit.
pub fn params<T: DeserializeOwned>(method: &str, params: &Value) -> Result<T, Refused> {
    serde_path_to_error::deserialize(params).map_err(|e| {
        let at = e.path().to_string();
        let at = if at == "." { String::new() } else { format!(" at {at}") };
        Refused {
            code: INVALID,
            message: format!("{method}: invalid params{at}: {}", e.inner()),
        }
    })
}

/// The protocol version an `initialize` answer names.
pub fn answered_version(answer: &Value) -> Option<u64> {
    match serde_json::from_value::<acp::InitializeResponse>(answer.clone()) {
        Ok(r) => serde_json::to_value(r.protocol_version).ok()?.as_u64(),
        Err(e) => {
            tracing::debug!(error = %e, "initialize answer read leniently");
            answer.get("protocolVersion")?.as_u64()
        }
    }
}

/// The session id a `session/new` answer names.
pub fn answered_session(answer: &Value) -> Option<String> {
    match serde_json::from_value::<acp::NewSessionResponse>(answer.clone()) {
        Ok(r) => Some(r.session_id.0.to_string()),
        Err(e) => {
            tracing::debug!(error = %e, "session/new answer read leniently");
            Some(answer.get("sessionId")?.as_str()?.to_string())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The recorded exchange of the real Claude Code ACP adapter.
    fn capture() -> Vec<Value> {
        let text = include_str!("../../../tests/fixtures/agents/acp/tour/acp-trace.jsonl");
        text.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
    }

    #[test]
    fn what_deck_sends_has_the_shape_the_real_client_sent() {
        let init = initialize();
        assert_eq!(init["protocolVersion"], 1);
        assert_eq!(init["clientCapabilities"]["fs"], json!({"readTextFile": true, "writeTextFile": true}));
        assert_eq!(init["clientCapabilities"]["terminal"], true);
        assert_eq!(init["clientInfo"]["name"], "deck");
        assert_eq!(new_session(Path::new("/w")), json!({"cwd": "/w", "mcpServers": []}));
        assert_eq!(
            prompt("s1", "hi"),
            json!({"sessionId": "s1", "prompt": [{"type": "text", "text": "hi"}]})
        );
        assert_eq!(cancel("s1"), json!({"sessionId": "s1"}));
        assert_eq!(selected("allow"), json!({"outcome": {"outcome": "selected", "optionId": "allow"}}));
        assert_eq!(cancelled(), json!({"outcome": {"outcome": "cancelled"}}));
        assert_eq!(read_answer("x".into()), json!({"content": "x"}));
        assert_eq!(write_answer(), json!({}));
        assert_eq!(created("term-1"), json!({"terminalId": "term-1"}));
        assert_eq!(
            output("out".into(), true, Some(exit(Some(2), None))),
            json!({"output": "out", "truncated": true, "exitStatus": {"exitCode": 2}})
        );
        assert_eq!(exited(exit(None, Some("SIGKILL".into()))), json!({"signal": "SIGKILL"}));
        assert_eq!(exited(exit(Some(-1), None)), json!({}));
        // The capture's client (the kit's) sent the same methods with the
        // same fields: each of its messages of these methods reads back
        // into the official type, and what deck sends for it does too.
        let mut seen = 0;
        for m in capture() {
            if m["dir"] != "client->agent" {
                continue;
            }
            let msg = &m["msg"];
            let params = msg.get("params").cloned().unwrap_or(Value::Null);
            let ok = match msg["method"].as_str() {
                Some("initialize") => serde_json::from_value::<acp::InitializeRequest>(params).is_ok(),
                Some("session/new") => serde_json::from_value::<acp::NewSessionRequest>(params).is_ok(),
                Some("session/prompt") => serde_json::from_value::<acp::PromptRequest>(params).is_ok(),
                Some("session/cancel") => serde_json::from_value::<acp::CancelNotification>(params).is_ok(),
                _ => continue,
            };
            assert!(ok, "{msg}");
            seen += 1;
        }
        assert!(seen >= 4, "{seen}");
        for ours in [initialize(), prompt("s", "t"), cancel("s")] {
            assert!(ours.is_object());
        }
        serde_json::from_value::<acp::InitializeRequest>(initialize()).unwrap();
        serde_json::from_value::<acp::PromptRequest>(prompt("s", "t")).unwrap();
    }

    #[test]
    fn the_agents_file_and_terminal_requests_read_into_the_official_types() {
        let mut seen = std::collections::BTreeMap::new();
        for m in capture() {
            let msg = &m["msg"];
            if m["dir"] != "agent->client" || msg.get("id").is_none() {
                continue;
            }
            let Some(method) = msg["method"].as_str() else { continue };
            let p = msg.get("params").cloned().unwrap_or(Value::Null);
            let fits = match method {
                "fs/read_text_file" => params::<acp::ReadTextFileRequest>(method, &p).is_ok(),
                "fs/write_text_file" => params::<acp::WriteTextFileRequest>(method, &p).is_ok(),
                "terminal/create" => params::<acp::CreateTerminalRequest>(method, &p).is_ok(),
                "terminal/output" => params::<acp::TerminalOutputRequest>(method, &p).is_ok(),
                "terminal/wait_for_exit" => params::<acp::WaitForTerminalExitRequest>(method, &p).is_ok(),
                "terminal/kill" => params::<acp::KillTerminalRequest>(method, &p).is_ok(),
                "terminal/release" => params::<acp::ReleaseTerminalRequest>(method, &p).is_ok(),
                _ => continue,
            };
            assert!(fits, "{msg}");
            *seen.entry(method.to_string()).or_insert(0) += 1;
        }
        for method in ["fs/read_text_file", "terminal/create", "terminal/output"] {
            assert!(seen.contains_key(method), "{seen:?}");
        }
    }

    #[test]
    fn params_that_do_not_fit_are_refused_naming_the_field() {
        let e = params::<acp::ReadTextFileRequest>("fs/read_text_file", &json!({"sessionId": "s"})).unwrap_err();
        assert_eq!(e.code, INVALID);
        assert!(e.message.contains("fs/read_text_file: invalid params") && e.message.contains("path"), "{}", e.message);
        let e = params::<acp::CreateTerminalRequest>(
            "terminal/create",
            &json!({"sessionId": "s", "command": "ls", "outputByteLimit": "lots"}),
        )
        .unwrap_err();
        assert!(e.message.contains("outputByteLimit"), "{}", e.message);
    }

    #[test]
    fn answers_are_read_typed_and_leniently() {
        assert_eq!(answered_version(&json!({"protocolVersion": 1, "agentCapabilities": {}})), Some(1));
        // A field the crate does not know, in a shape it would refuse.
        assert_eq!(answered_version(&json!({"protocolVersion": 1, "authMethods": "weird"})), Some(1));
        assert_eq!(answered_version(&json!({})), None);
        assert_eq!(answered_session(&json!({"sessionId": "abc"})).as_deref(), Some("abc"));
        assert_eq!(answered_session(&json!({"sessionId": "abc", "modes": 7})).as_deref(), Some("abc"));
        assert_eq!(answered_session(&json!({"modes": {}})), None);
    }
}
