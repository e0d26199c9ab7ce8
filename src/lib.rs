//! deck — a terminal client for DeepSeek Harness (DSH) sessions, and the
//! library under it.
//!
//! Data flows one way: [`source`] (bytes in: files, stdin, sockets) →
//! [`wire`] (the lenient serde model of frames, events and views) →
//! [`session`] (the pure reducer: events → a [`Transcript`](session::Transcript)
//! of items and tool cards) → [`cards`] (one renderer per card tag, over
//! `text`) → `agents` (one folder per agent whose sessions deck reads —
//! DSH, Claude Code, Codex, ACP recordings —: how its files are known,
//! where it keeps them, its reader, its presenters; only an agent's folder
//! names its tools) → `load` (the loader: bytes in, each agent's reader
//! dispatched to, records out) → `clients` (the DSH host client, the ACP
//! client: they act on the world), `view` (layout of a transcript, the
//! list, the pager), `library` (every session on the machine, indexed for
//! search) → `app` (the TUI), [`headless`] (the same layout into text) and
//! the subcommands. Imports point the same way (`docs/architecture.md` has
//! the table): the session asks for presenters through its
//! [`Presenters`](session::Presenters) trait and is given [`stock()`] by
//! whoever builds a transcript; the theme knows roles, not card statuses.
//!
//! The API: load a session ([`source::load_path`], [`source::load_bytes`]),
//! fold it ([`session::Transcript::from_records`] with [`stock()`], or
//! [`headless::fold`]), draw it ([`headless`], [`cards::render`]), in a
//! [`theme::Theme`]. Tool authors who want deck's cards in their own
//! snapshot tests call [`testing`].

// The library's API says what each public item is for; deck's own modules
// (`internal!`, doc-hidden with `internals`) are not its API.
#![warn(missing_docs)]

/// A module of deck's own: `pub(crate)`; `pub`, hidden from the docs, when
/// deck's own tests and benches build it (the `internals` feature).
macro_rules! internal {
    ($(#[$attr:meta])* mod $name:ident;) => {
        $(#[$attr])*
        #[cfg(feature = "internals")]
        #[doc(hidden)]
        pub mod $name;
        $(#[$attr])*
        #[cfg(not(feature = "internals"))]
        pub(crate) mod $name;
    };
}

pub mod cards;
pub mod headless;
pub mod session;
pub mod source;
pub mod testing;
pub mod theme;
pub mod wire;

internal!(
    mod agents;
);
internal!(
    mod app;
);
internal!(
    mod clients;
);
internal!(
    mod library;
);
internal!(
    mod lint;
);
internal!(
    mod load;
);
internal!(
    mod par;
);
internal!(
    mod private;
);
internal!(
    mod settings;
);
internal!(
    mod text;
);
internal!(
    mod view;
);

/// deck's built-in presenters (DSH's stock tools), for
/// [`Transcript::from_records`](session::Transcript::from_records): the
/// views of calls whose host sent none.
pub use agents::{Stock, stock};

/// The command line, for the `deck` binary.
#[doc(hidden)]
pub mod cli;
/// The subcommands, for the `deck` binary.
#[doc(hidden)]
pub mod commands;
