//! Grok Build's tools as cards — the only place naming them. Its calls are
//! ACP tool calls (read by `agents/acp/read.rs`), so the ACP presenters
//! draw them (by their `kind`, title and content); a result whose
//! `rawOutput` is one of Grok's own outputs (`{"type": "Bash", …}`, the
//! merged call in the result's `meta.acp.toolCall`) says more, and is drawn
//! from it:
//!
//! | tool | card |
//! |---|---|
//! | run_terminal_cmd | terminal: the command, its description and directory, the output, the exit code (`exit_code`; a command that exits non-zero is still `completed`) or the signal |
//! | read_file | read: `raw_output` numbered from the line asked for (`offset`); the file's length only for a whole read |
//! | search_replace | diff: at the line the edit says (`edits.details[].old_line`) |
//! | grep | search: the matches by file with their line numbers (`file_matches`) |
//! | anything else (list_dir, web_fetch, …) | generic: the ACP presenters' card (a listing's text; a failed fetch's message) |
//!
//! A fetch that succeeded (`WebFetchContent`) is drawn as a web card (the
//! page and its HTTP status); the fixture holds none, so the table does not
//! claim it.

use serde_json::Value;

use crate::agents::Mapping;
use crate::agents::acp::present::Acp;
use crate::session::{Call, Presented, Presenters, Settled};
use crate::wire::view::{
    DiffView, FileDiff, GenericView, Location, ReadLine, ReadView, SearchBody, SearchFile,
    SearchMatch, SearchView, TerminalView, View, WebBody, WebView,
};

/// Grok Build's tools and their cards (`docs/agents.md`'s table).
pub(super) const MAPPING: &[Mapping] = &[
    Mapping { tools: &["run_terminal_cmd"], card: "terminal" },
    Mapping { tools: &["read_file"], card: "read" },
    Mapping { tools: &["search_replace"], card: "diff" },
    Mapping { tools: &["grep"], card: "search" },
];

/// The Grok Build presenters.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Grok;

impl Presenters for Grok {
    fn call_view(&self, call: Call<'_>) -> Option<View> {
        Acp.call_view(call)
    }

    fn result_view(&self, s: &Settled<'_>) -> Option<Presented> {
        let call = s.meta.and_then(|m| m.pointer("/acp/toolCall"));
        let own = call.and_then(|c| c.get("rawOutput")).filter(|_| !s.is_error).and_then(|raw| {
            let input = call.and_then(|c| c.get("rawInput")).unwrap_or(&Value::Null);
            let kind = raw.get("type").and_then(Value::as_str)?;
            match kind {
                "Bash" => Some(terminal(raw)),
                "ReadFile" => read(raw.get("FileContent")?, input),
                "SearchReplace" => edit(raw.get("EditsApplied")?, input),
                "GrepSearch" => search(raw),
                "ListDir" => listing(raw.get("Content")?, call?),
                "WebFetch" => web(raw.get("Content")?),
                _ => None,
            }
        });
        match own {
            Some(view) => Some(Presented::View(view)),
            None => Acp.result_view(s),
        }
    }
}

fn text<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

/// `BashOutput`: the command as run, its output as the model saw it (else
/// the bytes), its exit code or signal.
fn terminal(raw: &Value) -> View {
    let output = match text(raw, "output_for_prompt") {
        Some(o) => o.to_string(),
        None => {
            let bytes: Vec<u8> = raw
                .get("output")
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(|b| b.as_u64().and_then(|b| u8::try_from(b).ok())).collect())
                .unwrap_or_default();
            String::from_utf8_lossy(&bytes).into_owned()
        }
    };
    let mut view = TerminalView {
        title: text(raw, "command").map(str::to_string),
        description: text(raw, "description").map(str::to_string),
        cwd: text(raw, "current_dir").map(str::to_string),
        output: Some(output.trim_end_matches('\n').to_string()),
        ..TerminalView::default()
    };
    match text(raw, "signal") {
        Some(s) => view.signal = Some(s.to_string()),
        None if raw.get("timed_out") == Some(&Value::Bool(true)) => {}
        None => view.exit_code = raw.get("exit_code").and_then(Value::as_i64),
    }
    View::Terminal(view)
}

