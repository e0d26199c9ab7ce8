//! Driving a host session from `deck connect` (or an agent from `deck
//! acp`): the message field (Enter sends a prompt — queued when the
//! session is idle, steering the turn while one runs, or with `deck acp`
//! held until it ends; a `/` lists the agent's commands), cancelling the
//! running turn (Ctrl-c, Esc Esc), the keys that answer approvals (`y`,
//! `n`, an ACP agent's options by number) and questions (the answers
//! themselves: `answer.rs`), and bringing what the host asks into focus as
//! it arrives. Part of [`App::update`]: no I/O, the host work leaves as
//! [`Effect::Host`].

use std::sync::Arc;

use crossterm::event::KeyEvent;

use super::keys::{self, Action, Part};
use super::modal::Modal;
use super::msg::Effect;
use super::state::App;
use crate::session::{Ask, Item, Pick, Prompt};
use crate::clients::dsh::Control;

impl App {
    /// A turn of the shown session is running.
    pub fn turn_running(&self) -> bool {
        self.transcript().running().is_some()
    }

    pub(super) fn focused_prompt(&self) -> Option<(usize, Arc<Prompt>)> {
        let item = self.focused_item()?;
        match self.transcript().items().get(item)? {
            Item::Prompt(p) if p.is_waiting() && p.rpc_id.is_some() => Some((item, p.clone())),
            _ => None,
        }
    }

    fn focused_question(&self) -> Option<(usize, Arc<Prompt>)> {
        self.focused_prompt()
            .filter(|(_, p)| matches!(p.ask, Ask::Question { .. }))
    }

    /// Give the keys to the message field, or take them back.
    pub(super) fn set_typing(&mut self, typing: bool) {
        match (&self.modal, typing) {
            (Modal::None, true) if self.drive.is_some() => self.modal = Modal::Compose,
            (Modal::Compose, false) => self.modal = Modal::None,
            _ => {}
        }
    }

    /// Keys `deck connect` takes before the transcript's own (`None`: not
    /// ours): the message field's while it has the keys.
    pub(super) fn drive_key(&mut self, k: KeyEvent) -> Option<Vec<Effect>> {
        self.drive.as_ref()?;
        let running = self.turn_running();
        let typing = self.typing();
        let action = keys::action(if typing { Part::Compose } else { Part::Connect }, k);
        if action == Some(Action::Leave) {
            self.set_typing(false);
            let d = self.drive.as_mut()?;
            if running {
                if d.esc_ms.take().is_some() {
                    return Some(self.cancel_turn());
                }
                d.esc_ms = Some(0.0);
                self.message = Some("Esc again cancels the running turn".into());
                return Some(Vec::new());
            }
            return typing.then(Vec::new);
        }
        self.drive.as_mut()?.esc_ms = None;
        if typing {
            return Some(self.composer_key(action));
        }
        match action? {
            Action::Type => {
                self.set_typing(true);
                Some(Vec::new())
            }
            Action::CancelTurn if running => Some(self.cancel_turn()),
            a @ (Action::Allow | Action::Reject | Action::Choose(_)) => {
                let (_, p) = self.focused_prompt()?;
                let pick = match a {
                    Action::Allow => Pick::Allow,
                    Action::Reject => Pick::Reject,
                    Action::Choose(n) => Pick::Number(usize::from(n)),
                    _ => return None,
                };
                match (&p.ask, pick) {
                    // A number on a DSH approval: a question's key, nothing here.
                    (Ask::Approval { options, .. }, Pick::Number(_)) if options.is_empty() => None,
                    (Ask::Approval { .. }, _) => {
                        let (d, cx) = self.answering()?;
                        Some(d.answer_approval(pick, cx))
                    }
                    (_, Pick::Number(n)) => {
                        let (d, cx) = self.answering()?;
                        d.choose(n, cx)
                    }
                    _ => None,
                }
            }
            Action::Confirm => {
                let (d, cx) = self.answering()?;
                d.confirm(cx)
            }
            _ => None,
        }
    }

    /// A key in the message field.
    fn composer_key(&mut self, action: Option<Action>) -> Vec<Effect> {
        let running = self.turn_running();
        let rows = self.list_rows() as isize;
        match action {
            Some(Action::Submit) => return self.send(),
            Some(Action::PageUp) => self.scroll(-rows),
            Some(Action::PageDown) => self.scroll(rows),
            Some(Action::Interrupt) if running => return self.cancel_turn(),
            _ => {}
        }
        let Some(d) = self.drive.as_mut() else {
            return Vec::new();
        };
        let c = &mut d.composer;
        match action {
            Some(Action::NewLine) => c.newline(),
            Some(Action::Interrupt) if !running => {
                if c.is_empty() {
                    return vec![Effect::Quit];
                }
                c.clear();
            }
            Some(Action::DeleteBack) => c.backspace(),
            Some(Action::Delete) => c.delete(),
            Some(Action::WordLeft) => c.word_left(),
            Some(Action::WordRight) => c.word_right(),
            Some(Action::Left) => c.left(),
            Some(Action::Right) => c.right(),
            Some(Action::LineStart) => c.home(),
            Some(Action::LineEnd) => c.end(),
            Some(Action::KillToStart) => c.kill_to_start(),
            Some(Action::KillToEnd) => c.kill_to_end(),
            Some(Action::KillWord) => c.kill_word(),
            Some(Action::Up) => {
                c.up();
            }
            Some(Action::Down) => {
                c.down();
            }
            Some(Action::Insert(ch)) => {
                let mut buf = [0u8; 4];
                c.insert(ch.encode_utf8(&mut buf));
            }
            _ => {}
        }
        Vec::new()
    }

