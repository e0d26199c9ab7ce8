//! The session model: a pure reducer folds records (events with their views,
//! other frames, diagnostics) into a [`Transcript`] of items and tool cards.
//!
//! Same records in, same transcript out: live, replay and headless all use
//! [`Transcript::apply`] with the same [`Presenters`]. No I/O, no clocks, no
//! terminal here, and no tool named.
//!
//! This file owns [`Transcript`] (read-only from outside: only the fold
//! writes it) and the event being folded that the dispatch hands each part
//! (`Ev`); `card` and `items` its parts; `reducer` the fold's dispatch,
//! `messages`, `tools`, `prompts` and `compaction` what each kind of event
//! builds, `linked` what is drawn on a call's card rather than apart (its
//! approval, its questions, its plan), `nested` the transcripts folded under
//! a call (a subagent's), `state` the fold's indexes; `outline` reads a
//! session at a glance without a fold; `redact` turns records into their
//! redacted copies before a fold (secrets replaced, for sharing).

mod attached;
mod card;
mod compaction;
mod file_models;
mod folding;
mod items;
mod linked;
mod messages;
mod nested;
mod outline;
mod prefetch;
mod presenter;
mod prompts;
mod reducer;
mod retire;
internal!(
    mod redact;
);
mod keys;
mod seqs;
mod slots;
mod state;
mod tools;

pub use attached::{Again, AttachedView, ViewSource};
pub use card::{
    Recorded, RecordedOutcome, Status, TaskEnd, ToolCard, ToolError, ToolResult, content_of,
    meta_of, text_of,
};
pub use folding::Folding;
pub use items::{
    AssistantBlock, AssistantMessage, Blocks, Compaction, Item, Retry, Todo, TokenUsage, TurnEnd,
    TurnMarker, UserMessage,
};
pub use keys::Keys;
pub use nested::Nested;
pub use outline::{Outline, Outlining};
pub use presenter::{
    Args, Call, CallRole, Presented, Presenters, Settled, SharedPresenters, arg, arguments_object,
};
pub use prompts::{
    Answer, Ask, Choice, MAX_OPTIONS, PermissionOption, Pick, Prompt, Question, answer_to,
    option_outcome, parse_answers, pick_option,
};
pub(crate) use retire::LOOK_BACK_CARDS;
pub use slots::Slots;

use std::sync::Arc;

use serde_json::Value;

pub use crate::wire::Diagnostic;
use crate::wire::RawJson;

/// An event being folded, as the fold's dispatch (`reducer`) hands it to
/// the part that builds from it: what its payload does not hold.
struct Ev<'a> {
    pub seq: u64,
    pub time: i64,
    /// The data text (a result keeps it; diagnostics show it).
    pub raw: &'a RawJson,
    pub source_event_seqs: &'a [u64],
}

impl Ev<'_> {
    /// The data as a tree, for a diagnostic (`null` when it has none).
    pub fn data(&self) -> Value {
        self.raw.parse()
    }
}

/// The reducer's state: everything drawn for one session.
#[derive(Debug, Clone)]
pub struct Transcript {
    session_id: Option<String>,
    title: Option<String>,
    /// Persistent vectors: cloning a transcript (the player keeps snapshots
    /// for seeking) is O(1) and shares everything until it changes.
    items: Slots<Item>,
    /// Cards are shared between snapshots and copied only when they change.
    cards: Slots<Arc<ToolCard>>,
    diagnostics: Slots<Diagnostic>,
    /// Highest seq applied.
    last_seq: Option<u64>,
    /// Number of events applied (duplicates not counted).
    events: usize,
    first_time: Option<i64>,
    last_time: Option<i64>,
    /// Messages waiting for the next turn (`session/queue`, placement `queued`).
    queued: usize,
    /// Messages sent into the running turn, not taken in yet (placement `steering`).
    steering: usize,
    /// Background jobs (`session/jobs`): how many, and how many still run.
    jobs: (usize, usize),
    /// The turn started and not ended yet (a prompt sent now steers it).
    running: Option<u64>,
    /// The turns' numbers are not the session's: its reader counted them
    /// from a point after the start (a big file's end read first).
    unnumbered: bool,
    /// The session's working directory, when the input says (a session
    /// log's header): paths inside it are drawn relative to it.
    cwd: Option<String>,
    /// The agent whose session this is (a `session` header's `agent`:
    /// `claude-code`, `codex`); `None` for DSH.
    agent: Option<String>,
    /// The agent's mode and the commands it offers, as its header says
    /// (an ACP session's, updated as they change).
    mode: Option<String>,
    commands: Option<Arc<[String]>>,
    state: state::State,
    /// Views for calls and results the host sent none for.
    presenters: SharedPresenters,
    /// Calls and result views drawn ahead of the fold, by seq
    /// ([`prefetch`]); empty outside a [`Folding`]'s windows.
    ahead: Arc<prefetch::Ahead>,
}

