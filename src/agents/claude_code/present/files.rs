//! Claude Code's Bash, Read, Edit, MultiEdit and Write as terminal, read
//! and diff cards, from the call's input and the result's `toolUseResult`.

use serde::Serialize;
use serde_json::Value;

use crate::wire::RawJson;
use crate::wire::view::{DiffView, FileDiff, GenericView, Location, TerminalView, View};

use super::{Args, Outcome, arg};

pub(super) fn bash_call(args: &Args) -> View {
    let command = arg(args, "command").unwrap_or_default();
    let mut description = arg(args, "description").unwrap_or_default().to_string();
    if background(args) {
        description = format!("{description} (run in the background)").trim().to_string();
    }
    View::Terminal(TerminalView {
        title: Some(command.into()),
        description: Some(description),
        ..TerminalView::default()
    })
}

fn background(args: &Args) -> bool {
    args.get("run_in_background") == Some(&Value::Bool(true))
}

/// `Exit code N` on the first line of a failed command's output: N and the
/// rest.
fn exit_code(text: &str) -> Option<(i64, &str)> {
    let rest = text.strip_prefix("Exit code ")?;
    let (code, rest) = rest.split_once('\n').unwrap_or((rest, ""));
    Some((code.trim().parse().ok()?, rest))
}

pub(super) fn bash_result(args: &Args, out: &Outcome) -> Option<View> {
    let meta = out.meta;
    let task = meta
        .and_then(|m| m.get("backgroundTaskId"))
        .and_then(Value::as_str);
    if background(args) || task.is_some() {
        // It returned as it started: no exit code yet (a later report says
        // how it ended: the card's task).
        let mut note = out.text();
        if let Some(id) = task.filter(|_| note.is_empty()) {
            note = format!("Running in the background as task {id}.");
        }
        return Some(View::Terminal(TerminalView {
            output: Some(note),
            ..TerminalView::default()
        }));
    }
    let field = |k: &str| meta.and_then(|m| m.get(k)).and_then(Value::as_str);
    // Output too large for the log: the file Claude saved it to, or what
    // the log holds of it, said to be so.
    let saved = super::saved::saved(out, field("stdout"));
    let text = match &saved {
        Some(s) => s.head.clone(),
        None => out.text(),
    };
    let (code, rest) = match exit_code(&text) {
        Some((code, rest)) => (Some(code), rest.to_string()),
        None => (None, text.clone()),
    };
    let output = match (field("stdout"), field("stderr")) {
        _ if saved.is_some() => saved.as_ref().map(|s| s.output.clone()).unwrap_or_default(),
        (Some(o), Some(e)) if !o.is_empty() && !e.is_empty() => format!("{o}\n{e}"),
        (Some(o), _) if !o.is_empty() => o.to_string(),
        (_, Some(e)) if !e.is_empty() => e.to_string(),
        _ => rest,
    };
    let mut view = TerminalView {
        output: Some(output),
        ..TerminalView::default()
    };
    if let Some(s) = &saved {
        view.description = Some(match arg(args, "description").filter(|d| !d.is_empty()) {
            Some(d) => format!("{d} — {}", s.note),
            None => s.note.clone(),
        });
    }
    let interrupted = meta.and_then(|m| m.get("interrupted")) == Some(&Value::Bool(true));
    if interrupted {
        view.signal = Some("interrupted".into());
    } else if let Some(code) = code {
        view.exit_code = Some(code);
    } else if !out.is_error {
        view.exit_code = Some(0);
    }
    Some(View::Terminal(view))
}

pub(super) fn read_call(args: &Args) -> View {
    let path = arg(args, "file_path").unwrap_or_default();
    let offset = args.get("offset").and_then(Value::as_u64);
    let limit = args.get("limit").and_then(Value::as_u64);
    let start = offset.unwrap_or(1).max(1);
    let window = match (limit, offset) {
        (Some(l), _) if l > 0 => format!(" ({} - {})", start, start + l - 1),
        (_, Some(o)) => format!(" (from line {o})"),
        _ => String::new(),
    };
    GenericView {
        locations: vec![Location::new(path, Some(start))],
        ..GenericView::new(format!("Read {path}{window}"), "read")
    }
    .into()
}

