//! Codex CLI (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`): its
//! rollouts read into deck's records (`read`) and its tools' presenters
//! (`present`).

pub mod present;
pub mod read;
