//! The looks of the app: the themes `t` cycles through, the one in use,
//! and whether theme backgrounds are painted on this terminal (see
//! `backdrop.rs` for why they may not be).

use ratatui::style::Style;

use super::backdrop::{Colours, NO_COLOR_NOTE};
use crate::theme::Theme;

/// The themes to cycle through with `t`, the one in use, and why their
/// backgrounds are not painted.
pub(super) struct Looks {
    pub(super) themes: Vec<Theme>,
    pub(super) idx: usize,
    /// Why theme backgrounds are not painted; `None`: they are.
    pub(super) unpainted: Option<&'static str>,
}

impl Looks {
    /// `themes` (the dark one when none), the first in use.
    pub(super) fn new(themes: Vec<Theme>) -> Looks {
        Looks {
            themes: if themes.is_empty() {
                vec![Theme::dark()]
            } else {
                themes
            },
            idx: 0,
            unpainted: None,
        }
    }

    pub(super) fn theme(&self) -> &Theme {
        &self.themes[self.idx.min(self.themes.len() - 1)]
    }

    /// `t`: the next theme.
    pub(super) fn next(&mut self) {
        self.idx = (self.idx + 1) % self.themes.len();
    }

    /// What the terminal shows of colours. The notice to give once, if
    /// there is one: colours are off, or the theme in use has a background
    /// that is not painted, and why.
    pub(super) fn set_colours(&mut self, colours: Colours) -> Option<String> {
        self.unpainted = colours.unpainted();
        if colours.no_color {
            return Some(NO_COLOR_NOTE.to_string());
        }
        self.background_note()
    }

    /// Why the theme in use, which declares a background, does not have it
    /// painted; `None` when it is painted or the theme declares none.
    pub(super) fn background_note(&self) -> Option<String> {
        let why = self.unpainted?;
        let theme = self.theme();
        theme.background?;
        Some(format!("theme {}: background not painted, {why}", theme.name))
    }

    /// The style every cell of the screen starts from: the theme's
    /// background and foreground when they are painted, else none (the
    /// terminal's own).
    pub(super) fn ground(&self) -> Style {
        if self.unpainted.is_some() {
            return Style::default();
        }
        self.theme().screen().unwrap_or_default()
    }
}
