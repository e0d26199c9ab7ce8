//! The terminals deck runs for an ACP agent (`terminal/create`): one child
//! process each, its stdout and stderr gathered into one buffer capped at
//! the agent's `outputByteLimit` and never past deck's own [`MOST`] (the
//! oldest bytes dropped first, at a character boundary, as the protocol
//! says), its exit watched. When it ends, what deck saw of it — the output
//! kept and how it exited — goes to the session as a [`Later::Seen`]
//! before the exit is told to anyone waiting for it, so the recording
//! holds it ahead of the agent's word about it. Each runs in a process
//! group of its own, registered with the session's [`Procs`]: killing,
//! releasing and the end of the session stop the whole group at once and
//! what the command started outside it while still below it (a shell
//! line's children too, not only the shell); every terminal still running
//! when [`Terminals`] is dropped is killed.

use std::collections::HashMap;
use std::path::Path;
use std::process::Stdio;
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::process::Command;
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;

use super::Later;
use super::procs::{self, Procs};

/// The most output deck keeps of a terminal, whatever the agent asks for
/// (and what it keeps when the agent names no limit).
pub const MOST: usize = 1 << 20;

/// The output limit of a terminal: the agent's, within deck's own.
pub fn limit(asked: Option<u64>) -> usize {
    asked.map_or(MOST, |l| usize::try_from(l).unwrap_or(usize::MAX).min(MOST))
}

/// How a terminal's process ended: `{exitCode, signal}` as ACP says it.
pub type Exit = super::protocol::Exit;

/// How many terminals the agent may hold at once (not released): each
/// keeps up to [`MOST`] of output.
pub const MOST_TERMINALS: usize = 64;

/// The last `limit` bytes of a stream (a terminal's output, the agent's
/// stderr), cut on a UTF-8 boundary: a ring, so that dropping the oldest
/// bytes costs what is dropped, not what is kept.
#[derive(Debug, Default)]
pub(super) struct Output {
    text: std::collections::VecDeque<u8>,
    truncated: bool,
    limit: usize,
}

impl Output {
    pub(super) fn with_limit(limit: usize) -> Output {
        Output {
            limit,
            ..Default::default()
        }
    }

    fn push(&mut self, bytes: &[u8]) {
        // Only the last `limit` bytes of a chunk can stay.
        let skip = bytes.len().saturating_sub(self.limit);
        self.text.extend(&bytes[skip..]);
        let mut cut = self.text.len().saturating_sub(self.limit);
        if skip > 0 || cut > 0 {
            // Never start in the middle of a UTF-8 sequence.
            while cut < self.text.len() && (self.text[cut] & 0xC0) == 0x80 {
                cut += 1;
            }
            self.text.drain(..cut);
            self.truncated = true;
        }
    }

    /// The bytes kept, in one piece.
    pub(super) fn bytes(&mut self) -> &[u8] {
        self.text.make_contiguous()
    }

    /// The bytes kept as text (lossy), and whether some were dropped.
    pub(super) fn text(&mut self) -> (String, bool) {
        let truncated = self.truncated;
        (String::from_utf8_lossy(self.bytes()).into_owned(), truncated)
    }
}

/// One running (or finished) terminal.
struct Terminal {
    /// The process group (the shell's pid), while it may run.
    group: Option<i32>,
    output: Arc<Mutex<Output>>,
    exit: watch::Receiver<Option<Exit>>,
    kill: mpsc::Sender<()>,
}

/// The terminals of one session, by id (`term-1`, `term-2`, …).
pub struct Terminals {
    next: u64,
    all: HashMap<String, Terminal>,
    /// Where what deck saw of each goes once it ended.
    later: mpsc::Sender<Later>,
    procs: Arc<Procs>,
    /// The task watching each terminal (released ones too): done once its
    /// [`Later::Seen`] was sent.
    watchers: Vec<JoinHandle<()>>,
}

/// What `terminal/create` asked for.
pub struct Spec<'a> {
    pub command: &'a str,
    pub args: Vec<String>,
    pub env: Vec<(String, String)>,
    pub cwd: &'a Path,
    pub limit: usize,
}

