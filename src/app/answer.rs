//! Answers to what the host asks in `deck connect` and the agent in `deck
//! acp`: an approval (`y` allow once, `n` reject; an ACP agent's own
//! options by number, `y` / `n` its first allow / reject one) and questions (option keys, ticks for several answers,
//! a typed answer; several questions in turn), each sent as one
//! `POST /api/respond` through [`Effect::Host`]. The draft is
//! [`Driving`]'s; what is asked and the status line come in an
//! [`AnswerCx`].

use std::sync::Arc;

use serde_json::{Value, json};

use super::drive::{Draft, Driving};
use super::msg::Effect;
use crate::session::{Ask, PermissionOption, Pick, Prompt, Question, option_outcome, pick_option};
use crate::clients::dsh::Control;

/// What answering needs from the app.
pub(super) struct AnswerCx<'a> {
    /// The focused prompt, waiting for an answer the host can take (its
    /// item).
    pub(super) asked: Option<(usize, Arc<Prompt>)>,
    /// The id of the session shown.
    pub(super) session: Option<&'a str>,
    /// The status line.
    pub(super) message: &'a mut Option<String>,
}

impl AnswerCx<'_> {
    /// The focused prompt, when it is a question.
    fn question(&self) -> Option<(usize, Arc<Prompt>)> {
        self.asked
            .clone()
            .filter(|(_, p)| matches!(p.ask, Ask::Question { .. }))
    }
}

/// What a key did to the question being answered.
enum Step {
    /// It is answered: the next one, or send them all.
    Next,
    /// Still being answered; the status line says this.
    Stay(String),
    /// Not a key for this question.
    NotMine,
}

impl Driving {
    /// `y`: allow once; `n`: reject; a number: that option — sent through
    /// `POST /api/respond` (`deck connect`) or as the chosen option's
    /// `optionId` (`deck acp`: the agent offered options).
    /// Only the approval that was on screen is answered: one that took the
    /// focus since the last draw is shown first, and the key does nothing.
    pub(super) fn answer_approval(&mut self, pick: Pick, cx: AnswerCx<'_>) -> Vec<Effect> {
        let Some((item, p)) = cx.asked else {
            return Vec::new();
        };
        if self.shown.is_some_and(|s| s != Some(item)) {
            *cx.message = Some("another request came in: it is shown now, answer it once read".into());
            return vec![Effect::Redraw];
        }
        let (Ask::Approval { id, options, .. }, Some(rpc_id)) = (&p.ask, &p.rpc_id) else {
            return Vec::new();
        };
        let session = cx.session;
        let (value, what) = if options.is_empty() {
            let allow = match pick {
                Pick::Allow => true,
                Pick::Reject => false,
                Pick::Number(_) => {
                    *cx.message = Some("y allows once · n rejects".into());
                    return Vec::new();
                }
            };
            let outcome = if allow { "allowed-once" } else { "rejected" };
            let what = if allow { "allowed once" } else { "rejected" };
            let value = json!({"sessionId": session, "approvalId": id, "outcome": outcome});
            (value, what.to_string())
        } else {
            let Some(o) = pick_option(options, pick).and_then(|i| options.get(i)) else {
                *cx.message = Some(match pick {
                    Pick::Allow => "the agent offers no option that allows".into(),
                    Pick::Reject => "the agent offers no option that rejects".into(),
                    Pick::Number(n) => format!("no option {n}: 1–{}", options.len().min(9)),
                });
                return Vec::new();
            };
            let what = option_outcome(&o.kind);
            let value = json!({
                "sessionId": session,
                "approvalId": id,
                "outcome": o.kind,
                "optionId": o.id,
            });
            (value, what)
        };
        *cx.message = Some(format!("{what} …"));
        vec![Effect::Host(Control::Respond {
            rpc_id: rpc_id.clone(),
            value,
            what,
        })]
    }

    /// The draft for the question at `item` (a new one when focus moved).
    fn draft_for(&mut self, item: usize, questions: usize) -> &mut Draft {
        if self.draft.as_ref().is_some_and(|x| x.item != item) {
            self.draft = None;
        }
        self.draft.get_or_insert_with(|| Draft {
            item,
            at: 0,
            chosen: vec![Vec::new(); questions],
            custom: vec![None; questions],
        })
    }

    /// Let `f` change the draft of the focused question for the one being
    /// answered; then on to the next, or stay and say why. `None`: no
    /// question is focused, or `f` leaves the key to the transcript.
    fn answer_with(
        &mut self,
        cx: AnswerCx<'_>,
        f: impl FnOnce(&Question, &mut Draft) -> Step,
    ) -> Option<Vec<Effect>> {
        let (item, p) = cx.question()?;
        let Ask::Question { questions, .. } = &p.ask else {
            return None;
        };
        let draft = self.draft_for(item, questions.len());
        let q = questions.get(draft.at)?;
        match f(q, draft) {
            Step::Next => Some(self.next_question(&p, cx)),
            Step::Stay(why) => {
                *cx.message = Some(why);
                Some(Vec::new())
            }
            Step::NotMine => None,
        }
    }

