//! What goes into the app and what comes out: the driver feeds [`Msg`]s to
//! [`App::update`](super::App::update) and performs the [`Effect`]s it
//! returns (the app itself does no I/O).

use crossterm::event::{KeyEvent, MouseEvent};

use crate::clients::dsh::Control;
use crate::source::live::LinkStatus;
use crate::source::sessions::{SessionChange, SessionSummary};
use crate::wire::Record;

/// Messages the driver feeds in.
#[derive(Debug, Clone)]
pub enum Msg {
    Key(KeyEvent),
    Mouse(MouseEvent),
    Resize(u16, u16),
    /// Wall time passed (`real_ms`) and the current epoch time.
    Tick {
        real_ms: f64,
        now_ms: i64,
    },
    /// Records that arrived from a live source (or from the file still
    /// being read, `opening.rs`).
    Records(Vec<Record>),
    /// The file shown as it was read is read to its end.
    Loaded(Box<super::loading::LoadEnd>),
    /// The live link's state, for the status bar (`● live`, `disconnected …`)
    /// and, in `deck connect`, the notices while the host is out of reach.
    Link(LinkStatus),
    /// The live source switched session (or restarted): a new transcript.
    Reset {
        session_id: Option<String>,
    },
    /// The host's sessions (for the `S` picker).
    Sessions(Vec<SessionSummary>),
    /// One session new, changed or gone.
    Session(SessionChange),
    /// What came of an action on the host, for the status line.
    Notice(String),
    /// A big followed file's end, shown while it is read from its start
    /// (`ahead.rs`).
    Ahead(crate::source::live::Ahead),
    /// The followed file's read from its start is at its end.
    CaughtUp,
    /// Text pasted into the terminal (bracketed paste).
    Paste(String),
}

/// What the driver must do.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    Quit,
    /// Put text on the clipboard (OSC 52).
    Copy(String),
    /// Something visible changed.
    Redraw,
    /// Show another session of the live host.
    Switch(String),
    /// Ask the live host to act (answer an approval …).
    Host(Control),
}
