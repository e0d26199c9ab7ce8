//! The interactive program. [`App`] is pure state changed only by
//! [`App::update`] (messages in, effects out); what has the keys is one
//! [`Modal`](modal::Modal), which carries the state of the part that has
//! them, and every key is a row of the one key table ([`keys`]), which help
//! is written from. The parts of the screen own their state, with their
//! own key handling and a widget each, and reach the rest of the app only
//! through what they are handed (a context such as
//! [`PagerCx`](pager::PagerCx)): the pager, help, the session picker, the
//! search line and its matches (`search`, `finding`), the library's list
//! ([`library`]), the live link, `R`'s redaction, the looks, the message
//! field of `deck connect` (`drive`, `composing`, `answer`,
//! [`composer`]) and the
//! replay [`player`]. `App` holds them and routes to them: `update`
//! (messages and keys), `transcript` and `connect` (the keys no overlay
//! takes), `switch` (another session shown: a file's, the library's).
//! [`draw`] paints an app laid out by [`App::prepare`], on the theme's own
//! background where it has one and the terminal shows it ([`backdrop`]);
//! the terminal driver ([`run`]) does all the I/O — reading keys, writing
//! OSC 52, restoring the terminal on every way out.
mod ahead;
mod answer;
pub mod backdrop;
pub mod backend;
pub mod composer;
mod composing;
mod connect;
pub mod draw;
pub mod drive;
pub mod file_sessions;
mod finding;
pub mod help;
pub mod keys;
pub mod library;
pub mod link;
mod looks;
pub mod loading;
pub mod modal;
pub mod msg;
mod opening;
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
