//! What the user asks of the host through deck (prompts, cancels,
//! answers to approvals and questions, new sessions), done off the client's
//! event loop. Each ends in one [`LiveEvent::Said`] line saying what came
//! of it; a created session is handed back to be shown.

use std::sync::Arc;

use serde_json::{Value, json};

use super::options::Control;
use super::rpc::Rpc;
use crate::source::live::{LiveEvent, LiveTx};

/// Run `act` on a task; `shown`: the session prompts and cancels go to;
/// `created` gets the id of a session `session.create` made (and says so).
pub(super) fn spawn(
    act: Control,
    rpc: Arc<Rpc>,
    tx: LiveTx,
    shown: Option<String>,
    created: impl FnOnce(String) + Send + 'static,
) {
    tokio::spawn(async move {
        let said = match (act, shown) {
            (Control::Prompt { text, steer }, Some(id)) => {
                let mode = if steer { "steer" } else { "queue" };
                let payload = json!({"sessionId": id, "mode": mode,
                    "content": [{"type": "text", "text": text}]});
                match rpc.call("session.prompt", payload).await {
                    Ok(_) if steer => "sent into the running turn".to_string(),
                    Ok(_) => "prompt sent".to_string(),
                    Err(e) => format!("prompt not sent: {e}"),
                }
            }
            (Control::Cancel, Some(id)) => {
                match rpc.call("session.cancel", json!({"sessionId": id})).await {
                    Ok(_) => "cancel sent".to_string(),
                    Err(e) => format!("cancel not sent: {e}"),
                }
            }
            (
                Control::Respond {
                    rpc_id,
                    value,
                    what,
                },
                _,
            ) => match rpc.respond(&rpc_id, value).await {
                Ok(()) => format!("{what}: sent"),
                Err(e) => format!("{what}: not sent: {e}"),
            },
            (Control::Create { cwd, preset }, _) => {
                match create(&rpc, cwd.as_deref(), preset.as_deref()).await {
                    // The client says so once it shows the new session.
                    Ok(id) => return created(id),
                    Err(e) => format!("no session created: {e}"),
                }
            }
            (Control::Prompt { .. } | Control::Cancel, None) => {
                "no session shown: pick one with S".to_string()
            }
            (Control::Switch(_), _) => return,
        };
        let _ = tx.send(LiveEvent::Said(said)).await;
    });
}

/// `session.create` in `cwd` with the agent preset `preset` (each `None`:
/// the host's default); the new session's id.
pub async fn create(rpc: &Rpc, cwd: Option<&str>, preset: Option<&str>) -> Result<String, String> {
    let mut payload = json!({});
    if let Some(c) = cwd {
        payload["cwd"] = json!(c);
    }
    if let Some(p) = preset {
        payload["agentPreset"] = json!(p);
    }
    let v = rpc
        .call("session.create", payload)
        .await
        .map_err(|e| e.to_string())?;
    match v.get("sessionId").and_then(Value::as_str) {
        Some(id) => Ok(id.to_string()),
        None => Err(format!("session.create answered without a session id: {v}")),
    }
}
