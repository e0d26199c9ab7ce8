//! Where the sessions on this machine are: each agent's own folder — DSH's
//! `$DSH_HOME` (default `~/.dsh`) `/sessions/**/session.jsonl[.zstd]`,
//! Claude Code's `$CLAUDE_CONFIG_DIR` (default `~/.claude`)
//! `/projects/*/*.jsonl` (a subagent's own log is read with its parent's,
//! so `subagents/` folders are not listed), Codex's `$CODEX_HOME` (default
//! `~/.codex`) `/sessions/**/rollout-*.jsonl[.zst]` — and the folders the
//! user adds (`--dir`, the config file's `[library] dirs`), where every
//! `.jsonl`, `.jsonl.zst` and `.jsonl.zstd` file is a candidate. Only
//! names and metadata are read here; symlinked folders are not followed.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

/// The folders to look in.
#[derive(Debug, Clone, Default)]
pub struct Roots {
    /// DSH's home (its `sessions/` is looked in).
    pub dsh: Option<PathBuf>,
    /// Claude Code's config folder (its `projects/`).
    pub claude: Option<PathBuf>,
    /// Codex's home (its `sessions/`).
    pub codex: Option<PathBuf>,
    /// Folders of any agent's sessions.
    pub extra: Vec<PathBuf>,
}

impl Roots {
    /// The agents' folders as their environment overrides (`DSH_HOME`,
    /// `CLAUDE_CONFIG_DIR`, `CODEX_HOME`) or the home folder say, and
    /// `extra`.
    pub fn from_env(extra: Vec<PathBuf>) -> Roots {
        let home = etcetera::home_dir().ok();
        let pick = |var: &str, dir: &str| {
            std::env::var_os(var)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
                .or_else(|| home.as_ref().map(|h| h.join(dir)))
        };
        Roots {
            dsh: pick("DSH_HOME", ".dsh"),
            claude: pick("CLAUDE_CONFIG_DIR", ".claude"),
            codex: pick("CODEX_HOME", ".codex"),
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

/// How deep folders are walked below a root.
const DEPTH: usize = 8;

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
        out.push(Found {
            size: meta.len(),
            mtime_ns: mtime_ns(&meta),
            path,
            agent,
        });
    };
    if let Some(root) = &roots.dsh {
        for p in walk(&root.join("sessions"), DEPTH) {
            if matches!(name(&p), "session.jsonl" | "session.jsonl.zstd" | "session.jsonl.zst") {
                add(p, Some("dsh"), &mut out);
            }
        }
    }
    if let Some(root) = &roots.claude {
        for project in dirs(&root.join("projects")) {
            for p in walk(&project, 0) {
                if name(&p).ends_with(".jsonl") {
                    add(p, Some("claude-code"), &mut out);
                }
            }
        }
    }
    if let Some(root) = &roots.codex {
        for p in walk(&root.join("sessions"), DEPTH) {
            let n = name(&p);
            if n.starts_with("rollout-") && (n.ends_with(".jsonl") || n.ends_with(".jsonl.zst")) {
                add(p, Some("codex"), &mut out);
            }
        }
    }
    for dir in &roots.extra {
        for p in walk(dir, DEPTH) {
            let n = name(&p);
            let subagent = p
                .parent()
                .and_then(Path::file_name)
                .is_some_and(|d| d == "subagents");
            if !subagent && [".jsonl", ".jsonl.zst", ".jsonl.zstd"].iter().any(|e| n.ends_with(e)) {
                add(p, None, &mut out);
            }
        }
    }
    out.sort_by(|a, b| b.mtime_ns.cmp(&a.mtime_ns).then_with(|| a.path.cmp(&b.path)));
    out
}

/// Nanoseconds since the epoch of a file's last change (0 when unknown).
pub fn mtime_ns(meta: &std::fs::Metadata) -> i64 {
    meta.modified()
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| i64::try_from(d.as_nanos()).unwrap_or(i64::MAX))
}

fn name(p: &Path) -> &str {
    p.file_name().and_then(|n| n.to_str()).unwrap_or("")
}

/// The folders right in `dir` (not through symlinks).
fn dirs(dir: &Path) -> Vec<PathBuf> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    rd.filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.path())
        .collect()
}

/// The files under `dir`, `depth` folders deep at most; symlinked folders
/// are not entered (no loops), symlinked files are listed.
fn walk(dir: &Path, depth: usize) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![(dir.to_path_buf(), depth)];
    while let Some((dir, depth)) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in rd.filter_map(Result::ok) {
            let Ok(t) = e.file_type() else { continue };
            if t.is_dir() {
                if depth > 0 {
                    stack.push((e.path(), depth - 1));
                }
            } else {
                out.push(e.path());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let roots = Roots {
            dsh: Some(h.join(".dsh")),
            claude: Some(h.join(".claude")),
            codex: Some(h.join(".codex")),
            extra: vec![h.join("mine"), h.join(".claude")],
        };
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
            dsh: Some(h.join("nowhere")),
            extra: vec![h.join("d")],
            ..Roots::default()
        };
        let got = discover(&roots);
        assert_eq!(got.len(), 1, "{got:?}");
    }
}
