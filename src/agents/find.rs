//! Where the agents keep their sessions, and the newest one for a
//! directory: what `deck follow --latest claude|codex` opens. Claude Code
//! keeps `$CLAUDE_CONFIG_DIR` (default `~/.claude`) `/projects/<cwd with
//! every character but letters and digits as '-'>/<session>.jsonl`; Codex
//! keeps `$CODEX_HOME` (default `~/.codex`) `/sessions/YYYY/MM/DD/
//! rollout-*.jsonl[.zst]`, its cwd in the first line.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::Agent;

/// The agent's own folder: its environment override, else under home.
pub fn root(agent: Agent) -> Option<PathBuf> {
    let (var, dir) = match agent {
        Agent::ClaudeCode => ("CLAUDE_CONFIG_DIR", ".claude"),
        Agent::Codex => ("CODEX_HOME", ".codex"),
        // ACP recordings are kept where `--record` wrote them.
        Agent::Acp => return None,
    };
    match std::env::var_os(var).filter(|v| !v.is_empty()) {
        Some(v) => Some(PathBuf::from(v)),
        None => etcetera::home_dir().ok().map(|h| h.join(dir)),
    }
}

/// Claude Code's name for a project folder: the path with every character
/// but ASCII letters and digits replaced by `-`.
pub fn claude_project(cwd: &Path) -> String {
    cwd.to_string_lossy()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}

/// The newest session of `agent` under `root` whose directory is `cwd`,
/// or why there is none (naming where deck looked).
pub fn latest_in(agent: Agent, root: &Path, cwd: &Path) -> Result<PathBuf, String> {
    latest_since(agent, root, cwd, SystemTime::UNIX_EPOCH)
}

/// [`latest_in`] among the files modified at `since` or later: what
/// `deck follow --latest` looks at while it waits for the agent's first
/// session here (the older ones were looked at once, so each poll reads
/// the first line of new rollouts only).
pub fn latest_since(
    agent: Agent,
    root: &Path,
    cwd: &Path,
    since: SystemTime,
) -> Result<PathBuf, String> {
    let recent = |p: &PathBuf| modified(p).is_some_and(|t| t >= since);
    match agent {
        Agent::ClaudeCode => {
            let dir = root.join("projects").join(claude_project(cwd));
            newest(files(&dir).into_iter().filter(|p| has_ext(p, "jsonl") && recent(p)))
                .ok_or_else(|| format!("no Claude Code session for {} in {}", cwd.display(), dir.display()))
        }
        Agent::Codex => {
            let dir = root.join("sessions");
            let mut all = Vec::new();
            walk(&dir, 4, &mut all);
            all.retain(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("rollout-") && (n.ends_with(".jsonl") || n.ends_with(".jsonl.zst")))
            });
            // Newest first; the first whose cwd is this one.
            let mut dated: Vec<(SystemTime, PathBuf)> = all
                .into_iter()
                .filter_map(|p| Some((modified(&p)?, p)))
                .filter(|(t, _)| *t >= since)
                .collect();
            dated.sort_by_key(|d| std::cmp::Reverse(d.0));
            dated
                .into_iter()
                .map(|(_, p)| p)
                .find(|p| codex_cwd(p).is_some_and(|c| Path::new(&c) == cwd))
                .ok_or_else(|| format!("no Codex session for {} in {}", cwd.display(), dir.display()))
        }
        Agent::Acp => Err(format!(
            "ACP recordings have no folder of their own to look in (under {})",
            root.display()
        )),
    }
}

/// The cwd a rollout's first line gives (`session_meta`'s payload, or the
/// oldest files' top level).
fn codex_cwd(path: &Path) -> Option<String> {
    let file = std::fs::File::open(path).ok()?;
    let reader: Box<dyn Read> = if has_ext(path, "zst") {
        Box::new(zstd::Decoder::new(file).ok()?)
    } else {
        Box::new(file)
    };
    // The first line only, and at most 1 MB of it.
    let mut line = String::new();
    BufReader::new(reader.take(1 << 20)).read_line(&mut line).ok()?;
    let v: serde_json::Value = serde_json::from_str(line.trim()).ok()?;
    let payload = v.get("payload").unwrap_or(&v);
    payload
        .get("cwd")
        .or_else(|| payload.get("git").and_then(|g| g.get("cwd")))
        .and_then(|c| c.as_str())
        .map(str::to_string)
}

