//! What is drawn on a call's card rather than apart: the approval that
//! gates the call (its outcome is the card's pill), the questions a call
//! asks (the card is the question), the plan a call writes (the card is the
//! checklist, and the `todo/write` that carried it makes no item of its
//! own), the report of the background task a call started (the card says
//! how it ended; the message makes no item of its own).
//!
//! Prompts keep their items: one that waits for an answer here (the keys of
//! `deck connect` answer it on its own card) stands in for its call's card
//! meanwhile; once answered, or when it cannot be answered here, it is drawn
//! on its call's card. [`Transcript::merged`] says which items are drawn
//! elsewhere; a prompt whose call is not in the session keeps its own card.

use std::sync::Arc;

use serde_json::Value;

use super::prompts::{parse_answers, parse_questions};
use super::{Ask, CallRole, Item, Prompt, Status, Todo, Transcript};

/// How far back (in cards) a `todo/write` looks for the call that wrote it.
pub(super) const PLAN_CALLS: usize = 16;

impl Transcript {
    /// Whether `item` is drawn on another item's card rather than on its
    /// own: a prompt whose call is in the transcript, unless it waits for an
    /// answer here; a call whose prompt waits for an answer here (the
    /// prompt's card draws the call).
    pub fn merged(&self, item: &Item) -> bool {
        match item {
            Item::Prompt(p) => {
                !p.answerable()
                    && p.call_id()
                        .is_some_and(|c| self.state.by_call.contains_key(c))
            }
            Item::Tool(i) => self.cards.get(*i).is_some_and(|c| c.awaits_answer()),
            _ => false,
        }
    }

    /// Changes whenever [`merged`](Self::merged), or whether a card
    /// [converses](super::ToolCard::converses), may have changed for an item
    /// already in the transcript (a list of entries rebuilds then).
    pub fn merges(&self) -> u64 {
        self.state.merges
    }

    /// Put prompt `p` on its call's card, when the call is known (a prompt
    /// without one is never merged: nothing to say then).
    pub(super) fn link_prompt(&mut self, p: &Arc<Prompt>) {
        let card = p
            .call_id()
            .and_then(|c| self.call_card(c, "a prompt for a retired card"));
        if let Some(i) = card {
            self.state.merges += 1;
            self.set_on_card(i, p.clone());
        }
    }

    /// A card just made for `call_id`: an approval asked before its call
    /// came goes on it.
    pub(super) fn link_new_card(&mut self, i: usize, call_id: &str) {
        let Some(&idx) = self.state.approval_by_call.get(call_id) else {
            return;
        };
        if let Some(Item::Prompt(p)) = self.items.get(idx) {
            let p = p.clone();
            self.state.merges += 1;
            self.set_on_card(i, p);
        }
    }

    /// Card `i` with prompt `p` on it (as its approval or its question),
    /// its status settled again (a refused approval makes it rejected).
    fn set_on_card(&mut self, i: usize, p: Arc<Prompt>) {
        self.touch_card(i, "a prompt for a retired card");
        let card = Arc::make_mut(&mut self.cards[i]);
        let was_bad = card.status.is_bad();
        match p.ask {
            Ask::Approval { .. } => card.approval = Some(p),
            Ask::Question { .. } => card.question = Some(p),
        }
        if card.result.is_some() {
            card.status = super::tools::settle_status(card);
        }
        card.rev += 1;
        let now_bad = card.status.is_bad();
        self.state.count_bad(was_bad, now_bad);
    }

    /// Card `i` is a call that asks ([`CallRole::Asks`]): its questions,
    /// read from its arguments, go on it (unless the host's own question is
    /// there already). Arguments without questions leave it a tool card.
    pub(super) fn question_of_call(&mut self, i: usize) {
        let card = &self.cards[i];
        if card.question.is_some()
            || card
                .tool
                .as_deref()
                .is_none_or(|t| self.presenters.role(t) != CallRole::Asks)
        {
            return;
        }
        let args = serde_json::from_str::<Value>(&card.arguments).ok();
        let questions = parse_questions(args.as_ref().and_then(|a| a.get("questions")));
        if questions.is_empty() {
            return;
        }
        let answers = self.answers_of(i);
        let p = Prompt {
            ask: Ask::Question {
                questions,
                call_id: Some(card.call_id.clone()),
                answers,
            },
            seq: None,
            rpc_id: None,
            outcome: None,
            rev: 0,
        };
        self.state.merges += 1;
        self.set_on_card(i, Arc::new(p));
    }

    /// The answers card `i`'s result holds: read by its agent's presenters
    /// when they know how, else as DSH's ([`parse_answers`]); none before
    /// its result.
    fn answers_of(&self, i: usize) -> Vec<super::Answer> {
        let card = &self.cards[i];
        let Some(result) = card.result.as_ref() else {
            return Vec::new();
        };
        let mut data = result.data();
        let tool = card.tool.as_deref().unwrap_or_default();
        super::presenter::settled(tool, &card.arguments, false, &mut data, |s| {
            (card.tool.as_ref())
                .and_then(|_| self.presenters.answers(s))
                .unwrap_or_else(|| parse_answers(&super::text_of(s.content)))
        })
    }

