//! The terminal as the TUI takes it and gives it back: raw mode, the
//! alternate screen, mouse and bracketed paste on the way in; everything
//! undone on every way out (a drop guard, and the panic hook, which also
//! says the panic like any message of deck's). What is drawn goes through
//! [`Screen`], which notices a terminal that is gone (its window closed, the
//! SSH link dropped: writes fail with EIO or EPIPE): the app stops as on
//! `q`, and nothing written after (the cursor shown again on the way out)
//! fails or panics over it. And OSC 52, the one escape the app writes of
//! its own.

use std::io::{IsTerminal, Stdout, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

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
    // A stderr that is gone (the terminal closed) is no second panic.
    let mut err = std::io::stderr();
    let _ = writeln!(
        err,
        "deck panicked{place}: {}",
        crate::text::sanitize::message(&what)
    );
    if std::env::var_os("RUST_BACKTRACE").is_some_and(|v| v != "0") {
        let _ = writeln!(err, "{}", std::backtrace::Backtrace::force_capture());
    }
}

/// Whether `e` says the terminal is gone: EIO (a hung-up terminal), EPIPE,
/// ENXIO (no such device any more).
pub fn is_gone(e: &std::io::Error) -> bool {
    e.kind() == std::io::ErrorKind::BrokenPipe
        || matches!(e.raw_os_error(), Some(libc::EIO | libc::EPIPE | libc::ENXIO))
}

/// deck's output terminal: stdout, until a write fails because the
/// terminal is gone; from then on what is written is dropped, and
/// [`Screen::gone`] says so.
pub struct Screen {
    out: Stdout,
    gone: Arc<AtomicBool>,
}

impl Screen {
    /// Set once the terminal is found gone.
    pub fn gone(&self) -> Arc<AtomicBool> {
        self.gone.clone()
    }

    fn check<T>(&self, r: std::io::Result<T>, or: T) -> std::io::Result<T> {
        match r {
            Err(e) if is_gone(&e) => {
                if !self.gone.swap(true, Ordering::Relaxed) {
                    tracing::warn!(error = %e, "the terminal is gone (a write failed)");
                }
                Ok(or)
            }
            r => r,
        }
    }
}

impl Write for Screen {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.gone.load(Ordering::Relaxed) {
            return Ok(buf.len());
        }
        let r = self.out.write(buf);
        self.check(r, buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if self.gone.load(Ordering::Relaxed) {
            return Ok(());
        }
        let r = self.out.flush();
        self.check(r, ())
    }
}

/// The terminal the TUI draws on.
pub(super) type Tty = Terminal<ClusterSafe<CrosstermBackend<Screen>>>;

/// The TUI's terminal. Line wrap is off while deck draws: a cluster the
/// terminal draws wider than deck laid it out cannot spill onto the next
/// row ([`ClusterSafe`] keeps the rest of its row true). With it, the flag
/// [`Screen`] sets once the terminal is gone.
pub(super) fn setup() -> anyhow::Result<(Tty, Arc<AtomicBool>)> {
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
    let screen = Screen {
        out,
        gone: Arc::default(),
    };
    let gone = screen.gone();
    Ok((Terminal::new(ClusterSafe::new(CrosstermBackend::new(screen)))?, gone))
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
