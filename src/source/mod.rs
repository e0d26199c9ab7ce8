//! Bytes in. Reads files (plain or zstd) and stdin, detects the format per
//! input (frame log, DSH session log, `session.history` responses, other
//! agents' session logs: Claude Code, Codex), and splits
//! it into per-session [`crate::wire::Record`]s for the reducer. Every line
//! that cannot be decoded becomes a diagnostic at its place; nothing is
//! dropped silently.
//!
//! Live sources (`listen`, `follow`, and the clients: `clients::dsh`, `clients::acp`) are producers on
//! one bounded channel of `LiveEvent`s; `record` taps what they
//! receive into a file. The consumer folds records with the same reducer as
//! replay.

internal!(
    mod blocks;
);
internal!(
    mod demo;
);
internal!(
    mod follow;
);
internal!(
    mod limits;
);
internal!(
    mod lines;
);
internal!(
    mod listen;
);
internal!(
    mod live;
);
pub mod load;
mod load_log;
internal!(
    mod record;
);
internal!(
    mod sessions;
);
internal!(
    mod stream;
);

pub use crate::agents::Format;
pub use load::{
    LoadError, Loaded, LoadedSession, load_bytes, load_file_upto, load_path, load_path_counted,
};