fn has_ext(p: &Path, ext: &str) -> bool {
    p.extension().is_some_and(|e| e == ext)
}

/// The files right in `dir`.
fn files(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.is_file())
                .collect()
        })
        .unwrap_or_default()
}

/// Every file under `dir`, `depth` folders deep at most.
fn walk(dir: &Path, depth: usize, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.filter_map(Result::ok) {
        let p = e.path();
        if p.is_dir() {
            if depth > 0 {
                walk(&p, depth - 1, out);
            }
        } else {
            out.push(p);
        }
    }
}

fn modified(p: &Path) -> Option<SystemTime> {
    p.metadata().ok()?.modified().ok()
}

/// The most recently modified of `paths`.
fn newest(paths: impl Iterator<Item = PathBuf>) -> Option<PathBuf> {
    paths
        .filter_map(|p| Some((modified(&p)?, p)))
        .max_by(|a, b| a.0.cmp(&b.0))
        .map(|(_, p)| p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn touch(path: &Path, text: &str, age_s: u64) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
        let t = std::time::SystemTime::now() - std::time::Duration::from_secs(age_s);
        std::fs::File::options()
            .write(true)
            .open(path)
            .unwrap()
            .set_modified(t)
            .unwrap();
    }

    #[test]
    fn claude_projects_are_named_after_the_directory() {
        assert_eq!(claude_project(Path::new("/home/me/my_proj.v2")), "-home-me-my-proj-v2");
    }

    #[test]
    fn the_newest_session_of_this_directory() {
        let root = tempfile::tempdir().unwrap();
        let cwd = Path::new("/work/proj");
        let project = root.path().join("projects/-work-proj");
        touch(&project.join("old.jsonl"), "{}\n", 100);
        touch(&project.join("new.jsonl"), "{}\n", 10);
        touch(&root.path().join("projects/-work-other/newest.jsonl"), "{}\n", 1);
        let got = latest_in(Agent::ClaudeCode, root.path(), cwd).unwrap();
        assert!(got.ends_with("new.jsonl"), "{got:?}");
        let none = latest_in(Agent::ClaudeCode, root.path(), Path::new("/nowhere")).unwrap_err();
        assert!(none.contains("no Claude Code session for /nowhere"), "{none}");

        let sessions = root.path().join("sessions/2026/12/01");
        let meta = |cwd: &str| format!("{{\"timestamp\":\"2026-12-01T10:00:00Z\",\"type\":\"session_meta\",\"payload\":{{\"id\":\"x\",\"cwd\":\"{cwd}\"}}}}\n");
        touch(&sessions.join("rollout-a.jsonl"), &meta("/work/proj"), 50);
        touch(&sessions.join("rollout-b.jsonl"), &meta("/work/other"), 5);
        touch(&sessions.join("notes.txt"), "x", 1);
        let got = latest_in(Agent::Codex, root.path(), cwd).unwrap();
        assert!(got.ends_with("rollout-a.jsonl"), "{got:?}");
        assert!(latest_in(Agent::Codex, root.path(), Path::new("/nowhere")).is_err());
        // Only files modified since: the older ones are not read again.
        let since = SystemTime::now() - std::time::Duration::from_secs(5);
        assert!(latest_since(Agent::Codex, root.path(), cwd, since).is_err());
        assert!(latest_since(Agent::ClaudeCode, root.path(), cwd, since).is_err());
        touch(&sessions.join("rollout-c.jsonl"), &meta("/work/proj"), 0);
        let got = latest_since(Agent::Codex, root.path(), cwd, since).unwrap();
        assert!(got.ends_with("rollout-c.jsonl"), "{got:?}");
    }
}
