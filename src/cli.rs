//! Command-line interface: clap derive types only; `commands` runs them.

use clap::{Parser, Subcommand, ValueEnum};

use crate::cards::Density;
use crate::headless::Format;

#[derive(Debug, Parser)]
#[command(
    name = "deck",
    version,
    about = "A terminal client for DeepSeek Harness (DSH) sessions"
)]
pub struct Cli {
    /// With no command: play the bundled demo session.
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    /// An asciicast v2 recording of the replay (`asciinema play out.cast`).
    Cast,
    /// One self-contained HTML page with every card.
    Html,
}

/// Options shared by the interactive commands.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct TuiArgs {
    #[arg(long, help = theme_help(true))]
    pub theme: Option<String>,
    /// Initial density of every card.
    #[arg(long, value_enum)]
    pub density: Option<Density>,
}

/// Player options.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct PlayerArgs {
    /// Playback speed (0.25 … 64).
    #[arg(long)]
    pub speed: Option<f64>,
    /// Cap idle gaps between events to this many seconds.
    #[arg(long)]
    pub idle_limit: Option<f64>,
    /// Start paused.
    #[arg(long)]
    pub paused: bool,
    /// Start at an event seq (`120`) or a time (`1:30`, `90s`).
    #[arg(long)]
    pub at: Option<String>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play the bundled showcase session (also what `deck` alone does).
    Demo {
        #[command(flatten)]
        tui: TuiArgs,
        #[command(flatten)]
        player: PlayerArgs,
    },
    /// Play a saved session with its original timing.
    Replay {
        path: String,
        /// Open this session of a file holding several (without it such a
        /// file opens the session picker).
        #[arg(long)]
        session: Option<String>,
        #[command(flatten)]
        tui: TuiArgs,
        #[command(flatten)]
        player: PlayerArgs,
    },
    /// Open the final state of a session at once, for reading.
    View {
        path: String,
        /// Open this session of a file holding several (without it such a
        /// file opens the session picker).
        #[arg(long)]
        session: Option<String>,
        #[command(flatten)]
        tui: TuiArgs,
    },
    /// Turn a session into something others can play or read: an asciicast
    /// of its replay, or an HTML page.
    Export(ExportArgs),
    /// Render a session (frame log, session log, or history) without a terminal UI.
    Render(RenderArgs),
    /// Measure deck's frame and pager times (for the bench scripts; hidden
    /// from `--help`).
    #[command(hide = true)]
    Bench {
        #[command(subcommand)]
        what: BenchCommand,
    },
    /// One JSON line per tool call: status, views and where they came from.
    Inspect {
        path: String,
        /// The session of a file holding several (default: the first).
        #[arg(long)]
        session: Option<String>,
        /// List diagnostics (skipped or repaired lines) instead of tool calls.
        #[arg(long)]
        diagnostics: bool,
        /// List the sessions in the input instead of tool calls.
        #[arg(long)]
        sessions: bool,
        /// List the turns (how each ended, its token usage) and the
        /// compactions instead of tool calls.
        #[arg(long, conflicts_with_all = ["diagnostics", "sessions"])]
        turns: bool,
    },
    /// Print the JSON Schema (draft 2020-12) of the views deck draws.
    ///
    /// The six cards, their fields, which are required, the enums, and
    /// what deck does with unknown fields; derived from the types deck
    /// decodes views with.
    Schema {
        /// Only this card's schema.
        #[arg(long, value_name = "TAG", value_parser = clap::builder::PossibleValuesParser::new(crate::wire::view::CARD_TAGS))]
        card: Option<String>,
    },
    /// List the views that would fall back to the generic card (exit 1) or look poor.
    ///
    /// Reads a frame log, a session log or one view (a JSON object). Each
    /// finding: `PATH:LINE: error|warning: call ID (tool NAME): result
    /// view: FIELD: why`. Exit 0 with warnings alone, 1 when a view falls
    /// back or is not used, 2 when the input cannot be read.
    Lint(LintArgs),
    /// Draw one view (a JSON object) as deck draws it: the card of a finished call.
    Card(CardArgs),
    /// Show frames written to stdin, a unix socket or a TCP port, live.
    Listen {
        /// `-` (stdin), `unix:PATH` or `tcp:[HOST:]PORT` (loopback by default).
        #[arg(default_value = "-")]
        endpoint: String,
        /// Show this session (default: the first one named).
        #[arg(long)]
        session: Option<String>,
        #[command(flatten)]
        tui: TuiArgs,
    },
    /// Show a session log as it grows (like `tail -f`): a DSH frame log or
    /// session.jsonl, another agent's session log, or a session of an
    /// agent's database (shown again as it changes).
    Follow {
        /// The file (or `--latest AGENT`).
        #[arg(required_unless_present = "latest")]
        path: Option<std::path::PathBuf>,
        /// The newest session of an agent for the current directory, looked
        /// for where the agent keeps its sessions (`$CLAUDE_CONFIG_DIR` or
        /// `~/.claude`, `$CODEX_HOME` or `~/.codex`, …: docs/agents.md); with
        /// none yet, the first one the agent writes (deck waits for it).
        #[arg(long, conflicts_with = "path",
              value_parser = clap::builder::PossibleValuesParser::new(crate::agents::latest_words()))]
        latest: Option<String>,
        #[arg(long)]
        session: Option<String>,
        #[command(flatten)]
        tui: TuiArgs,
    },
    /// Show a session of a running DSH host live.
    Connect {
        #[arg(default_value = "http://127.0.0.1:3080")]
        url: String,
        /// The session to show.
        #[arg(long, conflicts_with = "latest")]
        session: Option<String>,
        /// The most recently active session (the default).
        #[arg(long)]
        latest: bool,
        /// Create a session (`session.create`) and show it.
        #[arg(long, conflicts_with_all = ["session", "latest"])]
        new: bool,
        /// Where new sessions start (`--new`, and `n` in the session picker);
        /// default: the current directory.
        #[arg(long, value_name = "DIR")]
        cwd: Option<std::path::PathBuf>,
        /// The agent preset of new sessions (default: the host's).
        #[arg(long, value_name = "NAME")]
        preset: Option<String>,
        #[command(flatten)]
        tui: TuiArgs,
    },
    /// Every agent's sessions on this machine: a list to open them from,
    /// and search across all of them (`deck sessions search QUERY`).
    Sessions(SessionsArgs),
    /// Drive an agent that speaks the Agent Client Protocol (`deck acp -- gemini --acp`).
    Acp(AcpArgs),
    /// Write everything a host or live source sends to a file, one message per line.
    Record {
        /// A host URL (`http://127.0.0.1:3080`), `-`, `unix:PATH`, `tcp:[HOST:]PORT`, or a file to follow.
        source: String,
        /// The recording to write (created or truncated).
        #[arg(short, long)]
        output: std::path::PathBuf,
        /// Host: backfill only this session (default: every session).
        #[arg(long)]
        session: Option<String>,
        /// Stop after this many seconds.
        #[arg(long)]
        duration: Option<f64>,
    },
}

