//! What a line's structured parts say of the plan and of background
//! work: a call's input that is a whole checklist, a `toolUseResult` that
//! creates, updates or lists tasks, or names a task started in the
//! background. Each is looked for with a byte search first: most lines
//! are none of these.

use serde_json::Value;

use super::Tasks;
use super::wire::{Raw, WireTasks};

/// A string or a number, as text (task ids come as either).
fn text(v: Option<&Value>) -> Option<String> {
    match v {
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Number(n)) => Some(n.to_string()),
        _ => None,
    }
}

/// A call's input that is a whole checklist (`todos: [{content, status}]`).
pub(super) fn checklist(input: &str) -> Option<Vec<(String, String)>> {
    if !input.contains("\"todos\"") {
        return None;
    }
    let v: Value = serde_json::from_str(input).ok()?;
    let todos = v.get("todos")?.as_array()?;
    let list: Vec<(String, String)> = todos
        .iter()
        .filter_map(|t| {
            let content = t.get("content").and_then(Value::as_str)?;
            let status = t.get("status").and_then(Value::as_str).unwrap_or("pending");
            Some((content.to_string(), status.to_string()))
        })
        .collect();
    (list.len() == todos.len()).then_some(list)
}

/// The task a structured result says was started in the background.
pub(super) fn background(meta: &str) -> Option<String> {
    let b = meta.as_bytes();
    if !["\"backgroundTaskId\"", "\"async_launched\""]
        .iter()
        .any(|k| memchr::memmem::find(b, k.as_bytes()).is_some())
    {
        return None;
    }
    let v: Value = serde_json::from_str(meta).ok()?;
    super::super::notification::task_id(&v).map(str::to_string)
}

/// What a structured result says of the task list: a task's creation
/// (`task: {id, subject}`), update (`taskId`, `statusChange.to`) or a
/// listing (`tasks: [{id, subject, status}]`).
pub(super) fn tasks(meta: &str) -> Option<Tasks> {
    // Most results are not tasks': a byte search spares them a parse.
    let b = meta.as_bytes();
    if !["\"tasks\"", "\"task\"", "\"taskId\""]
        .iter()
        .any(|k| memchr::memmem::find(b, k.as_bytes()).is_some())
    {
        return None;
    }
    let w: WireTasks<'_> = serde_json::from_str(meta).ok()?;
    let parse = |r: Raw<'_>| r.and_then(|r| serde_json::from_str::<Value>(r.get()).ok());
    if let Some(Value::Array(list)) = parse(w.tasks) {
        let list = list
            .iter()
            .filter_map(|t| {
                let id = text(t.get("id"))?;
                let subject = text(t.get("subject"))?;
                let status = text(t.get("status")).unwrap_or_else(|| "pending".into());
                Some((id, subject, status))
            })
            .collect();
        return Some(Tasks::List(list));
    }
    if let Some(task) = parse(w.task)
        && let (Some(id), Some(subject)) = (text(task.get("id")), text(task.get("subject")))
    {
        return Some(Tasks::Created(id, subject));
    }
    let to = parse(w.status_change).and_then(|c| text(c.get("to")));
    match (text(parse(w.task_id).as_ref()), to) {
        (Some(id), Some(to)) => Some(Tasks::Status(id, to)),
        _ => None,
    }
}
