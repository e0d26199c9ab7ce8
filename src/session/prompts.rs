//! Approvals and questions in the fold: what the host asked the user, and
//! how it ended. An approval arrives twice (the `approval/requested` mux frame
//! and the `approval/asked` session event); both land on one [`Prompt`]
//! keyed by the approval id, and so do `approval/resolved` and
//! `approval/decided`. A question (`question/requested`, keyed by its rpc id)
//! is linked to the tool call whose arguments carry the same `questions`, so
//! the answer shows once that call's result arrives. Every prompt whose call
//! is known is also put on that call's card (`linked.rs`).

use std::sync::Arc;

use serde_json::Value;

use super::{Item, Transcript};

/// What the host asked.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Ask {
    /// Permission to run a tool call.
    Approval {
        /// The approval's id (`approvalId`, an event's `id`).
        id: String,
        /// The tool the call is of (`toolName`).
        tool: String,
        /// The call it gates, when the host says.
        call_id: Option<String>,
        /// Why the host asks, in its words (empty: it did not say).
        reason: String,
        /// The answers the agent offers (an ACP permission request's
        /// options, in its order); empty: allow or reject (DSH).
        options: Vec<PermissionOption>,
    },
    /// One or more multiple-choice questions.
    Question {
        /// The questions, in order.
        questions: Vec<Question>,
        /// The tool call that asked (found by its arguments).
        call_id: Option<String>,
        /// Answers read from that call's result, once it arrived.
        answers: Vec<Answer>,
    },
}

/// One multiple-choice question.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Question {
    /// Its id: what an answer names (may be empty).
    pub id: String,
    /// A short label, shown before the question when a prompt asks several.
    pub header: String,
    /// The question's text.
    pub question: String,
    /// The options offered, in order.
    pub options: Vec<Choice>,
    /// More than one option may be chosen.
    pub multi_select: bool,
}

/// One option of a question.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Choice {
    /// What it says (and what an answer names).
    pub label: String,
    /// What it means, when the asker says (may be empty).
    pub description: String,
}

/// One answer an agent offers to a permission request.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct PermissionOption {
    /// What the answer names (`optionId`).
    pub id: String,
    /// What the agent calls it (`Always Allow`).
    pub name: String,
    /// `allow_once`, `allow_always`, `reject_once`, `reject_always` (or
    /// another the agent says).
    pub kind: String,
}

/// Options kept of one request, at most (the rest are not drawn nor chosen).
pub const MAX_OPTIONS: usize = 32;

impl PermissionOption {
    /// Whether choosing it allows the call.
    pub fn allows(&self) -> bool {
        self.kind.starts_with("allow")
    }

    /// Whether choosing it rejects the call.
    pub fn rejects(&self) -> bool {
        self.kind.starts_with("reject")
    }
}

/// What choosing an option of `kind` did, in words: `allowed once`,
/// `allowed always`, `rejected once`, `rejected always` (another kind:
/// `chose <kind>`).
pub fn option_outcome(kind: &str) -> String {
    match kind {
        "allow_once" => "allowed once".into(),
        "allow_always" => "allowed always".into(),
        "reject_once" => "rejected once".into(),
        "reject_always" => "rejected always".into(),
        other => format!("chose {}", other.replace('_', " ")),
    }
}

/// Which option a key picks: `y` the first allow-once (else the first
/// allow of any kind), `n` the first reject-once (else any reject), a
/// number that option (1-based). `None`: no such option.
pub fn pick_option(options: &[PermissionOption], pick: Pick) -> Option<usize> {
    let first = |once: &str, any: fn(&PermissionOption) -> bool| {
        options
            .iter()
            .position(|o| o.kind == once)
            .or_else(|| options.iter().position(any))
    };
    match pick {
        Pick::Allow => first("allow_once", PermissionOption::allows),
        Pick::Reject => first("reject_once", PermissionOption::rejects),
        Pick::Number(n) => n.checked_sub(1).filter(|&i| i < options.len()),
    }
}

/// A key that answers a permission request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pick {
    /// `y`.
    Allow,
    /// `n`.
    Reject,
    /// `1`–`9`.
    Number(usize),
}

pub(super) fn parse_options(v: Option<&Value>) -> Vec<PermissionOption> {
    let Some(Value::Array(list)) = v else {
        return Vec::new();
    };
    list.iter()
        .filter_map(|o| {
            let id = str_of(o, "optionId").or_else(|| str_of(o, "id"))?;
            Some(PermissionOption {
                id: id.to_string(),
                name: str_of(o, "name").unwrap_or(id).to_string(),
                kind: str_of(o, "kind").unwrap_or("").to_string(),
            })
        })
        .take(MAX_OPTIONS)
        .collect()
}

