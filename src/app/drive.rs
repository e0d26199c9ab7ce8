//! Driving a host session from `deck connect`: the composer (Enter sends a
//! prompt — queued when the session is idle, steering the turn while one
//! runs), cancelling the running turn (Ctrl-c, Esc Esc), the keys that
//! answer approvals and questions (the answers themselves: `answer.rs`), and
//! bringing what the host asks into focus as it arrives. Part of
//! [`App::update`]: no I/O, the host work leaves as [`Effect::Host`].

use std::collections::HashSet;
use std::sync::Arc;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::composer::Composer;
use super::state::{App, Effect};
use crate::session::{Ask, Item, Prompt};
use crate::source::host::Control;

/// The keys of `deck connect` (for the help overlay), as `drive_key` and
/// `composer_key` read them.
pub const KEYS: &[(&str, &str)] = &[
    ("Enter", "send (queued when idle, steers a running turn)"),
    ("Alt-Enter Ctrl-j", "new line in the message"),
    ("↑ / ↓", "history (empty field), else lines"),
    ("Ctrl-a/e/u/k/w", "start / end / kill line / kill word"),
    ("Ctrl-c · Esc Esc", "cancel the running turn"),
    ("Esc / i Tab", "leave / back to the message field"),
    ("y / n", "approval: allow once / reject"),
    ("1–9", "question: choose (several: Enter confirms)"),
    ("S then n", "new session (in --cwd)"),
];

/// How long a first Esc waits for the second that cancels the turn.
pub const ESC_ESC_MS: f64 = 1000.0;

/// What `deck connect` adds to the app.
#[derive(Debug, Default)]
pub struct Driving {
    pub composer: Composer,
    /// The composer has the keys (else the transcript's keys act).
    pub typing: bool,
    /// Time since an Esc that a second one would turn into a cancel.
    esc_ms: Option<f64>,
    pub(super) draft: Option<super::answer::Draft>,
    /// Prompts already brought into focus once.
    seen: HashSet<usize>,
    /// The prompt focused on its arrival, and (follow, typing) as they were.
    auto: Option<(usize, bool, bool)>,
    /// Where sessions created from the picker start (`--cwd`, else deck's
    /// own directory; `None`: the host's default).
    pub cwd: Option<String>,
    /// The agent preset they use (`--preset`).
    pub preset: Option<String>,
    /// The composer's rows as last laid out, and what they were laid out for.
    pub(super) layout: std::cell::RefCell<Option<(LayoutKey, Vec<crate::text::Line>)>>,
}

/// Everything the composer's rows depend on.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct LayoutKey {
    pub(super) rev: u64,
    pub(super) width: u16,
    pub(super) height: u16,
    pub(super) theme: String,
    pub(super) label: &'static str,
    pub(super) hint: String,
    pub(super) focused: bool,
}

/// Label, hint of the composer, and whether it has the keys.
pub struct ComposerState<'a> {
    pub label: &'static str,
    pub hint: String,
    pub focused: bool,
    pub composer: &'a Composer,
}

impl App {
    /// Turn on driving (`deck connect`): the composer, with the history of
    /// messages sent before, oldest first. The transcript keeps the keys
    /// until `i` (or Tab) gives them to the composer.
    pub fn enable_driving(&mut self, history: Vec<String>) {
        self.drive = Some(Driving {
            composer: Composer::with_history(history),
            ..Driving::default()
        });
    }

    pub fn driving(&self) -> Option<&Driving> {
        self.drive.as_ref()
    }

    /// A turn of the shown session is running.
    pub fn turn_running(&self) -> bool {
        self.transcript().running.is_some()
    }

    pub(super) fn focused_prompt(&self) -> Option<(usize, Arc<Prompt>)> {
        let item = self.focused_item()?;
        match self.transcript().items.get(item)? {
            Item::Prompt(p) if p.is_waiting() && p.rpc_id.is_some() => Some((item, p.clone())),
            _ => None,
        }
    }

    pub(super) fn focused_question(&self) -> Option<(usize, Arc<Prompt>)> {
        self.focused_prompt()
            .filter(|(_, p)| matches!(p.ask, Ask::Question { .. }))
    }

