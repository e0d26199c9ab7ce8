//! Turns, messages and todos in the fold: turn markers (a turn's end
//! interrupts what it leaves open, and carries the turn's token usage: its
//! own, else its steps' summed), user messages, assistant messages
//! assembled from streamed chunks or taken whole from `assistant/message`,
//! and todo lists.

use std::sync::Arc;

use super::{
    AssistantBlock, AssistantMessage, Blocks, Ev, Item, Retry, Status, Todo, TokenUsage,
    Transcript, TurnEnd, TurnMarker, UserMessage,
};
use crate::wire::payload::{self, ContentBlock, TextOrObjects};

/// A user message's text: its text blocks, `[type]` for other blocks, one
/// a line; or its content when that is a bare string.
pub(super) fn text_of_content(content: &TextOrObjects<ContentBlock>) -> String {
    let mut out = String::new();
    match content {
        TextOrObjects::Objects(blocks) => {
            for b in blocks.iter().flatten() {
                match b.kind.as_deref() {
                    Some("text") => {
                        if let Some(t) = &b.text {
                            if !out.is_empty() {
                                out.push('\n');
                            }
                            out.push_str(t);
                        }
                    }
                    Some(other) => {
                        if !out.is_empty() {
                            out.push('\n');
                        }
                        out.push_str(&format!("[{other}]"));
                    }
                    None => {}
                }
            }
        }
        TextOrObjects::Text(s) => out.push_str(s),
        TextOrObjects::Neither => {}
    }
    out
}

impl Transcript {
    pub(super) fn turn_start(&mut self, ev: &Ev<'_>, p: payload::TurnStart) {
        let turn = p.turn.unwrap_or(0);
        self.running = Some(turn);
        let mut marker = TurnMarker::start(turn, ev.seq, ev.time);
        marker.numbered = !self.unnumbered;
        self.items.push_back(Item::Turn(Arc::new(marker)));
    }

    pub(super) fn turn_end(&mut self, ev: &Ev<'_>, p: payload::TurnEnd) {
        let turn = p.turn.unwrap_or(0);
        if self.running.is_none_or(|r| r <= turn) {
            self.running = None;
        }
        let reason = p.reason.unwrap_or_default();
        let failure = reason.failure();
        // The failure's message when it has the key, else the reason's.
        let message = match failure.and_then(|f| f.message.as_ref()) {
            Some(m) => m.clone(),
            None => reason.message.clone(),
        };
        let code = failure.and_then(|f| f.code.clone());
        let kind = reason.kind.as_deref().unwrap_or("completed");
        for i in self.state.pending_take(turn) {
            self.touch_card(i, "a turn's end for a retired card");
            let Some(card) = self.cards.get_mut(i) else {
                continue;
            };
            let card = Arc::make_mut(card);
            let was_bad = card.status.is_bad();
            // Rejected (not cancelled) and never heard of again: Gemini
            // CLI over ACP sends nothing more for such a call.
            let rejected = card
                .approval
                .as_ref()
                .and_then(|a| a.outcome.as_deref())
                .is_some_and(|o| {
                    let o = o.to_ascii_lowercase();
                    o.contains("reject") || o.contains("deny") || o.contains("denied")
                });
            card.status = if rejected {
                Status::Rejected
            } else {
                Status::Interrupted
            };
            card.ended = (ev.time > 0).then_some(ev.time);
            card.rev += 1;
            let now_bad = card.status.is_bad();
            self.state.count_bad(was_bad, now_bad);
        }
        let closing = self.state.open_assistant.remove(&turn).unwrap_or_default();
        for i in closing {
            self.touch_item(i, "a turn's end for a retired message");
            if let Some(Item::Assistant(m)) = self.items.get_mut(i) {
                let m = Arc::make_mut(m);
                m.complete = true;
                m.interrupted = kind != "completed";
                m.rev += 1;
            }
        }
        // The turn's own usage (the readers of other agents' logs give
        // it), else its steps' together.
        let steps = self.state.step_usage.remove(&turn);
        let usage = match p.usage.map(|u| TokenUsage::from_wire(&u)) {
            Some(u) if !u.is_empty() => Some(u),
            _ => steps.and_then(|s| TokenUsage::sum(s.values().copied())),
        };
        let end = TurnEnd::new(kind.to_string(), message, code).with_usage(usage);
        let mut marker = TurnMarker::end(turn, ev.seq, ev.time, end);
        marker.numbered = !self.unnumbered;
        self.items.push_back(Item::Turn(Arc::new(marker)));
    }

