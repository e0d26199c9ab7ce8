//! How a Codex call ended, as far as its rollout says: the output's exit
//! code (its header, the oldest generation's JSON, a sandbox denial's
//! text), Codex's own error texts, the end events and items it kept
//! beside the call (`exec_command_end`, `patch_apply_end`, 0.169's
//! `CommandExecution` / `FileChange`), the call item's own `status`; and
//! how long it ran. What none of them says is unknown, never guessed.
//!
//! Owns the judging only; the reader writes the verdict on the result
//! (`isError`, deck's `exitCode`, `durationMs`, `outcome`). Names no tool:
//! Codex's texts are recognised whatever call they answer.

use serde_json::Value;

use super::output::ExecOutput;
use crate::wire::payload::ToolResult;

/// What Codex kept of a call's end beside its output.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct End {
    pub exit_code: Option<i64>,
    pub duration_ms: Option<i64>,
    /// `success` of `patch_apply_end`.
    pub success: Option<bool>,
    /// The end's or the item's own `status` (`completed`, `failed`,
    /// `declined`).
    pub status: Option<String>,
}

impl End {
    /// What an end event (`exec_command_end`, `patch_apply_end`) or a
    /// completed item (`CommandExecution`, `FileChange`) says.
    pub fn of(v: &Value) -> End {
        End {
            exit_code: v.get("exit_code").and_then(Value::as_i64),
            duration_ms: v.get("duration").and_then(duration_ms),
            success: v.get("success").and_then(Value::as_bool),
            status: v.get("status").and_then(Value::as_str).map(str::to_string),
        }
    }

    /// `other`'s facts added where this one has none.
    pub fn merge(&mut self, other: End) {
        self.exit_code = self.exit_code.or(other.exit_code);
        self.duration_ms = self.duration_ms.or(other.duration_ms);
        self.success = self.success.or(other.success);
        if self.status.is_none() {
            self.status = other.status;
        }
    }
}

/// A Rust `Duration` as serde writes it (`{secs, nanos}`), in ms.
fn duration_ms(v: &Value) -> Option<i64> {
    let secs = v.get("secs")?.as_i64()?;
    let nanos = v.get("nanos").and_then(Value::as_i64).unwrap_or(0);
    secs.checked_mul(1000)?.checked_add(nanos / 1_000_000)
}

/// How a call ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Ended {
    /// It ran and succeeded (exit 0, `success`, or its item `completed`).
    Ok,
    /// It exited with a code other than 0: failed, not an error.
    Exited(i64),
    /// Codex says it failed (its error text, `success: false`).
    Error,
    /// Codex says it was refused and did not run.
    Rejected,
    /// Nothing says.
    Unknown,
}

/// A call's end as the reader writes it on the result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Verdict {
    pub ended: Ended,
    /// The exit code, wherever the log said it.
    pub exit_code: Option<i64>,
    pub duration_ms: Option<i64>,
}

impl Verdict {
    /// The verdict's keys on a `tool/result`'s data: `isError` is the
    /// part's; deck's `exitCode`, `durationMs` and `outcome` the data's.
    pub fn is_error(&self) -> bool {
        matches!(self.ended, Ended::Error | Ended::Rejected)
    }

    pub fn write(&self, data: &mut ToolResult<'_>) {
        data.exit_code = self.exit_code;
        data.duration_ms = self.duration_ms;
        data.outcome = match self.ended {
            Ended::Unknown => Some("unknown".into()),
            Ended::Rejected => Some("rejected".into()),
            _ => None,
        };
    }
}

/// Judge a call's end from its output (`text`, read as `parsed`), the
/// output's own `success` flag, what Codex kept beside it (`end`) and the
/// call item's `status`. Evidence in that order: a failure said outright,
/// an exit code, a refusal, an error text, a process still running, a
/// success said outright (the flag, or Codex's own success text), the
/// end's status, the item's; else unknown.
pub(super) fn judge(
    text: &str,
    parsed: &ExecOutput<'_>,
    success: Option<bool>,
    end: Option<&End>,
    item_status: Option<&str>,
) -> Verdict {
    let exit_code = parsed.exit_code.or_else(|| end.and_then(|e| e.exit_code));
    let duration_ms = end
        .and_then(|e| e.duration_ms)
        .or_else(|| parsed.wall_time.and_then(seconds_ms));
    let said = success.or_else(|| end.and_then(|e| e.success));
    let ended = if said == Some(false) {
        Ended::Error
    } else if let Some(code) = exit_code {
        if code == 0 { Ended::Ok } else { Ended::Exited(code) }
    } else if is_refusal(text) {
        Ended::Rejected
    } else if is_error_text(text) {
        Ended::Error
    } else if parsed.running.is_some() {
        Ended::Unknown
    } else if said == Some(true) || is_success_text(text) {
        Ended::Ok
    } else {
        match end.and_then(|e| e.status.as_deref()).or(item_status) {
            Some("completed") => Ended::Ok,
            Some("failed") => Ended::Error,
            Some("declined") => Ended::Rejected,
            _ => Ended::Unknown,
        }
    };
    Verdict {
        ended,
        exit_code,
        duration_ms,
    }
}

