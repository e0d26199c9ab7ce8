//! The interactive app. Through `App::update`, without a terminal: keys
//! (`keys`, `keys_pager_search_player`), driving a session (`drive`), the
//! link to the host (`link`), files of several sessions (`file_sessions`),
//! the player (`player`), `deck acp`'s view (`acp`), whole screens
//! snapshotted (`screens`). The real binary under a pseudo-terminal: the
//! harness and the terminal restored (`pty`), `deck connect`
//! (`pty_connect`), the ways out (`pty_exits`), grapheme clusters
//! (`pty_graphemes`), several sessions (`pty_sessions`); and the theme's
//! background under every cell (`theme_bg`). The library's screen:
//! `library/tui.rs`.

mod acp;
mod ahead;
mod drive;
mod file_sessions;
mod keys;
mod keys_pager_search_player;
mod link;
mod opening;
mod player;
pub(crate) mod pty;
mod pty_connect;
mod pty_exits;
mod pty_graphemes;
mod pty_sessions;
mod screens;
mod theme_bg;
