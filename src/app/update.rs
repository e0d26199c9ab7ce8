//! [`App::update`], the one way the app changes: each message handled, a
//! key sent to what has it (the [`Modal`] part, else `deck connect`'s keys,
//! else the transcript's), the clock ticked, the mouse and pasted text
//! taken. Pure: effects come back for the driver to perform.

use crossterm::event::{KeyEvent, MouseEvent, MouseEventKind};

use super::help::Help;
use super::keys::Action;
use super::library::Opened;
use super::modal::Modal;
use super::msg::{Effect, Msg};
use super::outcome::Outcome;
use super::picker::Picker;
use super::state::App;
use crate::session::Transcript;

impl App {
    /// The one way to change the app.
    pub fn update(&mut self, msg: Msg) -> Vec<Effect> {
        let mut fx = self.update_shown(msg);
        // A session opened from the library: leaving it goes back there.
        if fx.contains(&Effect::Quit)
            && !matches!(self.modal, Modal::Library(_))
            && self.back_to_library()
        {
            fx.retain(|e| *e != Effect::Quit);
            fx.push(Effect::Redraw);
        }
        fx
    }

    fn update_shown(&mut self, msg: Msg) -> Vec<Effect> {
        match msg {
            Msg::Resize(w, h) => {
                self.width = w;
                self.height = h;
                vec![Effect::Redraw]
            }
            Msg::Tick { real_ms, now_ms } => self.on_tick(real_ms, now_ms),
            Msg::Records(records) => {
                if self.loading.is_some() {
                    self.loaded_more(records);
                    self.sync();
                    // The file still being read, not news.
                    self.unseen = 0;
                } else if let Some(records) = self.fold_behind(records) {
                    self.redaction.apply_live(&mut self.shown.own, records);
                    self.sync();
                }
                self.track_prompts();
                vec![Effect::Redraw]
            }
            Msg::Loaded(end) => {
                self.loaded(*end);
                vec![Effect::Redraw]
            }
            Msg::Paste(text) => {
                self.message = None;
                self.paste(&text)
            }
            Msg::Link(status) => {
                self.link.set(status);
                vec![Effect::Redraw]
            }
            Msg::Ahead(end) => {
                self.ahead(end);
                vec![Effect::Redraw]
            }
            Msg::CaughtUp => {
                self.caught_up();
                vec![Effect::Redraw]
            }
            Msg::Notice(text) => {
                self.message = Some(crate::text::sanitize::inline(&text));
                vec![Effect::Redraw]
            }
            Msg::Reset { session_id } => {
                // "switching to …" and any other message were about the old one.
                self.message = None;
                let cwd = session_id
                    .as_deref()
                    .and_then(|id| self.sessions.cwd_of(id))
                    .map(str::to_string);
                self.shown.own = Transcript::new(session_id, crate::agents::stock());
                self.ahead = None;
                self.redaction.forget_kept();
                // Where the host says the session runs: paths in it are
                // shown relative to it, as for a session log.
                if let Some(cwd) = cwd {
                    let frame = crate::wire::Record::Frame {
                        kind: "session".into(),
                        rpc_id: None,
                        payload: serde_json::json!({ "cwd": cwd }),
                        origin: crate::wire::Origin::default(),
                    };
                    self.redaction.apply_live(&mut self.shown.own, vec![frame]);
                }
                if let Some(d) = self.drive.as_mut() {
                    d.reset();
                }
                self.list.reset();
                self.unseen = 0;
                self.sync();
                vec![Effect::Redraw]
            }
            Msg::Sessions(list) => {
                self.sessions.replace(list);
                if let Modal::Picker(p) = &mut self.modal {
                    p.clamp(&self.sessions);
                }
                if std::mem::take(&mut self.sessions.pick_on_start)
                    && self.sessions.rows().len() > 1
                {
                    self.open_picker();
                }
                vec![Effect::Redraw]
            }
            Msg::Session(change) => {
                // O(1) here; the picker's rows are sorted again on the next
                // tick (when it is open) or when it opens.
                self.sessions.apply(change);
                if matches!(self.modal, Modal::Picker(_)) {
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
        self.shown.now_ms = Some(now_ms);
        if let Some(d) = self.drive.as_mut() {
            d.tick(real_ms);
        }
        let mut changed = false;
        if let Some(lib) = self.library_mut() {
            changed |= lib.poll();
            match lib.poll_opening() {
                Opened::Nothing => {}
                Opened::Failed => changed = true,
                Opened::Ahead(first) => {
                    let (window, target, bytes, total) = *first;
                    self.show_ahead(window, target, bytes, total);
                    changed = true;
                }
                Opened::Loaded(opened) => {
                    let (loaded, o) = *opened;
                    self.show_opened(loaded, o);
                    changed = true;
                }
            }
        }
        if self.sessions.is_stale()
            && let Modal::Picker(p) = &mut self.modal
        {
            self.sessions.sort();
            p.clamp(&self.sessions);
            changed = true;
        }
        if let Some(p) = self.shown.player.as_mut()
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
        if self.found.running.is_some() {
            let (found, mut cx) = self.finding();
            found.poll(&mut cx);
            changed = true;
        }
        if let Modal::Pager(p) = &mut self.modal
            && p.pager.poll()
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

    /// Open the session picker on the session shown.
    pub(super) fn open_picker(&mut self) {
        if self.sessions.is_stale() {
            self.sessions.sort();
        }
        // A file's sessions by place (one of them may have no id).
        if let Some(row) = self.file.as_ref().and_then(|f| f.shown()) {
            self.modal = Modal::Picker(Picker { row });
            return;
        }
        let current = self.transcript().session_id();
        self.modal = Modal::Picker(Picker::open(&self.sessions, current));
    }

    /// A key goes to what has it: the modal part, else `deck connect`'s
    /// keys, else the transcript's.
    fn on_key(&mut self, k: KeyEvent) -> Vec<Effect> {
        match std::mem::take(&mut self.modal) {
            Modal::None => self.transcript_key(k),
            Modal::Compose => {
                self.modal = Modal::Compose;
                self.transcript_key(k)
            }
            Modal::Search(mut prompt) => match prompt.handle(k) {
                Outcome::Stay => {
                    self.modal = Modal::Search(prompt);
                    Vec::new()
                }
                Outcome::App(Action::Submit) => {
                    self.found.query = prompt.text;
                    let (found, mut cx) = self.finding();
                    found.start(true, &mut cx);
                    Vec::new()
                }
                _ => Vec::new(),
            },
            Modal::Pager(mut part) => {
                let cx = self.pager_cx();
                let out = part.handle(k, cx);
                self.after_part(out, Modal::Pager(part))
            }
            Modal::Help { mut help, under } => match help.handle(k, self.height) {
                Outcome::Stay => {
                    self.modal = Modal::Help { help, under };
                    Vec::new()
                }
                Outcome::Quit => {
                    // Quit leaves what help was over (a library is kept,
                    // to go back to).
                    self.keep_library(*under);
                    vec![Effect::Quit]
                }
                _ => {
                    self.modal = *under;
                    Vec::new()
                }
            },
            Modal::Library(lib) => self.library_key(lib, k),
            Modal::Picker(picker) if self.file.is_some() => self.file_picker_key(picker, k),
            Modal::Picker(mut picker) => {
                if self.sessions.is_stale() {
                    self.sessions.sort();
                    picker.clamp(&self.sessions);
                }
                let current = self.shown.transcript().session_id();
                let out = picker.handle(
                    k,
                    &self.sessions,
                    current,
                    self.drive.is_some(),
                    &mut self.message,
                );
                self.after_part(out, Modal::Picker(picker))
            }
        }
    }

    /// Follow a part's answer to a key; `part` is the part, taken out of
    /// [`App::modal`] while it answered.
    pub(super) fn after_part(&mut self, out: Outcome, part: Modal) -> Vec<Effect> {
        match out {
            Outcome::Stay => {
                self.modal = part;
                Vec::new()
            }
            Outcome::Close(fx) => {
                self.keep_library(part);
                fx
            }
            Outcome::Quit => {
                self.modal = part;
                vec![Effect::Quit]
            }
            Outcome::Help => {
                self.modal = match part {
                    p @ Modal::Pager(_) => Modal::help(Help::new(), p),
                    l @ Modal::Library(_) => Modal::help(Help::for_library(), l),
                    _ => Modal::help(Help::new(), Modal::None),
                };
                Vec::new()
            }
            Outcome::App(a) => {
                self.modal = part;
                self.app_action(a)
            }
        }
    }

    fn on_mouse(&mut self, m: MouseEvent) -> Vec<Effect> {
        let down = match m.kind {
            MouseEventKind::ScrollDown => true,
            MouseEventKind::ScrollUp => false,
            _ if matches!(self.modal, Modal::None | Modal::Compose | Modal::Search(_)) => {
                if Some(m.row) == self.timeline_row {
                    return self.timeline_click(m);
                }
                return self.transcript_click(m);
            }
            _ => return Vec::new(),
        };
        match std::mem::take(&mut self.modal) {
            Modal::Pager(mut part) => {
                let cx = self.pager_cx();
                part.wheel(down, cx);
                self.modal = Modal::Pager(part);
            }
            m @ (Modal::Help { .. } | Modal::Picker(_) | Modal::Library(_)) => {
                self.modal = m;
                return Vec::new();
            }
            m => {
                self.modal = m;
                self.scroll(if down { 3 } else { -3 });
            }
        }
        vec![Effect::Redraw]
    }

    /// Pasted text (bracketed paste): into the search line being typed
    /// (its first line), else whole into the message field.
    fn paste(&mut self, text: &str) -> Vec<Effect> {
        match &mut self.modal {
            Modal::Search(p) => p.paste(text),
            Modal::Library(lib) => {
                if let Some(p) = lib.prompt.as_mut() {
                    p.paste(text);
                }
            }
            Modal::Pager(part) if part.prompt.is_some() => {
                if let Some(p) = part.prompt.as_mut() {
                    p.paste(text);
                }
            }
            modal => {
                let Some(d) = self.drive.as_mut() else {
                    return Vec::new();
                };
                if matches!(modal, Modal::None) {
                    *modal = Modal::Compose;
                }
                d.composer.insert(text);
            }
        }
        vec![Effect::Redraw]
    }
}
