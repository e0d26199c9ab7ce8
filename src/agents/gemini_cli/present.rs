//! Gemini CLI's tools as cards — the only place naming them. A result's
//! `meta` holds its `toolCalls` entry's `resultDisplay` when that is
//! structured (an edit's `fileDiff`, a search's `matches`: `read.rs`).
//!
//! | tool | card |
//! |---|---|
//! | run_shell_command | terminal: the command, its description and directory; the output's sections (`Output:`, `Error:`), the exit code it says (`Exit Code: N`, written only when not 0) or the signal |
//! | read_file | read, at the lines the call asked for (`start_line`; the file's length only for a whole read) |
//! | replace, write_file | diff: the hunks of `resultDisplay.fileDiff` at their real lines; a new file whole |
//! | glob | search: the paths found |
//! | grep_search, search_file_content | search: the matches by file (`resultDisplay.matches`, else the output's `File:`/`L12:` lines) |
//! | web_fetch, google_web_search | web (a fetch's URLs are in its prompt) |
//! | anything else | generic with the raw input and the output (as it came: fenced) |

use serde_json::Value;

use super::read::{shell_exit, shell_sections};
use crate::session::{Args, arg};
use crate::text::markdown::fenced;
use crate::agents::Mapping;
use crate::agents::unified::unified_hunks;
use crate::session::arguments_object as parse;
use crate::session::{Call, Presented, Presenters, Settled};
use crate::wire::view::{
    DiffView, FileDiff, GenericView, Location, ReadLine, ReadView, SearchBody, SearchFile,
    SearchMatch, SearchView, TerminalView, View, WebBody, WebSource, WebView,
};

/// Gemini CLI's tools and their cards (`docs/agents.md`'s table; any
/// other tool is `generic`).
pub(super) const MAPPING: &[Mapping] = &[
    Mapping { tools: &["run_shell_command"], card: "terminal" },
    Mapping { tools: &["read_file"], card: "read" },
    Mapping { tools: &["replace", "write_file"], card: "diff" },
    Mapping { tools: &["glob", "grep_search", "search_file_content"], card: "search" },
    Mapping { tools: &["web_fetch", "google_web_search"], card: "web" },
];

/// The Gemini CLI presenters.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct GeminiCli;



