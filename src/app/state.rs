//! The app state and its one way to change: [`App::update`] takes a message
//! (key, mouse, resize, clock tick, new records) and returns effects for the
//! driver to perform (quit, copy). No I/O here: tests drive it directly.

use std::sync::Arc;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};

use super::keymap::{self, Action};
use super::player::Player;
use crate::cards::Density;
use crate::session::{Item, Transcript};
use crate::theme::Theme;
use crate::view::list::{Anchor, ListOptions, TranscriptList};
use crate::view::pager::Pager;
use crate::view::search::{self, Match};
use crate::view::status::{self, StatusInfo};
use crate::view::transcript::item_text;
use crate::wire::Record;

/// Messages the driver feeds in.
#[derive(Debug, Clone)]
pub enum Msg {
    Key(KeyEvent),
    Mouse(MouseEvent),
    Resize(u16, u16),
    /// Wall time passed (`real_ms`) and the current epoch time.
    Tick {
        real_ms: f64,
        now_ms: i64,
    },
    /// Records that arrived from a live source.
    Records(Vec<Record>),
    /// The live link's state, for the status bar (`● live`, `disconnected …`).
    Link(String),
    /// The live source switched session (or restarted): a new transcript.
    Reset {
        session_id: Option<String>,
    },
}

/// What the driver must do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    Quit,
    /// Put text on the clipboard (OSC 52).
    Copy(String),
    /// Something visible changed.
    Redraw,
}

/// Full-screen overlays.
pub enum Overlay {
    None,
    Help,
    Pager(Pager),
}

/// Where the prompt's input goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PromptFor {
    Search,
    PagerSearch,
}

pub struct App {
    /// Shown first in the status bar: the file, `demo`, or the live source.
    pub label: String,
    own: Transcript,
    pub player: Option<Player>,
    pub list: TranscriptList,
    pub density: Density,
    pub show_reasoning: bool,
    pub hide_tools: bool,
    pub themes: Vec<Theme>,
    pub theme_idx: usize,
    pub width: u16,
    pub height: u16,
    pub overlay: Overlay,
    pub prompt: Option<(PromptFor, String)>,
    pub query: String,
    pub matches: Vec<Match>,
    pub current_match: Option<usize>,
    pub message: Option<String>,
    /// Entries that arrived while the user was scrolled up.
    pub unseen: usize,
    pub tick: usize,
    pub now_ms: Option<i64>,
    /// Rows of the transcript drawn last, for mouse hits: entry per row.
    pub row_map: Vec<Option<usize>>,
    tick_acc: f64,
    /// Fed by a live source: pending cards count against the wall clock.
    live: bool,
    /// The live link's state (shown where a replay shows its position).
    pub link: Option<String>,
}

impl App {
    fn with(label: String, own: Transcript, player: Option<Player>, themes: Vec<Theme>) -> App {
        App {
            label,
            own,
            player,
            list: TranscriptList::new(),
            density: Density::Preview,
            show_reasoning: true,
            hide_tools: false,
            themes: if themes.is_empty() {
                vec![Theme::dark()]
            } else {
                themes
            },
            theme_idx: 0,
            width: 80,
            height: 24,
            overlay: Overlay::None,
            prompt: None,
            query: String::new(),
            matches: Vec::new(),
            current_match: None,
            message: None,
            unseen: 0,
            tick: 0,
            now_ms: None,
            row_map: Vec::new(),
            tick_acc: 0.0,
            live: false,
            link: None,
        }
    }

    /// A finished session, shown at once.
    pub fn viewer(label: String, transcript: Transcript, themes: Vec<Theme>) -> App {
        let mut app = App::with(label, transcript, None, themes);
        app.list.follow = false;
        app.sync();
        app.unseen = 0;
        app
    }

    /// A recorded session played back.
    pub fn replayer(label: String, player: Player, themes: Vec<Theme>) -> App {
        let mut app = App::with(label, Transcript::default(), Some(player), themes);
        app.sync();
        app
    }

