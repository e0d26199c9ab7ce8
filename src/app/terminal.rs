//! The terminal as the TUI takes it and gives it back: raw mode, the
//! alternate screen, mouse and bracketed paste on the way in; everything
//! undone on every way out (a drop guard, and the panic hook, which also
//! says the panic like any message of deck's). And OSC 52, the one escape
//! the app writes of its own.

use std::io::{IsTerminal, Stdout};

use anyhow::Context;
use base64::Engine;
use crossterm::event::{
    DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
};
use crossterm::terminal::{
    self, DisableLineWrap, EnableLineWrap, EndSynchronizedUpdate, EnterAlternateScreen,
    LeaveAlternateScreen,
};
use crossterm::{cursor, execute};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

use super::backend::ClusterSafe;
use crate::text::sanitize;

/// Refuse to start a TUI when stdout is not a terminal.
pub fn ensure_terminal() -> anyhow::Result<()> {
    if !std::io::stdout().is_terminal() {
        anyhow::bail!(
            "the interactive view needs a terminal, and stdout is not one; use `deck render PATH` to write a session to a file or pipe"
        );
    }
    Ok(())
}

pub(crate) fn restore() {
    let mut out = std::io::stdout();
    let _ = execute!(
        out,
        EndSynchronizedUpdate,
        DisableMouseCapture,
        DisableBracketedPaste,
        EnableLineWrap,
        LeaveAlternateScreen,
        cursor::Show
    );
    let _ = terminal::disable_raw_mode();
    tracing::debug!("terminal restored");
}

/// Restores the terminal when dropped (normal exit and early returns).
pub(super) struct Guard;

impl Drop for Guard {
    fn drop(&mut self) {
        restore();
    }
}

/// Say a panic on stderr like any message of deck's: sanitized (its text
/// may quote input), with a backtrace when `RUST_BACKTRACE` asks for one.
pub fn say_panic(info: &std::panic::PanicHookInfo<'_>) {
    let what = info
        .payload()
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| info.payload().downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".into());
    let place = info
        .location()
        .map(|l| format!(" at {}:{}:{}", l.file(), l.line(), l.column()))
        .unwrap_or_default();
    // The log first: it keeps the backtrace whatever RUST_BACKTRACE says.
    tracing::error!(
        at = place.trim_start_matches(" at "),
        message = %what,
        backtrace = %std::backtrace::Backtrace::force_capture(),
        "deck panicked"
    );
    eprintln!(
        "deck panicked{place}: {}",
        crate::text::sanitize::message(&what)
    );
    if std::env::var_os("RUST_BACKTRACE").is_some_and(|v| v != "0") {
        eprintln!("{}", std::backtrace::Backtrace::force_capture());
    }
}

/// The TUI's terminal. Line wrap is off while deck draws: a cluster the
/// terminal draws wider than deck laid it out cannot spill onto the next
/// row ([`ClusterSafe`] keeps the rest of its row true).
pub(super) fn setup() -> anyhow::Result<Terminal<ClusterSafe<CrosstermBackend<Stdout>>>> {
    std::panic::set_hook(Box::new(|info| {
        restore();
        say_panic(info);
    }));
    terminal::enable_raw_mode().context("cannot switch the terminal to raw mode")?;
    let mut out = std::io::stdout();
    execute!(
        out,
        EnterAlternateScreen,
        EnableMouseCapture,
        EnableBracketedPaste,
        DisableLineWrap,
        cursor::Hide
    )?;
    tracing::debug!(size = ?terminal::size().ok(), "terminal set up");
    Ok(Terminal::new(ClusterSafe::new(CrosstermBackend::new(out)))?)
}

/// The OSC 52 sequence that puts `text` on the clipboard. The text is
/// stripped of controls and base64-encoded, so it cannot carry escapes.
pub fn osc52(text: &str) -> String {
    let clean = sanitize::strip_controls(text);
    format!(
        "\x1b]52;c;{}\x07",
        base64::engine::general_purpose::STANDARD.encode(clean)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn osc52_payload_carries_no_escapes() {
        let s = osc52("hi\u{1b}]52;c;evil\u{7}\nthere");
        assert!(s.starts_with("\x1b]52;c;"));
        let payload = &s[7..s.len() - 1];
        assert!(
            payload
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/' || b == b'=')
        );
        let decoded = base64::engine::general_purpose::STANDARD
            .decode(payload)
            .unwrap();
        assert_eq!(String::from_utf8(decoded).unwrap(), "hi]52;c;evil\nthere");
    }
}
