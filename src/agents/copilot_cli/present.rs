//! GitHub Copilot CLI's tools as cards — the only place naming them. A
//! result's `meta` holds what its `tool.execution_complete` says beside the
//! text (`read.rs`): `detailedContent` (a git-style diff: a view's lines,
//! an edit's change, at their real lines), `shellExecution` (a shell's
//! exit code) and the view's `viewType` (file or directory).
//!
//! | tool | card |
//! |---|---|
//! | bash, powershell | terminal: the command and its description; the output without the `<shellId: N completed with exit code M>` line it ends with; the exit code `shellExecution.exitCode` says (`failed` when not 0) |
//! | view | read: the file's lines from the line `view_range` asks for (the diff's hunk says where they start); a directory's listing on the generic card |
//! | edit, create | diff: the hunks of `detailedContent` at their real lines; a new file whole |
//! | glob | search: the paths found |
//! | grep | search: the matches by file with their line numbers (`output_mode: content` with `-n`); the files found (`files_with_matches`) |
//! | web_fetch | web |
//! | anything else | generic with the raw input and the output (as it came: fenced) |

use serde_json::Value;

use crate::session::{Args, arg};
use crate::text::markdown::fenced;
use crate::agents::{Mapping, grep};
use crate::agents::unified::unified_hunks;
use crate::session::arguments_object as parse;
use crate::session::{Call, Presented, Presenters, Settled};
use crate::wire::view::{
    DiffView, FileDiff, GenericView, Location, ReadLine, ReadView, SearchBody, SearchView,
    TerminalView, View, WebBody, WebView,
};

/// Copilot CLI's tools and their cards (`docs/agents.md`'s table; any
/// other tool is `generic`).
pub(super) const MAPPING: &[Mapping] = &[
    Mapping { tools: &["bash", "powershell"], card: "terminal" },
    Mapping { tools: &["view"], card: "read" },
    Mapping { tools: &["edit", "create"], card: "diff" },
    Mapping { tools: &["glob", "grep"], card: "search" },
    Mapping { tools: &["web_fetch"], card: "web" },
];

/// The Copilot CLI presenters.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct CopilotCli;



/// The first line a view asks for (`view_range: [start, end]`, 1-based).
fn range_start(args: &Args) -> Option<u64> {
    args.get("view_range").and_then(|r| r.get(0)).and_then(Value::as_u64)
}

