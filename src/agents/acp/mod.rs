//! Agent Client Protocol recordings (`{t, dir, msg}` lines, as `deck acp
//! --record` writes them): the messages both ways read into deck's records
//! (`read`), and presenters for ACP's tool calls, drawn from their `kind`
//! and content (`present`).
//!
//! A recording is kept where `--record` wrote it: ACP has no folder of its
//! own for the library or `deck follow --latest` to look in, and a session
//! is resumed (if at all) by the agent that was spoken to, not from here.

use std::sync::OnceLock;

use serde_json::Value;

use super::read::Translate;
use super::{Agent, Format};
use crate::session::SharedPresenters;

pub mod present;
pub mod read;

/// Its name.
pub const NAME: &str = "acp";

/// Any agent spoken to over the Agent Client Protocol, as a recording of
/// the messages both ways holds it.
#[derive(Debug, Clone, Copy, Default)]
pub struct Acp;

impl Agent for Acp {
    fn name(&self) -> &'static str {
        NAME
    }

    fn format(&self) -> Format {
        Format::Acp
    }

    fn title(&self) -> &'static str {
        "ACP recording"
    }

    fn claims(&self, v: &Value) -> bool {
        read::is_line(v)
    }

    fn reader(&self) -> Option<Box<dyn Translate>> {
        Some(Box::new(read::Reader::default()))
    }

    fn presenters(&self) -> Option<SharedPresenters> {
        static P: OnceLock<SharedPresenters> = OnceLock::new();
        Some(super::shared(&P, || std::sync::Arc::new(present::Acp)))
    }
}
