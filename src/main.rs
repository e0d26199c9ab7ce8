//! The `deck` binary: parse the command line and hand it to
//! [`deck::commands`]; say an error on stderr, once.

use std::process::ExitCode;

use clap::Parser;
use deck::cli::Cli;

fn main() -> ExitCode {
    deck::commands::init();
    match deck::commands::run(Cli::parse()) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("deck: {}", deck::commands::error_message(&e));
            ExitCode::FAILURE
        }
    }
}

/// mimalloc: the reducer and loader allocate many small values; glibc's
/// allocator spent a third of the fold time in malloc/free.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
