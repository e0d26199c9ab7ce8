//! Which part of the screen has the keys, and that part's own state. One
//! value, so no two overlays can be open at once: the search line, the
//! pager (with its own search line), help (over what it came from), the
//! session picker, the library's list, or the message field of `deck
//! connect`; `None` leaves the keys to the transcript.
//!
//! `Compose` alone carries no state: the message field (`drive::Driving`,
//! owning its text, history and the host's questions, and handed a
//! `DriveCx`) stays on screen and keeps what is typed while the pager,
//! help or the library has the keys, so it lives beside the modal, not in
//! it; `Compose` says only that the field has the keys. Likewise the
//! transcript, which is under every overlay, is the app's own state.

use super::help::Help;
use super::library::LibraryPart;
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
    /// Help, over what it was opened from (where closing it goes back to).
    Help { help: Help, under: Box<Modal> },
    /// The host's sessions.
    Picker(Picker),
    /// `deck sessions`: the library's list, full screen. While a session
    /// opened from it is shown, the app keeps it to go back to.
    Library(Box<LibraryPart>),
}

impl Modal {
    /// Help over `under` (what closing it goes back to).
    pub fn help(help: Help, under: Modal) -> Modal {
        Modal::Help {
            help,
            under: Box::new(under),
        }
    }

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
        matches!(self, Modal::Help { .. })
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
            Modal::Help { help, .. } => Some(help.scroll),
            _ => None,
        }
    }

    /// The library's list, when it is on screen (help may be over it).
    pub fn library(&self) -> Option<&LibraryPart> {
        match self {
            Modal::Library(l) => Some(l),
            Modal::Help { under, .. } => under.library(),
            _ => None,
        }
    }

    pub(super) fn library_mut(&mut self) -> Option<&mut LibraryPart> {
        match self {
            Modal::Library(l) => Some(l),
            Modal::Help { under, .. } => under.library_mut(),
            _ => None,
        }
    }

    /// The library this modal holds (as itself, or under help), taken out
    /// of a modal that is closed.
    pub(super) fn into_library(self) -> Option<Box<LibraryPart>> {
        match self {
            Modal::Library(l) => Some(l),
            Modal::Help { under, .. } => under.into_library(),
            _ => None,
        }
    }
}
