//! The interactive program. [`App`] is pure state changed only by
//! [`App::update`] (messages in, effects out); what has the keys is one
//! [`Modal`](modal::Modal), and every key is a row of the one key table
//! ([`keys`]), which help is written from. The parts of the screen are
//! small states with their own key handling and a widget each: the
//! transcript (`transcript`, `finding`), the pager, help, the session
//! picker, the search line, the message field of `deck connect`
//! (`connect`, `answer`, `composer`) and the replay [`player`]. [`draw`]
//! paints an app laid out by [`App::prepare`], on the theme's own
//! background where it has one and the terminal shows it ([`backdrop`]);
//! the terminal driver ([`run`]) does all the I/O — reading keys, writing
//! OSC 52, restoring the terminal on every way out.

mod answer;
pub mod backdrop;
pub mod backend;
pub mod composer;
mod connect;
pub mod draw;
pub mod drive;
pub mod files;
mod finding;
pub mod help;
pub mod keys;
pub mod library;
pub mod link;
mod looks;
pub mod loading;
pub mod modal;
pub mod msg;
pub mod pager;
mod paint;
mod redaction;
pub mod outcome;
pub mod picker;
pub mod player;
pub mod run;
pub mod search;
pub mod state;
mod switch;
pub mod terminal;
mod transcript;
mod update;

#[cfg_attr(not(feature = "internals"), allow(unused_imports))]
pub use modal::Modal;
#[cfg_attr(not(feature = "internals"), allow(unused_imports))]
pub use msg::{Effect, Msg};
pub use state::App;
