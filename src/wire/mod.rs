//! The lenient serde model of what DSH sends and stores: session events,
//! WebSocket frames (envelopes and bare), and render intents (views).
//!
//! Parsing here never panics and never drops input silently: what does not
//! fit is returned as an error string that callers turn into a diagnostic.
//! The raw JSON is kept next to every typed value.

pub mod event;
pub mod frame;
pub mod record;
pub mod view;

pub use event::SessionEvent;
pub use frame::{Frame, ViewEnvelope, ViewFor};
pub use record::{Diagnostic, Origin, Record};
pub use view::View;
