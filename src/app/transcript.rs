//! The transcript part of the app: what its keys do (moving the focus,
//! scrolling, cards' densities, filters, copying, the player's keys) and
//! the app-wide actions other parts ask for. Part of [`App::update`]: no
//! I/O here.

use crossterm::event::{KeyEvent, MouseButton, MouseEvent, MouseEventKind};

use super::help::Help;
use super::keys::{self, Action, Part};
use super::modal::Modal;
use super::msg::Effect;
use super::pager::PagerPart;
use super::search::Prompt;
use super::state::App;
use crate::cards::Density;
use crate::session::{Item, Transcript};
use crate::view::list::Anchor;
use crate::view::status;
use crate::view::transcript::item_text;

/// What `y`, `Y` and `c` copy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Copied {
    /// The item's text as deck shows it at full density.
    Shown,
    /// A card's raw output, sanitised.
    Raw,
    /// A card's command, path or URL.
    Target,
}

impl App {
    /// A key with no overlay open: `deck connect`'s keys first (the
    /// message field's while it has the keys), then the transcript's.
    pub(super) fn transcript_key(&mut self, k: KeyEvent) -> Vec<Effect> {
        if let Some(fx) = self.drive_key(k) {
            return fx;
        }
        match keys::action(Part::Transcript, k) {
            Some(a) => self.act(a),
            None => Vec::new(),
        }
    }

    /// Bring the list in line with the transcript.
    pub(super) fn sync(&mut self) {
        let before = self.list.entries.len();
        let (t, list, _, opts, _) = self.parts();
        list.sync(t, &opts);
        let after = self.list.entries.len();
        if !self.list.follow && after > before {
            self.unseen += after - before;
        }
    }

    /// After a player seek the transcript is a new fold: rebuild the list.
    pub(super) fn resync_after_seek(&mut self) {
        let focus_item = self.focused_item();
        self.list.reset();
        self.sync();
        // A new fold, not new arrivals.
        self.unseen = 0;
        if let Some(item) = focus_item
            && !self.list.follow
        {
            let e = self.list.entries.partition_point(|&x| x < item);
            self.list.focus = e.min(self.list.entries.len().saturating_sub(1));
            self.reveal();
        }
    }

    pub(super) fn reveal(&mut self) {
        let (t, list, theme, opts, rows) = self.parts();
        list.reveal_focus(t, theme, &opts, rows);
    }

    pub(super) fn scroll(&mut self, delta: isize) {
        let (t, list, theme, opts, rows) = self.parts();
        if list.follow {
            list.anchor = list.tail_anchor(t, theme, &opts, rows);
        }
        list.scroll(t, theme, &opts, rows, delta);
        let tail = list.tail_anchor(t, theme, &opts, rows);
        if delta > 0 && list.anchor >= tail {
            list.follow = true;
        }
        if self.list.follow {
            self.unseen = 0;
        }
        self.keep_focus_on_screen();
    }

    /// After a scroll, bring a focus that left the screen back onto it: the
    /// nearest entry whose first row is visible (keys act on what is seen).
    fn keep_focus_on_screen(&mut self) {
        let focus = self.list.focus;
        let (t, list, theme, opts, rows) = self.parts();
        let visible = list.visible(t, theme, &opts, rows);
        let (Some(first), Some(last)) = (visible.first(), visible.last()) else {
            return;
        };
        if (first.entry..=last.entry).contains(&focus) {
            return;
        }
        let mut tops = visible.iter().filter(|s| s.row == 0).map(|s| s.entry);
        let to = if focus < first.entry {
            tops.next()
        } else {
            tops.next_back()
        };
        self.list.focus = to.unwrap_or(first.entry);
    }

    /// Focus list entry `entry` (clamped), leaving follow mode.
    pub fn set_focus(&mut self, entry: usize) {
        if self.list.entries.is_empty() {
            return;
        }
        self.list.follow = false;
        self.list.focus = entry.min(self.list.entries.len() - 1);
        self.reveal();
    }

    fn move_focus(&mut self, delta: isize) {
        if self.list.entries.is_empty() {
            return;
        }
        if self.list.follow {
            // Leaving follow mode starts from what is on screen.
            let (t, list, theme, opts, rows) = self.parts();
            list.anchor = list.tail_anchor(t, theme, &opts, rows);
        }
        let n = self.list.entries.len() as isize;
        let f = (self.list.focus as isize + delta).clamp(0, n - 1) as usize;
        self.set_focus(f);
    }

