//! Live sources: `follow` on a growing file (appends, truncation,
//! rotation), `listen` on a socket, the host client against a fake host
//! (`host`: late join, reconnects), and `deck record` (`record`). Every wait
//! is bounded.

mod follow;
mod host;
mod listen;
mod record;
