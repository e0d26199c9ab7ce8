//! `deck lint PATH|-`: the findings of `lint` (views that fall back, views
//! not used, views that will look poor), one per line as
//! `PATH:LINE: error|warning: call ID (tool NAME): result view: FIELD: why`
//! (the form compilers use, which GitHub's and GitLab's problem matchers
//! and editors read), as JSON lines (`--format json`), or as GitHub Actions
//! annotations (`--format github`). A count goes to stderr.
//!
//! The input is found by its content: a log deck reads (frame log, session
//! log, history …) through `source`, else one JSON value taken for a view.
//! Exit status: 0 when no view falls back (warnings alone), 1 when one
//! does, 2 when the input cannot be read.

use std::io::Read;
use std::process::ExitCode;

use serde_json::json;

use super::shared::output::write_stdout;
use crate::cli::{LintArgs, LintFormat};
use crate::lint::{self, Finding, Severity};
use crate::source::{self, LoadError, Loaded};
use crate::text::sanitize;

/// What `deck lint` read.
enum Input {
    Log(Loaded),
    /// One view's JSON text.
    View(String),
}

/// Run `deck lint`.
pub fn run(args: LintArgs) -> anyhow::Result<ExitCode> {
    let input = match read(&args.path) {
        Ok(input) => input,
        Err(e) => {
            eprintln!("deck: {}", super::error_message(&e));
            return Ok(ExitCode::from(2));
        }
    };
    let findings = match &input {
        Input::Log(loaded) => {
            if lint::host_views(loaded) == 0 {
                let why = match loaded.format {
                    source::Format::SessionLog => {
                        " (a DSH session log stores none: lint a frame log, such as `deck record` writes)"
                    }
                    source::Format::FrameLog | source::Format::History => "",
                    _ => " (deck's own presenters draw this agent's calls)",
                };
                eprintln!(
                    "{}",
                    sanitize::message(&format!(
                        "deck: {}: no views from a host to lint{why}",
                        args.path
                    ))
                );
            }
            lint::lint_loaded(loaded)
        }
        Input::View(text) => lint::lint_view(text),
    };
    let mut out = String::new();
    for f in &findings {
        match args.format {
            LintFormat::Text => out.push_str(&sanitize::line(&text_line(&args.path, f))),
            LintFormat::Json => {
                out.push_str(&sanitize::json_text(&json_line(&args.path, f).to_string()))
            }
            LintFormat::Github => out.push_str(&sanitize::line(&github_line(&args.path, f))),
        }
        out.push('\n');
    }
    write_stdout(out.as_bytes())?;
    let errors = findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .count();
    let warnings = findings.len() - errors;
    eprintln!(
        "{}",
        sanitize::message(&format!(
            "deck lint: {}: {errors} error{} (views that fall back or are not used), {warnings} warning{}",
            args.path,
            if errors == 1 { "" } else { "s" },
            if warnings == 1 { "" } else { "s" },
        ))
    );
    Ok(if errors > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// The input: a log, else one JSON value (a view).
fn read(path: &str) -> anyhow::Result<Input> {
    let mut stdin = Vec::new();
    let loaded = if path == "-" {
        std::io::stdin()
            .read_to_end(&mut stdin)
            .map_err(|e| anyhow::anyhow!("cannot read stdin: {e}"))?;
        source::load_bytes(path, &stdin)
    } else {
        source::load_path(path)
    };
    match loaded {
        Ok(l) => Ok(Input::Log(l)),
        Err(LoadError::UnknownFormat { .. }) => {
            let text = if path == "-" {
                String::from_utf8_lossy(&stdin).into_owned()
            } else {
                std::fs::read_to_string(path)
                    .map_err(|e| anyhow::anyhow!("cannot read {path}: {e}"))?
            };
            match serde_json::from_str::<serde::de::IgnoredAny>(&text) {
                Ok(_) => Ok(Input::View(text)),
                Err(e) => Err(anyhow::anyhow!(
                    "{path}: neither a log deck reads nor one JSON view: {e}"
                )),
            }
        }
        Err(e) => Err(e.into()),
    }
}

/// `PATH:LINE: error: call ID (tool NAME): MESSAGE`.
fn text_line(path: &str, f: &Finding) -> String {
    format!(
        "{path}:{}: {}: {}{}",
        f.line,
        f.severity.name(),
        whose(f),
        f.message
    )
}

/// `call ID (tool NAME): `, as much as is known.
fn whose(f: &Finding) -> String {
    match (&f.call_id, &f.tool) {
        (Some(id), Some(tool)) => format!("call {id} (tool {tool}): "),
        (Some(id), None) => format!("call {id}: "),
        (None, _) => String::new(),
    }
}

fn json_line(path: &str, f: &Finding) -> serde_json::Value {
    json!({
        "file": path,
        "line": f.line,
        "severity": f.severity.name(),
        "sessionId": f.session,
        "callId": f.call_id,
        "tool": f.tool,
        "view": f.slot,
        "card": f.card,
        "field": f.field,
        "reason": f.reason,
        "message": f.message,
    })
}

/// `::error file=PATH,line=N,title=deck lint::MESSAGE` (a GitHub Actions
/// workflow command, escaped as GitHub asks).
fn github_line(path: &str, f: &Finding) -> String {
    let level = match f.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    format!(
        "::{level} file={},line={},title=deck lint::{}",
        property(path),
        f.line,
        data(&format!("{}{}", whose(f), f.message))
    )
}

/// A workflow command's message.
fn data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A workflow command's property value.
fn property(s: &str) -> String {
    data(s).replace(':', "%3A").replace(',', "%2C")
}
