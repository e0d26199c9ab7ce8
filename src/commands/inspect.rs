//! `deck inspect PATH`: one JSON line per tool call (status, views and where
//! they came from, the answers it got, the calls of the subagent it
//! started), or per diagnostic, or per session in the input, or per turn's
//! end (with its token usage) and compaction.

use std::io::Write;

use serde_json::{Value, json};

use super::shared::output::{finish, write_stdout};
use super::shared::report::{nested_diagnostics, report_diagnostics, report_other_sessions};
use crate::cards::{self, Resolution};
use crate::session::{
    Answer, Ask, AttachedView, Item, Prompt, TokenUsage, ToolCard, Transcript, answer_to,
};
use crate::source;
use crate::text::sanitize::json_text;
use crate::wire::{Diagnostic, RawJson};

/// What `deck inspect` lists, a JSON line each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum List {
    /// Tool calls.
    Calls,
    /// Lines skipped or repaired, views that did not type.
    Diagnostics,
    /// The sessions in the input.
    Sessions,
    /// Turns' ends and compactions, in order.
    Turns,
}

/// Run `deck inspect`.
pub fn run(path: &str, session: Option<&str>, list: List) -> anyhow::Result<()> {
    let mut loaded = source::load_path(path)?;
    if list == List::Sessions {
        let mut out = String::new();
        for s in &loaded.sessions {
            let t = Transcript::from_records(s.id.clone(), &s.records, crate::agents::stock());
            out.push_str(&json_text(&session_line(&loaded, s, &t).to_string()));
            out.push('\n');
        }
        return write_stdout(out.as_bytes());
    }
    let id = loaded.session(session)?.id.clone();
    report_other_sessions(&loaded, session);
    // The records are let go of as they are folded: the text is held once,
    // by the transcript, not by both.
    let records = loaded
        .sessions
        .iter_mut()
        .find(|s| s.id == id)
        .map(|s| std::mem::take(&mut s.records))
        .unwrap_or_default();
    drop(loaded);
    let t = Transcript::from_records(id, records, crate::agents::stock());
    if list == List::Turns {
        let mut out = String::new();
        for line in t.items().iter().filter_map(turn_line) {
            out.push_str(&json_text(&line.to_string()));
            out.push('\n');
        }
        write_stdout(out.as_bytes())?;
    } else if list == List::Diagnostics {
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
        // One line per card, made on all cores a batch at a time (memory
        // stays a batch) and written in order: views go out as the JSON
        // text they are kept as.
        use rayon::prelude::*;
        let mut w = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
        // A subagent's calls follow the call that started it, each naming
        // it (`parentCallId`).
        let mut all = Vec::new();
        let _ = each_card(&t, None, &mut |card, agent, parent| {
            all.push((card, agent, parent));
            Ok(())
        });
        let written: std::io::Result<()> = all.chunks(1024).try_for_each(|batch| {
            let lines: Vec<String> = batch
                .par_iter()
                .map(|&(card, agent, parent)| {
                    let mut l = inspect_line(card, agent);
                    l.parent_call_id = parent;
                    // Only string keys: it cannot fail.
                    let line = serde_json::to_string(&l).unwrap_or_default();
                    let mut text = json_text(&line).into_owned();
                    text.push('\n');
                    text
                })
                .collect();
            lines.iter().try_for_each(|l| w.write_all(l.as_bytes()))
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

/// A `--turns` line: a turn's end (`{kind: "turn", turn, end, message?,
/// usage?}`) or a compaction (`{kind: "compaction", turn?, trigger?,
/// tokensBefore?, tokensAfter?, tokensCondensed?, error?, summary?}`);
/// what the log does not say is left out.
fn turn_line(item: &Item) -> Option<Value> {
    let mut line = serde_json::Map::new();
    let mut put = |k: &str, v: Option<Value>| {
        if let Some(v) = v {
            line.insert(k.into(), v);
        }
    };
    match item {
        Item::Turn(m) => {
            let end = m.end.as_ref()?;
            put("kind", Some("turn".into()));
            put("turn", Some(m.turn.into()));
            put("end", Some(end.reason.clone().into()));
            put("message", end.message.clone().map(Value::from));
            put("usage", end.usage.as_ref().map(usage_json));
        }
        Item::Compaction(c) => {
            put("kind", Some("compaction".into()));
            put("turn", c.turn.map(Value::from));
            put("trigger", c.trigger.clone().map(Value::from));
            put("tokensBefore", c.tokens_before.map(Value::from));
            put("tokensAfter", c.tokens_after.map(Value::from));
            put("tokensCondensed", c.tokens_condensed.map(Value::from));
            put("error", c.error.clone().map(Value::from));
            put("summary", c.summary.clone().map(Value::from));
        }
        _ => return None,
    }
    Some(Value::Object(line))
}

/// A turn's usage: `input` (all of it, `cacheRead` and `cacheWrite` of it),
/// `output` (`reasoning` of it); the counts the log gives.
fn usage_json(u: &TokenUsage) -> Value {
    let mut out = serde_json::Map::new();
    for (k, v) in [
        ("input", u.input),
        ("cacheRead", u.cache_read),
        ("cacheWrite", u.cache_write),
        ("output", u.output),
        ("reasoning", u.reasoning),
    ] {
        if let Some(v) = v {
            out.insert(k.into(), v.into());
        }
    }
    Value::Object(out)
}

/// One `deck inspect` line (fields in this order).
#[derive(serde::Serialize)]
struct InspectLine<'a> {
    #[serde(rename = "callId")]
    call_id: &'a str,
    tool: Option<&'a str>,
    status: &'a str,
    /// How its process exited, as its card says (its terminal view's, else
    /// what the log records).
    #[serde(rename = "exitCode", skip_serializing_if = "Option::is_none")]
    exit_code: Option<i64>,
    /// How long it took, as its card says (absent: not known).
    #[serde(rename = "durationMs", skip_serializing_if = "Option::is_none")]
    duration_ms: Option<i64>,
    #[serde(rename = "callView")]
    call_view: Option<RawJson>,
    #[serde(rename = "resultView")]
    result_view: Option<RawJson>,
    #[serde(rename = "viewSource")]
    view_source: std::borrow::Cow<'static, str>,
    #[serde(rename = "fallbackReason", skip_serializing_if = "Option::is_none")]
    fallback_reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<Value>,
    /// The approval that gated the call: its outcome (`None`: waiting).
    #[serde(skip_serializing_if = "Option::is_none")]
    approval: Option<Value>,
    /// The plan the call wrote, which its card draws as the checklist
    /// whatever its views: `[{content, status}]`.
    #[serde(skip_serializing_if = "Option::is_none")]
    plan: Option<Value>,
    /// The answers to the questions the call asked, which its card marks:
    /// `[{question, selected, text?}]`.
    #[serde(skip_serializing_if = "Option::is_none")]
    answers: Option<Value>,
    /// The call whose subagent made this call (its log nested under it).
    #[serde(rename = "parentCallId", skip_serializing_if = "Option::is_none")]
    parent_call_id: Option<&'a str>,
    /// How the background task the call started ended, as reported.
    #[serde(skip_serializing_if = "Option::is_none")]
    task: Option<Value>,
}

/// A call's exit code: its terminal view's, else the one its log records.
fn exit_code(card: &ToolCard) -> Option<i64> {
    let terminal = card
        .result_view
        .as_ref()
        .filter(|v| v.is("terminal"))
        .and_then(|v| match v.typed() {
            Ok(crate::wire::View::Terminal(t)) => t.exit_code,
            _ => None,
        });
    terminal.or_else(|| card.result.as_ref()?.recorded.exit_code)
}

/// A question's answers, each with the question it answers (none: `None`).
fn answers_json(p: &Prompt) -> Option<Value> {
    let Ask::Question {
        questions, answers, ..
    } = &p.ask
    else {
        return None;
    };
    let line = |question: &str, a: &Answer| {
        let mut v = json!({"question": question, "selected": a.selected});
        if let Some(t) = &a.text {
            v["text"] = t.clone().into();
        }
        v
    };
    let list: Vec<Value> = if questions.is_empty() {
        let name = |a: &Answer| a.question.clone().unwrap_or_else(|| a.id.clone());
        answers.iter().map(|a| line(&name(a), a)).collect()
    } else {
        questions
            .iter()
            .filter_map(|q| Some(line(&q.question, answer_to(q, questions, answers)?)))
            .collect()
    };
    (!list.is_empty()).then_some(Value::Array(list))
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
        exit_code: exit_code(card),
        duration_ms: card.duration_ms(),
        call_view: card.call_view.as_ref().map(AttachedView::raw),
        result_view: card.result_view.as_ref().map(AttachedView::raw),
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
        plan: card.todos.as_ref().map(|todos| {
            todos
                .iter()
                .map(|t| json!({"content": t.content, "status": t.status}))
                .collect()
        }),
        answers: card.question.as_deref().and_then(answers_json),
        parent_call_id: None,
        task: card.task.as_ref().map(|t| {
            json!({"id": t.id, "status": t.status, "summary": t.summary, "result": t.result,
                   "outputFile": t.output_file})
        }),
    }
}