/// The answer to one question.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Answer {
    /// The id of the question it answers (may be empty).
    pub id: String,
    /// The labels of the options chosen.
    pub selected: Vec<String>,
    /// Free text, when the answer was typed rather than chosen.
    pub text: Option<String>,
    /// The text of the question it answers, when the agent keys answers by
    /// question rather than by id (Claude Code's `AskUserQuestion`).
    pub question: Option<String>,
}

impl Answer {
    /// The answer to `question` (its text), as the person gave it: the
    /// options chosen and what they typed.
    pub fn to(question: &str, selected: Vec<String>, text: Option<String>) -> Answer {
        Answer {
            id: String::new(),
            selected,
            text,
            question: Some(question.to_string()),
        }
    }
}

/// The answer to question `q` among `answers` (of `questions`, all the
/// prompt asked): the one with its id, else the one naming its text, else
/// the only answer to the only question.
pub fn answer_to<'a>(
    q: &Question,
    questions: &[Question],
    answers: &'a [Answer],
) -> Option<&'a Answer> {
    answers
        .iter()
        .find(|a| !q.id.is_empty() && a.id == q.id)
        .or_else(|| {
            answers
                .iter()
                .find(|a| a.question.as_deref() == Some(q.question.as_str()))
        })
        .or_else(|| {
            answers
                .iter()
                .find(|a| a.question.is_none() && a.id == q.id)
        })
        .or_else(|| (questions.len() == 1 && answers.len() == 1).then(|| &answers[0]))
}

/// An approval or a question, with its outcome.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Prompt {
    /// What was asked.
    pub ask: Ask,
    /// Seq of the session event that announced it (approvals only).
    pub seq: Option<u64>,
    /// The rpc id of the request frame: what `/api/respond` answers to.
    pub rpc_id: Option<String>,
    /// `allowed-once`, `denied`, `answered`, `cancelled` …; `None` while waiting.
    pub outcome: Option<String>,
    /// Bumped on every change (for render caches).
    pub rev: u64,
}

impl Prompt {
    /// No outcome yet: it waits for the user.
    pub fn is_waiting(&self) -> bool {
        self.outcome.is_none()
    }

    /// Waiting, and the host said where to answer it (the rpc id of its
    /// request frame): the keys of `deck connect` can answer it.
    pub fn answerable(&self) -> bool {
        self.is_waiting() && self.rpc_id.is_some()
    }

    /// The tool call it is about: the call an approval gates, the call
    /// that asked a question.
    pub fn call_id(&self) -> Option<&str> {
        match &self.ask {
            Ask::Approval { call_id, .. } | Ask::Question { call_id, .. } => call_id.as_deref(),
        }
    }

    /// True for an outcome that refused or abandoned the request.
    pub fn is_refused(&self) -> bool {
        self.outcome.as_deref().is_some_and(|o| {
            [
                "deny", "denied", "reject", "cancel", "abort", "timeout", "expired",
            ]
            .iter()
            .any(|w| o.to_ascii_lowercase().contains(w))
        })
    }
}

fn str_of<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

pub(super) fn parse_questions(v: Option<&Value>) -> Vec<Question> {
    let Some(Value::Array(qs)) = v else {
        return Vec::new();
    };
    qs.iter()
        .filter(|q| q.is_object())
        .map(|q| Question {
            id: str_of(q, "id").unwrap_or("").to_string(),
            header: str_of(q, "header").unwrap_or("").to_string(),
            question: str_of(q, "question").unwrap_or("").to_string(),
            multi_select: q
                .get("multiSelect")
                .and_then(Value::as_bool)
                .unwrap_or(false),
            options: q
                .get("options")
                .and_then(Value::as_array)
                .map(|os| {
                    os.iter()
                        .map(|o| match o {
                            Value::String(s) => Choice {
                                label: s.clone(),
                                description: String::new(),
                            },
                            _ => Choice {
                                label: str_of(o, "label").unwrap_or("").to_string(),
                                description: str_of(o, "description").unwrap_or("").to_string(),
                            },
                        })
                        .collect()
                })
                .unwrap_or_default(),
        })
        .collect()
}

