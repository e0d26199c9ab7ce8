//! mini-swe-agent, and the SWE-agent `.traj` family it comes from: their
//! trajectories read into deck's records (`read`) and their actions'
//! presenters (`present`).
//!
//! Both write one JSON document per run, rewritten whole after each step,
//! read through [`Agent::document`]. mini-swe-agent 2.x
//! (`trajectory_format: "mini-swe-agent-1.1"`): `{info, messages}`, the
//! chat the model saw; `mini` keeps its last run as `last_mini_run.traj.json`
//! in its global config folder (`$MSWEA_GLOBAL_CONFIG_DIR`, else
//! `~/.config/mini-swe-agent`), batch runs write
//! `<output>/<instance>/<instance>.traj.json`. SWE-agent (`<instance>.traj`):
//! `{trajectory, history, info}`, one step per action — the shape of the
//! public SWE-bench submissions' trajectories. Neither names a working
//! directory nor can be resumed.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde_json::Value;

use super::find::name;
use super::read::Translate;
use super::{Agent, Entries, Format, Home};
use crate::session::SharedPresenters;

pub mod present;
pub mod read;

/// Its name.
pub const NAME: &str = "mini-swe-agent";

/// Where `mini` keeps its last run (its global config folder; the
/// variable names that folder itself).
const HOME: Home = Home {
    var: "MSWEA_GLOBAL_CONFIG_DIR",
    dir: ".config/mini-swe-agent",
    under_var: "",
};

/// mini-swe-agent (and SWE-agent's trajectories).
#[derive(Debug, Clone, Copy, Default)]
pub struct MiniSweAgent;

impl Agent for MiniSweAgent {
    fn name(&self) -> &'static str {
        NAME
    }

    fn format(&self) -> Format {
        Format::MiniSweAgent
    }

    fn title(&self) -> &'static str {
        "mini-swe-agent trajectory"
    }

    fn claims(&self, v: &Value) -> bool {
        // A trajectory written on one line is a line of its own.
        read::is_trajectory(v)
    }

    fn reader(&self) -> Option<Box<dyn Translate>> {
        Some(Box::new(read::Reader::default()))
    }

    /// A SWE-agent trajectory, handed whole (its steps and history are
    /// read side by side).
    fn document(&self, doc: &Value) -> Option<Vec<Value>> {
        read::is_trajectory(doc).then(|| vec![doc.clone()])
    }

    /// A mini-swe-agent trajectory: its members (its messages apart), then
    /// each message.
    fn document_entries(&self, shape: &Value) -> Option<Entries> {
        read::is_mini(shape).then_some(Entries::Member("messages"))
    }

    fn presenters(&self) -> Option<SharedPresenters> {
        static P: OnceLock<SharedPresenters> = OnceLock::new();
        Some(super::shared(&P, || std::sync::Arc::new(present::MiniSweAgent)))
    }

    fn mapping(&self) -> &'static [super::Mapping] {
        present::MAPPING
    }

    fn home(&self) -> Option<Home> {
        Some(HOME)
    }

    fn sessions(&self, root: &Path) -> Vec<PathBuf> {
        let Ok(dir) = std::fs::read_dir(root) else {
            return Vec::new();
        };
        let mut out: Vec<PathBuf> = dir
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_file() && name(p).ends_with(".traj.json"))
            .collect();
        out.sort();
        out
    }

    /// A batch run's `<instance>.traj.json` and SWE-agent's
    /// `<instance>.traj`, in a folder the user adds (the batch's output
    /// folder, SWE-agent's `trajectories/`).
    fn session_file_name(&self, name: &str) -> bool {
        name.ends_with(".traj.json") || name.ends_with(".traj")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::find::touch;

    #[test]
    fn its_trajectories_in_its_config_folder() {
        let root = tempfile::tempdir().unwrap();
        touch(&root.path().join("last_mini_run.traj.json"), "{}", 10);
        touch(&root.path().join(".env"), "", 10);
        touch(&root.path().join("interactive_history.txt"), "", 10);
        let got = MiniSweAgent.sessions(root.path());
        assert_eq!(got, vec![root.path().join("last_mini_run.traj.json")]);
        let env = |_: &str| Some(std::ffi::OsString::from("/cfg"));
        assert_eq!(HOME.resolve(env, None), Some(PathBuf::from("/cfg")));
        let home = Some(Path::new("/root"));
        assert_eq!(HOME.resolve(|_| None, home), Some(PathBuf::from("/root/.config/mini-swe-agent")));
        assert!(MiniSweAgent.resume("x", None).is_none());
    }

    #[test]
    fn its_trajectories_are_found_by_name_in_a_folder_the_user_adds() {
        let a = MiniSweAgent;
        assert!(a.session_file_name("demo__demo-1.traj.json"));
        assert!(a.session_file_name("demo__demo-1.traj"));
        for other in ["demo__demo-1.pred", "demo__demo-1.patch", "run.config.yaml", "x.traj.bak"] {
            assert!(!a.session_file_name(other), "{other}");
        }
    }
}
