//! Cursor's tools as cards — the only place naming them. Its transcripts
//! keep a call's input and never its output (`read.rs`): every card is
//! drawn from the call, and its result says nothing (no output, no exit
//! code, no lines read or matches found).
//!
//! | tool | card |
//! |---|---|
//! | Shell | terminal: the command, its description and directory; its output and exit code are not in the log |
//! | StrReplace, Write | diff: the text replaced and its replacement (at lines the log does not say); a written file whole (from its line 1) |
//! | anything else (Read, ReadFile, Glob, Grep, LS, Delete, ApplyPatch, …) | generic with the raw input (a read's path and window; a search's pattern) |

use serde_json::Value;

use crate::agents::Mapping;
use crate::session::{Call, Presented, Presenters, Settled};
use crate::wire::view::{DiffView, FileDiff, GenericView, Location, TerminalView, View};

/// Cursor's tools and their cards (`docs/agents.md`'s table; any other
/// tool is `generic`).
pub(super) const MAPPING: &[Mapping] = &[
    Mapping { tools: &["Shell"], card: "terminal" },
    Mapping { tools: &["StrReplace", "Write"], card: "diff" },
];

/// The Cursor presenters.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Cursor;

impl Presenters for Cursor {
    fn call_view(&self, call: Call<'_>) -> Option<View> {
        let input: Value = serde_json::from_str(call.arguments).unwrap_or(Value::Null);
        let arg = |k: &str| input.get(k).and_then(Value::as_str);
        Some(match call.tool {
            "Shell" => View::Terminal(TerminalView {
                title: arg("command").map(str::to_string),
                description: arg("description").map(str::to_string),
                cwd: arg("working_directory").map(str::to_string),
                ..TerminalView::default()
            }),
            "StrReplace" | "Write" => {
                let path = arg("path")?;
                let (verb, diff) = match call.tool {
                    // The contents are the file whole: from its line 1.
                    "Write" => ("Write", FileDiff::new(path, None, arg("contents").unwrap_or_default()).at(1).existed_unknown()),
                    _ => (
                        "Edit",
                        FileDiff::new(path, Some(arg("old_string").unwrap_or_default().into()), arg("new_string").unwrap_or_default()),
                    ),
                };
                View::Diff(DiffView {
                    title: Some(format!("{verb} {path}")),
                    diffs: vec![diff],
                    locations: vec![Location::new(path, None)],
                })
            }
            "Read" | "ReadFile" => {
                let path = arg("path")?;
                let n = |k: &str| input.get(k).and_then(Value::as_u64);
                let window = match (n("offset"), n("limit")) {
                    (Some(o), Some(l)) if l > 0 => format!(" ({o} - {})", o + l - 1),
                    (Some(o), None) => format!(" (from line {o})"),
                    (None, Some(l)) => format!(" (first {l} lines)"),
                    _ => String::new(),
                };
                GenericView {
                    raw_input: Some(input.clone()),
                    locations: vec![Location::new(path, n("offset"))],
                    ..GenericView::new(format!("Read {path}{window}"), "read")
                }
                .into()
            }
            "Glob" | "Grep" => {
                let pattern = arg("glob_pattern").or_else(|| arg("pattern")).unwrap_or_default();
                let mut title = format!("{} {pattern}", call.tool);
                if let Some(dir) = arg("target_directory").or_else(|| arg("path")) {
                    title.push_str(&format!(" in {dir}"));
                }
                GenericView {
                    raw_input: Some(input.clone()),
                    ..GenericView::new(title, "search")
                }
                .into()
            }
            tool => GenericView {
                raw_input: (!input.is_null()).then(|| input.clone()),
                ..GenericView::new(tool, "other")
            }
            .into(),
        })
    }

    /// A result's text when the transcript has one (a `tool_result`
    /// block); else nothing: the call's card stays.
    fn result_view(&self, s: &Settled<'_>) -> Option<Presented> {
        let text = crate::session::text_of(s.content);
        (!text.is_empty()).then(|| View::from(GenericView::default().with_text(text)).into())
    }
}

#[cfg(test)]
mod tests;