impl Presenters for CopilotCli {
    fn call_view(&self, call: Call<'_>) -> Option<View> {
        let args = parse(call.arguments);
        Some(match call.tool {
            "bash" | "powershell" => View::Terminal(TerminalView {
                title: arg(&args, "command").map(str::to_string),
                description: arg(&args, "description").map(str::to_string),
                ..TerminalView::default()
            }),
            "view" => {
                let path = arg(&args, "path")?;
                let range = match args.get("view_range").and_then(Value::as_array).map(Vec::as_slice) {
                    Some([a, b]) => format!(" ({a} - {b})"),
                    _ => String::new(),
                };
                GenericView {
                    locations: vec![Location::new(path, Some(range_start(&args).unwrap_or(1)))],
                    ..GenericView::new(format!("View {path}{range}"), "read")
                }
                .into()
            }
            "edit" | "create" => edit_call(call.tool, &args)?,
            "glob" | "grep" => GenericView {
                raw_input: Some(Value::Object(args.clone())),
                ..GenericView::new(search_title(call.tool, &args), "search")
            }
            .into(),
            "web_fetch" => GenericView {
                raw_input: args.get("url").cloned(),
                ..GenericView::new("Fetch", "fetch")
            }
            .into(),
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
        let meta = |k: &str| s.meta.and_then(|m| m.get(k));
        if s.is_error {
            // Its message, on the generic card (a cancel's and a refusal's too).
            return (!text.is_empty()).then(|| View::from(GenericView::default().with_text(text)).into());
        }
        let view = match s.tool {
            "bash" | "powershell" => shell_result(&args, &text, meta("shellExecution")),
            "view" if meta("viewType").and_then(Value::as_str) == Some("directory") => {
                GenericView::default().with_text(fenced(&text)).into()
            }
            "view" => read_result(&args, &text, meta("detailedContent").and_then(Value::as_str))?,
            "edit" | "create" => edit_result(s.tool, &args, meta("detailedContent").and_then(Value::as_str))?,
            "glob" => SearchView::new(None, SearchBody::Paths(grep::paths(&text))).into(),
            "grep" => grep_result(&args, &text),
            "web_fetch" => WebView::new(
                Some("Fetch".into()),
                WebBody::Fetch {
                    url: arg(&args, "url").unwrap_or_default().to_string(),
                    status_code: None,
                },
            )
            .into(),
            _ => GenericView::default().with_text(fenced(&text)).into(),
        };
        Some(view.into())
    }
}

fn search_title(tool: &str, args: &Args) -> String {
    let verb = if tool == "glob" { "Glob" } else { "Grep" };
    let mut title = format!("{verb} {}", arg(args, "pattern").unwrap_or_default());
    match args.get("paths") {
        Some(Value::String(p)) => title.push_str(&format!(" in {p}")),
        Some(Value::Array(ps)) => {
            let ps: Vec<&str> = ps.iter().filter_map(Value::as_str).collect();
            title.push_str(&format!(" in {}", ps.join(", ")));
        }
        _ => {}
    }
    if let Some(g) = arg(args, "glob") {
        title.push_str(&format!(" ({g})"));
    }
    title
}


/// The output, and the `<shellId: N completed with exit code M>` line it
/// ends with when the command ended (M, unless `shellExecution` says).
fn shell_result(args: &Args, text: &str, shell: Option<&Value>) -> View {
    let trimmed = text.trim_end_matches('\n');
    let (output, said) = match trimmed.rsplit_once('\n').map_or(("", trimmed), |(a, b)| (a, b)) {
        (before, last) if last.starts_with("<shellId: ") && last.ends_with('>') => {
            let code = last.rsplit_once("exit code ").and_then(|(_, c)| c.trim_end_matches('>').parse::<i64>().ok());
            (before, code)
        }
        _ => (text, None),
    };
    View::Terminal(TerminalView {
        title: arg(args, "command").map(str::to_string),
        description: arg(args, "description").map(str::to_string),
        output: Some(output.to_string()),
        exit_code: shell.and_then(|s| s.get("exitCode")).and_then(Value::as_i64).or(said),
        ..TerminalView::default()
    })
}

/// The file's lines the view returned, numbered from where its diff's
/// hunk says they start (else the line `view_range` asks for, else 1).
fn read_result(args: &Args, text: &str, detailed: Option<&str>) -> Option<View> {
    let path = arg(args, "path")?;
    let from = detailed
        .and_then(|d| unified_hunks(d).first().and_then(|h| h.old_start))
        .filter(|n| *n > 0)
        .or_else(|| range_start(args))
        .unwrap_or(1);
    let mut lines: Vec<&str> = text.split('\n').collect();
    if text.ends_with('\n') {
        lines.pop();
    }
    let read = (from..).zip(lines).map(|(n, l)| ReadLine::new(n, l)).collect();
    Some(ReadView::new(path, from, read).into())
}

fn edit_call(tool: &str, args: &Args) -> Option<View> {
    let path = arg(args, "path")?;
    let diff = match tool {
        "create" => FileDiff::new(path, None, arg(args, "file_text").unwrap_or_default()),
        _ => FileDiff::new(path, Some(arg(args, "old_str").unwrap_or_default().into()), arg(args, "new_str").unwrap_or_default()),
    };
    Some(View::Diff(DiffView {
        title: Some(format!("{} {path}", verb(tool))),
        diffs: vec![diff],
        locations: vec![Location::new(path, None)],
    }))
}

fn verb(tool: &str) -> &'static str {
    if tool == "create" { "Create" } else { "Edit" }
}

/// The change as the CLI diffed it (`detailedContent`): each hunk at its
/// lines; a new file whole.
fn edit_result(tool: &str, args: &Args, detailed: Option<&str>) -> Option<View> {
    let path = arg(args, "path")?;
    let diffs: Vec<FileDiff> = if tool == "create" {
        vec![FileDiff::new(path, None, arg(args, "file_text")?).at(1)]
    } else {
        unified_hunks(detailed?)
            .into_iter()
            .filter(|h| h.old != h.new)
            .map(|h| {
                let mut d = FileDiff::new(path, Some(h.old), h.new);
                if let Some(old) = h.old_start {
                    d.start_line = Some(old);
                    d.new_start_line = h.new_start.filter(|n| *n != old);
                }
                d
            })
            .collect()
    };
    (!diffs.is_empty()).then(|| {
        View::Diff(DiffView {
            title: Some(format!("{} {path}", verb(tool))),
            diffs,
            locations: Vec::new(),
        })
    })
}

/// Content lines `path:N:text` (with `-n`) by file; else the files found
/// (`files_with_matches`, the default); counts on the generic card.
fn grep_result(args: &Args, text: &str) -> View {
    match arg(args, "output_mode") {
        Some("content") => match grep::matches(text) {
            Some(files) => SearchView::new(None, SearchBody::Matches(files)).into(),
            None => GenericView::default().with_text(fenced(text)).into(),
        },
        Some("count") => GenericView::default().with_text(fenced(text)).into(),
        _ => SearchView::new(None, SearchBody::Paths(grep::paths(text))).into(),
    }
}

#[cfg(test)]
mod tests;