/// Answers from a result text such as `{"answers":[{"id":"q1","selected":["Yes"]}]}`.
/// Anything else yields none (the card then shows only the outcome).
pub fn parse_answers(text: &str) -> Vec<Answer> {
    let Ok(v) = serde_json::from_str::<Value>(text.trim()) else {
        return Vec::new();
    };
    let list = match v.get("answers") {
        Some(Value::Array(list)) => list.clone(),
        // `{"q1": "Yes"}` / `{"q1": ["A", "B"]}`: the same, keyed by question
        // id; Codex's `request_user_input` nests them: `{"q1": {"answers": […]}}`.
        Some(Value::Object(map)) => map
            .iter()
            .map(|(id, sel)| {
                let sel = sel.get("answers").unwrap_or(sel);
                serde_json::json!({"id": id, "selected": sel})
            })
            .collect(),
        _ => return Vec::new(),
    };
    list.iter()
        .filter(|a| a.is_object())
        .map(|a| Answer {
            id: str_of(a, "id").unwrap_or("").to_string(),
            selected: match a.get("selected") {
                Some(Value::Array(s)) => s
                    .iter()
                    .filter_map(|x| x.as_str().map(str::to_string))
                    .collect(),
                Some(Value::String(s)) => vec![s.clone()],
                _ => Vec::new(),
            },
            text: str_of(a, "custom")
                .or_else(|| str_of(a, "text"))
                .or_else(|| str_of(a, "answer"))
                .map(str::to_string),
            question: None,
        })
        .collect()
}

/// How far back (in cards) a `question/requested` looks for the call that
/// asked it.
pub(super) const QUESTION_CALLS: usize = 64;

