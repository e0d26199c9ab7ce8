//! The help overlay, generated from the key map so it never drifts.

use super::keymap::BINDINGS;
use crate::text::Line;
use crate::theme::{Role, Theme};

/// Lines of the help overlay.
pub fn lines(theme: &Theme) -> Vec<Line> {
    let mut out = vec![
        Line::styled("deck — keys", theme.style(Role::Title)),
        Line::new(),
    ];
    let mut section = "";
    for (keys, _, what, sec) in BINDINGS {
        if *sec != section {
            if !section.is_empty() {
                out.push(Line::new());
            }
            out.push(Line::styled(sec.to_string(), theme.style(Role::Heading)));
            section = sec;
        }
        out.push(
            Line::new()
                .with(format!("  {keys:<20}"), theme.style(Role::Command))
                .with(what.to_string(), theme.style(Role::Text)),
        );
    }
    out.push(Line::new());
    out.push(Line::styled("deck connect", theme.style(Role::Heading)));
    for (keys, what) in super::drive::KEYS {
        out.push(
            Line::new()
                .with(format!("  {keys:<20}"), theme.style(Role::Command))
                .with(what.to_string(), theme.style(Role::Text)),
        );
    }
    out.push(Line::new());
    out.push(Line::styled(
        "mouse: wheel scrolls · click focuses · click again toggles",
        theme.style(Role::Muted),
    ));
    out.push(Line::styled(
        "pager: / search · n N · w wrap · h l scroll · q back",
        theme.style(Role::Muted),
    ));
    out
}
