//! The lenient serde model of what DSH sends and stores: session events,
//! WebSocket frames (envelopes and bare), and render intents (views).
//!
//! Parsing here never panics and never drops input silently: what does not
//! fit is returned as a [`WireError`] that callers turn into a diagnostic.
//! The raw JSON is kept next to every typed value, as text ([`RawJson`]).
//!
//! One typed model, whichever path decodes it: an event's `type` is an
//! [`EventKind`] (`kind.rs`), its data a typed payload when the transcript
//! folds it (`payload.rs`), a view a [`View`] (`view.rs`). The fast paths —
//! borrowed lines (`fast.rs`) and the head of a read view
//! (`read_prefix.rs`) — decode into the same types as the lenient ones
//! (`frame.rs`, `event.rs`), over the shared field readers of `de/`.

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
