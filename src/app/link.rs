//! The live link as the app shows it. Every source reports its
//! [`LinkStatus`] (the status bar's right side); `deck connect` also shows
//! what that means for the user: while no host has answered yet, the first
//! screen says the host cannot be reached, how to start one and how deck
//! retries; after a connection is lost, a banner above the message field
//! says so until the link is back. Either way Enter sends nothing (the
//! draft stays in the field). No I/O: what is shown comes from the statuses
//! the host client sent.

use std::time::Duration;

use crate::clients::dsh::{Backoff, HostUrl};
use crate::source::live::LinkStatus;
use crate::text::{Line, sanitize, wrap};
use crate::theme::{Role, Theme};

/// What the app knows of its live link.
#[derive(Debug, Default)]
pub(super) struct Link {
    status: Option<LinkStatus>,
    /// It was connected at least once: a drop now is a loss, not "no host".
    was_up: bool,
    /// Tries that failed since the link was last up.
    failures: u32,
    /// Why the last try failed or the link dropped (sanitized).
    reason: Option<String>,
}

impl Link {
    pub(super) fn set(&mut self, s: LinkStatus) {
        match &s {
            LinkStatus::Live | LinkStatus::Backfilling { .. } => {
                self.was_up = true;
                self.failures = 0;
                self.reason = None;
            }
            LinkStatus::Disconnected { reason, .. } => {
                self.failures = self.failures.saturating_add(1);
                self.reason = Some(sanitize::inline(reason));
            }
            _ => {}
        }
        self.status = Some(s);
    }

    /// The status bar's text for it.
    pub(super) fn label(&self) -> Option<String> {
        self.status.as_ref().map(LinkStatus::label)
    }

    /// Nothing sent now would reach the other end.
    pub(super) fn down(&self) -> bool {
        matches!(
            self.status,
            Some(
                LinkStatus::Connecting { .. }
                    | LinkStatus::Disconnected { .. }
                    | LinkStatus::Failed { .. }
            )
        )
    }

    /// Trying to (re)connect (not stopped for good).
    fn retrying(&self) -> bool {
        matches!(
            self.status,
            Some(LinkStatus::Connecting { .. } | LinkStatus::Disconnected { .. })
        )
    }
}

/// `250 ms`, `5 s`.
fn span_text(d: Duration) -> String {
    if d < Duration::from_secs(1) {
        format!("{} ms", d.as_millis())
    } else if d.subsec_millis() == 0 {
        format!("{} s", d.as_secs())
    } else {
        format!("{:.1} s", d.as_secs_f64())
    }
}

/// How deck retries, as `deck connect`'s host client does (its default
/// [`Backoff`]).
fn schedule() -> String {
    let b = Backoff::default();
    format!(
        "after {}, then twice as long each time, at most every {}",
        span_text(b.first),
        span_text(b.cap)
    )
}

/// The command that starts a DSH host for `url` (the `dsh` command of
/// the npm package `@deepseek-ai/dsh`; `dsh web` serves on
/// 127.0.0.1:3080 unless told otherwise).
pub fn start_command(url: Option<&str>) -> String {
    let Some(u) = url.and_then(|u| HostUrl::parse(u).ok()) else {
        return "dsh web".into();
    };
    let local = matches!(u.host.as_str(), "127.0.0.1" | "localhost" | "::1");
    match (local, u.port) {
        (true, 3080) => "dsh web".into(),
        (true, port) => format!("dsh web --port {port}"),
        (false, port) => format!("dsh web --host {} --port {port}", u.host),
    }
}

impl Link {
    /// The first screen of `deck connect` (host at `host`, as given) while
    /// no host has answered and deck keeps trying: what is wrong, how to
    /// start a host, how deck retries. `None` once connected (or before the
    /// first try failed).
    pub(super) fn unreachable_notice(&self, host: Option<&str>, theme: &Theme, width: usize) -> Option<Vec<Line>> {
        if self.was_up || self.failures == 0 || !self.retrying() {
            return None;
        }
        let at = host.map_or(String::new(), |u| format!(" at {u}"));
        let text = theme.style(Role::Text);
        let muted = theme.style(Role::Muted);
        let command = theme.style(Role::Command);
        let paragraphs = [
            Line::styled(
                format!("Cannot reach the DSH host{at}"),
                theme.style(Role::Warning),
            ),
            Line::styled(self.reason.clone().unwrap_or_default(), muted),
            Line::new(),
            Line::styled("Start one with ", text)
                .with(start_command(host), command)
                .with(
                    " (the dsh command of the npm package @deepseek-ai/dsh), \
                     or give deck the URL of one that runs: ",
                    text,
                )
                .with("deck connect http://HOST:PORT", command),
            Line::new(),
            Line::styled(
                format!(
                    "deck tries again by itself: {}; {} {} failed so far. \
                     This screen goes away once it connects. q quits.",
                    schedule(),
                    self.failures,
                    if self.failures == 1 { "try" } else { "tries" }
                ),
                text,
            ),
        ];
        let inner = width.saturating_sub(4).max(1);
        let mut out = vec![Line::new()];
        for p in &paragraphs {
            for row in wrap::words(p, inner) {
                out.push(row.prefixed(&[crate::text::Span::plain("  ")]));
            }
        }
        Some(out)
    }

    /// After a connection of `deck connect` (host at `host`) is lost,
    /// until it is back: the banner above the message field (at most three
    /// rows of `width`).
    pub(super) fn lost_banner(&self, host: Option<&str>, theme: &Theme, width: usize) -> Vec<Line> {
        if !self.was_up || !self.retrying() {
            return Vec::new();
        }
        let at = host.map_or(String::new(), |u| format!(" at {u}"));
        let why = self
            .reason
            .as_deref()
            .map_or(String::new(), |r| format!(" ({r})"));
        let line = Line::styled(
            format!(
                "⚠ lost the DSH host{at}{why}: deck reconnects by itself ({}) \
                 and fills in what it missed; Enter sends nothing until then",
                schedule()
            ),
            theme.style(Role::Warning),
        );
        let width = width.max(1);
        let mut rows = wrap::words(&line, width);
        if rows.len() > 3 {
            rows.truncate(3);
            if let Some(last) = rows.last_mut() {
                let mut ended = last.clone();
                ended.push_str("…", theme.style(Role::Warning));
                *last = wrap::truncate(&ended, width);
            }
        }
        rows
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_command_fits_the_url() {
        assert_eq!(start_command(None), "dsh web");
        assert_eq!(start_command(Some("http://127.0.0.1:3080")), "dsh web");
        assert_eq!(
            start_command(Some("http://localhost:8080")),
            "dsh web --port 8080"
        );
        assert_eq!(
            start_command(Some("http://10.0.0.2:3080")),
            "dsh web --host 10.0.0.2 --port 3080"
        );
    }

    #[test]
    fn the_schedule_is_the_client_backoff() {
        assert_eq!(
            schedule(),
            "after 250 ms, then twice as long each time, at most every 5 s"
        );
    }
}
