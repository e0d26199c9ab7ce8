//! The theme's background on the TUI's screen. A theme that declares one
//! (`background` in its file: `dark`, `light`, `high-contrast`) has it
//! painted under every cell — empty rows, the margins, around the status
//! bar — with its `foreground` as the text colour, so its colours read the
//! same on a dark terminal or a light one. The `ansi-*` themes and
//! `no-color` declare none and keep the terminal's own.
//!
//! Where a declared background is not painted, deck says why, once: colours
//! are off (`NO_COLOR`), or the terminal does not say it shows 24-bit colour
//! (`COLORTERM` is not `truecolor` or `24bit`; a theme's `#rrggbb` would
//! come out as some other colour). The command that starts the app reads
//! the environment ([`Colours::from_env`]); the app itself only keeps the
//! answer (with its themes: `looks.rs`), so screens drawn without a
//! terminal (tests, `deck export --format cast`) paint the background.

use std::ffi::OsStr;

/// What the environment says of the terminal's colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Colours {
    /// `NO_COLOR` is set (non-empty): no colours at all.
    pub no_color: bool,
    /// `COLORTERM` says `truecolor` or `24bit`.
    pub truecolor: bool,
}

impl Default for Colours {
    /// What a screen drawn without a terminal assumes: every colour shows.
    fn default() -> Colours {
        Colours {
            no_color: false,
            truecolor: true,
        }
    }
}

impl Colours {
    /// From this process's `NO_COLOR` and `COLORTERM`.
    pub fn from_env() -> Colours {
        Colours::from_vars(
            std::env::var_os("NO_COLOR").as_deref(),
            std::env::var_os("COLORTERM").as_deref(),
        )
    }

    /// From the values of `NO_COLOR` and `COLORTERM`.
    pub fn from_vars(no_color: Option<&OsStr>, colorterm: Option<&OsStr>) -> Colours {
        let truecolor = colorterm
            .and_then(OsStr::to_str)
            .is_some_and(|v| v.eq_ignore_ascii_case("truecolor") || v.eq_ignore_ascii_case("24bit"));
        Colours {
            no_color: no_color.is_some_and(|v| !v.is_empty()),
            truecolor,
        }
    }

    /// Why no theme background can be painted, if one can't.
    pub(super) fn unpainted(self) -> Option<&'static str> {
        if self.no_color {
            Some("NO_COLOR is set")
        } else if !self.truecolor {
            Some("COLORTERM does not say truecolor")
        } else {
            None
        }
    }
}

/// Said once when `NO_COLOR` turned the colours off.
pub const NO_COLOR_NOTE: &str = "NO_COLOR is set: no colours, no theme background painted";

#[cfg(test)]
mod tests {
    use super::*;

    fn os(s: &str) -> Option<&OsStr> {
        Some(OsStr::new(s))
    }

    #[test]
    fn colours_from_the_environment() {
        let c = Colours::from_vars(None, os("truecolor"));
        assert_eq!(c, Colours::default());
        assert!(Colours::from_vars(None, os("24bit")).truecolor);
        assert!(!Colours::from_vars(None, os("yes")).truecolor);
        assert!(!Colours::from_vars(None, None).truecolor);
        assert!(Colours::from_vars(os("1"), os("truecolor")).no_color);
        // An empty NO_COLOR does not count, as the convention says.
        assert!(!Colours::from_vars(os(""), None).no_color);
    }
}