    /// Entry `entry` focused and at the top of the screen.
    pub fn show_at_top(&mut self, entry: usize) {
        self.list.follow = false;
        self.list.focus = entry.min(self.list.entries.len().saturating_sub(1));
        self.list.anchor = Anchor {
            entry: self.list.focus,
            row: 0,
        };
    }

    /// Take finished off-thread layouts into the list; true when any came.
    pub fn take_layouts(&mut self) -> bool {
        self.list.poll_layouts()
    }

    /// The pager (when open) scrolled to row `row`.
    pub fn scroll_pager_to(&mut self, row: usize) {
        if let Modal::Pager(p) = &mut self.modal {
            p.pager.scroll = row;
        }
    }

    /// Back to the end, following new entries.
    pub(super) fn follow_tail(&mut self) {
        self.list.follow = true;
        self.list.focus = self.list.entries.len().saturating_sub(1);
        self.unseen = 0;
    }

    fn toggle_card(&mut self) {
        let Some(item) = self.focused_item() else {
            return;
        };
        let cur = self.list.density_of(item, self.density);
        let next = if cur == Density::Full {
            Density::Preview
        } else {
            Density::Full
        };
        self.list.overrides.insert(item, next);
        self.reveal();
    }

    fn jump_to(&mut self, forward: bool, pred: impl Fn(&Transcript, &Item) -> bool) -> bool {
        let t = self.shown.transcript();
        let n = self.list.entries.len();
        let found = if forward {
            (self.list.focus + 1..n).find(|&e| pred(t, &t.items()[self.list.entries[e]]))
        } else {
            (0..self.list.focus)
                .rev()
                .find(|&e| pred(t, &t.items()[self.list.entries[e]]))
        };
        match found {
            Some(e) => {
                self.set_focus(e);
                self.list.anchor = Anchor { entry: e, row: 0 };
                true
            }
            None => false,
        }
    }

    fn copy(&mut self, what: Copied) -> Vec<Effect> {
        let Some(item) = self.focused_item() else {
            return Vec::new();
        };
        let t = self.transcript();
        let Some(it) = t.items().get(item) else {
            return Vec::new();
        };
        let card = match it {
            Item::Tool(i) => t.cards().get(*i),
            _ => None,
        };
        let text = match what {
            Copied::Shown => Some(item_text(t, it)),
            Copied::Target => card.and_then(|c| crate::cards::plain::target(c)),
            Copied::Raw => card.and_then(|c| crate::cards::plain::raw_output(c)),
        };
        match text {
            Some(s) if !s.is_empty() => {
                self.message = Some(format!("copied {} bytes", s.len()));
                vec![Effect::Copy(s)]
            }
            _ => {
                self.message = Some("nothing to copy".into());
                Vec::new()
            }
        }
    }

    /// What the app does for its parts: copy, themes, a new session.
    pub(super) fn app_action(&mut self, a: Action) -> Vec<Effect> {
        match a {
            Action::Copy => self.copy(Copied::Shown),
            Action::CopyTarget => self.copy(Copied::Target),
            Action::CopyRaw => self.copy(Copied::Raw),
            Action::CycleTheme => {
                self.looks.next();
                let note = self.background_note();
                self.message = Some(note.unwrap_or_else(|| format!("theme {}", self.theme().name)));
                Vec::new()
            }
            Action::NewSession => self.create_session(),
            _ => Vec::new(),
        }
    }

