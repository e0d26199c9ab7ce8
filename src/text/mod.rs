//! Shared text machinery for cards: styled lines, sanitizing untrusted text,
//! wrapping to a width, syntax highlighting, ANSI/terminal emulation, markdown,
//! and redacting secrets.
//!
//! Everything here is pure: text in, [`Line`]s out. Nothing here knows a card tag
//! or a tool name.

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
pub use rows::{Keep, Laid, Rows};
