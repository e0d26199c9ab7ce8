//! What `deck connect` adds to the app's state: the message field
//! ([`Composer`]), the pending first Esc of Esc Esc, the answer being put
//! together for a question ([`Draft`]), which approvals and questions were
//! already brought into focus, where new sessions start, and whether a
//! prompt sent during a turn steers it or waits for its end. The keys that
//! use it are in `connect.rs` and `answer.rs`; what the field shows in
//! `composing.rs`.

use std::collections::HashSet;

use super::composer::Composer;
use crate::text::Line;

/// How long a first Esc waits for the second that cancels the turn.
pub const ESC_ESC_MS: f64 = 1000.0;

/// `deck connect`'s state.
#[derive(Debug, Default)]
pub struct Driving {
    pub composer: Composer,
    /// Time since an Esc that a second one would turn into a cancel.
    pub(super) esc_ms: Option<f64>,
    pub(super) draft: Option<Draft>,
    /// Prompts already brought into focus once.
    pub(super) seen: HashSet<usize>,
    /// The prompt focused on its arrival, and (follow, typing) as they were.
    pub(super) auto: Option<(usize, bool, bool)>,
    /// The prompt in focus when the screen was last laid out to be drawn
    /// (`Some(None)`: none was): the one a key may answer, focus that moved
    /// since is not seen yet. `None` until a first draw (an app driven
    /// without a screen answers the focused prompt).
    pub(super) shown: Option<Option<usize>>,
    /// Where sessions created from the picker start (`--cwd`, else deck's
    /// own directory; `None`: the host's default).
    pub cwd: Option<String>,
    /// The agent preset they use (`--preset`).
    pub preset: Option<String>,
    /// The host's URL as given (said while it cannot be reached).
    pub host: Option<String>,
    /// A prompt sent while a turn runs is held until the turn ends (`deck
    /// acp`), not sent into it (`deck connect` steers).
    pub held: bool,
    /// The composer's rows as last laid out, and what they were laid out for.
    pub(super) layout: std::cell::RefCell<Option<(LayoutKey, Vec<Line>)>>,
}

impl Driving {
    /// With the history of messages sent before, oldest first.
    pub fn new(history: Vec<String>) -> Driving {
        Driving {
            composer: Composer::with_history(history),
            ..Driving::default()
        }
    }

    /// A new session shown: what was asked in the old one is gone.
    pub(super) fn reset(&mut self) {
        self.seen.clear();
        self.draft = None;
        self.auto = None;
        self.esc_ms = None;
    }

    /// Wall time passed: a lone Esc stops waiting for its second.
    pub(super) fn tick(&mut self, real_ms: f64) {
        if let Some(ms) = self.esc_ms.as_mut() {
            *ms += real_ms;
            if *ms > ESC_ESC_MS {
                self.esc_ms = None;
            }
        }
    }
}

/// A question being answered: the choices so far.
#[derive(Debug, Clone)]
pub(super) struct Draft {
    pub(super) item: usize,
    /// The question being answered (several may be asked at once).
    pub(super) at: usize,
    pub(super) chosen: Vec<Vec<String>>,
    pub(super) custom: Vec<Option<String>>,
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
