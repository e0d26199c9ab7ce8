//! pi's tools as cards — the only place naming them. A result's `meta`
//! holds its `details` (an edit's numbered listing: `read.rs`).
//!
//! | tool | card |
//! |---|---|
//! | bash | terminal: the command, the output, the exit code its text says (`Command exited with code N`, written only when not 0: unknown otherwise) |
//! | read | read, from the line asked for (`offset`, 1-based); the file's length only for a whole read |
//! | edit, write | diff: an edit's numbered listing (`details.diff`) as hunks at their real lines; a write's content whole from line 1 |
//! | grep, find | search: the matches by file with their line numbers; the paths found |
//! | anything else (ls, extensions' tools) | generic with the raw input and the output |

use serde_json::Value;

use super::read::exit_code;
use crate::session::{Args, arg};
use crate::text::markdown::fenced;
use crate::agents::Mapping;
use crate::session::arguments_object as parse;
use crate::session::{Call, Presented, Presenters, Settled};
use crate::wire::view::{
    DiffView, FileDiff, GenericView, Location, ReadLine, ReadView, SearchBody, SearchFile, SearchMatch, SearchView,
    TerminalView, View,
};

/// pi's tools and their cards (`docs/agents.md`'s table; any other tool is
/// `generic`).
pub(super) const MAPPING: &[Mapping] = &[
    Mapping { tools: &["bash"], card: "terminal" },
    Mapping { tools: &["read"], card: "read" },
    Mapping { tools: &["edit", "write"], card: "diff" },
    Mapping { tools: &["grep", "find"], card: "search" },
];

/// The pi presenters.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Pi;