impl Presenters for GeminiCli {
    fn call_view(&self, call: Call<'_>) -> Option<View> {
        let args = parse(call.arguments);
        Some(match call.tool {
            "run_shell_command" => View::Terminal(TerminalView {
                title: arg(&args, "command").map(str::to_string),
                description: arg(&args, "description").map(str::to_string),
                cwd: arg(&args, "dir_path").or_else(|| arg(&args, "directory")).map(str::to_string),
                ..TerminalView::default()
            }),
            "read_file" => {
                let path = arg(&args, "file_path").or_else(|| arg(&args, "absolute_path"))?;
                let (start, end) = window(&args);
                let range = match (start, end) {
                    (Some(s), Some(e)) => format!(" ({s} - {e})"),
                    (Some(s), None) => format!(" (from line {s})"),
                    _ => String::new(),
                };
                GenericView {
                    locations: vec![Location::new(path, Some(start.unwrap_or(1)))],
                    ..GenericView::new(format!("Read {path}{range}"), "read")
                }
                .into()
            }
            "replace" | "write_file" => edit_call(call.tool, &args)?,
            "glob" | "grep_search" | "search_file_content" => GenericView {
                raw_input: Some(Value::Object(args.clone())),
                ..GenericView::new(search_title(call.tool, &args), "search")
            }
            .into(),
            "web_fetch" => GenericView {
                raw_input: args.get("prompt").cloned(),
                ..GenericView::new("Fetch", "fetch")
            }
            .into(),
            "google_web_search" => {
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
        let display = s.meta.and_then(|m| m.get("resultDisplay"));
        // A command that failed still says how, in its sections (Qwen Code's
        // calls it an error): its terminal card.
        if s.tool == "run_shell_command" && shell_sections(&text).is_some() {
            return Some(shell_result(&args, &text).into());
        }
        if s.is_error {
            // Its message, on the generic card (a cancel's too).
            let view = GenericView::default();
            return (!text.is_empty()).then(|| View::from(view.with_text(text)).into());
        }
        let view = match s.tool {
            "run_shell_command" => shell_result(&args, &text),
            "read_file" => read_result(&args, &text)?,
            "replace" | "write_file" => edit_result(s.tool, &args, display)?,
            "glob" => glob_result(&text)?,
            "grep_search" | "search_file_content" => grep_result(&text, display)?,
            "web_fetch" | "google_web_search" => web_result(s.tool, &args, &text),
            _ => GenericView::default().with_text(fenced(&text)).into(),
        };
        Some(view.into())
    }
}

/// A read's lines asked for (`start_line`/`end_line`, 1-based; older
/// versions' `offset` (0-based) and `limit`).
fn window(args: &Args) -> (Option<u64>, Option<u64>) {
    let n = |k: &str| args.get(k).and_then(Value::as_u64);
    match (n("start_line"), n("end_line"), n("offset"), n("limit")) {
        (Some(s), e, _, _) => (Some(s), e),
        (None, _, Some(o), l) => (Some(o + 1), l.map(|l| o + l)),
        (None, _, None, Some(l)) => (Some(1), Some(l)),
        _ => (None, None),
    }
}

fn search_title(tool: &str, args: &Args) -> String {
    let verb = if tool == "glob" { "Glob" } else { "Grep" };
    let mut title = format!("{verb} {}", arg(args, "pattern").unwrap_or_default());
    for key in ["dir_path", "path"] {
        if let Some(v) = arg(args, key) {
            title.push_str(&format!(" in {v}"));
        }
    }
    if let Some(v) = arg(args, "include_pattern").or_else(|| arg(args, "include")) {
        title.push_str(&format!(" ({v})"));
    }
    title
}


fn shell_result(args: &Args, text: &str) -> View {
    let mut view = TerminalView {
        title: arg(args, "command").map(str::to_string),
        ..TerminalView::default()
    };
    match shell_sections(text) {
        Some(sections) => {
            let get = |label: &str| sections.iter().find(|(l, _)| *l == label).map(|(_, s)| s.as_str());
            let mut output = get("Output").unwrap_or_default().to_string();
            if output == "(empty)" {
                output.clear();
            }
            if let Some(e) = get("Error") {
                output = format!("{output}\n[stderr]\n{e}");
            }
            view.output = Some(output);
            view.signal = get("Signal").map(|s| s.trim().to_string());
            view.exit_code = shell_exit(text);
        }
        None => view.output = Some(text.to_string()),
    }
    View::Terminal(view)
}

/// The file's lines the read returned, numbered from the line asked for:
/// for a window, the `Showing lines X-Y` the CLI's note says, its lines
/// after `--- FILE CONTENT (truncated) ---` (the CLI joins them with `\n`:
/// the window's last line may be the empty one); else the whole file, its
/// length then known.
fn read_result(args: &Args, text: &str) -> Option<View> {
    let path = arg(args, "file_path").or_else(|| arg(args, "absolute_path"))?;
    // Gemini CLI's note ends `--- FILE CONTENT (truncated) ---`; Qwen
    // Code's is `Showing lines X-Y of N total lines.` then `---`.
    const CUT: &str = "--- FILE CONTENT (truncated) ---\n";
    let cut = text.split_once(CUT).or_else(|| {
        let (note, body) = text.split_once("\n\n---\n\n")?;
        note.starts_with("Showing lines ").then_some((note, body))
    });
    let (lines, from, whole): (Vec<&str>, u64, bool) = match cut {
        Some((note, body)) => {
            let (x, y) = shown(note)?;
            let count = usize::try_from(y.checked_sub(x)? + 1).ok()?;
            (body.split('\n').take(count).collect(), x, false)
        }
        None if text.trim_start().starts_with("IMPORTANT:") => return None,
        None => {
            let mut lines: Vec<&str> = text.split('\n').collect();
            if text.ends_with('\n') {
                lines.pop();
            }
            let (start, _) = window(args);
            (lines, start.unwrap_or(1), start.is_none())
        }
    };
    let read = (from..).zip(lines).map(|(n, l)| ReadLine::new(n, l)).collect::<Vec<_>>();
    let mut view = ReadView::new(path, from, read);
    if whole {
        view.total_lines = view.lines.len() as u64;
    }
    Some(view.into())
}

/// `Showing lines X-Y of N total lines.` in a window's note: X and Y.
fn shown(note: &str) -> Option<(u64, u64)> {
    let rest = note.split_once("Showing lines ")?.1;
    let (range, _) = rest.split_once(' ')?;
    let (x, y) = range.split_once('-')?;
    Some((x.parse().ok()?, y.parse().ok()?))
}

fn edit_call(tool: &str, args: &Args) -> Option<View> {
    let path = arg(args, "file_path")?;
    let diff = match tool {
        "write_file" => FileDiff::new(path, None, arg(args, "content").unwrap_or_default()).existed_unknown(),
        _ => {
            let old = arg(args, "old_string").unwrap_or_default();
            FileDiff::new(path, Some(old.into()), arg(args, "new_string").unwrap_or_default())
        }
    };
    let verb = if tool == "write_file" { "Write" } else { "Edit" };
    Some(View::Diff(DiffView {
        title: Some(format!("{verb} {path}")),
        diffs: vec![diff],
        locations: vec![Location::new(path, None)],
    }))
}

/// The change as the CLI diffed it (`resultDisplay.fileDiff`): each hunk at
/// its lines; a new file whole.
fn edit_result(tool: &str, args: &Args, display: Option<&Value>) -> Option<View> {
    let display = display?;
    let field = |k: &str| display.get(k).and_then(Value::as_str);
    let path = field("filePath").or_else(|| arg(args, "file_path"))?;
    let verb = if tool == "write_file" { "Write" } else { "Edit" };
    let diffs: Vec<FileDiff> = if display.get("isNewFile") == Some(&Value::Bool(true)) {
        vec![FileDiff::new(path, None, field("newContent")?).at(1)]
    } else {
        unified_hunks(field("fileDiff")?)
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
            title: Some(format!("{verb} {path}")),
            diffs,
            locations: Vec::new(),
        })
    })
}