    /// Perform a transcript action.
    pub fn act(&mut self, a: Action) -> Vec<Effect> {
        let rows = self.list_rows() as isize;
        match a {
            Action::Quit => return vec![Effect::Quit],
            Action::Back => self.found.clear(),
            Action::Next => self.move_focus(1),
            Action::Prev => self.move_focus(-1),
            Action::HalfPageDown => self.scroll(rows / 2),
            Action::HalfPageUp => self.scroll(-rows / 2),
            Action::PageDown => self.scroll(rows),
            Action::PageUp => self.scroll(-rows),
            Action::Top => {
                self.list.follow = false;
                self.list.focus = 0;
                self.list.anchor = Anchor::default();
            }
            Action::Bottom => self.follow_tail(),
            Action::ToggleCard => self.toggle_card(),
            Action::CycleDensity => {
                self.density = match self.density {
                    Density::Line => Density::Preview,
                    Density::Preview => Density::Full,
                    Density::Full => Density::Line,
                };
                self.list.overrides.clear();
                self.message = Some(format!("all cards: {:?}", self.density).to_lowercase());
                self.reveal();
            }
            Action::ToggleTools => {
                self.hide_tools = !self.hide_tools;
                self.sync();
                self.refresh_matches();
                self.message = Some(if self.hide_tools {
                    "tool cards hidden".into()
                } else {
                    "tool cards shown".into()
                });
            }
            Action::ToggleReasoning => {
                self.show_reasoning = !self.show_reasoning;
                self.sync();
                self.refresh_matches();
                self.message = Some(if self.show_reasoning {
                    "reasoning shown".into()
                } else {
                    "reasoning hidden".into()
                });
            }
            Action::ToggleRedaction => self.toggle_redaction(),
            Action::OpenPager => {
                if let Some(item) = self.focused_item() {
                    let mut part = Box::new(PagerPart::new(item));
                    part.build(&self.pager_cx());
                    self.modal = Modal::Pager(part);
                }
            }
            Action::StartSearch => self.modal = Modal::Search(Prompt::default()),
            Action::NextMatch | Action::PrevMatch => {
                let (found, mut cx) = self.finding();
                found.go(a == Action::NextMatch, &mut cx);
            }
            Action::NextError | Action::PrevError => {
                let forward = a == Action::NextError;
                let bad = |t: &Transcript, it: &Item| matches!(it, Item::Tool(i) if t.cards()[*i].status.is_bad());
                if !self.jump_to(forward, bad) {
                    self.message = Some("no more failed cards".into());
                }
            }
            Action::NextTurn | Action::PrevTurn => {
                let forward = a == Action::NextTurn;
                let turn =
                    |_: &Transcript, it: &Item| matches!(it, Item::Turn(m) if m.end.is_none());
                if !self.jump_to(forward, turn) {
                    self.message = Some("no more turns".into());
                }
            }
            Action::Copy | Action::CopyTarget | Action::CopyRaw | Action::CycleTheme => {
                return self.app_action(a);
            }
            Action::Help => self.modal = Modal::help(Help::new(), Modal::None),
            Action::Sessions => {
                // Connected, an empty list still offers `n` (a new session).
                if self.sessions.is_empty() && self.drive.is_none() {
                    self.message = Some(if self.shown.wall_clock {
                        "no session list: S switches sessions in `deck connect`".into()
                    } else {
                        "one session here: S switches between the sessions of a file of several"
                            .into()
                    });
                } else {
                    self.open_picker();
                }
            }
            Action::PlayPause
            | Action::Faster
            | Action::Slower
            | Action::SeekBack
            | Action::SeekForward
            | Action::SeekBackFar
            | Action::SeekForwardFar
            | Action::Jump(_)
            | Action::StepForward
            | Action::StepBack => self.player_action(a),
            _ => {}
        }
        Vec::new()
    }

    /// Matches are list positions: find them again after the list was
    /// rebuilt by a filter (tool cards or reasoning hidden or shown).
    pub(super) fn refresh_matches(&mut self) {
        let (found, mut cx) = self.finding();
        found.refresh(&mut cx);
    }

    /// `R`: show the session redacted, or as it came.
    pub(super) fn toggle_redaction(&mut self) {
        if self.shown.player.is_none() && self.redact_by_reading_again() {
            return;
        }
        if self.shown.player.as_ref().is_some_and(super::player::Player::is_growing)
            || self.ahead.is_some()
            || self.loading.is_some()
        {
            // Its records are still coming: a redacted copy would be cut.
            self.message = Some("R: the file is still being read, press it again when it is".into());
            return;
        }
        let on = match self.redaction.toggle(&mut self.shown.own, &mut self.shown.player) {
            Ok(on) => on,
            Err(why) => {
                self.message = Some(why);
                return;
            }
        };
        self.resync_after_seek();
        self.refresh_matches();
        self.message = Some(if on {
            "redacted: secrets and the home folder hidden (R shows them)".into()
        } else {
            "redaction off: the session as it came".into()
        });
    }

