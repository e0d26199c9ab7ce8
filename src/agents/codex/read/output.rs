//! What Codex wrote back for a command: the header it puts before the
//! output (`Chunk ID`, `Wall time: … seconds`, `Process exited with code
//! N` or `Exit code: N`, `Process running with session ID N`, `Original
//! token count`, then `Output:`), or the oldest generation's JSON
//! `{"output", "metadata": {"exit_code", "duration_seconds"}}`, or what it
//! wrote when its sandbox stopped a command (`failed in sandbox …, exit
//! code: N, …`). Read by the
//! rollout reader (to merge polls into the command they poll) and by the
//! Codex presenters (exit code and wall time on the terminal card).

use std::borrow::Cow;

use serde_json::Value;

/// A command's output with its header read.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ExecOutput<'a> {
    /// `Process exited with code N` / `Exit code: N` / `metadata.exit_code`.
    pub exit_code: Option<i64>,
    /// Seconds, from `Wall time: …` / `metadata.duration_seconds`.
    pub wall_time: Option<f64>,
    /// `Process running with session ID N`: still running, pollable by N.
    pub running: Option<String>,
    /// The output after the header (the whole text when there is none).
    pub body: Cow<'a, str>,
    /// Whether a header (or the JSON form) was found.
    pub framed: bool,
    /// Whether Codex cut the output (a `Warning:` line in the header).
    pub truncated: bool,
    /// Codex's sandbox stopped the command (`failed in sandbox …`).
    pub denied: bool,
}

/// Read `text` as a command's output. Never fails: text without a header
/// is all body.
pub fn parse(text: &str) -> ExecOutput<'_> {
    if let Some(parsed) = parse_json(text) {
        return parsed;
    }
    if let Some(code) = sandbox_exit_code(text) {
        return ExecOutput {
            exit_code: Some(code),
            body: Cow::Borrowed(text),
            denied: true,
            ..ExecOutput::default()
        };
    }
    let mut out = ExecOutput {
        body: Cow::Borrowed(text),
        ..ExecOutput::default()
    };
    let mut rest = text;
    let mut seen = false;
    while !rest.is_empty() {
        let (line, next) = rest.split_once('\n').unwrap_or((rest, ""));
        if line == "Output:" {
            if seen {
                out.body = Cow::Borrowed(next);
                out.framed = true;
            }
            return out;
        }
        if let Some(v) = line
            .strip_prefix("Process exited with code ")
            .or_else(|| line.strip_prefix("Exit code: "))
        {
            out.exit_code = v.trim().parse().ok();
        } else if let Some(v) = line.strip_prefix("Wall time: ") {
            out.wall_time = v.trim_end_matches(" seconds").trim().parse().ok();
        } else if let Some(v) = line.strip_prefix("Process running with session ID ") {
            out.running = Some(v.trim().to_string());
        } else if line.starts_with("Warning: ") {
            out.truncated = true;
        } else if !(line.starts_with("Chunk ID: ")
            || line.starts_with("Original token count: ")
            || line.starts_with("Total output lines: "))
        {
            break;
        }
        seen = true;
        rest = next;
    }
    ExecOutput {
        body: Cow::Borrowed(text),
        ..ExecOutput::default()
    }
}

/// `failed in sandbox <type> with execution error: sandbox denied exec
/// error, exit code: N, stdout: …, stderr: …` (Codex of 2025): the
/// command ran and the sandbox stopped it, exit code N.
fn sandbox_exit_code(text: &str) -> Option<i64> {
    let rest = text.trim_start().strip_prefix("failed in sandbox ")?;
    let (_, after) = rest.split_once("exit code: ")?;
    let end = after
        .char_indices()
        .find(|&(i, c)| !(c.is_ascii_digit() || (i == 0 && c == '-')))
        .map_or(after.len(), |(i, _)| i);
    after[..end].parse().ok()
}