/// A read window: the file's lines from `startLine` (its `file` record),
/// else the numbered lines of the result text (`   12→text`, `12\ttext`).
/// Written as JSON text: a file's lines are most of a log's reads, and as
/// a JSON tree each line would cost a map of its own.
///
/// Claude Code counts a file's lines as its text split at newlines: a
/// final newline makes one more, empty "line" (`totalLines`, and
/// `numLines` of a read to the end, count it). The card shows the lines
/// the tool returned (`numLines` of them, an empty last one included when
/// the window ends inside the file) and, when the read reaches the file's
/// end, the file's length without that phantom line. A window that ends
/// inside the file cannot tell whether the file ends with a newline (the
/// length is `totalLines` or one less): no length is claimed.
pub(super) fn read_result(args: &Args, out: &Outcome) -> Option<RawJson> {
    let file = out.meta.and_then(|m| m.get("file")).and_then(Value::as_object);
    let path = file
        .and_then(|f| f.get("filePath"))
        .and_then(Value::as_str)
        .or_else(|| arg(args, "file_path"))?;
    let text;
    let (lines, total) = match file.and_then(|f| f.get("content")).and_then(Value::as_str) {
        Some(content) => {
            let field = |k: &str| file.and_then(|f| f.get(k)).and_then(Value::as_u64);
            let start = field("startLine").unwrap_or(1).max(1);
            window(content, start, field("numLines"), field("totalLines"))
        }
        None => {
            text = out.text();
            // The file's length is not in the text: none claimed.
            (numbered(&text)?, None)
        }
    };
    let view = ReadOut {
        card: "read",
        path,
        offset: lines.first().map_or(1, |l| l.number),
        lines,
        total_lines: total,
    };
    serde_json::to_string(&view).ok().map(RawJson::from_text)
}

/// The lines of a read's `content` from line `start`, and the file's
/// length when the read says it exactly ([`read_result`]).
fn window(
    content: &str,
    start: u64,
    count: Option<u64>,
    total: Option<u64>,
) -> (Vec<ReadLine<'_>>, Option<u64>) {
    let mut lines: Vec<&str> = content.split('\n').collect();
    match count {
        Some(n) => lines.truncate(usize::try_from(n).unwrap_or(usize::MAX)),
        // Older logs: a final newline ends the last line.
        None if content.ends_with('\n') || content.is_empty() => {
            lines.pop();
        }
        None => {}
    }
    let to_end = |n: usize| total.is_some_and(|t| start.saturating_add(n as u64) > t);
    let mut length = None;
    if count.is_some() && to_end(lines.len()) {
        // Read to the end: the empty "line" after a final newline is none.
        if content.ends_with('\n') || content.is_empty() {
            lines.pop();
        }
        length = Some(start - 1 + lines.len() as u64);
    } else if count.is_none() && total == Some(start - 1 + lines.len() as u64) {
        length = total;
    }
    let lines = lines
        .into_iter()
        .zip(start..)
        .map(|(text, number)| ReadLine { number, text })
        .collect();
    (lines, length)
}

/// A read card as [`read_result`] writes it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ReadOut<'a> {
    card: &'static str,
    path: &'a str,
    offset: u64,
    lines: Vec<ReadLine<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    total_lines: Option<u64>,
}

#[derive(Serialize)]
struct ReadLine<'a> {
    number: u64,
    text: &'a str,
}

/// The lines of a `cat -n`-style text (`   12→text` or `12\ttext`), when
/// every line is numbered, in order.
fn numbered(text: &str) -> Option<Vec<ReadLine<'_>>> {
    let mut out = Vec::new();
    let mut last = 0;
    for line in text.lines() {
        let t = line.trim_start();
        let digits = t.bytes().take_while(u8::is_ascii_digit).count();
        let n: u64 = t.get(..digits)?.parse().ok()?;
        let rest = &t[digits..];
        let body = rest
            .strip_prefix('\t')
            .or_else(|| rest.strip_prefix('→'))?;
        if n <= last {
            return None;
        }
        last = n;
        out.push(ReadLine {
            number: n,
            text: body,
        });
    }
    (!out.is_empty()).then_some(out)
}

/// The edits of a call: (old, new, replace all).
fn edits(tool: &str, args: &Args) -> Vec<(String, String, bool)> {
    let one = |e: &Args| {
        (
            arg(e, "old_string").unwrap_or_default().to_string(),
            arg(e, "new_string").unwrap_or_default().to_string(),
            e.get("replace_all") == Some(&Value::Bool(true)),
        )
    };
    match tool {
        "MultiEdit" => args
            .get("edits")
            .and_then(Value::as_array)
            .map(|es| es.iter().filter_map(Value::as_object).map(one).collect())
            .unwrap_or_default(),
        _ => vec![one(args)],
    }
}

/// A diff card titled `title`.
fn diff(title: String, diffs: Vec<FileDiff>) -> View {
    View::Diff(DiffView {
        title: Some(title),
        diffs,
        locations: Vec::new(),
    })
}

pub(super) fn edit_call(tool: &str, args: &Args) -> Option<View> {
    let path = arg(args, "file_path")?;
    if tool == "Write" {
        let content = arg(args, "content").unwrap_or_default();
        return Some(diff(format!("Write {path}"), vec![FileDiff::new(path, None, content).existed_unknown()]));
    }
    let diffs = edits(tool, args)
        .into_iter()
        .map(|(old, new, _)| FileDiff::new(path, Some(old), new))
        .collect();
    Some(diff(format!("Edit {path}"), diffs))
}