    /// A live session fed by [`Msg::Records`].
    pub fn live(label: String, session_id: Option<String>, themes: Vec<Theme>) -> App {
        let mut app = App::with(label, Transcript::new(session_id), None, themes);
        app.live = true;
        app.sync();
        app
    }

    pub fn theme(&self) -> &Theme {
        &self.themes[self.theme_idx.min(self.themes.len() - 1)]
    }

    pub fn transcript(&self) -> &Transcript {
        self.player.as_ref().map_or(&self.own, Player::transcript)
    }

    /// Rows of the transcript area.
    pub fn list_rows(&self) -> usize {
        let bottom = 1 + usize::from(self.player.is_some()) + usize::from(self.prompt.is_some());
        (self.height as usize).saturating_sub(bottom).max(1)
    }

    pub fn list_options(&self) -> ListOptions {
        ListOptions {
            width: self.width as usize,
            density: self.density,
            show_reasoning: self.show_reasoning,
            hide_tools: self.hide_tools,
            now_ms: self.now_ms,
            tick: self.tick,
        }
    }

    /// Split borrow: the transcript, the list and the theme at once.
    pub(crate) fn parts(
        &mut self,
    ) -> (&Transcript, &mut TranscriptList, &Theme, ListOptions, usize) {
        let opts = self.list_options();
        let rows = self.list_rows();
        let t = self.player.as_ref().map_or(&self.own, Player::transcript);
        let theme = &self.themes[self.theme_idx.min(self.themes.len() - 1)];
        (t, &mut self.list, theme, opts, rows)
    }

    /// Bring the list in line with the transcript.
    fn sync(&mut self) {
        let before = self.list.entries.len();
        let (t, list, _, opts, _) = self.parts();
        list.sync(t, &opts);
        let after = self.list.entries.len();
        if !self.list.follow && after > before {
            self.unseen += after - before;
        }
    }

    /// After a player seek the transcript is a new fold: rebuild the list.
    fn resync_after_seek(&mut self) {
        let focus_item = self.list.entries.get(self.list.focus).copied();
        self.list.reset();
        self.sync();
        if let Some(item) = focus_item
            && !self.list.follow
        {
            let e = self.list.entries.partition_point(|&x| x < item);
            self.list.focus = e.min(self.list.entries.len().saturating_sub(1));
            self.reveal();
        }
    }

    fn reveal(&mut self) {
        let (t, list, theme, opts, rows) = self.parts();
        list.reveal_focus(t, theme, &opts, rows);
    }

    fn scroll(&mut self, delta: isize) {
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
    }

    /// The focused item index.
    pub fn focused_item(&self) -> Option<usize> {
        self.list.entries.get(self.list.focus).copied()
    }

