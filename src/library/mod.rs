//! The session library (`deck sessions`): every agent's sessions on this
//! machine, found where each agent keeps them ([`discover`]), each read
//! into a row and searchable entries by the same loader, reducer and
//! presenters as `deck view` ([`read`]), kept in a full-text index that is
//! brought up to date incrementally ([`index`]), and searched with
//! filters ([`query`]). Knows `source`, `session`, `present` and `cards`
//! (a card's plain text is what is indexed); `commands` and `app` use it.

pub mod discover;
pub mod entries;
pub mod filter;
mod fold;
pub mod index;
pub mod query;
pub mod read;
mod readers;

pub use discover::{Found, Roots, discover};
pub use filter::Filter;
pub use index::{Library, LibraryError, Progress};
pub use query::{Hit, parse};
pub use read::SessionRow;

#[cfg(test)]
mod tests;
