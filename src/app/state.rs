//! The app state and its one way to change: [`App::update`] takes a message
//! (key, mouse, resize, clock tick, new records) and returns effects for the
//! driver to perform (quit, copy, host work). No I/O here: tests drive it
//! directly. What has the keys is one [`Modal`]; a key goes to it, or with
//! none open to `deck connect`'s keys and then the transcript's
//! (`update.rs` routes it; `transcript.rs`, `connect.rs`). Each part owns
//! its state; this file holds them together and answers what the app
//! shows.

use super::answer::AnswerCx;
use super::composing::DriveCx;
use super::drive::{ComposerState, Driving};
use super::file_sessions::FileSessions;
use super::finding::FindCx;
use super::library::LibraryPart;
use super::link::Link;
use super::looks::Looks;
use super::modal::Modal;
use super::pager::PagerCx;
use super::picker::Sessions;
use super::player::Player;
use super::redaction::Redaction;
use super::search::Found;
use crate::cards::Density;
use crate::session::Transcript;
use crate::text::Line;
use crate::theme::Theme;
use crate::view::list::{ListOptions, TranscriptList};
use crate::view::status::{self, StatusInfo};

/// The session shown: a replay's player owns its transcript; a viewer or a
/// live source has its own.
pub(super) struct Shown {
    pub(super) own: Transcript,
    pub(super) player: Option<Player>,
    /// Live sessions run on the wall clock; replays and views on the
    /// session's own.
    pub(super) wall_clock: bool,
    pub(super) now_ms: Option<i64>,
    /// The wall-clock time the session's event times count from (0: they
    /// are epoch times; `deck acp`'s count from the agent's start).
    pub(super) clock_origin_ms: i64,
}

impl Shown {
    pub(super) fn transcript(&self) -> &Transcript {
        self.player.as_ref().map_or(&self.own, Player::transcript)
    }

    /// "Now" for running cards' elapsed times: the wall clock for a live
    /// session; a replay's own clock; the last event of a saved session
    /// (its running cards were left running then, not for as long as the
    /// file is old).
    fn display_now_ms(&self) -> Option<i64> {
        if self.wall_clock {
            return self.now_ms.map(|n| n - self.clock_origin_ms);
        }
        match &self.player {
            Some(p) => p.session_time_ms(),
            None => self.own.last_time(),
        }
    }
}

/// One row of the transcript as last laid out for the screen.
pub type ScreenRow = crate::view::list::Shown;

pub struct App {
    /// Shown first in the status bar: the file, `demo`, or the live source.
    pub(super) label: String,
    pub(super) shown: Shown,
    pub(super) list: TranscriptList,
    pub(super) density: Density,
    pub(super) show_reasoning: bool,
    pub(super) hide_tools: bool,
    pub(super) looks: Looks,
    pub(super) width: u16,
    pub(super) height: u16,
    /// What has the keys.
    pub(super) modal: Modal,
    pub(super) found: Found,
    /// The status line's message (cleared by the next key).
    pub(super) message: Option<String>,
    /// Entries that arrived while the user was scrolled up.
    pub(super) unseen: usize,
    /// Spinner frame of running cards, and wall time since it last moved.
    pub(super) tick: usize,
    pub(super) tick_acc: f64,
    /// The transcript's rows as last laid out (see `draw.rs`): what is
    /// drawn, and what a click lands on.
    pub(super) screen: Vec<ScreenRow>,
    /// The screen row of the player's timeline, as last laid out.
    pub(super) timeline_row: Option<u16>,
    /// Screens recorded for a cast, not shown to a user.
    pub(super) recording: bool,
    /// `deck connect`: the composer, and answers to what the host asks.
    pub(super) drive: Option<Driving>,
    pub(super) sessions: Sessions,
    /// The sessions of a file holding several (`deck view`, `deck replay`).
    pub(super) file: Option<FileSessions>,
    /// The live link's state (shown where a replay shows its position;
    /// `deck connect` also says what it means, see `link.rs`).
    pub(super) link: Link,
    /// `deck sessions`, a session opened from the library shown: the
    /// library, to go back to (while the list is shown it is the
    /// [`Modal::Library`]'s).
    pub(super) behind: Option<Box<LibraryPart>>,
    /// `R`: shown redacted, and the records to fold again.
    pub(super) redaction: Redaction,
    /// The file shown is still being read (`opening.rs`): how far.
    pub(super) loading: Option<super::loading::Loading>,
    /// A followed file's end shown while its whole is read (`ahead.rs`).
    pub(super) ahead: Option<super::loading::Ahead>,
}

