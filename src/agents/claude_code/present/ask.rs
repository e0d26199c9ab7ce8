//! Claude Code's `AskUserQuestion` answers, as the person gave them.
//!
//! The call asks `questions: [{question, header, options: [{label,
//! description}], multiSelect}]`; its result holds `toolUseResult.answers`,
//! keyed by each question's text (`{"Which rig?": "No rig"}`), and says the
//! same in its text (`User has answered your questions: "Which rig?"="No
//! rig", …`). An answer is one option's label, the labels of a
//! multi-select joined with `, `, or what the person typed instead (the
//! "Other" choice): options that are labels are chosen, the rest is typed.
//! The result may hold answers to questions this call did not ask (an SDK
//! host answers them all): only this call's are its.

use serde_json::Value;

use super::{Args, Outcome};
use crate::session::Answer;

/// One question of the call: its text, its options' labels, multi-select.
struct Asked<'a> {
    question: &'a str,
    labels: Vec<&'a str>,
    multi: bool,
}

fn asked(args: &Args) -> Vec<Asked<'_>> {
    let Some(qs) = args.get("questions").and_then(Value::as_array) else {
        return Vec::new();
    };
    qs.iter()
        .filter_map(|q| {
            let question = q.get("question").and_then(Value::as_str)?;
            let labels = q
                .get("options")
                .and_then(Value::as_array)
                .map(|os| {
                    os.iter()
                        .filter_map(|o| o.get("label").and_then(Value::as_str).or_else(|| o.as_str()))
                        .collect()
                })
                .unwrap_or_default();
            let multi = q.get("multiSelect") == Some(&Value::Bool(true));
            Some(Asked { question, labels, multi })
        })
        .collect()
}

/// The answers the call got, one per question answered, in the order asked;
/// `None` when the result says none (the fold then reads nothing either).
pub(super) fn answers(args: &Args, out: &Outcome) -> Option<Vec<Answer>> {
    let questions = asked(args);
    let by_text = out.meta.and_then(|m| m.get("answers")).and_then(Value::as_object);
    let text = out.text();
    let answers: Vec<Answer> = questions
        .iter()
        .filter_map(|q| {
            let said = match by_text {
                Some(map) => map.get(q.question)?.as_str()?.to_string(),
                None => from_text(&text, q.question)?,
            };
            Some(split(q, &said))
        })
        .collect();
    (!answers.is_empty()).then_some(answers)
}

/// An answer's words as the options chosen and the rest typed.
fn split(q: &Asked<'_>, said: &str) -> Answer {
    let said = said.trim();
    if q.labels.contains(&said) {
        return Answer::to(q.question, vec![said.to_string()], None);
    }
    if !q.multi {
        return Answer::to(q.question, Vec::new(), Some(said.to_string()));
    }
    // Labels joined with ", " (a label may hold ", " itself: the longest
    // that fits is taken); what is left was typed.
    let mut chosen = Vec::new();
    let mut rest = said;
    loop {
        let next = q
            .labels
            .iter()
            .filter(|l| rest == **l || rest.starts_with(&format!("{l}, ")))
            .max_by_key(|l| l.len());
        let Some(label) = next else {
            break;
        };
        chosen.push(label.to_string());
        rest = rest[label.len()..].trim_start_matches(", ");
        if rest.is_empty() {
            break;
        }
    }
    let typed = (!rest.is_empty()).then(|| rest.to_string());
    Answer::to(q.question, chosen, typed)
}

/// The answer to `question` in a result's text (`"question"="answer"`),
/// for a result without its structured part.
fn from_text(text: &str, question: &str) -> Option<String> {
    let key = format!("\"{question}\"=\"");
    let from = text.find(&key)? + key.len();
    let rest = &text[from..];
    // The answer ends at the quote before the next pair or the closing
    // sentence.
    let end = ["\", \"", "\". ", "\"."]
        .iter()
        .filter_map(|m| rest.find(m))
        .min()
        .unwrap_or(rest.len());
    Some(rest[..end].to_string())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn args() -> Args {
        let v = json!({"questions": [
            {"question": "Rig?", "options": [{"label": "spotter"}, {"label": "No rig"}], "multiSelect": false},
            {"question": "Checks?", "options": [{"label": "Credo"}, {"label": "Dialyxir, strict"}, {"label": "mix_audit"}], "multiSelect": true}]});
        v.as_object().cloned().unwrap_or_default()
    }

    fn outcome<'a>(content: &'a [Value], meta: Option<&'a serde_json::Map<String, Value>>) -> Outcome<'a> {
        Outcome { content, is_error: false, meta }
    }

    #[test]
    fn answers_by_question_text() {
        let meta = json!({"answers": {"Rig?": "No rig", "Checks?": "Credo, Dialyxir, strict, also sobelow",
                                      "Not asked here?": "x"}});
        let a = answers(&args(), &outcome(&[], meta.as_object())).unwrap();
        assert_eq!(a.len(), 2);
        assert_eq!(a[0].selected, ["No rig"]);
        assert_eq!(a[0].question.as_deref(), Some("Rig?"));
        assert_eq!(a[1].selected, ["Credo", "Dialyxir, strict"]);
        assert_eq!(a[1].text.as_deref(), Some("also sobelow"));
        let typed = json!({"answers": {"Rig?": "the usual one"}});
        let a = answers(&args(), &outcome(&[], typed.as_object())).unwrap();
        assert_eq!((a[0].selected.len(), a[0].text.as_deref()), (0, Some("the usual one")));
        assert!(answers(&args(), &outcome(&[], json!({"answers": {}}).as_object())).is_none());
    }

    #[test]
    fn answers_from_the_text_alone() {
        let content = [json!({"type": "text", "text":
            "User has answered your questions: \"Rig?\"=\"No rig\", \"Checks?\"=\"mix_audit\". You can now continue."})];
        let a = answers(&args(), &outcome(&content, None)).unwrap();
        assert_eq!(a[0].selected, ["No rig"]);
        assert_eq!(a[1].selected, ["mix_audit"]);
    }
}