impl Presenters for Pi {
    fn call_view(&self, call: Call<'_>) -> Option<View> {
        let args = parse(call.arguments);
        Some(match call.tool {
            "bash" => View::Terminal(TerminalView {
                title: arg(&args, "command").map(str::to_string),
                ..TerminalView::default()
            }),
            "read" => {
                let path = arg(&args, "path")?;
                let from = args.get("offset").and_then(Value::as_u64);
                let range = match (from, args.get("limit").and_then(Value::as_u64)) {
                    (Some(s), Some(l)) => format!(" ({s} - {})", s + l.saturating_sub(1)),
                    (Some(s), None) => format!(" (from line {s})"),
                    (None, Some(l)) => format!(" (1 - {l})"),
                    (None, None) => String::new(),
                };
                GenericView {
                    locations: vec![Location::new(path, Some(from.unwrap_or(1)))],
                    ..GenericView::new(format!("Read {path}{range}"), "read")
                }
                .into()
            }
            "edit" | "write" => edit_call(call.tool, &args)?,
            "grep" | "find" => GenericView {
                raw_input: Some(Value::Object(args.clone())),
                ..GenericView::new(search_title(call.tool, &args), "search")
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
        let details = s.meta.and_then(|m| m.get("details"));
        // A command that failed is still a command: its terminal card.
        if s.tool == "bash" {
            return Some(shell_result(&args, &text).into());
        }
        if s.is_error {
            let view = GenericView::default();
            return (!text.is_empty()).then(|| View::from(view.with_text(text)).into());
        }
        let view = match s.tool {
            "read" => read_result(&args, &text)?,
            "edit" | "write" => edit_result(s.tool, &args, details)?,
            "grep" => grep_result(&text)?,
            "find" => find_result(&text)?,
            _ => GenericView::default().with_text(fenced(&text)).into(),
        };
        Some(view.into())
    }
}

fn search_title(tool: &str, args: &Args) -> String {
    let verb = if tool == "find" { "Find" } else { "Grep" };
    let mut title = format!("{verb} {}", arg(args, "pattern").unwrap_or_default());
    if let Some(v) = arg(args, "path") {
        title.push_str(&format!(" in {v}"));
    }
    if let Some(v) = arg(args, "glob") {
        title.push_str(&format!(" ({v})"));
    }
    title
}


/// The command, its output (pi's status line after it taken off), the
/// exit code the text says.
fn shell_result(args: &Args, text: &str) -> View {
    let code = exit_code(text);
    let mut output = text;
    if code.is_some() || text.ends_with("Command aborted") || text.contains("\n\nCommand timed out after ") {
        output = output.rsplit_once("\n\n").map_or("", |(o, _)| o);
    } else if text == "(no output)" {
        output = "";
    }
    View::Terminal(TerminalView {
        title: arg(args, "command").map(str::to_string),
        output: Some(output.trim_end_matches('\n').to_string()),
        exit_code: code,
        ..TerminalView::default()
    })
}

/// The file's lines the read returned, numbered from the line asked for
/// (`offset`, 1-based), its note (`[N more lines in file. …]`, `[Showing
/// lines X-Y of N. …]`) taken off; a whole read's length is the file's.
fn read_result(args: &Args, text: &str) -> Option<View> {
    let path = arg(args, "path")?;
    let from = args.get("offset").and_then(Value::as_u64).unwrap_or(1).max(1);
    let (body, note) = match text.rsplit_once("\n\n[") {
        Some((b, n)) if n.ends_with(']') && (n.contains(" more lines in file.") || n.starts_with("Showing lines ")) => {
            (b, Some(n))
        }
        _ => (text, None),
    };
    let mut lines: Vec<&str> = body.split('\n').collect();
    if body.ends_with('\n') {
        lines.pop();
    }
    let read = (from..).zip(lines).map(|(n, l)| ReadLine::new(n, l)).collect::<Vec<_>>();
    let mut view = ReadView::new(path, from, read);
    if note.is_none() && !args.contains_key("offset") && !args.contains_key("limit") {
        view.total_lines = view.lines.len() as u64;
    }
    Some(view.into())
}

fn edit_call(tool: &str, args: &Args) -> Option<View> {
    let path = arg(args, "path")?;
    let diffs: Vec<FileDiff> = match tool {
        "write" => vec![FileDiff::new(path, None, arg(args, "content").unwrap_or_default()).existed_unknown()],
        _ => edits(args, path),
    };
    let verb = if tool == "write" { "Write" } else { "Edit" };
    Some(View::Diff(DiffView {
        title: Some(format!("{verb} {path}")),
        diffs,
        locations: vec![Location::new(path, None)],
    }))
}

/// An edit's replacements as its arguments say them (`edits: [{oldText,
/// newText}]`; older versions' one `oldText`/`newText`), at no known line.
fn edits(args: &Args, path: &str) -> Vec<FileDiff> {
    let pair = |o: &Value| {
        let old = o.get("oldText").and_then(Value::as_str)?;
        Some(FileDiff::new(path, Some(old.into()), o.get("newText").and_then(Value::as_str).unwrap_or_default()))
    };
    match args.get("edits").and_then(Value::as_array) {
        Some(list) => list.iter().filter_map(pair).collect(),
        None => pair(&Value::Object(args.clone())).into_iter().collect(),
    }
}

/// An edit as pi listed it (`details.diff`: `+ 9 text` added, the new
/// file's number; `- 8 text` removed and `  7 text` context, the OLD
/// file's; `    ...` between pieces), each piece a hunk at its real lines;
/// without a listing, the replacements asked for. A write: its content
/// whole, from line 1.
fn edit_result(tool: &str, args: &Args, details: Option<&Value>) -> Option<View> {
    let path = arg(args, "path")?;
    let (verb, diffs) = match tool {
        "write" => ("Write", vec![FileDiff::new(path, None, arg(args, "content")?).at(1).existed_unknown()]),
        _ => {
            let listed = details.and_then(|d| d.get("diff")).and_then(Value::as_str).map(|d| listing(path, d));
            ("Edit", listed.filter(|l| !l.is_empty()).unwrap_or_else(|| edits(args, path)))
        }
    };
    (!diffs.is_empty()).then(|| {
        View::Diff(DiffView {
            title: Some(format!("{verb} {path}")),
            diffs,
            locations: Vec::new(),
        })
    })
}

/// pi's numbered listing read into hunks at their lines.
fn listing(path: &str, diff: &str) -> Vec<FileDiff> {
    let mut out = Vec::new();
    // The new file's line minus the old file's, after the lines so far.
    let mut delta: i64 = 0;
    let mut cur: Option<(FileDiff, bool)> = None;
    let close = |cur: &mut Option<(FileDiff, bool)>, out: &mut Vec<FileDiff>| {
        if let Some((d, changed)) = cur.take()
            && changed
        {
            out.push(d);
        }
    };
    for line in diff.split('\n') {
        let Some(sign) = line.chars().next().filter(|c| matches!(c, '+' | '-' | ' ')) else {
            continue;
        };
        let rest = line[1..].trim_start_matches(' ');
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let Ok(n) = rest[..digits].parse::<i64>() else {
            close(&mut cur, &mut out);
            continue;
        };
        let body = rest[digits..].strip_prefix(' ').unwrap_or(&rest[digits..]);
        let (old_n, new_n) = match sign {
            '+' => (n - delta, n),
            _ => (n, n + delta),
        };
        let (d, changed) = cur.get_or_insert_with(|| {
            let mut d = FileDiff::new(path, Some(String::new()), String::new());
            d.start_line = u64::try_from(old_n).ok();
            d.new_start_line = u64::try_from(new_n).ok().filter(|&m| Some(m) != d.start_line);
            (d, false)
        });
        let old = d.old_text.get_or_insert_with(String::new);
        match sign {
            '+' => {
                d.new_text.push_str(body);
                d.new_text.push('\n');
                *changed = true;
                delta += 1;
            }
            '-' => {
                old.push_str(body);
                old.push('\n');
                *changed = true;
                delta -= 1;
            }
            _ => {
                old.push_str(body);
                old.push('\n');
                d.new_text.push_str(body);
                d.new_text.push('\n');
            }
        }
    }
    close(&mut cur, &mut out);
    out
}

/// `path:12: text` matches (`path-12- text` context lines skipped), by
/// file; `No matches found`: none.
fn grep_result(text: &str) -> Option<View> {
    let mut files: Vec<SearchFile> = Vec::new();
    for line in text.lines() {
        let Some((path, n, body)) = match_line(line) else {
            continue;
        };
        let m = SearchMatch::new(n, body);
        match files.iter_mut().find(|f| f.path == path) {
            Some(f) => f.matches.push(m),
            None => files.push(SearchFile::new(path, vec![m])),
        }
    }
    if files.is_empty() && text != "No matches found" {
        return None;
    }
    Some(SearchView::new(None, SearchBody::Matches(files)).into())
}

/// `path:N: text`: the path, N and the text.
fn match_line(line: &str) -> Option<(&str, u64, &str)> {
    let mut from = 0;
    while let Some(at) = line[from..].find(':') {
        let colon = from + at;
        let rest = &line[colon + 1..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0
            && let Some(body) = rest[digits..].strip_prefix(": ").or_else(|| rest[digits..].strip_prefix(':'))
        {
            return Some((&line[..colon], rest[..digits].parse().ok()?, body));
        }
        from = colon + 1;
    }
    None
}

/// One path a line; `No files found matching pattern`: none.
fn find_result(text: &str) -> Option<View> {
    let paths: Vec<String> = if text == "No files found matching pattern" {
        Vec::new()
    } else {
        text.lines().filter(|l| !l.is_empty() && !l.starts_with('[')).map(str::to_string).collect()
    };
    Some(SearchView::new(None, SearchBody::Paths(paths)).into())
}

#[cfg(test)]
mod tests;
