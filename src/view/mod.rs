//! Views over a transcript: layout of items into lines (shared by headless
//! and the TUI), the virtualised list, the pager, search, the status bar,
//! the timeline and the help overlay. No I/O and no key handling here.

pub mod composer;
pub mod list;
pub mod pager;
pub mod search;
pub mod status;
pub mod transcript;
pub mod worker;
