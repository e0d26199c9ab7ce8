//! Transcripts folded under a call: the records of a subagent's log come
//! as [`Record::Nested`], each naming the call that started the subagent,
//! and the same fold reduces them into a child [`Transcript`] kept on that
//! call's card ([`ToolCard::nested`](super::ToolCard::nested)). A child has
//! its own seqs, turns and diagnostics; nothing of it counts in the parent
//! (its calls are not the parent's calls, its errors not the parent's).
//!
//! Records for a call the transcript has not seen yet are folded meanwhile
//! and go on its card when the card is made: a call that never comes
//! leaves them unseen, never a card of their own.

use std::sync::Arc;

use super::Transcript;
use crate::wire::Record;

/// The child transcript on a card. Cheap to clone (shared until it
/// changes); equal when it is the same fold (the same records applied).
#[derive(Debug, Clone)]
pub struct Nested(Arc<Transcript>);

impl Nested {
    /// The child's transcript.
    pub fn transcript(&self) -> &Transcript {
        &self.0
    }
}

impl PartialEq for Nested {
    fn eq(&self, other: &Nested) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Transcript {
    /// Fold `record` into the child transcript of call `parent_call` (a
    /// child has the same presenters).
    pub(super) fn nested_record(&mut self, parent_call: &str, record: &Record) {
        let presenters = self.presenters.clone();
        let child = || Transcript::new(None, presenters);
        let Some(i) = self.call_card(parent_call, "a nested record for a retired card") else {
            self.state
                .unclaimed
                .entry(Arc::from(parent_call))
                .or_insert_with(child)
                .apply(record);
            return;
        };
        let card = Arc::make_mut(&mut self.cards[i]);
        let nested = card.nested.get_or_insert_with(|| Nested(Arc::new(child())));
        Arc::make_mut(&mut nested.0).apply(record);
        card.rev += 1;
    }

    /// Card `i` was just made for `call_id`: records that waited for it
    /// go on it.
    pub(super) fn claim_nested(&mut self, i: usize, call_id: &str) {
        if let Some(child) = self.state.unclaimed.remove(call_id) {
            let card = Arc::make_mut(&mut self.cards[i]);
            card.nested = Some(Nested(Arc::new(child)));
            card.rev += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::session::Status;
    use crate::wire::{Frame, Origin};

    fn ev(kind: &str, seq: u64, data: serde_json::Value) -> Record {
        let v = json!({"type": kind, "seq": seq, "time": seq * 10, "data": data});
        Record::from_frame(Frame::from_owned(v).expect("frame"), Origin::default())
    }

    fn call(seq: u64, id: &str) -> Record {
        ev(
            "tool/call",
            seq,
            json!({"turn": 1, "callId": id, "name": "t", "arguments": "{}"}),
        )
    }

    fn result(seq: u64, id: &str, is_error: bool) -> Record {
        let part =
            json!({"type": "tool-result", "toolCallId": id, "content": [], "isError": is_error});
        ev(
            "tool/result",
            seq,
            json!({"turn": 1, "message": {"content": [part]}}),
        )
    }

    fn under(parent: &str, r: Record) -> Record {
        Record::Nested {
            parent_call: parent.into(),
            record: Box::new(r),
        }
    }

    fn fold(records: &[Record]) -> Transcript {
        Transcript::from_records(None, records, crate::agents::stock())
    }

    #[test]
    fn a_subagents_records_fold_into_its_calls_card() {
        let t = fold(&[
            ev("turn/start", 1, json!({"turn": 1})),
            call(2, "agent"),
            under("agent", ev("turn/start", 1, json!({"turn": 1}))),
            under("agent", call(2, "inner")),
            under("agent", result(3, "inner", true)),
            result(3, "agent", false),
        ]);
        // The parent: one card, its own seqs whole, no error of the child's.
        assert_eq!(t.cards().len(), 1);
        assert!(t.diagnostics().is_empty(), "{:?}", t.diagnostics());
        assert_eq!(t.error_count(), 0);
        assert_eq!(t.events(), 3);
        let card = t.card("agent").expect("card");
        assert_eq!(card.status, Status::Ok);
        let child = card.nested.as_ref().expect("nested").transcript();
        assert_eq!(child.cards().len(), 1);
        assert_eq!(child.error_count(), 1);
        assert_eq!(child.card("inner").map(|c| c.status), Some(Status::Error));
        assert!(child.diagnostics().is_empty());
    }

    #[test]
    fn records_before_their_call_wait_for_it_and_make_no_card() {
        let early = [under("later", call(1, "inner"))];
        let t = fold(&early);
        assert!(t.cards().is_empty());
        assert!(t.items().is_empty());
        let mut t = t;
        t.apply(&call(1, "later"));
        let card = t.card("later").expect("card");
        let child = card.nested.as_ref().expect("claimed").transcript();
        assert_eq!(child.cards().len(), 1);
    }

    #[test]
    fn a_change_of_the_child_is_a_change_of_the_card() {
        let mut t = fold(&[call(1, "agent"), under("agent", call(1, "a"))]);
        let before = t.card("agent").cloned().expect("card");
        t.apply(&under("agent", result(2, "a", false)));
        let after = t.card("agent").expect("card");
        assert!(after.rev > before.rev);
        assert_ne!(after.nested, before.nested);
    }
}
