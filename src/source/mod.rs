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
    mod chunks;
);
internal!(
    mod demo;
);
internal!(
    mod follow;
);
internal!(
    mod history_doc;
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

pub use load::{
    Format, LoadError, Loaded, LoadedSession, load_bytes, load_file_upto, load_path,
    load_path_counted,
};

/// The record a session log's header line (`{type: "session", id, cwd?, …}`)
/// stands for in its session: a `session` frame the reducer reads the
/// session's working directory from.
fn header_record(value: &serde_json::Value) -> crate::wire::Record {
    crate::wire::Record::Frame {
        kind: "session".into(),
        rpc_id: None,
        payload: value.clone(),
        origin: crate::wire::Origin::default(),
    }
}