    fn set_focus(&mut self, entry: usize) {
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

    /// Status bar contents.
    pub fn status(&self) -> StatusInfo {
        let t = self.transcript();
        let position = self.player.as_ref().map(|p| {
            let (done, all) = p.events();
            format!(
                "event {}/{} · {}/{} · {}",
                done,
                all,
                status::clock(p.clock_ms()),
                status::clock(p.duration_ms()),
                status::speed(p.speed())
            )
        });
        let position = position.or_else(|| self.link.clone());
        let message = self
            .message
            .clone()
            .or_else(|| (self.unseen > 0).then(|| format!("↓ {} new", self.unseen)));
        StatusInfo {
            source: self.label.clone(),
            title: t.title.clone(),
            cards: t.cards.len(),
            errors: t.error_count(),
            diagnostics: t.diagnostics.len(),
            position,
            theme: self.theme().name.clone(),
            message,
        }
    }

    /// The one way to change the app.
    pub fn update(&mut self, msg: Msg) -> Vec<Effect> {
        match msg {
            Msg::Resize(w, h) => {
                self.width = w;
                self.height = h;
                vec![Effect::Redraw]
            }
            Msg::Tick { real_ms, now_ms } => self.on_tick(real_ms, now_ms),
            Msg::Records(records) => {
                for r in &records {
                    self.own.apply(r);
                }
                self.sync();
                vec![Effect::Redraw]
            }
            Msg::Link(text) => {
                self.link = Some(text);
                vec![Effect::Redraw]
            }
            Msg::Reset { session_id } => {
                self.own = Transcript::new(session_id);
                self.list.reset();
                self.unseen = 0;
                self.sync();
                vec![Effect::Redraw]
            }
            Msg::Mouse(m) => self.on_mouse(m),
            Msg::Key(k) => {
                self.message = None;
                let mut fx = self.on_key(k);
                fx.push(Effect::Redraw);
                fx
            }
        }
    }

    fn on_tick(&mut self, real_ms: f64, now_ms: i64) -> Vec<Effect> {
        // Replays measure running cards against the playhead; a finished
        // session viewed later shows no live elapsed time at all.
        self.now_ms = match (&self.player, self.live) {
            (Some(p), _) => p.now_original_ms(),
            (None, true) => Some(now_ms),
            (None, false) => None,
        };
        let mut changed = false;
        if let Some(p) = self.player.as_mut()
            && p.tick(real_ms)
        {
            changed = true;
        }
        if changed {
            self.sync();
        }
        if self.list.poll_layouts() {
            changed = true;
        }
        // Spinners and elapsed times of running cards animate at ~10 fps.
        self.tick_acc += real_ms;
        let running = self
            .transcript()
            .cards
            .iter()
            .any(|c| c.status == crate::session::Status::Pending);
        if running && self.tick_acc >= 100.0 {
            self.tick_acc = 0.0;
            self.tick = self.tick.wrapping_add(1);
            changed = true;
        }
        if changed {
            vec![Effect::Redraw]
        } else {
            Vec::new()
        }
    }

    fn on_mouse(&mut self, m: MouseEvent) -> Vec<Effect> {
        if !matches!(self.overlay, Overlay::None) {
            if let Overlay::Pager(p) = &mut self.overlay {
                let rows = (self.height as usize).saturating_sub(1);
                match m.kind {
                    MouseEventKind::ScrollDown => p.scroll_by(3, rows),
                    MouseEventKind::ScrollUp => p.scroll_by(-3, rows),
                    _ => return Vec::new(),
                }
                return vec![Effect::Redraw];
            }
            return Vec::new();
        }
        match m.kind {
            MouseEventKind::ScrollDown => self.scroll(3),
            MouseEventKind::ScrollUp => self.scroll(-3),
            MouseEventKind::Down(MouseButton::Left) => {
                let Some(Some(entry)) = self.row_map.get(m.row as usize).copied() else {
                    return Vec::new();
                };
                if entry == self.list.focus && !self.list.follow {
                    self.toggle_card();
                } else {
                    self.list.follow = false;
                    self.list.focus = entry;
                }
            }
            _ => return Vec::new(),
        }
        vec![Effect::Redraw]
    }

    fn on_key(&mut self, k: KeyEvent) -> Vec<Effect> {
        if let Some((target, mut text)) = self.prompt.take() {
            match k.code {
                KeyCode::Esc => {}
                KeyCode::Enter => self.run_search(target, &text),
                KeyCode::Backspace => {
                    text.pop();
                    self.prompt = Some((target, text));
                }
                KeyCode::Char('c') if k.modifiers.contains(KeyModifiers::CONTROL) => {}
                KeyCode::Char(c) => {
                    text.push(c);
                    self.prompt = Some((target, text));
                }
                _ => self.prompt = Some((target, text)),
            }
            return Vec::new();
        }
        match &self.overlay {
            Overlay::Help => {
                if k.code == KeyCode::Char('c') && k.modifiers.contains(KeyModifiers::CONTROL) {
                    return vec![Effect::Quit];
                }
                self.overlay = Overlay::None;
                Vec::new()
            }
            Overlay::Pager(_) => match keymap::pager_key(k) {
                Some(a) => self.pager_action(a),
                None => Vec::new(),
            },
            Overlay::None => match keymap::transcript_key(k) {
                Some(a) => self.act(a),
                None => Vec::new(),
            },
        }
    }

    fn run_search(&mut self, target: PromptFor, text: &str) {
        match target {
            PromptFor::PagerSearch => {
                let rows = (self.height as usize).saturating_sub(1);
                if let Overlay::Pager(p) = &mut self.overlay {
                    p.set_query(text);
                    if !p.next_match(true, rows) {
                        self.message = Some(format!("no match for {text:?}"));
                    }
                }
            }
            PromptFor::Search => {
                self.query = text.to_string();
                let (t, list, theme, opts, _) = self.parts();
                let matches = search::find(
                    t,
                    &list.entries,
                    theme,
                    opts.width,
                    opts.show_reasoning,
                    text,
                );
                self.matches = matches;
                self.current_match = None;
                if self.matches.is_empty() {
                    self.message = Some(format!("no match for {text:?}"));
                } else {
                    self.goto_match(true);
                }
            }
        }
    }

    fn goto_match(&mut self, forward: bool) {
        if self.matches.is_empty() {
            self.message = Some(if self.query.is_empty() {
                "no search".into()
            } else {
                format!("no match for {:?}", self.query)
            });
            return;
        }
        let n = self.matches.len();
        let here = Match {
            entry: self.list.focus,
            row: 0,
        };
        let i = match (self.current_match, forward) {
            (Some(c), true) => (c + 1) % n,
            (Some(c), false) => (c + n - 1) % n,
            (None, true) => self
                .matches
                .iter()
                .position(|m| (m.entry, m.row) >= (here.entry, here.row))
                .unwrap_or(0),
            (None, false) => self
                .matches
                .iter()
                .rposition(|m| m.entry < here.entry)
                .unwrap_or(n - 1),
        };
        self.current_match = Some(i);
        let m = self.matches[i];
        if let Some(&item) = self.list.entries.get(m.entry) {
            // The match may be in a collapsed part: show the card in full.
            self.list.overrides.insert(item, Density::Full);
        }
        self.list.follow = false;
        self.list.focus = m.entry;
        let rows = self.list_rows();
        self.list.anchor = Anchor {
            entry: m.entry,
            row: m.row.saturating_sub(rows / 3),
        };
        self.message = Some(format!("match {}/{} for {:?}", i + 1, n, self.query));
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
        let t = self.transcript();
        let n = self.list.entries.len();
        let found = if forward {
            (self.list.focus + 1..n).find(|&e| pred(t, &t.items[self.list.entries[e]]))
        } else {
            (0..self.list.focus)
                .rev()
                .find(|&e| pred(t, &t.items[self.list.entries[e]]))
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

    fn copy(&mut self, target: bool) -> Vec<Effect> {
        let Some(item) = self.focused_item() else {
            return Vec::new();
        };
        let t = self.transcript();
        let Some(it) = t.items.get(item) else {
            return Vec::new();
        };
        let text = if target {
            match it {
                Item::Tool(i) => t.cards.get(*i).and_then(crate::cards::export::target),
                _ => None,
            }
        } else {
            Some(item_text(t, it))
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

    /// Perform a transcript action.
    pub fn act(&mut self, a: Action) -> Vec<Effect> {
        let rows = self.list_rows() as isize;
        match a {
            Action::Quit => return vec![Effect::Quit],
            Action::Back => {
                self.matches.clear();
                self.query.clear();
            }
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
            Action::Bottom => {
                self.list.follow = true;
                self.list.focus = self.list.entries.len().saturating_sub(1);
                self.unseen = 0;
            }
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
                self.message = Some(if self.hide_tools {
                    "tool cards hidden".into()
                } else {
                    "tool cards shown".into()
                });
            }
            Action::ToggleReasoning => {
                self.show_reasoning = !self.show_reasoning;
                self.sync();
                self.message = Some(if self.show_reasoning {
                    "reasoning shown".into()
                } else {
                    "reasoning hidden".into()
                });
            }
            Action::OpenPager => {
                if let Some(item) = self.focused_item() {
                    self.overlay = Overlay::Pager(Pager::new(item));
                }
            }
            Action::StartSearch => self.prompt = Some((PromptFor::Search, String::new())),
            Action::NextMatch => self.goto_match(true),
            Action::PrevMatch => self.goto_match(false),
            Action::NextError | Action::PrevError => {
                let forward = a == Action::NextError;
                let bad = |t: &Transcript, it: &Item| matches!(it, Item::Tool(i) if t.cards[*i].status.is_bad());
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
            Action::Copy => return self.copy(false),
            Action::CopyTarget => return self.copy(true),
            Action::CycleTheme => {
                self.theme_idx = (self.theme_idx + 1) % self.themes.len();
                self.message = Some(format!("theme {}", self.theme().name));
            }
            Action::Help => self.overlay = Overlay::Help,
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
            Action::ToggleWrap | Action::ScrollLeft | Action::ScrollRight => {}
        }
        Vec::new()
    }

    fn player_action(&mut self, a: Action) {
        let Some(p) = self.player.as_mut() else {
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
            Action::StepForward => p.step_forward(),
            Action::StepBack => p.step_back(),
            _ => {}
        }
        let after = p.position();
        let speed = p.speed();
        if matches!(a, Action::Faster | Action::Slower) {
            self.message = Some(format!("speed {}", status::speed(speed)));
        }
        if after < before {
            self.resync_after_seek();
        } else if after > before {
            self.sync();
        }
    }

    fn pager_action(&mut self, a: Action) -> Vec<Effect> {
        let rows = (self.height as usize).saturating_sub(1);
        let r = rows as isize;
        let Overlay::Pager(p) = &mut self.overlay else {
            return Vec::new();
        };
        match a {
            Action::Quit => return vec![Effect::Quit],
            Action::Back => self.overlay = Overlay::None,
            Action::Next => p.scroll_by(1, rows),
            Action::Prev => p.scroll_by(-1, rows),
            Action::HalfPageDown => p.scroll_by(r / 2, rows),
            Action::HalfPageUp => p.scroll_by(-r / 2, rows),
            Action::PageDown => p.scroll_by(r, rows),
            Action::PageUp => p.scroll_by(-r, rows),
            Action::Top => p.scroll = 0,
            Action::Bottom => p.scroll_by(isize::MAX / 2, rows),
            Action::ToggleWrap => {
                p.toggle_wrap();
                self.message = Some(if p.wrap {
                    "wrap on".into()
                } else {
                    "wrap off: h/l scroll sideways".into()
                });
            }
            Action::ScrollLeft => p.scroll_sideways(-8),
            Action::ScrollRight => p.scroll_sideways(8),
            Action::StartSearch => self.prompt = Some((PromptFor::PagerSearch, String::new())),
            Action::NextMatch | Action::PrevMatch
                if !p.next_match(a == Action::NextMatch, rows) =>
            {
                self.message = Some("no match".into());
            }
            Action::Copy | Action::CopyTarget => return self.copy(a == Action::CopyTarget),
            Action::CycleTheme => {
                self.theme_idx = (self.theme_idx + 1) % self.themes.len();
                self.message = Some(format!("theme {}", self.theme().name));
            }
            Action::Help => self.overlay = Overlay::Help,
            _ => {}
        }
        Vec::new()
    }

    /// Snapshot of records for tests and the driver: shared, immutable.
    pub fn shared_records(records: Vec<Record>) -> Arc<Vec<Record>> {
        Arc::new(records)
    }
}
