//! The lenient serde model of what DSH sends and stores: session events,
//! WebSocket frames (envelopes and bare), and render intents (views).
//!
//! Parsing here never panics and never drops input silently: what does not
//! fit is returned as an error string that callers turn into a diagnostic.
//! The raw JSON is kept next to every typed value, as text ([`RawJson`]).

mod de;
pub mod error;
pub mod event;
mod fast;
pub mod frame;
pub mod raw;
pub mod read_prefix;
pub mod record;
pub mod view;

pub use error::{JsonType, WireError};
pub use event::SessionEvent;
pub use frame::{Frame, ViewEnvelope, ViewFor};
pub use raw::RawJson;
pub use record::{Diagnostic, Origin, Record};
pub use view::View;
