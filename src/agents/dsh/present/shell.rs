//! The `bash` presenters (DSH's `dsh-tool-bash`, with the exit-marker parser
//! of `dsh-shell`).
//!
//! * Call: a foreground command is a `terminal` card (`title` = command,
//!   `description`, `cwd` only when `workdir` was passed); a background run
//!   (`run_in_background: true`) is a `generic` `execute` card whose content is
//!   the description.
//! * Result: needs exactly one text block. A background acknowledgement or an
//!   error (sandbox-escalation failure, cancellation, …) becomes a `generic`
//!   card with the text fenced as `console`; anything else is a `terminal`
//!   card whose trailing `[killed by signal: X]` or `[exit code: N]` marker is
//!   split off into `signal` / `exitCode` (absent both: exit 0). Other
//!   trailers (timeout, sandbox denial, spill footers) stay in the output.

use serde_json::Value;

use super::schema::{ESCALATION_TARGETS, Ty, opt, req};
use super::{Args, Outcome, Presenter, arg_str, is_text_block, js, single_block};
use crate::wire::view::{Block, GenericView, TerminalView, View};

pub(super) static BASH: Presenter = Presenter {
    params: &[
        req("command", Ty::Str),
        req("description", Ty::Str),
        opt("timeoutMs", Ty::Num),
        opt("workdir", Ty::Str),
        opt("run_in_background", Ty::Bool),
        opt("sandbox_permissions", Ty::Enum(ESCALATION_TARGETS)),
        opt("justification", Ty::Str),
    ],
    call: present_call,
    result: Some(present_result),
};

fn background(args: &Args) -> bool {
    args.get("run_in_background") == Some(&Value::Bool(true))
}

fn present_call(args: &Args) -> Option<View> {
    let command = arg_str(args, "command").unwrap_or_default();
    let description = arg_str(args, "description").unwrap_or_default();
    if background(args) {
        return Some(View::Generic(GenericView {
            title: Some(command.into()),
            kind: Some("execute".into()),
            raw_input: Some(command.into()),
            content: Some(vec![Block::text(description)]),
            ..GenericView::default()
        }));
    }
    Some(View::Terminal(TerminalView {
        title: Some(command.into()),
        description: Some(description.into()),
        // Validated as a string.
        cwd: arg_str(args, "workdir").map(str::to_string),
        ..TerminalView::default()
    }))
}

fn present_result(args: &Args, result: &Outcome) -> Option<View> {
    let block = single_block(result.content)?;
    if !is_text_block(block) {
        return None;
    }
    let text = block.get("text");
    if background(args) || result.is_error {
        // JS `raw.replace(...)` throws on a non-string, which the host swallows.
        let raw = text?.as_str()?;
        let fenced = format!("```console\n{}\n```", raw.trim_end_matches('\n'));
        return Some(View::Generic(GenericView {
            content: Some(vec![Block::text(fenced)]),
            ..GenericView::default()
        }));
    }
    let mut view = TerminalView::default();
    match text {
        Some(Value::String(raw)) => {
            let (body, status) = parse_exit_status(raw);
            view.output = Some(body.into());
            match status {
                ExitStatus::Signal(signal) => view.signal = Some(signal.into()),
                ExitStatus::Code(code) => view.exit_code = Some(code?),
            }
        }
        // A missing text leaves `output: undefined`, which JSON drops (and
        // `null` reads as absent).
        None | Some(Value::Null) => view.exit_code = Some(0),
        // Any other output: a view no card reads.
        Some(_) => return None,
    }
    Some(View::Terminal(view))
}

/// The exit status recovered from a rendered shell result.
#[derive(Debug, PartialEq)]
enum ExitStatus<'a> {
    Signal(&'a str),
    /// The code, as a card reads it (`None`: the host writes a number that
    /// is not an integer a card reads).
    Code(Option<i64>),
}

/// DSH's `parseExitStatus`: split a final `\n[killed by signal: X]` (X without
/// `]` or newline) or `\n[exit code: N]` (ASCII digits) off the end of the
/// text. Anything else, including marker-like text on the first line, is a
/// clean exit 0 with the text unchanged.
fn parse_exit_status(text: &str) -> (&str, ExitStatus<'_>) {
    if let Some((body, line)) = text.rsplit_once('\n')
        && let Some(inner) = line.strip_suffix(']')
    {
        if let Some(signal) = inner.strip_prefix("[killed by signal: ")
            && !signal.is_empty()
            && !signal.contains(']')
        {
            return (body, ExitStatus::Signal(signal));
        }
        if let Some(code) = inner.strip_prefix("[exit code: ")
            && !code.is_empty()
            && code.bytes().all(|b| b.is_ascii_digit())
        {
            let code = code.parse::<f64>().ok().and_then(js::integer);
            return (body, ExitStatus::Code(code));
        }
    }
    (text, ExitStatus::Code(Some(0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_markers_only_at_the_very_end() {
        assert_eq!(
            parse_exit_status("x\n[exit code: 3]"),
            ("x", ExitStatus::Code(Some(3)))
        );
        assert_eq!(
            parse_exit_status("\n[exit code: 007]"),
            ("", ExitStatus::Code(Some(7)))
        );
        assert_eq!(
            parse_exit_status("[exit code: 3]"),
            ("[exit code: 3]", ExitStatus::Code(Some(0)))
        );
        assert_eq!(
            parse_exit_status("x\n[exit code: 3]\n"),
            ("x\n[exit code: 3]\n", ExitStatus::Code(Some(0)))
        );
        assert_eq!(
            parse_exit_status("x\n[exit code: -1]"),
            ("x\n[exit code: -1]", ExitStatus::Code(Some(0)))
        );
        assert_eq!(
            parse_exit_status("x\n[exit code: ]"),
            ("x\n[exit code: ]", ExitStatus::Code(Some(0)))
        );
        assert_eq!(
            parse_exit_status("a\nb\n[killed by signal: SIGKILL]"),
            ("a\nb", ExitStatus::Signal("SIGKILL"))
        );
        assert_eq!(
            parse_exit_status("x\n[killed by signal: a]b]"),
            ("x\n[killed by signal: a]b]", ExitStatus::Code(Some(0)))
        );
        assert_eq!(parse_exit_status(""), ("", ExitStatus::Code(Some(0))));
    }
}
