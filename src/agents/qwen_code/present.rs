//! Qwen Code's tools as cards. Qwen Code is a fork of Gemini CLI: its tools
//! and what they return are Gemini CLI's (an edit is `edit` where Gemini
//! CLI's is `replace`; shell output in the older sections, its exit code
//! always said), so its calls are drawn by Gemini CLI's presenters
//! (`agents/gemini_cli/present.rs`), an `edit` as a `replace`. A deferred
//! call is drawn as the tool it ran (the reader names it).
//!
//! | tool | card |
//! |---|---|
//! | run_shell_command | terminal: the command, the output's `Output:` section, the exit code it says (`failed` when not 0) |
//! | read_file | read, at the lines asked for (`offset`, `limit`; the `Showing lines X-Y` its note says) |
//! | edit, write_file | diff: the hunks of `resultDisplay.fileDiff` at their real lines |
//! | glob, grep_search | search: the paths found; the matches by file with their line numbers |
//! | web_fetch | web |
//! | anything else (list_directory, tool_search, …) | generic with the raw input and the output |

use crate::agents::Mapping;
use crate::agents::gemini_cli::present::GeminiCli;
use crate::session::{Call, Presented, Presenters, Settled};
use crate::wire::view::View;

/// Qwen Code's tools and their cards (`docs/agents.md`'s table).
pub(super) const MAPPING: &[Mapping] = &[
    Mapping { tools: &["run_shell_command"], card: "terminal" },
    Mapping { tools: &["read_file"], card: "read" },
    Mapping { tools: &["edit", "write_file"], card: "diff" },
    Mapping { tools: &["glob", "grep_search"], card: "search" },
    Mapping { tools: &["web_fetch"], card: "web" },
];

/// The Qwen Code presenters.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct QwenCode;

/// The Gemini CLI tool a Qwen Code tool is.
fn as_gemini(tool: &str) -> &str {
    match tool {
        "edit" => "replace",
        other => other,
    }
}

impl Presenters for QwenCode {
    fn call_view(&self, call: Call<'_>) -> Option<View> {
        GeminiCli.call_view(Call::new(as_gemini(call.tool), call.arguments))
    }

    fn result_view(&self, s: &Settled<'_>) -> Option<Presented> {
        let tool = as_gemini(s.tool);
        GeminiCli.result_view(&Settled::new(tool, s.arguments, s.content, s.is_error, s.meta))
    }
}