#[derive(Debug, Subcommand)]
pub enum BenchCommand {
    /// Open the pager on the heaviest tool card and time it; prints
    /// `first <µs> rows <n> text_ms <ms> colours_ms <ms> jumps p50 <µs> p99 <µs> max <µs>`.
    Pager {
        path: String,
        #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u16).range(1..))]
        width: u16,
        #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u16).range(1..))]
        height: u16,
        /// Frames timed after jumps once the card is laid out.
        #[arg(long, default_value_t = 200)]
        jumps: usize,
        /// Longest wait for the layout thread, in ms.
        #[arg(long, default_value_t = 120_000)]
        wait_ms: u64,
        #[arg(long)]
        session: Option<String>,
    },
    /// Load once, then draw N screens at random scroll positions and focus
    /// changes; prints `p50 <µs> p99 <µs> max <µs>`.
    Frames {
        path: String,
        #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u16).range(1..))]
        width: u16,
        #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u16).range(1..))]
        height: u16,
        #[arg(long, default_value_t = 1000)]
        iterations: usize,
        #[arg(long)]
        session: Option<String>,
    },
}

/// `deck export`.
#[derive(Debug, clap::Args)]
pub struct ExportArgs {
    /// Input file; `-` reads stdin.
    pub path: String,
    /// What to write [default: from the output's name: `.cast` or `.html`].
    #[arg(long, value_enum)]
    pub format: Option<ExportFormat>,
    /// Where to write (`-`: stdout).
    #[arg(short, long)]
    pub output: String,
    /// Columns of the recorded terminal (cast; an HTML page wraps to the
    /// browser's window).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u16).range(20..))]
    pub width: u16,
    /// Rows of the recorded terminal (cast).
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u16).range(5..))]
    pub height: u16,
    /// Playback speed of the recording (cast).
    #[arg(long, default_value_t = 1.0)]
    pub speed: f64,
    /// Cap idle gaps between events to this many seconds (cast).
    #[arg(long, default_value_t = 2.0)]
    pub idle_limit: f64,
    #[arg(long, help = theme_help(false))]
    pub theme: Option<String>,
    /// Session id, when the input holds several (default: the first).
    #[arg(long)]
    pub session: Option<String>,
    /// Replace secrets (keys, tokens, passwords, private keys, the home
    /// folder) by `‹redacted:KIND›` [the default for exports].
    #[arg(long, conflicts_with = "no_redact")]
    pub redact: bool,
    /// Export the session as it is, secrets and all.
    #[arg(long)]
    pub no_redact: bool,
    /// List on stderr what was redacted: kind, session and card, a line
    /// each (never the values).
    #[arg(long, conflicts_with = "no_redact")]
    pub redact_report: bool,
}

