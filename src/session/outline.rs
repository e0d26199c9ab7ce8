//! What a session is at a glance, read from its records without folding
//! them: its title (else its first prompt), how many events and tool calls
//! it holds, and when it ran. For the session picker of a file holding
//! several sessions, and the title of an export.

use crate::wire::{EventKind, Record};

/// A session at a glance.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outline {
    /// Its last `session/title`, else its first prompt: the first line, at
    /// most 80 characters. As the input has it: sanitize before showing.
    pub title: Option<String>,
    /// Session events (duplicates counted: nothing is folded).
    pub events: usize,
    /// `tool/call` events.
    pub calls: usize,
    /// Epoch ms of the earliest event with a time.
    pub first_time: Option<i64>,
    /// Epoch ms of the latest event with a time.
    pub last_time: Option<i64>,
}

impl Outline {
    /// Read `records` once. Only `session/title` and `user/message` events
    /// have their data parsed.
    pub fn of(records: &[Record]) -> Outline {
        let mut o = Outlining::default();
        for r in records {
            o.add(r);
        }
        o.outline()
    }
}

/// An [`Outline`] read as records come: [`Outline::of`] of the records
/// added so far, without holding them.
#[derive(Debug, Clone, Default)]
pub struct Outlining {
    out: Outline,
    /// The last `session/title`, and the first prompt.
    title: Option<String>,
    prompt: Option<String>,
}

impl Outlining {
    /// Take in the next record.
    pub fn add(&mut self, r: &Record) {
        let Record::Event { event, .. } = r else {
            return;
        };
        let out = &mut self.out;
        out.events += 1;
        if event.time > 0 {
            out.first_time = Some(out.first_time.map_or(event.time, |t| t.min(event.time)));
            out.last_time = Some(out.last_time.map_or(event.time, |t| t.max(event.time)));
        }
        match event.kind {
            EventKind::ToolCall => out.calls += 1,
            EventKind::SessionTitle => {
                if let Some(t) = event.data.parse()["title"].as_str() {
                    self.title = Some(t.to_string());
                }
            }
            EventKind::UserMessage if self.prompt.is_none() => {
                let data = event.data.parse();
                self.prompt = data["content"]
                    .as_array()
                    .and_then(|c| c.iter().find_map(|b| b["text"].as_str()))
                    .or_else(|| data["content"].as_str())
                    .map(str::to_string);
            }
            _ => {}
        }
    }

    /// The outline of the records added so far.
    pub fn outline(&self) -> Outline {
        Outline {
            title: self
                .title
                .as_deref()
                .or(self.prompt.as_deref())
                .and_then(one_line),
            ..self.out.clone()
        }
    }
}

/// The first line of `t`, at most 80 characters (`…` when cut).
fn one_line(t: &str) -> Option<String> {
    let line = t.lines().next().unwrap_or("").trim();
    let short: String = line.chars().take(80).collect();
    (!short.is_empty()).then(|| {
        if short.len() < line.len() {
            format!("{short}…")
        } else {
            short
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::{Frame, Origin};
    use serde_json::{Value, json};

    fn rec(v: Value) -> Record {
        Record::from_frame(Frame::from_owned(v).unwrap(), Origin::default())
    }

    #[test]
    fn title_else_first_prompt_counts_and_times() {
        let prompt = rec(json!({"type": "user/message", "seq": 1, "time": 2_000,
            "data": {"content": [{"type": "text", "text": "Fix the build\nplease"}]}}));
        let call = rec(json!({"type": "tool/call", "seq": 2, "time": 5_000,
            "data": {"callId": "c", "name": "run_command", "arguments": "{}"}}));
        let o = Outline::of(&[prompt.clone(), call.clone()]);
        assert_eq!(o.title.as_deref(), Some("Fix the build"));
        assert_eq!((o.events, o.calls), (2, 1));
        assert_eq!((o.first_time, o.last_time), (Some(2_000), Some(5_000)));
        let titled = rec(json!({"type": "session/title", "seq": 3, "time": 0,
            "data": {"title": "Build fix"}}));
        let o = Outline::of(&[prompt, call, titled]);
        assert_eq!(o.title.as_deref(), Some("Build fix"));
        assert_eq!(
            o.last_time,
            Some(5_000),
            "an event with no time is not a time"
        );
        assert_eq!(Outline::of(&[]), Outline::default());
    }
}
