//! Presenters for Codex CLI sessions (the records `codex/read.rs`
//! reads from a rollout) — the only place naming Codex's tools.
//!
//! * `exec_command`, `shell`, `local_shell` → `terminal`: the command (a
//!   `bash -lc` argv shown as its script), its working directory, then the
//!   output without Codex's header, the exit code and the wall time read
//!   from it (`codex::read::output`); a command still running is
//!   said so. A result marked as an error is a `generic` card with its text.
//!   A command Codex classified as a read or a search is a `read` or
//!   `search` card where its output allows (`classified`).
//! * `apply_patch` → `diff`: every file of the `*** Begin Patch` envelope
//!   (add, update hunk by hunk, delete, move), the applied hunks of Codex's
//!   `FileChange` record (`meta.changes`) where it kept one; a patch that
//!   failed is a `generic` `edit` card with Codex's message.
//! * `update_plan` → the plan checklist ([`CallRole::Plans`]: the reader
//!   writes the `todo/write`); `request_user_input` → the question
//!   ([`CallRole::Asks`]).
//! * `web_search_call` (hosted) → `web` `search`: the query; Codex stores
//!   no results, and the card says so.
//! * MCP tools (`mcp__server__tool`, `server__tool`) → `generic` naming the
//!   server and the tool; anything else → `generic` with its arguments.

mod classified;
mod patch;

use serde_json::Value;

use crate::agents::Mapping;
use crate::session::{Call, CallRole, Presented, Presenters, Settled};
use crate::wire::view::{
    DiffView, FileDiff, GenericView, Location, TerminalView, View, WebBody, WebView,
};
use crate::agents::codex::read::output;
use crate::agents::unified::{Hunk, unified_hunks};
use patch::{FileOp, Op};

/// The Codex presenters.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Codex;

/// Codex's tools and their cards (`docs/agents.md`'s table; MCP tools and
/// any other tool are `generic`).
pub(super) const MAPPING: &[Mapping] = &[
    Mapping { tools: &["exec_command", "shell", "local_shell"], card: "terminal" },
    Mapping { tools: &["apply_patch"], card: "diff" },
    Mapping { tools: &["update_plan"], card: "plan" },
    Mapping { tools: &["web_search_call"], card: "web" },
    Mapping { tools: &["request_user_input"], card: "question" },
];

/// What Codex's rollout says of its hosted searches' results.
const NO_RESULTS: &str = "Codex keeps no search results in its session file: only the query.";

impl Presenters for Codex {
    fn call_view(&self, call: Call<'_>) -> Option<View> {
        let Call { tool, arguments } = call;
        let args = parse_args(arguments);
        if let Some(ops) = patch_ops(tool, &args, arguments) {
            return Some(diff_view(&ops, None));
        }
        Some(match tool {
            "exec_command" | "shell" | "local_shell" => terminal_call(&args),
            "apply_patch" => generic("Patch", "edit", Value::String(arguments.into())),
            "update_plan" => generic("Update plan", "other", args.get("plan").cloned()?),
            "request_user_input" => generic("Ask the user", "other", args),
            "web_search_call" => {
                let query = query(&args);
                generic(&query, "search", Value::String(query.clone()))
            }
            _ => match mcp(tool) {
                Some((server, name)) => generic(&format!("{server} · {name}"), "other", args),
                None => generic(tool, "other", args),
            },
        })
    }

    fn result_view(&self, settled: &Settled<'_>) -> Option<Presented> {
        result(settled).map(Presented::View)
    }

    fn role(&self, tool: &str) -> CallRole {
        match tool {
            "update_plan" => CallRole::Plans,
            "request_user_input" => CallRole::Asks,
            _ => CallRole::Tool,
        }
    }
}