/// `deck render`.
#[derive(Debug, clap::Args)]
pub struct RenderArgs {
    /// Input file; `-` reads stdin. Plain or zstd-compressed.
    pub path: String,
    /// Columns to lay out at.
    #[arg(long, default_value_t = 100, value_parser = positive)]
    pub width: usize,
    /// Show only one screen: the last H rows.
    #[arg(long, value_parser = positive)]
    pub height: Option<usize>,
    /// The state after event SEQ.
    #[arg(long)]
    pub at: Option<u64>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    #[arg(long, help = theme_help(false))]
    pub theme: Option<String>,
    /// How much of each card to show [default: the config file's, else preview].
    #[arg(long, value_enum)]
    pub density: Option<Density>,
    /// Session id, when the input holds several (default: the first).
    #[arg(long)]
    pub session: Option<String>,
    /// Hide reasoning blocks.
    #[arg(long)]
    pub no_reasoning: bool,
    /// Replace secrets (keys, tokens, passwords, private keys, the home
    /// folder) by `‹redacted:KIND›`, as `deck export` does by default.
    #[arg(long)]
    pub redact: bool,
    /// With --redact: list on stderr what was redacted (kind, session,
    /// card; never the values).
    #[arg(long, requires = "redact")]
    pub redact_report: bool,
}

/// `deck sessions`.
#[derive(Debug, clap::Args)]
pub struct SessionsArgs {
    #[command(subcommand)]
    pub search: Option<SessionsCommand>,
    /// Only this agent's sessions: dsh, claude-code, codex, acp.
    #[arg(long, global = true, value_name = "AGENT")]
    pub agent: Option<String>,
    /// Only sessions run in DIR (`.`: the current directory).
    #[arg(long, global = true, value_name = "DIR")]
    pub cwd: Option<std::path::PathBuf>,
    /// Only sessions active on or after DATE (YYYY-MM-DD, UTC).
    #[arg(long, global = true, value_name = "DATE")]
    pub since: Option<String>,
    /// Look in DIR too (again for more; besides the config file's
    /// `[library] dirs`).
    #[arg(long = "dir", global = true, value_name = "DIR")]
    pub dirs: Vec<std::path::PathBuf>,
    /// One JSON object per line (a session, or a search hit) instead of
    /// the full-screen list.
    #[arg(long, global = true)]
    pub json: bool,
    /// Build the index anew (it lives in `$XDG_CACHE_HOME/deck/index`).
    #[arg(long, global = true)]
    pub reindex: bool,
    #[command(flatten)]
    pub tui: TuiArgs,
}

