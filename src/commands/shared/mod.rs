//! What several subcommands share: writing their output (`output.rs`),
//! what they say on stderr about their input (`report.rs`), the terminal
//! app set up from the config file and the flags (`tui.rs`), live sources
//! feeding it (`live.rs`), and writing a session out redacted (`redact/`,
//! for `export` and `render`).

pub(super) mod live;
pub(super) mod output;
pub mod redact;
pub(super) mod report;
pub(super) mod tui;
