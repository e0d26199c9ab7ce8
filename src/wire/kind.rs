//! Session event types: [`EventKind`], the ones the transcript folds by
//! name and the rest as DSH declares them ([`KNOWN_EVENT_TYPES`]) or not.
//!
//! A type outside DSH's list without `ignorable: true` is reported as a
//! diagnostic, never dropped silently.

use std::collections::HashSet;
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};

/// Declares [`EventKind`] with a variant per type the fold reads, and the
/// two ways between those and their wire names.
macro_rules! event_kinds {
    ($($(#[$doc:meta])* $variant:ident = $name:literal,)*) => {
        /// A session event's `type`. The fold reads the named ones; what it
        /// does not read is [`EventKind::Declared`] (DSH knows it) or
        /// [`EventKind::Other`].
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum EventKind {
            $($(#[$doc])* $variant,)*
            /// Another type DSH declares (`step/start`, `request/header` …):
            /// nothing the transcript shows.
            Declared(&'static str),
            /// A type DSH does not declare.
            Other(Arc<str>),
        }

        impl EventKind {
            /// The kind of a wire `type`.
            pub fn parse(name: &str) -> EventKind {
                match name {
                    $($name => EventKind::$variant,)*
                    _ => match KNOWN_EVENT_TYPES.binary_search(&name) {
                        Ok(i) => EventKind::Declared(KNOWN_EVENT_TYPES[i]),
                        Err(_) => EventKind::Other(intern(name)),
                    },
                }
            }

            /// The wire `type`.
            pub fn as_str(&self) -> &str {
                match self {
                    $(EventKind::$variant => $name,)*
                    EventKind::Declared(name) => name,
                    EventKind::Other(name) => name,
                }
            }
        }
    };
}

event_kinds! {
    /// A turn started.
    TurnStart = "turn/start",
    /// A turn ended: why, and its token usage.
    TurnEnd = "turn/end",
    /// What the user sent.
    UserMessage = "user/message",
    /// Streamed text, reasoning and tool-call deltas.
    AssistantChunk = "assistant/chunk",
    /// An assistant message whole (what its chunks made, or instead of them).
    AssistantMessage = "assistant/message",
    /// A tool call: the tool and its arguments.
    ToolCall = "tool/call",
    /// A tool call's result.
    ToolResult = "tool/result",
    /// The agent's todo list, written whole.
    TodoWrite = "todo/write",
    /// The session's title.
    SessionTitle = "session/title",
    /// A model request failed and is tried again (DSH's llm-retry plugin).
    LlmRetry = "llm/retry",
    /// An approval asked of the user (a log's form of `approval/requested`).
    ApprovalAsked = "approval/asked",
    /// How the user decided an approval.
    ApprovalDecided = "approval/decided",
    /// The agent started condensing its context.
    CompactionStart = "compaction/start",
    /// A compaction's summary of what it condensed.
    CompactionSummary = "compaction/summary",
    /// A compaction ended (its token counts, or its error).
    CompactionEnd = "compaction/end",
}

impl EventKind {
    /// True for a type the transcript folds (the others only count, or are
    /// reported when unknown).
    pub fn is_folded(&self) -> bool {
        !matches!(self, EventKind::Declared(_) | EventKind::Other(_))
    }
}

impl From<&str> for EventKind {
    fn from(name: &str) -> EventKind {
        EventKind::parse(name)
    }
}

/// Distinct undeclared types kept once for the whole process.
const INTERNED_MAX: usize = 1024;

/// An undeclared type, shared: a log may hold many thousands of events of
/// a type DSH does not declare (a newer host's). Past [`INTERNED_MAX`]
/// distinct ones (a hostile log), each event keeps its own.
fn intern(name: &str) -> Arc<str> {
    static SET: OnceLock<Mutex<HashSet<Arc<str>>>> = OnceLock::new();
    let Ok(mut set) = SET.get_or_init(Mutex::default).lock() else {
        return Arc::from(name);
    };
    if let Some(k) = set.get(name) {
        return Arc::clone(k);
    }
    let k: Arc<str> = Arc::from(name);
    if set.len() < INTERNED_MAX {
        set.insert(Arc::clone(&k));
    }
    k
}

impl fmt::Display for EventKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Every session event type DSH declares (its `KNOWN_SESSION_EVENT_TYPES`),
/// sorted. A type outside this set without `ignorable: true` is reported.
pub const KNOWN_EVENT_TYPES: &[&str] = &[
    "agent-preset/selected",
    "agent/inbox/spliced",
    "approval/asked",
    "approval/decided",
    "approval/policy",
    "assistant/chunk",
    "assistant/message",
    "command/done",
    "command/run",
    "compaction/end",
    "compaction/prune",
    "compaction/start",
    "compaction/summary",
    "feedback/record",
    "goal/change",
    "hook/invoked",
    "hook/result",
    "llm/retry",
    "llm/retry-started",
    "permission/preset",
    "plan/mode",
    "request/context",
    "request/header",
    "request/header-delta",
    "sandbox/mode",
    "schedule/change",
    "session/end-seed",
    "session/title",
    "session/title-llm-request",
    "step/end",
    "step/start",
    "subagent/descriptor",
    "team/member",
    "team/message/delivered",
    "team/message/queued",
    "team/task",
    "todo/write",
    "tool-workflow/agent-end",
    "tool-workflow/agent-start",
    "tool-workflow/run-end",
    "tool-workflow/run-start",
    "tool/call",
    "tool/code-dispatch",
    "tool/code-dispatch-start",
    "tool/result",
    "turn/end",
    "turn/start",
    "user/message",
    "web/deepseek-search-llm-request",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        assert!(KNOWN_EVENT_TYPES.is_sorted());
        for name in KNOWN_EVENT_TYPES.iter().copied().chain(["x/y", ""]) {
            let kind = EventKind::parse(name);
            assert_eq!(kind.as_str(), name);
            assert_eq!(kind.to_string(), name);
        }
        assert_eq!(EventKind::parse("turn/end"), EventKind::TurnEnd);
        assert_eq!(
            EventKind::parse("step/start"),
            EventKind::Declared("step/start")
        );
        let other = EventKind::parse("agent/teleport");
        assert!(matches!(other, EventKind::Other(_)));
        // Undeclared types are shared, not copied per event.
        match (other, EventKind::parse("agent/teleport")) {
            (EventKind::Other(a), EventKind::Other(b)) => assert!(Arc::ptr_eq(&a, &b)),
            kinds => panic!("{kinds:?}"),
        }
        // Every type the fold reads is one DSH declares.
        let folded = KNOWN_EVENT_TYPES
            .iter()
            .filter(|n| EventKind::parse(n).is_folded())
            .count();
        assert_eq!(folded, 15);
    }
}