/// The view of a settled call's result.
fn result(s: &Settled<'_>) -> Option<View> {
    let args = parse_args(s.arguments);
    let text = text_of(s.content);
    if let Some(ops) = patch_ops(s.tool, &args, s.arguments) {
        let out = output::parse(&text);
        // A patch that failed keeps the call's diff (drawn `not
        // applied`, what Codex said after it).
        if s.is_error || out.exit_code.is_some_and(|c| c != 0) {
            return None;
        }
        return Some(diff_view(&ops, s.meta.and_then(|m| m.get("changes"))));
    }
    match s.tool {
        "exec_command" | "shell" | "local_shell" => Some(if s.is_error {
            error_view(&text, "execute")
        } else {
            let out = exec_output(&text, s.meta);
            classified::view(&command_line(&args), &out, s.meta)
                .unwrap_or_else(|| terminal_result(&args, &out))
        }),
        "web_search_call" => {
            let body = WebBody::Search {
                sources: Vec::new(),
                answer: Some(NO_RESULTS.into()),
                failures: Vec::new(),
            };
            Some(WebView::new(Some(query(&args)), body).into())
        }
        _ => None,
    }
}

/// The arguments as JSON (`null` when they are not JSON).
fn parse_args(arguments: &str) -> Value {
    serde_json::from_str(arguments).unwrap_or(Value::Null)
}

/// The text blocks of a result, joined.
fn text_of(content: &[Value]) -> String {
    let texts: Vec<&str> = content
        .iter()
        .filter_map(|b| b.get("text").and_then(Value::as_str))
        .collect();
    texts.join("\n")
}

fn generic(title: &str, kind: &str, raw_input: Value) -> View {
    GenericView {
        raw_input: (!raw_input.is_null()).then_some(raw_input),
        ..GenericView::new(title, kind)
    }
    .into()
}

/// A failed call: its message as the card's content.
fn error_view(text: &str, kind: &str) -> View {
    let view = GenericView {
        kind: Some(kind.into()),
        ..GenericView::default()
    };
    view.with_text(text).into()
}

/// `mcp__server__tool` / `server__tool` → (server, tool).
fn mcp(tool: &str) -> Option<(&str, &str)> {
    let rest = tool.strip_prefix("mcp__").unwrap_or(tool);
    let (server, name) = rest.split_once("__")?;
    (!server.is_empty() && !name.is_empty()).then_some((server, name))
}

/// The query of a hosted search's action (`{type: "search", query}`), or
/// its URL for other actions (`open_page`, `find_in_page`).
fn query(args: &Value) -> String {
    ["query", "url", "pattern"]
        .iter()
        .find_map(|k| args.get(*k).and_then(Value::as_str))
        .unwrap_or("web search")
        .to_string()
}

/// The command a call runs, as a line: `cmd` (a string), or `command` (an
/// argv; `bash -lc SCRIPT` shown as the script).
fn command_line(args: &Value) -> String {
    if let Some(cmd) = args.get("cmd").and_then(Value::as_str) {
        return cmd.to_string();
    }
    let argv: Vec<&str> = match args.get("command") {
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).collect(),
        Some(Value::String(s)) => return s.clone(),
        _ => return String::new(),
    };
    match argv.as_slice() {
        [shell, flag, script] if is_shell(shell) && matches!(*flag, "-lc" | "-c") => {
            (*script).to_string()
        }
        _ => argv.iter().map(|a| quote(a)).collect::<Vec<_>>().join(" "),
    }
}

fn is_shell(arg: &str) -> bool {
    let name = arg.rsplit('/').next().unwrap_or(arg);
    matches!(name, "bash" | "sh" | "zsh")
}

/// An argv word quoted for a POSIX shell when it needs to be.
fn quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@%".contains(&b));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

fn terminal_call(args: &Value) -> View {
    let cwd = ["workdir", "working_directory"]
        .iter()
        .find_map(|k| args.get(*k).and_then(Value::as_str));
    View::Terminal(TerminalView {
        title: Some(command_line(args)),
        cwd: cwd.map(str::to_string),
        ..TerminalView::default()
    })
}

/// A command's output read, with the exit code Codex's end event gave
/// when the output itself has none (`meta.exitCode`).
fn exec_output<'a>(text: &'a str, meta: Option<&Value>) -> output::ExecOutput<'a> {
    let mut out = output::parse(text);
    if out.exit_code.is_none() {
        out.exit_code = meta.and_then(|m| m.get("exitCode")).and_then(Value::as_i64);
    }
    out
}

