//! Cline CLI's tools as cards — the only place naming them. Its tools take
//! batches (commands, files, queries, requests); a result's `meta` holds its
//! entries, one per item (`{query, result, error?, success}`: `read.rs`).
//!
//! | tool | card |
//! |---|---|
//! | run_commands | terminal: the commands (one a line), each one's output under `$ command` when there are several, the exit code (`[Command exited with code N]`; 0 for a command that succeeded; a batch's first non-zero one) |
//! | read_files | read, one file at the lines it returned (numbered by the CLI); several files on the generic card |
//! | editor, apply_patch | diff: an edit's old and new text (at no known line: the log has none), an insert at its `insert_line`, a new file whole; a patch's files and hunks (its `@@` carry no line numbers) |
//! | search_codebase | search: the matches (`path:line:column`) of every query |
//! | fetch_web_content | web: the URLs, what came back, the requests that failed |
//! | anything else (ask_question, spawn_agent, team_*) | generic with the raw input and the output |

use serde_json::Value;

use super::read::{COMMANDS, entry_exit, entry_text, exit_code, failed};
use crate::session::{Args, arg};
use crate::text::markdown::fenced;
use crate::agents::Mapping;
use crate::session::arguments_object as parse;
use crate::session::{Call, Presented, Presenters, Settled};
use crate::wire::view::{
    DiffView, FileDiff, GenericView, Location, ReadLine, ReadView, SearchBody, SearchFile, SearchMatch,
    SearchView, TerminalView, View, WebBody, WebFailure, WebSource, WebView,
};

/// Cline's tools and their cards (`docs/agents.md`'s table; any other tool
/// is `generic`).
pub(super) const MAPPING: &[Mapping] = &[
    Mapping { tools: &["run_commands"], card: "terminal" },
    Mapping { tools: &["read_files"], card: "read" },
    Mapping { tools: &["editor", "apply_patch"], card: "diff" },
    Mapping { tools: &["search_codebase"], card: "search" },
    Mapping { tools: &["fetch_web_content"], card: "web" },
];

/// The Cline presenters.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Cline;



/// The strings of an array argument (`commands`, `queries`).
fn strings<'a>(args: &'a Args, key: &str) -> Vec<&'a str> {
    args.get(key).and_then(Value::as_array).map_or_else(Vec::new, |a| a.iter().filter_map(Value::as_str).collect())
}

/// The objects of an array argument (`files`, `requests`).
fn objects<'a>(args: &'a Args, key: &str) -> Vec<&'a Value> {
    args.get(key).and_then(Value::as_array).map_or_else(Vec::new, |a| a.iter().filter(|v| v.is_object()).collect())
}

