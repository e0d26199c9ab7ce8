//! `deck lint`'s findings: every view a host sent that deck would draw as
//! the generic fallback card or that is not used at all (errors), and views
//! that are read but will look poor (warnings, `checks.rs`).
//!
//! An error's reason is the text of the fallback card (`result view:
//! diffs[0].path: missing`), from the same code ([`View::from_json`] as
//! [`AttachedView::typed`](crate::session::AttachedView::typed) calls it),
//! and names the same field. Views are found where the fold put them (the
//! cards of each session's transcript: their call ids and tools), and in
//! the records, for those the fold did not use (a view for the result on a
//! call, a view on another event, a line skipped whole).
//!
//! Only the host's views are linted: deck's own presenters' (a DSH session
//! log stores no views) are deck's business, not a tool author's.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use crate::session::{Transcript, ViewSource};
use crate::source::Loaded;
use crate::wire::{EventKind, RawJson, Record, View, ViewFor, payload};

mod checks;

/// How bad a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// The view falls back to the generic card, or is not used.
    Error,
    /// The view is read, but will look poor.
    Warning,
}

impl Severity {
    pub fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// One thing wrong with one view.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Finding {
    pub severity: Severity,
    /// The 1-based line of the input that brought the view (1 for a view
    /// given alone).
    pub line: usize,
    pub session: Option<String>,
    pub call_id: Option<String>,
    pub tool: Option<String>,
    /// `call` or `result` (a view given alone is taken for a result's).
    pub slot: &'static str,
    /// The view's `card`, when it has a string one.
    pub card: Option<String>,
    /// The field, as the fallback card names it (`diffs[0].path`); empty:
    /// the view as a whole.
    pub field: String,
    /// Why, without the field.
    pub reason: String,
    /// The whole message: for an error, the reason the fallback card shows.
    pub message: String,
}

/// The findings of every session of a loaded input, in input order.
pub fn lint_loaded(loaded: &Loaded) -> Vec<Finding> {
    let mut out = Vec::new();
    for s in &loaded.sessions {
        let t = Transcript::from_records(s.id.clone(), &s.records, crate::agents::stock());
        let mut used = Used::default();
        for card in t.cards() {
            let views = [("call", &card.call_view), ("result", &card.result_view)];
            for (slot, view) in views {
                let Some(v) = view.as_ref().filter(|v| v.source == ViewSource::Wire) else {
                    continue;
                };
                used.add(&v.raw(), v.origin);
                let at = Place {
                    line: v.origin.line,
                    session: s.id.clone(),
                    call_id: Some(card.call_id.clone()),
                    tool: card.tool.clone(),
                    slot,
                };
                out.extend(lint_text(v.raw().as_str(), &at));
            }
        }
        for r in &s.records {
            out.extend(unused(r, &used, s.id.as_deref()));
        }
    }
    out.sort_by_key(|f| f.line);
    out
}

/// The findings of one view given alone (its JSON text), taken for the
/// view of a call's result, as `deck card` draws it.
pub fn lint_view(text: &str) -> Vec<Finding> {
    let at = Place {
        line: 1,
        session: None,
        call_id: None,
        tool: None,
        slot: "result",
    };
    lint_text(text, &at)
}

/// How many of the views of `loaded` came from a host (what lint reads).
pub fn host_views(loaded: &Loaded) -> usize {
    let mut n = 0;
    for s in &loaded.sessions {
        for r in &s.records {
            match r {
                Record::Event { view: Some(_), .. } => n += 1,
                Record::Diagnostic(d) if view_in(&d.raw).is_some() => n += 1,
                _ => {}
            }
        }
    }
    n
}

/// Where a view was found.
struct Place {
    line: usize,
    session: Option<String>,
    call_id: Option<String>,
    tool: Option<String>,
    slot: &'static str,
}

impl Place {
    fn finding(&self, severity: Severity, card: Option<String>, field: &str, reason: String) -> Finding {
        let message = match field {
            "" => format!("{} view: {reason}", self.slot),
            f => format!("{} view: {f}: {reason}", self.slot),
        };
        Finding {
            severity,
            line: self.line,
            session: self.session.clone(),
            call_id: self.call_id.clone(),
            tool: self.tool.clone(),
            slot: self.slot,
            card,
            field: field.to_string(),
            reason,
            message,
        }
    }
}

