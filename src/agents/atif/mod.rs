//! Harbor's Agent Trajectory Interchange Format (ATIF): `trajectory.json`,
//! one JSON document per run of any agent Harbor runs, read into deck's
//! records (`read`) and drawn as generic cards (`present`).
//!
//! Harbor writes a trial's trajectory under its job's folder
//! (`<job>/<trial>/agent/trajectory.json`); there is no store of its own on
//! this machine for `deck follow --latest`, the library finds them in the
//! folders the user adds (a jobs folder: `Agent::session_file_name`), and
//! nothing resumes a trajectory.
//!
//! Read from the documented format (the ATIF v1.4 RFC), not yet verified
//! against a Harbor run.

use std::sync::OnceLock;

use serde_json::Value;

use super::read::Translate;
use super::{Agent, Entries, Format};
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

    /// The root (its steps apart), then each step.
    fn document_entries(&self, shape: &Value) -> Option<Entries> {
        read::is_root(shape).then_some(Entries::Member("steps"))
    }

    fn presenters(&self) -> Option<SharedPresenters> {
        static P: OnceLock<SharedPresenters> = OnceLock::new();
        Some(super::shared(&P, || std::sync::Arc::new(present::Atif)))
    }

    /// A trial's `agent/trajectory.json` in a jobs folder the user adds.
    fn session_file_name(&self, name: &str) -> bool {
        name == "trajectory.json"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn its_trajectories_are_found_by_name_in_a_folder_the_user_adds() {
        assert!(Atif.session_file_name("trajectory.json"));
        for other in ["trajectory.jsonl", "result.json", "config.json", "my-trajectory.json"] {
            assert!(!Atif.session_file_name(other), "{other}");
        }
    }
}
