//! The clients that act on the world, beside the sources that only read:
//! `dsh` (a DSH host's client: WebSockets and RPC, reconnecting, its
//! history stitched in; it sends the user's prompts, answers and switches)
//! and `acp` (`deck acp`'s client of an agent spoken to over the Agent
//! Client Protocol: it starts the agent, serves its file reads and writes
//! and runs its terminals). Each hands what it receives to the same live
//! channel the sources use (`source::live`).

pub mod acp;
pub mod dsh;