/// The oldest rollouts' `{"output": "…", "metadata": {…}}`.
fn parse_json(text: &str) -> Option<ExecOutput<'static>> {
    if !text.starts_with('{') {
        return None;
    }
    let v: Value = serde_json::from_str(text).ok()?;
    let body = v.get("output")?.as_str()?.to_string();
    let meta = v.get("metadata")?;
    Some(ExecOutput {
        exit_code: meta.get("exit_code").and_then(Value::as_i64),
        wall_time: meta.get("duration_seconds").and_then(Value::as_f64),
        running: None,
        body: Cow::Owned(body),
        framed: true,
        truncated: false,
        denied: false,
    })
}

/// The text of a command whose output came in parts (its first output, then
/// each poll's), as one output with the last part's exit code and the wall
/// times added up.
pub fn merged(parts: &[String]) -> String {
    let mut body = String::new();
    let mut wall = 0.0;
    let mut last = ExecOutput::default();
    for part in parts {
        let p = parse(part);
        wall += p.wall_time.unwrap_or(0.0);
        body.push_str(&p.body);
        last = ExecOutput {
            body: Cow::Borrowed(""),
            ..p
        };
    }
    let status = match (last.exit_code, &last.running) {
        (Some(code), _) => format!("Process exited with code {code}"),
        (None, Some(id)) => format!("Process running with session ID {id}"),
        (None, None) => String::new(),
    };
    let mut text = format!("Wall time: {wall:.4} seconds\n");
    if !status.is_empty() {
        text.push_str(&status);
        text.push('\n');
    }
    text.push_str("Output:\n");
    text.push_str(&body);
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_of_each_generation() {
        let p = parse("Chunk ID: 1\nWall time: 0.3034 seconds\nProcess exited with code 2\nOriginal token count: 3\nOutput:\nhi\n");
        assert_eq!(p.exit_code, Some(2));
        assert_eq!(p.wall_time, Some(0.3034));
        assert_eq!(p.body, "hi\n");
        assert!(p.framed);
        let p = parse("Exit code: 0\nWall time: 0 seconds\nOutput:\nSuccess.\n");
        assert_eq!((p.exit_code, p.body.as_ref()), (Some(0), "Success.\n"));
        let p = parse("Chunk ID: b\nWall time: 0.5 seconds\nProcess running with session ID 76121\nOutput:\n");
        assert_eq!(p.running.as_deref(), Some("76121"));
        assert_eq!(p.exit_code, None);
        let p = parse(r#"{"output":"x\n","metadata":{"exit_code":1,"duration_seconds":0.25}}"#);
        assert_eq!((p.exit_code, p.wall_time), (Some(1), Some(0.25)));
        assert_eq!(p.body, "x\n");
    }

    #[test]
    fn a_sandbox_denial_has_its_exit_code() {
        let t = "failed in sandbox MacosSeatbelt with execution error: sandbox denied exec error, exit code: 1, stdout: total 40, stderr: ";
        let p = parse(t);
        assert_eq!((p.exit_code, p.denied, p.body.as_ref()), (Some(1), true, t));
        let p = parse("failed in sandbox X with execution error: sandbox denied exec error, exit code: -9, stdout: ");
        assert_eq!(p.exit_code, Some(-9));
        for t in ["failed in sandbox X with execution error: command timed out", "failed in sandbox exit code: x"] {
            assert_eq!(parse(t).exit_code, None, "{t}");
        }
    }

    #[test]
    fn text_without_a_header_is_all_body() {
        for t in ["Plan updated", "", "Output:\nx", "Wall time: 1 seconds\nnope\nOutput:\n"] {
            let p = parse(t);
            assert!(!p.framed, "{t:?}");
            assert_eq!(p.body, t);
        }
    }

    #[test]
    fn merged_parts() {
        let parts = [
            "Wall time: 0.5 seconds\nProcess running with session ID 7\nOutput:\na\n".to_string(),
            "Wall time: 1.25 seconds\nProcess exited with code 0\nOutput:\nb\n".to_string(),
        ];
        let p = parse(&merged(&parts)).exit_code;
        assert_eq!(p, Some(0));
        assert_eq!(
            merged(&parts),
            "Wall time: 1.7500 seconds\nProcess exited with code 0\nOutput:\na\nb\n"
        );
    }
}
