//! What Claude Code's lines say of a session besides its content:
//!
//! * a message's token usage (`message.usage`), as DSH's `TokenUsage` on
//!   the step's `assistant/message`: every line of one message repeats it,
//!   and the step is the message, so the fold counts it once;
//! * a compaction: the `system` line of subtype `compact_boundary`
//!   (`compactMetadata`: `trigger`, `preTokens`, `postTokens` when this
//!   version counts it) is a `compaction/start`; the summary message that
//!   follows it (`isCompactSummary`) its `compaction/summary`, never a
//!   prompt. A `local_command` line goes to `commands`; other `system`
//!   lines are nothing.

use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

use super::{Line, Out, Reader};
use crate::wire::payload::{Compaction, ContentBlock, TextOrObjects, TokenUsage};
use crate::wire::{EventKind, Origin};

/// The words Claude Code's compact summary starts with (logs of versions
/// that did not mark it `isCompactSummary`).
const SUMMARY_START: &str = "This session is being continued from a previous conversation";

/// A message's token counts (`message.usage`), read without a tree: what
/// DSH's `TokenUsage` holds. Any count that is not a plain non-negative
/// integer is absent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Usage {
    /// `input_tokens`: neither read from the cache nor written to it.
    input: Option<u64>,
    output: Option<u64>,
    /// `cache_read_input_tokens`, `cache_creation_input_tokens`.
    cache_read: Option<u64>,
    cache_write: Option<u64>,
    /// `output_tokens_details.thinking_tokens`, when the line counts them.
    reasoning: Option<u64>,
}

#[derive(Deserialize)]
struct WireUsage<'a> {
    #[serde(borrow, default)]
    input_tokens: Option<&'a RawValue>,
    #[serde(borrow, default)]
    output_tokens: Option<&'a RawValue>,
    #[serde(borrow, default)]
    cache_read_input_tokens: Option<&'a RawValue>,
    #[serde(borrow, default)]
    cache_creation_input_tokens: Option<&'a RawValue>,
    #[serde(borrow, default)]
    output_tokens_details: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct WireDetails<'a> {
    #[serde(borrow, default)]
    thinking_tokens: Option<&'a RawValue>,
}

/// A JSON integer's text as a count (as `Value::as_u64` reads it).
fn count(r: Option<&RawValue>) -> Option<u64> {
    r?.get().parse().ok()
}

impl Usage {
    /// A `usage` object's text; `None` when it holds no count.
    pub fn parse(json: &str) -> Option<Usage> {
        let w: WireUsage<'_> = serde_json::from_str(json).ok()?;
        // Claude Code writes `thinking_tokens: 0` when the API gave no
        // count (its usage merge is `api.thinking_tokens ?? 0`): a 0 is
        // no count.
        let reasoning = w
            .output_tokens_details
            .filter(|d| d.get().starts_with('{'))
            .and_then(|d| serde_json::from_str::<WireDetails<'_>>(d.get()).ok())
            .and_then(|d| count(d.thinking_tokens))
            .filter(|&n| n > 0);
        let u = Usage {
            input: count(w.input_tokens),
            output: count(w.output_tokens),
            cache_read: count(w.cache_read_input_tokens),
            cache_write: count(w.cache_creation_input_tokens),
            reasoning,
        };
        (u != Usage::default()).then_some(u)
    }

    /// As DSH's `TokenUsage`.
    pub fn to_payload(self) -> TokenUsage {
        TokenUsage {
            input_tokens: self.input,
            output_tokens: self.output,
            cache_read_tokens: self.cache_read,
            cache_write_tokens: self.cache_write,
            reasoning_tokens: self.reasoning,
        }
    }

    /// As DSH's `TokenUsage` object.
    #[cfg(test)]
    pub fn to_value(self) -> Value {
        serde_json::to_value(self.to_payload()).unwrap_or_default()
    }
}

impl Reader {
    /// Whether a user line is a compaction's summary: marked so, or (in
    /// older logs) saying so right after a compaction's boundary.
    pub(super) fn is_compact_summary(&self, line: &Line) -> bool {
        line.compact_summary
            || (self.compaction.is_some() && line.text().starts_with(SUMMARY_START))
    }

