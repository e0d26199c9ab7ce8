//! The agents whose sessions deck reads — one folder each, one contract
//! ([`Agent`]), one registry ([`ALL`], in order of detection).
//!
//! An agent's folder holds everything about that producer of sessions, and
//! every folder is laid out the same way:
//!
//! * `mod.rs` — the agent: its [`Agent`] implementation (its name and its
//!   files' format, how its log lines are recognised, where it keeps its
//!   sessions and the environment variable that moves them, its newest
//!   session for a directory, how to resume one in the agent);
//! * `read.rs` + `read/` — its reader ([`read::Translate`]): its log lines
//!   into the same records as DSH's (session events with consecutive seqs,
//!   and a `session` header frame naming the agent), for a whole file and
//!   for one that grows (`deck follow`), so the one reducer folds them;
//! * `present.rs` + `present/` — its presenters: its tools' calls and
//!   results into views. Only an agent's own folder names its tools.
//!
//! The agents: `dsh/` (DSH, deck's own: its frames, session logs and
//! history documents are records as they are, read by the loader itself;
//! its folder holds those formats' parts and its stock tools' presenters),
//! and the others, each its own folder: `claude_code/`, `codex/`,
//! `gemini_cli/`, `qwen_code/`, `opencode/` (a SQLite database:
//! `Agent::database`; its older tree of JSON files: `Agent::tree`),
//! `copilot_cli/`, `cursor/`, `kimi/`, `pi/`, `cline/`, `cline_tasks/` (the
//! VS Code extensions' task folders), `grok/`, `atif/`, `mini_swe_agent/`
//! (with SWE-agent's trajectories), `aider/` (markdown: text lines,
//! `Agent::text_lines`) and `acp/` (any
//! agent spoken to over the Agent Client Protocol, as a recording holds
//! it). A new agent is a folder
//! here, a line in [`ALL`] and, the input formats being the library's
//! public [`Format`], a variant there; its fixtures go under
//! `tests/fixtures/agents/<name>/`, its end-to-end kit under
//! `tests/e2e/agents/<name>/`.
//!
//! This file holds the contract, the registry, [`Format`] and [`Stock`]
//! (the presenters every transcript is given); `read.rs` what the readers
//! share; `find.rs` the folder walks the agents' `sessions` and `latest`
//! share.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use std::time::SystemTime;

use serde_json::Value;

use crate::session::{Call, CallRole, Presented, Presenters, Settled, SharedPresenters};
use crate::source::feed::MakeLines;
use crate::source::follow::Aside;
use crate::wire::{Record, View};

use read::{Parsed, Translate};

pub mod acp;
pub mod atif;
pub mod aider;
pub mod claude_code;
pub mod cline;
pub mod cline_tasks;
pub mod codex;
pub mod copilot_cli;
pub mod cursor;
pub mod dsh;
pub mod find;
pub mod gemini_cli;
pub mod kimi;
pub mod opencode;
pub mod pi;
pub mod grok;
pub mod mini_swe_agent;
pub mod qwen_code;
pub mod read;
pub mod turns;
pub(crate) mod grep;
pub mod unified;

#[cfg(test)]
mod card_dump;
#[cfg(test)]
mod tests;

