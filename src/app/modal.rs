//! Which part of the screen has the keys. One value, so no two overlays can
//! be open at once: the search line, the pager (with its own search line),
//! help (over the pager it came from), the session picker, or the message
//! field of `deck connect`; `None` leaves the keys to the transcript.

use super::help::Help;
use super::pager::PagerPart;
use super::picker::Picker;
use super::search::Prompt;
use crate::view::pager::Pager;

/// What has the keys.
#[derive(Default)]
pub enum Modal {
    /// The transcript.
    #[default]
    None,
    /// The message field (`deck connect`): the composer has the keys.
    Compose,
    /// A search over all cards being typed.
    Search(Prompt),
    /// One card full screen.
    Pager(Box<PagerPart>),
    Help(Help),
    /// The host's sessions.
    Picker(Picker),
    /// `deck sessions`: the library's list, full screen (its state is the
    /// app's `library`).
    Library,
}

impl Modal {
    /// The pager, when it is shown.
    pub fn pager(&self) -> Option<&Pager> {
        match self {
            Modal::Pager(p) => Some(&p.pager),
            _ => None,
        }
    }

    /// The search line being typed, and whether it searches the pager.
    pub fn prompt(&self) -> Option<(&str, bool)> {
        match self {
            Modal::Search(p) => Some((&p.text, false)),
            Modal::Pager(p) => p.prompt.as_ref().map(|p| (p.text.as_str(), true)),
            _ => None,
        }
    }

    pub fn is_pager(&self) -> bool {
        matches!(self, Modal::Pager(_))
    }

    pub fn is_help(&self) -> bool {
        matches!(self, Modal::Help(_))
    }

    /// The session picker's row, when it is open.
    pub fn picker(&self) -> Option<usize> {
        match self {
            Modal::Picker(p) => Some(p.row),
            _ => None,
        }
    }

    /// The first help line shown, when help is open.
    pub fn help_scroll(&self) -> Option<usize> {
        match self {
            Modal::Help(h) => Some(h.scroll),
            _ => None,
        }
    }
}
