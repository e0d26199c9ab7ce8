//! The agents whose sessions deck reads, one folder each: `dsh/` (DSH,
//! deck's own: its stock tools' presenters), `claude_code/`, `codex/` and
//! `acp/` (any agent spoken to over the Agent Client Protocol, as a
//! recording holds it). Every agent's folder is laid out the same way:
//! `mod.rs` (the agent), `read.rs` + `read/` (its reader: its log lines
//! into the same records as DSH's — session events with consecutive seqs,
//! and a `session` header frame naming the agent — so the one reducer
//! folds them) and `present.rs` + `present/` (its presenters: its tools'
//! calls and results into views). Only an agent's own folder names its
//! tools. This file holds what the readers share.

use serde_json::Value;

use std::sync::{Arc, OnceLock};

use crate::session::{CallRole, Presenters, SharedPresenters};

use read::Translate;

pub mod acp;
pub mod claude_code;
pub mod codex;
pub mod dsh;
pub mod find;
pub mod read;

/// An agent whose session files deck reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Agent {
    ClaudeCode,
    Codex,
    /// Any agent spoken to over the Agent Client Protocol, as a recording
    /// of the messages both ways holds it.
    Acp,
}

impl Agent {
    /// The name the session header, `deck inspect` and the presenters use.
    pub fn name(self) -> &'static str {
        match self {
            Agent::ClaudeCode => "claude-code",
            Agent::Codex => "codex",
            Agent::Acp => "acp",
        }
    }

    /// The agent whose log line `v` is, judged from its shape alone.
    pub fn of_line(v: &Value) -> Option<Agent> {
        if acp::read::is_line(v) {
            Some(Agent::Acp)
        } else if claude_code::read::is_line(v) {
            Some(Agent::ClaudeCode)
        } else if codex::read::is_line(v) {
            Some(Agent::Codex)
        } else {
            None
        }
    }

    /// A reader of this agent's lines.
    pub fn reader(self) -> Box<dyn Translate> {
        match self {
            Agent::ClaudeCode => Box::new(claude_code::read::Reader::default()),
            Agent::Codex => Box::new(codex::read::Reader::default()),
            Agent::Acp => Box::new(acp::read::Reader::default()),
        }
    }
}

/// deck's presenters, as the session asks for them: DSH's stock tools'
/// (`dsh::present`), and each agent's for its sessions ([`Presenters::for_agent`]).
/// What every transcript deck builds is given ([`stock`]), so live, replay
/// and headless make the same cards.
#[derive(Debug, Clone, Copy, Default)]
pub struct Stock;

impl Presenters for Stock {
    fn call_view(&self, tool: &str, arguments: &str) -> Option<Value> {
        dsh::present::call_view(tool, arguments)
    }

    fn result_view(
        &self,
        tool: &str,
        arguments: &str,
        content: &[Value],
        is_error: bool,
        meta: Option<&Value>,
    ) -> Option<Value> {
        dsh::present::result_view(tool, arguments, content, is_error, meta)
    }

    fn role(&self, tool: &str) -> CallRole {
        dsh::present::role(tool)
    }

    fn for_agent(&self, agent: &str) -> Option<SharedPresenters> {
        static CLAUDE: OnceLock<SharedPresenters> = OnceLock::new();
        static CODEX: OnceLock<SharedPresenters> = OnceLock::new();
        static ACP: OnceLock<SharedPresenters> = OnceLock::new();
        let (cell, make): (_, fn() -> SharedPresenters) = match agent {
            "claude-code" => (&CLAUDE, || Arc::new(claude_code::present::ClaudeCode)),
            "codex" => (&CODEX, || Arc::new(codex::present::Codex)),
            "acp" => (&ACP, || Arc::new(acp::present::Acp)),
            _ => return None,
        };
        Some(Arc::clone(cell.get_or_init(make)))
    }
}

/// The stock presenters, shared: give these to every [`Transcript`] deck
/// builds.
///
/// [`Transcript`]: crate::session::Transcript
pub fn stock() -> SharedPresenters {
    static STOCK: OnceLock<SharedPresenters> = OnceLock::new();
    Arc::clone(STOCK.get_or_init(|| Arc::new(Stock)))
}
