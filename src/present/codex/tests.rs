//! Tests of the Codex presenters.
