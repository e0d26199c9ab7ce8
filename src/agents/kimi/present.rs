//! Kimi Code CLI's tools as cards — the only place naming them. A result's
//! `meta` holds its `return_value`'s `message` (what the tool told the
//! model beside its output) and `display` blocks (`diff`, `brief`, `todo`:
//! `read.rs`).
//!
//! | tool | card |
//! |---|---|
//! | Shell | terminal: the command; its output; the exit code the result's message says (`Command failed with exit code: N.`; `Command executed successfully.` is 0) |
//! | ReadFile | read: the lines it returned at their numbers (`cat -n` style); the file's length when the message says the end was reached |
//! | StrReplaceFile, WriteFile | diff: the result's `diff` blocks at their real lines (`old_start`, `new_start`); a file written where there was none or an empty one, whole from line 1 |
//! | Glob, Grep | search: the paths found; Grep's `path:N:text` matches by file |
//! | FetchURL, SearchWeb | web: the URL fetched; the query and what the search returned |
//! | SetTodoList | the plan checklist (the reader writes its `todo` block as the plan) |
//! | anything else (Agent, Task, AskUserQuestion, ReadMediaFile, …) | generic with the raw input and the output (as it came: fenced) |

use serde_json::Value;

use super::read::said_exit_code;
use crate::session::{Args, arg};
use crate::agents::{Mapping, grep};
use crate::text::markdown::fenced;
use crate::session::arguments_object as parse;
use crate::session::{Call, CallRole, Presented, Presenters, Settled};
use crate::wire::view::{
    DiffView, FileDiff, GenericView, Location, ReadLine, ReadView, SearchBody, SearchView,
    TerminalView, View, WebBody, WebView,
};

/// Kimi Code's tools and their cards (`docs/agents.md`'s table; any other
/// tool is `generic`).
pub(super) const MAPPING: &[Mapping] = &[
    Mapping { tools: &["Shell"], card: "terminal" },
    Mapping { tools: &["ReadFile"], card: "read" },
    Mapping { tools: &["StrReplaceFile", "WriteFile"], card: "diff" },
    Mapping { tools: &["Glob", "Grep"], card: "search" },
    Mapping { tools: &["FetchURL", "SearchWeb"], card: "web" },
    Mapping { tools: &["SetTodoList"], card: "plan" },
];

/// The Kimi Code presenters.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Kimi;



impl Presenters for Kimi {
    fn call_view(&self, call: Call<'_>) -> Option<View> {
        let args = parse(call.arguments);
        let n = |k: &str| args.get(k).and_then(Value::as_u64);
        Some(match call.tool {
            "Shell" => View::Terminal(TerminalView {
                title: arg(&args, "command").map(str::to_string),
                description: arg(&args, "description").filter(|d| !d.is_empty()).map(str::to_string),
                ..TerminalView::default()
            }),
            "ReadFile" => {
                let path = arg(&args, "path")?;
                let from = n("line_offset").unwrap_or(1);
                let range = match n("n_lines") {
                    Some(k) if k > 0 => format!(" ({from} - {})", from + k - 1),
                    _ if from > 1 => format!(" (from line {from})"),
                    _ => String::new(),
                };
                GenericView {
                    locations: vec![Location::new(path, Some(from))],
                    ..GenericView::new(format!("Read {path}{range}"), "read")
                }
                .into()
            }
            "StrReplaceFile" | "WriteFile" => edit_call(call.tool, &args)?,
            "Glob" | "Grep" => GenericView {
                raw_input: Some(Value::Object(args.clone())),
                ..GenericView::new(search_title(call.tool, &args), "search")
            }
            .into(),
            "FetchURL" => GenericView {
                raw_input: args.get("url").cloned(),
                ..GenericView::new("Fetch", "fetch")
            }
            .into(),
            "SearchWeb" => {
                let query = arg(&args, "query").unwrap_or_default();
                GenericView {
                    raw_input: Some(query.into()),
                    ..GenericView::new(query, "search")
                }
                .into()
            }
            tool => GenericView {
                raw_input: (!args.is_empty()).then(|| Value::Object(args.clone())),
                ..GenericView::new(tool, "other")
            }
            .into(),
        })
    }

