//! Other agents' sessions through the whole of deck, on real captures in
//! `tests/fixtures/agents/`: Claude Code (`claude*`: the tour, what it keeps
//! beside its log, what a person and a subagent said, the truth of each
//! card), Codex (`codex`), ACP recordings (`acp`, `acp_gemini`), Gemini CLI,
//! Qwen Code, OpenCode (its database; `opencode_follow`: followed; its older tree:
//! `opencode_storage`), pi (`pi_follow`: followed), Cline (its CLI; the VS Code
//! extensions' task folders: `cline_tasks`), aider, Copilot CLI, mini-swe-agent and
//! SWE-agent, Cursor, Grok Build, Kimi Code and Harbor's ATIF (one file each, named
//! for the agent), one home holding them all (`one_home`), and what every
//! format says of its turns and context (`turns`) — detected, read, listed
//! by `deck inspect`, drawn by `deck render`, exported, listed by `deck
//! sessions`.

mod acp;
mod acp_gemini;
mod aider;
mod atif;
mod claude;
mod claude_extras;
mod claude_said;
mod claude_truth;
mod cline;
mod cline_tasks;
mod codex;
mod copilot_cli;
mod cursor;
mod gemini_cli;
mod glance;
mod grok;
mod kimi;
mod mapping;
mod mini_swe_agent;
mod one_home;
mod opencode;
mod opencode_follow;
mod opencode_storage;
mod pi;
mod pi_follow;
mod qwen_code;
mod turns;
