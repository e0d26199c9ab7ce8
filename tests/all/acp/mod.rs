//! `deck acp` driving an agent that speaks ACP, on the fake agent
//! (`tests/fixtures/agents/acp/fake/fake_agent.py`): a session run without
//! the terminal view and what it records (`live`), what deck serves the
//! agent and what it refuses (`serve`), and that nothing deck started
//! outlives it — stopped by a signal (`stop`) or a terminal that goes away
//! (`hangup`). The view itself without a terminal: `tui/acp.rs`; recordings
//! of real agents read back: `agents/`.

mod hangup;
pub(crate) mod live;
mod serve;
mod stop;
