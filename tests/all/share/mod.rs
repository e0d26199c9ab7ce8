//! Sharing a session: `deck export` (the asciicast and the HTML page,
//! `export`) and redaction wherever a session leaves deck — export,
//! `deck render --redact`, the TUI with `R` — for deck's sessions
//! (`redact`), other agents' (`redact_agents`), and a project with no
//! secret in it, where redacting must damage nothing (`redact_clean`).

mod export;
mod redact;
mod redact_agents;
mod redact_clean;