    fn result_view(&self, s: &Settled<'_>) -> Option<Presented> {
        let args = parse(s.arguments);
        let text = crate::session::text_of(s.content);
        let message = s.meta.and_then(|m| m.get("message")).and_then(Value::as_str).unwrap_or_default();
        let display = s.meta.and_then(|m| m.get("display")).and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
        let code = said_exit_code(message);
        if s.tool == "Shell" && (code.is_some() || !s.is_error) {
            return Some(shell_result(&args, &text, message, code).into());
        }
        if s.is_error {
            // Its message and what it returned, on the generic card (a
            // refusal's too).
            let body = match (message.is_empty() || message == text, text.is_empty()) {
                (true, _) => text.clone(),
                (false, true) => message.to_string(),
                (false, false) => format!("{message}\n\n{}", fenced(&text)),
            };
            return (!body.is_empty()).then(|| View::from(GenericView::default().with_text(body)).into());
        }
        let view = match s.tool {
            "ReadFile" => read_result(&args, &text, message)?,
            "StrReplaceFile" | "WriteFile" => edit_result(s.tool, &args, display)?,
            "Glob" => SearchView::new(None, SearchBody::Paths(grep::paths(&text))).into(),
            "Grep" => grep_result(&args, &text),
            "FetchURL" => WebView::new(
                Some("Fetch".into()),
                WebBody::Fetch {
                    url: arg(&args, "url").unwrap_or_default().to_string(),
                    status_code: None,
                },
            )
            .into(),
            "SearchWeb" => WebView::new(
                Some(arg(&args, "query").unwrap_or_default().to_string()),
                WebBody::Search {
                    sources: Vec::new(),
                    answer: (!text.is_empty()).then(|| text.clone()),
                    failures: Vec::new(),
                },
            )
            .into(),
            _ => GenericView::default().with_text(fenced(&text)).into(),
        };
        Some(view.into())
    }

    fn role(&self, tool: &str) -> CallRole {
        match tool {
            "SetTodoList" => CallRole::Plans,
            _ => CallRole::Tool,
        }
    }
}

fn search_title(tool: &str, args: &Args) -> String {
    let mut title = format!("{tool} {}", arg(args, "pattern").unwrap_or_default());
    if let Some(dir) = arg(args, "directory").or_else(|| arg(args, "path")).filter(|d| *d != ".") {
        title.push_str(&format!(" in {dir}"));
    }
    if let Some(g) = arg(args, "glob") {
        title.push_str(&format!(" ({g})"));
    }
    title
}

/// The command's output and the exit code its message says; a message
/// that is not the usual one (a timeout) is said after the output.
fn shell_result(args: &Args, text: &str, message: &str, code: Option<i64>) -> View {
    let mut output = text.to_string();
    if code.is_none() && !message.is_empty() && message != text {
        output = format!("{output}\n[{message}]");
    }
    View::Terminal(TerminalView {
        title: arg(args, "command").map(str::to_string),
        description: arg(args, "description").filter(|d| !d.is_empty()).map(str::to_string),
        output: Some(output),
        exit_code: code,
        ..TerminalView::default()
    })
}

