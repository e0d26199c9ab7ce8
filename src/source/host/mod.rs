//! The DSH host client: unary calls (`host.describe`, `session.list`,
//! `session.history`) over HTTP, the two WebSockets (`/api/events.mux`,
//! `/api/events.host`), stitching live frames with history pages, and
//! reconnecting with backoff. It only reads: it never prompts, cancels or
//! answers approvals.

pub mod client;
pub mod history;
pub mod options;
pub mod rpc;
pub mod stitch;

pub use client::run;
pub use options::{Backoff, Control, HostError, HostOptions, SessionChoice};
pub use rpc::{HostUrl, Rpc, RpcError};