    /// A tool result arrived: a question on that call reads its answers.
    pub(super) fn prompt_result(&mut self, call_id: &str) {
        let Some(i) = self.call_card(call_id, "a result for a retired card") else {
            return;
        };
        let item = self.state.prompt_by_call.get(call_id).copied();
        if item.is_none() && self.cards[i].question.is_none() {
            return;
        }
        let answers = self.answers_of(i);
        let set = |p: &mut Prompt| {
            if let Ask::Question { answers: a, .. } = &mut p.ask {
                *a = answers;
            }
        };
        match (item, &self.cards[i].question) {
            // The host's question: its item, and so the card.
            (Some(idx), _) => self.update_prompt(idx, set),
            (None, Some(q)) => {
                let mut q = (**q).clone();
                set(&mut q);
                q.rev += 1;
                self.set_on_card(i, Arc::new(q));
            }
            (None, None) => {}
        }
    }

    /// A message reports how the background task call `call_id` started
    /// ended: the card shows it (a failed task fails the card). False when
    /// the call is not in the session: the message stands apart.
    pub(super) fn task_reported(
        &mut self,
        call_id: &str,
        task: &crate::wire::payload::TaskReport,
        ev: &super::Ev<'_>,
    ) -> bool {
        let Some(i) = self.call_card(call_id, "a task report for a retired card") else {
            return false;
        };
        let end = super::TaskEnd {
            id: task.id.clone(),
            status: task.status.clone(),
            summary: task.summary.clone(),
            result: task.result.clone(),
            output_file: task.output_file.clone(),
            seq: ev.seq,
            time: ev.time,
        };
        let card = Arc::make_mut(&mut self.cards[i]);
        let was_bad = card.status.is_bad();
        card.task = Some(Arc::new(end));
        card.status = super::tools::settle_status(card);
        card.rev += 1;
        let now_bad = card.status.is_bad();
        self.state.count_bad(was_bad, now_bad);
        true
    }

    /// `todo/write`: the plan goes on the call that wrote it when the
    /// event names it, else on the newest call that writes plans
    /// ([`CallRole::Plans`]), when that call has none yet and did not fail.
    /// False when there is no such call: the plan then stands apart.
    pub(super) fn plan_written(&mut self, todos: &Arc<Vec<Todo>>, call: Option<&str>) -> bool {
        let n = self.cards.len();
        if call.is_none() {
            self.touch_cards(n.saturating_sub(PLAN_CALLS)..n, "a plan looking back");
        }
        let newest = match call {
            Some(id) => self.call_card(id, "a plan for a retired card"),
            None => (n.saturating_sub(PLAN_CALLS)..n).rev().find(|&i| {
                self.cards
                    .get(i)
                    .and_then(|c| c.tool.as_deref())
                    .is_some_and(|t| self.presenters.role(t) == CallRole::Plans)
            }),
        };
        let Some(i) = newest else {
            return false;
        };
        self.touch_card(i, "a plan for a retired card");
        let Some(c) = self.cards.get(i) else {
            return false;
        };
        if c.todos.is_some() || !matches!(c.status, Status::Pending | Status::Ok) {
            return false;
        }
        let card = Arc::make_mut(&mut self.cards[i]);
        card.todos = Some(todos.clone());
        card.rev += 1;
        self.state.merges += 1;
        true
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::session::{Item, Status, Transcript};
    use crate::wire::{Frame, Origin, Record};

    fn ev(kind: &str, seq: u64, data: serde_json::Value) -> Record {
        let v = json!({"type": kind, "seq": seq, "time": seq, "data": data});
        Record::from_frame(Frame::from_owned(v).expect("frame"), Origin::default())
    }

    fn report(seq: u64, call: &str, status: &str) -> Record {
        ev(
            "user/message",
            seq,
            json!({"turn": 1, "content": "<task-notification>…", "source": {"kind": "notification", "callId": call},
                   "task": {"id": "t1", "status": status, "summary": "done"}}),
        )
    }

    #[test]
    fn a_tasks_report_goes_on_its_calls_card_and_a_failure_fails_it() {
        let part =
            json!({"type": "tool-result", "toolCallId": "c", "content": [], "isError": false});
        let mut t = Transcript::from_records(
            None,
            &[
                ev("turn/start", 1, json!({"turn": 1})),
                ev(
                    "tool/call",
                    2,
                    json!({"turn": 1, "callId": "c", "name": "x", "arguments": "{}"}),
                ),
                ev(
                    "tool/result",
                    3,
                    json!({"turn": 1, "message": {"content": [part]}}),
                ),
                report(4, "c", "completed"),
            ],
            crate::agents::stock(),
        );
        let users = |t: &Transcript| {
            t.items()
                .iter()
                .filter(|i| matches!(i, Item::User(_)))
                .count()
        };
        assert_eq!(users(&t), 0, "not an item of its own");
        let card = t.card("c").expect("card");
        assert_eq!(
            card.task.as_ref().and_then(|e| e.status.as_deref()),
            Some("completed")
        );
        assert_eq!(card.status, Status::Ok);
        // A later report replaces it: this one failed.
        t.apply(&report(5, "c", "failed"));
        assert_eq!(t.card("c").map(|c| c.status), Some(Status::Failed));
        assert_eq!(t.error_count(), 1);
        // A report on a call not in the session stands apart.
        t.apply(&report(6, "elsewhere", "completed"));
        assert_eq!(users(&t), 1);
    }
}