/// Every agent deck reads, in order of detection: the first whose line a
/// log line is ([`Agent::claims`]) reads the log. DSH is last: its lines
/// are records as they are, read by the loader before any agent is asked.
pub static ALL: &[&dyn Agent] = &[
    &acp::Acp,
    // Its lines are ACP notifications in an envelope of its own
    // (`{timestamp, method, params}`), no `dir`: never an ACP recording's.
    &grok::Grok,
    // Its lines are whole trajectories (`trajectory_format`, or SWE-agent's
    // `trajectory` + `history` + `info`): no other agent's.
    &mini_swe_agent::MiniSweAgent,
    // Before Claude Code's: its lines have Claude Code's `uuid` and
    // `sessionId`, and a `provenance` of their own.
    &qwen_code::QwenCode,
    &claude_code::ClaudeCode,
    &codex::Codex,
    &gemini_cli::GeminiCli,
    &opencode::OpenCode,
    &copilot_cli::CopilotCli,
    &cursor::Cursor,
    // `{timestamp, message: {type, payload}}` and nothing else, or its
    // `{type: "metadata", protocol_version}` header.
    &kimi::Kimi,
    // Entries have `id`/`parentId` (no other agent's lines do) or the
    // header `type: "session"` with a `cwd`.
    &pi::Pi,
    // One JSON document (`<id>.messages.json`), claimed by its shape.
    &cline::Cline,
    // One JSON document (a VS Code task's `api_conversation_history.json`,
    // a list of messages opening with the task): no line of a log.
    &cline_tasks::ClineTasks,
    // A trajectory's root (`schema_version: "ATIF-v…"`): no other's line.
    &atif::Atif,
    // Claims no JSON line: its files are text lines (`Agent::text_lines`).
    &aider::Aider,
    &dsh::Dsh,
];

/// One row of an agent's mapping table ([`Agent::mapping`]): tools it
/// names, and the card they become.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mapping {
    /// The tools' names, as the agent writes them.
    pub tools: &'static [&'static str],
    /// The card: a card tag (`terminal`, `read`, `diff`, `search`, `web`,
    /// `generic`), or `plan` (the checklist: [`CallRole::Plans`]) or
    /// `question` ([`CallRole::Asks`]).
    pub card: &'static str,
}

/// Where a session document's entries are ([`Agent::document_entries`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entries {
    /// The list under this member of the document's object.
    Member(&'static str),
    /// The document is the list.
    Whole,
}

/// One producer of sessions, as deck knows it. Each agent's folder
/// implements it once; the loader, the library, `deck follow --latest`
/// and the presenters ask the registry ([`ALL`]) rather than naming one.
pub trait Agent: std::fmt::Debug + Send + Sync {
    /// Its name: the `agent` of the `session` header its reader writes,
    /// the library's, what picks its presenters (`claude-code`).
    fn name(&self) -> &'static str;

    /// The format the loader names its files by.
    fn format(&self) -> Format;

    /// Its files, in words (`Claude Code session`): [`Format::name`].
    fn title(&self) -> &'static str;

    /// Whether the loader hands the log line `v` (parsed JSON) to this
    /// agent's reader, judged from its shape alone. DSH claims none: its
    /// lines are records as they are, read before any agent is asked.
    fn claims(&self, v: &Value) -> bool;

    /// Whether a file whose first bytes (decompressed) are `head` is one of
    /// its: the first line of `head` that is a JSON object is its, or (a
    /// file of text lines: [`Agent::text_lines`]) its first line that is
    /// not blank.
    fn recognise(&self, head: &[u8]) -> bool {
        match read::first_object_line(head) {
            Some(v) => self.claims(&v),
            None => read::first_text_line(head).is_some_and(|l| self.text_lines(l)),
        }
    }

    /// Whether a file whose first line that is not blank is `first` is a
    /// session file of its made of text lines rather than JSON ones
    /// (aider's markdown chat history: `# aider chat started at …`). The
    /// loader then hands every line of the file — blank ones too, in
    /// order, without its newline — to its reader as a JSON string
    /// (`Value::String`, through [`Translate::line`]), for a file read
    /// whole and one followed (`deck follow`) alike, streamed; no line of
    /// it is read as JSON. Judged from the line's text alone, never
    /// claiming a JSON line.
    fn text_lines(&self, _first: &str) -> bool {
        false
    }

    /// One of its lines read from its text, on the loader's decoder
    /// threads, without a JSON tree (for logs large enough to want it);
    /// `None`: the line is read as JSON and offered to [`Agent::claims`].
    fn read_text(&self, _line: &str) -> Option<Box<dyn Parsed>> {
        None
    }