impl Terminals {
    pub fn new(later: mpsc::Sender<Later>, procs: Arc<Procs>) -> Terminals {
        Terminals {
            next: 0,
            all: HashMap::new(),
            later,
            procs,
            watchers: Vec::new(),
        }
    }

    /// Start a terminal; its id, or why it could not start.
    pub fn create(&mut self, spec: Spec<'_>) -> Result<String, String> {
        if self.all.len() >= MOST_TERMINALS {
            return Err(format!(
                "cannot run {}: the agent holds {MOST_TERMINALS} terminals, deck's most (release one first)",
                spec.command
            ));
        }
        let mut cmd = if spec.args.is_empty() {
            // The whole shell line in `command` (what agents send).
            let mut c = Command::new("sh");
            c.arg("-c").arg(spec.command);
            c
        } else {
            let mut c = Command::new(spec.command);
            c.args(&spec.args);
            c
        };
        cmd.envs(spec.env)
            .current_dir(spec.cwd)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .kill_on_drop(true);
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("cannot run {}: {e}", spec.command))?;
        let group = child.id().and_then(|p| i32::try_from(p).ok());
        if let Some(g) = group {
            self.procs.started(g);
        }
        self.next += 1;
        let id = format!("term-{}", self.next);
        let output = Arc::new(Mutex::new(Output::with_limit(spec.limit.min(MOST))));
        let readers = [
            child.stdout.take().map(|s| gather(s, output.clone())),
            child.stderr.take().map(|s| gather(s, output.clone())),
        ];
        let (exit_tx, exit) = watch::channel(None);
        let (kill, mut kill_rx) = mpsc::channel::<()>(1);
        let (later, kept, terminal) = (self.later.clone(), output.clone(), id.clone());
        let reaper = self.procs.clone();
        let watcher = tokio::spawn(async move {
            let status = tokio::select! {
                s = child.wait() => s,
                _ = kill_rx.recv() => {
                    let _ = child.start_kill();
                    child.wait().await
                }
            };
            // The output is whole once both pipes are closed (a killed
            // shell's children may hold them: not waited for then).
            for r in readers.into_iter().flatten() {
                let _ = tokio::time::timeout(std::time::Duration::from_millis(200), r).await;
            }
            let exit = exit_of(status.ok());
            // What it left behind and ended since was handed to deck.
            let _ = tokio::task::spawn_blocking(move || reaper.reap_orphans()).await;
            // What deck saw, recorded before anyone hears of the exit.
            let _ = later.send(Later::Seen(seen(&terminal, &kept, &exit))).await;
            let _ = exit_tx.send(Some(exit));
        });
        self.watchers.retain(|w| !w.is_finished());
        self.watchers.push(watcher);
        let t = Terminal {
            group,
            output,
            exit,
            kill,
        };
        self.all.insert(id.clone(), t);
        Ok(id)
    }

    /// `terminal/output`'s answer (`None`: no such terminal).
    pub fn output(&self, id: &str) -> Option<Value> {
        let t = self.all.get(id)?;
        let (text, truncated) = match t.output.lock() {
            Ok(mut o) => o.text(),
            Err(_) => (String::new(), false),
        };
        let exit = t.exit.borrow().clone();
        Some(super::protocol::output(text, truncated, exit))
    }

    /// A receiver of the terminal's exit, for `terminal/wait_for_exit`.
    pub fn exit(&self, id: &str) -> Option<watch::Receiver<Option<Exit>>> {
        self.all.get(id).map(|t| t.exit.clone())
    }

    /// `terminal/kill`: stop the process, keep the terminal. False: no such terminal.
    pub fn kill(&self, id: &str) -> bool {
        match self.all.get(id) {
            Some(t) => {
                t.stop();
                true
            }
            None => false,
        }
    }

    /// `terminal/release`: stop the process and forget the terminal.
    pub fn release(&mut self, id: &str) -> bool {
        let known = self.kill(id);
        self.all.remove(id);
        known
    }

    /// Stop every terminal (the session ends).
    pub fn kill_all(&mut self) {
        for t in self.all.values() {
            t.stop();
        }
    }

    /// The tasks watching terminals that have not sent what deck saw yet.
    pub(super) fn take_watchers(&mut self) -> Vec<JoinHandle<()>> {
        std::mem::take(&mut self.watchers)
    }
}