impl App {
    fn with(label: String, own: Transcript, player: Option<Player>, themes: Vec<Theme>) -> App {
        App {
            label,
            shown: Shown {
                own,
                player,
                wall_clock: false,
                clock_origin_ms: 0,
                now_ms: None,
            },
            list: TranscriptList::new(),
            density: Density::Preview,
            show_reasoning: true,
            hide_tools: false,
            looks: Looks::new(themes),
            width: 80,
            height: 24,
            modal: Modal::None,
            found: Found::default(),
            message: None,
            unseen: 0,
            tick: 0,
            tick_acc: 0.0,
            screen: Vec::new(),
            timeline_row: None,
            recording: false,
            drive: None,
            sessions: Sessions::default(),
            file: None,
            link: Link::default(),
            behind: None,
            redaction: Redaction::default(),
            loading: None,
            ahead: None,
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
        let mut app = App::with(
            label,
            Transcript::new(None, crate::agents::stock()),
            Some(player),
            themes,
        );
        app.sync();
        app
    }

    /// A live session fed by [`Msg::Records`](super::Msg::Records).
    pub fn live(label: String, session_id: Option<String>, themes: Vec<Theme>) -> App {
        let mut app = App::with(
            label,
            Transcript::new(session_id, crate::agents::stock()),
            None,
            themes,
        );
        app.shown.wall_clock = true;
        // Folded from what the source sends: kept for `R`.
        app.redaction.forget_kept();
        app.sync();
        app
    }

    // Settings, before the app runs.

    /// The live session's event times count from the wall-clock time
    /// `epoch_ms` (an ACP trace's: milliseconds since the agent started),
    /// so running cards are timed from there.
    pub fn set_clock_origin(&mut self, epoch_ms: i64) {
        self.shown.clock_origin_ms = epoch_ms;
    }

    /// The themes `t` cycles through, and the one to start with.
    pub fn set_themes(&mut self, themes: Vec<Theme>, idx: usize) {
        if !themes.is_empty() {
            self.looks.themes = themes;
        }
        self.looks.idx = idx.min(self.looks.themes.len() - 1);
    }

    pub fn set_density(&mut self, density: Density) {
        self.density = density;
    }

    /// Turn on driving (`deck connect`): the composer, with the history of
    /// messages sent before, oldest first. The transcript keeps the keys
    /// until `i` (or Tab) gives them to the composer.
    pub fn enable_driving(&mut self, history: Vec<String>) {
        self.drive = Some(Driving::new(history));
    }

    /// Give the keys to the message field (`deck connect --new`).
    pub fn start_typing(&mut self) {
        self.set_typing(true);
    }

    /// Open the session picker when the first session list arrives.
    pub fn pick_on_start(&mut self) {
        self.sessions.pick_on_start = true;
    }

    /// Search on a thread of its own (keys answered meanwhile).
    pub fn search_in_background(&mut self) {
        self.found.background = true;
    }

    /// First layouts of cards plain (colours follow from the layout
    /// thread), and heavy cards laid out there: the interactive app.
    pub fn lay_out_progressively(&mut self) {
        self.list.progressive = true;
    }

    /// Every layout done at once, on this thread (exports and tests).
    pub fn lay_out_synchronously(&mut self) {
        self.list.synchronous = true;
    }

    /// The screens are recorded, not used: no `? help` in the status bar.
    pub fn set_recording(&mut self) {
        self.recording = true;
    }

    // What the app shows.

    pub fn theme(&self) -> &Theme {
        self.looks.theme()
    }

    /// Tell the app what the terminal shows of colours. The notice to give
    /// once, if there is one: colours are off, or the theme in use has a
    /// background that is not painted, and why.
    pub fn set_colours(&mut self, colours: super::backdrop::Colours) -> Option<String> {
        self.looks.set_colours(colours)
    }

    /// Why the theme in use, which declares a background, does not have it
    /// painted; `None` when it is painted or the theme declares none.
    pub fn background_note(&self) -> Option<String> {
        self.looks.background_note()
    }

    /// The style every cell of the screen starts from: the theme's
    /// background and foreground when they are painted, else none (the
    /// terminal's own).
    pub fn ground(&self) -> ratatui::style::Style {
        self.looks.ground()
    }

    pub fn theme_idx(&self) -> usize {
        self.looks.idx
    }

    pub fn transcript(&self) -> &Transcript {
        self.shown.transcript()
    }

    /// The search over all cards last asked for (`/`, or a session opened
    /// at a library hit).
    pub fn search_query(&self) -> &str {
        &self.found.query
    }

    pub fn player(&self) -> Option<&Player> {
        self.shown.player.as_ref()
    }

    pub fn list(&self) -> &TranscriptList {
        &self.list
    }

    /// The list, to lay entries out as the screen does (tests, benches).
    pub fn list_mut(&mut self) -> &mut TranscriptList {
        &mut self.list
    }

    pub fn modal(&self) -> &Modal {
        &self.modal
    }

    /// Say `text` on the status line (until the next key).
    pub fn say(&mut self, text: &str) {
        self.message = Some(text.to_string());
    }

    pub fn message(&self) -> Option<&str> {
        self.message.as_deref()
    }

    pub fn density(&self) -> Density {
        self.density
    }

    pub fn show_reasoning(&self) -> bool {
        self.show_reasoning
    }

    pub fn hide_tools(&self) -> bool {
        self.hide_tools
    }

    pub fn width(&self) -> u16 {
        self.width
    }

    pub fn height(&self) -> u16 {
        self.height
    }

    pub fn unseen(&self) -> usize {
        self.unseen
    }

    /// The search's query, matches and the match gone to.
    pub fn found(&self) -> &Found {
        &self.found
    }

    /// True while a search runs on its thread.
    pub fn searching(&self) -> bool {
        self.found.running.is_some()
    }

    /// Whether the session is shown redacted (`R`).
    pub fn redacted(&self) -> bool {
        self.redaction.on
    }

    /// `deck connect` with its host out of reach (not connected yet, lost,
    /// or stopped): Enter sends nothing and keeps the draft.
    pub fn host_down(&self) -> bool {
        self.drive.is_some() && self.link.down()
    }

    /// The sessions of the file shown, when it holds several.
    pub fn file_sessions(&self) -> Option<&FileSessions> {
        self.file.as_ref()
    }

    /// The library, when the app is `deck sessions`.
    pub fn library_part(&self) -> Option<&LibraryPart> {
        self.modal.library().or(self.behind.as_deref())
    }

    /// The library's list is on screen (not a session opened from it).
    pub fn library_shown(&self) -> bool {
        self.modal.library().is_some()
    }

    /// The host's sessions, newest activity first.
    pub fn sessions(&self) -> &[crate::source::sessions::SessionSummary] {
        self.sessions.rows()
    }

    /// The entry drawn on each row of the transcript, as last laid out.
    pub fn row_map(&self) -> Vec<Option<usize>> {
        self.screen.iter().map(|s| Some(s.entry)).collect()
    }

    pub fn driving(&self) -> Option<&Driving> {
        self.drive.as_ref()
    }

    pub fn driving_mut(&mut self) -> Option<&mut Driving> {
        self.drive.as_mut()
    }

    /// The message field has the keys.
    pub fn typing(&self) -> bool {
        matches!(self.modal, Modal::Compose)
    }

    /// Rows of the transcript area.
    pub fn list_rows(&self) -> usize {
        let bottom = 1
            + usize::from(self.shown.player.is_some())
            + usize::from(self.modal.prompt().is_some())
            + self.composer_lines().map_or(0, |l| l.len())
            + if self.modal.is_pager() {
                0
            } else {
                self.lost_banner().len()
            };
        (self.height as usize).saturating_sub(bottom).max(1)
    }

    pub fn list_options(&self) -> ListOptions {
        ListOptions {
            width: self.width as usize,
            density: self.density,
            show_reasoning: self.show_reasoning,
            hide_tools: self.hide_tools,
            now_ms: self.shown.display_now_ms(),
            tick: self.tick,
        }
    }

    /// After a connection of `deck connect` is lost, until it is back: the
    /// banner above the message field.
    pub(super) fn lost_banner(&self) -> Vec<Line> {
        match &self.drive {
            Some(d) => self.link.lost_banner(d.host.as_deref(), self.theme(), usize::from(self.width)),
            None => Vec::new(),
        }
    }

    /// What the message field of `deck connect` shows of the rest.
    fn drive_cx(&self) -> DriveCx<'_> {
        let t = self.transcript();
        DriveCx {
            typing: self.typing(),
            asked: self.focused_prompt(),
            focused: self.focused_item(),
            host_down: self.host_down(),
            session: t.session_id().is_some(),
            running: self.turn_running(),
            commands: t.commands(),
            theme: self.theme(),
            width: self.width,
            height: self.height,
        }
    }

