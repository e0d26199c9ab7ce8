//! Sessions of other agents (Claude Code, Codex CLI): their log lines read
//! into the same records as DSH's (session events with consecutive seqs,
//! and a `session` header frame naming the agent), so the one reducer folds
//! them and the agent's presenters (in `present/`) turn calls into cards.
//! Each agent's format is read in its own file here; nothing here draws.

use serde_json::Value;

use crate::wire::{Frame, Origin, Record};

pub mod claude;
pub mod codex;

/// An agent whose session files deck reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Agent {
    ClaudeCode,
    Codex,
}

impl Agent {
    /// The name the session header, `deck inspect` and the presenters use.
    pub fn name(self) -> &'static str {
        match self {
            Agent::ClaudeCode => "claude-code",
            Agent::Codex => "codex",
        }
    }

    /// The agent whose log line `v` is, judged from its shape alone.
    pub fn of_line(v: &Value) -> Option<Agent> {
        if claude::is_line(v) {
            Some(Agent::ClaudeCode)
        } else if codex::is_line(v) {
            Some(Agent::Codex)
        } else {
            None
        }
    }

    /// A reader of this agent's lines.
    pub fn reader(self) -> Box<dyn Translate> {
        match self {
            Agent::ClaudeCode => Box::new(claude::Reader::default()),
            Agent::Codex => Box::new(codex::Reader::default()),
        }
    }
}

/// Records for the session named by the id (`None`: the current one).
pub type Out = Vec<(Option<String>, Record)>;

/// Reads one agent's lines, in order, into records.
pub trait Translate: Send {
    /// One line of the log (parsed JSON) found at `origin`.
    fn line(&mut self, v: &Value, origin: Origin, out: &mut Out);
    /// The input ended: records held back until now, if any.
    fn finish(&mut self, out: &mut Out);
}

/// A session event record as DSH's session log holds one
/// (`{"type": kind, "seq", "time", "data"}`).
pub fn event(kind: &str, seq: u64, time: i64, data: Value, origin: Origin) -> Option<Record> {
    let v = serde_json::json!({"type": kind, "seq": seq, "time": time, "data": data});
    Frame::from_owned(v).ok().map(|f| Record::from_frame(f, origin))
}

/// The `session` header record: the agent, and what the log says of the
/// session (`id`, `cwd`, `model`, `version`, `gitBranch`, … when known).
pub fn header(agent: Agent, mut fields: serde_json::Map<String, Value>, origin: Origin) -> Record {
    fields.insert("agent".into(), Value::from(agent.name()));
    Record::Frame {
        kind: "session".into(),
        rpc_id: None,
        payload: Value::Object(fields),
        origin,
    }
}