/// The lines a read returned, `cat -n` style (`     8\tdef f():`), at
/// their numbers; the file's length when its message says the end was
/// reached (`Total lines in file: N. End of file reached.`).
fn read_result(args: &Args, text: &str, message: &str) -> Option<View> {
    let path = arg(args, "path")?;
    let mut lines = Vec::new();
    for line in text.split('\n') {
        let Some((n, body)) = line.trim_start().split_once('\t') else {
            continue;
        };
        let Ok(n) = n.parse::<u64>() else {
            continue;
        };
        lines.push(ReadLine::new(n, body));
    }
    let from = lines.first().map(|l| l.number)?;
    let mut view = ReadView::new(path, from, lines);
    if message.contains("End of file reached")
        && let Some(total) = message.split_once("Total lines in file: ").and_then(|(_, r)| {
            r.split(|c: char| !c.is_ascii_digit()).next().and_then(|d| d.parse::<u64>().ok())
        })
    {
        view.total_lines = total;
    }
    Some(view.into())
}

fn verb(tool: &str) -> &'static str {
    if tool == "WriteFile" { "Write" } else { "Edit" }
}

/// The call's change: the text replaced and its replacement (each of a
/// list of edits), or the file written; lines unknown until the result.
fn edit_call(tool: &str, args: &Args) -> Option<View> {
    let path = arg(args, "path")?;
    let diffs = match tool {
        "WriteFile" => vec![FileDiff::new(path, None, arg(args, "content").unwrap_or_default()).existed_unknown()],
        _ => {
            let edits: Vec<&Value> = match args.get("edit") {
                Some(Value::Array(a)) => a.iter().collect(),
                Some(e) => vec![e],
                None => Vec::new(),
            };
            let s = |e: &Value, k: &str| e.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
            edits.iter().map(|e| FileDiff::new(path, Some(s(e, "old")), s(e, "new"))).collect()
        }
    };
    Some(View::Diff(DiffView {
        title: Some(format!("{} {path}", verb(tool))),
        diffs,
        locations: vec![Location::new(path, None)],
    }))
}

/// The change as the CLI diffed it: its `diff` display blocks (lines of
/// context around each change, `"\n"`-joined), each at the lines it says
/// (a file written new and one that was empty look the same: no old
/// text, not claimed new). Summary
/// blocks (a huge file: `(N lines)`) hold no text: the call's change then.
fn edit_result(tool: &str, args: &Args, display: &[Value]) -> Option<View> {
    let blocks: Vec<&Value> = display
        .iter()
        .filter(|b| b.get("type").and_then(Value::as_str) == Some("diff"))
        .filter(|b| b.get("is_summary") != Some(&Value::Bool(true)))
        .collect();
    if blocks.is_empty() {
        return edit_call(tool, args);
    }
    let mut path = arg(args, "path").unwrap_or_default().to_string();
    let diffs = blocks
        .iter()
        .map(|b| {
            let s = |k: &str| b.get(k).and_then(Value::as_str).unwrap_or_default();
            let n = |k: &str| b.get(k).and_then(Value::as_u64);
            path = s("path").to_string();
            let line = |t: &str| if t.is_empty() { String::new() } else { format!("{t}\n") };
            let mut d = FileDiff::new(s("path"), Some(line(s("old_text"))), line(s("new_text")));
            d.start_line = n("old_start");
            d.new_start_line = n("new_start").filter(|s| Some(*s) != n("old_start"));
            d
        })
        .collect();
    Some(View::Diff(DiffView {
        title: Some(format!("{} {path}", verb(tool))),
        diffs,
        locations: Vec::new(),
    }))
}

/// Content lines `path:N:text` (`output_mode: content`, numbered by
/// default) by file; else the files found (`files_with_matches`, the
/// default); counts on the generic card.
fn grep_result(args: &Args, text: &str) -> View {
    match arg(args, "output_mode") {
        Some("content") => match grep::matches(text) {
            Some(files) => SearchView::new(None, SearchBody::Matches(files)).into(),
            None => GenericView::default().with_text(fenced(text)).into(),
        },
        Some("count_matches") => GenericView::default().with_text(fenced(text)).into(),
        _ => SearchView::new(None, SearchBody::Paths(grep::paths(text))).into(),
    }
}

#[cfg(test)]
mod tests;
