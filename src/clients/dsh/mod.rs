//! The DSH host client: unary calls (`host.describe`, `session.list`,
//! `session.history`) over HTTP, the two WebSockets (`/api/events.mux`,
//! `/api/events.host`), stitching live frames with history pages,
//! reconnecting with backoff and pinging a silent host; and, when the user
//! asks ([`Control`]), prompts, cancels, answers to approvals and questions
//! (`POST /api/respond`) and new sessions (`actions`).

mod actions;
pub mod client;
mod frames;
pub mod history;
pub mod options;
mod recording;
pub mod rpc;
pub mod stitch;

pub use actions::create;
pub use client::run;
#[cfg_attr(not(feature = "internals"), allow(unused_imports))]
pub use options::{Backoff, Control, HostError, HostOptions, SessionChoice};
#[cfg_attr(not(feature = "internals"), allow(unused_imports))]
pub use rpc::{HostUrl, Rpc, RpcError};