/// What deck saw of a terminal that ended: `{terminalId, output,
/// truncated, exitStatus}` (the `terminal/output` answer's fields).
fn seen(id: &str, output: &Mutex<Output>, exit: &Exit) -> Value {
    let (text, truncated) = match output.lock() {
        Ok(mut o) => o.text(),
        Err(_) => (String::new(), false),
    };
    let mut v = super::protocol::output(text, truncated, Some(exit.clone()));
    if let Some(o) = v.as_object_mut() {
        o.insert("terminalId".into(), json!(id));
    }
    v
}

impl Terminal {
    /// Kill its process group now (not only when the task watching it
    /// runs next: the session may be ending), and have it reaped.
    fn stop(&self) {
        if self.exit.borrow().is_none()
            && let Some(g) = self.group
        {
            procs::kill_tree(g, g);
        }
        let _ = self.kill.try_send(());
    }
}

impl Drop for Terminals {
    fn drop(&mut self) {
        self.kill_all();
    }
}

/// Wait for a terminal's exit.
pub async fn wait(mut exit: watch::Receiver<Option<Exit>>) -> Exit {
    loop {
        if let Some(e) = exit.borrow().clone() {
            return e;
        }
        if exit.changed().await.is_err() {
            return exit.borrow().clone().unwrap_or_default();
        }
    }
}

/// Read `r` to its end into `out`.
pub(super) fn gather<R: AsyncRead + Unpin + Send + 'static>(
    mut r: R,
    out: Arc<Mutex<Output>>,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut buf = vec![0u8; 8192];
        while let Ok(n) = r.read(&mut buf).await {
            if n == 0 {
                break;
            }
            if let Ok(mut o) = out.lock() {
                o.push(&buf[..n]);
            }
        }
    })
}

fn exit_of(status: Option<std::process::ExitStatus>) -> Exit {
    use std::os::unix::process::ExitStatusExt;
    let code = status.and_then(|s| s.code());
    let signal = status.and_then(|s| s.signal()).map(signal_name);
    super::protocol::exit(code, signal)
}

fn signal_name(n: i32) -> String {
    match n {
        libc::SIGKILL => "SIGKILL".into(),
        libc::SIGTERM => "SIGTERM".into(),
        libc::SIGINT => "SIGINT".into(),
        libc::SIGHUP => "SIGHUP".into(),
        n => format!("signal {n}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An agent holds at most [`MOST_TERMINALS`] terminals at once.
    #[tokio::test]
    async fn an_agent_holds_at_most_decks_number_of_terminals() {
        let (tx, _rx) = mpsc::channel(4 * MOST_TERMINALS);
        let mut t = Terminals::new(tx, Arc::new(Procs::default()));
        let dir = std::env::temp_dir();
        let spec = || Spec {
            command: "true",
            args: Vec::new(),
            env: Vec::new(),
            cwd: &dir,
            limit: 10,
        };
        let ids: Vec<String> = (0..MOST_TERMINALS).map(|_| t.create(spec()).unwrap()).collect();
        let e = t.create(spec()).unwrap_err();
        assert!(e.contains("64 terminals, deck's most"), "{e}");
        assert!(t.release(&ids[0]));
        assert!(t.create(spec()).is_ok());
    }

    /// Issue 28 §2: the agent's limit never raises deck's own.
    #[test]
    fn the_agents_output_limit_is_capped() {
        assert_eq!(limit(None), MOST);
        assert_eq!(limit(Some(1000)), 1000);
        assert_eq!(limit(Some(1 << 30)), MOST);
        assert_eq!(limit(Some(u64::MAX)), MOST);
    }

    #[test]
    fn output_keeps_the_newest_bytes_at_a_char_boundary() {
        let mut o = Output::with_limit(4);
        o.push("ab".as_bytes());
        o.push("cdé".as_bytes());
        assert!(o.truncated);
        assert_eq!(o.text(), ("cdé".to_string(), true));
        // A chunk longer than the limit keeps its end, at a boundary.
        let mut o = Output::with_limit(3);
        o.push("aaé€".as_bytes());
        assert_eq!(o.text(), ("€".to_string(), true));
        let mut o = Output::with_limit(8);
        o.push(b"abc");
        assert_eq!(o.text(), ("abc".to_string(), false));
    }
}
