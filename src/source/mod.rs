//! Bytes in: files (plain or zstd), stdin, sockets (`listen`), files
//! followed as they grow (`follow`), cut into lines (`lines`, `blocks`:
//! over the cores, under the line limit: `limits`) and handed on; live
//! sources are producers on one bounded channel of `LiveEvent`s (`live`,
//! `feed`), and `record` taps what they receive into a file. What the
//! bytes say is not read here: that is the agents' (their formats) and
//! the loader's (which dispatches to them), both above this layer.
//!
//! The library's loading API is here, at the paths it has always had
//! ([`load_path`], [`load_bytes`], [`load`]…): the loader itself is deck's
//! own `load` module, and these are its public items. Every line that
//! cannot be decoded becomes a diagnostic at its place; nothing is dropped
//! silently.

internal!(
    mod blocks;
);
internal!(
    mod demo;
);
internal!(
    mod feed;
);
internal!(
    mod follow;
);
internal!(
    mod limits;
);
internal!(
    mod lines;
);
internal!(
    mod listen;
);
internal!(
    mod live;
);
pub mod load;
internal!(
    mod record;
);
internal!(
    mod sessions;
);

pub use load::{
    Format, LoadError, Loaded, LoadedSession, load_bytes, load_file_upto, load_path,
    load_path_counted,
};
