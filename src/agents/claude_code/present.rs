//! Claude Code's tools as cards: the presenters of Claude Code sessions
//! (a `session` header with `agent: "claude-code"`).
//!
//! | tool | card |
//! |---|---|
//! | Bash | terminal (stdout + stderr, exit code from `Exit code N`, interrupted; output saved to `tool-results/` read back, or said to be missing: `saved`); a background run: terminal without an exit code, its task's end drawn on it by `cards` |
//! | Read | read, at the file's real line numbers (`startLine`/`numLines`/`totalLines`) |
//! | Edit, MultiEdit, Write | diff of the whole file (`originalFile`) before and after: real line numbers |
//! | Grep, Glob | search (matches by file, or paths) |
//! | WebSearch | web search (sources and the model's answer) |
//! | WebFetch | web, with the model's summary of the page said to be one |
//! | TodoWrite, Task* | the plan checklist (role `Plans`; the reader sends the list) |
//! | AskUserQuestion | the question card (role `Asks`), its answers read by `ask` |
//! | ExitPlanMode | generic: the plan as markdown |
//! | Agent, Task | generic: the subagent's type, prompt and report (its own transcript is nested under the card by the loader and drawn by `cards`) |
//! | `mcp__server__tool` | generic naming server and tool |
//! | anything else | generic with the raw input |
//!
//! Presenters are pure functions of the settled call (tool, arguments,
//! content, isError, `meta` = the line's `toolUseResult`). This file owns the dispatch and the
//! generic cards; `files` owns Bash, Read and the edits, `lookup` search
//! and web, `saved` output too large for the log, `ask` the answers to a
//! question.

mod ask;
mod files;
mod lookup;
mod saved;

#[cfg(test)]
mod tests;

use serde_json::{Map, Value};

use crate::session::{Args, arg};
use crate::agents::Mapping;
use crate::session::arguments_object as parse;
use crate::session::{Answer, Call, CallRole, Presented, Presenters, Settled};
use crate::wire::view::{GenericView, View};

/// Claude Code's tools and their cards (`docs/agents.md`'s table; MCP
/// tools and any other tool are `generic`).
pub(super) const MAPPING: &[Mapping] = &[
    Mapping { tools: &["Bash"], card: "terminal" },
    Mapping { tools: &["Read"], card: "read" },
    Mapping { tools: &["Edit", "MultiEdit", "Write"], card: "diff" },
    Mapping { tools: &["Grep", "Glob"], card: "search" },
    Mapping { tools: &["WebSearch"], card: "web" },
    Mapping { tools: &["WebFetch"], card: "web" },
    Mapping { tools: &["TodoWrite", "TaskCreate", "TaskUpdate", "TaskList"], card: "plan" },
    Mapping { tools: &["AskUserQuestion"], card: "question" },
    Mapping { tools: &["ExitPlanMode"], card: "generic" },
    Mapping { tools: &["Agent", "Task"], card: "generic" },
];

/// A settled call as a result presenter sees it.
struct Outcome<'a> {
    content: &'a [Value],
    is_error: bool,
    /// The line's `toolUseResult`, when an object.
    meta: Option<&'a Map<String, Value>>,
}

impl Outcome<'_> {
    /// The text blocks of the content, joined.
    fn text(&self) -> String {
        crate::session::text_of(self.content)
    }
}

fn result(s: &Settled<'_>) -> Option<Presented> {
    let (tool, is_error) = (s.tool, s.is_error);
    let args = parse(s.arguments);
    let out = Outcome {
        content: s.content,
        is_error,
        meta: s.meta.and_then(Value::as_object),
    };
    let view = match tool {
        "Bash" => files::bash_result(&args, &out),
        _ if is_error => None,
        "Read" => return files::read_result(&args, &out).map(|t| Presented::Text(t, "read")),
        "Edit" | "MultiEdit" | "Write" => files::edit_result(tool, &args, &out),
        "Grep" | "Glob" => {
            return lookup::search_result(tool, &out).map(|t| Presented::Text(t, "search"));
        }
        "WebSearch" => lookup::web_search_result(&args, &out),
        "WebFetch" => lookup::web_fetch_result(&args, &out),
        "Agent" | "Task" => agent_result(&args, &out),
        _ if mcp(tool).is_some() => saved::generic(&out).or_else(|| text_result(&out)),
        // Output saved to a file: read back, or said to be missing.
        _ => saved::generic(&out),
    };
    view.map(Presented::View)
}

