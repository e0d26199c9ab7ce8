//! DSH (DeepSeek Harness), deck's own: its frame logs, session logs and
//! history documents are deck's records as they are (`wire`), read by the
//! loader itself; `read` holds what tells those formats apart (a session
//! log's header, its packed chunk rows, history answers), `present` the
//! presenters of its stock tools, used when a log carries no views.
//!
//! It keeps `$DSH_HOME` (default `~/.dsh`) `/sessions/**/session.jsonl`
//! (or `.jsonl.zstd`); its sessions resume in DSH itself (`deck connect`),
//! not from a command.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::find::{DEPTH, files_under, name};
use super::read::Translate;
use super::{Agent, Format, Home};
use crate::session::SharedPresenters;

pub mod present;
pub mod read;

/// Its name.
pub const NAME: &str = "dsh";

/// DSH.
#[derive(Debug, Clone, Copy, Default)]
pub struct Dsh;

impl Agent for Dsh {
    fn name(&self) -> &'static str {
        NAME
    }

    fn format(&self) -> Format {
        Format::SessionLog
    }

    fn title(&self) -> &'static str {
        "session log"
    }

    /// None: DSH's lines are records as they are, read by the loader
    /// before any agent is asked.
    fn claims(&self, _v: &Value) -> bool {
        false
    }

    fn recognise(&self, head: &[u8]) -> bool {
        super::read::first_object_line(head).is_some_and(|v| read::is_line(&v))
    }

    fn reader(&self) -> Option<Box<dyn Translate>> {
        None
    }

    fn presenters(&self) -> Option<SharedPresenters> {
        None
    }

    fn home(&self) -> Option<Home> {
        Some(Home {
            var: "DSH_HOME",
            dir: ".dsh",
            under_var: "",
        })
    }

    fn sessions(&self, root: &Path) -> Vec<PathBuf> {
        files_under(&root.join("sessions"), DEPTH)
            .into_iter()
            .filter(|p| {
                matches!(
                    name(p),
                    "session.jsonl" | "session.jsonl.zstd" | "session.jsonl.zst"
                )
            })
            .collect()
    }
}
