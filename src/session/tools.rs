//! Tool cards in the fold: a call opens a card, a result settles it,
//! paired by `callId` (or `sourceEventSeqs`), in either order. Views come
//! from the frame when the host sent one, else from the transcript's
//! [`Presenters`].

use std::sync::Arc;

use super::card::{Recorded, RecordedOutcome};
use super::presenter::{Call, arguments_text, settled};
use super::{
    Again, AttachedView, Ev, Item, SharedPresenters, Status, ToolCard, ToolError, ToolResult,
    Transcript, ViewSource,
};
use crate::wire::payload;
use crate::wire::{Origin, ViewEnvelope, ViewFor};

impl Transcript {
    pub(super) fn card_index(&mut self, call_id: &str) -> usize {
        if let Some(i) = self.call_card(call_id, "a call or result for a retired card") {
            return i;
        }
        self.cards.push_back(Arc::new(ToolCard::new(call_id)));
        let i = self.cards.len() - 1;
        self.state.by_call.insert(Arc::from(call_id), i);
        self.state.pending_add(None, i);
        self.items.push_back(Item::Tool(i));
        self.link_new_card(i, call_id);
        self.claim_nested(i, call_id);
        i
    }

    pub(super) fn tool_call(
        &mut self,
        ev: &Ev<'_>,
        p: payload::ToolCall,
        view: Option<&ViewEnvelope>,
        origin: Origin,
    ) {
        let Some(call_id) = p.call_id else {
            self.diagnose(
                origin,
                format!("tool/call (seq {}) without a callId", ev.seq),
                &ev.data(),
            );
            return;
        };
        let name = p.name.unwrap_or_default();
        let arguments = arguments_text(p.arguments);
        let i = self.card_index(&call_id);
        if self.cards[i].call_seq.is_some() {
            self.diagnose(
                origin,
                format!(
                    "second tool/call for call {call_id:?} (seq {}); the first is kept",
                    ev.seq
                ),
                &ev.data(),
            );
            return;
        }
        self.state
            .call_by_seq
            .insert(ev.seq, Arc::from(call_id.as_str()));
        let call_view = match view.filter(|v| v.for_ == ViewFor::Call) {
            Some(env) => Some(AttachedView::from_wire(env)),
            None => match self.ahead.calls.get(&ev.seq) {
                // Drawn ahead from the same data by the same presenters.
                Some(d) if d.data.is(ev.raw) && d.agent == self.agent => d.view.clone(),
                _ => self
                    .presenters
                    .call_view(Call {
                        tool: &name,
                        arguments: &arguments,
                    })
                    .map(|v| AttachedView::presented(&v)),
            },
        }
        .map(|v| v.at(origin));
        let turn = p.turn;
        if self.cards[i].result.is_none() {
            // Still pending: it now belongs to its call's turn.
            self.state.pending_remove(self.cards[i].turn, i);
            self.state.pending_add(turn, i);
        }
        let card = Arc::make_mut(&mut self.cards[i]);
        let was_bad = card.status.is_bad();
        card.tool = Some(name);
        card.arguments = arguments;
        card.turn = turn;
        card.step = p.step;
        card.call_seq = Some(ev.seq);
        // A time of 0 is none (the event had no `time`).
        card.started = (ev.time > 0).then_some(ev.time);
        card.call_view = call_view;
        // A result that arrived before its call still needs its presenter view.
        if card.result.is_some()
            && card
                .result_view
                .as_ref()
                .is_none_or(|v| v.source == ViewSource::Presenter)
        {
            card.result_view = presented_result(&self.presenters, card);
            card.status = settle_status(card);
        }
        card.rev += 1;
        let now_bad = card.status.is_bad();
        self.state.count_bad(was_bad, now_bad);
        self.question_of_call(i);
    }