    fn player_action(&mut self, a: Action) {
        if matches!(a, Action::StepForward | Action::StepBack) && self.shown.player.is_some() {
            self.step(a == Action::StepForward);
            return;
        }
        let Some(p) = self.shown.player.as_mut() else {
            self.message = Some("not a replay: player keys need `deck replay`".into());
            return;
        };
        let before = p.position();
        let dur = p.duration_ms() as i64;
        match a {
            Action::PlayPause => p.toggle(),
            Action::Faster => p.faster(),
            Action::Slower => p.slower(),
            Action::SeekForward => p.seek_by_ms(5_000),
            Action::SeekBack => p.seek_by_ms(-5_000),
            Action::SeekForwardFar => p.seek_by_ms(dur / 10),
            Action::SeekBackFar => p.seek_by_ms(-dur / 10),
            Action::Jump(d) => p.seek_fraction(f64::from(d) / 10.0),
            _ => {}
        }
        let after = p.position();
        let speed = p.speed();
        if matches!(a, Action::Faster | Action::Slower) {
            self.message = Some(format!("speed {}", status::speed(speed)));
        }
        // Stepping forward plays one event: what it brings is counted.
        let seek = !matches!(
            a,
            Action::PlayPause | Action::Faster | Action::Slower | Action::StepForward
        );
        self.after_player_moved(before, after, seek);
    }

    /// Bring the list in line with a player that moved from `before` to
    /// `after` records. A seek is the user's own move: what it brings in is
    /// not "new" (the `↓ N new` badge starts again from nothing).
    fn after_player_moved(&mut self, before: usize, after: usize, seek: bool) {
        if after < before {
            self.resync_after_seek();
        } else if after > before {
            self.sync();
        }
        if seek {
            self.unseen = 0;
        }
    }

    /// `.` / `,`: step the player (paused) until the screen changes: the
    /// player goes past records the transcript does not show, and this
    /// past those that change nothing on screen (an empty block opening,
    /// a card below the view …), so every press shows something new, or
    /// reaches an end.
    fn step(&mut self, forward: bool) {
        let before = self.look();
        loop {
            let Some(p) = self.shown.player.as_mut() else {
                return;
            };
            let from = p.position();
            if forward {
                p.step_forward();
            } else {
                p.step_back();
            }
            let to = p.position();
            if to == from {
                return;
            }
            self.after_player_moved(from, to, !forward);
            if self.look() != before {
                return;
            }
        }
    }

    /// What a step must change: the transcript's rows on screen and the
    /// status bar (but the player's position, which every record moves).
    fn look(&mut self) -> (Vec<crate::text::Line>, String) {
        self.prepare(ratatui::layout::Rect::new(0, 0, self.width, self.height));
        let mut rows: Vec<crate::text::Line> = self
            .screen
            .iter()
            .map(|s| s.line().cloned().unwrap_or_default())
            .collect();
        // Blank rows at the end look like no rows.
        while rows.last().is_some_and(|l| l.text().trim().is_empty()) {
            rows.pop();
        }
        let mut status = self.status();
        status.position = None;
        (rows, format!("{status:?}"))
    }

    /// A click on the player's timeline: seek to that point of it.
    pub(super) fn timeline_click(&mut self, m: MouseEvent) -> Vec<Effect> {
        if m.kind != MouseEventKind::Down(MouseButton::Left) {
            return Vec::new();
        }
        let width = usize::from(self.width);
        let Some(p) = self.shown.player.as_mut() else {
            return Vec::new();
        };
        let Some(f) = status::timeline_fraction(
            usize::from(m.column),
            p.clock_ms(),
            p.duration_ms(),
            p.speed(),
            width,
        ) else {
            return Vec::new();
        };
        let before = p.position();
        p.seek_fraction(f);
        let after = p.position();
        self.after_player_moved(before, after, true);
        vec![Effect::Redraw]
    }

    /// A click on the transcript: focus the entry under it, or toggle it
    /// when it has the focus already.
    pub(super) fn transcript_click(&mut self, m: MouseEvent) -> Vec<Effect> {
        if m.kind != MouseEventKind::Down(MouseButton::Left) {
            return Vec::new();
        }
        let Some(entry) = self.screen.get(m.row as usize).map(|s| s.entry) else {
            return Vec::new();
        };
        if entry == self.list.focus && !self.list.follow {
            self.toggle_card();
        } else {
            self.list.follow = false;
            self.list.focus = entry;
        }
        vec![Effect::Redraw]
    }
}
