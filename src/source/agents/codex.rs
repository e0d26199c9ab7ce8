//! Codex CLI rollouts — a placeholder on this branch: the Codex branch
//! replaces this file wholesale. Nothing is recognised as a Codex line yet.

use serde_json::Value;

use super::{Out, Translate};
use crate::wire::Origin;

/// Whether `v` is a line of a Codex rollout (not yet: see the module doc).
pub fn is_line(_v: &Value) -> bool {
    false
}

/// Reads a Codex rollout's lines (a placeholder: reads nothing).
#[derive(Debug, Default)]
pub struct Reader {}

impl Translate for Reader {
    fn line(&mut self, _v: &Value, _origin: Origin, _out: &mut Out) {}

    fn finish(&mut self, _out: &mut Out) {}
}