impl Presenters for Cline {
    fn call_view(&self, call: Call<'_>) -> Option<View> {
        let args = parse(call.arguments);
        Some(match call.tool {
            COMMANDS => View::Terminal(TerminalView {
                title: Some(strings(&args, "commands").join("\n")),
                ..TerminalView::default()
            }),
            "read_files" => {
                let files = objects(&args, "files");
                let locations: Vec<Location> = (files.iter())
                    .filter_map(|f| Some(Location::new(f.get("path")?.as_str()?, Some(start(f).unwrap_or(1)))))
                    .collect();
                let title = match files.as_slice() {
                    [one] => format!("Read {}{}", one.get("path").and_then(Value::as_str).unwrap_or_default(), range(one)),
                    many => format!("Read {} files", many.len()),
                };
                GenericView {
                    locations,
                    ..GenericView::new(title, "read")
                }
                .into()
            }
            "editor" | "apply_patch" => edit_view(call.tool, &args)?,
            "search_codebase" => GenericView {
                raw_input: args.get("queries").cloned(),
                ..GenericView::new(format!("Search {}", strings(&args, "queries").join(", ")), "search")
            }
            .into(),
            "fetch_web_content" => {
                let urls: Vec<&str> = objects(&args, "requests").iter().filter_map(|r| r.get("url")?.as_str()).collect();
                GenericView {
                    raw_input: args.get("requests").cloned(),
                    ..GenericView::new(format!("Fetch {}", urls.join(", ")), "fetch")
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
        let entries: Vec<Value> = (s.meta.and_then(|m| m.get("entries")).and_then(Value::as_array).cloned()).unwrap_or_default();
        // A command's and a fetch's failures are drawn on their cards.
        if entries.is_empty() || s.is_error && !matches!(s.tool, COMMANDS | "fetch_web_content") {
            // A refusal, or every item failed: the messages.
            let view = GenericView::default().with_text(fenced(&text));
            return (!text.is_empty()).then(|| View::from(view).into());
        }
        let view = match s.tool {
            COMMANDS => commands_result(&args, &entries),
            "read_files" => read_result(&entries).unwrap_or_else(|| listing(&entries)),
            "editor" | "apply_patch" => edit_view(s.tool, &args)?,
            "search_codebase" => search_result(&entries),
            "fetch_web_content" => web_result(&entries),
            _ => GenericView::default().with_text(fenced(&text)).into(),
        };
        Some(view.into())
    }
}

fn start(file: &Value) -> Option<u64> {
    file.get("start_line").and_then(Value::as_u64)
}

fn range(file: &Value) -> String {
    match (start(file), file.get("end_line").and_then(Value::as_u64)) {
        (Some(a), Some(b)) => format!(" ({a} - {b})"),
        (Some(a), None) => format!(" (from line {a})"),
        (None, Some(b)) => format!(" (to line {b})"),
        _ => String::new(),
    }
}

/// A command's output: its result without the exit line at its head.
fn output(entry: &Value) -> String {
    let text = entry_text(entry);
    match text.strip_prefix("[Command exited with code ") {
        Some(rest) => rest.split_once(']').map_or(text, |(_, o)| o.strip_prefix('\n').unwrap_or(o)).to_string(),
        None => text.to_string(),
    }
}

fn commands_result(args: &Args, entries: &[Value]) -> View {
    let out = match entries {
        [one] => output(one),
        many => {
            let parts: Vec<String> = many
                .iter()
                .map(|e| {
                    let cmd = e.get("query").and_then(Value::as_str).unwrap_or_default();
                    let code = entry_exit(e).map_or_else(|| " (exit code unknown)".into(), |c| format!(" (exit {c})"));
                    format!("$ {}{code}\n{}", cmd.replace('\n', "\n  "), output(e).trim_end_matches('\n'))
                })
                .collect();
            parts.join("\n\n")
        }
    };
    View::Terminal(TerminalView {
        title: Some(strings(args, "commands").join("\n")),
        output: Some(out),
        exit_code: exit_code(entries),
        ..TerminalView::default()
    })
}

/// One file read: its lines as the CLI numbered them (`  12 | text`);
/// several files, or lines it cannot number: `None`.
fn read_result(entries: &[Value]) -> Option<View> {
    let [one] = entries else {
        return None;
    };
    let query = one.get("query").and_then(Value::as_str)?;
    // A range is asked as `path:3-3`.
    let path = match query.rsplit_once(':') {
        Some((p, r)) if r.split('-').all(|n| n.parse::<u64>().is_ok()) => p,
        _ => query,
    };
    let lines: Option<Vec<ReadLine>> = entry_text(one)
        .split('\n')
        .map(|l| {
            let (n, body) = l.split_once(" | ").or_else(|| l.strip_suffix(" |").map(|n| (n, "")))?;
            Some(ReadLine::new(n.trim().parse().ok()?, body))
        })
        .collect();
    let lines = lines.filter(|l| !l.is_empty())?;
    let from = lines[0].number;
    Some(ReadView::new(path, from, lines).into())
}

/// Each entry's text under its query.
fn listing(entries: &[Value]) -> View {
    let parts: Vec<String> = entries
        .iter()
        .map(|e| {
            let q = e.get("query").and_then(Value::as_str).unwrap_or_default();
            let mark = if failed(e) { " (failed)" } else { "" };
            format!("**{q}**{mark}\n\n{}", fenced(entry_text(e)))
        })
        .collect();
    GenericView::default().with_text(parts.join("\n\n")).into()
}

/// The matches of every query: `path:line:column` lines.
fn search_result(entries: &[Value]) -> View {
    let mut files: Vec<SearchFile> = Vec::new();
    for e in entries {
        for l in entry_text(e).lines() {
            let mut it = l.rsplitn(3, ':');
            let (Some(col), Some(line), Some(path)) = (it.next(), it.next(), it.next()) else {
                continue;
            };
            let (Ok(_), Ok(n)) = (col.parse::<u64>(), line.parse::<u64>()) else {
                continue;
            };
            let m = SearchMatch::new(n, "");
            match files.iter_mut().find(|f| f.path == path) {
                Some(f) => f.matches.push(m),
                None => files.push(SearchFile::new(path, vec![m])),
            }
        }
    }
    SearchView::new(None, SearchBody::Matches(files)).into()
}

fn web_result(entries: &[Value]) -> View {
    let query = |e: &Value| e.get("query").and_then(Value::as_str).unwrap_or_default().to_string();
    let sources = entries.iter().filter(|e| !failed(e)).map(|e| WebSource::new(query(e))).collect();
    let answers: Vec<&str> = entries.iter().filter(|e| !failed(e)).map(entry_text).filter(|t| !t.is_empty()).collect();
    let failures = (entries.iter().filter(|e| failed(e)))
        .map(|e| WebFailure {
            query: query(e),
            code: String::new(),
            message: entry_text(e).to_string(),
        })
        .collect();
    let body = WebBody::Search {
        sources,
        answer: (!answers.is_empty()).then(|| answers.join("\n\n")),
        failures,
    };
    WebView::new(Some("Fetch".into()), body).into()
}

/// An edit as its call says it: `editor`'s replace (no line known), insert
/// (at `insert_line`) or new file; `apply_patch`'s files.
fn edit_view(tool: &str, args: &Args) -> Option<View> {
    let diffs = if tool == "apply_patch" {
        patch(arg(args, "input")?)
    } else {
        let path = arg(args, "path")?;
        let new = arg(args, "new_text").unwrap_or_default();
        let diff = match (arg(args, "old_text"), args.get("insert_line").and_then(Value::as_u64)) {
            (_, Some(line)) => FileDiff::new(path, Some(String::new()), new).at(line),
            (Some(old), None) => FileDiff::new(path, Some(old.into()), new),
            (None, None) => FileDiff::new(path, None, new).at(1).existed_unknown(),
        };
        vec![diff]
    };
    let paths: Vec<&str> = diffs.iter().map(|d| d.path.as_str()).collect();
    let title = format!("{} {}", if tool == "apply_patch" { "Patch" } else { "Edit" }, paths.join(", "));
    (!diffs.is_empty()).then(|| {
        View::Diff(DiffView {
            title: Some(title),
            diffs,
            locations: Vec::new(),
        })
    })
}

/// The files of a patch in the `*** Begin Patch` grammar: an update's
/// hunks (context and `-` lines old, context and `+` lines new; no line
/// numbers), an added file whole, a deleted one emptied.
fn patch(input: &str) -> Vec<FileDiff> {
    let mut diffs = Vec::new();
    let mut cur: Option<(String, bool, String, String)> = None; // path, added, old, new
    let flush = |cur: &mut Option<(String, bool, String, String)>, diffs: &mut Vec<FileDiff>| {
        if let Some((path, added, old, new)) = cur.take() {
            diffs.push(if added { FileDiff::new(path, None, new).at(1) } else { FileDiff::new(path, Some(old), new) });
        }
    };
    for line in input.lines() {
        if let Some(p) = line.strip_prefix("*** Update File: ") {
            flush(&mut cur, &mut diffs);
            cur = Some((p.trim().into(), false, String::new(), String::new()));
        } else if let Some(p) = line.strip_prefix("*** Add File: ") {
            flush(&mut cur, &mut diffs);
            cur = Some((p.trim().into(), true, String::new(), String::new()));
        } else if let Some(p) = line.strip_prefix("*** Delete File: ") {
            flush(&mut cur, &mut diffs);
            diffs.push(FileDiff::new(p.trim(), Some(String::new()), ""));
        } else if line.starts_with("***") || line.starts_with("@@") {
            continue;
        } else if let Some((_, _, old, new)) = cur.as_mut() {
            let (to_old, to_new, body) = match line.split_at_checked(1) {
                Some(("+", b)) => (false, true, b),
                Some(("-", b)) => (true, false, b),
                Some((" ", b)) => (true, true, b),
                _ => (true, true, line),
            };
            if to_old {
                old.push_str(body);
                old.push('\n');
            }
            if to_new {
                new.push_str(body);
                new.push('\n');
            }
        }
    }
    flush(&mut cur, &mut diffs);
    diffs
}


#[cfg(test)]
mod tests;