    /// The session's working directory as a file the agent keeps beside
    /// the session file says it, for a log that does not (Cline's manifest,
    /// Grok Build's `summary.json`): the library's row and a resume use it.
    fn side_cwd(&self, _session_file: &Path) -> Option<String> {
        None
    }

    /// Whether its reader draws only once its input ends (pi's tree: the
    /// path taken is known only from the last entry). `deck follow` then
    /// reads the file again whole each time it changes, rather than its
    /// new lines.
    fn draws_at_end(&self) -> bool {
        false
    }

    /// Whether it has a text reader ([`Agent::read_text`]): the loader then
    /// tries it on each line before reading the line as a JSON tree.
    fn reads_text(&self) -> bool {
        false
    }

    /// A reader of its lines into deck's records, for a file read whole or
    /// one followed as it grows. `None` for DSH, whose lines the loader
    /// reads itself.
    fn reader(&self) -> Option<Box<dyn Translate>>;

    /// A session file of its that is one JSON document (spread over lines:
    /// Gemini CLI's older `session-*.json`) as the lines its reader takes;
    /// `None`: `doc` is not one of its.
    fn document(&self, _doc: &Value) -> Option<Vec<Value>> {
        None
    }

    /// Where a session document of its keeps its entries, so that it is
    /// read as a stream (`load/document.rs`), never held as one tree: the
    /// reader takes the document's other members as a line (`Entries::
    /// Member`: without that member), then each entry alone
    /// ([`Translate::entry`]). `shape` is the document with its top-level
    /// lists emptied (a document that is a list: its first element alone).
    /// `None`: not one of its, or one read whole ([`Agent::document`]).
    fn document_entries(&self, _shape: &Value) -> Option<Entries> {
        None
    }

    /// A store of its that is a database, not a log (OpenCode's
    /// `opencode.db`, a SQLite file), read at `path`: every session's rows
    /// handed to `row` in order, as the lines its reader takes, or why the
    /// database could not be read. Opened read-only, never locking the
    /// running agent out, and never held whole. `None`: the database at
    /// `path` is not one of its.
    fn database(&self, _path: &Path, _row: &mut dyn FnMut(Value)) -> Option<Result<(), String>> {
        None
    }

    /// One session of its database at `path` ([`Agent::database`]'s), for
    /// `deck follow`: the one `pick` names, its rows handed to `row` as
    /// `database` hands them, in one short read transaction that never
    /// waits long on a writer ([`DatabaseRead::Busy`]: look again later).
    /// `None`: the database at `path` is not one of its.
    fn database_session(
        &self,
        _path: &Path,
        _pick: SessionPick<'_>,
        _row: &mut dyn FnMut(Value),
    ) -> Option<Result<DatabaseRead, String>> {
        None
    }

    /// A session of its kept as a tree of files rather than one log
    /// (OpenCode's older `storage/`: an info file, a file per message, a
    /// file per part), read from the path of the file that roots it: its
    /// rows handed to `row` in order, as the lines its reader takes, a file
    /// at a time (never the tree held), or why the tree could not be read.
    /// `None`: the file roots no tree of its (judged from its content).
    fn tree(&self, _path: &Path, _row: &mut dyn FnMut(Value)) -> Option<Result<(), String>> {
        None
    }

    /// The size and last change (ns since the epoch) of the session whose
    /// tree ([`Agent::tree`]) the file at `path` roots, every file of the
    /// tree counted — so that the library reads the session again when a
    /// file of it is added or written again; `None`: `path` roots no tree
    /// of its. From names and metadata only.
    fn stamp(&self, _path: &Path) -> Option<(u64, i64)> {
        None
    }

    /// Its presenters (its tools' names → views), for its sessions. `None`
    /// for DSH, whose are the stock ones every transcript starts with.
    fn presenters(&self) -> Option<SharedPresenters>;

