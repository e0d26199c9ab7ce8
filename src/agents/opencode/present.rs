//! OpenCode's tools as cards — the only place naming them. A result's
//! `meta` holds what its state's `metadata` says that a card uses (a
//! command's `exit`, an edit's unified `diff`, whether a written file
//! `exists`: `read.rs`).
//!
//! | tool | card |
//! |---|---|
//! | bash | terminal: the command and its description; the output; the exit code `metadata.exit` says |
//! | read | read: the lines it returned, at the numbers it gave them (`8: …`), the file's length when its note says (a directory's listing: generic) |
//! | edit, write | diff: an edit's hunks of `metadata.diff` at their real lines; a new file whole from line 1 |
//! | glob, grep | search: the paths found; the matches by file with their line numbers |
//! | webfetch | web |
//! | anything else (list, todowrite, task, …) | generic with the raw input and the output |

use serde_json::{Map, Value};

use crate::session::{Args, arg};
use crate::agents::Mapping;
use crate::text::markdown::fenced;
use crate::agents::unified::unified_hunks;
use crate::session::arguments_object as parse;
use crate::session::{Call, Presented, Presenters, Settled};
use crate::wire::view::{
    DiffView, FileDiff, GenericView, Location, ReadLine, ReadView, SearchBody, SearchFile, SearchMatch, SearchView,
    TerminalView, View, WebBody, WebSource, WebView,
};

/// OpenCode's tools and their cards (`docs/agents.md`'s table; any other
/// tool is `generic`).
pub(super) const MAPPING: &[Mapping] = &[
    Mapping { tools: &["bash"], card: "terminal" },
    Mapping { tools: &["read"], card: "read" },
    Mapping { tools: &["edit", "write"], card: "diff" },
    Mapping { tools: &["glob", "grep"], card: "search" },
    Mapping { tools: &["webfetch"], card: "web" },
];

/// The OpenCode presenters.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct OpenCode;