    pub(super) fn user_message(&mut self, ev: &Ev<'_>, p: payload::UserMessage) {
        let source = p.source.as_ref();
        if source.and_then(|s| s.plugin.as_deref()) == Some("compact") {
            // A compaction's checkpoint: the summary, not a message.
            return self.compaction_checkpoint(ev, text_of_content(&p.content));
        }
        // A background task's report goes on the card of its call.
        if let (Some(task), Some(call)) = (
            &p.task,
            p.source.as_ref().and_then(|s| s.call_id.as_deref()),
        ) && self.task_reported(call, task, ev)
        {
            return;
        }
        self.items.push_back(Item::User(Arc::new(UserMessage::new(
            ev.seq,
            ev.time,
            text_of_content(&p.content),
            p.source.and_then(|s| s.kind),
        ))));
    }

    pub(super) fn todo_write(&mut self, ev: &Ev<'_>, p: payload::TodoWrite) {
        let todos = p
            .todos
            .unwrap_or_default()
            .into_iter()
            .map(|t| {
                let t = t.unwrap_or_default();
                Todo::new(
                    t.content.unwrap_or_default(),
                    t.status.unwrap_or_else(|| "pending".to_string()),
                )
            })
            .collect();
        let todos = Arc::new(todos);
        // The call that wrote it shows it; a plan without one stands apart.
        if !self.plan_written(&todos, p.call_id.as_deref()) {
            self.items.push_back(Item::Todo { seq: ev.seq, todos });
        }
    }

    fn assistant_item(&mut self, turn: u64, step: u64, time: i64) -> &mut AssistantMessage {
        let idx = match self.step_item(turn, step, "more of a retired message") {
            Some(i) => i,
            None => {
                self.items
                    .push_back(Item::Assistant(Arc::new(AssistantMessage::new(
                        turn,
                        step,
                        Blocks::default(),
                        time,
                    ))));
                let i = self.items.len() - 1;
                self.state.assistant.insert((turn, step), i);
                self.state.open_add(turn, i);
                i
            }
        };
        match &mut self.items[idx] {
            Item::Assistant(m) => Arc::make_mut(m),
            _ => unreachable!("assistant index points at an assistant item"),
        }
    }

    pub(super) fn assistant_chunk(&mut self, ev: &Ev<'_>, p: payload::AssistantChunk) {
        let (turn, step) = (p.turn.unwrap_or(0), p.step.unwrap_or(0));
        let Some(chunk) = p.chunk else {
            return;
        };
        let index = chunk.index.unwrap_or(0);
        let delta = || chunk.text.clone().unwrap_or_default();
        let (reasoning, text, replace) = match chunk.kind.as_deref().unwrap_or("") {
            "block-start" => match chunk.block_type.as_deref() {
                Some("text") => (false, String::new(), false),
                Some("reasoning") => (true, String::new(), false),
                _ => return,
            },
            "text-delta" => (false, delta(), false),
            "reasoning-delta" => (true, delta(), false),
            "block-end" => {
                let block = chunk.block.as_ref();
                let text = || block.and_then(|b| b.text.clone()).unwrap_or_default();
                match block.and_then(|b| b.kind.as_deref()) {
                    Some("text") => (false, text(), true),
                    Some("reasoning") => (true, text(), true),
                    _ => return,
                }
            }
            _ => return,
        };
        let msg = self.assistant_item(turn, step, ev.time);
        if msg.complete {
            return;
        }
        let block = msg.blocks.entry(index, reasoning);
        if replace {
            block.text = text;
        } else {
            block.text.push_str(&text);
        }
        msg.rev += 1;
    }