    /// Its mapping table: which of its tools become which card
    /// (`docs/agents.md`'s table for it is checked against this, and this
    /// against what its presenters draw of its fixtures). Empty: its cards
    /// are not chosen by tool name (DSH's host sends its views; an ACP
    /// agent's calls say their kind).
    fn mapping(&self) -> &'static [Mapping] {
        &[]
    }

    /// Where it keeps its sessions on this machine; `None`: nowhere of its
    /// own (ACP recordings are where `--record` wrote them).
    fn home(&self) -> Option<Home> {
        None
    }

    /// Its folder on this machine: [`Agent::home`] as the environment
    /// says.
    fn root(&self) -> Option<PathBuf> {
        let home = etcetera::home_dir().ok();
        self.home()?.resolve(|var| std::env::var_os(var), home.as_deref())
    }

    /// Its session files under its folder `root`, for the library (only
    /// names and metadata are read).
    fn sessions(&self, _root: &Path) -> Vec<PathBuf> {
        Vec::new()
    }

    /// Whether a file named `name` in a folder the user adds to the
    /// library (`--dir`) is a session of its though not a `.jsonl` log
    /// (aider's `.aider.chat.history.md`, kept in each repository).
    fn session_file_name(&self, _name: &str) -> bool {
        false
    }

    /// Whether the file at `path` is part of another session of its (read
    /// with that one, so never listed on its own): a Claude Code
    /// subagent's log.
    fn part_of_another(&self, _path: &Path) -> bool {
        false
    }

    /// The word `deck follow --latest` takes for it (`claude`); `None`:
    /// its newest session for a directory is not looked for.
    fn latest_word(&self) -> Option<&'static str> {
        None
    }

    /// Its newest session under its folder `root` whose directory is
    /// `cwd`, among the files modified at `since` or later, or why there is
    /// none (naming where deck looked): what `deck follow --latest` opens.
    fn latest(&self, root: &Path, _cwd: &Path, _since: SystemTime) -> Result<PathBuf, String> {
        Err(format!(
            "{}s are not looked for by directory (under {})",
            self.title(),
            root.display()
        ))
    }

    /// The command that resumes session `id` (whose directory was `cwd`)
    /// in the agent itself; `None` when it cannot be resumed.
    fn resume(&self, _id: &str, _cwd: Option<&Path>) -> Option<Resume> {
        None
    }

    /// What it keeps beside a session's log (side files, subagents' logs),
    /// for the loader to read in; `None`: nothing.
    fn beside(&self) -> Option<&'static dyn Beside> {
        None
    }
}

/// An agent's side-file hook: what it keeps beside a session's log (saved
/// output, subagents' logs), read in when the log is read from a path. The
/// loader calls it and hands it what it needs (a reader of another log,
/// a maker of line pipelines); it never calls the loader.
pub trait Beside: Sync {
    /// Put what is beside session `id` of the log `log` into the session's
    /// `records`, the log read whole. `read(name, path)` reads another log
    /// of the agent's (a subagent's) into records, its messages calling it
    /// `name`.
    fn attach(&self, log: &Path, id: &str, records: &mut Vec<Record>, read: &ReadLog<'_>);

    /// What is beside session `id` of the log `log`, for a reader that
    /// takes the records as they come (the library's index).
    fn streaming(&self, log: &Path, id: &str) -> Streaming;

    /// What is beside the log `log` while it is followed (`deck follow`),
    /// read as it grows; `lines` makes the line pipeline another log of
    /// the agent's is read through.
    fn follow(&self, log: &Path, lines: MakeLines) -> Box<dyn Aside>;
}

/// Reads a log into records (`read(name, path)`), or says why it could not.
pub type ReadLog<'a> = dyn Fn(&str, &Path) -> Result<Vec<Record>, String> + 'a;

/// Puts into records what they need from beside their log, as they come.
pub type Fill = Box<dyn Fn(&mut [Record]) + Send>;

/// What is beside a session, for a reader taking its records as they come.
pub enum Streaming {
    /// Nothing.
    Nothing,
    /// What each record needs from beside it is put in as it comes.
    Fill(Fill),
    /// Only a whole read places what is beside it (why).
    Whole(String),
}

/// Which session of a database to read ([`Agent::database_session`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionPick<'a> {
    /// The session with this id.
    Id(&'a str),
    /// The session changed last (a subagent's aside), of the directory
    /// given if one is.
    Newest(Option<&'a Path>),
}

/// What reading one session of a database came to
/// ([`Agent::database_session`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DatabaseRead {
    /// Its rows were handed on: the session's id.
    Read(String),
    /// No session is the one picked.
    Missing,
    /// A writer held the database past a short wait: nothing was read.
    Busy,
}

/// Where an agent keeps its sessions: a folder an environment variable
/// names, else one under the home folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Home {
    /// The environment variable that moves it (`CLAUDE_CONFIG_DIR`).
    pub var: &'static str,
    /// The folder under the home folder otherwise (`.claude`).
    pub dir: &'static str,
    /// Its folder under the one the variable names: empty when the
    /// variable names the agent's folder itself; `.gemini` for Gemini
    /// CLI, whose `$GEMINI_CLI_HOME` stands for the home folder.
    pub under_var: &'static str,
}