/// `FileContent`: the lines read (`raw_output`) from the line asked for;
/// a whole read (no `offset`, no `limit`) says the file's length.
fn read(content: &Value, input: &Value) -> Option<View> {
    let path = text(input, "target_file").or_else(|| text(content, "absolute_path"))?;
    let raw = text(content, "raw_output")?;
    let offset = content.get("offset").and_then(Value::as_u64);
    let from = offset.unwrap_or(1).max(1);
    let mut rows: Vec<&str> = raw.split('\n').collect();
    if raw.ends_with('\n') {
        rows.pop();
    }
    let lines: Vec<ReadLine> = (from..).zip(rows).map(|(n, l)| ReadLine::new(n, l)).collect();
    let whole = offset.is_none() && content.get("limit").is_none_or(Value::is_null);
    let mut view = ReadView::new(path, from, lines);
    if whole {
        view.total_lines = view.lines.len() as u64;
    }
    Some(view.into())
}

/// `EditsApplied`: each edit at its line in the file before it.
fn edit(applied: &Value, input: &Value) -> Option<View> {
    let path = text(input, "file_path").or_else(|| text(applied, "absolute_path"))?;
    let details = applied.pointer("/edits/details").and_then(Value::as_array);
    let diffs: Vec<FileDiff> = match details {
        Some(ds) if !ds.is_empty() => ds
            .iter()
            .map(|d| {
                let old = text(d, "old_string").unwrap_or_default();
                let diff = FileDiff::new(path, Some(old.into()), text(d, "new_string").unwrap_or_default());
                match d.get("old_line").and_then(Value::as_u64) {
                    Some(line) => diff.at(line),
                    None => diff,
                }
            })
            .collect(),
        _ => {
            let old = text(applied, "old_string")?;
            vec![FileDiff::new(path, Some(old.into()), text(applied, "new_string")?)]
        }
    };
    Some(View::Diff(DiffView {
        title: Some(format!("Edit {path}")),
        diffs,
        locations: Vec::new(),
    }))
}

/// `GrepSearchOutput`: its `file_matches`.
fn search(raw: &Value) -> Option<View> {
    let files: Vec<SearchFile> = raw
        .get("file_matches")?
        .as_array()?
        .iter()
        .map(|f| {
            let matches = f
                .get("matches")
                .and_then(Value::as_array)
                .map(|ms| {
                    ms.iter()
                        .map(|m| {
                            let n = m.get("line_number").and_then(Value::as_u64).unwrap_or(0);
                            SearchMatch::new(n, text(m, "content").unwrap_or_default())
                        })
                        .collect()
                })
                .unwrap_or_default();
            SearchFile::new(text(f, "path").unwrap_or_default(), matches)
        })
        .collect();
    Some(SearchView::new(None, SearchBody::Matches(files)).into())
}

/// `ListDirContent`: the listing, on the generic card the ACP presenters
/// give a `list_dir` call.
fn listing(content: &Value, call: &Value) -> Option<View> {
    let listing = text(content, "content")?;
    let title = text(call, "title").unwrap_or("List");
    let root = text(content, "absolute_root_path");
    let view = GenericView {
        locations: root.map(|r| vec![Location::new(r, None)]).unwrap_or_default(),
        ..GenericView::new(title.replace('`', ""), "read")
    };
    Some(view.with_text(format!("```text\n{}\n```", listing.trim_end())).into())
}

/// `WebFetchContent`: the page and its status.
fn web(content: &Value) -> Option<View> {
    let url = text(content, "url")?.to_string();
    let body = WebBody::Fetch {
        url,
        status_code: content.get("status_code").and_then(Value::as_i64),
    };
    Some(WebView::new(Some("Fetch".into()), body).into())
}

#[cfg(test)]
mod tests;