/// `Found N file(s) matching … :` then one absolute path a line.
fn glob_result(text: &str) -> Option<View> {
    let (head, rest) = text.split_once('\n')?;
    if !head.starts_with("Found ") {
        return None;
    }
    let paths: Vec<String> = (rest.lines())
        .filter(|l| !l.is_empty() && *l != "---")
        .map(str::to_string)
        .collect();
    Some(SearchView::new(None, SearchBody::Paths(paths)).into())
}

/// The matches by file: `resultDisplay.matches` (`filePath`, `lineNumber`,
/// `line`), else the output's `File: path` then `L12: text` lines (`L12-`
/// lines are context, not matches).
fn grep_result(text: &str, display: Option<&Value>) -> Option<View> {
    let mut files: Vec<SearchFile> = Vec::new();
    let mut add = |path: &str, m: SearchMatch| match files.iter_mut().find(|f| f.path == path) {
        Some(f) => f.matches.push(m),
        None => files.push(SearchFile::new(path, vec![m])),
    };
    if let Some(matches) = display.and_then(|d| d.get("matches")).and_then(Value::as_array) {
        for m in matches {
            let path = m.get("filePath").and_then(Value::as_str).unwrap_or_default();
            let n = m.get("lineNumber").and_then(Value::as_u64).unwrap_or(0);
            add(path, SearchMatch::new(n, m.get("line").and_then(Value::as_str).unwrap_or_default()));
        }
    } else {
        let mut file = None;
        for line in text.lines() {
            if let Some(p) = line.strip_prefix("File: ") {
                file = Some(p.to_string());
            } else if let (Some(f), Some(rest)) = (&file, line.strip_prefix('L'))
                && let Some((n, body)) = rest.split_once(": ")
                && let Ok(n) = n.parse::<u64>()
            {
                add(f, SearchMatch::new(n, body));
            }
        }
    }
    if files.is_empty() && !text.starts_with("No matches") {
        return None;
    }
    Some(SearchView::new(None, SearchBody::Matches(files)).into())
}

/// A fetch: the URLs its prompt names, what the model made of the pages as
/// the answer; a search: the answer.
fn web_result(tool: &str, args: &Args, text: &str) -> View {
    let (title, sources) = match tool {
        "web_fetch" => {
            let prompt = arg(args, "prompt").unwrap_or_default();
            let urls: Vec<WebSource> = prompt
                .split_whitespace()
                .filter(|w| w.starts_with("http://") || w.starts_with("https://"))
                .map(WebSource::new)
                .collect();
            ("Fetch".to_string(), urls)
        }
        _ => (arg(args, "query").unwrap_or_default().to_string(), Vec::new()),
    };
    let body = WebBody::Search {
        sources,
        answer: (!text.is_empty()).then(|| text.to_string()),
        failures: Vec::new(),
    };
    WebView::new(Some(title), body).into()
}

#[cfg(test)]
mod tests;
