//! The library: every session on this machine, over a fake home holding
//! the three agents' real captures — `deck sessions` through the binary
//! (`sessions`: listing, search, the index, filters) and in the terminal
//! (`tui`: the list, filters, a hit opening its session, snapshots).

pub(crate) mod sessions;
mod tui;