/// The presenters of Claude Code sessions.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct ClaudeCode;

impl Presenters for ClaudeCode {
    fn call_view(&self, call: Call<'_>) -> Option<View> {
        let tool = call.tool;
        let args = parse(call.arguments);
        Some(match tool {
            "Bash" => files::bash_call(&args),
            "Read" => files::read_call(&args),
            "Edit" | "MultiEdit" | "Write" => files::edit_call(tool, &args)?,
            "Grep" | "Glob" => lookup::search_call(tool, &args),
            "WebSearch" => lookup::web_search_call(&args),
            "WebFetch" => lookup::web_fetch_call(&args),
            "TodoWrite" => GenericView {
                raw_input: args.get("todos").cloned(),
                ..GenericView::new("Update todo list", "other")
            }
            .into(),
            "TaskCreate" | "TaskUpdate" | "TaskList" | "TaskGet" => task_call(tool, &args),
            "ExitPlanMode" => plan_call(&args),
            "Agent" | "Task" => agent_call(&args),
            _ => other_call(tool, &args),
        })
    }

    fn result_view(&self, settled: &Settled<'_>) -> Option<Presented> {
        result(settled)
    }

    fn answers(&self, s: &Settled<'_>) -> Option<Vec<Answer>> {
        if s.tool != "AskUserQuestion" {
            return None;
        }
        let out = Outcome {
            content: s.content,
            is_error: false,
            meta: s.meta.and_then(Value::as_object),
        };
        ask::answers(&parse(s.arguments), &out)
    }

    fn role(&self, tool: &str) -> CallRole {
        match tool {
            "AskUserQuestion" => CallRole::Asks,
            "TodoWrite" | "TaskCreate" | "TaskUpdate" | "TaskList" => CallRole::Plans,
            _ => CallRole::Tool,
        }
    }
}

/// `mcp__server__tool`: the server and the tool.
fn mcp(tool: &str) -> Option<(&str, &str)> {
    let rest = tool.strip_prefix("mcp__")?;
    rest.split_once("__").filter(|(s, t)| !s.is_empty() && !t.is_empty())
}

fn other_call(tool: &str, args: &Args) -> View {
    let title = match mcp(tool) {
        Some((server, name)) => format!("{name} (MCP server {server})"),
        None => tool.to_string(),
    };
    GenericView {
        raw_input: (!args.is_empty()).then(|| Value::Object(args.clone())),
        ..GenericView::new(title, "other")
    }
    .into()
}

fn task_call(tool: &str, args: &Args) -> View {
    let id = args.get("taskId").map(|v| match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    });
    let (title, body) = match tool {
        "TaskCreate" => (
            format!("New task: {}", arg(args, "subject").unwrap_or_default()),
            arg(args, "description").map(str::to_string),
        ),
        "TaskUpdate" => {
            let mut t = format!("Update task #{}", id.unwrap_or_default());
            if let Some(s) = arg(args, "status") {
                t.push_str(&format!(": {}", s.replace('_', " ")));
            }
            (t, arg(args, "subject").map(str::to_string))
        }
        "TaskGet" => (format!("Task #{}", id.unwrap_or_default()), None),
        _ => ("Task list".to_string(), None),
    };
    let view = GenericView::new(title, "other");
    match body {
        Some(b) => view.with_text(b).into(),
        None => view.into(),
    }
}

fn plan_call(args: &Args) -> View {
    let plan = arg(args, "plan").unwrap_or_default();
    GenericView::new("Plan", "other").with_text(plan).into()
}

