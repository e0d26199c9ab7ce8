//! The pager as a part of the app: one card full screen ([`Pager`] does the
//! layout and scrolling), its keys and its own search line. It knows the
//! transcript only through [`PagerCx`]; the app owns copying and themes.

use crossterm::event::KeyEvent;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use super::keys::{self, Action, Part};
use super::paint::put;
use super::outcome::Outcome;
use super::search::Prompt;
use crate::session::Transcript;
use crate::theme::Theme;
use crate::view::pager::Pager;

/// The pager and its search line (open while a search is typed).
pub struct PagerPart {
    pub pager: Pager,
    pub prompt: Option<Prompt>,
}

/// What the pager's keys need from the app.
pub struct PagerCx<'a> {
    pub transcript: &'a Transcript,
    pub theme: &'a Theme,
    pub width: u16,
    pub height: u16,
    /// The status line's message.
    pub message: &'a mut Option<String>,
}

impl PagerPart {
    /// The pager over item `item`.
    pub fn new(item: usize) -> PagerPart {
        PagerPart {
            pager: Pager::new(item),
            prompt: None,
        }
    }

    /// Rows of the card shown (the status line takes one).
    fn rows(height: u16) -> usize {
        (height as usize).saturating_sub(1)
    }

    /// Lay the card out at the width (cached): keys typed before the pager
    /// is first drawn must find its lines.
    pub fn build(&mut self, cx: &PagerCx<'_>) {
        self.pager.build(cx.transcript, cx.theme, cx.width as usize);
    }

    /// A key: the search line's while one is typed, else the pager's.
    pub fn handle(&mut self, key: KeyEvent, cx: PagerCx<'_>) -> Outcome {
        if let Some(prompt) = self.prompt.as_mut() {
            match prompt.handle(key) {
                Outcome::Close(_) => self.prompt = None,
                Outcome::App(Action::Submit) => {
                    let text = self.prompt.take().map(|p| p.text).unwrap_or_default();
                    self.build(&cx);
                    self.pager.set_query(&text);
                    *cx.message = Some(if self.pager.next_match(true, Self::rows(cx.height)) {
                        self.pager.match_note().unwrap_or_default()
                    } else {
                        format!("no match for {text:?}")
                    });
                }
                _ => {}
            }
            return Outcome::Stay;
        }
        let Some(a) = keys::action(Part::Pager, key) else {
            return Outcome::Stay;
        };
        self.act(a, cx)
    }

    fn act(&mut self, a: Action, cx: PagerCx<'_>) -> Outcome {
        if a == Action::Help {
            return Outcome::Help;
        }
        self.build(&cx);
        let rows = Self::rows(cx.height);
        let r = rows as isize;
        let p = &mut self.pager;
        match a {
            Action::Quit => return Outcome::Quit,
            Action::Back => return Outcome::Close(Vec::new()),
            Action::Next => p.scroll_by(1, rows),
            Action::Prev => p.scroll_by(-1, rows),
            Action::HalfPageDown => p.scroll_by(r / 2, rows),
            Action::HalfPageUp => p.scroll_by(-r / 2, rows),
            Action::PageDown => p.scroll_by(r, rows),
            Action::PageUp => p.scroll_by(-r, rows),
            Action::Top => p.go_to_top(),
            Action::Bottom => p.go_to_end(rows),
            Action::ToggleWrap => {
                p.toggle_wrap();
                *cx.message = Some(if p.wrap {
                    "wrap on".into()
                } else {
                    "wrap off: h/l scroll sideways".into()
                });
            }
            Action::ScrollLeft => p.scroll_sideways(-8, cx.width as usize),
            Action::ScrollRight => p.scroll_sideways(8, cx.width as usize),
            Action::StartSearch => self.prompt = Some(Prompt::default()),
            Action::NextMatch | Action::PrevMatch => {
                *cx.message = Some(if p.next_match(a == Action::NextMatch, rows) {
                    p.match_note().unwrap_or_default()
                } else {
                    "no match".into()
                });
            }
            Action::Copy | Action::CopyTarget | Action::CopyRaw | Action::CycleTheme => {
                return Outcome::App(a);
            }
            _ => {}
        }
        Outcome::Stay
    }

    /// The mouse wheel: three rows.
    pub fn wheel(&mut self, down: bool, cx: PagerCx<'_>) {
        self.build(&cx);
        let rows = Self::rows(cx.height);
        self.pager.scroll_by(if down { 3 } else { -3 }, rows);
    }
}

/// The card's rows as the pager shows them.
pub struct PagerView<'a> {
    pub pager: &'a Pager,
    pub theme: &'a Theme,
}

impl Widget for PagerView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let lines = self
            .pager
            .visible(self.theme, area.width as usize, area.height as usize);
        for (i, line) in lines.iter().enumerate() {
            put(buf, area.x, area.y + i as u16, area.width, line);
        }
    }
}