impl Home {
    /// The folder: `$var` when set and not empty (`env` looks variables
    /// up; `under_var` under it), else `dir` under `home`.
    pub fn resolve(
        &self,
        env: impl Fn(&str) -> Option<OsString>,
        home: Option<&Path>,
    ) -> Option<PathBuf> {
        match env(self.var).filter(|v| !v.is_empty()) {
            Some(v) if self.under_var.is_empty() => Some(PathBuf::from(v)),
            Some(v) => Some(PathBuf::from(v).join(self.under_var)),
            None => home.map(|h| h.join(self.dir)),
        }
    }
}

/// A command that resumes a session in its agent (`claude --resume ID`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resume {
    pub program: &'static str,
    pub args: Vec<String>,
    /// Where to run it, when the agent resumes a session only there.
    pub cwd: Option<PathBuf>,
}

/// The agent named `name` ([`Agent::name`]).
pub fn by_name(name: &str) -> Option<&'static dyn Agent> {
    ALL.iter().copied().find(|a| a.name() == name)
}

/// The agent whose reader the log line `v` goes to ([`Agent::claims`]),
/// the first in order of detection.
pub fn of_line(v: &Value) -> Option<&'static dyn Agent> {
    ALL.iter().copied().find(|a| a.claims(v))
}

/// The agent whose session files are text lines, a file's first line that
/// is not blank being `first` ([`Agent::text_lines`]).
pub fn of_text(first: &str) -> Option<&'static dyn Agent> {
    ALL.iter().copied().find(|a| a.text_lines(first))
}

/// The agent whose file starts with `head` ([`Agent::recognise`]), the
/// first in order of detection. (The loader recognises a file line by
/// line as it reads it: [`of_line`].)
pub fn of_head(head: &[u8]) -> Option<&'static dyn Agent> {
    ALL.iter().copied().find(|a| a.recognise(head))
}

/// The agent `deck follow --latest WORD` names ([`Agent::latest_word`]).
pub fn by_latest_word(word: &str) -> Option<&'static dyn Agent> {
    ALL.iter().copied().find(|a| a.latest_word() == Some(word))
}

/// The words `deck follow --latest` takes, in the registry's order.
pub fn latest_words() -> Vec<&'static str> {
    ALL.iter().filter_map(|a| a.latest_word()).collect()
}

