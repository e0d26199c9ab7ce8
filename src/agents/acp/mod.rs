//! Agent Client Protocol recordings (`{t, dir, msg}` lines, as `deck acp
//! --record` writes them): the messages both ways read into deck's records
//! (`read`), and presenters for ACP's tool calls, drawn from their `kind`
//! and content (`present`).

pub mod present;
pub mod read;