    /// Enter in the composer: the text answers the focused question, or
    /// goes to the session as a prompt. Not while the host is out of reach:
    /// then the text stays in the field.
    fn send(&mut self) -> Vec<Effect> {
        let question = self.focused_question();
        let running = self.turn_running();
        let down = self.host_down();
        let Some(d) = self.drive.as_mut() else {
            return Vec::new();
        };
        if d.composer.text().trim().is_empty() {
            return Vec::new();
        }
        if down {
            self.message = Some("not sent: not connected".into());
            return Vec::new();
        }
        if question.is_some() {
            let Some(text) = d.composer.take() else {
                return Vec::new();
            };
            let Some((d, cx)) = self.answering() else {
                return Vec::new();
            };
            return d.typed_answer(text.trim().to_string(), cx).unwrap_or_default();
        }
        let Some(text) = d.composer.take() else {
            return Vec::new();
        };
        let held = d.held;
        self.message = Some(match (running, held) {
            (true, true) => "held: sent when the turn ends".into(),
            (true, false) => "steering the running turn …".into(),
            (false, _) => "sending …".into(),
        });
        vec![Effect::Host(Control::Prompt {
            text,
            steer: running && !held,
        })]
    }

    fn cancel_turn(&mut self) -> Vec<Effect> {
        if !self.turn_running() {
            return Vec::new();
        }
        self.message = Some("cancelling the turn …".into());
        vec![Effect::Host(Control::Cancel)]
    }

    /// After new records: focus an approval or question that just arrived
    /// (the newest), and hand the keys back once the one focused so is
    /// answered (here or elsewhere).
    pub(super) fn track_prompts(&mut self) {
        let t = self.transcript();
        let mut arrived = None;
        let mut resolved = None;
        {
            let Some(d) = self.drive.as_ref() else {
                return;
            };
            for i in t.prompt_items() {
                let Some(Item::Prompt(p)) = t.items().get(i) else {
                    continue;
                };
                if p.is_waiting() && p.rpc_id.is_some() && !d.seen.contains(&i) {
                    arrived = arrived.max(Some(i));
                }
            }
            if let Some((item, _, _)) = d.auto
                && !matches!(t.items().get(item), Some(Item::Prompt(p)) if p.is_waiting())
            {
                resolved = d.auto;
            }
        }
        // Another one still waits (asked at the same time): it is next.
        if arrived.is_none() && resolved.is_some() {
            arrived = t
                .prompt_items()
                .filter(|&i| {
                    matches!(t.items().get(i), Some(Item::Prompt(p)) if p.is_waiting() && p.rpc_id.is_some())
                })
                .min();
        }
        if let Some((item, follow, typing)) = resolved
            && let Some(d) = self.drive.as_mut()
        {
            d.auto = None;
            if d.draft.as_ref().is_some_and(|x| x.item == item) {
                d.draft = None;
            }
            if arrived.is_some() {
                // Straight on to the next: it restores this state once answered.
                d.auto = Some((item, follow, typing));
                self.set_typing(false);
            } else {
                self.set_typing(typing);
                if follow && self.focus_is_at(item) {
                    self.follow_tail();
                }
            }
        }
        if let Some(item) = arrived {
            let t = self.transcript();
            let seen: Vec<usize> = t
                .prompt_items()
                .filter(
                    |&i| matches!(t.items().get(i), Some(Item::Prompt(p)) if p.rpc_id.is_some()),
                )
                .collect();
            let entry = self.list.entries.partition_point(|&x| x < item);
            let follow = self.list.follow;
            let typing = self.typing();
            let Some(d) = self.drive.as_mut() else {
                return;
            };
            d.seen.extend(seen);
            if self.list.entries.get(entry) == Some(&item) {
                // Answered in turn: the first arrival's state is the one to restore.
                let (follow, typing) = d.auto.map_or((follow, typing), |(_, f, t)| (f, t));
                d.auto = Some((item, follow, typing));
                self.set_typing(false);
                self.set_focus(entry);
                // The status bar says which keys answer it, not an old notice.
                self.message = None;
            }
        }
    }

    /// The focus is on `item`, or where it was when it is no longer an
    /// entry (an answered approval drawn on its call's card now).
    fn focus_is_at(&self, item: usize) -> bool {
        let entries = &self.list.entries;
        let at = entries.partition_point(|&x| x < item);
        self.list.focus == at.min(entries.len().saturating_sub(1))
    }

    /// `n` in the session picker: a new session in [`Driving::cwd`], shown
    /// once created.
    pub(super) fn create_session(&mut self) -> Vec<Effect> {
        let Some(d) = self.drive.as_ref() else {
            return Vec::new();
        };
        let cwd = d.cwd.clone();
        if matches!(self.modal, Modal::Picker(_)) {
            self.modal = Modal::None;
        }
        self.message = Some(match &cwd {
            Some(c) => format!("creating a session in {c} …"),
            None => "creating a session …".into(),
        });
        vec![Effect::Host(Control::Create {
            cwd,
            preset: d.preset.clone(),
        })]
    }
}
