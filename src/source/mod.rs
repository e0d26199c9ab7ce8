//! Bytes in. Reads files (plain or zstd) and stdin, detects the format per
//! input (frame log, DSH session log, `session.history` responses), and splits
//! it into per-session [`crate::wire::Record`]s for the reducer. Every line
//! that cannot be decoded becomes a diagnostic at its place; nothing is
//! dropped silently.
//!
//! Live sources (`listen`, `follow`, the DSH `host` client) are producers on
//! one bounded channel of [`live::LiveEvent`]s; `record` taps what they
//! receive into a file. The consumer folds records with the same reducer as
//! replay.

pub mod blocks;
pub mod chunks;
pub mod demo;
pub mod follow;
pub mod history_doc;
pub mod host;
pub mod limits;
pub mod lines;
pub mod listen;
pub mod live;
pub mod load;
mod load_log;
pub mod record;
pub mod sessions;
pub mod stream;

pub use load::{
    Format, LoadError, Loaded, LoadedSession, load_bytes, load_path, load_path_counted,
};
