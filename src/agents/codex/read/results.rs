//! A Codex call's result: its output (a command still running held back,
//! the polls of it merged into it), what Codex recorded beside it (file
//! changes, how it classified the command), and the verdict on how it
//! ended ([`super::outcome`]) written on the `tool/result`. Names no tool.

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::items::output_text;
use super::outcome::{End, Verdict, judge};
use super::{Held, Reader, output};
use crate::agents::read::Out;
use crate::wire::payload::{Json, PartContent, ResultPart, ToolResult};
use crate::wire::{EventKind, Origin};

impl Reader {
    pub(super) fn output(&mut self, v: &Value, p: &Value, origin: Origin, out: &mut Out) {
        let Some(id) = p.get("call_id").and_then(Value::as_str).map(str::to_string) else {
            return self.malformed(v, "call output without a call_id", origin, out);
        };
        let (text, success) = output_text(p.get("output"));
        // A poll's output goes to the command it polls.
        if let Some(command) = self.polls.remove(&id) {
            let done = output::parse(&text).running.is_none();
            if let Some(held) = self.held.get_mut(&command) {
                held.parts.push(text);
                if done {
                    self.running.retain(|_, c| *c != command);
                    self.release(&command, out);
                }
            }
            return;
        }
        let parsed = output::parse(&text);
        if let Some(session) = parsed.running.clone() {
            self.running.insert(session, id.clone());
            self.held.insert(
                id.clone(),
                Held {
                    call_id: id,
                    parts: vec![text],
                    turn: self.turn,
                    step: self.step,
                    origin,
                },
            );
            return;
        }
        let verdict = self.verdict(&id, &text, success);
        let mut meta = Map::new();
        if let Some(c) = self.changes.remove(&id) {
            meta.insert("changes".into(), c);
        }
        if let Some(c) = self.parsed.remove(&id) {
            meta.insert("parsedCmd".into(), c);
        }
        // An exit code only an end event gave: the card's too.
        if let (None, Some(c)) = (parsed.exit_code, verdict.exit_code) {
            meta.insert("exitCode".into(), c.into());
        }
        let meta = (!meta.is_empty()).then_some(Value::Object(meta));
        let turn = self.turn;
        self.result(&id, turn, text, &verdict, meta, origin, out);
    }

    /// How call `id` ended, from its output `text` (with its own `success`
    /// flag) and what Codex kept beside it (taken: asked once a call).
    pub(super) fn verdict(&mut self, id: &str, text: &str, success: Option<bool>) -> Verdict {
        let end = self.ends.remove(id);
        let status = self.statuses.remove(id);
        judge(text, &output::parse(text), success, end.as_ref(), status.as_deref())
    }

    /// Note what an end event or a completed item says of call `id`.
    pub(super) fn ended(&mut self, id: String, end: End) {
        self.ends.entry(id).or_default().merge(end);
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn result(
        &mut self,
        id: &str,
        turn: u64,
        text: String,
        verdict: &Verdict,
        meta: Option<Value>,
        origin: Origin,
        out: &mut Out,
    ) {
        let text = PartContent::Text(Cow::Owned(text));
        let part = ResultPart::answering(id, text, verdict.is_error());
        let mut data = ToolResult::of(turn, self.step, part);
        data.meta = meta.map(Json::Tree);
        verdict.write(&mut data);
        self.emit(EventKind::ToolResult, data, origin, out);
    }

    /// Give a held command's result (its parts merged).
    pub(super) fn release(&mut self, call_id: &str, out: &mut Out) {
        let Some(held) = self.held.remove(call_id) else {
            return;
        };
        self.parsed.remove(call_id);
        let text = if held.parts.len() == 1 {
            held.parts.concat()
        } else {
            output::merged(&held.parts)
        };
        let verdict = self.verdict(call_id, &text, None);
        let step = std::mem::replace(&mut self.step, held.step);
        self.result(&held.call_id, held.turn, text, &verdict, None, held.origin, out);
        self.step = step;
    }

    pub(super) fn release_all(&mut self, out: &mut Out) {
        let mut ids: Vec<String> = self.held.keys().cloned().collect();
        ids.sort();
        for id in ids {
            self.release(&id, out);
        }
        self.running.clear();
        self.polls.clear();
    }
}