/// `deck sessions search`.
#[derive(Debug, Subcommand)]
pub enum SessionsCommand {
    /// Find text in the prompts, answers, commands, outputs, paths and
    /// diffs of every session: words, "phrases", and filters (`agent:codex`,
    /// `tool:bash`, `kind:diff`, `path:src/lib.rs`, `error:true`,
    /// `after:2026-11-01`, `before:…`).
    Search {
        #[arg(required = true, value_name = "QUERY")]
        query: Vec<String>,
        /// At most this many hits.
        #[arg(long, default_value_t = 50, value_parser = positive)]
        limit: usize,
    },
}

/// `deck acp`.
#[derive(Debug, clap::Args)]
pub struct AcpArgs {
    /// The session's working directory: files the agent reads or writes
    /// must lie inside it (default: the current directory).
    #[arg(long, value_name = "DIR")]
    pub cwd: Option<std::path::PathBuf>,
    /// Write every message both ways to FILE (`deck view FILE` draws it).
    #[arg(long, value_name = "FILE")]
    pub record: Option<std::path::PathBuf>,
    /// Without the terminal view: send these prompts in order, then render
    /// the session to stdout.
    #[arg(long, value_name = "TEXT")]
    pub prompt: Vec<String>,
    /// With --prompt: allow every permission request once.
    #[arg(long, requires = "prompt", conflicts_with = "reject")]
    pub allow: bool,
    /// With --prompt: reject every permission request (the default).
    #[arg(long, requires = "prompt")]
    pub reject: bool,
    /// With --prompt: columns to render at.
    #[arg(long, default_value_t = 100, value_parser = positive)]
    pub width: usize,
    #[command(flatten)]
    pub tui: TuiArgs,
    /// The agent and its arguments, after `--`.
    #[arg(last = true, required = true, value_name = "CMD")]
    pub command: Vec<String>,
}

/// `deck lint`.
#[derive(Debug, clap::Args)]
pub struct LintArgs {
    /// A frame log, a session log or one view (a JSON object); `-` reads stdin.
    pub path: String,
    #[arg(long, value_enum, default_value_t = LintFormat::Text)]
    pub format: LintFormat,
}

/// How `deck lint` writes its findings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LintFormat {
    /// `PATH:LINE: error|warning: …`, a line each (what GitHub's and
    /// GitLab's problem matchers and editors read).
    Text,
    /// One JSON object per line, a finding each.
    Json,
    /// GitHub Actions workflow commands (`::error file=PATH,line=N::…`):
    /// annotations on the pull request without a problem matcher.
    Github,
}

/// `deck card`.
#[derive(Debug, clap::Args)]
pub struct CardArgs {
    /// The view: a JSON file; `-` reads stdin.
    pub path: String,
    /// Columns to draw at.
    #[arg(long, default_value_t = 80, value_parser = positive)]
    pub width: usize,
    /// Theme: a built-in (dark, light …), a user theme, or a .toml path [default: dark;
    /// the config file is not read, so that the card draws alike everywhere].
    #[arg(long)]
    pub theme: Option<String>,
    /// How much of the card to show.
    #[arg(long, value_enum, default_value_t = Density::Full)]
    pub density: Density,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// A whole number of at least 1 (columns, rows).
fn positive(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(0) => Err("must be at least 1".into()),
        Ok(n) => Ok(n),
        Err(e) => Err(e.to_string()),
    }
}

/// `--theme`'s help: every built-in theme by name.
fn theme_help(interactive: bool) -> String {
    let names: Vec<&str> = crate::theme::BUILTIN.iter().map(|(n, _)| *n).collect();
    let auto = if interactive {
        "auto (from the terminal's background; the default), "
    } else {
        "auto (COLORFGBG, else dark), "
    };
    format!(
        "Theme: {auto}{}, a user theme (a .toml in the config folder's themes/), or a .toml path",
        names.join(", ")
    )
}
