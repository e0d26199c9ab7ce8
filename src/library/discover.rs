//! Where the sessions on this machine are: each agent's own folder, as
//! the registry says (`Agent::home`, moved by its environment variable:
//! DSH's `$DSH_HOME`, Claude Code's `$CLAUDE_CONFIG_DIR`, Codex's
//! `$CODEX_HOME`; `Agent::sessions` lists its files there) — and the
//! folders the user adds (`--dir`, the config file's `[library] dirs`),
//! where every `.jsonl`, `.jsonl.zst` and `.jsonl.zstd` file is a
//! candidate, and a file an agent names as its session
//! (`Agent::session_file_name`: aider's `.aider.chat.history.md`) (but a
//! file that is part of another session's: `Agent::part_of_another`). Only names and metadata are read here;
//! symlinked folders are not followed.

use std::collections::HashSet;
use std::path::PathBuf;

use crate::agents::find::{DEPTH, files_under, name};
use crate::agents::{self, Agent};

/// The folders to look in.
#[derive(Debug, Clone, Default)]
pub struct Roots {
    /// Each agent's own folder (its sessions there: `Agent::sessions`).
    pub agents: Vec<(&'static dyn Agent, PathBuf)>,
    /// Folders of any agent's sessions.
    pub extra: Vec<PathBuf>,
}

impl Roots {
    /// The agents' folders as their environment overrides or the home
    /// folder say ([`Agent::root`]), and `extra`.
    pub fn from_env(extra: Vec<PathBuf>) -> Roots {
        Roots {
            agents: agents::ALL
                .iter()
                .filter_map(|&a| Some((a, a.root()?)))
                .collect(),
            extra,
        }
    }

    /// Each agent's folder under `home` (no environment override), and
    /// `extra`.
    #[cfg(any(test, feature = "internals"))]
    pub fn at(home: &std::path::Path, extra: Vec<PathBuf>) -> Roots {
        let env = |_: &str| None;
        Roots {
            agents: agents::ALL
                .iter()
                .filter_map(|&a| Some((a, a.home()?.resolve(env, Some(home))?)))
                .collect(),
            extra,
        }
    }
}

/// A session file found, with what the index keys it by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub path: PathBuf,
    /// The agent its folder belongs to (`dsh`, `claude-code`, `codex`), or
    /// `None` in a folder the user added: its content says.
    pub agent: Option<&'static str>,
    pub size: u64,
    /// Modification time, ns since the epoch.
    pub mtime_ns: i64,
}

/// Every session file under `roots`, newest first, each once.
pub fn discover(roots: &Roots) -> Vec<Found> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    let mut add = |path: PathBuf, agent: Option<&'static str>, out: &mut Vec<Found>| {
        let Ok(meta) = std::fs::metadata(&path) else {
            return;
        };
        let key = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
        if !meta.is_file() || !seen.insert(key) {
            return;
        }
        let (size, mtime_ns) = stamp(&path, &meta);
        out.push(Found {
            size,
            mtime_ns,
            path,
            agent,
        });
    };
    for (agent, root) in &roots.agents {
        for p in agent.sessions(root) {
            add(p, Some(agent.name()), &mut out);
        }
    }
    for dir in &roots.extra {
        for p in files_under(dir, DEPTH) {
            let n = name(&p);
            let part = agents::ALL.iter().any(|a| a.part_of_another(&p));
            let log = [".jsonl", ".jsonl.zst", ".jsonl.zstd"].iter().any(|e| n.ends_with(e));
            if !part && (log || agents::ALL.iter().any(|a| a.session_file_name(n))) {
                add(p, None, &mut out);
            }
        }
    }
    out.sort_by(|a, b| b.mtime_ns.cmp(&a.mtime_ns).then_with(|| a.path.cmp(&b.path)));
    out
}

/// A session file's size and last change (ns since the epoch), `meta`
/// being its metadata: the root of an agent's tree of files with every
/// file of the tree (`Agent::stamp`); else the file's own, a database's
/// with its write-ahead log's (as the follower of a database takes it).
pub fn stamp(path: &std::path::Path, meta: &std::fs::Metadata) -> (u64, i64) {
    if let Some(tree) = agents::ALL.iter().find_map(|a| a.stamp(path)) {
        return tree;
    }
    crate::source::follow::stamp(path, meta)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn put(path: &Path) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, "{}\n").unwrap();
    }

    #[test]
    fn each_agent_where_it_keeps_its_sessions() {
        let home = tempfile::tempdir().unwrap();
        let h = home.path();
        put(&h.join(".dsh/sessions/--work--app--/s1/session.jsonl.zstd"));
        put(&h.join(".dsh/sessions/--work--app--/s1/notes.txt"));
        put(&h.join(".claude/projects/-work-app/abc.jsonl"));
        put(&h.join(".claude/projects/-work-app/abc/subagents/agent-1.jsonl"));
        put(&h.join(".codex/sessions/2026/12/01/rollout-x.jsonl.zst"));
        put(&h.join(".codex/sessions/2026/12/01/other.jsonl"));
        put(&h.join("mine/run/frames.jsonl"));
        put(&h.join("mine/run/x/subagents/agent-2.jsonl"));
        put(&h.join("mine/repo/.aider.chat.history.md"));
        put(&h.join("mine/repo/README.md"));
        let roots = Roots::at(h, vec![h.join("mine"), h.join(".claude")]);
        let mut got: Vec<(String, Option<&str>)> = discover(&roots)
            .into_iter()
            .map(|f| (f.path.strip_prefix(h).unwrap().display().to_string(), f.agent))
            .collect();
        got.sort();
        assert_eq!(
            got,
            vec![
                (".claude/projects/-work-app/abc.jsonl".into(), Some("claude-code")),
                (".codex/sessions/2026/12/01/rollout-x.jsonl.zst".into(), Some("codex")),
                (".dsh/sessions/--work--app--/s1/session.jsonl.zstd".into(), Some("dsh")),
                ("mine/repo/.aider.chat.history.md".into(), None),
                ("mine/run/frames.jsonl".into(), None),
            ]
        );
    }

    #[test]
    fn missing_folders_are_nothing_and_symlink_loops_end() {
        let home = tempfile::tempdir().unwrap();
        let h = home.path();
        put(&h.join("d/a.jsonl"));
        std::os::unix::fs::symlink(h.join("d"), h.join("d/loop")).unwrap();
        let roots = Roots {
            agents: vec![(&agents::dsh::Dsh, h.join("nowhere"))],
            extra: vec![h.join("d")],
        };
        let got = discover(&roots);
        assert_eq!(got.len(), 1, "{got:?}");
    }
}
