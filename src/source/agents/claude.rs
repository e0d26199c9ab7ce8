//! Claude Code session lines: a placeholder on this branch (the Claude
//! branch owns this file and replaces it wholesale). It recognises no line.

use serde_json::Value;

use super::{Out, Translate};
use crate::wire::Origin;

/// Whether `v` is a Claude Code session line: never, here.
pub fn is_line(_: &Value) -> bool {
    false
}

/// Reads nothing.
#[derive(Debug, Default)]
pub struct Reader {}

impl Translate for Reader {
    fn line(&mut self, _v: &Value, _origin: Origin, _out: &mut Out) {}
    fn finish(&mut self, _out: &mut Out) {}
}
