//! The interactive program: pure app state and key map (`state`, `keymap`,
//! `player`), and the terminal driver (`run`) that does all the I/O — reading
//! keys, drawing through the same card renderers as `deck render`, writing
//! OSC 52, restoring the terminal on every way out.

mod actions;
mod answer;
pub mod bench;
pub mod cast;
pub mod composer;
pub mod config;
pub mod dirs;
pub mod draw;
pub mod drive;
pub mod help;
pub mod history;
pub mod keymap;
pub mod launch;
pub mod live;
pub mod logging;
mod picker;
pub mod player;
pub mod run;
pub mod state;

pub use state::{App, Effect, Msg};