fn seconds_ms(s: f64) -> Option<i64> {
    let ms = (s * 1000.0).round();
    (ms.is_finite() && ms >= 0.0 && ms < i64::MAX as f64).then_some(ms as i64)
}

/// The first line of an output, where Codex puts what went wrong.
fn first_line(text: &str) -> &str {
    text.trim_start().lines().next().unwrap_or_default()
}

/// Codex's refusals: `exec command rejected by user`, `exec command
/// rejected: <why>` (the approval policy), `patch rejected by user`.
fn is_refusal(text: &str) -> bool {
    let line = first_line(text);
    ["exec command rejected", "patch rejected"]
        .iter()
        .any(|p| line.starts_with(p))
}

/// Codex's own text for a call that succeeded and has no exit code:
/// `update_plan`'s `Plan updated`, the only thing it answers on success.
fn is_success_text(text: &str) -> bool {
    text.trim() == "Plan updated"
}

/// Codex's texts for a call that failed before or without an exit code:
/// a patch that does not apply (`error: Failed to find expected lines …`
/// in 2025, `… verification failed: …` since), `execution error: …`,
/// `retry failed: …`, a sandbox error without an exit code, a timeout.
fn is_error_text(text: &str) -> bool {
    let line = first_line(text);
    ["error: ", "execution error: ", "retry failed: ", "failed in sandbox ", "command timed out"]
        .iter()
        .any(|p| line.starts_with(p))
        || line
            .split_once(' ')
            .is_some_and(|(_, rest)| rest.starts_with("verification failed: "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::codex::read::output::parse;
    use serde_json::json;

    fn ended(text: &str, success: Option<bool>, end: Option<&End>, status: Option<&str>) -> Ended {
        judge(text, &parse(text), success, end, status).ended
    }

    #[test]
    fn evidence_in_order() {
        let sandbox = "failed in sandbox LinuxSeccomp with execution error: sandbox denied exec error, exit code: 1, stdout: , stderr: no\n";
        assert_eq!(ended(sandbox, None, None, None), Ended::Exited(1));
        let json = r#"{"output":"ok\n","metadata":{"exit_code":0,"duration_seconds":4.6}}"#;
        let v = judge(json, &parse(json), None, None, None);
        assert_eq!((v.ended, v.exit_code, v.duration_ms), (Ended::Ok, Some(0), Some(4_600)));
        let bad = "error: Failed to find expected lines [\"x\"] in /a/b.py";
        assert_eq!(ended(bad, None, None, Some("completed")), Ended::Error);
        let verify = "apply_patch verification failed: Failed to find expected lines in /a:\nx";
        assert_eq!(ended(verify, None, None, Some("completed")), Ended::Error);
        assert_eq!(ended("exec command rejected by user", None, None, None), Ended::Rejected);
        assert_eq!(ended("Done!", None, None, Some("completed")), Ended::Ok);
        assert_eq!(ended("Done!", None, None, None), Ended::Unknown);
        assert_eq!(ended("Plan updated", None, None, None), Ended::Ok);
        assert_eq!(ended("Plan updated: 2 steps", None, None, None), Ended::Unknown);
        assert_eq!(ended("[redacted]", None, None, Some("in_progress")), Ended::Unknown);
        assert_eq!(ended("x", Some(false), None, Some("completed")), Ended::Error);
        assert_eq!(ended("x", Some(true), None, None), Ended::Ok);
        let running = "Wall time: 0.5 seconds\nProcess running with session ID 7\nOutput:\n";
        assert_eq!(ended(running, None, None, Some("completed")), Ended::Unknown);
        let end = End::of(&json!({"exit_code": 101, "duration": {"secs": 4, "nanos": 612_000_000}}));
        let v = judge("raw out\n", &parse("raw out\n"), None, Some(&end), None);
        assert_eq!((v.ended, v.exit_code, v.duration_ms), (Ended::Exited(101), Some(101), Some(4_612)));
        let patch = End::of(&json!({"success": false, "status": "failed"}));
        assert_eq!(ended("[redacted]", None, Some(&patch), Some("completed")), Ended::Error);
    }

    #[test]
    fn odd_values_say_nothing() {
        for d in [json!(null), json!("1s"), json!({"secs": "x"}), json!({"secs": i64::MAX})] {
            assert_eq!(End::of(&json!({"duration": d})).duration_ms, None, "{d}");
        }
        assert_eq!(ended("failed in sandbox X with execution error: command timed out", None, None, None), Ended::Error);
        assert_eq!(seconds_ms(f64::NAN), None);
        assert_eq!(seconds_ms(-1.0), None);
    }
}