fn terminal_result(args: &Value, out: &output::ExecOutput<'_>) -> View {
    let mut notes = Vec::new();
    // Codex writes `0.0000 seconds` for what took no measurable time.
    if let Some(wall) = out.wall_time.filter(|w| *w >= 0.005) {
        notes.push(format!("wall time {}", seconds(wall)));
    }
    if let Some(id) = &out.running {
        notes.push(format!("still running (session {id})"));
    }
    if out.denied {
        notes.push("stopped by Codex's sandbox".to_string());
    }
    View::Terminal(TerminalView {
        title: Some(command_line(args)),
        output: Some(out.body.to_string()),
        description: (!notes.is_empty()).then(|| notes.join(" · ")),
        exit_code: out.exit_code,
        ..TerminalView::default()
    })
}

/// `0.30 s`, `12 s`.
fn seconds(s: f64) -> String {
    if s >= 10.0 {
        format!("{s:.0} s")
    } else {
        format!("{s:.2} s")
    }
}

/// The files a patch call changes: the freeform input of `apply_patch`
/// (`{"input": …}`, or the envelope itself), or the oldest rollouts' shell
/// call of `apply_patch` (`command: ["apply_patch", PATCH]`).
fn patch_ops(tool: &str, args: &Value, arguments: &str) -> Option<Vec<FileOp>> {
    let text = match tool {
        "apply_patch" => match args.get("input").and_then(Value::as_str) {
            Some(input) => input,
            None => arguments
                .trim_start()
                .starts_with("*** Begin Patch")
                .then_some(arguments)?,
        },
        "shell" | "local_shell" => match args.get("command").and_then(Value::as_array)?.as_slice() {
            [Value::String(name), Value::String(patch)]
                if matches!(name.as_str(), "apply_patch" | "applypatch") =>
            {
                patch
            }
            _ => return None,
        },
        _ => return None,
    };
    patch::parse(text)
}

/// The diff card of a patch: a file diff per hunk (per file for adds and
/// deletes), Codex's applied hunks (`changes`, keyed by absolute path)
/// where it recorded them.
fn diff_view(ops: &[FileOp], changes: Option<&Value>) -> View {
    let mut diffs = Vec::new();
    let mut names = Vec::new();
    for op in ops {
        let recorded = changes.and_then(|c| recorded_change(c, &op.path));
        let path = match &op.op {
            Op::Update {
                move_to: Some(to), ..
            } => to.clone(),
            _ => op.path.clone(),
        };
        match &op.op {
            Op::Add(content) => {
                names.push(format!("add {path}"));
                diffs.push(FileDiff::new(path, None, content.as_str()));
            }
            Op::Delete => {
                names.push(format!("delete {path}"));
                let old = recorded
                    .and_then(|c| c.get("content"))
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                diffs.push(FileDiff::new(path, Some(old.into()), ""));
            }
            Op::Update { hunks, move_to } => {
                names.push(match move_to {
                    Some(to) => format!("move {} → {to}", op.path),
                    None => format!("update {path}"),
                });
                let applied = recorded
                    .and_then(|c| c.get("unified_diff"))
                    .and_then(Value::as_str)
                    .map(unified_hunks)
                    .filter(|h| !h.is_empty());
                for h in applied.as_deref().unwrap_or(hunks) {
                    diffs.push(hunk_diff(&path, h));
                }
            }
        }
    }
    View::Diff(DiffView {
        title: Some(format!("Patch: {}", names.join(", "))),
        diffs,
        locations: ops.iter().map(|o| Location::new(o.path.as_str(), None)).collect(),
    })
}

/// A hunk's file diff, at its lines when a unified diff's header said
/// where (`startLine`, and `newStartLine` when the new side starts
/// elsewhere).
fn hunk_diff(path: &str, h: &Hunk) -> FileDiff {
    let mut d = FileDiff::new(path, Some(h.old.clone()), h.new.as_str());
    if let Some(old) = h.old_start {
        d.start_line = Some(old);
        d.new_start_line = h.new_start.filter(|n| *n != old);
    }
    d
}

/// The change Codex recorded for `path` (a path relative to the session's
/// directory, where Codex keys changes by absolute path).
fn recorded_change<'a>(changes: &'a Value, path: &str) -> Option<&'a Value> {
    let map = changes.as_object()?;
    map.get(path).or_else(|| {
        map.iter()
            .find(|(k, _)| k.strip_suffix(path).is_some_and(|pre| pre.ends_with('/')))
            .map(|(_, v)| v)
    })
}

#[cfg(test)]
mod tests;
