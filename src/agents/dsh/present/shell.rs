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

use serde_json::{Value, json};

use super::schema::{ESCALATION_TARGETS, Ty, opt, req};
use super::{Args, Outcome, Presenter, arg_str, is_text_block, js, single_block};

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

fn present_call(args: &Args) -> Value {
    let command = arg_str(args, "command").unwrap_or_default();
    let description = arg_str(args, "description").unwrap_or_default();
    if background(args) {
        return json!({
            "card": "generic",
            "title": command,
            "kind": "execute",
            "rawInput": command,
            "content": [{"type": "text", "text": description}],
        });
    }
    let mut view = json!({"card": "terminal", "title": command, "description": description});
    if let (Some(workdir), Some(map)) = (args.get("workdir"), view.as_object_mut()) {
        map.insert("cwd".into(), workdir.clone());
    }
    view
}

fn present_result(args: &Args, result: &Outcome) -> Option<Value> {
    let block = single_block(result.content)?;
    if !is_text_block(block) {
        return None;
    }
    let text = block.get("text");
    if background(args) || result.is_error {
        // JS `raw.replace(...)` throws on a non-string, which the host swallows.
        let raw = text?.as_str()?;
        let fenced = format!("```console\n{}\n```", raw.trim_end_matches('\n'));
        return Some(json!({"card": "generic", "content": [{"type": "text", "text": fenced}]}));
    }
    Some(match text {
        Some(Value::String(raw)) => {
            let (body, status) = parse_exit_status(raw);
            let mut view = json!({"card": "terminal", "output": body});
            if let Some(map) = view.as_object_mut() {
                match status {
                    ExitStatus::Signal(signal) => map.insert("signal".into(), signal.into()),
                    ExitStatus::Code(code) => map.insert("exitCode".into(), code),
                };
            }
            view
        }
        // A missing text leaves `output: undefined`, which JSON drops.
        None => json!({"card": "terminal", "exitCode": 0}),
        Some(other) => json!({"card": "terminal", "output": other, "exitCode": 0}),
    })
}

/// The exit status recovered from a rendered shell result.
#[derive(Debug, PartialEq)]
enum ExitStatus<'a> {
    Signal(&'a str),
    Code(Value),
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
            let code = code.parse::<f64>().map_or(Value::Null, js::number);
            return (body, ExitStatus::Code(code));
        }
    }
    (text, ExitStatus::Code(Value::from(0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_markers_only_at_the_very_end() {
        assert_eq!(
            parse_exit_status("x\n[exit code: 3]"),
            ("x", ExitStatus::Code(json!(3)))
        );
        assert_eq!(
            parse_exit_status("\n[exit code: 007]"),
            ("", ExitStatus::Code(json!(7)))
        );
        assert_eq!(
            parse_exit_status("[exit code: 3]"),
            ("[exit code: 3]", ExitStatus::Code(json!(0)))
        );
        assert_eq!(
            parse_exit_status("x\n[exit code: 3]\n"),
            ("x\n[exit code: 3]\n", ExitStatus::Code(json!(0)))
        );
        assert_eq!(
            parse_exit_status("x\n[exit code: -1]"),
            ("x\n[exit code: -1]", ExitStatus::Code(json!(0)))
        );
        assert_eq!(
            parse_exit_status("x\n[exit code: ]"),
            ("x\n[exit code: ]", ExitStatus::Code(json!(0)))
        );
        assert_eq!(
            parse_exit_status("a\nb\n[killed by signal: SIGKILL]"),
            ("a\nb", ExitStatus::Signal("SIGKILL"))
        );
        assert_eq!(
            parse_exit_status("x\n[killed by signal: a]b]"),
            ("x\n[killed by signal: a]b]", ExitStatus::Code(json!(0)))
        );
        assert_eq!(parse_exit_status(""), ("", ExitStatus::Code(json!(0))));
    }
}
