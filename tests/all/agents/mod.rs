//! Other agents' sessions through the whole of deck, on real captures in
//! `tests/fixtures/agents/`: Claude Code (`claude*`: the tour, what it keeps
//! beside its log, what a person and a subagent said, the truth of each
//! card), Codex (`codex`), ACP recordings (`acp`, `acp_gemini`), and what
//! every format says of its turns and context (`turns`) — detected, read,
//! listed by `deck inspect`, drawn by `deck render`, snapshotted card by card.

mod acp;
mod acp_gemini;
mod claude;
mod claude_extras;
mod claude_said;
mod claude_truth;
mod codex;
mod gemini_cli;
mod glance;
mod kimi;
mod mapping;
mod one_home;
mod opencode;
mod qwen_code;
mod turns;
