//! What a host client is asked to do: which sessions to follow
//! ([`SessionChoice`]), how to back off between reconnects ([`Backoff`]),
//! requests while it runs ([`Control`]), and how it fails ([`HostError`]).

use std::time::Duration;

use super::rpc::RpcError;
use crate::source::live::Closed;

/// Which sessions to follow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SessionChoice {
    /// This one.
    Id(String),
    /// The most recently active one (running first); with none yet, the
    /// first one that appears.
    Latest,
    /// Every session (the recorder); no records are sent.
    All,
}

/// Capped exponential backoff: `first`, doubled per failure, at most `cap`.
#[derive(Debug, Clone, Copy)]
pub struct Backoff {
    pub first: Duration,
    pub cap: Duration,
}

impl Default for Backoff {
    fn default() -> Self {
        Backoff {
            first: Duration::from_millis(250),
            cap: Duration::from_secs(5),
        }
    }
}

impl Backoff {
    /// The wait after `failures` failures in a row (1 = the first).
    pub fn delay(&self, failures: u32) -> Duration {
        let factor = 1u32 << failures.saturating_sub(1).min(16);
        self.first.saturating_mul(factor).min(self.cap)
    }
}

/// Options of one host client.
#[derive(Debug, Clone)]
pub struct HostOptions {
    pub url: String,
    pub session: SessionChoice,
    /// `maxMessages` of history requests (`None`: the host's default page).
    pub max_messages: Option<u64>,
    pub backoff: Backoff,
    /// Silence on the event stream after which the host is pinged; as long
    /// again without a word and the link counts as lost (a host that hangs,
    /// or a connection that died without a sign).
    pub keepalive: Duration,
}

impl HostOptions {
    pub fn new(url: impl Into<String>, session: SessionChoice) -> HostOptions {
        HostOptions {
            url: url.into(),
            session,
            max_messages: None,
            backoff: Backoff::default(),
            keepalive: Duration::from_secs(30),
        }
    }
}

/// Asking a running client to change what it follows, or to act on the
/// host for the user. Actions answer with a [`LiveEvent::Said`] line.
///
/// [`LiveEvent::Said`]: crate::source::live::LiveEvent::Said
#[derive(Debug, Clone, PartialEq)]
pub enum Control {
    /// Show another session: a [`LiveEvent::Reset`], then its history and frames.
    ///
    /// [`LiveEvent::Reset`]: crate::source::live::LiveEvent::Reset
    Switch(String),
    /// `session.prompt` to the shown session: queued for the next turn, or
    /// (`steer`) into the running one.
    Prompt { text: String, steer: bool },
    /// `session.cancel` of the shown session's running turn.
    Cancel,
    /// Answer a request the host sent (an approval, a question), by the
    /// `rpcId` of its frame, through `POST /api/respond`.
    Respond {
        rpc_id: String,
        value: serde_json::Value,
        /// What the answer was, for the line that says it was sent.
        what: String,
    },
    /// `session.create` (in `cwd`, else the host's default; with the agent
    /// preset `preset`, else the host's default), then show it.
    Create {
        cwd: Option<String>,
        preset: Option<String>,
    },
}

#[derive(Debug, thiserror::Error)]
pub enum HostError {
    #[error(transparent)]
    Url(RpcError),
    #[error("the host has no session {id} (sessions: {known})")]
    NoSuchSession { id: String, known: String },
    #[error("cannot write the recording: {0}")]
    Tap(#[source] std::io::Error),
    #[error(transparent)]
    Closed(#[from] Closed),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_up_to_the_cap() {
        let b = Backoff::default();
        let ms: Vec<u128> = (1..=7).map(|f| b.delay(f).as_millis()).collect();
        assert_eq!(ms, vec![250, 500, 1000, 2000, 4000, 5000, 5000]);
        assert_eq!(b.delay(1000).as_millis(), 5000);
    }
}
