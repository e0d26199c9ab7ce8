//! `deck inspect PATH`: one JSON line per tool call (status, views and where
//! they came from), or per diagnostic, or per session in the input.

use std::io::Write;

use serde_json::{Value, json};

use super::{finish, report_diagnostics, write_stdout};
use crate::cards::{self, Resolution};
use crate::session::{ToolCard, Transcript};
use crate::source;
use crate::text::sanitize::json_text;
use crate::wire::{Diagnostic, RawJson};

/// Run `deck inspect`.
pub fn run(
    path: &str,
    session: Option<&str>,
    diagnostics: bool,
    sessions: bool,
) -> anyhow::Result<()> {
    let loaded = source::load_path(path)?;
    if sessions {
        let mut out = String::new();
        for s in &loaded.sessions {
            let t = Transcript::from_records(s.id.clone(), &s.records, crate::present::stock());
            out.push_str(&json_text(&session_line(&loaded, s, &t).to_string()));
            out.push('\n');
        }
        return write_stdout(out.as_bytes());
    }
    let s = loaded.session(session)?;
    super::report_other_sessions(&loaded, session);
    let t = Transcript::from_records(s.id.clone(), &s.records, crate::present::stock());
    if diagnostics {
        // Lines skipped or repaired, and views that did not type, in input
        // order.
        let mut all: Vec<Diagnostic> = t.diagnostics().iter().cloned().collect();
        all.extend(t.cards().iter().flat_map(|c| cards::view_problems(c)));
        all.sort_by_key(|d| (d.origin.line, d.origin.offset));
        // A subagent's, after the session's: their lines are its log's.
        all.extend(nested_diagnostics(&t));
        let mut out = String::new();
        for d in &all {
            let line = json!({"line": d.origin.line, "offset": d.origin.offset, "reason": d.reason, "raw": d.raw});
            out.push_str(&json_text(&line.to_string()));
            out.push('\n');
        }
        write_stdout(out.as_bytes())?;
    } else {
        // One line per card, written as it is made: views go out as the
        // JSON text they are kept as.
        let mut w = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
        let mut line = Vec::new();
        // A subagent's calls follow the call that started it, each naming
        // it (`parentCallId`).
        let written = each_card(&t, None, &mut |card, agent, parent| {
            line.clear();
            let mut l = inspect_line(card, agent);
            l.parent_call_id = parent;
            serde_json::to_writer(&mut line, &l)?;
            // serde_json writes valid UTF-8.
            let text = String::from_utf8_lossy(&line);
            w.write_all(json_text(&text).as_bytes())?;
            w.write_all(b"\n")
        });
        finish(written.and_then(|_| w.flush()))?;
    }
    report_diagnostics(&t);
    Ok(())
}

/// `f` for every card of `t` (of agent `t.agent()`), each followed by the
/// cards of the transcript nested under it, with the call they are nested
/// under.
fn each_card<'a>(
    t: &'a Transcript,
    parent: Option<&'a str>,
    f: &mut dyn FnMut(&'a ToolCard, Option<&'a str>, Option<&'a str>) -> std::io::Result<()>,
) -> std::io::Result<()> {
    for card in t.cards() {
        f(card, t.agent(), parent)?;
        if let Some(n) = &card.nested {
            each_card(n.transcript(), Some(&card.call_id), f)?;
        }
    }
    Ok(())
}

/// The diagnostics of the transcripts nested in `t`'s cards (a subagent's
/// log), each saying whose.
pub(super) fn nested_diagnostics(t: &Transcript) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for card in t.cards() {
        let Some(n) = &card.nested else {
            continue;
        };
        let child = n.transcript();
        let whose = |d: &Diagnostic| {
            let reason = format!("subagent of call {}: {}", card.call_id, d.reason);
            Diagnostic::new(d.origin, reason, d.raw.clone())
        };
        out.extend(child.diagnostics().iter().map(whose));
        out.extend(nested_diagnostics(child).iter().map(whose));
    }
    out
}

fn session_line(loaded: &source::Loaded, s: &source::LoadedSession, t: &Transcript) -> Value {
    json!({
        "sessionId": s.id,
        "format": loaded.format.name(),
        "compressed": loaded.compressed,
        "title": t.title(),
        "events": t.events(),
        "lastSeq": t.last_seq(),
        "cards": t.cards().len(),
        "errors": t.error_count(),
        "diagnostics": t.diagnostics().len(),
    })
}

/// One `deck inspect` line (fields in this order).
#[derive(serde::Serialize)]
struct InspectLine<'a> {
    #[serde(rename = "callId")]
    call_id: &'a str,
    tool: Option<&'a str>,
    status: &'a str,
    #[serde(rename = "callView")]
    call_view: Option<&'a RawJson>,
    #[serde(rename = "resultView")]
    result_view: Option<&'a RawJson>,
    #[serde(rename = "viewSource")]
    view_source: std::borrow::Cow<'static, str>,
    #[serde(rename = "fallbackReason", skip_serializing_if = "Option::is_none")]
    fallback_reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<Value>,
    /// The approval that gated the call: its outcome (`None`: waiting).
    #[serde(skip_serializing_if = "Option::is_none")]
    approval: Option<Value>,
    /// The call whose subagent made this call (its log nested under it).
    #[serde(rename = "parentCallId", skip_serializing_if = "Option::is_none")]
    parent_call_id: Option<&'a str>,
    /// How the background task the call started ended, as reported.
    #[serde(skip_serializing_if = "Option::is_none")]
    task: Option<Value>,
}

/// `agent`: the agent whose session it is (its presenters made the views
/// deck made: `presenter:claude-code`); `None` for DSH.
fn inspect_line<'a>(card: &'a ToolCard, agent: Option<&str>) -> InspectLine<'a> {
    // The views, as the host sent them or deck's presenters made them
    // (a question or a plan is drawn from the call, whatever its views).
    let resolved = cards::resolve_views(card);
    let view_source = match cards::resolution_of(card, &resolved) {
        Resolution::Wire => "wire".into(),
        Resolution::Presenter => match agent {
            Some(a) => format!("presenter:{a}").into(),
            None => "presenter".into(),
        },
        Resolution::Fallback => "fallback".into(),
    };
    InspectLine {
        call_id: &card.call_id,
        tool: card.tool.as_deref(),
        status: card.status.name(),
        call_view: card.call_view.as_ref().map(|a| &a.raw),
        result_view: card.result_view.as_ref().map(|a| &a.raw),
        view_source,
        fallback_reason: resolved.fallback,
        error: card
            .result
            .as_ref()
            .and_then(|r| r.error.as_ref())
            .map(|err| json!({"name": err.name, "code": err.code})),
        approval: card
            .approval
            .as_ref()
            .map(|a| json!({"outcome": a.outcome})),
        parent_call_id: None,
        task: card.task.as_ref().map(|t| {
            json!({"id": t.id, "status": t.status, "summary": t.summary, "result": t.result,
                   "outputFile": t.output_file})
        }),
    }
}
