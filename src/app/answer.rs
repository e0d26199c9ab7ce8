//! Answers to what the host asks in `deck connect`: an approval (`y` allow
//! once, `n` reject) and questions (option keys, ticks for several answers,
//! a typed answer; several questions in turn), each sent as one
//! `POST /api/respond` through [`Effect::Host`]. Part of [`App::update`].

use serde_json::{Value, json};

use super::drive::Draft;
use super::msg::Effect;
use super::state::App;
use crate::session::{Ask, Prompt, Question};
use crate::source::host::Control;

/// What a key did to the question being answered.
enum Step {
    /// It is answered: the next one, or send them all.
    Next,
    /// Still being answered; the status line says this.
    Stay(String),
    /// Not a key for this question.
    NotMine,
}

impl App {
    /// `y`: allow once; `n`: reject — sent through `POST /api/respond`.
    pub(super) fn answer_approval(&mut self, allow: bool) -> Vec<Effect> {
        let Some((_, p)) = self.focused_prompt() else {
            return Vec::new();
        };
        let (Ask::Approval { id, .. }, Some(rpc_id)) = (&p.ask, &p.rpc_id) else {
            return Vec::new();
        };
        let outcome = if allow { "allowed-once" } else { "rejected" };
        let what = if allow { "allowed once" } else { "rejected" };
        self.message = Some(format!("{what} …"));
        let value = json!({
            "sessionId": self.transcript().session_id(),
            "approvalId": id,
            "outcome": outcome,
        });
        vec![Effect::Host(Control::Respond {
            rpc_id: rpc_id.clone(),
            value,
            what: what.into(),
        })]
    }

    /// The draft for the question at `item` (a new one when focus moved).
    fn draft_for(&mut self, item: usize, questions: usize) -> Option<&mut Draft> {
        let d = self.drive.as_mut()?;
        if d.draft.as_ref().is_some_and(|x| x.item != item) {
            d.draft = None;
        }
        Some(d.draft.get_or_insert_with(|| Draft {
            item,
            at: 0,
            chosen: vec![Vec::new(); questions],
            custom: vec![None; questions],
        }))
    }

    /// Let `f` change the draft of the focused question for the one being
    /// answered; then on to the next, or stay and say why. `None`: no
    /// question is focused, or `f` leaves the key to the transcript.
    fn answer_with(
        &mut self,
        f: impl FnOnce(&Question, &mut Draft) -> Step,
    ) -> Option<Vec<Effect>> {
        let (item, p) = self.focused_question()?;
        let Ask::Question { questions, .. } = &p.ask else {
            return None;
        };
        let draft = self.draft_for(item, questions.len())?;
        let q = questions.get(draft.at)?;
        match f(q, draft) {
            Step::Next => Some(self.next_question(&p)),
            Step::Stay(why) => {
                self.message = Some(why);
                Some(Vec::new())
            }
            Step::NotMine => None,
        }
    }

    /// Option `n` (1-based) of the question being answered: chosen (one
    /// answer) or ticked / unticked (several).
    pub(super) fn choose(&mut self, n: usize) -> Option<Vec<Effect>> {
        self.answer_with(|q, draft| {
            let Some(option) = n.checked_sub(1).and_then(|i| q.options.get(i)) else {
                return Step::Stay(format!("no option {n}: 1–{} or i to type", q.options.len()));
            };
            let label = option.label.clone();
            let chosen = &mut draft.chosen[draft.at];
            if !q.multi_select {
                *chosen = vec![label];
                draft.custom[draft.at] = None;
                return Step::Next;
            }
            match chosen.iter().position(|l| *l == label) {
                Some(i) => {
                    chosen.remove(i);
                }
                None => chosen.push(label),
            }
            Step::Stay(format!("chosen: {} · Enter confirms", chosen.join(", ")))
        })
    }

    /// Enter on a question that takes several answers: on to the next
    /// question (`None` on one that takes one: Enter keeps its meaning).
    pub(super) fn confirm(&mut self) -> Option<Vec<Effect>> {
        self.answer_with(|q, draft| {
            if !q.multi_select {
                Step::NotMine
            } else if draft.chosen[draft.at].is_empty() && draft.custom[draft.at].is_none() {
                Step::Stay("choose with the option numbers first".into())
            } else {
                Step::Next
            }
        })
    }

    /// A typed answer to the question being answered (beside the ticked
    /// options of one that takes several, instead of a chosen one else).
    pub(super) fn typed_answer(&mut self, text: String) -> Option<Vec<Effect>> {
        self.answer_with(|q, draft| {
            if !q.multi_select {
                draft.chosen[draft.at].clear();
            }
            draft.custom[draft.at] = Some(text);
            Step::Next
        })
    }

    /// The current question is answered: ask the next, or send them all.
    fn next_question(&mut self, p: &Prompt) -> Vec<Effect> {
        let Ask::Question { questions, .. } = &p.ask else {
            return Vec::new();
        };
        let Some(d) = self.drive.as_mut() else {
            return Vec::new();
        };
        let Some(mut draft) = d.draft.take() else {
            return Vec::new();
        };
        draft.at += 1;
        if let Some(q) = questions.get(draft.at) {
            self.message = Some(format!(
                "question {}/{}: {}",
                draft.at + 1,
                questions.len(),
                crate::text::sanitize::inline(&q.question)
            ));
            d.draft = Some(draft);
            return Vec::new();
        }
        let answers: Vec<Value> = questions
            .iter()
            .enumerate()
            .map(|(i, q)| {
                let mut a = json!({"id": q.id, "selected": draft.chosen[i]});
                if let Some(text) = &draft.custom[i] {
                    a["custom"] = json!(text);
                }
                a
            })
            .collect();
        let Some(rpc_id) = p.rpc_id.clone() else {
            return Vec::new();
        };
        self.message = Some("answering …".into());
        vec![Effect::Host(Control::Respond {
            rpc_id,
            value: json!({
                "sessionId": self.transcript().session_id(),
                "answer": {"answers": answers},
            }),
            what: "answered".into(),
        })]
    }
}