    /// The keys that answer the focused approval or question, for the
    /// status bar while nothing else is said there.
    pub(super) fn drive_hint(&self) -> Option<String> {
        let d = self.drive.as_ref()?;
        let (_, p) = self.focused_prompt()?;
        match &p.ask {
            Ask::Approval { .. } if !d.typing => Some("approval: y allow once · n reject".into()),
            Ask::Question { questions, .. } => {
                let at = d
                    .draft
                    .as_ref()
                    .filter(|x| Some(x.item) == self.focused_item())
                    .map_or(0, |x| x.at);
                let q = questions.get(at)?;
                let n = q.options.len().min(9);
                Some(match (n, q.multi_select, d.typing) {
                    (_, _, true) | (0, _, _) => "question: type the answer, Enter sends it".into(),
                    (_, true, false) => {
                        format!("question: 1–{n} tick · Enter confirms · i type an answer")
                    }
                    (_, false, false) => format!("question: 1–{n} choose · i type an answer"),
                })
            }
            _ => None,
        }
    }

    /// The composer's rows as drawn (`deck connect`): at most a third of
    /// the screen (and 10), scrolled to the cursor.
    /// Laid out once per change (a long paste is not wrapped again on
    /// every key: the list asks for the rows several times per update).
    pub fn composer_lines(&self) -> Option<Vec<crate::text::Line>> {
        use crate::view::composer::{ComposerView, layout, window};
        let s = self.composer_state()?;
        let key = LayoutKey {
            rev: s.composer.rev(),
            width: self.width,
            height: self.height,
            theme: self.theme().name.clone(),
            label: s.label,
            hint: s.hint.clone(),
            focused: s.focused,
        };
        let cache = &self.drive.as_ref()?.layout;
        if let Some((k, lines)) = &*cache.borrow()
            && *k == key
        {
            return Some(lines.clone());
        }
        let v = ComposerView {
            label: s.label,
            text: s.composer.text(),
            cursor: s.composer.cursor(),
            focused: s.focused,
            hint: &s.hint,
        };
        let (lines, row) = layout(&v, self.theme(), self.width as usize);
        let max = (self.height as usize / 3).clamp(1, 10);
        let lines = window(lines, row, max);
        *cache.borrow_mut() = Some((key, lines.clone()));
        Some(lines)
    }

