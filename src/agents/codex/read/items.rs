//! What Codex's lines hold, read: content texts, call outputs, plans,
//! file changes, session ids and timestamps. Pure functions of a line's
//! parts, for the rollout reader.

use serde_json::{Map, Value};

use crate::wire::payload::{TodoItem, TokenUsage};

/// A session id as text (Codex writes it as a number or a string).
pub(super) fn id_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The texts of content parts (`input_text`, `output_text`, `summary_text`
/// …), one after another.
pub(super) fn texts(parts: Option<&Value>) -> String {
    let Some(parts) = parts.and_then(Value::as_array) else {
        return parts.and_then(Value::as_str).unwrap_or_default().to_string();
    };
    let texts: Vec<&str> = parts
        .iter()
        .filter_map(|p| p.get("text").and_then(Value::as_str))
        .collect();
    texts.join("\n\n")
}

/// Whether a user message is context Codex adds, not the person's prompt.
pub(super) fn is_context(text: &str) -> bool {
    let t = text.trim_start();
    [
        "<environment_context>",
        "<user_instructions>",
        "# AGENTS.md instructions",
        "<permissions instructions>",
        "<turn_aborted>",
        // The summary a compaction left, given to the model as a message.
        "Another language model started to solve this problem",
    ]
    .iter()
    .any(|p| t.starts_with(p))
}

/// A call output's text and, when it says, whether it succeeded: a string,
/// `{content, success}`, or content items.
pub(super) fn output_text(v: Option<&Value>) -> (String, Option<bool>) {
    match v {
        Some(Value::String(s)) => (s.clone(), None),
        Some(Value::Object(o)) => {
            let success = o.get("success").and_then(Value::as_bool);
            (texts(o.get("content")), success)
        }
        Some(Value::Array(_)) => (texts(v), None),
        _ => (String::new(), None),
    }
}

/// The todo list of a plan-writing call's arguments (`plan: [{step, status}]`).
pub(super) fn plan_todos(args: &Value) -> Option<Vec<Option<TodoItem>>> {
    let plan = args.get("plan")?.as_array()?;
    let todos: Vec<Option<TodoItem>> = plan
        .iter()
        .filter_map(|item| {
            let step = item.get("step")?.as_str()?;
            let status = item.get("status").and_then(Value::as_str).unwrap_or("pending");
            Some(Some(TodoItem {
                content: Some(step.to_string()),
                status: Some(status.to_string()),
            }))
        })
        .collect();
    (!todos.is_empty()).then_some(todos)
}

/// `patch_apply_begin`'s changes (`{path: {add: {content}} | {delete: …} |
/// {update: {unified_diff, move_path}}}`) in the shape of 0.169's
/// `FileChange` (`{path: {type, content | unified_diff, move_path}}`).
pub(super) fn older_changes(changes: &Value) -> Value {
    let Some(map) = changes.as_object() else {
        return changes.clone();
    };
    let out: Map<String, Value> = map
        .iter()
        .map(|(path, change)| {
            let norm = change
                .as_object()
                .and_then(|c| c.iter().next())
                .and_then(|(kind, body)| {
                    let mut body = body.as_object()?.clone();
                    body.insert("type".into(), Value::from(kind.as_str()));
                    Some(Value::Object(body))
                })
                .unwrap_or_else(|| change.clone());
            (path.clone(), norm)
        })
        .collect();
    Value::Object(out)
}

/// Token counts `total` minus `start`, key by key (`total` itself without
/// a start).
pub(super) fn usage_delta(total: &Value, start: Option<&Value>) -> Value {
    let Some(total) = total.as_object() else {
        return total.clone();
    };
    let out: Map<String, Value> = total
        .iter()
        .map(|(k, v)| {
            let before = start.and_then(|s| s.get(k)).and_then(Value::as_i64);
            let value = match (v.as_i64(), before) {
                (Some(n), Some(b)) => Value::from(n.saturating_sub(b)),
                _ => v.clone(),
            };
            (k.clone(), value)
        })
        .collect();
    Value::Object(out)
}

/// Codex's token counts (`input_tokens`, of which `cached_input_tokens`;
/// `output_tokens`, of which `reasoning_output_tokens`) as DSH's
/// `TokenUsage`, whose input does not count what was read from the cache.
/// `None` when they hold no count.
pub(super) fn token_usage(u: &Value) -> Option<TokenUsage> {
    let count = |k: &str| u.get(k).and_then(Value::as_u64);
    let cached = count("cached_input_tokens");
    let input = count("input_tokens").and_then(|i| i.checked_sub(cached.unwrap_or(0)));
    let usage = TokenUsage {
        input_tokens: input,
        output_tokens: count("output_tokens"),
        cache_read_tokens: cached,
        reasoning_tokens: count("reasoning_output_tokens"),
        ..TokenUsage::default()
    };
    (usage != TokenUsage::default()).then_some(usage)
}