fn agent_call(args: &Args) -> View {
    let prompt = arg(args, "prompt").unwrap_or_default();
    GenericView::new(agent_title(args, false), "other").with_text(prompt).into()
}

/// `Subagent (Explore): Count the steps`, said to run in the background
/// when the call asked for it or its result says it does.
fn agent_title(args: &Args, background: bool) -> String {
    let kind = arg(args, "subagent_type").unwrap_or("agent");
    let description = arg(args, "description").unwrap_or_default();
    let mut title = format!("Subagent ({kind}): {description}");
    if background || args.get("run_in_background") == Some(&Value::Bool(true)) {
        title.push_str(" — in the background");
    }
    title
}

/// The subagent's report: its own words (`toolUseResult.content`, without
/// the hand-back frame the model was given) and what its result counts of
/// its work; for an agent started in the background, that its report
/// comes later as a notification.
fn agent_result(args: &Args, out: &Outcome) -> Option<View> {
    let meta = out.meta;
    let status = meta.and_then(|m| m.get("status")).and_then(Value::as_str);
    if status == Some("async_launched") {
        let id = meta
            .and_then(|m| m.get("agentId"))
            .and_then(Value::as_str)
            .unwrap_or("?");
        let prompt = arg(args, "prompt").unwrap_or_default();
        let note = format!(
            "{prompt}\n\n*Started in the background as agent `{id}`: its report comes back as a notification.*"
        );
        let view = GenericView::new(agent_title(args, true), "other");
        return Some(view.with_text(note.trim_start()).into());
    }
    let own = meta
        .and_then(|m| m.get("content"))
        .and_then(Value::as_array)
        .map(|c| crate::session::text_of(c))
        .filter(|t| !t.is_empty());
    let mut report = own.unwrap_or_else(|| out.text());
    if let Some(totals) = meta.and_then(agent_totals) {
        report = format!("{}\n\n{totals}", report.trim_end());
    }
    let kind = arg(args, "subagent_type").unwrap_or("agent");
    let description = arg(args, "description").unwrap_or_default();
    let title = match status {
        Some(s) => format!("Subagent ({kind}) {}: {description}", s.replace('_', " ")),
        None => format!("Subagent ({kind}) report: {description}"),
    };
    Some(GenericView::new(title, "other").with_text(report.trim_start()).into())
}

/// What a subagent's result counts of its work, as the log gives it:
/// `3 tool calls · 4.2k tokens · 9.2s` (`totalToolUseCount`; `totalTokens`,
/// else the sum of its `usage`; `totalDurationMs`). A count the result
/// does not hold is not said; `None` when it holds none.
fn agent_totals(meta: &Map<String, Value>) -> Option<String> {
    use crate::cards::conversation::count;
    let number = |k: &str| meta.get(k).and_then(Value::as_u64);
    let mut parts = Vec::new();
    if let Some(n) = number("totalToolUseCount") {
        parts.push(if n == 1 { "1 tool call".to_string() } else { format!("{n} tool calls") });
    }
    let usage = || {
        let u = meta.get("usage")?.as_object()?;
        let keys = ["input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens", "output_tokens"];
        let counts: Vec<u64> = keys.iter().filter_map(|k| u.get(*k)?.as_u64()).collect();
        (!counts.is_empty()).then(|| counts.iter().sum::<u64>())
    };
    if let Some(n) = number("totalTokens").or_else(usage) {
        parts.push(format!("{} tokens", count(n)));
    }
    if let Some(ms) = number("totalDurationMs") {
        parts.push(crate::cards::chrome::format_duration(ms.min(i64::MAX as u64) as i64));
    }
    (!parts.is_empty()).then(|| parts.join(" · "))
}

fn text_result(out: &Outcome) -> Option<View> {
    let t = out.text();
    let view = GenericView::default();
    (!t.is_empty()).then(|| view.with_text(t).into())
}
