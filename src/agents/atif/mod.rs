//! Harbor's Agent Trajectory Interchange Format (ATIF): `trajectory.json`,
//! one JSON document per run of any agent Harbor runs, read into deck's
//! records (`read`) and drawn as generic cards (`present`).
//!
//! Harbor writes a trial's trajectory under its job's folder
//! (`<job>/<trial>/agent/trajectory.json`); there is no store of its own on
//! this machine for the library or `deck follow --latest`, and nothing
//! resumes a trajectory.
//!
//! Read from the documented format (the ATIF v1.4 RFC), not yet verified
//! against a Harbor run.

use std::sync::OnceLock;

use serde_json::Value;

use super::read::Translate;
use super::{Agent, Format};
use crate::session::SharedPresenters;

pub mod present;
pub mod read;

/// Its name.
pub const NAME: &str = "atif";

/// An ATIF trajectory.
#[derive(Debug, Clone, Copy, Default)]
pub struct Atif;

impl Agent for Atif {
    fn name(&self) -> &'static str {
        NAME
    }

    fn format(&self) -> Format {
        Format::Atif
    }

    fn title(&self) -> &'static str {
        "ATIF trajectory"
    }

    /// A trajectory written on one line (its root, steps inline).
    fn claims(&self, v: &Value) -> bool {
        read::is_root(v)
    }

    fn reader(&self) -> Option<Box<dyn Translate>> {
        Some(Box::new(read::Reader::default()))
    }

    fn document(&self, doc: &Value) -> Option<Vec<Value>> {
        read::lines(doc)
    }

    fn presenters(&self) -> Option<SharedPresenters> {
        static P: OnceLock<SharedPresenters> = OnceLock::new();
        Some(super::shared(&P, || std::sync::Arc::new(present::Atif)))
    }
}
