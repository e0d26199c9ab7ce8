//! The processes deck starts for an ACP session — the agent, the commands
//! its terminals run, and whatever those start — and how they are stopped.
//! Each is started in a process group of its own ([`Procs::started`] keeps
//! the groups). On Linux deck also makes itself their subreaper
//! (`PR_SET_CHILD_SUBREAPER`): a process that leaves its group and its
//! parent (`setsid`, a double fork) is handed to deck, not to init, so it
//! stays a descendant of deck, found in `/proc` and stopped with the rest.
//! [`Procs::stop_all`] ends every one of them (SIGTERM, then SIGKILL after
//! a grace) and names those still there after that; it blocks, and is
//! called outside the async runtime. This module signals processes; the
//! only ones it waits for (reaps) are orphans handed to deck
//! ([`Procs::reap_orphans`]), never a child deck started itself (tokio
//! waits for those).

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long a process has after SIGKILL to be gone before it is named as
/// one that could not be stopped.
const KILL_WAIT: Duration = Duration::from_secs(1);
/// How often the processes are looked at while waiting for them to go.
const POLL: Duration = Duration::from_millis(20);

/// The process groups of one session's processes.
#[derive(Debug, Default)]
pub struct Procs {
    groups: Mutex<Vec<i32>>,
    /// deck is the subreaper of what it starts (Linux).
    subreaper: bool,
}

impl Procs {
    /// The registry of a session; on Linux deck becomes the subreaper of
    /// what it starts from now on.
    pub fn new() -> Arc<Procs> {
        Arc::new(Procs {
            groups: Mutex::default(),
            subreaper: become_subreaper(),
        })
    }

    /// A process group deck started (the agent's, a terminal's).
    pub fn started(&self, group: i32) {
        if let Ok(mut g) = self.groups.lock() {
            g.push(group);
        }
    }

    /// Wait for the orphans handed to deck that ended (zombies whose
    /// parent is deck but which deck did not start itself), so that they
    /// do not pile up over a long session.
    pub fn reap_orphans(&self) {
        if !self.subreaper {
            return;
        }
        let ours = self.groups.lock().map(|g| g.clone()).unwrap_or_default();
        // SAFETY: getpid has no preconditions.
        let me = unsafe { libc::getpid() };
        for p in all() {
            if p.ppid == me && !p.runs() && !ours.contains(&p.pid) {
                // SAFETY: waits for one child that has ended, without blocking.
                unsafe {
                    libc::waitpid(p.pid, std::ptr::null_mut(), libc::WNOHANG);
                }
            }
        }
    }

    /// Stop everything the session started that still runs: SIGTERM, then
    /// after `grace` SIGKILL; what is still there after that, named
    /// (`1234 sleep`). Blocks for at most `grace` and a second.
    pub fn stop_all(&self, grace: Duration) -> Vec<String> {
        let groups = self.groups.lock().map(|g| g.clone()).unwrap_or_default();
        if self.subreaper {
            stop_descendants(grace)
        } else {
            stop_groups(&groups, grace)
        }
    }
}

/// Send `signal` to the process group `group` (gone already: nothing).
pub fn signal_group(group: i32, signal: i32) {
    // SAFETY: killpg only sends a signal; a group gone is ESRCH.
    unsafe {
        libc::killpg(group, signal);
    }
}

fn signal_pid(pid: i32, signal: i32) {
    // SAFETY: kill only sends a signal; a process gone is ESRCH.
    unsafe {
        libc::kill(pid, signal);
    }
}

/// Kill the process `pid`, its process group `group`, and (Linux) every
/// process it started that left the group (while they are still its
/// descendants): a terminal killed or released.
pub fn kill_tree(pid: i32, group: i32) {
    let below = descendants_of(pid);
    signal_group(group, libc::SIGKILL);
    for p in below {
        signal_pid(p.pid, libc::SIGKILL);
    }
}

#[cfg(target_os = "linux")]
fn become_subreaper() -> bool {
    // SAFETY: prctl with PR_SET_CHILD_SUBREAPER takes one integer argument.
    let r = unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) };
    if r != 0 {
        tracing::warn!(error = %std::io::Error::last_os_error(), "cannot become a subreaper");
    }
    r == 0
}

#[cfg(not(target_os = "linux"))]
fn become_subreaper() -> bool {
    false
}

/// One process as `/proc` says it.
#[derive(Debug, Clone, PartialEq)]
struct Proc {
    pid: i32,
    ppid: i32,
    state: char,
    name: String,
}

impl Proc {
    /// Still running (a zombie has ended: only its parent's wait is left).
    fn runs(&self) -> bool {
        !matches!(self.state, 'Z' | 'X' | 'x')
    }

    fn describe(&self) -> String {
        match self.state {
            'D' => format!("{} {} (in the kernel: state D)", self.pid, self.name),
            'T' | 't' => format!("{} {} (stopped)", self.pid, self.name),
            _ => format!("{} {}", self.pid, self.name),
        }
    }
}