impl Transcript {
    /// The turn numbers its records give are not the session's (its reader
    /// counted from a point after the start): its turns are drawn without
    /// them (`turn …`).
    pub fn unnumbered_turns(&mut self) {
        self.unnumbered = true;
    }

    /// An empty transcript whose cards get their missing views from
    /// `presenters`.
    pub fn new(session_id: Option<String>, presenters: SharedPresenters) -> Transcript {
        Transcript {
            session_id,
            title: None,
            items: Slots::new(),
            cards: Slots::new(),
            diagnostics: Slots::new(),
            last_seq: None,
            events: 0,
            first_time: None,
            last_time: None,
            queued: 0,
            cwd: None,
            agent: None,
            mode: None,
            commands: None,
            steering: 0,
            jobs: (0, 0),
            running: None,
            unnumbered: false,
            state: state::State::default(),
            presenters,
            ahead: Arc::default(),
        }
    }

    /// Fold a whole sequence of records: borrowed (`&records`), or owned
    /// (`records`, a `Vec`), when each is dropped once folded — the records
    /// and the transcript they make are not both held whole.
    pub fn from_records<R>(
        session_id: Option<String>,
        records: impl IntoIterator<Item = R>,
        presenters: SharedPresenters,
    ) -> Transcript
    where
        R: std::borrow::Borrow<crate::wire::Record> + Send,
    {
        // The pool draws the next window's views while the fold takes this
        // one's (see `folding`).
        let mut fold = Folding::new(session_id, presenters);
        for r in records {
            fold.push(r);
        }
        fold.finish()
    }

    /// The session's id, when known.
    pub fn session_id(&self) -> Option<&str> {
        self.session_id.as_deref()
    }

    /// Name the session once its records say whose they are (what a log
    /// holds before any session is named is the first named one's).
    pub(crate) fn set_session_id(&mut self, id: Option<String>) {
        self.session_id = id;
    }

    /// The agent's current mode (an ACP session's `currentModeId`).
    pub fn mode(&self) -> Option<&str> {
        self.mode.as_deref()
    }

    /// The commands the agent offers (an ACP session's
    /// `available_commands_update`), once it said.
    pub fn commands(&self) -> Option<&[String]> {
        self.commands.as_deref()
    }

    /// The session's title (`session/title`).
    pub fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    /// The entries, in order. Persistent: cloning is O(1).
    pub fn items(&self) -> &Slots<Item> {
        &self.items
    }

    /// The tool cards, in the order their calls (or results) came;
    /// [`Item::Tool`] indexes them.
    pub fn cards(&self) -> &Slots<Arc<ToolCard>> {
        &self.cards
    }

    /// What was skipped or repaired; [`Item::Diagnostic`] indexes them.
    pub fn diagnostics(&self) -> &Slots<Diagnostic> {
        &self.diagnostics
    }

    /// Highest seq applied.
    pub fn last_seq(&self) -> Option<u64> {
        self.last_seq
    }

    /// Number of events applied (duplicates not counted).
    pub fn events(&self) -> usize {
        self.events
    }

    /// Epoch ms of the earliest event with a time (or the start a
    /// session's header says, when earlier).
    pub fn first_time(&self) -> Option<i64> {
        self.first_time
    }

    /// Epoch ms of the latest event with a time.
    pub fn last_time(&self) -> Option<i64> {
        self.last_time
    }

    /// The session's working directory, when the input said.
    pub fn cwd(&self) -> Option<&str> {
        self.cwd.as_deref()
    }

    /// The agent whose session this is (`claude-code`, `codex`), when the
    /// input is another agent's log; `None` for DSH.
    pub fn agent(&self) -> Option<&str> {
        self.agent.as_deref()
    }

    /// Messages waiting for the next turn (`session/queue`, placement `queued`).
    pub fn queued(&self) -> usize {
        self.queued
    }

    /// Messages sent into the running turn, not taken in yet.
    pub fn steering(&self) -> usize {
        self.steering
    }

    /// Background jobs (`session/jobs`): how many, and how many still run.
    pub fn jobs(&self) -> (usize, usize) {
        self.jobs
    }

    /// The turn started and not ended yet (a prompt sent now steers it).
    pub fn running(&self) -> Option<u64> {
        self.running
    }

    /// The card for a call id.
    pub fn card(&self, call_id: &str) -> Option<&ToolCard> {
        self.state.by_call.get(call_id).map(|&i| &*self.cards[i])
    }

    /// Cards still running (no result, turn not ended). O(1).
    pub fn running_cards(&self) -> usize {
        debug_assert_eq!(
            self.state.pending_count,
            self.cards
                .iter()
                .filter(|c| c.status == Status::Pending)
                .count()
        );
        self.state.pending_count
    }

    /// Cards that ended badly (error or failed). O(1).
    pub fn error_count(&self) -> usize {
        debug_assert_eq!(
            self.state.bad,
            self.cards
                .indexed()
                .filter(|(i, c)| !self.card_retired(*i) && c.status.is_bad())
                .count()
                + self.state.retired.bad
        );
        self.state.bad
    }
}
