//! Command-line interface: clap derive types only; `main.rs` runs them.

use clap::{Parser, Subcommand, ValueEnum};

#[derive(Debug, Parser)]
#[command(name = "deck", version, about = "A terminal client for DeepSeek Harness (DSH) sessions")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum FormatArg {
    Text,
    Ansi,
    Styled,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum DensityArg {
    Line,
    Preview,
    Full,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Render a session (frame log, session log, or history) without a terminal UI.
    Render {
        /// Input file; `-` reads stdin. Plain or zstd-compressed.
        path: String,
        /// Columns to lay out at.
        #[arg(long, default_value_t = 100)]
        width: usize,
        /// Show only one screen: the last H rows.
        #[arg(long)]
        height: Option<usize>,
        /// The state after event SEQ.
        #[arg(long)]
        at: Option<u64>,
        #[arg(long, value_enum, default_value_t = FormatArg::Text)]
        format: FormatArg,
        /// Theme name (dark, light, no-color) or path to a theme .toml.
        #[arg(long)]
        theme: Option<String>,
        #[arg(long, value_enum, default_value_t = DensityArg::Preview)]
        density: DensityArg,
        /// Session id, when the input holds several.
        #[arg(long)]
        session: Option<String>,
        /// Hide reasoning blocks.
        #[arg(long)]
        no_reasoning: bool,
    },
    /// One JSON line per tool call: status, views and where they came from.
    Inspect {
        path: String,
        #[arg(long)]
        session: Option<String>,
        /// List diagnostics (skipped or repaired lines) instead of tool calls.
        #[arg(long)]
        diagnostics: bool,
        /// List the sessions in the input instead of tool calls.
        #[arg(long)]
        sessions: bool,
    },
}
