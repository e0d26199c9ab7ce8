//! The `deck` binary: parse the command line and hand it to
//! [`deck::commands`]; say an error on stderr, once.

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;
use deck::cli::Cli;

fn main() -> ExitCode {
    tune_allocator();
    deck::commands::init();
    match deck::commands::run(Cli::parse()) {
        Ok(code) => code,
        Err(e) => {
            // A stderr that is gone (the terminal closed) is no panic.
            let _ = writeln!(
                std::io::stderr(),
                "deck: {}",
                deck::commands::error_message(&e)
            );
            ExitCode::FAILURE
        }
    }
}

/// mimalloc's `purge_delay` option (`mi_option_t` 15: the crate names 14
/// and 16 but not it; `purge_delay_is_option_15` checks its default).
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Memory deck frees is given back to the system after 10 s unused, not
/// mimalloc's 1 s: a load frees and allocates hundreds of megabytes within
/// a second or two, and memory given back in between had to be faulted in
/// and zeroed again by the kernel (a 100 MB Claude Code log: 320 MB given
/// back and taken again; the kernel's `clear_page` was the largest single
/// cost of loading it). `MIMALLOC_PURGE_DELAY`, when set, is left to
/// mimalloc (a measure of what deck holds, not what it keeps to reuse).
fn tune_allocator() {
    // mimalloc's own variable, when set, is the user's choice.
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_some() {
        return;
    }
    // SAFETY: sets one of mimalloc's integer options, before any thread
    // but this one runs.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 10_000) };
}

#[cfg(test)]
mod tests {
    /// The option set is mimalloc's purge delay: the one whose default is
    /// mimalloc 3's 1000 ms.
    #[test]
    fn purge_delay_is_option_15() {
        // SAFETY: reads an integer option.
        let default = unsafe { libmimalloc_sys::mi_option_get(super::MI_OPTION_PURGE_DELAY) };
        assert_eq!(default, 1000);
    }
}

/// mimalloc: the reducer and loader allocate many small values; glibc's
/// allocator spent a third of the fold time in malloc/free.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