/// The file before and after, from `originalFile` and the edits (or the
/// written content), cut to the changed lines and [`CONTEXT`] lines around
/// them, at their real line numbers (`startLine`); without the original
/// (Claude Code keeps none of a file over 10 000 characters: `originalFile:
/// null`), the hunks of `structuredPatch`, each an entry of its own at its
/// `oldStart` (the card draws `⋯` between them).
pub(super) fn edit_result(tool: &str, args: &Args, out: &Outcome) -> Option<View> {
    let meta = out.meta?;
    let path = meta
        .get("filePath")
        .and_then(Value::as_str)
        .or_else(|| arg(args, "file_path"))?;
    let original = meta.get("originalFile").and_then(Value::as_str);
    let verb = if tool == "Write" { "Write" } else { "Edit" };
    let title = format!("{verb} {path}");
    let after = match (tool, original) {
        ("Write", _) => meta
            .get("content")
            .and_then(Value::as_str)
            .or_else(|| arg(args, "content"))
            .map(str::to_string),
        (_, Some(orig)) => apply(orig, &edits(tool, args)),
        (_, None) => None,
    };
    let diffs: Vec<FileDiff> = match after {
        Some(new) => {
            let (old, new, start) = match original {
                Some(orig) => {
                    let (old, new, start) = around_change(orig, &new);
                    (Some(old.to_string()), new.to_string(), start)
                }
                None => (None, new, 1),
            };
            if old.as_deref() == Some(new.as_str()) {
                return None;
            }
            vec![FileDiff::new(path, old, new).at(start)]
        }
        None => {
            let hunks = hunks(meta.get("structuredPatch")?)?;
            hunks
                .into_iter()
                .filter(|h| h.old != h.new)
                .map(|h| {
                    let d = FileDiff::new(path, Some(h.old), h.new);
                    match h.start.filter(|&s| s > 0) {
                        Some(s) => d.at(s),
                        None => d,
                    }
                })
                .collect()
        }
    };
    if diffs.is_empty() {
        return None;
    }
    Some(diff(title, diffs))
}

/// Lines of unchanged text kept on each side of a change: the context the
/// diff card draws, so that a view cut to the change draws as the whole
/// file would (`a_cut_edit_draws_as_the_whole_file` checks it).
pub(super) const CONTEXT: usize = 3;

/// `old` and `new` without the lines both start and end with, but for
/// [`CONTEXT`] lines next to the change, and the line number of what is
/// left (1-based). The diff card compares and numbers only what it is
/// given: a whole file made every edit's view, and every look at it, as
/// large as the file.
fn around_change<'a>(old: &'a str, new: &'a str) -> (&'a str, &'a str, u64) {
    let ol: Vec<&str> = old.split_inclusive('\n').collect();
    let nl: Vec<&str> = new.split_inclusive('\n').collect();
    let lead = ol.iter().zip(&nl).take_while(|(a, b)| a == b).count();
    let room = ol.len().min(nl.len()) - lead;
    let tail = (ol.iter().rev())
        .zip(nl.iter().rev())
        .take(room)
        .take_while(|(a, b)| a == b)
        .count();
    let skip = lead.saturating_sub(CONTEXT);
    let cut = tail.saturating_sub(CONTEXT);
    let bytes = |ls: &[&str]| ls.iter().map(|l| l.len()).sum::<usize>();
    let from = bytes(&ol[..skip]);
    let old_end = old.len() - bytes(&ol[ol.len() - cut..]);
    let new_end = new.len() - bytes(&nl[nl.len() - cut..]);
    (&old[from..old_end], &new[from..new_end], skip as u64 + 1)
}

/// The file after the edits, when each one's old text is there.
fn apply(original: &str, edits: &[(String, String, bool)]) -> Option<String> {
    let mut text = original.to_string();
    for (old, new, all) in edits {
        if old.is_empty() {
            if text.is_empty() {
                text = new.clone();
                continue;
            }
            return None;
        }
        let at = memchr::memmem::find(text.as_bytes(), old.as_bytes())?;
        if *all {
            text = text.replace(old.as_str(), new);
        } else {
            text.replace_range(at..at + old.len(), new);
        }
    }
    Some(text)
}

/// One hunk of `structuredPatch`: its old and new sides, and where the
/// old side starts in the file (`oldStart`).
struct Hunk {
    old: String,
    new: String,
    start: Option<u64>,
}

/// The hunks of `structuredPatch` (`lines` prefixed ` `, `-`, `+`).
fn hunks(patch: &Value) -> Option<Vec<Hunk>> {
    let mut out = Vec::new();
    for hunk in patch.as_array()? {
        let (mut old, mut new) = (String::new(), String::new());
        for line in hunk.get("lines")?.as_array()? {
            let line = line.as_str()?;
            let body = line.get(1..).unwrap_or("");
            match line.as_bytes().first() {
                Some(b'-') => push_line(&mut old, body),
                Some(b'+') => push_line(&mut new, body),
                Some(b'\\') => {}
                _ => {
                    push_line(&mut old, body);
                    push_line(&mut new, body);
                }
            }
        }
        let start = hunk.get("oldStart").and_then(Value::as_u64);
        out.push(Hunk { old, new, start });
    }
    Some(out)
}

fn push_line(s: &mut String, line: &str) {
    s.push_str(line);
    s.push('\n');
}
