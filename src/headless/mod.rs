//! Headless rendering: the transcript laid out exactly as the TUI would, written
//! as plain text, ANSI (SGR + OSC 8 only) or a styled, diffable text format.

pub mod writer;

pub use writer::{Format, write_lines};