    pub(super) fn tool_result(
        &mut self,
        ev: &Ev<'_>,
        p: payload::ToolResult,
        view: Option<&ViewEnvelope>,
        origin: Origin,
    ) {
        if p.call_id().is_none() {
            self.touch_call_seqs(ev.source_event_seqs, "a result for a retired card");
        }
        let call_id = p.call_id().map(str::to_string).or_else(|| {
            ev.source_event_seqs
                .iter()
                .find_map(|s| self.state.call_by_seq.get(s).map(|c| c.to_string()))
        });
        let Some(call_id) = call_id else {
            self.diagnose(
                origin,
                format!("tool/result (seq {}) names no call", ev.seq),
                &ev.data(),
            );
            return;
        };
        let is_error = p.part().and_then(|part| part.is_error).unwrap_or(false);
        let error = p.error.map(|e| ToolError::new(e.name, e.code));
        let i = self.card_index(&call_id);
        if let Some(prev) = &self.cards[i].result {
            let first = prev.seq;
            self.diagnose(
                origin,
                format!("duplicate result for call {call_id:?} (seq {}; first at seq {first}); the first is kept", ev.seq),
                &ev.data(),
            );
            return;
        }
        self.state.pending_remove(self.cards[i].turn, i);
        let card = Arc::make_mut(&mut self.cards[i]);
        let was_bad = card.status.is_bad();
        let recorded = Recorded::of(p.exit_code, p.duration_ms, p.outcome.as_deref());
        card.result = Some(ToolResult::from_event_data(
            ev.seq,
            ev.raw.clone(),
            is_error,
            error,
            recorded,
        ));
        card.ended = (ev.time > 0).then_some(ev.time);
        if card.turn.is_none() {
            card.turn = p.turn;
        }
        card.result_view = match view.filter(|v| v.for_ == ViewFor::Result) {
            Some(env) => Some(AttachedView::from_wire(env)),
            None if card.result.as_ref().and_then(refusal) == Some(Status::Rejected) => None,
            None => match self.ahead.results.get(&ev.seq) {
                // Drawn ahead from the same inputs: the same view.
                Some(d)
                    if d.data.is(ev.raw)
                        && d.agent == self.agent
                        && card.tool.as_deref() == Some(d.tool.as_str())
                        && card.arguments == *d.arguments =>
                {
                    d.view.clone()
                }
                _ => presented_result(&self.presenters, card),
            },
        }
        .map(|v| v.at(origin));
        card.status = settle_status(card);
        card.rev += 1;
        let now_bad = card.status.is_bad();
        self.state.count_bad(was_bad, now_bad);
        if !self.retiring()
            && let Some(placements) =
                super::file_models::settle(&mut self.state.files, &self.cards, i)
        {
            Arc::make_mut(&mut self.cards[i]).placements = placements;
        }
        self.prompt_result(&call_id);
    }
}

/// The presenter's view of a card's result (its data read now: only
/// results without a view from the host are). A call refused has none: it
/// did not run, its result says only that ([`refusal`]).
fn presented_result(presenters: &SharedPresenters, card: &ToolCard) -> Option<AttachedView> {
    let result = card.result.as_ref()?;
    if refusal(result) == Some(Status::Rejected) {
        return None;
    }
    let tool = card.tool.as_deref()?;
    let mut data = result.data();
    let view = settled(tool, &card.arguments, result.is_error, &mut data, |s| {
        presenters.result_view(s)
    })?;
    let again = || {
        Again::new(
            presenters.clone(),
            tool,
            Arc::from(card.arguments.as_str()),
            result.raw_data().clone(),
            result.is_error,
        )
    };
    Some(AttachedView::presented_again(
        view,
        card.arguments.len(),
        again,
    ))
}

/// A result that says the person refused the call (`error.code`
/// `REJECTED`: it did not run) or stopped it (`INTERRUPTED`), as the
/// readers of other agents' logs write them: not the tool's error.
pub(super) fn refusal(result: &super::ToolResult) -> Option<Status> {
    match result.error.as_ref()?.code.as_deref()? {
        "REJECTED" => Some(Status::Rejected),
        "INTERRUPTED" => Some(Status::Interrupted),
        _ => None,
    }
}

/// Status of a settled card: rejected when its approval was refused and
/// it failed, or its result or log says it was refused (`outcome:
/// "rejected"`); interrupted when its result says it was stopped; error
/// from `isError` (failed when its terminal view says how the command
/// ended: an exit code or a signal); failed from a terminal result's exit
/// code or signal, the exit code the log records, or a background task
/// reported failed; unknown when the log says nothing of how it ended; ok
/// otherwise.
pub(super) fn settle_status(card: &ToolCard) -> Status {
    let Some(result) = &card.result else {
        return card.status;
    };
    let recorded = result.recorded;
    let refused = card.approval.as_ref().is_some_and(|a| a.is_refused())
        || recorded.outcome == Some(RecordedOutcome::Rejected);
    if result.is_error && refused {
        return Status::Rejected;
    }
    if let Some(status) = refusal(result) {
        return status;
    }
    // A command that failed says how: its exit code is the outcome.
    if result.is_error && card.result_view.as_ref().is_some_and(AttachedView::failed) {
        return Status::Failed;
    }
    if result.is_error {
        let abort = result.error.as_ref().is_some_and(|e| {
            e.name.as_deref() == Some("AbortError")
                || matches!(
                    e.code.as_deref(),
                    Some("ABORTED" | "ABORTED_BEFORE_DISPATCH")
                )
        });
        return if abort {
            Status::Cancelled
        } else {
            Status::Error
        };
    }
    // The background task it started failed, later.
    if card.task.as_ref().is_some_and(|t| t.failed()) {
        return Status::Failed;
    }
    if card.result_view.as_ref().is_some_and(AttachedView::failed)
        || recorded.exit_code.is_some_and(|c| c != 0)
    {
        return Status::Failed;
    }
    if recorded.outcome == Some(RecordedOutcome::Unknown) {
        return Status::Unknown;
    }
    Status::Ok
}
