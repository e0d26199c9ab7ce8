//! The calls read from aider's history as cards — the only place naming
//! them (`read.rs` makes them: aider's file has no tool calls).
//!
//! | tool | card |
//! |---|---|
//! | edit | diff: a SEARCH/REPLACE block, the text searched for and its replacement, its lines unknown (the block has no line numbers); a file aider created (`meta.created`) whole from line 1 |
//! | run, test | terminal: the command (`/run`, `!`, `/test`); its output and exit code are not in the file, and the card says so (with the lines of output aider added to the chat, `meta.outputLines`) |

use serde_json::Value;

use crate::session::{Args, arg};
use crate::agents::Mapping;
use crate::session::arguments_object as parse;
use crate::session::{Call, Presented, Presenters, Settled};
use crate::wire::view::{DiffView, FileDiff, GenericView, Location, TerminalView, View};

/// The calls read from aider's history and their cards (`docs/agents.md`'s
/// table).
pub(super) const MAPPING: &[Mapping] = &[
    Mapping { tools: &["edit"], card: "diff" },
    Mapping { tools: &["run", "test"], card: "terminal" },
];

/// The aider presenters.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Aider;



impl Presenters for Aider {
    fn call_view(&self, call: Call<'_>) -> Option<View> {
        let args = parse(call.arguments);
        match call.tool {
            "edit" => edit(&args, false),
            "run" | "test" => Some(terminal(&args, None, false)),
            _ => None,
        }
    }

    fn result_view(&self, s: &Settled<'_>) -> Option<Presented> {
        let args = parse(s.arguments);
        let meta = |k: &str| s.meta.and_then(|m| m.get(k));
        let view = match s.tool {
            "edit" if s.is_error => {
                let text = crate::session::text_of(s.content);
                View::from(GenericView::default().with_text(text))
            }
            "edit" => edit(&args, meta("created") == Some(&Value::Bool(true)))?,
            "run" | "test" => terminal(&args, meta("outputLines").and_then(Value::as_u64), s.is_error),
            _ => return None,
        };
        Some(view.into())
    }
}

/// A SEARCH/REPLACE block: at no known line, but a file aider created,
/// whole from its first line.
fn edit(args: &Args, created: bool) -> Option<View> {
    let path = arg(args, "path")?;
    let search = arg(args, "search").unwrap_or_default();
    let replace = arg(args, "replace").unwrap_or_default();
    let diff = if created && search.trim().is_empty() {
        FileDiff::new(path, None, replace).at(1)
    } else {
        FileDiff::new(path, Some(search.to_string()), replace)
    };
    let verb = if created { "Create" } else { "Edit" };
    Some(View::Diff(DiffView {
        title: Some(format!("{verb} {path}")),
        diffs: vec![diff],
        locations: vec![Location::new(path, None)],
    }))
}

/// A command: what the file says of it — never its output or exit code.
fn terminal(args: &Args, output_lines: Option<u64>, failed: bool) -> View {
    let lines = match output_lines {
        Some(1) => "; 1 line of it was added to the chat".to_string(),
        Some(n) => format!("; {n} lines of it were added to the chat"),
        None => String::new(),
    };
    let failed = if failed { "failed (aider adds a test's output to the chat only on a non-zero exit); " } else { "" };
    View::Terminal(TerminalView {
        title: arg(args, "command").map(str::to_string),
        description: Some(format!("{failed}output and exit code not in aider's log{lines}")),
        ..TerminalView::default()
    })
}

#[cfg(test)]
mod tests;