    /// A `system` line: a compaction's boundary starts a compaction; a
    /// local command's line is its command or output (`commands`); the
    /// others are nothing.
    pub(super) fn system(&mut self, line: &Line, origin: Origin, out: &mut Out) {
        let subtype = line.subtype.as_deref();
        if !matches!(subtype, Some("compact_boundary" | "local_command")) {
            return;
        }
        if self.sidechain.is_some_and(|s| s != line.sidechain) {
            return;
        }
        if let Some(ms) = line.time {
            self.time = self.time.max(ms);
        }
        if subtype == Some("local_command") {
            if let Some(content) = &line.content {
                self.local_command_line(out, origin, content);
            }
            return;
        }
        let id = match &line.uuid {
            Some(u) => u.clone(),
            None => format!("compaction-{}", self.emitter.seq() + 1),
        };
        let field = |k: &str| line.compact.as_ref().and_then(|m| m.get(k));
        let data = Compaction {
            compaction_id: Some(id.clone()),
            trigger: field("trigger").and_then(Value::as_str).map(str::to_string),
            tokens_before: field("preTokens").and_then(Value::as_u64),
            tokens_after: field("postTokens").and_then(Value::as_u64),
            turn: self.turn_open.then_some(self.turn),
            ..Compaction::default()
        };
        self.emit(out, origin, EventKind::CompactionStart, &data);
        self.compaction = Some(id);
    }