    /// Option `n` (1-based) of the question being answered: chosen (one
    /// answer) or ticked / unticked (several).
    pub(super) fn choose(&mut self, n: usize, cx: AnswerCx<'_>) -> Option<Vec<Effect>> {
        self.answer_with(cx, |q, draft| {
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
    pub(super) fn confirm(&mut self, cx: AnswerCx<'_>) -> Option<Vec<Effect>> {
        self.answer_with(cx, |q, draft| {
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
    pub(super) fn typed_answer(&mut self, text: String, cx: AnswerCx<'_>) -> Option<Vec<Effect>> {
        self.answer_with(cx, |q, draft| {
            if !q.multi_select {
                draft.chosen[draft.at].clear();
            }
            draft.custom[draft.at] = Some(text);
            Step::Next
        })
    }

    /// The current question is answered: ask the next, or send them all.
    fn next_question(&mut self, p: &Prompt, cx: AnswerCx<'_>) -> Vec<Effect> {
        let Ask::Question { questions, .. } = &p.ask else {
            return Vec::new();
        };
        let Some(mut draft) = self.draft.take() else {
            return Vec::new();
        };
        draft.at += 1;
        if let Some(q) = questions.get(draft.at) {
            *cx.message = Some(format!(
                "question {}/{}: {}",
                draft.at + 1,
                questions.len(),
                crate::text::sanitize::inline(&q.question)
            ));
            self.draft = Some(draft);
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
        *cx.message = Some("answering …".into());
        vec![Effect::Host(Control::Respond {
            rpc_id,
            value: json!({
                "sessionId": cx.session,
                "answer": {"answers": answers},
            }),
            what: "answered".into(),
        })]
    }
}

/// The keys that answer an approval, as the status bar says them:
/// `1–3 choose · y allow once · n reject once` (`y allow once · n reject`
/// without options).
pub(super) fn approval_keys(options: &[PermissionOption]) -> String {
    if options.is_empty() {
        return "y allow once · n reject".into();
    }
    let mut parts = vec![match options.len().min(9) {
        1 => "1 choose".to_string(),
        n => format!("1–{n} choose"),
    }];
    for (key, pick) in [("y", Pick::Allow), ("n", Pick::Reject)] {
        if let Some(o) = pick_option(options, pick).and_then(|i| options.get(i)) {
            let words = option_outcome(&o.kind);
            let verb = words
                .strip_prefix("allowed")
                .map(|r| format!("allow{r}"))
                .or_else(|| words.strip_prefix("rejected").map(|r| format!("reject{r}")))
                .unwrap_or(words);
            parts.push(format!("{key} {verb}"));
        }
    }
    parts.join(" · ")
}

#[cfg(test)]
mod tests {
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

    use super::*;
    use crate::app::keys::{self, Action, Part};

    fn option(id: &str, kind: &str) -> PermissionOption {
        PermissionOption {
            id: id.into(),
            name: id.into(),
            kind: kind.into(),
        }
    }

    /// The option a key of the connect part picks, as `drive_key` maps it.
    fn picked(options: &[PermissionOption], c: char) -> Option<String> {
        let k = KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE);
        let pick = match keys::action(Part::Connect, k)? {
            Action::Allow => Pick::Allow,
            Action::Reject => Pick::Reject,
            Action::Choose(n) => Pick::Number(usize::from(n)),
            _ => return None,
        };
        pick_option(options, pick).map(|i| options[i].id.clone())
    }

    #[test]
    fn keys_pick_the_agents_options() {
        let claude = [
            option("allow_always", "allow_always"),
            option("allow", "allow_once"),
            option("reject", "reject_once"),
        ];
        assert_eq!(picked(&claude, '1').as_deref(), Some("allow_always"));
        assert_eq!(picked(&claude, '2').as_deref(), Some("allow"));
        assert_eq!(picked(&claude, '3').as_deref(), Some("reject"));
        assert_eq!(picked(&claude, '4'), None);
        assert_eq!(picked(&claude, '0'), None, "0 is not an option's key");
        // y: allow once before allow always, whatever the order.
        assert_eq!(picked(&claude, 'y').as_deref(), Some("allow"));
        assert_eq!(picked(&claude, 'n').as_deref(), Some("reject"));
        // Without a once option: the first of its kind; without any: none.
        let always = [
            option("never", "reject_always"),
            option("always", "allow_always"),
        ];
        assert_eq!(picked(&always, 'y').as_deref(), Some("always"));
        assert_eq!(picked(&always, 'n').as_deref(), Some("never"));
        let only_allow = [option("ok", "allow_once")];
        assert_eq!(picked(&only_allow, 'n'), None);
        assert_eq!(picked(&[], 'y'), None);
        assert_eq!(picked(&[], '1'), None);
        // What the status bar says of them.
        assert_eq!(
            approval_keys(&claude),
            "1–3 choose · y allow once · n reject once"
        );
        assert_eq!(
            approval_keys(&always),
            "1–2 choose · y allow always · n reject always"
        );
        assert_eq!(approval_keys(&only_allow), "1 choose · y allow once");
        assert_eq!(approval_keys(&[]), "y allow once · n reject");
    }
}