/// The input formats deck reads: DSH's three, and each other agent's
/// session files (its `Agent::format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Format {
    /// A frame log: one WebSocket message per line.
    FrameLog,
    /// A DSH session log (`session.jsonl`, `session.jsonl.zstd`).
    SessionLog,
    /// A `session.history` response: one JSON document of pages.
    History,
    /// A Claude Code session (`~/.claude/projects/…/<id>.jsonl`).
    ClaudeCode,
    /// A Codex CLI rollout (`~/.codex/sessions/…/rollout-*.jsonl`).
    Codex,
    /// An Agent Client Protocol recording (`{t, dir, msg}` lines).
    Acp,
    /// A Gemini CLI session (`~/.gemini/tmp/…/chats/session-*.jsonl`).
    GeminiCli,
    /// A Qwen Code session (`~/.qwen/projects/…/chats/<id>.jsonl`).
    QwenCode,
    /// OpenCode's session store: its database
    /// (`~/.local/share/opencode/opencode.db`), or a session of its older
    /// tree of JSON files (`…/opencode/storage/session/<project>/<id>.json`).
    OpenCode,
    /// A GitHub Copilot CLI session
    /// (`~/.copilot/session-state/<id>/events.jsonl`).
    CopilotCli,
    /// A Cursor agent transcript
    /// (`~/.cursor/projects/…/agent-transcripts/<id>/<id>.jsonl`).
    Cursor,
    /// A pi session (`~/.pi/agent/sessions/--<cwd>--/<time>_<id>.jsonl`).
    Pi,
    /// A Kimi Code CLI session's wire log
    /// (`~/.kimi/sessions/<md5 of the directory>/<id>/wire.jsonl`).
    Kimi,
    /// A Cline CLI session (`~/.cline/data/sessions/<id>/<id>.messages.json`).
    Cline,
    /// A VS Code task of Cline's, Roo Code's or Kilo Code's
    /// (`<user dir>/globalStorage/<extension>/tasks/<id>/api_conversation_history.json`).
    ClineTasks,
    /// A Grok Build session (`~/.grok/sessions/<cwd>/<id>/updates.jsonl`).
    Grok,
    /// A Harbor ATIF trajectory (`trajectory.json`).
    Atif,
    /// An aider chat history (`.aider.chat.history.md` in a repository):
    /// markdown, read as text lines.
    Aider,
    /// A mini-swe-agent trajectory (`*.traj.json`) or a SWE-agent one
    /// (`*.traj`): one JSON document.
    MiniSweAgent,
}

impl Format {
    /// The format in words: an agent's is its files' title.
    pub fn name(self) -> &'static str {
        match self {
            Format::FrameLog => "frame log",
            Format::History => "history",
            _ => self.agent().title(),
        }
    }

    /// The agent whose files are in this format (DSH's: frame logs,
    /// session logs, history documents).
    pub(crate) fn agent(self) -> &'static dyn Agent {
        ALL.iter()
            .copied()
            .find(|a| a.format() == self)
            .unwrap_or(&dsh::Dsh)
    }
}

/// deck's presenters, as the session asks for them: DSH's stock tools'
/// (`dsh::present`), and each agent's for its sessions
/// (`Agent::presenters`, through the registry). What every transcript
/// deck builds is given ([`stock`]), so live, replay and headless make the
/// same cards.
#[derive(Debug, Clone, Copy, Default)]
pub struct Stock;

impl Presenters for Stock {
    fn call_view(&self, call: Call<'_>) -> Option<View> {
        dsh::present::call_view(call)
    }

    fn result_view(&self, settled: &Settled<'_>) -> Option<Presented> {
        dsh::present::result_view(settled).map(Presented::View)
    }

    fn role(&self, tool: &str) -> CallRole {
        dsh::present::role(tool)
    }

    fn for_agent(&self, agent: &str) -> Option<SharedPresenters> {
        by_name(agent)?.presenters()
    }
}

/// The stock presenters, shared: give these to every [`Transcript`] deck
/// builds.
///
/// [`Transcript`]: crate::session::Transcript
pub fn stock() -> SharedPresenters {
    static STOCK: OnceLock<SharedPresenters> = OnceLock::new();
    Arc::clone(STOCK.get_or_init(|| Arc::new(Stock)))
}

/// An agent's presenters made once and shared (`cell` holds them).
fn shared(
    cell: &'static OnceLock<SharedPresenters>,
    make: fn() -> SharedPresenters,
) -> SharedPresenters {
    Arc::clone(cell.get_or_init(make))
}
