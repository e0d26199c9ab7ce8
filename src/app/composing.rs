//! What the message field of `deck connect` shows: its label and hint
//! (where Enter sends, the keys that answer what is asked, whether the
//! host is there), its rows laid out (once per change), and the status
//! bar's hint of the keys that answer the focused prompt or of the agent's
//! commands a `/` message could name. [`Driving`] owns the field; what it
//! shows of the rest of the app comes in a [`DriveCx`].

use std::sync::Arc;

use super::answer::approval_keys;
use super::drive::{ComposerState, Driving, LayoutKey};
use crate::session::{Ask, Prompt};
use crate::text::{Line, sanitize};
use crate::theme::Theme;
use crate::view::status;

/// What the message field shows of the rest of the app.
pub(super) struct DriveCx<'a> {
    /// The message field has the keys.
    pub(super) typing: bool,
    /// The focused prompt waiting for an answer the host can take (its
    /// item).
    pub(super) asked: Option<(usize, Arc<Prompt>)>,
    /// The focused item.
    pub(super) focused: Option<usize>,
    /// The host is out of reach: Enter sends nothing.
    pub(super) host_down: bool,
    /// A session is shown.
    pub(super) session: bool,
    /// A turn of it runs.
    pub(super) running: bool,
    /// The agent's commands, when it said.
    pub(super) commands: Option<&'a [String]>,
    pub(super) theme: &'a Theme,
    pub(super) width: u16,
    pub(super) height: u16,
}

impl Driving {
    /// The keys that answer the focused approval or question (or the
    /// agent's commands a `/` message could name), for the status bar while
    /// nothing else is said there.
    pub(super) fn hint(&self, cx: &DriveCx<'_>) -> Option<String> {
        let typing = cx.typing;
        if typing && let Some(list) = self.commands_hint(cx) {
            return Some(list);
        }
        let (_, p) = cx.asked.as_ref()?;
        match &p.ask {
            Ask::Approval { options, .. } if !typing => {
                Some(format!("approval: {}", approval_keys(options)))
            }
            Ask::Question { questions, .. } => {
                let at = self
                    .draft
                    .as_ref()
                    .filter(|x| Some(x.item) == cx.focused)
                    .map_or(0, |x| x.at);
                let q = questions.get(at)?;
                let n = q.options.len().min(9);
                Some(match (n, q.multi_select, typing) {
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
    pub(super) fn composer_lines(&self, cx: &DriveCx<'_>) -> Vec<Line> {
        use crate::view::composer::{ComposerView, layout, window};
        let s = self.composer_state(cx);
        let key = LayoutKey {
            rev: s.composer.rev(),
            width: cx.width,
            height: cx.height,
            theme: cx.theme.name.clone(),
            label: s.label,
            hint: s.hint.clone(),
            focused: s.focused,
        };
        let cache = &self.layout;
        if let Some((k, lines)) = &*cache.borrow()
            && *k == key
        {
            return lines.clone();
        }
        let v = ComposerView {
            label: s.label,
            text: s.composer.text(),
            cursor: s.composer.cursor(),
            focused: s.focused,
            hint: &s.hint,
        };
        let (lines, row) = layout(&v, cx.theme, cx.width as usize);
        let max = (cx.height as usize / 3).clamp(1, 10);
        let lines = window(lines, row, max);
        *cache.borrow_mut() = Some((key, lines.clone()));
        lines
    }

    /// What the composer shows: its label says where Enter sends.
    pub(super) fn composer_state(&self, cx: &DriveCx<'_>) -> ComposerState<'_> {
        let d = self;
        let focused = cx.typing;
        let asked = &cx.asked;
        // `deck acp` says where Enter sends when no turn runs: a new prompt.
        let idle = if d.held { "prompt › " } else { "› " };
        let (label, hint) = match (&asked, focused) {
            (Some((_, p)), _) if matches!(p.ask, Ask::Question { .. }) => (
                "answer › ",
                if focused {
                    "type the answer · Enter sends it · Esc, then 1–9 to choose".into()
                } else {
                    "1–9 choose · i type an answer".into()
                },
            ),
            (Some((_, p)), false) => (
                // `deck acp`: a permission is asked during a turn.
                if d.held && cx.running {
                    "steer › "
                } else {
                    "› "
                },
                match &p.ask {
                    Ask::Approval { options, .. } => {
                        format!("approval: {} · i type a message", approval_keys(options))
                    }
                    _ => "i type a message".into(),
                },
            ),
            _ if cx.host_down => (
                "› ",
                if focused {
                    "not connected: what you type stays here until the host is back · Esc to move"
                        .into()
                } else {
                    "not connected to the host · i or Tab to type a message".into()
                },
            ),
            _ if !cx.session => (
                "› ",
                "no session shown: S picks one (n there creates one)".into(),
            ),
            _ if cx.running => (
                "steer › ",
                match (focused, d.held) {
                    (true, true) => {
                        "Enter holds it until the turn ends · Ctrl-c or Esc Esc cancels the turn"
                            .into()
                    }
                    (true, false) => {
                        "Enter steers the running turn · Ctrl-c or Esc Esc cancels it".into()
                    }
                    (false, _) => "i type · Ctrl-c or Esc Esc cancels the turn".into(),
                },
            ),
            _ => (
                idle,
                if focused {
                    "message · Enter sends · Alt-Enter new line · ↑ history · Esc to move".into()
                } else {
                    "i or Tab to type a message".into()
                },
            ),
        };
        ComposerState {
            label,
            hint,
            focused,
            composer: &d.composer,
        }
    }

    /// A message that starts with `/`: the agent's commands that it could
    /// name (`deck acp`; `None` when the agent said none, or it names one).
    fn commands_hint(&self, cx: &DriveCx<'_>) -> Option<String> {
        let text = self.composer.text();
        let typed = text.strip_prefix('/')?;
        if typed.contains(char::is_whitespace) {
            return None;
        }
        let all = cx.commands?;
        let fit: Vec<&String> = all.iter().filter(|c| c.starts_with(typed)).collect();
        Some(match fit.len() {
            0 => format!("no command /{} among the agent's {}", sanitize::inline(typed), all.len()),
            n => {
                let names: Vec<String> =
                    fit.iter().take(12).map(|c| format!("/{}", sanitize::inline(c))).collect();
                let more = if n > 12 { format!(" … {} more", n - 12) } else { String::new() };
                format!("{}: {}{more}", status::count(n, "command"), names.join(" "))
            }
        })
    }
}
