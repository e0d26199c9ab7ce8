//! The integration tests, one binary: a folder per area (`tui/`, `agents/`,
//! `cards/`, …, each with a `mod.rs` saying what it covers), a few modules
//! of their own at the top, `common` holds the helpers they share. Each
//! test's snapshots are in `snapshots/` beside its file. Run one area or
//! one file with a filter: `cargo test --test all cards::`,
//! `cargo test --test all cards::prompt`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]

mod common;

mod acp;
mod agents;
mod cards;
mod cli;
mod docs;
mod house;
mod kit;
mod library;
mod live;
mod loader;
mod parity;
mod reducer;
mod render_tour;
mod robust;
mod share;
mod tui;
