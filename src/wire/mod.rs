//! The lenient serde model of what DSH sends and stores: session events,
//! WebSocket frames (envelopes and bare), and render intents (views).
//!
//! Parsing here never panics and never drops input silently: what does not
//! fit is returned as a [`WireError`] that callers turn into a diagnostic.
//! The raw JSON is kept next to every typed value, as text ([`RawJson`]).

pub(crate) mod de;
pub mod error;
pub mod event;
mod fast;
pub mod frame;
pub mod kind;
pub mod payload;
pub mod raw;
pub mod read_prefix;
pub mod record;
pub mod view;

pub use error::{JsonType, WireError};
pub use event::SessionEvent;
pub use frame::{Frame, ViewEnvelope, ViewFor};
pub use kind::{EventKind, KNOWN_EVENT_TYPES};
pub use raw::RawJson;
pub use record::{Diagnostic, Origin, Record};
pub use view::View;
