//! A subagent's lines logged inline (`agent_progress`, Claude Code 2.1.3x:
//! see `line/progress.rs`), nested under the call that started it.
//!
//! Each call's subagent has a reader of its own, fed the subagent's lines
//! as they come: its records go out as [`Record::Nested`] under the call,
//! as a subagent's own log's do (`subagents.rs`), and the same fold keeps
//! them on the call's card. The subagent's turn ends when its call's
//! result comes (or the log ends). A line that cannot be placed or read is
//! a diagnostic of the session, never dropped unsaid.
//!
//! When the session's folder also holds the subagent's own log (2.1.39
//! wrote both), the log is read instead (`subagents.rs`): it is whole.

use super::line::{Kind, Line, Progress};
use super::{Out, Reader};
use crate::wire::{Origin, Record};

impl Reader {
    /// An `agent_progress` line.
    pub(super) fn progress(&mut self, line: Line, origin: Origin, out: &mut Out) {
        let Some(p) = line.progress else {
            return;
        };
        let Progress {
            parent_call,
            agent_id,
            line: inner,
        } = *p;
        if let Some(ms) = line.time {
            self.time = self.time.max(ms);
        }
        let inner = match (parent_call.as_deref(), inner) {
            (None, _) => {
                let reason = "Claude Code agent_progress line without a parentToolUseID: no call to nest its subagent's line under".to_string();
                return self.diagnostic(out, origin, reason, line.raw);
            }
            (Some(_), Err(why)) => {
                let reason = format!("Claude Code agent_progress line: {why}");
                return self.diagnostic(out, origin, reason, line.raw);
            }
            (Some(_), Ok(inner)) => inner,
        };
        let call = parent_call.unwrap_or_default();
        let i = match self.inline.iter().position(|(c, _)| *c == call) {
            Some(i) => i,
            None => {
                let mut sub = Reader::default();
                if let Some(id) = self.session.as_deref() {
                    sub.switch_session(id);
                }
                if let Some(a) = agent_id {
                    sub.fields.insert("agentId".into(), a.into());
                }
                self.inline.push((call.clone(), sub));
                self.inline.len() - 1
            }
        };
        let mut records = Out::new();
        debug_assert!(matches!(inner.kind, Kind::User | Kind::Assistant));
        self.inline[i].1.read(inner, origin, &mut records);
        self.nest(&call, records, out);
    }

    /// The subagents' turns end: the one of call `call`, or all.
    pub(super) fn finish_inline(&mut self, call: Option<&str>, out: &mut Out) {
        for i in 0..self.inline.len() {
            if call.is_some_and(|c| c != self.inline[i].0) {
                continue;
            }
            let mut records = Out::new();
            let (c, sub) = &mut self.inline[i];
            let c = c.clone();
            super::Translate::finish(sub, &mut records);
            self.nest(&c, records, out);
        }
    }

    /// A subagent's records, nested under `call`, out with the session's.
    fn nest(&self, call: &str, records: Out, out: &mut Out) {
        for (_, r) in records {
            let nested = Record::Nested {
                parent_call: call.to_string(),
                record: Box::new(r),
            };
            out.push((self.session.clone(), nested));
        }
    }
}