/// A `/proc/PID/stat` line read: `pid (name) state ppid …` (the name may
/// hold spaces and parentheses: it ends at the last `)`).
fn parse_stat(text: &str) -> Option<Proc> {
    let open = text.find('(')?;
    let close = text.rfind(')')?;
    let pid = text.get(..open)?.trim().parse().ok()?;
    let name = text.get(open + 1..close)?.to_string();
    let mut rest = text.get(close + 1..)?.split_whitespace();
    let state = rest.next()?.chars().next()?;
    let ppid = rest.next()?.parse().ok()?;
    Some(Proc {
        pid,
        ppid,
        state,
        name,
    })
}

/// Every process of the machine (Linux; elsewhere none).
fn all() -> Vec<Proc> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(Result::ok)
        .filter(|e| e.file_name().to_str().is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit())))
        .filter_map(|e| std::fs::read_to_string(e.path().join("stat")).ok())
        .filter_map(|s| parse_stat(&s))
        .collect()
}

/// The descendants of `root` still running (children, theirs, …).
fn descendants_of(root: i32) -> Vec<Proc> {
    let procs = all();
    let mut found: Vec<Proc> = Vec::new();
    let mut parents = vec![root];
    while let Some(parent) = parents.pop() {
        for p in procs.iter().filter(|p| p.ppid == parent) {
            if found.iter().all(|f| f.pid != p.pid) {
                parents.push(p.pid);
                found.push(p.clone());
            }
        }
    }
    found.retain(Proc::runs);
    found
}

/// Everything below deck: SIGTERM, the grace, SIGKILL (again for what
/// appeared meanwhile), and what is left after [`KILL_WAIT`].
fn stop_descendants(grace: Duration) -> Vec<String> {
    // SAFETY: getpid has no preconditions.
    let me = unsafe { libc::getpid() };
    let running = descendants_of(me);
    if running.is_empty() {
        return Vec::new();
    }
    for p in &running {
        signal_pid(p.pid, libc::SIGTERM);
    }
    let gone = |until: Instant| loop {
        let left = descendants_of(me);
        if left.is_empty() || Instant::now() >= until {
            return left;
        }
        std::thread::sleep(POLL);
    };
    let mut left = gone(Instant::now() + grace);
    let until = Instant::now() + KILL_WAIT;
    while !left.is_empty() && Instant::now() < until {
        for p in &left {
            signal_pid(p.pid, libc::SIGKILL);
        }
        std::thread::sleep(POLL);
        left = descendants_of(me);
    }
    left.iter().map(Proc::describe).collect()
}

/// Without a subreaper: the groups deck started, as groups.
fn stop_groups(groups: &[i32], grace: Duration) -> Vec<String> {
    // A group with no process left: killpg(g, 0) fails.
    // SAFETY: signal 0 only checks that the group exists.
    let exists = |g: i32| unsafe { libc::killpg(g, 0) } == 0;
    let running: Vec<i32> = groups.iter().copied().filter(|&g| exists(g)).collect();
    if running.is_empty() {
        return Vec::new();
    }
    for &g in &running {
        signal_group(g, libc::SIGTERM);
    }
    let until = Instant::now() + grace;
    while running.iter().any(|&g| exists(g)) && Instant::now() < until {
        std::thread::sleep(POLL);
    }
    for &g in &running {
        signal_group(g, libc::SIGKILL);
    }
    let until = Instant::now() + KILL_WAIT;
    while running.iter().any(|&g| exists(g)) && Instant::now() < until {
        std::thread::sleep(POLL);
    }
    running
        .into_iter()
        .filter(|&g| exists(g))
        .map(|g| format!("process group {g}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_lines_are_read_with_any_name() {
        let p = parse_stat("4242 (my (odd) name) S 17 4242 4242 0 -1 4194560").unwrap();
        assert_eq!((p.pid, p.ppid, p.state, p.name.as_str()), (4242, 17, 'S', "my (odd) name"));
        assert!(p.runs());
        let z = parse_stat("7 (sh) Z 1 7 7").unwrap();
        assert!(!z.runs());
        assert_eq!(parse_stat("garbage"), None);
        assert_eq!(parse_stat("12 (x)"), None);
        assert!(
            parse_stat("9 (cat) D 1 9").unwrap().describe().contains("state D"),
            "a process in the kernel says so"
        );
    }

    /// A process's descendants are found through a process that left the
    /// group and the session (`setsid`), while its parent still waits.
    #[cfg(target_os = "linux")]
    #[test]
    fn descendants_are_found_across_sessions() {
        let mut child = std::process::Command::new("sh")
            .arg("-c")
            .arg("setsid sleep 30 & wait")
            .spawn()
            .unwrap();
        let pid = child.id() as i32;
        let start = Instant::now();
        let found = loop {
            let d = descendants_of(pid);
            if d.iter().any(|p| p.name == "sleep") || start.elapsed() > Duration::from_secs(10) {
                break d;
            }
            std::thread::sleep(POLL);
        };
        kill_tree(pid, pid);
        let _ = child.kill();
        let _ = child.wait();
        assert!(found.iter().any(|p| p.name == "sleep"), "{found:?}");
        let sleep = found.iter().find(|p| p.name == "sleep").unwrap().pid;
        // Killed with the tree (a zombie of init's, or gone).
        let start = Instant::now();
        while all().iter().any(|p| p.pid == sleep && p.runs()) {
            assert!(start.elapsed() < Duration::from_secs(10), "the setsid child survived kill_tree");
            std::thread::sleep(POLL);
        }
    }
}
