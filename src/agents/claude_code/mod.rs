//! Claude Code (`~/.claude/projects/<cwd>/<id>.jsonl`): its session logs
//! read into deck's records (`read`, with what Claude Code keeps beside a
//! session: subagents' logs, saved output) and its tools' presenters
//! (`present`).

pub mod present;
pub mod read;