    /// The summary a compaction left: its `compaction/summary`.
    pub(super) fn compact_summary(&mut self, line: &Line, origin: Origin, out: &mut Out) {
        let id = self.compaction.take().unwrap_or_else(|| match &line.uuid {
            Some(u) => u.clone(),
            None => format!("compaction-{}", self.emitter.seq() + 1),
        });
        let summary = ContentBlock {
            kind: Some("text".into()),
            text: Some(line.text()),
        };
        let data = Compaction {
            compaction_id: Some(id),
            summary: TextOrObjects::Objects(vec![Some(summary)]),
            turn: self.turn_open.then_some(self.turn),
            ..Compaction::default()
        };
        self.emit(out, origin, EventKind::CompactionSummary, &data);
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::super::{Reader, Translate};
    use crate::session::{Compaction, Item, TokenUsage, Transcript};
    use crate::agents::read::Out;
    use crate::wire::Origin;

    fn fold(lines: &[Value]) -> Transcript {
        let mut r = Reader::default();
        let mut out = Out::new();
        for (i, l) in lines.iter().enumerate() {
            r.line(l, Origin { line: i + 1, offset: 0 }, &mut out);
        }
        r.finish(&mut out);
        Transcript::from_records(None, out.iter().map(|(_, r)| r), crate::agents::stock())
    }

    fn line(kind: &str, rest: Value) -> Value {
        let mut v = json!({"type": kind, "uuid": format!("u-{kind}"), "sessionId": "s",
                           "timestamp": "2026-12-01T10:00:00.000Z"});
        if let (Some(v), Value::Object(rest)) = (v.as_object_mut(), rest) {
            v.extend(rest);
        }
        v
    }

    fn prompt(text: &str) -> Value {
        line("user", json!({"message": {"role": "user", "content": text}}))
    }

    fn assistant(id: &str, content: Value, input: u64, output: u64) -> Value {
        let usage = json!({"input_tokens": input, "cache_read_input_tokens": 900,
                           "cache_creation_input_tokens": 10, "output_tokens": output,
                           "output_tokens_details": {"thinking_tokens": 0}});
        line("assistant", json!({"message": {"id": id, "role": "assistant", "model": "m",
                                             "content": content, "usage": usage}}))
    }

    fn usages(t: &Transcript) -> Vec<Option<TokenUsage>> {
        t.items()
            .iter()
            .filter_map(|i| match i {
                Item::Turn(m) => Some(m.end.as_ref()?.usage),
                _ => None,
            })
            .collect()
    }

    fn compactions(t: &Transcript) -> Vec<Compaction> {
        t.items()
            .iter()
            .filter_map(|i| match i {
                Item::Compaction(c) => Some((**c).clone()),
                _ => None,
            })
            .collect()
    }

    fn prompts(t: &Transcript) -> Vec<String> {
        t.items()
            .iter()
            .filter_map(|i| match i {
                Item::User(u) => Some(u.text.clone()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_turn_counts_each_message_once_at_its_latest() {
        let t = fold(&[
            prompt("go"),
            // Three lines of one message, its usage on each: counted once,
            // as the last line says it (it may grow as the message streams).
            assistant("m1", json!([{"type": "thinking", "thinking": "hmm"}]), 100, 5),
            assistant("m1", json!([{"type": "text", "text": "ok"}]), 100, 40),
            assistant("m1", json!([{"type": "tool_use", "id": "t1", "name": "X", "input": {}}]), 100, 40),
            line("user", json!({"message": {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "t1", "content": "done"}]}})),
            // A message of calls only has its usage too.
            assistant("m2", json!([{"type": "tool_use", "id": "t2", "name": "X", "input": {}}]), 200, 7),
            prompt("next"),
        ]);
        let mut want = TokenUsage::new(Some(300 + 2 * 910), Some(47));
        want.cache_read = Some(1800);
        want.cache_write = Some(20);
        // `thinking_tokens: 0` beside a thinking block: the CLI's filler, no
        // count.
        want.reasoning = None;
        // The second turn made no request: its usage is not said.
        assert_eq!(usages(&t), [Some(want), None]);
    }

    #[test]
    fn a_compaction_is_a_marker_and_its_summary_no_prompt() {
        let boundary = line("system", json!({"subtype": "compact_boundary", "content": "Conversation compacted",
            "isSidechain": false, "level": "info",
            "compactMetadata": {"trigger": "auto", "preTokens": 155_025, "postTokens": 6_330}}));
        let summary = line("user", json!({"isCompactSummary": true, "isVisibleInTranscriptOnly": true,
            "message": {"role": "user", "content": "This session is being continued from a previous conversation that ran out of context.\n\nSummary:\n1. the tour"}}));
        let t = fold(&[
            prompt("go"),
            assistant("m1", json!([{"type": "text", "text": "ok"}]), 100, 5),
            line("system", json!({"subtype": "turn_duration", "durationMs": 88_947})),
            boundary,
            summary,
            prompt("continue"),
        ]);
        assert_eq!(prompts(&t), ["go", "continue"]);
        let c = compactions(&t);
        assert_eq!(c.len(), 1);
        assert_eq!((c[0].trigger.as_deref(), c[0].turn), (Some("auto"), Some(1)));
        assert_eq!((c[0].tokens_before, c[0].tokens_after), (Some(155_025), Some(6_330)));
        assert!(c[0].summary.as_deref().is_some_and(|s| s.ends_with("1. the tour")));
        assert!(t.diagnostics().is_empty());
    }

    #[test]
    fn older_summaries_are_known_by_their_words_after_a_boundary_only() {
        let words = "This session is being continued from a previous conversation. Summary: x";
        let boundary = line("system", json!({"subtype": "compact_boundary", "compactMetadata": {"preTokens": 9}}));
        let t = fold(&[prompt("go"), boundary, prompt(words), prompt(words)]);
        // The first is the summary; the second, with no boundary before it,
        // is what the person typed.
        assert_eq!(prompts(&t), ["go", words]);
        let c = compactions(&t);
        assert_eq!(c.len(), 1);
        assert_eq!((c[0].tokens_before, c[0].tokens_after, c[0].trigger.clone()), (Some(9), None, None));
        assert_eq!(c[0].summary.as_deref(), Some(words));
    }

    #[test]
    fn a_subagents_log_keeps_its_lines_whatever_system_lines_come_first() {
        let side = |v: Value| {
            let mut v = v;
            v["isSidechain"] = json!(true);
            v
        };
        let t = fold(&[
            line("system", json!({"subtype": "compact_boundary"})),
            side(prompt("sub task")),
            side(assistant("m1", json!([{"type": "text", "text": "done"}]), 1, 1)),
        ]);
        // A boundary before the first message is this log's, and does not
        // decide whose lines the log keeps.
        assert_eq!(prompts(&t), ["sub task"]);
        assert_eq!(compactions(&t).len(), 1);
    }
}