impl Transcript {
    /// Item indices of the approvals and questions (few, in no order; an
    /// index may repeat).
    pub fn prompt_items(&self) -> impl Iterator<Item = usize> + '_ {
        self.state.prompts.values().copied()
    }

    /// The prompt item at `idx`, changed by `f`, written back with a new rev
    /// (and onto its call's card).
    pub(super) fn update_prompt(&mut self, idx: usize, f: impl FnOnce(&mut Prompt)) {
        self.touch_item(idx, "a change of a retired prompt");
        if let Some(Item::Prompt(p)) = self.items.get(idx) {
            let mut p = (**p).clone();
            f(&mut p);
            p.rev += 1;
            let p = Arc::new(p);
            self.items.set(idx, Item::Prompt(p.clone()));
            self.link_prompt(&p);
        }
    }

    fn push_prompt(&mut self, key: Option<String>, p: Prompt) -> usize {
        let idx = self.items.len();
        let p = Arc::new(p);
        self.items.push_back(Item::Prompt(p.clone()));
        if let Some(k) = key {
            self.state.prompts.insert(k.into(), idx);
        }
        if let (Ask::Approval { .. }, Some(c)) = (&p.ask, p.call_id()) {
            self.state.approval_by_call.insert(c.into(), idx);
        }
        self.link_prompt(&p);
        idx
    }

    /// `approval/requested` (frame) or `approval/asked` (event): one card per
    /// id. Returns the card's item index.
    pub(super) fn approval_asked(
        &mut self,
        data: &Value,
        id_key: &str,
        seq: Option<u64>,
        rpc_id: Option<&str>,
    ) -> usize {
        let id = str_of(data, id_key).unwrap_or("").to_string();
        let tool = str_of(data, "toolName").unwrap_or("a tool").to_string();
        let call_id = str_of(data, "callId").map(str::to_string);
        let reason = str_of(data, "reason").unwrap_or("").to_string();
        let options = parse_options(data.get("options"));
        let key = (!id.is_empty()).then(|| format!("approval:{id}"));
        if let Some(&idx) = key.as_deref().and_then(|k| self.state.prompts.get(k)) {
            // The mirror of one already shown: fill in what it adds.
            self.update_prompt(idx, |p| {
                p.seq = p.seq.or(seq);
                p.rpc_id = p.rpc_id.take().or(rpc_id.map(str::to_string));
            });
            return idx;
        }
        self.push_prompt(
            key,
            Prompt {
                ask: Ask::Approval {
                    id,
                    tool,
                    call_id,
                    reason,
                    options,
                },
                seq,
                rpc_id: rpc_id.map(str::to_string),
                outcome: None,
                rev: 0,
            },
        )
    }

    /// `approval/resolved` (frame) or `approval/decided` (event). A decision
    /// whose request is not in this log (it started later) still gets its card.
    pub(super) fn approval_decided(&mut self, data: &Value, id_key: &str, seq: Option<u64>) {
        let id = str_of(data, id_key).unwrap_or("");
        let outcome = str_of(data, "outcome")
            .or_else(|| str_of(data, "decision"))
            .unwrap_or("decided")
            .to_string();
        let known = self
            .state
            .prompts
            .get(format!("approval:{id}").as_str())
            .copied();
        let idx = known.unwrap_or_else(|| self.approval_asked(data, id_key, seq, None));
        self.update_prompt(idx, |p| {
            if p.outcome.is_none() {
                p.outcome = Some(outcome);
            }
        });
    }

    /// `question/requested`: a question card, linked to the asking call.
    pub(super) fn question_requested(&mut self, payload: &Value, rpc_id: Option<&str>) {
        let raw = payload.get("questions");
        let questions = parse_questions(raw);
        // The asking call: the newest card whose arguments carry these questions.
        let n = self.cards.len();
        self.touch_cards(
            n.saturating_sub(QUESTION_CALLS)..n,
            "a question looking back",
        );
        let call_id = raw.and_then(|raw| {
            self.cards
                .iter()
                .rev()
                .take(QUESTION_CALLS)
                .find(|c| {
                    serde_json::from_str::<Value>(&c.arguments)
                        .ok()
                        .is_some_and(|a| a.get("questions") == Some(raw))
                })
                .map(|c| c.call_id.clone())
        });
        let answers = call_id
            .as_deref()
            .and_then(|c| self.card(c))
            .and_then(|c| c.result.as_ref())
            .map(|r| parse_answers(&r.text()))
            .unwrap_or_default();
        let key = rpc_id.map(|r| format!("question:{r}"));
        let idx = self.push_prompt(
            key,
            Prompt {
                ask: Ask::Question {
                    questions,
                    call_id: call_id.clone(),
                    answers,
                },
                seq: None,
                rpc_id: rpc_id.map(str::to_string),
                outcome: None,
                rev: 0,
            },
        );
        if let Some(c) = call_id {
            self.state.prompt_by_call.insert(c.into(), idx);
        }
        self.state.last_question = Some(idx);
    }

    /// `question/resolved`: the outcome, by `questionRpcId` (or the last
    /// question, for frames without envelopes).
    pub(super) fn question_resolved(&mut self, payload: &Value) {
        let outcome = str_of(payload, "outcome").unwrap_or("resolved").to_string();
        let idx = str_of(payload, "questionRpcId")
            .and_then(|r| {
                self.state
                    .prompts
                    .get(format!("question:{r}").as_str())
                    .copied()
            })
            .or(self.state.last_question);
        match idx {
            Some(idx) => self.update_prompt(idx, |p| {
                if p.outcome.is_none() {
                    p.outcome = Some(outcome);
                }
            }),
            None => {
                self.push_prompt(
                    None,
                    Prompt {
                        ask: Ask::Question {
                            questions: Vec::new(),
                            call_id: None,
                            answers: Vec::new(),
                        },
                        seq: None,
                        rpc_id: str_of(payload, "questionRpcId").map(str::to_string),
                        outcome: Some(outcome),
                        rev: 0,
                    },
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_parse_from_result_text() {
        let a = parse_answers(r#"{"answers":[{"id":"q1","selected":["Yes (Recommended)"]}]}"#);
        assert_eq!(a.len(), 1);
        assert_eq!(a[0].id, "q1");
        assert_eq!(a[0].selected, vec!["Yes (Recommended)"]);
        assert!(parse_answers("not json").is_empty());
        assert!(parse_answers(r#"{"answers":"x"}"#).is_empty());
        let m = parse_answers(r#"{"answers":{"q1":"No","q2":["A","B"]}}"#);
        assert_eq!(m[0].selected, vec!["No"]);
        assert_eq!(m[1].selected, vec!["A", "B"]);
        let c = parse_answers(r#"{"answers":{"scope":{"answers":["Only src/"]}}}"#);
        assert_eq!(
            (c[0].id.as_str(), c[0].selected.clone()),
            ("scope", vec!["Only src/".to_string()])
        );
        let t = parse_answers(r#"{"answers":[{"id":"q","text":"typed"}]}"#);
        assert_eq!(t[0].text.as_deref(), Some("typed"));
    }

    #[test]
    fn refused_outcomes() {
        let p = |o: &str| Prompt {
            ask: Ask::Question {
                questions: vec![],
                call_id: None,
                answers: vec![],
            },
            seq: None,
            rpc_id: None,
            outcome: Some(o.into()),
            rev: 0,
        };
        assert!(p("denied").is_refused());
        assert!(p("cancelled").is_refused());
        assert!(!p("allowed-once").is_refused());
        assert!(!p("answered").is_refused());
    }
}