impl Presenters for OpenCode {
    fn call_view(&self, call: Call<'_>) -> Option<View> {
        let args = parse(call.arguments);
        Some(match call.tool {
            "bash" => View::Terminal(TerminalView {
                title: arg(&args, "command").map(str::to_string),
                description: arg(&args, "description").map(str::to_string),
                cwd: arg(&args, "workdir").map(str::to_string),
                ..TerminalView::default()
            }),
            "read" => {
                let path = arg(&args, "filePath")?;
                let from = args.get("offset").and_then(Value::as_u64);
                GenericView {
                    locations: vec![Location::new(path, Some(from.unwrap_or(1)))],
                    ..GenericView::new(format!("Read {path}"), "read")
                }
                .into()
            }
            "edit" | "write" => edit_call(call.tool, &args)?,
            "glob" | "grep" => GenericView {
                raw_input: Some(Value::Object(args.clone())),
                ..GenericView::new(search_title(call.tool, &args), "search")
            }
            .into(),
            "webfetch" => {
                let url = arg(&args, "url")?;
                WebView::new(Some(format!("Fetch {url}")), WebBody::Fetch { url: url.into(), status_code: None }).into()
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
        let meta = s.meta.and_then(Value::as_object);
        if s.is_error {
            // Its message, on the generic card (a cancel's too).
            let view = GenericView::default();
            return (!text.is_empty()).then(|| View::from(view.with_text(text)).into());
        }
        let view = match s.tool {
            "bash" => View::Terminal(TerminalView {
                title: arg(&args, "command").map(str::to_string),
                description: arg(&args, "description").map(str::to_string),
                output: Some(text),
                exit_code: meta.and_then(|m| m.get("exit")).and_then(Value::as_i64),
                ..TerminalView::default()
            }),
            "read" => match read_result(&args, &text) {
                Some(view) => view,
                None => GenericView::default().with_text(fenced(&text)).into(),
            },
            "edit" | "write" => edit_result(s.tool, &args, meta)?,
            "glob" => glob_result(&text),
            "grep" => grep_result(&text)?,
            "webfetch" => {
                let url = arg(&args, "url").unwrap_or_default();
                let body = WebBody::Search {
                    sources: vec![WebSource::new(url)],
                    answer: (!text.is_empty()).then_some(text),
                    failures: Vec::new(),
                };
                WebView::new(Some(format!("Fetch {url}")), body).into()
            }
            _ => GenericView::default().with_text(fenced(&text)).into(),
        };
        Some(view.into())
    }
}

fn search_title(tool: &str, args: &Args) -> String {
    let verb = if tool == "glob" { "Glob" } else { "Grep" };
    let mut title = format!("{verb} {}", arg(args, "pattern").unwrap_or_default());
    if let Some(v) = arg(args, "path") {
        title.push_str(&format!(" in {v}"));
    }
    if let Some(v) = arg(args, "include") {
        title.push_str(&format!(" ({v})"));
    }
    title
}

/// A file's lines as the tool returned them: between `<content>` and
/// `</content>` (1.1: `<content>8: …` on the tag's line), each `N: text`
/// at the number the tool gave it — or, before that, between `<file>` and
/// `</file>`, each `00008| text` (later `00008 |text`); the file's length
/// from the note after them (`(End of file - total 21 lines)`, `(Showing
/// lines 8-10 of 21. …)`; `(File has more lines. …)` says none). `None`:
/// not a file's content (a directory's listing).
fn read_result(args: &Args, text: &str) -> Option<View> {
    let path = arg(args, "filePath")?;
    let (body, close) = match text.split_once("<content>") {
        Some((_, b)) => (b, "</content>"),
        None => (text.split_once("<file>")?.1, "</file>"),
    };
    let body = body.strip_prefix('\n').unwrap_or(body);
    let body = body.rsplit_once(close).map_or(body, |(b, _)| b);
    let mut lines = Vec::new();
    let mut rest = body.split('\n');
    for line in rest.by_ref() {
        let Some((n, l)) = numbered(line) else {
            break;
        };
        lines.push(ReadLine::new(n, l));
    }
    let from = lines.first().map_or(1, |l| l.number);
    let mut view = ReadView::new(path, from, lines);
    let note: String = rest.collect::<Vec<_>>().join("\n");
    view.total_lines = total(&note).unwrap_or(0);
    Some(view.into())
}

/// A line of a read's output: its number and its text (`8: text`,
/// `00008| text`, `00008 |text`).
fn numbered(line: &str) -> Option<(u64, &str)> {
    let digits = line.find(|c: char| !c.is_ascii_digit())?;
    let n = line[..digits].parse().ok()?;
    let after = &line[digits..];
    let text = if let Some(t) = after.strip_prefix(':').or_else(|| after.strip_prefix('|')) {
        t.strip_prefix(' ').unwrap_or(t)
    } else {
        after.strip_prefix(" |")?
    };
    Some((n, text))
}

/// The file's length a read's note says.
fn total(note: &str) -> Option<u64> {
    if let Some(rest) = note.split_once("total ").map(|(_, r)| r) {
        return rest.split_whitespace().next()?.parse().ok();
    }
    let rest = note.split_once("Showing lines ")?.1;
    let of = rest.split_once(" of ")?.1;
    of.trim_end_matches(|c: char| !c.is_ascii_digit()).split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()
}

fn edit_call(tool: &str, args: &Args) -> Option<View> {
    let path = arg(args, "filePath")?;
    let diff = match tool {
        "write" => FileDiff::new(path, None, arg(args, "content").unwrap_or_default()).existed_unknown(),
        _ => FileDiff::new(
            path,
            Some(arg(args, "oldString").unwrap_or_default().into()),
            arg(args, "newString").unwrap_or_default(),
        ),
    };
    let verb = if tool == "write" { "Write" } else { "Edit" };
    Some(View::Diff(DiffView {
        title: Some(format!("{verb} {path}")),
        diffs: vec![diff],
        locations: vec![Location::new(path, None)],
    }))
}

/// An edit as the tool diffed it (`metadata.diff`: each hunk at its
/// lines); a written file whole, from line 1 when it is new (`exists:
/// false`; over an existing file, what it held is not in the log).
fn edit_result(tool: &str, args: &Args, meta: Option<&Map<String, Value>>) -> Option<View> {
    let path = arg(args, "filePath")?;
    let (verb, diffs) = if tool == "write" {
        let content = arg(args, "content")?;
        match meta.and_then(|m| m.get("exists")).and_then(Value::as_bool) {
            Some(false) => ("Write", vec![FileDiff::new(path, None, content).at(1)]),
            _ => ("Overwrite", vec![FileDiff::new(path, None, content).overwritten()]),
        }
    } else {
        let diff = meta.and_then(|m| m.get("diff")).and_then(Value::as_str)?;
        let hunks = unified_hunks(diff).into_iter().filter(|h| h.old != h.new).map(|h| {
            let mut d = FileDiff::new(path, Some(h.old), h.new);
            if let Some(old) = h.old_start {
                d.start_line = Some(old);
                d.new_start_line = h.new_start.filter(|n| *n != old);
            }
            d
        });
        ("Edit", hunks.collect())
    };
    (!diffs.is_empty()).then(|| {
        View::Diff(DiffView {
            title: Some(format!("{verb} {path}")),
            diffs,
            locations: Vec::new(),
        })
    })
}

/// One path a line (`No files found`: none).
fn glob_result(text: &str) -> View {
    let paths: Vec<String> = (text.lines())
        .filter(|l| !l.is_empty() && !l.starts_with("No files found") && !l.starts_with('('))
        .map(str::to_string)
        .collect();
    SearchView::new(None, SearchBody::Paths(paths)).into()
}

/// `Found N matches`, then each file's path and `:`, then its matches as
/// `  Line 12: text`.
fn grep_result(text: &str) -> Option<View> {
    let mut files: Vec<SearchFile> = Vec::new();
    for line in text.lines() {
        if let Some(rest) = line.trim_start().strip_prefix("Line ")
            && line.starts_with(' ')
            && let Some((n, body)) = rest.split_once(": ")
            && let (Ok(n), Some(f)) = (n.parse::<u64>(), files.last_mut())
        {
            f.matches.push(SearchMatch::new(n, body));
        } else if !line.starts_with(' ')
            && let Some(path) = line.strip_suffix(':')
            && !line.starts_with("Found ")
        {
            files.push(SearchFile::new(path, Vec::new()));
        }
    }
    if files.is_empty() && !text.starts_with("No files found") {
        return None;
    }
    Some(SearchView::new(None, SearchBody::Matches(files)).into())
}

#[cfg(test)]
mod tests;