    /// What the composer shows: its label says where Enter sends.
    pub fn composer_state(&self) -> Option<ComposerState<'_>> {
        let d = self.drive.as_ref()?;
        let focused = d.typing;
        let asked = self.focused_prompt();
        let (label, hint) = match (&asked, focused) {
            (Some((_, p)), _) if matches!(p.ask, Ask::Question { .. }) => (
                "answer › ",
                if focused {
                    "type the answer · Enter sends it · Esc, then 1–9 to choose".into()
                } else {
                    "1–9 choose · i type an answer".into()
                },
            ),
            (Some(_), false) => (
                "› ",
                "approval: y allow once · n reject · i type a message".into(),
            ),
            _ if self.transcript().session_id.is_none() => (
                "› ",
                "no session shown: S picks one (n there creates one)".into(),
            ),
            _ if self.turn_running() => (
                "steer › ",
                if focused {
                    "Enter steers the running turn · Ctrl-c or Esc Esc cancels it".into()
                } else {
                    "i type · Ctrl-c or Esc Esc cancels the turn".into()
                },
            ),
            _ => (
                "› ",
                if focused {
                    "message · Enter sends · Alt-Enter new line · ↑ history · Esc to move".into()
                } else {
                    "i or Tab to type a message".into()
                },
            ),
        };
        Some(ComposerState {
            label,
            hint,
            focused,
            composer: &d.composer,
        })
    }

    /// Keys `deck connect` takes before the transcript's own (`None`: not
    /// ours). Called with no overlay, picker or search prompt open.
    pub(super) fn drive_key(&mut self, k: KeyEvent) -> Option<Vec<Effect>> {
        let running = self.turn_running();
        let d = self.drive.as_mut()?;
        let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
        if k.code == KeyCode::Esc {
            let was_typing = std::mem::replace(&mut d.typing, false);
            if running {
                if d.esc_ms.take().is_some() {
                    return Some(self.cancel_turn());
                }
                d.esc_ms = Some(0.0);
                self.message = Some("Esc again cancels the running turn".into());
                return Some(Vec::new());
            }
            return was_typing.then(Vec::new);
        }
        d.esc_ms = None;
        if d.typing {
            return Some(self.composer_key(k));
        }
        match k.code {
            KeyCode::Char('i') | KeyCode::Tab if !ctrl => {
                d.typing = true;
                Some(Vec::new())
            }
            KeyCode::Char('c') if ctrl && running => Some(self.cancel_turn()),
            KeyCode::Char(c @ ('y' | 'n')) if !ctrl => {
                let (_, p) = self.focused_prompt()?;
                matches!(p.ask, Ask::Approval { .. }).then(|| self.answer_approval(c == 'y'))
            }
            KeyCode::Char(c @ '1'..='9') if !ctrl => self.choose(c as usize - '0' as usize),
            KeyCode::Enter => self.confirm(),
            _ => None,
        }
    }

    fn composer_key(&mut self, k: KeyEvent) -> Vec<Effect> {
        let running = self.turn_running();
        let rows = self.list_rows() as isize;
        let Some(d) = self.drive.as_mut() else {
            return Vec::new();
        };
        let c = &mut d.composer;
        let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
        let alt = k.modifiers.contains(KeyModifiers::ALT);
        match k.code {
            KeyCode::Enter if alt || k.modifiers.contains(KeyModifiers::SHIFT) => c.newline(),
            KeyCode::Char('j') if ctrl => c.newline(),
            KeyCode::Enter => return self.send(),
            KeyCode::Char('c') if ctrl => {
                if running {
                    return self.cancel_turn();
                }
                if c.is_empty() {
                    return vec![Effect::Quit];
                }
                c.clear();
            }
            KeyCode::Backspace | KeyCode::Char('h') if ctrl || k.code == KeyCode::Backspace => {
                c.backspace()
            }
            KeyCode::Delete | KeyCode::Char('d') if ctrl || k.code == KeyCode::Delete => c.delete(),
            KeyCode::Left if ctrl || alt => c.word_left(),
            KeyCode::Right if ctrl || alt => c.word_right(),
            KeyCode::Char('b') if alt => c.word_left(),
            KeyCode::Char('f') if alt => c.word_right(),
            KeyCode::Left | KeyCode::Char('b') if ctrl || k.code == KeyCode::Left => c.left(),
            KeyCode::Right | KeyCode::Char('f') if ctrl || k.code == KeyCode::Right => c.right(),
            KeyCode::Home | KeyCode::Char('a') if ctrl || k.code == KeyCode::Home => c.home(),
            KeyCode::End | KeyCode::Char('e') if ctrl || k.code == KeyCode::End => c.end(),
            KeyCode::Char('u') if ctrl => c.kill_to_start(),
            KeyCode::Char('k') if ctrl => c.kill_to_end(),
            KeyCode::Char('w') if ctrl => c.kill_word(),
            KeyCode::Up => {
                c.up();
            }
            KeyCode::Down => {
                c.down();
            }
            KeyCode::PageUp => self.scroll(-rows),
            KeyCode::PageDown => self.scroll(rows),
            KeyCode::Char(ch) if !ctrl => {
                let mut buf = [0u8; 4];
                c.insert(ch.encode_utf8(&mut buf));
            }
            _ => {}
        }
        Vec::new()
    }

    /// Pasted text (bracketed paste) goes into the composer, whole.
    pub(super) fn paste(&mut self, text: &str) -> Vec<Effect> {
        if let Some((target, mut line)) = self.prompt.take() {
            // A search prompt takes the first line.
            line.push_str(&super::composer::clean(text.lines().next().unwrap_or("")));
            self.prompt = Some((target, line));
            return vec![Effect::Redraw];
        }
        let Some(d) = self.drive.as_mut() else {
            return Vec::new();
        };
        d.typing = true;
        d.composer.insert(text);
        vec![Effect::Redraw]
    }

    /// Enter in the composer: the text answers the focused question, or
    /// goes to the session as a prompt.
    fn send(&mut self) -> Vec<Effect> {
        let question = self.focused_question();
        let running = self.turn_running();
        let Some(d) = self.drive.as_mut() else {
            return Vec::new();
        };
        if d.composer.text().trim().is_empty() {
            return Vec::new();
        }
        if question.is_some() {
            let Some(text) = d.composer.take() else {
                return Vec::new();
            };
            return self
                .typed_answer(text.trim().to_string())
                .unwrap_or_default();
        }
        let Some(text) = d.composer.take() else {
            return Vec::new();
        };
        self.message = Some(if running {
            "steering the running turn …".into()
        } else {
            "sending …".into()
        });
        vec![Effect::Host(Control::Prompt {
            text,
            steer: running,
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
                let Some(Item::Prompt(p)) = t.items.get(i) else {
                    continue;
                };
                if p.is_waiting() && p.rpc_id.is_some() && !d.seen.contains(&i) {
                    arrived = arrived.max(Some(i));
                }
            }
            if let Some((item, _, _)) = d.auto
                && !matches!(t.items.get(item), Some(Item::Prompt(p)) if p.is_waiting())
            {
                resolved = d.auto;
            }
        }
        // Another one still waits (asked at the same time): it is next.
        if arrived.is_none() && resolved.is_some() {
            arrived = t
                .prompt_items()
                .filter(|&i| {
                    matches!(t.items.get(i), Some(Item::Prompt(p)) if p.is_waiting() && p.rpc_id.is_some())
                })
                .min();
        }
        if let Some((item, follow, typing)) = resolved
            && let Some(d) = self.drive.as_mut()
        {
            d.auto = None;
            d.typing = typing;
            if d.draft.as_ref().is_some_and(|x| x.item == item) {
                d.draft = None;
            }
            if arrived.is_some() {
                // Straight on to the next: it restores this state once answered.
                d.typing = false;
                d.auto = Some((item, follow, typing));
            } else if follow && self.focused_item() == Some(item) {
                self.list.follow = true;
                self.list.focus = self.list.entries.len().saturating_sub(1);
                self.unseen = 0;
            }
        }
        if let Some(item) = arrived {
            let t = self.transcript();
            let seen: Vec<usize> = t
                .prompt_items()
                .filter(|&i| matches!(t.items.get(i), Some(Item::Prompt(p)) if p.rpc_id.is_some()))
                .collect();
            let entry = self.list.entries.partition_point(|&x| x < item);
            let follow = self.list.follow;
            let Some(d) = self.drive.as_mut() else {
                return;
            };
            d.seen.extend(seen);
            if self.list.entries.get(entry) == Some(&item) {
                let typing = std::mem::replace(&mut d.typing, false);
                // Answered in turn: the first arrival's state is the one to restore.
                let (follow, typing) = d.auto.map_or((follow, typing), |(_, f, t)| (f, t));
                d.auto = Some((item, follow, typing));
                self.set_focus(entry);
                // The status bar says which keys answer it, not an old notice.
                self.message = None;
            }
        }
    }

    /// A new session shown: what was asked in the old one is gone.
    pub(super) fn drive_reset(&mut self) {
        if let Some(d) = self.drive.as_mut() {
            d.seen.clear();
            d.draft = None;
            d.auto = None;
            d.esc_ms = None;
        }
    }

    /// Wall time passed: a lone Esc stops waiting for its second.
    pub(super) fn drive_tick(&mut self, real_ms: f64) {
        if let Some(d) = self.drive.as_mut()
            && let Some(ms) = d.esc_ms.as_mut()
        {
            *ms += real_ms;
            if *ms > ESC_ESC_MS {
                d.esc_ms = None;
            }
        }
    }

    /// `n` in the session picker: a new session in [`Driving::cwd`], shown
    /// once created.
    pub(super) fn create_session(&mut self) -> Vec<Effect> {
        let Some(d) = self.drive.as_ref() else {
            return Vec::new();
        };
        let cwd = d.cwd.clone();
        self.picker = None;
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
