//! The app state and its one way to change: [`App::update`] takes a message
//! (key, mouse, resize, clock tick, new records) and returns effects for the
//! driver to perform (quit, copy). No I/O here: tests drive it directly.

use std::sync::Arc;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};

use super::keymap;
use super::player::Player;
use crate::cards::Density;
use crate::session::Transcript;
use crate::theme::Theme;
use crate::view::list::{ListOptions, TranscriptList};
use crate::view::pager::Pager;
use crate::view::search::Match;
use crate::view::status::{self, StatusInfo};
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
    /// The host's sessions (for the `S` picker).
    Sessions(Vec<crate::source::sessions::SessionSummary>),
    /// One session new, changed or gone.
    Session(crate::source::sessions::SessionChange),
    /// What came of an action on the host, for the status line.
    Notice(String),
    /// Text pasted into the terminal (bracketed paste).
    Paste(String),
}

/// What the driver must do.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    Quit,
    /// Put text on the clipboard (OSC 52).
    Copy(String),
    /// Something visible changed.
    Redraw,
    /// Show another session of the live host.
    Switch(String),
    /// Ask the live host to act (answer an approval …).
    Host(crate::source::host::Control),
}

/// Full-screen overlays.
pub enum Overlay {
    None,
    Help,
    Pager(Box<Pager>),
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
    pub(super) own: Transcript,
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
    /// Search on a thread of its own (the interactive app: keys are
    /// answered while a long search runs); off, a search is done at once.
    pub background_search: bool,
    /// The search running, its matches coming into `matches`, and whether
    /// to go to the first one (a new query) or not (found again after a
    /// filter changed).
    pub(super) search: Option<(crate::view::search::Search, bool)>,
    pub current_match: Option<usize>,
    pub message: Option<String>,
    /// Entries that arrived while the user was scrolled up.
    pub unseen: usize,
    pub tick: usize,
    pub now_ms: Option<i64>,
    /// Rows of the transcript drawn last, for mouse hits: entry per row.
    pub row_map: Vec<Option<usize>>,
    tick_acc: f64,
    /// Live sessions run on the wall clock; replays and views on the session's own.
    wall_clock: bool,
    /// `deck connect`: the composer, and answers to what the host asks.
    pub drive: Option<super::drive::Driving>,
    /// The pager the help overlay was opened from, to go back to.
    pub(super) pager_under_help: Option<Box<Pager>>,
    /// First help line shown (the help scrolls on small screens).
    pub help_scroll: usize,
    /// The live host's sessions, newest activity first (the picker's rows;
    /// sorted again from `book` when it changed, at most once a tick).
    pub sessions: Vec<crate::source::sessions::SessionSummary>,
    /// Every session the source reported, indexed by id.
    pub(super) book: crate::source::sessions::SessionBook,
    /// `book` changed since `sessions` was sorted.
    pub(super) sessions_stale: bool,
    /// The session picker is open on this row.
    pub picker: Option<usize>,
    /// Open the picker when the first session list arrives (`deck connect`
    /// without `--session` or `--latest`).
    pub pick_on_start: bool,
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
            background_search: false,
            search: None,
            current_match: None,
            message: None,
            unseen: 0,
            tick: 0,
            now_ms: None,
            row_map: Vec::new(),
            tick_acc: 0.0,
            wall_clock: false,
            drive: None,
            pager_under_help: None,
            help_scroll: 0,
            sessions: Vec::new(),
            book: Default::default(),
            sessions_stale: false,
            picker: None,
            pick_on_start: false,
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
        app.wall_clock = true;
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
        let bottom = 1
            + usize::from(self.player.is_some())
            + usize::from(self.prompt.is_some())
            + self.composer_lines().map_or(0, |l| l.len());
        (self.height as usize).saturating_sub(bottom).max(1)
    }

    pub fn list_options(&self) -> ListOptions {
        ListOptions {
            width: self.width as usize,
            density: self.density,
            show_reasoning: self.show_reasoning,
            hide_tools: self.hide_tools,
            now_ms: self.display_now_ms(),
            tick: self.tick,
        }
    }

    /// "Now" for running cards' elapsed times: the wall clock for a live
    /// session; a replay's own clock; the last event of a saved session (its
    /// running cards were left running then, not for as long as the file is old).
    pub fn display_now_ms(&self) -> Option<i64> {
        if self.wall_clock {
            return self.now_ms;
        }
        match &self.player {
            Some(p) => p.session_time_ms(),
            None => self.own.last_time,
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
    pub(super) fn keep_focus_on_screen(&mut self) {
        let focus = self.list.focus;
        let (t, list, theme, opts, rows) = self.parts();
        let visible = list.visible(t, theme, &opts, rows);
        let (Some(first), Some(last)) = (visible.first(), visible.last()) else {
            return;
        };
        if (first.0..=last.0).contains(&focus) {
            return;
        }
        let mut tops = visible.iter().filter(|(_, r, _)| *r == 0).map(|v| v.0);
        let to = if focus < first.0 {
            tops.next()
        } else {
            tops.next_back()
        };
        self.list.focus = to.unwrap_or(first.0);
    }

    /// The focused item index.
    pub fn focused_item(&self) -> Option<usize> {
        self.list.entries.get(self.list.focus).copied()
    }

    pub(super) fn set_focus(&mut self, entry: usize) {
        if self.list.entries.is_empty() {
            return;
        }
        self.list.follow = false;
        self.list.focus = entry.min(self.list.entries.len() - 1);
        self.reveal();
    }

    pub(super) fn move_focus(&mut self, delta: isize) {
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
            .or_else(|| self.drive_hint())
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
            activity: status::activity(t.queued, t.steering, t.jobs),
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
                self.track_prompts();
                vec![Effect::Redraw]
            }
            Msg::Paste(text) => {
                self.message = None;
                self.paste(&text)
            }
            Msg::Link(text) => {
                self.link = Some(text);
                vec![Effect::Redraw]
            }
            Msg::Notice(text) => {
                self.message = Some(crate::text::sanitize::inline(&text));
                vec![Effect::Redraw]
            }
            Msg::Reset { session_id } => {
                // "switching to …" and any other message were about the old one.
                self.message = None;
                self.own = Transcript::new(session_id);
                self.drive_reset();
                self.list.reset();
                self.unseen = 0;
                self.sync();
                vec![Effect::Redraw]
            }
            Msg::Sessions(list) => {
                self.book.replace(list);
                self.sort_sessions();
                if std::mem::take(&mut self.pick_on_start) && self.sessions.len() > 1 {
                    self.open_picker();
                }
                vec![Effect::Redraw]
            }
            Msg::Session(change) => {
                // O(1) here; the picker's rows are sorted again on the next
                // tick (when it is open) or when it opens.
                self.book.apply(change);
                self.sessions_stale = true;
                if self.picker.is_some() {
                    vec![Effect::Redraw]
                } else {
                    Vec::new()
                }
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
        self.now_ms = Some(now_ms);
        self.drive_tick(real_ms);
        let mut changed = false;
        if self.sessions_stale && self.picker.is_some() {
            self.sort_sessions();
            changed = true;
        }
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
        if self.search.is_some() {
            self.poll_search();
            changed = true;
        }
        if let Overlay::Pager(p) = &mut self.overlay
            && p.poll()
        {
            changed = true;
        }
        // Spinners and elapsed times of running cards animate at ~10 fps.
        self.tick_acc += real_ms;
        let running = self.transcript().running_cards() > 0;
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
            self.build_pager();
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
        if self.picker.is_some() {
            return self.on_picker_key(k);
        }
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
                // j/k and the page keys scroll a help taller than the screen;
                // any other key closes it.
                let page = (self.height as usize).saturating_sub(4).max(1);
                match k.code {
                    KeyCode::Char('j') | KeyCode::Down => self.help_scroll += 1,
                    KeyCode::Char('k') | KeyCode::Up => {
                        self.help_scroll = self.help_scroll.saturating_sub(1)
                    }
                    KeyCode::Char(' ') | KeyCode::PageDown => self.help_scroll += page,
                    KeyCode::PageUp => self.help_scroll = self.help_scroll.saturating_sub(page),
                    _ => {
                        self.help_scroll = 0;
                        self.overlay = self
                            .pager_under_help
                            .take()
                            .map_or(Overlay::None, Overlay::Pager);
                    }
                }
                let total = super::help::lines(self.theme()).len();
                self.help_scroll = self.help_scroll.min(total);
                Vec::new()
            }
            Overlay::Pager(_) => match keymap::pager_key(k) {
                Some(a) => self.pager_action(a),
                None => Vec::new(),
            },
            Overlay::None => {
                if let Some(fx) = self.drive_key(k) {
                    return fx;
                }
                match keymap::transcript_key(k) {
                    Some(a) => self.act(a),
                    None => Vec::new(),
                }
            }
        }
    }

    /// Snapshot of records for tests and the driver: shared, immutable.
    pub fn shared_records(records: Vec<Record>) -> Arc<Vec<Record>> {
        Arc::new(records)
    }
}