/// A view's findings: why it falls back, or how it will look poor.
fn lint_text(text: &str, at: &Place) -> Vec<Finding> {
    let card = View::tag_of(text);
    match View::from_json(text) {
        Ok(view) => checks::warnings(&view, at.slot == "result")
            .into_iter()
            .map(|(field, reason)| at.finding(Severity::Warning, card.clone(), &field, reason))
            .collect(),
        Err(e) => {
            let (field, reason) = e.view_field().unwrap_or(("", e.to_string()));
            let mut f = at.finding(Severity::Error, card, field, reason);
            // The fallback card's words, whatever field they name.
            f.message = format!("{} view: {e}", at.slot);
            vec![f]
        }
    }
}

/// The views the cards use: the very texts of the records' views (a card
/// shares its record's), and where each was read.
#[derive(Default)]
struct Used {
    texts: HashSet<*const u8>,
    at: HashMap<(usize, u64), Vec<RawJson>>,
}

impl Used {
    fn add(&mut self, raw: &RawJson, at: crate::wire::Origin) {
        self.texts.insert(raw.as_str().as_ptr());
        self.at.entry((at.line, at.offset)).or_default().push(raw.clone());
    }

    fn has(&self, raw: &RawJson) -> bool {
        self.texts.contains(&raw.as_str().as_ptr())
    }

    /// A view equal to `view` is used, read at `at` (a line repaired, its
    /// diagnostic beside the record decoded from it).
    fn has_at(&self, at: crate::wire::Origin, view: &Value) -> bool {
        self.at
            .get(&(at.line, at.offset))
            .is_some_and(|raws| raws.iter().any(|r| r.try_parse().ok().as_ref() == Some(view)))
    }
}

/// A record's view that no card uses, or a skipped line that held one.
fn unused(r: &Record, used: &Used, session: Option<&str>) -> Option<Finding> {
    let (line, slot, why, call_id, card) = match r {
        Record::Event {
            event,
            view: Some(env),
            origin,
        } => {
            if used.has(&env.view) {
                return None;
            }
            let slot = match env.for_ {
                ViewFor::Call => "call",
                ViewFor::Result => "result",
            };
            let (call_id, why) = match (&event.kind, env.for_) {
                (EventKind::ToolCall, ViewFor::Result) => (
                    call_of(event),
                    "a view for the result on the tool/call event is not used".to_string(),
                ),
                (EventKind::ToolResult, ViewFor::Call) => (
                    result_of(event),
                    "a view for the call on the tool/result event is not used".to_string(),
                ),
                (EventKind::ToolCall, _) => (
                    call_of(event),
                    "not used: the call's first tool/call is kept".to_string(),
                ),
                (EventKind::ToolResult, _) => (
                    result_of(event),
                    "not used: the call's first tool/result is kept (or the result names no call)"
                        .to_string(),
                ),
                (kind, _) => (
                    None,
                    format!("a view on a {} event is not used", kind.as_str()),
                ),
            };
            (origin.line, slot, why, call_id, View::tag_of(env.view.as_str()))
        }
        Record::Diagnostic(d) => {
            let (slot, view, call_id) = view_in(&d.raw)?;
            if used.has_at(d.origin, &view) {
                return None;
            }
            let why = format!("the line is skipped ({}); its view is lost", d.reason);
            (d.origin.line, slot, why, call_id, view["card"].as_str().map(str::to_string))
        }
        _ => return None,
    };
    let at = Place {
        line,
        session: session.map(str::to_string),
        call_id,
        tool: None,
        slot,
    };
    Some(at.finding(Severity::Error, card, "", why))
}

fn call_of(event: &crate::wire::SessionEvent) -> Option<String> {
    payload::read::<payload::ToolCall>(&event.data).ok()?.call_id
}

fn result_of(event: &crate::wire::SessionEvent) -> Option<String> {
    let p = payload::read::<payload::ToolResult>(&event.data).ok()?;
    p.call_id().map(str::to_string)
}

/// The view a skipped line held (`{…, view: {for, view}}`, bare or in an
/// envelope's payload): its slot (`for`, as sent when it is neither), the
/// view, and the call id of its event's data.
fn view_in(raw: &str) -> Option<(&'static str, Value, Option<String>)> {
    if !raw.contains("\"view\"") {
        return None;
    }
    let line: Value = serde_json::from_str(raw).ok()?;
    let frame = match line.get("payload") {
        Some(p) if p.get("view").is_some() => p,
        _ => &line,
    };
    let env = frame.get("view")?;
    let slot = match env.get("for").and_then(Value::as_str) {
        Some("call") => "call",
        _ => "result",
    };
    let data = &frame["event"]["data"];
    let call_id = data["callId"]
        .as_str()
        .or_else(|| data["message"]["content"][0]["toolCallId"].as_str())
        .map(str::to_string);
    Some((slot, env.get("view").cloned().unwrap_or(Value::Null), call_id))
}

#[cfg(test)]
mod tests;
