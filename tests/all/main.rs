//! The integration tests, one binary: each module is one area (the files in
//! `tests/all/`), `common` holds the helpers they share. Run one area with a
//! filter: `cargo test --test all cards_prompt`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]

mod common;

mod acp_hangup;
mod acp_live;
mod acp_serve;
mod acp_stop;
mod agents_acp;
mod agents_acp_gemini;
mod agents_claude;
mod agents_claude_extras;
mod agents_claude_said;
mod agents_claude_truth;
mod agents_codex;
mod agents_turns;
mod broken;
mod cards_generic_read_search_web;
mod cards_prompt;
mod cards_terminal_diff;
mod cards_unknown_outcome;
mod cli;
mod cli_edges;
mod docs;
mod export;
mod fuzz_regressions;
mod kit_card;
mod kit_lint;
mod kit_schema;
mod library;
mod limits;
mod live_follow;
mod live_host;
mod live_listen;
mod live_record;
mod loader;
mod logging;
mod parity;
mod paths;
mod private;
mod prompts_on_calls;
mod props;
mod redact;
mod redact_agents;
mod redact_clean;
mod reducer;
mod render_tour;
mod truthful;
mod tui_acp;
mod tui_drive;
mod tui_file_sessions;
mod tui_keys;
mod tui_keys_pager_search_player;
mod tui_library;
mod tui_link;
mod tui_player;
mod tui_pty;
mod tui_pty_connect;
mod tui_pty_exits;
mod tui_pty_graphemes;
mod tui_pty_sessions;
mod tui_screens;
mod tui_theme_bg;
mod untrusted;
