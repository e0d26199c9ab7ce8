//! deck's settings and the paths it keeps things at: the config file and
//! user themes ([`config`]), the log ([`logging`]), the XDG directories
//! they live under ([`dirs`]), and the history of messages sent with
//! `deck connect` kept between runs ([`sent_history`]). Used by the TUI and
//! the headless commands alike; nothing here draws.

pub mod config;
pub mod dirs;
pub mod logging;
pub mod sent_history;
