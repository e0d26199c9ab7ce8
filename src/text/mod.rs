//! Shared text machinery for cards: styled lines, sanitizing untrusted text,
//! wrapping to a width, syntax highlighting, ANSI/terminal emulation, markdown,
//! and redacting secrets.
//!
//! Everything here is pure: text in, [`Line`]s out. Nothing here knows a card tag
//! or a tool name. This file holds what its parts share of widths: the one
//! that never wraps ([`UNBOUNDED`]).

pub mod ansi;
pub mod entities;
pub mod highlight;
pub mod line;
pub mod markdown;
pub mod paths;
pub mod redact;
pub mod rows;
pub mod sanitize;
pub mod wrap;

pub use line::{Line, Span};
#[cfg_attr(not(feature = "internals"), allow(unused_imports))]
pub use rows::{Keep, Laid, Rows, Window};

/// A width that never wraps: the pager with wrap off and the HTML page
/// (whose browser wraps to its window) lay cards out at it. Nothing pads
/// or fills to it: headers keep their parts two columns apart, rules and
/// diff rows keep their natural length ([`unbounded`]).
pub const UNBOUNDED: usize = usize::MAX / 4;

/// True for a width laid out without wrapping ([`UNBOUNDED`], less the
/// gutters and indents of the parts inside a card).
pub fn unbounded(width: usize) -> bool {
    width >= UNBOUNDED / 2
}
