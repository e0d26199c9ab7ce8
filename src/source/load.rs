//! Loading a session log: a file (or stdin) in, per-session records out,
//! whatever the format — DSH's frame logs, session logs and history
//! documents, Claude Code sessions, Codex rollouts, ACP recordings.
//!
//! The library's loading API, at its public paths. The loader that does
//! the work is deck's `load` module, above the agents whose formats it
//! dispatches to; these are its items.

pub use crate::load::{
    Format, LoadError, Loaded, LoadedSession, in_seq_order, load_bytes, load_file_upto, load_path,
    load_path_counted, load_reader, order_by_seq,
};