    /// The composer's rows as drawn (`deck connect`): at most a third of
    /// the screen (and 10), scrolled to the cursor.
    pub fn composer_lines(&self) -> Option<Vec<Line>> {
        Some(self.drive.as_ref()?.composer_lines(&self.drive_cx()))
    }

    /// What the composer shows: its label says where Enter sends.
    pub fn composer_state(&self) -> Option<ComposerState<'_>> {
        Some(self.drive.as_ref()?.composer_state(&self.drive_cx()))
    }

    /// The keys that answer the focused approval or question (or the
    /// agent's commands a `/` message could name), for the status bar.
    fn drive_hint(&self) -> Option<String> {
        self.drive.as_ref()?.hint(&self.drive_cx())
    }

    /// What the pager's keys need.
    pub(super) fn pager_cx(&mut self) -> PagerCx<'_> {
        PagerCx {
            transcript: self.shown.transcript(),
            theme: self.looks.theme(),
            width: self.width,
            height: self.height,
            message: &mut self.message,
        }
    }

    /// The search over all cards, and what it needs of the rest.
    pub(super) fn finding(&mut self) -> (&mut Found, FindCx<'_>) {
        let opts = self.list_options();
        let rows = self.list_rows();
        let cx = FindCx {
            transcript: self.shown.transcript(),
            list: &mut self.list,
            theme: self.looks.theme(),
            opts,
            rows,
            message: &mut self.message,
        };
        (&mut self.found, cx)
    }

    /// `deck connect`'s state, and what answering the focused prompt needs.
    pub(super) fn answering(&mut self) -> Option<(&mut Driving, AnswerCx<'_>)> {
        let asked = self.focused_prompt();
        let d = self.drive.as_mut()?;
        let cx = AnswerCx {
            asked,
            session: self.shown.transcript().session_id(),
            message: &mut self.message,
        };
        Some((d, cx))
    }

    /// Split borrow: the transcript, the list and the theme at once.
    pub(super) fn parts(
        &mut self,
    ) -> (&Transcript, &mut TranscriptList, &Theme, ListOptions, usize) {
        let opts = self.list_options();
        let rows = self.list_rows();
        (
            self.shown.transcript(),
            &mut self.list,
            self.looks.theme(),
            opts,
            rows,
        )
    }

    /// The focused item index.
    pub fn focused_item(&self) -> Option<usize> {
        self.list.entries.get(self.list.focus).copied()
    }

    /// Status bar contents.
    pub fn status(&self) -> StatusInfo {
        let t = self.transcript();
        let position = self.shown.player.as_ref().map(|p| {
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
        let loading = (self.loading.as_ref().map(super::loading::Loading::said))
            .or_else(|| self.ahead.as_ref().map(super::loading::Ahead::said));
        let position = match (position, loading) {
            // A replay of a file still being read: where it plays, and how
            // far the read is.
            (Some(p), Some(l)) => Some(format!("{p} · {l}")),
            // The end of a followed file shown first: the link, and how far
            // the read from the start is.
            (None, Some(l)) if self.ahead.is_some() => {
                Some(self.link.label().map_or(l.clone(), |k| format!("{k} · {l}")))
            }
            (p, l) => p.or_else(|| self.link.label()).or(l),
        };
        let message = self
            .message
            .clone()
            .or_else(|| self.drive_hint())
            .or_else(|| (self.unseen > 0).then(|| format!("↓ {} new", self.unseen)));
        StatusInfo {
            source: self.label.clone(),
            title: t.title().map(str::to_string),
            cards: t.cards().len(),
            errors: t.error_count(),
            diagnostics: t.diagnostics().len(),
            position,
            theme: self.theme().name.clone(),
            message,
            activity: status::activity(t.queued(), t.steering(), t.jobs()),
            agent: status::agent(t.mode(), t.commands().map(<[String]>::len)),
            recording: self.recording,
            redacted: self.redaction.on,
            partial: self.loading.is_some() || self.ahead.is_some(),
        }
    }
}
