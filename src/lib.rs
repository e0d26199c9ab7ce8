//! deck — a terminal client for DeepSeek Harness (DSH) sessions.
//!
//! Data flows one way: `source` (bytes in) → `wire` (lenient serde model) →
//! `session` (pure reducer) → `present` (built-in presenters, the only module
//! that names tools) → `cards` (one renderer per card tag, over `text`) →
//! `view` (transcript layout) → `headless` (buffers), `app` (TUI) and
//! `commands`. Imports point the same way: the session asks for presenters
//! through its `Presenters` trait and is given `present::stock()` by whoever
//! builds a transcript; the theme knows roles, not card statuses.

pub mod app;
pub mod cards;
pub mod cli;
pub mod commands;
pub mod headless;
pub mod par;
pub mod present;
pub mod session;
pub mod source;
pub mod text;
pub mod theme;
pub mod view;
pub mod wire;
