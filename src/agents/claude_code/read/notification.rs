//! A background task's report. A Bash command run in the background and an
//! agent started in the background return at once (the result names the
//! task: `backgroundTaskId`, or `agentId` with status `async_launched`);
//! when the task ends, Claude Code tells the model in a user message it
//! did not type:
//!
//! ```text
//! <task-notification>
//! <task-id>a6a1a5e4ad1eadaa6</task-id>
//! <tool-use-id>toolu_01b59d87c3804d0a7660f63e</tool-use-id>
//! <output-file>/tmp/claude-0/-w/<session>/tasks/a6a1a5e4ad1eadaa6.output</output-file>
//! <status>completed</status>
//! <summary>Agent "Check README commands" finished</summary>
//! <result>It prints …</result>
//! <usage>…</usage>
//! </task-notification>
//! ```
//!
//! [`linked`] reads it and finds the call that started the task (the
//! `tool-use-id`, else the call whose result named the task id): the
//! message then names that call (`source.callId`) and carries the report
//! (`task`), so the fold puts it on the call's card.

use std::collections::HashMap;

use serde_json::Value;

use crate::wire::payload::TaskReport;

/// The task a structured result says was started in the background.
pub(super) fn task_id(meta: &Value) -> Option<&str> {
    if let Some(id) = meta.get("backgroundTaskId").and_then(Value::as_str) {
        return Some(id);
    }
    let launched = meta.get("status").and_then(Value::as_str) == Some("async_launched");
    meta.get("agentId").and_then(Value::as_str).filter(|_| launched)
}

/// The call a notification reports on and its report (`{id, status,
/// summary, result, outputFile}`, the fields it has), when `text` is one
/// and its call is known (`started`: task id → call).
pub(super) fn report(text: &str, started: &HashMap<String, String>) -> Option<(String, TaskReport)> {
    let body = text.trim_start().strip_prefix("<task-notification>")?;
    let body = body.split("</task-notification>").next().unwrap_or(body);
    let id = tag(body, "task-id");
    let call = tag(body, "tool-use-id")
        .or_else(|| id.as_ref().and_then(|i| started.get(i).cloned()))?;
    let report = TaskReport {
        id,
        status: tag(body, "status"),
        summary: tag(body, "summary"),
        result: tag(body, "result"),
        output_file: tag(body, "output-file"),
    };
    Some((call, report))
}

/// [`report`], the report as a tree.
#[cfg(test)]
fn linked(text: &str, started: &HashMap<String, String>) -> Option<(String, Value)> {
    let (call, report) = report(text, started)?;
    Some((call, serde_json::to_value(report).ok()?))
}

/// The text of the first `<name>…</name>` of `body`, XML entities read.
fn tag(body: &str, name: &str) -> Option<String> {
    let open = format!("<{name}>");
    let close = format!("</{name}>");
    let start = body.find(&open)? + open.len();
    let len = body[start..].find(&close)?;
    let text = body[start..start + len].trim();
    (!text.is_empty()).then(|| crate::text::entities::decode(text))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const AGENT: &str = "<task-notification>\n<task-id>a6</task-id>\n<tool-use-id>toolu_01</tool-use-id>\n<output-file>/tmp/a6.output</output-file>\n<status>completed</status>\n<summary>Agent \"Check\" finished</summary>\n<result>It prints `x &lt; y`.</result>\n<usage><tool_uses>1</tool_uses></usage>\n</task-notification>";

    #[test]
    fn a_report_names_its_call_and_says_how_the_task_ended() {
        let (call, report) = linked(AGENT, &HashMap::new()).expect("linked");
        assert_eq!(call, "toolu_01");
        assert_eq!(
            report,
            json!({"id": "a6", "status": "completed", "summary": "Agent \"Check\" finished",
                   "result": "It prints `x < y`.", "outputFile": "/tmp/a6.output"})
        );
    }

    #[test]
    fn without_a_tool_use_id_the_task_id_finds_the_call() {
        let text = "<task-notification>\n<task-id>b7</task-id>\n<status>failed</status>\n<summary>Background command \"make\" failed with exit code 2</summary>\n</task-notification>";
        assert!(linked(text, &HashMap::new()).is_none(), "no call known");
        let started = HashMap::from([("b7".to_string(), "toolu_b".to_string())]);
        let (call, report) = linked(text, &started).expect("linked");
        assert_eq!(call, "toolu_b");
        assert_eq!(report["status"], "failed");
        assert!(linked("plain words", &started).is_none());
    }

    #[test]
    fn results_that_start_a_task() {
        assert_eq!(task_id(&json!({"backgroundTaskId": "b7"})), Some("b7"));
        assert_eq!(
            task_id(&json!({"status": "async_launched", "agentId": "a6"})),
            Some("a6")
        );
        // A finished subagent's report names its agent: nothing runs on.
        assert_eq!(task_id(&json!({"status": "completed", "agentId": "a6"})), None);
    }
}