    pub(super) fn assistant_message(&mut self, ev: &Ev<'_>, p: payload::AssistantMessage) {
        let (turn, step) = (p.turn.unwrap_or(0), p.step.unwrap_or(0));
        let content = p.message.and_then(|m| m.content).unwrap_or_default();
        let mut blocks = Vec::new();
        for (i, part) in content.into_iter().enumerate() {
            let Some(part) = part else { continue };
            let reasoning = match part.kind.as_deref() {
                Some("text") => false,
                Some("reasoning") => true,
                _ => continue,
            };
            blocks.push(AssistantBlock::new(
                i as u64,
                reasoning,
                part.text.unwrap_or_default(),
            ));
        }
        let interrupted = p.interrupted.unwrap_or(false);
        if let Some(u) = p.usage.map(|u| TokenUsage::from_wire(&u))
            && !u.is_empty()
        {
            let steps = self.state.step_usage.entry(turn).or_default();
            steps.insert(step, u);
        }
        if blocks.is_empty()
            && self
                .step_item(turn, step, "a retired message told again")
                .is_none()
        {
            return;
        }
        let msg = self.assistant_item(turn, step, ev.time);
        if !blocks.is_empty() || msg.blocks.is_empty() {
            msg.blocks = blocks.into_iter().collect();
        }
        msg.complete = true;
        msg.interrupted = interrupted;
        msg.rev += 1;
        if let Some(&i) = self.state.assistant.get(&(turn, step)) {
            self.state.open_remove(turn, i);
        }
    }

    /// A model request failed and is tried again: the message its attempt
    /// streamed so far stays, marked cut off (the next attempt streams a
    /// message of its own), and the retry is an item of the transcript.
    pub(super) fn llm_retry(&mut self, ev: &Ev<'_>, p: payload::LlmRetry) {
        let (turn, step) = (p.turn.unwrap_or(0), p.step.unwrap_or(0));
        if self
            .step_item(turn, step, "a retry of a retired message")
            .is_some()
            && let Some(i) = self.state.assistant.remove(&(turn, step))
        {
            self.state.open_remove(turn, i);
            if let Item::Assistant(m) = &mut self.items[i]
                && !m.complete
            {
                let m = Arc::make_mut(m);
                m.complete = true;
                m.cut_off = m.blocks.iter().any(|b| !b.text.trim().is_empty());
                m.rev += 1;
            }
        }
        let reason = p.failure.map(|f| failure_text(&f)).unwrap_or_default();
        self.items.push_back(Item::Retry(Arc::new(Retry {
            turn,
            step,
            retry: p.retry,
            max_retries: p.max_retries,
            delay_ms: p.delay_ms,
            reason,
            seq: ev.seq,
            time: ev.time,
        })));
    }
}

/// A failed request in a few words: the HTTP status with its reason phrase
/// (`429 Too Many Requests`), else the code and the message
/// (`TIMEOUT: request timed out`).
fn failure_text(f: &payload::LlmFailure) -> String {
    if let Some(status) = f.status {
        let phrase = u16::try_from(status)
            .ok()
            .and_then(|s| http::StatusCode::from_u16(s).ok())
            .and_then(|s| s.canonical_reason());
        return match phrase {
            Some(p) => format!("{status} {p}"),
            None => format!("HTTP {status}"),
        };
    }
    match (f.code.as_deref(), f.message.as_deref()) {
        (Some(c), Some(m)) if !m.is_empty() => format!("{c}: {m}"),
        (Some(c), _) => c.to_string(),
        (None, Some(m)) => m.to_string(),
        (None, None) => String::new(),
    }
}
